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
//!   `if (C >= 0)`);
//! - any of the `while`/`for` forms whose body only counts the retries in private variables
//!   nothing else in the function reads (`while (read_pipe(p, &v) != 0) tries++;`): the
//!   counts are dropped with the loop.
//!
//! Anything else (a loop that also does other work, a status used in other ways) stays an
//! ordinary loop around the non-blocking operation, which is correct but slower: each retry
//! is an iteration of a nested loop.

use super::{scalar_ty, Lower, Val};
use frontend::ast::{
    AddrSpace, BinOp, Builtin, Expr, ExprKind, Program, Stmt, StmtKind, Type, UnOp, VarId,
};
use frontend::visit::walk_block;

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

/// The private scalar variable `e` increments or decrements by a constant (`c++`, `--c`,
/// `c += 2`), if it is such a statement's expression.
fn counted(p: &Program, e: &Expr) -> Option<VarId> {
    let target = match &bare(e).kind {
        ExprKind::IncDec { expr, .. } => expr,
        ExprKind::Assign {
            op: Some(BinOp::Add | BinOp::Sub),
            lhs,
            rhs,
            ..
        } if literal(rhs).is_some() => lhs,
        _ => return None,
    };
    match &target.kind {
        ExprKind::Var(v)
            if p.var(*v).space == AddrSpace::Private && matches!(p.var(*v).ty, Type::Scalar(_)) =>
        {
            Some(*v)
        }
        _ => None,
    }
}

/// Whether `body` only counts (each statement increments a private scalar by a constant) in
/// variables that nothing else in `func` (the function's statements) reads or writes: then the
/// counts are unobservable.
fn only_dead_counts(p: &Program, func: &[Stmt], body: &Stmt) -> bool {
    let stmts: Vec<&Stmt> = match &body.kind {
        StmtKind::Block(b) => b.stmts.iter().filter(|s| !is_empty(s)).collect(),
        _ => vec![body],
    };
    let mut counters = Vec::new();
    for s in &stmts {
        let StmtKind::Expr(e) = &s.kind else {
            return false;
        };
        match counted(p, e) {
            Some(v) => counters.push(v),
            None => return false,
        }
    }
    // Every mention of a counter in the function is one of its counting statements (each
    // mentions it once), wherever they are.
    counters.iter().all(|&c| {
        let (mut mentions, mut counts) = (0, 0);
        walk_block(func, &mut |e, _| {
            if matches!(e.kind, ExprKind::Var(v) if v == c) {
                mentions += 1;
            }
            if counted(p, e) == Some(c) {
                counts += 1;
            }
        });
        mentions == counts
    })
}

/// The retry loop `s` (a statement of `func`, the statements of the function being lowered)
/// is, if it is one.
pub(super) fn recognise<'s>(p: &Program, func: &[Stmt], s: &'s Stmt) -> Option<Retry<'s>> {
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
        StmtKind::While { cond, body }
        | StmtKind::For {
            init: None,
            cond: Some(cond),
            step: None,
            body,
        } if only_dead_counts(p, func, body) => retry(pipe_call(failed(cond))?, None),
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
