//! The checker: syntax tree -> checked [`ast::Program`].
//!
//! Resolves names (block scopes, typedefs, struct/enum tags, functions), computes the type of
//! every expression, makes implicit conversions explicit and enforces the OpenCL C rules the
//! back end relies on (address spaces, kernel signatures, const, no recursion). Everything the
//! FPGA flow cannot do (images, samplers, function pointers, recursion, device-side enqueue,
//! goto) is reported as "not supported on FPGAs" at the construct's span.
//!
//! Errors are collected; a failed expression yields `None` so that one mistake produces one
//! diagnostic instead of a cascade. Recursion over expressions and statements is bounded by
//! `MAX_DEPTH` (deeper input gets a diagnostic).

mod attrs;
mod builtin_sig;
mod decl;
mod expr;
mod init;
mod lint;
mod stmt;

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::span::{SourceMap, Span};
use crate::syntax as syn;
use crate::Options;
use std::collections::{HashMap, HashSet};

/// Maximum nesting of expressions and statements the checker descends into.
pub const MAX_DEPTH: u32 = 500;

/// A type with the qualifiers of the object it describes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct QualType {
    pub ty: Type,
    /// Explicit address-space qualifier, if any.
    pub space: Option<AddrSpace>,
    pub is_const: bool,
    pub is_volatile: bool,
}

impl QualType {
    pub fn plain(ty: Type) -> QualType {
        QualType {
            ty,
            space: None,
            is_const: false,
            is_volatile: false,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Var(VarId),
    Global(u32),
    Func(String),
    /// Enumeration constant (value, always `int`).
    EnumConst(u64),
    Typedef(QualType),
    /// A name whose declaration failed (already reported): uses are silently invalid.
    Poison,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Tag {
    Struct(StructId, bool),
    Enum,
}

#[derive(Clone, Debug)]
pub(crate) struct FuncDecl {
    pub id: Option<FuncId>,
    pub ret: Type,
    pub params: Vec<Type>,
    pub is_kernel: bool,
    pub span: Span,
    pub defined: bool,
    /// Some parameter type failed to resolve; calls are not checked.
    pub poisoned: bool,
}

/// What a function does with an atomic counter it can see (a parameter).
#[derive(Clone, Copy, Debug)]
pub(crate) enum CounterOp {
    Inc,
    Dec,
    /// Passed as argument `.1` of a call to `.0`.
    Pass(FuncId, u32),
}

/// One use of a counter, for the "incremented and decremented in one kernel" rule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CounterUse {
    pub func: FuncId,
    pub var: VarId,
    pub what: CounterOp,
    pub span: Span,
}

pub(crate) struct FnCtx {
    pub id: FuncId,
    pub name: String,
    pub ret: Type,
    pub is_kernel: bool,
    pub loops: u32,
    pub breakables: u32,
}

pub(crate) struct Checker<'a> {
    pub sm: &'a SourceMap,
    pub fp64: bool,
    /// `#pragma OPENCL EXTENSION name : enable` in effect at the end of the file.
    pub extensions: &'a HashSet<String>,
    pub diags: Vec<Diagnostic>,
    pub structs: StructTable,
    pub scopes: Vec<HashMap<String, Sym>>,
    pub tags: Vec<HashMap<String, Tag>>,
    pub vars: Vec<VarInfo>,
    pub globals: Vec<GlobalVar>,
    pub funcs: HashMap<String, FuncDecl>,
    pub functions: Vec<Option<Function>>,
    /// FuncId assigned to each function definition name, in source order.
    pub func_ids: HashMap<String, FuncId>,
    pub cur: Option<FnCtx>,
    /// (caller, callee, call span) for the recursion check.
    pub calls: Vec<(FuncId, FuncId, Span)>,
    /// `atomic_inc`/`atomic_dec` on counters and counters passed to helpers.
    pub counter_uses: Vec<CounterUse>,
    /// `Program::atomic_orders`.
    pub atomic_orders: std::collections::BTreeMap<Span, MemOrder>,
    /// String literal text -> its `constant char[]` global.
    pub strings: HashMap<String, u32>,
    pub depth: u32,
    pub depth_reported: bool,
    /// Attributes (span, name) with an argument that could not be converted (already
    /// reported): their shape is not checked again. (Attributes from one macro use share a
    /// span, hence the name.)
    pub broken_attrs: HashSet<(Span, String)>,
}

/// Checks a parsed translation unit.
pub fn check(
    sm: &SourceMap,
    opts: &Options,
    extensions: &HashSet<String>,
    tu: &syn::TranslationUnit,
    file: crate::span::FileId,
) -> (Option<Program>, Vec<Diagnostic>) {
    let mut c = Checker {
        sm,
        fp64: opts.fp64,
        extensions,
        diags: Vec::new(),
        structs: StructTable::default(),
        scopes: vec![HashMap::new()],
        tags: vec![HashMap::new()],
        vars: Vec::new(),
        globals: Vec::new(),
        funcs: HashMap::new(),
        functions: Vec::new(),
        func_ids: HashMap::new(),
        cur: None,
        calls: Vec::new(),
        counter_uses: Vec::new(),
        atomic_orders: std::collections::BTreeMap::new(),
        strings: HashMap::new(),
        depth: 0,
        depth_reported: false,
        broken_attrs: HashSet::new(),
    };
    // FuncIds follow the order of definitions.
    for item in &tu.items {
        if let syn::ExternalDecl::Func(f) = item {
            if let Some((name, _)) = f.declarator.name() {
                if !c.func_ids.contains_key(name) {
                    let id = FuncId(c.func_ids.len() as u32);
                    c.func_ids.insert(name.to_string(), id);
                }
            }
        }
    }
    c.functions = vec![None; c.func_ids.len()];
    for item in &tu.items {
        match item {
            syn::ExternalDecl::Func(f) => c.function_def(f),
            syn::ExternalDecl::Decl(d) => c.file_declaration(d),
            syn::ExternalDecl::Pragma(p) => {
                if p.name == "unroll" || p.name == "nounroll" {
                    c.warn(
                        Diagnostic::warning(
                            p.span,
                            format!("`#pragma {}` outside a function is ignored", p.name),
                        )
                        .note("put the pragma directly before a loop"),
                    );
                }
            }
            syn::ExternalDecl::Error => {}
        }
    }
    if c.check_recursion() {
        c.check_counters();
    }
    if !c
        .functions
        .iter()
        .any(|f| f.as_ref().is_some_and(|f| f.is_kernel))
        && !c.diags.iter().any(|d| d.is_error())
    {
        let file_span = Span::new(file, 0, 0);
        c.warn(
            Diagnostic::warning(file_span, "the program has no kernel")
                .note("declare at least one function with `kernel` (or `__kernel`)"),
        );
    }
    let has_errors = c.diags.iter().any(|d| d.is_error());
    if has_errors {
        return (None, c.diags);
    }
    let functions: Vec<Function> = c.functions.into_iter().flatten().collect();
    let prog = Program {
        functions,
        vars: c.vars,
        structs: c.structs,
        globals: c.globals,
        atomic_orders: c.atomic_orders,
    };
    (Some(prog), c.diags)
}

impl Checker<'_> {
    pub fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub fn warn(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// "`thing` is not supported on FPGAs".
    pub fn unsupported(&mut self, span: Span, what: &str, note: &str) {
        let mut d = Diagnostic::error(span, format!("{} not supported on FPGAs", what));
        if !note.is_empty() {
            d = d.note(note.to_string());
        }
        self.diags.push(d);
    }

    pub fn type_name(&self, t: &Type) -> String {
        self.structs.type_name(t)
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.tags.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
        self.tags.pop();
    }

    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.tags.iter().rev().find_map(|s| s.get(name)).copied()
    }

    /// Declares a name in the innermost scope; reports redeclarations in the same scope.
    pub fn declare(&mut self, name: &str, sym: Sym, span: Span) {
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(old) = scope.get(name) {
            let same_typedef = matches!((old, &sym), (Sym::Typedef(a), Sym::Typedef(b)) if a == b);
            let is_func = matches!((old, &sym), (Sym::Func(_), Sym::Func(_)));
            if !same_typedef && !is_func {
                let prev = match old {
                    Sym::Var(v) => Some(self.vars[v.0 as usize].span),
                    Sym::Global(g) => Some(self.globals[*g as usize].span),
                    _ => None,
                };
                let mut d = Diagnostic::error(span, format!("redefinition of `{}`", name));
                if let Some(p) = prev {
                    d = d.label(p, "previously declared here");
                }
                self.diags.push(d.note("rename one of them"));
                return;
            }
        }
        scope.insert(name.to_string(), sym);
    }

    /// Enters one level of expression/statement nesting; false (with a diagnostic, once) when
    /// the input is nested too deeply.
    pub fn enter(&mut self, span: Span) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                self.error(
                    Diagnostic::error(span, "expression or statement nested too deeply").note(
                        format!(
                            "at most {} levels are supported; split it using temporary variables",
                            MAX_DEPTH
                        ),
                    ),
                );
            }
            self.depth -= 1;
            return false;
        }
        true
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    pub fn new_var(&mut self, info: VarInfo) -> VarId {
        self.vars.push(info);
        VarId(self.vars.len() as u32 - 1)
    }

    /// The atomic counters extension: "the same counter cannot be incremented and decremented
    /// inside a single kernel". Follows counters passed to helper functions (the call graph is
    /// acyclic when this runs).
    fn check_counters(&mut self) {
        // The first increment and decrement each (function, counter parameter) reaches,
        // following calls; memoised per function.
        type Reach = (Option<Span>, Option<Span>);
        fn reach(
            c: &Checker,
            memo: &mut HashMap<(FuncId, VarId), Reach>,
            u: &CounterUse,
            depth: u32,
        ) -> Reach {
            match u.what {
                CounterOp::Inc => (Some(u.span), None),
                CounterOp::Dec => (None, Some(u.span)),
                CounterOp::Pass(callee, i) => {
                    let param = c
                        .functions
                        .get(callee.0 as usize)
                        .and_then(|f| f.as_ref().and_then(|f| f.params.get(i as usize).copied()));
                    // The call graph is acyclic, so the depth is bounded by the number of
                    // functions; the limit only guards the native stack.
                    let Some(p) = param.filter(|_| depth < 10_000) else {
                        return (None, None);
                    };
                    if let Some(r) = memo.get(&(callee, p)) {
                        return *r;
                    }
                    let mut r: Reach = (None, None);
                    for v in c
                        .counter_uses
                        .iter()
                        .filter(|v| v.func == callee && v.var == p)
                    {
                        let (i2, d2) = reach(c, memo, v, depth + 1);
                        r.0 = r.0.or(i2);
                        r.1 = r.1.or(d2);
                    }
                    memo.insert((callee, p), r);
                    r
                }
            }
        }
        let mut memo = HashMap::new();
        let mut found = Vec::new();
        for (i, f) in self.functions.iter().enumerate() {
            let Some(f) = f.as_ref().filter(|f| f.is_kernel) else {
                continue;
            };
            let kid = FuncId(i as u32);
            for &p in &f.params {
                if !matches!(
                    self.vars[p.0 as usize].ty,
                    Type::Counter32 | Type::Counter64
                ) {
                    continue;
                }
                // (use in the kernel, the operation it leads to) for the first inc and dec
                let (mut inc, mut dec) = (None, None);
                for u in self
                    .counter_uses
                    .iter()
                    .filter(|u| u.func == kid && u.var == p)
                {
                    let (i2, d2) = reach(self, &mut memo, u, 0);
                    if inc.is_none() {
                        inc = i2.map(|s| (u.span, s));
                    }
                    if dec.is_none() {
                        dec = d2.map(|s| (u.span, s));
                    }
                }
                if let (Some(inc), Some(dec)) = (inc, dec) {
                    found.push((f.name.clone(), p, inc, dec));
                }
            }
        }
        for (kernel, p, inc, dec) in found {
            let v = &self.vars[p.0 as usize];
            let (name, vspan) = (v.name.clone(), v.span);
            let ((first, first_op, first_what), (second, second_op, second_what)) =
                if dec.0.start < inc.0.start {
                    ((dec.0, dec.1, "decremented"), (inc.0, inc.1, "incremented"))
                } else {
                    ((inc.0, inc.1, "incremented"), (dec.0, dec.1, "decremented"))
                };
            let mut d = Diagnostic::error(
                second,
                format!(
                    "counter `{}` is both incremented and decremented in kernel `{}`",
                    name, kernel
                ),
            )
            .label(
                first,
                if first_op != first {
                    format!("`{}` is {} through this call", name, first_what)
                } else {
                    format!("`{}` is {} here", name, first_what)
                },
            );
            if first_op != first {
                d = d.label(first_op, format!("{} here", first_what));
            }
            if second_op != second {
                d = d
                    .label(
                        second,
                        format!("`{}` is {} through this call", name, second_what),
                    )
                    .label(second_op, format!("{} here", second_what));
            }
            self.error(
                d.label(vspan, "counter declared here")
                    .note("an atomic counter may only count up or only count down within one kernel (cl_ext_atomic_counters); use two counters"),
            );
        }
    }

    /// Reports recursive calls; true if the call graph is acyclic.
    fn check_recursion(&mut self) -> bool {
        // Depth-first search for a cycle in the call graph; report one call per cycle.
        let n = self.functions.len();
        let mut edges: Vec<Vec<(usize, Span)>> = vec![Vec::new(); n];
        for (a, b, s) in &self.calls {
            edges[a.0 as usize].push((b.0 as usize, *s));
        }
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut reported = HashSet::new();
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            // iterative DFS: (node, next edge index)
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut ei)) = stack.last_mut() {
                if *ei < edges[node].len() {
                    let (next, span) = edges[node][*ei];
                    *ei += 1;
                    if state[next] == 1 {
                        if reported.insert(next) {
                            let name = self.functions[next]
                                .as_ref()
                                .map(|f| f.name.clone())
                                .unwrap_or_default();
                            self.error(
                                Diagnostic::error(
                                    span,
                                    format!(
                                        "recursive call of `{}` is not supported on FPGAs",
                                        name
                                    ),
                                )
                                .note(
                                    "hardware has no call stack; rewrite the recursion as a loop",
                                ),
                            );
                        }
                    } else if state[next] == 0 {
                        state[next] = 1;
                        stack.push((next, 0));
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        reported.is_empty()
    }
}

/// Levenshtein distance, for "did you mean" hints.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != *cb) as usize)
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
