//! `cbrt`: a cube root of its own, not `2^(log2|x| / 3)` (that was a logarithm and an
//! exponential in double-float in one pipeline, 176 IR ops and 51 580 flip-flops before ABC,
//! too large to synthesise on the ECP5-85F; docs/benchmarks.md, "Float math on ECP5").
//!
//! With `|x| = m 2^E`, `m` in `[1, 2)`: `E + 129 = 3 q + r` (`r` in 0..3, by a multiply by
//! 171 and a shift: exact for `E + 129 <= 256`), `M = m 2^r` in `[1, 8)`, and
//! `cbrt|x| = cbrt(M) 2^(q - 43)` with `cbrt(M)` in `[1, 2)`, so the power of two is a plain
//! exponent addition with no overflow or underflow (results lie in `[2^-42, 2^43)`).
//!
//! 1. An estimate `y = P(m) 2^(r/3)`: `P` the relative minimax polynomial of degree 4 of
//!    `cbrt` on `[1, 2)` (error 2^-16.7 with float coefficients), clamped to `[1, 2)`.
//! 2. The residual `M - y^3` exactly, in 64-bit integers: with `Y` the 24-bit significand of
//!    `y` (`y = Y 2^-23`) and `S` that of `m`, `(M - y^3) 2^69 = S 2^(r + 46) - Y^3`, whose
//!    magnitude is below 2^56 (`|M - y^3| <= 3 * 2^-16.7 M`), so the difference of the two
//!    products taken modulo 2^64 is exact. Its bits from 26 up (an `int`: the conversion to
//!    float is the 32-bit unit's; a 64-bit conversion behind the 64-bit subtraction was an
//!    11 ns path) keep the residual to 2^-43, far below what the step needs.
//! 3. One Newton step `y + (M - y^3) / (3 y^2)`, the division replaced by the product with
//!    `Q(m) 2^(-2r/3) 2^-43`, `Q` the minimax polynomial of degree 3 of `m^(-2/3) / 3`
//!    (error 2^-10.3). With `y`'s relative error `e` and `Q`'s `d`, the step leaves about
//!    `e^2 + e d` (2^-27): the result is within about 0.6 ulp, its one rounding the last
//!    addition (measured maximum in docs/benchmarks.md, "Float math accuracy"; bound 2).
//!
//! Ten float multiplications and two 64-bit integer ones (`Y^2`, `Y^3`). The coefficients
//! are the Remez fits of `scripts/cbrt_fit.py`, rounded to float. Zeros and denormals give
//! a zero of `x`'s sign, infinities themselves, NaN a NaN.

use super::Fb;
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp};
use crate::types::Ty;

const I64: Ty = Ty::Int(64);
/// `cbrt(m)` on `[1, 2)`, lowest degree first.
const CBRT: [f64; 5] = [
    0.506_979_346_275_329_6,
    0.718_153_953_552_246_1,
    -0.300_611_585_378_646_85,
    0.086_091_354_489_326_48,
    -0.010_603_897_273_540_497,
];
/// `m^(-2/3) / 3` on `[1, 2)`.
const INV_3Y2: [f64; 4] = [
    0.719_539_701_938_629_2,
    -0.601_482_629_776_001,
    0.256_713_956_594_467_16,
    -0.041_701_186_448_335_65,
];

impl Fb<'_, '_> {
    /// `c0 + x (c1 + x (c2 + ...))`, the coefficients rounded to float: one multiplication
    /// per degree (Estrin's [`Fb::poly`] takes more multipliers for a shorter chain).
    fn horner(&mut self, x: OpId, c: &[f64]) -> OpId {
        let (last, rest) = c.split_last().expect("a coefficient");
        let mut v = self.f(*last);
        for k in rest.iter().rev() {
            let t = self.mul(v, x);
            v = self.addc(t, *k);
        }
        v
    }

    /// One of three float constants by `r` in 0..3.
    fn pick3(&mut self, r: OpId, c: [f64; 3]) -> OpId {
        let r1 = self.icmpc(CmpOp::Eq, r, 1);
        let r2 = self.icmpc(CmpOp::Eq, r, 2);
        let (c0, c1, c2) = (self.f(c[0]), self.f(c[1]), self.f(c[2]));
        let v = self.sel(r1, c1, c0);
        self.sel(r2, c2, v)
    }

    pub(super) fn cbrt(&mut self, x: OpId) -> OpId {
        let b = self.bits(x);
        let (e, sig) = self.exp_sig(x);
        // E + 129 = e + 2 = 3q + r.
        let e2 = self.ibinc(BinOp::Add, e, 2);
        let q = self.ibinc(BinOp::Mul, e2, 171);
        let q = self.ibinc(BinOp::ShrU, q, 9);
        let q3 = self.ibinc(BinOp::Mul, q, 3);
        let r = self.ibin(BinOp::Sub, e2, q3);
        let mf = self.ibinc(BinOp::And, b, 0x7f_ffff);
        let mf = self.ibinc(BinOp::Or, mf, 0x3f80_0000);
        let m = self.float_of_bits(mf);
        // 1. The estimate, clamped to [1, 2).
        let p = self.horner(m, &CBRT);
        let k = self.pick3(r, [1.0, 2f64.powf(1.0 / 3.0), 2f64.powf(2.0 / 3.0)]);
        let y = self.mul(p, k);
        let one = self.f(1.0);
        let y = self.fmax(y, one);
        let below_two = self.fbits(0x3fff_ffff);
        let y = self.fmin(y, below_two);
        // 2. The residual S 2^(r + 46) - Y^3, modulo 2^64.
        let yb = self.bits(y);
        let ys = self.ibinc(BinOp::And, yb, 0x7f_ffff);
        let ys = self.ibinc(BinOp::Or, ys, 0x80_0000);
        let y64 = self.l.resize(ys, I64, false, self.span);
        let y2 = self.ibin(BinOp::Mul, y64, y64);
        let y3 = self.ibin(BinOp::Mul, y2, y64);
        let s64 = self.l.resize(sig, I64, false, self.span);
        let sh = self.ibinc(BinOp::Add, r, 46);
        let sh = self.l.resize(sh, I64, false, self.span);
        let ms = self.ibin(BinOp::Shl, s64, sh);
        let res = self.ibin(BinOp::Sub, ms, y3);
        let k26 = self.k64(26);
        let res = self.ibin(BinOp::ShrS, res, k26);
        let res = self.l.resize(res, Ty::I32, true, self.span);
        let rf = self.sitof(res);
        // 3. The Newton step with 1 / (3 y^2) 2^-43 = Q(m) 2^(-2r/3) 2^-43.
        let qm = self.horner(m, &INV_3Y2);
        let s = 2f64.powi(-43);
        let k2 = self.pick3(r, [s, s * 2f64.powf(-2.0 / 3.0), s * 2f64.powf(-4.0 / 3.0)]);
        let c = self.mul(qm, k2);
        let corr = self.mul(rf, c);
        let v = self.add(y, corr);
        // 2^(q - 43) and x's sign, on the bits: v is in [1, 2].
        let vb = self.bits(v);
        let n = self.ibinc(BinOp::Sub, q, 43);
        let n = self.ibinc(BinOp::Shl, n, 23);
        let vb = self.ibin(BinOp::Add, vb, n);
        let sign = self.ibinc(BinOp::And, b, i32::MIN as i64);
        let vb = self.ibin(BinOp::Or, vb, sign);
        let v = self.float_of_bits(vb);
        // Zeros and denormals, infinities and NaNs: x itself (a denormal as a zero).
        let zero = self.icmpc(CmpOp::Eq, e, 0);
        let szero = self.float_of_bits(sign);
        let v = self.sel(zero, szero, v);
        let special = self.icmpc(CmpOp::Eq, e, 255);
        let nan = self.is_nan(x);
        let xn = self.nan();
        let x_or_nan = self.sel(nan, xn, x);
        self.sel(special, x_or_nan, v)
    }
}
