//! Token adapter between the preprocessor and the lalrpop grammar, and the parse entry point.
//!
//! **The typedef problem (the "lexer hack").** C cannot be parsed without knowing which
//! identifiers name types (`T * x;`). The adapter classifies each identifier *when the parser
//! pulls it*: keywords, built-in type words (`int`, `float4`, `size_t`), names that are typedef
//! names in the innermost scope that declares them (`ParseState::scopes`) become
//! `TypedefName`, everything else `Ident`. The grammar records a name in the innermost scope in
//! the action of a declarator (as a typedef name for `typedef` declarations, as an ordinary
//! identifier otherwise), which lalrpop reduces while the lookahead is the following `,`, `=`
//! or `;` — before the token after the declaration has been pulled — so `typedef int T; T x;`
//! works. The adapter opens a scope when it hands out `{` and closes it with `}`, so block-scope
//! typedefs end with their block and an inner declaration can shadow an outer typedef name.
//! An identifier directly after a type specifier (`int T`, `T T2`) is never a type name (C has
//! no two-type declarations), which is how a shadowing declarator is recognised.
//! Limitations: a function parameter does not shadow a typedef name inside the body, and a
//! `for` declaration shadows until the end of the enclosing block.
//!
//! The adapter also turns pp-numbers and character/string literals into typed literal tokens,
//! reports invalid tokens, and caps bracket nesting so that hostile input (10,000 nested
//! parentheses) gets a diagnostic instead of an enormous tree.

use crate::diag::Diagnostic;
use crate::lexer::{PpKind, PpToken};
use crate::literal::{self, FloatSuffix};
use crate::span::{FileId, Span};
use crate::syntax::TranslationUnit;
use crate::types::ScalarKind;
use lalrpop_util::ParseError;
use std::cell::RefCell;
use std::collections::HashSet;

/// Maximum nesting of `(`, `[` and `{` together.
pub const MAX_NESTING: u32 = 256;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub file: FileId,
    pub off: u32,
}

/// Span from the start of the first to the end of the last token of a production.
pub fn sp(l: Pos, r: Pos) -> Span {
    if l.file == r.file && r.off >= l.off {
        Span::new(l.file, l.off, r.off)
    } else {
        Span::new(l.file, l.off, l.off)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct IntTok {
    pub value: u64,
    pub kind: ScalarKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FloatTok {
    pub value: f64,
    pub suffix: FloatSuffix,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PragmaVal {
    pub name: String,
    pub arg: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    TypedefName(String),
    TypeWord(String),
    IntLit(IntTok),
    FloatLit(FloatTok),
    CharLit(u64),
    StrLit(String),
    Pragma(PragmaVal),
    Kw(&'static str),
    Punct(&'static str),
}

/// Aborts the parse (the diagnostic is already in `ParseState::diags`).
#[derive(Clone, Debug, PartialEq)]
pub struct LexAbort;

#[derive(Default)]
pub struct ParseState {
    /// Scopes, innermost last: name -> whether it is a typedef name there (false: an
    /// ordinary identifier that shadows an outer typedef name). Empty means file scope only.
    scopes: RefCell<Vec<std::collections::HashMap<String, bool>>>,
    pub diags: RefCell<Vec<Diagnostic>>,
    /// Spans of syntax errors already reported (to drop duplicates from error recovery).
    seen: RefCell<HashSet<(u32, u32, u32)>>,
    /// End of the token before each recent token (keyed by the token's file and start), so
    /// that "expected `;`" can point just after the previous token as C compilers do. The
    /// flag says whether the token starts a line.
    prev_end: RefCell<Recent<(Pos, bool)>>,
    /// For a recent identifier that directly follows another identifier: the first
    /// identifier and its position, for "`T` is not a type name here".
    ident_pairs: RefCell<Recent<(String, Pos, Pos)>>,
}

/// Facts about the most recently pulled tokens. A syntax error is found at the lookahead
/// token, at most a few tokens before the newest one (error recovery may drop tokens first;
/// then the message falls back to the generic form). A bounded window keeps hostile input
/// (millions of tokens) from paying for a map entry per token.
struct Recent<T> {
    items: std::collections::VecDeque<((u32, u32), T)>,
}

impl<T> Default for Recent<T> {
    fn default() -> Self {
        Recent {
            items: std::collections::VecDeque::new(),
        }
    }
}

impl<T> Recent<T> {
    const WINDOW: usize = 256;

    fn insert(&mut self, key: (u32, u32), v: T) {
        if self.items.len() == Self::WINDOW {
            self.items.pop_front();
        }
        self.items.push_back((key, v));
    }

    fn get(&self, key: &(u32, u32)) -> Option<&T> {
        self.items
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

impl ParseState {
    pub fn add_typedef(&self, name: &str) {
        let mut sc = self.scopes.borrow_mut();
        if sc.is_empty() {
            sc.push(Default::default());
        }
        if let Some(top) = sc.last_mut() {
            top.insert(name.to_string(), true);
        }
    }

    /// Records an ordinary declarator name: it hides a typedef name of an outer scope.
    pub fn add_ordinary(&self, name: &str) {
        if !self.is_typedef(name) {
            return;
        }
        if let Some(top) = self.scopes.borrow_mut().last_mut() {
            top.insert(name.to_string(), false);
        }
    }

    pub fn is_typedef(&self, name: &str) -> bool {
        self.scopes
            .borrow()
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .unwrap_or(false)
    }

    fn push_scope(&self) {
        let mut sc = self.scopes.borrow_mut();
        if sc.is_empty() {
            sc.push(Default::default());
        }
        sc.push(Default::default());
    }

    fn pop_scope(&self) {
        let mut sc = self.scopes.borrow_mut();
        // never the file scope (unbalanced braces in erroneous input)
        if sc.len() > 1 {
            sc.pop();
        }
    }

    pub fn error(&self, d: Diagnostic) {
        self.diags.borrow_mut().push(d);
    }

    /// Records a syntax error found during error recovery.
    pub fn record(&self, e: lalrpop_util::ErrorRecovery<Pos, Tok, LexAbort>) {
        if let Some(d) = self.convert(e.error) {
            let s = d.span();
            if self.seen.borrow_mut().insert((s.file.0, s.start, s.end)) {
                self.error(d);
            }
        }
    }
}

const KEYWORDS: &[(&str, &str)] = &[
    ("typedef", "typedef"),
    ("extern", "extern"),
    ("static", "static"),
    ("auto", "auto"),
    ("register", "register"),
    ("inline", "inline"),
    ("__inline", "inline"),
    ("__inline__", "inline"),
    ("const", "const"),
    ("__const", "const"),
    ("volatile", "volatile"),
    ("__volatile__", "volatile"),
    ("restrict", "restrict"),
    ("__restrict", "restrict"),
    ("__restrict__", "restrict"),
    ("kernel", "kernel"),
    ("__kernel", "kernel"),
    ("global", "global"),
    ("__global", "global"),
    ("local", "local"),
    ("__local", "local"),
    ("constant", "constant"),
    ("__constant", "constant"),
    ("private", "private"),
    ("__private", "private"),
    ("generic", "generic"),
    ("__generic", "generic"),
    ("read_only", "read_only"),
    ("__read_only", "read_only"),
    ("write_only", "write_only"),
    ("__write_only", "write_only"),
    ("read_write", "read_write"),
    ("__read_write", "read_write"),
    ("pipe", "pipe"),
    ("__attribute__", "__attribute__"),
    ("__attribute", "__attribute__"),
    ("struct", "struct"),
    ("union", "union"),
    ("enum", "enum"),
    ("sizeof", "sizeof"),
    ("vec_step", "vec_step"),
    ("_Alignof", "_Alignof"),
    ("__alignof__", "_Alignof"),
    ("__alignof", "_Alignof"),
    // Not a C keyword, but issue 3 lists `alignof` among the operators kernels use.
    ("alignof", "_Alignof"),
    ("if", "if"),
    ("else", "else"),
    ("for", "for"),
    ("while", "while"),
    ("do", "do"),
    ("switch", "switch"),
    ("case", "case"),
    ("default", "default"),
    ("break", "break"),
    ("continue", "continue"),
    ("return", "return"),
    ("goto", "goto"),
];

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "[", "]", "(", ")", "{", "}", ".", "&", "*", "+",
    "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",",
];

/// Whether `name` is a built-in type word (scalar, vector and opaque OpenCL types).
pub fn is_type_word(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "void",
        "bool",
        "_Bool",
        "char",
        "uchar",
        "short",
        "ushort",
        "int",
        "uint",
        "long",
        "ulong",
        "float",
        "double",
        "half",
        "signed",
        "unsigned",
        "__signed",
        "__signed__",
        "size_t",
        "ptrdiff_t",
        "intptr_t",
        "uintptr_t",
        "event_t",
        "reserve_id_t",
        "counter32_t",
        "counter64_t",
        "cl_mem_fence_flags",
        "sampler_t",
        "queue_t",
        "clk_event_t",
        "ndrange_t",
        "image1d_t",
        "image1d_array_t",
        "image1d_buffer_t",
        "image2d_t",
        "image2d_array_t",
        "image2d_depth_t",
        "image2d_array_depth_t",
        "image3d_t",
        "image2d_msaa_t",
        "image2d_array_msaa_t",
        "image2d_msaa_depth_t",
        "image2d_array_msaa_depth_t",
        "atomic_int",
        "atomic_uint",
        "atomic_long",
        "atomic_ulong",
        "atomic_float",
        "atomic_double",
        "atomic_flag",
        "atomic_intptr_t",
        "atomic_uintptr_t",
        "atomic_size_t",
        "atomic_ptrdiff_t",
        "memory_order",
        "memory_scope",
    ];
    if WORDS.contains(&name) {
        return true;
    }
    vector_type(name).is_some()
}

/// `float4` -> (Float, 4).
pub fn vector_type(name: &str) -> Option<(ScalarKind, u8)> {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let base = &name[..name.len() - digits.len()];
    let n: u8 = match digits {
        "2" => 2,
        "3" => 3,
        "4" => 4,
        "8" => 8,
        "16" => 16,
        _ => return None,
    };
    let k = scalar_word(base)?;
    if k == ScalarKind::Bool {
        return None;
    }
    Some((k, n))
}

/// `uint` -> UInt (single-word scalar names only).
pub fn scalar_word(name: &str) -> Option<ScalarKind> {
    Some(match name {
        "bool" | "_Bool" => ScalarKind::Bool,
        "char" => ScalarKind::Char,
        "uchar" => ScalarKind::UChar,
        "short" => ScalarKind::Short,
        "ushort" => ScalarKind::UShort,
        "int" => ScalarKind::Int,
        "uint" => ScalarKind::UInt,
        "long" => ScalarKind::Long,
        "ulong" => ScalarKind::ULong,
        "half" => ScalarKind::Half,
        "float" => ScalarKind::Float,
        "double" => ScalarKind::Double,
        _ => return None,
    })
}

type Spanned = Result<(Pos, Tok, Pos), LexAbort>;

/// Iterator of parser tokens over preprocessed tokens.
pub struct TokenStream<'s> {
    toks: std::vec::IntoIter<PpToken>,
    state: &'s ParseState,
    depth: u32,
    aborted: bool,
    last_end: Option<Pos>,
    /// The previous token was a type specifier (a type word or a typedef name).
    after_type: bool,
    /// The previous token, if it was an identifier.
    last_ident: Option<(String, Pos, Pos)>,
}

impl<'s> TokenStream<'s> {
    pub fn new(toks: Vec<PpToken>, state: &'s ParseState) -> TokenStream<'s> {
        TokenStream {
            toks: toks.into_iter(),
            state,
            depth: 0,
            aborted: false,
            last_end: None,
            after_type: false,
            last_ident: None,
        }
    }
}

impl Iterator for TokenStream<'_> {
    type Item = Spanned;

    fn next(&mut self) -> Option<Spanned> {
        if self.aborted {
            return None;
        }
        loop {
            let t = self.toks.next()?;
            let l = Pos {
                file: t.span.file,
                off: t.span.start,
            };
            let r = Pos {
                file: t.span.file,
                off: t.span.end,
            };
            let tok = match &t.kind {
                PpKind::Ident => {
                    let s: &str = &t.text;
                    if let Some((_, k)) = KEYWORDS.iter().find(|(w, _)| *w == s) {
                        Tok::Kw(k)
                    } else if s == "true" || s == "false" {
                        Tok::IntLit(IntTok {
                            value: (s == "true") as u64,
                            kind: ScalarKind::Int,
                        })
                    } else if is_type_word(s) {
                        Tok::TypeWord(s.to_string())
                    } else if !self.after_type && self.state.is_typedef(s) {
                        Tok::TypedefName(s.to_string())
                    } else {
                        Tok::Ident(s.to_string())
                    }
                }
                PpKind::Number => {
                    if literal::is_float_literal(&t.text) {
                        match literal::parse_float(&t.text) {
                            Ok((value, suffix)) => Tok::FloatLit(FloatTok { value, suffix }),
                            Err(m) => {
                                self.state.error(Diagnostic::error(t.span, m).note(
                                    "floating literals look like `1.0f`, `2.5e-3f` or `0x1.8p3f`",
                                ));
                                Tok::FloatLit(FloatTok {
                                    value: 0.0,
                                    suffix: FloatSuffix::F,
                                })
                            }
                        }
                    } else {
                        match literal::parse_int(&t.text) {
                            Ok((value, kind)) => Tok::IntLit(IntTok { value, kind }),
                            Err(m) => {
                                self.state.error(Diagnostic::error(t.span, m).note(
                                    "integer literals take the suffixes `u`, `l`, `ul`; a float needs a `.` (`1.0f`)",
                                ));
                                Tok::IntLit(IntTok {
                                    value: 0,
                                    kind: ScalarKind::Int,
                                })
                            }
                        }
                    }
                }
                PpKind::Char => match literal::parse_char(&t.text) {
                    Ok(v) => Tok::CharLit(v),
                    Err(m) => {
                        self.state.error(Diagnostic::error(t.span, m));
                        Tok::CharLit(0)
                    }
                },
                PpKind::Str => match literal::parse_string(&t.text) {
                    Ok(s) => Tok::StrLit(s),
                    Err(m) => {
                        self.state.error(Diagnostic::error(t.span, m));
                        Tok::StrLit(String::new())
                    }
                },
                PpKind::Punct => match PUNCTS.iter().find(|p| **p == &*t.text) {
                    Some(p) => Tok::Punct(p),
                    None => {
                        self.state.error(
                            Diagnostic::error(
                                t.span,
                                format!("`{}` outside of a preprocessor directive", t.text),
                            )
                            .note("`#` and `##` are only meaningful in `#define` bodies"),
                        );
                        continue;
                    }
                },
                PpKind::Invalid(m) => {
                    self.state.error(
                        Diagnostic::error(t.span, m.to_string())
                            .note("remove the character; OpenCL C source is plain C text"),
                    );
                    continue;
                }
                PpKind::Pragma(arg) => Tok::Pragma(PragmaVal {
                    name: t.text.to_string(),
                    arg: *arg,
                }),
            };
            self.after_type = matches!(tok, Tok::TypeWord(_) | Tok::TypedefName(_));
            if let Tok::Ident(n) = &tok {
                if let Some((prev, pl, pr)) = self.last_ident.take() {
                    self.state
                        .ident_pairs
                        .borrow_mut()
                        .insert((l.file.0, l.off), (prev, pl, pr));
                }
                self.last_ident = Some((n.clone(), l, r));
            } else {
                self.last_ident = None;
            }
            match tok {
                Tok::Punct("{") => self.state.push_scope(),
                Tok::Punct("}") => self.state.pop_scope(),
                _ => {}
            }
            match tok {
                Tok::Punct("(" | "[" | "{") => {
                    self.depth += 1;
                    if self.depth > MAX_NESTING {
                        self.state.error(
                            Diagnostic::error(t.span, "brackets nested too deeply")
                                .note(format!(
                                    "at most {} levels of (), [] and {{}} may be nested; split the expression or statement",
                                    MAX_NESTING
                                )),
                        );
                        self.aborted = true;
                        return Some(Err(LexAbort));
                    }
                }
                Tok::Punct(")" | "]" | "}") => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            if let Some(p) = self.last_end.replace(r) {
                self.state
                    .prev_end
                    .borrow_mut()
                    .insert((l.file.0, l.off), (p, t.bol));
            }
            return Some(Ok((l, tok, r)));
        }
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(n) => format!("identifier `{}`", n),
        Tok::TypedefName(n) => format!("type name `{}`", n),
        Tok::TypeWord(n) => format!("type `{}`", n),
        Tok::IntLit(i) => format!("number `{}`", i.value),
        Tok::FloatLit(f) => format!("number `{}`", f.value),
        Tok::CharLit(_) => "character constant".into(),
        Tok::StrLit(_) => "string literal".into(),
        Tok::Pragma(p) => format!("`#pragma {}`", p.name),
        Tok::Kw(k) => format!("keyword `{}`", k),
        Tok::Punct(p) => format!("`{}`", p),
    }
}

fn expected_list(expected: &[String]) -> Option<String> {
    let names: Vec<String> = expected
        .iter()
        .map(|e| {
            let e = e.trim_matches('"').replace("\\\"", "\"");
            match e.as_str() {
                "Ident" => "identifier".to_string(),
                "TypedefName" | "TypeWord" => "type".to_string(),
                "IntLit" | "FloatLit" | "CharLit" => "number".to_string(),
                "StrLit" => "string".to_string(),
                "Pragma" => "#pragma".to_string(),
                other => format!("`{}`", other),
            }
        })
        .fold(Vec::new(), |mut v, n| {
            if !v.contains(&n) {
                v.push(n);
            }
            v
        });
    if names.is_empty() || names.len() > 6 {
        return None;
    }
    let mut s = String::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        s.push_str(n);
    }
    Some(s)
}

impl ParseState {
    fn convert(&self, e: ParseError<Pos, Tok, LexAbort>) -> Option<Diagnostic> {
        // `name name`: the first identifier was meant as a type but is none here.
        if let ParseError::UnrecognizedToken {
            token: (l, Tok::Ident(_), r),
            ..
        } = &e
        {
            if let Some((ty, tl, tr)) = self.ident_pairs.borrow().get(&(l.file.0, l.off)) {
                return Some(
                    Diagnostic::error(sp(*tl, *tr), format!("`{}` is not a type name here", ty))
                        .label(sp(*l, *r), "so this name cannot be declared with it")
                        .note("a type name must be declared with `typedef` in this block or an enclosing one (a typedef inside `{ }` ends with the block, and a variable of the same name hides it)"),
                );
            }
        }
        // A missing `;` (or `)`/`]`) is reported after the previous token, where it belongs.
        if let ParseError::UnrecognizedToken {
            token: (l, ref t, r),
            ref expected,
        } = e
        {
            let fits = |c: &str| expected.iter().any(|x| x.trim_matches('"') == c);
            // prefer the closer that a `{`/`;` in this position most likely lacks
            let closer = if matches!(t, Tok::Punct("{" | ";")) && fits(")") {
                Some(")")
            } else {
                [";", ")", "]"].into_iter().find(|c| fits(c))
            };
            let prev = self.prev_end.borrow().get(&(l.file.0, l.off)).copied();
            if let (Some(c), Some((p, bol))) = (closer, prev) {
                // Either only a closer fits, or `;` fits and the offending token starts the
                // next line: the classic forgotten semicolon.
                let opener = matches!(t, Tok::Punct("{" | ";"));
                let likely = expected.len() <= 3 || (c == ";" && bol) || (c != ";" && opener);
                if likely && p.file == l.file {
                    let at = sp(p, p);
                    return Some(
                        Diagnostic::error(at, format!("expected `{}`", c))
                            .label(at, format!("expected `{}` here", c))
                            .label(sp(l, r), format!("found {}", describe(t))),
                    );
                }
            }
        }
        convert_error(e)
    }
}

fn convert_error(e: ParseError<Pos, Tok, LexAbort>) -> Option<Diagnostic> {
    match e {
        ParseError::User { .. } => None,
        ParseError::InvalidToken { location } => {
            Some(Diagnostic::error(sp(location, location), "invalid token"))
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let mut d = Diagnostic::error(sp(location, location), "unexpected end of file");
            if let Some(x) = expected_list(&expected) {
                d = d.label(sp(location, location), format!("expected {}", x));
            }
            Some(d.note("is a `}` or `;` missing?"))
        }
        ParseError::UnrecognizedToken {
            token: (l, t, r),
            expected,
        } => {
            let span = sp(l, r);
            let msg = match expected_list(&expected) {
                Some(x) => format!("expected {}, found {}", x, describe(&t)),
                None => format!("unexpected {}", describe(&t)),
            };
            let mut d = Diagnostic::error(span, msg);
            if let Tok::Ident(n) = &t {
                if expected.iter().any(|e| e == "\";\"") {
                    d = d.note("is a `;` missing before it?");
                } else {
                    d = d.note(format!(
                        "if `{}` is meant to be a type, it must be declared with `typedef` before this point",
                        n
                    ));
                }
            } else if matches!(t, Tok::Punct("}")) && expected.iter().any(|e| e == "\";\"") {
                d = d.note("is a `;` missing before it?");
            }
            Some(d)
        }
        ParseError::ExtraToken { token: (l, t, r) } => Some(Diagnostic::error(
            sp(l, r),
            format!("unexpected {}", describe(&t)),
        )),
    }
}

/// Parses preprocessed tokens. Returns the tree (possibly with `Error` nodes) and every
/// syntax diagnostic.
pub fn parse(toks: Vec<PpToken>, eof: Span) -> (TranslationUnit, Vec<Diagnostic>) {
    let state = ParseState::default();
    let stream = TokenStream::new(toks, &state);
    let result = crate::grammar::TranslationUnitParser::new().parse(&state, stream);
    let tu = match result {
        Ok(tu) => tu,
        Err(e) => {
            let e = match e {
                ParseError::UnrecognizedEof { location, expected } if location.off == 0 => {
                    ParseError::UnrecognizedEof {
                        location: Pos {
                            file: eof.file,
                            off: eof.end,
                        },
                        expected,
                    }
                }
                e => e,
            };
            if let Some(d) = state.convert(e) {
                let s = d.span();
                if state.seen.borrow_mut().insert((s.file.0, s.start, s.end)) {
                    state.error(d);
                }
            }
            TranslationUnit::default()
        }
    };
    (tu, state.diags.into_inner())
}
