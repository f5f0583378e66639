//! The tree-walking interpreter of one work-item.
//!
//! Every variable lives in memory (private memory for ordinary variables and parameters, the
//! work-group's local memory for `local` ones), so an lvalue is always an address and pointers
//! need no special cases. The front end guarantees there is no recursion, so each function
//! has at most one active frame and a variable's address can be kept per `VarId`.
//!
//! One module per concern: `memory` (bounds-checked access to private, local and global
//! memory, private allocation), `place` (lvalues), `stmt` (statements, calls, initialisers),
//! `expr` (expressions) and `operators` (unary and binary operators, conversions). This module
//! holds the work-item's state, its identity for messages, and its hand-over to the scheduler.

mod expr;
mod memory;
mod operators;
mod place;
mod stmt;

use crate::mem::GlobalMem;
use crate::pipes::Pipes;
use crate::race::RaceLog;
use crate::value::{self, lane_shape, Val};
use crate::EmuError;
use corosensei::Yielder;
use frontend::ast::{FuncId, Program, ScalarKind, Type};
use frontend::Span;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

pub type R<T> = Result<T, EmuError>;

/// State shared by every work-item of a run (only one work-item runs at a time).
#[derive(Default)]
pub struct Shared {
    pub global: GlobalMem,
    pub pipes: Pipes,
    /// Per (launch, work-group linear index).
    pub groups: HashMap<(usize, u32), GroupShared>,
    /// `printf` output of the run.
    pub printf: String,
    /// Atomic and plain accesses to global memory, per launch (only of launches whose kernel
    /// uses atomics: [`Item::track_races`]).
    pub races: HashMap<usize, RaceLog>,
}

#[derive(Default)]
pub struct GroupShared {
    pub local: Vec<u8>,
    /// Results of work-group functions, by barrier generation.
    pub collective: HashMap<u64, u32>,
    /// The arguments (destination, source, count, stride, event) of each async copy, by
    /// barrier generation, as the first work-item to run it passed them: every other
    /// work-item must pass the same (OpenCL C 6.15.10).
    pub copy_args: HashMap<u64, [u32; 5]>,
    /// Outstanding async-copy events and the span of the copy that made each.
    pub events: BTreeMap<u32, Span>,
    pub next_event: u32,
    /// Atomic and plain accesses to the group's local memory.
    pub races: RaceLog,
}

/// The NDRange of a launch.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub dims: u32,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub offset: [u32; 3],
    pub groups: [u32; 3],
}

/// Who a work-item is.
#[derive(Clone, Debug)]
pub struct ItemId {
    pub launch: usize,
    pub kernel: FuncId,
    pub group: [u32; 3],
    pub group_linear: u32,
    pub local: [u32; 3],
    /// Actual size of this (possibly partial) work-group.
    pub local_size: [u32; 3],
}

/// Messages from a work-item to the scheduler.
pub enum ToSched {
    /// End of a time slice; runnable again at once.
    Yield(Span),
    /// Reached a barrier or a work-group function.
    Barrier(Span),
    /// Cannot proceed until the pipe has `n` packets (read) or `n` free slots (write).
    Blocked {
        span: Span,
        pipe: usize,
        write: bool,
        n: u32,
    },
    Done(R<()>),
}

/// How a work-item hands control back to the scheduler: it runs as a stackful coroutine
/// (corosensei) on the scheduler's thread and suspends itself with a message.
pub struct Link<'a> {
    pub yielder: &'a Yielder<(), ToSched>,
}

pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Val),
}

/// Deepest nesting of expressions, statements and calls the interpreter follows. The front
/// end bounds one expression at 500 levels, but calls stack them. A level costs about 17 KiB
/// of coroutine stack in a debug build (1 KiB optimised), so 8000 levels fit the 256 MiB
/// coroutine stacks (`sched::STACK`); running out of stack would crash the process instead of
/// reporting an error.
pub const MAX_DEPTH: u32 = 8000;

/// Statements and expressions run before a work-item hands control back.
const SLICE: u32 = 1000;

pub struct Item<'a> {
    pub prog: &'a Program,
    pub shared: &'a Mutex<Shared>,
    pub geom: Geometry,
    pub id: ItemId,
    pub private: Vec<u8>,
    pub sp: u32,
    pub vars: Vec<u32>,
    pub link: Option<Link<'a>>,
    pub steps: &'a AtomicU64,
    pub max_steps: u64,
    pub slice: u32,
    /// Current nesting of `eval`/`exec` (bounded by [`MAX_DEPTH`]).
    pub depth: u32,
    /// Number of barriers / work-group functions passed.
    pub bar_gen: u64,
    /// Pipes bound to parameters with `__attribute__((blocking))`.
    pub blocking_pipes: Vec<usize>,
    /// Inside `read_pipe_block`/`write_pipe_block`: the access waits instead of failing.
    pub force_blocking: bool,
    /// Names of the pipes (for messages).
    pub pipe_names: &'a [String],
    /// Addresses of the program-scope variables.
    pub globals: &'a [u32],
    /// Check for data races between atomics and plain stores (the kernel's call graph has an
    /// atomic operation on memory): see `crate::race`.
    pub track_races: bool,
    /// Inside an atomic built-in: its loads and stores are not plain accesses.
    pub in_atomic: bool,
}

impl<'a> Item<'a> {
    // ---- identity and errors ----

    pub fn global_id(&self, d: usize) -> u32 {
        self.id.group[d]
            .wrapping_mul(self.geom.local[d])
            .wrapping_add(self.id.local[d])
            .wrapping_add(self.geom.offset[d])
    }

    pub fn who(&self) -> String {
        self.describe_item([0, 1, 2].map(|d| self.global_id(d)))
    }

    /// This work-item's global id as one number (`x + X * (y + Y * z)`, offset removed).
    pub fn global_linear(&self) -> u32 {
        let g = &self.geom;
        let rel = |d: usize| self.global_id(d).wrapping_sub(g.offset[d]);
        (rel(2).wrapping_mul(g.global[1]).wrapping_add(rel(1)))
            .wrapping_mul(g.global[0])
            .wrapping_add(rel(0))
    }

    /// The global id of the work-item of this launch with [`Item::global_linear`] `n`.
    pub fn global_id_of(&self, n: u32) -> [u32; 3] {
        let g = &self.geom;
        let (x, y) = (g.global[0].max(1), g.global[1].max(1));
        let rel = [n % x, (n / x) % y, n / x / y];
        [0, 1, 2].map(|d| rel[d].wrapping_add(g.offset[d]))
    }

    /// A work-item of this launch, by its global id, as [`Item::who`] describes it.
    pub fn describe_item(&self, g: [u32; 3]) -> String {
        let geom = &self.geom;
        let rel = |d: usize| g[d].wrapping_sub(geom.offset[d]);
        let local = [0, 1, 2].map(|d| rel(d) % geom.local[d].max(1));
        let group = [0, 1, 2].map(|d| rel(d) / geom.local[d].max(1));
        let n = self.geom.dims as usize;
        let fmt = |v: &[u32]| {
            v[..n]
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "work-item global id ({}) (local id ({}), work-group ({})) of kernel `{}`",
            fmt(&g),
            fmt(&local),
            fmt(&group),
            self.prog.func(self.id.kernel).name
        )
    }

    pub fn err(&self, span: Span, msg: impl Into<String>) -> EmuError {
        EmuError::at(span, format!("{} in {}", msg.into(), self.who()))
    }

    pub fn unsupported(&self, span: Span, what: &str) -> EmuError {
        EmuError::at(span, format!("{what} is not yet supported by the emulator"))
    }

    pub fn lock(&self) -> MutexGuard<'a, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn size_of(&self, t: &Type) -> u32 {
        self.prog.size_of(t)
    }

    pub fn align_of(&self, t: &Type) -> u32 {
        self.prog.structs.align_of(t)
    }

    /// Counts one step; hands control back at the end of a slice.
    pub fn tick(&mut self, span: Span) -> R<()> {
        let n = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
        if n > self.max_steps {
            return Err(self
                .err(
                    span,
                    format!(
                        "step limit of {} exceeded (a kernel that never finishes, e.g. a retry \
                         loop on a pipe that is never served?)",
                        self.max_steps
                    ),
                )
                .with_note("raise it with --max-steps if the kernel is just long"));
        }
        self.slice += 1;
        if self.slice >= SLICE {
            self.slice = 0;
            self.hand_over(ToSched::Yield(span))?;
        }
        Ok(())
    }

    /// Suspends this work-item with a message to the scheduler until it resumes it. (If the
    /// run ends meanwhile, the coroutine is dropped and unwound from here.)
    pub fn hand_over(&mut self, msg: ToSched) -> R<()> {
        if let Some(link) = &self.link {
            link.yielder.suspend(msg);
        }
        Ok(())
    }

    /// A barrier (or the synchronisation of a work-group function).
    pub fn barrier(&mut self, span: Span) -> R<()> {
        self.bar_gen += 1;
        self.slice = 0;
        if self.link.is_none() {
            return Err(EmuError::at(span, "a barrier outside a kernel launch"));
        }
        self.hand_over(ToSched::Barrier(span))
    }

    /// Counts one level of nesting of the interpreter's recursion.
    fn enter(&mut self, span: Span) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(self.unsupported(
                span,
                &format!(
                    "nesting of expressions, statements and calls deeper than {MAX_DEPTH} levels"
                ),
            ));
        }
        Ok(())
    }
}

/// A scalar value as a condition.
pub fn truthy(t: &Type, v: &Val) -> bool {
    match lane_shape(t) {
        Some((k, _)) if k.is_float() => value::to_f64(k, v.first()) != 0.0,
        _ => v.first() != 0,
    }
}

/// Most significant bit of a lane of kind `k`.
pub fn msb(k: ScalarKind, x: u64) -> bool {
    (x >> (k.bits() - 1)) & 1 == 1
}

/// An index or offset operand as a signed element count.
pub fn index_value(t: &Type, v: u64) -> i64 {
    match t.elem_kind() {
        Some(k) if k.is_signed() => k.as_i64(v),
        Some(k) => k.truncate(v) as i64,
        None => v as i64,
    }
}
