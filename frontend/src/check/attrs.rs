//! Attributes (`__attribute__((...))`): the names the checker knows, conversion of their
//! arguments (integer constants, identifiers, types, strings), and validation.

use super::Checker;
use crate::ast::*;
use crate::diag::Diagnostic;
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
                match arg {
                    syn::AttrArgSyn::Type(t) => {
                        if let Some(qt) = self.resolve_type_name(t) {
                            args.push(AttrArg::Type(qt.ty));
                        }
                    }
                    syn::AttrArgSyn::Expr(e) => match &e.kind {
                        syn::ExprKind::Ident(n) if self.lookup(n).is_none() => {
                            args.push(AttrArg::Ident(n.clone()))
                        }
                        syn::ExprKind::StrLit(s) => args.push(AttrArg::Str(s.clone())),
                        _ => {
                            if let Some(v) = self.const_int(e, "attribute argument") {
                                args.push(AttrArg::Int(v));
                            }
                        }
                    },
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

    /// Validates kernel/function attributes that have a fixed shape.
    pub(super) fn validate_fn_attrs(&mut self, attrs: &[Attribute], is_kernel: bool) {
        for a in attrs {
            match a.name.as_str() {
                "reqd_work_group_size"
                | "work_group_size_hint"
                | "xcl_max_work_group_size"
                | "max_work_group_size" => {
                    let ok = a.int_args().is_some_and(|v| {
                        (a.name == "max_work_group_size" && v.len() == 1 || v.len() == 3)
                            && v.iter().all(|x| *x > 0 && *x <= u32::MAX as u64)
                    }) || (a.name == "xcl_max_work_group_size"
                        && a.int_args().is_some_and(|v| !v.is_empty()));
                    if !ok {
                        self.error(
                            Diagnostic::error(
                                a.span,
                                format!("`{}` needs three positive integer constants", a.name),
                            )
                            .note(format!("write `__attribute__(({}(64, 1, 1)))`", a.name)),
                        );
                    }
                    if !is_kernel {
                        self.error(Diagnostic::error(
                            a.span,
                            format!("`{}` only applies to kernel functions", a.name),
                        ));
                    }
                }
                "vec_type_hint" if !matches!(a.args.as_slice(), [AttrArg::Type(t)] if t.is_arithmetic()) =>
                {
                    self.error(
                        Diagnostic::error(a.span, "`vec_type_hint` needs a scalar or vector type")
                            .note("write `__attribute__((vec_type_hint(float4)))`"),
                    );
                }
                _ => {}
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
