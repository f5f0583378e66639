//! Conversions: C casts between scalars, vectors and pointers, and the scalar conversion
//! rules (integers resize, anything to `bool` is `!= 0`, single-precision float conversions).

use super::aggregate::is_agg_array;
use super::{scalar_ty, Lower, Val};
use crate::ids::OpId;
use crate::ops::{CmpOp, ConvOp, OpKind};
use crate::types::Ty;
use frontend::ast::{CastKind, Expr, ScalarKind, Type};
use frontend::span::Span;

impl Lower<'_> {
    pub(super) fn cast(&mut self, kind: CastKind, inner: &Expr, to: &Type, span: Span) -> Val {
        let _ = kind;
        match (&inner.ty, to) {
            // An array inside a struct decays to a pointer into its variable or element.
            (Type::Array(..), _) if is_agg_array(inner) => match self.place(inner) {
                Some(p) => self.place_ptr(p),
                None => Val::Undef,
            },
            (_, Type::Pointer { .. }) | (Type::Array(..), _) => match self.rvalue(inner) {
                v @ (Val::Ptr { .. } | Val::VarPtr { .. } | Val::PtrSel(_)) => v,
                Val::Undef => Val::Undef,
                Val::Scalar(_) | Val::Agg(_) => {
                    self.unsupported(span, "converting an integer to a pointer");
                    Val::Undef
                }
            },
            (Type::Pointer { .. }, Type::Scalar(k)) => {
                let v = self.scalar(inner);
                if *k == ScalarKind::Bool {
                    let z = self.konst(0, Ty::I32, span);
                    return Val::Scalar(self.cmp(CmpOp::Ne, v, z, span));
                }
                let t = scalar_ty(*k);
                Val::Scalar(self.resize(v, t, false, span))
            }
            (Type::Scalar(from), Type::Scalar(k)) => {
                let v = self.scalar(inner);
                match self.convert(v, *from, *k, span) {
                    Some(x) => Val::Scalar(x),
                    None => Val::Undef,
                }
            }
            // A splat: the operand has the vector's element type.
            (Type::Scalar(from), Type::Vector(k, n)) => {
                let v = self.scalar(inner);
                match self.convert(v, *from, *k, span) {
                    Some(x) => self.vector(vec![x; *n as usize]),
                    None => Val::Undef,
                }
            }
            (Type::Vector(from, n), Type::Vector(k, m)) if n == m => {
                let lanes = self.lanes_of_expr(inner);
                let mut out = Vec::new();
                for x in lanes {
                    match self.convert(x, *from, *k, span) {
                        Some(x) => out.push(x),
                        None => return Val::Undef,
                    }
                }
                self.vector(out)
            }
            (a, b) if a == b => self.rvalue(inner),
            // `0` as "no event to join" (`builtins::async_copy`: an event is an `i32`).
            (Type::Scalar(from), Type::Event) => {
                let v = self.scalar(inner);
                match self.convert(v, *from, ScalarKind::Int, span) {
                    Some(x) => Val::Scalar(x),
                    None => Val::Undef,
                }
            }
            (Type::Void, _) | (_, Type::Void) => {
                self.rvalue(inner);
                Val::Undef
            }
            _ => {
                self.unsupported(span, format!("a conversion to `{}`", self.p.type_name(to)));
                Val::Undef
            }
        }
    }

    /// Converts scalar `v` from `from` to `to` (C conversion rules): integers resize, anything
    /// to `bool` is `!= 0`, integers and `float` convert into each other (`SIToF`, `UIToF`,
    /// `FToSI`, `FToUI`); conversions involving `double` or `half` are diagnostics (`None`).
    pub(super) fn convert(
        &mut self,
        v: OpId,
        from: ScalarKind,
        to: ScalarKind,
        span: Span,
    ) -> Option<OpId> {
        if from == to {
            return Some(v);
        }
        if from.is_float() || to.is_float() {
            let single = |k: ScalarKind| !k.is_float() || k == ScalarKind::Float;
            if !single(from) || !single(to) {
                self.unsupported(
                    span,
                    format!("a conversion from `{from}` to `{to}` (only single-precision `float` is built in hardware)"),
                );
                return None;
            }
            if to == ScalarKind::Bool {
                return Some(self.as_predicate(v, span));
            }
            let conv = match (from.is_float(), to.is_float()) {
                (false, _) if from.is_signed() => ConvOp::SIToF,
                (false, _) => ConvOp::UIToF,
                (_, false) if to.is_signed() => ConvOp::FToSI { sat: false },
                _ => ConvOp::FToUI { sat: false },
            };
            return Some(self.op(OpKind::Convert(conv), scalar_ty(to), span, &[v]));
        }
        if to == ScalarKind::Bool {
            return Some(self.as_predicate(v, span));
        }
        Some(self.resize(v, scalar_ty(to), from.is_signed(), span))
    }
}
