//! Binary and conditional operators: arithmetic, shifts, comparisons and logical operators on
//! scalars and vectors (with their common type), pointer arithmetic and comparisons, and `?:`.

use super::convert::usual_scalar;
use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

impl Checker<'_> {
    /// Binary operators on checked, decayed operands.
    pub(crate) fn binary(&mut self, op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Option<Expr> {
        let (lt, rt) = (lhs.ty.clone(), rhs.ty.clone());
        // pointer arithmetic and comparisons
        if lt.is_pointer() || rt.is_pointer() {
            return self.pointer_binary(op, lhs, rhs, span);
        }
        if [&lt, &rt]
            .iter()
            .any(|t| matches!(t, Type::Counter32 | Type::Counter64))
        {
            self.error(
                Diagnostic::error(
                    span,
                    format!("an atomic counter cannot be an operand of `{}`", op.symbol()),
                )
                .note("counters are only used through `atomic_inc(c)` and `atomic_dec(c)`, which return the old value"),
            );
            return None;
        }
        if op.is_comparison() && (lt == Type::ReserveId || rt == Type::ReserveId) {
            self.error(
                Diagnostic::error(span, "reservation ids cannot be compared")
                    .note("a `reserve_id_t` is opaque; test it with `is_valid_reserve_id(id)`"),
            );
            return None;
        }
        if !lt.is_arithmetic() || !rt.is_arithmetic() {
            let (a, b) = (self.type_name(&lt), self.type_name(&rt));
            self.error(
                Diagnostic::error(
                    span,
                    format!("invalid operands to `{}`: `{}` and `{}`", op.symbol(), a, b),
                )
                .label(lhs.span, format!("`{}`", a))
                .label(rhs.span, format!("`{}`", b)),
            );
            return None;
        }
        match op {
            BinOp::Shl | BinOp::Shr => self.shift(op, lhs, rhs, span),
            BinOp::LogAnd | BinOp::LogOr => {
                if lt.is_vector() || rt.is_vector() {
                    let ct = self.common_type(&lhs, &rhs, op, span)?;
                    let lhs = self.arith_to(lhs, &ct);
                    let rhs = self.arith_to(rhs, &ct);
                    let ty = ct.with_elem(ct.elem_kind().expect("arith").to_signed_int());
                    return Some(self.mk(
                        ExprKind::Binary {
                            op,
                            lhs: Box::new(lhs),
                            rhs: Box::new(rhs),
                        },
                        ty,
                        span,
                    ));
                }
                let lhs = self.as_condition(lhs, "an operand of a logical operator")?;
                let rhs = self.as_condition(rhs, "an operand of a logical operator")?;
                Some(self.mk(
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    Type::INT,
                    span,
                ))
            }
            _ => {
                let ct = self.common_type(&lhs, &rhs, op, span)?;
                if matches!(
                    op,
                    BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
                ) && !ct.is_integer()
                {
                    let t = self.type_name(&ct);
                    let mut d = Diagnostic::error(
                        span,
                        format!("`{}` needs integer operands, found `{}`", op.symbol(), t),
                    );
                    if op == BinOp::Rem {
                        d = d.note("use `fmod(x, y)` for floating-point remainders");
                    }
                    self.error(d);
                    return None;
                }
                let lhs = self.arith_to(lhs, &ct);
                let rhs = self.arith_to(rhs, &ct);
                let ty = if op.is_comparison() {
                    match &ct {
                        Type::Vector(k, n) => Type::Vector(k.to_signed_int(), *n),
                        _ => Type::INT,
                    }
                } else {
                    ct
                };
                Some(self.mk(
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    ty,
                    span,
                ))
            }
        }
    }

    /// `<<` and `>>`: integer operands; the amount converts to the promoted left operand's type
    /// (a vector amount must already have it).
    fn shift(&mut self, op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Option<Expr> {
        let (lt, rt) = (lhs.ty.clone(), rhs.ty.clone());
        if !lt.is_integer() || !rt.is_integer() {
            let (a, b) = (self.type_name(&lt), self.type_name(&rt));
            self.err(
                span,
                format!("shift operands must be integers, found `{}` and `{}`", a, b),
            );
            return None;
        }
        let lhs = self.promote(lhs);
        let ty = lhs.ty.clone();
        let rhs = match (&ty, &rhs.ty) {
            (Type::Scalar(_), Type::Vector(..)) => {
                self.error(
                    Diagnostic::error(rhs.span, "a scalar cannot be shifted by a vector")
                        .note("convert the left operand to a vector first"),
                );
                return None;
            }
            (Type::Vector(_, n), Type::Vector(_, m)) if n != m => {
                self.err(
                    span,
                    "vector shift operands must have the same number of components",
                );
                return None;
            }
            (Type::Vector(..), Type::Vector(..)) => {
                if rhs.ty != ty {
                    let (a, b) = (self.type_name(&ty), self.type_name(&rhs.ty));
                    self.error(
                        Diagnostic::error(rhs.span, format!("vector shift amount `{}` must have the type of the shifted value `{}`", b, a))
                            .note(format!("use `convert_{}()`", a)),
                    );
                    return None;
                }
                rhs
            }
            _ => {
                let r = self.promote(rhs);
                self.arith_to(r, &ty)
            }
        };
        Some(self.mk(
            ExprKind::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            ty,
            span,
        ))
    }

    /// The common type of two arithmetic operands (usual arithmetic conversions and
    /// vector/scalar widening).
    pub(crate) fn common_type(
        &mut self,
        a: &Expr,
        b: &Expr,
        op: BinOp,
        span: Span,
    ) -> Option<Type> {
        match (&a.ty, &b.ty) {
            (Type::Scalar(x), Type::Scalar(y)) => Some(Type::Scalar(usual_scalar(*x, *y))),
            (Type::Vector(..), Type::Vector(..)) => {
                if a.ty == b.ty {
                    Some(a.ty.clone())
                } else {
                    let (x, y) = (self.type_name(&a.ty), self.type_name(&b.ty));
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "operands of `{}` have different vector types `{}` and `{}`",
                                op.symbol(),
                                x,
                                y
                            ),
                        )
                        .label(a.span, format!("`{}`", x))
                        .label(b.span, format!("`{}`", y))
                        .note(format!("convert one explicitly, e.g. `convert_{}(...)`", x)),
                    );
                    None
                }
            }
            (Type::Vector(vk, _), Type::Scalar(sk)) | (Type::Scalar(sk), Type::Vector(vk, _)) => {
                let (v, s) = if a.ty.is_vector() { (a, b) } else { (b, a) };
                // OpenCL C 6.3: "An error shall occur if any scalar operand has greater rank
                // than the type of the vector element" (literals included; as in clang, an
                // unsigned scalar outranks a signed element of the same size).
                let outranks = sk.rank() > vk.rank()
                    || (sk.rank() == vk.rank()
                        && sk.is_integer()
                        && !sk.is_signed()
                        && vk.is_signed());
                if outranks {
                    let (vt, st) = (self.type_name(&v.ty), self.type_name(&s.ty));
                    let hint = match &s.kind {
                        ExprKind::IntLit(_) | ExprKind::FloatLit(_) => format!(
                            "write the constant with the element type: `({}){}`",
                            vk.name(),
                            self.sm.snippet(s.span)
                        ),
                        _ => format!("convert the scalar explicitly: `({})x`", vk.name()),
                    };
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "the scalar operand `{}` has a greater rank than the element type of the vector `{}`",
                                st, vt
                            ),
                        )
                        .label(s.span, format!("`{}`", st))
                        .label(v.span, format!("`{}`", vt))
                        .note(hint),
                    );
                    return None;
                }
                Some(v.ty.clone())
            }
            _ => {
                let (x, y) = (self.type_name(&a.ty), self.type_name(&b.ty));
                self.err(
                    span,
                    format!("invalid operands to `{}`: `{}` and `{}`", op.symbol(), x, y),
                );
                None
            }
        }
    }

    pub(super) fn pointer_binary(
        &mut self,
        op: BinOp,
        lhs: Expr,
        rhs: Expr,
        span: Span,
    ) -> Option<Expr> {
        let (lp, rp) = (lhs.ty.is_pointer(), rhs.ty.is_pointer());
        match op {
            BinOp::Add | BinOp::Sub if lp != rp => {
                let (p, i) = if lp { (lhs, rhs) } else { (rhs, lhs) };
                if op == BinOp::Sub && !lp {
                    self.err(span, "cannot subtract a pointer from an integer");
                    return None;
                }
                if !(i.ty.is_scalar() && i.ty.is_integer()) {
                    let t = self.type_name(&i.ty);
                    self.err(
                        i.span,
                        format!("pointer arithmetic needs an integer offset, not `{}`", t),
                    );
                    return None;
                }
                if matches!(&p.ty, Type::Pointer { pointee, .. } if pointee.is_void()) {
                    self.err(span, "arithmetic on a `void` pointer");
                    return None;
                }
                let i = self.cast(i, &Type::INT, CastKind::Implicit);
                let ty = p.ty.clone();
                Some(self.mk(
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(p),
                        rhs: Box::new(i),
                    },
                    ty,
                    span,
                ))
            }
            BinOp::Sub if lp && rp => {
                let (Type::Pointer { pointee: a, .. }, Type::Pointer { pointee: b, .. }) =
                    (&lhs.ty, &rhs.ty)
                else {
                    unreachable!("both pointers")
                };
                if a != b {
                    let (x, y) = (self.type_name(&lhs.ty), self.type_name(&rhs.ty));
                    self.err(
                        span,
                        format!(
                            "cannot subtract pointers of different types `{}` and `{}`",
                            x, y
                        ),
                    );
                    return None;
                }
                Some(self.mk(
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    Type::PTRDIFF_T,
                    span,
                ))
            }
            _ if op.is_comparison() => self.pointer_compare(op, lhs, rhs, span),
            BinOp::LogAnd | BinOp::LogOr => {
                let lhs = self.as_condition(lhs, "an operand of a logical operator")?;
                let rhs = self.as_condition(rhs, "an operand of a logical operator")?;
                Some(self.mk(
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    Type::INT,
                    span,
                ))
            }
            _ => {
                let (x, y) = (self.type_name(&lhs.ty), self.type_name(&rhs.ty));
                self.error(
                    Diagnostic::error(
                        span,
                        format!("invalid operands to `{}`: `{}` and `{}`", op.symbol(), x, y),
                    )
                    .label(lhs.span, format!("`{}`", x))
                    .label(rhs.span, format!("`{}`", y)),
                );
                None
            }
        }
    }

    /// Comparison of two pointers, or of a pointer with a null pointer constant.
    fn pointer_compare(&mut self, op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Option<Expr> {
        let (lp, rp) = (lhs.ty.is_pointer(), rhs.ty.is_pointer());
        let (lhs, rhs) = if lp && rp {
            let (a, b) = (&lhs.ty, &rhs.ty);
            if let (
                Type::Pointer {
                    pointee: pa,
                    space: sa,
                    ..
                },
                Type::Pointer {
                    pointee: pb,
                    space: sb,
                    ..
                },
            ) = (a, b)
            {
                if sa != sb && *sa != AddrSpace::Generic && *sb != AddrSpace::Generic {
                    self.err(
                        span,
                        "cannot compare pointers into different address spaces",
                    );
                    return None;
                }
                if pa != pb && !pa.is_void() && !pb.is_void() {
                    let (x, y) = (self.type_name(a), self.type_name(b));
                    self.warn(Diagnostic::warning(
                        span,
                        format!("comparison of different pointer types `{}` and `{}`", x, y),
                    ));
                }
            }
            (lhs, rhs)
        } else if lp && self.is_null_const(&rhs) {
            let t = lhs.ty.clone();
            let r = self.cast(rhs, &t, CastKind::Implicit);
            (lhs, r)
        } else if rp && self.is_null_const(&lhs) {
            let t = rhs.ty.clone();
            let l = self.cast(lhs, &t, CastKind::Implicit);
            (l, rhs)
        } else {
            let (x, y) = (self.type_name(&lhs.ty), self.type_name(&rhs.ty));
            self.err(span, format!("cannot compare `{}` with `{}`", x, y));
            return None;
        };
        Some(self.mk(
            ExprKind::Binary {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            Type::INT,
            span,
        ))
    }

    pub(super) fn conditional(
        &mut self,
        c: &syn::Expr,
        t: &syn::Expr,
        f: &syn::Expr,
        span: Span,
    ) -> Option<Expr> {
        let cond = self.rvalue(c);
        let then = self.expr(t).map(|x| self.decay(x));
        let els = self.expr(f).map(|x| self.decay(x));
        let (cond, then, els) = (cond?, then?, els?);
        if then.ty.is_void() || els.ty.is_void() {
            // `c ? f() : g()` with void calls is a statement in disguise; both arms must be void
            if !(then.ty.is_void() && els.ty.is_void()) || cond.ty.is_vector() {
                self.err(span, "both arms of `?:` must be `void` if one of them is");
                return None;
            }
            let cond = self.as_condition(cond, "the condition of `?:`")?;
            return Some(self.mk(
                ExprKind::Cond {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    els: Box::new(els),
                },
                Type::Void,
                span,
            ));
        }
        if let Type::Vector(ck, cn) = cond.ty {
            // lane-wise select
            if !ck.is_integer() {
                self.err(cond.span, "a vector condition must be an integer vector");
                return None;
            }
            let mut rt = self.common_type(&then, &els, BinOp::Eq, span)?;
            if let Type::Scalar(k) = rt {
                rt = Type::Vector(k, cn);
            }
            let Type::Vector(rk, rn) = rt else {
                unreachable!("vector")
            };
            if rn != cn || rk.size_bytes() != ck.size_bytes() {
                let (x, y) = (self.type_name(&cond.ty), self.type_name(&rt));
                self.error(
                    Diagnostic::error(span, format!("vector condition `{}` does not match the result type `{}`", x, y))
                        .note("the condition needs as many components as the result, each of the same size"),
                );
                return None;
            }
            let then = self.arith_to(then, &rt);
            let els = self.arith_to(els, &rt);
            return Some(self.mk(
                ExprKind::Cond {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    els: Box::new(els),
                },
                rt,
                span,
            ));
        }
        let cond = self.as_condition(cond, "the condition of `?:`")?;
        let (tt, et) = (then.ty.clone(), els.ty.clone());
        let (then, els, ty) = if tt.is_arithmetic() && et.is_arithmetic() {
            let ct = self.common_type(&then, &els, BinOp::Eq, span)?;
            let a = self.arith_to(then, &ct);
            let b = self.arith_to(els, &ct);
            (a, b, ct)
        } else if tt == et {
            (then, els, tt)
        } else if tt.is_pointer() && self.is_null_const(&els) {
            let b = self.cast(els, &tt, CastKind::Implicit);
            (then, b, tt)
        } else if et.is_pointer() && self.is_null_const(&then) {
            let a = self.cast(then, &et, CastKind::Implicit);
            (a, els, et)
        } else if tt.is_pointer() && et.is_pointer() {
            // differing qualifiers or void*: convert to the first arm's type if compatible
            let b = self.convert(els, &tt, "the arms of `?:`")?;
            (then, b, tt)
        } else {
            let (x, y) = (self.type_name(&tt), self.type_name(&et));
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "the arms of `?:` have incompatible types `{}` and `{}`",
                        x, y
                    ),
                )
                .label(then.span, format!("`{}`", x))
                .label(els.span, format!("`{}`", y)),
            );
            return None;
        };
        Some(self.mk(
            ExprKind::Cond {
                cond: Box::new(cond),
                then: Box::new(then),
                els: Box::new(els),
            },
            ty,
            span,
        ))
    }
}
