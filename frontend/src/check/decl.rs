//! Declarations: specifiers -> types, declarators, structs/enums, functions, variables and
//! attributes.

use super::{Checker, FnCtx, FuncDecl, QualType, Sym, Tag};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::parser::{scalar_word, vector_type};
use crate::span::Span;
use crate::syntax as syn;
use crate::types::{Field, StructDef};

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

/// A checked parameter: name, type, specifier info, span of the whole parameter.
/// The last field is `true` when the parameter's type could not be resolved (already
/// reported); such parameters are declared as poisoned names.
type ParamInfo = (Option<(String, Span)>, QualType, SpecInfo, Span, bool);

/// Where a declaration appears (affects defaults and what is allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclCtx {
    File,
    Block,
    Param { kernel: bool },
    Field,
    TypeName,
}

/// Attribute names that are understood or deliberately passed through without a warning.
const KNOWN_ATTRS: &[&str] = &[
    "reqd_work_group_size",
    "local_mem_size",
    "work_group_size_hint",
    "vec_type_hint",
    "intel_reqd_sub_group_size",
    "max_work_group_size",
    "max_global_work_dim",
    "num_compute_units",
    "num_simd_work_items",
    "uses_global_work_offset",
    "xcl_dataflow",
    "xcl_pipeline_workitems",
    "xcl_pipeline_loop",
    "xcl_loop_tripcount",
    "xcl_array_partition",
    "xcl_array_reshape",
    "xcl_reqd_pipe_depth",
    "xcl_zero_global_work_offset",
    "xcl_max_work_group_size",
    "opencl_unroll_hint",
    "aligned",
    "packed",
    "nosvm",
    "endian",
    "always_inline",
    "noinline",
    "unused",
    "used",
    "const",
    "pure",
    "depth",
    "register",
    "memory",
    "numbanks",
    "bankwidth",
    "singlepump",
    "doublepump",
    "max_concurrency",
    "ivdep",
    "autorun",
    "task",
    "scheduler_target_fmax_mhz",
    "stall_free",
    "max_replicates",
    "private_copies",
    "merge",
    "bank_bits",
    "force_pow2_depth",
    "io",
    "blocking",
    "speculated_iterations",
    "disable_loop_pipelining",
    "max_interleaving",
    "loop_coalesce",
    "ii",
    "nofusion",
    "xcl_latency",
    "xcl_single_workitem",
    "noduplicate",
    "convergent",
    "overloadable",
];

fn attr_base_name(n: &str) -> &str {
    n.strip_prefix("__")
        .and_then(|n| n.strip_suffix("__"))
        .unwrap_or(n)
}

impl Checker<'_> {
    // ---------------------------------------------------------------- attributes

    pub(crate) fn convert_attrs(&mut self, attrs: &[syn::Attr]) -> Vec<Attribute> {
        let mut out = Vec::new();
        for a in attrs {
            let name = attr_base_name(&a.name).to_string();
            if !KNOWN_ATTRS.contains(&name.as_str()) {
                self.warn(
                    Diagnostic::warning(a.span, format!("unknown attribute `{}` ignored", name))
                        .note("check the spelling; OpenCL attributes include reqd_work_group_size, opencl_unroll_hint, aligned, packed"),
                );
            }
            let mut args = Vec::new();
            for arg in &a.args {
                match arg {
                    syn::AttrArgSyn::Type(t) => {
                        if let Some(qt) = self.resolve_type_name(t) {
                            args.push(AttrArg::Type(qt.ty));
                        }
                    }
                    syn::AttrArgSyn::Expr(e) => match &e.kind {
                        syn::ExprKind::Ident(n) if self.lookup(n).is_none() => {
                            args.push(AttrArg::Ident(n.clone()))
                        }
                        syn::ExprKind::StrLit(s) => args.push(AttrArg::Str(s.clone())),
                        _ => {
                            if let Some(v) = self.const_int(e, "attribute argument") {
                                args.push(AttrArg::Int(v));
                            }
                        }
                    },
                }
            }
            out.push(Attribute {
                name,
                args,
                span: a.span,
            });
        }
        out
    }

    /// Validates kernel/function attributes that have a fixed shape.
    fn validate_fn_attrs(&mut self, attrs: &[Attribute], is_kernel: bool) {
        for a in attrs {
            match a.name.as_str() {
                "reqd_work_group_size"
                | "work_group_size_hint"
                | "xcl_max_work_group_size"
                | "max_work_group_size" => {
                    let ok = a.int_args().is_some_and(|v| {
                        (a.name == "max_work_group_size" && v.len() == 1 || v.len() == 3)
                            && v.iter().all(|x| *x > 0 && *x <= u32::MAX as u64)
                    }) || (a.name == "xcl_max_work_group_size"
                        && a.int_args().is_some_and(|v| !v.is_empty()));
                    if !ok {
                        self.error(
                            Diagnostic::error(
                                a.span,
                                format!("`{}` needs three positive integer constants", a.name),
                            )
                            .note(format!("write `__attribute__(({}(64, 1, 1)))`", a.name)),
                        );
                    }
                    if !is_kernel {
                        self.error(Diagnostic::error(
                            a.span,
                            format!("`{}` only applies to kernel functions", a.name),
                        ));
                    }
                }
                "vec_type_hint" if !matches!(a.args.as_slice(), [AttrArg::Type(t)] if t.is_arithmetic()) =>
                {
                    self.error(
                        Diagnostic::error(a.span, "`vec_type_hint` needs a scalar or vector type")
                            .note("write `__attribute__((vec_type_hint(float4)))`"),
                    );
                }
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- specifiers

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
            qt = QualType::plain(Type::Pipe {
                packet: Box::new(qt.ty),
                access,
            });
        } else if let Some((_, asp)) = info.access {
            self.error(
                Diagnostic::error(asp, "access qualifiers apply only to pipes and images")
                    .note("remove `read_only`/`write_only`, or declare a `pipe` parameter"),
            );
            return None;
        }
        Some((qt, info))
    }

    fn is_packet_type(&self, t: &Type) -> bool {
        match t {
            Type::Scalar(k) => *k != ScalarKind::Bool,
            Type::Vector(..) => true,
            Type::Struct(id) => self.structs.get(*id).complete,
            _ => false,
        }
    }

    fn aligned_value(&mut self, a: &syn::Attr) -> u32 {
        match a.args.first() {
            None => 16,
            Some(syn::AttrArgSyn::Expr(e)) => match self.const_int(e, "alignment") {
                Some(v) if v.is_power_of_two() && v <= 1 << 16 => v as u32,
                Some(_) => {
                    self.err(a.span, "alignment must be a power of two");
                    1
                }
                None => 1,
            },
            Some(_) => 1,
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
            w if w.starts_with("atomic_") || w.starts_with("memory_") => {
                self.unsupported(
                    span,
                    "C11 atomic types are",
                    "use `volatile global int *` with `atomic_add`, `atomic_inc`, `atomic_cmpxchg`",
                );
                return None;
            }
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

    // ---------------------------------------------------------------- structs and enums

    fn struct_spec(
        &mut self,
        st: &syn::StructSpec,
        typedef_name: Option<&str>,
        packed: bool,
        aligned: u32,
    ) -> Option<Type> {
        let kw = if st.is_union { "union" } else { "struct" };
        let mut packed = packed;
        let mut aligned = aligned;
        for a in &st.attrs {
            match attr_base_name(&a.name) {
                "packed" => packed = true,
                "aligned" => aligned = aligned.max(self.aligned_value(a)),
                _ => {}
            }
        }
        let Some(fields) = &st.fields else {
            // reference: `struct S`
            let (name, nsp) = st.name.as_ref().expect("grammar: reference has a name");
            return match self.lookup_tag(name) {
                Some(Tag::Struct(id, u)) => {
                    if u != st.is_union {
                        self.err(
                            *nsp,
                            format!(
                                "`{}` was declared as a {}",
                                name,
                                if u { "union" } else { "struct" }
                            ),
                        );
                        return None;
                    }
                    Some(Type::Struct(id))
                }
                Some(Tag::Enum) => {
                    self.err(*nsp, format!("`{}` is an enum, not a {}", name, kw));
                    None
                }
                None => {
                    // forward declaration
                    let id = self.new_struct(Some(name.clone()), st.is_union, st.span);
                    self.tags
                        .last_mut()
                        .expect("scope")
                        .insert(name.clone(), super::Tag::Struct(id, st.is_union));
                    Some(Type::Struct(id))
                }
            };
        };
        // definition
        let id = match &st.name {
            Some((name, nsp)) => {
                let existing = self.tags.last().and_then(|t| t.get(name)).copied();
                match existing {
                    Some(Tag::Struct(id, u))
                        if u == st.is_union && !self.structs.get(id).complete =>
                    {
                        id
                    }
                    Some(_) => {
                        self.err(*nsp, format!("redefinition of `{} {}`", kw, name));
                        return None;
                    }
                    None => {
                        let id = self.new_struct(Some(name.clone()), st.is_union, st.span);
                        self.tags
                            .last_mut()
                            .expect("scope")
                            .insert(name.clone(), Tag::Struct(id, st.is_union));
                        id
                    }
                }
            }
            None => self.new_struct(typedef_name.map(str::to_string), st.is_union, st.span),
        };
        let mut out: Vec<Field> = Vec::new();
        let errors_before = self.diags.iter().filter(|d| d.is_error()).count();
        for f in fields {
            let Some((base, _)) = self.resolve_specs(&f.specs, super::decl::DeclCtx::Field, None)
            else {
                continue;
            };
            if f.declarators.is_empty() {
                // anonymous struct/union member: flatten its fields
                if let Type::Struct(_) = base.ty {
                    self.error(
                        Diagnostic::error(
                            f.span,
                            "anonymous struct and union members are not supported",
                        )
                        .note("give the member a name"),
                    );
                    continue;
                }
                self.warn(Diagnostic::warning(
                    f.span,
                    "declaration does not declare a field",
                ));
                continue;
            }
            for d in &f.declarators {
                if let Some(b) = &d.bits {
                    self.unsupported(
                        b.span,
                        "bit-fields are",
                        "use a full integer field and shifts/masks",
                    );
                    continue;
                }
                let Some(decl) = &d.declarator else { continue };
                let Some((name, qt, fparams)) =
                    self.apply_declarator(decl, base.clone(), DeclCtx::Field)
                else {
                    continue;
                };
                let Some((name, nsp)) = name else { continue };
                if fparams.is_some() {
                    self.unsupported(nsp, "function members are", "");
                    continue;
                }
                if !self.complete_object_type(&qt.ty, nsp, "a field") {
                    continue;
                }
                if let Some(what) = opaque_type_name(&qt.ty).filter(|_| qt.ty != Type::ReserveId) {
                    // clang accepts `reserve_id_t` fields (OpenCL C does not forbid them).
                    self.error(
                        Diagnostic::error(
                            nsp,
                            format!("a struct or union field cannot have type `{}`", what),
                        )
                        .note("keep it in its own variable (or parameter)"),
                    );
                    continue;
                }
                if matches!(qt.ty, Type::Struct(sid) if sid == id) {
                    self.err(
                        nsp,
                        format!(
                            "field `{}` has the type of the struct that contains it",
                            name
                        ),
                    );
                    continue;
                }
                if let Some(prev) = out.iter().find(|f| f.name == name) {
                    let ps = prev.span;
                    self.error(
                        Diagnostic::error(nsp, format!("duplicate field `{}`", name))
                            .label(ps, "first declared here"),
                    );
                    continue;
                }
                if qt.space.is_some() {
                    self.err(nsp, "struct fields cannot have an address space qualifier");
                }
                out.push(Field {
                    name,
                    ty: qt.ty,
                    offset: 0,
                    span: nsp,
                });
            }
        }
        let field_errors = self.diags.iter().filter(|d| d.is_error()).count() > errors_before;
        if out.is_empty() && !field_errors {
            self.warn(Diagnostic::warning(st.span, format!("empty {}", kw)));
        }
        self.structs.structs[id.0 as usize].fields = out;
        self.structs.layout(id, packed, aligned);
        Some(Type::Struct(id))
    }

    fn new_struct(&mut self, name: Option<String>, is_union: bool, span: Span) -> StructId {
        self.structs.structs.push(StructDef {
            name,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
            packed: false,
            span,
        });
        StructId(self.structs.structs.len() as u32 - 1)
    }

    fn enum_spec(&mut self, e: &syn::EnumSpec) {
        if let Some((name, nsp)) = &e.name {
            if e.items.is_some() {
                if self.tags.last().is_some_and(|t| t.contains_key(name)) {
                    self.err(*nsp, format!("redefinition of `enum {}`", name));
                }
                self.tags
                    .last_mut()
                    .expect("scope")
                    .insert(name.clone(), Tag::Enum);
            } else if !matches!(self.lookup_tag(name), Some(Tag::Enum)) {
                self.err(*nsp, format!("unknown enum `{}`", name));
            }
        }
        let Some(items) = &e.items else { return };
        let mut next: i64 = 0;
        for it in items {
            if let Some(v) = &it.value {
                if let Some(x) = self.const_int(v, "enumerator value") {
                    next = x as i64;
                }
            }
            if next < i32::MIN as i64 || next > i32::MAX as i64 {
                self.err(it.span, "enumerator value does not fit in `int`");
            }
            let v = ScalarKind::Int.truncate(next as u64);
            self.declare(&it.name, Sym::EnumConst(v), it.span);
            next = next.wrapping_add(1);
        }
    }

    // ---------------------------------------------------------------- declarators

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
    fn apply_decl_inner<'d>(
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
    fn apply_decl_step<'d>(
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

    /// Resolves a type name (casts, sizeof, attribute arguments).
    pub(crate) fn resolve_type_name(&mut self, t: &syn::TypeName) -> Option<QualType> {
        let (base, info) = self.resolve_specs(&t.specs, DeclCtx::TypeName, None)?;
        if let Some((_, s)) = info.storage {
            self.err(s, "storage class in a type name");
        }
        let (_, qt, _) = self.apply_declarator(&t.declarator, base, DeclCtx::TypeName)?;
        Some(qt)
    }

    // ---------------------------------------------------------------- file scope

    pub(crate) fn file_declaration(&mut self, d: &syn::Declaration) {
        if d.is_typedef {
            self.typedef_decl(d);
            return;
        }
        let Some((base, info)) = self.resolve_specs(&d.specs, DeclCtx::File, None) else {
            return;
        };
        for id in &d.declarators {
            let Some((name, qt, fparams)) =
                self.apply_declarator(&id.declarator, base.clone(), DeclCtx::File)
            else {
                continue;
            };
            let Some((name, nsp)) = name else { continue };
            if let Some((params, variadic, fsp)) = fparams {
                // prototype
                if id.init.is_some() {
                    self.err(nsp, "a function declaration cannot have an initialiser");
                }
                self.function_proto(&name, nsp, &qt, &info, params, variadic, fsp, false);
                continue;
            }
            if let Some(k) = info.is_kernel {
                self.err(k, "`kernel` applies only to functions");
                continue;
            }
            self.global_var(&name, nsp, qt, &info, id);
        }
    }

    fn typedef_decl(&mut self, d: &syn::Declaration) {
        let tname = d
            .declarators
            .first()
            .and_then(|x| x.declarator.name())
            .map(|n| n.0.to_string());
        let Some((base, info)) = self.resolve_specs(&d.specs, DeclCtx::TypeName, tname.as_deref())
        else {
            return;
        };
        if let Some(k) = info.is_kernel {
            self.err(k, "`kernel` in a typedef");
        }
        for id in &d.declarators {
            let Some((name, qt, fparams)) =
                self.apply_declarator(&id.declarator, base.clone(), DeclCtx::TypeName)
            else {
                continue;
            };
            let Some((name, nsp)) = name else { continue };
            if fparams.is_some() {
                self.unsupported(nsp, "function typedefs are", "");
                continue;
            }
            self.declare(&name, Sym::Typedef(qt), nsp);
        }
    }

    fn global_var(
        &mut self,
        name: &str,
        nsp: Span,
        qt: QualType,
        info: &SpecInfo,
        id: &syn::InitDeclarator,
    ) {
        if let Some((st, s)) = info.storage {
            if st == syn::Storage::Extern {
                self.unsupported(
                    s,
                    "`extern` variables are",
                    "define the variable in this file",
                );
                return;
            }
        }
        let space = match qt.space {
            Some(AddrSpace::Constant) => AddrSpace::Constant,
            // read-only program-scope data needs no writable memory
            None if qt.is_const => AddrSpace::Constant,
            Some(AddrSpace::Global) | None => AddrSpace::Global,
            Some(s @ (AddrSpace::Local | AddrSpace::Private | AddrSpace::Generic)) => {
                self.error(
                    Diagnostic::error(nsp, format!("program-scope variable `{}` cannot be in the `{}` address space", name, s))
                        .note("program-scope variables are `constant` (or `global`); `local` variables belong inside a kernel"),
                );
                return;
            }
        };
        let mut ty = qt.ty.clone();
        let init = match &id.init {
            Some(i) => {
                let Some((t, init)) = self.check_initializer(i, &ty) else {
                    return;
                };
                ty = t;
                Some(init)
            }
            None => None,
        };
        if !self.complete_object_type(&ty, nsp, &format!("variable `{}`", name)) {
            return;
        }
        if space == AddrSpace::Constant && init.is_none() {
            self.error(
                Diagnostic::error(nsp, format!("`constant` variable `{}` must be initialised", name))
                    .note("program-scope `constant` data is fixed at compile time; give it an initialiser"),
            );
        }
        let attrs = {
            let mut a = info.attrs.clone();
            a.extend(self.convert_attrs(&id.attrs));
            a
        };
        if let Type::Pipe { .. } = ty {
            if !attrs.iter().any(|a| a.name == "xcl_reqd_pipe_depth") {
                self.error(
                    Diagnostic::error(nsp, "pipes can only be declared as function parameters")
                        .note("declare `read_only pipe T p` / `write_only pipe T p` kernel parameters, or (Xilinx dialect) give a program-scope pipe `__attribute__((xcl_reqd_pipe_depth(N)))`"),
                );
                return;
            }
            if init.is_some() {
                self.err(nsp, "a pipe cannot be initialised");
                return;
            }
        }
        if let Some(what) = opaque_type_name(&ty) {
            self.error(
                Diagnostic::error(
                    nsp,
                    format!("`{}` cannot be declared at program scope", what),
                )
                .note(match ty {
                    Type::Counter32 | Type::Counter64 => {
                        "atomic counters are kernel arguments set by the host"
                    }
                    _ => "declare it inside the function that uses it",
                }),
            );
            return;
        }
        self.globals.push(GlobalVar {
            name: name.to_string(),
            ty,
            space,
            span: nsp,
            is_const: qt.is_const || space == AddrSpace::Constant,
            init,
            attrs,
        });
        let g = self.globals.len() as u32 - 1;
        self.declare(name, Sym::Global(g), nsp);
    }

    // ---------------------------------------------------------------- functions

    /// Records a function declaration (prototype or the head of a definition). Returns the
    /// parameter types.
    #[allow(clippy::too_many_arguments)]
    fn function_proto(
        &mut self,
        name: &str,
        nsp: Span,
        ret: &QualType,
        info: &SpecInfo,
        params: &[syn::ParamDecl],
        variadic: bool,
        fsp: Span,
        defining: bool,
    ) -> Option<Vec<ParamInfo>> {
        let is_kernel = info.is_kernel.is_some();
        if let Some((st, s)) = info.storage {
            if st == syn::Storage::Extern && defining {
                self.warn(Diagnostic::warning(
                    s,
                    "`extern` on a function definition is ignored",
                ));
            }
        }
        if variadic {
            self.unsupported(fsp, "variadic functions are", "");
            return None;
        }
        if matches!(ret.ty, Type::Pipe { .. }) {
            self.error(
                Diagnostic::error(nsp, "pipes can only be declared as function parameters")
                    .note("a function cannot return a pipe; pass it as an argument"),
            );
            return None;
        }
        if matches!(ret.ty, Type::Counter32 | Type::Counter64) {
            let t = self.type_name(&ret.ty);
            self.error(
                Diagnostic::error(nsp, format!("function `{}` cannot return `{}`", name, t)).note(
                    "atomic counters cannot be copied; pass the counter as an argument instead",
                ),
            );
            return None;
        }
        // parameters
        let mut ps = Vec::new();
        let void_list = params.len() == 1
            && matches!(params[0].declarator, syn::Declarator::Abstract(_))
            && params[0].specs.items.len() == 1
            && matches!(&params[0].specs.items[0], syn::DeclSpec::TypeWord(w, _) if w == "void");
        if !void_list {
            for p in params {
                let ctx = DeclCtx::Param { kernel: is_kernel };
                let resolved = self
                    .resolve_specs(&p.specs, ctx, None)
                    .and_then(|(base, pinfo)| {
                        let (pname, qt, pf) = self.apply_declarator(&p.declarator, base, ctx)?;
                        if pf.is_some() {
                            self.unsupported(p.span, "function pointers are", "");
                            return None;
                        }
                        Some((pname, qt, pinfo))
                    });
                let Some((pname, mut qt, pinfo)) = resolved else {
                    let pname = p.declarator.name().map(|(n, s)| (n.to_string(), s));
                    let qt = QualType::plain(Type::INT);
                    ps.push((pname, qt, SpecInfo::default(), p.span, true));
                    continue;
                };
                // arrays decay to pointers
                if let Type::Array(e, _) = qt.ty {
                    qt = QualType {
                        ty: Type::Pointer {
                            pointee: e,
                            space: qt.space.unwrap_or(AddrSpace::Generic),
                            is_const: qt.is_const,
                            is_volatile: qt.is_volatile,
                            is_restrict: false,
                        },
                        space: None,
                        is_const: false,
                        is_volatile: false,
                    };
                }
                if let Some((st, s)) = pinfo.storage {
                    if st != syn::Storage::Register {
                        self.err(s, "invalid storage class for a parameter");
                    }
                }
                let mut pinfo = pinfo;
                let extra = self.convert_attrs(&p.attrs);
                pinfo.attrs.extend(extra);
                ps.push((pname, qt, pinfo, p.span, false));
            }
        }
        if is_kernel {
            if !ret.ty.is_void() {
                self.error(
                    Diagnostic::error(nsp, format!("kernel `{}` must return `void`", name))
                        .note("kernels return results through `global` pointer arguments"),
                );
            }
            for (pn, qt, _, psp, _) in ps.iter().filter(|p| !p.4) {
                let sp = pn.as_ref().map_or(*psp, |p| p.1);
                self.check_kernel_param(&qt.ty, qt.space, sp);
            }
        } else {
            for (pn, qt, _, psp, _) in ps.iter().filter(|p| !p.4) {
                let sp = pn.as_ref().map_or(*psp, |p| p.1);
                if matches!(
                    qt.space,
                    Some(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local)
                ) && !qt.ty.is_pointer()
                {
                    self.error(
                        Diagnostic::error(sp, "parameters are private; an address space qualifier belongs to a pointee")
                            .note("write `global int *p` for a pointer to global memory"),
                    );
                }
            }
        }
        for (pn, qt, _, psp, _) in ps.iter().filter(|p| !p.4) {
            let sp = pn.as_ref().map_or(*psp, |p| p.1);
            if !matches!(qt.ty, Type::Pipe { .. }) {
                self.complete_object_type(&qt.ty, sp, "a parameter");
            }
        }
        if ret.ty.is_array() {
            self.err(nsp, "functions cannot return arrays");
        }
        if matches!(
            ret.ty,
            Type::Scalar(ScalarKind::Half) | Type::Vector(ScalarKind::Half, _)
        ) {
            self.err(nsp, "functions cannot return `half`");
        }
        let ptypes: Vec<Type> = ps.iter().map(|p| p.1.ty.clone()).collect();
        let decl = FuncDecl {
            id: self.func_ids.get(name).copied(),
            ret: ret.ty.clone(),
            params: ptypes,
            is_kernel,
            span: nsp,
            defined: false,
            poisoned: ps.iter().any(|p| p.4),
        };
        if let Some(old) = self.funcs.get(name) {
            if old.ret != decl.ret || old.params != decl.params || old.is_kernel != decl.is_kernel {
                let ospan = old.span;
                self.error(
                    Diagnostic::error(nsp, format!("conflicting declarations of `{}`", name))
                        .label(ospan, "previous declaration"),
                );
                return None;
            }
            if old.defined && defining {
                let ospan = old.span;
                self.error(
                    Diagnostic::error(nsp, format!("redefinition of function `{}`", name))
                        .label(ospan, "first defined here"),
                );
                return None;
            }
            let defined = old.defined;
            let mut d = decl;
            d.defined = defined || defining;
            self.funcs.insert(name.to_string(), d);
        } else {
            // A user function may reuse a built-in's name (`kernel void dot(...)`); calls then
            // resolve to the user function, which shadows every overload of the built-in.
            let mut d = decl;
            d.defined = defining;
            self.funcs.insert(name.to_string(), d);
            if self.scopes.len() == 1 {
                self.declare(name, Sym::Func(name.to_string()), nsp);
            }
        }
        Some(ps)
    }

    fn check_kernel_param(&mut self, t: &Type, space: Option<AddrSpace>, sp: Span) {
        match t {
            Type::Pointer {
                pointee, space: ps, ..
            } => {
                if !matches!(
                    ps,
                    AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
                ) {
                    self.error(
                        Diagnostic::error(sp, "kernel pointer arguments must point to `global`, `constant` or `local` memory")
                            .note("add an address space: `global int *p`"),
                    );
                }
                if pointee.is_pointer() {
                    self.err(sp, "kernel arguments cannot be pointers to pointers");
                }
            }
            Type::Scalar(ScalarKind::Bool) => {
                self.error(
                    Diagnostic::error(sp, "kernel arguments cannot be `bool`")
                        .note("the host and device may represent bool differently; pass an `int` or `uchar`"),
                );
            }
            Type::Scalar(ScalarKind::Half) => {
                self.err(sp, "kernel arguments cannot be `half`");
            }
            Type::Event | Type::ReserveId => {
                self.error(
                    Diagnostic::error(sp, format!("kernel arguments cannot be of type `{}`", t))
                        .note("the host cannot pass it; declare the variable inside the kernel"),
                );
            }
            Type::Struct(id) if self.struct_has_pointer(*id) => {
                self.error(
                    Diagnostic::error(sp, "kernel struct arguments cannot contain pointers")
                        .note("pass each buffer as its own `global` pointer argument"),
                );
            }
            _ => {}
        }
        if let Some(s) = space {
            if !t.is_pointer() && !matches!(t, Type::Pipe { .. }) {
                self.error(
                    Diagnostic::error(
                        sp,
                        format!(
                            "a by-value kernel argument cannot be in the `{}` address space",
                            s
                        ),
                    )
                    .note("address spaces apply to what a pointer argument points to"),
                );
            }
        }
    }

    fn struct_has_pointer(&self, id: StructId) -> bool {
        fn has(st: &StructTable, t: &Type, depth: u32) -> bool {
            if depth > 64 {
                return false;
            }
            match t {
                Type::Pointer { .. } => true,
                Type::Array(e, _) => has(st, e, depth + 1),
                Type::Struct(id) => st.get(*id).fields.iter().any(|f| has(st, &f.ty, depth + 1)),
                _ => false,
            }
        }
        has(&self.structs, &Type::Struct(id), 0)
    }

    pub(crate) fn function_def(&mut self, f: &syn::FuncDef) {
        let Some((base, mut info)) = self.resolve_specs(&f.specs, DeclCtx::File, None) else {
            return;
        };
        let Some((name, ret, fparams)) = self.apply_declarator(&f.declarator, base, DeclCtx::File)
        else {
            return;
        };
        let (Some((name, nsp)), Some((params, variadic, fsp))) = (name, fparams) else {
            self.err(
                f.declarator.span(),
                "expected a function declarator before the body",
            );
            return;
        };
        info.attrs.extend(self.convert_attrs(&f.attrs));
        let Some(ps) = self.function_proto(&name, nsp, &ret, &info, params, variadic, fsp, true)
        else {
            return;
        };
        let Some(&id) = self.func_ids.get(&name) else {
            return;
        };
        if self.functions[id.0 as usize].is_some() {
            return;
        }
        let is_kernel = info.is_kernel.is_some();
        self.validate_fn_attrs(&info.attrs, is_kernel);
        self.push_scope();
        let mut pids = Vec::new();
        for (pn, qt, pinfo, psp, failed) in ps {
            let (pname, pspan) = match pn {
                Some(p) => p,
                None => {
                    self.error(
                        Diagnostic::error(psp, "parameter name omitted")
                            .note("every parameter of a function definition needs a name"),
                    );
                    (String::new(), psp)
                }
            };
            let access = match &qt.ty {
                Type::Pipe { access, .. } => Some(*access),
                _ => None,
            };
            let vid = self.new_var(VarInfo {
                name: pname.clone(),
                ty: qt.ty.clone(),
                space: AddrSpace::Private,
                span: pspan,
                is_param: true,
                is_const: qt.is_const,
                is_volatile: qt.is_volatile,
                access,
                attrs: pinfo.attrs,
                func: Some(id),
            });
            if failed {
                self.declare(&pname, Sym::Poison, pspan);
            } else if !pname.is_empty() {
                self.declare(&pname, Sym::Var(vid), pspan);
            }
            pids.push(vid);
        }
        let errors_before = self.diags.iter().filter(|d| d.is_error()).count();
        self.cur = Some(FnCtx {
            id,
            name: name.clone(),
            ret: ret.ty.clone(),
            is_kernel,
            loops: 0,
            breakables: 0,
        });
        // The body shares the parameters' scope (C: a redeclaration of a parameter in the
        // outermost block is an error).
        let body = match &f.body.kind {
            syn::StmtKind::Compound(items) => {
                let stmts = self.block_items(items);
                Block {
                    stmts,
                    span: f.body.span,
                }
            }
            _ => Block {
                stmts: Vec::new(),
                span: f.body.span,
            },
        };
        self.cur = None;
        self.pop_scope();
        // An argument that failed to check leaves no trace in the body; linting it would
        // report consequences of that error.
        if self.diags.iter().filter(|d| d.is_error()).count() == errors_before {
            let lints = super::lint::lint_function(&body, &self.vars);
            self.diags.extend(lints);
        }
        if !ret.ty.is_void() && !super::stmt::always_returns_block(&body.stmts) {
            self.warn(
                Diagnostic::warning(
                    Span::new(
                        f.body.span.file,
                        f.body.span.end.saturating_sub(1),
                        f.body.span.end,
                    ),
                    format!("control can reach the end of non-void function `{}`", name),
                )
                .note("the returned value is undefined on that path; add a `return`"),
            );
        }
        self.functions[id.0 as usize] = Some(Function {
            name,
            span: nsp,
            is_kernel,
            ret: ret.ty,
            params: pids,
            body,
            attrs: info.attrs,
        });
    }

    // ---------------------------------------------------------------- block scope

    /// A declaration inside a function: returns one `Decl` statement per declarator.
    pub(crate) fn local_declaration(
        &mut self,
        d: &syn::Declaration,
        extra_attrs: &[syn::Attr],
    ) -> Vec<Stmt> {
        if d.is_typedef {
            self.typedef_decl(d);
            return Vec::new();
        }
        let Some((base, mut info)) = self.resolve_specs(&d.specs, DeclCtx::Block, None) else {
            self.poison_names(d);
            return Vec::new();
        };
        info.attrs.extend(self.convert_attrs(extra_attrs));
        if let Some(k) = info.is_kernel {
            self.err(
                k,
                "`kernel` applies only to function definitions at file scope",
            );
            return Vec::new();
        }
        let mut out = Vec::new();
        for id in &d.declarators {
            let Some((name, qt, fparams)) =
                self.apply_declarator(&id.declarator, base.clone(), DeclCtx::Block)
            else {
                if let Some((n, s)) = id.declarator.name() {
                    let n = n.to_string();
                    self.declare(&n, Sym::Poison, s);
                }
                continue;
            };
            let Some((name, nsp)) = name else { continue };
            if let Some((params, variadic, fsp)) = fparams {
                self.function_proto(&name, nsp, &qt, &info, params, variadic, fsp, false);
                continue;
            }
            match self.local_var(&name, nsp, qt, &info, id, d.span) {
                Some(s) => out.push(s),
                None => {
                    if !self.scopes.last().is_some_and(|s| s.contains_key(&name)) {
                        self.declare(&name, Sym::Poison, nsp);
                    }
                }
            }
        }
        out
    }

    /// Declares the names of a declaration whose type failed, so that their uses do not
    /// report "undeclared identifier" on top of the real error.
    fn poison_names(&mut self, d: &syn::Declaration) {
        for id in &d.declarators {
            if let Some((n, s)) = id.declarator.name() {
                let n = n.to_string();
                self.declare(&n, Sym::Poison, s);
            }
        }
    }

    fn local_var(
        &mut self,
        name: &str,
        nsp: Span,
        qt: QualType,
        info: &SpecInfo,
        id: &syn::InitDeclarator,
        dspan: Span,
    ) -> Option<Stmt> {
        let is_kernel = self.cur.as_ref().is_some_and(|c| c.is_kernel);
        if let Some((st, s)) = info.storage {
            match st {
                syn::Storage::Static => {
                    self.unsupported(
                        s,
                        "`static` local variables are",
                        "use a `local` variable in the kernel or a kernel argument",
                    );
                    return None;
                }
                syn::Storage::Extern => {
                    self.unsupported(s, "`extern` declarations are", "");
                    return None;
                }
                _ => {}
            }
        }
        let mut attrs = info.attrs.clone();
        attrs.extend(self.convert_attrs(&id.attrs));
        let space = qt.space.unwrap_or(AddrSpace::Private);
        match space {
            AddrSpace::Global => {
                self.error(
                    Diagnostic::error(
                        nsp,
                        "variables inside a function cannot be in the `global` address space",
                    )
                    .note(
                        "use a `global` pointer argument, or declare the variable at program scope",
                    ),
                );
                return None;
            }
            AddrSpace::Generic => {
                self.err(nsp, "variables cannot be in the `generic` address space");
                return None;
            }
            AddrSpace::Local => {
                if !is_kernel {
                    self.error(
                        Diagnostic::error(
                            nsp,
                            "`local` variables can only be declared in a kernel function",
                        )
                        .note(
                            "declare it in the kernel and pass a `local` pointer to this function",
                        ),
                    );
                    return None;
                }
                if let Some(i) = &id.init {
                    self.error(
                        Diagnostic::error(i.span(), "`local` variables cannot be initialised")
                            .note("assign the initial value in the kernel body, then use `barrier(CLK_LOCAL_MEM_FENCE)`"),
                    );
                    return None;
                }
            }
            AddrSpace::Constant => {
                // Kernel-scope `constant` data: a program-scope constant only visible here.
                let mut ty = qt.ty.clone();
                let Some(i) = &id.init else {
                    self.error(
                        Diagnostic::error(
                            nsp,
                            format!("`constant` variable `{}` must be initialised", name),
                        )
                        .note("`constant` data is fixed at compile time"),
                    );
                    return None;
                };
                let (t, init) = self.check_initializer(i, &ty)?;
                ty = t;
                if !self.complete_object_type(&ty, nsp, &format!("variable `{}`", name)) {
                    return None;
                }
                self.globals.push(GlobalVar {
                    name: name.to_string(),
                    ty,
                    space: AddrSpace::Constant,
                    span: nsp,
                    is_const: true,
                    init: Some(init),
                    attrs,
                });
                let g = self.globals.len() as u32 - 1;
                self.declare(name, Sym::Global(g), nsp);
                return None;
            }
            AddrSpace::Private => {}
        }
        let mut ty = qt.ty.clone();
        if matches!(ty, Type::Pipe { .. }) {
            self.err(nsp, "pipes can only be kernel parameters");
            return None;
        }
        if matches!(ty, Type::Counter32 | Type::Counter64) {
            self.error(
                Diagnostic::error(nsp, "atomic counters can only be function parameters")
                    .note("a counter is a kernel argument set by the host; pass it to helpers as a parameter"),
            );
            return None;
        }
        // The variable is in scope in its own initialiser (C), but checking the initialiser
        // first gives unsized arrays their size; self-reference is rare and would only read
        // an indeterminate value.
        // A failed initialiser still declares the variable, so later uses do not report
        // it as undeclared.
        let mut init_failed = false;
        let init = match &id.init {
            Some(i) => match self.check_initializer(i, &ty) {
                Some((t, init)) => {
                    ty = t;
                    Some(init)
                }
                None => {
                    init_failed = true;
                    None
                }
            },
            None => None,
        };
        if !init_failed && !self.complete_object_type(&ty, nsp, &format!("variable `{}`", name)) {
            return None;
        }
        if qt.is_const && init.is_none() && space == AddrSpace::Private {
            self.warn(Diagnostic::warning(
                nsp,
                format!("`const` variable `{}` is not initialised", name),
            ));
        }
        let func = self.cur.as_ref().map(|c| c.id);
        let vid = self.new_var(VarInfo {
            name: name.to_string(),
            ty,
            space,
            span: nsp,
            is_param: false,
            is_const: qt.is_const,
            is_volatile: qt.is_volatile,
            access: None,
            attrs,
            func,
        });
        self.declare(name, Sym::Var(vid), nsp);
        let _ = dspan;
        if init_failed {
            return None;
        }
        Some(Stmt::new(StmtKind::Decl { var: vid, init }, id.span))
    }
}

/// The spelling of the opaque types with scope rules of their own: events, reservation ids
/// and atomic counters (also as array elements).
fn opaque_type_name(t: &Type) -> Option<&'static str> {
    match t {
        Type::Event => Some("event_t"),
        Type::ReserveId => Some("reserve_id_t"),
        Type::Counter32 => Some("counter32_t"),
        Type::Counter64 => Some("counter64_t"),
        Type::Array(e, _) => opaque_type_name(e),
        _ => None,
    }
}
