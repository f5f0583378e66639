//! Setting a run up: the memories (buffers, pipes, program-scope data and its initialisers)
//! and, per launch, the NDRange geometry, the local memory layout and the binding of the
//! kernel's arguments, each checked against the program.

use super::{fail, Co, Env, LaunchState, MAX_GROUP, MAX_LOCAL, STACK};
use crate::interp::{Geometry, ItemId, Shared};
use crate::pipes::Pipe;
use crate::value::{self, Val};
use crate::{ArgValue, EmuError, LaunchSpec, RunSpec};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult};
use frontend::ast::{AddrSpace, Builtin, ExprKind, FuncId, Function, Program, Type, VarId};
use std::collections::VecDeque;

/// The memories of a run before any kernel runs.
pub(super) struct Memories {
    pub shared: Shared,
    /// Base address of every buffer, in [`RunSpec::buffers`] order.
    pub buf_addrs: Vec<u32>,
    /// Names of the pipes: those of the run, then the program-scope ones.
    pub pipe_names: Vec<String>,
    /// Address of every program-scope variable.
    pub global_addrs: Vec<u32>,
}

/// Allocates the buffers, the pipes (of the run, then one per program-scope pipe) and the
/// program-scope data (zeroed; see [`init_globals`]).
pub(super) fn memories(prog: &Program, spec: &RunSpec) -> Result<Memories, EmuError> {
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
        // FIFO for it (`xcl_reqd_pipe_depth`, by the hardware contract's rule).
        if let Type::Pipe { packet, .. } = &g.ty {
            let depth = hwcontract::pipe::effective_depth(g.pipe_attrs.depth);
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
    Ok(Memories {
        shared,
        buf_addrs,
        pipe_names,
        global_addrs,
    })
}

/// Runs the program-scope initialisers, on a coroutine stack like every work-item (the
/// caller's stack may be too small for deeply nested initialisers in a debug build).
pub(super) fn init_globals(env: &Env, global_addrs: &[u32]) -> Result<(), EmuError> {
    let env = env.clone();
    let globals = global_addrs.to_vec();
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
    Ok(())
}

/// The state of launch `li` before its first work-group: the kernel, its geometry, its local
/// memory and its bound arguments.
pub(super) fn launch(
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
    let (geom, total_groups) = geometry(l, f)?;
    // local memory: the kernel's `local` variables, then local pointer arguments
    let (mut off, local_vars) = local_variables(prog, func);
    local_limit(l, off)?;
    let (params, blocking) = bind_args(prog, spec, l, f, buf_addrs, &mut off)?;
    local_limit(l, off)?;
    Ok(LaunchState {
        func,
        geom,
        params,
        local_vars,
        local_bytes: off,
        blocking,
        after: l.after.clone(),
        next_group: 0,
        total_groups,
        active: None,
        sequential: !synchronises(prog, func, &mut Vec::new()),
        track_races: uses_memory_atomics(prog, func, &mut Vec::new()),
        finished: false,
    })
}

/// The NDRange of a launch (the local size chosen when the launch leaves it open) and its
/// number of work-groups, checked against `reqd_work_group_size` and the emulator's limits.
fn geometry(l: &LaunchSpec, f: &Function) -> Result<(Geometry, u32), EmuError> {
    let dims = l.dims.clamp(1, 3) as usize;
    let mut global = [1u32; 3];
    let mut offset = [0u32; 3];
    global[..dims].copy_from_slice(&l.global[..dims]);
    offset[..dims].copy_from_slice(&l.offset[..dims]);
    let reqd = f.kernel_attrs.reqd_work_group_size;
    let mut local = [1u32; 3];
    match (l.local, reqd) {
        (Some(ls), _) => local[..dims].copy_from_slice(&ls[..dims]),
        (None, Some(r)) => local[..dims].copy_from_slice(&r[..dims]),
        (None, None) => {
            let mut room = MAX_GROUP as u32;
            for d in 0..dims {
                let g = global[d].max(1);
                let best = (1..=room.min(g)).rev().find(|c| g % c == 0).unwrap_or(1);
                local[d] = best;
                room /= best;
            }
        }
    }
    if let Some(want) = reqd {
        if want != local {
            // The error points at the attribute as written.
            let span = f.attr("reqd_work_group_size").map_or(f.span, |a| a.span);
            return Err(EmuError::at(
                span,
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
    Ok((
        Geometry {
            dims: dims as u32,
            global,
            local,
            offset,
            groups,
        },
        total_groups,
    ))
}

/// The kernel's `local` variables laid out from the start of local memory: their addresses
/// and the bytes they take.
fn local_variables(prog: &Program, func: FuncId) -> (usize, Vec<(VarId, u32)>) {
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
    (off, local_vars)
}

/// The local memory of one work-group within the emulator's limit.
fn local_limit(l: &LaunchSpec, off: usize) -> Result<(), EmuError> {
    if off > MAX_LOCAL {
        Err(fail(format!(
            "kernel `{}` needs {off} bytes of local memory; the emulator allows {MAX_LOCAL}",
            l.kernel
        )))
    } else {
        Ok(())
    }
}

/// The value of every kernel parameter, and the pipes bound to parameters with
/// `__attribute__((blocking))`. Local pointer arguments are placed in local memory from
/// `*off` on.
fn bind_args(
    prog: &Program,
    spec: &RunSpec,
    l: &LaunchSpec,
    f: &Function,
    buf_addrs: &[u32],
    off: &mut usize,
) -> Result<(Vec<Val>, Vec<usize>), EmuError> {
    let mut params = Vec::new();
    let mut blocking = Vec::new();
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
                *off = off.div_ceil(16) * 16;
                let addr = crate::mem::LOCAL_BASE + *off as u32;
                *off += *n as usize;
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
                if info.param_attrs.pipe.blocking {
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
    Ok((params, blocking))
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
                        | Builtin::Shuffle
                        | Builtin::Shuffle2
                        | Builtin::Nan
                        | Builtin::Math(_)
                        | Builtin::NativeMath(_)
                        | Builtin::Convert { .. }
                        | Builtin::AsType
                        | Builtin::VLoad(_)
                        | Builtin::VStore(_)
                        | Builtin::VLoadHalf(_)
                        | Builtin::VStoreHalf(_)
                        | Builtin::Atomic(_)
                        | Builtin::AtomicInit
                        | Builtin::AtomicLoad
                        | Builtin::AtomicStore
                        | Builtin::AtomicCompareExchange { .. }
                        | Builtin::AtomicFlagTestAndSet
                        | Builtin::AtomicFlagClear
                        | Builtin::WorkItemFence { .. }
                        | Builtin::Prefetch
                ));
        }
        _ => {}
    });
    sync || calls.into_iter().any(|c| synchronises(prog, c, seen))
}

/// Whether an atomic built-in on memory (not on a counter) is reachable from function `f`:
/// such kernels are checked for races between atomics and plain stores (`crate::race`).
fn uses_memory_atomics(prog: &Program, f: FuncId, seen: &mut Vec<FuncId>) -> bool {
    if seen.contains(&f) {
        return false;
    }
    seen.push(f);
    let mut calls = Vec::new();
    let mut atomics = false;
    frontend::visit::walk_block(&prog.func(f).body.stmts, &mut |e, _| match &e.kind {
        ExprKind::Call { func, .. } => calls.push(*func),
        ExprKind::Builtin { builtin, args } => {
            atomics |= crate::builtins::is_memory_atomic(*builtin)
                && args.first().is_some_and(|a| a.ty.is_pointer());
        }
        _ => {}
    });
    atomics
        || calls
            .into_iter()
            .any(|c| uses_memory_atomics(prog, c, seen))
}
