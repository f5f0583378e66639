//! Built-in functions: work-item functions, synchronisation, math/integer/relational/geometric
//! functions, conversions, vector loads and stores, atomics, pipes and async copies.
//!
//! Float math is evaluated in double precision and rounded once to the argument type, which is
//! within every accuracy bound of OpenCL C 7.4 for `float`. Built-ins without a model here
//! (`erf` and `erfc` on `double`) are a spanned "not yet supported by the emulator" error.
//!
//! [`Item::builtin`] dispatches by family, one module each: `work_item` (NDRange queries,
//! barriers, fences, work-group functions), `vector_mem` (`vload`/`vstore`), `atomics`,
//! `pipes`, `async_copy`, `printf`, and the element-wise built-ins (`elementwise`, then
//! `math` with `float`, `integer`, `relational` and `geometric`).

mod async_copy;
mod atomics;
mod elementwise;
mod float;
mod float_bits;
mod geometric;
mod integer;
mod math;
mod pipes;
mod printf;
mod relational;
mod vector_mem;
mod work_item;

pub use work_item::is_work_item_query;

use crate::interp::{Item, R};
use crate::value::Val;
use frontend::ast::{Builtin, Expr};

/// The built-ins that operate atomically on memory (or on an atomic counter): the kernels
/// using one are checked for races between atomics and plain stores.
pub fn is_memory_atomic(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Atomic(_)
            | Builtin::AtomicLoad
            | Builtin::AtomicStore
            | Builtin::AtomicCompareExchange { .. }
            | Builtin::AtomicFlagTestAndSet
            | Builtin::AtomicFlagClear
    )
}

/// Lane `i` of `v`; a scalar (or shorter) value repeats its last lane.
fn lane(v: &Val, i: usize) -> u64 {
    let l = v.lanes();
    l[i.min(l.len().saturating_sub(1))]
}

impl Item<'_> {
    pub fn builtin(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        match b {
            b if is_work_item_query(b) => self.work_item_query(b, args),
            Builtin::Barrier
            | Builtin::MemFence
            | Builtin::ReadMemFence
            | Builtin::WriteMemFence
            | Builtin::WorkItemFence { .. } => self.synchronise(b, args, span),
            Builtin::Atomic(op) => self.atomic(op, args, e),
            Builtin::AtomicInit
            | Builtin::AtomicLoad
            | Builtin::AtomicStore
            | Builtin::AtomicCompareExchange { .. }
            | Builtin::AtomicFlagTestAndSet
            | Builtin::AtomicFlagClear => self.c11_atomic(b, args, e),
            Builtin::ReadPipe
            | Builtin::WritePipe
            | Builtin::ReserveReadPipe
            | Builtin::ReserveWritePipe
            | Builtin::CommitReadPipe
            | Builtin::CommitWritePipe
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::WorkGroupCommitReadPipe
            | Builtin::WorkGroupCommitWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe
            | Builtin::SubGroupCommitReadPipe
            | Builtin::SubGroupCommitWritePipe
            | Builtin::IsValidReserveId
            | Builtin::GetPipeNumPackets
            | Builtin::GetPipeMaxPackets => self.pipe_builtin(b, args, e),
            Builtin::ReadPipeBlock | Builtin::WritePipeBlock => self.pipe_block(b, args, e),
            Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy => {
                self.async_copy(b, args, e)
            }
            Builtin::WaitGroupEvents => self.wait_events(args, span),
            Builtin::Printf => self.printf(args, e),
            Builtin::Prefetch => {
                for a in args {
                    self.eval(a)?;
                }
                Ok(Val::Void)
            }
            Builtin::VLoad(n) | Builtin::VLoadHalf(n) => self.vload(b, n, args, e),
            Builtin::VStore(n) | Builtin::VStoreHalf(n) => self.vstore(b, n, args, span),
            _ => self.elementwise(b, args, e),
        }
    }
}
