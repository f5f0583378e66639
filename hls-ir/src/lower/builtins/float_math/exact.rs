//! The correctly rounded and exact built-ins: `fma` (one rounding), `fmod` and `remainder`,
//! built from integer operations on the significands (no float unit except for the special
//! values), so they are exact whatever the operands' exponents.
//!
//! **fma** ([`Fb::fma`]): the 48-bit product of the 24-bit significands and the addend's
//! significand are placed in 64-bit words with their top bits at 60 (product `<< 13`, addend
//! `<< 37`); the one of smaller weight is shifted right by the exponent difference, the bits
//! shifted out kept as a sticky bit in bit 0. Added or subtracted (the sign of a negative
//! difference flips the result's), normalised by a leading-zero count, rounded to nearest
//! even at bit 39 with bits 38..0 as sticky. This is exact rounding: sticky bits are only
//! lost when the shift is large enough that the result keeps at least 58 significant bits,
//! and the word that is not shifted has its low 13 bits zero, so the sticky bit never lands
//! the result on a rounding boundary. Exponents are integers, so an intermediate product
//! beyond the float range cancelled by the addend is right. Products that are zero and
//! infinite or NaN operands take the float units' `a * b + c`, whose special values are the
//! same as `fma`'s. Results below the normal range flush to zero, as the float units' do.
//!
//! **fmod and remainder** ([`Fb::fmod_rem`]): with `x = mx 2^ex`, `y = my 2^ey` (24-bit
//! significands), `fmod(|x|, |y|) = (mx 2^(ex-ey) mod my) 2^ey` for `ex >= ey`: restoring
//! division, one quotient bit a step, unrolled over the largest exponent difference (253
//! steps; a step is inactive when the difference is smaller: a compare, a subtraction of 25
//! bits and two selects). The last step's bit is the quotient's parity, which
//! `remainder`'s halfway case needs. When `|x| < |y|` no step is needed: `fmod` is `x` and
//! `remainder` is `x` or `x - y` (exact). `remquo` keeps the quotient bits of the last seven
//! steps (about 50 ops more) and adds one when `remainder` reflects the remainder.

use super::Fb;
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp, UnOp};
use crate::types::Ty;

const I64: Ty = Ty::Int(64);
/// Steps of the unrolled division: the largest exponent difference of two normal floats.
const FMOD_STEPS: i64 = 253;

impl Fb<'_, '_> {
    pub(super) fn k64(&mut self, v: i64) -> OpId {
        self.l.konst(v as u64, I64, self.span)
    }
    fn b64(&mut self, op: BinOp, a: OpId, v: i64) -> OpId {
        let c = self.k64(v);
        self.ibin(op, a, c)
    }
    fn to64(&mut self, v: OpId) -> OpId {
        self.l.resize(v, I64, true, self.span)
    }

    /// The biased exponent (`i32`) and the significand with its hidden bit (`i32`, 0 for
    /// zeros and denormals) of float `x`.
    pub(super) fn exp_sig(&mut self, x: OpId) -> (OpId, OpId) {
        let b = self.bits(x);
        let e = self.ibinc(BinOp::ShrU, b, 23);
        let e = self.ibinc(BinOp::And, e, 0xff);
        let m = self.ibinc(BinOp::And, b, 0x7f_ffff);
        let m = self.ibinc(BinOp::Or, m, 0x80_0000);
        let zero = self.icmpc(CmpOp::Eq, e, 0);
        let z = self.i(0);
        (e, self.sel(zero, z, m))
    }

    /// `a * b + c` rounded once (see the module documentation).
    pub(super) fn fma(&mut self, a: OpId, b: OpId, c: OpId) -> OpId {
        let (ea, ma) = self.exp_sig(a);
        let (eb, mb) = self.exp_sig(b);
        let (ec, mc) = self.exp_sig(c);
        let ma = self.to64(ma);
        let mb = self.to64(mb);
        let mc = self.to64(mc);
        let p = self.ibin(BinOp::Mul, ma, mb);
        let pm = self.b64(BinOp::Shl, p, 13);
        let cm = self.b64(BinOp::Shl, mc, 37);
        // Weights of bit 0: a = ma 2^(ea-150), so p << 13 weighs 2^(ea+eb-313).
        let eab = self.ibin(BinOp::Add, ea, eb);
        let wp = self.ibinc(BinOp::Sub, eab, 313);
        let wc = self.ibinc(BinOp::Sub, ec, 187);
        // A zero addend never moves the product.
        let c_big = self.l.cmp(CmpOp::GtS, wc, wp, self.span);
        let c_nz = self.icmpc(CmpOp::Ne, ec, 0);
        let p_small = self.and1(c_big, c_nz);
        let w = self.sel(p_small, wc, wp);
        let dpc = self.ibin(BinOp::Sub, wc, wp);
        let dcp = self.ibin(BinOp::Sub, wp, wc);
        let d = self.sel(p_small, dpc, dcp);
        let d = self.ibinc(BinOp::MinS, d, 63);
        let d = self.to64(d);
        let x = self.sel(p_small, cm, pm);
        let y = self.sel(p_small, pm, cm);
        let ys = self.ibin(BinOp::ShrU, y, d);
        let one = self.k64(1);
        let unit = self.ibin(BinOp::Shl, one, d);
        let mask = self.ibin(BinOp::Sub, unit, one);
        let lost = self.ibin(BinOp::And, y, mask);
        let zero64 = self.k64(0);
        let sticky = self.l.cmp(CmpOp::Ne, lost, zero64, self.span);
        let sticky = self.l.resize(sticky, I64, false, self.span);
        let ys = self.ibin(BinOp::Or, ys, sticky);
        // Signs: the product's and the addend's; `x` is the word not shifted.
        let sa = self.sign_bit(a);
        let sb = self.sign_bit(b);
        let sp = self.ibin(BinOp::Xor, sa, sb);
        let sc = self.sign_bit(c);
        let sx = self.sel(p_small, sc, sp);
        let opposite = self.ibin(BinOp::Xor, sp, sc);
        let sum = self.ibin(BinOp::Add, x, ys);
        let diff = self.ibin(BinOp::Sub, x, ys);
        let neg = self.l.cmp(CmpOp::LtS, diff, zero64, self.span);
        let ndiff = self.ibin(BinOp::Sub, zero64, diff);
        let adiff = self.sel(neg, ndiff, diff);
        let r = self.sel(opposite, adiff, sum);
        let flip = self.and1(opposite, neg);
        let sign = self.ibin(BinOp::Xor, sx, flip);
        // Normalise to bit 63; 24 bits kept, guard bit 39, sticky below.
        let lz = self.l.leading_zeros(r, self.span);
        let n = self.ibin(BinOp::Shl, r, lz);
        let m24 = self.b64(BinOp::ShrU, n, 40);
        let g = self.b64(BinOp::ShrU, n, 39);
        let g = self.b64(BinOp::And, g, 1);
        let low = self.b64(BinOp::And, n, (1i64 << 39) - 1);
        let st = self.l.cmp(CmpOp::Ne, low, zero64, self.span);
        let st = self.l.resize(st, I64, false, self.span);
        let lsb = self.b64(BinOp::And, m24, 1);
        let ru = self.ibin(BinOp::Or, st, lsb);
        let ru = self.ibin(BinOp::And, ru, g);
        // Biased exponent W - lz + 190; the rounding carry may run into it.
        let w = self.to64(w);
        let e = self.ibin(BinOp::Sub, w, lz);
        let e = self.b64(BinOp::Add, e, 190);
        let e = self.b64(BinOp::Shl, e, 23);
        let frac = self.b64(BinOp::And, m24, 0x7f_ffff);
        let t = self.ibin(BinOp::Add, e, frac);
        let t = self.ibin(BinOp::Add, t, ru);
        let under_c = self.k64(0x80_0000);
        let under = self.l.cmp(CmpOp::LtS, t, under_c, self.span);
        let over_c = self.k64(0x7f80_0000);
        let over = self.l.cmp(CmpOp::GeS, t, over_c, self.span);
        let mag = self.l.resize(t, Ty::I32, false, self.span);
        let s32 = self.l.resize(sign, Ty::I32, false, self.span);
        let s32 = self.ibinc(BinOp::Shl, s32, 31);
        let z = self.i(0);
        let mag = self.sel(under, z, mag);
        let inf = self.i(0x7f80_0000);
        let mag = self.sel(over, inf, mag);
        let rb = self.ibin(BinOp::Or, mag, s32);
        // An exact zero sum is +0.
        let r_zero = self.l.cmp(CmpOp::Eq, r, zero64, self.span);
        let rb = self.sel(r_zero, z, rb);
        let res = self.float_of_bits(rb);
        // Zero products, infinities and NaN: the float units' a * b + c.
        let pz = self.l.cmp(CmpOp::Eq, p, zero64, self.span);
        let mut special = pz;
        for e in [ea, eb, ec] {
            let s = self.icmpc(CmpOp::Eq, e, 255);
            special = self.or1(special, s);
        }
        let ab = self.mul(a, b);
        let plain = self.add(ab, c);
        self.sel(special, plain, res)
    }

    /// `x` with a denormal flushed to a zero of its sign.
    fn ftz(&mut self, x: OpId, e: OpId) -> OpId {
        let b = self.bits(x);
        let s = self.ibinc(BinOp::And, b, 0x8000_0000u32 as i32 as i64);
        let z = self.icmpc(CmpOp::Eq, e, 0);
        let r = self.sel(z, s, b);
        self.float_of_bits(r)
    }

    /// `fmod(x, y)` or (`rem`) `remainder(x, y)`, exactly (see the module documentation).
    pub(super) fn fmod_rem(&mut self, x: OpId, y: OpId, rem: bool) -> OpId {
        self.fmod_rem_quo(x, y, rem, false).0
    }

    /// `remquo(x, y)`: `remainder(x, y)` and the `int` written through the pointer.
    pub(super) fn remquo(&mut self, x: OpId, y: OpId) -> (OpId, OpId) {
        let (r, q) = self.fmod_rem_quo(x, y, true, true);
        (r, q.expect("asked for"))
    }

    /// `fmod` or `remainder` of `x` and `y`, and with `quo` the low seven bits of the
    /// quotient with the sign of `x / y` (`remquo`, for `rem` only): the bits of the last
    /// seven division steps (with the first step's bit above them: when fewer steps are
    /// active, they are the whole quotient), plus one when the remainder is reflected.
    fn fmod_rem_quo(&mut self, x: OpId, y: OpId, rem: bool, quo: bool) -> (OpId, Option<OpId>) {
        let (ex, mx) = self.exp_sig(x);
        let (ey, my) = self.exp_sig(y);
        let d = self.ibin(BinOp::Sub, ex, ey);
        let ge0 = self.l.cmp(CmpOp::GeS, mx, my, self.span);
        let r0 = self.ibin(BinOp::Sub, mx, my);
        let mut r = self.sel(ge0, r0, mx);
        let mut last = ge0;
        // The quotient bits (`remquo` only: no op for `fmod` and `remainder`).
        let mut q = if quo {
            self.l.resize(ge0, Ty::I32, false, self.span)
        } else {
            ge0
        };
        for j in 1..=FMOD_STEPS {
            // The last `d` steps are active.
            let active = self.icmpc(CmpOp::GtS, d, FMOD_STEPS - j);
            let r2 = self.ibin(BinOp::Add, r, r);
            let t = self.ibin(BinOp::Sub, r2, my);
            let ge = self.icmpc(CmpOp::GeS, t, 0);
            let nr = self.sel(ge, t, r2);
            r = self.sel(active, nr, r);
            if j == FMOD_STEPS {
                last = self.sel(active, ge, ge0);
            }
            if quo && j > FMOD_STEPS - 7 {
                let bit = self.l.resize(ge, Ty::I32, false, self.span);
                let q2 = self.ibinc(BinOp::Shl, q, 1);
                let q2 = self.ibin(BinOp::Or, q2, bit);
                q = self.sel(active, q2, q);
            }
        }
        let sx = self.sign_bit(x);
        let mut sign = sx;
        let mut flip_q = None;
        if rem {
            // Past half of y, or at half with an odd quotient: r - y.
            let r2 = self.ibin(BinOp::Add, r, r);
            let gt = self.l.cmp(CmpOp::GtS, r2, my, self.span);
            let eq = self.l.cmp(CmpOp::Eq, r2, my, self.span);
            let tie = self.and1(eq, last);
            let flip = self.or1(gt, tie);
            let nr = self.ibin(BinOp::Sub, my, r);
            r = self.sel(flip, nr, r);
            sign = self.ibin(BinOp::Xor, sx, flip);
            flip_q = Some(flip);
        }
        // r 2^(ey-150) with its sign; below the normal range it flushes to zero.
        let rf = self.sitof(r);
        let rb = self.bits(rf);
        let re = self.ibinc(BinOp::ShrU, rb, 23);
        let n = self.ibinc(BinOp::Sub, ey, 150);
        let e = self.ibin(BinOp::Add, re, n);
        let sh = self.ibinc(BinOp::Shl, n, 23);
        let mb = self.ibin(BinOp::Add, rb, sh);
        let r_zero = self.icmpc(CmpOp::Eq, r, 0);
        let under = self.icmpc(CmpOp::LeS, e, 0);
        let under = self.or1(under, r_zero);
        let z = self.i(0);
        let mb = self.sel(under, z, mb);
        let s32 = self.l.resize(sign, Ty::I32, false, self.span);
        let s32 = self.ibinc(BinOp::Shl, s32, 31);
        let mb = self.ibin(BinOp::Or, mb, s32);
        let big = self.float_of_bits(mb);
        // |x| < |y|: x itself, or for `remainder` x - y when 2|x| > |y| (exact).
        let xz = self.ftz(x, ex);
        let mut past_q = None;
        let small = if rem {
            let ax = self.un(UnOp::FAbs, xz);
            let ay = self.un(UnOp::FAbs, y);
            let ax2 = self.add(ax, ax);
            let past = self.fcmp(CmpOp::FGt, ax2, ay);
            past_q = Some(past);
            let dlt = self.sub(ax, ay);
            let dn = self.un(UnOp::FNeg, dlt);
            let dd = self.sel(sx, dn, dlt);
            self.sel(past, dd, xz)
        } else {
            xz
        };
        let is_small = self.icmpc(CmpOp::LtS, d, 0);
        let v = self.sel(is_small, small, big);
        // x zero: x; y infinite and x finite: x; NaN for NaN, infinite x or zero y.
        let x_zero = self.icmpc(CmpOp::Eq, ex, 0);
        let v = self.sel(x_zero, xz, v);
        let y_inf = self.icmpc(CmpOp::Eq, ey, 255);
        let v = self.sel(y_inf, xz, v);
        let x_special = self.icmpc(CmpOp::Eq, ex, 255);
        let y_zero = self.icmpc(CmpOp::Eq, ey, 0);
        let y_nan = self.is_nan(y);
        let bad = self.or1(x_special, y_zero);
        let bad = self.or1(bad, y_nan);
        let nan = self.nan();
        let v = self.sel(bad, nan, v);
        if !quo {
            return (v, None);
        }
        // k mod 128: |x| < |y| gives 0 or 1; zero, infinite y and NaN results 0.
        let (flip, past) = (flip_q.expect("rem"), past_q.expect("rem"));
        let f32b = self.l.resize(flip, Ty::I32, false, self.span);
        let k = self.ibin(BinOp::Add, q, f32b);
        let k = self.ibinc(BinOp::And, k, 127);
        let ks = self.l.resize(past, Ty::I32, false, self.span);
        let k = self.sel(is_small, ks, k);
        let zero_q = self.or1(x_zero, y_inf);
        let zero_q = self.or1(zero_q, bad);
        let z = self.i(0);
        let k = self.sel(zero_q, z, k);
        let sy = self.sign_bit(y);
        let neg = self.ibin(BinOp::Xor, sx, sy);
        let nk = self.ibin(BinOp::Sub, z, k);
        (v, Some(self.sel(neg, nk, k)))
    }
}
