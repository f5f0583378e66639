//! Loop attributes: `opencl_unroll_hint`, Xilinx `xcl_pipeline_loop` and
//! `xcl_loop_tripcount` -> `LoopAttrs`.

use super::Place;
use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

impl Checker<'_> {
    /// Validates the attributes of a statement; loop attributes on another statement are
    /// ignored with a warning (their arguments are still checked).
    pub(crate) fn loop_attrs(&mut self, attrs: &[Attribute], is_loop: bool) -> LoopAttrs {
        let mut unroll: Option<(Unroll, Span)> = None;
        let mut ii: Option<(u32, Span)> = None;
        let mut tripcount: Option<(TripCount, Span)> = None;
        for a in attrs {
            match Place::of(&a.name) {
                Some(Place::Loop) => {}
                Some(p) => {
                    self.misplaced(a, p);
                    continue;
                }
                None => continue,
            }
            if !is_loop {
                self.misplaced(a, Place::Loop);
            }
            match a.name.as_str() {
                "opencl_unroll_hint" => {
                    if let Some(n) = self.optional_positive(a, "opencl_unroll_hint(4)") {
                        let u = n.map_or(Unroll::Full, Unroll::Count);
                        self.set_once(&mut unroll, u, a);
                    }
                }
                "xcl_pipeline_loop" => {
                    if let Some(n) = self.optional_positive(a, "xcl_pipeline_loop(1)") {
                        self.set_once(&mut ii, n.unwrap_or(1), a);
                    }
                }
                "xcl_loop_tripcount" => {
                    let example = "xcl_loop_tripcount(16, 64)";
                    let Some(v) = self.attr_ints(a, &[2, 3], 0, u32::MAX, example) else {
                        continue;
                    };
                    if v[0] > v[1] {
                        self.error(
                            Diagnostic::error(
                                a.span,
                                format!(
                                    "the minimum trip count {} of `xcl_loop_tripcount` is larger than the maximum {}",
                                    v[0], v[1]
                                ),
                            )
                            .note("write `__attribute__((xcl_loop_tripcount(min, max)))`"),
                        );
                        continue;
                    }
                    let t = TripCount {
                        min: v[0],
                        max: v[1],
                        avg: v.get(2).copied(),
                    };
                    self.set_once(&mut tripcount, t, a);
                }
                other => unreachable!("`{other}` is not a loop attribute"),
            }
        }
        if !is_loop {
            return LoopAttrs::default();
        }
        LoopAttrs {
            unroll_hint: unroll.map(|x| x.0),
            pipeline_ii: ii.map(|x| x.0),
            tripcount: tripcount.map(|x| x.0),
        }
    }
}
