//! Expressions: typing, implicit conversions, lvalues, constant folding.
//!
//! The entry points are [`Checker::expr`] and [`Checker::rvalue`]; this module dispatches on
//! the syntax and types names, `sizeof` and `vec_step`. The operators, conversions, accesses,
//! calls and literals each live in a submodule.

mod access;
mod binary;
mod call;
mod constant;
mod convert;
mod literal;
mod lvalue;
mod unary;

pub(crate) use access::swizzle;
pub(crate) use convert::{round_to, usual_scalar};

use super::{edit_distance, Checker, Sym};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::literal::FloatSuffix;
use crate::span::Span;
use crate::syntax as syn;

pub(crate) fn has_side_effects(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Call { .. }
        | ExprKind::Builtin { .. } => true,
        ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::SizeOf(_) => false,
        ExprKind::Unary { expr, .. }
        | ExprKind::Cast { expr, .. }
        | ExprKind::Deref(expr)
        | ExprKind::AddrOf(expr) => has_side_effects(expr),
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => has_side_effects(base),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Index {
            base: lhs,
            index: rhs,
        }
        | ExprKind::Comma(lhs, rhs) => has_side_effects(lhs) || has_side_effects(rhs),
        ExprKind::Cond { cond, then, els } => {
            has_side_effects(cond) || has_side_effects(then) || has_side_effects(els)
        }
        ExprKind::VecLit(v) => v.iter().any(has_side_effects),
        ExprKind::CompoundLit(init) => init_has_side_effects(init),
    }
}

fn init_has_side_effects(i: &Init) -> bool {
    match i {
        Init::Expr(e) => has_side_effects(e),
        Init::List(l) => l.iter().any(init_has_side_effects),
    }
}

impl Checker<'_> {
    pub(crate) fn mk(&self, kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr::new(kind, ty, span)
    }

    /// Checks an expression. Arrays are not decayed here (callers decay where C does).
    pub(crate) fn expr(&mut self, e: &syn::Expr) -> Option<Expr> {
        if !self.enter(e.span) {
            return None;
        }
        let r = self.expr_inner(e);
        self.leave();
        r
    }

    /// Checks an expression used for its value (arrays decay).
    pub(crate) fn rvalue(&mut self, e: &syn::Expr) -> Option<Expr> {
        let x = self.expr(e)?;
        if x.ty.is_void() {
            self.err(e.span, "a `void` expression has no value");
            return None;
        }
        if let Type::Atomic(a) = x.ty {
            self.atomic_as_value(a, e.span);
            return None;
        }
        Some(self.decay(x))
    }

    fn expr_inner(&mut self, e: &syn::Expr) -> Option<Expr> {
        let span = e.span;
        match &e.kind {
            syn::ExprKind::Error => None,
            syn::ExprKind::IntLit(v, k) => Some(Expr::int(*v, *k, span)),
            syn::ExprKind::CharLit(v) => Some(Expr::int(*v, ScalarKind::Int, span)),
            syn::ExprKind::FloatLit(v, suffix) => {
                let k = match suffix {
                    FloatSuffix::F => ScalarKind::Float,
                    FloatSuffix::H => {
                        self.error(
                            Diagnostic::error(span, "`half` literals need cl_khr_fp16, which this device does not support")
                                .note("write a `float` literal (suffix `f`)"),
                        );
                        return None;
                    }
                    FloatSuffix::None => {
                        if self.fp64 {
                            ScalarKind::Double
                        } else {
                            self.warn(
                                Diagnostic::warning(span, "double precision constant is converted to `float`")
                                    .note("the device has no cl_khr_fp64; add the suffix `f` (e.g. `1.0f`)"),
                            );
                            ScalarKind::Float
                        }
                    }
                };
                let orig = *v;
                let v = round_to(k, orig);
                if v.is_infinite() && orig.is_finite() {
                    self.warn(Diagnostic::warning(
                        span,
                        "floating literal is too large and becomes infinity",
                    ));
                }
                Some(self.mk(ExprKind::FloatLit(v), Type::Scalar(k), span))
            }
            syn::ExprKind::StrLit(text) => self.string_literal(text, span),
            syn::ExprKind::Ident(n) => self.ident(n, span),
            syn::ExprKind::Paren(inner) => {
                let mut x = self.expr(inner)?;
                x.span = span;
                Some(x)
            }
            syn::ExprKind::Unary(op, inner) => self.unary(*op, inner, span),
            syn::ExprKind::Binary(op, a, b) => {
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                self.binary(*op, a?, b?, span)
            }
            syn::ExprKind::Assign(op, a, b) => self.assign(*op, a, b, span),
            syn::ExprKind::Cond(c, t, f) => self.conditional(c, t, f, span),
            syn::ExprKind::Cast(t, x) => self.explicit_cast(t, x, span),
            syn::ExprKind::CompoundLit(t, init) => self.compound_literal(t, init, span),
            syn::ExprKind::SizeofExpr(x) => {
                let x = self.expr(x)?;
                self.sizeof_type(&x.ty, span)
            }
            syn::ExprKind::SizeofType(t) => {
                let qt = self.resolve_type_name(t)?;
                self.sizeof_type(&qt.ty, span)
            }
            syn::ExprKind::VecStepExpr(x) => {
                let x = self.expr(x)?;
                self.vec_step(&x.ty, span)
            }
            syn::ExprKind::VecStepType(t) => {
                let qt = self.resolve_type_name(t)?;
                self.vec_step(&qt.ty, span)
            }
            syn::ExprKind::AlignofType(t) => {
                let qt = self.resolve_type_name(t)?;
                let a = self.structs.align_of(&qt.ty) as u64;
                Some(self.mk(ExprKind::SizeOf(a), Type::SIZE_T, span))
            }
            syn::ExprKind::Call(f, args) => self.call(f, args, span),
            syn::ExprKind::Index(b, i) => self.index(b, i, span),
            syn::ExprKind::Member(b, name, nsp) => {
                let b = self.expr(b)?;
                self.member(b, name, *nsp, span)
            }
            syn::ExprKind::Arrow(b, name, nsp) => {
                let b = self.rvalue(b)?;
                match &b.ty {
                    Type::Pointer { pointee, .. } if pointee.is_struct() => {
                        let pt = (**pointee).clone();
                        let d = Expr {
                            kind: ExprKind::Deref(Box::new(b)),
                            ty: pt,
                            span,
                            lvalue: true,
                        };
                        self.member(d, name, *nsp, span)
                    }
                    t => {
                        let t = self.type_name(t);
                        self.error(
                            Diagnostic::error(
                                span,
                                format!("`->` needs a pointer to a struct, found `{}`", t),
                            )
                            .note("use `.` on a struct value"),
                        );
                        None
                    }
                }
            }
            syn::ExprKind::Comma(a, b) => {
                let a = self.expr(a);
                let b = self.expr(b);
                let (a, b) = (a?, self.decay(b?));
                let ty = b.ty.clone();
                Some(self.mk(ExprKind::Comma(Box::new(a), Box::new(b)), ty, span))
            }
        }
    }

    fn sizeof_type(&mut self, t: &Type, span: Span) -> Option<Expr> {
        match t {
            Type::Void => {
                self.err(span, "`sizeof` of `void`");
                None
            }
            Type::Struct(id) if !self.structs.get(*id).complete => {
                let n = self.type_name(t);
                self.err(span, format!("`sizeof` of incomplete type `{}`", n));
                None
            }
            Type::Pipe { .. }
            | Type::Event
            | Type::ReserveId
            | Type::Counter32
            | Type::Counter64 => {
                let n = self.type_name(t);
                self.err(span, format!("`{}` has no size", n));
                None
            }
            _ => {
                let n = self.structs.size_of(t) as u64;
                Some(self.mk(ExprKind::SizeOf(n), Type::SIZE_T, span))
            }
        }
    }

    fn vec_step(&mut self, t: &Type, span: Span) -> Option<Expr> {
        let n = match t {
            Type::Scalar(_) => 1,
            Type::Vector(_, 3) => 4,
            Type::Vector(_, n) => *n as u64,
            _ => {
                let n = self.type_name(t);
                self.err(
                    span,
                    format!("`vec_step` needs a scalar or vector type, not `{}`", n),
                );
                return None;
            }
        };
        Some(self.mk(ExprKind::SizeOf(n), Type::INT, span))
    }

    fn ident(&mut self, n: &str, span: Span) -> Option<Expr> {
        match self.lookup(n).cloned() {
            Some(Sym::Var(v)) => {
                let ty = self.vars[v.0 as usize].ty.clone();
                Some(Expr {
                    kind: ExprKind::Var(v),
                    ty,
                    span,
                    lvalue: true,
                })
            }
            Some(Sym::Global(g)) => {
                let ty = self.globals[g as usize].ty.clone();
                Some(Expr {
                    kind: ExprKind::Global(g),
                    ty,
                    span,
                    lvalue: true,
                })
            }
            Some(Sym::EnumConst(v)) => Some(Expr::int(v, ScalarKind::Int, span)),
            Some(Sym::Func(_)) => {
                self.error(
                    Diagnostic::error(span, format!("function `{}` used as a value", n)).note(
                        "function pointers are not supported on FPGAs; call the function directly",
                    ),
                );
                None
            }
            Some(Sym::Typedef(_)) => {
                self.err(span, format!("type `{}` used as a value", n));
                None
            }
            Some(Sym::Poison) => None,
            None => match n {
                "__oclhls_inff" => {
                    Some(self.mk(ExprKind::FloatLit(f64::INFINITY), Type::FLOAT, span))
                }
                "__oclhls_nanf" => Some(self.mk(ExprKind::FloatLit(f64::NAN), Type::FLOAT, span)),
                // the `memory_order` and `memory_scope` enumerations (OpenCL C 2.0 6.13.11)
                _ if crate::builtins::memory_enum_value(n).is_some() => Some(Expr::int(
                    crate::builtins::memory_enum_value(n).unwrap_or(0),
                    ScalarKind::Int,
                    span,
                )),
                // `CLK_NULL_RESERVE_ID`: the invalid reservation, integer 0 cast to `reserve_id_t`.
                "__oclhls_null_reserve_id" => Some(self.cast(
                    Expr::int(0, ScalarKind::UInt, span),
                    &Type::ReserveId,
                    CastKind::Implicit,
                )),
                "__oclhls_inf" => Some(self.mk(
                    ExprKind::FloatLit(f64::INFINITY),
                    Type::Scalar(ScalarKind::Double),
                    span,
                )),
                _ => {
                    let mut d =
                        Diagnostic::error(span, format!("use of undeclared identifier `{}`", n));
                    if let Some(s) = self.suggest(n) {
                        d = d.note(format!("did you mean `{}`?", s));
                    } else {
                        d = d.note("declare the variable before using it");
                    }
                    self.error(d);
                    None
                }
            },
        }
    }

    /// The closest visible name, if any is close enough.
    pub(crate) fn suggest(&self, n: &str) -> Option<String> {
        let mut best: Option<(usize, String)> = None;
        for scope in &self.scopes {
            for name in scope.keys() {
                let d = edit_distance(n, name);
                if d <= (n.len() / 3).max(1) && best.as_ref().is_none_or(|b| d < b.0) {
                    best = Some((d, name.clone()));
                }
            }
        }
        best.map(|b| b.1)
    }
}
