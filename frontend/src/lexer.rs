//! Bytes -> preprocessing tokens (C99 6.4 pp-tokens), each with a span.
//!
//! The lexer never fails: text it cannot make sense of becomes an `Invalid` token carrying a
//! message, reported only if the preprocessor meets it outside a skipped `#if` group (so
//! garbage in `#if 0` is fine, as in C). Unterminated block comments are the one exception,
//! reported directly. Newlines are not tokens: each token records whether it starts a line,
//! which is all the preprocessor needs to find directives; backslash-newline is whitespace.

use crate::diag::Diagnostic;
use crate::span::{FileId, Span};
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PpKind {
    Ident,
    /// A pp-number (`12`, `0x1fu`, `1.5e-3f`, `1.0p+3`); validated when converted for the parser.
    Number,
    /// `'a'` including quotes.
    Char,
    /// `"..."` including quotes.
    Str,
    /// Operators and punctuators, including `#` and `##`.
    Punct,
    /// Anything else, with the message to report if the token is used.
    Invalid(Rc<str>),
    /// Inserted by the preprocessor: `#pragma unroll N` etc. (text = pragma name).
    Pragma(Option<u64>),
}

#[derive(Clone, Debug)]
pub struct PpToken {
    pub kind: PpKind,
    pub text: Rc<str>,
    pub span: Span,
    /// First token on its (logical) line.
    pub bol: bool,
    /// Whitespace or a comment precedes the token (needed for `#define F(x)` vs `F (x)` and
    /// for stringizing).
    pub space_before: bool,
    /// Macros that may not be expanded again in this token (the Prosser hide set), as macro
    /// names.
    pub hide: Option<Rc<Vec<Rc<str>>>>,
}

impl PpToken {
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == PpKind::Punct && &*self.text == p
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == PpKind::Ident && &*self.text == name
    }

    pub fn hidden(&self, name: &str) -> bool {
        self.hide
            .as_ref()
            .is_some_and(|h| h.iter().any(|n| &**n == name))
    }
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", "&", "*",
    "+", "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#",
];

/// Lexes a whole file. Diagnostics (unterminated comments) are appended to `diags`.
pub fn lex(text: &str, file: FileId, diags: &mut Vec<Diagnostic>) -> Vec<PpToken> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0usize;
    let mut bol = true;
    let mut space = false;
    let sp = |a: usize, e: usize| Span::new(file, a as u32, e as u32);
    while i < b.len() {
        let c = b[i];
        // whitespace and line structure
        if c == b'\n' {
            bol = true;
            space = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == 0x0b || c == 0x0c {
            space = true;
            i += 1;
            continue;
        }
        if c == b'\\' {
            // line continuation: backslash, optional spaces, newline
            let mut j = i + 1;
            while j < b.len() && (b[j] == b' ' || b[j] == b'\t' || b[j] == b'\r') {
                j += 1;
            }
            if j < b.len() && b[j] == b'\n' {
                i = j + 1;
                space = true;
                continue;
            }
        }
        if c == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            // line comment (continues over backslash-newline, as in C)
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\n' {
                    i += 1;
                }
                i += 1;
            }
            space = true;
            continue;
        }
        if c == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            let start = i;
            match text[i + 2..].find("*/") {
                Some(k) => i = i + 2 + k + 2,
                None => {
                    diags.push(
                        Diagnostic::error(sp(start, start + 2), "unterminated comment")
                            .label(sp(start, start + 2), "this comment is never closed")
                            .note("add `*/` where the comment should end"),
                    );
                    i = b.len();
                }
            }
            space = true;
            continue;
        }
        let start = i;
        let kind;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            kind = PpKind::Ident;
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit())
        {
            i += 1;
            while i < b.len() {
                let d = b[i];
                let exp_sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if exp_sign || d.is_ascii_alphanumeric() || d == b'_' || d == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
            kind = PpKind::Number;
        } else if c == b'\'' || c == b'"' {
            let q = c;
            i += 1;
            let mut closed = false;
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] != b'\n' {
                    i += 2;
                    continue;
                }
                if b[i] == q {
                    i += 1;
                    closed = true;
                    break;
                }
                i += 1;
            }
            i = i.min(b.len());
            kind = if !closed {
                PpKind::Invalid(
                    if q == b'\'' {
                        "missing terminating ' character"
                    } else {
                        "missing terminating \" character"
                    }
                    .into(),
                )
            } else if q == b'\'' {
                PpKind::Char
            } else {
                PpKind::Str
            };
        } else if let Some(p) = PUNCTS.iter().find(|p| b[i..].starts_with(p.as_bytes())) {
            i += p.len();
            kind = PpKind::Punct;
        } else {
            // Stray characters: group a run of them into one token so that binary garbage
            // produces one diagnostic per run, not per byte.
            let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
            i += ch.len_utf8();
            while i < b.len() {
                let d = b[i];
                if d.is_ascii_alphanumeric()
                    || d.is_ascii_whitespace()
                    || b"_'\"/\\".contains(&d)
                    || PUNCTS.iter().any(|p| b[i..].starts_with(p.as_bytes()))
                {
                    break;
                }
                i += text[i..].chars().next().map_or(1, |c| c.len_utf8());
            }
            let msg = if ch.is_ascii_graphic() {
                format!("unexpected character `{}`", ch)
            } else {
                format!("unexpected character U+{:04X}", ch as u32)
            };
            kind = PpKind::Invalid(msg.into());
        }
        toks.push(PpToken {
            kind,
            text: text[start..i].into(),
            span: sp(start, i),
            bol,
            space_before: space,
            hide: None,
        });
        bol = false;
        space = false;
    }
    toks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(PpKind, String)> {
        let mut d = Vec::new();
        lex(s, FileId(0), &mut d)
            .into_iter()
            .map(|t| (t.kind, t.text.to_string()))
            .collect()
    }

    #[test]
    fn basic() {
        let t = kinds("a+=1.5e-3f>>=x /* c */ 'a' \"s\\\"\"");
        let texts: Vec<_> = t.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            texts,
            ["a", "+=", "1.5e-3f", ">>=", "x", "'a'", "\"s\\\"\""]
        );
    }

    #[test]
    fn garbage_groups() {
        let t = kinds("a @@@ b");
        assert_eq!(t.len(), 3);
        assert!(matches!(t[1].0, PpKind::Invalid(_)));
    }

    #[test]
    fn unterminated_comment() {
        let mut d = Vec::new();
        lex("int /* x", FileId(0), &mut d);
        assert_eq!(d.len(), 1);
    }
}
