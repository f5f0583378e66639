//! The kernel interface: each kernel parameter becomes a [`KernelArg`] and the value the body
//! sees (a scalar, an aggregate unpacked from its image, or a pointer into a new [`Memory`]).

use super::{scalar_ty, Lower, Val};
use crate::ids::{ArgId, MemId};
use crate::kernel::{ArgKind, KernelArg, MemKind, Memory};
use crate::ops::OpKind;
use crate::types::Ty;
use frontend::ast::{AddrSpace, Type, VarId};
use frontend::span::Span;

/// Bytes a `local` pointer argument may hold without `__attribute__((local_mem_size(N)))`
/// (Intel's default).
pub const DEFAULT_LOCAL_ARG_BYTES: u32 = 16384;

impl Lower<'_> {
    pub(super) fn lower_param(&mut self, arg: ArgId, v: VarId) {
        let info = self.p.var(v);
        let span = info.span;
        let name = info.name.clone();
        match &info.ty {
            Type::Scalar(k) => {
                let ty = scalar_ty(*k);
                self.k.args.push(KernelArg {
                    name: name.clone(),
                    kind: ArgKind::Scalar(ty),
                    span,
                });
                let id = self.op(OpKind::Arg(arg), ty, span, &[]);
                self.k.op_mut(id).name = Some(name);
                self.env.vars.insert(v, Val::Scalar(id));
            }
            Type::Vector(..) | Type::Struct(_) => {
                let ty = info.ty.clone();
                let bits = self.image_ty(&ty);
                let ok = self.check_type(&ty, span);
                self.k.args.push(KernelArg {
                    name: name.clone(),
                    kind: ArgKind::Scalar(bits),
                    span,
                });
                let id = self.op(OpKind::Arg(arg), bits, span, &[]);
                self.k.op_mut(id).name = Some(name);
                let val = if ok {
                    self.unpack(id, &ty, false, span)
                } else {
                    Val::Undef
                };
                self.env.vars.insert(v, val);
            }
            Type::Pointer {
                pointee,
                space: sp @ (AddrSpace::Global | AddrSpace::Constant),
                ..
            } => {
                let constant = *sp == AddrSpace::Constant;
                self.global_ptr_param(arg, v, pointee, constant);
            }
            Type::Pipe { packet, access } => {
                let (packet, access) = ((**packet).clone(), *access);
                self.lower_pipe_param(v, &packet, access);
            }
            Type::Pointer {
                pointee,
                space: AddrSpace::Local,
                ..
            } => self.local_ptr_param(v, pointee),
            Type::Counter32 | Type::Counter64 => self.counter_param(arg, v),
            other => {
                let what = format!("an argument of type `{}`", self.p.type_name(other));
                self.unsupported(span, what);
                self.k.args.push(KernelArg {
                    name,
                    kind: ArgKind::Scalar(Ty::I32),
                    span,
                });
            }
        }
    }

    /// A `global` or `constant` pointer argument: a global memory of its own, and the
    /// argument's value (the buffer's base address) as the pointer's address.
    fn global_ptr_param(&mut self, arg: ArgId, v: VarId, pointee: &Type, constant: bool) {
        let info = self.p.var(v);
        let (span, name) = (info.span, info.name.clone());
        let mem = MemId::from_index(self.k.mems.len());
        let (elem, bytes) = self.pointer_elem(pointee, "a pointer argument", span);
        self.k.mems.push(Memory {
            name: name.clone(),
            kind: MemKind::Global { arg, constant },
            elem,
            elem_bytes: bytes,
            span,
        });
        self.k.args.push(KernelArg {
            name: name.clone(),
            kind: ArgKind::GlobalPtr(mem),
            span,
        });
        let id = self.op(OpKind::Arg(arg), Ty::I32, span, &[]);
        self.k.op_mut(id).name = Some(name);
        self.env.vars.insert(v, Val::Ptr { addr: id, mem });
    }

    /// A `local` pointer argument: an on-chip memory of the largest size the host may give.
    fn local_ptr_param(&mut self, v: VarId, pointee: &Type) {
        let info = self.p.var(v);
        let (span, name) = (info.span, info.name.clone());
        // The host gives the size at launch; the hardware holds the largest it allows:
        // Intel's `local_mem_size(N)` bytes on the argument, or 16 KiB (Intel's
        // default). `oclhls sim` refuses larger launches.
        let (elem, bytes) = self.pointer_elem(pointee, "a `local` pointer argument", span);
        let cap = info
            .param_attrs
            .local_mem_size
            .unwrap_or(DEFAULT_LOCAL_ARG_BYTES);
        let len = (cap / bytes.max(1)).max(1);
        let mem = MemId::from_index(self.k.mems.len());
        self.k.mems.push(Memory {
            name: name.clone(),
            kind: MemKind::Local { len },
            elem: if elem == Ty::BOOL { Ty::Int(8) } else { elem },
            elem_bytes: bytes,
            span,
        });
        self.k.args.push(KernelArg {
            name,
            kind: ArgKind::LocalPtr(mem),
            span,
        });
        let base = self.konst(0, Ty::I32, span);
        self.env.vars.insert(v, Val::Ptr { addr: base, mem });
    }

    /// The element (IR type, bytes) a pointer argument (`what`) points to.
    fn pointer_elem(&mut self, pointee: &Type, what: &str, span: Span) -> (Ty, u32) {
        match pointee {
            // An atomic type has the layout of its value type.
            Type::Atomic(a) => {
                let t = Type::Scalar(a.value_kind());
                (self.image_ty(&t), self.p.size_of(&t))
            }
            t @ (Type::Scalar(_) | Type::Vector(..) | Type::Struct(_))
                if self.check_type(t, span) =>
            {
                (self.image_ty(t), self.p.size_of(t))
            }
            _ => {
                self.unsupported(span, format!("{what} to `{}`", self.p.type_name(pointee)));
                (Ty::I32, 4)
            }
        }
    }
}
