//! Floating-point built-ins built from the float units: `min`/`max`/`clamp` on floats, `mad`,
//! and the exact `math` functions (`fabs`, `fmin`, `fmax`, `sqrt`, `divide`).

use crate::lower::{Lower, Val};
use crate::ops::{BinOp, UnOp};
use frontend::ast::{Builtin, Expr, MathFn, Type};
use frontend::span::Span;

impl Lower<'_> {
    /// `min`, `max`, `clamp` and `abs` with floating-point arguments, and `mad`.
    pub(super) fn float_builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        match b {
            // `min`/`max`/`clamp` on floats: undefined for NaN arguments, so `fmin`/`fmax`.
            Builtin::Min | Builtin::Max => {
                let op = if b == Builtin::Min {
                    BinOp::FMin
                } else {
                    BinOp::FMax
                };
                self.lane_map(args, ty, span, |l, x| l.fbin(op, x[0], x[1], span))
            }
            // `mad`: "a * b + c, precision implementation-defined": two roundings.
            Builtin::Mad => self.lane_map(args, ty, span, |l, x| {
                let p = l.fbin(BinOp::FMul, x[0], x[1], span);
                l.fbin(BinOp::FAdd, p, x[2], span)
            }),
            Builtin::Clamp => self.lane_map(args, ty, span, |l, x| {
                let lo = l.fbin(BinOp::FMax, x[0], x[1], span);
                l.fbin(BinOp::FMin, lo, x[2], span)
            }),
            _ => {
                for a in args {
                    self.rvalue(a);
                }
                self.unsupported(span, "`abs` of a floating-point value (use `fabs`)");
                Val::Undef
            }
        }
    }

    /// Exact operations of the float units (`native_` variants may be exact too).
    pub(super) fn float_math(&mut self, f: MathFn, args: &[Expr], ty: &Type, span: Span) -> Val {
        self.lane_map(args, ty, span, |l, x| match f {
            MathFn::Fabs => l.funary(UnOp::FAbs, x[0], span),
            MathFn::Sqrt => l.funary(UnOp::FSqrt, x[0], span),
            MathFn::Fmin => l.fbin(BinOp::FMin, x[0], x[1], span),
            MathFn::Fmax => l.fbin(BinOp::FMax, x[0], x[1], span),
            _ => l.fbin(BinOp::FDiv, x[0], x[1], span),
        })
    }
}
