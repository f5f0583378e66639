//! Declarators: pointers, arrays and function declarators applied to a base type, and the
//! checks that a type can be the type of an object.

use super::DeclCtx;
use crate::ast::*;
use crate::check::{Checker, QualType};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

/// The spelling of the opaque types with scope rules of their own: events, reservation ids
/// and atomic counters (also as array elements).
pub(super) fn opaque_type_name(t: &Type) -> Option<&'static str> {
    match t {
        Type::Event => Some("event_t"),
        Type::ReserveId => Some("reserve_id_t"),
        Type::Counter32 => Some("counter32_t"),
        Type::Counter64 => Some("counter64_t"),
        Type::Array(e, _) => opaque_type_name(e),
        _ => None,
    }
}

/// The atomic type of an atomic object or of the elements of an array of them.
pub(super) fn atomic_in(t: &Type) -> Option<AtomicKind> {
    match t {
        Type::Atomic(a) => Some(*a),
        Type::Array(e, _) => atomic_in(e),
        _ => None,
    }
}

impl Checker<'_> {
    /// Applies a declarator to a base type. Returns the name, the object's type and, for a
    /// function declarator, its parameter list.
    #[allow(clippy::type_complexity)]
    pub(crate) fn apply_declarator<'d>(
        &mut self,
        d: &'d syn::Declarator,
        qt: QualType,
        ctx: DeclCtx,
    ) -> Option<(
        Option<(String, Span)>,
        QualType,
        Option<(&'d [syn::ParamDecl], bool, Span)>,
    )> {
        let mut fparams = None;
        let (name, qt) = self.apply_decl_inner(d, qt, ctx, &mut fparams)?;
        Some((name, qt, fparams))
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn apply_decl_inner<'d>(
        &mut self,
        d: &'d syn::Declarator,
        qt: QualType,
        ctx: DeclCtx,
        fparams: &mut Option<(&'d [syn::ParamDecl], bool, Span)>,
    ) -> Option<(Option<(String, Span)>, QualType)> {
        if !self.enter(d.span()) {
            return None;
        }
        let r = self.apply_decl_step(d, qt, ctx, fparams);
        self.leave();
        r
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn apply_decl_step<'d>(
        &mut self,
        d: &'d syn::Declarator,
        qt: QualType,
        ctx: DeclCtx,
        fparams: &mut Option<(&'d [syn::ParamDecl], bool, Span)>,
    ) -> Option<(Option<(String, Span)>, QualType)> {
        match d {
            syn::Declarator::Abstract(_) => Some((None, qt)),
            syn::Declarator::Ident(n, s) => Some((Some((n.clone(), *s)), qt)),
            syn::Declarator::Pointer { quals, inner, span } => {
                if matches!(qt.ty, Type::Pipe { .. }) {
                    self.error(
                        Diagnostic::error(*span, "pointers to pipes are not allowed")
                            .note("pass the pipe itself: `read_only pipe int p`"),
                    );
                    return None;
                }
                let space = qt.space.unwrap_or(AddrSpace::Generic);
                let mut is_const = false;
                let mut is_volatile = false;
                let mut is_restrict = false;
                for q in quals {
                    match q {
                        syn::DeclSpec::Qual(syn::Qual::Const, _) => is_const = true,
                        syn::DeclSpec::Qual(syn::Qual::Volatile, _) => is_volatile = true,
                        syn::DeclSpec::Qual(syn::Qual::Restrict, _) => is_restrict = true,
                        _ => {}
                    }
                }
                let ptr = QualType {
                    ty: Type::Pointer {
                        pointee: Box::new(qt.ty),
                        space,
                        is_const: qt.is_const,
                        is_volatile: qt.is_volatile,
                        is_restrict,
                    },
                    space: None,
                    is_const,
                    is_volatile,
                };
                self.apply_decl_inner(inner, ptr, ctx, fparams)
            }
            syn::Declarator::Array { inner, size, span } => {
                if qt.ty.is_void() {
                    self.err(*span, "array of `void`");
                    return None;
                }
                let n = match size {
                    Some(e) => {
                        let v = self.const_int(e, "array size")?;
                        let signed_neg = (v as i64) < 0;
                        if v == 0 || signed_neg {
                            self.error(
                                Diagnostic::error(e.span, "array size must be positive")
                                    .note("variable-length arrays are not supported; the size must be a positive constant"),
                            );
                            return None;
                        }
                        if v > u32::MAX as u64 / 16 {
                            self.err(e.span, "array is too large");
                            return None;
                        }
                        v as u32
                    }
                    // `int a[] = {..}` or a parameter: the caller fixes the size
                    None => 0,
                };
                let arr = QualType {
                    ty: Type::Array(Box::new(qt.ty), n),
                    ..qt
                };
                self.apply_decl_inner(inner, arr, ctx, fparams)
            }
            syn::Declarator::Function {
                inner,
                params,
                variadic,
                span,
            } => {
                let direct_name = matches!(**inner, syn::Declarator::Ident(..));
                if !direct_name || fparams.is_some() {
                    self.unsupported(
                        *span,
                        "function pointers are",
                        "call functions directly by name",
                    );
                    return None;
                }
                if matches!(
                    ctx,
                    DeclCtx::Param { .. } | DeclCtx::Field | DeclCtx::TypeName
                ) {
                    self.unsupported(
                        *span,
                        "function pointers are",
                        "call functions directly by name",
                    );
                    return None;
                }
                *fparams = Some((params.as_slice(), *variadic, *span));
                self.apply_decl_inner(inner, qt, ctx, fparams)
            }
        }
    }

    /// Checks that a type can be the type of an object (variable, field, array element).
    pub(crate) fn complete_object_type(&mut self, t: &Type, span: Span, what: &str) -> bool {
        match t {
            Type::Void => {
                self.err(span, format!("{} cannot have type `void`", what));
                false
            }
            Type::Struct(id) if !self.structs.get(*id).complete => {
                let n = self.type_name(t);
                self.error(
                    Diagnostic::error(span, format!("{} has incomplete type `{}`", what, n))
                        .note("define the struct before using it by value"),
                );
                false
            }
            Type::Array(e, n) => {
                if *n == 0 {
                    self.err(span, format!("{} needs an array size", what));
                    return false;
                }
                self.complete_object_type(e, span, what)
            }
            Type::Scalar(ScalarKind::Half) | Type::Vector(ScalarKind::Half, _) => {
                self.error(
                    Diagnostic::error(span, format!("{} cannot have type `half`", what))
                        .note("without cl_khr_fp16, `half` is only allowed behind a pointer; use vload_half/vstore_half"),
                );
                false
            }
            _ => true,
        }
    }
}
