//! Memory ordering: program order between the accesses to each on-chip memory (within an
//! iteration and across iterations, at the distance the affine analysis finds), which buffers
//! may alias, and the global-memory hazards the hardware path rejects rather than reorder.

use super::Lower;
use crate::ids::{LoopId, MemId, OpId};
use crate::kernel::{Dep, Kernel, MemKind};
use crate::ops::OpKind;
use frontend::ast::Type;
use std::collections::BTreeMap;

impl Lower<'_> {
    /// Program order of accesses to an on-chip memory: a load after a store, and a store after
    /// any access (distance 0). Its latency is fixed, so the schedule can keep this order
    /// exactly (no need to reject as for global memory).
    pub(super) fn order_onchip(&mut self, op: OpId, mem: MemId, is_store: bool) {
        if !self.is_onchip(mem) {
            return;
        }
        self.check_phase_array(op, mem);
        let earlier: Vec<(OpId, bool)> = self.onchip.get(&mem).cloned().unwrap_or_default();
        for (prev, prev_store) in earlier {
            if prev_store || is_store {
                self.k.add_dep(prev, op, Dep::Order { distance: 0 });
            }
        }
        self.onchip.entry(mem).or_default().push((op, is_store));
    }

    /// Accesses to on-chip memories in loop `lid` (recorded since index `from` of each list)
    /// are also ordered from one iteration to a later one: at the distance the affine
    /// analysis finds, not at all when it proves them independent, and at distance 1 when it
    /// cannot tell. Pairs that both sit in one nested loop are ordered by that loop running
    /// to completion.
    pub(super) fn order_onchip_across_iterations(
        &mut self,
        lid: LoopId,
        from: &BTreeMap<MemId, usize>,
    ) {
        let lists: Vec<Vec<(OpId, bool)>> = self
            .onchip
            .iter()
            .map(|(m, v)| v[from.get(m).copied().unwrap_or(0)..].to_vec())
            .collect();
        for v in lists {
            for &(a, sa) in &v {
                for &(b, sb) in &v {
                    if a == b || !(sa || sb) {
                        continue;
                    }
                    let (ra, rb) = (self.k.op(a).region, self.k.op(b).region);
                    if ra != lid && rb != lid && ra == rb {
                        continue;
                    }
                    use crate::analysis::affine::{distance, Distance};
                    let (aa, ab) = (self.k.operands(a)[0], self.k.operands(b)[0]);
                    let (d, exact) = match distance(&self.k, aa, ab, lid) {
                        Distance::Independent => continue,
                        Distance::Exact(d) => (d, true),
                        Distance::Unknown => (1, false),
                    };
                    self.k.add_dep(a, b, Dep::Order { distance: d });
                    self.k.mem_deps.push(crate::kernel::MemDep {
                        lp: lid,
                        from: a,
                        to: b,
                        distance: d,
                        exact,
                    });
                }
            }
        }
    }

    pub(super) fn may_alias(&self, a: MemId, b: MemId) -> bool {
        // `constant` memory is never stored to, so nothing orders against it.
        let constant =
            |m: MemId| matches!(self.k.mem(m).kind, MemKind::Global { constant: true, .. });
        if constant(a) || constant(b) {
            return false;
        }
        if a == b {
            return true;
        }
        if self.is_onchip(a) || self.is_onchip(b) {
            return false;
        }
        let restrict = |m: MemId| match self.k.mem(m).kind {
            MemKind::Global { arg, .. } => {
                let f = &self
                    .p
                    .functions
                    .iter()
                    .find(|f| f.is_kernel && f.name == self.k.name);
                f.and_then(|f| f.params.get(arg.index()))
                    .map(|v| {
                        matches!(
                            self.p.var(*v).ty,
                            Type::Pointer {
                                is_restrict: true,
                                ..
                            }
                        )
                    })
                    .unwrap_or(false)
            }
            _ => false,
        };
        !(restrict(a) || restrict(b))
    }

    /// Reads (loads and atomics) of global memory in loop `lid` that may read what an
    /// earlier iteration stored: ordered after every such store of the previous iteration
    /// (distance 1; the hardware issues the read once the store is acknowledged). The
    /// dependence is listed with the loop's memory dependences for the report.
    pub(super) fn check_loop_memory(&mut self, lid: LoopId) {
        let in_loop = |k: &Kernel, o: OpId| k.encloses(lid, k.op(o).region);
        let ops = self.k.op_ids();
        let stores: Vec<(OpId, MemId)> = ops
            .iter()
            .filter(|&&o| in_loop(&self.k, o))
            .filter_map(|&o| match self.k.op(o).kind {
                OpKind::Store { mem, .. } | OpKind::Atomic { mem, .. } if !self.is_onchip(mem) => {
                    Some((o, mem))
                }
                _ => None,
            })
            .collect();
        for &o in &ops {
            let (OpKind::Load { mem } | OpKind::Atomic { mem, .. }) = self.k.op(o).kind else {
                continue;
            };
            if !in_loop(&self.k, o) || self.is_onchip(mem) {
                continue;
            }
            for &(st, m) in &stores {
                // An atomic after itself in the next iteration: the port issues them in order.
                if st == o || !self.may_alias(m, mem) {
                    continue;
                }
                self.k.add_dep(st, o, Dep::Order { distance: 1 });
                self.k.mem_deps.push(crate::kernel::MemDep {
                    lp: lid,
                    from: st,
                    to: o,
                    distance: 1,
                    exact: false,
                });
            }
        }
    }
}
