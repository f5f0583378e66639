//! Memory fences: `mem_fence`, `read_mem_fence`, `write_mem_fence` and C11
//! `atomic_work_item_fence`. They order this work-item's accesses before the fence against
//! those after it, for the memories the flags name (`CLK_LOCAL_MEM_FENCE` = 1,
//! `CLK_GLOBAL_MEM_FENCE` = 2; flags that are not a constant count as both).
//!
//! What it costs on this in-order hardware (`docs/hardware-interface.md`, "Fences"):
//! - global: a later read (load or atomic) waits until the earlier stores of every global port
//!   are acknowledged and the earlier reads have their responses; a later store waits for the
//!   earlier reads' responses and for the earlier stores of the *other* ports to be
//!   acknowledged (one port keeps its writes in
//!   order by itself). These are order edges in the IR; the emitter turns an order edge from
//!   a store into a wait for that port's acknowledgements.
//! - local: on-chip accesses take effect in the cycle they are scheduled, so a fence only
//!   keeps the schedule's order between different on-chip memories (order edges).
//!
//! `read_mem_fence` orders reads and `write_mem_fence` writes only in OpenCL; both are built
//! as full fences (never weaker than asked). A relaxed `atomic_work_item_fence` does nothing.

use super::super::{Lower, Val};
use crate::ids::OpId;
use crate::ops::OpKind;
use frontend::ast::{Builtin, Expr, MemOrder};

use frontend::span::Span;

/// The accesses before the last fences that later accesses are ordered after.
#[derive(Default)]
pub(in crate::lower) struct Fenced {
    /// Global stores (the last of each memory at each fence).
    pub stores: Vec<OpId>,
    /// Global reads (loads and atomics).
    pub reads: Vec<OpId>,
    /// On-chip accesses (the last of each memory).
    pub onchip: Vec<OpId>,
}

impl Lower<'_> {
    /// Lowers a fence built-in; `None` when `b` is not one.
    pub(in crate::lower) fn fence_builtin(&mut self, b: Builtin, args: &[Expr]) -> Option<Val> {
        match b {
            Builtin::MemFence | Builtin::ReadMemFence | Builtin::WriteMemFence => {}
            Builtin::WorkItemFence { order, .. } if order != MemOrder::Relaxed => {}
            Builtin::WorkItemFence { .. } => return Some(Val::Undef),
            _ => return None,
        }
        let flags = self.scalar(&args[0]);
        let (local, global) = match self.k.op(flags).kind {
            OpKind::Const(f) => (f & 1 != 0, f & 2 != 0),
            _ => (true, true),
        };
        self.fence_now(local, global);
        Some(Val::Undef)
    }

    /// The release half (before) or acquire half (after) of an OpenCL 2.0 atomic call at
    /// `span` (`Program::atomic_orders`; the OpenCL 1.x atomics are relaxed): a fence on
    /// both memories where its order asks for one.
    pub(in crate::lower) fn atomic_order_fence(&mut self, span: Span, after: bool) {
        let Some(&order) = self.p.atomic_orders.get(&span) else {
            return;
        };
        let wanted = match order {
            MemOrder::Relaxed => false,
            MemOrder::Acquire => after,
            MemOrder::Release => !after,
            MemOrder::AcqRel | MemOrder::SeqCst => true,
        };
        if wanted {
            self.fence_now(true, true);
        }
    }

    /// Later accesses (to the memories named) are ordered after every access so far.
    fn fence_now(&mut self, local: bool, global: bool) {
        if global {
            let stores: Vec<OpId> = self
                .stores
                .iter()
                .filter(|(m, _)| !self.is_onchip(**m))
                .filter_map(|(_, v)| v.last().copied())
                .collect();
            let reads: Vec<OpId> = self.global_reads.values().copied().collect();
            self.fenced.stores.extend(stores);
            self.fenced.reads.extend(reads);
        }
        if local {
            let last: Vec<OpId> = self
                .onchip
                .values()
                .filter_map(|v| v.last().map(|(o, _)| *o))
                .collect();
            self.fenced.onchip.extend(last);
        }
    }

    /// Order edges from the fenced accesses to access `op` of memory `mem`.
    pub(in crate::lower) fn order_after_fences(&mut self, op: OpId, mem: crate::ids::MemId) {
        use crate::kernel::Dep;
        let before: Vec<OpId> = if self.is_onchip(mem) {
            self.fenced.onchip.clone()
        } else {
            // Reads and stores alike wait for the earlier reads (their responses) and
            // stores (their acknowledgements).
            let mut v = self.fenced.reads.clone();
            v.extend(self.fenced.stores.iter().copied());
            v
        };
        for b in before {
            if b != op {
                self.k.add_dep(b, op, Dep::Order { distance: 0 });
            }
        }
    }
}
