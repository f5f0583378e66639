//! Exact floating-point built-ins and conversions, built from integer operations on a float's
//! bits (bitcasts, shifts, masks, adds, compares, selects) and, where that is exact, the float
//! units; no unit of their own, so the scheduler pipelines them like any other datapath.
//!
//! - `floor`, `ceil`, `trunc`, `round`, `rint` ([`Integral`]): a float at or above 2^23 (or an
//!   infinity) is already an integer; below 1 the result is ±0 or ±1; in between the
//!   `150 - exponent` fraction bits are cleared, and one unit of the last kept bit added when
//!   the mode rounds the magnitude up (the carry may run into the exponent, as it should).
//! - `copysign`, `fdim`, `ldexp` (the exponent field moved, overflow to infinity, underflow to
//!   zero), `logb`; in `parts`: `maxmag`, `minmag`, `nextafter`, `ilogb`, and `fract`, `modf`,
//!   `frexp`, whose second result is written through their pointer argument.
//! - `convert_T_{rte,rtz,rtp,rtn}[_sat]`: float -> integer is the float unit's conversion
//!   (toward zero, saturating, NaN -> 0) of the value rounded to an integer as above;
//!   integer -> float with a directed rounding converts the magnitude with the bits below the
//!   24 kept ones cleared (exact), then steps one ulp away from zero when the mode asks and a
//!   cleared bit was set; float -> float is the identity.
//!
//! Semantics are the device's (`docs/hardware-interface.md`, "Floating point"), the emulator's:
//! a denormal argument counts as a zero of its sign, a NaN result is the canonical NaN.

mod parts;

use crate::ids::OpId;
use crate::lower::{scalar_ty, Lower, Val};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind};
use crate::types::Ty;
use frontend::ast::{Expr, MathFn, Rounding, ScalarKind, Type};
use frontend::span::Span;

const SIGN: u64 = 0x8000_0000;
const MAG: u64 = 0x7fff_ffff;
const FRAC: u64 = 0x007f_ffff;
const INF: u64 = 0x7f80_0000;
const ONE: u64 = 0x3f80_0000;
const HALF: u64 = 0x3f00_0000;
const CANONICAL_NAN: u64 = 0x7fc0_0000;
const F32: Ty = Ty::Float(32);

/// How `floor`, `ceil`, `trunc`, `round` (halfway away from zero) and `rint` (halfway to
/// even) round to an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Integral {
    Floor,
    Ceil,
    Trunc,
    Round,
    Rint,
}

/// The fields of a float lane, as `i32` values (and `i1` flags).
struct Fields {
    /// All 32 bits.
    bits: OpId,
    /// The sign bit in place (`bits & 0x8000_0000`).
    sign: OpId,
    /// `bits & 0x7fff_ffff`.
    mag: OpId,
    /// The biased exponent, 0 ..= 255.
    exp: OpId,
    /// NaN.
    nan: OpId,
    /// Zero or denormal: a zero of its sign on the device.
    zero: OpId,
    /// Negative (the sign bit).
    neg: OpId,
}

/// The built-ins of the `math` family this module builds.
pub(super) fn is_exact_float_fn(f: MathFn) -> bool {
    matches!(
        f,
        MathFn::Floor
            | MathFn::Ceil
            | MathFn::Trunc
            | MathFn::Round
            | MathFn::Rint
            | MathFn::Copysign
            | MathFn::Fdim
            | MathFn::Ldexp
            | MathFn::Logb
            | MathFn::Maxmag
            | MathFn::Minmag
            | MathFn::Nextafter
            | MathFn::Ilogb
            | MathFn::Fract
            | MathFn::Modf
            | MathFn::Frexp
    )
}

impl Lower<'_> {
    /// A built-in of [`is_exact_float_fn`] on `float` lanes.
    pub(super) fn float_exact(&mut self, f: MathFn, args: &[Expr], ty: &Type, span: Span) -> Val {
        if args[0].ty.elem_kind() != Some(ScalarKind::Float) {
            for a in args {
                self.rvalue(a);
            }
            self.unsupported(
                span,
                format!(
                    "`{}` on `{}` (only single-precision `float` is built in hardware)",
                    f.name(),
                    self.p.type_name(&args[0].ty)
                ),
            );
            return self.dummy(ty, span);
        }
        if matches!(f, MathFn::Fract | MathFn::Modf | MathFn::Frexp) {
            return self.two_results(f, args, ty, span);
        }
        self.lane_map(args, ty, span, |l, x| match f {
            MathFn::Floor => l.integral(x[0], Integral::Floor, span),
            MathFn::Ceil => l.integral(x[0], Integral::Ceil, span),
            MathFn::Trunc => l.integral(x[0], Integral::Trunc, span),
            MathFn::Round => l.integral(x[0], Integral::Round, span),
            MathFn::Rint => l.integral(x[0], Integral::Rint, span),
            MathFn::Copysign => l.copysign(x[0], x[1], span),
            MathFn::Fdim => l.fdim(x[0], x[1], span),
            MathFn::Ldexp => l.ldexp(x[0], x[1], span),
            MathFn::Maxmag | MathFn::Minmag => l.mag(f == MathFn::Maxmag, x[0], x[1], span),
            MathFn::Nextafter => l.nextafter(x[0], x[1], span),
            MathFn::Ilogb => l.ilogb(x[0], span),
            _ => l.logb(x[0], span),
        })
    }

    pub(super) fn c32(&mut self, v: u64, span: Span) -> OpId {
        self.konst(v, Ty::I32, span)
    }

    /// `a op constant` on `i32` values.
    pub(super) fn bin_c(&mut self, op: BinOp, a: OpId, v: u64, span: Span) -> OpId {
        let c = self.c32(v, span);
        self.bin(op, a, c, span)
    }

    /// `a cmp constant` on `i32` values.
    pub(super) fn cmp_c(&mut self, op: CmpOp, a: OpId, v: u64, span: Span) -> OpId {
        let c = self.c32(v, span);
        self.cmp(op, a, c, span)
    }

    fn fields(&mut self, x: OpId, span: Span) -> Fields {
        let bits = self.fit(x, Ty::I32, span);
        let sign = self.bin_c(BinOp::And, bits, SIGN, span);
        let mag = self.bin_c(BinOp::And, bits, MAG, span);
        let exp = self.bin_c(BinOp::ShrU, mag, 23, span);
        let nan = self.cmp_c(CmpOp::GtU, mag, INF, span);
        let zero = self.cmp_c(CmpOp::Eq, exp, 0, span);
        let neg = self.cmp_c(CmpOp::Ne, sign, 0, span);
        Fields {
            bits,
            sign,
            mag,
            exp,
            nan,
            zero,
            neg,
        }
    }

    /// `x` as the device reads it: a denormal as a zero of its sign, a NaN canonical (the
    /// float -> float conversion). Bits as `i32`.
    fn canonical_bits(&mut self, p: &Fields, span: Span) -> OpId {
        let r = self.select(p.zero, p.sign, p.bits, span);
        let nan = self.c32(CANONICAL_NAN, span);
        self.select(p.nan, nan, r, span)
    }

    fn as_float(&mut self, bits: OpId, span: Span) -> OpId {
        self.fit(bits, F32, span)
    }

    /// `floor`, `ceil`, `trunc`, `round` or `rint` of the float `x`.
    pub(super) fn integral(&mut self, x: OpId, mode: Integral, span: Span) -> OpId {
        let p = self.fields(x, span);
        // 1 <= |x| < 2^23: `150 - exp` (1 ..= 23) fraction bits.
        let f = self.c32(150, span);
        let f = self.bin(BinOp::Sub, f, p.exp, span);
        let one = self.c32(1, span);
        let unit = self.bin(BinOp::Shl, one, f, span);
        let mask = self.bin(BinOp::Sub, unit, one, span);
        let frac = self.bin(BinOp::And, p.bits, mask, span);
        let keep = self.bit_not(mask, span);
        let t = self.bin(BinOp::And, p.bits, keep, span);
        let inexact = self.cmp_c(CmpOp::Ne, frac, 0, span);
        let half = self.bin_c(BinOp::ShrU, unit, 1, span);
        let up = match mode {
            Integral::Floor => self.and1(inexact, p.neg, span),
            Integral::Ceil => {
                let pos = self.not1(p.neg, span);
                self.and1(inexact, pos, span)
            }
            Integral::Trunc => self.konst(0, Ty::BOOL, span),
            Integral::Round => self.cmp(CmpOp::GeU, frac, half, span),
            Integral::Rint => {
                let above = self.cmp(CmpOp::GtU, frac, half, span);
                let tie = self.cmp(CmpOp::Eq, frac, half, span);
                let last = self.bin(BinOp::And, t, unit, span);
                let odd = self.cmp_c(CmpOp::Ne, last, 0, span);
                let tie_odd = self.and1(tie, odd, span);
                self.or1(above, tie_odd, span)
            }
        };
        let stepped = self.bin(BinOp::Add, t, unit, span);
        let mid = self.select(up, stepped, t, span);
        // 0 < |x| < 1: 0 or 1 of the sign of `x`.
        let to_one = match mode {
            Integral::Floor => p.neg,
            Integral::Ceil => self.not1(p.neg, span),
            Integral::Trunc => self.konst(0, Ty::BOOL, span),
            Integral::Round => self.cmp_c(CmpOp::Eq, p.exp, 126, span),
            Integral::Rint => self.cmp_c(CmpOp::GtU, p.mag, HALF, span),
        };
        let (one_f, zero) = (self.c32(ONE, span), self.c32(0, span));
        let small_mag = self.select(to_one, one_f, zero, span);
        let small = self.bin(BinOp::Or, small_mag, p.sign, span);
        let is_small = self.cmp_c(CmpOp::LtU, p.exp, 127, span);
        let r = self.select(is_small, small, mid, span);
        let r = self.select(p.zero, p.sign, r, span);
        let big = self.cmp_c(CmpOp::GeU, p.exp, 150, span);
        let r = self.select(big, p.bits, r, span);
        let nan = self.c32(CANONICAL_NAN, span);
        let r = self.select(p.nan, nan, r, span);
        self.as_float(r, span)
    }

    /// `copysign(x, y)`: the magnitude of `x` with the sign of `y`.
    fn copysign(&mut self, x: OpId, y: OpId, span: Span) -> OpId {
        let p = self.fields(x, span);
        let yb = self.fit(y, Ty::I32, span);
        let ys = self.bin_c(BinOp::And, yb, SIGN, span);
        let zero = self.c32(0, span);
        let mag = self.select(p.zero, zero, p.mag, span);
        let r = self.bin(BinOp::Or, mag, ys, span);
        let nan = self.c32(CANONICAL_NAN, span);
        let r = self.select(p.nan, nan, r, span);
        self.as_float(r, span)
    }

    /// `fdim(x, y)`: `x - y` if `x > y`, NaN if either is NaN, else +0.
    fn fdim(&mut self, x: OpId, y: OpId, span: Span) -> OpId {
        let gt = self.fcmp(CmpOp::FGt, x, y, span);
        let d = self.fbin(BinOp::FSub, x, y, span);
        let px = self.fields(x, span);
        let py = self.fields(y, span);
        let nan = self.or1(px.nan, py.nan, span);
        let (cn, z) = (
            self.konst(CANONICAL_NAN, F32, span),
            self.konst(0, F32, span),
        );
        let other = self.select(nan, cn, z, span);
        self.select(gt, d, other, span)
    }

    /// `ldexp(x, n)`: `x * 2^n`, rounded once (to nearest even, so only a result just below
    /// 2^-126 can round up to it; every other denormal result is flushed).
    fn ldexp(&mut self, x: OpId, n: OpId, span: Span) -> OpId {
        let p = self.fields(x, span);
        let n = self.resize(n, Ty::I32, true, span);
        // A normal `x` has an exponent of 1 ..= 254: beyond ±512 every `n` is the same.
        let lo = self.c32((-512i64) as u64, span);
        let n = self.bin(BinOp::MaxS, n, lo, span);
        let n = self.bin_c(BinOp::MinS, n, 512, span);
        let e = self.bin(BinOp::Add, p.exp, n, span);
        let over = self.cmp_c(CmpOp::GeS, e, 255, span);
        let normal = self.cmp_c(CmpOp::GtS, e, 0, span);
        let frac = self.bin_c(BinOp::And, p.bits, FRAC, span);
        let full = self.cmp_c(CmpOp::Eq, frac, FRAC, span);
        let e0 = self.cmp_c(CmpOp::Eq, e, 0, span);
        let round_up = self.and1(e0, full, span);
        let keep = self.bin_c(BinOp::And, p.bits, SIGN | FRAC, span);
        let field = self.bin_c(BinOp::Shl, e, 23, span);
        let moved = self.bin(BinOp::Or, keep, field, span);
        let min_normal = self.bin_c(BinOp::Or, p.sign, 0x0080_0000, span);
        let under = self.select(round_up, min_normal, p.sign, span);
        let r = self.select(normal, moved, under, span);
        let inf = self.bin_c(BinOp::Or, p.sign, INF, span);
        let r = self.select(over, inf, r, span);
        let r = self.select(p.zero, p.sign, r, span);
        let special = self.cmp_c(CmpOp::Eq, p.exp, 255, span);
        let canon = self.canonical_bits(&p, span);
        let r = self.select(special, canon, r, span);
        self.as_float(r, span)
    }

    /// `logb(x)`: the unbiased exponent as a float; -inf for ±0, +inf for ±inf.
    fn logb(&mut self, x: OpId, span: Span) -> OpId {
        let p = self.fields(x, span);
        let e = self.bin_c(BinOp::Sub, p.exp, 127, span);
        let v = self.op(OpKind::Convert(ConvOp::SIToF), F32, span, &[e]);
        let v = self.fit(v, Ty::I32, span);
        let minus_inf = self.c32(SIGN | INF, span);
        let r = self.select(p.zero, minus_inf, v, span);
        let inf = self.c32(INF, span);
        let nan = self.c32(CANONICAL_NAN, span);
        let special = self.select(p.nan, nan, inf, span);
        let is_special = self.cmp_c(CmpOp::Eq, p.exp, 255, span);
        let r = self.select(is_special, special, r, span);
        self.as_float(r, span)
    }

    /// `convert_T[_sat][_mode]` where `from` or `to` is a floating-point kind. Only `float`
    /// is built; other precisions are diagnostics (from [`Lower::convert`]).
    pub(super) fn float_convert(
        &mut self,
        rounding: Rounding,
        from: ScalarKind,
        to: ScalarKind,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        let single = |k: ScalarKind| !k.is_float() || k == ScalarKind::Float;
        self.lane_map(args, ty, span, |l, x| {
            let v = x[0];
            if !single(from) || !single(to) || to == ScalarKind::Bool {
                return l
                    .convert(v, from, to, span)
                    .unwrap_or_else(|| l.konst(0, scalar_ty(to), span));
            }
            match (from.is_float(), to.is_float()) {
                (true, true) => {
                    let p = l.fields(v, span);
                    let r = l.canonical_bits(&p, span);
                    l.as_float(r, span)
                }
                (true, false) => {
                    let r = match rounding {
                        Rounding::Rte => l.integral(v, Integral::Rint, span),
                        Rounding::Rtp => l.integral(v, Integral::Ceil, span),
                        Rounding::Rtn => l.integral(v, Integral::Floor, span),
                        // The unit truncates, saturates and takes NaN to 0 (`_sat` or not).
                        Rounding::Rtz | Rounding::Default => v,
                    };
                    l.convert(r, from, to, span)
                        .expect("a conversion from float")
                }
                (false, _) => match rounding {
                    // 24 bits or fewer are exact; the unit rounds to nearest even.
                    Rounding::Rtz | Rounding::Rtp | Rounding::Rtn if from.bits() > 24 => {
                        l.int_to_float_directed(v, from.is_signed(), rounding, span)
                    }
                    _ => l.convert(v, from, to, span).expect("a conversion to float"),
                },
            }
        })
    }

    /// An integer of more than 24 bits to `float`, rounded toward zero, +inf or -inf.
    fn int_to_float_directed(
        &mut self,
        v: OpId,
        signed: bool,
        rounding: Rounding,
        span: Span,
    ) -> OpId {
        let t = self.k.op(v).ty;
        let w = u64::from(t.bits());
        let zero = self.konst(0, t, span);
        let neg = if signed {
            self.cmp(CmpOp::LtS, v, zero, span)
        } else {
            self.konst(0, Ty::BOOL, span)
        };
        let minus = self.bin(BinOp::Sub, zero, v, span);
        // The magnitude (2^(w-1) for the most negative value, read unsigned).
        let m = self.select(neg, minus, v, span);
        let lz = self.leading_zeros(m, span);
        // Bits below the 24 kept ones: max(w - 24 - lz, 0).
        let top = self.konst(w - 24, t, span);
        let k = self.bin(BinOp::Sub, top, lz, span);
        let k = self.bin(BinOp::MaxS, k, zero, span);
        let one = self.konst(1, t, span);
        let unit = self.bin(BinOp::Shl, one, k, span);
        let mask = self.bin(BinOp::Sub, unit, one, span);
        let low = self.bin(BinOp::And, m, mask, span);
        let inexact = self.cmp(CmpOp::Ne, low, zero, span);
        let keep = self.bit_not(mask, span);
        let kept = self.bin(BinOp::And, m, keep, span);
        let f = self.op(OpKind::Convert(ConvOp::UIToF), F32, span, &[kept]);
        let fb = self.fit(f, Ty::I32, span);
        let away = match rounding {
            Rounding::Rtp => self.not1(neg, span),
            Rounding::Rtn => neg,
            _ => self.konst(0, Ty::BOOL, span),
        };
        let away = self.and1(away, inexact, span);
        // The next float up in magnitude: its bits plus one (the kept value is exact).
        let step = self.resize(away, Ty::I32, false, span);
        let fb = self.bin(BinOp::Add, fb, step, span);
        let sign = self.resize(neg, Ty::I32, false, span);
        let sign = self.bin_c(BinOp::Shl, sign, 31, span);
        let r = self.bin(BinOp::Or, fb, sign, span);
        self.as_float(r, span)
    }
}
