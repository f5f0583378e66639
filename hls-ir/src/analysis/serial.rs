//! `serial`: the loop regions whose pipeline must hold one iteration at a time, and why. The
//! emitter (`rtl-templates`) builds them so, and array banking does not bank for them (their
//! II is their pipeline depth whatever the ports).
//!
//! - A loop around barriers (a parent of phase loops other than the work-item loop): the
//!   phases of one iteration finish before the next iteration starts.
//! - An on-chip memory has no arbitration between pipelines, so the loops using it must never
//!   run at the same time: for every two of them, the innermost region enclosing both runs
//!   serially (a loop waits for the loops it starts), and so does every region that uses it
//!   and starts a loop that uses it too (its own accesses would be in flight, frozen, while
//!   that loop runs).
//! - A private array has one copy, so a loop whose iterations are work-items (the work-item
//!   loop, or a phase of a kernel with barriers) runs serially if it uses one.
//! - A kernel with barriers walks its work-groups one at a time (`local` memory belongs to
//!   one group); the work-item loop says so.

use crate::ids::{IdVec, LoopId, MemId};
use crate::kernel::{Kernel, LoopKind, MemKind};
use std::collections::BTreeSet;

/// Why a loop region's pipeline holds one iteration at a time. The scheduler gives such a loop
/// the II its pipeline depth makes (`scheduler::kernel::LimitedBy::Serial`), the emitter builds
/// it so, and banking leaves its memories alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SerialReason {
    /// The work-item loop of a kernel with barriers: work-groups run one after another.
    WorkGroupsInTurn,
    /// A loop whose body contains barriers: one step of the work-group at a time.
    BarriersInBody,
    /// The innermost region enclosing every use of an on-chip memory used by several loops.
    SharedOnChip(MemId),
    /// The work-item loop, or a phase, uses a private array, which has one copy.
    PrivateArray(MemId),
}

impl SerialReason {
    /// The memory the reason is about, if any.
    pub fn mem(self) -> Option<MemId> {
        match self {
            SerialReason::SharedOnChip(m) | SerialReason::PrivateArray(m) => Some(m),
            SerialReason::WorkGroupsInTurn | SerialReason::BarriersInBody => None,
        }
    }

    /// The reason in source terms ("because ..." follows in reports).
    pub fn describe(self, k: &Kernel) -> String {
        match self {
            SerialReason::WorkGroupsInTurn => "work-groups run one after another (the kernel has barriers; `local` memory belongs to one group)".into(),
            SerialReason::BarriersInBody => {
                "its body contains barriers (one step of the work-group at a time)".into()
            }
            SerialReason::SharedOnChip(m) => format!(
                "`{}` (on-chip) is used here and in the loops inside",
                k.mem(m).name
            ),
            SerialReason::PrivateArray(m) => format!(
                "the private array `{}` has one copy, for one work-item at a time",
                k.mem(m).name
            ),
        }
    }
}

/// Per loop region: why it runs one iteration at a time, if it does.
pub fn serial_regions(k: &Kernel) -> IdVec<LoopId, Option<SerialReason>> {
    let mut out: IdVec<LoopId, Option<SerialReason>> = k.loops.iter().map(|_| None).collect();
    if k.work_groups.is_some() {
        out[Kernel::WORK_ITEM_LOOP] = Some(SerialReason::WorkGroupsInTurn);
    }
    let chain = |mut r: LoopId| {
        let mut v = vec![r];
        while let Some(p) = k.loops[r].parent {
            v.push(p);
            r = p;
        }
        v
    };
    for l in &k.loops {
        if let (LoopKind::Phase | LoopKind::Copy { .. }, Some(p)) = (l.kind, l.parent) {
            if p != Kernel::WORK_ITEM_LOOP {
                out[p].get_or_insert(SerialReason::BarriersInBody);
            }
        }
    }
    for (i, m) in k.mems.iter().enumerate() {
        if matches!(m.kind, MemKind::Global { .. }) {
            continue;
        }
        let mem = MemId::from_index(i);
        let regions: BTreeSet<LoopId> = k
            .op_ids()
            .into_iter()
            .filter(|&o| k.op(o).kind.memory() == Some(mem))
            .map(|o| k.op(o).region)
            .collect();
        if regions.len() > 1 {
            let chains: Vec<Vec<LoopId>> = regions.iter().map(|&r| chain(r)).collect();
            // Every pair's innermost common region, not only the one of all: two loops under
            // a phase that pipelines its work-items would otherwise run at the same time
            // (the next work-item's first loop beside this one's second) while the
            // outermost common region is serial.
            for (i, a) in chains.iter().enumerate() {
                for b in &chains[i + 1..] {
                    if let Some(&lca) = a.iter().find(|r| b.contains(r)) {
                        out[lca].get_or_insert(SerialReason::SharedOnChip(mem));
                    }
                }
            }
            // A region that uses the memory itself and starts a loop that uses it too would
            // hold its own accesses in flight (frozen) while that loop runs through the same
            // ports: it runs serially as well.
            for &r in &regions {
                if chains.iter().any(|c| c[0] != r && c.contains(&r)) {
                    out[r].get_or_insert(SerialReason::SharedOnChip(mem));
                }
            }
        }
        // The loops whose iterations are work-items: the work-item loop, and with barriers
        // the phase a private array is declared in (the lowering refuses one used on both
        // sides of a barrier). A private memory used by several phases is the context of
        // variables that live across a barrier, with an entry per work-item.
        if matches!(m.kind, MemKind::Private { .. }) {
            if regions.contains(&Kernel::WORK_ITEM_LOOP) {
                out[Kernel::WORK_ITEM_LOOP].get_or_insert(SerialReason::PrivateArray(mem));
            }
            let phase_of = |r: LoopId| {
                chain(r)
                    .into_iter()
                    .find(|&a| k.loops[a].kind == LoopKind::Phase)
            };
            let phases: BTreeSet<Option<LoopId>> = regions.iter().map(|&r| phase_of(r)).collect();
            if let [Some(p)] = phases.into_iter().collect::<Vec<_>>()[..] {
                if regions.contains(&p) {
                    out[p].get_or_insert(SerialReason::PrivateArray(mem));
                }
            }
        }
    }
    out
}
