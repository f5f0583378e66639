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
use crate::visit::walk_stmt;
use std::collections::{HashMap, HashSet};

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
