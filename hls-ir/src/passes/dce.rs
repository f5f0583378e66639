//! `dce`: remove operations without side effects whose results are unused, and stores to
//! on-chip memories that nothing loads from (no one outside the kernel can see them).
//! Requires: a verified kernel. Guarantees: every remaining op has a side effect, is a loop
//! structure op, or is (transitively) used by one.

use crate::kernel::Kernel;
use crate::ops::OpKind;

pub fn run(k: &mut Kernel) {
    loop {
        let dead: Vec<_> = k
            .op_ids()
            .into_iter()
            .filter(|&id| {
                let kind = &k.op(id).kind;
                // Order edges from a load only keep it after earlier stores; a load whose
                // value nobody reads needs no ordering.
                !kind.has_side_effect()
                    && !matches!(kind, OpKind::Loop(_) | OpKind::LoopExit)
                    && !k
                        .succs(id)
                        .iter()
                        .any(|(_, d)| matches!(d, crate::kernel::Dep::Data { .. }))
            })
            .collect();
        let loaded: std::collections::BTreeSet<crate::ids::MemId> = k
            .op_ids()
            .into_iter()
            .filter_map(|id| match k.op(id).kind {
                OpKind::Load { mem } => Some(mem),
                _ => None,
            })
            .collect();
        let mut dead = dead;
        dead.extend(k.op_ids().into_iter().filter(|&id| match k.op(id).kind {
            OpKind::Store { mem, .. } => {
                !matches!(k.mem(mem).kind, crate::kernel::MemKind::Global { .. })
                    && !loaded.contains(&mem)
            }
            _ => false,
        }));
        if dead.is_empty() {
            break;
        }
        for id in dead {
            k.remove_op(id);
        }
    }
}
