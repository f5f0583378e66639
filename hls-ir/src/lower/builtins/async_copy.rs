//! Async copies (OpenCL C 6.15.10): `async_work_group_copy`, `async_work_group_strided_copy`,
//! `wait_group_events` and `prefetch`.
//!
//! A copy is work-group code: every work-item of the group calls it with the same arguments
//! and the group copies once, so it splits the kernel into phases like a barrier
//! (`lower::groups`, `is_collective`) and runs between them. Its arguments are evaluated in
//! work-group code; a variable a work-item computed in an earlier phase is read from the
//! group's first work-item (OpenCL requires every work-item's to be the same), and
//! `get_local_id` is an error there.
//!
//! The copy is a pipelined loop of its own (`LoopKind::Copy`, one element per iteration at
//! II = 1, the global side through the port of its pointer argument, the addresses stepped by
//! adders). Its event is the copy's loop (an `i32` constant: the loop's index; 0 is "no
//! event"), and `wait_group_events` is a `WaitEvents` op on the events it is given, which
//! also splits phases (every work-item sees the copied data after it).
//!
//! A copy runs *beside* the code after it (`detached`, [`Lower::detach_copies`]) when a
//! `wait_group_events` of the same work-group code waits for it later in the same pass (or,
//! in a loop, at the start of the next iteration: double buffering) and nothing in between
//! touches the copy's local memory; the wait then stalls until the copy has finished. Any
//! other copy is finished before the code after it starts (its `Loop` op waits, like a
//! nested loop's). A contiguous copy's global load has a read run (`Kernel::read_runs`:
//! `n - i`), so its port asks memory for whole bursts at their first read
//! (docs/hardware-interface.md, "Bursts" and "Async copies").
//!
//! `prefetch` is a hint with no effect on results: its arguments are evaluated, nothing more.

use crate::analysis::events::waits_for;
use crate::kernel::{Dep, Kernel, Loop, LoopKind};
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp, OpKind};
use crate::types::Ty;
use crate::{ids::LoopId, ids::MemId, ids::OpId};
use frontend::ast::{Builtin, Expr, Type};
use frontend::span::Span;
use std::collections::BTreeSet;

/// A copy of `n` elements of type `elem`: element `i` from `src + i * src_step` to
/// `dst + i * dst_step` (byte addresses in their memories; steps in bytes).
struct CopySpec {
    dst: (MemId, OpId),
    src: (MemId, OpId),
    n: OpId,
    dst_step: OpId,
    src_step: OpId,
    elem: Type,
    /// The global source is read element after element (not a strided gather): its load
    /// gets a read run (`Kernel::read_runs`), so its port may ask for a burst at once.
    src_runs: bool,
}

impl Lower<'_> {
    /// The async-copy built-ins (`None` for other built-ins).
    pub(super) fn async_copy_builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        match b {
            Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy => {
                Some(self.async_copy(b == Builtin::AsyncWorkGroupStridedCopy, args, span))
            }
            Builtin::WaitGroupEvents => {
                self.wait_events(args, span);
                Some(Val::Undef)
            }
            Builtin::Prefetch => {
                for a in args {
                    self.rvalue(a);
                }
                Some(Val::Undef)
            }
            _ => None,
        }
    }

    /// Evaluates the arguments of the work-group function `what` in work-group code (per-item
    /// variables from the group's first work-item); `None` when the call is not in work-group
    /// code (inside an expression, a helper function, or code a work-item runs alone), which
    /// is reported.
    fn group_args(&mut self, args: &[Expr], span: Span, what: &str) -> Option<Vec<Val>> {
        if self.groups.phase.is_some() || self.depth > 0 {
            for a in args {
                self.rvalue(a);
            }
            self.unsupported(
                span,
                format!("`{what}` here (inside an expression, a condition or a helper function)"),
            );
            return None;
        }
        self.groups.leader_reads = true;
        let vals = args.iter().map(|a| self.rvalue(a)).collect();
        self.groups.leader_reads = false;
        Some(vals)
    }

    /// `async_work_group_copy(dst, src, n, event)` and the strided form
    /// `(dst, src, n, stride, event)`: the stride applies to the global side.
    fn async_copy(&mut self, strided: bool, args: &[Expr], span: Span) -> Val {
        let what = if strided {
            "async_work_group_strided_copy"
        } else {
            "async_work_group_copy"
        };
        let no_event = Val::Scalar(self.konst(0, Ty::I32, span));
        let Some(vals) = self.group_args(args, span, what) else {
            return no_event;
        };
        let Type::Pointer { pointee, .. } = &args[0].ty else {
            return no_event;
        };
        let elem = (**pointee).clone();
        let (Some(dst), Some(src)) = (self.copy_side(vals[0], span), self.copy_side(vals[1], span))
        else {
            return no_event;
        };
        if !self.check_type(&elem, span) {
            return no_event;
        }
        let bytes = self.p.size_of(&elem);
        let scalar = |l: &mut Self, v: Val| match v {
            Val::Scalar(x) => x,
            _ => l.konst(0, Ty::I32, span),
        };
        let n = scalar(self, vals[2]);
        let stride = if strided {
            scalar(self, vals[3])
        } else {
            self.konst(1, Ty::I32, span)
        };
        let one = self.konst(u64::from(bytes), Ty::I32, span);
        let strided_step = self.scale_by(stride, bytes, false, span);
        // The stride is in elements of the global side (OpenCL: `src_stride` reading into
        // local memory, `dst_stride` writing from it).
        let dst_global = !self.is_onchip(dst.0);
        let (dst_step, src_step) = if dst_global {
            (strided_step, one)
        } else {
            (one, strided_step)
        };
        let lid = self.copy_loop(
            CopySpec {
                dst,
                src,
                n,
                dst_step,
                src_step,
                elem,
                src_runs: !strided && !self.is_onchip(src.0),
            },
            span,
        );
        Val::Scalar(self.konst(lid.index() as u64, Ty::I32, span))
    }

    /// `wait_group_events(n, list)`: a `WaitEvents` op on the events `list` points to (a
    /// pointer to one `event_t` variable: its value; anything else: every copy), ordered
    /// after the copies started so far in this work-group code, and before the phases after.
    fn wait_events(&mut self, args: &[Expr], span: Span) {
        let Some(vals) = self.group_args(args, span, "wait_group_events") else {
            return;
        };
        let mut ops = Vec::new();
        if let Val::VarPtr { var, .. } = vals[1] {
            if let Some(Val::Scalar(e)) = self.env.vars.get(&var) {
                ops.push(*e);
            }
        }
        if ops.is_empty() {
            // Unknown events: wait for every copy (`u32::MAX`: see `analysis::events`).
            ops.push(self.konst(u64::from(u32::MAX), Ty::I32, span));
        }
        let pred = self.effect_pred(span);
        ops.push(pred);
        let w = self.op(OpKind::WaitEvents, Ty::Token, span, &ops);
        let r = self.region;
        for &(_, lop) in &self.groups.copies {
            if self.k.op(lop).region == r {
                self.k.add_dep(lop, w, Dep::Order { distance: 0 });
            }
        }
        self.sync_in_order(w);
    }

    /// The memory and byte address of a copy's pointer argument, or `None` (reported) when it
    /// is not a pointer into one known buffer.
    fn copy_side(&mut self, v: Val, span: Span) -> Option<(MemId, OpId)> {
        match v {
            Val::Ptr { addr, mem } => Some((mem, addr)),
            _ => {
                self.unsupported(
                    span,
                    "an async copy whose pointer may point into different buffers (or is not known)",
                );
                None
            }
        }
    }

    /// The copy as a pipelined loop in work-group code: element `i` per iteration, the
    /// addresses stepped by adding (no multiplier), ordered after the previous phase or copy
    /// and before the next.
    fn copy_loop(&mut self, c: CopySpec, span: Span) -> LoopId {
        let zero = self.konst(0, Ty::I32, span);
        let some = self.cmp(CmpOp::Ne, c.n, zero, span);
        let alive = self.effect_pred(span);
        let enter = self.and1(some, alive, span);
        let one = self.konst(1, Ty::I32, span);
        let last_i = self.bin(BinOp::Sub, c.n, one, span);
        let lid = LoopId::from_index(self.k.loops.len());
        self.k.loops.push(Loop {
            kind: LoopKind::Copy { detached: false },
            parent: Some(self.region),
            name: format!("{}.copy{}", self.k.name, lid.index()),
            span,
            trip_count: None,
            unroll: None,
            flattened: Vec::new(),
            coalesce_requested: false,
            flatten_declined: None,
            requested_ii: None,
            rows: None,
        });
        let parent = self.region;
        let saved_pred = self.pred;
        let before = self.env.clone();
        self.region = lid;
        let t = self.konst(1, Ty::BOOL, span);
        self.pred = t;
        let zero_l = self.konst(0, Ty::I32, span);
        let one_l = self.konst(1, Ty::I32, span);
        let carried = |l: &mut Self, name: &str| {
            let x = l.op(OpKind::Carried, Ty::I32, span, &[zero_l]);
            l.k.op_mut(x).name = Some(name.to_string());
            x
        };
        let i = carried(self, "copy_i");
        let doff = carried(self, "copy_dst_off");
        let soff = carried(self, "copy_src_off");
        let sa = self.bin(BinOp::Add, c.src.1, soff, span);
        let made: BTreeSet<OpId> = self.k.ops_in(lid).into_iter().collect();
        let v = self.load(sa, c.src.0, &c.elem, span);
        if c.src_runs {
            self.note_read_run(lid, &made, &c, i, span);
        }
        let da = self.bin(BinOp::Add, c.dst.1, doff, span);
        self.store_val(da, c.dst.0, v, &c.elem, None, span);
        for (x, step) in [(i, one_l), (doff, c.dst_step), (soff, c.src_step)] {
            let next = self.bin(BinOp::Add, x, step, span);
            self.k.add_dep(
                next,
                x,
                Dep::Data {
                    operand: 1,
                    distance: 1,
                },
            );
        }
        let last = self.cmp(CmpOp::Eq, i, last_i, span);
        self.op(OpKind::LoopExit, Ty::Token, span, &[last]);
        self.region = parent;
        self.pred = saved_pred;
        self.env = before;
        let lp = self.op(OpKind::Loop(lid), Ty::Token, span, &[enter]);
        self.sync_in_order(lp);
        self.groups.copies.push((lid, lp));
        lid
    }

    /// The copy's global load (the one op `load` made since `before`) reads `n - i`
    /// consecutive elements from iteration `i` on: its read run, ordered before the load.
    fn note_read_run(
        &mut self,
        lid: LoopId,
        before: &BTreeSet<OpId>,
        c: &CopySpec,
        i: OpId,
        span: Span,
    ) {
        let loads: Vec<OpId> = self
            .k
            .ops_in(lid)
            .into_iter()
            .filter(|o| !before.contains(o))
            .filter(|&o| matches!(self.k.op(o).kind, OpKind::Load { mem } if mem == c.src.0))
            .collect();
        if let [load] = loads[..] {
            let left = self.bin(BinOp::Sub, c.n, i, span);
            self.k.op_mut(left).name = Some("copy_left".to_string());
            self.k.add_dep(left, load, Dep::Order { distance: 0 });
            self.k.read_runs.insert(load, left);
        }
    }

    /// After lowering a kernel in work-group mode: every copy that may run beside the code
    /// after it becomes `detached`. Its order edges stay: the code after it still starts
    /// after the copy has *started* (a `Loop` op's latency); only the wait for the copy to
    /// finish moves from the `Loop` op to the `WaitEvents` ops (`rtl_templates`).
    pub(in crate::lower) fn detach_copies(&mut self) {
        for (lid, lop) in std::mem::take(&mut self.groups.copies) {
            let r = self.k.op(lop).region;
            let order = self.groups.sync_order.get(&r).cloned().unwrap_or_default();
            if can_detach(&self.k, lid, lop, &order) {
                self.k.loops[lid].kind = LoopKind::Copy { detached: true };
            }
        }
    }
}

/// Whether copy `lid` (started by `lop`) may run beside the code after it. `order` is the
/// program order of the ops that start loops and wait for copies in the copy's work-group
/// code (`Groups::sync_order`: op ids are not in program order, lowering reuses them). A
/// wait of that code must wait for the copy later in the same pass, or (in a loop) earlier,
/// in the next iteration; and nothing in between (nor inside the loops it starts) may access
/// the copy's on-chip memory, nor any other op of that code (conservatively: anywhere).
fn can_detach(k: &Kernel, lid: LoopId, lop: OpId, order: &[OpId]) -> bool {
    let r = k.op(lop).region;
    let onchip: BTreeSet<MemId> = k
        .ops_in(lid)
        .into_iter()
        .filter_map(|o| k.op(o).kind.memory())
        .filter(|&m| !matches!(k.mem(m).kind, crate::kernel::MemKind::Global { .. }))
        .collect();
    let touches = |o: OpId| k.op(o).kind.memory().is_some_and(|m| onchip.contains(&m));
    if k.ops_in(r).into_iter().any(touches) {
        return false;
    }
    let Some(at) = order.iter().position(|&o| o == lop) else {
        return false;
    };
    let is_wait = |o: &OpId| matches!(k.op(*o).kind, OpKind::WaitEvents) && waits_for(k, *o, lid);
    let window: Vec<OpId> = if let Some(w) = order[at + 1..].iter().position(is_wait) {
        order[at + 1..at + 1 + w].to_vec()
    } else if let (Some(w), false) = (
        order[..at].iter().position(is_wait),
        r == Kernel::WORK_ITEM_LOOP,
    ) {
        // The wait is at the start of the next iteration; the loop also finishes only when
        // the copy has (`rtl_templates`: a loop's drain waits for its detached copies).
        order[at + 1..].iter().chain(&order[..w]).copied().collect()
    } else {
        return false;
    };
    window.into_iter().all(|o| match k.op(o).kind {
        OpKind::Loop(l) => k
            .op_ids()
            .into_iter()
            .filter(|&x| k.encloses(l, k.op(x).region))
            .all(|x| !touches(x)),
        _ => true,
    })
}
