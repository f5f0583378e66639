//! `dce`: remove operations whose results nothing with an effect needs, and stores to on-chip
//! memories that nothing loads from (no one outside the kernel can see them).
//! Requires: a verified kernel. Guarantees: every remaining op has a side effect, is a loop
//! structure op (`Loop`, `LoopExit`), or is (transitively, through operands) used by one; so a
//! value carried around a loop that nothing reads outside its own recurrence goes too.

use crate::kernel::{Dep, Kernel, MemKind};
use crate::ops::OpKind;
use std::collections::BTreeSet;

pub fn run(k: &mut Kernel) {
    loop {
        // Live: side effects and the loop structure, and every operand of a live op. Order
        // edges do not make an op live: a load whose value nobody reads needs no ordering.
        let mut live = vec![false; k.op_bound()];
        let mut work: Vec<_> = k
            .op_ids()
            .into_iter()
            .filter(|&id| {
                let kind = &k.op(id).kind;
                kind.has_side_effect() || matches!(kind, OpKind::Loop(_) | OpKind::LoopExit)
            })
            .collect();
        // A read run's op lives with its load (`Kernel::read_runs`); a dead load's entry goes
        // with it, and the op in the next round.
        work.extend(k.read_runs.values().copied());
        while let Some(id) = work.pop() {
            if std::mem::replace(&mut live[id.index()], true) {
                continue;
            }
            for (src, dep) in k.preds(id) {
                if matches!(dep, Dep::Data { .. }) && !live[src.index()] {
                    work.push(src);
                }
            }
        }
        let loaded: BTreeSet<crate::ids::MemId> = k
            .op_ids()
            .into_iter()
            .filter(|&id| live[id.index()])
            .filter_map(|id| match k.op(id).kind {
                // An atomic reads its element too.
                OpKind::Load { mem } | OpKind::Atomic { mem, .. } => Some(mem),
                _ => None,
            })
            .collect();
        let dead: Vec<_> = k
            .op_ids()
            .into_iter()
            .filter(|&id| match k.op(id).kind {
                OpKind::Store { mem, .. } => {
                    // A program-scope variable's stores outlive the launch.
                    !matches!(
                        k.mem(mem).kind,
                        MemKind::Global { .. } | MemKind::Program { .. }
                    ) && !loaded.contains(&mem)
                }
                _ => !live[id.index()],
            })
            .collect();
        if dead.is_empty() {
            break;
        }
        for id in dead {
            k.remove_op(id);
        }
    }
}
