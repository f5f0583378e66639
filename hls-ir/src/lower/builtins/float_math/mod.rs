//! The exponential, logarithm and power built-ins of `float` (`exp`, `exp2`, `exp10`, `expm1`,
//! `log`, `log2`, `log10`, `log1p`, `pow`, `powr`, `pown`, `rootn`, `cbrt`, `rsqrt`, `hypot`,
//! and their `native_`/`half_` forms), built from the float units and integer bit plumbing:
//! no new hardware unit, so the scheduler pipelines each function like any other expression.
//!
//! The building blocks (this module) are double-float ("dd") arithmetic on pairs `hi + lo` of
//! floats: a float is split exactly into two halves of at most 12 significant bits by masking
//! its 12 low fraction bits (`mask12`), so the product of two halves is exact and
//! [`Fb::two_prod`] gives `a * b` as an exact pair (Dekker's product, without a fused
//! multiply-add). `exp_log` builds `log2(x)` as a pair accurate to about 2^-29 relative and
//! `2^(hi + lo)` to about 1.4 ulp; `pow` composes them. Each function's error bound
//! is in its module's documentation; the ulp counts measured over millions of inputs are in
//! `docs/benchmarks.md` ("Float math accuracy"). Denormal inputs count as zeros and denormal
//! results flush to zero, as the float units do (docs/hardware-interface.md).
//!
//! The trigonometric (`trig`, `inverse`, `inverse_pi`) and hyperbolic (`hyperbolic`) functions reuse these
//! blocks; `exact` builds `fma`, `fmod`, `remainder` and `remquo` exactly from integer
//! operations. `sincos`, `remquo` and `lgamma_r` write their second result through their
//! pointer; `erf` builds `erf` and `erfc` on the exponential's reduction; `gamma` builds
//! `tgamma`, `lgamma` and `lgamma_r` on Stirling's series.

mod cbrt;
mod common;
mod erf;
mod exact;
mod exp_log;
mod gamma;
mod hyperbolic;
mod inverse;
mod inverse_pi;
mod pow;
mod trig;

pub(in crate::lower::builtins) use common::{is_common, is_geometric};
use trig::Trig;

use crate::ids::OpId;
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use crate::types::Ty;
use frontend::ast::{Expr, MathFn, ScalarKind, Type};
use frontend::span::Span;

/// A double-float `hi + lo` with `|lo|` well below an ulp of `hi`.
pub(super) type Dd = (OpId, OpId);

const F32: Ty = Ty::Float(32);
/// The float every NaN an operation produces is (docs/hardware-interface.md).
const NAN_BITS: u32 = 0x7fc0_0000;

/// Whether `f` is one of the functions built here.
pub(super) fn is_built(f: MathFn) -> bool {
    use MathFn as M;
    matches!(
        f,
        M::Exp
            | M::Exp2
            | M::Exp10
            | M::Expm1
            | M::Log
            | M::Log2
            | M::Log10
            | M::Log1p
            | M::Pow
            | M::Powr
            | M::Pown
            | M::Rootn
            | M::Cbrt
            | M::Rsqrt
            | M::Hypot
            | M::Fma
            | M::Fmod
            | M::Remainder
            | M::Sin
            | M::Cos
            | M::Tan
            | M::Sinpi
            | M::Cospi
            | M::Tanpi
            | M::Asin
            | M::Acos
            | M::Atan
            | M::Atan2
            | M::Asinpi
            | M::Acospi
            | M::Atanpi
            | M::Atan2pi
            | M::Sincos
            | M::Remquo
            | M::Erf
            | M::Erfc
            | M::Sinh
            | M::Cosh
            | M::Tanh
            | M::Asinh
            | M::Acosh
            | M::Atanh
            | M::Tgamma
            | M::Lgamma
            | M::LgammaR
    )
}

impl Lower<'_> {
    /// The built-in `f` (see [`is_built`]) lane by lane; `double` and `half` arguments are
    /// one diagnostic.
    pub(in crate::lower::builtins) fn float_math_fn(
        &mut self,
        f: MathFn,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        if let Some(v) = self.not_single(f, args, ty, span) {
            return v;
        }
        if matches!(f, MathFn::Sincos | MathFn::Remquo | MathFn::LgammaR) {
            return self.float_math_ptr_out(f, args, ty, span);
        }
        self.lane_map(args, ty, span, |l, x| {
            let mut b = Fb { l, span };
            b.apply(f, x)
        })
    }

    /// The relational and common functions of `float` ([`is_common`]) lane by lane; a
    /// relational lane is 1 in a scalar, all ones in a vector.
    pub(in crate::lower::builtins) fn float_common_fn(
        &mut self,
        f: MathFn,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        if let Some(v) = self.not_single(f, args, ty, span) {
            return v;
        }
        let relational = matches!(
            f.class(),
            frontend::ast::MathClass::FRel1 | frontend::ast::MathClass::FRel2
        );
        let elem = crate::lower::scalar_ty(ty.elem_kind().unwrap_or(ScalarKind::Int));
        let vector = ty.is_vector();
        self.lane_map(args, ty, span, |l, x| {
            let mut b = Fb { l, span };
            if relational {
                let t = b.relational(f, x);
                let yes = b.l.konst(if vector { u64::MAX } else { 1 }, elem, span);
                let no = b.l.konst(0, elem, span);
                b.l.select(t, yes, no, span)
            } else {
                b.common(f, x)
            }
        })
    }

    /// The geometric functions of `float` ([`is_geometric`]): from all lanes of the
    /// arguments, a scalar or a vector.
    pub(in crate::lower::builtins) fn float_geometric_fn(
        &mut self,
        f: MathFn,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        if let Some(v) = self.not_single(f, args, ty, span) {
            return v;
        }
        let x = self.lanes_of_expr(&args[0]);
        let y = match args.get(1) {
            Some(a) => self.lanes_of_expr(a),
            None => x.clone(),
        };
        let mut b = Fb { l: self, span };
        let r = b.geometric(f, &x, &y);
        if ty.is_vector() {
            self.vector(r)
        } else {
            Val::Scalar(r[0])
        }
    }

    /// The diagnostic (and a dummy value) when the arguments of `f` are not `float`.
    fn not_single(&mut self, f: MathFn, args: &[Expr], ty: &Type, span: Span) -> Option<Val> {
        let kind = args.first().and_then(|a| a.ty.elem_kind());
        if kind == Some(ScalarKind::Float) {
            return None;
        }
        for a in args {
            self.rvalue(a);
        }
        self.unsupported(
            span,
            format!(
                "`{}` of `{}` (only single-precision `float` is built in hardware)",
                f.name(),
                kind.map_or("?", |k| k.name())
            ),
        );
        Some(self.dummy(ty, span))
    }

    /// `sincos`, `remquo` and `lgamma_r`: the result lanes, and the second result's lanes written through
    /// the pointer (the last argument).
    fn float_math_ptr_out(&mut self, f: MathFn, args: &[Expr], ty: &Type, span: Span) -> Val {
        let (p, xs) = args.split_last().expect("a pointer argument");
        let lanes: Vec<Vec<OpId>> = xs.iter().map(|a| self.lanes_of_expr(a)).collect();
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for i in 0..ty.lanes() as usize {
            let x: Vec<OpId> = lanes.iter().map(|l| l[i.min(l.len() - 1)]).collect();
            let mut b = Fb { l: self, span };
            let (r, s) = match f {
                MathFn::Sincos => b.sincos(x[0]),
                MathFn::LgammaR => b.lgamma_r(x[0]),
                _ => b.remquo(x[0], x[1]),
            };
            first.push(r);
            second.push(s);
        }
        let Type::Pointer { pointee, .. } = &p.ty else {
            self.unsupported(span, format!("`{}` without a pointer argument", f.name()));
            return self.dummy(ty, span);
        };
        let pointee = (**pointee).clone();
        if let Some(place) = self.pointer_place(p) {
            let v = if ty.is_vector() {
                self.vector(second)
            } else {
                Val::Scalar(second[0])
            };
            self.write_place(place, v, &pointee, span);
        }
        if ty.is_vector() {
            self.vector(first)
        } else {
            Val::Scalar(first[0])
        }
    }
}

/// Builds float math from IR ops at one source span.
pub(super) struct Fb<'a, 'b> {
    pub(super) l: &'a mut Lower<'b>,
    pub(super) span: Span,
}

impl Fb<'_, '_> {
    fn apply(&mut self, f: MathFn, x: &[OpId]) -> OpId {
        use MathFn as M;
        match f {
            M::Exp => self.exp(x[0]),
            M::Exp2 => self.exp2(x[0]),
            M::Exp10 => self.exp10(x[0]),
            M::Expm1 => self.expm1(x[0]),
            M::Log => self.log_base(x[0], std::f64::consts::LN_2),
            M::Log2 => self.log_base(x[0], 1.0),
            M::Log10 => self.log_base(x[0], std::f64::consts::LOG10_2),
            M::Log1p => self.log1p(x[0]),
            M::Pow => self.pow(x[0], x[1]),
            M::Powr => self.powr(x[0], x[1]),
            M::Pown => self.pown(x[0], x[1]),
            M::Rootn => self.rootn(x[0], x[1]),
            M::Cbrt => self.cbrt(x[0]),
            M::Hypot => self.hypot(x[0], x[1]),
            M::Fma => self.fma(x[0], x[1], x[2]),
            M::Fmod => self.fmod_rem(x[0], x[1], false),
            M::Remainder => self.fmod_rem(x[0], x[1], true),
            M::Sin => self.trig(Trig::Sin, x[0]),
            M::Cos => self.trig(Trig::Cos, x[0]),
            M::Tan => self.trig(Trig::Tan, x[0]),
            M::Sinpi => self.trig_pi(Trig::Sin, x[0]),
            M::Cospi => self.trig_pi(Trig::Cos, x[0]),
            M::Tanpi => self.trig_pi(Trig::Tan, x[0]),
            M::Asin => self.asin(x[0]),
            M::Acos => self.acos(x[0]),
            M::Atan => self.atan(x[0]),
            M::Atan2 => self.atan2(x[0], x[1]),
            M::Asinpi => self.asinpi(x[0]),
            M::Acospi => self.acospi(x[0]),
            M::Atanpi => self.atanpi(x[0]),
            M::Atan2pi => self.atan2pi(x[0], x[1]),
            M::Erf => self.erf(x[0]),
            M::Erfc => self.erfc(x[0]),
            M::Sinh => self.sinh(x[0]),
            M::Cosh => self.cosh(x[0]),
            M::Tanh => self.tanh(x[0]),
            M::Asinh => self.asinh(x[0]),
            M::Acosh => self.acosh(x[0]),
            M::Atanh => self.atanh(x[0]),
            M::Tgamma => self.tgamma(x[0]),
            M::Lgamma => self.lgamma_r(x[0]).0,
            _ => self.rsqrt(x[0]),
        }
    }

    // ---- constants and plain operations ----

    /// The float constant nearest `v`.
    pub(super) fn f(&mut self, v: f64) -> OpId {
        self.fbits((v as f32).to_bits())
    }
    pub(super) fn fbits(&mut self, b: u32) -> OpId {
        self.l.konst(b as u64, F32, self.span)
    }
    pub(super) fn nan(&mut self) -> OpId {
        self.fbits(NAN_BITS)
    }
    pub(super) fn inf(&mut self) -> OpId {
        self.f(f64::INFINITY)
    }
    pub(super) fn i(&mut self, v: i64) -> OpId {
        self.l.konst(v as u64, Ty::I32, self.span)
    }
    fn fop(&mut self, op: BinOp, a: OpId, b: OpId) -> OpId {
        self.l.fbin(op, a, b, self.span)
    }
    pub(super) fn add(&mut self, a: OpId, b: OpId) -> OpId {
        self.fop(BinOp::FAdd, a, b)
    }
    pub(super) fn sub(&mut self, a: OpId, b: OpId) -> OpId {
        self.fop(BinOp::FSub, a, b)
    }
    pub(super) fn mul(&mut self, a: OpId, b: OpId) -> OpId {
        self.fop(BinOp::FMul, a, b)
    }
    pub(super) fn div(&mut self, a: OpId, b: OpId) -> OpId {
        self.fop(BinOp::FDiv, a, b)
    }
    pub(super) fn fmin(&mut self, a: OpId, b: OpId) -> OpId {
        self.fop(BinOp::FMin, a, b)
    }
    pub(super) fn fmax(&mut self, a: OpId, b: OpId) -> OpId {
        self.fop(BinOp::FMax, a, b)
    }
    /// `a + c` with `c` a constant.
    pub(super) fn addc(&mut self, a: OpId, c: f64) -> OpId {
        let c = self.f(c);
        self.add(a, c)
    }
    /// `a * c` with `c` a constant.
    pub(super) fn mulc(&mut self, a: OpId, c: f64) -> OpId {
        let c = self.f(c);
        self.mul(a, c)
    }
    pub(super) fn un(&mut self, u: UnOp, a: OpId) -> OpId {
        self.l.funary(u, a, self.span)
    }
    pub(super) fn fcmp(&mut self, c: CmpOp, a: OpId, b: OpId) -> OpId {
        self.l.fcmp(c, a, b, self.span)
    }
    /// `a <c> v` with `v` a float constant.
    pub(super) fn fcmpc(&mut self, c: CmpOp, a: OpId, v: f64) -> OpId {
        let v = self.f(v);
        self.fcmp(c, a, v)
    }
    pub(super) fn is_nan(&mut self, a: OpId) -> OpId {
        self.fcmp(CmpOp::FNe, a, a)
    }
    pub(super) fn sel(&mut self, c: OpId, t: OpId, e: OpId) -> OpId {
        self.l.select(c, t, e, self.span)
    }
    pub(super) fn and1(&mut self, a: OpId, b: OpId) -> OpId {
        self.l.and1(a, b, self.span)
    }
    pub(super) fn or1(&mut self, a: OpId, b: OpId) -> OpId {
        self.l.or1(a, b, self.span)
    }
    pub(super) fn not1(&mut self, a: OpId) -> OpId {
        self.l.not1(a, self.span)
    }

    // ---- integer plumbing on the bits of a float ----

    /// The bits of float `x` as an `i32`.
    pub(super) fn bits(&mut self, x: OpId) -> OpId {
        self.l
            .op(OpKind::Convert(ConvOp::Bitcast), Ty::I32, self.span, &[x])
    }
    /// The float of bits `i`.
    pub(super) fn float_of_bits(&mut self, i: OpId) -> OpId {
        self.l
            .op(OpKind::Convert(ConvOp::Bitcast), F32, self.span, &[i])
    }
    pub(super) fn sitof(&mut self, i: OpId) -> OpId {
        self.l
            .op(OpKind::Convert(ConvOp::SIToF), F32, self.span, &[i])
    }
    pub(super) fn ibin(&mut self, op: BinOp, a: OpId, b: OpId) -> OpId {
        self.l.bin(op, a, b, self.span)
    }
    /// `a <op> v` with `v` an integer constant.
    pub(super) fn ibinc(&mut self, op: BinOp, a: OpId, v: i64) -> OpId {
        let v = self.i(v);
        self.l.bin(op, a, v, self.span)
    }
    pub(super) fn icmpc(&mut self, c: CmpOp, a: OpId, v: i64) -> OpId {
        let v = self.i(v);
        self.l.cmp(c, a, v, self.span)
    }
    /// Whether the sign bit of `x` is set (−0 and negative NaNs included).
    pub(super) fn sign_bit(&mut self, x: OpId) -> OpId {
        let b = self.bits(x);
        self.icmpc(CmpOp::LtS, b, 0)
    }

    // ---- double-float arithmetic ----

    /// `x` with its 12 low fraction bits cleared: at most 12 significant bits, so the product
    /// of two such values is exact, and `x - mask12(x)` is exact with at most 12 bits too.
    pub(super) fn mask12(&mut self, x: OpId) -> OpId {
        let b = self.bits(x);
        let m = self.ibinc(BinOp::And, b, 0xffff_f000u32 as i32 as i64);
        self.float_of_bits(m)
    }

    /// `c0 + c1 x + c2 x^2 + ...`, the coefficients rounded to float, by Estrin's scheme:
    /// pairs `c_2j + c_2j+1 x`, then pairs of those with `x^2`, `x^4`... — a chain of about
    /// `log2(n)` multiply-adds instead of Horner's `n` (the rounding errors are as small: the
    /// terms fall off geometrically in every use here).
    pub(super) fn poly(&mut self, x: OpId, c: &[f64]) -> OpId {
        let mut terms: Vec<OpId> = c
            .chunks(2)
            .map(|p| match p {
                [a, b] => {
                    let t = self.mulc(x, *b);
                    self.addc(t, *a)
                }
                _ => self.f(p[0]),
            })
            .collect();
        let mut pw = self.mul(x, x);
        while terms.len() > 1 {
            let mut next = Vec::new();
            for t in terms.chunks(2) {
                next.push(match t {
                    [lo, hi] => {
                        let h = self.mul(pw, *hi);
                        self.add(*lo, h)
                    }
                    _ => t[0],
                });
            }
            terms = next;
            if terms.len() > 1 {
                pw = self.mul(pw, pw);
            }
        }
        terms[0]
    }

    /// `u + v` as a pair for non-negative `u` and `v` (Fast2Sum on the larger first).
    pub(super) fn two_sum_pos(&mut self, u: OpId, v: OpId) -> Dd {
        let big = self.fmax(u, v);
        let small = self.fmin(u, v);
        self.fast_two_sum(big, small)
    }

    /// `u + v` as an exact pair, whatever their magnitudes (Knuth's TwoSum).
    pub(super) fn two_sum(&mut self, u: OpId, v: OpId) -> Dd {
        let s = self.add(u, v);
        let vb = self.sub(s, u);
        let ub = self.sub(s, vb);
        let du = self.sub(u, ub);
        let dv = self.sub(v, vb);
        (s, self.add(du, dv))
    }

    /// `(h, l + e)` renormalised.
    pub(super) fn add_low(&mut self, p: Dd, e: OpId) -> Dd {
        let l = self.add(p.1, e);
        self.fast_two_sum(p.0, l)
    }

    /// `a * b` as an exact pair `(p, e)`, `p` the rounded product (Dekker's product with the
    /// halves of [`Fb::mask12`]). Exact unless a partial product overflows or flushes to zero.
    pub(super) fn two_prod(&mut self, a: OpId, b: OpId) -> Dd {
        let p = self.mul(a, b);
        let ah = self.mask12(a);
        let al = self.sub(a, ah);
        let bh = self.mask12(b);
        let bl = self.sub(b, bh);
        let hh = self.mul(ah, bh);
        let hl = self.mul(ah, bl);
        let lh = self.mul(al, bh);
        let ll = self.mul(al, bl);
        let e = self.sub(hh, p);
        let e = self.add(e, hl);
        let e = self.add(e, lh);
        let e = self.add(e, ll);
        (p, e)
    }

    /// The product of two pairs, relative error about 2^-44 plus the low parts' own errors.
    pub(super) fn mul_dd(&mut self, a: Dd, b: Dd) -> Dd {
        let (p, e) = self.two_prod(a.0, b.0);
        let x = self.mul(a.0, b.1);
        let y = self.mul(a.1, b.0);
        let xy = self.add(x, y);
        (p, self.add(e, xy))
    }

    /// The pair `a * c` for a constant `c`: `c` is split in Rust into a 12-bit head and a
    /// float tail, so the head product of `mask12(a.hi)` is exact and everything else is a
    /// correction about 2^-11 of the result.
    pub(super) fn mul_dd_const(&mut self, a: Dd, c: f64) -> Dd {
        let ch = f32::from_bits((c as f32).to_bits() & 0xffff_f000);
        let cl = c - ch as f64;
        let ah = self.mask12(a.0);
        let al = self.sub(a.0, ah);
        let h = self.mulc(ah, ch as f64);
        let x = self.mulc(al, ch as f64);
        let y = self.mulc(a.0, cl);
        let z = self.mulc(a.1, c);
        let yz = self.add(y, z);
        (h, self.add(x, yz))
    }

    /// `a + b` as an exact pair, for `|a| >= |b|` or `a = 0` (Fast2Sum).
    pub(super) fn fast_two_sum(&mut self, a: OpId, b: OpId) -> Dd {
        let s = self.add(a, b);
        let back = self.sub(s, a);
        (s, self.sub(b, back))
    }

    /// `hi + lo` rounded to a float.
    pub(super) fn round_dd(&mut self, a: Dd) -> OpId {
        self.add(a.0, a.1)
    }
}
