//! `#if` expressions: `defined`, macro expansion, then C integer arithmetic in
//! `intmax_t`/`uintmax_t` (64 bits) with a bounded nesting depth.

use super::{Preprocessor, MAX_IF_EXPR_DEPTH};
use crate::diag::Diagnostic;
use crate::lexer::{PpKind, PpToken};
use crate::span::Span;

impl Preprocessor<'_> {
    /// Evaluates a `#if` expression; errors count as false. The numeric value is left in
    /// `last_if_value` for `#pragma unroll N`.
    pub(super) fn eval_if(&mut self, toks: &[PpToken], dspan: Span) -> bool {
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
