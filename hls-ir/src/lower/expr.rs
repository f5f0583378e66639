//! Expressions: the value of each expression kind (`rvalue`), conditions as `i1` predicates,
//! and the C types of operands (width and signedness).

use super::aggregate::is_agg_array;
use super::{scalar_ty, Lower, Val};
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use crate::types::Ty;
use frontend::ast::{self, Expr, ExprKind, ScalarKind, Type};
use frontend::diag::Diagnostic;
use frontend::span::Span;

impl Lower<'_> {
    /// Lower a condition (type bool in the AST) to an i1.
    pub(super) fn cond(&mut self, e: &Expr) -> OpId {
        match self.rvalue(e) {
            Val::Scalar(v) => self.as_predicate(v, e.span),
            Val::Ptr { addr, .. } => {
                let z = self.konst(0, Ty::I32, e.span);
                self.cmp(CmpOp::Ne, addr, z, e.span)
            }
            Val::Undef => self.konst(0, Ty::BOOL, e.span),
            Val::Agg(_) => {
                self.unsupported(e.span, "a vector or struct as a condition");
                self.konst(0, Ty::BOOL, e.span)
            }
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
            Val::Ptr { addr, .. } => addr,
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

    pub(super) fn rvalue(&mut self, e: &Expr) -> Val {
        let span = e.span;
        match &e.kind {
            ExprKind::IntLit(v) => match &e.ty {
                Type::Scalar(k) => Val::Scalar(self.konst(*v, scalar_ty(*k), span)),
                // `v++` on a vector adds a vector of ones.
                Type::Vector(k, n) => {
                    let x = self.konst(*v, scalar_ty(*k), span);
                    self.vector(vec![x; *n as usize])
                }
                _ => Val::Scalar(self.konst(*v, Ty::I32, span)),
            },
            ExprKind::SizeOf(v) => Val::Scalar(self.konst(*v, Ty::I32, span)),
            // Only the bit pattern: floating-point values are copied, never computed on.
            ExprKind::FloatLit(f) => match e.ty {
                Type::Scalar(ScalarKind::Double) => {
                    Val::Scalar(self.konst(f.to_bits(), Ty::Float(64), span))
                }
                Type::Scalar(ScalarKind::Float) => {
                    Val::Scalar(self.konst((*f as f32).to_bits() as u64, Ty::Float(32), span))
                }
                // (The device has no cl_khr_fp16: the front end rejects `half` values.)
                _ => {
                    self.unsupported(span, "a `half` constant");
                    Val::Undef
                }
            },
            ExprKind::Var(v) if self.local_scalars.contains_key(v) => {
                self.local_scalar_load(*v, span)
            }
            ExprKind::Var(v) => match self.env.vars.get(v) {
                Some(val) => *val,
                None if self.groups.ctx.contains_key(v) => {
                    let name = self.p.var(*v).name.clone();
                    self.diags.push(
                        Diagnostic::error(span, format!("`{name}` differs between work-items, but this code runs once per work-group"))
                            .note("code around a barrier (the condition of a loop or `if` that contains a barrier) must be the same for every work-item of the group"),
                    );
                    Val::Undef
                }
                None => {
                    let name = self.p.var(*v).name.clone();
                    self.unsupported(span, format!("the variable `{name}` here"));
                    Val::Undef
                }
            },
            ExprKind::Global(_) => {
                self.unsupported(span, "a program-scope variable");
                Val::Undef
            }
            ExprKind::Unary { op, expr } if expr.ty.is_float() && *op != ast::UnOp::Plus => {
                let lanes = self.lanes_of_expr(expr);
                let rt = e.ty.elem_kind().map_or(Ty::I32, scalar_ty);
                let out: Vec<OpId> = lanes
                    .into_iter()
                    .map(|v| match op {
                        ast::UnOp::Neg => self.funary(UnOp::FNeg, v, span),
                        ast::UnOp::Not => {
                            let z = self.konst(0, self.k.op(v).ty, span);
                            let c = self.fcmp(CmpOp::FEq, v, z, span);
                            if expr.ty.is_vector() {
                                self.lane_mask(c, rt, span)
                            } else {
                                self.resize(c, rt, false, span)
                            }
                        }
                        _ => {
                            self.unsupported(span, "this operator on a floating-point value");
                            self.konst(0, rt, span)
                        }
                    })
                    .collect();
                if expr.ty.is_vector() {
                    self.vector(out)
                } else {
                    Val::Scalar(out[0])
                }
            }
            ExprKind::Unary { op, expr } if expr.ty.is_vector() => {
                let lanes = self.lanes_of_expr(expr);
                let rt = e.ty.elem_kind().map_or(Ty::I32, scalar_ty);
                let out = lanes
                    .into_iter()
                    .map(|v| {
                        let ty = self.k.op(v).ty;
                        match op {
                            ast::UnOp::Plus => v,
                            ast::UnOp::Neg => {
                                let z = self.konst(0, ty, span);
                                self.bin(BinOp::Sub, z, v, span)
                            }
                            ast::UnOp::BitNot => self.bit_not(v, span),
                            // -1 (all ones) where the lane is 0.
                            ast::UnOp::Not => {
                                let z = self.konst(0, ty, span);
                                let c = self.cmp(CmpOp::Eq, v, z, span);
                                self.lane_mask(c, rt, span)
                            }
                        }
                    })
                    .collect();
                self.vector(out)
            }
            ExprKind::Unary { op, expr } => {
                let v = self.scalar(expr);
                let ty = self.k.op(v).ty;
                Val::Scalar(match op {
                    ast::UnOp::Plus => v,
                    ast::UnOp::Neg => {
                        let z = self.konst(0, ty, span);
                        self.bin(BinOp::Sub, z, v, span)
                    }
                    ast::UnOp::BitNot => self.bit_not(v, span),
                    ast::UnOp::Not => {
                        let b = self.as_predicate(v, span);
                        let n = self.not1(b, span);
                        self.resize(n, self.ty_of(&e.ty), false, span)
                    }
                })
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, &e.ty, span),
            ExprKind::Assign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let new = match op {
                    None => self.rvalue(rhs),
                    Some(b) => {
                        if let Some((_, new)) = self.update_memory(lhs, span, |l, cur| {
                            l.compound(*b, cur, lhs, rhs, op_ty, span)
                        }) {
                            return new;
                        }
                        let cur = self.rvalue(lhs);
                        self.compound(*b, cur, lhs, rhs, op_ty, span)
                    }
                };
                self.assign(lhs, new, span);
                new
            }
            ExprKind::IncDec { inc, prefix, expr } => {
                let one_ty = match &expr.ty {
                    Type::Pointer { .. } => Type::INT,
                    t => t.clone(),
                };
                let one = Expr::new(ExprKind::IntLit(1), one_ty.clone(), span);
                let b = if *inc {
                    ast::BinOp::Add
                } else {
                    ast::BinOp::Sub
                };
                let ty = expr.ty.clone();
                let (cur, new) = match self.update_memory(expr, span, |l, cur| {
                    l.compound(b, cur, expr, &one, &ty, span)
                }) {
                    Some(pair) => pair,
                    None => {
                        let cur = self.rvalue(expr);
                        let new = self.compound(b, cur, expr, &one, &ty, span);
                        self.assign(expr, new, span);
                        (cur, new)
                    }
                };
                if *prefix {
                    new
                } else {
                    cur
                }
            }
            ExprKind::Cond { cond, then, els } if cond.ty.is_vector() => {
                // Lane-wise on the most significant bit of each lane; both arms evaluated.
                let c = self.lanes_of_expr(cond);
                let t = self.rvalue(then);
                let f = self.rvalue(els);
                let t = self.parts_vals(t, &e.ty);
                let f = self.parts_vals(f, &e.ty);
                let mut out = Vec::new();
                for ((c, t), f) in c.into_iter().zip(t).zip(f) {
                    let msb = self.msb(c, span);
                    out.push(self.merge_val(msb, t, f, span));
                }
                self.mk_agg(out, None)
            }
            ExprKind::Cond { cond, then, els } => {
                let c = self.cond(cond);
                let mut tv = Val::Undef;
                let mut ev = Val::Undef;
                self.branch(c, span, |l| tv = l.rvalue(then), |l| ev = l.rvalue(els));
                self.merge_val(c, tv, ev, span)
            }
            ExprKind::Cast { kind, expr } => self.cast(*kind, expr, &e.ty, span),
            ExprKind::Index { base, index } if is_agg_array(base) => self.agg_index(base, index),
            ExprKind::Index { .. } | ExprKind::Deref(_) => {
                let (addr, mem) = match self.address(e) {
                    Some(a) => a,
                    None => return self.dummy(&e.ty, span),
                };
                // A row of a multi-dimensional array is not loaded: it decays to its address.
                if let Type::Array(..) = e.ty {
                    return Val::Ptr { addr, mem };
                }
                self.load(addr, mem, &e.ty, span)
            }
            ExprKind::AddrOf(inner) => match self.address(inner) {
                Some((addr, mem)) => Val::Ptr { addr, mem },
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
