//! Memory: arrays and `local` scalars become on-chip memories; pointers are a byte address
//! into one known memory (`Val::Ptr`), so every lvalue `p[i]`/`*p` names its buffer; loads and
//! stores are predicated by the current control predicate.

use super::{Lower, Val};
use crate::ids::{MemId, OpId};
use crate::kernel::{Dep, MemKind, Memory};
use crate::ops::{BinOp, ByteMask, OpKind};
use crate::types::Ty;
use frontend::ast::{AddrSpace, Init, Type, VarId};
use frontend::diag::Diagnostic;
use frontend::span::Span;

impl Lower<'_> {
    /// A `local` or private array becomes an on-chip memory (one read and one write port,
    /// read latency 1); the variable is a pointer to its element 0. A private array's
    /// initialiser list becomes stores at its declaration.
    pub(super) fn declare_array(&mut self, var: VarId, init: Option<&Init>, span: Span) {
        let info = self.p.var(var);
        let name = info.name.clone();
        let mut elem_t = &info.ty;
        while let Type::Array(e, _) = elem_t {
            elem_t = e;
        }
        let esize = self.p.size_of(elem_t);
        let supported = matches!(
            elem_t,
            Type::Scalar(_) | Type::Vector(..) | Type::Struct(_) | Type::Atomic(_)
        );
        if !supported || !self.check_type(elem_t, span) {
            if !supported {
                self.unsupported(span, format!("an array of `{}`", self.p.type_name(elem_t)));
            }
            return;
        }
        // On-chip elements are a power of two of bytes apart (a 48-byte struct takes 64), so
        // an index is a bit select of the address; nothing outside the kernel sees the gap.
        let stride = esize.next_power_of_two();
        let len = self.p.size_of(&info.ty) / esize;
        let kind = match info.space {
            AddrSpace::Local => MemKind::Local { len },
            AddrSpace::Private => MemKind::Private { len },
            _ => {
                self.unsupported(span, "an array in this address space");
                return;
            }
        };
        let elem = self.image_ty(elem_t);
        let mem = MemId::from_index(self.k.mems.len());
        self.k.mems.push(Memory {
            name: name.clone(),
            kind,
            elem,
            elem_bytes: stride,
            span,
        });
        let base = self.konst(0, Ty::I32, span);
        self.env.vars.insert(var, Val::Ptr { addr: base, mem });
        match init {
            None => {}
            Some(Init::List(items)) if matches!(info.ty, Type::Array(ref e, _) if !e.is_array()) => {
                let elem_t = elem_t.clone();
                for i in 0..len {
                    // C: elements without an initialiser are zero.
                    let v = match items.get(i as usize) {
                        Some(item) => self.init_value(&elem_t, item),
                        None => Val::Undef,
                    };
                    let off = self.konst(i as u64 * stride as u64, Ty::I32, span);
                    self.store_val(off, mem, v, &elem_t, None, span);
                }
            }
            Some(_) => self.unsupported(span, "this array initialiser"),
        }
    }

    /// A `local` scalar (or `local reserve_id_t`): one element of on-chip memory, shared by
    /// the work-group.
    pub(super) fn declare_local_scalar(&mut self, var: VarId, span: Span) {
        let ty = self.local_scalar_type(var);
        let (elem, bytes) = (self.image_ty(&ty), self.p.size_of(&ty));
        let mem = MemId::from_index(self.k.mems.len());
        self.k.mems.push(Memory {
            name: self.p.var(var).name.clone(),
            kind: MemKind::Local { len: 1 },
            elem: if elem == Ty::BOOL { Ty::Int(8) } else { elem },
            elem_bytes: bytes,
            span,
        });
        self.local_scalars.insert(var, mem);
    }

    /// The type a `local` scalar is accessed as (a reserve id is an i32).
    fn local_scalar_type(&self, var: VarId) -> Type {
        match &self.p.var(var).ty {
            Type::ReserveId => Type::UINT,
            t => t.clone(),
        }
    }

    pub(super) fn local_scalar_load(&mut self, var: VarId, span: Span) -> Val {
        let (mem, ty) = (self.local_scalars[&var], self.local_scalar_type(var));
        let addr = self.konst(0, Ty::I32, span);
        self.load(addr, mem, &ty, span)
    }

    pub(super) fn local_scalar_store(&mut self, var: VarId, v: Val, span: Span) {
        let (mem, ty) = (self.local_scalars[&var], self.local_scalar_type(var));
        let addr = self.konst(0, Ty::I32, span);
        self.store_val(addr, mem, v, &ty, None, span);
    }

    /// Bytes between consecutive objects of type `t` (an element or a row of elements) in
    /// memory `mem`: their size, with on-chip elements padded to a power of two.
    pub(super) fn stride_of(&self, t: &Type, mem: MemId) -> u32 {
        match t {
            Type::Array(e, n) => n * self.stride_of(e, mem),
            _ if self.is_onchip(mem) => self.k.mem(mem).elem_bytes,
            _ => self.p.size_of(t),
        }
    }

    /// Byte offset of `i` elements of `bytes` bytes each.
    pub(super) fn scale_by(&mut self, i: OpId, bytes: u32, signed: bool, span: Span) -> OpId {
        let i = self.resize(i, Ty::I32, signed, span);
        let bytes = bytes as u64;
        if bytes == 1 {
            return i;
        }
        if bytes.is_power_of_two() {
            let s = self.konst(bytes.trailing_zeros() as u64, Ty::I32, span);
            self.bin(BinOp::Shl, i, s, span)
        } else if bytes.count_ones() == 2 {
            // Structs of 12, 24, 20 ... bytes: two shifts and an add instead of a multiplier.
            let lo = bytes.trailing_zeros();
            let hi = 63 - bytes.leading_zeros();
            let (a, b) = (
                self.konst(lo as u64, Ty::I32, span),
                self.konst(hi as u64, Ty::I32, span),
            );
            let x = self.bin(BinOp::Shl, i, a, span);
            let y = self.bin(BinOp::Shl, i, b, span);
            self.bin(BinOp::Add, x, y, span)
        } else {
            let s = self.konst(bytes, Ty::I32, span);
            self.bin(BinOp::Mul, i, s, span)
        }
    }

    pub(super) fn check_access(&mut self, mem: MemId, ty: &Type, span: Span) -> bool {
        let m = self.k.mem(mem);
        let want = match ty {
            Type::Scalar(_) | Type::Vector(..) | Type::Struct(_) => self.p.size_of(ty),
            _ => 0,
        };
        if want != m.elem.bits().div_ceil(8) {
            let name = m.name.clone();
            self.unsupported(
                span,
                format!(
                    "an access of type `{}` through `{name}`, whose elements are {} bytes",
                    self.p.type_name(ty),
                    m.elem.bits().div_ceil(8)
                ),
            );
            return false;
        }
        true
    }

    pub(super) fn load(&mut self, addr: OpId, mem: MemId, ty: &Type, span: Span) -> Val {
        if !self.check_access(mem, ty, span) {
            return self.dummy(ty, span);
        }
        if let Some(v) = self.rom_value(addr, mem, ty, span) {
            return v;
        }
        let elem = self.k.mem(mem).elem;
        let pred = self.effect_pred(span);
        let id = self.op(OpKind::Load { mem }, elem, span, &[addr, pred]);
        self.order_onchip(id, mem, false);
        self.order_read_after_stores(id, mem);
        self.order_after_fences(id, mem);
        self.note_global_read(id, mem);
        self.unpack(id, ty, false, span)
    }

    /// Read `id` of global memory `mem` (a load or an atomic) after stores of this work-item
    /// to memory that may alias: an order edge from the last store of each such memory. The
    /// hardware issues the read only once that port's writes are all acknowledged
    /// (`rtl_templates`, "read after write"), since memory does not order its read and write
    /// channels; `restrict` pointers never wait.
    pub(super) fn order_read_after_stores(&mut self, id: OpId, mem: MemId) {
        if self.is_onchip(mem) {
            return;
        }
        let last: Vec<OpId> = self
            .stores
            .iter()
            .filter(|(m, _)| !self.is_onchip(**m) && self.may_alias(**m, mem))
            .filter_map(|(_, v)| v.last().copied())
            .collect();
        for st in last {
            self.k.add_dep(st, id, Dep::Order { distance: 0 });
        }
    }

    /// Read `id` of global memory `mem` (a load or an atomic): later stores to memory it may
    /// alias wait for its response (reads and writes travel on different channels, which
    /// memory does not order).
    pub(super) fn note_global_read(&mut self, id: OpId, mem: MemId) {
        if !self.is_onchip(mem) {
            self.global_reads.insert(mem, id);
        }
    }

    /// Orders store `st` to global memory `mem` after the last read (load or atomic) of every
    /// memory it may alias; the port answers reads in order, so the last one is enough.
    fn order_after_reads(&mut self, st: OpId, mem: MemId) {
        if self.is_onchip(mem) {
            return;
        }
        let reads: Vec<OpId> = self
            .global_reads
            .iter()
            .filter(|(&m, _)| self.may_alias(m, mem))
            .map(|(_, &r)| r)
            .collect();
        for r in reads {
            self.k.add_dep(r, st, Dep::Order { distance: 0 });
        }
    }

    /// Stores value `v` of type `ty` into the element at `addr` (only the bytes of `mask`).
    pub(super) fn store_val(
        &mut self,
        addr: OpId,
        mem: MemId,
        v: Val,
        ty: &Type,
        mask: Option<ByteMask>,
        span: Span,
    ) {
        if !self.check_access(mem, ty, span) {
            return;
        }
        let kind = self.k.mem(mem).kind;
        if matches!(kind, MemKind::Global { constant: true, .. }) || kind.is_rom() {
            self.diags
                .push(Diagnostic::error(span, "store to `constant` memory"));
            return;
        }
        let elem = self.k.mem(mem).elem;
        let data = self.pack(v, ty, span);
        let data = self.fit(data, elem, span);
        let pred = self.effect_pred(span);
        let st = self.op(
            OpKind::Store { mem, mask },
            Ty::Token,
            span,
            &[addr, data, pred],
        );
        self.order_onchip(st, mem, true);
        self.order_after_reads(st, mem);
        self.order_after_fences(st, mem);
        // Stores to one memory keep program order (same-address writes of one work-item).
        if let Some(&prev) = self.stores.get(&mem).and_then(|v| v.last()) {
            self.k.add_dep(prev, st, Dep::Order { distance: 0 });
        }
        self.stores.entry(mem).or_default().push(st);
    }

    pub(super) fn is_onchip(&self, m: MemId) -> bool {
        !matches!(self.k.mem(m).kind, MemKind::Global { .. })
    }
}
