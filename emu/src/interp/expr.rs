//! Expressions: evaluation of every expression kind (bounded nesting, one step each), with
//! assignments and increments through places and the vector conditional.

use super::{msb, Item, R};
use crate::value::{self, lane_shape, to_bytes, Val};
use frontend::ast::{BinOp, Expr, ExprKind, Rounding, ScalarKind, Type};

impl Item<'_> {
    /// Evaluates an expression (bounded nesting: see [`MAX_DEPTH`]).
    pub fn eval(&mut self, e: &Expr) -> R<Val> {
        self.enter(e.span)?;
        let r = self.eval_inner(e);
        self.depth -= 1;
        r
    }

    fn eval_inner(&mut self, e: &Expr) -> R<Val> {
        self.tick(e.span)?;
        let prog = self.prog;
        match &e.kind {
            ExprKind::IntLit(v) => {
                let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::Int, 1));
                Ok(Val::scalar(k, *v))
            }
            ExprKind::FloatLit(x) => {
                let k = e.ty.elem_kind().unwrap_or(ScalarKind::Float);
                Ok(Val::Lanes(k, vec![value::from_f64(k, *x)]))
            }
            ExprKind::Var(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Index { .. } => {
                let p = self.place(e)?;
                self.load_place(&p, &e.ty, e.span)
            }
            ExprKind::Member { base, field } => {
                if base.lvalue {
                    let p = self.place(e)?;
                    return self.load_place(&p, &e.ty, e.span);
                }
                let Type::Struct(id) = &base.ty else {
                    return Err(self.unsupported(e.span, "member access on a non-struct"));
                };
                let f = &prog.structs.get(*id).fields[*field as usize];
                let bytes = to_bytes(&self.eval(base)?, &base.ty, &prog.structs);
                let size = self.size_of(&f.ty) as usize;
                let off = f.offset as usize;
                Ok(value::from_bytes(&bytes[off..off + size], &f.ty))
            }
            ExprKind::Swizzle { base, lanes } => {
                if base.lvalue {
                    let p = self.place(e)?;
                    return self.load_place(&p, &e.ty, e.span);
                }
                let v = self.eval(base)?;
                let (k, _) = lane_shape(&base.ty).unwrap_or((ScalarKind::Int, 1));
                let src = v.lanes();
                Ok(Val::Lanes(
                    k,
                    lanes.iter().map(|&i| src[i as usize]).collect(),
                ))
            }
            ExprKind::Unary { op, expr } => {
                let v = self.eval(expr)?;
                self.unary(*op, &expr.ty, &e.ty, v)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                if op.is_logical() && lhs.ty.is_scalar() {
                    let a = self.cond(lhs)?;
                    let r = match op {
                        BinOp::LogAnd => a && self.cond(rhs)?,
                        _ => a || self.cond(rhs)?,
                    };
                    let k = e.ty.elem_kind().unwrap_or(ScalarKind::Int);
                    return Ok(Val::scalar(k, r as u64));
                }
                let a = self.eval(lhs)?;
                let b = self.eval(rhs)?;
                self.binary(*op, &lhs.ty, &rhs.ty, &e.ty, a, b, e.span)
            }
            ExprKind::Assign {
                op,
                lhs,
                rhs,
                op_ty,
            } => self.assign(e, *op, lhs, rhs, op_ty),
            ExprKind::IncDec { inc, prefix, expr } => self.inc_dec(e, *inc, *prefix, expr),
            ExprKind::Cond { cond, then, els } => self.conditional(e, cond, then, els),
            ExprKind::Cast { kind: _, expr } => {
                if expr.ty.is_array() {
                    // array-to-pointer decay
                    return Ok(Val::uint(self.place_addr(expr)?));
                }
                let v = self.eval(expr)?;
                Ok(self.convert(v, &expr.ty, &e.ty, false, Rounding::Default))
            }
            ExprKind::AddrOf(inner) => Ok(Val::uint(self.place_addr(inner)?)),
            ExprKind::VecLit(items) => {
                let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::Int, 1));
                let mut lanes = Vec::new();
                for it in items {
                    lanes.extend_from_slice(self.eval(it)?.lanes());
                }
                Ok(Val::Lanes(k, lanes))
            }
            ExprKind::Call { func, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.call(*func, vals, e.span)
            }
            ExprKind::Builtin { builtin, args } => self.builtin(*builtin, args, e),
            ExprKind::Comma(a, b) => {
                self.eval(a)?;
                self.eval(b)
            }
            ExprKind::CompoundLit(init) => {
                // An object of its own, initialised like a variable (padding zero), read.
                let saved = self.sp;
                let addr = self.alloc_private(&e.ty, e.span)?;
                self.zero_private(addr, &e.ty);
                self.init(addr, &e.ty, init)?;
                let v = self.load(addr, &e.ty, e.span);
                self.sp = saved;
                v
            }
            ExprKind::SizeOf(v) => {
                let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::UInt, 1));
                Ok(Val::scalar(k, *v))
            }
        }
    }

    /// `lhs = rhs` and compound assignment `lhs op= rhs` (computed in `op_ty`).
    fn assign(
        &mut self,
        e: &Expr,
        op: Option<BinOp>,
        lhs: &Expr,
        rhs: &Expr,
        op_ty: &Type,
    ) -> R<Val> {
        let p = self.place(lhs)?;
        let r = self.eval(rhs)?;
        let new = match op {
            None => r,
            Some(op) => {
                let old = self.load_place(&p, &lhs.ty, e.span)?;
                let old = self.convert(old, &lhs.ty, op_ty, false, Rounding::Default);
                let res = self.binary(op, op_ty, &rhs.ty, op_ty, old, r, e.span)?;
                self.convert(res, op_ty, &lhs.ty, false, Rounding::Default)
            }
        };
        self.store_place(&p, &lhs.ty, &new, e.span)?;
        Ok(new)
    }

    /// `++`/`--`, prefix or postfix, on an arithmetic value or a pointer.
    fn inc_dec(&mut self, e: &Expr, inc: bool, prefix: bool, expr: &Expr) -> R<Val> {
        let p = self.place(expr)?;
        let old = self.load_place(&p, &expr.ty, e.span)?;
        let new = match &expr.ty {
            Type::Pointer { pointee, .. } => {
                let size = self.size_of(pointee);
                let a = old.first() as u32;
                Val::uint(if inc {
                    a.wrapping_add(size)
                } else {
                    a.wrapping_sub(size)
                })
            }
            t => {
                let (k, n) = lane_shape(t).unwrap_or((ScalarKind::Int, 1));
                let one = if k.is_float() {
                    value::from_f64(k, 1.0)
                } else {
                    1
                };
                let ones = Val::Lanes(k, vec![one; n]);
                let op = if inc { BinOp::Add } else { BinOp::Sub };
                self.binary(op, t, t, t, old.clone(), ones, e.span)?
            }
        };
        self.store_place(&p, &expr.ty, &new, e.span)?;
        Ok(if prefix { new } else { old })
    }

    /// `cond ? then : els`: one arm for a scalar condition, lane by lane (both arms evaluated)
    /// for a vector one.
    fn conditional(&mut self, e: &Expr, cond: &Expr, then: &Expr, els: &Expr) -> R<Val> {
        if cond.ty.is_scalar() {
            if self.cond(cond)? {
                self.eval(then)
            } else {
                self.eval(els)
            }
        } else {
            let c = self.eval(cond)?;
            let t = self.eval(then)?;
            let f = self.eval(els)?;
            let ck = cond.ty.elem_kind().unwrap_or(ScalarKind::Int);
            let (k, _) = lane_shape(&e.ty).unwrap_or((ScalarKind::Int, 1));
            let lanes = c
                .lanes()
                .iter()
                .zip(t.lanes().iter().zip(f.lanes()))
                .map(|(c, (t, f))| if msb(ck, *c) { *t } else { *f })
                .collect();
            Ok(Val::Lanes(k, lanes))
        }
    }
}
