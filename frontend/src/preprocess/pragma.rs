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
                    let Some(n) = self.pragma_count(&rest[1..], dspan, 1) else {
                        self.err(
                            Diagnostic::error(
                                dspan,
                                "`#pragma unroll` needs a positive integer factor",
                            )
                            .note("write `#pragma unroll 4`, or `#pragma unroll` to unroll fully"),
                        );
                        return;
                    };
                    arg = Some(n);
                } else if kw == "nounroll" && rest.len() > 1 {
                    self.warn_extra(&rest[1..], "pragma nounroll");
                }
                self.loop_pragma(kw, arg, dspan);
            }
            // Intel's loop pragmas: `loop_coalesce [N]`, `ii N`, `speculated_iterations N`.
            "loop_coalesce" | "ii" | "speculated_iterations" => {
                let (min, example) = match kw {
                    "loop_coalesce" => (1, "`#pragma loop_coalesce` or `#pragma loop_coalesce 2`"),
                    "ii" => (1, "`#pragma ii 2`"),
                    _ => (0, "`#pragma speculated_iterations 0`"),
                };
                let arg = if rest.len() > 1 {
                    self.pragma_count(&rest[1..], dspan, min)
                } else {
                    None
                };
                if arg.is_none() && (kw != "loop_coalesce" || rest.len() > 1) {
                    let what = if min == 0 { "a non-negative" } else { "a positive" };
                    self.err(
                        Diagnostic::error(dspan, format!("`#pragma {kw}` needs {what} integer"))
                            .note(format!("write {example}")),
                    );
                    return;
                }
                self.loop_pragma(kw, arg, dspan);
            }
            // `loop_flatten [off]` (Vitis), also spelt `#pragma HLS loop_flatten [off]`, and
            // `#pragma HLS pipeline II=N` (the `ii` pragma).
            "loop_flatten" => self.flatten_pragma(&rest[1..], dspan),
            "HLS" => self.hls_pragma(&rest[1..], dspan),
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
                    "supported pragmas: `unroll [N]`, `nounroll`, `loop_coalesce [N]`, `loop_flatten [off]`, `ii N`, `speculated_iterations N`, `HLS loop_flatten [off]`, `HLS pipeline II=N`, `OPENCL EXTENSION`, `once`",
                ),
            ),
        }
    }

    /// A positive (or, with `min` 0, non-negative) integer constant expression after a
    /// pragma's name, optionally in parentheses.
    fn pragma_count(&mut self, toks: &[PpToken], dspan: Span, min: i64) -> Option<u64> {
        let mut toks = toks;
        if toks.len() > 1 && toks[0].is_punct("(") && toks.last().is_some_and(|t| t.is_punct(")")) {
            toks = &toks[1..toks.len() - 1];
        }
        self.eval_if(toks, dspan);
        match self.last_if_value {
            Some(n) if n >= min => Some(n as u64),
            _ => None,
        }
    }

    /// A loop pragma token for the grammar: it applies to the statement after it.
    fn loop_pragma(&mut self, name: &str, arg: Option<u64>, dspan: Span) {
        self.out.push(PpToken {
            kind: PpKind::Pragma(arg),
            text: name.into(),
            span: dspan,
            bol: true,
            space_before: true,
            hide: None,
        });
    }

    /// `loop_flatten` (arg `None`) or `loop_flatten off` (arg `Some(0)`).
    fn flatten_pragma(&mut self, rest: &[PpToken], dspan: Span) {
        let arg = match rest {
            [] => None,
            [t] if t.is_ident("off") => Some(0),
            _ => {
                self.err(
                    Diagnostic::error(dspan, "`#pragma loop_flatten` takes only `off`")
                        .note("write `#pragma loop_flatten` or `#pragma loop_flatten off`"),
                );
                return;
            }
        };
        self.loop_pragma("loop_flatten", arg, dspan);
    }

    /// Vitis HLS pragmas: `HLS loop_flatten [off]` and `HLS pipeline [II=N]`; others are
    /// reported and ignored.
    fn hls_pragma(&mut self, rest: &[PpToken], dspan: Span) {
        let Some(first) = rest.first() else {
            self.err(Diagnostic::warning(dspan, "empty `#pragma HLS` ignored"));
            return;
        };
        match &*first.text {
            "loop_flatten" => self.flatten_pragma(&rest[1..], dspan),
            "pipeline" => {
                let ii = match &rest[1..] {
                    [] => Some(1),
                    [k, eq, v @ ..] if k.text.eq_ignore_ascii_case("ii") && eq.is_punct("=") => {
                        self.pragma_count(v, dspan, 1)
                    }
                    _ => None,
                };
                let Some(ii) = ii else {
                    self.err(
                        Diagnostic::error(dspan, "`#pragma HLS pipeline` takes only `II=N` (a positive integer)")
                            .note("write `#pragma HLS pipeline II=1`"),
                    );
                    return;
                };
                self.loop_pragma("ii", Some(ii), dspan);
            }
            other => self.err(
                Diagnostic::warning(dspan, format!("unsupported `#pragma HLS {other}` ignored"))
                    .note("supported: `#pragma HLS loop_flatten [off]`, `#pragma HLS pipeline II=N`; write other directives as OpenCL attributes"),
            ),
        }
    }
}
