//! Exponentials and logarithms.
//!
//! **log2 as a pair** ([`Fb::log2_dd`]): `x = 2^k * m` with `m` in `[sqrt(1/2), sqrt(2))` (integer
//! plumbing on the bits), `f = m - 1` (exact), `s = f / (2 + f)` so that
//! `log2(m) = (2 / ln 2) * atanh(s) = c * (s + s^3/3 + s^5/5 + ...)`, `|s| <= 0.1716`.
//! `s` is carried as `s_h + s_l` (`s_h` has 12 bits; the residual `f - s_h * (2 + f)` is exact,
//! with `2 + f` split as `d_h + d_l`), so `c_h * s_h` is exact and the rest (`c_l * s_h`,
//! `c * s_l` and the series tail `c * s^3 * (1/3 + s^2/5 + ... + s^8/11)`, truncated at
//! 2^-34) is a correction. The tail's rounding, about 2^-31 absolute, bounds the pair's error:
//! 2^-29.7 relative when `k = 0`, less otherwise; `k + c_h * s_h` is an exact Fast2Sum, and the
//! pair is renormalised at the end (the tail is up to 1% of the result).
//! `log2` rounds the pair (error below 0.6 ulp); `log` and `log10` multiply the pair by a
//! split constant first (below 0.6 ulp plus 2^-11 of an ulp).
//!
//! **2^(hi + lo)** ([`Fb::exp2_dd`]): `hi` is clamped to `[-200, 200]`, the pair renormalised,
//! `n = rint(hi)` (adding `1.5 * 2^23`), `r = (hi - n) + lo` in `[-0.5, 0.5]` (the subtraction
//! is exact), `2^r = 1 + r * P(r)` with the degree-7 Taylor polynomial of `2^r` (truncation
//! 0.05 ulp) evaluated by Estrin's scheme (see [`Fb::poly`]): about 1.4 ulp in all. The result
//! is scaled by adding `n` to the exponent field, with overflow to infinity and underflow to
//! zero decided on the exponent.
//! `exp2` is `2^(x + 0)`, `exp10` is `2^(x * log2(10))` with the product as an exact-enough
//! pair.
//!
//! **e^x and e^x - 1** ([`Fb::exp_nat`]): Cody-Waite reduction `r = x - n * ln2_h - n * ln2_l`
//! (`ln2_h` has 16 bits, so `n * ln2_h` and the subtraction are exact, `|r| <= 0.35`),
//! `r` renormalised to a float `r_h` and its rounding error `r_l`, and
//! `e^r - 1 = r_h + (r_l + r_h^2 * P(r_h))`, Taylor to degree 8, so `expm1` of a small `x` is
//! `x` plus a correction (relative error below 1 ulp); `e^x = 2^n * (1 + q)` and
//! `expm1(x) = (2^n - 1) + 2^n * q`.
//!
//! **log1p**: `u = 1 + x` rounded, `log(u)` as a pair, plus the rounding's correction
//! `(x - (u - 1)) / u` before the final rounding.

use super::{Dd, Fb};
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp};
use std::f64::consts::{LN_2, LOG2_10, LOG2_E};

/// 1.5 * 2^23: adding it to a float of magnitude below 2^22 rounds it to an integer.
const ROUND_MAGIC: f64 = 12_582_912.0;
const ROUND_MAGIC_BITS: i64 = 0x4b40_0000;

impl Fb<'_, '_> {
    /// log2(ax) as a pair, for a positive normal finite `ax` (anything for other inputs).
    pub(super) fn log2_dd(&mut self, ax: OpId) -> Dd {
        // m = ax / 2^k in [sqrt(1/2), sqrt(2)): shift the bits so that the mantissa boundary
        // falls at sqrt(2)'s mantissa.
        let ix = self.bits(ax);
        let t = self.ibinc(BinOp::Add, ix, 0x3f80_0000 - 0x3f35_04f3);
        let k = self.ibinc(BinOp::ShrS, t, 23);
        let k = self.ibinc(BinOp::Sub, k, 127);
        let mant = self.ibinc(BinOp::And, t, 0x7f_ffff);
        let mb = self.ibinc(BinOp::Add, mant, 0x3f35_04f3);
        let m = self.float_of_bits(mb);
        let one = self.f(1.0);
        let two = self.f(2.0);
        let f = self.sub(m, one);
        let d = self.add(f, two);
        let v = self.div(one, d);
        let s = self.mul(f, v);
        // s_l = (f - s_h * (2 + f)) / (2 + f), the residual exact.
        let sh = self.mask12(s);
        let dh = self.mask12(d);
        let dh2 = self.sub(dh, two);
        let dl = self.sub(f, dh2);
        let p1 = self.mul(sh, dh);
        let r1 = self.sub(f, p1);
        let p2 = self.mul(sh, dl);
        let r = self.sub(r1, p2);
        let sl = self.mul(r, v);
        // The series tail c * s^3 * (1/3 + z/5 + ...), z = s^2.
        let c = 2.0 / LN_2;
        let z = self.mul(s, s);
        let coef: Vec<f64> = (0..5).map(|j| c / (2 * j + 3) as f64).collect();
        let q = self.poly(z, &coef);
        let sz = self.mul(s, z);
        let tail = self.mul(sz, q);
        let ch = f32::from_bits((c as f32).to_bits() & 0xffff_f000) as f64;
        let main = self.mulc(sh, ch);
        let lo1 = self.mulc(sh, c - ch);
        let lo2 = self.mulc(sl, c);
        let lo = self.add(lo2, tail);
        let lo = self.add(lo, lo1);
        // k + main as an exact pair (|k| >= 1 > |main|, or k = 0).
        let kf = self.sitof(k);
        let hi = self.add(kf, main);
        let back = self.sub(hi, kf);
        let e = self.sub(main, back);
        let lo = self.add(e, lo);
        // Normalised: the tail makes `lo` up to 1% of `hi` when k = 0.
        self.fast_two_sum(hi, lo)
    }

    /// `2^(t.0 + t.1)` for a non-NaN `t.0`, overflowing to +inf and flushing to +0.
    pub(super) fn exp2_dd(&mut self, t: Dd) -> OpId {
        let lo_c = self.f(-200.0);
        let hi_c = self.f(200.0);
        let th = self.fmax(t.0, lo_c);
        let th = self.fmin(th, hi_c);
        // A clamped exponent decides the result alone (its low part may be NaN).
        let kept = self.fcmp(CmpOp::FEq, th, t.0);
        let zero = self.f(0.0);
        let tl = self.sel(kept, t.1, zero);
        let (th, tl) = self.fast_two_sum(th, tl);
        let a = self.addc(th, ROUND_MAGIC);
        let ab = self.bits(a);
        let n = self.ibinc(BinOp::Sub, ab, ROUND_MAGIC_BITS);
        let nf = self.addc(a, -ROUND_MAGIC);
        let r0 = self.sub(th, nf);
        let r = self.add(r0, tl);
        let coef: Vec<f64> = (1..=7)
            .map(|k| LN_2.powi(k) / (1..=k).product::<i32>() as f64)
            .collect();
        let pr = self.poly(r, &coef);
        let q = self.mul(r, pr);
        let p = self.addc(q, 1.0);
        self.scale2(p, n)
    }

    /// `p * 2^n` for `p` in `[0.5, 4)` and an integer `n`, by adding `n` to the exponent field:
    /// +inf when the exponent overflows, +0 when the result would be denormal.
    pub(super) fn scale2(&mut self, p: OpId, n: OpId) -> OpId {
        let pb = self.bits(p);
        let pe = self.ibinc(BinOp::ShrU, pb, 23);
        let ex = self.ibin(BinOp::Add, pe, n);
        let sh = self.ibinc(BinOp::Shl, n, 23);
        let rb = self.ibin(BinOp::Add, pb, sh);
        let r = self.float_of_bits(rb);
        let over = self.icmpc(CmpOp::GeS, ex, 255);
        let under = self.icmpc(CmpOp::LeS, ex, 0);
        let inf = self.inf();
        let zero = self.f(0.0);
        let r = self.sel(under, zero, r);
        self.sel(over, inf, r)
    }

    /// The NaN of a NaN `x`, else `v`.
    fn nan_of(&mut self, x: OpId, v: OpId) -> OpId {
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }

    pub(super) fn exp2(&mut self, x: OpId) -> OpId {
        let zero = self.f(0.0);
        let v = self.exp2_dd((x, zero));
        self.nan_of(x, v)
    }

    pub(super) fn exp10(&mut self, x: OpId) -> OpId {
        let zero = self.f(0.0);
        let t = self.mul_dd_const((x, zero), LOG2_10);
        let v = self.exp2_dd(t);
        self.nan_of(x, v)
    }

    /// `(n, q)` with `e^x = 2^n * (1 + q)` for `x` clamped to `[lo, hi]` (see the module
    /// documentation).
    pub(super) fn exp_nat(&mut self, x: OpId, lo: f64, hi: f64) -> (OpId, OpId) {
        let lo = self.f(lo);
        let hi = self.f(hi);
        let xc = self.fmax(x, lo);
        let xc = self.fmin(xc, hi);
        let t = self.mulc(xc, LOG2_E);
        let a = self.addc(t, ROUND_MAGIC);
        let ab = self.bits(a);
        let n = self.ibinc(BinOp::Sub, ab, ROUND_MAGIC_BITS);
        let nf = self.addc(a, -ROUND_MAGIC);
        let ln2_h = f32::from_bits((LN_2 as f32).to_bits() & 0xffff_ff00) as f64;
        let nh = self.mulc(nf, ln2_h);
        let rh = self.sub(xc, nh);
        let rl = self.mulc(nf, -(LN_2 - ln2_h));
        // r = rh + rl rounded and its rounding error (|rl| <= 2.3e-4 < |rh| unless n = 0).
        let (rh, rl) = self.fast_two_sum(rh, rl);
        let coef: Vec<f64> = (2..=8)
            .map(|k| 1.0 / (1..=k).product::<i32>() as f64)
            .collect();
        let pr = self.poly(rh, &coef);
        let r2 = self.mul(rh, rh);
        let t2 = self.mul(r2, pr);
        let t2 = self.add(rl, t2);
        (n, self.add(rh, t2))
    }

    pub(super) fn exp(&mut self, x: OpId) -> OpId {
        let (n, q) = self.exp_nat(x, -110.0, 100.0);
        let p = self.addc(q, 1.0);
        let v = self.scale2(p, n);
        self.nan_of(x, v)
    }

    pub(super) fn expm1(&mut self, x: OpId) -> OpId {
        let (n, q) = self.exp_nat(x, -30.0, 100.0);
        // Large n: e^x itself.
        let p = self.addc(q, 1.0);
        let big = self.scale2(p, n);
        // Else (2^n - 1) + 2^n * q, 2^n built from its bits (n >= -44 here).
        let nc = self.ibinc(BinOp::MinS, n, 24);
        let eb = self.ibinc(BinOp::Add, nc, 127);
        let eb = self.ibinc(BinOp::Shl, eb, 23);
        let twon = self.float_of_bits(eb);
        let a = self.addc(twon, -1.0);
        let b = self.mul(twon, q);
        let small = self.add(a, b);
        let is_big = self.icmpc(CmpOp::GtS, n, 24);
        let v = self.sel(is_big, big, small);
        // expm1(±0) = ±0.
        let is_zero = self.fcmpc(CmpOp::FEq, x, 0.0);
        let v = self.sel(is_zero, x, v);
        self.nan_of(x, v)
    }

    /// The special values of the logarithms: NaN for NaN and negative `x`, -inf for ±0
    /// (denormals included), +inf for +inf; `v` otherwise.
    fn log_specials(&mut self, x: OpId, v: OpId) -> OpId {
        let neg = self.fcmpc(CmpOp::FLt, x, 0.0);
        let zero = self.fcmpc(CmpOp::FEq, x, 0.0);
        let inf = self.fcmpc(CmpOp::FEq, x, f64::INFINITY);
        let pinf = self.inf();
        let ninf = self.f(f64::NEG_INFINITY);
        let v = self.sel(inf, pinf, v);
        let v = self.sel(zero, ninf, v);
        let isnan = self.is_nan(x);
        let neg = self.or1(neg, isnan);
        let nan = self.nan();
        self.sel(neg, nan, v)
    }

    /// `log2(x) * c`: `log2` for `c = 1`, `log` for `ln 2`, `log10` for `log10(2)`.
    pub(super) fn log_base(&mut self, x: OpId, c: f64) -> OpId {
        let l = self.log2_dd(x);
        let l = if c == 1.0 { l } else { self.mul_dd_const(l, c) };
        let v = self.round_dd(l);
        self.log_specials(x, v)
    }

    pub(super) fn log1p(&mut self, x: OpId) -> OpId {
        let u = self.addc(x, 1.0);
        let l = self.log2_dd(u);
        let (h, lo) = self.mul_dd_const(l, LN_2);
        // The rounding of 1 + x, relative to u.
        let um1 = self.addc(u, -1.0);
        let d = self.sub(x, um1);
        let c = self.div(d, u);
        let lo = self.add(lo, c);
        let v = self.add(h, lo);
        let v = self.log_specials(u, v);
        // log1p(±0) = ±0 (and tiny x, where u = 1, gives x through c).
        let is_zero = self.fcmpc(CmpOp::FEq, x, 0.0);
        let v = self.sel(is_zero, x, v);
        let isnan = self.is_nan(x);
        let nan = self.nan();
        self.sel(isnan, nan, v)
    }
}
