//! Conversion built-ins: `convert_T[_sat][_rte|_rtz|...]` and `as_T`.

use crate::ids::OpId;
use crate::lower::{scalar_ty, Lower, Val};
use crate::types::Ty;
use frontend::ast::{Expr, Rounding, Type};
use frontend::span::Span;

impl Lower<'_> {
    /// `as_T`: the same bits as another type of the same size.
    pub(super) fn as_type(&mut self, args: &[Expr], ty: &Type, span: Span) -> Val {
        let v = self.rvalue(&args[0]);
        let bits = self.pack(v, &args[0].ty, span);
        let bits = self.fit_width(bits, self.image_ty(ty), span);
        self.unpack(bits, ty, false, span)
    }

    /// `x` as a value of type `to` when both have the same width (as `fit`); otherwise
    /// (`as_T` between a 3-vector and a 4-vector image, which have the same size) unchanged.
    fn fit_width(&mut self, x: OpId, to: Ty, span: Span) -> OpId {
        if self.k.op(x).ty.bits() == to.bits() {
            self.fit(x, to, span)
        } else {
            x
        }
    }

    /// `convert_T`: lane by lane; rounding modes do not change integer conversions.
    pub(super) fn convert_builtin(
        &mut self,
        sat: bool,
        rounding: Rounding,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        let (Some(from), Some(to)) = (args[0].ty.elem_kind(), ty.elem_kind()) else {
            return self.dummy(ty, span);
        };
        if from.is_float() || to.is_float() {
            // Every rounding mode, `_sat` or not (`float_exact`).
            return self.float_convert(rounding, from, to, args, ty, span);
        }
        self.lane_map(args, ty, span, |l, x| {
            if sat {
                l.convert_sat(x[0], from, to, span)
            } else {
                l.resize(x[0], scalar_ty(to), from.is_signed(), span)
            }
        })
    }
}
