//! Operators and conversions on values: unary and binary operators lane by lane (pointer
//! arithmetic, integer division by zero as an error, vector comparisons as all-ones lanes) and
//! the conversion between types of `convert_*`, casts and compound assignment.

use super::{index_value, Item, R};
use crate::value::{self, lane_shape, ArithError, Val};
use frontend::ast::{BinOp, Rounding, ScalarKind, Type, UnOp};
use frontend::Span;

impl Item<'_> {
    pub(super) fn unary(&mut self, op: UnOp, from: &Type, to: &Type, v: Val) -> R<Val> {
        let Val::Lanes(k, lanes) = v else {
            return Ok(v);
        };
        let (rk, _) = lane_shape(to).unwrap_or((k, 1));
        let vector = from.is_vector();
        Ok(match op {
            UnOp::Plus => Val::Lanes(k, lanes),
            UnOp::Neg => Val::Lanes(
                k,
                lanes
                    .iter()
                    .map(|&a| {
                        if k.is_float() {
                            a ^ (1u64 << (k.bits() - 1))
                        } else {
                            k.truncate(a.wrapping_neg())
                        }
                    })
                    .collect(),
            ),
            UnOp::BitNot => Val::Lanes(k, lanes.iter().map(|&a| k.truncate(!a)).collect()),
            UnOp::Not => Val::Lanes(
                rk,
                lanes
                    .iter()
                    .map(|&a| {
                        let zero = if k.is_float() {
                            value::to_f64(k, a) == 0.0
                        } else {
                            a == 0
                        };
                        match (zero, vector) {
                            (true, true) => value::vec_true(rk),
                            (true, false) => 1,
                            (false, _) => 0,
                        }
                    })
                    .collect(),
            ),
        })
    }

    /// A binary operator (also the operation of compound assignment).
    #[allow(clippy::too_many_arguments)]
    pub fn binary(
        &mut self,
        op: BinOp,
        lt: &Type,
        rt: &Type,
        res: &Type,
        a: Val,
        b: Val,
        span: Span,
    ) -> R<Val> {
        // pointer arithmetic
        if let Type::Pointer { pointee, .. } = lt {
            let size = self.size_of(pointee).max(1);
            let pa = a.first() as u32;
            if let Type::Pointer { .. } = rt {
                if op == BinOp::Sub {
                    let d = (pa.wrapping_sub(b.first() as u32) as i32) / size as i32;
                    return Ok(Val::scalar(ScalarKind::Int, d as u32 as u64));
                }
                let r = value::int_binop(op, ScalarKind::UInt, pa as u64, b.first())
                    .unwrap_or_default();
                let k = res.elem_kind().unwrap_or(ScalarKind::Int);
                return Ok(Val::scalar(k, r));
            }
            let i = index_value(rt, b.first());
            let off = (i as u32).wrapping_mul(size);
            let r = match op {
                BinOp::Add => pa.wrapping_add(off),
                BinOp::Sub => pa.wrapping_sub(off),
                _ => return Err(self.unsupported(span, "this pointer operation")),
            };
            return Ok(Val::uint(r));
        }
        let (k, _) = lane_shape(lt).unwrap_or((ScalarKind::Int, 1));
        let (rk, _) = lane_shape(res).unwrap_or((k, 1));
        let vector = lt.is_vector() || rt.is_vector();
        let (al, bl) = (a.lanes(), b.lanes());
        let n = al.len().max(bl.len());
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let x = al[i.min(al.len() - 1)];
            let y = bl[i.min(bl.len() - 1)];
            let r = if k.is_float() {
                value::float_binop(op, k, x, y)
            } else {
                match value::int_binop(op, k, x, y) {
                    Ok(r) => r,
                    Err(ArithError::DivByZero) => {
                        return Err(self.err(
                            span,
                            format!(
                                "integer division by zero (`{}` of {})",
                                op.symbol(),
                                value::int_value(k, x)
                            ),
                        ))
                    }
                }
            };
            let r = if op.is_comparison() || op.is_logical() {
                match (r != 0, vector) {
                    (true, true) => value::vec_true(rk),
                    (t, _) => t as u64,
                }
            } else {
                r
            };
            out.push(r);
        }
        Ok(Val::Lanes(
            if op.is_comparison() || op.is_logical() {
                rk
            } else {
                k
            },
            out,
        ))
    }

    /// Converts a value of type `from` to type `to`.
    pub fn convert(&self, v: Val, from: &Type, to: &Type, sat: bool, r: Rounding) -> Val {
        let (Some((fk, _)), Some((tk, tn))) = (lane_shape(from), lane_shape(to)) else {
            return v;
        };
        let lanes = v.lanes();
        let mut out: Vec<u64> = lanes
            .iter()
            .map(|&x| value::convert_lane(fk, x, tk, sat, r))
            .collect();
        if out.len() == 1 && tn > 1 {
            out = vec![out[0]; tn];
        }
        Val::Lanes(tk, out)
    }
}
