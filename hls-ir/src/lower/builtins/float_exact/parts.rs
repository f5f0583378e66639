//! `maxmag`, `minmag`, `nextafter`, `ilogb`, and the two-result `fract`, `modf` and `frexp`
//! (the second result written through the pointer argument), on the bits of `float` lanes.

use super::{Integral, CANONICAL_NAN, F32, FRAC, INF, MAG, SIGN};
use crate::ids::OpId;
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp, UnOp};
use crate::types::Ty;
use frontend::ast::{Expr, MathFn, Type};
use frontend::span::Span;

/// The largest float below 1 (`0x1.fffffep-1f`), the bound of `fract`.
const BELOW_ONE: u64 = 0x3f7f_ffff;

impl Lower<'_> {
    /// `maxmag(x, y)` (`max`) or `minmag`: the argument of larger (smaller) magnitude,
    /// `fmax` (`fmin`) when the magnitudes tie or one is NaN.
    pub(super) fn mag(&mut self, max: bool, x: OpId, y: OpId, span: Span) -> OpId {
        let (ax, ay) = (
            self.funary(UnOp::FAbs, x, span),
            self.funary(UnOp::FAbs, y, span),
        );
        let (take_x, take_y, tie) = if max {
            (CmpOp::FGt, CmpOp::FLt, BinOp::FMax)
        } else {
            (CmpOp::FLt, CmpOp::FGt, BinOp::FMin)
        };
        let cx = self.fcmp(take_x, ax, ay, span);
        let cy = self.fcmp(take_y, ax, ay, span);
        let t = self.fbin(tie, x, y, span);
        let r = self.select(cy, y, t, span);
        let r = self.select(cx, x, r, span);
        // A selected argument as the device delivers it (a denormal as a zero).
        let p = self.fields(r, span);
        let r = self.canonical_bits(&p, span);
        self.as_float(r, span)
    }

    /// `nextafter(x, y)`: the float next to `x` towards `y`; `y` if they are equal, NaN if
    /// either is. The step from a zero (the smallest denormal) and to a denormal is flushed.
    pub(super) fn nextafter(&mut self, x: OpId, y: OpId, span: Span) -> OpId {
        let px = self.fields(x, span);
        let py = self.fields(y, span);
        let up = self.fcmp(CmpOp::FGt, y, x, span);
        let eq = self.fcmp(CmpOp::FEq, x, y, span);
        // Away from zero when the direction and the sign of `x` agree.
        let down = self.not1(up, span);
        let away = self.select(px.neg, down, up, span);
        let one = self.c32(1, span);
        let inc = self.bin(BinOp::Add, px.bits, one, span);
        let dec = self.bin(BinOp::Sub, px.bits, one, span);
        let stepped = self.select(away, inc, dec, span);
        let sp = self.fields(stepped, span);
        let stepped = self.canonical_bits(&sp, span);
        let (plus0, minus0) = (self.c32(0, span), self.c32(SIGN, span));
        let from_zero = self.select(up, plus0, minus0, span);
        let r = self.select(px.zero, from_zero, stepped, span);
        let yc = self.canonical_bits(&py, span);
        let r = self.select(eq, yc, r, span);
        let nan = self.or1(px.nan, py.nan, span);
        let cn = self.c32(CANONICAL_NAN, span);
        let r = self.select(nan, cn, r, span);
        self.as_float(r, span)
    }

    /// `ilogb(x)`: the unbiased exponent; `INT_MIN` (`FP_ILOGB0`) for ±0, `INT_MAX`
    /// (`FP_ILOGBNAN`) for NaN and for ±inf.
    pub(super) fn ilogb(&mut self, x: OpId, span: Span) -> OpId {
        let p = self.fields(x, span);
        let e = self.bin_c(BinOp::Sub, p.exp, 127, span);
        let min = self.c32(0x8000_0000, span);
        let r = self.select(p.zero, min, e, span);
        let special = self.cmp_c(CmpOp::Eq, p.exp, 255, span);
        let max = self.c32(0x7fff_ffff, span);
        self.select(special, max, r, span)
    }

    /// `fract`, `modf` or `frexp`: the result lanes, and the second result's lanes written
    /// through the pointer argument.
    pub(super) fn two_results(&mut self, f: MathFn, args: &[Expr], ty: &Type, span: Span) -> Val {
        let xs = self.lanes_of_expr(&args[0]);
        let mut first = Vec::new();
        let mut second = Vec::new();
        for x in xs {
            let (r, s) = match f {
                MathFn::Fract => self.fract(x, span),
                MathFn::Modf => self.modf(x, span),
                _ => self.frexp(x, span),
            };
            first.push(r);
            second.push(s);
        }
        let Type::Pointer { pointee, .. } = &args[1].ty else {
            self.unsupported(span, format!("`{}` without a pointer argument", f.name()));
            return self.dummy(ty, span);
        };
        let pointee = (**pointee).clone();
        if let Some(place) = self.pointer_place(&args[1]) {
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

    /// `fract(x)`: `fmin(x - floor(x), 0x1.fffffep-1f)` (±0 for ±0 and ±inf), and `floor(x)`.
    fn fract(&mut self, x: OpId, span: Span) -> (OpId, OpId) {
        let p = self.fields(x, span);
        let fl = self.integral(x, Integral::Floor, span);
        let d = self.fbin(BinOp::FSub, x, fl, span);
        let below_one = self.konst(BELOW_ONE, F32, span);
        let d = self.fbin(BinOp::FMin, d, below_one, span);
        let d = self.fit(d, Ty::I32, span);
        let inf = self.cmp_c(CmpOp::Eq, p.mag, INF, span);
        let zero_like = self.or1(p.zero, inf, span);
        let r = self.select(zero_like, p.sign, d, span);
        let cn = self.c32(CANONICAL_NAN, span);
        let r = self.select(p.nan, cn, r, span);
        (self.as_float(r, span), fl)
    }

    /// `modf(x)`: the fraction `x - trunc(x)` (exact) with the sign of `x` (±0 for ±inf), and
    /// `trunc(x)`.
    fn modf(&mut self, x: OpId, span: Span) -> (OpId, OpId) {
        let p = self.fields(x, span);
        let t = self.integral(x, Integral::Trunc, span);
        let d = self.fbin(BinOp::FSub, x, t, span);
        let d = self.fit(d, Ty::I32, span);
        let d = self.bin_c(BinOp::And, d, MAG, span);
        let d = self.bin(BinOp::Or, d, p.sign, span);
        let inf = self.cmp_c(CmpOp::Eq, p.mag, INF, span);
        let r = self.select(inf, p.sign, d, span);
        let cn = self.c32(CANONICAL_NAN, span);
        let r = self.select(p.nan, cn, r, span);
        (self.as_float(r, span), t)
    }

    /// `frexp(x)`: `x = m * 2^e` with `0.5 <= |m| < 1`, (`m`, `e`); ±0, ±inf and NaN give
    /// themselves (NaN canonical) and `e = 0`.
    fn frexp(&mut self, x: OpId, span: Span) -> (OpId, OpId) {
        let p = self.fields(x, span);
        let keep = self.bin_c(BinOp::And, p.bits, SIGN | FRAC, span);
        let m = self.bin_c(BinOp::Or, keep, 126 << 23, span);
        let e = self.bin_c(BinOp::Sub, p.exp, 126, span);
        let special = self.cmp_c(CmpOp::Eq, p.exp, 255, span);
        let none = self.or1(p.zero, special, span);
        let canon = self.canonical_bits(&p, span);
        let m = self.select(none, canon, m, span);
        let zero = self.c32(0, span);
        let e = self.select(none, zero, e, span);
        (self.as_float(m, span), e)
    }
}
