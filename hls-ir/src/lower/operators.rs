//! Operators: binary operators on scalars, vectors (lane by lane) and pointers (pointer
//! arithmetic), the short circuit of `&&`/`||`, compound assignments, and comparisons.

use super::{scalar_ty, Lower, Val};
use crate::ids::OpId;
use crate::ops::{BinOp, CmpOp, UnOp};
use crate::types::Ty;
use frontend::ast::{self, Expr, Type};
use frontend::diag::Diagnostic;
use frontend::span::Span;

fn cmp_op(op: ast::BinOp, signed: bool) -> CmpOp {
    use ast::BinOp as A;
    match (op, signed) {
        (A::Eq, _) => CmpOp::Eq,
        (A::Ne, _) => CmpOp::Ne,
        (A::Lt, true) => CmpOp::LtS,
        (A::Le, true) => CmpOp::LeS,
        (A::Gt, true) => CmpOp::GtS,
        (A::Ge, true) => CmpOp::GeS,
        (A::Lt, false) => CmpOp::LtU,
        (A::Le, false) => CmpOp::LeU,
        (A::Gt, false) => CmpOp::GtU,
        (A::Ge, false) => CmpOp::GeU,
        _ => CmpOp::Eq,
    }
}

impl Lower<'_> {
    /// A unary operator: lane by lane on vectors and on floating-point values.
    pub(super) fn unary(&mut self, op: ast::UnOp, expr: &Expr, ty: &Type, span: Span) -> Val {
        if expr.ty.is_float() && op != ast::UnOp::Plus {
            return self.float_unary(op, expr, ty, span);
        }
        if expr.ty.is_vector() {
            return self.vector_unary(op, expr, ty, span);
        }
        let v = self.scalar(expr);
        let vt = self.k.op(v).ty;
        Val::Scalar(match op {
            ast::UnOp::Plus => v,
            ast::UnOp::Neg => {
                let z = self.konst(0, vt, span);
                self.bin(BinOp::Sub, z, v, span)
            }
            ast::UnOp::BitNot => self.bit_not(v, span),
            ast::UnOp::Not => {
                let b = self.as_predicate(v, span);
                let n = self.not1(b, span);
                self.resize(n, self.ty_of(ty), false, span)
            }
        })
    }

    /// `-x` and `!x` on floating-point scalars and vectors (`!` gives 0/1, or -1/0 lanes).
    fn float_unary(&mut self, op: ast::UnOp, expr: &Expr, ty: &Type, span: Span) -> Val {
        let lanes = self.lanes_of_expr(expr);
        let rt = ty.elem_kind().map_or(Ty::I32, scalar_ty);
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

    /// A unary operator on an integer vector, lane by lane.
    fn vector_unary(&mut self, op: ast::UnOp, expr: &Expr, ty: &Type, span: Span) -> Val {
        let lanes = self.lanes_of_expr(expr);
        let rt = ty.elem_kind().map_or(Ty::I32, scalar_ty);
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

    /// A binary operator: lane by lane on vectors, short-circuit `&&`/`||`, pointer
    /// arithmetic and comparisons, or an operator on scalars.
    pub(super) fn binary(
        &mut self,
        op: ast::BinOp,
        lhs: &Expr,
        rhs: &Expr,
        ty: &Type,
        span: Span,
    ) -> Val {
        if lhs.ty.is_vector() {
            return self.vector_binary(op, lhs, rhs, ty, span);
        }
        match op {
            ast::BinOp::LogAnd | ast::BinOp::LogOr => self.short_circuit(op, lhs, rhs, ty, span),
            _ if lhs.ty.is_pointer() => self.pointer_binary(op, lhs, rhs, ty, span),
            _ => {
                let a = self.scalar(lhs);
                let b = self.scalar(rhs);
                let signed = Self::signed(&lhs.ty);
                if op.is_comparison() {
                    let c = self.compare(op, lhs.ty.is_float(), signed, a, b, span);
                    let t = self.ty_of(ty);
                    return Val::Scalar(self.resize(c, t, false, span));
                }
                Val::Scalar(self.arith(op, a, b, signed, span))
            }
        }
    }

    /// Lane by lane; comparisons and logical operators give -1/0 lanes.
    fn vector_binary(
        &mut self,
        op: ast::BinOp,
        lhs: &Expr,
        rhs: &Expr,
        ty: &Type,
        span: Span,
    ) -> Val {
        let float = lhs.ty.is_float();
        let a = self.lanes_of_expr(lhs);
        let b = self.lanes_of_expr(rhs);
        let signed = Self::signed_elem(&lhs.ty);
        let rt = ty.elem_kind().map_or(Ty::I32, scalar_ty);
        let mut out = Vec::new();
        for (x, y) in a.into_iter().zip(b) {
            out.push(if op.is_comparison() {
                let c = self.compare(op, float, signed, x, y, span);
                self.lane_mask(c, rt, span)
            } else if op.is_logical() {
                let (px, py) = (self.as_predicate(x, span), self.as_predicate(y, span));
                let c = if op == ast::BinOp::LogAnd {
                    self.and1(px, py, span)
                } else {
                    self.or1(px, py, span)
                };
                self.lane_mask(c, rt, span)
            } else {
                self.arith(op, x, y, signed, span)
            });
        }
        self.vector(out)
    }

    /// `a && b`, `a || b` on scalars: the right side's side effects only run when it is
    /// evaluated (under the predicate that the left side did not decide).
    fn short_circuit(
        &mut self,
        op: ast::BinOp,
        lhs: &Expr,
        rhs: &Expr,
        ty: &Type,
        span: Span,
    ) -> Val {
        let a = self.cond(lhs);
        let mut b = a;
        let and = op == ast::BinOp::LogAnd;
        let saved = self.pred;
        let guard = if and { a } else { self.not1(a, span) };
        let before = self.env.clone();
        self.pred = self.and1(saved, guard, span);
        let rb = self.cond(rhs);
        let after = std::mem::replace(&mut self.env, before.clone());
        self.pred = saved;
        // Merge assignments made by the right side.
        let mut merged = before.vars.clone();
        for (v, val) in &after.vars {
            let old = before.vars.get(v).copied().unwrap_or(Val::Undef);
            merged.insert(*v, self.merge_val(guard, *val, old, span));
        }
        self.env.vars = merged;
        b = if and {
            self.and1(b, rb, span)
        } else {
            self.or1(b, rb, span)
        };
        let t = self.ty_of(ty);
        Val::Scalar(self.resize(b, t, false, span))
    }

    /// Pointer arithmetic (`p + i`, `p - i`: whole elements; `p - q` within one object) and
    /// pointer comparisons.
    fn pointer_binary(
        &mut self,
        op: ast::BinOp,
        lhs: &Expr,
        rhs: &Expr,
        ty: &Type,
        span: Span,
    ) -> Val {
        use ast::BinOp as A;
        let p = self.rvalue(lhs);
        let elem = lhs.ty.pointee().cloned().unwrap_or(Type::Void);
        match op {
            A::Add | A::Sub if rhs.ty.is_integer() => {
                let i = self.scalar(rhs);
                let signed = Self::signed(&rhs.ty);
                match self.pointer_step(p, &elem, i, signed, op == A::Sub, span) {
                    Some(v) => v,
                    None => {
                        self.unsupported(span, "this pointer arithmetic");
                        Val::Undef
                    }
                }
            }
            _ if op.is_comparison() || op == A::Sub => {
                let q = self.rvalue(rhs);
                let (a, b) = match (p, q) {
                    (Val::Ptr { addr: a, mem: m }, Val::Ptr { addr: b, mem: n }) if m == n => {
                        (a, b)
                    }
                    (Val::VarPtr { var: v, off: a }, Val::VarPtr { var: w, off: b }) if v == w => {
                        (a, b)
                    }
                    // Pointers to different private variables, or one to a variable and one
                    // into memory: distinct objects, never equal.
                    // (A variable's address is not null either.)
                    (Val::VarPtr { .. }, _) | (_, Val::VarPtr { .. })
                        if matches!(op, A::Eq | A::Ne) =>
                    {
                        let c = self.konst((op == A::Ne) as u64, Ty::BOOL, span);
                        let t = self.ty_of(ty);
                        return Val::Scalar(self.resize(c, t, false, span));
                    }
                    (Val::VarPtr { .. }, _) | (_, Val::VarPtr { .. }) => {
                        self.unsupported(
                            span,
                            "comparing or subtracting pointers to different objects",
                        );
                        return Val::Undef;
                    }
                    (Val::Ptr { addr, .. }, _) => (addr, self.scalar_of(q, &rhs.ty, span)),
                    _ => {
                        self.unsupported(span, "this pointer arithmetic");
                        return Val::Undef;
                    }
                };
                if op == A::Sub {
                    // Elements between them (exact: both point into one array).
                    let d = self.bin(BinOp::Sub, a, b, span);
                    let size = match p {
                        Val::Ptr { mem, .. } => self.stride_of(&elem, mem),
                        _ => self.p.size_of(&elem),
                    } as u64;
                    let d = if size.is_power_of_two() {
                        let s = self.konst(size.trailing_zeros() as u64, Ty::I32, span);
                        self.bin(BinOp::ShrS, d, s, span)
                    } else {
                        let s = self.konst(size, Ty::I32, span);
                        self.bin(BinOp::DivS, d, s, span)
                    };
                    return Val::Scalar(self.resize(d, self.ty_of(ty), true, span));
                }
                let c = self.cmp(cmp_op(op, false), a, b, span);
                let t = self.ty_of(ty);
                Val::Scalar(self.resize(c, t, false, span))
            }
            _ => {
                self.unsupported(span, "this pointer arithmetic");
                Val::Undef
            }
        }
    }

    fn arith(&mut self, op: ast::BinOp, a: OpId, b: OpId, signed: bool, span: Span) -> OpId {
        use ast::BinOp as A;
        let ty = self.k.op(a).ty;
        if ty.is_float() {
            let f = match op {
                A::Add => BinOp::FAdd,
                A::Sub => BinOp::FSub,
                A::Mul => BinOp::FMul,
                A::Div => BinOp::FDiv,
                _ => {
                    self.unsupported(span, "this operator on floating-point values");
                    return self.konst(0, ty, span);
                }
            };
            return self.fbin(f, a, b, span);
        }
        // bool arithmetic never reaches here: operands are promoted to int.
        let b = if matches!(op, A::Shl | A::Shr) {
            self.resize(b, ty, false, span)
        } else {
            b
        };
        let bop = match op {
            A::Add => BinOp::Add,
            A::Sub => BinOp::Sub,
            A::Mul => BinOp::Mul,
            A::Div => {
                if signed {
                    BinOp::DivS
                } else {
                    BinOp::DivU
                }
            }
            A::Rem => {
                if signed {
                    BinOp::RemS
                } else {
                    BinOp::RemU
                }
            }
            A::Shl => BinOp::Shl,
            A::Shr => {
                if signed {
                    BinOp::ShrS
                } else {
                    BinOp::ShrU
                }
            }
            A::BitAnd => BinOp::And,
            A::BitOr => BinOp::Or,
            A::BitXor => BinOp::Xor,
            _ => unreachable!("comparison and logical operators are handled by the caller"),
        };
        // Unsigned division by a power of two is a shift (signed needs rounding toward zero).
        if let (BinOp::DivU | BinOp::RemU, Some(d)) = (bop, self.const_val(b)) {
            if d.is_power_of_two() {
                return if bop == BinOp::DivU {
                    let s = self.konst(d.trailing_zeros() as u64, ty, span);
                    self.bin(BinOp::ShrU, a, s, span)
                } else {
                    let m = self.konst(d - 1, ty, span);
                    self.bin(BinOp::And, a, m, span)
                };
            }
        }
        if matches!(bop, BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU)
            && self.const_val(b) == Some(0)
        {
            self.diags.push(
                Diagnostic::warning(span, "division by zero has an undefined result")
                    .note("the hardware gives x / 0 = 0 and x % 0 = x (docs/hardware-interface.md, \"Integer division\")"),
            );
        }
        self.bin(bop, a, b, span)
    }

    pub(super) fn compound(
        &mut self,
        b: ast::BinOp,
        cur: Val,
        lhs: &Expr,
        rhs: &Expr,
        op_ty: &Type,
        span: Span,
    ) -> Val {
        if let Val::Ptr { .. } | Val::VarPtr { .. } = cur {
            let i = self.scalar(rhs);
            let elem = lhs.ty.pointee().cloned().unwrap_or(Type::Void);
            let sub = b == ast::BinOp::Sub;
            let signed = Self::signed(&rhs.ty);
            return self
                .pointer_step(cur, &elem, i, signed, sub, span)
                .expect("a pointer");
        }
        if b.is_comparison() || b.is_logical() {
            self.unsupported(span, "this compound assignment");
            return cur;
        }
        // Convert the current value to the operation type, compute, convert back (lane by lane
        // for vectors).
        let cs = self.lanes(cur, &lhs.ty, span);
        let rs = self.lanes_of_expr(rhs);
        let (Some(lk), Some(ok)) = (lhs.ty.elem_kind(), op_ty.elem_kind()) else {
            self.unsupported(span, "this compound assignment");
            return cur;
        };
        let mut out = Vec::new();
        for (i, c) in cs.into_iter().enumerate() {
            let r = rs
                .get(i)
                .or(rs.first())
                .copied()
                .expect("a right-hand side");
            let Some(c) = self.convert(c, lk, ok, span) else {
                return cur;
            };
            let v = self.arith(b, c, r, ok.is_signed(), span);
            let Some(v) = self.convert(v, ok, lk, span) else {
                return cur;
            };
            out.push(v);
        }
        if lhs.ty.is_vector() {
            self.vector(out)
        } else {
            Val::Scalar(out[0])
        }
    }

    /// The comparison `op` of two scalars of a float or integer type.
    pub(super) fn compare(
        &mut self,
        op: ast::BinOp,
        float: bool,
        signed: bool,
        a: OpId,
        b: OpId,
        span: Span,
    ) -> OpId {
        if !float {
            return self.cmp(cmp_op(op, signed), a, b, span);
        }
        use ast::BinOp as A;
        let c = match op {
            A::Eq => CmpOp::FEq,
            A::Ne => CmpOp::FNe,
            A::Lt => CmpOp::FLt,
            A::Le => CmpOp::FLe,
            A::Gt => CmpOp::FGt,
            _ => CmpOp::FGe,
        };
        self.fcmp(c, a, b, span)
    }
}
