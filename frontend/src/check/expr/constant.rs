//! Integer constant expressions: folding checked expressions to their value (array sizes,
//! case labels, enumerators, attribute arguments, vector indices).

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::syntax as syn;

impl Checker<'_> {
    /// Folds an integer constant expression (bit pattern truncated to `e.ty`).
    pub(crate) fn const_value(&self, e: &Expr) -> Option<u64> {
        let k = match &e.ty {
            Type::Scalar(k) if k.is_integer() => *k,
            _ => return None,
        };
        match &e.kind {
            ExprKind::IntLit(v) | ExprKind::SizeOf(v) => Some(*v),
            ExprKind::Cast { expr, .. } => match &expr.ty {
                Type::Scalar(fk) if fk.is_integer() => {
                    let v = self.const_value(expr)?;
                    Some(k.truncate(fk.as_i64(v) as u64))
                }
                Type::Scalar(_) => match expr.kind {
                    ExprKind::FloatLit(f) => Some(if k.is_signed() {
                        k.truncate(f as i64 as u64)
                    } else {
                        k.truncate(f as u64)
                    }),
                    _ => None,
                },
                _ => None,
            },
            ExprKind::Unary { op, expr } => {
                let v = self.const_value(expr)?;
                Some(k.truncate(match op {
                    UnOp::Neg => v.wrapping_neg(),
                    UnOp::Plus => v,
                    UnOp::BitNot => !v,
                    UnOp::Not => (v == 0) as u64,
                }))
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let ok = match &lhs.ty {
                    Type::Scalar(ok) => *ok,
                    _ => return None,
                };
                let a = self.const_value(lhs)?;
                if *op == BinOp::LogAnd && a == 0 {
                    return Some(0);
                }
                if *op == BinOp::LogOr && a != 0 {
                    return Some(1);
                }
                let b = self.const_value(rhs)?;
                let (sa, sb) = (ok.as_i64(a), ok.as_i64(b));
                let signed = ok.is_signed();
                let bits = ok.bits().max(1);
                let r: u64 = match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::Div | BinOp::Rem => {
                        if b == 0 {
                            return None;
                        }
                        if signed {
                            if *op == BinOp::Div {
                                sa.wrapping_div(sb) as u64
                            } else {
                                sa.wrapping_rem(sb) as u64
                            }
                        } else if *op == BinOp::Div {
                            a / b
                        } else {
                            a % b
                        }
                    }
                    BinOp::Shl => a.wrapping_shl((b % bits as u64) as u32),
                    BinOp::Shr => {
                        let s = (b % bits as u64) as u32;
                        if signed {
                            (sa >> s) as u64
                        } else {
                            a >> s
                        }
                    }
                    BinOp::BitAnd => a & b,
                    BinOp::BitOr => a | b,
                    BinOp::BitXor => a ^ b,
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        let o = if signed { sa.cmp(&sb) } else { a.cmp(&b) };
                        (match op {
                            BinOp::Lt => o.is_lt(),
                            BinOp::Le => o.is_le(),
                            BinOp::Gt => o.is_gt(),
                            _ => o.is_ge(),
                        }) as u64
                    }
                    BinOp::Eq => (a == b) as u64,
                    BinOp::Ne => (a != b) as u64,
                    BinOp::LogAnd | BinOp::LogOr => (b != 0) as u64,
                };
                Some(k.truncate(r))
            }
            ExprKind::Cond { cond, then, els } => {
                let c = self.const_value_any(cond)?;
                if c != 0 {
                    self.const_value(then)
                } else {
                    self.const_value(els)
                }
            }
            _ => None,
        }
    }

    /// Like `const_value` but accepts bool conditions produced by `to_bool`.
    pub(super) fn const_value_any(&self, e: &Expr) -> Option<u64> {
        self.const_value(e)
    }

    /// Checks a syntax expression that must be an integer constant; returns its value
    /// (sign-extended to 64 bits for signed types).
    pub(crate) fn const_int(&mut self, e: &syn::Expr, what: &str) -> Option<u64> {
        let x = self.expr(e)?;
        if !(x.ty.is_scalar() && x.ty.is_integer()) {
            let t = self.type_name(&x.ty);
            self.err(e.span, format!("{} must be an integer, not `{}`", what, t));
            return None;
        }
        match self.const_value(&x) {
            Some(v) => {
                let k = x.ty.elem_kind().unwrap_or(ScalarKind::Int);
                Some(k.as_i64(v) as u64)
            }
            None => {
                self.error(
                    Diagnostic::error(
                        e.span,
                        format!("{} must be an integer constant expression", what),
                    )
                    .note(
                        "use literals, enum constants, sizeof and operators on them (or a #define)",
                    ),
                );
                None
            }
        }
    }
}
