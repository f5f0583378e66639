//! `trip-count`: the number of iterations of a loop when it is a compile-time constant.
//!
//! Recognises the counted loops people write: a carried counter starting from a constant,
//! stepped by a positive constant, and compared with a constant (`i < N`, `i <= N`, `i != N`,
//! signed or unsigned) to decide the exit, with no `break` or `return` in the exit condition.
//! Everything else is "unknown" (`None`), never a guess.

use crate::ids::LoopId;
use crate::kernel::{Dep, Kernel};
use crate::ops::{BinOp, CmpOp, OpKind};

/// Iterations of loop `l` (at least 1 for a loop that is entered), or `None` when unknown.
pub fn trip_count(k: &Kernel, l: LoopId) -> Option<u64> {
    let exit = k
        .ops_in(l)
        .into_iter()
        .find(|&o| matches!(k.op(o).kind, OpKind::LoopExit))?;
    // stop = !(next < N): lowering writes the negation as `xor cmp, 1`.
    let stop = k.operands(exit)[0];
    let cmp = match k.op(stop).kind {
        OpKind::Binary(BinOp::Xor) => {
            let ops = k.operands(stop);
            if k.int_const(ops[1]) != Some(1) {
                return None;
            }
            ops[0]
        }
        _ => return None,
    };
    let OpKind::Cmp(c) = k.op(cmp).kind else {
        return None;
    };
    let [next, bound] = k.operands(cmp)[..] else {
        return None;
    };
    let bound = k.int_const(bound)?;
    let OpKind::Binary(BinOp::Add) = k.op(next).kind else {
        return None;
    };
    let [counter, step] = k.operands(next)[..] else {
        return None;
    };
    let step = k.int_const(step)?;
    if !matches!(k.op(counter).kind, OpKind::Carried) {
        return None;
    }
    // The counter's next value must be this very add.
    let carried_next = k.preds(counter).into_iter().find_map(|(s, d)| match d {
        Dep::Data { operand: 1, .. } => Some(s),
        _ => None,
    })?;
    if carried_next != next {
        return None;
    }
    let start = k.int_const(k.operands(counter)[0])?;
    let bits = k.op(counter).ty.bits();
    let signed = matches!(c, CmpOp::LtS | CmpOp::LeS);
    let as_i128 = |v: u64| -> i128 {
        if signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
            v as i128 - (1i128 << bits)
        } else if signed && bits == 64 {
            v as i64 as i128
        } else {
            v as i128
        }
    };
    let (start, bound, step) = (as_i128(start), as_i128(bound), step as i128);
    if step <= 0 || step >= 1i128 << (bits - 1) {
        return None;
    }
    // The loop body runs once before the first test of the new value (the first test is
    // the parent's `enter`); count the values start, start+step, ... that pass the test.
    let last_exclusive = match c {
        CmpOp::LtS | CmpOp::LtU => bound,
        CmpOp::LeS | CmpOp::LeU => bound + 1,
        CmpOp::Ne if (bound - start) % step == 0 => bound,
        _ => return None,
    };
    if last_exclusive <= start {
        return Some(1);
    }
    Some(((last_exclusive - start + step - 1) / step) as u64)
}
