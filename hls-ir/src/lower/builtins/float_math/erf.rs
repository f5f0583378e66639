//! `erf` and `erfc` (16 ulp each in the full profile).
//!
//! **erf** for `|x| < 1`: `x P(x^2)`, a Chebyshev fit of degree 7 in `x^2` (relative error
//! 3e-11), by Estrin's scheme in floats: the roundings of its steps reach 3.8 ulp (measured,
//! near 0.46). From `|x| = 1` on, `1 - erfc|x|`
//! with the sign of `x` (`erfc|x| <= 0.16`: its error is a small part of an ulp of the result;
//! from 3.92 on the result rounds to 1).
//!
//! **erfc** ([`Fb::erfc_pos`], for `a = |x|` in `[1/2, 10]`): `erfc a = e^(-a^2) G(a)` with
//! `a^2 = p + e` an exact pair ([`Fb::two_prod`]) and `e^(-p) = 2^n (1 + q)` from the
//! exponential's reduction ([`Fb::exp_nat`]), so `erfc a = 2^n ((1 + q)(1 - e) G(a))`: the
//! power of two is added to the exponent field last, and a result below the normal range
//! (from `a = 9.19` on) flushes to zero. `G(a) = erfc(a) e^(a^2)` is fitted on three pieces,
//! whose coefficients are selected per lane (one polynomial of degree 10 is built): `[1/2,
//! 5/4]` and `[5/4, 5/2]` in `a` less the middle, `[5/2, 10]` as `t P(t)` in `t = 1/a`
//! (relative errors 3e-11, 1.4e-11, 1e-11). Below `1/2`, `erfc x = 1 - erf x`; below `-1/2`,
//! `2 - erfc|x|`. At most 5.1 ulp measured (near 3.3): the exponential's 0.9, the
//! polynomial's roundings, and three products.
//!
//! Beyond 10 the argument is clamped (the result is 0 or 2, `erf` ±1); a NaN gives NaN.

use super::Fb;
use crate::ids::OpId;
use crate::ops::{CmpOp, UnOp};

/// `erf(sqrt z) / sqrt z` on `[0, 1]`, lowest degree first.
const ERF_P: [f64; 8] = [
    1.1283791670615435,
    -0.3761263846802871,
    0.11283782495236845,
    -0.026865430727670243,
    0.005221031807858023,
    -0.0008484080405535107,
    0.00011265959025606609,
    -9.667044571486996e-06,
];

/// `erfc(a) e^(a^2)` in `a - 7/8` on `[1/2, 5/4]`.
const ERFC_A: [f64; 10] = [
    0.46431158322661054,
    -0.3158338964991184,
    0.18795691526340186,
    -0.10091438918430383,
    0.04982889861733564,
    -0.022925978578400494,
    0.009913190279723965,
    -0.004066222391207609,
    0.0016677374461593053,
    -0.0006218121868217742,
];

/// `erfc(a) e^(a^2)` in `a - 15/8` on `[5/4, 5/2]`.
const ERFC_B: [f64; 11] = [
    0.2694299851646704,
    -0.11801672293191313,
    0.04814863010572148,
    -0.018492017164505298,
    0.006738036293582224,
    -0.0023434305718540646,
    0.000781502949455395,
    -0.0002500038601942376,
    7.753296211614737e-05,
    -2.5522328849335858e-05,
    7.399642338994944e-06,
];

/// `a erfc(a) e^(a^2)` in `t = 1/a` on `[0.099, 0.4]`.
const ERFC_C: [f64; 10] = [
    0.5641894335785246,
    9.451265407780492e-06,
    -0.2823574348555534,
    0.004242470072328615,
    0.3790063632343768,
    0.308548025423998,
    -2.5144557358895496,
    4.455958583095834,
    -3.799958513911101,
    1.3549112494700442,
];

impl Fb<'_, '_> {
    /// Estrin's scheme on coefficients that are values (lowest degree first).
    fn poly_ops(&mut self, x: OpId, c: &[OpId]) -> OpId {
        let mut terms: Vec<OpId> = c
            .chunks(2)
            .map(|p| match p {
                [a, b] => {
                    let t = self.mul(x, *b);
                    self.add(t, *a)
                }
                _ => p[0],
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

    /// `erf x` for `|x| < 1`.
    fn erf_small(&mut self, x: OpId) -> OpId {
        let z = self.mul(x, x);
        let p = self.poly(z, &ERF_P);
        self.mul(x, p)
    }

    /// `erfc a` for `a` in `[1/2, 10]` (see the module documentation).
    fn erfc_pos(&mut self, a: OpId) -> OpId {
        let (p, e) = self.two_prod(a, a);
        let np = self.un(UnOp::FNeg, p);
        let (n, q) = self.exp_nat(np, -110.0, 100.0);
        // The piece: A below 5/4, B below 5/2, C beyond.
        let in_a = self.fcmpc(CmpOp::FLt, a, 1.25);
        let in_b = self.fcmpc(CmpOp::FLt, a, 2.5);
        let ua = self.addc(a, -0.875);
        let ub = self.addc(a, -1.875);
        let one = self.f(1.0);
        let t = self.div(one, a);
        let u = self.sel(in_b, ub, t);
        let u = self.sel(in_a, ua, u);
        let mut c = Vec::new();
        for (k, &b) in ERFC_B.iter().enumerate() {
            let ck = self.f(ERFC_C.get(k).copied().unwrap_or(0.0));
            let bk = self.f(b);
            let ak = self.f(ERFC_A.get(k).copied().unwrap_or(0.0));
            let v = self.sel(in_b, bk, ck);
            c.push(self.sel(in_a, ak, v));
        }
        let g = self.poly_ops(u, &c);
        let tg = self.mul(t, g);
        let g = self.sel(in_b, g, tg);
        // (1 + q)(1 - e) G, then 2^n.
        let p1 = self.addc(q, 1.0);
        let pe = self.mul(p1, e);
        let p1 = self.sub(p1, pe);
        let v = self.mul(p1, g);
        self.scale2(v, n)
    }

    /// `|x|` clamped to 10 (a NaN becomes 10: callers select NaN for it).
    fn erf_arg(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let ten = self.f(10.0);
        self.fmin(ax, ten)
    }

    pub(super) fn erf(&mut self, x: OpId) -> OpId {
        let a = self.erf_arg(x);
        let small = self.erf_small(x);
        let a1 = self.f(1.0);
        let a1 = self.fmax(a, a1);
        let c = self.erfc_pos(a1);
        let one = self.f(1.0);
        let big = self.sub(one, c);
        let sx = self.sign_bit(x);
        let nbig = self.un(UnOp::FNeg, big);
        let big = self.sel(sx, nbig, big);
        let is_small = self.fcmpc(CmpOp::FLt, a, 1.0);
        let v = self.sel(is_small, small, big);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn erfc(&mut self, x: OpId) -> OpId {
        let a = self.erf_arg(x);
        let half = self.f(0.5);
        let ah = self.fmax(a, half);
        let c = self.erfc_pos(ah);
        let two = self.f(2.0);
        let neg = self.sub(two, c);
        let sx = self.sign_bit(x);
        let far = self.sel(sx, neg, c);
        let one = self.f(1.0);
        let e = self.erf_small(x);
        let near = self.sub(one, e);
        let is_near = self.fcmpc(CmpOp::FLt, a, 0.5);
        let v = self.sel(is_near, near, far);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }
}
