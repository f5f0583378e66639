//! Macro expansion (Prosser's algorithm with hide sets): object- and function-like macros,
//! argument collection, substitution with `#` and `##`, `__VA_ARGS__`, and the expansion
//! budget.

use super::{Macro, Preprocessor, MAX_EXPANDED_TOKENS, MAX_EXPAND_DEPTH};
use crate::diag::Diagnostic;
use crate::lexer::{lex, PpKind, PpToken};
use crate::span::Span;
use std::collections::VecDeque;
use std::rc::Rc;

impl Preprocessor<'_> {
    /// Fully macro-expands a token list.
    pub(super) fn expand(&mut self, input: Vec<PpToken>) -> Vec<PpToken> {
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
    pub(super) fn collect_args(
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

    pub(super) fn match_args(
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

    pub(super) fn substitute(
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
