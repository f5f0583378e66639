//! The widening product of two `n`-bit integers as its high and low halves (`mul_hi`,
//! `mad_hi`, `mad_sat`), from the IR's `n`-bit-or-wider `Mul`:
//! - up to 32 bits, one multiply at `2n` bits of the zero-extended operands (one DSP up to
//!   8 bits; at 16 and 32 bits the multiplier's partial products of the zero upper halves
//!   are constants, which synthesis removes);
//! - at 64 bits, from four 32×32 → 64-bit products of the operands' halves, summed by weight
//!   (arithmetic is at most 64 bits wide in the IR);
//! - signed products correct the unsigned high half: reading an `n`-bit `x` as signed
//!   subtracts `2^n` when its sign bit is set, so `hi_s = hi_u - (x < 0 ? y : 0) - (y < 0 ?
//!   x : 0)` (mod `2^n`), the low half unchanged.
//!
//! `mad_sat` adds the third operand to the `2n`-bit product (a carry into the high half, and a
//! sign extension for signed operands) and saturates when the high half is not the extension
//! of the low half.

use crate::ids::OpId;
use crate::lower::Lower;
use crate::ops::{BinOp, CmpOp};
use crate::types::Ty;
use frontend::span::Span;

impl Lower<'_> {
    /// `(high, low)` halves of the exact product of `x` and `y` (both `n` bits).
    pub(super) fn wide_mul(&mut self, x: OpId, y: OpId, signed: bool, span: Span) -> (OpId, OpId) {
        let t = self.k.op(x).ty;
        let n = t.bits();
        let (hi, lo) = if n <= 32 {
            let w = Ty::Int(2 * n as u16);
            let (a, b) = (
                self.resize(x, w, false, span),
                self.resize(y, w, false, span),
            );
            let p = self.bin(BinOp::Mul, a, b, span);
            (self.extract(p, n, t, span), self.extract(p, 0, t, span))
        } else {
            self.wide_mul_64(x, y, span)
        };
        if !signed {
            return (hi, lo);
        }
        let zero = self.like(x, 0, span);
        let (sx, sy) = (self.msb(x, span), self.msb(y, span));
        let cy = self.select(sx, y, zero, span);
        let cx = self.select(sy, x, zero, span);
        let hi = self.bin(BinOp::Sub, hi, cy, span);
        (self.bin(BinOp::Sub, hi, cx, span), lo)
    }

    /// The unsigned 128-bit product of two 64-bit values, from 32-bit halves:
    /// `x*y = p11·2^64 + (p01 + p10)·2^32 + p00`.
    fn wide_mul_64(&mut self, x: OpId, y: OpId, span: Span) -> (OpId, OpId) {
        let (w, h) = (Ty::Int(64), Ty::Int(32));
        let half = |l: &mut Self, v: OpId, lo: u32| {
            let e = l.extract(v, lo, h, span);
            l.resize(e, w, false, span)
        };
        let (x0, x1, y0, y1) = (
            half(self, x, 0),
            half(self, x, 32),
            half(self, y, 0),
            half(self, y, 32),
        );
        let p00 = self.bin(BinOp::Mul, x0, y0, span);
        let p01 = self.bin(BinOp::Mul, x0, y1, span);
        let p10 = self.bin(BinOp::Mul, x1, y0, span);
        let p11 = self.bin(BinOp::Mul, x1, y1, span);
        // The weight-2^32 column (below 3·2^32: no overflow), then the high half.
        let (c00, l01, l10) = (half(self, p00, 32), half(self, p01, 0), half(self, p10, 0));
        let mid = self.bin(BinOp::Add, c00, l01, span);
        let mid = self.bin(BinOp::Add, mid, l10, span);
        let (h01, h10, cmid) = (
            half(self, p01, 32),
            half(self, p10, 32),
            half(self, mid, 32),
        );
        let hi = self.bin(BinOp::Add, p11, h01, span);
        let hi = self.bin(BinOp::Add, hi, h10, span);
        let hi = self.bin(BinOp::Add, hi, cmid, span);
        let lo0 = self.extract(p00, 0, h, span);
        let lo1 = self.extract(mid, 0, h, span);
        let lo = self.concat(vec![lo0, lo1], span);
        (hi, lo)
    }

    /// `mad_sat(x, y, z)`: `x * y + z` saturated to the operands' type.
    pub(super) fn mad_sat(&mut self, x: OpId, y: OpId, z: OpId, signed: bool, span: Span) -> OpId {
        let n = self.k.op(x).ty.bits();
        let (hi, lo) = self.wide_mul(x, y, signed, span);
        let sum = self.bin(BinOp::Add, lo, z, span);
        let carry = self.cmp(CmpOp::LtU, sum, lo, span);
        let carry = self.bit_as(carry, x, span);
        let hi = self.bin(BinOp::Add, hi, carry, span);
        if !signed {
            // The exact value is below 2^(2n): it fits when the high half is zero.
            let zero = self.like(x, 0, span);
            let over = self.cmp(CmpOp::Ne, hi, zero, span);
            let ones = self.like(x, u64::MAX, span);
            return self.select(over, ones, sum, span);
        }
        // z read as signed adds -1 to the high half when negative.
        let zs = self.msb(z, span);
        let zs = self.bit_as(zs, x, span);
        let hi = self.bin(BinOp::Sub, hi, zs, span);
        let sh = self.like(x, u64::from(n - 1), span);
        let ext = self.bin(BinOp::ShrS, sum, sh, span);
        let fits = self.cmp(CmpOp::Eq, hi, ext, span);
        let sat = self.saturated_like(hi, span);
        self.select(fits, sum, sat, span)
    }
}
