//! Atomic built-ins (`atomic_*`, `atom_*` and the counter forms): read, modify and write one
//! memory word. Work-items run one at a time, so every atomic is simply a load and a store.

use crate::interp::{Item, R};
use crate::value::{int_value, lane_shape, Val};
use frontend::ast::{AtomicOp, Expr, ScalarKind, Type};

impl Item<'_> {
    pub(super) fn atomic(&mut self, op: AtomicOp, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let p = self.eval(&args[0])?.first() as u32;
        let t = match &args[0].ty {
            Type::Pointer { pointee, .. } => (**pointee).clone(),
            Type::Counter32 => Type::UINT,
            Type::Counter64 => Type::Scalar(ScalarKind::ULong),
            _ => return Err(self.unsupported(span, "an atomic on this type")),
        };
        let mut rest = Vec::new();
        for a in &args[1..] {
            rest.push(self.eval(a)?.first());
        }
        let k = t.elem_kind().unwrap_or(ScalarKind::UInt);
        let old = self.load(p, &t, span)?.first();
        let arg = |i: usize| rest.get(i).copied().unwrap_or(0);
        let (a, b) = (int_value(k, old), int_value(k, arg(0)));
        let new = match op {
            AtomicOp::Add => old.wrapping_add(arg(0)),
            AtomicOp::Sub => old.wrapping_sub(arg(0)),
            AtomicOp::Xchg => arg(0),
            AtomicOp::Min => {
                if b < a {
                    arg(0)
                } else {
                    old
                }
            }
            AtomicOp::Max => {
                if b > a {
                    arg(0)
                } else {
                    old
                }
            }
            AtomicOp::And => old & arg(0),
            AtomicOp::Or => old | arg(0),
            AtomicOp::Xor => old ^ arg(0),
            AtomicOp::Inc => old.wrapping_add(1),
            AtomicOp::Dec => old.wrapping_sub(1),
            AtomicOp::CmpXchg => {
                if k.truncate(old) == k.truncate(arg(0)) {
                    arg(1)
                } else {
                    old
                }
            }
        };
        self.store(p, &t, &Val::scalar(k, new), span)?;
        let (rk, _) = lane_shape(&e.ty).unwrap_or((k, 1));
        Ok(Val::scalar(rk, old))
    }
}
