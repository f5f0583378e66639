//! Expressions: typing, implicit conversions, lvalues, constant folding.

use super::{edit_distance, Checker, CounterOp, CounterUse, Sym};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::literal::FloatSuffix;
use crate::span::Span;
use crate::syntax as syn;

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

/// Parses a vector component selector (`xy`, `s01`, `lo`, `rgba`) for a vector of `n` lanes.
pub(crate) fn parse_swizzle(name: &str, n: u8) -> Result<Vec<u8>, String> {
    let count = |v: Vec<u8>| -> Result<Vec<u8>, String> { Ok(v) };
    let half = |which: u8| -> Vec<u8> {
        // 3-vectors behave like 4-vectors here; the missing 4th lane is undefined, we use lane 2.
        let m = if n == 3 { 4 } else { n };
        let lanes: Vec<u8> = match which {
            0 => (0..m / 2).collect(),
            1 => (m / 2..m).collect(),
            2 => (0..m).step_by(2).collect(),
            _ => (1..m).step_by(2).collect(),
        };
        lanes.into_iter().map(|l| l.min(n - 1)).collect()
    };
    match name {
        "lo" => return count(half(0)),
        "hi" => return count(half(1)),
        "even" => return count(half(2)),
        "odd" => return count(half(3)),
        _ => {}
    }
    let mut lanes = Vec::new();
    if let Some(rest) = name.strip_prefix(['s', 'S']) {
        if rest.is_empty() {
            return Err("`.s` needs lane numbers, e.g. `.s0` or `.s01`".into());
        }
        for c in rest.chars() {
            let Some(d) = c.to_digit(16) else {
                return Err(format!("`{}` is not a lane number (0-9, a-f)", c));
            };
            if d as u8 >= n {
                return Err(format!(
                    "lane {} is out of range for a vector of {} elements",
                    c, n
                ));
            }
            lanes.push(d as u8);
        }
    } else {
        let xyzw = name.chars().all(|c| "xyzw".contains(c));
        let rgba = name.chars().all(|c| "rgba".contains(c));
        if !xyzw && !rgba {
            return Err(format!(
                "`{}` is not a vector component; use `.x .y .z .w`, `.s0`-`.sF`, `.lo .hi .even .odd`",
                name
            ));
        }
        if n > 4 {
            return Err(format!(
                "`.{}` only works on vectors of up to 4 elements; use `.s0`-`.sF`",
                name
            ));
        }
        for c in name.chars() {
            let d = "xyzw".find(c).or_else(|| "rgba".find(c)).unwrap_or(0) as u8;
            if d >= n {
                return Err(format!(
                    "component `{}` is out of range for a vector of {} elements",
                    c, n
                ));
            }
            lanes.push(d);
        }
    }
    if !Type::valid_vector_len(lanes.len() as u32) && lanes.len() != 1 {
        return Err(format!(
            "a swizzle must select 1, 2, 3, 4, 8 or 16 components, not {}",
            lanes.len()
        ));
    }
    Ok(lanes)
}

impl Checker<'_> {
    // ---------------------------------------------------------------- helpers

    pub(crate) fn mk(&self, kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr::new(kind, ty, span)
    }

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
            (Type::Array(..), _) => bad(self, "arrays cannot be assigned or passed by value"),
            _ => bad(self, ""),
        }
    }

    // ---------------------------------------------------------------- constants

    /// Folds an integer constant expression (bit pattern truncated to `e.ty`).
    pub(crate) fn const_value(&self, e: &Expr) -> Option<u64> {
        let k = match &e.ty {
            Type::Scalar(k) if k.is_integer() => *k,
            _ => return None,
        };
        match &e.kind {
            ExprKind::IntLit(v) | ExprKind::SizeOf(v) => Some(*v),
            ExprKind::Cast { expr, .. } => match &expr.ty {
                Type::Scalar(fk) if fk.is_integer() => {
                    let v = self.const_value(expr)?;
                    Some(k.truncate(fk.as_i64(v) as u64))
                }
                Type::Scalar(_) => match expr.kind {
                    ExprKind::FloatLit(f) => Some(if k.is_signed() {
                        k.truncate(f as i64 as u64)
                    } else {
                        k.truncate(f as u64)
                    }),
                    _ => None,
                },
                _ => None,
            },
            ExprKind::Unary { op, expr } => {
                let v = self.const_value(expr)?;
                Some(k.truncate(match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::Plus => v,
                    UnOp::BitNot => !v,
                    UnOp::Not => (v == 0) as u64,
                }))
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let ok = match &lhs.ty {
                    Type::Scalar(ok) => *ok,
                    _ => return None,
                };
                let a = self.const_value(lhs)?;
                if *op == BinOp::LogAnd && a == 0 {
                    return Some(0);
                }
                if *op == BinOp::LogOr && a != 0 {
                    return Some(1);
                }
                let b = self.const_value(rhs)?;
                let (sa, sb) = (ok.as_i64(a), ok.as_i64(b));
                let signed = ok.is_signed();
                let bits = ok.bits().max(1);
                let r: u64 = match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::Div | BinOp::Rem => {
                        if b == 0 {
                            return None;
                        }
                        if signed {
                            if *op == BinOp::Div {
                                sa.wrapping_div(sb) as u64
                            } else {
                                sa.wrapping_rem(sb) as u64
                            }
                        } else if *op == BinOp::Div {
                            a / b
                        } else {
                            a % b
                        }
                    }
                    BinOp::Shl => a.wrapping_shl((b % bits as u64) as u32),
                    BinOp::Shr => {
                        let s = (b % bits as u64) as u32;
                        if signed {
                            (sa >> s) as u64
                        } else {
                            a >> s
                        }
                    }
                    BinOp::BitAnd => a & b,
                    BinOp::BitOr => a | b,
                    BinOp::BitXor => a ^ b,
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        let o = if signed { sa.cmp(&sb) } else { a.cmp(&b) };
                        (match op {
                            BinOp::Lt => o.is_lt(),
                            BinOp::Le => o.is_le(),
                            BinOp::Gt => o.is_gt(),
                            _ => o.is_ge(),
                        }) as u64
                    }
                    BinOp::Eq => (a == b) as u64,
                    BinOp::Ne => (a != b) as u64,
                    BinOp::LogAnd | BinOp::LogOr => (b != 0) as u64,
                };
                Some(k.truncate(r))
            }
            ExprKind::Cond { cond, then, els } => {
                let c = self.const_value_any(cond)?;
                if c != 0 {
                    self.const_value(then)
                } else {
                    self.const_value(els)
                }
            }
            _ => None,
        }
    }

    /// Like `const_value` but accepts bool conditions produced by `to_bool`.
    fn const_value_any(&self, e: &Expr) -> Option<u64> {
        self.const_value(e)
    }

    /// Checks a syntax expression that must be an integer constant; returns its value
    /// (sign-extended to 64 bits for signed types).
    pub(crate) fn const_int(&mut self, e: &syn::Expr, what: &str) -> Option<u64> {
        let x = self.expr(e)?;
        if !(x.ty.is_scalar() && x.ty.is_integer()) {
            let t = self.type_name(&x.ty);
            self.err(e.span, format!("{} must be an integer, not `{}`", what, t));
            return None;
        }
        match self.const_value(&x) {
            Some(v) => {
                let k = x.ty.elem_kind().unwrap_or(ScalarKind::Int);
                Some(k.as_i64(v) as u64)
            }
            None => {
                self.error(
                    Diagnostic::error(
                        e.span,
                        format!("{} must be an integer constant expression", what),
                    )
                    .note(
                        "use literals, enum constants, sizeof and operators on them (or a #define)",
                    ),
                );
                None
            }
        }
    }

    // ---------------------------------------------------------------- expressions

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
            syn::ExprKind::CompoundLit(_, _) => {
                self.unsupported(span, "compound literals are", "");
                None
            }
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

    // ---------------------------------------------------------------- operators

    fn unary(&mut self, op: syn::UnaryOp, inner: &syn::Expr, span: Span) -> Option<Expr> {
        use syn::UnaryOp as U;
        match op {
            U::AddrOf => {
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
            U::Deref => {
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
            U::PreInc | U::PreDec | U::PostInc | U::PostDec => {
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
    }

    /// Values of type `half` cannot be loaded or stored without cl_khr_fp16.
    fn check_loadable(&mut self, t: &Type, span: Span) -> Option<()> {
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
            BinOp::Shl | BinOp::Shr => {
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

    fn pointer_binary(&mut self, op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Option<Expr> {
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
            _ if op.is_comparison() => {
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
                                format!(
                                    "comparison of different pointer types `{}` and `{}`",
                                    x, y
                                ),
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

    fn assign(
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

    fn conditional(
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

    fn explicit_cast(&mut self, t: &syn::TypeName, x: &syn::Expr, span: Span) -> Option<Expr> {
        let qt = self.resolve_type_name(t)?;
        let to = qt.ty;
        // vector literal: (float4)(a, b, c, d)
        if let Type::Vector(k, n) = to {
            if let syn::ExprKind::Paren(inner) = &x.kind {
                if let syn::ExprKind::Comma(..) = inner.kind {
                    let mut parts = Vec::new();
                    flatten_comma(inner, &mut parts);
                    return self.vector_literal(k, n, &parts, span);
                }
            }
        }
        let e = self.rvalue(x)?;
        let from = e.ty.clone();
        let bad = |c: &mut Self, note: &str| {
            let (f, t2) = (c.type_name(&from), c.type_name(&to));
            let mut d = Diagnostic::error(span, format!("cannot cast `{}` to `{}`", f, t2));
            if !note.is_empty() {
                d = d.note(note.to_string());
            }
            c.error(d);
            None
        };
        match (&from, &to) {
            (_, Type::Void) => Some(self.cast(e, &to, CastKind::Explicit)),
            (Type::Scalar(_), Type::Scalar(_)) => Some(self.cast(e, &to, CastKind::Explicit)),
            (Type::Scalar(_), Type::Vector(..)) => Some(self.splat(e, &to, CastKind::Explicit)),
            (Type::Vector(..), Type::Vector(..)) if from == to => Some(e),
            (Type::Vector(..), Type::Vector(..)) => {
                let tn = self.type_name(&to);
                bad(self, &format!("OpenCL does not allow casts between vector types; use `convert_{}()` (value conversion) or `as_{}()` (bit reinterpretation)", tn, tn))
            }
            (Type::Vector(..), Type::Scalar(_)) => {
                bad(self, "select a component, e.g. `v.x` or `v.s0`")
            }
            (Type::Pointer { space: fs, .. }, Type::Pointer { space: ts, .. }) => {
                if fs != ts && *fs != AddrSpace::Generic && *ts != AddrSpace::Generic {
                    return bad(self, &format!("a pointer into `{}` memory cannot be cast to a pointer into `{}` memory", fs, ts));
                }
                Some(self.cast(e, &to, CastKind::Explicit))
            }
            (Type::Pointer { .. }, Type::Scalar(k)) if k.is_integer() => {
                Some(self.cast(e, &to, CastKind::Explicit))
            }
            (Type::Scalar(k), Type::Pointer { .. }) if k.is_integer() => {
                Some(self.cast(e, &to, CastKind::Explicit))
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => Some(e),
            _ => bad(self, ""),
        }
    }

    /// `(T n)(a, b, ...)`: components are scalars or vectors whose lanes add up to `n`.
    fn vector_literal(
        &mut self,
        k: ScalarKind,
        n: u8,
        parts: &[&syn::Expr],
        span: Span,
    ) -> Option<Expr> {
        let mut comps = Vec::new();
        let mut ok = true;
        let elem = Type::Scalar(k);
        for p in parts {
            let Some(e) = self.rvalue(p) else {
                ok = false;
                continue;
            };
            match &e.ty {
                Type::Scalar(_) => comps.push(self.cast(e, &elem, CastKind::Implicit)),
                Type::Vector(ek, m) => {
                    if *ek != k {
                        let (x, y) = (self.type_name(&e.ty), k.name());
                        self.error(
                            Diagnostic::error(
                                e.span,
                                format!(
                                    "vector component `{}` does not have element type `{}`",
                                    x, y
                                ),
                            )
                            .note(format!("convert it first with `convert_{}{}()`", y, m)),
                        );
                        ok = false;
                        continue;
                    }
                    if has_side_effects(&e) {
                        self.error(
                            Diagnostic::error(
                                e.span,
                                "a vector component of a vector literal must not have side effects",
                            )
                            .note("assign it to a variable first"),
                        );
                        ok = false;
                        continue;
                    }
                    let m = *m;
                    for l in 0..m {
                        let mut c = swizzle(e.clone(), vec![l], elem.clone(), e.span);
                        c.lvalue = false;
                        comps.push(c);
                    }
                }
                t => {
                    let t = self.type_name(t);
                    self.err(e.span, format!("`{}` cannot be a vector component", t));
                    ok = false;
                }
            }
        }
        if !ok {
            return None;
        }
        if comps.len() != n as usize {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "vector literal of `{}{}` has {} components, expected {}",
                        k,
                        n,
                        comps.len(),
                        n
                    ),
                )
                .note(
                    "give exactly one value per component, or a single scalar to fill all of them",
                ),
            );
            return None;
        }
        Some(self.mk(ExprKind::VecLit(comps), Type::Vector(k, n), span))
    }

    fn index(&mut self, b: &syn::Expr, i: &syn::Expr, span: Span) -> Option<Expr> {
        let base = self.expr(b);
        let idx = self.rvalue(i);
        let (mut base, mut idx) = (base?, idx?);
        // `i[p]` is `p[i]`
        if base.ty.is_integer() && base.ty.is_scalar() && (idx.ty.is_pointer() || idx.ty.is_array())
        {
            std::mem::swap(&mut base, &mut idx);
        }
        if let Type::Vector(k, n) = base.ty {
            let Some(v) = self.const_value(&idx).filter(|_| idx.ty.is_integer()) else {
                self.error(
                    Diagnostic::error(idx.span, "a vector can only be indexed with a constant")
                        .note("use a swizzle (`v.s3`) or store the vector in an array to index it dynamically"),
                );
                return None;
            };
            if v >= n as u64 {
                self.err(
                    idx.span,
                    format!("index {} is out of range for a vector of {} elements", v, n),
                );
                return None;
            }
            return Some(swizzle(base, vec![v as u8], Type::Scalar(k), span));
        }
        let elem = match &base.ty {
            Type::Pointer { pointee, .. } => (**pointee).clone(),
            Type::Array(e, _) => (**e).clone(),
            t => {
                let t = self.type_name(t);
                self.err(span, format!("cannot index a value of type `{}`", t));
                return None;
            }
        };
        if elem.is_void() {
            self.err(span, "cannot index a `void` pointer");
            return None;
        }
        self.check_loadable(&elem, span)?;
        if !(idx.ty.is_integer() && idx.ty.is_scalar()) {
            let t = self.type_name(&idx.ty);
            self.err(
                idx.span,
                format!("array index must be an integer, not `{}`", t),
            );
            return None;
        }
        if let (Type::Array(_, n), Some(v)) = (&base.ty, self.const_value(&idx)) {
            let k = idx.ty.elem_kind().unwrap_or(ScalarKind::Int);
            let sv = k.as_i64(v);
            if sv < 0 || sv >= *n as i64 {
                self.warn(Diagnostic::warning(
                    idx.span,
                    format!("index {} is past the end of an array of {} elements", sv, n),
                ));
            }
        }
        let idx = self.promote(idx);
        let it = if idx.ty.elem_kind().is_some_and(|k| k.is_signed()) {
            Type::INT
        } else {
            Type::UINT
        };
        let idx = self.cast(idx, &it, CastKind::Implicit);
        Some(Expr {
            kind: ExprKind::Index {
                base: Box::new(base),
                index: Box::new(idx),
            },
            ty: elem,
            span,
            lvalue: true,
        })
    }

    fn member(&mut self, base: Expr, name: &str, nsp: Span, span: Span) -> Option<Expr> {
        match &base.ty {
            Type::Struct(id) => {
                let def = self.structs.get(*id);
                let Some(fi) = def.field_index(name) else {
                    let t = self.type_name(&base.ty);
                    let fields: Vec<String> = self
                        .structs
                        .get(*id)
                        .fields
                        .iter()
                        .map(|f| format!("`{}`", f.name))
                        .collect();
                    self.error(
                        Diagnostic::error(nsp, format!("`{}` has no field `{}`", t, name)).note(
                            format!(
                                "its fields are {}",
                                if fields.is_empty() {
                                    "none".to_string()
                                } else {
                                    fields.join(", ")
                                }
                            ),
                        ),
                    );
                    return None;
                };
                let ty = def.fields[fi as usize].ty.clone();
                let lv = base.lvalue;
                Some(Expr {
                    kind: ExprKind::Member {
                        base: Box::new(base),
                        field: fi,
                    },
                    ty,
                    span,
                    lvalue: lv,
                })
            }
            Type::Vector(k, n) => {
                let (k, n) = (*k, *n);
                let lanes = match parse_swizzle(name, n) {
                    Ok(l) => l,
                    Err(m) => {
                        let t = self.type_name(&base.ty);
                        self.error(
                            Diagnostic::error(
                                nsp,
                                format!("invalid component `.{}` of `{}`", name, t),
                            )
                            .note(m),
                        );
                        return None;
                    }
                };
                let ty = if lanes.len() == 1 {
                    Type::Scalar(k)
                } else {
                    Type::Vector(k, lanes.len() as u8)
                };
                Some(swizzle(base, lanes, ty, span))
            }
            Type::Pointer { pointee, .. } if pointee.is_struct() => {
                self.error(
                    Diagnostic::error(span, format!("`.{}` on a pointer", name))
                        .note("use `->` to access a field through a pointer"),
                );
                None
            }
            t => {
                let t = self.type_name(t);
                self.err(
                    span,
                    format!(
                        "`.{}` on a value of type `{}`, which has no fields",
                        name, t
                    ),
                );
                None
            }
        }
    }

    fn call(&mut self, f: &syn::Expr, args: &[syn::Expr], span: Span) -> Option<Expr> {
        let syn::ExprKind::Ident(name) = &f.kind else {
            self.unsupported(
                f.span,
                "calls through expressions (function pointers) are",
                "call functions directly by name",
            );
            return None;
        };
        match self.lookup(name).cloned() {
            Some(Sym::Func(n)) => return self.user_call(&n, f.span, args, span),
            Some(Sym::Poison) => return None,
            Some(Sym::Var(_) | Sym::Global(_) | Sym::EnumConst(_)) => {
                self.err(f.span, format!("`{}` is not a function", name));
                return None;
            }
            _ => {}
        }
        if let Some((what, note)) = super::builtin_sig::unsupported_builtin(name) {
            self.unsupported(f.span, what, note);
            return None;
        }
        // builtins: check the arguments first
        let mut xs = Vec::new();
        let mut ok = true;
        for a in args {
            match self.expr(a) {
                Some(x) => xs.push(x),
                None => ok = false,
            }
        }
        match self.builtin_call(name, f.span, xs, span, ok) {
            Some(r) => r,
            None => {
                let mut d =
                    Diagnostic::error(f.span, format!("call to undeclared function `{}`", name));
                if self.func_ids.contains_key(name.as_str()) {
                    d = d.note(format!("`{}` is defined later in the file; declare a prototype before this use or move the definition up", name));
                } else if let Some(s) = self.suggest_fn(name) {
                    d = d.note(format!("did you mean `{}`?", s));
                }
                self.error(d);
                None
            }
        }
    }

    /// A string literal is an lvalue `constant char[n + 1]` (OpenCL C 6.5.3: string literals
    /// are in the `constant` address space), stored as a program-scope global named `.strN`;
    /// equal literals share one global.
    fn string_literal(&mut self, text: &str, span: Span) -> Option<Expr> {
        // Each character becomes an initialiser node; bound the memory hostile input can take.
        const MAX_STRING: usize = 1 << 16;
        if text.len() > MAX_STRING {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "string literal of {} bytes is longer than the limit of {} bytes",
                        text.len(),
                        MAX_STRING
                    ),
                )
                .note("keep large constant data in a `constant` array or a buffer argument"),
            );
            return None;
        }
        let bytes = text.as_bytes();
        let n = u32::try_from(bytes.len() + 1).unwrap_or(u32::MAX);
        let ty = Type::Array(Box::new(Type::Scalar(ScalarKind::Char)), n);
        let g = match self.strings.get(text) {
            Some(&g) => g,
            None => {
                let chars = bytes
                    .iter()
                    .chain(std::iter::once(&0u8))
                    .map(|&b| Init::Expr(Expr::int(b as u64, ScalarKind::Char, span)))
                    .collect();
                self.globals.push(GlobalVar {
                    name: format!(".str{}", self.strings.len()),
                    ty: ty.clone(),
                    space: AddrSpace::Constant,
                    span,
                    is_const: true,
                    init: Some(Init::List(chars)),
                    attrs: Vec::new(),
                });
                let g = self.globals.len() as u32 - 1;
                self.strings.insert(text.to_string(), g);
                g
            }
        };
        let mut e = self.mk(ExprKind::Global(g), ty, span);
        e.lvalue = true;
        Some(e)
    }

    fn suggest_fn(&self, n: &str) -> Option<String> {
        let mut best: Option<(usize, String)> = None;
        let names = self
            .funcs
            .keys()
            .cloned()
            .chain(super::builtin_sig::builtin_names().map(str::to_string));
        for name in names {
            let d = edit_distance(n, &name);
            if d <= (n.len() / 3).max(1) && best.as_ref().is_none_or(|b| d < b.0) {
                best = Some((d, name));
            }
        }
        best.map(|b| b.1)
    }

    fn user_call(&mut self, name: &str, nsp: Span, args: &[syn::Expr], span: Span) -> Option<Expr> {
        let decl = self.funcs.get(name).cloned()?;
        if decl.poisoned {
            for a in args {
                let _ = self.expr(a);
            }
            return None;
        }
        let mut xs = Vec::new();
        let mut ok = true;
        for a in args {
            match self.expr(a) {
                Some(x) => xs.push(x),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        if xs.len() != decl.params.len() {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "`{}` takes {} argument{} but {} {} given",
                        name,
                        decl.params.len(),
                        if decl.params.len() == 1 { "" } else { "s" },
                        xs.len(),
                        if xs.len() == 1 { "was" } else { "were" }
                    ),
                )
                .label(decl.span, "declared here"),
            );
            return None;
        }
        let mut conv = Vec::new();
        for (i, (x, pt)) in xs.into_iter().zip(&decl.params).enumerate() {
            let x = if pt.is_pointer() { self.decay(x) } else { x };
            if x.ty.is_void() {
                self.err(x.span, "a `void` expression has no value");
                ok = false;
                continue;
            }
            match self.convert(x, pt, &format!("argument {} of `{}`", i + 1, name)) {
                Some(c) => conv.push(c),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let Some(id) = decl.id else {
            self.error(
                Diagnostic::error(
                    nsp,
                    format!("function `{}` is declared but never defined", name),
                )
                .label(decl.span, "declared here")
                .note("FPGA kernels cannot call external code; define the function in this file"),
            );
            return None;
        };
        if let Some(cur) = &self.cur {
            self.calls.push((cur.id, id, span));
            let caller = cur.id;
            for (i, a) in conv.iter().enumerate() {
                if let (ExprKind::Var(v), Type::Counter32 | Type::Counter64) = (&a.kind, &a.ty) {
                    self.counter_uses.push(CounterUse {
                        func: caller,
                        var: *v,
                        what: CounterOp::Pass(id, i as u32),
                        span: a.span,
                    });
                }
            }
        }
        Some(self.mk(
            ExprKind::Call {
                func: id,
                args: conv,
            },
            decl.ret.clone(),
            span,
        ))
    }
}

/// Rounds a value to the precision of a float kind.
pub(crate) fn round_to(k: ScalarKind, v: f64) -> f64 {
    match k {
        ScalarKind::Float | ScalarKind::Half => v as f32 as f64,
        _ => v,
    }
}

/// `base.lanes`, composing with a swizzle `base` (`v.xy.y` is `v.y`).
pub(crate) fn swizzle(base: Expr, lanes: Vec<u8>, ty: Type, span: Span) -> Expr {
    if let ExprKind::Swizzle {
        base: inner,
        lanes: inner_lanes,
    } = base.kind
    {
        let composed = lanes.iter().map(|l| inner_lanes[*l as usize]).collect();
        return swizzle(*inner, composed, ty, span);
    }
    let lvalue = base.lvalue;
    Expr {
        kind: ExprKind::Swizzle {
            base: Box::new(base),
            lanes,
        },
        ty,
        span,
        lvalue,
    }
}

fn flatten_comma<'e>(e: &'e syn::Expr, out: &mut Vec<&'e syn::Expr>) {
    // iterative over the left spine: (a, b), c
    let mut stack = vec![e];
    let mut rev = Vec::new();
    while let Some(x) = stack.pop() {
        match &x.kind {
            syn::ExprKind::Comma(a, b) => {
                rev.push(&**b);
                stack.push(a);
            }
            _ => rev.push(x),
        }
    }
    out.extend(rev.into_iter().rev());
}

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
    }
}

/// The variable at the root of an lvalue path (`a.b[1].c` -> `a`).
fn root_var(e: &Expr) -> Option<&ExprKind> {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Global(_) => Some(&e.kind),
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => root_var(base),
        ExprKind::Index { base, .. } if base.ty.is_array() => root_var(base),
        _ => None,
    }
}

/// Whether the path from the root variable goes only through fields/elements (no pointers).
fn var_chain_direct(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Global(_) => true,
        ExprKind::Member { base, .. } | ExprKind::Swizzle { base, .. } => var_chain_direct(base),
        ExprKind::Index { base, .. } => base.ty.is_array() && var_chain_direct(base),
        _ => false,
    }
}
