//! Math, common and integer built-ins: gentype overloads (`min`, `max`, `clamp`, `mad`, `abs`,
//! the `MathFn` families and their `native_`/`half_` variants) and `select`.

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

impl Checker<'_> {
    /// Resolves a gentype overload: all arguments converted to one scalar or vector type.
    pub(super) fn gentype(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        float_only: bool,
        int_only: bool,
        span: Span,
    ) -> Option<(Vec<Expr>, Type)> {
        let args: Vec<Expr> = args.into_iter().map(|a| self.decay(a)).collect();
        for a in &args {
            if !a.ty.is_arithmetic() {
                let t = self.type_name(&a.ty);
                self.err(
                    a.span,
                    format!("`{}` needs scalar or vector arguments, not `{}`", name, t),
                );
                return None;
            }
        }
        let mut t: Option<Type> = args.iter().find(|a| a.ty.is_vector()).map(|a| a.ty.clone());
        if let Some(vt) = &t {
            for a in &args {
                if a.ty.is_vector() && a.ty != *vt {
                    let (x, y) = (self.type_name(vt), self.type_name(&a.ty));
                    self.error(
                        Diagnostic::error(
                            a.span,
                            format!(
                                "arguments of `{}` have different vector types `{}` and `{}`",
                                name, x, y
                            ),
                        )
                        .note(format!("convert explicitly, e.g. `convert_{}(...)`", x)),
                    );
                    return None;
                }
            }
        } else {
            let mut k: Option<ScalarKind> = None;
            // literals adapt to the other arguments (`min(x, 0)`, `pow(x, 2)`)
            let non_lit: Vec<&Expr> = args
                .iter()
                .filter(|a| !matches!(a.kind, ExprKind::IntLit(_) | ExprKind::FloatLit(_)))
                .collect();
            let basis: Vec<&Expr> = if non_lit.is_empty() {
                args.iter().collect()
            } else {
                non_lit
            };
            // arguments of one type select that overload (`min(char, char)` is `char`);
            // mixed types follow the usual arithmetic conversions
            let same = basis.windows(2).all(|w| w[0].ty == w[1].ty);
            for a in basis {
                let ak = a.ty.elem_kind().expect("arithmetic");
                k = Some(match k {
                    None => ak,
                    Some(p) if same => p,
                    Some(p) => crate::check::expr::usual_scalar(p, ak),
                });
            }
            let mut k = k.expect("at least one argument");
            if args.iter().any(|a| a.ty.is_float()) && k.is_integer() {
                k = ScalarKind::Float;
            }
            t = Some(Type::Scalar(k));
        }
        let t = t.expect("set above");
        if float_only && !t.is_float() {
            if args.iter().all(|a| matches!(a.kind, ExprKind::IntLit(_))) && t.is_scalar() {
                let ft = Type::FLOAT;
                let args = args.into_iter().map(|a| self.arith_to(a, &ft)).collect();
                return Some((args, ft));
            }
            let tn = self.type_name(&t);
            self.error(
                Diagnostic::error(
                    span,
                    format!("`{}` needs floating-point arguments, found `{}`", name, tn),
                )
                .note(format!("convert the argument, e.g. `{}((float)x)`", name)),
            );
            return None;
        }
        if int_only && !t.is_integer() {
            let tn = self.type_name(&t);
            let mut d = Diagnostic::error(
                span,
                format!("`{}` needs integer arguments, found `{}`", name, tn),
            );
            if name == "abs" {
                d = d.note("use `fabs` for floating-point values");
            }
            self.error(d);
            return None;
        }
        let args = args
            .into_iter()
            .map(|a| {
                if a.ty.is_scalar() && t.is_vector() {
                    self.splat(a, &t, CastKind::Implicit)
                } else {
                    self.arith_to(a, &t)
                }
            })
            .collect();
        Some((args, t))
    }

    pub(super) fn math(
        &mut self,
        name: &str,
        m: MathFn,
        native: bool,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let b = if native {
            Builtin::NativeMath(m)
        } else {
            Builtin::Math(m)
        };
        let n = match m.class() {
            MathClass::F1
            | MathClass::I1
            | MathClass::FRel1
            | MathClass::AnyAll
            | MathClass::Geom1
            | MathClass::GeomV1
            | MathClass::IntOfF => 1,
            MathClass::F2
            | MathClass::I2
            | MathClass::IU2
            | MathClass::Upsample
            | MathClass::FRel2
            | MathClass::Geom2
            | MathClass::Cross
            | MathClass::Step
            | MathClass::FInt
            | MathClass::PtrOut => 2,
            MathClass::F3
            | MathClass::PtrOut2
            | MathClass::I3
            | MathClass::Bitsel
            | MathClass::Mix
            | MathClass::SmoothStep => 3,
        };
        if !self.arity(name, &args, &[n], span) {
            return Some(None);
        }
        match m.class() {
            MathClass::F1
            | MathClass::F2
            | MathClass::F3
            | MathClass::Mix
            | MathClass::Step
            | MathClass::SmoothStep => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                self.bi(b, xs, t, span)
            }
            MathClass::I1 | MathClass::I2 | MathClass::I3 => {
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                self.bi(b, xs, t, span)
            }
            MathClass::IU2 => {
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                let k = t.elem_kind().expect("int").to_unsigned();
                self.bi(b, xs, t.with_elem(k), span)
            }
            MathClass::Upsample => self.upsample(b, args, span),
            MathClass::FRel1 | MathClass::FRel2 => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                let r = match t {
                    Type::Vector(k, n) => Type::Vector(k.to_signed_int(), n),
                    _ => Type::INT,
                };
                self.bi(b, xs, r, span)
            }
            MathClass::AnyAll => {
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                if !t.elem_kind().is_some_and(|k| k.is_signed()) {
                    let tn = self.type_name(&t);
                    self.error(
                        Diagnostic::error(span, format!("`{}` needs a signed integer argument, not `{}`", name, tn))
                            .note("it tests the most significant bit of each component (e.g. a comparison result)"),
                    );
                    return Some(None);
                }
                self.bi(b, xs, Type::INT, span)
            }
            MathClass::Bitsel => {
                let (xs, t) = self.gentype(name, args, false, false, span)?;
                self.bi(b, xs, t, span)
            }
            MathClass::Geom1 | MathClass::Geom2 | MathClass::GeomV1 | MathClass::Cross => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                if t.lanes() > 4 || (m.class() == MathClass::Cross && !matches!(t.lanes(), 3 | 4)) {
                    let tn = self.type_name(&t);
                    self.err(span, format!("`{}` is not defined for `{}`", name, tn));
                    return Some(None);
                }
                let r = match m.class() {
                    MathClass::Geom1 | MathClass::Geom2 => {
                        Type::Scalar(t.elem_kind().expect("float"))
                    }
                    _ => t,
                };
                self.bi(b, xs, r, span)
            }
            MathClass::IntOfF => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                let r = t.with_elem(ScalarKind::Int);
                self.bi(b, xs, r, span)
            }
            MathClass::PtrOut => self.ptr_out(name, b, m, args, 1, span),
            MathClass::PtrOut2 => self.ptr_out(name, b, m, args, 2, span),
            MathClass::FInt => {
                let mut it = args.into_iter();
                let x = it.next().expect("arity");
                let (xs, t) = self.gentype(name, vec![x], true, false, span)?;
                let it_ty = t.with_elem(ScalarKind::Int);
                let y = self.decay(it.next().expect("arity"));
                if !y.ty.is_integer() || (y.ty.is_vector() && y.ty.lanes() != t.lanes()) {
                    let (tn, yn) = (self.type_name(&it_ty), self.type_name(&y.ty));
                    self.err(
                        y.span,
                        format!(
                            "the second argument of `{}` must be `{}` (or `int`), not `{}`",
                            name, tn, yn
                        ),
                    );
                    return Some(None);
                }
                let y = if y.ty.is_vector() {
                    if y.ty != it_ty {
                        let yn = self.type_name(&y.ty);
                        self.err(y.span, format!("the second argument of `{}` must have element type `int`, not `{}`", name, yn));
                        return Some(None);
                    }
                    y
                } else {
                    let y = self.cast(y, &Type::INT, CastKind::Implicit);
                    self.arith_to(y, &it_ty)
                };
                let mut xs = xs;
                xs.push(y);
                self.bi(b, xs, t, span)
            }
        }
    }

    /// `fract`, `modf`, `sincos` (`F f(F x, F *p)`), `frexp`, `lgamma_r` (`F f(F x, intN *p)`) and
    /// `remquo` (`F f(F x, F y, intN *p)`; `floats` is the number of float arguments): the
    /// pointer must point to writable memory of exactly that type, in any address space but
    /// `constant`.
    fn ptr_out(
        &mut self,
        name: &str,
        b: Builtin,
        m: MathFn,
        args: Vec<Expr>,
        floats: usize,
        span: Span,
    ) -> Option<Option<Expr>> {
        let mut args = args;
        let p = args.pop().expect("arity");
        let (xs, t) = self.gentype(name, args, true, false, span)?;
        let want = if matches!(m, MathFn::Frexp | MathFn::Remquo | MathFn::LgammaR) {
            t.with_elem(ScalarKind::Int)
        } else {
            t.clone()
        };
        let p = self.decay(p);
        let ok = match &p.ty {
            Type::Pointer {
                pointee,
                is_const,
                space,
                ..
            } => **pointee == want && !*is_const && *space != AddrSpace::Constant,
            _ => false,
        };
        if !ok {
            let (pn, wn) = (self.type_name(&p.ty), self.type_name(&want));
            self.err(
                p.span,
                format!(
                    "the {} argument of `{}` must be a pointer to writable `{}`, not `{}`",
                    if floats == 1 { "second" } else { "third" },
                    name,
                    wn,
                    pn
                ),
            );
            return Some(None);
        }
        let mut xs = xs;
        xs.push(p);
        self.bi(b, xs, t, span)
    }

    /// `upsample(hi, lo)`: `hi` a `char`, `short` or `int` scalar or vector (signed or not),
    /// `lo` the unsigned type of the same shape; the result has twice the width and `hi`'s
    /// signedness. An integer literal takes the other argument's type (`lo`: unsigned).
    fn upsample(&mut self, b: Builtin, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        let mut it = args.into_iter().map(|a| self.decay(a));
        let (hi, lo) = (it.next().expect("arity"), it.next().expect("arity"));
        let lit = |e: &Expr| matches!(e.kind, ExprKind::IntLit(_));
        let (hi, lo) = match (lit(&hi), lit(&lo)) {
            (false, true) if hi.ty.is_integer() => {
                let k = hi.ty.elem_kind().expect("integer").to_unsigned();
                let lo = self.arith_to(lo, &hi.ty.with_elem(k));
                (hi, lo)
            }
            (true, false) if lo.ty.is_integer() => {
                let hi = self.arith_to(hi, &lo.ty);
                (hi, lo)
            }
            _ => (hi, lo),
        };
        let wide = |k: ScalarKind| match k {
            ScalarKind::Char => Some(ScalarKind::Short),
            ScalarKind::UChar => Some(ScalarKind::UShort),
            ScalarKind::Short => Some(ScalarKind::Int),
            ScalarKind::UShort => Some(ScalarKind::UInt),
            ScalarKind::Int => Some(ScalarKind::Long),
            ScalarKind::UInt => Some(ScalarKind::ULong),
            _ => None,
        };
        let (hk, lk) = (hi.ty.elem_kind(), lo.ty.elem_kind());
        let shape_ok = hi.ty.is_integer()
            && lo.ty.is_integer()
            && hi.ty.is_vector() == lo.ty.is_vector()
            && hi.ty.lanes() == lo.ty.lanes();
        let wk = match (hk, lk) {
            (Some(h), Some(l)) if shape_ok && l == h.to_unsigned() => wide(h),
            _ => None,
        };
        let Some(wk) = wk else {
            let (x, y) = (self.type_name(&hi.ty), self.type_name(&lo.ty));
            self.error(
                Diagnostic::error(
                    span,
                    format!("`upsample` is not defined for `{}` and `{}`", x, y),
                )
                .note("it takes `hi` of type `char`, `short` or `int` (signed or unsigned, scalar or vector) and `lo` of the unsigned type of the same shape, e.g. `upsample(short hi, ushort lo)`"),
            );
            return Some(None);
        };
        let t = hi.ty.with_elem(wk);
        self.bi(b, vec![hi, lo], t, span)
    }

    /// `shuffle(x, mask)` and `shuffle2(x, y, mask)` (OpenCL C 6.13.12).
    pub(super) fn shuffle(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let two = name == "shuffle2";
        if !self.arity(name, &args, &[if two { 3 } else { 2 }], span) {
            return Some(None);
        }
        let args: Vec<Expr> = args.into_iter().map(|a| self.decay(a)).collect();
        let (data, mask) = args.split_at(args.len() - 1);
        let mask = &mask[0];
        let lanes_ok = |n: u8| matches!(n, 2 | 4 | 8 | 16);
        let Type::Vector(k, n) = data[0].ty.clone() else {
            let t = self.type_name(&data[0].ty);
            self.error(
                Diagnostic::error(
                    data[0].span,
                    format!("`{name}` shuffles a vector, not `{t}`"),
                )
                .note("its data argument is a vector of 2, 4, 8 or 16 components"),
            );
            return Some(None);
        };
        if !lanes_ok(n) || (two && data[1].ty != data[0].ty) {
            let t = self.type_name(&data[0].ty);
            self.error(
                Diagnostic::error(span, format!("`{name}` is not defined for `{t}` here"))
                    .note("its data arguments are vectors of 2, 4, 8 or 16 components, both of the same type for `shuffle2`"),
            );
            return Some(None);
        }
        let mask_ok = match &mask.ty {
            Type::Vector(mk, m) => {
                lanes_ok(*m)
                    && mk.is_integer()
                    && !mk.is_signed()
                    && mk.size_bytes() == k.size_bytes()
            }
            _ => false,
        };
        if !mask_ok {
            let (x, y) = (self.type_name(&mask.ty), self.type_name(&data[0].ty));
            self.error(
                Diagnostic::error(mask.span, format!("the mask `{x}` of `{name}` does not fit `{y}`"))
                    .note("the mask is an unsigned integer vector of 2, 4, 8 or 16 components, each the size of a data component (e.g. `uint4` for `float4`)"),
            );
            return Some(None);
        }
        let Type::Vector(_, m) = mask.ty else {
            return Some(None);
        };
        let b = if two {
            Builtin::Shuffle2
        } else {
            Builtin::Shuffle
        };
        self.bi(b, args, Type::Vector(k, m), span)
    }

    /// `nan(code)`: `uint` (vector) to the `float` of its shape.
    pub(super) fn nan_fn(&mut self, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        if !self.arity("nan", &args, &[1], span) {
            return Some(None);
        }
        let a = self.decay(args.into_iter().next().expect("arity"));
        if a.ty.elem_kind() != Some(ScalarKind::UInt) {
            let t = self.type_name(&a.ty);
            self.error(
                Diagnostic::error(a.span, format!("`nan` is not defined for `{t}`"))
                    .note("its argument is a `uint` or `uintN` (the NaN's code); `ulong` (for `double`) and `ushort` (for `half`) need those types"),
            );
            return Some(None);
        }
        let t = a.ty.with_elem(ScalarKind::Float);
        self.bi(Builtin::Nan, vec![a], t, span)
    }

    pub(super) fn select(&mut self, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        if !self.arity("select", &args, &[3], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let (a, b) = (it.next().expect("arity"), it.next().expect("arity"));
        let c = self.decay(it.next().expect("arity"));
        let (mut xs, t) = self.gentype("select", vec![a, b], false, false, span)?;
        if !c.ty.is_integer() {
            let tn = self.type_name(&c.ty);
            self.err(
                c.span,
                format!(
                    "the condition of `select` must be an integer type, not `{}`",
                    tn
                ),
            );
            return Some(None);
        }
        let c = match (&t, &c.ty) {
            (Type::Vector(k, n), Type::Vector(ck, cn)) => {
                if n != cn || k.size_bytes() != ck.size_bytes() {
                    let (x, y) = (self.type_name(&t), self.type_name(&c.ty));
                    self.error(
                        Diagnostic::error(c.span, format!("the condition `{}` of `select` does not match `{}`", y, x))
                            .note("it needs the same number of components, each of the same size (e.g. `int4` for `float4`)"),
                    );
                    return Some(None);
                }
                c
            }
            (Type::Vector(..), Type::Scalar(_)) => {
                self.error(
                    Diagnostic::error(c.span, "a vector `select` needs a vector condition")
                        .note("for a scalar condition use `c ? b : a`"),
                );
                return Some(None);
            }
            (Type::Scalar(k), Type::Scalar(_)) => {
                let ct = Type::Scalar(k.to_signed_int());
                let c = self.promote(c);
                self.cast(c, &ct, CastKind::Implicit)
            }
            _ => {
                self.err(c.span, "a scalar `select` needs a scalar condition");
                return Some(None);
            }
        };
        xs.push(c);
        self.bi(Builtin::Select, xs, t, span)
    }

    /// `min`, `max`, `clamp`, `mad` and `abs`: gentype overloads with a fixed arity.
    pub(super) fn common_fn(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        match name {
            "min" | "max" => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, false, false, span)?;
                let b = if name == "min" {
                    Builtin::Min
                } else {
                    Builtin::Max
                };
                self.bi(b, xs, t, span)
            }
            "clamp" => {
                if !self.arity(name, &args, &[3], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, false, false, span)?;
                self.bi(Builtin::Clamp, xs, t, span)
            }
            "mad" => {
                if !self.arity(name, &args, &[3], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                self.bi(Builtin::Mad, xs, t, span)
            }
            "abs" => {
                if !self.arity(name, &args, &[1], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                let k = t.elem_kind().expect("int").to_unsigned();
                self.bi(Builtin::Abs, xs, t.with_elem(k), span)
            }
            _ => unreachable!("called for min, max, clamp, mad and abs"),
        }
    }
}
