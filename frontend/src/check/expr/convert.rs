//! Implicit conversions: integer promotion, the usual arithmetic conversions, scalar-to-vector
//! splats, array decay, conditions, and conversion as by assignment (initialisers, arguments,
//! returns). Casts of literals are folded into the literal.

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;

/// Usual arithmetic conversions of two scalar kinds (C99 6.3.1.8 with OpenCL sizes).
pub(crate) fn usual_scalar(a: ScalarKind, b: ScalarKind) -> ScalarKind {
    if a.is_float() || b.is_float() {
        let fa = if a.is_float() { a.rank() } else { 0 };
        let fb = if b.is_float() { b.rank() } else { 0 };
        return if fa >= fb { a } else { b };
    }
    let a = promote_kind(a);
    let b = promote_kind(b);
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (u, s) = if a.is_signed() { (b, a) } else { (a, b) };
    if u.rank() >= s.rank() {
        u
    } else if s.size_bytes() > u.size_bytes() {
        s
    } else {
        s.to_unsigned()
    }
}

/// Integer promotion of a scalar kind.
pub(crate) fn promote_kind(k: ScalarKind) -> ScalarKind {
    match k {
        ScalarKind::Bool
        | ScalarKind::Char
        | ScalarKind::UChar
        | ScalarKind::Short
        | ScalarKind::UShort => ScalarKind::Int,
        k => k,
    }
}

/// Rounds a value to the precision of a float kind.
pub(crate) fn round_to(k: ScalarKind, v: f64) -> f64 {
    match k {
        ScalarKind::Float | ScalarKind::Half => v as f32 as f64,
        _ => v,
    }
}

impl Checker<'_> {
    /// An implicit conversion node (folded for literals), or `e` itself if the type matches.
    pub(crate) fn cast(&self, e: Expr, to: &Type, kind: CastKind) -> Expr {
        if e.ty == *to {
            return e;
        }
        if kind == CastKind::Implicit {
            if let Type::Scalar(k) = to {
                match (&e.kind, &e.ty) {
                    (ExprKind::IntLit(v), Type::Scalar(from)) => {
                        let sv = from.as_i64(*v);
                        let kind = if k.is_float() {
                            let f = if from.is_signed() {
                                sv as f64
                            } else {
                                *v as f64
                            };
                            ExprKind::FloatLit(round_to(*k, f))
                        } else {
                            ExprKind::IntLit(k.truncate(sv as u64))
                        };
                        return Expr::new(kind, to.clone(), e.span);
                    }
                    (ExprKind::FloatLit(f), Type::Scalar(_)) => {
                        let kind = if k.is_float() {
                            ExprKind::FloatLit(round_to(*k, *f))
                        } else if *k == ScalarKind::Bool {
                            ExprKind::IntLit((*f != 0.0) as u64)
                        } else if k.is_signed() {
                            ExprKind::IntLit(k.truncate(*f as i64 as u64))
                        } else {
                            ExprKind::IntLit(k.truncate(*f as u64))
                        };
                        return Expr::new(kind, to.clone(), e.span);
                    }
                    _ => {}
                }
            }
        }
        let span = e.span;
        Expr::new(
            ExprKind::Cast {
                kind,
                expr: Box::new(e),
            },
            to.clone(),
            span,
        )
    }

    /// Scalar -> vector: converts to the element type, then splats.
    pub(crate) fn splat(&self, e: Expr, to: &Type, kind: CastKind) -> Expr {
        let Type::Vector(k, _) = to else {
            return self.cast(e, to, kind);
        };
        let elem = Type::Scalar(*k);
        let e = self.cast(e, &elem, CastKind::Implicit);
        self.cast(e, to, kind)
    }

    /// Arithmetic conversion of a scalar or vector value to an arithmetic type.
    pub(crate) fn arith_to(&self, e: Expr, to: &Type) -> Expr {
        if e.ty == *to {
            return e;
        }
        if to.is_vector() && e.ty.is_scalar() {
            self.splat(e, to, CastKind::Implicit)
        } else {
            self.cast(e, to, CastKind::Implicit)
        }
    }

    /// Integer promotion of scalars (vectors are not promoted).
    pub(crate) fn promote(&self, e: Expr) -> Expr {
        if let Type::Scalar(k) = e.ty {
            let p = promote_kind(k);
            if p != k {
                return self.cast(e, &Type::Scalar(p), CastKind::Implicit);
            }
        }
        e
    }

    /// Array-to-pointer decay.
    pub(crate) fn decay(&self, e: Expr) -> Expr {
        if let Type::Array(elem, _) = &e.ty {
            let to = Type::Pointer {
                pointee: elem.clone(),
                space: self.object_space(&e),
                is_const: self.object_const(&e),
                is_volatile: false,
                is_restrict: false,
            };
            let span = e.span;
            return Expr::new(
                ExprKind::Cast {
                    kind: CastKind::Implicit,
                    expr: Box::new(e),
                },
                to,
                span,
            );
        }
        e
    }

    /// A condition: scalar or pointer converted to bool.
    pub(crate) fn as_condition(&mut self, e: Expr, what: &str) -> Option<Expr> {
        let e = self.decay(e);
        match &e.ty {
            Type::Scalar(_) | Type::Pointer { .. } => {
                Some(self.cast(e, &Type::BOOL, CastKind::Implicit))
            }
            Type::Vector(..) => {
                let t = self.type_name(&e.ty);
                self.error(
                    Diagnostic::error(
                        e.span,
                        format!("{} must be a scalar, not the vector `{}`", what, t),
                    )
                    .note("use `any(v)` or `all(v)` to test a vector"),
                );
                None
            }
            t => {
                let t = self.type_name(t);
                self.err(e.span, format!("{} must be a scalar, not `{}`", what, t));
                None
            }
        }
    }

    pub(crate) fn is_null_const(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Cast { expr, .. } if matches!(&e.ty, Type::Pointer { pointee, .. } if pointee.is_void()) => {
                self.is_null_const(expr)
            }
            _ => e.ty.is_integer() && e.ty.is_scalar() && self.const_value(e) == Some(0),
        }
    }

    /// Implicit conversion as by assignment (initialisers, arguments, returns).
    pub(crate) fn convert(&mut self, e: Expr, to: &Type, what: &str) -> Option<Expr> {
        let e = if to.is_pointer() { self.decay(e) } else { e };
        if e.ty == *to {
            return Some(e);
        }
        let from = e.ty.clone();
        let bad = |c: &mut Self, note: &str| {
            let (f, t) = (c.type_name(&from), c.type_name(to));
            let mut d = Diagnostic::error(
                e.span,
                format!("cannot convert `{}` to `{}` in {}", f, t, what),
            )
            .label(e.span, format!("this has type `{}`", f));
            if !note.is_empty() {
                d = d.note(note.to_string());
            }
            c.error(d);
            None
        };
        match (&from, to) {
            (Type::Scalar(_), Type::Scalar(_)) => Some(self.cast(e, to, CastKind::Implicit)),
            (Type::Scalar(k), Type::Vector(vk, _)) => {
                if k.is_float() && vk.is_integer() && !matches!(e.kind, ExprKind::FloatLit(_)) {
                    return bad(self, "converting a floating-point scalar to an integer vector needs an explicit cast");
                }
                Some(self.splat(e, to, CastKind::Implicit))
            }
            (Type::Vector(..), Type::Vector(..)) => {
                let t = self.type_name(to);
                bad(self, &format!("OpenCL has no implicit conversions between vector types; use `convert_{}()` or `as_{}()`", t, t))
            }
            (Type::Vector(..), Type::Scalar(_)) => {
                bad(self, "select a component, e.g. `v.x` or `v.s0`")
            }
            (Type::Pointer { .. }, Type::Scalar(ScalarKind::Bool)) => {
                Some(self.cast(e, to, CastKind::Implicit))
            }
            (Type::Scalar(k), Type::Pointer { .. }) if k.is_integer() => {
                if self.is_null_const(&e) {
                    Some(self.cast(e, to, CastKind::Implicit))
                } else {
                    bad(self, "only the constant 0 converts to a pointer implicitly; use an explicit cast")
                }
            }
            (
                Type::Pointer {
                    pointee: fp,
                    space: fs,
                    is_const: fc,
                    is_volatile: fv,
                    ..
                },
                Type::Pointer {
                    pointee: tp,
                    space: ts,
                    is_const: tc,
                    is_volatile: tv,
                    ..
                },
            ) => {
                if self.is_null_const(&e) {
                    return Some(self.cast(e, to, CastKind::Implicit));
                }
                if fs != ts && !(*ts == AddrSpace::Generic && *fs != AddrSpace::Constant) {
                    return bad(
                        self,
                        &format!(
                        "pointers into different address spaces (`{}` and `{}`) are incompatible",
                        fs, ts
                    ),
                    );
                }
                if *fc && !*tc && *ts != AddrSpace::Constant {
                    let (f, t) = (self.type_name(&from), self.type_name(to));
                    self.warn(
                        Diagnostic::warning(
                            e.span,
                            format!("conversion from `{}` to `{}` discards `const`", f, t),
                        )
                        .note("writes through the result would modify read-only data"),
                    );
                }
                let _ = (fv, tv);
                if fp != tp && !fp.is_void() && !tp.is_void() {
                    return bad(self, "the pointee types differ; use an explicit cast if the reinterpretation is intended");
                }
                Some(self.cast(e, to, CastKind::Implicit))
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => Some(e),
            (Type::Atomic(_), _) | (_, Type::Atomic(_)) => bad(
                self,
                "atomic objects are read and written only by the atomic functions (`atomic_load`, `atomic_store`, ...)",
            ),
            (Type::Array(..), _) => bad(self, "arrays cannot be assigned or passed by value"),
            _ => bad(self, ""),
        }
    }
}
