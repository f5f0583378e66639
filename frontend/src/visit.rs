//! A pre-order walk over every expression of the checked AST, for analyses that look at
//! syntax (lints, "does this function contain a barrier", what a kernel uses).

use crate::ast::*;

/// Calls `f` on every expression of the statements, in order.
pub fn walk_block(stmts: &[Stmt], f: &mut dyn FnMut(&Expr, bool)) {
    for s in stmts {
        walk_stmt(s, f);
    }
}

/// Calls `f` on every expression of a statement (pre-order), with whether the expression is
/// the direct target of a plain assignment.
pub fn walk_stmt(s: &Stmt, f: &mut dyn FnMut(&Expr, bool)) {
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

pub fn walk_init(i: &Init, f: &mut dyn FnMut(&Expr, bool)) {
    match i {
        Init::Expr(e) => walk_expr(e, false, f),
        Init::List(l) => l.iter().for_each(|i| walk_init(i, f)),
    }
}

pub fn walk_expr(e: &Expr, assigned: bool, f: &mut dyn FnMut(&Expr, bool)) {
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
        ExprKind::CompoundLit(init) => walk_init(init, f),
        ExprKind::VecLit(xs)
        | ExprKind::Call { args: xs, .. }
        | ExprKind::Builtin { args: xs, .. } => xs.iter().for_each(|x| walk_expr(x, false, f)),
    }
}
