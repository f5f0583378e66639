//! Atomic built-ins on memory: one [`OpKind::Atomic`] read-modify-write of a 32- or 64-bit
//! element of a global or on-chip memory, returning the old element.
//!
//! - OpenCL 1.x `atomic_*`/`atom_*` and C11 `atomic_fetch_*`/`atomic_exchange`: the op of
//!   [`memory_op`] (`inc`/`dec` are `Add`/`Sub` of 1; `min`/`max` take the compare of the
//!   element type's signedness; exchanging a `float` moves its bits).
//! - C11 `atomic_compare_exchange_*`: a `CmpXchg` against `*expected`; on failure the old
//!   value is written to `*expected` (a variable or memory of the work-item).
//! - C11 `atomic_flag_test_and_set`: `Xchg` of 1, true when the old value was not 0.
//! - C11 `atomic_load`, `atomic_store`, `atomic_init`, `atomic_flag_clear`: a whole element
//!   is read or written in one access, which is atomic on every memory of this device, so
//!   they are plain loads and stores (ordered as such).
//!
//! Counters (`counter32_t`, `counter64_t`) are not memory: `builtins::counter`.
//!
//! Ordering: an atomic is a read and a write of its element. On-chip it is ordered like a
//! store against the memory's other accesses. On a global port it travels on the read
//! channel, so it is ordered like a load (after this work-item's stores to memory it may
//! alias, `lower::memory`), and later stores to memory it may alias wait for its response.
//! Memory orders and scopes were checked by the front end and are not kept: every atomic of
//! one work-item on one address happens in program order, which is what the in-order
//! hardware gives; ordering against accesses to *other* buffers needs a fence
//! (`lower::builtins::fence`).

use super::super::pipes::{pointee, strip};
use super::super::{Lower, Val};
use crate::ids::{MemId, OpId};
use crate::ops::{AtomicOp, CmpOp, OpKind};
use frontend::ast::{AtomicOp as SrcOp, Builtin, Expr, ExprKind, ScalarKind, Type};
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
        let Some((addr, mem)) = self.atomic_object(&args[0], ty, span) else {
            return self.dummy(ty, span);
        };
        // The operands, as the element's bits (a `float` exchanged moves its bits).
        let mut values: Vec<OpId> = Vec::new();
        for a in &args[1..] {
            let v = self.rvalue(a);
            values.push(self.pack(v, &a.ty, a.span));
        }
        let elem = self.k.mem(mem).elem;
        let (aop, constant) = memory_op(op, ty);
        let id = match (aop, constant) {
            (_, Some(c)) => {
                let one = self.konst(c, elem, span);
                self.atomic_rmw(aop, addr, mem, one, None, span)
            }
            // `atomic_cmpxchg(p, cmp, val)`: the operand is the new value, then the compare.
            (AtomicOp::CmpXchg, None) => {
                let (cmp, val) = (values[0], values[1]);
                self.atomic_rmw(aop, addr, mem, val, Some(cmp), span)
            }
            (_, None) => self.atomic_rmw(aop, addr, mem, values[0], None, span),
        };
        self.unpack(id, ty, false, span)
    }

    /// The C11 built-ins that are not a plain read-modify-write; `None` when `b` is not one.
    pub(in crate::lower) fn c11_atomic(
        &mut self,
        b: Builtin,
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> Option<Val> {
        let obj_ty = || pointee(&args[0].ty);
        Some(match b {
            Builtin::AtomicLoad => {
                let t = obj_ty();
                match self.atomic_object(&args[0], &t, span) {
                    Some((addr, mem)) => self.load(addr, mem, &t, span),
                    None => self.dummy(ty, span),
                }
            }
            Builtin::AtomicStore | Builtin::AtomicInit => {
                let t = obj_ty();
                let v = self.rvalue(&args[1]);
                if let Some((addr, mem)) = self.atomic_object(&args[0], &t, span) {
                    self.store_val(addr, mem, v, &t, None, span);
                }
                Val::Undef
            }
            Builtin::AtomicFlagClear => {
                let t = obj_ty();
                if let Some((addr, mem)) = self.atomic_object(&args[0], &t, span) {
                    let zero = self.konst(0, self.k.mem(mem).elem, span);
                    self.store_val(addr, mem, Val::Scalar(zero), &t, None, span);
                }
                Val::Undef
            }
            Builtin::AtomicFlagTestAndSet => {
                let t = obj_ty();
                let Some((addr, mem)) = self.atomic_object(&args[0], &t, span) else {
                    return Some(self.dummy(ty, span));
                };
                let elem = self.k.mem(mem).elem;
                let one = self.konst(1, elem, span);
                let old = self.atomic_rmw(AtomicOp::Xchg, addr, mem, one, None, span);
                let zero = self.konst(0, elem, span);
                Val::Scalar(self.cmp(CmpOp::Ne, old, zero, span))
            }
            Builtin::AtomicCompareExchange { .. } => self.compare_exchange(args, span),
            _ => return None,
        })
    }

    /// `atomic_compare_exchange_*(obj, expected, desired)`: true when `*obj` held `*expected`
    /// and now holds `desired`; otherwise `*expected` takes the value `*obj` held.
    fn compare_exchange(&mut self, args: &[Expr], span: Span) -> Val {
        let t = pointee(&args[0].ty);
        let Some((addr, mem)) = self.atomic_object(&args[0], &t, span) else {
            return self.dummy(&Type::Scalar(ScalarKind::Bool), span);
        };
        let expected = self.value_at(&args[1], span);
        let exp = self.pack(expected, &t, span);
        let desired = self.rvalue(&args[2]);
        let des = self.pack(desired, &args[2].ty, span);
        let old = self.atomic_rmw(AtomicOp::CmpXchg, addr, mem, des, Some(exp), span);
        let ok = self.cmp(CmpOp::Eq, old, exp, span);
        let failed = self.not1(ok, span);
        let old_v = self.unpack(old, &t, false, span);
        self.store_at_if(&args[1], old_v, failed, span);
        Val::Scalar(ok)
    }

    /// The element address and memory of an atomic's object `p` (a pointer to `ty`), after
    /// checking the access; `None` (reported) when it cannot be built.
    fn atomic_object(&mut self, p: &Expr, ty: &Type, span: Span) -> Option<(OpId, MemId)> {
        let Val::Ptr { addr, mem } = self.rvalue(p) else {
            self.unsupported(
                p.span,
                "an atomic through a pointer whose target buffer is unknown",
            );
            return None;
        };
        if !self.check_access(mem, ty, span) {
            return None;
        }
        Some((addr, mem))
    }

    /// One atomic read-modify-write of the element at `addr` of `mem` (`operand` and
    /// `compare` are images of any type of the element's width); returns the old element.
    fn atomic_rmw(
        &mut self,
        aop: AtomicOp,
        addr: OpId,
        mem: MemId,
        operand: OpId,
        compare: Option<OpId>,
        span: Span,
    ) -> OpId {
        let elem = self.k.mem(mem).elem;
        if !matches!(elem.bits(), 32 | 64) {
            self.unsupported(span, format!("an atomic on {}-bit elements", elem.bits()));
            return self.konst(0, elem, span);
        }
        let mut operands = vec![addr, self.fit(operand, elem, span)];
        if let Some(c) = compare {
            operands.push(self.fit(c, elem, span));
        }
        operands.push(self.effect_pred(span));
        let id = self.op(OpKind::Atomic { mem, op: aop }, elem, span, &operands);
        self.order_onchip(id, mem, true);
        self.order_read_after_stores(id, mem);
        self.order_after_fences(id, mem);
        self.note_global_read(id, mem);
        // It also writes: later reads and writes of memory it may alias come after it (its
        // response is their order; the emitter waits for acknowledgements only after stores).
        if !self.is_onchip(mem) {
            self.stores.entry(mem).or_default().push(id);
        }
        id
    }

    /// `*ptr`: a variable's value for `&variable`, else a load.
    pub(in crate::lower) fn value_at(&mut self, ptr: &Expr, span: Span) -> Val {
        match &strip(ptr).kind {
            ExprKind::AddrOf(inner) => self.rvalue(inner),
            _ => match self.rvalue(ptr) {
                Val::Ptr { addr, mem } => self.load(addr, mem, &pointee(&ptr.ty), span),
                _ => {
                    self.unsupported(ptr.span, "a pointer whose target is unknown");
                    self.dummy(&pointee(&ptr.ty), span)
                }
            },
        }
    }

    /// `*ptr = v` when `cond`: the variable of `&variable` (or a part of one), else a
    /// predicated store (`&buf[i]` too).
    pub(in crate::lower) fn store_at_if(&mut self, ptr: &Expr, v: Val, cond: OpId, span: Span) {
        match &strip(ptr).kind {
            ExprKind::AddrOf(inner)
                if !matches!(inner.kind, ExprKind::Index { .. } | ExprKind::Deref(_)) =>
            {
                let old = self.rvalue(inner);
                let merged = self.merge_val(cond, v, old, span);
                self.assign(inner, merged, span);
            }
            _ => match self.rvalue(ptr) {
                Val::Ptr { addr, mem } => {
                    let saved = self.pred;
                    self.pred = self.and1(self.pred, cond, span);
                    self.store_val(addr, mem, v, &pointee(&ptr.ty), None, span);
                    self.pred = saved;
                }
                _ => self.unsupported(ptr.span, "a pointer whose target is unknown"),
            },
        }
    }
}
