//! `asin`, `acos`, `atan`, `atan2`.
//!
//! **atan** ([`Fb::atan_unit`], for `t` in `[0, 1]`): above `tan(pi/8)` the argument becomes
//! `(t - 1) / (t + 1)` and `pi/4` is added back (as a pair), so the polynomial sees
//! `|u| <= tan(pi/8)`: `atan u = u + u^3 P(u^2)` with a Chebyshev fit of degree 6 in `u^2`
//! (relative error 2^-35). `atan(x)` for `|x| > 1` is `pi/2 - atan(1/|x|)`; `atan2(y, x)`
//! takes `atan(min/max)` of the magnitudes and reflects it (`pi/2 - a`, `pi - a`, the sign of
//! `y`), which also gives every special value of C99 Annex F: the zeros and infinities only
//! decide `min/max` (0, or 1 for two infinities) and the reflections.
//!
//! **asin** ([`Fb::asin_core`]): `|x| <= 1/2`: `x + x^3 P(x^2)` (Chebyshev fit of degree 6,
//! relative error 2^-32). Above, `asin|x| = pi/2 - 2 asin(s)` with `s = sqrt((1 - |x|)/2)`
//! (`1 - |x|` and the halving are exact) carried as a pair: `s_l = (z - s^2) / 2s` with `s^2`
//! exact. `acos` is `pi/2 - asin x` for `|x| <= 1/2`, `2 asin(s)` above and `pi - 2 asin(s)`
//! below `-1/2`.

use super::{Dd, Fb};
use crate::ids::OpId;
use crate::ops::{CmpOp, UnOp};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

/// `atan(sqrt z) / sqrt z` on `[0, tan(pi/8)^2]`, lowest degree first.
const ATAN_P: [f64; 7] = [
    0.999_999_999_978_398_7,
    -0.333_333_320_976_093_86,
    0.199_998_838_565_513_04,
    -0.142_815_887_726_541_25,
    0.110_404_892_272_182_4,
    -0.084_561_928_869_404_96,
    0.047_073_481_419_680_2,
];

/// `(asin(sqrt z) - sqrt z) / z^1.5` on `[0, 1/4]`.
pub(super) const ASIN_P: [f64; 7] = [
    0.166_666_666_860_856_43,
    0.074_999_924_044_018_38,
    0.044_647_663_888_134_85,
    0.030_269_138_728_589_183,
    0.023_611_817_008_891_752,
    0.010_574_415_516_912_909,
    0.030_974_540_371_355_073,
];

impl Fb<'_, '_> {
    /// The pair of constant `c`.
    pub(super) fn dd_const(&mut self, c: f64) -> Dd {
        let h = c as f32;
        (self.f(h as f64), self.f(c - h as f64))
    }

    /// `c - (a.0 + a.1)` rounded, `c` a constant carried as a pair.
    fn const_minus(&mut self, c: f64, a: Dd) -> OpId {
        let (ch, cl) = self.dd_const(c);
        let d = self.sub(ch, a.0);
        let l = self.sub(cl, a.1);
        self.add(d, l)
    }

    /// `u + u^3 P(u^2)` as a pair `(u, u^3 P(u^2))`.
    pub(super) fn odd_poly(&mut self, u: OpId, p: &[f64]) -> Dd {
        let z = self.mul(u, u);
        let q = self.poly(z, p);
        let u3 = self.mul(z, u);
        let t = self.mul(u3, q);
        (u, t)
    }

    /// `atan t` as a pair for `t` in `[0, 1]`.
    pub(super) fn atan_unit(&mut self, t: OpId) -> Dd {
        let big = self.fcmpc(CmpOp::FGt, t, 0.414_213_562_373_095_1);
        let num = self.addc(t, -1.0);
        let den = self.addc(t, 1.0);
        let u_big = self.div(num, den);
        let u = self.sel(big, u_big, t);
        let (h, l) = self.odd_poly(u, &ATAN_P[1..]);
        // + pi/4 when reduced.
        let (ph, pl) = self.dd_const(FRAC_PI_4);
        let z = self.f(0.0);
        let ph = self.sel(big, ph, z);
        let pl = self.sel(big, pl, z);
        let (s, e) = self.fast_two_sum(ph, h);
        let e = self.add(e, l);
        let e = self.add(e, pl);
        self.fast_two_sum(s, e)
    }

    pub(super) fn atan(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let big = self.fcmpc(CmpOp::FGt, ax, 1.0);
        let one = self.f(1.0);
        let inv = self.div(one, ax);
        let t = self.sel(big, inv, ax);
        let a = self.atan_unit(t);
        let refl = self.const_minus(FRAC_PI_2, a);
        let direct = self.round_dd(a);
        let v = self.sel(big, refl, direct);
        let sx = self.sign_bit(x);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(sx, nv, v);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn atan2(&mut self, y: OpId, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let ay = self.un(UnOp::FAbs, y);
        let mx = self.fmax(ax, ay);
        let mn = self.fmin(ax, ay);
        let t = self.div(mn, mx);
        // 0/0 -> 0, inf/inf -> 1.
        let z = self.f(0.0);
        let one = self.f(1.0);
        let mx0 = self.fcmpc(CmpOp::FEq, mx, 0.0);
        let t = self.sel(mx0, z, t);
        let mninf = self.fcmpc(CmpOp::FEq, mn, f64::INFINITY);
        let t = self.sel(mninf, one, t);
        let a = self.atan_unit(t);
        let swap = self.fcmp(CmpOp::FGt, ay, ax);
        let xneg = self.sign_bit(x);
        // swap: pi/2 - a; then x < 0: pi - that.
        let (ph, pl) = self.dd_const(FRAC_PI_2);
        let (s1, e1) = self.sub_pair(ph, a.0);
        let e1 = self.add(e1, pl);
        let e1 = self.sub(e1, a.1);
        let b = self.fast_two_sum(s1, e1);
        let bh = self.sel(swap, b.0, a.0);
        let bl = self.sel(swap, b.1, a.1);
        let via_pi = self.const_minus(PI, (bh, bl));
        let direct = self.add(bh, bl);
        let v = self.sel(xneg, via_pi, direct);
        let yneg = self.sign_bit(y);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(yneg, nv, v);
        let isnan = self.or1_nan(x, y);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn or1_nan(&mut self, x: OpId, y: OpId) -> OpId {
        let a = self.is_nan(x);
        let b = self.is_nan(y);
        self.or1(a, b)
    }

    /// `asin |x|` as a pair, for `|x| <= 1`.
    pub(super) fn asin_abs(&mut self, ax: OpId) -> Dd {
        let small = self.odd_poly(ax, &ASIN_P);
        let (h, l) = self.asin_half(ax);
        let h2 = self.mulc(h, 2.0);
        let l2 = self.mulc(l, 2.0);
        let (ph, pl) = self.dd_const(FRAC_PI_2);
        let (s, e) = self.sub_pair(ph, h2);
        let e = self.add(e, pl);
        let e = self.sub(e, l2);
        let big_v = self.fast_two_sum(s, e);
        let big = self.fcmpc(CmpOp::FGt, ax, 0.5);
        let vh = self.sel(big, big_v.0, small.0);
        let vl = self.sel(big, big_v.1, small.1);
        (vh, vl)
    }

    /// `a - b` as an exact pair for `|a| >= |b|`.
    pub(super) fn sub_pair(&mut self, a: OpId, b: OpId) -> Dd {
        let nb = self.un(UnOp::FNeg, b);
        self.fast_two_sum(a, nb)
    }

    /// `asin s` as a pair for `s = sqrt((1 - ax) / 2)`, `ax` in `[1/2, 1]`.
    pub(super) fn asin_half(&mut self, ax: OpId) -> Dd {
        let one = self.f(1.0);
        let om = self.sub(one, ax);
        let z = self.mulc(om, 0.5);
        let s = self.un(UnOp::FSqrt, z);
        let (p, pe) = self.two_prod(s, s);
        let d = self.sub(z, p);
        let d = self.sub(d, pe);
        let d = self.mulc(d, 0.5);
        let sl = self.div(d, s);
        let s0 = self.fcmpc(CmpOp::FEq, s, 0.0);
        let zero = self.f(0.0);
        let sl = self.sel(s0, zero, sl);
        let q = self.poly(z, &ASIN_P);
        let sz = self.mul(s, z);
        let t = self.mul(sz, q);
        let t = self.add(sl, t);
        (s, t)
    }

    /// NaN for `|x| > 1` and NaN `x`, else `v`.
    pub(super) fn unit_domain(&mut self, x: OpId, v: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let ok = self.fcmpc(CmpOp::FLe, ax, 1.0);
        let nan = self.nan();
        self.sel(ok, v, nan)
    }

    pub(super) fn asin(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let a = self.asin_abs(ax);
        let v = self.round_dd(a);
        let sx = self.sign_bit(x);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(sx, nv, v);
        self.unit_domain(x, v)
    }

    pub(super) fn acos(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let sx = self.sign_bit(x);
        // |x| <= 1/2: pi/2 - asin x.
        let (h, l) = self.odd_poly(ax, &ASIN_P);
        let nh = self.un(UnOp::FNeg, h);
        let nl = self.un(UnOp::FNeg, l);
        let h = self.sel(sx, nh, h);
        let l = self.sel(sx, nl, l);
        let mid = self.const_minus(FRAC_PI_2, (h, l));
        // Beyond: 2 asin(s), or pi - 2 asin(s) for x < -1/2.
        let (h, l) = self.asin_half(ax);
        let h2 = self.mulc(h, 2.0);
        let l2 = self.mulc(l, 2.0);
        let pos = self.add(h2, l2);
        let neg = self.const_minus(PI, (h2, l2));
        let far = self.sel(sx, neg, pos);
        let big = self.fcmpc(CmpOp::FGt, ax, 0.5);
        let v = self.sel(big, far, mid);
        self.unit_domain(x, v)
    }
}
