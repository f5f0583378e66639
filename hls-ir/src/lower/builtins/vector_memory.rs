//! Vector loads and stores: `vloadN`/`vstoreN`, one element access per lane.

use crate::ids::{MemId, OpId};
use crate::lower::{Lower, Val};
use crate::ops::BinOp;
use crate::types::Ty;
use frontend::ast::{Expr, Type};
use frontend::span::Span;

impl Lower<'_> {
    /// `vloadN(offset, p)`: lanes `p[offset * N + i]`.
    pub(super) fn vload(&mut self, n: u8, args: &[Expr], ty: &Type, span: Span) -> Val {
        let off = self.scalar(&args[0]);
        let Val::Ptr { addr, mem } = self.rvalue(&args[1]) else {
            self.unsupported(args[1].span, "a pointer whose target buffer is unknown");
            return Val::Undef;
        };
        let Some(k) = ty.elem_kind() else {
            return Val::Undef;
        };
        let first = self.vload_index(off, n, span);
        let mut lanes = Vec::new();
        for i in 0..n as u64 {
            let a = self.vload_addr(addr, mem, first, i, span);
            let v = self.load(a, mem, &Type::Scalar(k), span);
            lanes.push(v);
        }
        if n == 1 {
            lanes[0]
        } else {
            self.mk_agg(lanes, None)
        }
    }

    /// `vstoreN(data, offset, p)`: lane `i` to `p[offset * N + i]`.
    pub(super) fn vstore(&mut self, n: u8, args: &[Expr], span: Span) -> Val {
        let data = self.rvalue(&args[0]);
        let off = self.scalar(&args[1]);
        let Val::Ptr { addr, mem } = self.rvalue(&args[2]) else {
            self.unsupported(args[2].span, "a pointer whose target buffer is unknown");
            return Val::Undef;
        };
        let Some(k) = args[0].ty.elem_kind() else {
            return Val::Undef;
        };
        let lanes = if n == 1 {
            vec![data]
        } else {
            self.parts_vals(data, &args[0].ty)
        };
        let first = self.vload_index(off, n, span);
        for (i, v) in lanes.into_iter().enumerate() {
            let a = self.vload_addr(addr, mem, first, i as u64, span);
            self.store_val(a, mem, v, &Type::Scalar(k), None, span);
        }
        Val::Undef
    }

    /// `offset * n`: the element index of a `vloadn`/`vstoren`'s first lane.
    fn vload_index(&mut self, off: OpId, n: u8, span: Span) -> OpId {
        let off = self.resize(off, Ty::I32, false, span);
        let n = self.konst(n as u64, Ty::I32, span);
        self.bin(BinOp::Mul, off, n, span)
    }

    /// The address of element `first + i` of memory `mem` from `addr`.
    fn vload_addr(&mut self, addr: OpId, mem: MemId, first: OpId, i: u64, span: Span) -> OpId {
        let i = self.konst(i, Ty::I32, span);
        let idx = self.bin(BinOp::Add, first, i, span);
        let off = self.scale(idx, mem, false, span);
        self.bin(BinOp::Add, addr, off, span)
    }
}
