//! Powers and roots: `pow`, `powr`, `pown`, `rootn`, and `rsqrt`, `hypot` (`cbrt` has its own
//! module).
//!
//! All powers are `2^(y * log2|x|)` with both factors as pairs: `log2|x|` from
//! [`Fb::log2_dd`] (about 2^-29.7 relative), the exponent `y` exact (`pown`'s `int` split into a
//! multiple of 256 and a remainder when it has more than 24 bits) or `1/n` as a pair
//! (`rootn`), the product by [`Fb::mul_dd`] and the power by [`Fb::exp2_dd`]. The
//! product's relative error is that of the `log2` pair, about 2^-29.7, so its absolute error
//! grows with `|y log2|x||` up to about 2^-22 near the overflow and underflow thresholds: a few
//! ulp on top of `exp2_dd`'s 1.4 (measured maxima over 10^6 inputs each: `powr` 5.2, `pown`
//! 4.8, `pow` 3.8, `rootn` 1.5 ulp; bound 16). The special values (zeros, infinities, NaN,
//! ±1, negative bases and the parity of integer exponents) follow the OpenCL C specification's rules and are
//! selected after the core.
//!
//! `rsqrt` is `1 / sqrt(x)` (two roundings: below 1.5 ulp). `hypot` scales the larger
//! magnitude's significand to `[1, 2)` and the smaller by the same power of two (integer
//! exponent arithmetic, no overflow or underflow), takes `sqrt(a^2 + b^2)` (four roundings,
//! below 1.5 ulp) and scales back.

use super::{Dd, Fb};
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp, UnOp};

impl Fb<'_, '_> {
    /// `|x|^y` for a non-NaN `x` and `y` (`y` a pair, `y_neg` its sign): the core, with
    /// `0^y`, `inf^y` and `1^y` selected.
    fn pow_mag(&mut self, ax: OpId, y: Dd, y_neg: OpId) -> OpId {
        let l = self.log2_dd(ax);
        let t = self.mul_dd(l, y);
        let core = self.exp2_dd(t);
        let zero = self.fcmpc(CmpOp::FEq, ax, 0.0);
        let inf = self.fcmpc(CmpOp::FEq, ax, f64::INFINITY);
        let one = self.fcmpc(CmpOp::FEq, ax, 1.0);
        // 0^y is +inf for y < 0 and +0 for y > 0; inf^y the other way round.
        let y_pos = self.not1(y_neg);
        let to_inf = self.sel(zero, y_neg, y_pos);
        let pinf = self.inf();
        let pzero = self.f(0.0);
        let edge_v = self.sel(to_inf, pinf, pzero);
        let edge = self.or1(zero, inf);
        let v = self.sel(edge, edge_v, core);
        let onev = self.f(1.0);
        self.sel(one, onev, v)
    }

    /// Whether float `y` is an integer, and whether it is an odd one (infinities count as
    /// even integers).
    fn int_parity(&mut self, y: OpId) -> (OpId, OpId) {
        let b = self.bits(y);
        let iy = self.ibinc(BinOp::And, b, 0x7fff_ffff);
        let e = self.ibinc(BinOp::ShrU, iy, 23);
        let e = self.ibinc(BinOp::Sub, e, 127);
        // Fraction bits below the binary point: the low 23 - e bits, for 0 <= e <= 22.
        let ef = self.ibinc(BinOp::MaxS, e, 0);
        let ef = self.ibinc(BinOp::MinS, ef, 22);
        let fs = self.ibinc(BinOp::Add, ef, 9);
        let frac = self.ibin(BinOp::Shl, iy, fs);
        let frac0 = self.icmpc(CmpOp::Eq, frac, 0);
        let in_range = self.icmpc(CmpOp::GeS, e, 0);
        let small_int = self.and1(in_range, frac0);
        let big = self.icmpc(CmpOp::GeS, e, 23);
        let is_int = self.or1(big, small_int);
        // The units bit: bit 23 - e of the significand (the exponent's low bit when e = 0).
        let eo = self.ibinc(BinOp::MaxS, e, 0);
        let eo = self.ibinc(BinOp::MinS, eo, 23);
        let os = self.ibinc(BinOp::Add, eo, 8);
        let ob = self.ibin(BinOp::Shl, iy, os);
        let ob = self.icmpc(CmpOp::LtS, ob, 0);
        let le23 = self.icmpc(CmpOp::LeS, e, 23);
        let odd = self.and1(is_int, le23);
        let odd = self.and1(odd, ob);
        (is_int, odd)
    }

    fn neg_if(&mut self, c: OpId, v: OpId) -> OpId {
        let n = self.un(UnOp::FNeg, v);
        self.sel(c, n, v)
    }

    fn nan_if(&mut self, c: OpId, v: OpId) -> OpId {
        let nan = self.nan();
        self.sel(c, nan, v)
    }

    fn either_nan(&mut self, x: OpId, y: OpId) -> OpId {
        let a = self.is_nan(x);
        let b = self.is_nan(y);
        self.or1(a, b)
    }

    pub(super) fn pow(&mut self, x: OpId, y: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let y_neg = self.fcmpc(CmpOp::FLt, y, 0.0);
        let zero = self.f(0.0);
        let mag = self.pow_mag(ax, (y, zero), y_neg);
        let (is_int, odd) = self.int_parity(y);
        let xneg = self.sign_bit(x);
        let flip = self.and1(xneg, odd);
        let v = self.neg_if(flip, mag);
        // A negative finite non-zero base with a non-integer exponent.
        let ax_zero = self.fcmpc(CmpOp::FEq, ax, 0.0);
        let ax_inf = self.fcmpc(CmpOp::FEq, ax, f64::INFINITY);
        let edge = self.or1(ax_zero, ax_inf);
        let not_int = self.not1(is_int);
        let bad = self.and1(xneg, not_int);
        let not_edge = self.not1(edge);
        let bad = self.and1(bad, not_edge);
        let nan = self.either_nan(x, y);
        let bad = self.or1(bad, nan);
        let v = self.nan_if(bad, v);
        // pow(+1, y) = 1 and pow(x, ±0) = 1, even for NaN.
        let x1 = self.fcmpc(CmpOp::FEq, x, 1.0);
        let y0 = self.fcmpc(CmpOp::FEq, y, 0.0);
        let one_case = self.or1(x1, y0);
        let one = self.f(1.0);
        self.sel(one_case, one, v)
    }

    pub(super) fn powr(&mut self, x: OpId, y: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let y_neg = self.fcmpc(CmpOp::FLt, y, 0.0);
        let zero = self.f(0.0);
        let mag = self.pow_mag(ax, (y, zero), y_neg);
        let y0 = self.fcmpc(CmpOp::FEq, y, 0.0);
        let one = self.f(1.0);
        let v = self.sel(y0, one, mag);
        // NaN: NaN arguments, x < 0, 0^0, inf^0, 1^inf.
        let mut bad = self.either_nan(x, y);
        let xneg = self.fcmpc(CmpOp::FLt, x, 0.0);
        bad = self.or1(bad, xneg);
        let ax_zero = self.fcmpc(CmpOp::FEq, ax, 0.0);
        let ax_inf = self.fcmpc(CmpOp::FEq, ax, f64::INFINITY);
        let zi = self.or1(ax_zero, ax_inf);
        let zi0 = self.and1(zi, y0);
        bad = self.or1(bad, zi0);
        let x1 = self.fcmpc(CmpOp::FEq, ax, 1.0);
        let ay = self.un(UnOp::FAbs, y);
        let yinf = self.fcmpc(CmpOp::FEq, ay, f64::INFINITY);
        let one_inf = self.and1(x1, yinf);
        bad = self.or1(bad, one_inf);
        self.nan_if(bad, v)
    }

    /// The `int` `n` as an exact pair of floats.
    fn int_dd(&mut self, n: OpId) -> Dd {
        let nf = self.sitof(n);
        let hi = self.ibinc(BinOp::And, n, !0xff);
        let lo = self.ibinc(BinOp::And, n, 0xff);
        let hf = self.sitof(hi);
        let lf = self.sitof(lo);
        let big_p = self.icmpc(CmpOp::GtS, n, 0xff_ffff);
        let big_n = self.icmpc(CmpOp::LtS, n, -0xff_ffff);
        let big = self.or1(big_p, big_n);
        let zero = self.f(0.0);
        let h = self.sel(big, hf, nf);
        let l = self.sel(big, lf, zero);
        (h, l)
    }

    pub(super) fn pown(&mut self, x: OpId, n: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let y = self.int_dd(n);
        let n_neg = self.icmpc(CmpOp::LtS, n, 0);
        let mag = self.pow_mag(ax, y, n_neg);
        let odd = self.ibinc(BinOp::And, n, 1);
        let odd = self.icmpc(CmpOp::Ne, odd, 0);
        let xneg = self.sign_bit(x);
        let flip = self.and1(xneg, odd);
        let v = self.neg_if(flip, mag);
        let isnan = self.is_nan(x);
        let v = self.nan_if(isnan, v);
        let n0 = self.icmpc(CmpOp::Eq, n, 0);
        let one = self.f(1.0);
        self.sel(n0, one, v)
    }

    pub(super) fn rootn(&mut self, x: OpId, n: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        // 1/n as a pair: r_h = 1/n rounded, r_l = (1 - r_h * n) / n with the product exact.
        let nf = self.sitof(n);
        let one = self.f(1.0);
        let rh = self.div(one, nf);
        let (p, pe) = self.two_prod(rh, nf);
        let e = self.sub(one, p);
        let e = self.sub(e, pe);
        let rl = self.mul(e, rh);
        let n_neg = self.icmpc(CmpOp::LtS, n, 0);
        let mag = self.pow_mag(ax, (rh, rl), n_neg);
        let odd = self.ibinc(BinOp::And, n, 1);
        let odd = self.icmpc(CmpOp::Ne, odd, 0);
        let xneg = self.sign_bit(x);
        let flip = self.and1(xneg, odd);
        let v = self.neg_if(flip, mag);
        // NaN: NaN x, n = 0, x < 0 with n even.
        let isnan = self.is_nan(x);
        let n0 = self.icmpc(CmpOp::Eq, n, 0);
        let lt0 = self.fcmpc(CmpOp::FLt, x, 0.0);
        let even = self.not1(odd);
        let neg_even = self.and1(lt0, even);
        let bad = self.or1(isnan, n0);
        let bad = self.or1(bad, neg_even);
        self.nan_if(bad, v)
    }

    pub(super) fn rsqrt(&mut self, x: OpId) -> OpId {
        let s = self.un(UnOp::FSqrt, x);
        let one = self.f(1.0);
        self.div(one, s)
    }

    pub(super) fn hypot(&mut self, x: OpId, y: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let ay = self.un(UnOp::FAbs, y);
        let a = self.fmax(ax, ay);
        let b = self.fmin(ax, ay);
        // a = 2^(E-127) * a1 with a1 in [1, 2); b scaled by the same power of two.
        let ab = self.bits(a);
        let ea = self.ibinc(BinOp::ShrU, ab, 23);
        let am = self.ibinc(BinOp::And, ab, 0x7f_ffff);
        let am = self.ibinc(BinOp::Or, am, 0x3f80_0000);
        let a1 = self.float_of_bits(am);
        let bb = self.bits(b);
        let eb = self.ibinc(BinOp::ShrU, bb, 23);
        let eb1 = self.ibin(BinOp::Sub, eb, ea);
        let eb1 = self.ibinc(BinOp::Add, eb1, 127);
        let bm = self.ibinc(BinOp::And, bb, 0x7f_ffff);
        let be = self.ibinc(BinOp::Shl, eb1, 23);
        let bm = self.ibin(BinOp::Or, bm, be);
        let b1 = self.float_of_bits(bm);
        let b_ok = self.icmpc(CmpOp::GeS, eb1, 1);
        let b_normal = self.icmpc(CmpOp::GeS, eb, 1);
        let b_ok = self.and1(b_ok, b_normal);
        let zero = self.f(0.0);
        let b1 = self.sel(b_ok, b1, zero);
        let a2 = self.mul(a1, a1);
        let b2 = self.mul(b1, b1);
        let s2 = self.add(a2, b2);
        let s = self.un(UnOp::FSqrt, s2);
        let n = self.ibinc(BinOp::Sub, ea, 127);
        let v = self.scale2(s, n);
        let a_zero = self.icmpc(CmpOp::Eq, ea, 0);
        let v = self.sel(a_zero, zero, v);
        // hypot(±inf, y) = +inf even for a NaN y; else NaN for a NaN argument.
        let nan = self.either_nan(x, y);
        let v = self.nan_if(nan, v);
        let xi = self.fcmpc(CmpOp::FEq, ax, f64::INFINITY);
        let yi = self.fcmpc(CmpOp::FEq, ay, f64::INFINITY);
        let inf = self.or1(xi, yi);
        let pinf = self.inf();
        self.sel(inf, pinf, v)
    }
}
