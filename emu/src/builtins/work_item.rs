//! Work-item functions (`get_global_id` and the other NDRange queries) and work-group
//! synchronisation: `barrier`, the memory fences, and the arrival of every work-item of the
//! group that a work-group function (pipe reservations and commits) is built on.

use crate::interp::{Item, R};
use crate::value::Val;
use frontend::ast::{Builtin, Expr};
use frontend::Span;

/// `get_global_id` and the other work-item functions.
pub fn is_work_item_query(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::GetWorkDim
            | Builtin::GetGlobalSize
            | Builtin::GetGlobalId
            | Builtin::GetLocalSize
            | Builtin::GetEnqueuedLocalSize
            | Builtin::GetLocalId
            | Builtin::GetNumGroups
            | Builtin::GetGroupId
            | Builtin::GetGlobalOffset
            | Builtin::GetGlobalLinearId
            | Builtin::GetLocalLinearId
    )
}

impl Item<'_> {
    /// A work-item function (see [`is_work_item_query`]).
    pub(super) fn work_item_query(&mut self, b: Builtin, args: &[Expr]) -> R<Val> {
        let uint = |v: u32| Val::uint(v);
        match b {
            Builtin::GetWorkDim => Ok(uint(self.geom.dims)),
            Builtin::GetGlobalSize
            | Builtin::GetGlobalId
            | Builtin::GetLocalSize
            | Builtin::GetEnqueuedLocalSize
            | Builtin::GetLocalId
            | Builtin::GetNumGroups
            | Builtin::GetGroupId
            | Builtin::GetGlobalOffset => {
                let d = self.eval(&args[0])?.first() as usize;
                let inside = d < self.geom.dims as usize;
                let v = if !inside {
                    match b {
                        Builtin::GetGlobalSize
                        | Builtin::GetLocalSize
                        | Builtin::GetEnqueuedLocalSize
                        | Builtin::GetNumGroups => 1,
                        _ => 0,
                    }
                } else {
                    match b {
                        Builtin::GetGlobalSize => self.geom.global[d],
                        Builtin::GetGlobalId => self.global_id(d),
                        Builtin::GetLocalSize => self.id.local_size[d],
                        Builtin::GetEnqueuedLocalSize => self.geom.local[d],
                        Builtin::GetLocalId => self.id.local[d],
                        Builtin::GetNumGroups => self.geom.groups[d],
                        Builtin::GetGroupId => self.id.group[d],
                        _ => self.geom.offset[d],
                    }
                };
                Ok(uint(v))
            }
            Builtin::GetGlobalLinearId => {
                let g = &self.geom;
                let id = |d: usize| self.global_id(d).wrapping_sub(g.offset[d]);
                Ok(uint(
                    (id(2) * g.global[1] + id(1))
                        .wrapping_mul(g.global[0])
                        .wrapping_add(id(0)),
                ))
            }
            Builtin::GetLocalLinearId => {
                let (l, s) = (self.id.local, self.id.local_size);
                Ok(uint((l[2] * s[1] + l[1]) * s[0] + l[0]))
            }
            _ => unreachable!("not a work-item function: {b:?}"),
        }
    }

    /// `barrier` and the memory fences.
    pub(super) fn synchronise(&mut self, b: Builtin, args: &[Expr], span: Span) -> R<Val> {
        if b == Builtin::Barrier {
            self.eval(&args[0])?;
            self.barrier(span)?;
            return Ok(Val::Void);
        }
        // Work-items run one at a time: memory is always consistent.
        self.eval(&args[0])?;
        Ok(Val::Void)
    }

    /// A work-group function: every work-item of the group arrives (as at a barrier), then
    /// `action` runs once for the group and every work-item gets its result.
    pub(super) fn collective(
        &mut self,
        span: Span,
        action: impl FnOnce(&mut crate::interp::Shared) -> u32,
    ) -> R<u32> {
        self.barrier(span)?;
        let key = (self.id.launch, self.id.group_linear);
        let gen = self.bar_gen;
        let mut sh = self.lock();
        if let Some(r) = sh.groups.get(&key).and_then(|g| g.collective.get(&gen)) {
            return Ok(*r);
        }
        let r = action(&mut sh);
        sh.groups.entry(key).or_default().collective.insert(gen, r);
        Ok(r)
    }
}
