//! Lvalues: the address space and constness of the object an lvalue designates, what can be
//! loaded and assigned, and assignment (plain and compound).

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

/// The variable at the root of an lvalue path (`a.b[1].c` -> `a`).
pub(super) fn root_var(e: &Expr) -> Option<&ExprKind> {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Global(_) => Some(&e.kind),
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => root_var(base),
        ExprKind::Index { base, .. } if base.ty.is_array() => root_var(base),
        _ => None,
    }
}

/// Whether the path from the root variable goes only through fields/elements (no pointers).
pub(super) fn var_chain_direct(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Global(_) => true,
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => var_chain_direct(base),
        ExprKind::Index { base, .. } => base.ty.is_array() && var_chain_direct(base),
        _ => false,
    }
}

impl Checker<'_> {
    /// The address space of the object an lvalue designates.
    pub(crate) fn object_space(&self, e: &Expr) -> AddrSpace {
        match &e.kind {
            // (`get`: compound assignment types its operation on a stand-in variable)
            ExprKind::Var(v) => self
                .vars
                .get(v.0 as usize)
                .map_or(AddrSpace::Private, |v| v.space),
            ExprKind::Global(g) => self.globals[*g as usize].space,
            ExprKind::Deref(p) => match &p.ty {
                Type::Pointer { space, .. } => *space,
                _ => AddrSpace::Private,
            },
            ExprKind::Index { base, .. } => match &base.ty {
                Type::Pointer { space, .. } => *space,
                _ => self.object_space(base),
            },
            ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => {
                self.object_space(base)
            }
            _ => AddrSpace::Private,
        }
    }

    /// Whether the object an lvalue designates is const (or in the constant space).
    pub(crate) fn object_const(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.vars.get(v.0 as usize).is_some_and(|v| v.is_const),
            ExprKind::Global(g) => {
                let g = &self.globals[*g as usize];
                g.is_const || g.space == AddrSpace::Constant
            }
            ExprKind::Deref(p) => match &p.ty {
                Type::Pointer {
                    is_const, space, ..
                } => *is_const || *space == AddrSpace::Constant,
                _ => false,
            },
            ExprKind::Index { base, .. } => match &base.ty {
                Type::Pointer {
                    is_const, space, ..
                } => *is_const || *space == AddrSpace::Constant,
                _ => self.object_const(base),
            },
            ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => {
                self.object_const(base)
            }
            _ => false,
        }
    }

    /// Values of type `half` cannot be loaded or stored without cl_khr_fp16.
    pub(super) fn check_loadable(&mut self, t: &Type, span: Span) -> Option<()> {
        if matches!(
            t,
            Type::Scalar(ScalarKind::Half) | Type::Vector(ScalarKind::Half, _)
        ) {
            self.error(
                Diagnostic::error(span, "`half` values cannot be loaded or stored directly")
                    .note("use `vload_half(offset, p)` / `vstore_half(value, offset, p)` (cl_khr_fp16 is not available)"),
            );
            return None;
        }
        Some(())
    }

    /// An atomic object read as a value (an operand, an initialiser, an argument).
    pub(crate) fn atomic_as_value(&mut self, a: AtomicKind, span: Span) {
        self.error(
            Diagnostic::error(
                span,
                format!("an atomic object (`{}`) cannot be used as a value", a.name()),
            )
            .note("OpenCL C has no operators on atomic types (6.13.11.8); read it with `atomic_load(&x)`, pass `&x` to the atomic functions"),
        );
    }

    /// Reports why an expression cannot be assigned to.
    pub(crate) fn check_modifiable(&mut self, x: &Expr, what: &str) -> Option<()> {
        if !x.lvalue {
            self.error(
                Diagnostic::error(x.span, format!("the operand of {} is not assignable", what))
                    .note("only variables, array elements, fields, vector components and `*p` can be assigned"),
            );
            return None;
        }
        if x.ty.is_array() {
            self.error(
                Diagnostic::error(x.span, "arrays cannot be assigned")
                    .note("copy the elements in a loop"),
            );
            return None;
        }
        if let Type::Atomic(a) = x.ty {
            self.error(
                Diagnostic::error(
                    x.span,
                    format!("{} cannot be applied to an atomic object (`{}`)", what, a.name()),
                )
                .note("OpenCL C has no operators on atomic types (6.13.11.8); write it with `atomic_store(&x, v)`, `atomic_exchange`, `atomic_fetch_add`, ..."),
            );
            return None;
        }
        if matches!(x.ty, Type::Pipe { .. } | Type::Counter32 | Type::Counter64) {
            let t = self.type_name(&x.ty);
            let note = match x.ty {
                Type::Pipe { .. } => "a pipe is a connection fixed when the kernel is built; use the parameter directly",
                _ => "counters change only through `atomic_inc` and `atomic_dec`",
            };
            self.error(
                Diagnostic::error(x.span, format!("a `{}` cannot be assigned", t)).note(note),
            );
            return None;
        }
        if let ExprKind::Swizzle { lanes, .. } = &x.kind {
            let mut seen = [false; 16];
            for l in lanes {
                if std::mem::replace(&mut seen[*l as usize & 15], true) {
                    self.error(
                        Diagnostic::error(
                            x.span,
                            "cannot assign to a swizzle that repeats a component",
                        )
                        .note("each component may appear only once on the left of `=`"),
                    );
                    return None;
                }
            }
        }
        if self.object_space(x) == AddrSpace::Constant {
            self.error(
                Diagnostic::error(x.span, "cannot write to `constant` memory")
                    .note("`constant` data is read-only; use a `global` pointer for outputs"),
            );
            return None;
        }
        if self.object_const(x) {
            let d = match root_var(x) {
                Some(ExprKind::Var(v)) if self.vars[v.0 as usize].is_const && var_chain_direct(x) => {
                    let vi = &self.vars[v.0 as usize];
                    Diagnostic::error(x.span, format!("cannot assign to `{}` because it is declared `const`", vi.name))
                        .label(vi.span, "declared const here")
                        .note("remove `const` from the declaration or assign to another variable")
                }
                _ => Diagnostic::error(x.span, "cannot assign through a pointer to `const`")
                    .note("the data is declared read-only (`const`); drop the `const` from the pointer if it must be written"),
            };
            self.error(d);
            return None;
        }
        Some(())
    }

    pub(super) fn assign(
        &mut self,
        op: Option<BinOp>,
        a: &syn::Expr,
        b: &syn::Expr,
        span: Span,
    ) -> Option<Expr> {
        let lhs = self.expr(a);
        let rhs = self.rvalue(b);
        let (lhs, rhs) = (lhs?, rhs?);
        let what = match op {
            None => "`=`".to_string(),
            Some(o) => format!("`{}=`", o.symbol()),
        };
        self.check_modifiable(&lhs, &what)?;
        let lt = lhs.ty.clone();
        let Some(bop) = op else {
            let rhs = self.convert(rhs, &lt, "assignment")?;
            return Some(self.mk(
                ExprKind::Assign {
                    op: None,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                    op_ty: lt.clone(),
                },
                lt,
                span,
            ));
        };
        // compound: type the operation `lhs op rhs` on a stand-in for lhs's value
        if lt.is_pointer() {
            if !(matches!(bop, BinOp::Add | BinOp::Sub)
                && rhs.ty.is_scalar()
                && rhs.ty.is_integer())
            {
                let (x, y) = (self.type_name(&lt), self.type_name(&rhs.ty));
                self.err(
                    span,
                    format!("invalid operands to {}: `{}` and `{}`", what, x, y),
                );
                return None;
            }
            let rhs = self.cast(rhs, &Type::INT, CastKind::Implicit);
            return Some(self.mk(
                ExprKind::Assign {
                    op: Some(bop),
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                    op_ty: lt.clone(),
                },
                lt,
                span,
            ));
        }
        let standin = Expr::new(ExprKind::IntLit(0), lt.clone(), lhs.span);
        let standin = Expr {
            kind: ExprKind::Var(VarId(u32::MAX)),
            ..standin
        };
        let op_expr = self.binary(bop, standin, rhs, span)?;
        let ExprKind::Binary { rhs, .. } = op_expr.kind else {
            unreachable!("binary() builds a Binary")
        };
        let op_ty = op_expr.ty.clone();
        // the result converts back to the lhs type
        if op_ty.is_vector() && lt.is_scalar() {
            let (x, y) = (self.type_name(&op_ty), self.type_name(&lt));
            self.err(
                span,
                format!(
                    "cannot assign the `{}` result of {} to the scalar `{}`",
                    x, what, y
                ),
            );
            return None;
        }
        Some(self.mk(
            ExprKind::Assign {
                op: Some(bop),
                lhs: Box::new(lhs),
                rhs,
                op_ty,
            },
            lt,
            span,
        ))
    }
}
