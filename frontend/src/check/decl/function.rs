//! Functions: prototypes and definitions, their parameters, the rules for kernel signatures,
//! and the checking of a function body.

use super::{DeclCtx, ParamInfo, SpecInfo};
use crate::ast::*;
use crate::check::{Checker, FnCtx, FuncDecl, QualType, Sym};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

impl Checker<'_> {
    /// Records a function declaration (prototype or the head of a definition). Returns the
    /// parameter types.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn function_proto(
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
        if let Type::Atomic(a) = ret.ty {
            self.error(
                Diagnostic::error(nsp, format!("function `{}` cannot return `{}`", name, a.name()))
                    .note("atomic objects cannot be copied; return the value `atomic_load` reads, or pass a pointer"),
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
        let ps = self.proto_params(params, is_kernel);
        self.check_signature(name, nsp, ret, &ps, is_kernel);
        let decl = FuncDecl {
            id: self.func_ids.get(name).copied(),
            ret: ret.ty.clone(),
            params: ps.iter().map(|p| p.qt.ty.clone()).collect(),
            is_kernel,
            span: nsp,
            defined: false,
            poisoned: ps.iter().any(|p| p.failed),
        };
        self.record_function(name, nsp, decl, defining)?;
        Some(ps)
    }

    /// The parameters of a prototype (none for `(void)`).
    fn proto_params(&mut self, params: &[syn::ParamDecl], is_kernel: bool) -> Vec<ParamInfo> {
        let void_list = params.len() == 1
            && matches!(params[0].declarator, syn::Declarator::Abstract(_))
            && params[0].specs.items.len() == 1
            && matches!(&params[0].specs.items[0], syn::DeclSpec::TypeWord(w, _) if w == "void");
        if void_list {
            return Vec::new();
        }
        params.iter().map(|p| self.param(p, is_kernel)).collect()
    }

    /// One parameter: its type (arrays decay to pointers), storage class and attributes.
    fn param(&mut self, p: &syn::ParamDecl, is_kernel: bool) -> ParamInfo {
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
        let Some((pname, mut qt, mut pinfo)) = resolved else {
            return ParamInfo {
                name: p.declarator.name().map(|(n, s)| (n.to_string(), s)),
                qt: QualType::plain(Type::INT),
                info: SpecInfo::default(),
                span: p.span,
                failed: true,
            };
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
        let extra = self.convert_attrs(&p.attrs);
        pinfo.attrs.extend(extra);
        ParamInfo {
            name: pname,
            qt,
            info: pinfo,
            span: p.span,
            failed: false,
        }
    }

    /// The rules for return and parameter types (kernels have stricter ones).
    fn check_signature(
        &mut self,
        name: &str,
        nsp: Span,
        ret: &QualType,
        ps: &[ParamInfo],
        is_kernel: bool,
    ) {
        for p in ps.iter().filter(|p| !p.failed) {
            if let Type::Atomic(a) = p.qt.ty {
                self.error(
                    Diagnostic::error(
                        p.name_span(),
                        format!(
                            "an atomic object (`{}`) cannot be passed by value",
                            a.name()
                        ),
                    )
                    .note(format!(
                        "pass a pointer to it, e.g. `global {} *p` (OpenCL C 2.0 6.13.11.6)",
                        a.name()
                    )),
                );
            }
        }
        let ps_ok: Vec<&ParamInfo> = ps
            .iter()
            .filter(|p| !p.failed && !matches!(p.qt.ty, Type::Atomic(_)))
            .collect();
        if is_kernel {
            if !ret.ty.is_void() {
                self.error(
                    Diagnostic::error(nsp, format!("kernel `{}` must return `void`", name))
                        .note("kernels return results through `global` pointer arguments"),
                );
            }
            for p in &ps_ok {
                self.check_kernel_param(&p.qt.ty, p.qt.space, p.name_span());
            }
        } else {
            for p in &ps_ok {
                if matches!(
                    p.qt.space,
                    Some(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local)
                ) && !p.qt.ty.is_pointer()
                {
                    self.error(
                        Diagnostic::error(p.name_span(), "parameters are private; an address space qualifier belongs to a pointee")
                            .note("write `global int *p` for a pointer to global memory"),
                    );
                }
            }
        }
        for p in &ps_ok {
            if !matches!(p.qt.ty, Type::Pipe { .. }) {
                self.complete_object_type(&p.qt.ty, p.name_span(), "a parameter");
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
    }

    /// Enters a declaration into the function table, checking it against an earlier one.
    /// `None` (reported) for a conflicting declaration or a second definition.
    fn record_function(
        &mut self,
        name: &str,
        nsp: Span,
        decl: FuncDecl,
        defining: bool,
    ) -> Option<()> {
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
        Some(())
    }

    pub(super) fn check_kernel_param(&mut self, t: &Type, space: Option<AddrSpace>, sp: Span) {
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

    pub(super) fn struct_has_pointer(&self, id: StructId) -> bool {
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
        let kernel_attrs = self.kernel_attrs(&info.attrs, is_kernel);
        self.push_scope();
        let mut pids = Vec::new();
        for ParamInfo {
            name: pn,
            qt,
            info: pinfo,
            span: psp,
            failed,
        } in ps
        {
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
            let param_attrs = self.param_attrs(&pinfo.attrs, &qt.ty, is_kernel);
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
                param_attrs,
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
            let lints = crate::check::lint::lint_function(&body, &self.vars);
            self.diags.extend(lints);
        }
        if !ret.ty.is_void() && !crate::check::stmt::always_returns_block(&body.stmts) {
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
            kernel_attrs,
        });
    }
}
