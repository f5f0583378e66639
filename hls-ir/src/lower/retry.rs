//! Retry loops on non-blocking pipe operations, the portable OpenCL 2.0 idiom for a blocking
//! read or write, lowered as the blocking operation: the same effects (the work-item waits
//! until the packet moves, then goes on), without a nested loop, so a kernel written this way
//! streams at one packet per cycle (issue 17). Recognised forms, for `C` a two-argument
//! `read_pipe(p, &v)` or `write_pipe(p, &v)` (status 0 on success, negative otherwise):
//!
//! - `while (C != 0);`, `while (C < 0) {}`, `while (C == -1);`, `while (C);`, and the same as
//!   `for (; C != 0;)` or `do {} while (C != 0);`;
//! - `do { st = C; } while (st != 0);` (also `< 0`, `== -1`): `st` is 0 afterwards;
//! - `while (1) { if (C == 0) break; }` and `for (;;) { ... }` (also `if (!C)`,
//!   `if (C >= 0)`).
//!
//! Anything else (a loop that also does other work, a status used in other ways) stays an
//! ordinary loop around the non-blocking operation, which is correct but slower: each retry
//! is an iteration of a nested loop.

use super::{scalar_ty, Lower, Val};
use frontend::ast::{BinOp, Builtin, Expr, ExprKind, Stmt, StmtKind, Type, UnOp};

/// A recognised retry loop: the pipe call (`read_pipe`/`write_pipe` expression), the
/// blocking built-in it becomes, and the status variable it assigns (an lvalue), if any.
pub(super) struct Retry<'s> {
    call: &'s Expr,
    args: &'s [Expr],
    blocking: Builtin,
    status: Option<&'s Expr>,
}

/// `e` without the casts around it.
fn bare(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast { expr, .. } => bare(expr),
        _ => e,
    }
}

/// The integer value of literal `e` (signed where its type is), if it is one.
fn literal(e: &Expr) -> Option<i64> {
    match (&bare(e).kind, &bare(e).ty) {
        (ExprKind::IntLit(v), Type::Scalar(k)) => Some(k.as_i64(*v)),
        _ => None,
    }
}

/// `e` is a two-argument `read_pipe`/`write_pipe`: the call.
fn pipe_call(e: &Expr) -> Option<&Expr> {
    let e = bare(e);
    match &e.kind {
        ExprKind::Builtin { builtin, args }
            if matches!(builtin, Builtin::ReadPipe | Builtin::WritePipe) && args.len() == 2 =>
        {
            Some(e)
        }
        _ => None,
    }
}

/// The operand `x` of a test that is true exactly when status `x` is a failure: `x != 0`,
/// `0 != x`, `x < 0`, `x == -1`, or `x` itself.
fn failed(e: &Expr) -> &Expr {
    let e = bare(e);
    if let ExprKind::Binary { op, lhs, rhs } = &e.kind {
        match (op, literal(lhs), literal(rhs)) {
            (BinOp::Ne, _, Some(0)) | (BinOp::Lt, _, Some(0)) | (BinOp::Eq, _, Some(-1)) => {
                return bare(lhs)
            }
            (BinOp::Ne, Some(0), _) | (BinOp::Gt, Some(0), _) | (BinOp::Eq, Some(-1), _) => {
                return bare(rhs)
            }
            _ => {}
        }
    }
    e
}

/// The operand `x` of a test that is true exactly when status `x` is a success: `x == 0`,
/// `0 == x`, `x >= 0`, `!x`.
fn succeeded(e: &Expr) -> Option<&Expr> {
    let e = bare(e);
    match &e.kind {
        ExprKind::Binary { op, lhs, rhs } => match (op, literal(lhs), literal(rhs)) {
            (BinOp::Eq, _, Some(0)) | (BinOp::Ge, _, Some(0)) => Some(bare(lhs)),
            (BinOp::Eq, Some(0), _) | (BinOp::Le, Some(0), _) => Some(bare(rhs)),
            _ => None,
        },
        ExprKind::Unary {
            op: UnOp::Not,
            expr,
        } => Some(bare(expr)),
        _ => None,
    }
}

/// A statement that does nothing (`;`, `{}`).
fn is_empty(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Empty => true,
        StmtKind::Block(b) => b.stmts.iter().all(is_empty),
        _ => false,
    }
}

/// The only statement of `s` (through blocks), if it has exactly one.
fn only(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::Block(b) => {
            let mut it = b.stmts.iter().filter(|x| !is_empty(x));
            let first = it.next()?;
            it.next().is_none().then(|| only(first)).flatten()
        }
        _ => Some(s),
    }
}

fn retry<'s>(call: &'s Expr, status: Option<&'s Expr>) -> Option<Retry<'s>> {
    let ExprKind::Builtin { builtin, args } = &call.kind else {
        return None;
    };
    let blocking = match builtin {
        Builtin::ReadPipe => Builtin::ReadPipeBlock,
        _ => Builtin::WritePipeBlock,
    };
    Some(Retry {
        call,
        args,
        blocking,
        status,
    })
}

/// `while (1) { if (C == 0) break; }`: the call.
fn break_on_success(body: &Stmt) -> Option<&Expr> {
    let StmtKind::If { cond, then, els } = &only(body)?.kind else {
        return None;
    };
    let brk = only(then).is_some_and(|t| matches!(t.kind, StmtKind::Break));
    if els.is_some() || !brk {
        return None;
    }
    pipe_call(succeeded(cond)?)
}

/// The retry loop `s` is, if it is one.
pub(super) fn recognise(s: &Stmt) -> Option<Retry<'_>> {
    let always = |c: Option<&Expr>| c.is_none_or(|c| literal(c).is_some_and(|v| v != 0));
    match &s.kind {
        StmtKind::While { cond, body } if always(Some(cond)) => {
            retry(break_on_success(body)?, None)
        }
        StmtKind::For {
            init: None,
            cond,
            step: None,
            body,
        } if always(cond.as_ref()) => retry(break_on_success(body)?, None),
        StmtKind::While { cond, body }
        | StmtKind::For {
            init: None,
            cond: Some(cond),
            step: None,
            body,
        }
        | StmtKind::DoWhile { body, cond }
            if is_empty(body) =>
        {
            retry(pipe_call(failed(cond))?, None)
        }
        StmtKind::DoWhile { body, cond } => {
            // `do { st = C; } while (st != 0);`
            let StmtKind::Expr(e) = &only(body)?.kind else {
                return None;
            };
            let ExprKind::Assign {
                op: None, lhs, rhs, ..
            } = &bare(e).kind
            else {
                return None;
            };
            let (ExprKind::Var(st), ExprKind::Var(tested)) = (&lhs.kind, &failed(cond).kind) else {
                return None;
            };
            (st == tested && matches!(lhs.ty, Type::Scalar(_)))
                .then(|| retry(pipe_call(rhs)?, Some(lhs)))
                .flatten()
        }
        _ => None,
    }
}

impl Lower<'_> {
    /// A recognised retry loop: the blocking operation, then the status variable (if any) is
    /// 0, the status of success.
    pub(super) fn retry_loop(&mut self, r: Retry) {
        let span = r.call.span;
        self.builtin(r.blocking, r.args, &Type::Void, span);
        if let Some(
            st @ Expr {
                ty: Type::Scalar(k),
                ..
            },
        ) = r.status
        {
            let zero = self.konst(0, scalar_ty(*k), span);
            self.assign(st, Val::Scalar(zero), span);
        }
    }
}
