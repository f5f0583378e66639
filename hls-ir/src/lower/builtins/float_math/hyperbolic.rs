//! `sinh`, `cosh`, `tanh` and their inverses `asinh`, `acosh`, `atanh`.
//!
//! - `cosh |x| = E + 1/(4E)` with `E = e^|x| / 2 = 2^(n-1) (1 + q)` from the exponential's
//!   reduction ([`Fb::exp_nat`], no overflow before the result's); `sinh |x| = E - 1/(4E)`
//!   for `|x| >= 1` (the cancellation is at most 14%), and `x + x^3 P(x^2)` (Taylor to
//!   degree 15, truncation 2^-40) below.
//! - `tanh |x| = -w / (w + 2)` with `w = expm1(-2|x|)`: no cancellation anywhere, and 1 once
//!   `e^(-2|x|)` is below half an ulp.
//! - `asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))`, `acosh x = log1p(t + sqrt(t (2 + t)))`
//!   with `t = x - 1`, `atanh |x| = log1p(2|x| / (1 - |x|)) / 2`; from 2^12 on `asinh` and
//!   `acosh` are `ln 2 (log2 x + 1)` from the `log2` pair (no overflow of `x^2`).
//!
//! Odd functions are computed on `|x|` and take the sign of `x` (so `±0` gives `±0`); the
//! domain rules (NaN below 1 for `acosh`, beyond 1 for `atanh`, `±inf` at `±1`) are selects.

use super::Fb;
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp, UnOp};
use std::f64::consts::LN_2;

impl Fb<'_, '_> {
    /// `(e^|x| / 2, e^-|x| / 2)`.
    fn half_exps(&mut self, ax: OpId) -> (OpId, OpId) {
        let (n, q) = self.exp_nat(ax, -110.0, 100.0);
        let p = self.addc(q, 1.0);
        let n1 = self.ibinc(BinOp::Sub, n, 1);
        let e = self.scale2(p, n1);
        let quarter = self.f(0.25);
        let ei = self.div(quarter, e);
        (e, ei)
    }

    /// `v` with the sign of `x`, NaN for a NaN `x`.
    fn odd_of(&mut self, x: OpId, v: OpId) -> OpId {
        let sx = self.sign_bit(x);
        let nv = self.un(UnOp::FNeg, v);
        let v = self.sel(sx, nv, v);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn sinh(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let (e, ei) = self.half_exps(ax);
        let big = self.sub(e, ei);
        let fact = |k: i32| (1..=k).map(f64::from).product::<f64>();
        let c: Vec<f64> = (1..=6).map(|j| 1.0 / fact(2 * j + 1)).collect();
        let z = self.mul(ax, ax);
        let p = self.poly(z, &c);
        let x3 = self.mul(z, ax);
        let t = self.mul(x3, p);
        let small = self.add(ax, t);
        let is_small = self.fcmpc(CmpOp::FLt, ax, 1.0);
        let v = self.sel(is_small, small, big);
        self.odd_of(x, v)
    }

    pub(super) fn cosh(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let (e, ei) = self.half_exps(ax);
        let v = self.add(e, ei);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn tanh(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let m2 = self.mulc(ax, -2.0);
        let w = self.expm1(m2);
        let nw = self.un(UnOp::FNeg, w);
        let d = self.addc(w, 2.0);
        let v = self.div(nw, d);
        // tanh(±0) = ±0 (w = -0 gives +0 here).
        let z = self.fcmpc(CmpOp::FEq, ax, 0.0);
        let zero = self.f(0.0);
        let v = self.sel(z, zero, v);
        self.odd_of(x, v)
    }

    /// `ln(2 x)` for a large positive `x`, from the `log2` pair.
    fn ln_twice(&mut self, ax: OpId) -> OpId {
        let (h, l) = self.log2_dd(ax);
        let (h, e) = self.fast_two_sum_any(h, 1.0);
        let l = self.add(l, e);
        let p = self.mul_dd_const((h, l), LN_2);
        self.round_dd(p)
    }

    /// `h + c` as an exact pair for `|h| >= |c|`.
    fn fast_two_sum_any(&mut self, h: OpId, c: f64) -> (OpId, OpId) {
        let c = self.f(c);
        self.fast_two_sum(h, c)
    }

    pub(super) fn asinh(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let z = self.mul(ax, ax);
        let s = self.addc(z, 1.0);
        let s = self.un(UnOp::FSqrt, s);
        let s = self.addc(s, 1.0);
        let t = self.div(z, s);
        let u = self.add(ax, t);
        let mid = self.log1p(u);
        let far = self.ln_twice(ax);
        let big = self.fcmpc(CmpOp::FGe, ax, 4096.0);
        let v = self.sel(big, far, mid);
        let inf = self.fcmpc(CmpOp::FEq, ax, f64::INFINITY);
        let v = self.sel(inf, ax, v);
        self.odd_of(x, v)
    }

    pub(super) fn acosh(&mut self, x: OpId) -> OpId {
        let t = self.addc(x, -1.0);
        let tp = self.addc(t, 2.0);
        let p = self.mul(t, tp);
        let s = self.un(UnOp::FSqrt, p);
        let u = self.add(t, s);
        let mid = self.log1p(u);
        let far = self.ln_twice(x);
        let big = self.fcmpc(CmpOp::FGe, x, 4096.0);
        let v = self.sel(big, far, mid);
        let inf = self.fcmpc(CmpOp::FEq, x, f64::INFINITY);
        let v = self.sel(inf, x, v);
        // NaN below 1 and for NaN.
        let ok = self.fcmpc(CmpOp::FGe, x, 1.0);
        let nan = self.nan();
        self.sel(ok, v, nan)
    }

    pub(super) fn atanh(&mut self, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let one = self.f(1.0);
        let d = self.sub(one, ax);
        let n = self.add(ax, ax);
        let q = self.div(n, d);
        let l = self.log1p(q);
        let v = self.mulc(l, 0.5);
        let at1 = self.fcmpc(CmpOp::FEq, ax, 1.0);
        let inf = self.inf();
        let v = self.sel(at1, inf, v);
        let over = self.fcmpc(CmpOp::FGt, ax, 1.0);
        let nan = self.nan();
        let v = self.sel(over, nan, v);
        self.odd_of(x, v)
    }
}
