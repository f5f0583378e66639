//! Work-item functions (`get_global_id` ...): a `WorkItem` op per function and dimension,
//! the values OpenCL gives out-of-range dimensions, and the ids of a kernel with barriers.

use crate::lower::{Lower, Val};
use crate::ops::{OpKind, WorkItemFn};
use frontend::ast::{Builtin, Expr, Type};
use frontend::span::Span;

/// The work-item function a built-in calls, if it is one.
pub(super) fn work_item_fn(b: Builtin) -> Option<WorkItemFn> {
    match b {
        Builtin::GetGlobalId => Some(WorkItemFn::GlobalId),
        Builtin::GetLocalId => Some(WorkItemFn::LocalId),
        Builtin::GetGroupId => Some(WorkItemFn::GroupId),
        Builtin::GetGlobalSize => Some(WorkItemFn::GlobalSize),
        Builtin::GetLocalSize => Some(WorkItemFn::LocalSize),
        Builtin::GetEnqueuedLocalSize => Some(WorkItemFn::EnqueuedLocalSize),
        Builtin::GetNumGroups => Some(WorkItemFn::NumGroups),
        Builtin::GetGlobalOffset => Some(WorkItemFn::GlobalOffset),
        Builtin::GetWorkDim => Some(WorkItemFn::WorkDim),
        _ => None,
    }
}

impl Lower<'_> {
    pub(super) fn work_item(&mut self, f: WorkItemFn, args: &[Expr], ty: &Type, span: Span) -> Val {
        let t = self.ty_of(ty);
        if f == WorkItemFn::WorkDim {
            return Val::Scalar(self.op(OpKind::WorkItem(f, 0), t, span, &[]));
        }
        let d = self.scalar(&args[0]);
        let Some(dim) = self.const_val(d) else {
            self.unsupported(
                args[0].span,
                "a work-item function with a dimension that is not a constant",
            );
            return Val::Undef;
        };
        if dim > 2 {
            // OpenCL: out-of-range dimensions give 0 for ids and offsets, 1 for sizes.
            let v = match f {
                WorkItemFn::GlobalSize
                | WorkItemFn::LocalSize
                | WorkItemFn::EnqueuedLocalSize
                | WorkItemFn::NumGroups => 1,
                _ => 0,
            };
            return Val::Scalar(self.konst(v, t, span));
        }
        if self.k.work_groups.is_some() {
            if let Some(v) = self.group_work_item(f, dim as u8, t, span) {
                return v;
            }
        }
        Val::Scalar(self.op(OpKind::WorkItem(f, dim as u8), t, span, &[]))
    }
}
