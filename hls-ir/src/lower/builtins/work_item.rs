//! Work-item functions (`get_global_id` ...): a `WorkItem` op per function and dimension,
//! the values OpenCL gives out-of-range dimensions, a dimension known only at run time (a
//! select over the three), and the ids of a kernel with barriers.

use crate::ids::OpId;
use crate::lower::{Lower, Val};
use crate::ops::{BinOp, CmpOp, OpKind, WorkItemFn};
use crate::types::Ty;
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
        if let Some(dim) = self.const_val(d) {
            return self.work_item_dim(f, dim, t, span);
        }
        // A dimension known only at run time: the value of each dimension, selected by
        // comparing it with 0, 1 and 2; any other dimension gives the out-of-range value.
        let mut v = self.work_item_dim(f, 3, t, span);
        let dty = self.k.op(d).ty;
        for dim in (0..3).rev() {
            let x = self.work_item_dim(f, dim, t, span);
            let x = self.scalar_of(x, ty, span);
            let other = self.scalar_of(v, ty, span);
            let k = self.konst(dim, dty, span);
            let is = self.cmp(CmpOp::Eq, d, k, span);
            v = Val::Scalar(self.select(is, x, other, span));
        }
        v
    }

    /// Work-item function `f` of dimension `dim` (a constant).
    fn work_item_dim(&mut self, f: WorkItemFn, dim: u64, t: Ty, span: Span) -> Val {
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

    /// `get_global_linear_id()` (`global`) or `get_local_linear_id()`:
    /// `((id2 - o2) * size1 + (id1 - o1)) * size0 + (id0 - o0)` with the global ids, offsets
    /// and sizes, or the local ids and sizes without offsets (OpenCL C 6.13.1). Unused
    /// dimensions have id 0 and size 1, so their terms fold away.
    pub(super) fn linear_id(&mut self, global: bool, ty: &Type, span: Span) -> Val {
        let t = self.ty_of(ty);
        let (id, size) = if global {
            (WorkItemFn::GlobalId, WorkItemFn::GlobalSize)
        } else {
            (WorkItemFn::LocalId, WorkItemFn::LocalSize)
        };
        let mut acc: Option<OpId> = None;
        for dim in (0..3).rev() {
            let v = self.work_item_dim(id, dim, t, span);
            let mut x = self.scalar_of(v, ty, span);
            if global {
                let o = self.work_item_dim(WorkItemFn::GlobalOffset, dim, t, span);
                let o = self.scalar_of(o, ty, span);
                x = self.bin(BinOp::Sub, x, o, span);
            }
            acc = Some(match acc {
                None => x,
                Some(a) => {
                    let sz = self.work_item_dim(size, dim, t, span);
                    let sz = self.scalar_of(sz, ty, span);
                    let m = self.bin(BinOp::Mul, a, sz, span);
                    self.bin(BinOp::Add, m, x, span)
                }
            });
        }
        Val::Scalar(acc.expect("three dimensions"))
    }
}
