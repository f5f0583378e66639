//! Unary operators: `&`, `*`, `+`, `-`, `~`, `!`, `++` and `--`.

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

impl Checker<'_> {
    pub(super) fn unary(
        &mut self,
        op: syn::UnaryOp,
        inner: &syn::Expr,
        span: Span,
    ) -> Option<Expr> {
        use syn::UnaryOp as U;
        match op {
            U::AddrOf => self.addr_of(inner, span),
            U::Deref => self.deref(inner, span),
            U::Plus | U::Neg => {
                let x = self.rvalue(inner)?;
                if !x.ty.is_arithmetic() {
                    let t = self.type_name(&x.ty);
                    self.err(
                        span,
                        format!(
                            "unary `{}` needs a number, not `{}`",
                            if op == U::Neg { "-" } else { "+" },
                            t
                        ),
                    );
                    return None;
                }
                let x = self.promote(x);
                let ty = x.ty.clone();
                if op == U::Neg {
                    // fold negative literals so that `-3` is one constant
                    match x.kind {
                        ExprKind::FloatLit(f) => {
                            return Some(self.mk(ExprKind::FloatLit(-f), ty, span));
                        }
                        ExprKind::IntLit(v) => {
                            let k = ty.elem_kind().expect("scalar literal");
                            return Some(self.mk(
                                ExprKind::IntLit(k.truncate(v.wrapping_neg())),
                                ty,
                                span,
                            ));
                        }
                        _ => {}
                    }
                }
                let uop = if op == U::Neg { UnOp::Neg } else { UnOp::Plus };
                Some(self.mk(
                    ExprKind::Unary {
                        op: uop,
                        expr: Box::new(x),
                    },
                    ty,
                    span,
                ))
            }
            U::BitNot => {
                let x = self.rvalue(inner)?;
                if !x.ty.is_integer() {
                    let t = self.type_name(&x.ty);
                    self.err(span, format!("`~` needs an integer, not `{}`", t));
                    return None;
                }
                let x = self.promote(x);
                let ty = x.ty.clone();
                Some(self.mk(
                    ExprKind::Unary {
                        op: UnOp::BitNot,
                        expr: Box::new(x),
                    },
                    ty,
                    span,
                ))
            }
            U::Not => {
                let x = self.rvalue(inner)?;
                if let Type::Vector(k, n) = x.ty {
                    let ty = Type::Vector(k.to_signed_int(), n);
                    return Some(self.mk(
                        ExprKind::Unary {
                            op: UnOp::Not,
                            expr: Box::new(x),
                        },
                        ty,
                        span,
                    ));
                }
                let x = self.as_condition(x, "the operand of `!`")?;
                Some(self.mk(
                    ExprKind::Unary {
                        op: UnOp::Not,
                        expr: Box::new(x),
                    },
                    Type::INT,
                    span,
                ))
            }
            U::PreInc | U::PreDec | U::PostInc | U::PostDec => self.inc_dec(op, inner, span),
        }
    }

    /// `&x`: the address of an lvalue (not of a vector component).
    fn addr_of(&mut self, inner: &syn::Expr, span: Span) -> Option<Expr> {
        let x = self.expr(inner)?;
        if !x.lvalue {
            self.error(
                Diagnostic::error(
                    span,
                    "cannot take the address of a value that is not an lvalue",
                )
                .note("`&` needs a variable, array element, field or `*p`"),
            );
            return None;
        }
        if matches!(x.kind, ExprKind::Swizzle { .. }) {
            self.err(span, "cannot take the address of a vector component");
            return None;
        }
        let ty = Type::Pointer {
            pointee: Box::new(x.ty.clone()),
            space: self.object_space(&x),
            is_const: self.object_const(&x),
            is_volatile: false,
            is_restrict: false,
        };
        Some(self.mk(ExprKind::AddrOf(Box::new(x)), ty, span))
    }

    /// `*p`: the object a (non-void) pointer points to.
    fn deref(&mut self, inner: &syn::Expr, span: Span) -> Option<Expr> {
        let x = self.rvalue(inner)?;
        let Type::Pointer { pointee, .. } = &x.ty else {
            let t = self.type_name(&x.ty);
            self.err(span, format!("cannot dereference a value of type `{}`", t));
            return None;
        };
        let pt = (**pointee).clone();
        if pt.is_void() {
            self.error(
                Diagnostic::error(span, "cannot dereference a `void` pointer")
                    .note("cast it to a pointer to a concrete type first"),
            );
            return None;
        }
        self.check_loadable(&pt, span)?;
        Some(Expr {
            kind: ExprKind::Deref(Box::new(x)),
            ty: pt,
            span,
            lvalue: true,
        })
    }

    /// `++`/`--`, prefix or postfix, on a modifiable number or pointer.
    fn inc_dec(&mut self, op: syn::UnaryOp, inner: &syn::Expr, span: Span) -> Option<Expr> {
        use syn::UnaryOp as U;
        let x = self.expr(inner)?;
        let sym = if matches!(op, U::PreInc | U::PostInc) {
            "++"
        } else {
            "--"
        };
        self.check_modifiable(&x, &format!("`{}`", sym))?;
        if !(x.ty.is_arithmetic() || x.ty.is_pointer()) {
            let t = self.type_name(&x.ty);
            self.err(
                span,
                format!("`{}` needs a number or pointer, not `{}`", sym, t),
            );
            return None;
        }
        let ty = x.ty.clone();
        Some(self.mk(
            ExprKind::IncDec {
                inc: matches!(op, U::PreInc | U::PostInc),
                prefix: matches!(op, U::PreInc | U::PreDec),
                expr: Box::new(x),
            },
            ty,
            span,
        ))
    }
}
