//! Assignments: to variables (renamed into SSA values, masked after `break`/`continue`), to
//! elements in memory (stores, with read-modify-write for `+=` and `++`) and to parts of
//! aggregates; and the names the values of variables get in the IR.

use super::aggregate::is_agg_array;
use super::{Lower, Val};
use crate::ops::OpKind;
use frontend::ast::{self, Expr, ExprKind, Type, VarId};
use frontend::span::Span;

impl Lower<'_> {
    /// `lhs = rhs` or `lhs op= rhs`: the value is the new value of `lhs`.
    pub(super) fn assign_expr(
        &mut self,
        op: Option<ast::BinOp>,
        lhs: &Expr,
        rhs: &Expr,
        op_ty: &Type,
        span: Span,
    ) -> Val {
        let new = match op {
            None => self.rvalue(rhs),
            Some(b) => {
                if let Some((_, new)) = self.update_memory(lhs, span, |l, cur| {
                    l.compound(b, cur, lhs, rhs, op_ty, span)
                }) {
                    return new;
                }
                let cur = self.rvalue(lhs);
                self.compound(b, cur, lhs, rhs, op_ty, span)
            }
        };
        self.assign(lhs, new, span);
        new
    }

    /// `++`/`--`, prefix (the value is the new value) or postfix (the old one).
    pub(super) fn inc_dec(&mut self, inc: bool, prefix: bool, expr: &Expr, span: Span) -> Val {
        let one_ty = match &expr.ty {
            Type::Pointer { .. } => Type::INT,
            t => t.clone(),
        };
        let one = Expr::new(ExprKind::IntLit(1), one_ty.clone(), span);
        let b = if inc {
            ast::BinOp::Add
        } else {
            ast::BinOp::Sub
        };
        let ty = expr.ty.clone();
        let (cur, new) = match self.update_memory(expr, span, |l, cur| {
            l.compound(b, cur, expr, &one, &ty, span)
        }) {
            Some(pair) => pair,
            None => {
                let cur = self.rvalue(expr);
                let new = self.compound(b, cur, expr, &one, &ty, span);
                self.assign(expr, new, span);
                (cur, new)
            }
        };
        if prefix {
            new
        } else {
            cur
        }
    }

    pub(super) fn assign(&mut self, lhs: &Expr, v: Val, span: Span) {
        match &lhs.kind {
            ExprKind::Var(var) if self.local_scalars.contains_key(var) => {
                self.local_scalar_store(*var, v, span)
            }
            ExprKind::Var(var) => self.assign_var(*var, v, span),
            ExprKind::Index { base, .. } if is_agg_array(base) => self.assign_part(lhs, v, span),
            ExprKind::Index { .. } | ExprKind::Deref(_) | ExprKind::Global(_) => {
                if let Some(p) = self.place(lhs) {
                    self.write_place(p, v, &lhs.ty, span);
                }
            }
            ExprKind::Member { .. } | ExprKind::Swizzle { .. } => self.assign_part(lhs, v, span),
            _ => self.unsupported(span, "this kind of assignment"),
        }
    }

    pub(super) fn assign_var(&mut self, var: VarId, v: Val, span: Span) {
        let info = self.p.var(var);
        let (name, ty) = (info.name.clone(), info.ty.clone());
        // After `break`/`continue` the rest of the iteration must not change variables
        // (their values leave the iteration through the loop-carried registers).
        let skip = self.or1(self.env.brk, self.env.cont, span);
        let v = if self.const_val(skip) == Some(0) {
            v
        } else {
            let old = self.env.vars.get(&var).copied().unwrap_or(Val::Undef);
            self.merge_val(skip, old, v, span)
        };
        self.name_value(v, &ty, &name);
        self.env.vars.insert(var, v);
    }

    /// A compound assignment or increment of an element in memory (`p[i] += x`, `(*p)++`): the
    /// address is computed once, the element loaded, `f` applied, the result stored. Returns
    /// the old and new values, or `None` when `lhs` is not an element in memory (a variable, a
    /// field or lanes: their targets have no side effects to repeat).
    pub(super) fn update_memory(
        &mut self,
        lhs: &Expr,
        span: Span,
        f: impl FnOnce(&mut Self, Val) -> Val,
    ) -> Option<(Val, Val)> {
        let in_memory = match &lhs.kind {
            ExprKind::Index { base, .. } => !is_agg_array(base),
            ExprKind::Deref(_) => true,
            _ => false,
        };
        if !in_memory {
            return None;
        }
        let Some(p) = self.place(lhs) else {
            return Some((Val::Undef, Val::Undef));
        };
        let cur = self.read_place(p.clone(), &lhs.ty, span);
        let new = f(self, cur);
        self.write_place(p, new, &lhs.ty, span);
        Some((cur, new))
    }

    /// Names the ops of a variable's value after it (lanes and fields as `v_x`, `s_count`),
    /// for readable RTL.
    pub(super) fn name_value(&mut self, v: Val, ty: &Type, name: &str) {
        match v {
            Val::Scalar(id) => {
                let op = self.k.op_mut(id);
                if op.name.is_none() && !matches!(op.kind, OpKind::Const(_)) {
                    op.name = Some(name.to_string());
                }
            }
            Val::Agg(_) => {
                let Some(types) = self.parts_of_type(ty) else {
                    return;
                };
                let parts = self.parts_vals(v, ty);
                for (i, ((t, _), p)) in types.iter().zip(parts).enumerate() {
                    let suffix = match ty {
                        Type::Vector(_, n) if *n <= 4 => ["x", "y", "z", "w"][i].to_string(),
                        Type::Vector(..) => format!("s{i:x}"),
                        Type::Struct(id) => self.p.structs.get(*id).fields[i].name.clone(),
                        _ => i.to_string(),
                    };
                    self.name_value(p, t, &format!("{name}_{suffix}"));
                }
            }
            _ => {}
        }
    }
}
