//! Directives: the dispatch of `#...` lines (conditional groups, `#define`/`#undef`,
//! `#line`, `#error`/`#warning`) and macro definitions.

use super::{Cond, Macro, Preprocessor};
use crate::diag::Diagnostic;
use crate::lexer::{PpKind, PpToken};
use crate::span::{FileId, Span};
use std::rc::Rc;

impl Preprocessor<'_> {
    pub(super) fn directive(
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
    pub(super) fn line_directive(&mut self, rest: &[PpToken], dspan: Span) {
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

    pub(super) fn warn_extra(&mut self, extra: &[PpToken], directive: &str) {
        let span = extra[0].span.to(extra[extra.len() - 1].span);
        self.err(Diagnostic::warning(
            span,
            format!("extra tokens at end of `#{}` directive", directive),
        ));
    }

    pub(super) fn define(&mut self, rest: &[PpToken], dspan: Span, quiet: bool) {
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
