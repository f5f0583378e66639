//! `dce`: remove operations without side effects whose results are unused.
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
                !kind.has_side_effect()
                    && !matches!(kind, OpKind::Loop(_) | OpKind::LoopExit)
                    && !k.has_uses(id)
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
