//! Async copies: `async_work_group_copy`, `async_work_group_strided_copy` and
//! `wait_group_events`. A copy is a work-group function: done once, when every work-item of
//! the group has arrived; its event stays outstanding until waited for.

use crate::interp::{index_value, Item, R};
use crate::value::Val;
use frontend::ast::{AddrSpace, Builtin, Expr, Type};
use frontend::Span;

impl Item<'_> {
    pub(super) fn async_copy(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let dst = self.eval(&args[0])?.first() as u32;
        let src = self.eval(&args[1])?.first() as u32;
        let n = self.eval(&args[2])?.first() as u32;
        let (stride, ev) = if b == Builtin::AsyncWorkGroupStridedCopy {
            (
                self.eval(&args[3])?.first() as u32,
                self.eval(&args[4])?.first() as u32,
            )
        } else {
            (1, self.eval(&args[3])?.first() as u32)
        };
        let Type::Pointer {
            pointee,
            space: dspace,
            ..
        } = &args[0].ty
        else {
            return Err(self.unsupported(span, "an async copy to a non-pointer"));
        };
        let size = self.size_of(pointee);
        let align = self.align_of(pointee);
        let to_local = *dspace == AddrSpace::Local;
        // Every work-item arrives with the same arguments; the copy is done once, after
        // all have arrived (so it sees every earlier write of the group).
        self.barrier(span)?;
        let key = (self.id.launch, self.id.group_linear);
        let gen = self.bar_gen;
        let mine = [dst, src, n, stride, ev];
        let first = *self
            .lock()
            .groups
            .entry(key)
            .or_default()
            .copy_args
            .entry(gen)
            .or_insert(mine);
        if first != mine {
            let names = ["destination", "source", "element count", "stride", "event"];
            let i = (0..5).find(|&i| first[i] != mine[i]).unwrap_or(0);
            return Err(self.err(
                span,
                format!(
                    "the {} of this async copy ({:#x}) differs from another work-item's ({:#x}) of the same group; every work-item of a group must pass the same arguments (OpenCL C 6.15.10)",
                    names[i], mine[i], first[i]
                ),
            ));
        }
        let done = self
            .lock()
            .groups
            .get(&key)
            .and_then(|g| g.collective.get(&gen).copied());
        if let Some(id) = done {
            return Ok(Val::uint(id));
        }
        for i in 0..n {
            let (s, d) = if to_local {
                (i.wrapping_mul(stride), i)
            } else {
                (i, i.wrapping_mul(stride))
            };
            let data = self.access(
                src.wrapping_add(s.wrapping_mul(size)),
                size,
                align,
                span,
                None,
            )?;
            self.access(
                dst.wrapping_add(d.wrapping_mul(size)),
                size,
                align,
                span,
                Some(&data),
            )?;
        }
        let mut sh = self.lock();
        let g = sh.groups.entry(key).or_default();
        let id = if ev != 0 {
            ev
        } else {
            g.next_event += 1;
            g.next_event
        };
        g.events.entry(id).or_insert(span);
        g.collective.insert(gen, id);
        Ok(Val::uint(id))
    }

    pub(super) fn wait_events(&mut self, args: &[Expr], span: Span) -> R<Val> {
        let n = self.eval(&args[0])?.first();
        let n = index_value(&args[0].ty, n).max(0) as u32;
        let list = self.eval(&args[1])?.first() as u32;
        let mut ids = Vec::new();
        for i in 0..n {
            ids.push(
                self.load(list.wrapping_add(4 * i), &Type::Event, span)?
                    .first() as u32,
            );
        }
        self.barrier(span)?;
        let key = (self.id.launch, self.id.group_linear);
        let mut sh = self.lock();
        let g = sh.groups.entry(key).or_default();
        for id in ids {
            g.events.remove(&id);
        }
        Ok(Val::Void)
    }
}
