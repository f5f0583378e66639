//! `#pragma`: `unroll [N]` and `nounroll` become tokens for the grammar, `OPENCL EXTENSION`
//! records extensions, `once` marks the file; others are reported.

use super::Preprocessor;
use crate::diag::Diagnostic;
use crate::lexer::{PpKind, PpToken};
use crate::span::Span;

impl Preprocessor<'_> {
    pub(super) fn pragma(&mut self, rest: &[PpToken], dspan: Span) {
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
}
