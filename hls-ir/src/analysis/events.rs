//! Async-copy events (`lower::builtins::async_copy`): an event is an `i32` naming the copy's
//! loop (its index; 0 is "no event", `u32::MAX` "every copy"), moved through selects,
//! loop-carried values and loop results; a `WaitEvents` op waits for the copies its operands
//! may name.

use crate::ids::{LoopId, OpId};
use crate::kernel::Kernel;
use crate::ops::{ConvOp, OpKind};
use std::collections::BTreeSet;

/// The copy sites (loop indices) event value `e` may name, or `None` when it may name any
/// (not built from copy events by selects, loop-carried values and loop results).
pub fn copy_sites(k: &Kernel, e: OpId) -> Option<BTreeSet<usize>> {
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        if !seen.insert(x) {
            continue;
        }
        match k.op(x).kind {
            OpKind::Const(v) if v == u64::from(u32::MAX) => return None,
            OpKind::Const(0) => {}
            OpKind::Const(v) => {
                out.insert(v as usize);
            }
            OpKind::Select => todo.extend(k.operands(x).into_iter().skip(1)),
            // `narrow` computes small event values at fewer bits and extends them again.
            OpKind::Convert(ConvOp::ZExt | ConvOp::SExt | ConvOp::Trunc) => {
                todo.extend(k.operands(x))
            }
            OpKind::Carried => todo.extend(k.operands(x)),
            OpKind::LoopResult => todo.extend(k.operands(x).into_iter().skip(1)),
            _ => return None,
        }
    }
    Some(out)
}

/// Whether wait `w` waits for copy `lid`.
pub fn waits_for(k: &Kernel, w: OpId, lid: LoopId) -> bool {
    let ops = k.operands(w);
    ops[..ops.len() - 1]
        .iter()
        .any(|&e| copy_sites(k, e).is_none_or(|s| s.contains(&lid.index())))
}
