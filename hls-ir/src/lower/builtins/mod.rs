//! Built-in functions, dispatched by family: pipes (in `pipes`), work-item functions, integer
//! built-ins, floating-point built-ins, bit plumbing (`select`, `bitselect`, `any`/`all`),
//! conversions (`convert_T`, `as_T`), vector loads and stores, and atomic counters (`counter`).

mod async_copy;
mod atomic;
mod bit_count;
mod bits;
mod convert;
pub(super) mod counter;
mod fence;
mod float;
mod float_exact;
mod float_math;
mod half;
mod integer;
mod vector_memory;
mod wide_mul;
mod work_item;

pub(super) use fence::Fenced;

use super::{Lower, Val};
use crate::ids::OpId;
use frontend::ast::{Builtin, Expr, MathClass, MathFn, Type};
use frontend::span::Span;

/// How the source spells built-in `b` (for diagnostics), as far as the name says it.
fn source_name(b: Builtin) -> String {
    let n = |base: &str, k: u8| {
        if k == 1 {
            base.to_string()
        } else {
            format!("{base}{k}")
        }
    };
    match b {
        Builtin::VLoadHalf(k) => n("vload_half", k),
        Builtin::VStoreHalf(k) => n("vstore_half", k),
        Builtin::VLoad(k) => n("vload", k),
        Builtin::VStore(k) => n("vstore", k),
        Builtin::Printf => "printf".into(),
        Builtin::Math(f) => f.name().into(),
        other => format!("{other:?}"),
    }
}

impl Lower<'_> {
    pub(super) fn builtin(&mut self, b: Builtin, args: &[Expr], ty: &Type, span: Span) -> Val {
        if let Some(v) = self.pipe_builtin(b, args, span) {
            return v;
        }
        if let Some(v) = self.async_copy_builtin(b, args, span) {
            return v;
        }
        // An OpenCL 2.0 atomic with a release (acquire) order has a fence before (after) it.
        self.atomic_order_fence(span, false);
        if let Some(v) = self.c11_atomic(b, args, ty, span) {
            self.atomic_order_fence(span, true);
            return v;
        }
        if let Some(v) = self.fence_builtin(b, args) {
            return v;
        }
        if let Some(f) = work_item::work_item_fn(b) {
            return self.work_item(f, args, ty, span);
        }
        if matches!(b, Builtin::GetGlobalLinearId | Builtin::GetLocalLinearId) {
            return self.linear_id(b == Builtin::GetGlobalLinearId, ty, span);
        }
        let float_args = args.iter().any(|a| a.ty.is_float());
        match b {
            // `mad` is a floating-point built-in whatever its arguments.
            Builtin::Min | Builtin::Max | Builtin::Clamp | Builtin::Abs if float_args => {
                self.float_builtin(b, args, ty, span)
            }
            Builtin::Mad => self.float_builtin(b, args, ty, span),
            Builtin::Min | Builtin::Max | Builtin::Clamp | Builtin::Abs => {
                self.integer_builtin(b, args, ty, span)
            }
            Builtin::Select => self.select_builtin(args, ty, span),
            Builtin::Shuffle | Builtin::Shuffle2 => self.shuffle(args, ty, span),
            Builtin::Nan => self.nan_builtin(args, ty, span),
            Builtin::Atomic(_) if counter::is_counter_update(b, args) => {
                self.counter_update(b, args, span)
            }
            Builtin::AsType => self.as_type(args, ty, span),
            Builtin::Convert { sat, rounding } => {
                self.convert_builtin(sat, rounding, args, ty, span)
            }
            Builtin::Atomic(op) if !matches!(args[0].ty, Type::Counter32 | Type::Counter64) => {
                let v = self.atomic(op, args, ty, span);
                self.atomic_order_fence(span, true);
                v
            }
            Builtin::VLoad(n) => self.vload(n, args, ty, span),
            Builtin::VLoadHalf(n) => self.vload_half(n, args, span),
            Builtin::VStoreHalf(n) => self.vstore_half(n, args, span),
            Builtin::VStore(n) => self.vstore(n, args, span),
            Builtin::Math(f) | Builtin::NativeMath(f) => {
                self.math_builtin(f, args, ty, float_args, span)
            }
            other => {
                self.unsupported(span, format!("the built-in `{}`", source_name(other)));
                self.dummy(ty, span)
            }
        }
    }

    /// The `math` family (`native_` variants alike): bit plumbing on integer and float lanes,
    /// the exact operations of the float units, and diagnostics for the rest.
    fn math_builtin(
        &mut self,
        f: MathFn,
        args: &[Expr],
        ty: &Type,
        float_args: bool,
        span: Span,
    ) -> Val {
        match f {
            _ if matches!(f.class(), MathClass::AnyAll) && !float_args => {
                self.any_all(f, args, ty, span)
            }
            MathFn::Bitselect => self.bitselect(args, ty, span),
            MathFn::Fabs | MathFn::Fmin | MathFn::Fmax | MathFn::Sqrt | MathFn::Divide
                if float_args =>
            {
                self.float_math(f, args, ty, span)
            }
            _ if float_args && float_exact::is_exact_float_fn(f) => {
                self.float_exact(f, args, ty, span)
            }
            _ if float_args && float_math::is_built(f) => self.float_math_fn(f, args, ty, span),
            _ if float_args && float_math::is_common(f) => self.float_common_fn(f, args, ty, span),
            _ if float_args && float_math::is_geometric(f) => {
                self.float_geometric_fn(f, args, ty, span)
            }
            _ if !float_args
                && !ty.is_float()
                && matches!(
                    f.class(),
                    MathClass::I1
                        | MathClass::I2
                        | MathClass::I3
                        | MathClass::IU2
                        | MathClass::Upsample
                ) =>
            {
                match self.integer_math(f, args, ty, span) {
                    Some(v) => v,
                    None => {
                        self.unsupported(span, format!("the built-in `{}`", f.name()));
                        self.dummy(ty, span)
                    }
                }
            }
            _ if float_args || ty.is_float() => {
                for a in args {
                    self.rvalue(a);
                }
                self.unsupported(span, format!("floating-point arithmetic (`{}`)", f.name()));
                self.dummy(ty, span)
            }
            _ => {
                self.unsupported(span, format!("the built-in `{}`", f.name()));
                self.dummy(ty, span)
            }
        }
    }

    /// Applies `f` lane by lane to the arguments (scalar arguments of a vector built-in are
    /// used for every lane) and builds a value of type `ty`.
    fn lane_map(
        &mut self,
        args: &[Expr],
        ty: &Type,
        _span: Span,
        mut f: impl FnMut(&mut Self, &[OpId]) -> OpId,
    ) -> Val {
        let lanes: Vec<Vec<OpId>> = args.iter().map(|a| self.lanes_of_expr(a)).collect();
        let n = ty.lanes() as usize;
        let mut out = Vec::new();
        for i in 0..n {
            let x: Vec<OpId> = lanes.iter().map(|l| l[i.min(l.len() - 1)]).collect();
            out.push(f(self, &x));
        }
        if ty.is_vector() {
            self.vector(out)
        } else {
            Val::Scalar(out[0])
        }
    }
}
