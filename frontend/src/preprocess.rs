//! The C preprocessor: directives, macro expansion and includes, on pp-tokens.
//!
//! Macro expansion follows Prosser's algorithm (each token carries the set of macros that may
//! not expand it again), so self-referential macros terminate. Tokens produced by an expansion
//! carry the span of the macro *use* (name through closing parenthesis); tokens that came from
//! a macro argument keep their own spans. Both keep diagnostics pointing at user-written text.
//!
//! `#pragma unroll [N]` and `#pragma nounroll` become `PpKind::Pragma` tokens in the output;
//! the grammar attaches them to the statement that follows. Guard rails keep hostile input
//! bounded: include depth, argument-expansion depth, `#if` expression depth and the total
//! number of tokens produced by expansion are all capped with a diagnostic.

use crate::diag::Diagnostic;
use crate::lexer::{lex, PpKind, PpToken};
use crate::span::{FileId, SourceMap, Span};
use crate::Options;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::Rc;

const MAX_INCLUDE_DEPTH: u32 = 64;
const MAX_EXPAND_DEPTH: u32 = 200;
const MAX_EXPANDED_TOKENS: usize = 1_000_000;
const MAX_IF_EXPR_DEPTH: u32 = 256;

#[derive(Clone, Debug)]
struct Macro {
    /// `None` for object-like macros.
    params: Option<Vec<Rc<str>>>,
    variadic: bool,
    body: Vec<PpToken>,
    /// Where it was defined (None: predefined or command line).
    span: Option<Span>,
}

/// Result of preprocessing one translation unit.
pub struct Preprocessed {
    pub tokens: Vec<PpToken>,
    /// Extensions enabled with `#pragma OPENCL EXTENSION name : enable`.
    pub extensions: HashSet<String>,
}

pub struct Preprocessor<'a> {
    sm: &'a mut SourceMap,
    opts: &'a Options,
    macros: HashMap<Rc<str>, Rc<Macro>>,
    out: Vec<PpToken>,
    pub diags: Vec<Diagnostic>,
    include_depth: u32,
    expand_depth: u32,
    expanded: usize,
    /// Set once the expansion budget is exhausted; further expansion stops.
    exhausted: bool,
    extensions: HashSet<String>,
    pragma_once: HashSet<String>,
    /// Value of the last `#if`-style expression evaluated (for `#pragma unroll N`).
    last_if_value: Option<i64>,
}

/// Macros every OpenCL C 2.0 compiler predefines, plus the limits of OpenCL C 6.15.3 and the
/// math constants of 6.15.2 that kernels use without any include.
const PREDEFINED: &str = r#"
#define __OPENCL_VERSION__ 200
#define __OPENCL_C_VERSION__ 200
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define CL_VERSION_2_0 200
#define CL_VERSION_3_0 300
#define __ENDIAN_LITTLE__ 1
#define __EMBEDDED_PROFILE__ 0
#define __OPENCL_FPGA__ 1
#define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))
#define kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define CLK_IMAGE_MEM_FENCE 4
#define CLK_NULL_RESERVE_ID __oclhls_null_reserve_id
#define __opencl_c_pipes 1
#define __opencl_c_int64 1
#define __opencl_c_generic_address_space 1
#define __opencl_c_program_scope_global_variables 1
#define cl_ext_atomic_counters_32 1
#define cl_ext_atomic_counters_64 1
#define cl_khr_global_int32_base_atomics 1
#define cl_khr_global_int32_extended_atomics 1
#define cl_khr_local_int32_base_atomics 1
#define cl_khr_local_int32_extended_atomics 1
#define cl_khr_int64_base_atomics 1
#define cl_khr_int64_extended_atomics 1
#define cl_khr_byte_addressable_store 1
#define NULL ((void*)0)
#define CHAR_BIT 8
#define CHAR_MAX 127
#define CHAR_MIN (-127-1)
#define SCHAR_MAX 127
#define SCHAR_MIN (-127-1)
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767-1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647-1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL-1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP 38
#define FLT_MAX_EXP 128
#define FLT_MIN_10_EXP (-37)
#define FLT_MIN_EXP (-125)
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define MAXFLOAT 0x1.fffffep127f
#define HUGE_VALF __oclhls_inff
#define INFINITY __oclhls_inff
#define NAN __oclhls_nanf
#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f
"#;

/// Double-precision constants, only with `cl_khr_fp64`.
const PREDEFINED_FP64: &str = r#"
#define cl_khr_fp64 1
#define __opencl_c_fp64 1
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#define HUGE_VAL __oclhls_inf
#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.434294481903251827651
#define M_LN2 0.693147180559945309417
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.785398163397448309616
#define M_1_PI 0.318309886183790671538
#define M_2_PI 0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.707106781186547524401
"#;

#[derive(Clone, Copy, Debug)]
struct Cond {
    /// The enclosing group is active.
    parent_active: bool,
    /// The current group is active.
    active: bool,
    /// Some group of this chain was already taken.
    taken: bool,
    seen_else: bool,
    span: Span,
}

impl<'a> Preprocessor<'a> {
    pub fn new(sm: &'a mut SourceMap, opts: &'a Options, file: FileId) -> Preprocessor<'a> {
        let mut pp = Preprocessor {
            sm,
            opts,
            macros: HashMap::new(),
            out: Vec::new(),
            diags: Vec::new(),
            include_depth: 0,
            expand_depth: 0,
            expanded: 0,
            exhausted: false,
            extensions: HashSet::new(),
            pragma_once: HashSet::new(),
            last_if_value: None,
        };
        // Predefined macros are lexed with the main file's id; their spans are never shown
        // because expansion replaces them with the span of the use.
        let mut text = PREDEFINED.to_string();
        if opts.fp64 {
            text.push_str(PREDEFINED_FP64);
        }
        let mut d = Vec::new();
        let toks = lex(&text, file, &mut d);
        pp.run_tokens(file, toks, true);
        for (name, value) in &opts.defines {
            let line = format!("#define {} {}\n", name, value.as_deref().unwrap_or("1"));
            let toks = lex(&line, file, &mut d);
            pp.run_tokens(file, toks, true);
        }
        for name in &opts.undefines {
            pp.macros.remove(name.as_str());
        }
        pp.out.clear();
        pp
    }

    /// Preprocesses `file` (already in the source map).
    pub fn run(mut self, file: FileId) -> (Preprocessed, Vec<Diagnostic>) {
        if let Some(off) = self.sm.invalid_utf8(file) {
            self.diags.push(
                Diagnostic::error(
                    Span::new(file, off, off + 1),
                    "source file is not valid UTF-8",
                )
                .note("OpenCL C sources must be UTF-8 (or ASCII) text; is this a binary file?"),
            );
        }
        let text = self.sm.text(file).to_string();
        let toks = lex(&text, file, &mut self.diags);
        self.run_tokens(file, toks, false);
        (
            Preprocessed {
                tokens: self.out,
                extensions: self.extensions,
            },
            self.diags,
        )
    }

    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn run_tokens(&mut self, file: FileId, toks: Vec<PpToken>, quiet: bool) {
        let mut conds: Vec<Cond> = Vec::new();
        let mut chunk: Vec<PpToken> = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let active = conds.last().is_none_or(|c| c.active);
            let t = &toks[i];
            if t.bol && t.is_punct("#") {
                let start = i;
                i += 1;
                while i < toks.len() && !toks[i].bol {
                    i += 1;
                }
                let line = &toks[start + 1..i];
                if active && !chunk.is_empty() {
                    let c = std::mem::take(&mut chunk);
                    let e = self.expand(c);
                    self.out.extend(e);
                }
                self.directive(file, &toks[start], line, &mut conds, active, quiet);
                continue;
            }
            if active {
                chunk.push(t.clone());
            }
            i += 1;
        }
        if !chunk.is_empty() {
            let e = self.expand(chunk);
            self.out.extend(e);
        }
        for c in conds {
            self.err(
                Diagnostic::error(c.span, "unterminated conditional directive")
                    .label(c.span, "this `#if` has no matching `#endif`")
                    .note("add `#endif` at the end of the conditional group"),
            );
        }
    }

    fn directive(
        &mut self,
        file: FileId,
        hash: &PpToken,
        line: &[PpToken],
        conds: &mut Vec<Cond>,
        active: bool,
        quiet: bool,
    ) {
        let Some(name_tok) = line.first() else {
            return; // null directive
        };
        let name: &str = &name_tok.text;
        let dspan = hash.span.to(line.last().map_or(hash.span, |t| t.span));
        let rest = &line[1..];
        match name {
            "if" | "ifdef" | "ifndef" => {
                let value = if !active {
                    false
                } else if name == "if" {
                    self.eval_if(rest, dspan)
                } else {
                    match rest.first() {
                        Some(t) if t.kind == PpKind::Ident => {
                            if rest.len() > 1 {
                                self.warn_extra(&rest[1..], name);
                            }
                            self.macros.contains_key(&t.text) == (name == "ifdef")
                        }
                        _ => {
                            self.err(
                                Diagnostic::error(dspan, format!("`#{}` needs a macro name", name))
                                    .note(format!("write `#{} NAME`", name)),
                            );
                            false
                        }
                    }
                };
                conds.push(Cond {
                    parent_active: active,
                    active: active && value,
                    taken: value,
                    seen_else: false,
                    span: dspan,
                });
            }
            "elif" | "else" | "endif" => {
                let Some(c) = conds.last_mut() else {
                    self.err(
                        Diagnostic::error(dspan, format!("`#{}` without `#if`", name))
                            .note("remove it or add the matching `#if`"),
                    );
                    return;
                };
                match name {
                    "endif" => {
                        conds.pop();
                    }
                    "else" => {
                        if c.seen_else {
                            let prev = c.span;
                            self.err(
                                Diagnostic::error(dspan, "`#else` after `#else`")
                                    .label(prev, "the conditional started here"),
                            );
                            return;
                        }
                        c.seen_else = true;
                        c.active = c.parent_active && !c.taken;
                        c.taken = true;
                    }
                    _ => {
                        if c.seen_else {
                            self.err(Diagnostic::error(dspan, "`#elif` after `#else`"));
                            return;
                        }
                        let (parent, taken) = (c.parent_active, c.taken);
                        let v = parent && !taken && self.eval_if(rest, dspan);
                        let c = conds.last_mut().expect("checked above");
                        c.active = v;
                        c.taken |= v;
                    }
                }
            }
            _ if !active => {}
            "define" => self.define(rest, dspan, quiet),
            "undef" => match rest.first() {
                Some(t) if t.kind == PpKind::Ident => {
                    self.macros.remove(&t.text);
                }
                _ => self.err(
                    Diagnostic::error(dspan, "`#undef` needs a macro name")
                        .note("write `#undef NAME`"),
                ),
            },
            "include" => self.include(file, rest, dspan),
            "pragma" => self.pragma(rest, dspan),
            "error" => {
                let msg = join_text(rest);
                self.err(Diagnostic::error(dspan, format!("#error {}", msg)));
            }
            "warning" => {
                let msg = join_text(rest);
                self.err(Diagnostic::warning(dspan, format!("#warning {}", msg)));
            }
            "line" => self.line_directive(rest, dspan),
            _ => {
                if name_tok.kind == PpKind::Number {
                    return; // `# 12 "file"` line markers
                }
                self.err(
                    Diagnostic::error(
                        name_tok.span,
                        format!("unknown preprocessor directive `#{}`", name),
                    )
                    .note("supported: #define #undef #include #if #ifdef #ifndef #elif #else #endif #pragma #error #warning #line"),
                );
            }
        }
    }

    /// `#line N ["file"]`: later diagnostics and `__LINE__` count lines from `N`. The file
    /// name, if any, is accepted but diagnostics keep naming the real file (so that the source
    /// line can be shown).
    fn line_directive(&mut self, rest: &[PpToken], dspan: Span) {
        let toks = self.expand(rest.to_vec());
        let n = toks
            .first()
            .filter(|t| t.kind == PpKind::Number)
            .and_then(|t| t.text.parse::<u32>().ok())
            .filter(|&n| n > 0);
        let Some(n) = n else {
            self.err(
                Diagnostic::error(dspan, "`#line` needs a positive decimal line number")
                    .note("write `#line 42` or `#line 42 \"file.cl\"`"),
            );
            return;
        };
        match toks.get(1) {
            None => {}
            Some(t) if t.kind == PpKind::Str && toks.len() == 2 => {}
            Some(_) => self.warn_extra(&toks[1..], "line"),
        }
        self.sm.add_line_directive(dspan.file, dspan.end, n);
    }

    fn warn_extra(&mut self, extra: &[PpToken], directive: &str) {
        let span = extra[0].span.to(extra[extra.len() - 1].span);
        self.err(Diagnostic::warning(
            span,
            format!("extra tokens at end of `#{}` directive", directive),
        ));
    }

    fn define(&mut self, rest: &[PpToken], dspan: Span, quiet: bool) {
        let Some(name) = rest.first().filter(|t| t.kind == PpKind::Ident) else {
            self.err(
                Diagnostic::error(dspan, "`#define` needs a macro name")
                    .note("write `#define NAME value` or `#define NAME(args) body`"),
            );
            return;
        };
        if &*name.text == "defined" {
            self.err(Diagnostic::error(
                name.span,
                "`defined` cannot be used as a macro name",
            ));
            return;
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        if rest
            .get(1)
            .is_some_and(|t| t.is_punct("(") && !t.space_before)
        {
            let mut ps: Vec<Rc<str>> = Vec::new();
            i = 2;
            loop {
                let Some(t) = rest.get(i) else {
                    self.err(
                        Diagnostic::error(dspan, "missing `)` in macro parameter list")
                            .label(rest[1].span, "parameter list starts here"),
                    );
                    return;
                };
                if t.is_punct(")") && ps.is_empty() && !variadic {
                    i += 1;
                    break;
                }
                if t.is_punct("...") {
                    variadic = true;
                    ps.push("__VA_ARGS__".into());
                } else if t.kind == PpKind::Ident {
                    if ps.contains(&t.text) {
                        self.err(Diagnostic::error(
                            t.span,
                            format!("duplicate macro parameter `{}`", t.text),
                        ));
                    }
                    ps.push(t.text.clone());
                } else {
                    self.err(
                        Diagnostic::error(t.span, "expected a parameter name in macro definition")
                            .note("macro parameters are identifiers separated by commas"),
                    );
                    return;
                }
                i += 1;
                match rest.get(i) {
                    Some(t) if t.is_punct(",") && !variadic => i += 1,
                    Some(t) if t.is_punct(")") => {
                        i += 1;
                        break;
                    }
                    Some(t) => {
                        self.err(Diagnostic::error(
                            t.span,
                            "expected `,` or `)` in macro parameter list",
                        ));
                        return;
                    }
                    None => continue,
                }
            }
            params = Some(ps);
        }
        let body: Vec<PpToken> = rest[i..].to_vec();
        if let Some(first) = body.first() {
            if first.is_punct("##") || body.last().is_some_and(|t| t.is_punct("##")) {
                self.err(Diagnostic::error(
                    first.span,
                    "`##` cannot appear at either end of a macro body",
                ));
                return;
            }
        }
        if let Some(ps) = &params {
            for (k, t) in body.iter().enumerate() {
                if t.is_punct("#")
                    && !body
                        .get(k + 1)
                        .is_some_and(|n| n.kind == PpKind::Ident && ps.contains(&n.text))
                {
                    self.err(
                        Diagnostic::error(t.span, "`#` is not followed by a macro parameter")
                            .note("`#x` turns the argument `x` into a string"),
                    );
                    return;
                }
            }
        }
        let m = Macro {
            params,
            variadic,
            body,
            span: if quiet { None } else { Some(name.span) },
        };
        if let Some(old) = self.macros.get(&name.text) {
            if !same_macro(old, &m) && !quiet {
                let mut d = Diagnostic::warning(
                    name.span,
                    format!("macro `{}` redefined with a different body", name.text),
                );
                if let Some(s) = old.span {
                    d = d.label(s, "previous definition");
                }
                self.err(d.note("use `#undef` first if the redefinition is intended"));
            }
        }
        self.macros.insert(name.text.clone(), Rc::new(m));
    }

    fn include(&mut self, file: FileId, rest: &[PpToken], dspan: Span) {
        let (fname, angled) = match rest.first() {
            Some(t) if t.kind == PpKind::Str => (t.text[1..t.text.len() - 1].to_string(), false),
            Some(t) if t.is_punct("<") => {
                let Some(end) = rest.iter().position(|t| t.is_punct(">")) else {
                    self.err(Diagnostic::error(dspan, "missing `>` in `#include <...>`"));
                    return;
                };
                let a = rest[0].span.end as usize;
                let b = rest[end].span.start as usize;
                (
                    self.sm
                        .text(file)
                        .get(a..b)
                        .unwrap_or("")
                        .trim()
                        .to_string(),
                    true,
                )
            }
            _ => {
                self.err(
                    Diagnostic::error(dspan, "expected a file name after `#include`")
                        .note("write `#include \"file.h\"`"),
                );
                return;
            }
        };
        if self.include_depth >= MAX_INCLUDE_DEPTH {
            self.err(
                Diagnostic::error(dspan, "`#include` nested too deeply")
                    .note(format!(
                        "includes may nest at most {} levels; is a header including itself without an include guard?",
                        MAX_INCLUDE_DEPTH
                    )),
            );
            return;
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        if !angled {
            let here = Path::new(self.sm.name(file));
            candidates.push(here.parent().unwrap_or(Path::new("")).join(&fname));
        }
        for d in &self.opts.include_dirs {
            candidates.push(d.join(&fname));
        }
        let Some(path) = candidates.into_iter().find(|p| p.is_file()) else {
            let d = Diagnostic::error(dspan, format!("cannot find include file `{}`", fname));
            let d = if fname == "opencl-c.h" || fname == "CL/cl.h" {
                d.note("OpenCL built-ins are always available; this include is not needed")
            } else {
                d.note("searched the including file's directory and the include directories (-I)")
            };
            self.err(d);
            return;
        };
        let pname = path.display().to_string();
        if self.pragma_once.contains(&pname) {
            return;
        }
        let id = match self.sm.find(&pname) {
            Some(id) => id,
            None => match std::fs::read(&path) {
                Ok(bytes) => {
                    let id = self.sm.add_file_bytes(pname.clone(), &bytes);
                    if let Some(off) = self.sm.invalid_utf8(id) {
                        self.err(
                            Diagnostic::error(
                                Span::new(id, off, off + 1),
                                "file is not valid UTF-8",
                            )
                            .label(dspan, "included here"),
                        );
                    }
                    id
                }
                Err(e) => {
                    self.err(Diagnostic::error(
                        dspan,
                        format!("cannot read include file `{}`: {}", pname, e),
                    ));
                    return;
                }
            },
        };
        let text = self.sm.text(id).to_string();
        let toks = lex(&text, id, &mut self.diags);
        self.include_depth += 1;
        self.run_tokens(id, toks, false);
        self.include_depth -= 1;
    }

    fn pragma(&mut self, rest: &[PpToken], dspan: Span) {
        let Some(first) = rest.first() else {
            return;
        };
        let kw: &str = &first.text;
        match kw {
            "unroll" | "nounroll" => {
                let mut arg = None;
                if kw == "unroll" && rest.len() > 1 {
                    let mut toks = &rest[1..];
                    if toks[0].is_punct("(") && toks.last().is_some_and(|t| t.is_punct(")")) {
                        toks = &toks[1..toks.len() - 1];
                    }
                    self.eval_if(toks, dspan);
                    match self.last_if_value {
                        Some(n) if n > 0 => arg = Some(n as u64),
                        _ => {
                            self.err(
                                Diagnostic::error(
                                    dspan,
                                    "`#pragma unroll` needs a positive integer factor",
                                )
                                .note(
                                    "write `#pragma unroll 4`, or `#pragma unroll` to unroll fully",
                                ),
                            );
                            return;
                        }
                    }
                } else if kw == "nounroll" && rest.len() > 1 {
                    self.warn_extra(&rest[1..], "pragma nounroll");
                }
                self.out.push(PpToken {
                    kind: PpKind::Pragma(arg),
                    text: first.text.clone(),
                    span: dspan,
                    bol: true,
                    space_before: true,
                    hide: None,
                });
            }
            "OPENCL" => {
                let sub = rest.get(1).map(|t| &*t.text);
                match sub {
                    Some("EXTENSION") => {
                        let ext = rest.get(2).map(|t| t.text.to_string());
                        let colon = rest.get(3).is_some_and(|t| t.is_punct(":"));
                        let state = rest.get(4).map(|t| t.text.to_string());
                        match (ext, colon, state.as_deref()) {
                            (Some(ext), true, Some(st @ ("enable" | "disable"))) => {
                                if st == "enable" {
                                    if ext == "cl_khr_fp64" && !self.opts.fp64 {
                                        self.err(Diagnostic::warning(
                                            dspan,
                                            "extension `cl_khr_fp64` is not supported on this device; `double` stays unavailable",
                                        ).note("double precision must be enabled in the compiler options (fp64)"));
                                    }
                                    self.extensions.insert(ext);
                                } else {
                                    self.extensions.remove(&ext);
                                }
                            }
                            _ => self.err(
                                Diagnostic::warning(
                                    dspan,
                                    "malformed `#pragma OPENCL EXTENSION`; ignored",
                                )
                                .note("write `#pragma OPENCL EXTENSION name : enable`"),
                            ),
                        }
                    }
                    Some("FP_CONTRACT") => {}
                    _ => self.err(Diagnostic::warning(
                        dspan,
                        "unknown `#pragma OPENCL`; ignored",
                    )),
                }
            }
            "once" => {
                let name = self.sm.name(dspan.file).to_string();
                self.pragma_once.insert(name);
            }
            _ => self.err(
                Diagnostic::warning(dspan, format!("unknown pragma `{}` ignored", kw)).note(
                    "supported pragmas: `unroll [N]`, `nounroll`, `OPENCL EXTENSION`, `once`",
                ),
            ),
        }
    }

    // ---------------------------------------------------------------- #if expressions

    /// Evaluates a `#if` expression; errors count as false. The numeric value is left in
    /// `last_if_value` for `#pragma unroll N`.
    fn eval_if(&mut self, toks: &[PpToken], dspan: Span) -> bool {
        self.last_if_value = None;
        // `defined X` / `defined(X)` before expansion
        let mut pre = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if t.is_ident("defined") {
                let (name, next) = if toks.get(i + 1).is_some_and(|t| t.is_punct("(")) {
                    match (toks.get(i + 2), toks.get(i + 3)) {
                        (Some(n), Some(c)) if n.kind == PpKind::Ident && c.is_punct(")") => {
                            (Some(n), i + 4)
                        }
                        _ => (None, i + 1),
                    }
                } else {
                    match toks.get(i + 1) {
                        Some(n) if n.kind == PpKind::Ident => (Some(n), i + 2),
                        _ => (None, i + 1),
                    }
                };
                let Some(name) = name else {
                    self.err(
                        Diagnostic::error(t.span, "`defined` needs a macro name")
                            .note("write `defined(NAME)` or `defined NAME`"),
                    );
                    return false;
                };
                let v = self.macros.contains_key(&name.text);
                pre.push(PpToken {
                    kind: PpKind::Number,
                    text: if v { "1".into() } else { "0".into() },
                    span: t.span,
                    bol: false,
                    space_before: true,
                    hide: None,
                });
                i = next;
                continue;
            }
            pre.push(t.clone());
            i += 1;
        }
        let expanded = self.expand(pre);
        if expanded.is_empty() {
            self.err(
                Diagnostic::error(dspan, "`#if` with no expression")
                    .note("write a constant integer expression after `#if`"),
            );
            return false;
        }
        let mut ev = IfEval {
            toks: &expanded,
            pos: 0,
            depth: 0,
            err: None,
            end_span: dspan,
        };
        let v = ev.cond();
        if ev.err.is_none() && ev.pos < expanded.len() {
            ev.error(ev.pos, "unexpected token in preprocessor expression");
        }
        match ev.err {
            Some(d) => {
                self.err(d);
                false
            }
            None => {
                self.last_if_value = Some(v.0);
                v.0 != 0
            }
        }
    }

    // ---------------------------------------------------------------- expansion

    /// Fully macro-expands a token list.
    fn expand(&mut self, input: Vec<PpToken>) -> Vec<PpToken> {
        let mut input: VecDeque<PpToken> = input.into();
        let mut out = Vec::with_capacity(input.len());
        while let Some(t) = input.pop_front() {
            if self.exhausted {
                break;
            }
            if t.kind != PpKind::Ident {
                out.push(t);
                continue;
            }
            match &*t.text {
                "__LINE__" => {
                    let (l, _) = self.sm.line_col(t.span);
                    let l = self.sm.presumed_line(t.span.file, l);
                    out.push(PpToken {
                        kind: PpKind::Number,
                        text: l.to_string().into(),
                        ..t
                    });
                    continue;
                }
                "__FILE__" => {
                    let n = format!("{:?}", self.sm.name(t.span.file));
                    out.push(PpToken {
                        kind: PpKind::Str,
                        text: n.into(),
                        ..t
                    });
                    continue;
                }
                _ => {}
            }
            let Some(m) = self.macros.get(&t.text).cloned() else {
                out.push(t);
                continue;
            };
            if t.hidden(&t.text) {
                out.push(t);
                continue;
            }
            let mut hide: Vec<Rc<str>> = t.hide.as_ref().map(|h| (**h).clone()).unwrap_or_default();
            hide.push(t.text.clone());
            let hide = Rc::new(hide);
            let result = match &m.params {
                None => {
                    let body = paste_all(self, &m.body, t.span);
                    body.into_iter()
                        .enumerate()
                        .map(|(k, mut b)| {
                            b.span = t.span;
                            b.hide = Some(hide.clone());
                            b.bol = false;
                            if k == 0 {
                                b.space_before = t.space_before;
                            }
                            b
                        })
                        .collect::<Vec<_>>()
                }
                Some(params) => {
                    if !input.front().is_some_and(|n| n.is_punct("(")) {
                        out.push(t);
                        continue;
                    }
                    let Some((args, close)) = self.collect_args(&t, &mut input) else {
                        // unterminated: input is consumed and the error reported
                        continue;
                    };
                    let call_span = t.span.to(close);
                    let Some(args) = self.match_args(&t, params, m.variadic, args, call_span)
                    else {
                        continue;
                    };
                    self.substitute(&m, params, &args, call_span, &hide, t.space_before)
                }
            };
            self.expanded += result.len();
            if self.expanded > MAX_EXPANDED_TOKENS {
                self.exhausted = true;
                self.err(
                    Diagnostic::error(t.span, "macro expansion produces too many tokens")
                        .note(format!(
                            "expansion stopped after {} tokens; check for macros that grow exponentially",
                            MAX_EXPANDED_TOKENS
                        )),
                );
                break;
            }
            for r in result.into_iter().rev() {
                input.push_front(r);
            }
        }
        out
    }

    /// Collects the arguments of a function-like macro call; `input` starts at `(`.
    fn collect_args(
        &mut self,
        name: &PpToken,
        input: &mut VecDeque<PpToken>,
    ) -> Option<(Vec<Vec<PpToken>>, Span)> {
        input.pop_front(); // (
        let mut args = vec![Vec::new()];
        let mut depth = 0u32;
        while let Some(t) = input.pop_front() {
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                if depth == 0 {
                    return Some((args, t.span));
                }
                depth -= 1;
            } else if t.is_punct(",") && depth == 0 {
                args.push(Vec::new());
                continue;
            }
            args.last_mut().expect("nonempty").push(t);
        }
        self.err(
            Diagnostic::error(
                name.span,
                format!("unterminated call of macro `{}`", name.text),
            )
            .note("the argument list has no closing `)`"),
        );
        None
    }

    fn match_args(
        &mut self,
        name: &PpToken,
        params: &[Rc<str>],
        variadic: bool,
        mut args: Vec<Vec<PpToken>>,
        span: Span,
    ) -> Option<Vec<Vec<PpToken>>> {
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            return Some(Vec::new());
        }
        if variadic && args.len() >= params.len() {
            // fold extra arguments into __VA_ARGS__, commas included
            let n = params.len();
            while args.len() > n {
                let last = args.pop().expect("len > n");
                let prev = args.last_mut().expect("n >= 1");
                prev.push(PpToken {
                    kind: PpKind::Punct,
                    text: ",".into(),
                    span,
                    bol: false,
                    space_before: false,
                    hide: None,
                });
                prev.extend(last);
            }
            return Some(args);
        }
        if variadic && args.len() + 1 == params.len() {
            args.push(Vec::new());
            return Some(args);
        }
        if args.len() != params.len() {
            self.err(
                Diagnostic::error(
                    span,
                    format!(
                        "macro `{}` takes {} argument{} but {} were given",
                        name.text,
                        params.len(),
                        if params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
                .note("wrap arguments that contain commas in parentheses"),
            );
            return None;
        }
        Some(args)
    }

    fn substitute(
        &mut self,
        m: &Macro,
        params: &[Rc<str>],
        args: &[Vec<PpToken>],
        call_span: Span,
        hide: &Rc<Vec<Rc<str>>>,
        space_before: bool,
    ) -> Vec<PpToken> {
        let param_index = |t: &PpToken| -> Option<usize> {
            if t.kind == PpKind::Ident {
                params.iter().position(|p| *p == t.text)
            } else {
                None
            }
        };
        let mut expanded_args: Vec<Option<Vec<PpToken>>> = vec![None; args.len()];
        // First pass: substitute parameters (stringizing, raw args next to ##, expanded
        // args elsewhere), marking paste operators.
        let mut res: Vec<PpToken> = Vec::new();
        let body = &m.body;
        let mut k = 0;
        while k < body.len() {
            let b = &body[k];
            if b.is_punct("#") {
                if let Some(p) = body.get(k + 1).and_then(param_index) {
                    res.push(PpToken {
                        kind: PpKind::Str,
                        text: stringize(&args[p]).into(),
                        span: call_span,
                        bol: false,
                        space_before: b.space_before,
                        hide: None,
                    });
                    k += 2;
                    continue;
                }
            }
            if let Some(p) = param_index(b) {
                let next_paste = body.get(k + 1).is_some_and(|n| n.is_punct("##"));
                let prev_paste = k > 0 && body[k - 1].is_punct("##");
                let toks: Vec<PpToken> = if next_paste || prev_paste {
                    args[p].clone()
                } else {
                    if expanded_args[p].is_none() {
                        self.expand_depth += 1;
                        let e = if self.expand_depth > MAX_EXPAND_DEPTH {
                            self.err(
                                Diagnostic::error(call_span, "macro arguments nested too deeply")
                                    .note(format!(
                                        "at most {} nested macro calls are expanded",
                                        MAX_EXPAND_DEPTH
                                    )),
                            );
                            self.exhausted = true;
                            Vec::new()
                        } else {
                            self.expand(args[p].clone())
                        };
                        self.expand_depth -= 1;
                        expanded_args[p] = Some(e);
                    }
                    expanded_args[p].clone().unwrap_or_default()
                };
                if toks.is_empty() && (next_paste || prev_paste) {
                    // placemarker
                    res.push(PpToken {
                        kind: PpKind::Punct,
                        text: "".into(),
                        span: call_span,
                        bol: false,
                        space_before: false,
                        hide: None,
                    });
                }
                for (j, mut a) in toks.into_iter().enumerate() {
                    a.bol = false;
                    if j == 0 {
                        a.space_before = b.space_before;
                    }
                    res.push(a);
                }
                k += 1;
                continue;
            }
            let mut c = b.clone();
            c.span = call_span;
            c.bol = false;
            res.push(c);
            k += 1;
        }
        let mut res = paste_all(self, &res, call_span);
        res.retain(|t| !(t.kind == PpKind::Punct && t.text.is_empty()));
        for (j, t) in res.iter_mut().enumerate() {
            let mut h: Vec<Rc<str>> = t.hide.as_ref().map(|h| (**h).clone()).unwrap_or_default();
            for n in hide.iter() {
                if !h.contains(n) {
                    h.push(n.clone());
                }
            }
            t.hide = Some(Rc::new(h));
            if j == 0 {
                t.space_before = space_before;
            }
        }
        res
    }
}

/// Applies `##` operators in a token list.
fn paste_all(pp: &mut Preprocessor<'_>, toks: &[PpToken], span: Span) -> Vec<PpToken> {
    if !toks.iter().any(|t| t.is_punct("##")) {
        return toks.to_vec();
    }
    let mut out: Vec<PpToken> = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        if t.is_punct("##") && !out.is_empty() && k + 1 < toks.len() {
            let left = out.pop().expect("nonempty");
            let right = &toks[k + 1];
            let text = format!("{}{}", left.text, right.text);
            let mut d = Vec::new();
            let lexed = lex(&text, span.file, &mut d);
            if text.is_empty() {
                out.push(left);
            } else if lexed.len() == 1 && d.is_empty() {
                out.push(PpToken {
                    kind: lexed[0].kind.clone(),
                    text: text.into(),
                    span: left.span,
                    bol: false,
                    space_before: left.space_before,
                    hide: left.hide.clone(),
                });
            } else {
                pp.err(
                    Diagnostic::error(
                        span,
                        format!(
                            "pasting `{}` and `{}` does not give a valid token",
                            left.text, right.text
                        ),
                    )
                    .note("`##` must produce a single identifier, number or operator"),
                );
                out.push(left);
                out.push(right.clone());
            }
            k += 2;
            continue;
        }
        out.push(t.clone());
        k += 1;
    }
    out
}

fn stringize(toks: &[PpToken]) -> String {
    let mut s = String::from("\"");
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space_before {
            s.push(' ');
        }
        if matches!(t.kind, PpKind::Str | PpKind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    s
}

fn join_text(toks: &[PpToken]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space_before {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

fn same_macro(a: &Macro, b: &Macro) -> bool {
    a.params == b.params
        && a.variadic == b.variadic
        && a.body.len() == b.body.len()
        && a.body
            .iter()
            .zip(&b.body)
            .all(|(x, y)| x.text == y.text && (x.space_before == y.space_before || x.bol || y.bol))
}

/// Evaluator for `#if` expressions: C integer arithmetic in `intmax_t`/`uintmax_t` (64 bits).
struct IfEval<'t> {
    toks: &'t [PpToken],
    pos: usize,
    depth: u32,
    err: Option<Diagnostic>,
    end_span: Span,
}

/// (value, is_unsigned)
type PpVal = (i64, bool);

impl IfEval<'_> {
    fn error(&mut self, at: usize, msg: &str) {
        if self.err.is_none() {
            let span = self.toks.get(at).map_or(self.end_span, |t| t.span);
            self.err = Some(
                Diagnostic::error(span, msg.to_string())
                    .note("`#if` takes an integer constant expression; undefined names count as 0"),
            );
        }
    }

    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|t| &*t.text)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.toks.get(self.pos).is_some_and(|t| t.is_punct(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn cond(&mut self) -> PpVal {
        self.depth += 1;
        if self.depth > MAX_IF_EXPR_DEPTH {
            self.error(self.pos, "preprocessor expression nested too deeply");
            self.pos = self.toks.len();
            return (0, false);
        }
        let c = self.binary(0);
        let r = if self.eat("?") {
            let a = self.cond();
            if !self.eat(":") {
                self.error(self.pos, "expected `:` in preprocessor expression");
                return (0, false);
            }
            let b = self.cond();
            let u = a.1 || b.1;
            if c.0 != 0 {
                (a.0, u)
            } else {
                (b.0, u)
            }
        } else {
            c
        };
        self.depth -= 1;
        r
    }

    fn prec(op: &str) -> Option<u8> {
        Some(match op {
            "||" => 1,
            "&&" => 2,
            "|" => 3,
            "^" => 4,
            "&" => 5,
            "==" | "!=" => 6,
            "<" | ">" | "<=" | ">=" => 7,
            "<<" | ">>" => 8,
            "+" | "-" => 9,
            "*" | "/" | "%" => 10,
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8) -> PpVal {
        let mut lhs = self.unary();
        loop {
            if self.err.is_some() {
                return (0, false);
            }
            let Some(t) = self.toks.get(self.pos) else {
                return lhs;
            };
            if t.kind != PpKind::Punct {
                return lhs;
            }
            let op = t.text.clone();
            let Some(p) = Self::prec(&op) else {
                return lhs;
            };
            if p <= min {
                return lhs;
            }
            let at = self.pos;
            self.pos += 1;
            let rhs = self.binary(p);
            let u = lhs.1 || rhs.1;
            let (a, b) = (lhs.0, rhs.0);
            let v = match &*op {
                "||" => ((a != 0 || b != 0) as i64, false),
                "&&" => ((a != 0 && b != 0) as i64, false),
                "|" => (a | b, u),
                "^" => (a ^ b, u),
                "&" => (a & b, u),
                "==" => ((a == b) as i64, false),
                "!=" => ((a != b) as i64, false),
                "<" | ">" | "<=" | ">=" => {
                    let o = if u {
                        (a as u64).cmp(&(b as u64))
                    } else {
                        a.cmp(&b)
                    };
                    let r = match &*op {
                        "<" => o.is_lt(),
                        ">" => o.is_gt(),
                        "<=" => o.is_le(),
                        _ => o.is_ge(),
                    };
                    (r as i64, false)
                }
                "<<" => (a.wrapping_shl(b as u32 & 63), lhs.1),
                ">>" => {
                    if lhs.1 {
                        (((a as u64) >> (b as u32 & 63)) as i64, true)
                    } else {
                        (a.wrapping_shr(b as u32 & 63), false)
                    }
                }
                "+" => (a.wrapping_add(b), u),
                "-" => (a.wrapping_sub(b), u),
                "*" => (a.wrapping_mul(b), u),
                "/" | "%" => {
                    if b == 0 {
                        self.error(at, "division by zero in preprocessor expression");
                        return (0, false);
                    }
                    let r = if u {
                        let (x, y) = (a as u64, b as u64);
                        (if &*op == "/" { x / y } else { x % y }) as i64
                    } else if &*op == "/" {
                        a.wrapping_div(b)
                    } else {
                        a.wrapping_rem(b)
                    };
                    (r, u)
                }
                _ => unreachable!("operator table"),
            };
            lhs = v;
        }
    }

    fn unary(&mut self) -> PpVal {
        let Some(t) = self.toks.get(self.pos).cloned() else {
            self.error(
                self.pos,
                "expected a value at the end of the preprocessor expression",
            );
            return (0, false);
        };
        self.pos += 1;
        match (&t.kind, &*t.text) {
            (PpKind::Punct, "(") => {
                let v = self.cond();
                if !self.eat(")") {
                    self.error(self.pos, "expected `)` in preprocessor expression");
                }
                v
            }
            (PpKind::Punct, "-") => {
                let v = self.unary();
                (v.0.wrapping_neg(), v.1)
            }
            (PpKind::Punct, "+") => self.unary(),
            (PpKind::Punct, "~") => {
                let v = self.unary();
                (!v.0, v.1)
            }
            (PpKind::Punct, "!") => {
                let v = self.unary();
                ((v.0 == 0) as i64, false)
            }
            (PpKind::Number, s) => match crate::literal::parse_int(s) {
                Ok((v, k)) => (v as i64, !k.is_signed()),
                Err(_) => {
                    self.error(self.pos - 1, "invalid integer in preprocessor expression");
                    (0, false)
                }
            },
            (PpKind::Char, s) => match crate::literal::parse_char(s) {
                Ok(v) => (v as i64, false),
                Err(m) => {
                    self.error(self.pos - 1, &m);
                    (0, false)
                }
            },
            (PpKind::Ident, _) => (0, false),
            _ => {
                self.pos -= 1;
                let _ = self.peek();
                self.error(self.pos, "unexpected token in preprocessor expression");
                (0, false)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Preprocesses `src` and joins the resulting token texts with spaces.
    fn pp(src: &str) -> (String, Vec<Diagnostic>) {
        let mut sm = SourceMap::new();
        let f = sm.add_file("t.cl", src);
        let opts = Options::default();
        let p = Preprocessor::new(&mut sm, &opts, f);
        let (out, diags) = p.run(f);
        let text: Vec<String> = out.tokens.iter().map(|t| t.text.to_string()).collect();
        (text.join(" "), diags)
    }

    #[test]
    fn object_and_function_macros() {
        assert_eq!(pp("#define N 4\nint a[N];").0, "int a [ 4 ] ;");
        assert_eq!(
            pp("#define SQ(x) ((x)*(x))\nSQ(a+1)").0,
            "( ( a + 1 ) * ( a + 1 ) )"
        );
        assert_eq!(pp("#define F(x) x\nF (1) F").0, "1 F");
        assert_eq!(pp("#define E() 7\nE()").0, "7");
    }

    #[test]
    fn paste_stringize_variadic() {
        assert_eq!(
            pp("#define VEC(t, n) t##n\nVEC(float, 4) v;").0,
            "float4 v ;"
        );
        assert_eq!(pp("#define S(x) #x\nS(a + \"b\")").0, "\"a + \\\"b\\\"\"");
        assert_eq!(
            pp("#define P(f, ...) f(__VA_ARGS__)\nP(g, 1, 2)").0,
            "g ( 1 , 2 )"
        );
        assert_eq!(pp("#define CAT(a, b) a##b\nCAT(x, )").0, "x");
    }

    #[test]
    fn recursion_stops() {
        assert_eq!(pp("#define x x + 1\nx").0, "x + 1");
        assert_eq!(pp("#define a b\n#define b a\na b").0, "a b");
        assert_eq!(pp("#define f(x) x f\nf(1)(2)").0, "1 f ( 2 )");
    }

    #[test]
    fn conditionals() {
        let src = "#if defined(A) || 2 * 3 == 6\nyes\n#else\nno\n#endif\n#ifdef A\nA\n#elif 0\nB\n#elif 1 ? 1 : 0\nC\n#endif";
        assert_eq!(pp(src).0, "yes C");
        assert_eq!(pp("#if 0\n#bogus @@@ '\n#endif\nok").0, "ok");
        assert_eq!(
            pp("#if -1 < 0u\nsigned\n#else\nunsigned\n#endif").0,
            "unsigned"
        );
        assert_eq!(
            pp("#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0\nv2\n#endif").0,
            "v2"
        );
    }

    #[test]
    fn pragmas_become_tokens() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("t.cl", "#pragma unroll 4\nfor\n#pragma unroll\n#pragma nounroll\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
        let opts = Options::default();
        let (out, diags) = Preprocessor::new(&mut sm, &opts, f).run(f);
        assert!(diags.is_empty(), "{:?}", diags);
        let kinds: Vec<_> = out
            .tokens
            .iter()
            .map(|t| (t.kind.clone(), t.text.to_string()))
            .collect();
        assert_eq!(kinds[0], (PpKind::Pragma(Some(4)), "unroll".to_string()));
        assert_eq!(kinds[2], (PpKind::Pragma(None), "unroll".to_string()));
        assert_eq!(kinds[3], (PpKind::Pragma(None), "nounroll".to_string()));
        assert!(out.extensions.contains("cl_khr_fp16"));
    }

    #[test]
    fn line_and_file() {
        assert_eq!(pp("\n\n__LINE__").0, "3");
        assert_eq!(pp("__FILE__").0, "\"t.cl\"");
    }

    #[test]
    fn expansion_spans_are_the_use() {
        let mut sm = SourceMap::new();
        let src = "#define ONE 1\n#define ADD(a, b) a + b\nx = ONE; y = ADD(z, 2);";
        let f = sm.add_file("t.cl", src);
        let opts = Options::default();
        let (out, _) = Preprocessor::new(&mut sm, &opts, f).run(f);
        let one = out.tokens.iter().find(|t| &*t.text == "1").expect("1");
        assert_eq!(sm.snippet(one.span), "ONE");
        let plus = out.tokens.iter().find(|t| &*t.text == "+").expect("+");
        assert_eq!(sm.snippet(plus.span), "ADD(z, 2)");
        let z = out.tokens.iter().find(|t| &*t.text == "z").expect("z");
        assert_eq!(sm.snippet(z.span), "z");
    }
}
