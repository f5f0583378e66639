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
//! And for `R` a `reserve_read_pipe(p, n)` or `reserve_write_pipe(p, n)`, whose reservation id
//! is valid on success, the blocking reservation (the work-item waits until `n` packets can
//! be reserved), its id assigned as the loop would leave it:
//!
//! - `do { rid = R; } while (!is_valid_reserve_id(rid));`;
//! - `while (!is_valid_reserve_id(rid = R));` (also `for (;;) ...`);
//! - `while (1) { rid = R; if (is_valid_reserve_id(rid)) break; }` (also `for (;;)`).
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
/// blocking built-in it becomes, and the status variable it assigns (an lvalue), if any; or
/// a reservation (`reserve_*_pipe` expression) and the reservation id variable it assigns.
pub(super) enum Retry<'s> {
    Packet {
        call: &'s Expr,
        args: &'s [Expr],
        blocking: Builtin,
        status: Option<&'s Expr>,
    },
    Reserve {
        call: &'s Expr,
        rid: &'s Expr,
    },
}

/// `e` without the casts around it (to `bool` for a condition, to `void` for a statement).
pub(super) fn bare(e: &Expr) -> &Expr {
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
    Some(Retry::Packet {
        call,
        args,
        blocking,
        status,
    })
}

/// `rid = reserve_*_pipe(p, n)` (a work-item reservation): the assignment's target and call.
fn reserve_assign(e: &Expr) -> Option<(&Expr, &Expr)> {
    let ExprKind::Assign {
        op: None, lhs, rhs, ..
    } = &bare(e).kind
    else {
        return None;
    };
    let call = bare(rhs);
    let is_reserve = matches!(
        &call.kind,
        ExprKind::Builtin { builtin: Builtin::ReserveReadPipe | Builtin::ReserveWritePipe, args }
            if args.len() == 2
    );
    (is_reserve && matches!(lhs.kind, ExprKind::Var(_))).then_some((&**lhs, call))
}

/// `is_valid_reserve_id(x)`: `x`.
fn valid_id(e: &Expr) -> Option<&Expr> {
    match &bare(e).kind {
        ExprKind::Builtin {
            builtin: Builtin::IsValidReserveId,
            args,
        } if args.len() == 1 => Some(bare(&args[0])),
        _ => None,
    }
}

/// `!is_valid_reserve_id(x)` (also `is_valid_reserve_id(x) == 0`): `x`.
fn invalid_id(e: &Expr) -> Option<&Expr> {
    valid_id(succeeded(e)?)
}

/// A loop condition that is always true (none, or a nonzero literal).
fn always(c: Option<&Expr>) -> bool {
    c.is_none_or(|c| literal(c).is_some_and(|v| v != 0))
}

/// `a` and `b` are the same variable.
fn same_var(a: &Expr, b: &Expr) -> bool {
    matches!((&a.kind, &b.kind), (ExprKind::Var(x), ExprKind::Var(y)) if x == y)
}

/// `if (cond) break;` with nothing else: the condition.
fn break_if(s: &Stmt) -> Option<&Expr> {
    let StmtKind::If { cond, then, els } = &s.kind else {
        return None;
    };
    let brk = only(then).is_some_and(|t| matches!(t.kind, StmtKind::Break));
    (brk && els.is_none()).then_some(cond)
}

/// A retry loop around a reservation (see the module documentation).
fn reserve_retry(s: &Stmt) -> Option<Retry<'_>> {
    let (rid, call) = match &s.kind {
        StmtKind::DoWhile { body, cond } => {
            let StmtKind::Expr(e) = &only(body)?.kind else {
                return None;
            };
            let (rid, call) = reserve_assign(e)?;
            same_var(rid, invalid_id(cond)?).then_some((rid, call))?
        }
        StmtKind::While { cond, body }
        | StmtKind::For {
            init: None,
            cond: Some(cond),
            step: None,
            body,
        } if is_empty(body) && invalid_id(cond).is_some() => reserve_assign(invalid_id(cond)?)?,
        StmtKind::While { cond, body } if always(Some(cond)) => loop_until_valid(body)?,
        StmtKind::For {
            init: None,
            cond,
            step: None,
            body,
        } if always(cond.as_ref()) => loop_until_valid(body)?,
        _ => return None,
    };
    Some(Retry::Reserve { call, rid })
}

/// Whether `func` has a two-argument `read_pipe`/`write_pipe` on the pipe reservation `call`
/// reserves on.
fn plain_use_of_pipe(func: &[Stmt], call: &Expr) -> bool {
    let ExprKind::Builtin { args, .. } = &call.kind else {
        return false;
    };
    let pipe = bare(&args[0]);
    let mut found = false;
    walk_block(func, &mut |e, _| {
        if let Some(c) = pipe_call(e) {
            if let ExprKind::Builtin { args: a, .. } = &c.kind {
                found |= same_var(bare(&a[0]), pipe);
            }
        }
    });
    found
}

/// `{ rid = R; if (is_valid_reserve_id(rid)) break; }`: the id and the call.
fn loop_until_valid(body: &Stmt) -> Option<(&Expr, &Expr)> {
    let StmtKind::Block(b) = &body.kind else {
        return None;
    };
    let stmts: Vec<&Stmt> = b.stmts.iter().filter(|x| !is_empty(x)).collect();
    let [first, second] = stmts[..] else {
        return None;
    };
    let StmtKind::Expr(e) = &first.kind else {
        return None;
    };
    let (rid, call) = reserve_assign(e)?;
    same_var(rid, valid_id(break_if(second)?)?).then_some((rid, call))
}

/// `while (1) { if (C == 0) break; }`: the call.
fn break_on_success(body: &Stmt) -> Option<&Expr> {
    pipe_call(succeeded(break_if(only(body)?)?)?)
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
    if let Some(r @ Retry::Reserve { call, .. }) = reserve_retry(s) {
        // The pipe's FIFO side has blocking reservations or plain reads/writes, not both
        // (`pipes`): with a plain one on this pipe, the loop stays.
        return (!plain_use_of_pipe(func, call)).then_some(r);
    }
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
        match r {
            Retry::Packet {
                call,
                args,
                blocking,
                status,
            } => {
                let span = call.span;
                self.builtin(blocking, args, &Type::Void, span);
                if let Some(
                    st @ Expr {
                        ty: Type::Scalar(k),
                        ..
                    },
                ) = status
                {
                    let zero = self.konst(0, scalar_ty(*k), span);
                    self.assign(st, Val::Scalar(zero), span);
                }
            }
            Retry::Reserve { call, rid } => {
                self.pipes.block_reserve = true;
                let id = self.rvalue(call);
                self.pipes.block_reserve = false;
                self.assign(rid, id, call.span);
            }
        }
    }
}
