//! Loops: full unrolling (`#pragma unroll` without a count: the loop is simulated at compile
//! time) and pipelined loop regions (every other loop), with their loop-carried values and
//! `#pragma unroll N` copies of the body.

use super::{Env, Lower, Val};
use crate::ids::{LoopId, MemId, OpId};
use crate::kernel::Dep;
use crate::ops::OpKind;
use crate::types::Ty;
use frontend::ast::{Expr, Stmt, StmtKind, Type, VarId};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use std::collections::{BTreeMap, HashMap};

/// Most iterations `#pragma unroll` may copy.
const MAX_UNROLL: u32 = 1024;

/// A variable carried around a pipelined loop (`None`: the `returned` flag).
struct Carry {
    what: CarryOf,
    shape: Type,
    before: Val,
    leaves: Vec<(OpId, OpId)>,
}

/// What a [`Carry`] carries through a loop.
#[derive(Clone, Copy, PartialEq)]
enum CarryOf {
    Var(VarId),
    /// A flattened nest's flag (`Env::flags[i]`, see `flatten`).
    Flag(usize),
    /// The `returned` flag.
    Returned,
    /// The value a helper function returns so far (a `return` with a value inside the loop).
    RetVal,
}

/// The parts of a source loop (`for`, `while` or `do`).
pub(super) struct LoopParts<'s> {
    pub(super) init: Option<&'s Stmt>,
    pub(super) cond: Option<&'s Expr>,
    pub(super) step: Option<&'s Expr>,
    pub(super) body: &'s Stmt,
    /// `false` for `do ... while`: the body runs once before the first test.
    pub(super) test_first: bool,
}

impl<'s> LoopParts<'s> {
    pub(super) fn of(s: &'s Stmt) -> LoopParts<'s> {
        match &s.kind {
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => LoopParts {
                init: init.as_deref(),
                cond: cond.as_ref(),
                step: step.as_ref(),
                body,
                test_first: true,
            },
            StmtKind::While { cond, body } => LoopParts {
                init: None,
                cond: Some(cond),
                step: None,
                body,
                test_first: true,
            },
            StmtKind::DoWhile { body, cond } => LoopParts {
                init: None,
                cond: Some(cond),
                step: None,
                body,
                test_first: false,
            },
            _ => panic!("a loop was expected at {:?}", s.span),
        }
    }
}

/// `#pragma unroll` without a count, or `__attribute__((opencl_unroll_hint))` without one.
pub(super) fn full_unroll_requested(s: &Stmt) -> bool {
    s.pragmas
        .iter()
        .any(|p| p.name == "unroll" && p.arg.is_none())
        || s.loop_attrs.unroll_hint == Some(frontend::ast::Unroll::Full)
}

impl Lower<'_> {
    /// Full unrolling of `for (init; cond; step) body`: the loop is simulated at compile time,
    /// so its condition must fold to a constant after each step (the loop variable starts
    /// from a constant and steps by constants). Variables declared in the loop are scoped to
    /// it.
    ///
    /// After a `break` or `continue` of an enclosing pipelined loop, variable assignments keep
    /// their old values, which would freeze the loop variable. Such a loop is unrolled with
    /// its control evaluated as if alive, under the predicate that the iteration is alive
    /// (every effect masked by it), or not at all when it is never alive. The kernel fuzzer
    /// found this (`tests/fuzz-regressions/seed20261126_case612.cl`).
    pub(super) fn unroll_for(&mut self, s: &Stmt) {
        let span = s.span;
        let skip = self.or1(self.env.brk, self.env.cont, span);
        match self.const_val(skip) {
            Some(0) => self.unroll_alive(s),
            Some(_) => {}
            None => {
                let (brk, cont) = (self.env.brk, self.env.cont);
                let alive = self.not1(skip, span);
                let fl = self.konst(0, Ty::BOOL, span);
                self.branch(
                    alive,
                    span,
                    |l| {
                        (l.env.brk, l.env.cont) = (fl, fl);
                        l.unroll_alive(s);
                    },
                    |_| {},
                );
                (self.env.brk, self.env.cont) = (brk, cont);
            }
        }
    }

    /// [`Self::unroll_for`] where the rest of the iteration runs (no `break`/`continue` seen).
    fn unroll_alive(&mut self, s: &Stmt) {
        let LoopParts {
            init,
            cond,
            step,
            body,
            ..
        } = LoopParts::of(s);
        let span = s.span;
        let outer: Vec<VarId> = self.env.vars.keys().copied().collect();
        if let Some(i) = init {
            self.stmt(i);
        }
        let mut iterations = 0u32;
        self.loops.push(false);
        loop {
            let c = match cond {
                Some(c) => self.cond(c),
                None => self.konst(1, Ty::BOOL, span),
            };
            match self.const_val(c) {
                Some(0) => break,
                Some(_) => {}
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            cond.map_or(span, |c| c.span),
                            "`#pragma unroll` needs a loop whose condition is a compile-time constant in every iteration",
                        )
                        .note("start the loop variable from a constant, step it by a constant, and compare it with a constant or a macro"),
                    );
                    break;
                }
            }
            if iterations == MAX_UNROLL {
                self.diags.push(Diagnostic::error(
                    span,
                    format!("this loop runs more than {MAX_UNROLL} iterations; fully unrolling it would build that many copies of its body"),
                ).note("unroll a smaller loop, or remove `#pragma unroll` (loop pipelining comes in a later version)"));
                break;
            }
            self.stmt(body);
            if let Some(st) = step {
                self.rvalue(st);
            }
            iterations += 1;
            // Stop at an error (the kernel is not built); a warning (a pragma not honoured
            // elsewhere) must not cut the unrolling short: the kernel fuzzer found that it
            // did, silently dropping iterations.
            if self.diags.iter().any(|d| d.is_error()) {
                break;
            }
        }
        self.loops.pop();
        self.env.vars.retain(|v, _| outer.contains(v));
    }

    /// A loop that is not fully unrolled becomes a pipelined loop region (see [`OpKind::Loop`]):
    ///
    /// - in the parent: `enter` = the condition on the values before the loop (true for `do`),
    ///   and the `Loop` op taking it;
    /// - in the loop region: a `Carried` op per variable live in the parent (dropped again when
    ///   the body never changes it), the body, the `for` step, the condition evaluated again on
    ///   the new values, and `LoopExit` = !condition | break | return;
    /// - back in the parent: a `LoopResult` per changed variable, its value after the loop.
    ///
    /// So every iteration runs body + step + test, exactly the order C evaluates them in, and
    /// a loop that does not run at all (enter false) leaves every variable at its value before.
    /// With `group`, a loop containing a barrier: its body is work-group code (see `groups`),
    /// one iteration per work-group.
    pub(super) fn pipelined_loop(&mut self, s: &Stmt, group: bool) {
        let parts = LoopParts::of(s);
        let span = s.span;
        let outer: Vec<VarId> = self.env.vars.keys().copied().collect();
        if let Some(i) = parts.init {
            self.stmt(i);
        }
        let enter = match (parts.test_first, parts.cond) {
            (true, Some(c)) => self.cond(c),
            _ => self.konst(1, Ty::BOOL, span),
        };
        let (unroll, copies) = self.unroll_copies(s, group);
        let requested_ii = self.requested_ii(std::slice::from_ref(&s));
        let lid = self.loop_region(span, enter, group, (unroll, requested_ii), |l, tf| {
            l.loop_copies(&parts, copies, tf, group, span)
        });
        self.k.loops[lid].flatten_declined = self
            .opts
            .keep_nested
            .iter()
            .find(|k| k.0 == span)
            .map(|k| k.1);
        self.env.vars.retain(|v, _| outer.contains(v));
    }

    /// A pipelined loop region entered when `enter` holds: `iteration` lowers one iteration
    /// in it (given the region's constants true and false) and returns whether another
    /// follows; the loop stops when it does not, or after `break` or `return`. Variables live
    /// before the loop are carried through it (`carry_in`, `carry_out`), and its memory, pipe
    /// and counter accesses are ordered across iterations. `(unroll, requested_ii)`: what
    /// the source asks for, for the loop's record.
    pub(super) fn loop_region(
        &mut self,
        span: Span,
        enter: OpId,
        group: bool,
        (unroll, requested_ii): (Option<u32>, Option<u32>),
        iteration: impl FnOnce(&mut Self, (OpId, OpId)) -> OpId,
    ) -> LoopId {
        let alive = self.effect_pred(span);
        let enter = self.and1(enter, alive, span);
        let lid = LoopId::from_index(self.k.loops.len());
        self.k.loops.push(crate::kernel::Loop {
            kind: crate::kernel::LoopKind::Source,
            parent: Some(self.region),
            name: format!("{}.loop{}", self.k.name, lid.index()),
            span,
            trip_count: None,
            unroll,
            flattened: Vec::new(),
            coalesce_requested: false,
            flatten_declined: None,
            requested_ii,
            rows: None,
        });
        let parent = self.region;
        let saved_pred = self.pred;
        let before = self.env.clone();
        self.region = lid;
        let t = self.konst(1, Ty::BOOL, span);
        let f = self.konst(0, Ty::BOOL, span);
        self.pred = t;
        let carried = self.carry_in(span);
        let onchip_from: BTreeMap<MemId, usize> =
            self.onchip.iter().map(|(m, v)| (*m, v.len())).collect();
        let pipes_from = self.pipe_marks();
        let counters_from = self.counter_marks();
        let again = iteration(self, (t, f));
        let stop = self.not1(again, span);
        let stop = self.or1(stop, self.env.brk, span);
        let stop = self.or1(stop, self.env.returned, span);
        self.op(OpKind::LoopExit, Ty::Token, span, &[stop]);
        // Close the recurrences and leave the loop.
        let after = self.env.clone();
        self.region = parent;
        self.pred = saved_pred;
        self.env = before;
        let loop_op = self.op(OpKind::Loop(lid), Ty::Token, span, &[enter]);
        if group {
            self.sync_in_order(loop_op);
            self.check_group_carries(&carried, span);
        }
        self.carry_out(carried, &after, loop_op, span);
        self.order_onchip_across_iterations(lid, &onchip_from);
        self.order_pipes_across_iterations(lid, &pipes_from);
        self.order_counters_across_iterations(lid, &counters_from);
        if !group {
            // In a loop around barriers, each barrier orders global memory.
            self.check_loop_memory(lid);
        }
        lid
    }

    /// The II the source asks for on any of `loops` (`#pragma ii N`, `#pragma HLS pipeline
    /// II=N`, `xcl_pipeline_loop(N)`): the largest. Warns about `speculated_iterations`,
    /// which the pipelines do not do.
    pub(super) fn requested_ii(&mut self, loops: &[&Stmt]) -> Option<u32> {
        let mut ii: Option<u32> = None;
        for s in loops {
            for p in &s.pragmas {
                match (p.name.as_str(), p.arg) {
                    ("ii", Some(n)) => ii = ii.max(Some(n.min(u64::from(u32::MAX)) as u32)),
                    ("speculated_iterations", Some(n)) if n > 0 => self.diags.push(
                        Diagnostic::warning(
                            p.span,
                            format!("`#pragma speculated_iterations {n}` is not honoured: a loop's next iteration starts only once this one has decided that there is one"),
                        )
                        .note("the exit condition's recurrence is part of the loop's II; compute the condition early (a counter compared with a bound) to keep it short"),
                    ),
                    _ => {}
                }
            }
            ii = ii.max(s.loop_attrs.pipeline_ii);
        }
        ii
    }

    /// The unroll count the source asks for (`#pragma unroll N`, `nounroll`,
    /// `opencl_unroll_hint(N)`), and how many copies of the body one pipelined iteration
    /// holds: N copies of body + step + test, where a copy whose test fails masks the copies
    /// after it like a `break`.
    fn unroll_copies(&mut self, s: &Stmt, group: bool) -> (Option<u32>, u32) {
        let span = s.span;
        let unroll = s
            .pragmas
            .iter()
            .find_map(|p| match p.name.as_str() {
                "nounroll" => Some(1),
                "unroll" => p.arg.map(|n| n as u32),
                _ => None,
            })
            .or(match s.loop_attrs.unroll_hint {
                Some(frontend::ast::Unroll::Count(n)) => Some(n),
                _ => None,
            });
        let copies = match unroll {
            Some(n) if n > 1 && group => {
                self.diags.push(Diagnostic::warning(
                    span,
                    "a loop containing a barrier runs once per work-group step; its unroll count is ignored",
                ));
                1
            }
            Some(n) if n > MAX_UNROLL => {
                self.diags.push(Diagnostic::error(
                    span,
                    format!("unrolling by {n} would build more than {MAX_UNROLL} copies of the loop body"),
                ));
                1
            }
            Some(n) if n > 1 => n,
            _ => 1,
        };
        (unroll, copies)
    }

    /// A `Carried` op per live variable (and for the `returned` flag), in the new loop region;
    /// the environment then reads them. Its first operand is the value before the loop, its
    /// second (added by `carry_out`) the value for the next iteration. Per variable: its shape,
    /// its value before the loop, and (carried, init) per leaf (a scalar, a pointer's address,
    /// each part of a vector or struct: see `flatten`).
    fn carry_in(&mut self, span: Span) -> Vec<Carry> {
        let returned = self.env.returned;
        let mut carried: Vec<Carry> = Vec::new();
        let vars: Vec<(VarId, Val)> = self.env.vars.iter().map(|(v, x)| (*v, *x)).collect();
        for (var, val) in vars {
            let ty = match &self.p.var(var).ty {
                // A reserve id is an i32 (`CLK_NULL_RESERVE_ID` = 0).
                Type::ReserveId => Type::UINT,
                t => t.clone(),
            };
            let shape = match val {
                Val::Ptr { .. } | Val::VarPtr { .. } | Val::PtrSel(_) => Type::UINT,
                Val::Undef
                    if !matches!(ty, Type::Scalar(_) | Type::Vector(..) | Type::Struct(_)) =>
                {
                    continue
                }
                _ => ty,
            };
            // An indeterminate value (C) starts from 0, so the hardware is deterministic.
            let mut inits = Vec::new();
            self.flatten(val, &shape, span, &mut inits);
            let name = self.p.var(var).name.clone();
            let mut pairs = Vec::new();
            for init in inits {
                let t = self.k.op(init).ty;
                let c = self.op(OpKind::Carried, t, span, &[init]);
                self.k.op_mut(c).name = Some(name.clone());
                pairs.push((c, init));
            }
            let inside = self.rebuild(val, &shape, &mut pairs.iter().map(|p| p.0));
            self.env.vars.insert(var, inside);
            carried.push(Carry {
                what: CarryOf::Var(var),
                shape,
                before: val,
                leaves: pairs,
            });
        }
        for i in 0..self.env.flags.len() {
            let before = self.env.flags[i];
            let c = self.op(OpKind::Carried, Ty::BOOL, span, &[before]);
            self.k.op_mut(c).name = Some("nest_flag".to_string());
            self.env.flags[i] = c;
            carried.push(Carry {
                what: CarryOf::Flag(i),
                shape: Type::BOOL,
                before: Val::Scalar(before),
                leaves: vec![(c, before)],
            });
        }
        if let Some(ty) = self.ret_ty.clone() {
            carried.push(self.carry_ret_val(ty, span));
        }
        let ret_c = self.op(OpKind::Carried, Ty::BOOL, span, &[returned]);
        carried.push(Carry {
            what: CarryOf::Returned,
            shape: Type::BOOL,
            before: Val::Undef,
            leaves: vec![(ret_c, returned)],
        });
        self.env.returned = ret_c;
        carried
    }

    /// The value a helper returns so far, carried like a variable of its return type (so a
    /// `return` with a value inside the loop is kept across iterations; indeterminate, 0,
    /// until a `return` runs).
    fn carry_ret_val(&mut self, ty: Type, span: Span) -> Carry {
        let before = self.env.ret_val.unwrap_or(Val::Undef);
        let mut inits = Vec::new();
        self.flatten(before, &ty, span, &mut inits);
        let mut pairs = Vec::new();
        for init in inits {
            let t = self.k.op(init).ty;
            let c = self.op(OpKind::Carried, t, span, &[init]);
            self.k.op_mut(c).name = Some("retval".to_string());
            pairs.push((c, init));
        }
        let inside = self.rebuild(before, &ty, &mut pairs.iter().map(|p| p.0));
        self.env.ret_val = Some(inside);
        Carry {
            what: CarryOf::RetVal,
            shape: ty,
            before,
            leaves: pairs,
        }
    }

    /// The body of one pipelined iteration: `copies` times body + step + test, each copy after
    /// the first masked once a test has failed. Returns the last test (`t`, `f`: the region's
    /// constants true and false).
    fn loop_copies(
        &mut self,
        parts: &LoopParts,
        copies: u32,
        (t, f): (OpId, OpId),
        group: bool,
        span: Span,
    ) -> OpId {
        self.env.brk = f;
        self.env.cont = f;
        self.loops.push(true);
        let mut again = t;
        for copy in 0..copies {
            if copy > 0 {
                // The previous copy's test failed: the loop is over, as after a `break`.
                let over = self.not1(again, span);
                self.env.brk = self.or1(self.env.brk, over, span);
            }
            if group {
                self.group_block(std::slice::from_ref(parts.body));
            } else {
                self.stmt(parts.body);
            }
            self.env.cont = f;
            // (The step of a copy that does not run changes nothing: assignments are masked
            // by the `break` flag.)
            if let Some(st) = parts.step {
                self.rvalue(st);
            }
            again = match parts.cond {
                Some(c) => self.cond(c),
                None => t,
            };
        }
        self.loops.pop();
        again
    }

    /// In a loop around barriers, a variable of work-group code must not be assigned by a
    /// work-item between the barriers.
    fn check_group_carries(&mut self, carried: &[Carry], span: Span) {
        for c in carried {
            if let CarryOf::Var(v) = c.what {
                if self.groups.ctx.contains_key(&v) {
                    let name = self.p.var(v).name.clone();
                    self.diags.push(
                        Diagnostic::error(
                            span,
                            format!("`{name}` is work-group code's variable here, but a work-item assigns it between the barriers of this loop"),
                        )
                        .note("declare a separate variable for each work-item's value before the loop, or assign it outside the code between barriers"),
                    );
                }
            }
        }
    }

    /// Closes the recurrence of each carried leaf with its value after the body (`after`): a
    /// leaf the body never changed is its value before the loop again; every other leaf gets a
    /// distance-1 edge and a `LoopResult` after `loop_op`, which the environment then reads.
    fn carry_out(&mut self, carried: Vec<Carry>, after: &Env, loop_op: OpId, span: Span) {
        // Carried values never changed in the loop are replaced by their value from before
        // it and removed; a later carry whose next value is one of them (`v = n;` in the
        // loop, `n` unchanged) takes that value instead (`after` still names the removed op).
        let mut replaced: HashMap<OpId, OpId> = HashMap::new();
        for cr in carried {
            let nexts: Vec<OpId> = match cr.what {
                CarryOf::Var(v) => match after.vars.get(&v) {
                    Some(val) => {
                        if self.is_pointer(*val) && self.targets(*val) != self.targets(cr.before) {
                            self.unsupported(
                                span,
                                "a pointer that may point into different buffers or variables",
                            );
                        }
                        let mut out = Vec::new();
                        self.flatten(*val, &cr.shape, span, &mut out);
                        out
                    }
                    None => cr.leaves.iter().map(|l| l.0).collect(),
                },
                CarryOf::RetVal => {
                    let mut out = Vec::new();
                    let val = after.ret_val.unwrap_or(Val::Undef);
                    self.flatten(val, &cr.shape, span, &mut out);
                    out
                }
                CarryOf::Returned => vec![after.returned],
                CarryOf::Flag(i) => vec![after.flags[i]],
            };
            let mut results = Vec::new();
            for (&(c, init), next) in cr.leaves.iter().zip(nexts) {
                let next = replaced.get(&next).copied().unwrap_or(next);
                if next == c {
                    // Never changed in the loop: every use is the value from before the loop.
                    self.k.replace_uses(c, init);
                    self.k.remove_op(c);
                    replaced.insert(c, init);
                    results.push(init);
                    continue;
                }
                self.k.add_dep(
                    next,
                    c,
                    Dep::Data {
                        operand: 1,
                        distance: 1,
                    },
                );
                let ty = self.k.op(c).ty;
                let r = self.op(OpKind::LoopResult, ty, span, &[loop_op, next, init]);
                if let CarryOf::Var(v) = cr.what {
                    let name = self.p.var(v).name.clone();
                    self.k.op_mut(r).name = Some(name);
                }
                results.push(r);
            }
            let changed = results.iter().zip(&cr.leaves).any(|(r, l)| *r != l.1);
            match cr.what {
                CarryOf::Var(v) if changed => {
                    let val = self.rebuild(cr.before, &cr.shape, &mut results.into_iter());
                    self.env.vars.insert(v, val);
                }
                CarryOf::Var(_) => {}
                CarryOf::RetVal if changed => {
                    let val = self.rebuild(cr.before, &cr.shape, &mut results.into_iter());
                    self.env.ret_val = Some(val);
                }
                CarryOf::RetVal => self.env.ret_val = Some(cr.before).filter(|v| *v != Val::Undef),
                CarryOf::Returned => self.env.returned = results[0],
                CarryOf::Flag(i) => self.env.flags[i] = results[0],
            }
        }
    }
}
