//! `sin`, `cos`, `tan`, `sincos` and the `pi` forms.
//!
//! **Argument reduction** ([`Fb::reduce_pio2`]) over the whole float range, Payne-Hanek style
//! in integers: for `|x| > pi/4`, `x = mx 2^e` (24-bit `mx`), and `x * 2/pi mod 4` needs the
//! bits of `2/pi` from weight `2^-(e-1)` on (earlier ones give multiples of 4). A 96-bit window
//! of those bits is cut from a 288-bit table (a select among five 64-bit constant pairs per
//! word and a funnel shift), multiplied by `mx` in three 24x32-bit products and kept modulo
//! 2^96: the top two bits are the quadrant, the 94 below the fraction, rounded to the nearest
//! quadrant so that the fraction is in `[-1/2, 1/2)`. The table's truncation costs below
//! 2^-70 of a quadrant, so even the floats closest to a multiple of pi/2 (about 2^-30 of a
//! quadrant away) keep over 40 correct bits. The fraction becomes a pair (three exact
//! integer-to-float conversions summed with Fast2Sum) and is multiplied by `pi/2` as a pair:
//! `r = rh + rl`, `|r| <= pi/4`, relative error about 2^-35. `|x| <= pi/4` is its own `r`.
//!
//! **Kernels** ([`Fb::sin_cos_kernel`]): `sin r = rh + (rl + rh^3 S(rh^2))` and
//! `cos r = 1 - rh^2/2 + ...` with `rh^2` an exact pair ([`Fb::two_prod`]) and `1 - rh^2/2`
//! a Fast2Sum, Taylor polynomials to degree 11 and 12 (truncation below 2^-33): each about
//! 0.6 ulp. The quadrant picks `±sin r` or `±cos r`; `tan` is their quotient (about 2 ulp).
//!
//! **pi forms**: `2|x|` is exact, `n = rint(2|x|)`, `r = (2|x| - n) / 2` exact in
//! `[-1/4, 1/4]`, `pi r` a pair by [`Fb::mul_dd_const`]; the quadrant is `n mod 4` (floats of
//! `2^24` and more are even integers). Exact zeros and infinities of the specification
//! (`sinpi(n)`, `cospi(n + 1/2)`, `tanpi(n)`, `tanpi(n + 1/2)`) are selected where `r = 0`.

use super::{Dd, Fb};
use crate::ids::OpId;
use crate::lower::builtins::float_exact::Integral;
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use crate::types::Ty;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

const I64: Ty = Ty::Int(64);

/// `2/pi` after the binary point, 32 bits a word, behind one word of zeros (so that a window
/// may start before the binary point).
const TWO_OVER_PI: [u64; 9] = [
    0,
    0xa2f9_836e,
    0x4e44_1529,
    0xfc27_57d1,
    0xf534_ddc0,
    0xdb62_9599,
    0x3c43_9041,
    0xfe51_63ab,
    0xdebb_c561,
];

/// Which function of the reduced argument.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Trig {
    Sin,
    Cos,
    Tan,
}

impl Fb<'_, '_> {
    fn b64c(&mut self, op: BinOp, a: OpId, v: u64) -> OpId {
        let c = self.k64(v as i64);
        self.ibin(op, a, c)
    }
    fn scale(&mut self, v: OpId, p: i32) -> OpId {
        self.mulc(v, 2f64.powi(p))
    }

    /// `(q, r)`: `|x| = q pi/2 + r` (`q` modulo 4 in an `i32`, `r` a pair in `[-pi/4, pi/4]`)
    /// for a finite `ax = |x|`.
    pub(super) fn reduce_pio2(&mut self, ax: OpId) -> (OpId, Dd) {
        let (ex, mx) = self.exp_sig(ax);
        let mx = self.l.resize(mx, I64, false, self.span);
        // The window starts at bit k0 = ex - 120 of the table (5..134).
        let k0 = self.ibinc(BinOp::Sub, ex, 120);
        let k0 = self.ibinc(BinOp::MaxS, k0, 0);
        let wi = self.ibinc(BinOp::ShrU, k0, 5);
        let sh = self.ibinc(BinOp::And, k0, 31);
        let sh = self.l.resize(sh, I64, false, self.span);
        let mut words = Vec::new();
        for j in 0..3 {
            let mut w = self.k64(((TWO_OVER_PI[j] << 32) | TWO_OVER_PI[j + 1]) as i64);
            for i in 1..5 {
                let c = self.k64(((TWO_OVER_PI[i + j] << 32) | TWO_OVER_PI[i + j + 1]) as i64);
                let at = self.icmpc(CmpOp::Eq, wi, i as i64);
                w = self.sel(at, c, w);
            }
            let w = self.ibin(BinOp::Shl, w, sh);
            words.push(self.b64c(BinOp::ShrU, w, 32));
        }
        // P = mx * window mod 2^96, in 32-bit words w2 w1 w0.
        let p0 = self.ibin(BinOp::Mul, mx, words[2]);
        let p1 = self.ibin(BinOp::Mul, mx, words[1]);
        let p2 = self.ibin(BinOp::Mul, mx, words[0]);
        let m32 = 0xffff_ffff;
        let w0 = self.b64c(BinOp::And, p0, m32);
        let c0 = self.b64c(BinOp::ShrU, p0, 32);
        let s1 = self.b64c(BinOp::And, p1, m32);
        let s1 = self.ibin(BinOp::Add, s1, c0);
        let w1 = self.b64c(BinOp::And, s1, m32);
        let c1 = self.b64c(BinOp::ShrU, s1, 32);
        let h1 = self.b64c(BinOp::ShrU, p1, 32);
        let c1 = self.ibin(BinOp::Add, c1, h1);
        let w2 = self.ibin(BinOp::Add, p2, c1);
        let w2 = self.b64c(BinOp::Shl, w2, 32);
        let h = self.ibin(BinOp::Or, w2, w1);
        // Fraction bits 93..30 as a signed word (negative: rounded up to the next quadrant).
        let f = self.b64c(BinOp::Shl, h, 2);
        let top = self.b64c(BinOp::ShrU, w0, 30);
        let f = self.ibin(BinOp::Or, f, top);
        let zero = self.k64(0);
        let neg = self.l.cmp(CmpOp::LtS, f, zero, self.span);
        let q = self.b64c(BinOp::ShrU, h, 62);
        let q = self.l.resize(q, Ty::I32, false, self.span);
        let n1 = self.l.resize(neg, Ty::I32, false, self.span);
        let q = self.ibin(BinOp::Add, q, n1);
        let q = self.ibinc(BinOp::And, q, 3);
        // The fraction (quadrants) as a pair: 24 + 24 + 16 bits of f, 30 bits of w0.
        let a = self.b64c(BinOp::ShrS, f, 40);
        let b = self.b64c(BinOp::ShrU, f, 16);
        let b = self.b64c(BinOp::And, b, 0xff_ffff);
        let c = self.b64c(BinOp::And, f, 0xffff);
        let d = self.b64c(BinOp::And, w0, 0x3fff_ffff);
        let mut fl = Vec::new();
        for (v, p) in [(a, -24), (b, -48), (c, -64), (d, -94)] {
            let v = self.l.resize(v, Ty::I32, false, self.span);
            let v = self.sitof(v);
            fl.push(self.scale(v, p));
        }
        let (hh, hl) = self.fast_two_sum(fl[0], fl[1]);
        let cd = self.add(fl[2], fl[3]);
        let hl = self.add(hl, cd);
        let fr = self.fast_two_sum(hh, hl);
        let (rh, rl) = self.mul_dd_const(fr, FRAC_PI_2);
        let r = self.fast_two_sum(rh, rl);
        // |x| <= pi/4: r = x, q = 0.
        let small = self.fcmpc(CmpOp::FLe, ax, FRAC_PI_4);
        let z = self.f(0.0);
        let rh = self.sel(small, ax, r.0);
        let rl = self.sel(small, z, r.1);
        let zi = self.i(0);
        let q = self.sel(small, zi, q);
        (q, (rh, rl))
    }

    /// `(sin r, cos r)` for a pair `|r| <= pi/4` (see the module documentation).
    pub(super) fn sin_cos_kernel(&mut self, r: Dd) -> (OpId, OpId) {
        let (rh, rl) = r;
        let (zh, zl) = self.two_prod(rh, rh);
        let fact = |k: i32| (1..=k).map(f64::from).product::<f64>();
        let sc: Vec<f64> = (0..5)
            .map(|j| (if j % 2 == 0 { -1.0 } else { 1.0 }) / fact(2 * j + 3))
            .collect();
        let sp = self.poly(zh, &sc);
        let r3 = self.mul(zh, rh);
        let st = self.mul(r3, sp);
        let st = self.add(rl, st);
        let s = self.add(rh, st);
        // cos r = (1 - zh/2) + (e - zl/2 - rh rl + z^2 C(z)).
        let cc: Vec<f64> = (0..5)
            .map(|j| (if j % 2 == 0 { 1.0 } else { -1.0 }) / fact(2 * j + 4))
            .collect();
        let cp = self.poly(zh, &cc);
        let hz = self.mulc(zh, 0.5);
        let one = self.f(1.0);
        let (w, e) = {
            let s = self.sub(one, hz);
            let back = self.sub(one, s);
            (s, self.sub(back, hz))
        };
        let z2 = self.mul(zh, zh);
        let ct = self.mul(z2, cp);
        let hzl = self.mulc(zl, 0.5);
        let rr = self.mul(rh, rl);
        let corr = self.add(hzl, rr);
        let ct = self.sub(ct, corr);
        let ct = self.add(e, ct);
        let c = self.add(w, ct);
        (s, c)
    }

    /// `f` of `|x| = q pi/2 + r` for quadrant `q`.
    fn quadrant(&mut self, f: Trig, q: OpId, r: Dd) -> OpId {
        let (s, c) = self.sin_cos_kernel(r);
        self.pick(f, q, s, c)
    }

    /// `f` of `|x| = q pi/2 + r` from `s = sin r`, `c = cos r`.
    fn pick(&mut self, f: Trig, q: OpId, s: OpId, c: OpId) -> OpId {
        let ns = self.un(UnOp::FNeg, s);
        let nc = self.un(UnOp::FNeg, c);
        let odd = self.ibinc(BinOp::And, q, 1);
        let odd = self.icmpc(CmpOp::Ne, odd, 0);
        let hi = self.ibinc(BinOp::And, q, 2);
        let hi = self.icmpc(CmpOp::Ne, hi, 0);
        match f {
            Trig::Sin => {
                let p = self.sel(odd, c, s);
                let n = self.sel(odd, nc, ns);
                self.sel(hi, n, p)
            }
            Trig::Cos => {
                // q: 0 -> c, 1 -> -s, 2 -> -c, 3 -> s.
                let p = self.sel(odd, s, c);
                let n = self.sel(odd, ns, nc);
                let flip = self.ibin(BinOp::Xor, odd, hi);
                self.sel(flip, n, p)
            }
            Trig::Tan => {
                let t = self.div(s, c);
                let u = self.div(nc, s);
                self.sel(odd, u, t)
            }
        }
    }

    /// `-v` when `neg`.
    fn neg_when(&mut self, neg: OpId, v: OpId) -> OpId {
        let n = self.un(UnOp::FNeg, v);
        self.sel(neg, n, v)
    }

    /// `sin`, `cos` or `tan` of `x`.
    pub(super) fn trig(&mut self, f: Trig, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        let (q, r) = self.reduce_pio2(ax);
        let v = self.quadrant(f, q, r);
        let v = if f == Trig::Cos {
            v
        } else {
            let sx = self.sign_bit(x);
            self.neg_when(sx, v)
        };
        // NaN and infinities: NaN.
        let fin = self.fcmpc(CmpOp::FLt, ax, f64::INFINITY);
        let nan = self.nan();
        self.sel(fin, v, nan)
    }

    /// `(sin x, cos x)` from one reduction and one kernel (`sincos`).
    pub(super) fn sincos(&mut self, x: OpId) -> (OpId, OpId) {
        let ax = self.un(UnOp::FAbs, x);
        let (q, r) = self.reduce_pio2(ax);
        let (s, c) = self.sin_cos_kernel(r);
        let sv = self.pick(Trig::Sin, q, s, c);
        let cv = self.pick(Trig::Cos, q, s, c);
        let sx = self.sign_bit(x);
        let sv = self.neg_when(sx, sv);
        let fin = self.fcmpc(CmpOp::FLt, ax, f64::INFINITY);
        let nan = self.nan();
        (self.sel(fin, sv, nan), self.sel(fin, cv, nan))
    }

    /// `sinpi`, `cospi` or `tanpi` of `x`.
    pub(super) fn trig_pi(&mut self, f: Trig, x: OpId) -> OpId {
        let ax = self.un(UnOp::FAbs, x);
        // From 2^24 on every float is an even integer: 2^25 stands for them (no overflow).
        let cap = self.f(33_554_432.0);
        let axc = self.fmin(ax, cap);
        let t = self.add(axc, axc);
        let n = self.l.integral(t, Integral::Rint, self.span);
        let d = self.sub(t, n);
        let r = self.mulc(d, 0.5);
        let ni = self.l.op(
            OpKind::Convert(ConvOp::FToSI { sat: true }),
            Ty::I32,
            self.span,
            &[n],
        );
        let q = self.ibinc(BinOp::And, ni, 3);
        let z = self.f(0.0);
        let pr = self.mul_dd_const((r, z), PI);
        let pr = self.fast_two_sum(pr.0, pr.1);
        let v = self.quadrant(f, q, pr);
        // Below 2^-80, pi x is x scaled up by 2^36 and back (the pair's corrections would
        // fall below the normal range); sin and tan are pi x there.
        let v = if f == Trig::Cos {
            v
        } else {
            let up = self.mulc(ax, 2f64.powi(36));
            let p = self.mul_dd_const((up, z), PI);
            let p = self.round_dd(p);
            let tiny_v = self.mulc(p, 2f64.powi(-36));
            let tiny = self.fcmpc(CmpOp::FLt, ax, 2f64.powi(-80));
            self.sel(tiny, tiny_v, v)
        };
        // r = 0: the exact values; sinpi(n) = +0, cospi(n + 1/2) = +0, tanpi(n) = ±0 by the
        // parity of n, tanpi(n + 1/2) = +inf for even n (before the sign of x).
        let r0 = self.fcmpc(CmpOp::FEq, r, 0.0);
        let odd = self.ibinc(BinOp::And, q, 1);
        let odd = self.icmpc(CmpOp::Ne, odd, 0);
        let exact = match f {
            Trig::Sin => {
                let ev = self.not1(odd);
                let c = self.and1(r0, ev);
                Some((c, z))
            }
            Trig::Cos => Some((self.and1(r0, odd), z)),
            Trig::Tan => None,
        };
        let v = match exact {
            Some((c, val)) => self.sel(c, val, v),
            None => {
                let q1 = self.icmpc(CmpOp::Eq, q, 1);
                let q2 = self.icmpc(CmpOp::Eq, q, 2);
                let pinf = self.inf();
                let nz = self.f(-0.0);
                let ez = self.sel(q2, nz, z);
                let c1 = self.and1(r0, q1);
                let ev = self.not1(odd);
                let c0 = self.and1(r0, ev);
                let v = self.sel(c0, ez, v);
                self.sel(c1, pinf, v)
            }
        };
        let v = if f == Trig::Cos {
            v
        } else {
            let sx = self.sign_bit(x);
            self.neg_when(sx, v)
        };
        let fin = self.fcmpc(CmpOp::FLt, ax, f64::INFINITY);
        let nan = self.nan();
        self.sel(fin, v, nan)
    }
}
