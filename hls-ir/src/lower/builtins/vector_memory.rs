//! Vector loads and stores: `vloadN`/`vstoreN`, one element access per lane, through any
//! pointer (into memory, into a private variable, or chosen at run time: `places`).

use crate::ids::OpId;
use crate::lower::places::Place;
use crate::lower::{Lower, Val};
use crate::ops::BinOp;
use crate::types::Ty;
use frontend::ast::{Expr, Type};
use frontend::span::Span;

impl Lower<'_> {
    /// `vloadN(offset, p)`: lanes `p[offset * N + i]`.
    pub(super) fn vload(&mut self, n: u8, args: &[Expr], ty: &Type, span: Span) -> Val {
        let Some(k) = ty.elem_kind() else {
            return Val::Undef;
        };
        self.load_lanes(n, args, &Type::Scalar(k), span, |_, v| v)
    }

    /// `vstoreN(data, offset, p)`: lane `i` to `p[offset * N + i]`.
    pub(super) fn vstore(&mut self, n: u8, args: &[Expr], span: Span) -> Val {
        let Some(k) = args[0].ty.elem_kind() else {
            return Val::Undef;
        };
        self.store_lanes(n, args, &Type::Scalar(k), span, |_, v| v)
    }

    /// A `vloadN`-shaped load (`args`: offset, pointer): elements `p[offset * n + i]` of type
    /// `elem`, each through `lane` (`vload_halfN` converts them), as a vector when `n > 1`.
    pub(super) fn load_lanes(
        &mut self,
        n: u8,
        args: &[Expr],
        elem: &Type,
        span: Span,
        mut lane: impl FnMut(&mut Self, Val) -> Val,
    ) -> Val {
        let off = self.scalar(&args[0]);
        let Some(base) = self.pointer_place(&args[1]) else {
            return Val::Undef;
        };
        let first = self.vload_index(off, n, span);
        let mut lanes = Vec::new();
        for i in 0..n as u64 {
            let p = self.lane_place(base.clone(), first, i, elem, span);
            let v = self.read_place(p, elem, span);
            lanes.push(lane(self, v));
        }
        if n == 1 {
            lanes[0]
        } else {
            self.mk_agg(lanes, None)
        }
    }

    /// A `vstoreN`-shaped store (`args`: data, offset, pointer): lane `i` of the data, through
    /// `lane` (`vstore_halfN` converts it), to `p[offset * n + i]` of type `elem`.
    pub(super) fn store_lanes(
        &mut self,
        n: u8,
        args: &[Expr],
        elem: &Type,
        span: Span,
        mut lane: impl FnMut(&mut Self, Val) -> Val,
    ) -> Val {
        let data = self.rvalue(&args[0]);
        let off = self.scalar(&args[1]);
        let Some(base) = self.pointer_place(&args[2]) else {
            return Val::Undef;
        };
        let lanes = if n == 1 {
            vec![data]
        } else {
            self.parts_vals(data, &args[0].ty)
        };
        let first = self.vload_index(off, n, span);
        for (i, v) in lanes.into_iter().enumerate() {
            let v = lane(self, v);
            let p = self.lane_place(base.clone(), first, i as u64, elem, span);
            self.write_place(p, v, elem, span);
        }
        Val::Undef
    }

    /// `offset * n`: the element index of a `vloadn`/`vstoren`'s first lane.
    pub(super) fn vload_index(&mut self, off: OpId, n: u8, span: Span) -> OpId {
        let off = self.resize(off, Ty::I32, false, span);
        let n = self.konst(n as u64, Ty::I32, span);
        self.bin(BinOp::Mul, off, n, span)
    }

    /// The place of element `first + i` (of type `elem`) from `base`.
    pub(super) fn lane_place(
        &mut self,
        base: Place,
        first: OpId,
        i: u64,
        elem: &Type,
        span: Span,
    ) -> Place {
        let i = self.konst(i, Ty::I32, span);
        let idx = self.bin(BinOp::Add, first, i, span);
        self.index_place(base, idx, elem, false, span)
    }
}
