//! `affine`: addresses as affine functions of a loop's counter, and the dependence distance
//! between two accesses of one memory in a pipelined loop.
//!
//! An address is understood when it is `base + coef * iv + offset`, where `iv` is a carried
//! counter of the loop stepped by a constant (`iv = iv + step` every iteration), `base` one
//! value computed outside the loop (or none) and `coef`, `offset` constants. Two accesses
//! with the same `iv`, `base` and `coef` touch the same address `d` iterations apart exactly
//! when `coef * step * d = offset_1 - offset_2`. Everything else is "unknown", and the caller
//! assumes a dependence in every iteration.

use crate::ids::{LoopId, OpId};
use crate::kernel::{Dep, Kernel};
use crate::ops::{BinOp, ConvOp, OpKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine {
    /// The loop counter, if the address depends on it.
    pub iv: Option<OpId>,
    pub coef: i64,
    /// A value from outside the loop added to the address.
    pub base: Option<OpId>,
    pub offset: i64,
}

/// The step of `c` when it is a counter of loop `l`: `next = c + step`.
pub fn counter_step(k: &Kernel, c: OpId, l: LoopId) -> Option<i64> {
    if k.op(c).kind != OpKind::Carried || k.op(c).region != l {
        return None;
    }
    let next = k.preds(c).into_iter().find_map(|(s, d)| match d {
        Dep::Data { operand: 1, .. } => Some(s),
        _ => None,
    })?;
    match k.op(next).kind {
        OpKind::Binary(BinOp::Add) => {
            let ops = k.operands(next);
            match (ops[0] == c, ops[1] == c) {
                (true, _) => k.int_const_signed(ops[1]),
                (_, true) => k.int_const_signed(ops[0]),
                _ => None,
            }
        }
        OpKind::Binary(BinOp::Sub) if k.operands(next)[0] == c => {
            k.int_const_signed(k.operands(next)[1]).map(|s| -s)
        }
        _ => None,
    }
}

/// `addr` as an affine function of a counter of loop `l`, when it is one.
pub fn affine(k: &Kernel, addr: OpId, l: LoopId) -> Option<Affine> {
    affine_d(k, addr, l, 0)
}

fn affine_d(k: &Kernel, o: OpId, l: LoopId, depth: u32) -> Option<Affine> {
    if depth > 32 {
        return None;
    }
    let rec = |x: OpId| affine_d(k, x, l, depth + 1);
    if let Some(c) = k.int_const_signed(o) {
        return Some(Affine {
            iv: None,
            coef: 0,
            base: None,
            offset: c,
        });
    }
    if !k.encloses(l, k.op(o).region) {
        return Some(Affine {
            iv: None,
            coef: 0,
            base: Some(o),
            offset: 0,
        });
    }
    if counter_step(k, o, l).is_some() {
        return Some(Affine {
            iv: Some(o),
            coef: 1,
            base: None,
            offset: 0,
        });
    }
    let ops = k.operands(o);
    match k.op(o).kind {
        OpKind::Binary(BinOp::Add) => {
            let (a, b) = (rec(ops[0])?, rec(ops[1])?);
            add(a, b, 1)
        }
        OpKind::Binary(BinOp::Sub) => {
            let (a, b) = (rec(ops[0])?, rec(ops[1])?);
            if b.base.is_some() {
                return None;
            }
            add(a, b, -1)
        }
        OpKind::Binary(BinOp::Mul) => {
            let (a, b) = (rec(ops[0])?, rec(ops[1])?);
            let (x, c) = match (konst_aff(&a), konst_aff(&b)) {
                (_, Some(c)) => (a, c),
                (Some(c), _) => (b, c),
                _ => return None,
            };
            scale(x, c)
        }
        OpKind::Binary(BinOp::Shl) => {
            let s = k.int_const_signed(ops[1])?;
            if !(0..32).contains(&s) {
                return None;
            }
            scale(rec(ops[0])?, 1i64 << s)
        }
        // Width changes of 32-bit index arithmetic: the index stays the same number.
        OpKind::Convert(ConvOp::SExt | ConvOp::ZExt | ConvOp::Trunc) => rec(ops[0]),
        _ => None,
    }
}

fn konst_aff(a: &Affine) -> Option<i64> {
    (a.iv.is_none() && a.base.is_none()).then_some(a.offset)
}

fn scale(a: Affine, c: i64) -> Option<Affine> {
    if a.base.is_some() && c != 1 {
        return None;
    }
    Some(Affine {
        iv: a.iv,
        coef: a.coef.checked_mul(c)?,
        base: a.base,
        offset: a.offset.checked_mul(c)?,
    })
}

fn add(a: Affine, b: Affine, sign: i64) -> Option<Affine> {
    let iv = match (a.iv, b.iv) {
        (Some(x), Some(y)) if x != y => return None,
        (x, y) => x.or(y),
    };
    let base = match (a.base, b.base) {
        (Some(_), Some(_)) => return None,
        (x, y) => x.or(y),
    };
    Some(Affine {
        iv,
        coef: a.coef.checked_add(b.coef.checked_mul(sign)?)?,
        base,
        offset: a.offset.checked_add(b.offset.checked_mul(sign)?)?,
    })
}

/// What is known about the accesses at `a1` (earlier) and `a2` (later iteration) of loop `l`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// They never touch the same address in different iterations (with the second later).
    Independent,
    /// They touch the same address exactly `d` iterations apart.
    Exact(u32),
    /// Not understood: assume every iteration depends on the previous one.
    Unknown,
}

/// The dependence distance from an access at address `a1` to a later iteration's access at
/// `a2` in loop `l`.
pub fn distance(k: &Kernel, a1: OpId, a2: OpId, l: LoopId) -> Distance {
    let (Some(x), Some(y)) = (affine(k, a1, l), affine(k, a2, l)) else {
        return Distance::Unknown;
    };
    if x.base != y.base || x.coef != y.coef || (x.iv != y.iv && x.coef != 0) {
        return Distance::Unknown;
    }
    let diff = x.offset - y.offset;
    if x.coef == 0 || x.iv.is_none() {
        // The same address in every iteration, or never.
        return if diff == 0 {
            Distance::Exact(1)
        } else {
            Distance::Independent
        };
    }
    let Some(step) = x.iv.and_then(|c| counter_step(k, c, l)) else {
        return Distance::Unknown;
    };
    let per_iter = x.coef * step;
    if per_iter == 0 {
        return Distance::Unknown;
    }
    if diff % per_iter != 0 {
        return Distance::Independent;
    }
    match diff / per_iter {
        d if d >= 1 => u32::try_from(d).map_or(Distance::Unknown, Distance::Exact),
        _ => Distance::Independent,
    }
}
