//! Casts and literals: explicit casts `(T)x`, the vector literals that share their syntax
//! (`(float4)(a, b, c, d)`), and string literals (program-scope `constant char[]` globals).

use super::{has_side_effects, swizzle};
use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

pub(super) fn flatten_comma<'e>(e: &'e syn::Expr, out: &mut Vec<&'e syn::Expr>) {
    // iterative over the left spine: (a, b), c
    let mut stack = vec![e];
    let mut rev = Vec::new();
    while let Some(x) = stack.pop() {
        match &x.kind {
            syn::ExprKind::Comma(a, b) => {
                rev.push(&**b);
                stack.push(a);
            }
            _ => rev.push(x),
        }
    }
    out.extend(rev.into_iter().rev());
}

impl Checker<'_> {
    /// A C99 compound literal `(T){...}`: the list initialises a value of type `T` as it would
    /// a variable. Scalars and vectors give their initialiser's expression (`(int2){5, 5}` is
    /// the vector literal `(int2)(5, 5)`), structs and unions an `ExprKind::CompoundLit`.
    pub(super) fn compound_literal(
        &mut self,
        t: &syn::TypeName,
        init: &syn::Initializer,
        span: Span,
    ) -> Option<Expr> {
        let ty = self.resolve_type_name(t)?.ty;
        let ok = matches!(
            ty,
            Type::Scalar(_) | Type::Vector(..) | Type::Pointer { .. }
        ) || ty.is_struct();
        if ty.is_array() {
            self.error(
                Diagnostic::error(span, "compound literals of array type are not supported")
                    .note("declare an array variable with this initialiser instead"),
            );
            return None;
        }
        if !ok {
            let tn = self.type_name(&ty);
            self.err(
                span,
                format!("a compound literal of type `{}` is not supported", tn),
            );
            return None;
        }
        let (ty, init) = self.check_initializer(init, &ty)?;
        match init {
            Init::Expr(mut e) => {
                e.span = span;
                e.lvalue = false;
                Some(e)
            }
            list => Some(self.mk(ExprKind::CompoundLit(Box::new(list)), ty, span)),
        }
    }

    pub(super) fn explicit_cast(
        &mut self,
        t: &syn::TypeName,
        x: &syn::Expr,
        span: Span,
    ) -> Option<Expr> {
        let qt = self.resolve_type_name(t)?;
        let to = qt.ty;
        // vector literal: (float4)(a, b, c, d)
        if let Type::Vector(k, n) = to {
            if let syn::ExprKind::Paren(inner) = &x.kind {
                if let syn::ExprKind::Comma(..) = inner.kind {
                    let mut parts = Vec::new();
                    flatten_comma(inner, &mut parts);
                    return self.vector_literal(k, n, &parts, span);
                }
            }
        }
        let e = self.rvalue(x)?;
        let from = e.ty.clone();
        let bad = |c: &mut Self, note: &str| {
            let (f, t2) = (c.type_name(&from), c.type_name(&to));
            let mut d = Diagnostic::error(span, format!("cannot cast `{}` to `{}`", f, t2));
            if !note.is_empty() {
                d = d.note(note.to_string());
            }
            c.error(d);
            None
        };
        match (&from, &to) {
            (_, Type::Void) => Some(self.cast(e, &to, CastKind::Explicit)),
            (Type::Scalar(_), Type::Scalar(_)) => Some(self.cast(e, &to, CastKind::Explicit)),
            (Type::Scalar(_), Type::Vector(..)) => Some(self.splat(e, &to, CastKind::Explicit)),
            (Type::Vector(..), Type::Vector(..)) if from == to => Some(e),
            (Type::Vector(..), Type::Vector(..)) => {
                let tn = self.type_name(&to);
                bad(self, &format!("OpenCL does not allow casts between vector types; use `convert_{}()` (value conversion) or `as_{}()` (bit reinterpretation)", tn, tn))
            }
            (Type::Vector(..), Type::Scalar(_)) => {
                bad(self, "select a component, e.g. `v.x` or `v.s0`")
            }
            (Type::Pointer { space: fs, .. }, Type::Pointer { space: ts, .. }) => {
                if fs != ts && *fs != AddrSpace::Generic && *ts != AddrSpace::Generic {
                    return bad(self, &format!("a pointer into `{}` memory cannot be cast to a pointer into `{}` memory", fs, ts));
                }
                Some(self.cast(e, &to, CastKind::Explicit))
            }
            (Type::Pointer { .. }, Type::Scalar(k)) if k.is_integer() => {
                Some(self.cast(e, &to, CastKind::Explicit))
            }
            (Type::Scalar(k), Type::Pointer { .. }) if k.is_integer() => {
                Some(self.cast(e, &to, CastKind::Explicit))
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => Some(e),
            _ => bad(self, ""),
        }
    }

    /// `(T n)(a, b, ...)`: components are scalars or vectors whose lanes add up to `n`.
    pub(super) fn vector_literal(
        &mut self,
        k: ScalarKind,
        n: u8,
        parts: &[&syn::Expr],
        span: Span,
    ) -> Option<Expr> {
        let mut comps = Vec::new();
        let mut ok = true;
        let elem = Type::Scalar(k);
        for p in parts {
            let Some(e) = self.rvalue(p) else {
                ok = false;
                continue;
            };
            match &e.ty {
                Type::Scalar(_) => comps.push(self.cast(e, &elem, CastKind::Implicit)),
                Type::Vector(ek, m) => {
                    if *ek != k {
                        let (x, y) = (self.type_name(&e.ty), k.name());
                        self.error(
                            Diagnostic::error(
                                e.span,
                                format!(
                                    "vector component `{}` does not have element type `{}`",
                                    x, y
                                ),
                            )
                            .note(format!("convert it first with `convert_{}{}()`", y, m)),
                        );
                        ok = false;
                        continue;
                    }
                    if has_side_effects(&e) {
                        self.error(
                            Diagnostic::error(
                                e.span,
                                "a vector component of a vector literal must not have side effects",
                            )
                            .note("assign it to a variable first"),
                        );
                        ok = false;
                        continue;
                    }
                    let m = *m;
                    for l in 0..m {
                        let mut c = swizzle(e.clone(), vec![l], elem.clone(), e.span);
                        c.lvalue = false;
                        comps.push(c);
                    }
                }
                t => {
                    let t = self.type_name(t);
                    self.err(e.span, format!("`{}` cannot be a vector component", t));
                    ok = false;
                }
            }
        }
        if !ok {
            return None;
        }
        if comps.len() != n as usize {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "vector literal of `{}{}` has {} components, expected {}",
                        k,
                        n,
                        comps.len(),
                        n
                    ),
                )
                .note(
                    "give exactly one value per component, or a single scalar to fill all of them",
                ),
            );
            return None;
        }
        Some(self.mk(ExprKind::VecLit(comps), Type::Vector(k, n), span))
    }

    /// A string literal is an lvalue `constant char[n + 1]` (OpenCL C 6.5.3: string literals
    /// are in the `constant` address space), stored as a program-scope global named `.strN`;
    /// equal literals share one global.
    pub(super) fn string_literal(&mut self, text: &str, span: Span) -> Option<Expr> {
        // Each character becomes an initialiser node; bound the memory hostile input can take.
        const MAX_STRING: usize = 1 << 16;
        if text.len() > MAX_STRING {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "string literal of {} bytes is longer than the limit of {} bytes",
                        text.len(),
                        MAX_STRING
                    ),
                )
                .note("keep large constant data in a `constant` array or a buffer argument"),
            );
            return None;
        }
        let bytes = text.as_bytes();
        let n = u32::try_from(bytes.len() + 1).unwrap_or(u32::MAX);
        let ty = Type::Array(Box::new(Type::Scalar(ScalarKind::Char)), n);
        let g = match self.strings.get(text) {
            Some(&g) => g,
            None => {
                let chars = bytes
                    .iter()
                    .chain(std::iter::once(&0u8))
                    .map(|&b| Init::Expr(Expr::int(b as u64, ScalarKind::Char, span)))
                    .collect();
                self.globals.push(GlobalVar {
                    name: format!(".str{}", self.strings.len()),
                    ty: ty.clone(),
                    space: AddrSpace::Constant,
                    span,
                    is_const: true,
                    init: Some(Init::List(chars)),
                    attrs: Vec::new(),
                    pipe_attrs: PipeAttrs::default(),
                });
                let g = self.globals.len() as u32 - 1;
                self.strings.insert(text.to_string(), g);
                g
            }
        };
        let mut e = self.mk(ExprKind::Global(g), ty, span);
        e.lvalue = true;
        Some(e)
    }
}
