//! Kernels with barriers: the work-item loop walks work-groups, and the code between barriers
//! runs as *phases*, each a pipelined loop over the work-items of the group (the approach of
//! PoCL's "work-item loops").
//!
//! - Statements between two barriers form a phase (`LoopKind::Phase`): every iteration is one
//!   work-item, whose `get_local_id` values are the phase loop's counters and whose
//!   `get_global_id` is the group's first global id plus the local id.
//! - A loop or `if` that contains a barrier runs once per work-group (OpenCL requires every
//!   work-item of the group to reach the same barriers): its condition is evaluated in
//!   work-group code, which must not depend on the work-item.
//! - A variable written in one phase and read in a later one lives in a *context* memory
//!   (on-chip, one entry per work-item of the group, indexed by the position in the walk).
//!
//! The work-groups themselves run one after another, so `local` memory is the group's own.

use super::{Env, Lower, Val};
use crate::ids::{LoopId, MemId, OpId};
use crate::kernel::{Loop, LoopKind, MemKind, Memory};
use crate::ops::{BinOp, CmpOp, OpKind, WorkItemFn};
use crate::types::Ty;
use frontend::ast::{
    AddrSpace, Builtin, Expr, ExprKind, FuncId, Program, Stmt, StmtKind, Type, VarId,
};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use frontend::visit::walk_block;
use std::collections::{BTreeMap, BTreeSet};

/// Work-items per group that kernels with barriers support without `reqd_work_group_size`.
pub const DEFAULT_MAX_GROUP: u32 = 256;

/// The counters of a phase loop's walk over the work-items of a group.
#[derive(Clone, Copy)]
struct Walk {
    /// Local ids (a constant 0 for a dimension of `reqd_work_group_size` 1).
    lid: [OpId; 3],
    /// The position in the walk (the index into contexts).
    lin: OpId,
    reqd: Option<[u32; 3]>,
}

/// The variables after a phase, by where their values live afterwards.
struct PhaseOutputs {
    /// Values that differ between work-items: stored to their contexts.
    per_item: Vec<(VarId, Val)>,
    /// Values the same for the whole group (a `local` array, a constant): kept in work-group
    /// code.
    uniform: Vec<(VarId, Val)>,
}

/// The state of a kernel lowered in work-group mode.
#[derive(Default)]
pub(super) struct Groups {
    pub max_items: u32,
    /// Per-work-item variables kept between phases: their context memory.
    pub ctx: BTreeMap<VarId, (MemId, Option<MemId>)>,
    /// The last phase or loop with barriers started by each region: the next one waits for
    /// it (a barrier orders everything before it with everything after it).
    pub last_sync: BTreeMap<LoopId, OpId>,
    /// Inside a phase: the work-item's local ids.
    pub phase: Option<Phase>,
    /// A phase in which a work-item may `return` (only the last phase may have one).
    pub returned_at: Option<Span>,
    /// Private arrays declared in a phase: the phase. The array is one memory for every
    /// work-item of the walk, so a later phase would read the last work-item's elements.
    pub phase_arrays: BTreeMap<MemId, LoopId>,
    /// Private arrays already reported as used after a barrier.
    pub reported: BTreeSet<MemId>,
    /// While evaluating the arguments of a work-group function (an async copy) in work-group
    /// code: a per-work-item variable is read from the group's first work-item's context
    /// (OpenCL requires the arguments to be the same for every work-item of the group).
    pub leader_reads: bool,
    /// The async copies lowered so far: (copy loop, its `Loop` op), see
    /// `builtins::async_copy`.
    pub copies: Vec<(LoopId, OpId)>,
    /// Per region of work-group code, its phases, loops, copies and waits in program order.
    pub sync_order: BTreeMap<LoopId, Vec<OpId>>,
}

impl Groups {
    /// Why a value in work-group code must be the same for the whole group.
    pub fn uniform_note(&self) -> &'static str {
        if self.leader_reads {
            "the arguments of an async copy (and of `wait_group_events`) must be the same for every work-item of the group (OpenCL C 6.15.10): compute them from `get_group_id`, kernel arguments and constants"
        } else {
            "code around a barrier (the condition of a loop or `if` that contains a barrier) must be the same for every work-item of the group"
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Phase {
    pub lid: [OpId; 3],
}

/// Does `s` (or a helper it calls) contain a barrier?
pub fn stmt_has_barrier(p: &Program, s: &Stmt) -> bool {
    has_barrier(p, std::slice::from_ref(s), &mut BTreeSet::new())
}

fn has_barrier(p: &Program, stmts: &[Stmt], seen: &mut BTreeSet<FuncId>) -> bool {
    let mut found = false;
    let mut calls = Vec::new();
    walk_block(stmts, &mut |e, _| match &e.kind {
        ExprKind::Builtin {
            builtin: Builtin::Barrier,
            ..
        } => found = true,
        ExprKind::Builtin { builtin, .. } if is_collective(*builtin) => found = true,
        ExprKind::Call { func, .. } => calls.push(*func),
        _ => {}
    });
    found
        || calls
            .into_iter()
            .any(|c| seen.insert(c) && has_barrier(p, &p.func(c).body.stmts, seen))
}

/// Work-group (and sub-group: a sub-group is the whole work-group here) pipe reservations and
/// commits, and async copies and waits on them (`builtins::async_copy`): like a barrier,
/// they split the kernel, and they run once per work-group.
fn is_collective(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::AsyncWorkGroupCopy
            | Builtin::AsyncWorkGroupStridedCopy
            | Builtin::WaitGroupEvents
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::WorkGroupCommitReadPipe
            | Builtin::WorkGroupCommitWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe
            | Builtin::SubGroupCommitReadPipe
            | Builtin::SubGroupCommitWritePipe
    )
}

/// `x = work_group_reserve_*(...)`, `reserve_id_t x = ...;` or `work_group_commit_*(...);`:
/// a statement whose only work is a collective, lowered once per work-group.
fn is_collective_stmt(s: &Stmt) -> bool {
    let collective =
        |e: &Expr| matches!(&e.kind, ExprKind::Builtin { builtin, .. } if is_collective(*builtin));
    match &s.kind {
        StmtKind::Expr(e) => {
            collective(e)
                || matches!(&e.kind, ExprKind::Assign { lhs, rhs, .. }
                    if matches!(lhs.kind, ExprKind::Var(_)) && collective(rhs))
        }
        StmtKind::Decl {
            init: Some(frontend::ast::Init::Expr(e)),
            ..
        } => collective(e),
        _ => false,
    }
}

fn is_barrier_stmt(s: &Stmt) -> bool {
    matches!(
        &s.kind,
        StmtKind::Expr(Expr {
            kind: ExprKind::Builtin {
                builtin: Builtin::Barrier,
                ..
            },
            ..
        })
    )
}

impl<'a> Lower<'a> {
    /// Lower the statements of a kernel (or of a loop or `if` containing a barrier) in
    /// work-group code: runs of statements without barriers become phases.
    pub(super) fn group_block(&mut self, stmts: &[Stmt]) {
        let mut pending: Vec<&Stmt> = Vec::new();
        for s in stmts {
            // A declaration without initialiser does nothing: declaring it in work-group code
            // lets work-group code (a collective) assign it too. A private array is per
            // work-item (its phase's); a `local` one belongs to the group, and declaring it
            // here keeps a phase of declarations only from walking the group's work-items
            // (64 idle cycles before an async copy at the top of a kernel).
            if matches!(s.kind, StmtKind::Decl { init: None, var }
                if !matches!(self.p.var(var).ty, Type::Array(..))
                    || self.p.var(var).space == AddrSpace::Local)
            {
                self.stmt(s);
                continue;
            }
            if !stmt_has_barrier(self.p, s) {
                pending.push(s);
                continue;
            }
            self.flush_phase(&mut pending);
            if let Some(at) = self.groups.returned_at {
                self.diags.push(
                    Diagnostic::error(
                        s.span,
                        "a work-item may have returned before this barrier (OpenCL requires every work-item of a group to reach it)",
                    )
                    .label(at, "a `return` in this code comes before it"),
                );
            }
            match &s.kind {
                _ if is_barrier_stmt(s) => {
                    // The phases before it have finished (their writes acknowledged) before
                    // the next starts, so later loads may read what earlier phases stored.
                    self.stores.clear();
                }
                // Once per work-group, between the phases before and after it.
                _ if is_collective_stmt(s) => self.stmt(s),
                StmtKind::Block(b) => self.group_block(&b.stmts),
                StmtKind::If { cond, then, els } => {
                    let c = self.cond(cond);
                    let (then, els) = (then.as_ref(), els.as_deref());
                    self.branch(
                        c,
                        s.span,
                        |l| l.group_block(std::slice::from_ref(then)),
                        |l| {
                            if let Some(e) = els {
                                l.group_block(std::slice::from_ref(e))
                            }
                        },
                    );
                }
                StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                    self.pipelined_loop(s, true)
                }
                _ => self.diags.push(
                    Diagnostic::error(
                        s.span,
                        "a barrier or work-group function inside this statement is not yet supported by the hardware path",
                    )
                    .note("barriers, async copies (`e = async_work_group_copy(...);`), `wait_group_events` and work-group pipe reservations are supported as statements of the kernel body, and inside `if`, `for`, `while` and `do` statements of it (not inside helper functions, `switch`, or assigned to array elements)"),
                ),
            }
        }
        self.flush_phase(&mut pending);
    }

    /// The statements since the last barrier, as one phase: a loop over the group's work-items.
    fn flush_phase(&mut self, pending: &mut Vec<&Stmt>) {
        let stmts = std::mem::take(pending);
        if stmts.iter().all(|s| matches!(s.kind, StmtKind::Empty)) {
            return;
        }
        let span = stmts[0].span.to(stmts[stmts.len() - 1].span);
        let enter = self.effect_pred(span);
        let lid_loop = LoopId::from_index(self.k.loops.len());
        self.k.loops.push(Loop {
            kind: LoopKind::Phase,
            parent: Some(self.region),
            name: format!("{}.phase{}", self.k.name, lid_loop.index()),
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
        let stores_before = self.stores.clone();
        self.region = lid_loop;
        let t = self.konst(1, Ty::BOOL, span);
        self.pred = t;
        let zero = self.konst(0, Ty::I32, span);
        let one = self.konst(1, Ty::I32, span);
        let walk = self.walk_counters(zero, span);
        self.groups.phase = Some(Phase { lid: walk.lid });
        let loaded = self.load_contexts(walk.lin, span);
        let pipes_from = self.pipe_marks();
        for s in &stmts {
            self.stmt(s);
        }
        self.order_pipes_across_iterations(lid_loop, &pipes_from);
        if self.env.returned != before.returned {
            // Fine after the last barrier (the work-item just stops); before a barrier the
            // work-item would not reach it, which OpenCL leaves undefined.
            self.groups.returned_at.get_or_insert(span);
        }
        // Variables this phase wrote (or declared) that later phases may read.
        let after = self.env.clone();
        for (v, val) in &after.vars {
            if let (Val::Ptr { mem, .. }, false) = (val, before.vars.contains_key(v)) {
                if matches!(self.k.mem(*mem).kind, MemKind::Private { .. }) {
                    self.groups.phase_arrays.insert(*mem, lid_loop);
                }
            }
        }
        let outputs = self.phase_outputs(&before, &after, lid_loop, span);
        self.store_contexts(outputs.per_item, &loaded, walk.lin, t, span);
        let last = self.step_walk(&walk, (t, zero, one), span);
        self.op(OpKind::LoopExit, Ty::Token, span, &[last]);
        self.groups.phase = None;
        self.region = parent;
        self.pred = saved_pred;
        // Work-group code sees the variables it had; per-item ones live in their contexts.
        let mut env = before;
        env.vars.extend(outputs.uniform);
        for v in self.groups.ctx.keys() {
            env.vars.remove(v);
        }
        self.env = env;
        self.stores = stores_before
            .into_iter()
            .chain(self.stores.clone())
            .collect();
        let lp = self.op(OpKind::Loop(lid_loop), Ty::Token, span, &[enter]);
        self.sync_in_order(lp);
    }

    /// The walk over the group: local ids x fastest, and the position `lin`, as carried
    /// values of the phase loop. With `reqd_work_group_size`, the sizes are constants and a
    /// dimension of size 1 has local id 0 (`zero`) throughout.
    fn walk_counters(&mut self, zero: OpId, span: Span) -> Walk {
        let reqd = self.k.reqd_work_group_size;
        let mut lid = [zero; 3];
        for (d, l) in lid.iter_mut().enumerate() {
            if reqd.is_some_and(|r| r[d] == 1) {
                continue;
            }
            let c = self.op(OpKind::Carried, Ty::I32, span, &[zero]);
            self.k.op_mut(c).name = Some(format!("lid{d}"));
            *l = c;
        }
        let lin = self.op(OpKind::Carried, Ty::I32, span, &[zero]);
        self.k.op_mut(lin).name = Some("item".into());
        Walk { lid, lin, reqd }
    }

    /// Loads the per-work-item variables of earlier phases from their contexts into the
    /// environment; returns what each context held at the start of the phase (not stored
    /// again if unchanged).
    fn load_contexts(&mut self, lin: OpId, span: Span) -> BTreeMap<VarId, Val> {
        let ctx: Vec<(VarId, (MemId, Option<MemId>))> =
            self.groups.ctx.iter().map(|(v, m)| (*v, *m)).collect();
        let mut loaded: BTreeMap<VarId, Val> = BTreeMap::new();
        for (v, (mem, ptr)) in ctx {
            let val = self.load_context(v, (mem, ptr), lin, span);
            loaded.insert(v, val);
            self.env.vars.insert(v, val);
        }
        loaded
    }

    /// The value of per-work-item variable `v` (context `mem`, pointing into `ptr` if a
    /// pointer) of the work-item at position `lin` of the walk.
    fn load_context(
        &mut self,
        v: VarId,
        (mem, ptr): (MemId, Option<MemId>),
        lin: OpId,
        span: Span,
    ) -> Val {
        let addr = self.ctx_addr(mem, lin, span);
        let ty = self.k.mem(mem).elem;
        let pred = self.effect_pred(span);
        let x = self.op(OpKind::Load { mem }, ty, span, &[addr, pred]);
        self.order_onchip(x, mem, false);
        let name = self.p.var(v).name.clone();
        self.k.op_mut(x).name = Some(name);
        let vty = self.p.var(v).ty.clone();
        match ptr {
            Some(m) => Val::Ptr { addr: x, mem: m },
            None if matches!(vty, Type::Vector(..) | Type::Struct(_)) => {
                self.unpack(x, &vty, false, span)
            }
            None => Val::Scalar(x),
        }
    }

    /// In work-group code evaluating a work-group function's arguments: per-work-item
    /// variable `v` as the group's first work-item has it (`None` outside such arguments or
    /// for a variable without context).
    pub(super) fn leader_value(&mut self, v: VarId, span: Span) -> Option<Val> {
        if !self.groups.leader_reads || self.groups.phase.is_some() {
            return None;
        }
        let c = *self.groups.ctx.get(&v)?;
        let zero = self.konst(0, Ty::I32, span);
        Some(self.load_context(v, c, zero, span))
    }

    /// The variables after a phase (`after`), split into those that differ between
    /// work-items (they go to contexts) and those with the same value for the whole group (a
    /// `local` array, a constant).
    fn phase_outputs(
        &mut self,
        before: &Env,
        after: &Env,
        phase_region: LoopId,
        span: Span,
    ) -> PhaseOutputs {
        let mut per_item = Vec::new();
        let mut uniform = Vec::new();
        for (v, val) in &after.vars {
            let vty = self.p.var(*v).ty.clone();
            let leaves = match val {
                Val::Scalar(x) => vec![*x],
                Val::Ptr { addr, .. } | Val::VarPtr { off: addr, .. } => vec![*addr],
                Val::PtrSel(_) => {
                    let mut out = Vec::new();
                    self.flatten(*val, &Type::UINT, span, &mut out);
                    out
                }
                Val::Undef => continue,
                Val::Agg(_) => {
                    let mut out = Vec::new();
                    self.flatten(*val, &vty, span, &mut out);
                    out
                }
            };
            // A scalar variable the phase wrote is per work-item even when the value is a
            // constant here (`int acc = 0;` before a loop around barriers that accumulates).
            let written_scalar = before.vars.get(v) != Some(val)
                && matches!(vty, Type::Scalar(_) | Type::Vector(..) | Type::Struct(_));
            let differs = written_scalar
                || leaves.iter().any(|&op| {
                    self.k.encloses(phase_region, self.k.op(op).region)
                        && !self.k.op(op).kind.is_launch_invariant()
                });
            if differs {
                per_item.push((*v, *val));
            } else {
                uniform.push((*v, *val));
            }
        }
        PhaseOutputs { per_item, uniform }
    }

    /// Stores each per-work-item variable to its context (made on first use), at the
    /// work-item's position `lin`, unless it still holds what was `loaded`. `t`: true.
    fn store_contexts(
        &mut self,
        per_item: Vec<(VarId, Val)>,
        loaded: &BTreeMap<VarId, Val>,
        lin: OpId,
        t: OpId,
        span: Span,
    ) {
        for (v, val) in per_item {
            // An unchanged value loaded from the context need not be stored back.
            let unchanged = loaded.get(&v) == Some(&val);
            let (x, ptr) = match val {
                Val::Scalar(x) => (x, None),
                Val::Ptr { addr, mem } => (addr, Some(mem)),
                Val::VarPtr { .. } | Val::PtrSel(_) => {
                    let name = self.p.var(v).name.clone();
                    self.unsupported(
                        span,
                        format!("the pointer `{name}` into a private variable (or chosen at run time), which differs between work-items and is used across a barrier"),
                    );
                    continue;
                }
                Val::Undef => continue,
                Val::Agg(_) => {
                    let vty = self.p.var(v).ty.clone();
                    (self.pack(val, &vty, span), None)
                }
            };
            let ty = self.k.op(x).ty;
            let mem = match self.groups.ctx.get(&v) {
                Some((m, _)) => *m,
                None => self.new_context(v, ty),
            };
            if unchanged {
                self.groups.ctx.insert(v, (mem, ptr));
                continue;
            }
            let x = if ty == Ty::BOOL {
                self.resize(x, Ty::Int(8), false, span)
            } else {
                x
            };
            let addr = self.ctx_addr(mem, lin, span);
            let pred = t;
            let st = self.op(
                OpKind::Store { mem, mask: None },
                Ty::Token,
                span,
                &[addr, x, pred],
            );
            self.order_onchip(st, mem, true);
            self.groups.ctx.insert(v, (mem, ptr));
        }
    }

    /// The context memory of variable `v` (values of type `ty`): one entry per work-item.
    fn new_context(&mut self, v: VarId, ty: Ty) -> MemId {
        let m = MemId::from_index(self.k.mems.len());
        let name = format!("{}_ctx", self.p.var(v).name);
        let bytes = ty.bits().div_ceil(8).next_power_of_two().max(1);
        self.k.mems.push(Memory {
            name,
            kind: MemKind::Private {
                len: self.groups.max_items,
            },
            elem: if ty == Ty::BOOL { Ty::Int(8) } else { ty },
            elem_bytes: bytes,
            span: self.p.var(v).span,
        });
        m
    }

    /// The next work-item of the walk (local ids stepped x fastest, and `lin`); returns i1:
    /// this was the last one, which ends the phase. `(t, zero, one)`: constants.
    fn step_walk(&mut self, walk: &Walk, (t, zero, one): (OpId, OpId, OpId), span: Span) -> OpId {
        let Walk { lid, lin, reqd } = *walk;
        let size: Vec<OpId> = (0..3)
            .map(|d| {
                if let Some(r) = reqd {
                    return self.konst(u64::from(r[d]), Ty::I32, span);
                }
                let w = self.op(
                    OpKind::WorkItem(WorkItemFn::LocalSize, d as u8),
                    Ty::I32,
                    span,
                    &[],
                );
                self.k.op_mut(w).name = Some(format!("group_size{d}"));
                w
            })
            .collect();
        let mut carry = t;
        for d in 0..3 {
            if reqd.is_some_and(|r| r[d] == 1) {
                continue;
            }
            let inc = self.bin(BinOp::Add, lid[d], one, span);
            // `lid + 1 == size` as `lid == size - 1` (equal modulo 2^32): the compare reads
            // the register, in parallel with the increment, and `size - 1` is invariant.
            let last = self.bin(BinOp::Sub, size[d], one, span);
            let wrap = self.cmp(CmpOp::Eq, lid[d], last, span);
            let stepped = self.select(wrap, zero, inc, span);
            let next = self.select(carry, stepped, lid[d], span);
            self.k.add_dep(
                next,
                lid[d],
                crate::kernel::Dep::Data {
                    operand: 1,
                    distance: 1,
                },
            );
            carry = self.and1(carry, wrap, span);
        }
        let lin_next = self.bin(BinOp::Add, lin, one, span);
        self.k.add_dep(
            lin_next,
            lin,
            crate::kernel::Dep::Data {
                operand: 1,
                distance: 1,
            },
        );
        carry
    }

    /// An access `op` to a private array declared in another phase (before a barrier) is
    /// refused: the array is one memory for all work-items of the group's walk, so it would
    /// see the last work-item's elements, not this work-item's.
    pub(super) fn check_phase_array(&mut self, op: OpId, mem: MemId) {
        let Some(&declared) = self.groups.phase_arrays.get(&mem) else {
            return;
        };
        let mut r = Some(self.region);
        while let Some(x) = r {
            if self.k.loops[x].kind == LoopKind::Phase {
                break;
            }
            r = self.k.loops[x].parent;
        }
        if r == Some(declared) || !self.groups.reported.insert(mem) {
            return;
        }
        let m = self.k.mem(mem);
        self.diags.push(
            Diagnostic::error(
                self.k.op(op).span,
                format!(
                    "the private array `{}` is used on both sides of a barrier, which is not yet supported by the hardware path",
                    m.name
                ),
            )
            .label(m.span, "declared before the barrier")
            .note("copy the elements needed after the barrier into scalar variables before it (each work-item keeps its scalars between barriers)"),
        );
    }

    /// Order `lp` (a phase, or a loop containing barriers) after the previous one started by
    /// the same region.
    pub(super) fn sync_in_order(&mut self, lp: OpId) {
        let r = self.k.op(lp).region;
        self.groups.sync_order.entry(r).or_default().push(lp);
        if let Some(prev) = self.groups.last_sync.insert(r, lp) {
            self.k
                .add_dep(prev, lp, crate::kernel::Dep::Order { distance: 0 });
        }
    }

    fn ctx_addr(&mut self, mem: MemId, lin: OpId, span: Span) -> OpId {
        let bytes = self.k.mem(mem).elem_bytes;
        self.scale_by(lin, bytes, false, span)
    }

    /// `get_local_id`/`get_global_id` in work-group mode: inside a phase, from the walk;
    /// in work-group code, an error (the value differs between work-items).
    pub(super) fn group_work_item(
        &mut self,
        f: WorkItemFn,
        dim: u8,
        t: Ty,
        span: Span,
    ) -> Option<Val> {
        if !matches!(f, WorkItemFn::LocalId | WorkItemFn::GlobalId) {
            return None;
        }
        let Some(ph) = self.groups.phase else {
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!(
                        "`get_{}` differs between work-items, but this code runs once per work-group",
                        f.name()
                    ),
                )
                .note(self.groups.uniform_note()),
            );
            return Some(Val::Scalar(self.konst(0, t, span)));
        };
        let l = ph.lid[dim as usize];
        let v = match f {
            WorkItemFn::LocalId => l,
            _ => {
                // The group's first work-item is its leader: its global id is the group's base.
                let base = self.op(
                    OpKind::WorkItem(WorkItemFn::GlobalId, dim),
                    Ty::I32,
                    span,
                    &[],
                );
                self.bin(BinOp::Add, base, l, span)
            }
        };
        Some(Val::Scalar(self.resize(v, t, false, span)))
    }
}
