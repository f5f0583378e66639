//! Attributes (`__attribute__((...))`): the names the checker knows, the conversion of their
//! arguments (integer constants, identifiers, types, strings), and their validation into the
//! typed fields of the checked AST (`KernelAttrs`, `ParamAttrs`, `PipeAttrs`, `LoopAttrs`;
//! `packed` and `aligned` go into struct layouts). Each submodule validates the attributes
//! of one kind of declaration; an attribute with a typed meaning written somewhere else is
//! ignored with a warning.
//!
//! The other known names (vendor optimisation hints such as `xcl_array_partition`,
//! `numbanks`, `noinline`) are accepted and ignored without a warning; their arguments are
//! converted but not checked.

mod decl;
mod kernel;
mod loops;

use super::Checker;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

/// Attribute names that are understood or deliberately passed through without a warning.
const KNOWN_ATTRS: &[&str] = &[
    "reqd_work_group_size",
    "local_mem_size",
    "work_group_size_hint",
    "vec_type_hint",
    "intel_reqd_sub_group_size",
    "max_work_group_size",
    "max_global_work_dim",
    "num_compute_units",
    "num_simd_work_items",
    "uses_global_work_offset",
    "xcl_dataflow",
    "xcl_pipeline_workitems",
    "xcl_pipeline_loop",
    "xcl_loop_tripcount",
    "xcl_array_partition",
    "xcl_array_reshape",
    "xcl_reqd_pipe_depth",
    "xcl_zero_global_work_offset",
    "xcl_max_work_group_size",
    "opencl_unroll_hint",
    "aligned",
    "packed",
    "nosvm",
    "endian",
    "always_inline",
    "noinline",
    "unused",
    "used",
    "const",
    "pure",
    "depth",
    "register",
    "memory",
    "numbanks",
    "bankwidth",
    "singlepump",
    "doublepump",
    "max_concurrency",
    "ivdep",
    "autorun",
    "task",
    "scheduler_target_fmax_mhz",
    "stall_free",
    "max_replicates",
    "private_copies",
    "merge",
    "bank_bits",
    "force_pow2_depth",
    "io",
    "blocking",
    "speculated_iterations",
    "disable_loop_pipelining",
    "max_interleaving",
    "loop_coalesce",
    "ii",
    "nofusion",
    "xcl_latency",
    "xcl_single_workitem",
    "noduplicate",
    "convergent",
    "overloadable",
];

/// Where an attribute with a typed meaning applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// `KernelAttrs`.
    Kernel,
    /// `ParamAttrs::local_mem_size`.
    LocalPointerParam,
    /// `PipeAttrs::blocking`.
    PipeParam,
    /// `PipeAttrs::depth` (parameters and program-scope pipes).
    Pipe,
    /// `LoopAttrs`.
    Loop,
}

impl Place {
    fn of(name: &str) -> Option<Place> {
        Some(match name {
            "reqd_work_group_size"
            | "work_group_size_hint"
            | "vec_type_hint"
            | "max_work_group_size"
            | "xcl_max_work_group_size"
            | "max_global_work_dim" => Place::Kernel,
            "local_mem_size" => Place::LocalPointerParam,
            "blocking" => Place::PipeParam,
            "xcl_reqd_pipe_depth" | "depth" => Place::Pipe,
            "opencl_unroll_hint" | "xcl_pipeline_loop" | "xcl_loop_tripcount" => Place::Loop,
            _ => return None,
        })
    }

    fn what(self) -> &'static str {
        match self {
            Place::Kernel => "kernel functions",
            Place::LocalPointerParam => "`local` pointer parameters of kernels",
            Place::PipeParam => "pipe parameters",
            Place::Pipe => "pipes",
            Place::Loop => "loops",
        }
    }
}

pub(super) fn attr_base_name(n: &str) -> &str {
    n.strip_prefix("__")
        .and_then(|n| n.strip_suffix("__"))
        .unwrap_or(n)
}

impl Checker<'_> {
    pub(crate) fn convert_attrs(&mut self, attrs: &[syn::Attr]) -> Vec<Attribute> {
        let mut out = Vec::new();
        for a in attrs {
            let name = attr_base_name(&a.name).to_string();
            if !KNOWN_ATTRS.contains(&name.as_str()) {
                self.warn(
                    Diagnostic::warning(a.span, format!("unknown attribute `{}` ignored", name))
                        .note("check the spelling; OpenCL attributes include reqd_work_group_size, opencl_unroll_hint, aligned, packed"),
                );
            }
            let mut args = Vec::new();
            for arg in &a.args {
                let converted = match arg {
                    syn::AttrArgSyn::Type(t) => {
                        self.resolve_type_name(t).map(|qt| AttrArg::Type(qt.ty))
                    }
                    syn::AttrArgSyn::Expr(e) => match &e.kind {
                        syn::ExprKind::Ident(n) if self.lookup(n).is_none() => {
                            Some(AttrArg::Ident(n.clone()))
                        }
                        syn::ExprKind::StrLit(s) => Some(AttrArg::Str(s.clone())),
                        _ => self.const_int(e, "attribute argument").map(AttrArg::Int),
                    },
                };
                match converted {
                    Some(c) => args.push(c),
                    None => {
                        self.broken_attrs.insert((a.span, name.clone()));
                    }
                }
            }
            out.push(Attribute {
                name,
                args,
                span: a.span,
            });
        }
        out
    }

    /// An argument of `a` could not be converted (already reported).
    fn is_broken(&self, a: &Attribute) -> bool {
        self.broken_attrs.contains(&(a.span, a.name.clone()))
    }

    /// Warns about an attribute with a typed meaning written where it has none.
    fn misplaced(&mut self, a: &Attribute, place: Place) {
        self.warn(Diagnostic::warning(
            a.span,
            format!("`{}` applies to {}; ignored", a.name, place.what()),
        ));
    }

    /// Records the value of an attribute in `slot`; the same attribute (or another spelling
    /// of it) given again must have the same value.
    fn set_once<T: PartialEq>(&mut self, slot: &mut Option<(T, Span)>, value: T, a: &Attribute) {
        match slot {
            Some((old, first)) if *old != value => {
                let first = *first;
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!("`{}` is given twice with different values", a.name),
                    )
                    .label(first, "first given here")
                    .note("keep one of them"),
                );
            }
            Some(_) => {}
            None => *slot = Some((value, a.span)),
        }
    }

    /// The arguments of `a` as integers in `lo..=hi`, if there are `counts` of them; otherwise
    /// reported (unless an argument failed to convert, which is already reported) as `None`.
    /// `example` is the attribute written correctly, for the note.
    fn attr_ints(
        &mut self,
        a: &Attribute,
        counts: &[usize],
        lo: u32,
        hi: u32,
        example: &str,
    ) -> Option<Vec<u32>> {
        if self.is_broken(a) {
            return None;
        }
        let note = format!("write `__attribute__(({}))`", example);
        let n = a.args.len();
        if !counts.contains(&n) {
            let want = match counts {
                [0] => "takes no arguments".to_string(),
                [1] if n == 0 => "needs an argument".to_string(),
                [1] => "takes one argument".to_string(),
                _ => format!(
                    "takes {} arguments",
                    counts
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            };
            let found = if n == 0 && counts == [1] || counts == [0] {
                String::new()
            } else {
                format!(", not {}", n)
            };
            self.error(
                Diagnostic::error(a.span, format!("`{}` {}{}", a.name, want, found)).note(note),
            );
            return None;
        }
        let Some(values) = a.int_args() else {
            let msg = if n == 1 {
                format!("the argument of `{}` must be an integer constant", a.name)
            } else {
                format!("the arguments of `{}` must be integer constants", a.name)
            };
            self.error(Diagnostic::error(a.span, msg).note(note));
            return None;
        };
        let mut out = Vec::new();
        for v in values {
            // `const_int` sign-extends signed constants
            let sv = v as i64;
            if sv < lo as i64 || sv > hi as i64 {
                let bound = if sv < lo as i64 {
                    match lo {
                        1 => "positive".to_string(),
                        0 => "non-negative".to_string(),
                        _ => format!("at least {}", lo),
                    }
                } else if hi == u32::MAX {
                    "at most 4294967295 (32 bits)".to_string()
                } else {
                    format!("at most {}", hi)
                };
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!("`{}` must be {}, not {}", a.name, bound, sv),
                    )
                    .note(note),
                );
                return None;
            }
            out.push(sv as u32);
        }
        Some(out)
    }

    /// An optional positive integer argument (`opencl_unroll_hint`, `xcl_pipeline_loop`):
    /// `Some(None)` without one, `None` after reporting.
    fn optional_positive(&mut self, a: &Attribute, example: &str) -> Option<Option<u32>> {
        if self.is_broken(a) {
            return None;
        }
        match a.args.as_slice() {
            [] => Some(None),
            [AttrArg::Int(n)] if *n > 0 && *n <= u32::MAX as u64 => Some(Some(*n as u32)),
            _ => {
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!("`{}` takes an optional positive integer", a.name),
                    )
                    .note(format!("write `__attribute__(({}))`", example)),
                );
                None
            }
        }
    }

    pub(super) fn aligned_value(&mut self, a: &syn::Attr) -> u32 {
        match a.args.first() {
            None => 16,
            Some(syn::AttrArgSyn::Expr(e)) => match self.const_int(e, "alignment") {
                Some(v) if v.is_power_of_two() && v <= 1 << 16 => v as u32,
                Some(_) => {
                    self.err(a.span, "alignment must be a power of two");
                    1
                }
                None => 1,
            },
            Some(_) => 1,
        }
    }
}
