//! Lower bounds on the initiation interval: ResMII and RecMII.

use crate::error::ScheduleError;
use crate::graph::{scc, Graph};
use crate::problem::{Problem, ResourceId};

/// ResMII of a validated problem: max over limited resources of
/// `ceil(uses * blocking_time / limit)`, at least 1, and the resource reaching it (the
/// first on ties; `None` when no limited resource is used). A resource with limit 0 that
/// is needed gives `u32::MAX` (validation rejects such problems).
pub(crate) fn res_mii_of(p: &Problem) -> (u32, Option<ResourceId>) {
    let mut uses = vec![0u64; p.resources.len()];
    for op in &p.ops {
        if let Some(r) = op.resource {
            if let Some(u) = uses.get_mut(r.index()) {
                *u += 1;
            }
        }
    }
    let mut best: (u64, Option<ResourceId>) = (0, None);
    for (i, r) in p.resources.iter().enumerate() {
        let Some(limit) = r.limit else { continue };
        let need = uses[i] * u64::from(r.blocking_time);
        if need == 0 {
            continue;
        }
        let bound = if limit == 0 {
            u64::from(u32::MAX)
        } else {
            need.div_ceil(u64::from(limit))
        };
        if best.1.is_none() || bound > best.0 {
            best = (bound, Some(ResourceId(i as u32)));
        }
    }
    (best.0.clamp(1, u64::from(u32::MAX)) as u32, best.1)
}

/// RecMII and, when a recurrence forces II >= 1, one critical cycle (indices into
/// `g.deps`, in cycle order).
#[derive(Clone, Debug)]
pub(crate) struct Rec {
    pub ii: u32,
    pub cycle: Option<Vec<usize>>,
}

/// Why RecMII does not exist.
#[derive(Clone, Debug)]
pub(crate) enum RecError {
    /// A positive cycle of distance 0 (deps of the graph).
    ZeroDistance { cycle: Vec<usize>, length: i64 },
    /// RecMII exceeds `u32::MAX`.
    TooLarge,
}

impl RecError {
    pub fn into_schedule_error(self, g: &Graph) -> ScheduleError {
        match self {
            RecError::ZeroDistance { cycle, length } => ScheduleError::PositiveCycle {
                edges: expand(g, &cycle),
                length,
            },
            RecError::TooLarge => ScheduleError::OutOfRange {
                what: "recurrence-constrained II above u32::MAX".into(),
            },
        }
    }
}

/// Problem edges behind a list of deps.
pub(crate) fn expand(g: &Graph, deps: &[usize]) -> Vec<usize> {
    deps.iter()
        .flat_map(|&k| g.deps[k].origin.iter().copied())
        .collect()
}

/// Exact RecMII: the smallest II >= 1 at which no cycle has positive weight
/// `sum(d) - II * sum(omega)`. Binary search over II, each probe a Bellman-Ford positive
/// cycle check restricted to the strongly connected components (only they hold cycles).
pub(crate) fn rec_mii_of(g: &Graph) -> Result<Rec, RecError> {
    let comp = scc(g.n, &g.out, |k| g.deps[k].dst);
    let inner: Vec<usize> = (0..g.deps.len())
        .filter(|&k| comp[g.deps[k].src] == comp[g.deps[k].dst])
        .collect();
    if inner.is_empty() {
        return Ok(Rec { ii: 1, cycle: None });
    }
    // At II = hi every cycle with omega >= 1 has negative weight, so a positive cycle
    // there has distance 0.
    let hi: i128 = 1 + inner
        .iter()
        .map(|&k| i128::from(g.deps[k].d.max(0)))
        .sum::<i128>();
    if let Some(cycle) = positive_cycle(g, &inner, hi) {
        let length = cycle.iter().map(|&k| g.deps[k].d).sum();
        return Err(RecError::ZeroDistance { cycle, length });
    }
    // Invariant: feasible at hi, and (if lo > 0) infeasible at lo - 1.
    let (mut lo, mut hi) = (0i128, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if positive_cycle(g, &inner, mid).is_none() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if lo > i128::from(u32::MAX) {
        return Err(RecError::TooLarge);
    }
    if lo == 0 {
        return Ok(Rec { ii: 1, cycle: None });
    }
    let cycle = positive_cycle(g, &inner, lo - 1);
    Ok(Rec {
        ii: lo as u32,
        cycle,
    })
}

/// A positive-weight cycle among `edges` (indices into `g.deps`) at `ii`, if any.
pub(crate) fn positive_cycle(g: &Graph, edges: &[usize], ii: i128) -> Option<Vec<usize>> {
    let n = g.n;
    let w = |k: usize| i128::from(g.deps[k].d) - i128::from(g.deps[k].omega) * ii;
    // Longest paths from a virtual source joined to every node by a 0-weight edge.
    let mut dist = vec![0i128; n];
    let mut pred = vec![usize::MAX; n];
    let mut last_changed = None;
    for _ in 0..=n {
        last_changed = None;
        for &k in edges {
            let dep = &g.deps[k];
            let cand = dist[dep.src] + w(k);
            if cand > dist[dep.dst] {
                dist[dep.dst] = cand;
                pred[dep.dst] = k;
                last_changed = Some(dep.dst);
            }
        }
        last_changed?;
    }
    // Still relaxing after n + 1 rounds: the predecessor graph holds a cycle, and every
    // cycle of it is positive. Find one (each node has at most one predecessor).
    let mut stamp = vec![usize::MAX; n];
    let starts = last_changed.into_iter().chain(0..n);
    for (round, start) in starts.enumerate() {
        let mut v = start;
        while stamp[v] == usize::MAX && pred[v] != usize::MAX {
            stamp[v] = round;
            v = g.deps[pred[v]].src;
        }
        if stamp[v] == round {
            // v is on a cycle found in this walk.
            let mut cycle = Vec::new();
            let mut x = v;
            loop {
                let k = pred[x];
                cycle.push(k);
                x = g.deps[k].src;
                if x == v {
                    break;
                }
            }
            cycle.reverse();
            if cycle.iter().map(|&k| w(k)).sum::<i128>() > 0 {
                return Some(cycle);
            }
        }
        // Mark as finished so later walks stop here.
        stamp[v] = stamp[v].min(round);
    }
    // Unreachable by the lemma above; report "no cycle" rather than panic on user input,
    // the schedule is verified independently anyway.
    None
}
