//! `asinpi`, `acospi`, `atanpi`, `atan2pi`: the pairs of `inverse` (`asin|x|`, `2 asin(s)`,
//! `atan t`) and their reflections (`pi/2 - a`, `pi - a`) kept as pairs — the reflection's
//! head an exact Fast2Sum since `a <= pi/2` — then multiplied by `1/pi` as a pair
//! ([`Fb::mul_dd_const`]) and rounded once: about 0.5 ulp plus the pairs' 2^-32 relative.
//!
//! The pair is scaled by 2^64 before the product and the rounded result by 2^-64 after it
//! (both exact, `|a| <= pi`): the product's correction terms, about 2^-24 below the head,
//! would otherwise fall below the normal range and flush for results near 2^-126; a result
//! that is itself below the normal range flushes to zero, as the float units do.
//!
//! Exact values: `asinpi(±1) = ±1/2`, `acospi(-1) = 1`, `acospi(1) = +0`, `atanpi(±inf) =
//! ±1/2`, `atan2pi(±0, -0) = ±1` and the other `atan2pi` special values of the spec come out
//! of the pair `pi/2` or `pi` times `1/pi` (relative error far below half an ulp).

use super::inverse::ASIN_P;
use super::{Dd, Fb};
use crate::ids::OpId;
use crate::ops::{CmpOp, UnOp};
use std::f64::consts::{FRAC_1_PI, FRAC_PI_2, PI};

impl Fb<'_, '_> {
    /// `(a.0 + a.1) / pi` rounded to a float, for `|a| <= pi`.
    fn over_pi(&mut self, a: Dd) -> OpId {
        let h = self.mulc(a.0, 2f64.powi(64));
        let l = self.mulc(a.1, 2f64.powi(64));
        let p = self.mul_dd_const((h, l), FRAC_1_PI);
        let v = self.round_dd(p);
        self.mulc(v, 2f64.powi(-64))
    }

    /// `c - a` as a pair, `c` a constant at least `|a.0|`.
    fn const_minus_dd(&mut self, c: f64, a: Dd) -> Dd {
        let (ch, cl) = self.dd_const(c);
        let (s, e) = self.sub_pair(ch, a.0);
        let e = self.add(e, cl);
        let e = self.sub(e, a.1);
        (s, e)
    }

    /// The pair `(-a.0, -a.1)` when `neg`.
    fn neg_dd_when(&mut self, neg: OpId, a: Dd) -> Dd {
        let nh = self.un(UnOp::FNeg, a.0);
        let nl = self.un(UnOp::FNeg, a.1);
        (self.sel(neg, nh, a.0), self.sel(neg, nl, a.1))
    }

    fn sel_dd(&mut self, c: OpId, t: Dd, e: Dd) -> Dd {
        (self.sel(c, t.0, e.0), self.sel(c, t.1, e.1))
    }

    pub(super) fn asinpi(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let a = self.asin_abs(ax);
        let v = self.over_pi(a);
        let sx = self.sign_bit(x);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(sx, nv, v);
        self.unit_domain(x, v)
    }

    pub(super) fn acospi(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let sx = self.sign_bit(x);
        // |x| <= 1/2: pi/2 - asin x.
        let a = self.odd_poly(ax, &ASIN_P);
        let a = self.neg_dd_when(sx, a);
        let mid = self.const_minus_dd(FRAC_PI_2, a);
        // Beyond: 2 asin(s), or pi - 2 asin(s) for x < -1/2.
        let (h, l) = self.asin_half(ax);
        let h2 = self.mulc(h, 2.0);
        let l2 = self.mulc(l, 2.0);
        let neg = self.const_minus_dd(PI, (h2, l2));
        let far = self.sel_dd(sx, neg, (h2, l2));
        let big = self.fcmpc(CmpOp::FGt, ax, 0.5);
        let a = self.sel_dd(big, far, mid);
        let v = self.over_pi(a);
        self.unit_domain(x, v)
    }

    pub(super) fn atanpi(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let big = self.fcmpc(CmpOp::FGt, ax, 1.0);
        let one = self.f(1.0);
        let inv = self.div(one, ax);
        let t = self.sel(big, inv, ax);
        let a = self.atan_unit(t);
        let refl = self.const_minus_dd(FRAC_PI_2, a);
        let a = self.sel_dd(big, refl, a);
        let v = self.over_pi(a);
        let sx = self.sign_bit(x);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(sx, nv, v);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn atan2pi(&mut self, y: OpId, x: OpId) -> OpId {
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
        // |y| > |x|: pi/2 - a; then x < 0: pi - that.
        let swap = self.fcmp(CmpOp::FGt, ay, ax);
        let refl = self.const_minus_dd(FRAC_PI_2, a);
        let b = self.sel_dd(swap, refl, a);
        let xneg = self.sign_bit(x);
        let via_pi = self.const_minus_dd(PI, b);
        let b = self.sel_dd(xneg, via_pi, b);
        let v = self.over_pi(b);
        let yneg = self.sign_bit(y);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(yneg, nv, v);
        let isnan = self.or1_nan(x, y);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }
}
