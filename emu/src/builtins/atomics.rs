//! Atomic built-ins: the OpenCL 1.x `atomic_*`/`atom_*` and counter forms, and the OpenCL C
//! 2.0 functions on atomic objects (`atomic_load`, `atomic_store`, `atomic_init`,
//! `atomic_compare_exchange_*`, the flag functions; `atomic_fetch_*` and `atomic_exchange`
//! arrive as the 1.x read-modify-writes). Work-items run one at a time, so an atomic is a load
//! and a store with no other work-item in between: sequentially consistent, whatever order the
//! kernel asked for. Each atomic on memory is checked (not in private memory) and recorded for
//! the race check (`crate::race`); `atomic_init` is a plain store.

use crate::interp::{Item, R};
use crate::mem::PRIVATE_BASE;
use crate::value::{int_value, lane_shape, Val};
use frontend::ast::{AtomicOp, Builtin, Expr, ScalarKind, Type};
use frontend::Span;

/// The value type a pointer argument of an atomic points to (`int` for `atomic_flag`, whose
/// pointer the front end casts to `int *`).
fn pointee(t: &Type) -> Option<Type> {
    match t {
        Type::Pointer { pointee, .. } => Some((**pointee).clone()),
        _ => None,
    }
}

impl Item<'_> {
    /// Runs `f`, the loads and stores of one atomic on `size` bytes at `addr`: refuses private
    /// memory and records the access for the race check; `f`'s own accesses are not plain.
    fn atomically<T>(
        &mut self,
        addr: u32,
        size: u32,
        span: Span,
        f: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<T> {
        if addr >= PRIVATE_BASE {
            return Err(self
                .err(
                    span,
                    format!("atomic operation on private memory (address {addr:#010x})"),
                )
                .with_note(
                    "atomics on private memory are undefined in OpenCL C (6.13.11.8); a generic \
                     pointer passed to the atomic points into a private variable",
                ));
        }
        self.race_record(addr, size, true, span)?;
        self.in_atomic = true;
        let r = f(self);
        self.in_atomic = false;
        r
    }

    /// `atomic_<op>`, `atom_<op>` and the counter forms; `atomic_fetch_<key>` and
    /// `atomic_exchange`.
    pub(super) fn atomic(&mut self, op: AtomicOp, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let p = self.eval(&args[0])?.first() as u32;
        let (t, counter) = match &args[0].ty {
            Type::Counter32 => (Type::UINT, true),
            Type::Counter64 => (Type::Scalar(ScalarKind::ULong), true),
            t => match pointee(t) {
                Some(t) => (t, false),
                None => return Err(self.unsupported(span, "an atomic on this type")),
            },
        };
        let mut rest = Vec::new();
        for a in &args[1..] {
            rest.push(self.eval(a)?.first());
        }
        let k = t.elem_kind().unwrap_or(ScalarKind::UInt);
        let rmw = |me: &mut Self| -> R<u64> {
            let old = me.load(p, &t, span)?.first();
            let new = read_modify_write(op, k, old, &rest);
            me.store(p, &t, &Val::scalar(k, new), span)?;
            Ok(old)
        };
        // a counter is a register of its own, not memory other accesses can reach
        let old = if counter {
            rmw(self)?
        } else {
            self.atomically(p, k.size_bytes(), span, rmw)?
        };
        let (rk, _) = lane_shape(&e.ty).unwrap_or((k, 1));
        Ok(Val::scalar(rk, old))
    }

    /// The OpenCL C 2.0 functions on atomic objects other than read-modify-writes.
    pub(super) fn c11_atomic(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let p = self.eval(&args[0])?.first() as u32;
        let Some(t) = pointee(&args[0].ty) else {
            return Err(self.unsupported(span, "an atomic on this type"));
        };
        let k = t.elem_kind().unwrap_or(ScalarKind::Int);
        let size = k.size_bytes();
        let tr = &t;
        let store = move |v: u64| move |me: &mut Self| me.store(p, tr, &Val::scalar(k, v), span);
        match b {
            Builtin::AtomicInit => {
                // not atomic: a plain store
                let v = self.eval(&args[1])?.first();
                store(v)(self)?;
                Ok(Val::Void)
            }
            Builtin::AtomicStore => {
                let v = self.eval(&args[1])?.first();
                self.atomically(p, size, span, store(v))?;
                Ok(Val::Void)
            }
            Builtin::AtomicFlagClear => {
                self.atomically(p, size, span, store(0))?;
                Ok(Val::Void)
            }
            Builtin::AtomicLoad => {
                let v = self.atomically(p, size, span, |me| me.load(p, &t, span))?;
                Ok(Val::scalar(k, v.first()))
            }
            Builtin::AtomicFlagTestAndSet => {
                let old = self.atomically(p, size, span, |me| {
                    let old = me.load(p, &t, span)?.first();
                    store(1)(me)?;
                    Ok(old)
                })?;
                Ok(Val::scalar(ScalarKind::Bool, (old != 0) as u64))
            }
            Builtin::AtomicCompareExchange { .. } => {
                let ep = self.eval(&args[1])?.first() as u32;
                let desired = self.eval(&args[2])?.first();
                let expected = self.load(ep, &t, span)?.first();
                let old = self.atomically(p, size, span, |me| {
                    let old = me.load(p, &t, span)?.first();
                    if k.truncate(old) == k.truncate(expected) {
                        store(desired)(me)?;
                    }
                    Ok(old)
                })?;
                // bit patterns compare (`memcmp`); never a spurious failure
                let equal = k.truncate(old) == k.truncate(expected);
                if !equal {
                    // the current value goes back to `*expected`: a plain store
                    self.store(ep, &t, &Val::scalar(k, old), span)?;
                }
                Ok(Val::scalar(ScalarKind::Bool, equal as u64))
            }
            _ => Err(self.unsupported(span, &format!("the atomic built-in `{b:?}`"))),
        }
    }
}

/// The value an atomic read-modify-write stores, from the old value and the operands (bit
/// patterns of kind `k`).
fn read_modify_write(op: AtomicOp, k: ScalarKind, old: u64, rest: &[u64]) -> u64 {
    let arg = |i: usize| rest.get(i).copied().unwrap_or(0);
    let (a, b) = (int_value(k, old), int_value(k, arg(0)));
    match op {
        AtomicOp::Add => old.wrapping_add(arg(0)),
        AtomicOp::Sub => old.wrapping_sub(arg(0)),
        AtomicOp::Xchg => arg(0),
        AtomicOp::Min if b < a => arg(0),
        AtomicOp::Max if b > a => arg(0),
        AtomicOp::Min | AtomicOp::Max => old,
        AtomicOp::And => old & arg(0),
        AtomicOp::Or => old | arg(0),
        AtomicOp::Xor => old ^ arg(0),
        AtomicOp::Inc => old.wrapping_add(1),
        AtomicOp::Dec => old.wrapping_sub(1),
        AtomicOp::CmpXchg if k.truncate(old) == k.truncate(arg(0)) => arg(1),
        AtomicOp::CmpXchg => old,
    }
}
