//! `#include "file"` and `<file>`: search order, include depth, `#pragma once`.

use super::{Preprocessor, MAX_INCLUDE_DEPTH};
use crate::diag::Diagnostic;
use crate::lexer::{lex, PpKind, PpToken};
use crate::span::{FileId, Span};
use std::path::{Path, PathBuf};

impl Preprocessor<'_> {
    pub(super) fn include(&mut self, file: FileId, rest: &[PpToken], dspan: Span) {
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
}
