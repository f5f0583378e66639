//! The scheduler: launches, work-groups, barriers, blocking, deadlock detection.
//!
//! Each launch runs its work-groups one after another (OpenCL does not promise that
//! work-groups of one kernel run concurrently); launches without an `after` dependency run
//! concurrently, so at any time one work-group of each running launch is live. The next
//! work-item to run is drawn with a seeded SplitMix64 generator among the runnable work-items
//! of all live work-groups. A work-item is a stackful coroutine (corosensei) on the caller's
//! thread: it runs until it yields (see `interp.rs`), so only one runs at a time and a switch
//! costs no system call. Coroutine stacks are pooled and reused.

use crate::interp::{Geometry, GroupShared, Item, ItemId, Link, Shared, ToSched};
use crate::pipes::Pipe;
use crate::value::{self, Val};
use crate::{ArgValue, Config, EmuError, Outcome, RunSpec};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult};
use frontend::ast::{AddrSpace, Builtin, ExprKind, FuncId, Program, Type, VarId};
use frontend::{SourceMap, Span};
use std::collections::VecDeque;
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
    let mut shared = Shared::default();
    let mut buf_addrs = Vec::new();
    for b in &spec.buffers {
        let a = shared
            .global
            .alloc(&format!("buffer `{}`", b.name), b.bytes.clone())
            .ok_or_else(|| fail("the buffers do not fit the 2 GiB global address range"))?;
        buf_addrs.push(a);
    }
    for p in &spec.pipes {
        shared.pipes.pipes.push(Pipe {
            name: p.name.clone(),
            packet_size: p.packet_size,
            capacity: p.capacity,
            fifo: VecDeque::new(),
            held: 0,
            pending_writes: VecDeque::new(),
        });
    }
    let mut pipe_names: Vec<String> = spec.pipes.iter().map(|p| p.name.clone()).collect();
    let mut global_addrs = Vec::new();
    for g in &prog.globals {
        let size = prog.size_of(&g.ty) as usize;
        let mut bytes = vec![0; size];
        // A program-scope pipe (the Xilinx dialect): a pipe of its own, shared by every
        // launch; the variable holds its handle. It holds as many packets as the hardware's
        // FIFO for it (`xcl_reqd_pipe_depth`, by the hardware contract's rule, read as
        // lowering reads it).
        if let Type::Pipe { packet, .. } = &g.ty {
            let requested = g
                .attrs
                .iter()
                .find(|a| a.name == "xcl_reqd_pipe_depth")
                .and_then(|a| a.int_args())
                .and_then(|v| v.first().copied())
                .map(|d| d as u32);
            let depth = hwcontract::pipe::effective_depth(requested);
            let handle = shared.pipes.pipes.len() as u32;
            shared.pipes.pipes.push(Pipe {
                name: g.name.clone(),
                packet_size: prog.size_of(packet),
                capacity: depth,
                fifo: VecDeque::new(),
                held: 0,
                pending_writes: VecDeque::new(),
            });
            pipe_names.push(g.name.clone());
            for (b, v) in bytes.iter_mut().zip(handle.to_le_bytes()) {
                *b = v;
            }
        }
        let a = shared
            .global
            .alloc(&format!("constant `{}`", g.name), bytes)
            .ok_or_else(|| fail("program-scope data does not fit"))?;
        global_addrs.push(a);
    }
    let mut launches = Vec::new();
    for li in 0..spec.launches.len() {
        launches.push(setup_launch(prog, spec, li, &buf_addrs)?);
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
    // Program-scope initialisers, on a coroutine stack like every work-item (the caller's
    // stack may be too small for deeply nested initialisers in a debug build).
    {
        let env = env.clone();
        let globals = global_addrs.clone();
        let stack = DefaultStack::new(STACK)
            .map_err(|e| fail(format!("cannot allocate a work-item stack: {e}")))?;
        let mut co: Co = Coroutine::with_stack(stack, move |_, ()| {
            let mut it = env.item(
                Geometry {
                    dims: 1,
                    global: [1; 3],
                    local: [1; 3],
                    offset: [0; 3],
                    groups: [1; 3],
                },
                ItemId {
                    launch: usize::MAX,
                    kernel: FuncId(0),
                    group: [0; 3],
                    group_linear: 0,
                    local: [0; 3],
                    local_size: [1; 3],
                },
                None,
                Vec::new(),
            );
            let prog = env.prog.clone();
            for (g, a) in prog.globals.iter().zip(globals.iter()) {
                if let Some(init) = &g.init {
                    it.init(*a, &g.ty, init)?;
                }
            }
            Ok(())
        });
        match co.resume(()) {
            CoroutineResult::Return(r) => r?,
            CoroutineResult::Yield(_) => {
                return Err(fail("internal: a program-scope initialiser yielded"));
            }
        }
    }
    let mut rng = SplitMix(cfg.seed);
    let mut sched = || -> Result<(), EmuError> {
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
            // start work-groups
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
                    continue;
                }
                let linear = l.next_group;
                l.next_group += 1;
                let first = li * MAX_GROUP as usize;
                let n = start_group(&env, l, li, linear, &mut slots[first..], &mut stacks)?;
                l.active = Some((linear, first, n));
            }
            if launches.iter().all(|l| l.finished) {
                return Ok(());
            }
            if launches.iter().all(|l| l.finished || l.active.is_none()) {
                return Err(fail(
                    "launches wait for each other (`after` forms a cycle or names a launch that \
                     never runs)",
                ));
            }
            let runnable: Vec<usize> = {
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
            };
            if runnable.is_empty() {
                return Err(deadlock(prog, sm, &launches, &slots, &shared));
            }
            let pick = runnable[(rng.next() % runnable.len() as u64) as usize];
            slots[pick].status = Status::Runnable;
            let idx = pick;
            let Some(co) = slots[idx].co.as_mut() else {
                return Err(fail("internal: a runnable work-item has no coroutine"));
            };
            let msg = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| co.resume(())))
            {
                Ok(CoroutineResult::Yield(msg)) => msg,
                Ok(CoroutineResult::Return(r)) => {
                    if let Some(done) = slots[idx].co.take() {
                        stacks.push(done.into_stack());
                    }
                    ToSched::Done(r)
                }
                Err(_) => {
                    slots[idx].co = None;
                    return Err(fail("internal error: the emulator panicked in a work-item"));
                }
            };
            let slot = &mut slots[idx];
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
            let li = slots[idx].group;
            let (linear, first, n) = launches[li].active.expect("the item's group is live");
            let group = first..first + n;
            settle_group(sm, &mut slots, group.clone())?;
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
        }
    };
    // Every coroutine is dropped (unwound if suspended) when `sched` returns.
    sched()?;
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
        }
    }
}

fn setup_launch(
    prog: &Program,
    spec: &RunSpec,
    li: usize,
    buf_addrs: &[u32],
) -> Result<LaunchState, EmuError> {
    let l = &spec.launches[li];
    let (func, f) = prog
        .function_by_name(&l.kernel)
        .filter(|(_, f)| f.is_kernel)
        .ok_or_else(|| fail(format!("the program has no kernel named `{}`", l.kernel)))?;
    if f.params.len() != l.args.len() {
        return Err(fail(format!(
            "kernel `{}` takes {} arguments, the test gives {}",
            l.kernel,
            f.params.len(),
            l.args.len()
        )));
    }
    let dims = l.dims.clamp(1, 3) as usize;
    let mut global = [1u32; 3];
    let mut offset = [0u32; 3];
    global[..dims].copy_from_slice(&l.global[..dims]);
    offset[..dims].copy_from_slice(&l.offset[..dims]);
    let reqd = f.attr("reqd_work_group_size");
    let reqd_sizes = reqd.and_then(|a| a.int_args());
    let mut local = [1u32; 3];
    match (l.local, &reqd_sizes) {
        (Some(ls), _) => local[..dims].copy_from_slice(&ls[..dims]),
        (None, Some(r)) if r.len() == 3 => {
            for d in 0..dims {
                local[d] = r[d] as u32;
            }
        }
        (None, _) => {
            let mut room = MAX_GROUP as u32;
            for d in 0..dims {
                let g = global[d].max(1);
                let best = (1..=room.min(g)).rev().find(|c| g % c == 0).unwrap_or(1);
                local[d] = best;
                room /= best;
            }
        }
    }
    if let (Some(a), Some(r)) = (reqd, &reqd_sizes) {
        let want: Vec<u32> = r.iter().map(|&x| x as u32).collect();
        if want.len() == 3 && want[..] != local[..] {
            return Err(EmuError::at(
                a.span,
                format!(
                    "kernel `{}` requires work-groups of {}x{}x{} but the launch uses {}x{}x{}",
                    l.kernel, want[0], want[1], want[2], local[0], local[1], local[2]
                ),
            ));
        }
    }
    if local.contains(&0) {
        return Err(fail("a local size of 0"));
    }
    let items: u64 = local.iter().map(|&x| x as u64).product();
    if items > MAX_GROUP {
        return Err(fail(format!(
            "work-groups of {items} work-items; the emulator runs at most {MAX_GROUP} per group"
        )));
    }
    let mut groups = [1u32; 3];
    for d in 0..3 {
        groups[d] = global[d].div_ceil(local[d]);
    }
    let total_groups = if global.contains(&0) {
        0
    } else {
        groups
            .iter()
            .try_fold(1u32, |a, &g| a.checked_mul(g))
            .ok_or_else(|| fail("too many work-groups"))?
    };
    // local memory: the kernel's `local` variables, then local pointer arguments
    let mut off = 0usize;
    let mut local_vars = Vec::new();
    for (i, v) in prog.vars.iter().enumerate() {
        if v.func == Some(func) && v.space == AddrSpace::Local && !v.is_param {
            let a = prog.structs.align_of(&v.ty).max(1) as usize;
            off = off.div_ceil(a) * a;
            local_vars.push((VarId(i as u32), crate::mem::LOCAL_BASE + off as u32));
            off += prog.size_of(&v.ty) as usize;
        }
    }
    let mut params = Vec::new();
    let mut blocking = Vec::new();
    let local_limit = |off: usize| {
        if off > MAX_LOCAL {
            Err(fail(format!(
                "kernel `{}` needs {off} bytes of local memory; the emulator allows {MAX_LOCAL}",
                l.kernel
            )))
        } else {
            Ok(())
        }
    };
    local_limit(off)?;
    for (i, (p, a)) in f.params.iter().zip(&l.args).enumerate() {
        let info = prog.var(*p);
        let ty = &info.ty;
        let what = |w: &str| {
            fail(format!(
                "argument {i} of `{}` (`{}`, a `{}`) cannot take {w}",
                l.kernel,
                info.name,
                prog.type_name(ty)
            ))
        };
        let v = match (ty, a) {
            (Type::Pointer { space, .. }, ArgValue::Local(n)) if *space == AddrSpace::Local => {
                off = off.div_ceil(16) * 16;
                let addr = crate::mem::LOCAL_BASE + off as u32;
                off += *n as usize;
                Val::uint(addr)
            }
            (Type::Pointer { space, .. }, ArgValue::Buffer(b)) if *space != AddrSpace::Local => {
                Val::uint(buf_addrs[*b])
            }
            (Type::Pointer { .. }, ArgValue::Null) => Val::uint(0),
            (Type::Counter32 | Type::Counter64, ArgValue::Buffer(b)) => {
                let need = prog.size_of(ty) as usize;
                if spec.buffers[*b].bytes.len() < need {
                    return Err(what("a buffer smaller than the counter"));
                }
                Val::uint(buf_addrs[*b])
            }
            (Type::Pipe { packet, .. }, ArgValue::Pipe(pi)) => {
                let want = prog.size_of(packet);
                let have = spec.pipes[*pi].packet_size;
                if want != have {
                    return Err(what(&format!(
                        "pipe `{}` of {have}-byte packets (the kernel's packets are {want} bytes)",
                        spec.pipes[*pi].name
                    )));
                }
                if info.attrs.iter().any(|a| a.name == "blocking") {
                    blocking.push(*pi);
                }
                Val::uint(*pi as u32)
            }
            (_, ArgValue::Value(bytes))
                if !matches!(ty, Type::Pointer { .. } | Type::Pipe { .. }) =>
            {
                if bytes.len() != prog.size_of(ty) as usize {
                    return Err(what(&format!("a {}-byte value", bytes.len())));
                }
                value::from_bytes(bytes, ty)
            }
            (_, ArgValue::Buffer(_)) => return Err(what("a buffer")),
            (_, ArgValue::Null) => return Err(what("NULL")),
            (_, ArgValue::Pipe(_)) => return Err(what("a pipe")),
            (_, ArgValue::Value(_)) => return Err(what("a value")),
            (_, ArgValue::Local(_)) => return Err(what("local memory")),
        };
        params.push(v);
    }
    local_limit(off)?;
    Ok(LaunchState {
        func,
        geom: Geometry {
            dims: dims as u32,
            global,
            local,
            offset,
            groups,
        },
        params,
        local_vars,
        local_bytes: off,
        blocking,
        after: l.after.clone(),
        next_group: 0,
        total_groups,
        active: None,
        sequential: !synchronises(prog, func, &mut Vec::new()),
        finished: false,
    })
}

/// A work-item (or a sequential work-group) as a coroutine.
type Co = Coroutine<(), ToSched, Result<(), EmuError>, DefaultStack>;

/// What a coroutine runs.
struct Job {
    geom: Geometry,
    /// One work-item, or a whole work-group run one work-item after another (kernels that
    /// never synchronise, see `LaunchState::sequential`).
    ids: Vec<ItemId>,
    blocking: Vec<usize>,
    params: Vec<Val>,
    local_vars: Vec<(VarId, u32)>,
    func: FuncId,
}

fn coroutine(env: &Env, job: Job, stacks: &mut Vec<DefaultStack>) -> Result<Co, EmuError> {
    let stack = match stacks.pop() {
        Some(s) => s,
        None => DefaultStack::new(STACK)
            .map_err(|e| fail(format!("cannot allocate a work-item stack: {e}")))?,
    };
    let env = env.clone();
    Ok(Coroutine::with_stack(stack, move |yielder, ()| {
        for id in job.ids {
            let link = Link { yielder };
            let mut item = env.item(job.geom.clone(), id, Some(link), job.blocking.clone());
            for (v, a) in &job.local_vars {
                item.vars[v.0 as usize] = *a;
            }
            let span = item.prog.func(job.func).span;
            item.call(job.func, job.params.clone(), span)?;
        }
        Ok(())
    }))
}

/// Starts the work-items of work-group `linear` of launch `li` as coroutines; returns how many
/// coroutines.
fn start_group(
    env: &Env,
    l: &LaunchState,
    li: usize,
    linear: u32,
    slots: &mut [Slot],
    stacks: &mut Vec<DefaultStack>,
) -> Result<usize, EmuError> {
    let g = &l.geom;
    let gid = [
        linear % g.groups[0],
        (linear / g.groups[0]) % g.groups[1],
        linear / (g.groups[0] * g.groups[1]),
    ];
    let mut size = [1u32; 3];
    for d in 0..3 {
        size[d] = g.local[d].min(g.global[d] - gid[d] * g.local[d]);
    }
    env.shared
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .groups
        .insert(
            (li, linear),
            GroupShared {
                local: vec![0; l.local_bytes],
                ..Default::default()
            },
        );
    let mut ids = Vec::new();
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                ids.push(ItemId {
                    launch: li,
                    kernel: l.func,
                    group: gid,
                    group_linear: linear,
                    local: [x, y, z],
                    local_size: size,
                });
            }
        }
    }
    let jobs: Vec<Vec<ItemId>> = if l.sequential {
        vec![ids]
    } else {
        ids.into_iter().map(|id| vec![id]).collect()
    };
    let mut n = 0;
    for ids in jobs {
        let who = match &ids[..] {
            [one] => env.item(g.clone(), one.clone(), None, Vec::new()).who(),
            _ => format!(
                "work-group {linear} of kernel `{}` (run one work-item after another)",
                env.prog.func(l.func).name
            ),
        };
        let job = Job {
            geom: g.clone(),
            ids,
            blocking: l.blocking.clone(),
            params: l.params.clone(),
            local_vars: l.local_vars.clone(),
            func: l.func,
        };
        slots[n] = Slot {
            group: li,
            status: Status::Runnable,
            co: Some(coroutine(env, job, stacks)?),
            last: env.prog.func(l.func).span,
            who,
        };
        n += 1;
    }
    Ok(n)
}

/// Whether `f` or a function it calls uses a barrier, a pipe, a work-group function or an
/// async copy.
fn synchronises(prog: &Program, f: FuncId, seen: &mut Vec<FuncId>) -> bool {
    if seen.contains(&f) {
        return false;
    }
    seen.push(f);
    let mut calls = Vec::new();
    let mut sync = false;
    frontend::visit::walk_block(&prog.func(f).body.stmts, &mut |e, _| match &e.kind {
        ExprKind::Call { func, .. } => calls.push(*func),
        ExprKind::Builtin { builtin, .. } => {
            // a list of what is known not to synchronise, so that a new built-in is
            // treated as synchronising until it is added here
            sync |= !(crate::builtins::is_work_item_query(*builtin)
                || matches!(
                    builtin,
                    Builtin::MemFence
                        | Builtin::ReadMemFence
                        | Builtin::WriteMemFence
                        | Builtin::Min
                        | Builtin::Max
                        | Builtin::Clamp
                        | Builtin::Mad
                        | Builtin::Abs
                        | Builtin::Select
                        | Builtin::Math(_)
                        | Builtin::NativeMath(_)
                        | Builtin::Convert { .. }
                        | Builtin::AsType
                        | Builtin::VLoad(_)
                        | Builtin::VStore(_)
                        | Builtin::VLoadHalf(_)
                        | Builtin::VStoreHalf(_)
                        | Builtin::Atomic(_)
                        | Builtin::Prefetch
                ));
        }
        _ => {}
    });
    sync || calls.into_iter().any(|c| synchronises(prog, c, seen))
}

/// Releases a barrier once every work-item of the group has reached it; reports divergence.
fn settle_group(
    sm: &SourceMap,
    slots: &mut [Slot],
    group: std::ops::Range<usize>,
) -> Result<(), EmuError> {
    let items = &slots[group.clone()];
    let waiting: Vec<&Slot> = items
        .iter()
        .filter(|s| matches!(s.status, Status::AtBarrier(_)))
        .collect();
    let Some(first) = waiting.first() else {
        return Ok(());
    };
    if !items
        .iter()
        .all(|s| matches!(s.status, Status::AtBarrier(_) | Status::Done))
    {
        return Ok(());
    }
    let Status::AtBarrier(span) = first.status else {
        unreachable!("filtered above")
    };
    if let Some(done) = items.iter().find(|s| s.status == Status::Done) {
        return Err(EmuError::at(
            span,
            format!(
                "divergent barrier: the barrier at {} is reached by {} but {} finished without \
                 reaching it",
                sm.describe(span),
                first.who,
                done.who
            ),
        )
        .with_note("every work-item of a work-group must reach the same barriers"));
    }
    if let Some(other) = waiting
        .iter()
        .find(|s| !matches!(s.status, Status::AtBarrier(sp) if sp == span))
    {
        let Status::AtBarrier(sp2) = other.status else {
            unreachable!("filtered above")
        };
        return Err(EmuError::at(
            span,
            format!(
                "divergent barrier: {} waits at the barrier at {} while {} waits at {}",
                first.who,
                sm.describe(span),
                other.who,
                sm.describe(sp2)
            ),
        )
        .with_note("every work-item of a work-group must reach the same barriers"));
    }
    for s in &mut slots[group] {
        s.status = Status::Runnable;
    }
    Ok(())
}

fn deadlock(
    prog: &Program,
    sm: &SourceMap,
    launches: &[LaunchState],
    slots: &[Slot],
    shared: &Mutex<Shared>,
) -> EmuError {
    let sh = shared.lock().unwrap_or_else(|e| e.into_inner());
    let mut notes = Vec::new();
    let mut labels = Vec::new();
    let mut primary = None;
    for l in launches {
        let Some((_, first, n)) = l.active else {
            continue;
        };
        let name = &prog.func(l.func).name;
        let items = &slots[first..first + n];
        let blocked = items.iter().find_map(|s| match &s.status {
            Status::Blocked {
                span,
                pipe,
                write,
                n,
            } => Some((s, *span, *pipe, *write, *n)),
            _ => None,
        });
        if let Some((s, span, pipe, write, n)) = blocked {
            primary.get_or_insert(span);
            let p = &sh.pipes.pipes[pipe];
            labels.push((
                span,
                format!(
                    "`{name}` waits here on pipe `{}` ({} of {} packets)",
                    p.name,
                    p.fifo.len(),
                    p.capacity
                ),
            ));
            notes.push(format!(
                "kernel `{name}` is blocked at {}: {} waits to {} {n} packet(s) {} pipe `{}` ({})",
                sm.describe(span),
                s.who,
                if write { "write" } else { "read" },
                if write { "to" } else { "from" },
                p.name,
                p.fill()
            ));
        } else if let Some(s) = items
            .iter()
            .find(|s| matches!(s.status, Status::AtBarrier(_)))
        {
            primary.get_or_insert(s.last);
            labels.push((s.last, format!("`{name}` waits at this barrier")));
            notes.push(format!(
                "kernel `{name}` is blocked at {}: {} waits at a barrier for work-items of its \
                 group that are blocked",
                sm.describe(s.last),
                s.who
            ));
        }
    }
    for l in launches
        .iter()
        .filter(|l| l.active.is_none() && !l.finished)
    {
        let waits: Vec<String> = l
            .after
            .iter()
            .filter(|&&a| !launches[a].finished)
            .map(|&a| format!("`{}`", prog.func(launches[a].func).name))
            .collect();
        notes.push(format!(
            "kernel `{}` has not started: it runs after {}",
            prog.func(l.func).name,
            waits.join(" and ")
        ));
    }
    let span = primary.unwrap_or_default();
    let mut e = EmuError::at(
        span,
        "deadlock: every running kernel is blocked".to_string(),
    );
    for (s, t) in labels {
        e = e.with_label(s, t);
    }
    for n in notes {
        e = e.with_note(n);
    }
    e
}
