//! Work-groups: starting the work-items of a group as coroutines (or the whole group as one,
//! for kernels that never synchronise), and releasing a barrier once every work-item of the
//! group has reached it, with the divergence checks.

use super::{fail, Env, LaunchState, Slot, Status, STACK};
use crate::interp::{Geometry, GroupShared, ItemId, Link, ToSched};
use crate::value::Val;
use crate::EmuError;
use corosensei::stack::DefaultStack;
use corosensei::Coroutine;
use frontend::ast::{FuncId, VarId};
use frontend::SourceMap;

/// A work-item (or a sequential work-group) as a coroutine.
pub(super) type Co = Coroutine<(), ToSched, Result<(), EmuError>, DefaultStack>;

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
    track_races: bool,
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
            item.track_races = job.track_races;
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
pub(super) fn start_group(
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
            track_races: l.track_races,
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

/// Releases a barrier once every work-item of the group has reached it; reports divergence.
pub(super) fn settle_group(
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
