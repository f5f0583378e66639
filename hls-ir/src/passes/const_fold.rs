//! `const-fold`: fold integer operations on constants, apply algebraic identities, reduce
//! multiplications by a power of two to shifts (wiring instead of a DSP multiplier) and signed
//! compares with 0 to sign-bit tests. Bit plumbing is simplified too: a bit select of a
//! constant, of a bit select or of a
//! concatenation reads its source directly, concatenations are flattened, neighbouring
//! selects of one value merge, and a concatenation that reassembles a whole value is that value
//! (so copying a struct or vector from one buffer to another is a plain load and store).
//! Requires: a verified kernel. Guarantees: no integer `Binary`/`Cmp`/`Convert`/`Select` op has
//! only constant operands; the kernel still verifies (folded values are masked to their type).
//! Floating-point ops are left alone: folding them must follow the rounding the hardware uses.
//! A load of a ROM (program-scope `constant` data) at a constant address is its element.

use crate::ids::OpId;
use crate::integer;
use crate::kernel::{Kernel, Op};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind};
use crate::types::Ty;

/// Evaluate an integer binary op on constants, or `None` when it must not be folded: division
/// by zero is left for the hardware path to report at run time, and `mul_hi` is not folded
/// (see [`crate::integer`]).
pub fn eval_binary(b: BinOp, ty: Ty, x: u64, y: u64) -> Option<u64> {
    if matches!(b, BinOp::MulHiU | BinOp::MulHiS) {
        return None;
    }
    integer::binary(b, ty.bits(), x, y)
}

/// Evaluate an integer comparison of two `bits`-bit constants (`None` for a float comparison).
pub fn eval_cmp(c: CmpOp, bits: u32, x: u64, y: u64) -> Option<bool> {
    integer::compare(c, bits, x, y)
}

pub(crate) fn fold(k: &Kernel, id: OpId) -> Option<Result<u64, OpId>> {
    let op = k.op(id);
    let args = k.operands(id);
    let c: Vec<Option<u64>> = args.iter().map(|&a| k.int_const(a)).collect();
    match &op.kind {
        OpKind::Binary(b) if !op.ty.is_float() => {
            if let (Some(x), Some(y)) = (c[0], c[1]) {
                return eval_binary(*b, op.ty, x, y).map(Ok);
            }
            // The same value twice: x ^ x, x - x -> 0; x & x, x | x, min/max(x, x) -> x
            // (Verilator folds `x ^ x` itself and then warns that a compare with it is
            // constant: the kernel fuzzer found it, `seed20261126_case1711.cl`).
            if args[0] == args[1] {
                match b {
                    BinOp::Xor | BinOp::Sub => return Some(Ok(0)),
                    BinOp::And
                    | BinOp::Or
                    | BinOp::MinS
                    | BinOp::MaxS
                    | BinOp::MinU
                    | BinOp::MaxU => return Some(Err(args[0])),
                    _ => {}
                }
            }
            // Identities: x+0, x-0, x|0, x^0, x<<0, x>>0 -> x ; x*1 -> x ; 0+x, 1*x -> x.
            match (b, c[0], c[1]) {
                (
                    BinOp::Add
                    | BinOp::Sub
                    | BinOp::Or
                    | BinOp::Xor
                    | BinOp::Shl
                    | BinOp::ShrU
                    | BinOp::ShrS,
                    _,
                    Some(0),
                ) => Some(Err(args[0])),
                (BinOp::Mul | BinOp::DivU | BinOp::DivS, _, Some(1)) => Some(Err(args[0])),
                // The hardware's value of a division by zero (`integer::binary`).
                (BinOp::DivU | BinOp::DivS, _, Some(0)) => Some(Ok(0)),
                (BinOp::RemU | BinOp::RemS, _, Some(0)) => Some(Err(args[0])),
                (BinOp::Add | BinOp::Or | BinOp::Xor, Some(0), _) => Some(Err(args[1])),
                (BinOp::Mul, Some(1), _) => Some(Err(args[1])),
                (BinOp::Mul | BinOp::And, _, Some(0)) | (BinOp::Mul | BinOp::And, Some(0), _) => {
                    Some(Ok(0))
                }
                // max(u, 0) -> u, min(u, 0) -> 0, ...: one constant decides.
                (BinOp::MinS | BinOp::MaxS | BinOp::MinU | BinOp::MaxU, _, _) => {
                    integer::decided_min_max(*b, op.ty.bits(), c[0], c[1]).map(|i| Err(args[i]))
                }
                _ => None,
            }
        }
        // An integer compared with itself: as 0 with 0.
        OpKind::Cmp(cmp) if args[0] == args[1] && !k.op(args[0]).ty.is_float() => {
            eval_cmp(*cmp, k.op(args[0]).ty.bits(), 0, 0).map(|b| Ok(b as u64))
        }
        OpKind::Cmp(cmp) => match (c[0], c[1]) {
            (Some(x), Some(y)) => {
                eval_cmp(*cmp, k.op(args[0]).ty.bits(), x, y).map(|b| Ok(b as u64))
            }
            // u < 0, u >= 0, u > 0xff.., ...: one constant decides.
            (x, y) if !k.op(args[0]).ty.is_float() => {
                integer::decided_compare(*cmp, k.op(args[0]).ty.bits(), x, y).map(|b| Ok(b as u64))
            }
            _ => None,
        },
        OpKind::Select => match c[0] {
            Some(1) => Some(Err(args[1])),
            Some(_) => Some(Err(args[2])),
            None if args[1] == args[2] => Some(Err(args[1])),
            None => None,
        },
        OpKind::Convert(cv) if !op.ty.is_float() => {
            let from = k.op(args[0]).ty;
            if from.is_float() {
                return None;
            }
            let x = c[0]?;
            integer::convert(*cv, from.bits(), op.ty.bits(), x).map(Ok)
        }
        OpKind::Load { mem } => rom_element(k, id, *mem).map(Ok),
        _ => None,
    }
}

/// A load of a ROM (program-scope `constant` data) at a constant address: the element's
/// value (elements of up to 64 bits; a load ordered against other accesses stays).
fn rom_element(k: &Kernel, id: OpId, mem: crate::ids::MemId) -> Option<u64> {
    let m = k.mem(mem);
    if !m.kind.is_rom() || m.elem.bits() > 64 {
        return None;
    }
    let ordered = |es: Vec<(OpId, crate::kernel::Dep)>| {
        es.iter()
            .any(|(_, d)| matches!(d, crate::kernel::Dep::Order { .. }))
    };
    if ordered(k.preds(id)) || ordered(k.succs(id)) {
        return None;
    }
    let addr = raw_const(k, k.operands(id)[0])? & 0xffff_ffff;
    let stride = u64::from(m.elem_bytes);
    if addr % stride != 0 || addr / stride >= u64::from(m.onchip_len()?) {
        return None;
    }
    let Some(bytes) = k.mem_init.get(&mem) else {
        return Some(0);
    };
    let n = m.elem.bits().div_ceil(8) as usize;
    let at = addr as usize;
    Some(
        bytes[at..at + n]
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &b)| w | (b as u64) << (8 * i)),
    )
}

/// The bit pattern of a constant of any type (wide constants are zero-extended).
fn raw_const(k: &Kernel, id: OpId) -> Option<u64> {
    match k.op(id).kind {
        OpKind::Const(v) => Some(v),
        _ => None,
    }
}

/// Bits `lo .. lo + w` of the zero-extended constant `v`.
fn const_bits(v: u64, lo: u32, w: u32) -> u64 {
    let x = if lo >= 64 { 0 } else { v >> lo };
    if w >= 64 {
        x
    } else {
        x & ((1u64 << w) - 1)
    }
}

/// What a bit-plumbing op simplifies to.
enum Bits {
    /// A constant of the op's type.
    Const(u64),
    /// An existing value of the op's type.
    Same(OpId),
    /// A new op of the op's type and region.
    New(OpKind, Vec<OpId>),
    /// A new concatenation of these pieces.
    Concat(Vec<Piece>),
    /// A new concatenation of pieces and constants (`Some(value)`: a constant of the piece's
    /// width).
    Pieces(Vec<(Option<u64>, Piece)>),
}

/// One piece of a concatenation: `w` bits of `src` from bit `lo`.
#[derive(Clone, Copy, PartialEq)]
struct Piece {
    src: OpId,
    lo: u32,
    w: u32,
}

fn piece(k: &Kernel, p: OpId) -> Piece {
    let w = k.op(p).ty.bits();
    match k.op(p).kind {
        OpKind::Extract { lo } => Piece {
            src: k.operands(p)[0],
            lo,
            w,
        },
        _ => Piece { src: p, lo: 0, w },
    }
}

fn simplify_bits(k: &Kernel, id: OpId) -> Option<Bits> {
    let op = k.op(id);
    let args = k.operands(id);
    match op.kind {
        OpKind::Extract { lo } => {
            let src = args[0];
            let w = op.ty.bits();
            if lo == 0 && k.op(src).ty == op.ty {
                return Some(Bits::Same(src));
            }
            if let Some(v) = raw_const(k, src) {
                return (w <= 64).then_some(Bits::Const(const_bits(v, lo, w)));
            }
            match k.op(src).kind {
                // Bits of an extension or truncation are bits of its operand (or the sign bit,
                // or zeros).
                OpKind::Convert(c @ (ConvOp::SExt | ConvOp::ZExt | ConvOp::Trunc)) => {
                    let x = k.operands(src)[0];
                    let fw = k.op(x).ty.bits();
                    let lo = if lo + w <= fw {
                        lo
                    } else if c == ConvOp::SExt && w == 1 {
                        fw - 1
                    } else if c == ConvOp::ZExt && lo >= fw {
                        return Some(Bits::Const(0));
                    } else {
                        return None;
                    };
                    Some(if lo == 0 && k.op(x).ty == op.ty {
                        Bits::Same(x)
                    } else {
                        Bits::New(OpKind::Extract { lo }, vec![x])
                    })
                }
                OpKind::Extract { lo: inner } => Some(Bits::New(
                    OpKind::Extract { lo: inner + lo },
                    k.operands(src),
                )),
                OpKind::Concat => {
                    // The part holding all the selected bits, if one does.
                    let mut at = 0;
                    for p in k.operands(src) {
                        let pw = k.op(p).ty.bits();
                        if lo >= at && lo + w <= at + pw {
                            return Some(if lo == at && k.op(p).ty == op.ty {
                                Bits::Same(p)
                            } else {
                                Bits::New(OpKind::Extract { lo: lo - at }, vec![p])
                            });
                        }
                        at += pw;
                    }
                    None
                }
                _ => None,
            }
        }
        OpKind::Concat => {
            if args.len() == 1 && k.op(args[0]).ty == op.ty {
                return Some(Bits::Same(args[0]));
            }
            // Flatten nested concatenations and merge neighbouring pieces of one source.
            let mut flat: Vec<OpId> = Vec::new();
            for &a in &args {
                if k.op(a).kind == OpKind::Concat {
                    flat.extend(k.operands(a));
                } else {
                    flat.push(a);
                }
            }
            if op.ty.bits() <= 64 && flat.iter().all(|&p| raw_const(k, p).is_some()) {
                let mut v = 0u64;
                let mut at = 0;
                for &p in &flat {
                    v |= raw_const(k, p).unwrap_or(0) << at;
                    at += k.op(p).ty.bits();
                }
                return Some(Bits::Const(v));
            }
            if flat.len() > 255 {
                return None;
            }
            let pieces: Vec<Piece> = flat.iter().map(|&p| piece(k, p)).collect();
            let mut merged: Vec<Piece> = Vec::new();
            for p in &pieces {
                match merged.last_mut() {
                    Some(m) if m.src == p.src && m.lo + m.w == p.lo => m.w += p.w,
                    _ => merged.push(*p),
                }
            }
            // Neighbouring constants become one (zeros at any width, others up to 64 bits).
            let mut consts: Vec<(Option<u64>, Piece)> = Vec::new();
            for p in &merged {
                let c = raw_const(k, p.src).map(|v| const_bits(v, p.lo, p.w));
                match (consts.last_mut(), c) {
                    (Some((Some(a), m)), Some(b)) if (*a == 0 && b == 0) || m.w + p.w <= 64 => {
                        *a |= if m.w >= 64 { 0 } else { b << m.w };
                        m.w += p.w;
                    }
                    _ => consts.push((c, *p)),
                }
            }
            if consts.len() < merged.len() {
                return Some(Bits::Pieces(consts));
            }
            if merged.len() == 1 {
                let m = merged[0];
                return Some(if m.lo == 0 && k.op(m.src).ty == op.ty {
                    Bits::Same(m.src)
                } else {
                    Bits::New(OpKind::Extract { lo: m.lo }, vec![m.src])
                });
            }
            if merged.len() == pieces.len() && flat.len() == args.len() {
                return None;
            }
            Some(Bits::Concat(merged))
        }
        OpKind::Convert(ConvOp::Bitcast) => {
            let v = raw_const(k, args[0])?;
            Some(Bits::Const(v))
        }
        _ => None,
    }
}

/// The op for a piece of a concatenation built from `op`: its source, or a bit select of it.
fn piece_op(k: &mut Kernel, op: &Op, p: &Piece) -> OpId {
    if p.lo == 0 && p.w == k.op(p.src).ty.bits() {
        p.src
    } else {
        k.add_op(
            Op {
                kind: OpKind::Extract { lo: p.lo },
                ty: Ty::Int(p.w as u16),
                name: None,
                ..op.clone()
            },
            &[p.src],
        )
    }
}

/// `x * 2^n` or `2^n * x` (integers) as `(x, n)`.
fn mul_by_power_of_two(k: &Kernel, id: OpId) -> Option<(OpId, u32)> {
    let op = k.op(id);
    if op.kind != OpKind::Binary(BinOp::Mul) || op.ty.is_float() {
        return None;
    }
    let args = k.operands(id);
    for (x, c) in [(args[0], args[1]), (args[1], args[0])] {
        if let Some(v) = k.int_const(c) {
            if v.is_power_of_two() {
                return Some((x, v.trailing_zeros()));
            }
        }
    }
    None
}

/// A signed compare of `x` with 0 (or -1) is a test of its sign bit: `(x, negated)` for
/// `x < 0` (`x <= -1`, `0 > x`: the sign bit) and `x >= 0` (`x > -1`, `0 <= x`: its
/// negation). The bit is the end of the carry chain that computes `x`, where a compare would
/// be a second chain (the flattened triangle nest's next-row test, `0 <= i + 1`, made an 11 ns
/// recurrence with the compare and II 2: `docs/benchmarks.md`, "Nested loops").
fn sign_test(k: &Kernel, id: OpId) -> Option<(OpId, bool)> {
    let OpKind::Cmp(c) = k.op(id).kind else {
        return None;
    };
    let args = k.operands(id);
    let (x, y) = (args[0], args[1]);
    if k.op(x).ty.is_float() || k.op(x).ty.bits() < 2 {
        return None;
    }
    let is = |o: OpId, v: i64| k.int_const_signed(o) == Some(v);
    match c {
        CmpOp::LtS if is(y, 0) => Some((x, false)),
        CmpOp::LeS if is(y, -1) => Some((x, false)),
        CmpOp::GtS if is(x, 0) => Some((y, false)),
        CmpOp::GeS if is(x, -1) => Some((y, false)),
        CmpOp::GeS if is(y, 0) => Some((x, true)),
        CmpOp::GtS if is(y, -1) => Some((x, true)),
        CmpOp::LeS if is(x, 0) => Some((y, true)),
        CmpOp::LtS if is(x, -1) => Some((y, true)),
        _ => None,
    }
}

pub fn run(k: &mut Kernel) {
    // Ids are created in topological order by lowering, but passes may not keep that, so
    // iterate to a fixed point.
    loop {
        let mut changed = false;
        for id in k.op_ids() {
            if !k.contains(id) {
                continue;
            }
            if let Some((x, n)) = mul_by_power_of_two(k, id) {
                let op = k.op(id).clone();
                let amount = k.add_op(
                    Op {
                        kind: OpKind::Const(n as u64),
                        name: None,
                        ..op.clone()
                    },
                    &[],
                );
                let shl = k.add_op(
                    Op {
                        kind: OpKind::Binary(BinOp::Shl),
                        ..op
                    },
                    &[x, amount],
                );
                k.replace_uses(id, shl);
                k.remove_op(id);
                changed = true;
                continue;
            }
            if let Some((x, negated)) = sign_test(k, id) {
                let op = k.op(id).clone();
                let lo = k.op(x).ty.bits() - 1;
                let sign = k.add_op(
                    Op {
                        kind: OpKind::Extract { lo },
                        name: None,
                        ..op.clone()
                    },
                    &[x],
                );
                let new = if negated {
                    k.add_op(
                        Op {
                            kind: OpKind::Unary(crate::ops::UnOp::Not),
                            ..op
                        },
                        &[sign],
                    )
                } else {
                    k.op_mut(sign).name = op.name.clone();
                    sign
                };
                k.replace_uses(id, new);
                k.remove_op(id);
                changed = true;
                continue;
            }
            if let Some(b) = simplify_bits(k, id) {
                let op = k.op(id).clone();
                let new = match b {
                    Bits::Const(v) => k.add_op(
                        Op {
                            kind: OpKind::Const(v & op.ty.mask()),
                            ..op
                        },
                        &[],
                    ),
                    Bits::Same(x) => x,
                    Bits::New(kind, operands) => k.add_op(Op { kind, ..op }, &operands),
                    Bits::Pieces(pieces) => {
                        let parts: Vec<OpId> = pieces
                            .iter()
                            .map(|(c, p)| match c {
                                Some(v) => k.add_op(
                                    Op {
                                        kind: OpKind::Const(*v),
                                        ty: Ty::Int(p.w as u16),
                                        name: None,
                                        ..op.clone()
                                    },
                                    &[],
                                ),
                                None => piece_op(k, &op, p),
                            })
                            .collect();
                        k.add_op(
                            Op {
                                kind: OpKind::Concat,
                                ..op
                            },
                            &parts,
                        )
                    }
                    Bits::Concat(pieces) => {
                        let parts: Vec<OpId> = pieces.iter().map(|p| piece_op(k, &op, p)).collect();
                        k.add_op(
                            Op {
                                kind: OpKind::Concat,
                                ..op
                            },
                            &parts,
                        )
                    }
                };
                if new != id {
                    k.replace_uses(id, new);
                    k.remove_op(id);
                    changed = true;
                }
                continue;
            }
            match fold(k, id) {
                Some(Ok(v)) => {
                    let op = k.op(id).clone();
                    let c = k.add_op(
                        Op {
                            kind: OpKind::Const(v),
                            ..op
                        },
                        &[],
                    );
                    k.replace_uses(id, c);
                    k.remove_op(id);
                    changed = true;
                }
                Some(Err(same)) if same != id => {
                    k.replace_uses(id, same);
                    k.remove_op(id);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
}
