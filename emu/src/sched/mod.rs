//! The scheduler: launches, work-groups, barriers, blocking, deadlock detection.
//!
//! Each launch runs its work-groups one after another (OpenCL does not promise that
//! work-groups of one kernel run concurrently); launches without an `after` dependency run
//! concurrently, so at any time one work-group of each running launch is live. The next
//! work-item to run is drawn with a seeded SplitMix64 generator among the runnable work-items
//! of all live work-groups. A work-item is a stackful coroutine (corosensei) on the caller's
//! thread: it runs until it yields (see `interp`), so only one runs at a time and a switch
//! costs no system call. Coroutine stacks are pooled and reused.
//!
//! `setup` builds the memories and the launches, `group` starts work-groups and settles their
//! barriers, `deadlock` explains a run where nothing can proceed; this module drives the run.

mod deadlock;
mod group;
mod setup;

use crate::interp::{Geometry, Item, ItemId, Link, Shared, ToSched};
use crate::value::Val;
use crate::{Config, EmuError, Outcome, RunSpec};
use corosensei::stack::DefaultStack;
use corosensei::CoroutineResult;
use deadlock::deadlock;
use frontend::ast::{FuncId, Program, VarId};
use frontend::{SourceMap, Span};
use group::{settle_group, start_group, Co};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Largest work-group the emulator runs (each work-item is a coroutine with its own stack).
const MAX_GROUP: u64 = 1024;
/// Stack of one work-item coroutine: address space only, pages are committed when touched
/// (`interp::MAX_DEPTH` levels of the interpreter's recursion fit, even in a debug build).
const STACK: usize = 256 << 20;
/// Largest local memory of one work-group.
const MAX_LOCAL: usize = 64 << 20;

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Runnable,
    AtBarrier(Span),
    Blocked {
        span: Span,
        pipe: usize,
        write: bool,
        n: u32,
    },
    Done,
}

struct Slot {
    group: usize,
    status: Status,
    /// The coroutine running this work-item (or sequential work-group) until it is done.
    co: Option<Co>,
    last: Span,
    who: String,
}

struct LaunchState {
    func: FuncId,
    geom: Geometry,
    /// Parameter values (local pointers already resolved).
    params: Vec<Val>,
    local_vars: Vec<(VarId, u32)>,
    local_bytes: usize,
    blocking: Vec<usize>,
    after: Vec<usize>,
    next_group: u32,
    total_groups: u32,
    /// Live group: (linear index, first slot, slot count).
    active: Option<(u32, usize, usize)>,
    /// The kernel never synchronises (no barrier, pipe, work-group function or async copy
    /// anywhere in its call graph). OpenCL promises no forward progress between such
    /// work-items (a spin-wait on another work-item's atomic is not guaranteed to end), so
    /// running a work-group as one coroutine, work-item after work-item, is one of the allowed
    /// executions: one hand-over per work-group instead of one per work-item.
    sequential: bool,
    /// Its work-items' atomics and plain stores are checked for races (`crate::race`).
    track_races: bool,
    finished: bool,
}

fn fail(msg: impl Into<String>) -> EmuError {
    EmuError::Setup(msg.into())
}

pub fn run(
    prog: &Program,
    sm: &SourceMap,
    spec: &RunSpec,
    cfg: &Config,
) -> Result<Outcome, EmuError> {
    let setup::Memories {
        shared,
        buf_addrs,
        pipe_names,
        global_addrs,
    } = setup::memories(prog, spec)?;
    let mut launches = Vec::new();
    for li in 0..spec.launches.len() {
        launches.push(setup::launch(prog, spec, li, &buf_addrs)?);
    }
    let shared = Arc::new(Mutex::new(shared));
    let steps = Arc::new(AtomicU64::new(0));
    let env = Env {
        prog: Arc::new(prog.clone()),
        shared: shared.clone(),
        steps: steps.clone(),
        max_steps: cfg.max_steps,
        pipe_names: pipe_names.into(),
        globals: global_addrs.clone().into(),
    };
    setup::init_globals(&env, &global_addrs)?;
    // Every coroutine is dropped (unwound if suspended) when `schedule` returns.
    schedule(prog, sm, &env, &mut launches, cfg.seed)?;
    let sh = shared.lock().unwrap_or_else(|e| e.into_inner());
    let buffers = buf_addrs
        .iter()
        .map(|a| {
            sh.global
                .regions
                .iter()
                .find(|r| r.base == *a)
                .map(|r| r.bytes.clone())
                .unwrap_or_default()
        })
        .collect();
    Ok(Outcome {
        buffers,
        steps: steps.load(Ordering::Relaxed),
        printf: sh.printf.clone(),
    })
}

/// Runs every launch to its end: starts work-groups as launches become ready, and resumes a
/// runnable work-item drawn at random until all are done or none can run.
fn schedule(
    prog: &Program,
    sm: &SourceMap,
    env: &Env,
    launches: &mut [LaunchState],
    seed: u64,
) -> Result<(), EmuError> {
    let shared = &env.shared;
    let mut rng = SplitMix(seed);
    // Launch `li` owns slots `li * MAX_GROUP ..`, reused by each of its work-groups, so
    // memory stays bounded however many work-groups run.
    let mut slots: Vec<Slot> = (0..launches.len() * MAX_GROUP as usize)
        .map(|_| Slot {
            group: 0,
            status: Status::Done,
            co: None,
            last: Span::default(),
            who: String::new(),
        })
        .collect();
    let mut stacks: Vec<DefaultStack> = Vec::new();
    loop {
        start_groups(env, launches, &mut slots, &mut stacks)?;
        if launches.iter().all(|l| l.finished) {
            return Ok(());
        }
        if launches.iter().all(|l| l.finished || l.active.is_none()) {
            return Err(fail(
                "launches wait for each other (`after` forms a cycle or names a launch that \
                 never runs)",
            ));
        }
        let runnable = runnable(launches, &slots, shared);
        if runnable.is_empty() {
            return Err(deadlock(prog, sm, launches, &slots, shared));
        }
        let pick = runnable[(rng.next() % runnable.len() as u64) as usize];
        slots[pick].status = Status::Runnable;
        let msg = resume(&mut slots[pick], &mut stacks)?;
        record(&mut slots[pick], msg)?;
        let li = slots[pick].group;
        settle(prog, sm, shared, launches, &mut slots, li)?;
    }
}

/// Starts the next work-group of every ready launch without a live one.
fn start_groups(
    env: &Env,
    launches: &mut [LaunchState],
    slots: &mut [Slot],
    stacks: &mut Vec<DefaultStack>,
) -> Result<(), EmuError> {
    for li in 0..launches.len() {
        let ready = launches[li]
            .after
            .iter()
            .all(|&a| launches.get(a).is_some_and(|l| l.finished));
        let l = &mut launches[li];
        if l.finished || l.active.is_some() || !ready {
            continue;
        }
        if l.next_group >= l.total_groups {
            l.finished = true;
            env.shared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .races
                .remove(&li);
            continue;
        }
        let linear = l.next_group;
        l.next_group += 1;
        let first = li * MAX_GROUP as usize;
        let n = start_group(env, l, li, linear, &mut slots[first..], stacks)?;
        l.active = Some((linear, first, n));
    }
    Ok(())
}

/// The slots of live work-groups that can run now: runnable, or blocked on a pipe that now
/// has the packets (or the room) they wait for.
fn runnable(launches: &[LaunchState], slots: &[Slot], shared: &Mutex<Shared>) -> Vec<usize> {
    let sh = shared.lock().unwrap_or_else(|e| e.into_inner());
    launches
        .iter()
        .filter_map(|l| l.active)
        .flat_map(|(_, first, n)| first..first + n)
        .filter(|&i| match &slots[i].status {
            Status::Runnable => true,
            Status::Blocked { pipe, write, n, .. } => {
                let p = &sh.pipes.pipes[*pipe];
                if *write {
                    p.free() >= *n
                } else {
                    p.fifo.len() as u32 >= *n
                }
            }
            _ => false,
        })
        .collect()
}

/// Runs the work-item of `slot` until it hands control back; a finished coroutine returns its
/// stack to the pool.
fn resume(slot: &mut Slot, stacks: &mut Vec<DefaultStack>) -> Result<ToSched, EmuError> {
    let Some(co) = slot.co.as_mut() else {
        return Err(fail("internal: a runnable work-item has no coroutine"));
    };
    Ok(
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| co.resume(()))) {
            Ok(CoroutineResult::Yield(msg)) => msg,
            Ok(CoroutineResult::Return(r)) => {
                if let Some(done) = slot.co.take() {
                    stacks.push(done.into_stack());
                }
                ToSched::Done(r)
            }
            Err(_) => {
                slot.co = None;
                return Err(fail("internal error: the emulator panicked in a work-item"));
            }
        },
    )
}

/// Records what a work-item said when it handed control back (a finished work-item's error
/// ends the run).
fn record(slot: &mut Slot, msg: ToSched) -> Result<(), EmuError> {
    match msg {
        ToSched::Yield(span) => slot.last = span,
        ToSched::Barrier(span) => {
            slot.last = span;
            slot.status = Status::AtBarrier(span);
        }
        ToSched::Blocked {
            span,
            pipe,
            write,
            n,
        } => {
            slot.last = span;
            slot.status = Status::Blocked {
                span,
                pipe,
                write,
                n,
            };
        }
        ToSched::Done(r) => {
            r?;
            slot.status = Status::Done;
        }
    }
    Ok(())
}

/// After a step of a work-item of launch `li`: releases a barrier its work-group has reached,
/// and retires the work-group once all of its work-items are done (an async copy never
/// waited for is an error).
fn settle(
    prog: &Program,
    sm: &SourceMap,
    shared: &Mutex<Shared>,
    launches: &mut [LaunchState],
    slots: &mut [Slot],
    li: usize,
) -> Result<(), EmuError> {
    let (linear, first, n) = launches[li].active.expect("the item's group is live");
    let group = first..first + n;
    settle_group(sm, slots, group.clone())?;
    if slots[group].iter().all(|s| s.status == Status::Done) {
        let mut sh = shared.lock().unwrap_or_else(|e| e.into_inner());
        let g = sh.groups.remove(&(li, linear)).unwrap_or_default();
        sh.pipes.group_done((li, linear));
        if let Some((_, span)) = g.events.iter().next() {
            return Err(EmuError::at(
                *span,
                format!(
                    "work-group {linear} of kernel `{}` finished without waiting for \
                     this async copy",
                    prog.func(launches[li].func).name
                ),
            )
            .with_note("call `wait_group_events` on its event before the kernel returns"));
        }
        launches[li].active = None;
    }
    Ok(())
}

/// What every work-item of a run shares (owned, so that coroutines can hold a copy).
#[derive(Clone)]
struct Env {
    prog: Arc<Program>,
    shared: Arc<Mutex<Shared>>,
    steps: Arc<AtomicU64>,
    max_steps: u64,
    pipe_names: Arc<[String]>,
    globals: Arc<[u32]>,
}

impl Env {
    fn item<'a>(
        &'a self,
        geom: Geometry,
        id: ItemId,
        link: Option<Link<'a>>,
        blocking: Vec<usize>,
    ) -> Item<'a> {
        Item {
            prog: &self.prog,
            shared: &self.shared,
            geom,
            id,
            private: Vec::new(),
            sp: 0,
            vars: vec![0; self.prog.vars.len()],
            link,
            steps: &self.steps,
            max_steps: self.max_steps,
            slice: 0,
            depth: 0,
            bar_gen: 0,
            blocking_pipes: blocking,
            force_blocking: false,
            pipe_names: &self.pipe_names,
            globals: &self.globals,
            track_races: false,
            in_atomic: false,
        }
    }
}
