//! The common, geometric and relational built-ins of `float` (OpenCL C 6.13.4, 6.13.5,
//! 6.13.6), from the float units and bit plumbing.
//!
//! - **Relational** (`isnan` ... `isunordered`, `signbit`): a compare per lane, 1 for a true
//!   scalar and all ones (-1) for a true vector lane. `isnan`, `isinf`, `isfinite`,
//!   `isnormal` and `signbit` test the bits; the comparisons are the float unit's, ordered
//!   (`isnotequal` and `isunordered` are true for a NaN).
//! - **Common**: `mix` is `a + (b - a) * c`, `step` `x < edge ? 0 : 1`, `smoothstep` `t * t *
//!   (3 - 2 t)` with `t` the clamped `(x - e0) / (e1 - e0)` (the emulator's operations, in
//!   the same order, so the two agree bit for bit), `degrees`/`radians` one product by the
//!   rounded constant (1.5 ulp at most; bound 2), `sign` 1, -1, ±0 or 0 for a NaN, `recip`
//!   the correctly rounded `1 / x`.
//! - **Geometric**: `dot` multiplies and adds lane by lane (the spec bounds its absolute
//!   error); `length` and `distance` scale the vector by the power of two that brings its
//!   largest magnitude near 1 (exactly, from the exponent field), so that the sum of squares
//!   never overflows or underflows where the result does not, and scale the root back;
//!   `normalize` divides the scaled vector by its scaled length, returns a zero vector as it
//!   is, and first replaces the lanes of a vector with an infinite lane by `copysign(1, x)`
//!   for the infinite ones and `0 * x` for the others, as the specification says; `cross`
//!   takes each of its differences from two exact products ([`Fb::two_prod`]), so it is
//!   correctly rounded but for the last addition (an infinite difference is the plain one). The `fast_` forms are the same functions.

use super::{Dd, Fb};
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp, UnOp};
use frontend::ast::MathFn;

/// Whether `f` is one of the functions built here.
pub(in crate::lower::builtins) fn is_common(f: MathFn) -> bool {
    use MathFn as M;
    matches!(
        f,
        M::Isnan
            | M::Isinf
            | M::Isfinite
            | M::Isnormal
            | M::Signbit
            | M::Isequal
            | M::Isnotequal
            | M::Isgreater
            | M::Isgreaterequal
            | M::Isless
            | M::Islessequal
            | M::Islessgreater
            | M::Isordered
            | M::Isunordered
            | M::Mix
            | M::Step
            | M::Smoothstep
            | M::Degrees
            | M::Radians
            | M::Sign
            | M::Recip
    )
}

/// Whether `f` is a geometric function (a result from all lanes).
pub(in crate::lower::builtins) fn is_geometric(f: MathFn) -> bool {
    use MathFn as M;
    matches!(
        f,
        M::Dot
            | M::Length
            | M::Distance
            | M::Normalize
            | M::Cross
            | M::FastLength
            | M::FastDistance
            | M::FastNormalize
    )
}

impl Fb<'_, '_> {
    /// A relational function of one lane, as a 1-bit truth value.
    pub(super) fn relational(&mut self, f: MathFn, x: &[OpId]) -> OpId {
        use MathFn as M;
        let a = x[0];
        let abs_bits = |b: &mut Self, v: OpId| {
            let bits = b.bits(v);
            b.ibinc(BinOp::And, bits, 0x7fff_ffff)
        };
        match f {
            M::Isnan => {
                let m = abs_bits(self, a);
                self.icmpc(CmpOp::GtU, m, 0x7f80_0000)
            }
            M::Isinf => {
                let m = abs_bits(self, a);
                self.icmpc(CmpOp::Eq, m, 0x7f80_0000)
            }
            M::Isfinite => {
                let m = abs_bits(self, a);
                self.icmpc(CmpOp::LtU, m, 0x7f80_0000)
            }
            M::Isnormal => {
                let m = abs_bits(self, a);
                let e = self.ibinc(BinOp::Sub, m, 0x0080_0000);
                // Exponent field 1 to 254: m - 2^23 below 254 << 23.
                self.icmpc(CmpOp::LtU, e, 0x7f00_0000)
            }
            M::Signbit => self.sign_bit(a),
            M::Isequal => self.fcmp(CmpOp::FEq, a, x[1]),
            M::Isnotequal => self.fcmp(CmpOp::FNe, a, x[1]),
            M::Isgreater => self.fcmp(CmpOp::FGt, a, x[1]),
            M::Isgreaterequal => self.fcmp(CmpOp::FGe, a, x[1]),
            M::Isless => self.fcmp(CmpOp::FLt, a, x[1]),
            M::Islessequal => self.fcmp(CmpOp::FLe, a, x[1]),
            M::Islessgreater => {
                let lt = self.fcmp(CmpOp::FLt, a, x[1]);
                let gt = self.fcmp(CmpOp::FGt, a, x[1]);
                self.or1(lt, gt)
            }
            M::Isordered => {
                let p = self.fcmp(CmpOp::FEq, a, a);
                let q = self.fcmp(CmpOp::FEq, x[1], x[1]);
                self.and1(p, q)
            }
            _ => {
                let p = self.is_nan(a);
                let q = self.is_nan(x[1]);
                self.or1(p, q)
            }
        }
    }

    /// A common function of one lane.
    pub(super) fn common(&mut self, f: MathFn, x: &[OpId]) -> OpId {
        use MathFn as M;
        match f {
            M::Mix => {
                let d = self.sub(x[1], x[0]);
                let p = self.mul(d, x[2]);
                self.add(x[0], p)
            }
            M::Step => {
                let below = self.fcmp(CmpOp::FLt, x[1], x[0]);
                let (zero, one) = (self.f(0.0), self.f(1.0));
                self.sel(below, zero, one)
            }
            M::Smoothstep => {
                let n = self.sub(x[2], x[0]);
                let d = self.sub(x[1], x[0]);
                let t = self.div(n, d);
                let (zero, one) = (self.f(0.0), self.f(1.0));
                let t = self.fmax(t, zero);
                let t = self.fmin(t, one);
                let tt = self.mul(t, t);
                let t2 = self.mulc(t, 2.0);
                let three = self.f(3.0);
                let u = self.sub(three, t2);
                self.mul(tt, u)
            }
            M::Degrees => self.mulc(x[0], 180.0 / std::f64::consts::PI),
            M::Radians => self.mulc(x[0], std::f64::consts::PI / 180.0),
            M::Sign => {
                let (one, m1, zero) = (self.f(1.0), self.f(-1.0), self.f(0.0));
                let pos = self.fcmpc(CmpOp::FGt, x[0], 0.0);
                let neg = self.fcmpc(CmpOp::FLt, x[0], 0.0);
                // Neither: a zero, or a denormal that the device flushes to a zero of its
                // sign (returning `x` itself kept the denormal: the kernel fuzzer found it,
                // `tests/fuzz-regressions/seed20261126_case1721.cl`).
                let signed_zero = self.copysign_of(zero, x[0]);
                let v = self.sel(neg, m1, signed_zero);
                let v = self.sel(pos, one, v);
                let nan = self.is_nan(x[0]);
                self.sel(nan, zero, v)
            }
            _ => {
                let one = self.f(1.0);
                self.div(one, x[0])
            }
        }
    }

    /// `2^-e` and `2^e` for the exponent `e` of the largest magnitude of `v` (clamped to
    /// [-125, 125], so both are normal floats): `v * 2^-e` has its largest lane in [1, 4).
    fn unit_scale(&mut self, v: &[OpId]) -> (OpId, OpId) {
        let mut m = self.un(UnOp::FAbs, v[0]);
        for &x in &v[1..] {
            let a = self.un(UnOp::FAbs, x);
            m = self.fmax(m, a);
        }
        let bits = self.bits(m);
        let e = self.ibinc(BinOp::ShrU, bits, 23);
        let e = self.ibinc(BinOp::Sub, e, 127);
        let lo = self.i(-125);
        let hi = self.i(125);
        let below = self.l.cmp(CmpOp::LtS, e, lo, self.span);
        let e = self.sel(below, lo, e);
        let above = self.l.cmp(CmpOp::GtS, e, hi, self.span);
        let e = self.sel(above, hi, e);
        let c127 = self.i(127);
        let down = self.ibin(BinOp::Sub, c127, e);
        let down = self.ibinc(BinOp::Shl, down, 23);
        let up = self.ibinc(BinOp::Add, e, 127);
        let up = self.ibinc(BinOp::Shl, up, 23);
        (self.float_of_bits(down), self.float_of_bits(up))
    }

    /// `sqrt(sum of v_i^2)` of the lanes already scaled.
    fn root_sum_sq(&mut self, v: &[OpId]) -> OpId {
        let mut s = self.mul(v[0], v[0]);
        for &x in &v[1..] {
            let q = self.mul(x, x);
            s = self.add(s, q);
        }
        self.un(UnOp::FSqrt, s)
    }

    /// The length of `v`, without overflow or underflow where the result has none.
    fn length(&mut self, v: &[OpId]) -> OpId {
        let (down, up) = self.unit_scale(v);
        let scaled: Vec<OpId> = v.iter().map(|&x| self.mul(x, down)).collect();
        let r = self.root_sum_sq(&scaled);
        self.mul(r, up)
    }

    /// `normalize(v)` (see the module documentation for the special cases).
    fn normalize(&mut self, v: &[OpId]) -> Vec<OpId> {
        let inf: Vec<OpId> = v
            .iter()
            .map(|&x| {
                let a = self.un(UnOp::FAbs, x);
                self.fcmpc(CmpOp::FEq, a, f64::INFINITY)
            })
            .collect();
        let any_inf = inf[1..].iter().fold(inf[0], |acc, &i| self.or1(acc, i));
        let zero = self.f(0.0);
        let one = self.f(1.0);
        let v: Vec<OpId> = v
            .iter()
            .zip(&inf)
            .map(|(&x, &i)| {
                let unit = self.copysign_of(one, x);
                let z = self.mul(zero, x);
                let r = self.sel(i, unit, z);
                self.sel(any_inf, r, x)
            })
            .collect();
        let (down, _) = self.unit_scale(&v);
        let scaled: Vec<OpId> = v.iter().map(|&x| self.mul(x, down)).collect();
        let l = self.root_sum_sq(&scaled);
        let is_zero = self.fcmpc(CmpOp::FEq, l, 0.0);
        v.iter()
            .zip(&scaled)
            .map(|(&x, &s)| {
                let q = self.div(s, l);
                self.sel(is_zero, x, q)
            })
            .collect()
    }

    /// `copysign(v, x)` on the bits, for a `v` known not to be a denormal or a NaN (a
    /// constant: zero, normal or infinite): not the built-in (`float_exact`'s `copysign`),
    /// which also flushes denormals and canonicalises NaN.
    pub(super) fn copysign_of(&mut self, v: OpId, x: OpId) -> OpId {
        let vb = self.bits(v);
        let vb = self.ibinc(BinOp::And, vb, 0x7fff_ffff);
        let xb = self.bits(x);
        let sb = self.ibinc(BinOp::And, xb, 0x8000_0000u32 as i32 as i64);
        let b = self.ibin(BinOp::Or, vb, sb);
        self.float_of_bits(b)
    }

    /// `a * b - c * d`, from exact products: correctly rounded but for the last addition.
    fn diff_of_products(&mut self, a: OpId, b: OpId, c: OpId, d: OpId) -> OpId {
        let p: Dd = self.two_prod(a, b);
        let q: Dd = self.two_prod(c, d);
        let nq = self.un(UnOp::FNeg, q.0);
        // The difference and its rounding error, then the low parts.
        let (s, e) = self.two_sum(p.0, nq);
        let l = self.sub(p.1, q.1);
        let lo = self.add(e, l);
        let r = self.add(s, lo);
        // An infinite (or NaN) difference is the plain one: the low parts are NaN then.
        let a = self.un(UnOp::FAbs, s);
        let finite = self.fcmpc(CmpOp::FLt, a, f64::INFINITY);
        self.sel(finite, r, s)
    }

    /// A geometric function of the lanes `x` (and `y`): its result lanes (one for the scalar
    /// results).
    pub(super) fn geometric(&mut self, f: MathFn, x: &[OpId], y: &[OpId]) -> Vec<OpId> {
        use MathFn as M;
        match f {
            M::Dot => {
                let mut s = self.mul(x[0], y[0]);
                for i in 1..x.len() {
                    let p = self.mul(x[i], y[i]);
                    s = self.add(s, p);
                }
                vec![s]
            }
            M::Length | M::FastLength => vec![self.length(x)],
            M::Distance | M::FastDistance => {
                let d: Vec<OpId> = x.iter().zip(y).map(|(&a, &b)| self.sub(a, b)).collect();
                vec![self.length(&d)]
            }
            M::Normalize | M::FastNormalize => self.normalize(x),
            _ => {
                let mut r = vec![
                    self.diff_of_products(x[1], y[2], x[2], y[1]),
                    self.diff_of_products(x[2], y[0], x[0], y[2]),
                    self.diff_of_products(x[0], y[1], x[1], y[0]),
                ];
                if x.len() == 4 {
                    r.push(self.f(0.0));
                }
                r
            }
        }
    }
}
