//! `stream`: does a global access step through consecutive elements from one iteration of
//! its loop to the next? Such an access is a burst candidate (docs/hardware-interface.md,
//! "Bursts"): its port combines the accesses into bursts.
//!
//! The address must be `invariant + coef * counter`, where the counter advances by a constant
//! every iteration: a carried counter of a source or copy loop (`affine::counter_step`), or
//! `get_global_id(0)` / `get_local_id(0)` (by one) in the loops over work-items (NDRange
//! work-items and the phases of a work-group, which visit dimension 0 in order), and the
//! address advances by one element in bytes per iteration.
//! "Invariant" is a value no iteration changes: constants, arguments, launch-invariant
//! work-item values, and values computed outside the loop or only from those.
//! An address whose step is a run-time value (`async_work_group_strided_copy` with a stride
//! argument, `a[i * s]`) is a stream *when that value is 1* ([`consecutive_at_unit_stride`]):
//! its port gets the combining unit, which forms bursts exactly when the addresses turn out
//! consecutive.
//! The answer is static; the hardware still checks every address (a burst closes when the
//! next address is not the following element), so a wrong "yes" costs nothing but the
//! combining unit, and a row change of an NDRange simply starts a new burst.

use crate::analysis::affine::counter_step;
use crate::ids::{LoopId, OpId};
use crate::kernel::{Kernel, LoopKind};
use crate::ops::{BinOp, ConvOp, OpKind, WorkItemFn};
use std::fmt;

/// Why an access does not step through consecutive elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoBurst {
    /// The address is not a constant stride of the loop's step (computed from loaded data,
    /// a non-linear expression, or a value that changes otherwise).
    StrideUnknown,
    /// The address steps by this many bytes per iteration, not by one element.
    Stride(i64),
    /// The element is not a power of two of bytes (bursts have power-of-two beats).
    ElementSize(u32),
}

impl fmt::Display for NoBurst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoBurst::StrideUnknown => write!(
                f,
                "its address does not step by a constant from one iteration to the next \
                 (computed from loaded data or a changing value)"
            ),
            NoBurst::Stride(0) => write!(f, "every iteration accesses the same address"),
            NoBurst::Stride(s) => write!(
                f,
                "its address steps by {s} bytes per iteration, not by one element"
            ),
            NoBurst::ElementSize(b) => write!(
                f,
                "its element is {b} bytes, not a power of two (bursts need power-of-two beats)"
            ),
        }
    }
}

/// `Ok` when access `o` (a global load, store or atomic with address operand 0) steps by one
/// element per iteration of its loop.
pub fn consecutive(k: &Kernel, o: OpId) -> Result<(), NoBurst> {
    let mem = k.op(o).kind.memory().ok_or(NoBurst::StrideUnknown)?;
    let bytes = k.mem(mem).elem.bits().div_ceil(8).max(1);
    if !bytes.is_power_of_two() {
        return Err(NoBurst::ElementSize(bytes));
    }
    let l = k.op(o).region;
    let addr = k.operands(o)[0];
    let coef = Walk {
        k,
        l,
        rows: true,
        unit: false,
    }
    .coef(addr, 0)
    .ok_or(NoBurst::StrideUnknown)?;
    if coef == i64::from(bytes) {
        return Ok(());
    }
    // In a flattened nest, an access beside an inner loop (`c[i][j] = s` after the loop over
    // k) keeps its address through a row: it steps between rows, where the port's address
    // check decides.
    let whole = Walk {
        k,
        l,
        rows: false,
        unit: false,
    };
    if coef == 0 && k.loops[l].rows.is_some() && whole.coef(addr, 0) != Some(0) {
        return Ok(());
    }
    Err(NoBurst::Stride(coef))
}

/// Whether access `o`, which is not [`consecutive`] because its address steps by a value
/// known only at run time, steps by one element when that value is 1: every run-time factor
/// of the step (an argument, a value computed outside the loop) taken as 1.
pub fn consecutive_at_unit_stride(k: &Kernel, o: OpId) -> bool {
    let Some(mem) = k.op(o).kind.memory() else {
        return false;
    };
    let bytes = k.mem(mem).elem.bits().div_ceil(8).max(1);
    let walk = Walk {
        k,
        l: k.op(o).region,
        rows: true,
        unit: true,
    };
    bytes.is_power_of_two() && walk.coef(k.operands(o)[0], 0) == Some(i64::from(bytes))
}

/// The value of invariant `o` with every run-time leaf (argument, work-item value, anything
/// not constant) taken as 1.
fn unit_value(k: &Kernel, o: OpId, depth: u32) -> Option<i64> {
    if depth > 16 {
        return None;
    }
    let ops = k.operands(o);
    let rec = |x: OpId| unit_value(k, x, depth + 1);
    match k.op(o).kind {
        OpKind::Const(_) => k.int_const_signed(o),
        OpKind::Arg(_) | OpKind::WorkItem(..) => Some(1),
        OpKind::Binary(BinOp::Add) => rec(ops[0])?.checked_add(rec(ops[1])?),
        OpKind::Binary(BinOp::Sub) => rec(ops[0])?.checked_sub(rec(ops[1])?),
        OpKind::Binary(BinOp::Mul) => rec(ops[0])?.checked_mul(rec(ops[1])?),
        OpKind::Binary(BinOp::Shl) => {
            let s = k.int_const(ops[1]).filter(|&s| s < 32)?;
            rec(ops[0])?.checked_mul(1i64 << s)
        }
        OpKind::Convert(ConvOp::SExt | ConvOp::ZExt | ConvOp::Trunc)
        | OpKind::Extract { lo: 0 } => rec(ops[0]),
        _ => None,
    }
}

/// The value of i1 `o` within a row of a flattened nest (its flag and `next` true), when
/// that decides it.
fn row_bool(k: &Kernel, rows: &crate::kernel::Rows, o: OpId, depth: u32) -> Option<bool> {
    if rows.ops().any(|r| r == o) {
        return Some(true);
    }
    if depth > 16 {
        return None;
    }
    let rec = |x: OpId| row_bool(k, rows, x, depth + 1);
    let ops = k.operands(o);
    match k.op(o).kind {
        OpKind::Const(v) => Some(v & 1 == 1),
        OpKind::Binary(BinOp::Xor) => Some(rec(ops[0])? != rec(ops[1])?),
        OpKind::Binary(BinOp::And) => match (rec(ops[0]), rec(ops[1])) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        OpKind::Binary(BinOp::Or) => match (rec(ops[0]), rec(ops[1])) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        OpKind::Select => {
            if rec(ops[0])? {
                rec(ops[1])
            } else {
                rec(ops[2])
            }
        }
        _ => None,
    }
}

struct Walk<'a> {
    k: &'a Kernel,
    l: LoopId,
    /// Look at a flattened nest's rows (`Loop::rows`), not at the whole loop.
    rows: bool,
    /// Take run-time factors of the step as 1 ([`consecutive_at_unit_stride`]).
    unit: bool,
}

impl Walk<'_> {
    /// The bytes `o` advances by per iteration of `self.l` (0 for an invariant value), when
    /// that is a constant.
    fn coef(&self, o: OpId, depth: u32) -> Option<i64> {
        if depth > 48 {
            return None;
        }
        let k = self.k;
        if self.invariant(o, depth) {
            return Some(0);
        }
        if let Some(step) = self.step(o) {
            return Some(step);
        }
        let ops = k.operands(o);
        let rec = |x: OpId| self.coef(x, depth + 1);
        let konst = |x: OpId| match k.op(x).kind {
            OpKind::Const(v) if self.invariant(x, depth) => i64::try_from(v).ok(),
            _ => None,
        };
        match k.op(o).kind {
            OpKind::Binary(BinOp::Add) => rec(ops[0])?.checked_add(rec(ops[1])?),
            OpKind::Binary(BinOp::Sub) => rec(ops[0])?.checked_sub(rec(ops[1])?),
            OpKind::Binary(BinOp::Mul) => match (konst(ops[0]), konst(ops[1])) {
                (_, Some(c)) => rec(ops[0])?.checked_mul(c),
                (Some(c), _) => rec(ops[1])?.checked_mul(c),
                // Values that do not change within a row (an outer counter of a flattened
                // nest times a bound).
                _ if rec(ops[0])? == 0 && rec(ops[1])? == 0 => Some(0),
                // A run-time factor taken as 1.
                _ if self.unit && self.invariant(ops[1], depth) => rec(ops[0]),
                _ if self.unit && self.invariant(ops[0], depth) => rec(ops[1]),
                _ => None,
            },
            OpKind::Binary(BinOp::Shl) => {
                let s = konst(ops[1]).filter(|s| (0..32).contains(s))?;
                rec(ops[0])?.checked_mul(1i64 << s)
            }
            OpKind::Convert(ConvOp::SExt | ConvOp::ZExt | ConvOp::Trunc)
            | OpKind::Extract { lo: 0 } => rec(ops[0]),
            _ => None,
        }
    }

    /// What `o` advances by every iteration of the loop, when it is a counter: one for the
    /// work-item ids of dimension 0 in the loops over work-items, a carried counter's step.
    fn step(&self, o: OpId) -> Option<i64> {
        let k = self.k;
        match k.op(o).kind {
            OpKind::WorkItem(WorkItemFn::GlobalId | WorkItemFn::LocalId, 0)
                if matches!(k.loops[self.l].kind, LoopKind::WorkItems | LoopKind::Phase) =>
            {
                Some(1)
            }
            OpKind::Carried => counter_step(k, o, self.l)
                .or_else(|| self.row_step(o))
                .or_else(|| self.wrapping_step(o))
                .or_else(|| self.unit_step(o)),
            _ => None,
        }
    }

    /// In a flattened nest (`Loop::rows`), what a carried value advances by from one
    /// iteration of a row to the next: its next value with the row going on (its flag and
    /// its `next` true), when that is the value itself (an outer counter: 0) or the value
    /// plus a constant (the innermost counter). A row's end jumps, and the port's address
    /// check closes the burst there.
    fn row_step(&self, c: OpId) -> Option<i64> {
        let k = self.k;
        let rows = k.loops[self.l].rows.as_ref().filter(|_| self.rows)?;
        let mut next = k.preds(c).into_iter().find_map(|(s, d)| match d {
            crate::kernel::Dep::Data { operand: 1, .. } => Some(s),
            _ => None,
        })?;
        for _ in 0..32 {
            if k.op(next).kind != OpKind::Select {
                break;
            }
            let ops = k.operands(next);
            next = if row_bool(k, rows, ops[0], 0)? {
                ops[1]
            } else {
                ops[2]
            };
        }
        if next == c {
            return Some(0);
        }
        let xs = k.operands(next);
        match k.op(next).kind {
            OpKind::Binary(BinOp::Add) if xs[0] == c => match k.op(xs[1]).kind {
                OpKind::Const(v) => i64::try_from(v).ok(),
                _ => None,
            },
            _ => None,
        }
    }

    /// The step of a counter that wraps (`next = cond ? start : c + step`, as the local ids
    /// of a phase count): between wraps it steps; at a wrap the address check of the port
    /// closes the burst.
    fn wrapping_step(&self, c: OpId) -> Option<i64> {
        let k = self.k;
        let next = k.preds(c).into_iter().find_map(|(s, d)| match d {
            crate::kernel::Dep::Data { operand: 1, .. } => Some(s),
            _ => None,
        })?;
        if k.op(next).kind != OpKind::Select {
            return None;
        }
        let ops = k.operands(next);
        ops[1..].iter().find_map(|&x| {
            let xs = k.operands(x);
            match k.op(x).kind {
                OpKind::Binary(BinOp::Add) if xs[0] == c => match k.op(xs[1]).kind {
                    OpKind::Const(v) => i64::try_from(v).ok(),
                    _ => None,
                },
                _ => None,
            }
        })
    }

    /// With `unit`, the step of a counter `next = c + s` whose step `s` is a run-time value
    /// (an async copy's strided address), with that value's run-time leaves taken as 1.
    fn unit_step(&self, c: OpId) -> Option<i64> {
        let k = self.k;
        if !self.unit || k.op(c).region != self.l {
            return None;
        }
        let next = k.preds(c).into_iter().find_map(|(s, d)| match d {
            crate::kernel::Dep::Data { operand: 1, .. } => Some(s),
            _ => None,
        })?;
        let xs = k.operands(next);
        match k.op(next).kind {
            OpKind::Binary(BinOp::Add) if xs[0] == c && self.invariant(xs[1], 0) => {
                unit_value(k, xs[1], 0)
            }
            OpKind::Binary(BinOp::Add) if xs[1] == c && self.invariant(xs[0], 0) => {
                unit_value(k, xs[0], 0)
            }
            _ => None,
        }
    }

    /// No iteration of the loop changes `o`.
    fn invariant(&self, o: OpId, depth: u32) -> bool {
        let k = self.k;
        if depth > 48 {
            return false;
        }
        if !k.encloses(self.l, k.op(o).region) {
            return true;
        }
        match k.op(o).kind {
            OpKind::Const(_) | OpKind::Arg(_) => true,
            OpKind::WorkItem(f, d) => {
                f.is_launch_invariant()
                    || (self.rows_invariant()
                        && (f == WorkItemFn::GroupId
                            || (d > 0 && matches!(f, WorkItemFn::GlobalId | WorkItemFn::LocalId))))
            }
            OpKind::Binary(_) | OpKind::Convert(_) | OpKind::Select => k
                .operands(o)
                .into_iter()
                .all(|x| self.invariant(x, depth + 1)),
            _ => false,
        }
    }

    /// Ids of dimensions above 0 change only when a row ends, and group ids only when a
    /// group ends; a burst is closed there by the address check when the address jumps (and
    /// goes on when it does not: `group_id(0) * n + local_id(0)`), so within a run they
    /// count as invariant.
    fn rows_invariant(&self) -> bool {
        matches!(
            self.k.loops[self.l].kind,
            LoopKind::WorkItems | LoopKind::Phase
        )
    }
}
