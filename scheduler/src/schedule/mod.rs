//! The scheduling driver: bounds, the II search, the ILP with its infeasibility re-check,
//! and the heuristic fallback.
//!
//! [`schedule`] computes the bounds once per problem (a `Ctx`), then hands over to `search`
//! (modulo scheduling: the II search and the fallback) or `flat` (non-pipelined). The exact
//! feasibility check of an II on the problem's core is `feasibility`; one ILP solve with its
//! re-check is `solve`. The public settings are in `options`, the [`Schedule`] artefact and
//! its statistics in `result`.

mod feasibility;
mod flat;
mod options;
mod result;
mod search;
mod solve;

pub use options::{DependenceForm, Objective, Options};
pub use result::{IiAttempt, IlpOutcome, Limit, Method, Schedule, SolveStats};

use std::time::Instant;

use crate::backend;
use crate::chain;
use crate::error::ScheduleError;
use crate::graph::Graph;
use crate::mii::{expand, rec_mii_of, res_mii_of};
use crate::problem::{Problem, ResourceId};
use crate::verify::verify;
use feasibility::Core;
use solve::Checked;

/// ResMII = max over limited resources of `ceil(uses × blocking_time / limit)` (at least 1),
/// and the resource that reaches it. A needed resource with limit 0 gives `u32::MAX`.
pub fn res_mii(p: &Problem) -> (u32, Option<ResourceId>) {
    res_mii_of(p)
}

/// RecMII: the smallest II >= 1 at which no dependence cycle has positive weight
/// `latency(src) + delay - distance × II` summed over its edges, with the chaining
/// constraints of `clock_period_ns` included; and the critical cycle (indices into
/// `Problem::edges`) when a recurrence forces II >= 1.
///
/// For a problem that [`schedule`] rejects (malformed, or a cycle of distance 0 with
/// positive length, which no II satisfies) this returns `(u32::MAX, cycle)`;
/// use [`try_rec_mii`] to get the error.
pub fn rec_mii(p: &Problem) -> (u32, Option<Vec<usize>>) {
    match try_rec_mii(p) {
        Ok(r) => r,
        Err(ScheduleError::PositiveCycle { edges, .. }) => (u32::MAX, Some(edges)),
        Err(_) => (u32::MAX, None),
    }
}

/// [`rec_mii`] with the reason when no II satisfies the recurrences.
pub fn try_rec_mii(p: &Problem) -> Result<(u32, Option<Vec<usize>>), ScheduleError> {
    p.validate()?;
    let chains = chain::derive(p)?;
    let g = Graph::new(p, &chains);
    let rec = rec_mii_of(&g).map_err(|e| e.into_schedule_error(&g))?;
    Ok((rec.ii, rec.cycle.map(|c| expand(&g, &c))))
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Everything computed once per problem.
struct Ctx<'a> {
    p: &'a Problem,
    o: &'a Options,
    g: Graph,
    res_mii: u32,
    res_arg: Option<ResourceId>,
    rec_mii: u32,
    rec_cycle: Option<Vec<usize>>,
    mii: u32,
    stats: SolveStats,
    /// The feasibility core, built on first use (see [`Core`]).
    core: Option<Core>,
    /// Set when neither the heuristic nor the ILP can cope with the problem's size (IIs or
    /// blocking times in the millions): the II search stops and the fallback takes over.
    hopeless: bool,
}

/// Schedules `p`. On success the schedule has passed [`verify`].
pub fn schedule(p: &Problem, o: &Options) -> Result<Schedule, ScheduleError> {
    let t0 = Instant::now();
    p.validate()?;
    let chains = chain::derive(p)?;
    let g = Graph::new(p, &chains);
    let (res_mii, res_arg) = res_mii_of(p);
    let rec = rec_mii_of(&g).map_err(|e| e.into_schedule_error(&g))?;
    let mii = res_mii.max(rec.ii).max(1);
    let rec_cycle = rec.cycle.map(|c| expand(&g, &c));
    let mut ctx = Ctx {
        p,
        o,
        g,
        res_mii,
        res_arg,
        rec_mii: rec.ii,
        rec_cycle,
        mii,
        core: None,
        hopeless: false,
        stats: SolveStats {
            solver: backend::SOLVER.to_string(),
            attempts: Vec::new(),
            rechecks: 0,
            overturned: Vec::new(),
            fallback_used: false,
            method: Method::Heuristic,
            chain_constraints: chains.len(),
            total_ms: 0.0,
        },
    };
    let mut s = if o.pipelined {
        ctx.pipelined()?
    } else {
        ctx.flat()?
    };
    s.stats.total_ms = ms_since(t0);
    Ok(s)
}

impl Ctx<'_> {
    /// `max(t + max(latency, 1))`: the length of a schedule with start times `times`.
    fn length_of(&self, times: &[i64]) -> i64 {
        times
            .iter()
            .zip(&self.g.lat1)
            .map(|(t, l)| t + l)
            .max()
            .unwrap_or(0)
    }

    /// Assembles and verifies a schedule; `Err` if it fails verification or does not fit in
    /// `u32` (a defect of whatever produced the times: callers fall back to another source).
    fn assemble(
        &self,
        times: &[i64],
        ii: u32,
        optimal: bool,
        limited_by: Limit,
        method: Method,
    ) -> Result<Schedule, String> {
        let start: Vec<u32> = times
            .iter()
            .map(|&t| u32::try_from(t).map_err(|_| format!("start time {t} out of range")))
            .collect::<Result<_, _>>()?;
        let length = u32::try_from(self.length_of(times)).map_err(|_| "length out of range")?;
        let mut stats = self.stats.clone();
        stats.method = method;
        stats.fallback_used = method == Method::Fallback;
        let s = Schedule {
            ii,
            start,
            length,
            res_mii: self.res_mii,
            rec_mii: self.rec_mii,
            mii: self.mii,
            optimal,
            limited_by,
            pipelined: self.o.pipelined,
            stats,
        };
        match verify(self.p, &s) {
            Ok(()) => Ok(s),
            Err(v) => Err(format!("schedule failed verification: {v:?}")),
        }
    }

    fn limit_for(&self, ii: u32, proven: bool) -> Limit {
        if let Some(r) = self.o.min_ii.filter(|&r| r > self.mii && ii >= r) {
            if ii == r || !proven {
                return Limit::Requested { ii: r };
            }
        }
        if ii > self.mii {
            return if proven {
                Limit::Combined { mii: self.mii }
            } else {
                Limit::Unproven { mii: self.mii }
            };
        }
        if ii <= 1 {
            return Limit::None;
        }
        match (&self.rec_cycle, self.res_arg) {
            (Some(edges), _) if self.rec_mii >= self.res_mii => Limit::Recurrence {
                edges: edges.clone(),
                ii: self.rec_mii,
            },
            (_, Some(r)) => Limit::Resource {
                resource: r,
                uses: self.p.uses(r),
            },
            _ => Limit::None,
        }
    }
}
