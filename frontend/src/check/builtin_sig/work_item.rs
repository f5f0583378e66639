//! Work-item and synchronisation built-ins: `get_global_id` and the other NDRange queries,
//! `barrier`, `work_group_barrier` and the memory fences.

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

impl Checker<'_> {
    /// `get_global_id(dim)` and the other per-dimension NDRange queries.
    pub(super) fn work_item_query(
        &mut self,
        name: &str,
        b: Builtin,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[1], span) {
            return Some(None);
        }
        let a = self.int_arg(args.into_iter().next().expect("arity"), name, &Type::UINT)?;
        self.bi(b, vec![a], Type::SIZE_T, span)
    }

    /// `get_work_dim()`, `get_global_linear_id()` and `get_local_linear_id()`.
    pub(super) fn linear_query(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[0], span) {
            return Some(None);
        }
        let b = match name {
            "get_work_dim" => Builtin::GetWorkDim,
            "get_global_linear_id" => Builtin::GetGlobalLinearId,
            _ => Builtin::GetLocalLinearId,
        };
        let t = if b == Builtin::GetWorkDim {
            Type::UINT
        } else {
            Type::SIZE_T
        };
        self.bi(b, vec![], t, span)
    }

    /// `barrier`, `work_group_barrier` and the memory fences: `uint` fence flags.
    pub(super) fn fence(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let n: &[usize] = if name == "work_group_barrier" {
            &[1, 2]
        } else {
            &[1]
        };
        if !self.arity(name, &args, n, span) {
            return Some(None);
        }
        let mut xs = Vec::new();
        for a in args {
            xs.push(self.int_arg(a, name, &Type::UINT)?);
        }
        if let Some(v) = self.const_value(&xs[0]) {
            if v & !7 != 0 {
                self.warn(
                    Diagnostic::warning(xs[0].span, "unknown memory fence flags")
                        .note("use CLK_LOCAL_MEM_FENCE and/or CLK_GLOBAL_MEM_FENCE"),
                );
            }
        }
        if name != "work_group_barrier" {
            xs.truncate(1);
        }
        let b = match name {
            "barrier" | "work_group_barrier" => Builtin::Barrier,
            "mem_fence" => Builtin::MemFence,
            "read_mem_fence" => Builtin::ReadMemFence,
            _ => Builtin::WriteMemFence,
        };
        self.bi(b, xs, Type::Void, span)
    }
}
