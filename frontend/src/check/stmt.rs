//! Statements: scopes, control flow context (break/continue), switch structuring, loop
//! attributes and pragmas.

use super::Checker;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

impl Checker<'_> {
    /// Checks the items of a block in the current scope.
    pub(crate) fn block_items(&mut self, items: &[syn::BlockItem]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for it in items {
            self.block_item(it, &mut out);
        }
        out
    }

    fn block_item(&mut self, it: &syn::BlockItem, out: &mut Vec<Stmt>) {
        match it {
            syn::BlockItem::Decl(d) => out.extend(self.local_declaration(d, &[])),
            syn::BlockItem::Stmt(s) => match &s.kind {
                syn::StmtKind::AttributedDecl(attrs, d) => {
                    out.extend(self.local_declaration(d, attrs))
                }
                syn::StmtKind::Pragma(p, inner) => {
                    let start = out.len();
                    self.block_item(inner, out);
                    let pragma = Pragma {
                        name: p.name.clone(),
                        arg: p.arg,
                        span: p.span,
                    };
                    match out.get_mut(start) {
                        Some(st) if st.is_loop() => st.pragmas.insert(0, pragma),
                        _ => {
                            if crate::ast::LOOP_PRAGMAS.contains(&p.name.as_str()) {
                                self.warn(
                                    Diagnostic::warning(p.span, format!("`#pragma {}` is not followed by a loop; ignored", p.name))
                                        .note("put the pragma on the line just before `for`, `while` or `do`"),
                                );
                            }
                        }
                    }
                }
                _ => {
                    if let Some(st) = self.stmt(s) {
                        out.push(st);
                    }
                }
            },
        }
    }

    /// A statement in its own scope (bodies of if/loops).
    fn sub_stmt(&mut self, s: &syn::Stmt) -> Stmt {
        self.push_scope();
        let r = self.stmt(s);
        self.pop_scope();
        r.unwrap_or_else(|| Stmt::new(StmtKind::Empty, s.span))
    }

    pub(crate) fn stmt(&mut self, s: &syn::Stmt) -> Option<Stmt> {
        if !self.enter(s.span) {
            return None;
        }
        let r = self.stmt_inner(s);
        self.leave();
        r
    }

    fn stmt_inner(&mut self, s: &syn::Stmt) -> Option<Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            syn::StmtKind::Error => return None,
            syn::StmtKind::Compound(items) => {
                self.push_scope();
                let stmts = self.block_items(items);
                self.pop_scope();
                StmtKind::Block(Block { stmts, span })
            }
            syn::StmtKind::Expr(None) => StmtKind::Empty,
            syn::StmtKind::Expr(Some(e)) => {
                let x = self.expr(e)?;
                let x = self.decay(x);
                self.warn_unused(&x);
                StmtKind::Expr(x)
            }
            syn::StmtKind::If(c, t, e) => {
                let cond = self
                    .rvalue(c)
                    .and_then(|x| self.as_condition(x, "the condition of `if`"));
                let then = self.sub_stmt(t);
                let els = e.as_ref().map(|e| Box::new(self.sub_stmt(e)));
                StmtKind::If {
                    cond: cond?,
                    then: Box::new(then),
                    els,
                }
            }
            syn::StmtKind::While(c, b) => {
                let cond = self
                    .rvalue(c)
                    .and_then(|x| self.as_condition(x, "the condition of `while`"));
                let body = self.loop_body(b);
                StmtKind::While {
                    cond: cond?,
                    body: Box::new(body),
                }
            }
            syn::StmtKind::DoWhile(b, c) => {
                let body = self.loop_body(b);
                let cond = self
                    .rvalue(c)
                    .and_then(|x| self.as_condition(x, "the condition of `do ... while`"));
                StmtKind::DoWhile {
                    body: Box::new(body),
                    cond: cond?,
                }
            }
            syn::StmtKind::For(init, c, step, b) => {
                self.for_stmt(init, c.as_ref(), step.as_ref(), b)?
            }
            syn::StmtKind::Switch(c, b) => self.switch(c, b, span)?,
            syn::StmtKind::Case(..) | syn::StmtKind::Default(_) => {
                let what = if matches!(&s.kind, syn::StmtKind::Case(..)) {
                    "`case`"
                } else {
                    "`default`"
                };
                let in_switch = self.cur.as_ref().is_some_and(|c| c.breakables > c.loops);
                let d = if in_switch {
                    Diagnostic::error(
                        span,
                        format!("{} label nested inside another statement of a `switch` is not supported", what),
                    )
                    .note("labels may be directly in the switch body or in a `{ }` block directly inside it; jumping into an `if` or a loop (Duff's device) has no hardware equivalent")
                } else {
                    Diagnostic::error(
                        span,
                        format!("{} label not within a `switch` statement", what),
                    )
                };
                self.error(d);
                return None;
            }
            syn::StmtKind::Label(..) | syn::StmtKind::Goto(_) => {
                self.unsupported(
                    span,
                    "`goto` and labels are",
                    "use structured control flow (loops, `break`, `continue`)",
                );
                return None;
            }
            syn::StmtKind::Break => {
                if self.cur.as_ref().is_none_or(|c| c.breakables == 0) {
                    self.error(
                        Diagnostic::error(span, "`break` outside a loop or switch")
                            .note("`break` leaves the innermost loop or switch; use `return` to leave the function"),
                    );
                    return None;
                }
                StmtKind::Break
            }
            syn::StmtKind::Continue => {
                if self.cur.as_ref().is_none_or(|c| c.loops == 0) {
                    self.error(
                        Diagnostic::error(span, "`continue` outside a loop")
                            .note("`continue` starts the next iteration of the innermost loop; use `return` to leave the function"),
                    );
                    return None;
                }
                StmtKind::Continue
            }
            syn::StmtKind::Return(e) => self.return_stmt(e.as_ref(), span)?,
            syn::StmtKind::Attributed(attrs, inner) => return self.attributed_stmt(attrs, inner),
            syn::StmtKind::AttributedDecl(..) | syn::StmtKind::Pragma(..) => {
                // only reachable as block items, handled in block_item
                let mut out = Vec::new();
                self.block_item(&syn::BlockItem::Stmt(s.clone()), &mut out);
                StmtKind::Block(Block { stmts: out, span })
            }
        };
        Some(Stmt::new(kind, span))
    }

    /// `for (init; cond; step) body`: the init declarations are scoped to the loop.
    fn for_stmt(
        &mut self,
        init: &syn::ForInit,
        c: Option<&syn::Expr>,
        step: Option<&syn::Expr>,
        b: &syn::Stmt,
    ) -> Option<StmtKind> {
        self.push_scope();
        let init_stmt = match init {
            syn::ForInit::None => Some(None),
            syn::ForInit::Expr(e) => self.expr(e).map(|x| {
                let x = self.decay(x);
                Some(Box::new(Stmt::new(StmtKind::Expr(x), e.span)))
            }),
            syn::ForInit::Decl(d) => {
                let before = self.diags.iter().filter(|d| d.is_error()).count();
                let mut decls = self.local_declaration(d, &[]);
                let failed = self.diags.iter().filter(|d| d.is_error()).count() > before;
                if failed {
                    None
                } else if decls.len() == 1 {
                    Some(Some(Box::new(decls.remove(0))))
                } else if decls.is_empty() {
                    Some(None)
                } else {
                    Some(Some(Box::new(Stmt::new(
                        StmtKind::Block(Block {
                            stmts: decls,
                            span: d.span,
                        }),
                        d.span,
                    ))))
                }
            }
        };
        let cond = match c {
            Some(c) => self
                .rvalue(c)
                .and_then(|x| self.as_condition(x, "the condition of `for`"))
                .map(Some),
            None => Some(None),
        };
        let stepx = match step {
            Some(e) => self.expr(e).map(|x| Some(self.decay(x))),
            None => Some(None),
        };
        let body = self.loop_body(b);
        self.pop_scope();
        Some(StmtKind::For {
            init: init_stmt?,
            cond: cond?,
            step: stepx?,
            body: Box::new(body),
        })
    }

    /// `return [e];`, converted to the function's return type.
    fn return_stmt(&mut self, e: Option<&syn::Expr>, span: Span) -> Option<StmtKind> {
        let ret = self.cur.as_ref().map(|c| (c.ret.clone(), c.name.clone()));
        let (ret, fname) = ret.unwrap_or((Type::Void, String::new()));
        match (e, ret.is_void()) {
            (None, true) => Some(StmtKind::Return(None)),
            (None, false) => {
                let t = self.type_name(&ret);
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{}` must return a value of type `{}`", fname, t),
                    )
                    .note("write `return value;`"),
                );
                None
            }
            (Some(e), true) => {
                let x = self.expr(e)?;
                if !x.ty.is_void() {
                    self.error(
                        Diagnostic::error(
                            e.span,
                            format!("`{}` returns `void` but a value is returned", fname),
                        )
                        .note("kernels write results through pointer arguments; remove the value"),
                    );
                    return None;
                }
                // `return f();` with a void `f`: keep the call
                Some(StmtKind::Block(Block {
                    stmts: vec![
                        Stmt::new(StmtKind::Expr(x), e.span),
                        Stmt::new(StmtKind::Return(None), span),
                    ],
                    span,
                }))
            }
            (Some(e), false) => {
                let x = self.rvalue(e)?;
                let x = self.convert(x, &ret, "return")?;
                Some(StmtKind::Return(Some(x)))
            }
        }
    }

    /// A statement with attributes (`__attribute__((opencl_unroll_hint(4)))` before a loop),
    /// nested attribute lists included.
    fn attributed_stmt(&mut self, attrs: &[syn::Attr], inner: &syn::Stmt) -> Option<Stmt> {
        let mut levels = vec![self.convert_attrs(attrs)];
        let mut inner = inner;
        while let syn::StmtKind::Attributed(more, s) = &inner.kind {
            levels.push(self.convert_attrs(more));
            inner = s;
        }
        let mut st = self.stmt(inner)?;
        // innermost first, as written closest to the statement
        let attrs: Vec<Attribute> = levels.into_iter().rev().flatten().collect();
        st.loop_attrs = self.loop_attrs(&attrs, st.is_loop());
        st.attrs.extend(attrs);
        Some(st)
    }

    fn loop_body(&mut self, b: &syn::Stmt) -> Stmt {
        if let Some(c) = self.cur.as_mut() {
            c.loops += 1;
            c.breakables += 1;
        }
        let body = self.sub_stmt(b);
        if let Some(c) = self.cur.as_mut() {
            c.loops -= 1;
            c.breakables -= 1;
        }
        body
    }

    fn warn_unused(&mut self, x: &Expr) {
        if let ExprKind::Builtin {
            builtin: Builtin::ReadPipe,
            ..
        } = x.kind
        {
            self.warn(
                Diagnostic::warning(x.span, "result of `read_pipe` is unused")
                    .note("`read_pipe` does not wait: it returns a negative value and leaves the packet unchanged when the pipe is empty; test the result, or use `read_pipe_block` (Xilinx) to wait"),
            );
            return;
        }
        let pure = match &x.kind {
            ExprKind::Binary { op, .. } => !op.is_logical() && !super::expr::has_side_effects(x),
            ExprKind::Var(_) | ExprKind::IntLit(_) | ExprKind::FloatLit(_) => true,
            _ => false,
        };
        if pure {
            self.warn(
                Diagnostic::warning(x.span, "expression result unused")
                    .note("did you mean to assign it (`=`) or compare it inside a condition?"),
            );
        }
    }

    fn switch(&mut self, c: &syn::Expr, b: &syn::Stmt, span: Span) -> Option<StmtKind> {
        let cond = self.rvalue(c)?;
        if !(cond.ty.is_scalar() && cond.ty.is_integer()) {
            let t = self.type_name(&cond.ty);
            self.err(
                cond.span,
                format!("the condition of `switch` must be an integer, not `{}`", t),
            );
            return None;
        }
        let cond = self.promote(cond);
        let ck = cond.ty.elem_kind().expect("integer scalar");
        let syn::StmtKind::Compound(items) = &b.kind else {
            self.error(
                Diagnostic::error(b.span, "the body of `switch` must be a block `{ ... }`")
                    .note("write `switch (x) { case 1: ... break; default: ... }`"),
            );
            return None;
        };
        if let Some(cx) = self.cur.as_mut() {
            cx.breakables += 1;
        }
        self.push_scope();
        let mut st = SwitchState {
            ok: true,
            ..SwitchState::default()
        };
        self.switch_items(items, ck, &mut st);
        let SwitchState {
            cases, ok, hoisted, ..
        } = st;
        self.pop_scope();
        if let Some(cx) = self.cur.as_mut() {
            cx.breakables -= 1;
        }
        if cases.is_empty() {
            self.warn(Diagnostic::warning(span, "`switch` has no case labels"));
        }
        if !ok {
            return None;
        }
        if hoisted.is_empty() {
            return Some(StmtKind::Switch { cond, cases });
        }
        let mut stmts = hoisted;
        stmts.push(Stmt::new(StmtKind::Switch { cond, cases }, span));
        Some(StmtKind::Block(Block { stmts, span }))
    }

    /// The items of a switch body (or of a block directly inside it), appended to `st`.
    fn switch_items(&mut self, items: &[syn::BlockItem], ck: ScalarKind, st: &mut SwitchState) {
        for it in items {
            // A block directly in the switch body whose own items carry labels
            // (`switch (x) { { case 1: ...; case 2: ... } }`): its labels belong to this switch.
            if let syn::BlockItem::Stmt(syn::Stmt {
                kind: syn::StmtKind::Compound(inner),
                ..
            }) = it
            {
                if inner.iter().any(is_labelled) {
                    self.push_scope();
                    self.switch_items(inner, ck, st);
                    self.pop_scope();
                    continue;
                }
            }
            // peel labels off the item: case 1: case 2: default: stmt
            let mut labels: Vec<(Option<u64>, Span)> = Vec::new();
            let mut rest_stmt: Option<&syn::Stmt> = None;
            if let syn::BlockItem::Stmt(s) = it {
                let mut s = s;
                loop {
                    match &s.kind {
                        syn::StmtKind::Case(e, inner) => {
                            match self.const_int(e, "case label") {
                                Some(v) => {
                                    let v = ck.truncate(v);
                                    if let Some((_, prev)) = st.seen.iter().find(|(x, _)| *x == v) {
                                        let p = *prev;
                                        self.error(
                                            Diagnostic::error(
                                                e.span,
                                                format!("duplicate case value {}", ck.as_i64(v)),
                                            )
                                            .label(p, "first used here"),
                                        );
                                        st.ok = false;
                                    }
                                    st.seen.push((v, e.span));
                                    labels.push((Some(v), s.span));
                                }
                                None => st.ok = false,
                            }
                            s = inner;
                        }
                        syn::StmtKind::Default(inner) => {
                            if let Some(p) = st.default_span {
                                self.error(
                                    Diagnostic::error(
                                        s.span,
                                        "multiple `default` labels in one switch",
                                    )
                                    .label(p, "first default here"),
                                );
                                st.ok = false;
                            }
                            st.default_span = Some(s.span);
                            labels.push((None, s.span));
                            s = inner;
                        }
                        _ => break,
                    }
                }
                if !labels.is_empty() {
                    rest_stmt = Some(s);
                }
            }
            if !labels.is_empty() {
                let case_span = labels[0].1;
                let mut values = Vec::new();
                let mut is_default = false;
                for (v, _) in labels {
                    match v {
                        Some(v) => values.push(v),
                        None => is_default = true,
                    }
                }
                st.cases.push(SwitchCase {
                    values,
                    is_default,
                    body: Vec::new(),
                    span: case_span,
                });
            }
            let mut out = Vec::new();
            match rest_stmt {
                // the statement after the labels (the grammar makes it a statement, never a
                // declaration or pragma)
                Some(s) => {
                    if let Some(st) = self.stmt(s) {
                        out.push(st);
                    }
                }
                None => self.block_item(it, &mut out),
            }
            match st.cases.last_mut() {
                Some(c) => c.body.extend(out),
                None => {
                    // Never executed, but its variables are in scope for the cases below:
                    // keep their declarations (without initialiser) before the switch.
                    if let Some(first) = out
                        .iter()
                        .find(|s| !matches!(s.kind, StmtKind::Decl { init: None, .. }))
                    {
                        self.warn(
                            Diagnostic::warning(
                                first.span,
                                "statement before the first `case` label is never executed",
                            )
                            .note("move it before the `switch` or after a case label"),
                        );
                    }
                    for s in out {
                        if let StmtKind::Decl { var, .. } = s.kind {
                            st.hoisted
                                .push(Stmt::new(StmtKind::Decl { var, init: None }, s.span));
                        }
                    }
                }
            }
        }
    }
}

/// The cases of a switch being checked.
#[derive(Default)]
struct SwitchState {
    cases: Vec<SwitchCase>,
    seen: Vec<(u64, Span)>,
    default_span: Option<Span>,
    /// Declarations before the first label, emitted before the switch.
    hoisted: Vec<Stmt>,
    /// No label failed to check.
    ok: bool,
}

fn is_labelled(it: &syn::BlockItem) -> bool {
    matches!(
        it,
        syn::BlockItem::Stmt(syn::Stmt {
            kind: syn::StmtKind::Case(..) | syn::StmtKind::Default(_),
            ..
        })
    )
}

/// Whether every path through the statements ends in `return` (conservative).
pub(crate) fn always_returns_block(stmts: &[Stmt]) -> bool {
    stmts.iter().any(always_returns)
}

fn always_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(b) => always_returns_block(&b.stmts),
        StmtKind::If {
            then, els: Some(e), ..
        } => always_returns(then) && always_returns(e),
        StmtKind::Switch { cases, .. } => {
            cases.iter().any(|c| c.is_default)
                && cases.last().is_some_and(|c| always_returns_block(&c.body))
                && cases.iter().all(|c| !contains_break(&c.body))
        }
        StmtKind::While { cond, body } => {
            is_true(cond) && !contains_break(std::slice::from_ref(body))
        }
        StmtKind::For {
            cond: None, body, ..
        } => !contains_break(std::slice::from_ref(body)),
        StmtKind::DoWhile { body, .. } => always_returns(body),
        _ => false,
    }
}

fn is_true(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit(v) => *v != 0,
        ExprKind::Cast { expr, .. } => is_true(expr),
        _ => false,
    }
}

/// Whether a `break` leaves these statements (not counting breaks of nested loops/switches).
fn contains_break(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => contains_break(&b.stmts),
        StmtKind::If { then, els, .. } => {
            contains_break(std::slice::from_ref(then))
                || els
                    .as_ref()
                    .is_some_and(|e| contains_break(std::slice::from_ref(e)))
        }
        _ => false,
    })
}
