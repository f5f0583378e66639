//! Expressions: the value of each expression kind (`rvalue`), conditions as `i1` predicates,
//! and the C types of operands (width and signedness).

use super::aggregate::is_agg_array;
use super::{scalar_ty, Lower, Val};
use crate::ids::OpId;
use crate::ops::{CmpOp, ConvOp, OpKind};
use crate::types::Ty;
use frontend::ast::{Expr, ExprKind, ScalarKind, Type, VarId};
use frontend::diag::Diagnostic;
use frontend::span::Span;

impl Lower<'_> {
    /// Lower a condition (type bool in the AST) to an i1.
    pub(super) fn cond(&mut self, e: &Expr) -> OpId {
        match self.rvalue(e) {
            Val::Scalar(v) => self.as_predicate(v, e.span),
            v @ (Val::Ptr { .. } | Val::VarPtr { .. } | Val::PtrSel(_)) => self.non_null(v, e.span),
            Val::Undef => self.konst(0, Ty::BOOL, e.span),
            Val::Agg(_) => {
                self.unsupported(e.span, "a vector or struct as a condition");
                self.konst(0, Ty::BOOL, e.span)
            }
        }
    }

    /// i1: pointer `v` is not null (the address of a variable never is).
    fn non_null(&mut self, v: Val, span: Span) -> OpId {
        match v {
            Val::Ptr { addr, .. } => {
                let z = self.konst(0, Ty::I32, span);
                self.cmp(CmpOp::Ne, addr, z, span)
            }
            Val::PtrSel(i) => {
                let (c, a, b) = self.ptr_sels[i as usize];
                let (a, b) = (self.non_null(a, span), self.non_null(b, span));
                self.select(c, a, b, span)
            }
            _ => self.konst(1, Ty::BOOL, span),
        }
    }

    pub(super) fn as_predicate(&mut self, v: OpId, span: Span) -> OpId {
        let ty = self.k.op(v).ty;
        if ty == Ty::BOOL {
            return v;
        }
        // A comparison widened to int and tested again: use the comparison itself.
        if let OpKind::Convert(ConvOp::ZExt) = self.k.op(v).kind {
            let src = self.k.operands(v)[0];
            if self.k.op(src).ty == Ty::BOOL {
                return src;
            }
        }
        let z = self.konst(0, ty, span);
        if ty.is_float() {
            // `x != 0.0`: true for NaN.
            return self.fcmp(CmpOp::FNe, v, z, span);
        }
        self.cmp(CmpOp::Ne, v, z, span)
    }

    pub(super) fn scalar(&mut self, e: &Expr) -> OpId {
        match self.rvalue(e) {
            Val::Scalar(v) => v,
            v @ Val::PtrSel(_) => self.scalar_of(v, &e.ty, e.span),
            Val::Ptr { addr, .. } | Val::VarPtr { off: addr, .. } => addr,
            Val::Undef => match &e.ty {
                Type::Scalar(k) => self.konst(0, scalar_ty(*k), e.span),
                _ => self.konst(0, Ty::I32, e.span),
            },
            Val::Agg(_) => {
                self.unsupported(e.span, "a vector or struct here");
                self.konst(0, Ty::I32, e.span)
            }
        }
    }

    /// The value of expression `e`, with the side effects it has.
    pub(super) fn rvalue(&mut self, e: &Expr) -> Val {
        let span = e.span;
        match &e.kind {
            ExprKind::IntLit(v) => self.int_lit(*v, &e.ty, span),
            ExprKind::SizeOf(v) => Val::Scalar(self.konst(*v, Ty::I32, span)),
            ExprKind::FloatLit(f) => self.float_lit(*f, &e.ty, span),
            ExprKind::Var(v) => self.read_var(*v, span),
            ExprKind::Global(g) => self.program_var(*g, &e.ty, span),
            ExprKind::Unary { op, expr } => self.unary(*op, expr, &e.ty, span),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, &e.ty, span),
            ExprKind::Assign {
                op,
                lhs,
                rhs,
                op_ty,
            } => self.assign_expr(*op, lhs, rhs, op_ty, span),
            ExprKind::IncDec { inc, prefix, expr } => self.inc_dec(*inc, *prefix, expr, span),
            ExprKind::Cond { cond, then, els } => self.conditional(cond, then, els, &e.ty, span),
            ExprKind::Cast { kind, expr } => self.cast(*kind, expr, &e.ty, span),
            ExprKind::Index { base, index } if is_agg_array(base) => self.agg_index(base, index),
            ExprKind::Index { .. } | ExprKind::Deref(_) => self.read_memory(e),
            ExprKind::AddrOf(inner) => match self.place(inner) {
                Some(p) => self.place_ptr(p),
                None => Val::Undef,
            },
            ExprKind::Comma(a, b) => {
                self.rvalue(a);
                self.rvalue(b)
            }
            ExprKind::Call { func, args } => self.call(*func, args, span),
            ExprKind::Builtin { builtin, args } => self.builtin(*builtin, args, &e.ty, span),
            ExprKind::Member { base, field } => {
                if matches!(&base.ty, Type::Struct(id) if self.p.structs.get(*id).is_union) {
                    self.unsupported(span, "a union");
                    return Val::Undef;
                }
                let v = self.rvalue(base);
                self.part(v, &base.ty, *field)
            }
            ExprKind::Swizzle { base, lanes } => {
                let v = self.rvalue(base);
                self.swizzle(v, &base.ty, lanes)
            }
            ExprKind::VecLit(items) => {
                let parts = items.iter().map(|it| self.rvalue(it)).collect();
                self.mk_agg(parts, None)
            }
            ExprKind::CompoundLit(init) => {
                if matches!(&e.ty, Type::Struct(id) if self.p.structs.get(*id).is_union) {
                    self.unsupported(span, "a union");
                    return Val::Undef;
                }
                self.init_value(&e.ty, init)
            }
        }
    }

    fn int_lit(&mut self, v: u64, ty: &Type, span: Span) -> Val {
        match ty {
            Type::Scalar(k) => Val::Scalar(self.konst(v, scalar_ty(*k), span)),
            // `v++` on a vector adds a vector of ones.
            Type::Vector(k, n) => {
                let x = self.konst(v, scalar_ty(*k), span);
                self.vector(vec![x; *n as usize])
            }
            _ => Val::Scalar(self.konst(v, Ty::I32, span)),
        }
    }

    /// A floating-point constant: its bit pattern.
    fn float_lit(&mut self, f: f64, ty: &Type, span: Span) -> Val {
        match ty {
            Type::Scalar(ScalarKind::Double) => {
                Val::Scalar(self.konst(f.to_bits(), Ty::Float(64), span))
            }
            Type::Scalar(ScalarKind::Float) => {
                Val::Scalar(self.konst((f as f32).to_bits() as u64, Ty::Float(32), span))
            }
            // (The device has no cl_khr_fp16: the front end rejects `half` values.)
            _ => {
                self.unsupported(span, "a `half` constant");
                Val::Undef
            }
        }
    }

    /// The current value of variable `v` (a `local` scalar is loaded from its memory).
    fn read_var(&mut self, v: VarId, span: Span) -> Val {
        if self.local_scalars.contains_key(&v) {
            return self.local_scalar_load(v, span);
        }
        if let Some(val) = self
            .env
            .vars
            .get(&v)
            .copied()
            .or_else(|| self.leader_value(v, span))
        {
            return val;
        }
        match self.env.vars.get(&v) {
            Some(val) => *val,
            None if self.groups.ctx.contains_key(&v) => {
                let name = self.p.var(v).name.clone();
                self.diags.push(
                    Diagnostic::error(span, format!("`{name}` differs between work-items, but this code runs once per work-group"))
                        .note(self.groups.uniform_note()),
                );
                Val::Undef
            }
            None => {
                let name = self.p.var(v).name.clone();
                self.unsupported(span, format!("the variable `{name}` here"));
                Val::Undef
            }
        }
    }

    /// `c ? t : e`: if-converted for a scalar condition (only the arm that runs has side
    /// effects); lane-wise on the most significant bit of each lane for a vector condition
    /// (both arms evaluated).
    fn conditional(&mut self, cond: &Expr, then: &Expr, els: &Expr, ty: &Type, span: Span) -> Val {
        if cond.ty.is_vector() {
            let c = self.lanes_of_expr(cond);
            let t = self.rvalue(then);
            let f = self.rvalue(els);
            let t = self.parts_vals(t, ty);
            let f = self.parts_vals(f, ty);
            let mut out = Vec::new();
            for ((c, t), f) in c.into_iter().zip(t).zip(f) {
                let msb = self.msb(c, span);
                out.push(self.merge_val(msb, t, f, span));
            }
            return self.mk_agg(out, None);
        }
        let c = self.cond(cond);
        let mut tv = Val::Undef;
        let mut ev = Val::Undef;
        self.branch(c, span, |l| tv = l.rvalue(then), |l| ev = l.rvalue(els));
        self.merge_val(c, tv, ev, span)
    }

    /// `p[i]` or `*p`: a load of the element (a row of a multi-dimensional array is not
    /// loaded: it decays to its address).
    fn read_memory(&mut self, e: &Expr) -> Val {
        match self.place(e) {
            Some(p) => self.read_place(p, &e.ty, e.span),
            None => self.dummy(&e.ty, e.span),
        }
    }

    pub(super) fn ty_of(&self, t: &Type) -> Ty {
        match t {
            Type::Scalar(k) => scalar_ty(*k),
            _ => Ty::I32,
        }
    }

    pub(super) fn signed(t: &Type) -> bool {
        matches!(t, Type::Scalar(k) if k.is_signed())
    }

    /// Signed element type (signed integers; floats count as signed, as in the AST).
    pub(super) fn signed_elem(t: &Type) -> bool {
        t.elem_kind().is_some_and(|k| k.is_signed())
    }
}
