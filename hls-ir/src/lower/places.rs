//! Places: what an lvalue or a pointer designates, and pointers to private variables.
//!
//! A pointer is either a byte address into one on-chip or global memory (`Val::Ptr`), or a
//! pointer into a private variable that lowering keeps as a value (`Val::VarPtr`: the
//! variable and a byte offset into it). Since helpers are inlined and a pointer's target is
//! tracked through assignments, `&x` resolves at compile time to the object and an offset
//! expression: an access with a constant offset is the part of the variable's value that
//! lies there (no hardware), one with an offset known only at run time is a select tree over
//! the candidate parts (a read) or a compare and select per candidate (a write), the way
//! `partition` builds small private arrays with variable indices. Arrays inside structs
//! indexed by a variable are built the same way ([`Lower::dyn_part`], `Step::Index`).
//!
//! The candidate parts of a variable for an access of type `T` are the sub-objects of exactly
//! type `T` (the elements of an array of `T` inside a struct, the lanes of a vector); when
//! there are none (a `char *` walking an `int`), every offset aligned for `T`, read and
//! written through the variable's memory image. A pointer converted to an integer is its
//! offset in the variable (so alignment tests such as `((uintptr_t)&x & 15) == 0` hold).
//! Writes through a pointer are masked after `return` (of the helper or of any caller) and
//! after `break`/`continue`, as stores are.

use super::aggregate::is_agg_array;
use super::{Lower, Val};
use crate::ids::{MemId, OpId};
use crate::ops::{BinOp, CmpOp};
use crate::types::Ty;
use frontend::ast::{AddrSpace, Expr, ExprKind, Type, VarId};
use frontend::span::Span;

/// The most candidate parts an access through a pointer with a run-time offset selects from.
const MAX_CANDIDATES: usize = 256;

/// What an lvalue designates.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Place {
    /// The element at byte address `addr` of memory `mem`.
    Mem { addr: OpId, mem: MemId },
    /// The object at byte offset `off` (i32) of private variable `var`.
    Var { var: VarId, off: OpId },
    /// The first place where condition `.0` (i1) holds, else the second: a pointer chosen at
    /// run time between different objects. A read reads both (each under its condition) and
    /// selects; a write writes the one the condition names (if-converted like an `if`).
    Sel(OpId, Box<Place>, Box<Place>),
}

/// One step of what a pointer value may point to ([`Lower::targets`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Target {
    Mem(MemId),
    Var(VarId),
    /// A choice at run time between the two pointers that follow.
    Sel,
}

impl Lower<'_> {
    /// Is `v` a pointer into a known object?
    pub(super) fn is_pointer(&self, v: Val) -> bool {
        matches!(v, Val::Ptr { .. } | Val::VarPtr { .. } | Val::PtrSel(_))
    }

    /// The objects pointer value `v` points to, in the shape of its run-time choices: two
    /// pointers with the same targets are held in the same registers (a loop carries them).
    pub(super) fn targets(&self, v: Val) -> Vec<Target> {
        match v {
            Val::Ptr { mem, .. } => vec![Target::Mem(mem)],
            Val::VarPtr { var, .. } => vec![Target::Var(var)],
            Val::PtrSel(i) => {
                let (_, a, b) = self.ptr_sels[i as usize];
                let mut out = vec![Target::Sel];
                out.extend(self.targets(a));
                out.extend(self.targets(b));
                out
            }
            _ => Vec::new(),
        }
    }

    /// The place lvalue `e` designates (its subexpressions evaluated once), or a diagnostic.
    pub(super) fn place(&mut self, e: &Expr) -> Option<Place> {
        let span = e.span;
        match &e.kind {
            ExprKind::Index { base, index } if is_agg_array(base) => {
                let p = self.place(base)?;
                let i = self.scalar(index);
                let off = self.scale_by(i, self.p.size_of(&e.ty), Self::signed(&index.ty), span);
                Some(self.offset_place(p, off, span))
            }
            ExprKind::Index { base, index } => {
                if !base.ty.is_pointer() && !base.ty.is_array() {
                    self.unsupported(span, "indexing this value");
                    return None;
                }
                let p = self.pointer_place(base)?;
                let i = self.scalar(index);
                Some(self.index_place(p, i, &e.ty, Self::signed(&index.ty), span))
            }
            ExprKind::Deref(p) => self.pointer_place(p),
            // A program-scope variable: its on-chip memory, from element 0.
            ExprKind::Global(g) => {
                let (addr, mem) = self.program_address(*g, span)?;
                Some(Place::Mem { addr, mem })
            }
            // `&x` of a `local` scalar (an atomic's object): its one-element memory.
            ExprKind::Var(v) if self.local_scalars.contains_key(v) => {
                let mem = self.local_scalars[v];
                Some(Place::Mem {
                    addr: self.konst(0, Ty::I32, span),
                    mem,
                })
            }
            ExprKind::Var(v) => match self.env.vars.get(v) {
                // An array variable: its memory, from element 0.
                Some(Val::Ptr { addr, mem }) if e.ty.is_array() => Some(Place::Mem {
                    addr: *addr,
                    mem: *mem,
                }),
                _ if self.p.var(*v).space == AddrSpace::Private && !e.ty.is_array() => {
                    Some(Place::Var {
                        var: *v,
                        off: self.konst(0, Ty::I32, span),
                    })
                }
                _ => {
                    self.unsupported(span, "taking this address");
                    None
                }
            },
            ExprKind::Member { base, field } => {
                let Type::Struct(id) = &base.ty else {
                    self.unsupported(span, "taking this address");
                    return None;
                };
                let s = self.p.structs.get(*id);
                if s.is_union {
                    self.unsupported(span, "a union");
                    return None;
                }
                let field_off = s.fields[*field as usize].offset;
                let p = self.place(base)?;
                let off = self.konst(field_off as u64, Ty::I32, span);
                Some(self.offset_place(p, off, span))
            }
            _ => {
                self.unsupported(span, "taking this address");
                None
            }
        }
    }

    /// The place pointer expression `p` points to.
    pub(super) fn pointer_place(&mut self, p: &Expr) -> Option<Place> {
        let v = self.rvalue(p);
        let place = self.val_place(v);
        if place.is_none() {
            self.unsupported(p.span, "a pointer whose target buffer is unknown");
        }
        place
    }

    /// The place pointer value `v` points to (`None`: not a pointer into a known object).
    pub(super) fn val_place(&self, v: Val) -> Option<Place> {
        match v {
            Val::Ptr { addr, mem } => Some(Place::Mem { addr, mem }),
            Val::VarPtr { var, off } => Some(Place::Var { var, off }),
            Val::PtrSel(i) => {
                let (c, a, b) = self.ptr_sels[i as usize];
                Some(Place::Sel(
                    c,
                    Box::new(self.val_place(a)?),
                    Box::new(self.val_place(b)?),
                ))
            }
            _ => None,
        }
    }

    /// `p` moved by `bytes` (i32).
    pub(super) fn offset_place(&mut self, p: Place, bytes: OpId, span: Span) -> Place {
        match p {
            Place::Mem { addr, mem } => Place::Mem {
                addr: self.bin(BinOp::Add, addr, bytes, span),
                mem,
            },
            Place::Var { var, off } => Place::Var {
                var,
                off: self.bin(BinOp::Add, off, bytes, span),
            },
            Place::Sel(c, a, b) => {
                let a = self.offset_place(*a, bytes, span);
                let b = self.offset_place(*b, bytes, span);
                Place::Sel(c, Box::new(a), Box::new(b))
            }
        }
    }

    /// `p` moved by `i` objects of type `elem` (on-chip elements are padded: `stride_of`).
    pub(super) fn index_place(
        &mut self,
        p: Place,
        i: OpId,
        elem: &Type,
        signed: bool,
        span: Span,
    ) -> Place {
        match p {
            Place::Mem { mem, .. } => {
                let off = self.scale_by(i, self.stride_of(elem, mem), signed, span);
                self.offset_place(p, off, span)
            }
            Place::Var { .. } => {
                let off = self.scale_by(i, self.p.size_of(elem).max(1), signed, span);
                self.offset_place(p, off, span)
            }
            Place::Sel(c, a, b) => {
                let a = self.index_place(*a, i, elem, signed, span);
                let b = self.index_place(*b, i, elem, signed, span);
                Place::Sel(c, Box::new(a), Box::new(b))
            }
        }
    }

    /// The pointer to place `p`.
    pub(super) fn place_ptr(&mut self, p: Place) -> Val {
        match p {
            Place::Mem { addr, mem } => Val::Ptr { addr, mem },
            Place::Var { var, off } => Val::VarPtr { var, off },
            Place::Sel(c, a, b) => {
                let (a, b) = (self.place_ptr(*a), self.place_ptr(*b));
                self.ptr_sel(c, a, b)
            }
        }
    }

    /// The pointer `a` where `c` holds, else `b`.
    pub(super) fn ptr_sel(&mut self, c: OpId, a: Val, b: Val) -> Val {
        self.ptr_sels.push((c, a, b));
        Val::PtrSel(self.ptr_sels.len() as u32 - 1)
    }

    /// The value of type `ty` at place `p` (an array decays to a pointer to its first element).
    pub(super) fn read_place(&mut self, p: Place, ty: &Type, span: Span) -> Val {
        if ty.is_array() {
            return self.place_ptr(p);
        }
        match p {
            Place::Mem { addr, mem } => self.load(addr, mem, ty, span),
            Place::Var { var, off } => self.var_read(var, off, ty, span),
            Place::Sel(c, a, b) => {
                let (mut x, mut y) = (Val::Undef, Val::Undef);
                self.branch(
                    c,
                    span,
                    |l| x = l.read_place(*a, ty, span),
                    |l| y = l.read_place(*b, ty, span),
                );
                self.merge_val(c, x, y, span)
            }
        }
    }

    /// Writes `v` of type `ty` to place `p`.
    pub(super) fn write_place(&mut self, p: Place, v: Val, ty: &Type, span: Span) {
        match p {
            Place::Mem { addr, mem } => self.store_val(addr, mem, v, ty, None, span),
            Place::Var { var, off } => self.var_write(var, off, ty, v, span),
            Place::Sel(c, a, b) => self.branch(
                c,
                span,
                |l| l.write_place(*a, v, ty, span),
                |l| l.write_place(*b, v, ty, span),
            ),
        }
    }

    /// `p + i` or `p - i` (`sub`) for a pointer `p` to objects of type `elem`.
    pub(super) fn pointer_step(
        &mut self,
        p: Val,
        elem: &Type,
        i: OpId,
        signed: bool,
        sub: bool,
        span: Span,
    ) -> Option<Val> {
        let place = self.val_place(p)?;
        let (i, signed) = if sub {
            let i = self.resize(i, Ty::I32, signed, span);
            let z = self.konst(0, Ty::I32, span);
            (self.bin(BinOp::Sub, z, i, span), true)
        } else {
            (i, signed)
        };
        let q = self.index_place(place, i, elem, signed, span);
        Some(self.place_ptr(q))
    }

    /// The current value of variable `var` for an access through a pointer, or a diagnostic.
    fn var_value(&mut self, var: VarId, span: Span) -> Option<Val> {
        match self.env.vars.get(&var) {
            Some(v) => Some(*v),
            None => {
                let name = self.p.var(var).name.clone();
                self.diags.push(frontend::diag::Diagnostic::error(
                    span,
                    format!("this pointer points to `{name}`, which does not exist here (it is out of scope, or it differs between work-items in code that runs once per work-group)"),
                ));
                None
            }
        }
    }

    /// The offsets at which an access of type `ty` into variable `var` may read or write
    /// (see the module documentation); `None` after a diagnostic.
    fn candidates(&mut self, var: VarId, ty: &Type, span: Span) -> Option<Vec<u32>> {
        let vt = self.p.var(var).ty.clone();
        let mut offs = Vec::new();
        self.typed_offsets(&vt, ty, 0, &mut offs);
        let (size, want) = (self.p.size_of(&vt), self.p.size_of(ty));
        if offs.is_empty() && want <= size {
            let step = self.p.structs.align_of(ty).max(1) as usize;
            offs = (0..=size - want).step_by(step).collect();
        }
        if offs.is_empty() || offs.len() > MAX_CANDIDATES {
            let name = self.p.var(var).name.clone();
            self.unsupported(
                span,
                format!(
                    "an access of type `{}` through a pointer into `{name}` whose offset is known only at run time ({} places to choose from; at most {MAX_CANDIDATES})",
                    self.p.type_name(ty),
                    offs.len()
                ),
            );
            return None;
        }
        Some(offs)
    }

    /// Offsets (from `base`) of the sub-objects of `vt` whose type is exactly `ty`.
    fn typed_offsets(&self, vt: &Type, ty: &Type, base: u32, out: &mut Vec<u32>) {
        if vt == ty {
            out.push(base);
            return;
        }
        if matches!(vt, Type::Struct(id) if self.p.structs.get(*id).is_union) {
            return;
        }
        for (t, off) in self.parts_of_type(vt).unwrap_or_default() {
            self.typed_offsets(&t, ty, base + off, out);
        }
    }

    /// Reads a `ty` at byte offset `off` of private variable `var`.
    pub(super) fn var_read(&mut self, var: VarId, off: OpId, ty: &Type, span: Span) -> Val {
        let Some(cur) = self.var_value(var, span) else {
            return self.dummy(ty, span);
        };
        let vt = self.p.var(var).ty.clone();
        if let Some(o) = self.const_val(off) {
            if !self.in_bounds(var, o, ty, span) {
                return self.dummy(ty, span);
            }
            return self.view(cur, &vt, o as u32, ty, span);
        }
        let Some(offs) = self.candidates(var, ty, span) else {
            return self.dummy(ty, span);
        };
        let vals: Vec<Val> = offs
            .iter()
            .map(|&o| self.view(cur, &vt, o, ty, span))
            .collect();
        // Offsets in a regular progression of a power-of-two step (elements of an array,
        // lanes): a select tree on the bits of the element number.
        let step = if offs.len() > 1 { offs[1] - offs[0] } else { 1 };
        let regular = step.is_power_of_two() && offs.windows(2).all(|w| w[1] - w[0] == step);
        if regular {
            let first = self.konst(offs[0] as u64, Ty::I32, span);
            let rel = self.bin(BinOp::Sub, off, first, span);
            let sh = self.konst(step.trailing_zeros() as u64, Ty::I32, span);
            let k = self.bin(BinOp::ShrU, rel, sh, span);
            return self.mux_tree(k, vals, span);
        }
        let mut acc = vals[0];
        for (&o, &v) in offs.iter().zip(&vals).skip(1) {
            let c = self.offset_is(off, o, span);
            acc = self.merge_val(c, v, acc, span);
        }
        acc
    }

    /// Writes `v` of type `ty` at byte offset `off` of private variable `var`.
    pub(super) fn var_write(&mut self, var: VarId, off: OpId, ty: &Type, v: Val, span: Span) {
        let Some(cur) = self.var_value(var, span) else {
            return;
        };
        let vt = self.p.var(var).ty.clone();
        let new = if let Some(o) = self.const_val(off) {
            if !self.in_bounds(var, o, ty, span) {
                return;
            }
            self.put(cur, &vt, o as u32, ty, v, span)
        } else {
            let Some(offs) = self.candidates(var, ty, span) else {
                return;
            };
            let mut acc = cur;
            for o in offs {
                let c = self.offset_is(off, o, span);
                let n = self.put(acc, &vt, o, ty, v, span);
                acc = self.merge_val(c, n, acc, span);
            }
            acc
        };
        // After `return` (here or in a caller) the write does not happen; `assign_var` masks
        // it after `break`/`continue`.
        let ret = self.env.returned;
        let new = if self.const_val(ret) == Some(0) {
            new
        } else {
            self.merge_val(ret, cur, new, span)
        };
        self.assign_var(var, new, span);
    }

    /// i1: `off == o`.
    fn offset_is(&mut self, off: OpId, o: u32, span: Span) -> OpId {
        let c = self.konst(o as u64, Ty::I32, span);
        self.cmp(CmpOp::Eq, off, c, span)
    }

    /// Is an access of type `ty` at constant offset `o` inside variable `var`? Reports one
    /// that is not.
    fn in_bounds(&mut self, var: VarId, o: u64, ty: &Type, span: Span) -> bool {
        let size = self.p.size_of(&self.p.var(var).ty) as u64;
        let o = o as u32 as i32 as i64;
        if o >= 0 && o as u64 + self.p.size_of(ty) as u64 <= size {
            return true;
        }
        let name = self.p.var(var).name.clone();
        self.diags.push(frontend::diag::Diagnostic::error(
            span,
            format!(
                "this access of type `{}` at byte offset {o} of `{name}` is outside the variable ({size} bytes)",
                self.p.type_name(ty)
            ),
        ));
        false
    }

    /// The `ty` at constant byte offset `o` of value `cur` of type `vt`: the part of that type
    /// there, else the bytes of the memory image.
    fn view(&mut self, cur: Val, vt: &Type, o: u32, ty: &Type, span: Span) -> Val {
        if o == 0 && vt == ty {
            return if ty.is_vector() {
                self.without_raw(cur)
            } else {
                cur
            };
        }
        if let Some(i) = self.part_around(vt, o, ty) {
            let (pt, po) = self.parts_of_type(vt).unwrap_or_default()[i].clone();
            let pv = self.parts_vals(cur, vt)[i];
            return self.view(pv, &pt, o - po, ty, span);
        }
        let img = self.pack(cur, vt, span);
        let it = self.image_ty(ty);
        let x = self.extract(img, o * 8, it, span);
        self.unpack(x, ty, false, span)
    }

    /// `cur` (of type `vt`) with the `ty` at constant byte offset `o` replaced by `v`.
    fn put(&mut self, cur: Val, vt: &Type, o: u32, ty: &Type, v: Val, span: Span) -> Val {
        if o == 0 && vt == ty {
            return v;
        }
        if let Some(i) = self.part_around(vt, o, ty) {
            let (pt, po) = self.parts_of_type(vt).unwrap_or_default()[i].clone();
            let mut parts = self.parts_vals(cur, vt);
            parts[i] = self.put(parts[i], &pt, o - po, ty, v, span);
            let raw = self.raw_of(cur);
            return self.mk_agg(parts, raw);
        }
        // Through the image: the bytes below, the new value, the bytes above.
        let img = self.pack(cur, vt, span);
        let (size, want) = (self.p.size_of(vt), self.p.size_of(ty));
        let mut pieces = Vec::new();
        if o > 0 {
            pieces.push(self.extract(img, 0, Ty::Int((o * 8) as u16), span));
        }
        pieces.push(self.pack(v, ty, span));
        let end = o + want;
        if end < size {
            pieces.push(self.extract(img, end * 8, Ty::Int(((size - end) * 8) as u16), span));
        }
        let new = self.concat(pieces, span);
        self.unpack(new, vt, true, span)
    }

    /// The part of type `vt` (not a union) that holds bytes `o .. o + sizeof(ty)`.
    fn part_around(&self, vt: &Type, o: u32, ty: &Type) -> Option<usize> {
        if matches!(vt, Type::Struct(id) if self.p.structs.get(*id).is_union) {
            return None;
        }
        let want = self.p.size_of(ty);
        self.parts_of_type(vt)?
            .iter()
            .position(|(t, po)| *po <= o && o + want <= po + self.p.size_of(t))
    }

    /// Element `i` (a run-time value) of `vals`: a tree of selects on the bits of `i` (an
    /// `i` outside `vals` reads one of them).
    pub(super) fn mux_tree(&mut self, i: OpId, vals: Vec<Val>, span: Span) -> Val {
        let mut level = vals;
        let width = self.k.op(i).ty.bits();
        let mut bit = 0;
        while level.len() > 1 {
            let b = if bit < width {
                self.extract(i, bit, Ty::BOOL, span)
            } else {
                self.konst(0, Ty::BOOL, span)
            };
            let mut next = Vec::new();
            for pair in level.chunks(2) {
                next.push(match pair {
                    [lo, hi] => self.merge_val(b, *hi, *lo, span),
                    [x] => *x,
                    _ => unreachable!("chunks of two"),
                });
            }
            level = next;
            bit += 1;
        }
        level.into_iter().next().unwrap_or(Val::Undef)
    }

    /// Element `i` (a run-time index) of the array inside an aggregate, value `v` of array
    /// type `ty`.
    pub(super) fn dyn_part(&mut self, v: Val, ty: &Type, i: OpId, span: Span) -> Val {
        let n = self.parts_of_type(ty).map_or(0, |p| p.len());
        let vals: Vec<Val> = (0..n as u32).map(|j| self.part(v, ty, j)).collect();
        self.mux_tree(i, vals, span)
    }
}
