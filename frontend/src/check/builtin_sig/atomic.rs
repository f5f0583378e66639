//! Atomic built-ins: `atomic_*` and `atom_*` on 32- and 64-bit integers in `global` or
//! `local` memory, and `atomic_inc`/`atomic_dec` on atomic counters.

use crate::ast::*;
use crate::check::Checker;
use crate::check::{CounterOp, CounterUse};
use crate::diag::Diagnostic;
use crate::span::Span;

const ATOMICS: &[(&str, AtomicOp)] = &[
    ("add", AtomicOp::Add),
    ("sub", AtomicOp::Sub),
    ("xchg", AtomicOp::Xchg),
    ("min", AtomicOp::Min),
    ("max", AtomicOp::Max),
    ("and", AtomicOp::And),
    ("or", AtomicOp::Or),
    ("xor", AtomicOp::Xor),
    ("inc", AtomicOp::Inc),
    ("dec", AtomicOp::Dec),
    ("cmpxchg", AtomicOp::CmpXchg),
];

pub(super) fn atomic_op(name: &str) -> Option<(AtomicOp, bool)> {
    let (rest, is64) = if let Some(r) = name.strip_prefix("atomic_") {
        (r, false)
    } else if let Some(r) = name.strip_prefix("atom_") {
        (r, true)
    } else {
        return None;
    };
    ATOMICS.iter().find(|a| a.0 == rest).map(|a| (a.1, is64))
}

impl Checker<'_> {
    pub(super) fn atomic(
        &mut self,
        name: &str,
        op: AtomicOp,
        is64: bool,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let n = match op {
            AtomicOp::Inc | AtomicOp::Dec => 1,
            AtomicOp::CmpXchg => 3,
            _ => 2,
        };
        if !self.arity(name, &args, &[n], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let p = self.decay(it.next().expect("arity"));
        // counters (cl_ext_atomic_counters_32/64)
        if matches!(p.ty, Type::Counter32 | Type::Counter64) {
            if !matches!(op, AtomicOp::Inc | AtomicOp::Dec) {
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{}` is not defined for atomic counters", name),
                    )
                    .note("counters support only `atomic_inc` and `atomic_dec`"),
                );
                return Some(None);
            }
            if let (ExprKind::Var(v), Some(cur)) = (&p.kind, &self.cur) {
                let inc = op == AtomicOp::Inc;
                self.counter_uses.push(CounterUse {
                    func: cur.id,
                    var: *v,
                    what: if inc { CounterOp::Inc } else { CounterOp::Dec },
                    span,
                });
            }
            let t = if p.ty == Type::Counter32 {
                Type::UINT
            } else {
                Type::Scalar(ScalarKind::ULong)
            };
            return self.bi(Builtin::Atomic(op), vec![p], t, span);
        }
        let Type::Pointer {
            pointee,
            space,
            is_const,
            ..
        } = &p.ty
        else {
            let tn = self.type_name(&p.ty);
            self.error(
                Diagnostic::error(
                    p.span,
                    format!(
                        "the first argument of `{}` must be a pointer, not `{}`",
                        name, tn
                    ),
                )
                .note("pass the address of the value, e.g. `&counts[i]`"),
            );
            return Some(None);
        };
        let et = (**pointee).clone();
        let ok_type = match et {
            Type::Scalar(ScalarKind::Int | ScalarKind::UInt) => true,
            Type::Scalar(ScalarKind::Long | ScalarKind::ULong) => is64,
            Type::Scalar(ScalarKind::Float) => op == AtomicOp::Xchg,
            _ => false,
        };
        if !ok_type {
            let tn = self.type_name(&et);
            let want = if is64 {
                "`long` or `ulong`"
            } else {
                "`int` or `uint`"
            };
            let mut d = Diagnostic::error(
                p.span,
                format!("`{}` operates on {}, not `{}`", name, want, tn),
            );
            if matches!(et, Type::Atomic(_)) {
                d = d.note("on the OpenCL C 2.0 atomic types use `atomic_fetch_add`, `atomic_exchange`, `atomic_compare_exchange_strong`, ...");
            }
            self.error(d);
            return Some(None);
        }
        if !matches!(
            space,
            AddrSpace::Global | AddrSpace::Local | AddrSpace::Generic
        ) {
            self.error(
                Diagnostic::error(
                    p.span,
                    format!("`{}` needs a pointer to `global` or `local` memory", name),
                )
                .note("atomics on private or constant memory are not allowed"),
            );
            return Some(None);
        }
        if *is_const {
            self.err(
                p.span,
                format!("`{}` cannot modify read-only (`const`) memory", name),
            );
            return Some(None);
        }
        let mut xs = vec![p];
        for a in it {
            xs.push(self.convert_arg(a, &et, &format!("an argument of `{}`", name))?);
        }
        self.bi(Builtin::Atomic(op), xs, et, span)
    }
}
