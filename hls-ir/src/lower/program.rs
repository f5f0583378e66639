//! Program-scope variables (`constant int taps[8] = {...};`, OpenCL 2.0 `global int n;`): each
//! one the kernel uses becomes an on-chip memory of kind `MemKind::Program` whose contents at
//! configuration are computed here from the initialiser (`Kernel::mem_init`). `constant` (and
//! `const`) data is a ROM: a read at a constant index is the constant itself, no memory access.
//! Writable ones keep their values from one launch to the next (never reset).
//!
//! Requires: the initialiser folds to constants while it is lowered (literals, casts of
//! literals, constant arithmetic); anything else is a spanned diagnostic.

use super::{Lower, Val};
use crate::ids::{MemId, OpId};
use crate::kernel::{MemKind, Memory};
use crate::ops::OpKind;
use crate::types::Ty;
use frontend::ast::{AddrSpace, Init, ScalarKind, Type};
use frontend::span::Span;

impl Lower<'_> {
    /// The memory of program-scope variable `g` (made at its first use in this kernel), or
    /// `None` after a diagnostic.
    fn program_mem(&mut self, g: u32, span: Span) -> Option<MemId> {
        if let Some(&m) = self.program_mems.get(&g) {
            return Some(m);
        }
        let gv = &self.p.globals[g as usize];
        let (name, ty, gspan) = (gv.name.clone(), gv.ty.clone(), gv.span);
        let rom = gv.is_const || gv.space == AddrSpace::Constant;
        let mut elem_t = &ty;
        while let Type::Array(e, _) = elem_t {
            elem_t = e;
        }
        let elem_t = elem_t.clone();
        let supported = matches!(
            elem_t,
            Type::Scalar(_) | Type::Vector(..) | Type::Struct(_) | Type::Atomic(_)
        );
        if !supported {
            self.unsupported(
                span,
                format!(
                    "a program-scope variable of `{}`",
                    self.p.type_name(&elem_t)
                ),
            );
            return None;
        }
        if !self.check_type(&elem_t, span) {
            return None;
        }
        let esize = self.p.size_of(&elem_t);
        let stride = esize.next_power_of_two();
        let len = self.p.size_of(&ty) / esize;
        let elem = match self.image_ty(&elem_t) {
            Ty::BOOL => Ty::Int(8),
            t => t,
        };
        let mem = MemId::from_index(self.k.mems.len());
        self.k.mems.push(Memory {
            name,
            kind: MemKind::Program { len, constant: rom },
            elem,
            elem_bytes: stride,
            span: gspan,
        });
        self.program_mems.insert(g, mem);
        let mut bytes = vec![0u8; (len * stride) as usize];
        if let Some(init) = &self.p.globals[g as usize].init {
            let mut at = 0;
            self.init_elements(&ty, init, stride, &mut bytes, &mut at, gspan);
        }
        if bytes.iter().any(|&b| b != 0) {
            self.k.mem_init.insert(mem, bytes);
        }
        Some(mem)
    }

    /// Writes the images of the elements `init` gives an object of type `ty` into `out`, from
    /// element `*at` on (each `stride` bytes apart), and advances `*at` past them.
    fn init_elements(
        &mut self,
        ty: &Type,
        init: &Init,
        stride: u32,
        out: &mut [u8],
        at: &mut usize,
        span: Span,
    ) {
        match (ty, init) {
            (Type::Array(e, n), Init::List(items)) => {
                for i in 0..*n as usize {
                    match items.get(i) {
                        Some(it) => self.init_elements(e, it, stride, out, at, span),
                        // Missing elements are zeros (already).
                        None => *at += (self.p.size_of(e) / self.elem_size(e)) as usize,
                    }
                }
            }
            (Type::Array(..), Init::Expr(_)) => {
                self.unsupported(span, "this program-scope array initialiser");
            }
            _ => {
                let v = self.init_value(ty, init);
                let from = *at * stride as usize;
                let size = self.p.size_of(ty) as usize;
                self.const_image(v, ty, &mut out[from..from + size], span);
                *at += 1;
            }
        }
    }

    /// Bytes of the innermost element type of `t`.
    fn elem_size(&self, mut t: &Type) -> u32 {
        while let Type::Array(e, _) = t {
            t = e;
        }
        self.p.size_of(t)
    }

    /// Writes the memory image of constant value `v` of type `ty` into `out`; a part that did
    /// not fold to a constant is a diagnostic.
    fn const_image(&mut self, v: Val, ty: &Type, out: &mut [u8], span: Span) {
        match ty {
            Type::Scalar(_) | Type::Atomic(_) => {
                let x = self.scalar_of(v, ty, span);
                let Some(c) = self.fold_init(x, 64) else {
                    self.unsupported(
                        self.k.op(x).span,
                        "a program-scope initialiser that does not fold to a constant",
                    );
                    return;
                };
                let c = match ty {
                    Type::Scalar(ScalarKind::Bool) => (c != 0) as u64,
                    _ => c,
                };
                for (i, b) in out.iter_mut().enumerate().take(8) {
                    *b = (c >> (8 * i)) as u8;
                }
            }
            Type::Pointer { .. } => self.unsupported(span, "a program-scope pointer"),
            _ => {
                let Some(types) = self.parts_of_type(ty) else {
                    self.unsupported(span, "this program-scope initialiser");
                    return;
                };
                let vals = self.parts_vals(v, ty);
                for ((t, off), pv) in types.iter().zip(vals) {
                    let size = self.p.size_of(t) as usize;
                    let off = *off as usize;
                    self.const_image(pv, t, &mut out[off..off + size], span);
                }
            }
        }
    }

    /// The value of op `x` of an initialiser when it is computed from constants only (float
    /// arithmetic and conversions as the hardware rounds them, `crate::float`), looking at
    /// most `depth` ops deep.
    fn fold_init(&self, x: OpId, depth: u32) -> Option<u64> {
        let op = self.k.op(x);
        if let OpKind::Const(c) = op.kind {
            return Some(c);
        }
        if depth == 0 {
            return None;
        }
        let args: Vec<u64> = self
            .k
            .operands(x)
            .iter()
            .map(|&a| self.fold_init(a, depth - 1))
            .collect::<Option<_>>()?;
        let arg_ty = |i: usize| self.k.op(self.k.operands(x)[i]).ty;
        let v = match op.kind {
            OpKind::Binary(b) if op.ty.is_float() => {
                crate::float::binary(b, op.ty, args[0], args[1])?
            }
            OpKind::Binary(b) => {
                crate::passes::const_fold::eval_binary(b, op.ty, args[0], args[1])?
            }
            OpKind::Unary(u) if op.ty.is_float() => crate::float::unary(u, op.ty, args[0])?,
            OpKind::Unary(u) => crate::integer::unary(u, op.ty.bits(), args[0])?,
            OpKind::Convert(c) if op.ty.is_float() || arg_ty(0).is_float() => {
                crate::float::convert(c, arg_ty(0), op.ty, args[0])?
            }
            OpKind::Convert(c) => {
                crate::integer::convert(c, arg_ty(0).bits(), op.ty.bits(), args[0])?
            }
            OpKind::Cmp(c) if arg_ty(0).is_float() => {
                crate::float::compare(c, args[0], args[1])? as u64
            }
            OpKind::Cmp(c) => {
                crate::integer::compare(c, arg_ty(0).bits(), args[0], args[1])? as u64
            }
            OpKind::Select => {
                if args[0] & 1 == 1 {
                    args[1]
                } else {
                    args[2]
                }
            }
            _ => return None,
        };
        Some(v & op.ty.mask())
    }

    /// The value of program-scope variable `g` used as an rvalue: a pointer to element 0 for
    /// an array, else the loaded value.
    pub(super) fn program_var(&mut self, g: u32, ty: &Type, span: Span) -> Val {
        if matches!(self.p.globals[g as usize].ty, Type::Pipe { .. }) {
            self.unsupported(span, "a program-scope pipe used as a value");
            return Val::Undef;
        }
        let Some(mem) = self.program_mem(g, span) else {
            return self.dummy(ty, span);
        };
        let addr = self.konst(0, Ty::I32, span);
        if ty.is_array() {
            return Val::Ptr { addr, mem };
        }
        self.load(addr, mem, ty, span)
    }

    /// The address of program-scope variable `g` (`&n`, the object of an assignment).
    pub(super) fn program_address(&mut self, g: u32, span: Span) -> Option<(OpId, MemId)> {
        let mem = self.program_mem(g, span)?;
        Some((self.konst(0, Ty::I32, span), mem))
    }

    /// A read of ROM `mem` at constant address `addr`: the element's value, with no memory
    /// access. `None` when the memory is writable or the address not a constant in range.
    pub(super) fn rom_value(
        &mut self,
        addr: OpId,
        mem: MemId,
        ty: &Type,
        span: Span,
    ) -> Option<Val> {
        let m = self.k.mem(mem);
        if !m.kind.is_rom() {
            return None;
        }
        let (stride, elem, len) = (m.elem_bytes as u64, m.elem, m.onchip_len()? as u64);
        let a = self.const_val(addr)?;
        if a % stride != 0 || a / stride >= len {
            return None;
        }
        let bytes = match self.k.mem_init.get(&mem) {
            Some(b) => b[a as usize..(a + stride) as usize].to_vec(),
            None => vec![0; stride as usize],
        };
        if elem.bits() > 8 * bytes.len() as u32 {
            return None;
        }
        Some(self.value_of_bytes(&bytes, ty, span))
    }

    /// The value of type `ty` whose memory image is `bytes`, as constants.
    fn value_of_bytes(&mut self, bytes: &[u8], ty: &Type, span: Span) -> Val {
        let word = |b: &[u8]| {
            b.iter()
                .take(8)
                .enumerate()
                .fold(0u64, |w, (i, &x)| w | (x as u64) << (8 * i))
        };
        match ty {
            Type::Scalar(ScalarKind::Bool) => {
                Val::Scalar(self.konst((bytes[0] != 0) as u64, Ty::BOOL, span))
            }
            Type::Scalar(_) | Type::Atomic(_) => {
                let t = self.image_ty(ty);
                Val::Scalar(self.konst(word(bytes), t, span))
            }
            _ => {
                let types = self.parts_of_type(ty).unwrap_or_default();
                let parts = types
                    .iter()
                    .map(|(t, off)| {
                        let off = *off as usize;
                        let size = self.p.size_of(t) as usize;
                        self.value_of_bytes(&bytes[off..off + size], t, span)
                    })
                    .collect();
                self.mk_agg(parts, None)
            }
        }
    }
}
