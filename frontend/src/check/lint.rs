//! Warnings about valid but suspicious uses of pipes and asynchronous copies, computed on a
//! checked function body:
//! - an asynchronous copy whose event is never waited on (its variable is never read, or the
//!   event of a copy that starts a new event is discarded);
//! - a pipe reservation that is never committed (its variable never reaches a `commit_*`
//!   built-in or a user function).
//!
//! "Never read" is syntactic: any later use of the variable counts (passing `&e` to
//! `wait_group_events`, joining it into another copy, passing it to a helper), so the warnings
//! have no false positives on code that waits or commits through another path.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::span::Span;
use std::collections::{HashMap, HashSet};

/// Calls `f` on every expression of a statement (pre-order), with whether the expression is
/// the direct target of a plain assignment.
fn walk_stmt(s: &Stmt, f: &mut impl FnMut(&Expr, bool)) {
    match &s.kind {
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| walk_stmt(s, f)),
        StmtKind::Decl { init, .. } => {
            if let Some(i) = init {
                walk_init(i, f);
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => walk_expr(e, false, f),
        StmtKind::If { cond, then, els } => {
            walk_expr(cond, false, f);
            walk_stmt(then, f);
            if let Some(e) = els {
                walk_stmt(e, f);
            }
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                walk_stmt(i, f);
            }
            for e in cond.iter().chain(step.iter()) {
                walk_expr(e, false, f);
            }
            walk_stmt(body, f);
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            walk_expr(cond, false, f);
            walk_stmt(body, f);
        }
        StmtKind::Switch { cond, cases } => {
            walk_expr(cond, false, f);
            for c in cases {
                c.body.iter().for_each(|s| walk_stmt(s, f));
            }
        }
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Empty => {}
    }
}

fn walk_init(i: &Init, f: &mut impl FnMut(&Expr, bool)) {
    match i {
        Init::Expr(e) => walk_expr(e, false, f),
        Init::List(l) => l.iter().for_each(|i| walk_init(i, f)),
    }
}

fn walk_expr(e: &Expr, assigned: bool, f: &mut impl FnMut(&Expr, bool)) {
    f(e, assigned);
    match &e.kind {
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::SizeOf(_) => {}
        ExprKind::Unary { expr, .. }
        | ExprKind::IncDec { expr, .. }
        | ExprKind::Cast { expr, .. }
        | ExprKind::Deref(expr)
        | ExprKind::AddrOf(expr)
        | ExprKind::Member { base: expr, .. }
        | ExprKind::Swizzle { base: expr, .. } => walk_expr(expr, false, f),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Index {
            base: lhs,
            index: rhs,
        }
        | ExprKind::Comma(lhs, rhs) => {
            walk_expr(lhs, false, f);
            walk_expr(rhs, false, f);
        }
        ExprKind::Assign { op, lhs, rhs, .. } => {
            walk_expr(lhs, op.is_none(), f);
            walk_expr(rhs, false, f);
        }
        ExprKind::Cond { cond, then, els } => {
            walk_expr(cond, false, f);
            walk_expr(then, false, f);
            walk_expr(els, false, f);
        }
        ExprKind::VecLit(xs)
        | ExprKind::Call { args: xs, .. }
        | ExprKind::Builtin { args: xs, .. } => xs.iter().for_each(|x| walk_expr(x, false, f)),
    }
}

fn is_async_copy(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Builtin {
            builtin: Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy,
            ..
        }
    )
}

fn is_reservation(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Builtin {
            builtin: Builtin::ReserveReadPipe
                | Builtin::ReserveWritePipe
                | Builtin::WorkGroupReserveReadPipe
                | Builtin::WorkGroupReserveWritePipe
                | Builtin::SubGroupReserveReadPipe
                | Builtin::SubGroupReserveWritePipe,
            ..
        }
    )
}

/// Variables that hold the result of `pred` (declared with it or assigned it), with the span
/// of the first such producer.
fn produced_by(body: &Block, pred: fn(&Expr) -> bool) -> HashMap<VarId, Span> {
    let mut out = HashMap::new();
    for s in &body.stmts {
        collect_decls(s, pred, &mut out);
        walk_stmt(s, &mut |e, _| {
            if let ExprKind::Assign {
                op: None, lhs, rhs, ..
            } = &e.kind
            {
                if let (ExprKind::Var(v), true) = (&lhs.kind, pred(rhs)) {
                    out.entry(*v).or_insert(rhs.span);
                }
            }
        });
    }
    out
}

fn collect_decls(s: &Stmt, pred: fn(&Expr) -> bool, out: &mut HashMap<VarId, Span>) {
    match &s.kind {
        StmtKind::Decl {
            var,
            init: Some(Init::Expr(e)),
        } if pred(e) => {
            out.entry(*var).or_insert(e.span);
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| collect_decls(s, pred, out)),
        StmtKind::If { then, els, .. } => {
            collect_decls(then, pred, out);
            if let Some(e) = els {
                collect_decls(e, pred, out);
            }
        }
        StmtKind::For { init, body, .. } => {
            if let Some(i) = init {
                collect_decls(i, pred, out);
            }
            collect_decls(body, pred, out);
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
            collect_decls(body, pred, out)
        }
        StmtKind::Switch { cases, .. } => cases
            .iter()
            .for_each(|c| c.body.iter().for_each(|s| collect_decls(s, pred, out))),
        _ => {}
    }
}

/// Variables read anywhere in the body (any occurrence that is not the target of `=`).
fn read_vars(body: &Block) -> HashSet<VarId> {
    let mut out = HashSet::new();
    for s in &body.stmts {
        walk_stmt(s, &mut |e, assigned| {
            if let (ExprKind::Var(v), false) = (&e.kind, assigned) {
                out.insert(*v);
            }
        });
    }
    out
}

/// The warnings for one checked function.
pub(crate) fn lint_function(body: &Block, vars: &[VarInfo]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let read = read_vars(body);
    let name = |v: VarId| vars.get(v.0 as usize).map_or("?", |i| i.name.as_str());
    let mut events: Vec<_> = produced_by(body, is_async_copy).into_iter().collect();
    events.sort_by_key(|(_, s)| (s.file, s.start));
    for (v, span) in events {
        if !read.contains(&v) {
            out.push(
                Diagnostic::warning(
                    span,
                    format!(
                        "event `{}` of this asynchronous copy is never waited on",
                        name(v)
                    ),
                )
                .note(format!(
                    "call `wait_group_events(1, &{})` before using the copied data",
                    name(v)
                )),
            );
        }
    }
    let mut reservations: Vec<_> = produced_by(body, is_reservation).into_iter().collect();
    reservations.sort_by_key(|(_, s)| (s.file, s.start));
    let mut committed = HashSet::new();
    for s in &body.stmts {
        walk_stmt(s, &mut |e, _| {
            let args = match &e.kind {
                ExprKind::Builtin {
                    builtin:
                        Builtin::CommitReadPipe
                        | Builtin::CommitWritePipe
                        | Builtin::WorkGroupCommitReadPipe
                        | Builtin::WorkGroupCommitWritePipe
                        | Builtin::SubGroupCommitReadPipe
                        | Builtin::SubGroupCommitWritePipe,
                    args,
                } => args,
                ExprKind::Call { args, .. } => args,
                _ => return,
            };
            for a in args {
                if let ExprKind::Var(v) = a.kind {
                    committed.insert(v);
                }
            }
        });
    }
    for (v, span) in reservations {
        if !committed.contains(&v) {
            out.push(
                Diagnostic::warning(
                    span,
                    format!("reservation `{}` is never committed", name(v)),
                )
                .note(format!(
                    "call the matching `commit_*_pipe(pipe, {})` after the reads or writes",
                    name(v)
                )),
            );
        }
    }
    // an asynchronous copy used as a statement that starts a new event (event argument 0)
    for s in &body.stmts {
        collect_discarded(s, &mut out);
    }
    out
}

fn collect_discarded(s: &Stmt, out: &mut Vec<Diagnostic>) {
    match &s.kind {
        StmtKind::Expr(e) if is_async_copy(e) => {
            if let ExprKind::Builtin { args, .. } = &e.kind {
                let new_event = args.last().is_some_and(|ev| {
                    matches!(&ev.kind, ExprKind::Cast { expr, .. } if matches!(expr.kind, ExprKind::IntLit(0)))
                });
                if new_event {
                    out.push(
                        Diagnostic::warning(
                            e.span,
                            "the event of this asynchronous copy is discarded, so the copy is never waited on",
                        )
                        .note("keep the event (`event_t e = async_work_group_copy(...)`) and call `wait_group_events(1, &e)`"),
                    );
                }
            }
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| collect_discarded(s, out)),
        StmtKind::If { then, els, .. } => {
            collect_discarded(then, out);
            if let Some(e) = els {
                collect_discarded(e, out);
            }
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => collect_discarded(body, out),
        StmtKind::Switch { cases, .. } => cases
            .iter()
            .for_each(|c| c.body.iter().for_each(|s| collect_discarded(s, out))),
        _ => {}
    }
}
