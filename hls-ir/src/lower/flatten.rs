//! Flattening of perfect loop nests (Intel's loop coalescing, Vitis's loop flattening): the
//! nest `for (i...) for (j...) body` becomes one pipelined loop whose iterations run `body`
//! for every `(i, j)` in order. A nested loop is a pipeline of its own that its parent waits
//! for, so each entry pays its fill and drain; the flattened nest pays them once.
//!
//! The loop keeps, per inner level, a flag "this level has an iteration to run" (`Env::flags`,
//! carried and merged like variables), and one iteration of the flattened loop is:
//!
//! ```text
//! iter(k) (innermost):  body; if (no break) { step_k; more = cond_k }
//! iter(m):              if (flag_{m+1}) flag_{m+1} = iter(m+1)
//!                       if (!flag_{m+1}) { step_m; more_m = cond_m; if (more_m) init(m+1) }
//!                       more = flag_{m+1} || more_m
//! init(m):              init_m; flag_m = cond_m; if (flag_m) init(m+1)
//! ```
//!
//! so every init, condition, step and body runs exactly when, and as often as, the nest would
//! run it, in the same order; an inner level with no iterations costs one iteration of the
//! flattened loop that runs nothing. A `break` in the body leaves the innermost level,
//! `continue` goes to its step, and `return` ends the loop, as in the nest.
//!
//! Which nests: every level a `for` or `while` loop (not `do`, not unrolled, not a pipe retry
//! loop), each level's body (braces and empty statements aside) exactly the next level, no
//! barrier inside. `#pragma loop_flatten off` (or `HLS loop_flatten off`) before a loop keeps
//! it apart from the loop inside it; `#pragma loop_coalesce [N]` asks for the N outermost
//! levels (all by default) and says why when it cannot. Without a pragma, nests whose body
//! stores to an on-chip memory (a `local` or private array) stay nested: the dependence
//! analysis of on-chip accesses (`analysis::affine`) understands counters that step, and the
//! inner counter of a flattened nest wraps, so flattening could cost II there.

use super::loops::{full_unroll_requested, LoopParts};
use super::retry::bare;
use super::Lower;
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp};
use crate::types::Ty;
use frontend::ast::{AddrSpace, Expr, ExprKind, FuncId, Program, Stmt, StmtKind, Type, VarId};
use frontend::diag::Diagnostic;
use std::collections::BTreeSet;

impl<'a> Lower<'a> {
    /// The loops of the nest at `s` to flatten into one (outermost first, at least two), or
    /// `None` to lower `s` as a loop of its own.
    pub(super) fn flat_nest<'s>(&mut self, s: &'s Stmt) -> Option<Vec<Level<'s>>> {
        let coalesce = s.pragmas.iter().find(|p| p.name == "loop_coalesce");
        let max_levels = match coalesce.and_then(|p| p.arg) {
            Some(n) => n.min(64) as usize,
            None => usize::MAX,
        };
        let mut why_not = self.eligible(s).err();
        let mut levels = vec![Level {
            stmt: s,
            pre: Vec::new(),
            post: Vec::new(),
        }];
        while why_not.is_none() && levels.len() < max_levels {
            let last = levels.len() - 1;
            match self.next_level(levels[last].stmt) {
                Ok((pre, inner, post)) => {
                    levels[last].pre = pre;
                    levels[last].post = post;
                    levels.push(Level {
                        stmt: inner,
                        pre: Vec::new(),
                        post: Vec::new(),
                    });
                }
                Err(why) => why_not = Some(why),
            }
        }
        if levels.len() < 2 {
            if let (Some(p), Some(why)) = (coalesce, why_not) {
                if max_levels > 1 {
                    self.diags.push(
                        Diagnostic::warning(
                            p.span,
                            format!("`#pragma loop_coalesce` is not honoured: {why}"),
                        )
                        .note("the loops stay nested: each entry of the inner loop fills and drains its pipeline"),
                    );
                }
            }
            return None;
        }
        if coalesce.is_none() {
            if self.opts.keep_nested.iter().any(|k| k.0 == s.span) {
                return None;
            }
            if writes_onchip(self.p, std::slice::from_ref(LoopParts::of(s).body)) {
                return None;
            }
        }
        Some(levels)
    }

    /// The loop inside `s`, with the statements of `s`'s body before and after it, when `s`
    /// and it can be flattened together; or why not.
    #[allow(clippy::type_complexity)]
    fn next_level<'s>(
        &self,
        s: &'s Stmt,
    ) -> Result<(Vec<&'s Stmt>, &'s Stmt, Vec<&'s Stmt>), String> {
        if s.pragmas
            .iter()
            .any(|p| p.name == "loop_flatten" && p.arg == Some(0))
        {
            return Err("`#pragma loop_flatten off` keeps the inner loop apart".into());
        }
        let (pre, inner, post) = split_body(LoopParts::of(s).body)
            .ok_or("the loop's body does not contain exactly one loop among its statements")?;
        if pre.iter().chain(&post).any(|x| jumps_out(x)) {
            return Err("`break` or `continue` of the outer loop beside the inner loop".into());
        }
        if pre.iter().chain(&post).any(|x| declares_array(self.p, x)) {
            return Err("an array declared beside the inner loop".into());
        }
        self.eligible(inner)?;
        let body = self.bodies.last().copied().unwrap_or_default();
        if super::retry::recognise(self.p, body, inner).is_some() {
            return Err(
                "the inner loop retries a pipe operation (it is one blocking operation)".into(),
            );
        }
        if let Some(init) = LoopParts::of(inner).init {
            if declares_array(self.p, init) {
                return Err("the inner loop's initialisation declares an array".into());
            }
        }
        Ok((pre, inner, post))
    }

    /// Whether loop `s` can be a level of a flattened nest.
    fn eligible(&self, s: &Stmt) -> Result<(), String> {
        let parts = LoopParts::of(s);
        if !parts.test_first {
            return Err("a `do` loop runs its body before its first test".into());
        }
        let unrolled = full_unroll_requested(s)
            || s.pragmas
                .iter()
                .any(|p| p.name == "unroll" && p.arg.is_some_and(|n| n > 1))
            || matches!(
                s.loop_attrs.unroll_hint,
                Some(frontend::ast::Unroll::Count(n)) if n > 1
            );
        if unrolled {
            return Err("an unrolled loop is not flattened".into());
        }
        if super::groups::stmt_has_barrier(self.p, s) {
            return Err("the nest contains a barrier".into());
        }
        Ok(())
    }

    /// Lowers the nest `levels` (from [`Self::flat_nest`]) as one pipelined loop.
    pub(super) fn flattened_loop(&mut self, levels: &[Level]) {
        let span = levels[0].stmt.span;
        let parts: Vec<LoopParts> = levels.iter().map(|l| LoopParts::of(l.stmt)).collect();
        let outer: Vec<frontend::ast::VarId> = self.env.vars.keys().copied().collect();
        // The inner levels' variables, and those declared beside an inner loop, exist across
        // the whole loop (their declarations run under conditions, whose arms would otherwise
        // scope them).
        let inits = parts[1..].iter().filter_map(|p| p.init);
        let beside = levels
            .iter()
            .flat_map(|l| l.pre.iter().chain(&l.post).copied());
        for v in inits.chain(beside).flat_map(declared) {
            self.env.vars.entry(v).or_insert(super::Val::Undef);
        }
        let base = self.env.flags.len();
        let fl = self.konst(0, Ty::BOOL, span);
        self.env.flags.extend(vec![fl; parts.len() - 1]);
        if let Some(i) = parts[0].init {
            self.stmt(i);
        }
        let enter = self.level_cond(&parts[0], span);
        let nest = Nest {
            parts: &parts,
            levels,
            base,
        };
        self.branch(
            enter,
            span,
            |l| {
                l.block_refs(&levels[0].pre);
                l.nest_init(&nest, 1)
            },
            |_| {},
        );
        let stmts: Vec<&Stmt> = levels.iter().map(|l| l.stmt).collect();
        let requested_ii = self.requested_ii(&stmts);
        let mut rows = None;
        let lid = self.loop_region(span, enter, false, (None, requested_ii), |l, (t, f)| {
            let flags = l.env.flags[base..].to_vec();
            l.env.brk = f;
            l.env.cont = f;
            l.loops.push(true);
            let (again, next) = l.nest_iter(&nest, 0, (t, f));
            l.loops.pop();
            rows = Some(crate::kernel::Rows { flags, next });
            again
        });
        let lp = &mut self.k.loops[lid];
        lp.flattened = levels[1..].iter().map(|l| l.stmt.span).collect();
        lp.coalesce_requested = levels[0]
            .stmt
            .pragmas
            .iter()
            .any(|p| p.name == "loop_coalesce");
        lp.rows = rows;
        self.env.flags.truncate(base);
        self.env.vars.retain(|v, _| outer.contains(v));
    }

    /// A level's condition on the current values (true when it has none).
    fn level_cond(&mut self, p: &LoopParts, span: frontend::span::Span) -> OpId {
        match p.cond {
            Some(c) => self.cond(c),
            None => self.konst(1, Ty::BOOL, span),
        }
    }

    /// A level's step and the test after it. For a counted level (see [`counted`]) the test
    /// is an equality on the value before the step (`j != n - 1` for `j < n; j++`), which the
    /// loop's recurrence passes much faster than an add and an ordered compare.
    fn step_and_test(&mut self, p: &LoopParts, span: frontend::span::Span) -> OpId {
        let Some(c) = counted(p) else {
            if let Some(st) = p.step {
                self.rvalue(st);
            }
            return self.level_cond(p, span);
        };
        let j = self.scalar(c.var);
        // `x + k` (or `x - k`) as the limit: the adjustment joins `k` (wrapping arithmetic, so
        // `(x + k) - 1` is `x + (k - 1)`), keeping an adder off the recurrence.
        let (x, k) = match &c.limit.kind {
            ExprKind::Binary {
                op: op @ (frontend::ast::BinOp::Add | frontend::ast::BinOp::Sub),
                lhs,
                rhs,
            } if lhs.ty == c.limit.ty => match bare(rhs).kind {
                ExprKind::IntLit(v) if *op == frontend::ast::BinOp::Add => (&**lhs, v as i64),
                ExprKind::IntLit(v) => (&**lhs, (v as i64).wrapping_neg()),
                _ => (c.limit, 0),
            },
            _ => (c.limit, 0),
        };
        let e = self.scalar(x);
        let ty = self.k.op(e).ty;
        let last = match k.wrapping_add(c.adjust) {
            0 => e,
            a => {
                let mask = if ty.bits() >= 64 {
                    u64::MAX
                } else {
                    (1u64 << ty.bits()) - 1
                };
                let kk = self.konst(a as u64 & mask, ty, span);
                self.bin(BinOp::Add, e, kk, span)
            }
        };
        let more = self.cmp(CmpOp::Ne, j, last, span);
        if let Some(st) = p.step {
            self.rvalue(st);
        }
        more
    }

    /// `init(m)`: level `m`'s initialisation and first test, and the levels inside it when
    /// it has an iteration.
    fn nest_init(&mut self, nest: &Nest, m: usize) {
        let p = &nest.parts[m];
        let span = p.body.span;
        if let Some(i) = p.init {
            self.stmt(i);
        }
        let c = self.level_cond(p, span);
        self.env.flags[nest.flag(m)] = c;
        if m + 1 < nest.parts.len() {
            let pre = &nest.levels[m].pre;
            self.branch(
                c,
                span,
                |l| {
                    l.block_refs(pre);
                    l.nest_init(nest, m + 1)
                },
                |_| {},
            );
        }
    }

    fn block_refs(&mut self, stmts: &[&Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    /// `iter(m)`: one iteration of the nest from level `m` in. Returns whether level `m`
    /// has another iteration after this one, and the innermost level's answer (the row's
    /// `next`).
    fn nest_iter(&mut self, nest: &Nest, m: usize, (t, f): (OpId, OpId)) -> (OpId, OpId) {
        let p = &nest.parts[m];
        let span = p.body.span;
        if m + 1 == nest.parts.len() {
            self.stmt(p.body);
            let broke = self.env.brk;
            self.env.brk = f;
            self.env.cont = f;
            let mut more = f;
            // (Conditions are used as they are and the work goes into the `else` arm: a
            // negation would lengthen the loop's recurrences.)
            self.branch(broke, span, |_| {}, |l| more = l.step_and_test(p, span));
            let more = self.select(broke, f, more, span);
            return (more, more);
        }
        let idx = nest.flag(m + 1);
        let flag = self.env.flags[idx];
        let mut next = f;
        self.branch(
            flag,
            span,
            |l| {
                let (more, n) = l.nest_iter(nest, m + 1, (t, f));
                l.env.flags[idx] = more;
                next = n;
            },
            |_| {},
        );
        let inner_more = self.env.flags[idx];
        let mut more_m = f;
        self.branch(
            inner_more,
            span,
            |_| {},
            |l| {
                l.block_refs(&nest.levels[m].post);
                more_m = l.step_and_test(p, span);
                l.branch(
                    more_m,
                    span,
                    |l| {
                        l.block_refs(&nest.levels[m].pre);
                        l.nest_init(nest, m + 1)
                    },
                    |_| {},
                );
            },
        );
        let more = self.or1(inner_more, more_m, span);
        (more, next)
    }
}

/// One loop of a nest to flatten: the statements of its body before and after the loop
/// inside it (none for the innermost, whose body is the nest's body).
pub(super) struct Level<'s> {
    stmt: &'s Stmt,
    pre: Vec<&'s Stmt>,
    post: Vec<&'s Stmt>,
}

/// The levels of a nest being flattened, and where their flags start in `Env::flags`.
struct Nest<'p, 's> {
    parts: &'p [LoopParts<'s>],
    levels: &'p [Level<'s>],
    base: usize,
}

impl Nest<'_, '_> {
    /// The index in `Env::flags` of inner level `m` (1 ..).
    fn flag(&self, m: usize) -> usize {
        self.base + m - 1
    }
}

/// A loop body as the statements before the one loop among its statements, that loop, and
/// the statements after it (braces around a single statement aside).
#[allow(clippy::type_complexity)]
fn split_body(s: &Stmt) -> Option<(Vec<&Stmt>, &Stmt, Vec<&Stmt>)> {
    match &s.kind {
        StmtKind::Block(b) => {
            let real: Vec<&Stmt> = b
                .stmts
                .iter()
                .filter(|x| !matches!(x.kind, StmtKind::Empty) || !x.pragmas.is_empty())
                .collect();
            if let [one] = real[..] {
                return split_body(one);
            }
            let mut loops = real.iter().enumerate().filter(|(_, x)| x.is_loop());
            let (at, _) = loops.next()?;
            if loops.next().is_some() {
                return None;
            }
            Some((real[..at].to_vec(), real[at], real[at + 1..].to_vec()))
        }
        _ if s.is_loop() => Some((Vec::new(), s, Vec::new())),
        _ => None,
    }
}

/// Whether `s` has a `break` or `continue` of the loop around it (not of a loop inside it,
/// nor a `break` of a `switch` inside it).
fn jumps_out(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => true,
        StmtKind::Block(b) => b.stmts.iter().any(jumps_out),
        StmtKind::If { then, els, .. } => jumps_out(then) || els.as_deref().is_some_and(jumps_out),
        // A `break` in a `switch` leaves the switch; a `continue` there is the loop's.
        StmtKind::Switch { cases, .. } => cases.iter().flat_map(|c| &c.body).any(has_continue),
        _ => false,
    }
}

/// Whether `s` has a `continue` outside the loops inside it.
fn has_continue(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_continue),
        StmtKind::If { then, els, .. } => {
            has_continue(then) || els.as_deref().is_some_and(has_continue)
        }
        StmtKind::Switch { cases, .. } => cases.iter().flat_map(|c| &c.body).any(has_continue),
        _ => false,
    }
}

/// The variables a loop's initialisation declares.
fn declared(s: &Stmt) -> Vec<frontend::ast::VarId> {
    match &s.kind {
        StmtKind::Decl { var, .. } => vec![*var],
        StmtKind::Block(b) => b.stmts.iter().flat_map(declared).collect(),
        _ => Vec::new(),
    }
}

fn declares_array(p: &Program, s: &Stmt) -> bool {
    declared(s)
        .into_iter()
        .any(|v| matches!(p.var(v).ty, Type::Array(..)))
}

/// Whether the statements (and the functions they call) may store to an on-chip memory:
/// assign to an array variable's element, a `local` variable, a program-scope variable, or
/// through a pointer that is not `global`; or pass such a pointer to a function.
fn writes_onchip(p: &Program, stmts: &[Stmt]) -> bool {
    let mut seen = BTreeSet::new();
    writes_onchip_in(p, stmts, &mut seen)
}

fn writes_onchip_in(p: &Program, stmts: &[Stmt], seen: &mut BTreeSet<FuncId>) -> bool {
    let mut found = false;
    let mut calls = Vec::new();
    frontend::visit::walk_block(stmts, &mut |e: &Expr, _| match &e.kind {
        ExprKind::Assign { lhs, .. } => found |= onchip_place(p, lhs),
        ExprKind::IncDec { expr, .. } => found |= onchip_place(p, expr),
        ExprKind::Builtin { args, .. } => found |= args.iter().any(|a| onchip_pointer(&a.ty)),
        ExprKind::Call { func, args } => {
            found |= args.iter().any(|a| onchip_pointer(&a.ty));
            calls.push(*func);
        }
        _ => {}
    });
    for f in calls {
        if !found && seen.insert(f) {
            found |= writes_onchip_in(p, &p.func(f).body.stmts, seen);
        }
    }
    found
}

/// A pointer into memory other than `global`/`constant` (on-chip, or unknown: `generic`).
fn onchip_pointer(t: &Type) -> bool {
    matches!(t, Type::Pointer { space, .. } if !matches!(space, AddrSpace::Global | AddrSpace::Constant))
}

/// Whether the lvalue `e` is in an on-chip memory (or may be).
fn onchip_place(p: &Program, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(v) => {
            let var = p.var(*v);
            matches!(var.ty, Type::Array(..)) || var.space != AddrSpace::Private
        }
        ExprKind::Index { base, .. } => match &base.ty {
            Type::Pointer { .. } => onchip_pointer(&base.ty),
            _ => onchip_place(p, base),
        },
        ExprKind::Deref(ptr) => onchip_pointer(&ptr.ty) || !ptr.ty.is_pointer(),
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => onchip_place(p, base),
        ExprKind::Cast { expr, .. } => onchip_place(p, expr),
        _ => true,
    }
}

/// A counted level: `for (...; j OP limit; j++ or j--)` where the body changes neither `j` nor
/// what `limit` reads, `limit` is an expression of variables and constants, and `j` and
/// `limit` have one integer type. When the body runs, `j OP limit` holds, so after the step
/// the test is `j_before != limit + adjust`.
struct Counted<'s> {
    /// The `j` of the condition (an `ExprKind::Var`).
    var: &'s Expr,
    limit: &'s Expr,
    /// -1 for `<` with `++` (the last `j` is `limit - 1`), +1 for `>` with `--`, 0 for `!=`,
    /// and for `<=` with `++` / `>=` with `--` on signed types (on unsigned ones `j` could step
    /// past the largest value, where the source loops forever).
    adjust: i64,
}

fn counted<'s>(l: &LoopParts<'s>) -> Option<Counted<'s>> {
    let ExprKind::Binary { op, lhs, rhs } = &bare(l.cond?).kind else {
        return None;
    };
    let ExprKind::Var(j) = lhs.kind else {
        return None;
    };
    let Type::Scalar(kind) = lhs.ty else {
        return None;
    };
    if !kind.is_integer() || rhs.ty != lhs.ty || !pure_vars(rhs, &mut Vec::new()) {
        return None;
    }
    let up = match &bare(l.step?).kind {
        ExprKind::IncDec { inc, expr, .. } if is_var(expr, j) => *inc,
        ExprKind::Assign {
            op: Some(o @ (frontend::ast::BinOp::Add | frontend::ast::BinOp::Sub)),
            lhs: target,
            rhs: amount,
            ..
        } if is_var(target, j) && is_one(amount) => *o == frontend::ast::BinOp::Add,
        _ => return None,
    };
    use frontend::ast::BinOp as B;
    let adjust = match (op, up) {
        (B::Lt, true) => -1,
        (B::Gt, false) => 1,
        (B::Ne, true) => -1,
        (B::Ne, false) => 1,
        (B::Le, true) | (B::Ge, false) if kind.is_signed() => 0,
        _ => return None,
    };
    let mut vars = vec![j];
    pure_vars(rhs, &mut vars);
    if assigns_any(l.body, &vars) {
        return None;
    }
    Some(Counted {
        var: lhs,
        limit: rhs,
        adjust,
    })
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(e.kind, ExprKind::Var(x) if x == v)
}

fn is_one(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit(1) => true,
        ExprKind::Cast { expr, .. } => is_one(expr),
        _ => false,
    }
}

/// Whether `e` reads only variables and constants (no memory, calls or side effects); the
/// variables are added to `vars`.
fn pure_vars(e: &Expr, vars: &mut Vec<VarId>) -> bool {
    match &e.kind {
        ExprKind::IntLit(_) | ExprKind::SizeOf(_) => true,
        ExprKind::Var(v) => {
            vars.push(*v);
            true
        }
        ExprKind::Unary { expr, .. } | ExprKind::Cast { expr, .. } => pure_vars(expr, vars),
        ExprKind::Binary { lhs, rhs, .. } => pure_vars(lhs, vars) && pure_vars(rhs, vars),
        _ => false,
    }
}

/// Whether `s` may change one of `vars`: assigns or steps it, or takes its address.
fn assigns_any(s: &Stmt, vars: &[VarId]) -> bool {
    let root = |mut e: &Expr| loop {
        match &e.kind {
            ExprKind::Var(v) => return Some(*v),
            ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => e = base,
            ExprKind::Index { base, .. } if !base.ty.is_pointer() => e = base,
            _ => return None,
        }
    };
    let mut found = false;
    frontend::visit::walk_stmt(s, &mut |e: &Expr, _| match &e.kind {
        ExprKind::Assign { lhs: x, .. }
        | ExprKind::IncDec { expr: x, .. }
        | ExprKind::AddrOf(x) => found |= root(x).is_some_and(|v| vars.contains(&v)),
        _ => {}
    });
    found
}
