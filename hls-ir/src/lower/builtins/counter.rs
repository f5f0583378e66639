//! Atomic counters (`cl_ext_atomic_counters_32`/`_64`): each `counter32_t`/`counter64_t`
//! kernel argument becomes a [`Counter`] of the kernel (a register in hardware, loaded from the
//! first 4/8 bytes of its buffer at start and written back before `done`), and
//! `atomic_inc`/`atomic_dec` on it a `CounterUpdate` op: (predicate) -> the old value.
//!
//! Order: the updates of one counter keep program order (an `Order` edge from each to the
//! next), and in a source loop the last update of an iteration precedes the first of the next
//! (distance 1), so one work-item sees its own updates in the order it made them. The
//! scheduler lets an ordered update share its predecessor's cycle: the hardware hands out the
//! old values of one cycle in that order (`rtl_templates`' counters). Work-items are unordered,
//! so nothing orders the updates of different work-items.
//!
//! Helper functions see the kernel's counter through their counter parameter (bound at the
//! inlined call). A kernel may have at most [`MAX_ATOMIC_COUNTERS`] counter arguments.

use super::super::{Lower, Val};
use crate::ids::{ArgId, CounterId, OpId};
use crate::kernel::{ArgKind, Counter, KernelArg};
use crate::ops::OpKind;
use crate::types::Ty;
use crate::{Dep, LoopId, LoopKind};
use frontend::ast::{AtomicOp, Builtin, Expr, ExprKind, Type, VarId};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use std::collections::BTreeMap;

/// `CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT`: the most atomic counter arguments one kernel may have
/// (the extension's minimum). `report.json` reports it.
pub const MAX_ATOMIC_COUNTERS: u32 = 8;

/// Per-kernel counter state of the lowering.
#[derive(Default)]
pub(in crate::lower) struct Counters {
    /// The counter each counter parameter names (the kernel's, and inlined helpers' bound to
    /// them).
    ids: BTreeMap<VarId, CounterId>,
    /// Updates in program order, per counter.
    ops: BTreeMap<CounterId, Vec<OpId>>,
}

/// `atomic_inc`/`atomic_dec` whose first argument is a counter.
pub(in crate::lower) fn is_counter_update(b: Builtin, args: &[Expr]) -> bool {
    matches!(b, Builtin::Atomic(AtomicOp::Inc | AtomicOp::Dec))
        && args.first().is_some_and(|a| is_counter(&a.ty))
}

fn is_counter(t: &Type) -> bool {
    matches!(t, Type::Counter32 | Type::Counter64)
}

impl Lower<'_> {
    /// A `counter32_t`/`counter64_t` parameter of the kernel: a counter of its own.
    pub(in crate::lower) fn counter_param(&mut self, arg: ArgId, v: VarId) {
        let info = self.p.var(v);
        let (name, span) = (info.name.clone(), info.span);
        let bits = if info.ty == Type::Counter64 { 64 } else { 32 };
        if self.k.counters.len() as u32 == MAX_ATOMIC_COUNTERS {
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!(
                        "kernel `{}` has more than {MAX_ATOMIC_COUNTERS} atomic counter arguments",
                        self.k.name
                    ),
                )
                .note(format!(
                    "CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT is {MAX_ATOMIC_COUNTERS} on this device; use fewer counters per kernel"
                )),
            );
        }
        let id = CounterId::from_index(self.k.counters.len());
        self.k.counters.push(Counter {
            name: name.clone(),
            bits,
            arg,
            span,
        });
        self.k.args.push(KernelArg {
            name,
            kind: ArgKind::Counter(id),
            span,
        });
        self.counters.ids.insert(v, id);
    }

    /// Binds a counter parameter of an inlined helper to the caller's counter. Returns true
    /// for an argument that is a counter (it has no value).
    pub(in crate::lower) fn bind_counter_param(&mut self, param: VarId, arg: &Expr) -> bool {
        if !is_counter(&arg.ty) {
            return false;
        }
        match self.counter_of(arg) {
            Some(id) => {
                self.counters.ids.insert(param, id);
            }
            None => self.unsupported(arg.span, "this atomic counter"),
        }
        true
    }

    fn counter_of(&self, e: &Expr) -> Option<CounterId> {
        match &e.kind {
            ExprKind::Var(v) => self.counters.ids.get(v).copied(),
            ExprKind::Cast { expr, .. } => self.counter_of(expr),
            _ => None,
        }
    }

    /// `atomic_inc(c)` / `atomic_dec(c)` on counter `c`: its old value.
    pub(in crate::lower) fn counter_update(
        &mut self,
        b: Builtin,
        args: &[Expr],
        span: Span,
    ) -> Val {
        let inc = matches!(b, Builtin::Atomic(AtomicOp::Inc));
        let Some(counter) = self.counter_of(&args[0]) else {
            self.unsupported(args[0].span, "this atomic counter");
            return Val::Undef;
        };
        let c = &self.k.counters[counter];
        let ty = Ty::Int(c.bits as u16);
        // The front end rejects a counter both incremented and decremented in one kernel; the
        // hardware counts in one direction per counter.
        let other_way = self.counters.ops.get(&counter).into_iter().flatten().any(
            |&o| matches!(self.k.op(o).kind, OpKind::CounterUpdate { inc: i, .. } if i != inc),
        );
        if other_way {
            let name = c.name.clone();
            self.diags.push(Diagnostic::error(
                span,
                format!("counter `{name}` is both incremented and decremented in this kernel"),
            ));
        }
        let pred = self.effect_pred(span);
        let id = self.op(OpKind::CounterUpdate { counter, inc }, ty, span, &[pred]);
        if let Some(&prev) = self.counters.ops.get(&counter).and_then(|v| v.last()) {
            self.k.add_dep(prev, id, Dep::Order { distance: 0 });
        }
        self.counters.ops.entry(counter).or_default().push(id);
        Val::Scalar(id)
    }

    /// How many updates each counter has so far (for [`Self::order_counters_across_iterations`]).
    pub(in crate::lower) fn counter_marks(&self) -> BTreeMap<CounterId, usize> {
        self.counters
            .ops
            .iter()
            .map(|(c, v)| (*c, v.len()))
            .collect()
    }

    /// Counter updates of source loop `lid` (recorded since `from`): the last of one iteration
    /// comes before the first of the next, as the iterations of one work-item run in program
    /// order. (Work-items and the work-item walk of a phase are unordered: nothing to do.)
    pub(in crate::lower) fn order_counters_across_iterations(
        &mut self,
        lid: LoopId,
        from: &BTreeMap<CounterId, usize>,
    ) {
        if self.k.loops[lid].kind != LoopKind::Source {
            return;
        }
        let lists: Vec<Vec<OpId>> = self
            .counters
            .ops
            .iter()
            .map(|(c, v)| v[from.get(c).copied().unwrap_or(0)..].to_vec())
            .collect();
        for v in lists {
            if let (Some(&first), Some(&last)) = (v.first(), v.last()) {
                if first != last {
                    self.k.add_dep(last, first, Dep::Order { distance: 1 });
                }
            }
        }
    }
}
