//! OpenCL C 2.0 atomics (6.13.11): the functions on `atomic_*` objects and their `_explicit`
//! forms, and `atomic_work_item_fence`, with the rules of the specification a compiler can
//! check: the object is an atomic type in `global`, `local` or `generic` memory (never
//! `private`), `atomic_fetch_<key>` only on atomic integers, the flag functions only on
//! `atomic_flag`, and the memory orders and scopes each function accepts.
//!
//! The checked call has the shape of the OpenCL 1.x atomics (see `Builtin::Atomic` and the
//! C11 variants of [`Builtin`]): the object pointer is cast to a pointer to the value type, and
//! the order and scope arguments, which must be integer constants, are checked and dropped
//! (only the fence keeps them).

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

/// A C11 atomic function, without its `_explicit` suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum C11Fn {
    Init,
    Load,
    Store,
    Exchange,
    CompareExchange {
        weak: bool,
    },
    /// `atomic_fetch_<key>`: `Add`, `Sub`, `Or`, `Xor`, `And`, `Min` or `Max`.
    Fetch(AtomicOp),
    FlagTestAndSet,
    FlagClear,
    Fence,
}

impl C11Fn {
    /// The arguments before the memory orders.
    fn operands(self) -> usize {
        match self {
            C11Fn::Load | C11Fn::FlagTestAndSet | C11Fn::FlagClear => 1,
            C11Fn::Init | C11Fn::Store | C11Fn::Exchange | C11Fn::Fetch(_) => 2,
            C11Fn::CompareExchange { .. } => 3,
            C11Fn::Fence => 1,
        }
    }

    /// How many `memory_order` arguments the `_explicit` form has.
    fn orders(self) -> usize {
        match self {
            C11Fn::CompareExchange { .. } => 2,
            C11Fn::Init => 0,
            _ => 1,
        }
    }

    fn is_flag(self) -> bool {
        matches!(self, C11Fn::FlagTestAndSet | C11Fn::FlagClear)
    }
}

const FETCH: &[(&str, AtomicOp)] = &[
    ("add", AtomicOp::Add),
    ("sub", AtomicOp::Sub),
    ("or", AtomicOp::Or),
    ("xor", AtomicOp::Xor),
    ("and", AtomicOp::And),
    ("min", AtomicOp::Min),
    ("max", AtomicOp::Max),
];

/// `atomic_load_explicit` -> (`Load`, true). `None` for other names.
pub(super) fn c11_atomic(name: &str) -> Option<(C11Fn, bool)> {
    match name {
        "atomic_init" => return Some((C11Fn::Init, false)),
        "atomic_work_item_fence" => return Some((C11Fn::Fence, false)),
        _ => {}
    }
    let (base, explicit) = match name.strip_suffix("_explicit") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let f = match base.strip_prefix("atomic_")? {
        "load" => C11Fn::Load,
        "store" => C11Fn::Store,
        "exchange" => C11Fn::Exchange,
        "compare_exchange_strong" => C11Fn::CompareExchange { weak: false },
        "compare_exchange_weak" => C11Fn::CompareExchange { weak: true },
        "flag_test_and_set" => C11Fn::FlagTestAndSet,
        "flag_clear" => C11Fn::FlagClear,
        rest => {
            let key = rest.strip_prefix("fetch_")?;
            C11Fn::Fetch(FETCH.iter().find(|f| f.0 == key)?.1)
        }
    };
    Some((f, explicit))
}

/// The checked object argument: the pointer cast to the value type, and what it holds.
struct Object {
    ptr: Expr,
    kind: AtomicKind,
}

impl Checker<'_> {
    pub(super) fn c11_atomic_call(
        &mut self,
        name: &str,
        f: C11Fn,
        explicit: bool,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if f == C11Fn::Fence {
            return self.work_item_fence(name, args, span);
        }
        let n = f.operands();
        let arities: &[usize] = if explicit {
            &[n + f.orders(), n + f.orders() + 1]
        } else {
            &[n]
        };
        let arities = arities.to_vec();
        if !self.arity(name, &args, &arities, span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let obj = self.atomic_object(name, f, it.next().expect("arity"))?;
        let c = Type::Scalar(obj.kind.value_kind());
        let mut xs = vec![obj.ptr];
        match f {
            C11Fn::Init | C11Fn::Store | C11Fn::Exchange | C11Fn::Fetch(_) => {
                let what = format!("the value argument of `{}`", name);
                let v = self.c11_value(it.next().expect("arity"), &c, &what)?;
                xs.push(v);
            }
            C11Fn::CompareExchange { .. } => {
                let e = self.expected_ptr(name, it.next().expect("arity"), &c)?;
                let what = format!("the `desired` argument of `{}`", name);
                let v = self.c11_value(it.next().expect("arity"), &c, &what)?;
                xs.extend([e, v]);
            }
            _ => {}
        }
        let rest: Vec<Expr> = it.collect();
        let order = self.check_orders(name, f, rest)?;
        self.atomic_orders.insert(span, order);
        let (b, ty) = match f {
            C11Fn::Init => (Builtin::AtomicInit, Type::Void),
            C11Fn::Load => (Builtin::AtomicLoad, c),
            C11Fn::Store => (Builtin::AtomicStore, Type::Void),
            C11Fn::Exchange => (Builtin::Atomic(AtomicOp::Xchg), c),
            C11Fn::Fetch(op) => (Builtin::Atomic(op), c),
            C11Fn::CompareExchange { weak } => {
                (Builtin::AtomicCompareExchange { weak }, Type::BOOL)
            }
            C11Fn::FlagTestAndSet => (Builtin::AtomicFlagTestAndSet, Type::BOOL),
            C11Fn::FlagClear => (Builtin::AtomicFlagClear, Type::Void),
            C11Fn::Fence => unreachable!("handled above"),
        };
        self.bi(b, xs, ty, span)
    }

    /// The object argument: a pointer to an atomic type this function accepts, in memory
    /// atomics may use.
    fn atomic_object(&mut self, name: &str, f: C11Fn, p: Expr) -> Option<Object> {
        if let Type::Atomic(a) = p.ty {
            self.error(
                Diagnostic::error(
                    p.span,
                    format!(
                        "`{}` takes a pointer to the atomic object, not the `{}` itself",
                        name,
                        a.name()
                    ),
                )
                .note("pass its address, e.g. `&counter`"),
            );
            return None;
        }
        let p = self.decay(p);
        let Type::Pointer {
            pointee,
            space,
            is_const,
            is_volatile,
            ..
        } = &p.ty
        else {
            let tn = self.type_name(&p.ty);
            self.error(
                Diagnostic::error(
                    p.span,
                    format!(
                        "the first argument of `{}` must be a pointer to an atomic object, not `{}`",
                        name, tn
                    ),
                )
                .note("pass the address of the object, e.g. `&counts[i]`"),
            );
            return None;
        };
        let (space, is_const, is_volatile) = (*space, *is_const, *is_volatile);
        let Type::Atomic(kind) = **pointee else {
            let tn = self.type_name(&p.ty);
            let hint = match pointee.elem_kind().filter(|_| pointee.is_scalar()) {
                Some(k) => match AtomicKind::of_value(k) {
                    Some(a) => format!(
                        "declare the object `{}` (or cast the pointer to `{} {} *`); the OpenCL 1.x atomics (`atomic_add`, `atomic_xchg`, ...) work on plain integers",
                        a.name(),
                        space,
                        a.name()
                    ),
                    None => format!("there is no atomic type for `{}`", k),
                },
                None => "the atomic types are `atomic_int`, `atomic_uint`, `atomic_long`, `atomic_ulong`, `atomic_float` and `atomic_flag`".to_string(),
            };
            self.error(
                Diagnostic::error(
                    p.span,
                    format!("`{}` needs a pointer to an atomic type, not `{}`", name, tn),
                )
                .note(hint),
            );
            return None;
        };
        let fits = match f {
            _ if f.is_flag() => kind == AtomicKind::Flag,
            C11Fn::Fetch(_) => kind.is_integer(),
            _ => kind != AtomicKind::Flag,
        };
        if !fits {
            let want = if f.is_flag() {
                "`atomic_flag`"
            } else if matches!(f, C11Fn::Fetch(_)) {
                "the atomic integer types (`atomic_int`, `atomic_uint`, `atomic_long`, `atomic_ulong`)"
            } else {
                "atomic integer and floating-point types"
            };
            let note = if kind == AtomicKind::Flag {
                "an `atomic_flag` is used only by `atomic_flag_test_and_set` and `atomic_flag_clear`"
            } else if f.is_flag() {
                "use `atomic_exchange`/`atomic_store` on other atomic types"
            } else {
                "a floating-point atomic can be loaded, stored, exchanged and compared-and-exchanged; add with a compare-and-exchange loop"
            };
            self.error(
                Diagnostic::error(
                    p.span,
                    format!("`{}` operates on {}, not `{}`", name, want, kind.name()),
                )
                .note(note),
            );
            return None;
        }
        self.atomic_space(name, space, p.span)?;
        if is_const && f != C11Fn::Load {
            self.err(
                p.span,
                format!("`{}` cannot modify read-only (`const`) memory", name),
            );
            return None;
        }
        let to = Type::Pointer {
            pointee: Box::new(Type::Scalar(kind.value_kind())),
            space,
            is_const,
            is_volatile,
            is_restrict: false,
        };
        let ptr = self.cast(p, &to, CastKind::Implicit);
        Some(Object { ptr, kind })
    }

    /// Atomics operate on `global`, `local` and `generic` memory (OpenCL C 2.0 6.13.11.8).
    fn atomic_space(&mut self, name: &str, space: AddrSpace, span: Span) -> Option<()> {
        match space {
            AddrSpace::Global | AddrSpace::Local | AddrSpace::Generic => Some(()),
            AddrSpace::Private => {
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{}` on an atomic object in `private` memory", name),
                    )
                    .note("atomic operations on private memory are undefined (OpenCL C 2.0 6.13.11.8); use an object in `global` or `local` memory"),
                );
                None
            }
            AddrSpace::Constant => {
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{}` on an atomic object in `constant` memory", name),
                    )
                    .note("atomics operate on `global` or `local` memory; `constant` data is read-only"),
                );
                None
            }
        }
    }

    /// A value argument, converted to the value type `c`.
    fn c11_value(&mut self, e: Expr, c: &Type, what: &str) -> Option<Expr> {
        if let Type::Atomic(a) = e.ty {
            self.atomic_as_value(a, e.span);
            return None;
        }
        self.convert_arg(e, c, what)
    }

    /// The `expected` argument of a compare-exchange: a pointer to the value type, in any
    /// writable address space (private included).
    fn expected_ptr(&mut self, name: &str, e: Expr, c: &Type) -> Option<Expr> {
        let e = self.decay(e);
        let ok = match &e.ty {
            Type::Pointer {
                pointee,
                space,
                is_const,
                ..
            } => **pointee == *c && *space != AddrSpace::Constant && !is_const,
            _ => false,
        };
        if !ok {
            let (tn, cn) = (self.type_name(&e.ty), self.type_name(c));
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "the `expected` argument of `{}` must be a writable pointer to `{}`, not `{}`",
                        name, cn, tn
                    ),
                )
                .note(format!(
                    "pass the address of a `{}` variable holding the expected value; it receives the current value when the exchange fails",
                    cn
                )),
            );
            return None;
        }
        Some(e)
    }

    /// A `memory_order` or `memory_scope` argument: an integer constant naming one.
    fn order_or_scope(&mut self, name: &str, e: Expr, scope: bool) -> Option<u64> {
        let what = if scope {
            "memory scope"
        } else {
            "memory order"
        };
        let e = self.decay(e);
        let v = if e.ty.is_scalar() && e.ty.is_integer() {
            self.const_value(&e)
        } else {
            None
        };
        let Some(v) = v else {
            let first = if scope {
                MemScope::Device.name()
            } else {
                MemOrder::Relaxed.name()
            };
            self.error(
                Diagnostic::error(
                    e.span,
                    format!("the {} of `{}` must be a constant", what, name),
                )
                .note(format!(
                    "write the enumeration constant (e.g. `{}`); the hardware fixes orders and scopes when the kernel is built",
                    first
                )),
            );
            return None;
        };
        let known = if scope {
            MemScope::from_value(v).is_some()
        } else {
            MemOrder::from_value(v).is_some()
        };
        if !known {
            let all: Vec<&str> = if scope {
                MemScope::ALL.iter().map(|s| s.name()).collect()
            } else {
                MemOrder::ALL.iter().map(|o| o.name()).collect()
            };
            self.error(
                Diagnostic::error(e.span, format!("`{}` is not a {}", v as i64, what))
                    .note(format!("use one of {}", all.join(", "))),
            );
            return None;
        }
        Some(v)
    }

    /// The order(s) and the optional scope of an `_explicit` form, against the rules of the
    /// function (OpenCL C 2.0 6.13.11.7 and the restrictions of 6.13.11.8).
    /// Returns the (success) order, `SeqCst` when none is given.
    fn check_orders(&mut self, name: &str, f: C11Fn, rest: Vec<Expr>) -> Option<MemOrder> {
        let mut orders = Vec::new();
        let mut scope = None;
        for (i, e) in rest.into_iter().enumerate() {
            let span = e.span;
            if i < f.orders() {
                let v = self.order_or_scope(name, e, false)?;
                orders.push((MemOrder::from_value(v)?, span));
            } else {
                let v = self.order_or_scope(name, e, true)?;
                scope = Some((MemScope::from_value(v)?, span));
            }
        }
        let bad_order = |c: &mut Self, o: MemOrder, span: Span, why: &str| {
            c.error(
                Diagnostic::error(span, format!("`{}` cannot use `{}`", name, o.name()))
                    .note(why.to_string()),
            );
        };
        match (f, orders.as_slice()) {
            (C11Fn::Load, [(o @ (MemOrder::Release | MemOrder::AcqRel), sp)]) => {
                bad_order(self, *o, *sp, "a load has no release semantics: the order must not be `memory_order_release` or `memory_order_acq_rel` (OpenCL C 2.0 6.13.11.7)");
                return None;
            }
            (
                C11Fn::Store | C11Fn::FlagClear,
                [(o @ (MemOrder::Acquire | MemOrder::AcqRel), sp)],
            ) => {
                bad_order(self, *o, *sp, "a store has no acquire semantics: the order must not be `memory_order_acquire` or `memory_order_acq_rel` (OpenCL C 2.0 6.13.11.7)");
                return None;
            }
            (
                C11Fn::CompareExchange { .. },
                [(_, _), (o @ (MemOrder::Release | MemOrder::AcqRel), sp)],
            ) => {
                bad_order(self, *o, *sp, "a failed compare-exchange only loads: the failure order must not be `memory_order_release` or `memory_order_acq_rel` (OpenCL C 2.0 6.13.11.7)");
                return None;
            }
            (C11Fn::CompareExchange { .. }, [(success, _), (failure, sp)])
                if !failure.valid_failure_for(*success) =>
            {
                self.error(
                    Diagnostic::error(
                        *sp,
                        format!(
                            "the failure order `{}` of `{}` is stronger than its success order `{}`",
                            failure.name(),
                            name,
                            success.name()
                        ),
                    )
                    .note("the failure order must be no stronger than the success order (OpenCL C 2.0 6.13.11.7); weaken it or strengthen the success order"),
                );
                return None;
            }
            _ => {}
        }
        if let Some((MemScope::WorkItem, sp)) = scope {
            self.error(
                Diagnostic::error(
                    sp,
                    format!("`{}` cannot use `memory_scope_work_item`", name),
                )
                .note("`memory_scope_work_item` is only for `atomic_work_item_fence` with `CLK_IMAGE_MEM_FENCE`; use `memory_scope_work_group` or `memory_scope_device`"),
            );
            return None;
        }
        Some(orders.first().map_or(MemOrder::SeqCst, |o| o.0))
    }

    /// `atomic_work_item_fence(flags, order, scope)`.
    fn work_item_fence(&mut self, name: &str, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[3], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let flags = self.int_arg(it.next().expect("arity"), name, &Type::UINT)?;
        let order = self.order_or_scope(name, it.next().expect("arity"), false)?;
        let scope_arg = it.next().expect("arity");
        let scope_span = scope_arg.span;
        let scope = self.order_or_scope(name, scope_arg, true)?;
        let (order, scope) = (MemOrder::from_value(order)?, MemScope::from_value(scope)?);
        let fv = self.const_value(&flags);
        match fv {
            Some(v) if v & !7 != 0 || v == 0 => self.warn(
                Diagnostic::warning(flags.span, "unknown memory fence flags")
                    .note("use CLK_LOCAL_MEM_FENCE and/or CLK_GLOBAL_MEM_FENCE"),
            ),
            _ => {}
        }
        if scope == MemScope::WorkItem && fv != Some(4) {
            self.error(
                Diagnostic::error(
                    scope_span,
                    "`memory_scope_work_item` needs the flags `CLK_IMAGE_MEM_FENCE` alone",
                )
                .note("a fence on `global` or `local` memory orders accesses of other work-items: use `memory_scope_work_group` or `memory_scope_device`"),
            );
            return Some(None);
        }
        self.bi(
            Builtin::WorkItemFence { order, scope },
            vec![flags],
            Type::Void,
            span,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(c11_atomic("atomic_load"), Some((C11Fn::Load, false)));
        assert_eq!(
            c11_atomic("atomic_fetch_max_explicit"),
            Some((C11Fn::Fetch(AtomicOp::Max), true))
        );
        assert_eq!(
            c11_atomic("atomic_compare_exchange_weak_explicit"),
            Some((C11Fn::CompareExchange { weak: true }, true))
        );
        assert_eq!(c11_atomic("atomic_init"), Some((C11Fn::Init, false)));
        assert_eq!(c11_atomic("atomic_init_explicit"), None);
        assert_eq!(c11_atomic("atomic_fetch_inc"), None);
        assert_eq!(c11_atomic("atomic_add"), None);
        assert_eq!(
            c11_atomic("atomic_work_item_fence"),
            Some((C11Fn::Fence, false))
        );
    }
}
