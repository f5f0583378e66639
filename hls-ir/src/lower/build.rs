//! Building ops during lowering: each builder folds on the spot when its operands are
//! constants (so constant conditions, indices and trip counts are visible to lowering itself),
//! and the floating-point builders turn precisions the hardware does not build into
//! diagnostics.

use super::{scalar_ty, Lower, Val};
use crate::ids::OpId;
use crate::kernel::{Kernel, Op};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use crate::passes::const_fold::{eval_binary, eval_cmp};
use crate::types::Ty;
use frontend::ast::Type;
use frontend::diag::Diagnostic;
use frontend::span::Span;

impl Lower<'_> {
    pub(super) fn op(&mut self, kind: OpKind, ty: Ty, span: Span, operands: &[OpId]) -> OpId {
        // Work-item values belong to the work-item loop; loops inside read them as live-ins.
        let region = if matches!(kind, OpKind::WorkItem(..)) {
            Kernel::WORK_ITEM_LOOP
        } else {
            self.region
        };
        self.k.add_op(
            Op {
                kind,
                ty,
                region,
                span,
                name: None,
            },
            operands,
        )
    }

    pub(super) fn konst(&mut self, v: u64, ty: Ty, span: Span) -> OpId {
        self.op(OpKind::Const(v & ty.mask()), ty, span, &[])
    }

    pub(super) fn const_val(&self, id: OpId) -> Option<u64> {
        match self.k.op(id).kind {
            OpKind::Const(v) if !self.k.op(id).ty.is_float() => Some(v),
            _ => None,
        }
    }

    /// A binary op, folded on the spot when both operands are constants (so constant
    /// conditions and indices are visible to lowering itself).
    pub(super) fn bin(&mut self, b: BinOp, a: OpId, c: OpId, span: Span) -> OpId {
        let ty = self.k.op(a).ty;
        if let (Some(x), Some(y)) = (self.const_val(a), self.const_val(c)) {
            if let Some(v) = eval_binary(b, ty, x, y) {
                return self.konst(v, ty, span);
            }
        }
        self.op(OpKind::Binary(b), ty, span, &[a, c])
    }

    pub(super) fn cmp(&mut self, c: CmpOp, a: OpId, b: OpId, span: Span) -> OpId {
        if let (Some(x), Some(y)) = (self.const_val(a), self.const_val(b)) {
            if let Some(r) = eval_cmp(c, self.k.op(a).ty.bits(), x, y) {
                return self.konst(r as u64, Ty::BOOL, span);
            }
        }
        self.op(OpKind::Cmp(c), Ty::BOOL, span, &[a, b])
    }

    pub(super) fn and1(&mut self, a: OpId, b: OpId, span: Span) -> OpId {
        match (self.const_val(a), self.const_val(b)) {
            (Some(1), _) => b,
            (_, Some(1)) => a,
            (Some(0), _) | (_, Some(0)) => self.konst(0, Ty::BOOL, span),
            _ if a == b => a,
            _ => self.op(OpKind::Binary(BinOp::And), Ty::BOOL, span, &[a, b]),
        }
    }

    pub(super) fn or1(&mut self, a: OpId, b: OpId, span: Span) -> OpId {
        match (self.const_val(a), self.const_val(b)) {
            (Some(0), _) => b,
            (_, Some(0)) => a,
            (Some(1), _) | (_, Some(1)) => self.konst(1, Ty::BOOL, span),
            _ if a == b => a,
            _ => self.op(OpKind::Binary(BinOp::Or), Ty::BOOL, span, &[a, b]),
        }
    }

    pub(super) fn not1(&mut self, a: OpId, span: Span) -> OpId {
        if let Some(v) = self.const_val(a) {
            return self.konst(v ^ 1, Ty::BOOL, span);
        }
        let one = self.konst(1, Ty::BOOL, span);
        self.op(OpKind::Binary(BinOp::Xor), Ty::BOOL, span, &[a, one])
    }

    pub(super) fn select(&mut self, c: OpId, t: OpId, e: OpId, span: Span) -> OpId {
        if t == e {
            return t;
        }
        match self.const_val(c) {
            Some(1) => t,
            Some(_) => e,
            None => {
                let ty = self.k.op(t).ty;
                self.op(OpKind::Select, ty, span, &[c, t, e])
            }
        }
    }

    /// Integer resize: truncate, or extend by the signedness of the source.
    pub(super) fn resize(&mut self, v: OpId, to: Ty, signed: bool, span: Span) -> OpId {
        let from = self.k.op(v).ty;
        if from == to {
            return v;
        }
        let conv = if to.bits() < from.bits() {
            ConvOp::Trunc
        } else if signed && from != Ty::BOOL {
            ConvOp::SExt
        } else {
            ConvOp::ZExt
        };
        if let Some(x) = self.const_val(v) {
            let val = crate::integer::convert(conv, from.bits(), to.bits(), x)
                .expect("an integer conversion");
            return self.konst(val, to, span);
        }
        self.op(OpKind::Convert(conv), to, span, &[v])
    }

    pub(super) fn bit_not(&mut self, v: OpId, span: Span) -> OpId {
        let ty = self.k.op(v).ty;
        if let Some(x) = self.const_val(v) {
            self.konst(!x, ty, span)
        } else {
            self.op(OpKind::Unary(UnOp::Not), ty, span, &[v])
        }
    }

    /// A vector comparison's lane: -1 (all ones) for true, 0 for false.
    pub(super) fn lane_mask(&mut self, c: OpId, to: Ty, span: Span) -> OpId {
        if let Some(x) = self.const_val(c) {
            return self.konst(if x & 1 == 1 { u64::MAX } else { 0 }, to, span);
        }
        self.op(OpKind::Convert(ConvOp::SExt), to, span, &[c])
    }

    /// The most significant bit of `v` (a vector lane's truth in `?:` and `select`).
    pub(super) fn msb(&mut self, v: OpId, span: Span) -> OpId {
        let b = self.k.op(v).ty.bits();
        self.extract(v, b - 1, Ty::BOOL, span)
    }

    /// Only single precision is built in hardware: `double` and `half` arithmetic is a
    /// diagnostic (the result a dummy).
    fn single_precision(&mut self, ty: Ty, span: Span) -> bool {
        if ty == Ty::Float(32) {
            return true;
        }
        let name = if ty.bits() == 64 { "double" } else { "half" };
        self.unsupported(
            span,
            format!("`{name}` arithmetic (only single-precision `float` is built in hardware)"),
        );
        false
    }

    /// A floating-point binary operation (`FAdd` ... `FMax`).
    pub(super) fn fbin(&mut self, b: BinOp, a: OpId, c: OpId, span: Span) -> OpId {
        let ty = self.k.op(a).ty;
        if !self.single_precision(ty, span) {
            return self.konst(0, ty, span);
        }
        self.op(OpKind::Binary(b), ty, span, &[a, c])
    }

    /// A floating-point unary operation (`FNeg`, `FAbs`, `FSqrt`).
    pub(super) fn funary(&mut self, u: UnOp, a: OpId, span: Span) -> OpId {
        let ty = self.k.op(a).ty;
        if !self.single_precision(ty, span) {
            return self.konst(0, ty, span);
        }
        self.op(OpKind::Unary(u), ty, span, &[a])
    }

    /// A floating-point comparison (`FEq` ... `FGe`).
    pub(super) fn fcmp(&mut self, c: CmpOp, a: OpId, b: OpId, span: Span) -> OpId {
        if !self.single_precision(self.k.op(a).ty, span) {
            return self.konst(0, Ty::BOOL, span);
        }
        self.op(OpKind::Cmp(c), Ty::BOOL, span, &[a, b])
    }

    pub(super) fn unsupported(&mut self, span: Span, what: impl Into<String>) {
        self.diags.push(
            Diagnostic::error(span, format!("{} is not yet supported by the hardware path", what.into()))
                .note("`oclhls check` accepts this program; compiling it to hardware needs a later version of oclhls"),
        );
    }

    pub(super) fn dummy(&mut self, ty: &Type, span: Span) -> Val {
        match ty {
            Type::Scalar(k) => Val::Scalar(self.konst(0, scalar_ty(*k), span)),
            _ => Val::Undef,
        }
    }
}
