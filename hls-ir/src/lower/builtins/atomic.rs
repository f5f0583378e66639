//! Atomic built-ins on memory (`atomic_*`, `atom_*`): one [`OpKind::Atomic`] read-modify-write
//! of a 32- or 64-bit element of a global or on-chip memory, returning the old element.
//! `atomic_inc`/`atomic_dec` are `Add`/`Sub` of 1; `min`/`max` pick the signed or unsigned
//! compare from the element type; `atomic_xchg` on `float` moves the bits. Counters
//! (`counter32_t`, `counter64_t`) are not memory and are lowered elsewhere.
//!
//! Ordering: an atomic is a read and a write of its element. On-chip it is ordered like a
//! store against the memory's other accesses. On a global port it travels on the read
//! channel, so it is ordered like a load (after this work-item's stores to memory it may
//! alias, `lower::memory`), and later stores to memory it may alias wait for its response
//! (`Lower::order_after_reads`).

use super::super::{Lower, Val};
use crate::ids::OpId;
use crate::ops::{AtomicOp, OpKind};
use frontend::ast::{AtomicOp as SrcOp, Expr, ScalarKind, Type};
use frontend::span::Span;

/// The memory-side operation of a source atomic on elements of type `elem`, and the constant
/// operand of `inc`/`dec`.
fn memory_op(op: SrcOp, elem: &Type) -> (AtomicOp, Option<u64>) {
    let signed = matches!(elem, Type::Scalar(ScalarKind::Int | ScalarKind::Long));
    match op {
        SrcOp::Add => (AtomicOp::Add, None),
        SrcOp::Sub => (AtomicOp::Sub, None),
        SrcOp::Xchg => (AtomicOp::Xchg, None),
        SrcOp::CmpXchg => (AtomicOp::CmpXchg, None),
        SrcOp::Min if signed => (AtomicOp::MinS, None),
        SrcOp::Min => (AtomicOp::MinU, None),
        SrcOp::Max if signed => (AtomicOp::MaxS, None),
        SrcOp::Max => (AtomicOp::MaxU, None),
        SrcOp::And => (AtomicOp::And, None),
        SrcOp::Or => (AtomicOp::Or, None),
        SrcOp::Xor => (AtomicOp::Xor, None),
        SrcOp::Inc => (AtomicOp::Add, Some(1)),
        SrcOp::Dec => (AtomicOp::Sub, Some(1)),
    }
}

impl Lower<'_> {
    /// `atomic_<op>(p, ...)` on memory: the old value of `*p`, of type `ty` (the element
    /// type).
    pub(in crate::lower) fn atomic(
        &mut self,
        op: SrcOp,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Val {
        let Val::Ptr { addr, mem } = self.rvalue(&args[0]) else {
            self.unsupported(
                args[0].span,
                "an atomic through a pointer whose target buffer is unknown",
            );
            return self.dummy(ty, span);
        };
        // The operands, as the element's bits (a `float` exchanged moves its bits).
        let mut values: Vec<OpId> = Vec::new();
        for a in &args[1..] {
            let v = self.rvalue(a);
            values.push(self.pack(v, &a.ty, a.span));
        }
        if !self.check_access(mem, ty, span) {
            return self.dummy(ty, span);
        }
        let elem = self.k.mem(mem).elem;
        if !matches!(elem.bits(), 32 | 64) {
            self.unsupported(span, format!("an atomic on {}-bit elements", elem.bits()));
            return self.dummy(ty, span);
        }
        let (aop, constant) = memory_op(op, ty);
        let mut operands = vec![addr];
        match (aop, constant) {
            (_, Some(c)) => operands.push(self.konst(c, elem, span)),
            // `atomic_cmpxchg(p, cmp, val)`: the operand is the new value, then the compare.
            (AtomicOp::CmpXchg, None) => {
                let (cmp, val) = (values[0], values[1]);
                operands.push(self.fit(val, elem, span));
                operands.push(self.fit(cmp, elem, span));
            }
            (_, None) => operands.push(self.fit(values[0], elem, span)),
        }
        operands.push(self.effect_pred(span));
        let id = self.op(OpKind::Atomic { mem, op: aop }, elem, span, &operands);
        self.order_onchip(id, mem, true);
        self.order_read_after_stores(id, mem);
        self.note_global_read(id, mem);
        self.unpack(id, ty, false, span)
    }
}
