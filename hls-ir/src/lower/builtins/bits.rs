//! Bit plumbing built-ins, for integer and floating-point lanes alike: `select`,
//! `bitselect`, and `any`/`all` on integer vectors.

use crate::lower::{Lower, Val};
use crate::ops::BinOp;
use crate::types::Ty;
use frontend::ast::{Expr, MathFn, Type};
use frontend::span::Span;

impl Lower<'_> {
    /// `select(a, b, c)`: scalars test `c != 0`, vector lanes the most significant bit of `c`.
    pub(super) fn select_builtin(&mut self, args: &[Expr], ty: &Type, span: Span) -> Val {
        let vector = ty.is_vector();
        let a = self.rvalue(&args[0]);
        let bb = self.rvalue(&args[1]);
        let cs = self.lanes_of_expr(&args[2]);
        let (pa, pb) = if vector {
            (self.parts_vals(a, ty), self.parts_vals(bb, ty))
        } else {
            (vec![a], vec![bb])
        };
        let mut out = Vec::new();
        for ((x, y), c) in pa.into_iter().zip(pb).zip(cs) {
            let c = if vector {
                self.msb(c, span)
            } else {
                self.as_predicate(c, span)
            };
            out.push(self.merge_val(c, y, x, span));
        }
        if vector {
            self.mk_agg(out, None)
        } else {
            out[0]
        }
    }

    /// `any`/`all`: 1 if the most significant bit of any (all) lanes is set.
    pub(super) fn any_all(&mut self, f: MathFn, args: &[Expr], ty: &Type, span: Span) -> Val {
        let lanes = self.lanes_of_expr(&args[0]);
        let mut acc = None;
        for x in lanes {
            let m = self.msb(x, span);
            acc = Some(match acc {
                None => m,
                Some(a) if f == MathFn::Any => self.or1(a, m, span),
                Some(a) => self.and1(a, m, span),
            });
        }
        let r = acc.unwrap_or_else(|| self.konst(0, Ty::BOOL, span));
        Val::Scalar(self.resize(r, self.ty_of(ty), false, span))
    }

    /// `bitselect(a, b, c)`: `(a & ~c) | (b & c)`, bit by bit.
    pub(super) fn bitselect(&mut self, args: &[Expr], ty: &Type, span: Span) -> Val {
        self.lane_map(args, ty, span, |l, x| {
            let t = l.k.op(x[0]).ty;
            let it = Ty::Int(t.bits() as u16);
            let (a, b, c) = (
                l.fit(x[0], it, span),
                l.fit(x[1], it, span),
                l.fit(x[2], it, span),
            );
            let nc = l.bit_not(c, span);
            let lo = l.bin(BinOp::And, a, nc, span);
            let hi = l.bin(BinOp::And, b, c, span);
            let r = l.bin(BinOp::Or, lo, hi, span);
            l.fit(r, t, span)
        })
    }
}
