//! Integer built-ins (OpenCL C 6.13.3, 6.13.4 for `abs`): `min`, `max`, `clamp` and `abs`,
//! and the integer functions of the `math` family, lane by lane on every integer type and
//! vector width. Each is lowered to the IR's existing integer ops, so the scheduler, `narrow`
//! and the RTL need nothing of their own:
//! - `add_sat`/`sub_sat`: the wrapping sum and its overflow from the signs (signed) or the
//!   carry (unsigned), then a select of the saturated value;
//! - `hadd`/`rhadd`: `(x & y) + ((x ^ y) >> 1)` and `(x | y) - ((x ^ y) >> 1)`, which never
//!   overflow the width;
//! - `abs_diff`: a compare selecting `x - y` or `y - x` (exact as an unsigned result);
//! - `mul24`/`mad24`: a full multiply (and add): the same value as the 24-bit product where
//!   the spec defines it, and the emulator's value elsewhere;
//! - `mul_hi`, `mad_hi`, `mad_sat`: the widening product of [`super::wide_mul`];
//! - `clz`, `ctz`, `popcount`, `rotate`: the trees of [`super::bit_count`];
//! - `upsample`: a concatenation (wiring).

use crate::ids::OpId;
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp, OpKind, UnOp};
use crate::types::Ty;
use frontend::ast::{Builtin, Expr, MathFn, Type};
use frontend::span::Span;

impl Lower<'_> {
    pub(super) fn integer_builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        let signed = Self::signed_elem(ty);
        match b {
            Builtin::Min | Builtin::Max => {
                let op = match (b, signed) {
                    (Builtin::Min, true) => BinOp::MinS,
                    (Builtin::Min, false) => BinOp::MinU,
                    (_, true) => BinOp::MaxS,
                    _ => BinOp::MaxU,
                };
                self.lane_map(args, ty, span, |l, x| l.bin(op, x[0], x[1], span))
            }
            Builtin::Clamp => {
                let (mx, mn) = if signed {
                    (BinOp::MaxS, BinOp::MinS)
                } else {
                    (BinOp::MaxU, BinOp::MinU)
                };
                self.lane_map(args, ty, span, |l, x| {
                    let a = l.bin(mx, x[0], x[1], span);
                    l.bin(mn, a, x[2], span)
                })
            }
            _ => {
                let s = Self::signed_elem(&args[0].ty);
                self.lane_map(args, ty, span, |l, x| {
                    if s {
                        l.op(OpKind::Unary(UnOp::AbsS), l.k.op(x[0]).ty, span, &[x[0]])
                    } else {
                        x[0]
                    }
                })
            }
        }
    }

    /// The integer functions of the `math` family (`add_sat` ... `upsample`); `None` for a
    /// function that is not one.
    pub(super) fn integer_math(
        &mut self,
        f: MathFn,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Option<Val> {
        // The signedness of the operands (`abs_diff` and `upsample` results differ).
        let s = Self::signed_elem(&args[0].ty);
        let v = match f {
            MathFn::AddSat => self.lane_map(args, ty, span, |l, x| l.add_sat(x[0], x[1], s, span)),
            MathFn::SubSat => self.lane_map(args, ty, span, |l, x| l.sub_sat(x[0], x[1], s, span)),
            MathFn::Hadd | MathFn::Rhadd => self.lane_map(args, ty, span, |l, x| {
                l.half_add(x[0], x[1], s, f == MathFn::Rhadd, span)
            }),
            MathFn::AbsDiff => self.lane_map(args, ty, span, |l, x| {
                let lt = l.cmp(if s { CmpOp::LtS } else { CmpOp::LtU }, x[0], x[1], span);
                let (a, b) = (
                    l.bin(BinOp::Sub, x[1], x[0], span),
                    l.bin(BinOp::Sub, x[0], x[1], span),
                );
                l.select(lt, a, b, span)
            }),
            MathFn::Mul24 => {
                self.lane_map(args, ty, span, |l, x| l.bin(BinOp::Mul, x[0], x[1], span))
            }
            MathFn::Mad24 => self.lane_map(args, ty, span, |l, x| {
                let p = l.bin(BinOp::Mul, x[0], x[1], span);
                l.bin(BinOp::Add, p, x[2], span)
            }),
            MathFn::MulHi => {
                self.lane_map(args, ty, span, |l, x| l.wide_mul(x[0], x[1], s, span).0)
            }
            MathFn::MadHi => self.lane_map(args, ty, span, |l, x| {
                let hi = l.wide_mul(x[0], x[1], s, span).0;
                l.bin(BinOp::Add, hi, x[2], span)
            }),
            MathFn::MadSat => {
                self.lane_map(args, ty, span, |l, x| l.mad_sat(x[0], x[1], x[2], s, span))
            }
            MathFn::Clz => self.lane_map(args, ty, span, |l, x| l.leading_zeros(x[0], span)),
            MathFn::Ctz => self.lane_map(args, ty, span, |l, x| l.trailing_zeros(x[0], span)),
            MathFn::Popcount => self.lane_map(args, ty, span, |l, x| l.popcount(x[0], span)),
            MathFn::Rotate => self.lane_map(args, ty, span, |l, x| l.rotate(x[0], x[1], span)),
            // (hi << bits) | lo: `lo` in the low half.
            MathFn::Upsample => {
                self.lane_map(args, ty, span, |l, x| l.concat(vec![x[1], x[0]], span))
            }
            _ => return None,
        };
        Some(v)
    }

    /// A constant of `x`'s type.
    pub(super) fn like(&mut self, x: OpId, v: u64, span: Span) -> OpId {
        let t = self.k.op(x).ty;
        self.konst(v, t, span)
    }

    /// The most positive value of `x`'s (signed) type, `2^(n-1) - 1`.
    fn max_signed(&mut self, x: OpId, span: Span) -> OpId {
        let n = self.k.op(x).ty.bits();
        self.like(x, (1u64 << (n - 1)) - 1, span)
    }

    /// The value a signed operation saturates to when its exact result has the sign of `x`
    /// and does not fit: the maximum for `x >= 0`, the minimum for `x < 0`
    /// (`MAX ^ (x >> (n - 1))`, the shift arithmetic).
    pub(super) fn saturated_like(&mut self, x: OpId, span: Span) -> OpId {
        let n = self.k.op(x).ty.bits();
        let sh = self.like(x, u64::from(n - 1), span);
        let sign = self.bin(BinOp::ShrS, x, sh, span);
        let max = self.max_signed(x, span);
        self.bin(BinOp::Xor, sign, max, span)
    }

    /// `add_sat`: signed overflow when both operands have the sign the sum lacks; unsigned
    /// when the sum wraps below an operand.
    fn add_sat(&mut self, x: OpId, y: OpId, signed: bool, span: Span) -> OpId {
        let r = self.bin(BinOp::Add, x, y, span);
        if signed {
            let (a, b) = (
                self.bin(BinOp::Xor, r, x, span),
                self.bin(BinOp::Xor, r, y, span),
            );
            let both = self.bin(BinOp::And, a, b, span);
            let ovf = self.msb(both, span);
            let sat = self.saturated_like(x, span);
            self.select(ovf, sat, r, span)
        } else {
            let wrapped = self.cmp(CmpOp::LtU, r, x, span);
            let ones = self.like(x, u64::MAX, span);
            self.select(wrapped, ones, r, span)
        }
    }

    /// `sub_sat`: signed overflow when the operands' signs differ and the difference's sign is
    /// not `x`'s; unsigned: 0 when `x < y`.
    fn sub_sat(&mut self, x: OpId, y: OpId, signed: bool, span: Span) -> OpId {
        let r = self.bin(BinOp::Sub, x, y, span);
        if signed {
            let (a, b) = (
                self.bin(BinOp::Xor, x, y, span),
                self.bin(BinOp::Xor, x, r, span),
            );
            let both = self.bin(BinOp::And, a, b, span);
            let ovf = self.msb(both, span);
            let sat = self.saturated_like(x, span);
            self.select(ovf, sat, r, span)
        } else {
            let under = self.cmp(CmpOp::LtU, x, y, span);
            let zero = self.like(x, 0, span);
            self.select(under, zero, r, span)
        }
    }

    /// `hadd` (`(x + y) >> 1`) or `rhadd` (`(x + y + 1) >> 1`) without the intermediate
    /// overflow: `x + y = 2(x & y) + (x ^ y) = 2(x | y) - (x ^ y)`, exactly, in the operands'
    /// own signedness.
    fn half_add(&mut self, x: OpId, y: OpId, signed: bool, round: bool, span: Span) -> OpId {
        let d = self.bin(BinOp::Xor, x, y, span);
        let one = self.like(x, 1, span);
        let half = self.bin(if signed { BinOp::ShrS } else { BinOp::ShrU }, d, one, span);
        if round {
            let o = self.bin(BinOp::Or, x, y, span);
            self.bin(BinOp::Sub, o, half, span)
        } else {
            let a = self.bin(BinOp::And, x, y, span);
            self.bin(BinOp::Add, a, half, span)
        }
    }

    /// An `i1` as a value of `x`'s type (0 or 1).
    pub(super) fn bit_as(&mut self, b: OpId, x: OpId, span: Span) -> OpId {
        let t: Ty = self.k.op(x).ty;
        self.resize(b, t, false, span)
    }
}
