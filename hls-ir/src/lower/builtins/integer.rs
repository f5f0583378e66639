//! Integer built-ins: `min`, `max`, `clamp` and `abs` on integer lanes.

use crate::lower::{Lower, Val};
use crate::ops::{BinOp, OpKind, UnOp};
use frontend::ast::{Builtin, Expr, Type};
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
}
