//! Declarations: declaration specifiers -> types (this module), declarators, structs and
//! enums, functions and their parameters, and variables at file and block scope (one
//! submodule each). Attributes are converted and validated in `check::attrs`.

mod declarator;
mod function;
mod record;
mod var;

use super::attrs::attr_base_name;
use super::{Checker, QualType, Sym};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::parser::{scalar_word, vector_type};
use crate::span::Span;
use crate::syntax as syn;

/// What the declaration specifiers say besides the type.
#[derive(Clone, Debug, Default)]
pub(crate) struct SpecInfo {
    pub storage: Option<(syn::Storage, Span)>,
    pub is_kernel: Option<Span>,
    pub is_inline: bool,
    pub access: Option<(Access, Span)>,
    pub space_span: Option<Span>,
    pub attrs: Vec<Attribute>,
}

/// A checked parameter of a prototype or function definition.
struct ParamInfo {
    /// The name and its span (`None` for an unnamed parameter).
    name: Option<(String, Span)>,
    qt: QualType,
    info: SpecInfo,
    /// The whole parameter.
    span: Span,
    /// The parameter's type could not be resolved (already reported); it is declared as a
    /// poisoned name.
    failed: bool,
}

impl ParamInfo {
    /// Where diagnostics about the parameter point: its name, or the whole parameter.
    fn name_span(&self) -> Span {
        self.name.as_ref().map_or(self.span, |p| p.1)
    }
}

/// Where a declaration appears (affects defaults and what is allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclCtx {
    File,
    Block,
    Param { kernel: bool },
    Field,
    TypeName,
}

impl Checker<'_> {
    /// Resolves declaration specifiers to a base type and the other specifier info.
    pub(crate) fn resolve_specs(
        &mut self,
        specs: &syn::DeclSpecs,
        ctx: DeclCtx,
        typedef_name: Option<&str>,
    ) -> Option<(QualType, SpecInfo)> {
        let mut info = SpecInfo::default();
        let mut words: Vec<(&str, Span)> = Vec::new();
        let mut named: Option<(QualType, Span)> = None;
        let mut is_const = false;
        let mut is_volatile = false;
        let mut space: Option<AddrSpace> = None;
        let mut pipe: Option<Span> = None;
        let mut ok = true;
        // struct attributes can follow the closing brace: gather them first
        let mut raw_attrs = Vec::new();
        for s in &specs.items {
            if let syn::DeclSpec::Attr(a) = s {
                raw_attrs.push(a.clone());
            }
        }
        let (mut packed, mut aligned) = (false, 0u32);
        for a in &raw_attrs {
            match attr_base_name(&a.name) {
                "packed" => packed = true,
                "aligned" => aligned = aligned.max(self.aligned_value(a)),
                _ => {}
            }
        }
        for s in &specs.items {
            match s {
                syn::DeclSpec::Storage(st, sp) => {
                    if *st == syn::Storage::Inline {
                        info.is_inline = true;
                    } else if info.storage.is_some() {
                        self.err(*sp, "more than one storage class");
                    } else {
                        info.storage = Some((*st, *sp));
                    }
                }
                syn::DeclSpec::Qual(q, sp) => match q {
                    syn::Qual::Const => is_const = true,
                    syn::Qual::Volatile => is_volatile = true,
                    syn::Qual::Restrict => {
                        self.error(
                            Diagnostic::error(*sp, "`restrict` applies to pointers")
                                .note("write it after the `*`: `global int *restrict p`"),
                        );
                    }
                },
                syn::DeclSpec::AddrSpace(a, sp) => {
                    if let Some(old) = space {
                        if old != *a {
                            self.error(Diagnostic::error(
                                *sp,
                                "conflicting address space qualifiers",
                            ));
                            ok = false;
                        }
                    }
                    space = Some(*a);
                    info.space_span = Some(*sp);
                }
                syn::DeclSpec::Access(a, sp) => info.access = Some((*a, *sp)),
                syn::DeclSpec::Kernel(sp) => info.is_kernel = Some(*sp),
                syn::DeclSpec::Pipe(sp) => pipe = Some(*sp),
                syn::DeclSpec::TypeWord(w, sp) => words.push((w.as_str(), *sp)),
                syn::DeclSpec::TypedefName(n, sp) => {
                    if named.is_some() || !words.is_empty() {
                        self.err(*sp, "two types in one declaration");
                        ok = false;
                        continue;
                    }
                    match self.lookup(n) {
                        Some(Sym::Typedef(qt)) => named = Some((qt.clone(), *sp)),
                        _ => {
                            self.err(*sp, format!("unknown type name `{}`", n));
                            ok = false;
                        }
                    }
                }
                syn::DeclSpec::Struct(st) => {
                    if named.is_some() || !words.is_empty() {
                        self.err(st.span, "two types in one declaration");
                        ok = false;
                        continue;
                    }
                    match self.struct_spec(st, typedef_name, packed, aligned) {
                        Some(t) => named = Some((QualType::plain(t), st.span)),
                        None => ok = false,
                    }
                }
                syn::DeclSpec::Enum(e) => {
                    if named.is_some() || !words.is_empty() {
                        self.err(e.span, "two types in one declaration");
                        ok = false;
                        continue;
                    }
                    self.enum_spec(e);
                    named = Some((QualType::plain(Type::INT), e.span));
                }
                syn::DeclSpec::Attr(_) => {}
            }
        }
        info.attrs = self.convert_attrs(&raw_attrs);
        if !ok {
            return None;
        }
        let mut qt = if let Some((qt, sp)) = named {
            if !words.is_empty() {
                self.err(sp, "two types in one declaration");
                return None;
            }
            qt
        } else if words.is_empty() {
            let d = Diagnostic::error(specs.span, "missing type specifier")
                .note("C has no implicit int; write the type, e.g. `int`");
            self.error(d);
            return None;
        } else {
            QualType::plain(self.type_words(&words)?)
        };
        qt.is_const |= is_const;
        qt.is_volatile |= is_volatile;
        if let Some(s) = space {
            if qt.space.is_some_and(|old| old != s) {
                self.err(specs.span, "conflicting address space qualifiers");
                return None;
            }
            qt.space = Some(s);
        }
        let qt = self.pipe_or_plain(qt, pipe, &info, ctx)?;
        Some((qt, info))
    }

    /// The type of a declaration with a `pipe` specifier (`psp`), or `qt` itself; checks where
    /// pipes may be declared and the access qualifiers.
    fn pipe_or_plain(
        &mut self,
        qt: QualType,
        pipe: Option<Span>,
        info: &SpecInfo,
        ctx: DeclCtx,
    ) -> Option<QualType> {
        if let Some(psp) = pipe {
            // Program-scope pipes are the Xilinx dialect; `global_var` requires their
            // `xcl_reqd_pipe_depth` and `function_proto` rejects pipe return types.
            let program_scope = matches!(ctx, DeclCtx::File) && info.access.is_none();
            if !matches!(ctx, DeclCtx::Param { .. }) && !program_scope {
                self.error(
                    Diagnostic::error(psp, "pipes can only be declared as function parameters")
                        .note("declare `read_only pipe T p` / `write_only pipe T p` parameters of a kernel"),
                );
                return None;
            }
            let access = match info.access {
                // both ends are in kernels of this program
                None if program_scope => Access::ReadWrite,
                None => Access::ReadOnly,
                Some((Access::ReadWrite, asp)) => {
                    self.error(
                        Diagnostic::error(asp, "a pipe cannot be `read_write`")
                            .note("use `read_only` in the consumer kernel and `write_only` in the producer"),
                    );
                    return None;
                }
                Some((a, _)) => a,
            };
            if !self.is_packet_type(&qt.ty) {
                self.error(Diagnostic::error(
                    psp,
                    format!("`{}` cannot be a pipe packet type", self.type_name(&qt.ty)),
                ));
                return None;
            }
            return Some(QualType::plain(Type::Pipe {
                packet: Box::new(qt.ty),
                access,
            }));
        } else if let Some((_, asp)) = info.access {
            self.error(
                Diagnostic::error(asp, "access qualifiers apply only to pipes and images")
                    .note("remove `read_only`/`write_only`, or declare a `pipe` parameter"),
            );
            return None;
        }
        Some(qt)
    }

    fn is_packet_type(&self, t: &Type) -> bool {
        match t {
            Type::Scalar(k) => *k != ScalarKind::Bool,
            Type::Vector(..) => true,
            Type::Struct(id) => self.structs.get(*id).complete,
            _ => false,
        }
    }

    /// Combines built-in type words (`unsigned long int`, `float4`, `size_t`).
    fn type_words(&mut self, words: &[(&str, Span)]) -> Option<Type> {
        let span = words[0].1.to(words[words.len() - 1].1);
        let mut unsigned = 0;
        let mut signed = 0;
        let mut short = 0;
        let mut long = 0;
        let mut base: Option<&str> = None;
        for (w, sp) in words {
            match *w {
                "unsigned" => unsigned += 1,
                "signed" | "__signed" | "__signed__" => signed += 1,
                "short" => short += 1,
                "long" => long += 1,
                other => {
                    if base.is_some() {
                        self.error(
                            Diagnostic::error(
                                *sp,
                                format!(
                                    "`{}` cannot be combined with `{}`",
                                    other,
                                    base.unwrap_or("")
                                ),
                            )
                            .note("a declaration has exactly one type"),
                        );
                        return None;
                    }
                    base = Some(other);
                }
            }
        }
        let modifiers = unsigned + signed + short + long;
        if unsigned > 0 && signed > 0 || unsigned > 1 || signed > 1 || short > 0 && long > 0 {
            self.err(span, "invalid combination of type specifiers");
            return None;
        }
        if modifiers > 0 {
            let k = match (base, short, long) {
                (None | Some("int"), 1, 0) => ScalarKind::Short,
                (None | Some("int"), 0, l) if l >= 1 => ScalarKind::Long,
                (Some("char"), 0, 0) => ScalarKind::Char,
                (None | Some("int"), 0, 0) => ScalarKind::Int,
                (Some("double"), 0, 1) => {
                    self.unsupported(span, "`long double` is", "use `float`");
                    return None;
                }
                _ => {
                    self.error(
                        Diagnostic::error(span, "invalid combination of type specifiers").note(
                            "OpenCL spells unsigned types `uchar`, `ushort`, `uint`, `ulong`",
                        ),
                    );
                    return None;
                }
            };
            return Some(Type::Scalar(if unsigned > 0 { k.to_unsigned() } else { k }));
        }
        let w = base.expect("nonempty words");
        if let Some(k) = scalar_word(w) {
            return self.scalar_ok(k, span).then_some(Type::Scalar(k));
        }
        if let Some((k, n)) = vector_type(w) {
            return self.scalar_ok(k, span).then_some(Type::Vector(k, n));
        }
        Some(match w {
            "void" => Type::Void,
            "size_t" | "uintptr_t" | "cl_mem_fence_flags" => Type::UINT,
            "ptrdiff_t" | "intptr_t" => Type::INT,
            "event_t" => Type::Event,
            "reserve_id_t" => Type::ReserveId,
            "counter32_t" => Type::Counter32,
            "counter64_t" => Type::Counter64,
            "sampler_t" => {
                self.unsupported(
                    span,
                    "samplers are",
                    "images and samplers have no FPGA implementation; pass data in global buffers",
                );
                return None;
            }
            "memory_order" | "memory_scope" => Type::INT,
            w if w.starts_with("atomic_") => return self.atomic_type(w, span),
            "queue_t" | "clk_event_t" | "ndrange_t" => {
                self.unsupported(
                    span,
                    "device-side enqueue is",
                    "launch kernels from the host",
                );
                return None;
            }
            w if w.starts_with("image") => {
                self.unsupported(
                    span,
                    "images are",
                    "pass image data as a `global` buffer instead",
                );
                return None;
            }
            _ => {
                self.err(span, format!("unknown type `{}`", w));
                return None;
            }
        })
    }

    /// An OpenCL C 2.0 atomic type name (6.13.11.6). The 64-bit ones need both 64-bit atomics
    /// extensions enabled (the specification's footnote; clang requires the pragmas too).
    fn atomic_type(&mut self, w: &str, span: Span) -> Option<Type> {
        let a = match w {
            "atomic_int" | "atomic_intptr_t" | "atomic_ptrdiff_t" => AtomicKind::Int,
            "atomic_uint" | "atomic_uintptr_t" | "atomic_size_t" => AtomicKind::UInt,
            "atomic_long" => AtomicKind::Long,
            "atomic_ulong" => AtomicKind::ULong,
            "atomic_float" => AtomicKind::Float,
            "atomic_double" => AtomicKind::Double,
            "atomic_flag" => AtomicKind::Flag,
            _ => {
                self.err(span, format!("unknown type `{}`", w));
                return None;
            }
        };
        if a == AtomicKind::Double && !self.scalar_ok(ScalarKind::Double, span) {
            return None;
        }
        if a.is_64bit() {
            let missing: Vec<&str> = ["cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"]
                .into_iter()
                .filter(|e| !self.extensions.contains(*e) && !self.extensions.contains("all"))
                .collect();
            if !missing.is_empty() {
                let pragmas = missing
                    .iter()
                    .map(|e| format!("`#pragma OPENCL EXTENSION {} : enable`", e))
                    .collect::<Vec<_>>()
                    .join(" and ");
                self.error(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{}` needs the extension{} {} to be enabled",
                            w,
                            if missing.len() > 1 { "s" } else { "" },
                            missing.join(" and ")
                        ),
                    )
                    .note(format!("add {} at the top of the file", pragmas)),
                );
                return None;
            }
        }
        Some(Type::Atomic(a))
    }

    fn scalar_ok(&mut self, k: ScalarKind, span: Span) -> bool {
        if k == ScalarKind::Double && !self.fp64 {
            self.error(
                Diagnostic::error(span, "`double` is not supported by this device")
                    .note("the device has no cl_khr_fp64; use `float`"),
            );
            return false;
        }
        true
    }

    /// Resolves a type name (casts, sizeof, attribute arguments).
    pub(crate) fn resolve_type_name(&mut self, t: &syn::TypeName) -> Option<QualType> {
        let (base, info) = self.resolve_specs(&t.specs, DeclCtx::TypeName, None)?;
        if let Some((_, s)) = info.storage {
            self.err(s, "storage class in a type name");
        }
        let (_, qt, _) = self.apply_declarator(&t.declarator, base, DeclCtx::TypeName)?;
        Some(qt)
    }
}
