//! Memory built-ins: vector loads and stores (`vloadN`, `vstoreN`, `vload_half`,
//! `vstore_half`), async work-group copies and `wait_group_events`, `prefetch`, and `printf`
//! (whose format is a string in `constant` memory).

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

/// `vload4` -> (load, half, 4); `vstore_half2` -> (store, half, 2); `vload_half` -> n = 1.
pub(super) fn vload_store(name: &str) -> Option<(bool, bool, u8)> {
    let (load, rest) = if let Some(r) = name.strip_prefix("vload") {
        (true, r)
    } else if let Some(r) = name.strip_prefix("vstore") {
        (false, r)
    } else {
        return None;
    };
    let (half, digits) = match rest.strip_prefix("_half") {
        Some(d) => (true, d),
        None => (false, rest),
    };
    let n: u8 = match digits {
        "" if half => 1,
        "2" => 2,
        "3" => 3,
        "4" => 4,
        "8" => 8,
        "16" => 16,
        _ => return None,
    };
    Some((load, half, n))
}

impl Checker<'_> {
    pub(super) fn vload_store(
        &mut self,
        name: &str,
        load: bool,
        half: bool,
        n: u8,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[if load { 2 } else { 3 }], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let data = if load {
            None
        } else {
            Some(self.decay(it.next().expect("arity")))
        };
        let off = self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?;
        let p = self.decay(it.next().expect("arity"));
        let Type::Pointer {
            pointee,
            is_const,
            space,
            ..
        } = &p.ty
        else {
            let tn = self.type_name(&p.ty);
            self.err(
                p.span,
                format!(
                    "the last argument of `{}` must be a pointer, not `{}`",
                    name, tn
                ),
            );
            return Some(None);
        };
        let Type::Scalar(pk) = **pointee else {
            let tn = self.type_name(&p.ty);
            self.err(
                p.span,
                format!("`{}` needs a pointer to a scalar type, not `{}`", name, tn),
            );
            return Some(None);
        };
        if half != (pk == ScalarKind::Half) {
            let tn = self.type_name(&p.ty);
            let hint = if half {
                "needs a `half *` pointer"
            } else {
                "does not take `half` pointers; use vload_half/vstore_half"
            };
            self.err(p.span, format!("`{}` {} (got `{}`)", name, hint, tn));
            return Some(None);
        }
        if !load && (*is_const || *space == AddrSpace::Constant) {
            self.err(
                p.span,
                format!(
                    "`{}` cannot store through a pointer to read-only memory",
                    name
                ),
            );
            return Some(None);
        }
        let vk = if half { ScalarKind::Float } else { pk };
        let vt = if n == 1 {
            Type::Scalar(vk)
        } else {
            Type::Vector(vk, n)
        };
        let b = match (load, half) {
            (true, false) => Builtin::VLoad(n),
            (false, false) => Builtin::VStore(n),
            (true, true) => Builtin::VLoadHalf(n),
            (false, true) => Builtin::VStoreHalf(n),
        };
        match data {
            None => self.bi(b, vec![off, p], vt, span),
            Some(d) => {
                if d.ty != vt && !(half && d.ty.is_scalar() && n == 1) {
                    let (x, y) = (self.type_name(&d.ty), self.type_name(&vt));
                    self.err(
                        d.span,
                        format!("`{}` stores a `{}`, but the value is `{}`", name, y, x),
                    );
                    return Some(None);
                }
                let d = self.arith_to(d, &vt);
                self.bi(b, vec![d, off, p], Type::Void, span)
            }
        }
    }

    pub(super) fn async_copy(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let strided = name == "async_work_group_strided_copy";
        if !self.arity(name, &args, &[if strided { 5 } else { 4 }], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let dst = self.decay(it.next().expect("arity"));
        let src = self.decay(it.next().expect("arity"));
        let (
            Type::Pointer {
                pointee: dt,
                space: ds,
                is_const: dc,
                ..
            },
            Type::Pointer {
                pointee: st,
                space: ss,
                ..
            },
        ) = (&dst.ty, &src.ty)
        else {
            self.err(
                span,
                format!(
                    "`{}` needs pointer arguments for the destination and source",
                    name
                ),
            );
            return Some(None);
        };
        let dirs_ok = matches!(
            (ds, ss),
            (AddrSpace::Local, AddrSpace::Global | AddrSpace::Constant)
                | (AddrSpace::Global, AddrSpace::Local)
        );
        if !dirs_ok {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "`{}` copies between `local` and `global` memory, not from `{}` to `{}`",
                        name, ss, ds
                    ),
                )
                .note("the destination is `local` and the source `global`, or the reverse"),
            );
            return Some(None);
        }
        if dt != st {
            let (x, y) = (self.type_name(&dst.ty), self.type_name(&src.ty));
            self.err(
                span,
                format!(
                    "`{}`: destination `{}` and source `{}` have different element types",
                    name, x, y
                ),
            );
            return Some(None);
        }
        if *dc {
            self.err(
                dst.span,
                format!("`{}` cannot write through a pointer to `const`", name),
            );
            return Some(None);
        }
        let n = self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?;
        let mut xs = vec![dst, src, n];
        if strided {
            xs.push(self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?);
        }
        let ev = self.decay(it.next().expect("arity"));
        let ev = if ev.ty == Type::Event {
            ev
        } else if self.is_null_const(&ev) {
            self.cast(ev, &Type::Event, CastKind::Implicit)
        } else {
            let tn = self.type_name(&ev.ty);
            self.err(
                ev.span,
                format!(
                    "the last argument of `{}` must be an `event_t` (or 0), not `{}`",
                    name, tn
                ),
            );
            return Some(None);
        };
        xs.push(ev);
        let b = if strided {
            Builtin::AsyncWorkGroupStridedCopy
        } else {
            Builtin::AsyncWorkGroupCopy
        };
        self.bi(b, xs, Type::Event, span)
    }

    /// `int printf(constant char *restrict format, ...)`: the format must be a string literal
    /// (so that the emulator and any hardware implementation know it at compile time); the
    /// other arguments are scalars, vectors or pointers, integers promoted.
    pub(super) fn printf(&mut self, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        let mut it = args.into_iter();
        let Some(fmt) = it.next() else {
            self.error(
                Diagnostic::error(span, "`printf` needs a format string")
                    .note(r#"write `printf("x = %d\n", x)`"#),
            );
            return Some(None);
        };
        let is_literal = matches!(fmt.kind, ExprKind::Global(g)
            if self.globals.get(g as usize).is_some_and(|v| v.name.starts_with(".str")));
        if !is_literal {
            self.error(
                Diagnostic::error(fmt.span, "the format of `printf` must be a string literal")
                    .note(r#"write the format in place: `printf("%d\n", x)`"#),
            );
            return Some(None);
        }
        let mut xs = vec![self.decay(fmt)];
        for a in it {
            let a = self.decay(a);
            match &a.ty {
                Type::Scalar(k) if k.is_integer() => xs.push(self.promote(a)),
                Type::Scalar(_) | Type::Vector(..) | Type::Pointer { .. } => xs.push(a),
                t => {
                    let tn = self.type_name(t);
                    self.err(
                        a.span,
                        format!("`printf` cannot print a value of type `{}`", tn),
                    );
                    return Some(None);
                }
            }
        }
        self.bi(Builtin::Printf, xs, Type::INT, span)
    }

    /// `wait_group_events(num_events, event_list)`.
    pub(super) fn wait_group_events(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[2], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let n = self.int_arg(it.next().expect("arity"), name, &Type::INT)?;
        let ev = self.decay(it.next().expect("arity"));
        if !matches!(&ev.ty, Type::Pointer { pointee, .. } if **pointee == Type::Event) {
            let t = self.type_name(&ev.ty);
            self.error(
                Diagnostic::error(
                    ev.span,
                    format!("`wait_group_events` needs an `event_t *` list, not `{}`", t),
                )
                .note("write `wait_group_events(1, &ev)`"),
            );
            return Some(None);
        }
        self.bi(Builtin::WaitGroupEvents, vec![n, ev], Type::Void, span)
    }

    /// `prefetch(global_pointer, num_elements)`.
    pub(super) fn prefetch(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[2], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let p = self.decay(it.next().expect("arity"));
        if !matches!(
            &p.ty,
            Type::Pointer {
                space: AddrSpace::Global,
                ..
            }
        ) {
            self.err(p.span, "`prefetch` needs a `global` pointer");
            return Some(None);
        }
        let n = self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?;
        self.bi(Builtin::Prefetch, vec![p, n], Type::Void, span)
    }
}
