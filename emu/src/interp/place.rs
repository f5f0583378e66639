//! Lvalues: the address an lvalue expression designates (a [`Place`]), and loads and stores
//! through places, including the lanes of a vector selected by a swizzle.

use super::{index_value, Item, R};
use crate::value::{lane_shape, Val};
use crate::EmuError;
use frontend::ast::{Expr, ExprKind, ScalarKind, Type};
use frontend::Span;

/// An lvalue: an address, or some lanes of a vector at an address.
pub enum Place {
    Mem(u32),
    Lanes(u32, Type, Vec<u8>),
}

impl Item<'_> {
    /// The address of an lvalue expression.
    pub fn place(&mut self, e: &Expr) -> R<Place> {
        Ok(match &e.kind {
            ExprKind::Var(v) => Place::Mem(self.vars[v.0 as usize]),
            ExprKind::Global(g) => Place::Mem(self.global_addr(*g, e.span)?),
            ExprKind::Deref(p) => Place::Mem(self.eval(p)?.first() as u32),
            ExprKind::Index { base, index } => {
                let elem_size = self.size_of(&e.ty);
                let b = if base.ty.is_array() {
                    self.place_addr(base)?
                } else {
                    self.eval(base)?.first() as u32
                };
                let i = self.eval(index)?.first();
                let i = index_value(&index.ty, i);
                Place::Mem(b.wrapping_add((i as u32).wrapping_mul(elem_size)))
            }
            ExprKind::Member { base, field } => {
                let Type::Struct(id) = &base.ty else {
                    return Err(self.unsupported(e.span, "member access on a non-struct"));
                };
                let off = self.prog.structs.get(*id).fields[*field as usize].offset;
                Place::Mem(self.place_addr(base)?.wrapping_add(off))
            }
            ExprKind::Swizzle { base, lanes } => match self.place(base)? {
                Place::Mem(a) => Place::Lanes(a, base.ty.clone(), lanes.clone()),
                Place::Lanes(a, t, l) => {
                    Place::Lanes(a, t, lanes.iter().map(|&i| l[i as usize]).collect())
                }
            },
            ExprKind::Comma(a, b) => {
                self.eval(a)?;
                self.place(b)?
            }
            _ => {
                return Err(self.unsupported(e.span, "this kind of lvalue"));
            }
        })
    }

    pub(super) fn place_addr(&mut self, e: &Expr) -> R<u32> {
        match self.place(e)? {
            Place::Mem(a) => Ok(a),
            Place::Lanes(..) => Err(self.unsupported(e.span, "the address of vector lanes")),
        }
    }

    pub(super) fn global_addr(&mut self, g: u32, span: Span) -> R<u32> {
        self.globals
            .get(g as usize)
            .copied()
            .ok_or_else(|| EmuError::at(span, "program-scope variable is not mapped"))
    }

    pub fn load_place(&mut self, p: &Place, t: &Type, span: Span) -> R<Val> {
        match p {
            Place::Mem(a) => self.load(*a, t, span),
            Place::Lanes(a, vt, lanes) => {
                let v = self.load(*a, vt, span)?;
                let (k, _) = lane_shape(vt).unwrap_or((ScalarKind::Int, 1));
                let src = v.lanes();
                Ok(Val::Lanes(
                    k,
                    lanes.iter().map(|&i| src[i as usize]).collect(),
                ))
            }
        }
    }

    pub fn store_place(&mut self, p: &Place, t: &Type, v: &Val, span: Span) -> R<()> {
        match p {
            Place::Mem(a) => self.store(*a, t, v, span),
            Place::Lanes(a, vt, lanes) => {
                let old = self.load(*a, vt, span)?;
                let Val::Lanes(k, mut dst) = old else {
                    return Err(self.unsupported(span, "lanes of a non-vector"));
                };
                for (j, &i) in lanes.iter().enumerate() {
                    dst[i as usize] = v.lanes()[j];
                }
                self.store(*a, vt, &Val::Lanes(k, dst), span)
            }
        }
    }
}
