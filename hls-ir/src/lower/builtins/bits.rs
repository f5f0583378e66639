//! Bit plumbing built-ins, for integer and floating-point lanes alike: `select`,
//! `bitselect`, `shuffle`/`shuffle2`, `nan`, and `any`/`all` on integer vectors.

use crate::ids::OpId;
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp};
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

    /// `shuffle(x, mask)` / `shuffle2(x, y, mask)`: each result lane a multiplexer over the
    /// data lanes (`x`, then `y`), driven by the low bits of its mask lane (a constant mask
    /// folds to wires).
    pub(super) fn shuffle(&mut self, args: &[Expr], ty: &Type, span: Span) -> Val {
        let (data, mask) = args.split_at(args.len() - 1);
        let lanes: Vec<OpId> = data.iter().flat_map(|a| self.lanes_of_expr(a)).collect();
        let masks = self.lanes_of_expr(&mask[0]);
        let mt = self.k.op(masks[0]).ty;
        let pick = self.konst(lanes.len() as u64 - 1, mt, span);
        let mut out = Vec::new();
        for m in masks {
            let idx = self.bin(BinOp::And, m, pick, span);
            let mut v = lanes[0];
            for (j, &x) in lanes.iter().enumerate().skip(1) {
                let jc = self.konst(j as u64, mt, span);
                let hit = self.cmp(CmpOp::Eq, idx, jc, span);
                v = self.select(hit, x, v, span);
            }
            out.push(v);
        }
        debug_assert_eq!(out.len(), ty.lanes() as usize);
        self.vector(out)
    }

    /// `nan(code)`: the quiet NaN `0x7fc00000` with the code's low 22 bits, lane by lane.
    pub(super) fn nan_builtin(&mut self, args: &[Expr], ty: &Type, span: Span) -> Val {
        self.lane_map(args, ty, span, |l, x| {
            let low = l.konst(0x003f_ffff, Ty::I32, span);
            let c = l.fit(x[0], Ty::I32, span);
            let c = l.bin(BinOp::And, c, low, span);
            let q = l.konst(0x7fc0_0000, Ty::I32, span);
            let b = l.bin(BinOp::Or, c, q, span);
            l.fit(b, Ty::Float(32), span)
        })
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
