//! `tgamma` (16 ulp in the full profile), `lgamma` and `lgamma_r` (no bound in the full
//! profile: "undefined").
//!
//! **The core** ([`Fb::gamma_core`], for `a = ah + al > 0` as a pair): Stirling's series
//! `Gamma(y) = sqrt(2 pi) y^(y - 1/2) e^-y S(1/y)` for `y >= 8`, with `S(z) = 1 + z/12 +
//! z^2/288 - ...` to `z^6` (truncation below 2^-31 at `y = 8`). Below 8 the argument is moved
//! up, `y = a + 8`, and the result divided by `P = a (a + 1) ... (a + 7)`, a product of pairs
//! ([`Fb::mul_dd`]: about 2^-44 each), so one formula serves every positive argument, with
//! no cancellation anywhere (every term is positive). The logarithm `ln Gamma(y) / S` is a
//! pair: `(y - 1/2) ln y - y + ln sqrt(2 pi)` from [`Fb::log2_dd`] (2^-29.7 relative),
//! exact subtractions (`y - 1/2` for `y >= 8`, and `(y - 1/2) ln y > y` there). Its
//! absolute error, at most about 2^-22.5 for `y <= 40`, is the relative error it gives
//! `tgamma` through [`Fb::exp2_dd`] (1.4 ulp): about 5 ulp in all with `S` and the division,
//! 4.1 ulp measured over 10^6 inputs (docs/benchmarks.md, "Float math accuracy").
//!
//! **tgamma**: the core for `x > 0` (clamped at 40, beyond which the result overflows
//! anyway); for `x < 0` the reflection `pi / (sinpi(x) Gamma(1 - x))`, with `Gamma(1 - x)`
//! scaled by 2^-64 when `1 - x > 30` so that it does not overflow before the division, and the
//! result scaled back (flushing to zero below the normal range). ±0 gives ±inf, a negative
//! integer, -inf and NaN give NaN, +inf gives +inf.
//!
//! **lgamma**: `ln Gamma(a) = core - ln P + ln S`, rounded; for `x < 0`,
//! `ln pi - ln|sinpi(x)| - lgamma(1 - x)`; from `a = 2^100` on, `a (ln a - 1)` (the other
//! terms are below an ulp). `lgamma(1) = lgamma(2) = 0` exactly; +inf at the poles (±0 and
//! the negative integers) and at ±inf. `lgamma_r`'s sign is that of `Gamma(x)`: 1 for
//! `x > 0`, the sign of `sinpi(x)` for `x < 0`, ±1 at ±0, 0 at the negative integers, -inf
//! and NaN (as the emulator's).

use super::{Dd, Fb};
use crate::ids::OpId;
use crate::lower::builtins::float_exact::Integral;
use crate::ops::{CmpOp, UnOp};
use std::f64::consts::{LN_2, LOG2_E, PI};

/// `ln sqrt(2 pi)`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// `(S(z) - 1) / z` for Stirling's series `S`, lowest degree first.
const STIRLING: [f64; 6] = [
    1.0 / 12.0,
    1.0 / 288.0,
    -139.0 / 51840.0,
    -571.0 / 2_488_320.0,
    163_879.0 / 209_018_880.0,
    5_246_819.0 / 75_246_796_800.0,
];

/// Where Stirling's series starts; smaller arguments are moved up by this much.
const SHIFT: f64 = 8.0;

/// From here on `lgamma(a)` is `a (ln a - 1)` to within an ulp (and the pairs of the core
/// would overflow).
const HUGE: f64 = 1.267_650_600_228_229_4e30; // 2^100

/// Euler's constant, `-Gamma'(1)`.
const EULER: f64 = 0.577_215_664_901_532_9;

/// Below this, `Gamma(a) = 1/a - EULER` and `lgamma(a) = -ln a - EULER a` to within an ulp.
const TINY: f64 = 9.536_743_164_062_5e-7; // 2^-20

/// What [`Fb::gamma_core`] gives for `a`.
struct Core {
    /// `ln(Gamma(y) / S)` with `y` the (moved) argument, as a pair.
    log: Dd,
    /// `S(1/y) - 1`.
    s1: OpId,
    /// `a < 8`: `y = a + 8`, and `Gamma(a) = Gamma(y) / P`.
    small: OpId,
    /// `P = a (a + 1) ... (a + 7)` as a pair (meaningful when `small`).
    p: Dd,
    /// `ln a` as a pair (meaningful when `a` is not small).
    ln_y: Dd,
}

impl Fb<'_, '_> {
    /// The core for `a = (ah, al)`, `ah` positive and finite (its pairs overflow from about
    /// [`HUGE`] on, where `lgamma` takes another formula, and `P` from about 2^16 on, where
    /// only `a < 8` uses it).
    fn gamma_core(&mut self, a: Dd) -> Core {
        let small = self.fcmpc(CmpOp::FLt, a.0, SHIFT);
        let zero = self.f(0.0);
        let eight = self.f(SHIFT);
        let shift = self.sel(small, eight, zero);
        let y = self.two_sum_pos(a.0, shift);
        let y = self.add_low(y, a.1);
        // ln y = log2(yh) ln 2 + yl / yh.
        let l2 = self.log2_dd(y.0);
        let ln = self.mul_dd_const(l2, LN_2);
        let q = self.div(y.1, y.0);
        let ln_y = self.add_low(ln, q);
        // (y - 1/2) ln y - y + ln sqrt(2 pi); y - 1/2 is exact for y >= 8.
        let ym = (self.addc(y.0, -0.5), y.1);
        let t = self.mul_dd(ym, ln_y);
        let ny = self.un(UnOp::FNeg, y.0);
        let (h, e) = self.fast_two_sum(t.0, ny);
        let (c_h, c_l) = self.dd_const(LN_SQRT_2PI);
        let (h, e2) = self.fast_two_sum(h, c_h);
        let lo = self.sub(t.1, y.1);
        let lo = self.add(lo, c_l);
        let lo = self.add(lo, e);
        let lo = self.add(lo, e2);
        let log = self.fast_two_sum(h, lo);
        // S(1/y) - 1.
        let one = self.f(1.0);
        let z = self.div(one, y.0);
        let ps = self.poly(z, &STIRLING);
        let s1 = self.mul(z, ps);
        // P = a (a + 1) ... (a + 7).
        let mut p = a;
        for i in 1..8 {
            let c = self.f(i as f64);
            let f = self.two_sum_pos(a.0, c);
            let f = self.add_low(f, a.1);
            p = self.mul_dd(p, f);
        }
        Core {
            log,
            s1,
            small,
            p,
            ln_y,
        }
    }

    /// `Gamma(a) * 2^-bias` for `a = (ah, al)`, `ah` positive (clamped at 40 here).
    fn gamma_pos(&mut self, a: Dd, bias: OpId) -> OpId {
        let cap = self.f(40.0);
        let ah = self.fmin(a.0, cap);
        let kept = self.fcmp(CmpOp::FEq, ah, a.0);
        let zero = self.f(0.0);
        let al = self.sel(kept, a.1, zero);
        let c = self.gamma_core((ah, al));
        let e = self.mul_dd_const(c.log, LOG2_E);
        let eh = self.sub(e.0, bias);
        let g = self.exp2_dd((eh, e.1));
        let gs = self.mul(g, c.s1);
        let g = self.add(g, gs);
        // Divided by the pair P when the argument was moved up.
        let q = self.div(g, c.p.0);
        let r = self.div(c.p.1, c.p.0);
        let qr = self.mul(q, r);
        let q = self.sub(q, qr);
        let v = self.sel(c.small, q, g);
        // Tiny arguments: 1/a - Euler's gamma (the next term is a^2 of the result below
        // 2^-20; the pairs' partial products would fall below the normal range).
        let one = self.f(1.0);
        let inv = self.div(one, a.0);
        let t = self.addc(inv, -EULER);
        let tiny = self.fcmpc(CmpOp::FLt, a.0, TINY);
        self.sel(tiny, t, v)
    }

    /// `tgamma(x)`.
    pub(super) fn tgamma(&mut self, x: OpId) -> OpId {
        let zero = self.f(0.0);
        let (neg, (ah, al)) = self.positive_arg(x);
        let big = self.fcmpc(CmpOp::FGt, ah, 30.0);
        let scaled = self.and1(neg, big);
        let b64 = self.f(64.0);
        let bias = self.sel(scaled, b64, zero);
        let g = self.gamma_pos((ah, al), bias);
        // pi / (sinpi(x) Gamma(1 - x)), scaled back.
        let s = self.trig_pi(super::trig::Trig::Sin, x);
        let d = self.mul(s, g);
        let pi = self.f(PI);
        let q = self.div(pi, d);
        let back = self.mulc(q, 2f64.powi(-64));
        let r = self.sel(scaled, back, q);
        let v = self.sel(neg, r, g);
        // Special values: ±0 -> ±inf, negative integers and -inf -> NaN, NaN -> NaN.
        let is_zero = self.fcmpc(CmpOp::FEq, x, 0.0);
        let inf = self.inf();
        let sinf = self.copysign_of(inf, x);
        let v = self.sel(is_zero, sinf, v);
        let pole = self.negative_integer(x);
        let bad = self.is_nan(x);
        let bad = self.or1(bad, pole);
        let nan = self.nan();
        self.sel(bad, nan, v)
    }

    /// Whether `x < 0`, and the positive argument of the core: `x`, or `1 - x` as a pair for
    /// the reflection.
    fn positive_arg(&mut self, x: OpId) -> (OpId, Dd) {
        let zero = self.f(0.0);
        let neg = self.fcmpc(CmpOp::FLt, x, 0.0);
        let nx = self.un(UnOp::FNeg, x);
        let one = self.f(1.0);
        let refl = self.two_sum_pos(one, nx);
        let ah = self.sel(neg, refl.0, x);
        let al = self.sel(neg, refl.1, zero);
        (neg, (ah, al))
    }

    /// `x` is a negative integer or -inf.
    fn negative_integer(&mut self, x: OpId) -> OpId {
        let neg = self.fcmpc(CmpOp::FLt, x, 0.0);
        let r = self.l.integral(x, Integral::Rint, self.span);
        let int = self.fcmp(CmpOp::FEq, r, x);
        self.and1(neg, int)
    }

    /// `ln Gamma(a)` for `a = (ah, al)` positive and finite (as a float).
    fn lgamma_pos(&mut self, a: Dd) -> OpId {
        let zero = self.f(0.0);
        let c = self.gamma_core(a);
        // ln S = s1 - s1^2 / 2 (s1 < 0.011: the next term is below 2^-20 of it).
        let sq = self.mul(c.s1, c.s1);
        let half = self.mulc(sq, -0.5);
        let ln_s = self.add(c.s1, half);
        // ln P = log2(P.0) ln 2 + P.1 / P.0.
        let lp = self.log2_dd(c.p.0);
        let lp = self.mul_dd_const(lp, LN_2);
        let pr = self.div(c.p.1, c.p.0);
        let lp = self.add_low(lp, pr);
        let np = (self.un(UnOp::FNeg, lp.0), self.un(UnOp::FNeg, lp.1));
        let np = (self.sel(c.small, np.0, zero), self.sel(c.small, np.1, zero));
        // core - ln P (either may be the larger in magnitude).
        let (h, e) = self.two_sum(c.log.0, np.0);
        let lo = self.add(c.log.1, np.1);
        let lo = self.add(lo, e);
        let lo = self.add(lo, ln_s);
        let v = self.add(h, lo);
        // Huge arguments: a (ln a - 1).
        let ln_a = self.round_dd(c.ln_y);
        let lm = self.addc(ln_a, -1.0);
        let hv = self.mul(a.0, lm);
        let huge = self.fcmpc(CmpOp::FGe, a.0, HUGE);
        let v = self.sel(huge, hv, v);
        // Tiny: -ln a - EULER a.
        let la = self.log2_dd(a.0);
        let la = self.mul_dd_const(la, LN_2);
        let ea = self.mulc(a.0, EULER);
        let lo = self.add(la.1, ea);
        let s = self.add(la.0, lo);
        let t = self.un(UnOp::FNeg, s);
        let tiny = self.fcmpc(CmpOp::FLt, a.0, TINY);
        self.sel(tiny, t, v)
    }

    /// `lgamma_r(x)`: the value and the sign of `Gamma(x)` (an `i32`).
    pub(super) fn lgamma_r(&mut self, x: OpId) -> (OpId, OpId) {
        let zero = self.f(0.0);
        let (neg, a) = self.positive_arg(x);
        let lg = self.lgamma_pos(a);
        // x < 0: ln pi - ln|sinpi(x)| - lgamma(1 - x).
        let s = self.trig_pi(super::trig::Trig::Sin, x);
        let abs_s = self.un(UnOp::FAbs, s);
        let ls = self.log2_dd(abs_s);
        let ls = self.mul_dd_const(ls, LN_2);
        let (pi_h, pi_l) = self.dd_const(PI.ln());
        let d = self.sub(pi_h, ls.0);
        let d = self.sub(d, lg);
        let dl = self.sub(pi_l, ls.1);
        let r = self.add(d, dl);
        let v = self.sel(neg, r, lg);
        // Exact zeros at 1 and 2; +inf at the poles and infinities; NaN stays NaN.
        let at1 = self.fcmpc(CmpOp::FEq, x, 1.0);
        let at2 = self.fcmpc(CmpOp::FEq, x, 2.0);
        let exact = self.or1(at1, at2);
        let v = self.sel(exact, zero, v);
        let is_zero = self.fcmpc(CmpOp::FEq, x, 0.0);
        let pole = self.negative_integer(x);
        let ax = self.un(UnOp::FAbs, x);
        let infinite = self.fcmpc(CmpOp::FEq, ax, f64::INFINITY);
        let to_inf = self.or1(is_zero, pole);
        let to_inf = self.or1(to_inf, infinite);
        let inf = self.inf();
        let v = self.sel(to_inf, inf, v);
        let nan = self.is_nan(x);
        let v = self.sel(nan, x, v);
        // The sign: 1; for x < 0 that of sinpi(x); ±1 at ±0; 0 at the poles, -inf and NaN.
        let p1 = self.i(1);
        let m1 = self.i(-1);
        let z = self.i(0);
        let sneg = self.fcmpc(CmpOp::FLt, s, 0.0);
        let ssign = self.sel(sneg, m1, p1);
        let sign = self.sel(neg, ssign, p1);
        let xneg = self.sign_bit(x);
        let zsign = self.sel(xneg, m1, p1);
        let sign = self.sel(is_zero, zsign, sign);
        let none = self.or1(pole, nan);
        let sign = self.sel(none, z, sign);
        (v, sign)
    }
}
