//! Statements and control flow: declarations, `if` (if-conversion: both arms under
//! predicates, environments merged with selects), `return` and the `break`/`continue` flags
//! that mask the rest of an iteration, and helper calls (inlined at each call).

use super::loops::full_unroll_requested;
use super::{Env, Lower, Val};
use crate::ids::OpId;
use crate::ops::CmpOp;
use crate::types::Ty;
use frontend::ast::{AddrSpace, Expr, FuncId, Init, Stmt, StmtKind, SwitchCase, Type, VarId};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use std::collections::BTreeMap;

/// Maximum depth of inlined helper calls (the front end rejects recursion; this bounds size).
const MAX_INLINE_DEPTH: usize = 64;

impl Lower<'_> {
    pub(super) fn block(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.block(&b.stmts),
            StmtKind::Empty => {}
            StmtKind::Decl { var, init } => self.decl(*var, init.as_ref(), s.span),
            StmtKind::Expr(e) => {
                self.rvalue(e);
            }
            StmtKind::If { cond, then, els } => {
                let c = self.cond(cond);
                self.branch(
                    c,
                    s.span,
                    |l| l.stmt(then),
                    |l| {
                        if let Some(e) = els {
                            l.stmt(e)
                        }
                    },
                );
            }
            StmtKind::Return(v) => self.return_stmt(v.as_ref(), s.span),
            StmtKind::For { .. } if full_unroll_requested(s) => self.unroll_for(s),
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                let body = self.bodies.last().copied().unwrap_or_default();
                match super::retry::recognise(self.p, body, s) {
                    Some(r) => self.retry_loop(r),
                    None => match self.flat_nest(s) {
                        Some(levels) => self.flattened_loop(&levels),
                        None => self.pipelined_loop(s, false),
                    },
                }
            }
            StmtKind::Switch { cond, cases } => self.switch(cond, cases, s.span),
            StmtKind::Break | StmtKind::Continue => {
                self.break_continue(matches!(s.kind, StmtKind::Break), s.span)
            }
        }
    }

    /// A declaration: an array or a `local` scalar gets an on-chip memory; a private variable
    /// its initial value (indeterminate without an initialiser).
    fn decl(&mut self, var: VarId, init: Option<&Init>, span: Span) {
        let info = self.p.var(var);
        if matches!(info.ty, Type::Array(..)) {
            return self.declare_array(var, init, span);
        }
        if init.is_none()
            && info.space == AddrSpace::Local
            && matches!(info.ty, Type::Scalar(_) | Type::ReserveId | Type::Atomic(_))
        {
            return self.declare_local_scalar(var, span);
        }
        if info.space != AddrSpace::Private {
            self.unsupported(
                span,
                format!(
                    "a `{}` variable of type `{}`",
                    info.space,
                    self.p.type_name(&info.ty)
                ),
            );
            return;
        }
        if !self.check_type(&info.ty, span) {
            return;
        }
        let val = match init {
            Some(i) => self.init_value(&info.ty, i),
            None => Val::Undef,
        };
        self.name_value(val, &info.ty, &info.name.clone());
        self.env.vars.insert(var, val);
    }

    /// `return`: the value joins the helper's return value under the current predicate, and
    /// the `returned` flag masks every later side effect.
    fn return_stmt(&mut self, v: Option<&Expr>, span: Span) {
        if let Some(e) = v {
            let val = self.rvalue(e);
            let now = self.effect_pred(span);
            self.env.ret_val = Some(match self.env.ret_val {
                Some(old) => self.merge_val(now, val, old, span),
                None => val,
            });
        }
        let r = self.or1(self.env.returned, self.pred, span);
        self.env.returned = r;
    }

    /// `break` (`brk`) or `continue`: sets the flag that masks the rest of the iteration of a
    /// pipelined loop.
    fn break_continue(&mut self, brk: bool, span: Span) {
        // Only a `break`/`continue` that is reached counts: not after an earlier `continue`,
        // `break` or `return` of this iteration.
        let now = self.effect_pred(span);
        // A `break` whose innermost enclosing statement is a `switch` leaves the switch.
        if brk && self.switches.last() == Some(&self.loops.len()) {
            self.env.brk = self.or1(self.env.brk, now, span);
            return;
        }
        match self.loops.last() {
            Some(true) if brk => self.env.brk = self.or1(self.env.brk, now, span),
            Some(true) => self.env.cont = self.or1(self.env.cont, now, span),
            Some(false) => {
                self.unsupported(span, "`break`/`continue` in a loop with `#pragma unroll`")
            }
            None => self.unsupported(span, "`break` out of a `switch`"),
        }
    }

    /// `switch`: each case's body runs (if-converted) when the value matches one of its
    /// labels, or the default matches (no label does), or control falls into it from the case
    /// before (which was entered and has not executed `break`). A `break` sets the break flag,
    /// which masks the rest of the switch as it masks the rest of a loop iteration; the flag
    /// is the enclosing loop's again after the switch.
    fn switch(&mut self, cond: &Expr, cases: &[SwitchCase], span: Span) {
        let x = self.scalar(cond);
        let ty = self.k.op(x).ty;
        let fl = self.konst(0, Ty::BOOL, span);
        let mut hits = Vec::new();
        let mut any = fl;
        for c in cases {
            let mut h = fl;
            for &v in &c.values {
                let k = self.konst(v, ty, c.span);
                let e = self.cmp(CmpOp::Eq, x, k, c.span);
                h = self.or1(h, e, c.span);
            }
            any = self.or1(any, h, c.span);
            hits.push(h);
        }
        let outer_brk = self.env.brk;
        self.switches.push(self.loops.len());
        let mut entered = fl;
        for (c, h) in cases.iter().zip(hits) {
            let h = if c.is_default {
                let none = self.not1(any, c.span);
                self.or1(h, none, c.span)
            } else {
                h
            };
            entered = self.or1(entered, h, c.span);
            self.branch(entered, c.span, |l| l.block(&c.body), |_| {});
        }
        self.switches.pop();
        self.env.brk = outer_brk;
    }

    /// The effective predicate for a side effect: inside the current condition and not after a
    /// `return`.
    pub(super) fn effect_pred(&mut self, span: Span) -> OpId {
        let dead = self.dead(span);
        let alive = self.not1(dead, span);
        self.and1(self.pred, alive, span)
    }

    /// i1: the rest of this iteration (or function) does not run: after `return`, `break` or
    /// `continue`.
    pub(super) fn dead(&mut self, span: Span) -> OpId {
        let d = self.or1(self.env.returned, self.env.brk, span);
        self.or1(d, self.env.cont, span)
    }

    /// Run `then` under `pred & c` and `els` under `pred & !c`, then merge the environments.
    pub(super) fn branch(
        &mut self,
        c: OpId,
        span: Span,
        then: impl FnOnce(&mut Self),
        els: impl FnOnce(&mut Self),
    ) {
        let saved_pred = self.pred;
        let before = self.env.clone();
        self.pred = self.and1(saved_pred, c, span);
        then(self);
        let env_then = std::mem::replace(&mut self.env, before);
        let nc = self.not1(c, span);
        self.pred = self.and1(saved_pred, nc, span);
        els(self);
        let env_else = std::mem::replace(&mut self.env, env_then.clone());
        self.pred = saved_pred;
        // Merge: variables declared inside an arm are out of scope afterwards.
        let mut merged = env_then.vars.clone();
        for (v, tv) in &env_then.vars {
            if let Some(ev) = env_else.vars.get(v) {
                merged.insert(*v, self.merge_val(c, *tv, *ev, span));
            }
        }
        merged.retain(|v, _| env_else.vars.contains_key(v));
        self.env.vars = merged;
        self.env.returned = self.select(c, env_then.returned, env_else.returned, span);
        self.env.brk = self.select(c, env_then.brk, env_else.brk, span);
        self.env.cont = self.select(c, env_then.cont, env_else.cont, span);
        self.env.flags = (env_then.flags.iter().zip(&env_else.flags))
            .map(|(&a, &b)| self.select(c, a, b, span))
            .collect();
        self.env.ret_val = match (env_then.ret_val, env_else.ret_val) {
            (Some(a), Some(b)) => Some(self.merge_val(c, a, b, span)),
            (a, b) => a.or(b),
        };
    }

    pub(super) fn merge_val(&mut self, c: OpId, t: Val, e: Val, span: Span) -> Val {
        match (t, e) {
            (a, b) if a == b => a,
            (Val::Scalar(a), Val::Scalar(b)) => Val::Scalar(self.select(c, a, b, span)),
            (Val::Ptr { addr: a, mem: m1 }, Val::Ptr { addr: b, mem: m2 }) if m1 == m2 => {
                Val::Ptr {
                    addr: self.select(c, a, b, span),
                    mem: m1,
                }
            }
            (Val::VarPtr { var: v, off: a }, Val::VarPtr { var: w, off: b }) if v == w => {
                Val::VarPtr {
                    var: v,
                    off: self.select(c, a, b, span),
                }
            }
            // Different objects (or the same one reached differently): chosen at run time.
            (
                Val::Ptr { .. } | Val::VarPtr { .. } | Val::PtrSel(_),
                Val::Ptr { .. } | Val::VarPtr { .. } | Val::PtrSel(_),
            ) => self.ptr_sel(c, t, e),
            (Val::Agg(a), Val::Agg(b)) => {
                let (pa, pb) = (
                    self.aggs[a as usize].parts.clone(),
                    self.aggs[b as usize].parts.clone(),
                );
                let parts = pa
                    .into_iter()
                    .zip(pb)
                    .map(|(x, y)| self.merge_val(c, x, y, span))
                    .collect();
                let raw = match (self.aggs[a as usize].raw, self.aggs[b as usize].raw) {
                    (x, y) if x == y => x,
                    (x, y) => {
                        let w = self.k.op(x.or(y).expect("one is set")).ty;
                        let x = x.unwrap_or_else(|| self.konst(0, w, span));
                        let y = y.unwrap_or_else(|| self.konst(0, w, span));
                        Some(self.select(c, x, y, span))
                    }
                };
                self.mk_agg(parts, raw)
            }
            (Val::Undef, v) | (v, Val::Undef) => v,
            _ => t,
        }
    }

    pub(super) fn call(&mut self, func: FuncId, args: &[Expr], span: Span) -> Val {
        if self.depth >= MAX_INLINE_DEPTH {
            self.diags.push(Diagnostic::error(
                span,
                format!("helper calls nested deeper than {MAX_INLINE_DEPTH} levels"),
            ));
            return Val::Undef;
        }
        let f = self.p.func(func);
        let mut vals = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            if !self.bind_pipe_param(*p, a) && !self.bind_counter_param(*p, a) {
                vals.push((*p, self.rvalue(a)));
            }
        }
        // The callee names only its parameters and locals, but keeps the caller's variables
        // for pointers to them (`places`); its `return` ends the callee only. Its side
        // effects (and writes through pointers) are masked by the caller's state too: it
        // starts as returned when the caller has returned or left the iteration.
        let fl = self.konst(0, Ty::BOOL, span);
        let dead = self.dead(span);
        let caller = std::mem::replace(
            &mut self.env,
            Env {
                vars: BTreeMap::new(),
                returned: dead,
                ret_val: None,
                brk: fl,
                cont: fl,
                // The caller's nest flags stay with the caller (the callee never reads them).
                flags: Vec::new(),
            },
        );
        self.env.vars = caller.vars.clone();
        for (p, v) in vals {
            self.env.vars.insert(p, v);
        }
        let saved_pred = self.pred;
        let alive = self.not1(dead, span);
        self.pred = self.and1(self.pred, alive, span);
        self.depth += 1;
        let ret_ty = (f.ret != Type::Void).then(|| f.ret.clone());
        let caller_ret_ty = std::mem::replace(&mut self.ret_ty, ret_ty);
        self.bodies.push(&f.body.stmts);
        self.block(&f.body.stmts);
        self.bodies.pop();
        self.ret_ty = caller_ret_ty;
        self.depth -= 1;
        self.pred = saved_pred;
        let ret = self.env.ret_val.unwrap_or(Val::Undef);
        let callee = std::mem::replace(&mut self.env, caller);
        // The caller's variables as the callee left them (written through pointers).
        for (v, val) in self.env.vars.iter_mut() {
            if let Some(x) = callee.vars.get(v) {
                *val = *x;
            }
        }
        ret
    }
}
