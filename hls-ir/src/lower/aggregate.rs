//! Vectors, structs and arrays inside structs during lowering.
//!
//! An aggregate value is a tree of per-lane and per-field values ([`Agg`]): element-wise
//! arithmetic, swizzles and field accesses work on the parts, so only the parts a kernel uses
//! cost hardware. At the boundaries where the aggregate is one object in memory (loads and
//! stores, by-value kernel arguments, the contexts of kernels with barriers) it is its
//! *memory image*: one bit vector of `8 * sizeof(T)` bits with the OpenCL C layout (lane 0 and
//! the first byte in the lowest bits), taken apart with `Extract` ([`Lower::unpack`]) and
//! assembled with `Concat` ([`Lower::pack`]).
//!
//! The bytes of an image that no part covers (struct padding, the fourth lane of a 3-vector)
//! follow the reference emulator, which copies objects as bytes: a struct read from memory
//! keeps its padding bytes (`raw`) until it is written back; a vector read as a value, and
//! every freshly built aggregate, has zero there.

use super::places::Place;
use super::{scalar_ty, Lower, Val};
use crate::ids::OpId;
use crate::ops::{BinOp, ByteMask, CmpOp, ConvOp, OpKind};
use crate::types::Ty;
use frontend::ast::{Expr, ExprKind, Init, ScalarKind, Type};
use frontend::span::Span;

/// The most stores an assignment to an element of an array inside a struct in memory, with a
/// run-time index, becomes (one per element).
const MAX_INDEXED_STORES: usize = 64;

/// Parts of an aggregate value.
#[derive(Clone, Debug)]
pub(super) struct Agg {
    /// Lanes of a vector, fields of a struct, elements of an array, in declaration order.
    pub parts: Vec<Val>,
    /// The image this value was read from, whose bytes outside every part it keeps; `None`:
    /// zero there.
    pub raw: Option<OpId>,
}

/// One step from an object to a part of it, in an lvalue such as `p[i].pos.xy`.
#[derive(Clone, Debug)]
pub(super) enum Step {
    /// A field of a struct, or a constant index into an array inside a struct.
    Part(u32),
    /// A run-time index (an op) into an array inside a struct.
    Index(OpId),
    /// Lanes of a vector (always the last step: consecutive swizzles are composed).
    Lanes(Vec<u8>),
}

/// Is `e` an array that is part of an aggregate value (a struct field, or an element of such
/// an array), rather than an array variable (an on-chip memory)?
pub(super) fn is_agg_array(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Member { .. } => e.ty.is_array(),
        ExprKind::Index { base, .. } => e.ty.is_array() && is_agg_array(base),
        _ => false,
    }
}

impl<'a> Lower<'a> {
    pub(super) fn mk_agg(&mut self, parts: Vec<Val>, raw: Option<OpId>) -> Val {
        self.aggs.push(Agg { parts, raw });
        Val::Agg(self.aggs.len() as u32 - 1)
    }

    /// The parts of an aggregate type with their byte offsets: lanes of a vector, fields of a
    /// struct, elements of an array; `None` for other types (and unions, which are reported
    /// where they appear).
    pub(super) fn parts_of_type(&self, ty: &Type) -> Option<Vec<(Type, u32)>> {
        match ty {
            Type::Struct(id) if self.p.structs.get(*id).is_union => None,
            Type::Vector(k, n) => Some(
                (0..*n as u32)
                    .map(|i| (Type::Scalar(*k), i * k.size_bytes()))
                    .collect(),
            ),
            Type::Struct(id) => Some(
                self.p
                    .structs
                    .get(*id)
                    .fields
                    .iter()
                    .map(|f| (f.ty.clone(), f.offset))
                    .collect(),
            ),
            Type::Array(e, n) => {
                let size = self.p.size_of(e);
                Some((0..*n).map(|i| ((**e).clone(), i * size)).collect())
            }
            _ => None,
        }
    }

    /// Byte ranges `(offset, length)` of `ty`'s image that none of its parts covers.
    fn gaps(&self, ty: &Type) -> Vec<(u32, u32)> {
        let Some(mut parts) = self.parts_of_type(ty) else {
            return Vec::new();
        };
        parts.sort_by_key(|p| p.1);
        let mut out = Vec::new();
        let mut at = 0;
        for (t, off) in &parts {
            if *off > at {
                out.push((at, off - at));
            }
            at = at.max(off + self.p.size_of(t));
        }
        let size = self.p.size_of(ty);
        if size > at {
            out.push((at, size - at));
        }
        out
    }

    /// The IR type of `ty`'s memory image: the scalar type (bool as a byte), or a bit vector of
    /// `8 * sizeof` bits for aggregates.
    pub(super) fn image_ty(&self, ty: &Type) -> Ty {
        match ty {
            Type::Scalar(ScalarKind::Bool) => Ty::Int(8),
            Type::Scalar(k) => scalar_ty(*k),
            Type::Atomic(a) => scalar_ty(a.value_kind()),
            Type::Pointer { .. } => Ty::I32,
            t => Ty::Int((self.p.size_of(t) * 8).min(Ty::MAX_BITS) as u16),
        }
    }

    /// Checks that values of `ty` can be built in hardware (no unions, images of at most
    /// 8 KiB); reports what is not.
    pub(super) fn check_type(&mut self, ty: &Type, span: Span) -> bool {
        match ty {
            Type::Struct(id) if self.p.structs.get(*id).is_union => {
                self.unsupported(span, "a union");
                false
            }
            Type::Struct(_) | Type::Vector(..) | Type::Array(..)
                if self.p.size_of(ty) * 8 > Ty::MAX_BITS =>
            {
                self.unsupported(
                    span,
                    format!(
                        "a value of `{}` ({} bytes; at most 8191 bytes)",
                        self.p.type_name(ty),
                        self.p.size_of(ty)
                    ),
                );
                false
            }
            Type::Struct(_) | Type::Array(..) => {
                let parts = self.parts_of_type(ty).unwrap_or_default();
                parts.iter().all(|(t, _)| self.check_type(t, span))
            }
            _ => true,
        }
    }

    /// The parts of aggregate value `v` of type `ty` (undefined parts for an undefined value).
    pub(super) fn parts_vals(&self, v: Val, ty: &Type) -> Vec<Val> {
        match v {
            Val::Agg(a) => self.aggs[a as usize].parts.clone(),
            _ => vec![Val::Undef; self.parts_of_type(ty).map_or(0, |p| p.len())],
        }
    }

    pub(super) fn raw_of(&self, v: Val) -> Option<OpId> {
        match v {
            Val::Agg(a) => self.aggs[a as usize].raw,
            _ => None,
        }
    }

    /// `v` without the bytes it was read with (a vector read as a value).
    pub(super) fn without_raw(&mut self, v: Val) -> Val {
        match v {
            Val::Agg(a) if self.aggs[a as usize].raw.is_some() => {
                let parts = self.aggs[a as usize].parts.clone();
                self.mk_agg(parts, None)
            }
            v => v,
        }
    }

    /// The scalar op of a scalar value of type `ty` (an undefined value is 0).
    pub(super) fn scalar_of(&mut self, v: Val, ty: &Type, span: Span) -> OpId {
        match v {
            Val::Scalar(x) => x,
            Val::Ptr { addr, .. } | Val::VarPtr { off: addr, .. } => addr,
            // As an integer: the address of the pointer the condition picks.
            Val::PtrSel(i) => {
                let (c, a, b) = self.ptr_sels[i as usize];
                let (a, b) = (self.scalar_of(a, ty, span), self.scalar_of(b, ty, span));
                self.select(c, a, b, span)
            }
            Val::Undef | Val::Agg(_) => {
                let t = match ty {
                    Type::Scalar(k) => scalar_ty(*k),
                    _ => Ty::I32,
                };
                self.konst(0, t, span)
            }
        }
    }

    /// Reinterprets `x` as type `to` of the same width (or returns it when it already is).
    pub(super) fn fit(&mut self, x: OpId, to: Ty, span: Span) -> OpId {
        let from = self.k.op(x).ty;
        if from == to {
            return x;
        }
        debug_assert_eq!(
            from.bits(),
            to.bits(),
            "fit changes only the type, not the width"
        );
        if let OpKind::Const(v) = self.k.op(x).kind {
            return self.op(OpKind::Const(v), to, span, &[]);
        }
        self.op(OpKind::Convert(ConvOp::Bitcast), to, span, &[x])
    }

    /// Bits `lo .. lo + bits(t)` of `x`, as type `t`.
    pub(super) fn extract(&mut self, x: OpId, lo: u32, t: Ty, span: Span) -> OpId {
        let from = self.k.op(x).ty;
        if lo == 0 && from.bits() == t.bits() {
            return self.fit(x, t, span);
        }
        if let OpKind::Const(v) = self.k.op(x).kind {
            if t.bits() <= 64 {
                let v = if lo >= 64 { 0 } else { v >> lo };
                return self.konst(v, t, span);
            }
        }
        self.op(OpKind::Extract { lo }, t, span, &[x])
    }

    /// The parts side by side, the first in the lowest bits (a single part is itself).
    pub(super) fn concat(&mut self, parts: Vec<OpId>, span: Span) -> OpId {
        if parts.len() == 1 {
            return parts[0];
        }
        // Operand indices are bytes: large aggregates concatenate in groups.
        if parts.len() > 128 {
            let groups: Vec<OpId> = parts
                .chunks(128)
                .map(|c| self.concat(c.to_vec(), span))
                .collect();
            return self.concat(groups, span);
        }
        let bits: u32 = parts.iter().map(|&p| self.k.op(p).ty.bits()).sum();
        self.op(OpKind::Concat, Ty::Int(bits as u16), span, &parts)
    }

    /// The memory image of value `v` of type `ty` (see the module documentation).
    pub(super) fn pack(&mut self, v: Val, ty: &Type, span: Span) -> OpId {
        match ty {
            Type::Scalar(ScalarKind::Bool) => {
                let b = self.scalar_of(v, ty, span);
                self.resize(b, Ty::Int(8), false, span)
            }
            Type::Scalar(_) | Type::Pointer { .. } => self.scalar_of(v, ty, span),
            _ => {
                let Some(types) = self.parts_of_type(ty) else {
                    return self.konst(0, self.image_ty(ty), span);
                };
                let vals = self.parts_vals(v, ty);
                let raw = self.raw_of(v);
                let mut pieces: Vec<(u32, OpId)> = Vec::new();
                for ((t, off), pv) in types.iter().zip(vals) {
                    let x = self.pack(pv, t, span);
                    pieces.push((*off, x));
                }
                for (off, len) in self.gaps(ty) {
                    let t = Ty::Int((len * 8) as u16);
                    let x = match raw {
                        Some(r) => self.extract(r, off * 8, t, span),
                        None => self.konst(0, t, span),
                    };
                    pieces.push((off, x));
                }
                pieces.sort_by_key(|p| p.0);
                self.concat(pieces.into_iter().map(|p| p.1).collect(), span)
            }
        }
    }

    /// The value of type `ty` whose memory image is `bits`. `nested`: an aggregate inside
    /// another one, which keeps its uncovered bytes (a vector read on its own does not, as in
    /// the emulator).
    pub(super) fn unpack(&mut self, bits: OpId, ty: &Type, nested: bool, span: Span) -> Val {
        match ty {
            Type::Scalar(ScalarKind::Bool) => {
                let b = self.fit(bits, Ty::Int(8), span);
                let z = self.konst(0, Ty::Int(8), span);
                Val::Scalar(self.cmp(CmpOp::Ne, b, z, span))
            }
            Type::Scalar(k) => Val::Scalar(self.fit(bits, scalar_ty(*k), span)),
            _ => {
                let Some(types) = self.parts_of_type(ty) else {
                    self.unsupported(
                        span,
                        format!("reading a `{}` from memory", self.p.type_name(ty)),
                    );
                    return Val::Undef;
                };
                let mut parts = Vec::new();
                for (t, off) in &types {
                    let it = self.image_ty(t);
                    let x = self.extract(bits, off * 8, it, span);
                    parts.push(self.unpack(x, t, true, span));
                }
                let keep = !self.gaps(ty).is_empty() && (nested || !ty.is_vector());
                self.mk_agg(parts, keep.then_some(bits))
            }
        }
    }

    /// The lanes of a scalar or vector value as scalar ops (undefined lanes are 0).
    pub(super) fn lanes(&mut self, v: Val, ty: &Type, span: Span) -> Vec<OpId> {
        match ty {
            Type::Vector(k, _) => {
                let parts = self.parts_vals(v, ty);
                parts
                    .into_iter()
                    .map(|p| self.scalar_of(p, &Type::Scalar(*k), span))
                    .collect()
            }
            _ => vec![self.scalar_of(v, ty, span)],
        }
    }

    pub(super) fn lanes_of_expr(&mut self, e: &Expr) -> Vec<OpId> {
        let v = self.rvalue(e);
        self.lanes(v, &e.ty, e.span)
    }

    pub(super) fn vector(&mut self, lanes: Vec<OpId>) -> Val {
        self.mk_agg(lanes.into_iter().map(Val::Scalar).collect(), None)
    }

    /// The value an initialiser gives an object of type `ty`.
    pub(super) fn init_value(&mut self, ty: &Type, init: &Init) -> Val {
        match init {
            Init::Expr(e) => self.rvalue(e),
            Init::List(items) => match self.parts_of_type(ty) {
                Some(types) => {
                    let mut parts = Vec::new();
                    for (i, (t, _)) in types.iter().enumerate() {
                        parts.push(match items.get(i) {
                            Some(it) => self.init_value(t, it),
                            None => Val::Undef,
                        });
                    }
                    self.mk_agg(parts, None)
                }
                None => match items.first() {
                    Some(it) => self.init_value(ty, it),
                    None => Val::Undef,
                },
            },
        }
    }

    /// Part `i` of aggregate value `v` of type `ty`, as a value of its own.
    pub(super) fn part(&mut self, v: Val, ty: &Type, i: u32) -> Val {
        let parts = self.parts_vals(v, ty);
        let p = parts.get(i as usize).copied().unwrap_or(Val::Undef);
        let is_vec = self
            .parts_of_type(ty)
            .and_then(|t| t.get(i as usize).map(|(t, _)| t.is_vector()))
            .unwrap_or(false);
        if is_vec {
            self.without_raw(p)
        } else {
            p
        }
    }

    /// Lanes `ls` of vector value `v` of type `ty`: a scalar for one lane.
    pub(super) fn swizzle(&mut self, v: Val, ty: &Type, ls: &[u8]) -> Val {
        let parts = self.parts_vals(v, ty);
        let pick = |i: &u8| parts.get(*i as usize).copied().unwrap_or(Val::Undef);
        if ls.len() == 1 {
            return pick(&ls[0]);
        }
        let sel = ls.iter().map(pick).collect();
        self.mk_agg(sel, None)
    }

    /// `base[index]` where `base` is an array inside an aggregate value.
    pub(super) fn agg_index(&mut self, base: &Expr, index: &Expr) -> Val {
        let v = self.rvalue(base);
        let i = self.scalar(index);
        match self.const_val(i) {
            Some(c) => self.part(v, &base.ty, c as u32),
            None => self.dyn_part(v, &base.ty, i, index.span),
        }
    }

    /// Splits lvalue `e` into its root object (a variable, or an element of memory) and the
    /// steps from the root's value to the part `e` designates, root first.
    pub(super) fn lvalue_path<'e>(&mut self, e: &'e Expr) -> Option<(&'e Expr, Vec<Step>)> {
        let mut steps = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Member { base, field } => {
                    if matches!(&base.ty, Type::Struct(id) if self.p.structs.get(*id).is_union) {
                        self.unsupported(e.span, "a union");
                        return None;
                    }
                    steps.push(Step::Part(*field));
                    cur = base;
                }
                ExprKind::Swizzle { base, lanes } => {
                    steps.push(Step::Lanes(lanes.clone()));
                    cur = base;
                }
                ExprKind::Index { base, index } if is_agg_array(base) => {
                    let i = self.scalar(index);
                    steps.push(match self.const_val(i) {
                        Some(c) => Step::Part(c as u32),
                        None => Step::Index(i),
                    });
                    cur = base;
                }
                _ => break,
            }
        }
        steps.reverse();
        // `v.xy.x`: lanes of lanes are lanes of `v`.
        let mut out: Vec<Step> = Vec::new();
        for s in steps {
            match (out.last_mut(), s) {
                (Some(Step::Lanes(first)), Step::Lanes(second)) => {
                    *first = second.iter().map(|&j| first[j as usize]).collect();
                }
                (_, s) => out.push(s),
            }
        }
        Some((cur, out))
    }

    /// `cur` (of type `ty`) with the part the steps lead to replaced by `v`.
    pub(super) fn replace_in(&mut self, cur: Val, ty: &Type, steps: &[Step], v: Val) -> Val {
        let Some((first, rest)) = steps.split_first() else {
            return v;
        };
        let mut parts = self.parts_vals(cur, ty);
        match first {
            Step::Part(i) => {
                let i = *i as usize;
                let types = self.parts_of_type(ty).unwrap_or_default();
                let (Some((t, _)), Some(&old)) = (types.get(i), parts.get(i)) else {
                    return cur;
                };
                parts[i] = self.replace_in(old, t, rest, v);
                let raw = self.raw_of(cur);
                self.mk_agg(parts, raw)
            }
            Step::Index(i) => {
                // Every element, each replaced where the index names it.
                let types = self.parts_of_type(ty).unwrap_or_default();
                let (it, span) = (self.k.op(*i).ty, self.k.op(*i).span);
                for (j, (t, _)) in types.iter().enumerate() {
                    let old = parts[j];
                    let new = self.replace_in(old, t, rest, v);
                    let jc = self.konst(j as u64, it, span);
                    let c = self.cmp(CmpOp::Eq, *i, jc, span);
                    parts[j] = self.merge_val(c, new, old, span);
                }
                let raw = self.raw_of(cur);
                self.mk_agg(parts, raw)
            }
            Step::Lanes(ls) => {
                if ls.len() == 1 {
                    if let Some(p) = parts.get_mut(ls[0] as usize) {
                        *p = v;
                    }
                } else {
                    let k = ty.elem_kind().unwrap_or(ScalarKind::Int);
                    let new = self.parts_vals(v, &Type::Vector(k, ls.len() as u8));
                    for (j, &l) in ls.iter().enumerate() {
                        if let (Some(p), Some(&n)) = (parts.get_mut(l as usize), new.get(j)) {
                            *p = n;
                        }
                    }
                }
                // The emulator rewrites the whole vector: a 3-vector's fourth lane becomes 0.
                self.mk_agg(parts, None)
            }
        }
    }

    /// The bytes of an object of type `ty` that assigning through `steps` writes.
    pub(super) fn path_bytes(&self, ty: &Type, steps: &[Step], base: u32, out: &mut Vec<bool>) {
        let mark = |from: u32, len: u32, out: &mut Vec<bool>| {
            for b in from..from + len {
                if let Some(x) = out.get_mut(b as usize) {
                    *x = true;
                }
            }
        };
        match steps.split_first() {
            None => mark(base, self.p.size_of(ty), out),
            Some((Step::Part(i), rest)) => {
                if let Some((t, off)) = self
                    .parts_of_type(ty)
                    .and_then(|p| p.get(*i as usize).cloned())
                {
                    self.path_bytes(&t, rest, base + off, out);
                }
            }
            Some((Step::Index(_), _)) => {
                unreachable!("run-time indices are expanded before byte masks are computed")
            }
            Some((Step::Lanes(ls), _)) => {
                if let Type::Vector(k, n) = ty {
                    let w = k.size_bytes();
                    for &l in ls {
                        mark(base + l as u32 * w, w, out);
                    }
                    if *n == 3 {
                        mark(base + 3 * w, w, out);
                    }
                }
            }
        }
    }

    /// Assigns `v` to the part of a variable or memory element that lvalue `lhs` (a field,
    /// lanes, or an element of an array inside a struct) designates.
    pub(super) fn assign_part(&mut self, lhs: &Expr, v: Val, span: Span) {
        let Some((root, steps)) = self.lvalue_path(lhs) else {
            return;
        };
        match &root.kind {
            ExprKind::Var(var) => {
                let cur = self.env.vars.get(var).copied().unwrap_or(Val::Undef);
                let new = self.replace_in(cur, &root.ty, &steps, v);
                self.assign_var(*var, new, span);
            }
            ExprKind::Index { .. } | ExprKind::Deref(_) | ExprKind::Global(_) => {
                match self.place(root) {
                    Some(Place::Mem { addr, mem }) => {
                        self.store_path(addr, mem, &root.ty, &mut steps.clone(), v, span)
                    }
                    Some(p) => {
                        // A private variable (or a choice of places): read, replace, write.
                        let cur = self.read_place(p.clone(), &root.ty, span);
                        let new = self.replace_in(cur, &root.ty, &steps, v);
                        self.write_place(p, new, &root.ty, span);
                    }
                    None => {}
                }
            }
            _ => self.unsupported(span, "assigning to a part of this value"),
        }
    }

    /// Stores `v` to the part of the element at `addr` of memory `mem` (of type `ty`) that
    /// `steps` lead to: one store of just those bytes, or, for a run-time index into an array
    /// inside the element, one such store per element of that array, each predicated on the
    /// index naming it (a byte mask cannot depend on a run-time value).
    fn store_path(
        &mut self,
        addr: OpId,
        mem: crate::ids::MemId,
        ty: &Type,
        steps: &mut Vec<Step>,
        v: Val,
        span: Span,
    ) {
        let Some(at) = steps.iter().position(|s| matches!(s, Step::Index(_))) else {
            let new = self.replace_in(Val::Undef, ty, steps, v);
            let mut bytes = vec![false; self.p.size_of(ty) as usize];
            self.path_bytes(ty, steps, 0, &mut bytes);
            let mask = ByteMask(bytes);
            let mask = (!mask.all()).then_some(mask);
            self.store_val(addr, mem, new, ty, mask, span);
            return;
        };
        let Step::Index(i) = steps[at] else {
            unreachable!("found above")
        };
        // The array the index selects in: walk the constant steps before it.
        let mut t = ty.clone();
        for s in &steps[..at] {
            if let Step::Part(p) = s {
                t = self.parts_of_type(&t).unwrap_or_default()[*p as usize]
                    .0
                    .clone();
            }
        }
        let n = self.parts_of_type(&t).map_or(0, |p| p.len());
        if n > MAX_INDEXED_STORES {
            self.unsupported(
                span,
                format!("assigning to an element of an array of {n} elements inside a struct in memory with an index that is not a constant (at most {MAX_INDEXED_STORES})"),
            );
            return;
        }
        let saved = self.pred;
        let it = self.k.op(i).ty;
        for j in 0..n {
            let jc = self.konst(j as u64, it, span);
            let c = self.cmp(CmpOp::Eq, i, jc, span);
            self.pred = self.and1(saved, c, span);
            steps[at] = Step::Part(j as u32);
            self.store_path(addr, mem, ty, steps, v, span);
        }
        steps[at] = Step::Index(i);
        self.pred = saved;
    }

    /// The value's leaves for loop-carried registers: every scalar part, the address of every
    /// pointer, and the image of an aggregate with uncovered bytes (its padding); undefined
    /// parts are 0. [`Lower::rebuild`] inverts it for the same type and `template`.
    pub(super) fn flatten(&mut self, v: Val, ty: &Type, span: Span, out: &mut Vec<OpId>) {
        match ty {
            Type::Vector(..) | Type::Struct(_) | Type::Array(..) => {
                let types = self.parts_of_type(ty).unwrap_or_default();
                let vals = self.parts_vals(v, ty);
                for ((t, _), pv) in types.iter().zip(vals) {
                    self.flatten(pv, t, span, out);
                }
                if !self.gaps(ty).is_empty() {
                    let r = match self.raw_of(v) {
                        Some(r) => r,
                        None => self.konst(0, self.image_ty(ty), span),
                    };
                    out.push(r);
                }
            }
            _ => match v {
                // A pointer chosen at run time: its condition, then both pointers.
                Val::PtrSel(i) => {
                    let (c, a, b) = self.ptr_sels[i as usize];
                    out.push(c);
                    self.flatten(a, ty, span, out);
                    self.flatten(b, ty, span, out);
                }
                _ => out.push(self.scalar_of(v, ty, span)),
            },
        }
    }

    /// The value of type `ty` whose leaves (see [`Lower::flatten`]) are taken from `leaves`;
    /// pointers keep the memory of `template`.
    pub(super) fn rebuild(
        &mut self,
        template: Val,
        ty: &Type,
        leaves: &mut impl Iterator<Item = OpId>,
    ) -> Val {
        match ty {
            Type::Vector(..) | Type::Struct(_) | Type::Array(..) => {
                let types = self.parts_of_type(ty).unwrap_or_default();
                let tmpl = self.parts_vals(template, ty);
                let mut parts = Vec::new();
                for ((t, _), pt) in types.iter().zip(tmpl) {
                    parts.push(self.rebuild(pt, t, leaves));
                }
                let raw = if self.gaps(ty).is_empty() {
                    None
                } else {
                    leaves.next()
                };
                self.mk_agg(parts, raw)
            }
            _ => {
                let x = leaves.next().expect("as many leaves as flatten made");
                if let Val::PtrSel(i) = template {
                    let (_, ta, tb) = self.ptr_sels[i as usize];
                    let a = self.rebuild(ta, ty, leaves);
                    let b = self.rebuild(tb, ty, leaves);
                    return self.ptr_sel(x, a, b);
                }
                match template {
                    Val::Ptr { mem, .. } => Val::Ptr { addr: x, mem },
                    Val::VarPtr { var, .. } => Val::VarPtr { var, off: x },
                    _ => Val::Scalar(x),
                }
            }
        }
    }

    /// Saturating integer conversion of `x` from `from` to `to` (`convert_T_sat`): clamp in
    /// the source width (the limits of `to` that are inside the source range), then resize.
    pub(super) fn convert_sat(
        &mut self,
        x: OpId,
        from: ScalarKind,
        to: ScalarKind,
        span: Span,
    ) -> OpId {
        let fb = from.bits();
        let range = |k: ScalarKind| -> (i128, i128) {
            let b = k.bits();
            if k == ScalarKind::Bool {
                (0, 1)
            } else if k.is_signed() {
                (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
            } else {
                (0, (1i128 << b) - 1)
            }
        };
        let (flo, fhi) = range(from);
        let (tlo, thi) = range(to);
        let ty = scalar_ty(from);
        let mut v = x;
        let bits = |c: i128| (c as u64) & if fb >= 64 { u64::MAX } else { (1 << fb) - 1 };
        if from.is_signed() {
            if tlo > flo {
                let c = self.konst(bits(tlo), ty, span);
                v = self.bin(BinOp::MaxS, v, c, span);
            }
            if thi < fhi {
                let c = self.konst(bits(thi), ty, span);
                v = self.bin(BinOp::MinS, v, c, span);
            }
        } else if thi < fhi {
            let c = self.konst(bits(thi), ty, span);
            v = self.bin(BinOp::MinU, v, c, span);
        }
        self.resize(v, scalar_ty(to), from.is_signed(), span)
    }
}
