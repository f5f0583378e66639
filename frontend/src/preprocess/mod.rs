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
//!
//! This module holds the driver (predefined macros, the conditional-group stack, the token
//! loop); directives, `#include`, `#pragma`, `#if` expressions and macro expansion each have
//! a submodule.

mod directive;
mod expand;
mod if_expr;
mod include;
mod pragma;
mod predefined;

use crate::diag::Diagnostic;
use crate::lexer::{lex, PpToken};
use crate::span::{FileId, SourceMap, Span};
use crate::Options;
use predefined::{PREDEFINED, PREDEFINED_FP64};
use std::collections::{HashMap, HashSet};
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
}
