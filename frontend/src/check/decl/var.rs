//! Variables and typedefs: declarations at file scope (program-scope variables, program-scope
//! pipes) and at block scope (private, `local` and kernel-scope `constant` variables).

use super::declarator::{atomic_in, opaque_type_name};
use super::{DeclCtx, SpecInfo};
use crate::ast::*;
use crate::check::{Checker, QualType, Sym};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

impl Checker<'_> {
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

    pub(super) fn typedef_decl(&mut self, d: &syn::Declaration) {
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

    pub(super) fn global_var(
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
        let pipe_attrs = self.global_attrs(&attrs, &ty);
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
            pipe_attrs,
        });
        let g = self.globals.len() as u32 - 1;
        self.declare(name, Sym::Global(g), nsp);
    }

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
    pub(super) fn poison_names(&mut self, d: &syn::Declaration) {
        for id in &d.declarators {
            if let Some((n, s)) = id.declarator.name() {
                let n = n.to_string();
                self.declare(&n, Sym::Poison, s);
            }
        }
    }

    /// Kernel-scope `constant` data: a program-scope constant only visible in its block.
    fn kernel_scope_constant(
        &mut self,
        name: &str,
        nsp: Span,
        qt: &QualType,
        id: &syn::InitDeclarator,
        attrs: Vec<Attribute>,
    ) {
        let mut ty = qt.ty.clone();
        let Some(i) = &id.init else {
            self.error(
                Diagnostic::error(
                    nsp,
                    format!("`constant` variable `{}` must be initialised", name),
                )
                .note("`constant` data is fixed at compile time"),
            );
            return;
        };
        let Some((t, init)) = self.check_initializer(i, &ty) else {
            return;
        };
        ty = t;
        if !self.complete_object_type(&ty, nsp, &format!("variable `{}`", name)) {
            return;
        }
        self.globals.push(GlobalVar {
            name: name.to_string(),
            ty,
            space: AddrSpace::Constant,
            span: nsp,
            is_const: true,
            init: Some(init),
            attrs,
            pipe_attrs: PipeAttrs::default(),
        });
        let g = self.globals.len() as u32 - 1;
        self.declare(name, Sym::Global(g), nsp);
    }

    pub(super) fn local_var(
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
        self.local_attrs(&attrs);
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
                self.kernel_scope_constant(name, nsp, &qt, id, attrs);
                return None;
            }
            AddrSpace::Private => {}
        }
        let mut ty = qt.ty.clone();
        if matches!(ty, Type::Pipe { .. }) {
            self.err(nsp, "pipes can only be kernel parameters");
            return None;
        }
        if let Some(a) = atomic_in(&ty).filter(|_| space == AddrSpace::Private) {
            self.error(
                Diagnostic::error(
                    nsp,
                    format!("an atomic object (`{}`) cannot be in private memory", a.name()),
                )
                .note("atomic operations on private memory are undefined (OpenCL C 2.0 6.13.11.8); declare it `local` in a kernel, or `global` at program scope"),
            );
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
            param_attrs: ParamAttrs::default(),
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
