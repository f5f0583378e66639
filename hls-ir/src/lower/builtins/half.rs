//! `vload_halfN` and `vstore_halfN` (OpenCL C 6.13.7): `half` elements in memory, `float`
//! lanes in the kernel, converted on integer bit plumbing (the device has no `half`
//! arithmetic).
//!
//! - **half to float** is exact: a normal half moves its exponent (bias 15 to 127) and
//!   significand; a subnormal half `m * 2^-24` is `m` converted and scaled (exact, and normal
//!   as a float); zeros, infinities and NaNs keep their sign and payload.
//! - **float to half** rounds to nearest even (the default rounding of `vstore_half`): from
//!   2^-14 on, the significand's top 10 bits plus a round-up of the 13 dropped bits (a carry
//!   into the exponent is the next binade, up to infinity); below, `|x| * 2^24` rounded to an
//!   integer is the subnormal's significand (1024 is the smallest normal, as it should be);
//!   from 65520 on, infinity; a NaN is the quiet NaN `0x7e00`, as the emulator gives it.

use crate::ids::OpId;
use crate::lower::builtins::float_exact::Integral;
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind};
use crate::types::Ty;
use frontend::ast::{Expr, ScalarKind, Type};
use frontend::span::Span;

const F32: Ty = Ty::Float(32);
const F16: Ty = Ty::Float(16);

impl Lower<'_> {
    /// The float of half bits `h` (an `i32` holding 16 bits).
    fn half_to_float(&mut self, h: OpId, span: Span) -> OpId {
        let sign = self.bin_c(BinOp::And, h, 0x8000, span);
        let sign = self.bin_c(BinOp::Shl, sign, 16, span);
        let e = self.bin_c(BinOp::ShrU, h, 10, span);
        let e = self.bin_c(BinOp::And, e, 0x1f, span);
        let m = self.bin_c(BinOp::And, h, 0x3ff, span);
        let m13 = self.bin_c(BinOp::Shl, m, 13, span);
        // Normal: exponent + 112; infinity / NaN: all ones.
        let e_n = self.bin_c(BinOp::Add, e, 112, span);
        let e_n = self.bin_c(BinOp::Shl, e_n, 23, span);
        let normal = self.bin(BinOp::Or, e_n, m13, span);
        let special = self.bin_c(BinOp::Or, m13, 0x7f80_0000, span);
        let is_special = self.cmp_c(CmpOp::Eq, e, 31, span);
        let bits = self.select(is_special, special, normal, span);
        // Subnormal or zero: m * 2^-24, exact.
        let mf = self.op(OpKind::Convert(ConvOp::SIToF), F32, span, &[m]);
        let scale = self.konst(f32::to_bits(2f32.powi(-24)) as u64, F32, span);
        let sub = self.fbin(BinOp::FMul, mf, scale, span);
        let sub = self.fit(sub, Ty::I32, span);
        let is_sub = self.cmp_c(CmpOp::Eq, e, 0, span);
        let bits = self.select(is_sub, sub, bits, span);
        let bits = self.bin(BinOp::Or, bits, sign, span);
        self.fit(bits, F32, span)
    }

    /// The half bits (in an `i32`) of float `x`, rounded to nearest even.
    fn float_to_half(&mut self, x: OpId, span: Span) -> OpId {
        let b = self.fit(x, Ty::I32, span);
        let sign = self.bin_c(BinOp::ShrU, b, 16, span);
        let sign = self.bin_c(BinOp::And, sign, 0x8000, span);
        let mag = self.bin_c(BinOp::And, b, 0x7fff_ffff, span);
        // Normal halves: the rebiased exponent and top significand bits as one number, so
        // that the round-up carries into the exponent.
        let top = self.bin_c(BinOp::ShrU, mag, 13, span);
        let top = self.bin_c(BinOp::Sub, top, 112 << 10, span);
        let rem = self.bin_c(BinOp::And, mag, 0x1fff, span);
        let odd = self.bin_c(BinOp::And, top, 1, span);
        // Above half an ulp, or at it with an odd significand.
        let h = self.c32(0x1000, span);
        let half_way = self.bin(BinOp::Sub, h, odd, span);
        let up = self.cmp(CmpOp::GtU, rem, half_way, span);
        let up = self.resize(up, Ty::I32, false, span);
        let normal = self.bin(BinOp::Add, top, up, span);
        // Subnormal halves: |x| * 2^24 rounded to an integer.
        let ax = self.fit(mag, F32, span);
        let scale = self.konst(f32::to_bits(2f32.powi(24)) as u64, F32, span);
        let t = self.fbin(BinOp::FMul, ax, scale, span);
        let t = self.integral(t, Integral::Rint, span);
        let sub = self.op(
            OpKind::Convert(ConvOp::FToSI { sat: true }),
            Ty::I32,
            span,
            &[t],
        );
        let is_sub = self.cmp_c(CmpOp::LtU, mag, 0x3880_0000, span); // 2^-14
        let v = self.select(is_sub, sub, normal, span);
        // 65520 and beyond (infinity included): infinity; NaN: 0x7e00.
        let inf = self.c32(0x7c00, span);
        let big = self.cmp_c(CmpOp::GeU, mag, 0x477f_f000, span); // 65520
        let v = self.select(big, inf, v, span);
        let v = self.bin(BinOp::Or, v, sign, span);
        let nan = self.cmp_c(CmpOp::GtU, mag, 0x7f80_0000, span);
        let qnan = self.c32(0x7e00, span);
        self.select(nan, qnan, v, span)
    }

    /// `vload_halfN(offset, p)`: `N` halves from `p + offset * N`, as floats.
    pub(super) fn vload_half(&mut self, n: u8, args: &[Expr], span: Span) -> Val {
        let elem = Type::Scalar(ScalarKind::Half);
        self.load_lanes(n, args, &elem, span, |l, h| {
            let h = l.scalar_of(h, &elem, span);
            let h = l.fit(h, Ty::Int(16), span);
            let h = l.resize(h, Ty::I32, false, span);
            Val::Scalar(l.half_to_float(h, span))
        })
    }

    /// `vstore_halfN(data, offset, p)`: the float lanes of `data` as halves at
    /// `p + offset * N`.
    pub(super) fn vstore_half(&mut self, n: u8, args: &[Expr], span: Span) -> Val {
        let ft = Type::Scalar(ScalarKind::Float);
        self.store_lanes(n, args, &Type::Scalar(ScalarKind::Half), span, |l, v| {
            let x = l.scalar_of(v, &ft, span);
            let h = l.float_to_half(x, span);
            let h = l.resize(h, Ty::Int(16), false, span);
            Val::Scalar(l.fit(h, F16, span))
        })
    }
}
