//! `serial`: the loop regions whose pipeline must hold one iteration at a time, and why. The
//! emitter (`rtl-templates`) builds them so, and array banking does not bank for them (their
//! II is their pipeline depth whatever the ports).
//!
//! - A loop around barriers (a parent of phase loops other than the work-item loop): the
//!   phases of one iteration finish before the next iteration starts.
//! - An on-chip memory has no arbitration between pipelines, so the loops using it must never
//!   run at the same time: the innermost region enclosing all of them runs serially (a loop
//!   waits for the loops it starts).
//! - A private array has one copy, so the work-item loop runs serially if it uses one.
//! - A kernel with barriers walks its work-groups one at a time (`local` memory belongs to
//!   one group); the work-item loop says so.

use crate::ids::LoopId;
use crate::kernel::{Kernel, LoopKind, MemKind};
use crate::ops::OpKind;
use std::collections::BTreeSet;

/// Per loop region (by index): why it runs one iteration at a time, if it does.
pub fn serial_regions(k: &Kernel) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = vec![None; k.loops.len()];
    if k.work_groups.is_some() {
        out[0] = Some(
            "work-groups run one after another (the kernel has barriers; `local` memory belongs to one group)"
                .into(),
        );
    }
    let chain = |mut r: LoopId| {
        let mut v = vec![r];
        while let Some(p) = k.loops[r.index()].parent {
            v.push(p);
            r = p;
        }
        v
    };
    for l in &k.loops {
        if let (LoopKind::Phase, Some(p)) = (l.kind, l.parent) {
            if p != Kernel::WORK_ITEM_LOOP {
                out[p.index()].get_or_insert_with(|| {
                    "its body contains barriers (one step of the work-group at a time)".into()
                });
            }
        }
    }
    for (i, m) in k.mems.iter().enumerate() {
        if matches!(m.kind, MemKind::Global { .. }) {
            continue;
        }
        let mem = crate::ids::MemId::from_index(i);
        let regions: BTreeSet<LoopId> = k
            .op_ids()
            .into_iter()
            .filter(|&o| {
                matches!(k.op(o).kind, OpKind::Load { mem: x } | OpKind::Store { mem: x, .. } if x == mem)
            })
            .map(|o| k.op(o).region)
            .collect();
        if regions.len() > 1 {
            let chains: Vec<Vec<LoopId>> = regions.iter().map(|&r| chain(r)).collect();
            if let Some(lca) = chains[0]
                .iter()
                .copied()
                .find(|a| chains.iter().all(|c| c.contains(a)))
            {
                out[lca.index()].get_or_insert_with(|| {
                    format!(
                        "`{}` (on-chip) is used here and in the loops inside",
                        m.name
                    )
                });
            }
        }
        if matches!(m.kind, MemKind::Private { .. }) && regions.contains(&Kernel::WORK_ITEM_LOOP) {
            out[0].get_or_insert_with(|| {
                format!(
                    "the private array `{}` has one copy, for one work-item at a time",
                    m.name
                )
            });
        }
    }
    out
}
