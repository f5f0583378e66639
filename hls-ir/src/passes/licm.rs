//! `licm`: loop-invariant code motion. A pure operation inside a loop whose operands all come
//! from enclosing regions (or are launch constants) computes the same value in every
//! iteration: it moves to the parent region, where it runs once per start of the loop.
//!
//! Requires: a verified kernel. Guarantees: a verified kernel computing the same values; no
//! side effect, load or loop-structure op moves (loads stay, because a store in the loop may
//! change what they read).

use crate::ids::LoopId;
use crate::kernel::Kernel;
use crate::ops::OpKind;

/// Pure ops that compute something (sources stay where they are).
fn movable(kind: &OpKind) -> bool {
    kind.is_pure()
        && !matches!(
            kind,
            OpKind::Const(_) | OpKind::Arg(_) | OpKind::WorkItem(..)
        )
}

pub fn run(k: &mut Kernel) {
    // Each round moves ops one level out; chains and deeper nests need more rounds.
    loop {
        let mut moved = false;
        for id in k.op_ids() {
            let op = k.op(id);
            let region = op.region;
            if region == Kernel::WORK_ITEM_LOOP || !movable(&op.kind) {
                continue;
            }
            let Some(parent) = k.loops[region].parent else {
                continue;
            };
            let outside = |r: LoopId| r != region && k.encloses(r, region);
            let invariant = k.preds(id).iter().all(|&(src, dep)| {
                dep.distance() == 0
                    && (k.op(src).kind.is_launch_invariant() || outside(k.op(src).region))
            });
            if invariant {
                k.op_mut(id).region = parent;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
}
