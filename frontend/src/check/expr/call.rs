//! Calls: user functions (argument conversion, the call graph for the recursion check, counters
//! passed to helpers) and the dispatch to built-ins, with "did you mean" hints.

use crate::ast::*;
use crate::check::{edit_distance, Checker, CounterOp, CounterUse, Sym};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

impl Checker<'_> {
    pub(super) fn call(&mut self, f: &syn::Expr, args: &[syn::Expr], span: Span) -> Option<Expr> {
        let syn::ExprKind::Ident(name) = &f.kind else {
            self.unsupported(
                f.span,
                "calls through expressions (function pointers) are",
                "call functions directly by name",
            );
            return None;
        };
        match self.lookup(name).cloned() {
            Some(Sym::Func(n)) => return self.user_call(&n, f.span, args, span),
            Some(Sym::Poison) => return None,
            Some(Sym::Var(_) | Sym::Global(_) | Sym::EnumConst(_)) => {
                self.err(f.span, format!("`{}` is not a function", name));
                return None;
            }
            _ => {}
        }
        if let Some((what, note)) = crate::check::builtin_sig::unsupported_builtin(name) {
            self.unsupported(f.span, what, note);
            return None;
        }
        // builtins: check the arguments first
        let mut xs = Vec::new();
        let mut ok = true;
        for a in args {
            match self.expr(a) {
                Some(x) => xs.push(x),
                None => ok = false,
            }
        }
        match self.builtin_call(name, f.span, xs, span, ok) {
            Some(r) => r,
            None => {
                let mut d =
                    Diagnostic::error(f.span, format!("call to undeclared function `{}`", name));
                if self.func_ids.contains_key(name.as_str()) {
                    d = d.note(format!("`{}` is defined later in the file; declare a prototype before this use or move the definition up", name));
                } else if let Some(s) = self.suggest_fn(name) {
                    d = d.note(format!("did you mean `{}`?", s));
                }
                self.error(d);
                None
            }
        }
    }

    pub(super) fn user_call(
        &mut self,
        name: &str,
        nsp: Span,
        args: &[syn::Expr],
        span: Span,
    ) -> Option<Expr> {
        let decl = self.funcs.get(name).cloned()?;
        if decl.poisoned {
            for a in args {
                let _ = self.expr(a);
            }
            return None;
        }
        let mut xs = Vec::new();
        let mut ok = true;
        for a in args {
            match self.expr(a) {
                Some(x) => xs.push(x),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        if xs.len() != decl.params.len() {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "`{}` takes {} argument{} but {} {} given",
                        name,
                        decl.params.len(),
                        if decl.params.len() == 1 { "" } else { "s" },
                        xs.len(),
                        if xs.len() == 1 { "was" } else { "were" }
                    ),
                )
                .label(decl.span, "declared here"),
            );
            return None;
        }
        let mut conv = Vec::new();
        for (i, (x, pt)) in xs.into_iter().zip(&decl.params).enumerate() {
            let x = if pt.is_pointer() { self.decay(x) } else { x };
            if x.ty.is_void() {
                self.err(x.span, "a `void` expression has no value");
                ok = false;
                continue;
            }
            match self.convert(x, pt, &format!("argument {} of `{}`", i + 1, name)) {
                Some(c) => conv.push(c),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let Some(id) = decl.id else {
            self.error(
                Diagnostic::error(
                    nsp,
                    format!("function `{}` is declared but never defined", name),
                )
                .label(decl.span, "declared here")
                .note("FPGA kernels cannot call external code; define the function in this file"),
            );
            return None;
        };
        if let Some(cur) = &self.cur {
            self.calls.push((cur.id, id, span));
            let caller = cur.id;
            for (i, a) in conv.iter().enumerate() {
                if let (ExprKind::Var(v), Type::Counter32 | Type::Counter64) = (&a.kind, &a.ty) {
                    self.counter_uses.push(CounterUse {
                        func: caller,
                        var: *v,
                        what: CounterOp::Pass(id, i as u32),
                        span: a.span,
                    });
                }
            }
        }
        Some(self.mk(
            ExprKind::Call {
                func: id,
                args: conv,
            },
            decl.ret.clone(),
            span,
        ))
    }

    pub(super) fn suggest_fn(&self, n: &str) -> Option<String> {
        let mut best: Option<(usize, String)> = None;
        let names = self
            .funcs
            .keys()
            .cloned()
            .chain(crate::check::builtin_sig::builtin_names().map(str::to_string));
        for name in names {
            let d = edit_distance(n, &name);
            if d <= (n.len() / 3).max(1) && best.as_ref().is_none_or(|b| d < b.0) {
                best = Some((d, name));
            }
        }
        best.map(|b| b.1)
    }
}
