//! The scheduling driver: bounds, the II search, the ILP with its infeasibility re-check,
//! and the heuristic fallback.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::backend::{self, Config, Raw};
use crate::chain;
use crate::error::ScheduleError;
use crate::graph::{scc, Dep, Graph};
use crate::heuristic;
use crate::ilp::{self, Spec};
use crate::mii::{expand, rec_mii_of, res_mii_of};
use crate::problem::{OpIdx, Problem, ResourceId};
use crate::verify::verify;

/// What the ILP minimises once the II is fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Objective {
    /// Any feasible schedule (fastest).
    Feasibility,
    /// Schedule length.
    Length,
    /// Schedule length, then the sum of edge lifetimes `t(dst) - t(src)` (a proxy for
    /// register pressure), as a weighted sum that is lexicographic in practice.
    LengthThenRegisters,
}

/// Which form of dependence constraints the ILP uses (see the `ilp` module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DependenceForm {
    /// Aggregated in the feasibility core; in the length-minimising model structured while
    /// the structured rows stay few (narrow windows, small II), aggregated otherwise.
    Auto,
    /// Eichenberger–Davidson structured rows (tight LP relaxation, `O(II)` rows per edge).
    Structured,
    /// One row `t(dst) - t(src) >= ...` per edge.
    Aggregated,
}

/// Scheduler settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `true`: modulo-schedule a loop body (iterations overlap, II searched from MII).
    /// `false`: plain scheduling of one iteration; the reported II is then the iteration
    /// latency (`>= length`), so back-to-back iterations never overlap.
    pub pipelined: bool,
    /// Largest II to accept. `None`: the ILP searches up to MII + `ii_search_span`, then
    /// the heuristic fallback continues upward until a schedule trivially exists.
    pub max_ii: Option<u32>,
    /// Time limit of each ILP solve (one per candidate II, plus a re-check when a solver
    /// reports infeasibility).
    pub time_limit_per_ii: Duration,
    /// See `max_ii`.
    pub ii_search_span: u32,
    /// `false`: heuristics only (no solver call); II optimality is then only claimed at MII.
    pub use_ilp: bool,
    /// Secondary objective.
    pub objective: Objective,
    /// Dependence constraint form.
    pub dependence_form: DependenceForm,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            pipelined: true,
            max_ii: None,
            time_limit_per_ii: Duration::from_secs(5),
            ii_search_span: 64,
            use_ilp: true,
            objective: Objective::LengthThenRegisters,
            dependence_form: DependenceForm::Auto,
        }
    }
}

/// What keeps the II from being lower.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// Nothing: II is 1.
    None,
    /// II = ResMII, set by this resource used by `uses` operations.
    Resource {
        /// The resource.
        resource: ResourceId,
        /// Number of operations using it.
        uses: u32,
    },
    /// II = RecMII, set by this dependence cycle (indices into `Problem::edges`; a
    /// chaining constraint appears as the edges of its combinational chain).
    Recurrence {
        /// The critical cycle.
        edges: Vec<usize>,
        /// The II it forces.
        ii: u32,
    },
    /// II > MII, and every II in `mii..ii` was proven infeasible: resources and
    /// dependences together force it.
    Combined {
        /// The lower bound that could not be met.
        mii: u32,
    },
    /// II > MII, but some lower II was neither scheduled nor proven infeasible (solver time
    /// limit): a better schedule may exist.
    Unproven {
        /// The lower bound.
        mii: u32,
    },
    /// Non-pipelined schedule: the II is the iteration latency.
    NotPipelined,
}

/// Result of the ILP at one II.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IlpOutcome {
    /// Not run (heuristics only, or no solver needed).
    NotRun,
    /// Solved, objective proven optimal.
    Optimal,
    /// Feasible solution, objective not proven optimal (time limit).
    Feasible,
    /// Proven infeasible (confirmed by the re-check). With `complete == false` only within
    /// the latency bound used, so not a proof that the II is infeasible.
    Infeasible {
        /// Whether the latency bound admitted every schedule (see `ilp` docs).
        complete: bool,
    },
    /// Time limit without a solution or proof.
    Unknown,
    /// The solver failed, or returned a solution that did not verify.
    Error(String),
}

/// One candidate II.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IiAttempt {
    /// The candidate.
    pub ii: u32,
    /// Whether iterative modulo scheduling found a schedule at it.
    pub heuristic: bool,
    /// When the heuristic failed: the feasibility ILP without latency bound, which either
    /// finds a schedule or proves the II infeasible.
    pub feasibility: IlpOutcome,
    /// The ILP minimising the objective, bounded by the length of a known schedule.
    pub ilp: IlpOutcome,
    /// ILP size: variables and constraints (0 when not run).
    pub ilp_size: (usize, usize),
    /// Wall time for this II, in milliseconds.
    pub ms: f64,
}

/// Where the returned start times come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// The ILP solution.
    Ilp,
    /// The heuristic at an II of the search (the ILP did not improve on it in time, or
    /// was disabled).
    Heuristic,
    /// The fallback after the search: heuristic above the searched range, or the
    /// non-overlapped schedule.
    Fallback,
}

/// How the schedule was found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveStats {
    /// ILP solver compiled in (`"highs"` or `"microlp"`).
    pub solver: String,
    /// Candidate IIs in order.
    pub attempts: Vec<IiAttempt>,
    /// Infeasibility verdicts re-checked (re-solve with presolve off).
    pub rechecks: u32,
    /// IIs at which an "infeasible" verdict was overturned: the re-check found a
    /// solution, or the heuristic had already found one.
    pub overturned: Vec<u32>,
    /// Whether the fallback produced the schedule.
    pub fallback_used: bool,
    /// Source of the start times.
    pub method: Method,
    /// Chaining constraints derived from the clock period.
    pub chain_constraints: usize,
    /// Total wall time, in milliseconds.
    pub total_ms: f64,
}

/// A schedule: start cycle of every operation, relative to the start of its iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Initiation interval (non-pipelined: the iteration latency).
    pub ii: u32,
    /// Start cycle per operation, indexed like `Problem::ops`.
    pub start: Vec<u32>,
    /// `max(start + max(latency, 1))` over operations (0 without operations).
    pub length: u32,
    /// Resource-constrained lower bound on II.
    pub res_mii: u32,
    /// Recurrence-constrained lower bound on II (chaining constraints included).
    pub rec_mii: u32,
    /// `max(res_mii, rec_mii)`.
    pub mii: u32,
    /// II proven minimal: `ii == mii`, or every lower II proven infeasible. For
    /// non-pipelined schedules: the length (and so the II) proven minimal.
    pub optimal: bool,
    /// What limits the II.
    pub limited_by: Limit,
    /// Whether iterations may overlap (modulo schedule).
    pub pipelined: bool,
    /// How it was found.
    pub stats: SolveStats,
}

impl Schedule {
    /// Start cycle of `op`.
    pub fn start_of(&self, op: OpIdx) -> Option<u32> {
        self.start.get(op.index()).copied()
    }

    /// Pipeline stage of `op` (`start / ii`).
    pub fn stage_of(&self, op: OpIdx) -> Option<u32> {
        self.start_of(op).map(|t| t / self.ii.max(1))
    }

    /// Number of pipeline stages (`ceil(length / ii)`).
    pub fn stages(&self) -> u32 {
        self.length.div_ceil(self.ii.max(1))
    }
}

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

/// The part of a problem that decides feasibility at an II (after Oppermann et al.,
/// "Dependence graph preprocessing for faster exact modulo scheduling", FPL 2018):
///
/// * a constraint between different strongly connected components can always be met by
///   moving later components by whole stages, which keeps every row (`t mod II`) and so
///   every modulo resource slot; so only constraints inside components matter;
/// * an operation without a limited resource needs no row: inside a component, projecting
///   it out (longest paths through such operations at the given II) is exact for
///   difference constraints;
/// * components share no constraint, so each can be shifted by whole stages on its own:
///   one anchor per component gets stage 0, and every other stage is bounded by longest
///   paths over the least stage step an edge can impose (`Ctx::core_windows`). Those tight
///   bounds keep the model complete and let the solver's bound propagation work (with
///   unbounded stages it crept through the recurrences for minutes).
///
/// So the core (limited operations, projected constraints) is feasible at II exactly when
/// the problem is, and a core solution extends to a full one (`Ctx::complete`).
struct Core {
    /// The limited operations, as a problem without edges (for the resource rows).
    p: Problem,
    /// Core operation -> problem operation.
    map: Vec<usize>,
    /// Strongly connected component of every problem operation.
    comp: Vec<usize>,
    /// Size of every component.
    size: Vec<usize>,
    /// Per core operation: is it the first of its component (or outside any recurrence)?
    anchor: Vec<bool>,
}

/// What one ILP run (with re-check) gave.
enum Checked {
    Solved { times: Vec<i64>, optimal: bool },
    Infeasible,
    Unknown,
    Error(String),
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
    /// Runs the ILP; an "infeasible" verdict is re-checked with presolve off (HiGHS 1.15
    /// presolve wrongly reports some feasible modulo scheduling models infeasible) and is
    /// never believed when `known_feasible` (a heuristic schedule exists).
    fn run_ilp(
        stats: &mut SolveStats,
        time_limit: Duration,
        spec: &Spec,
        ii: u32,
        size: &mut (usize, usize),
    ) -> Checked {
        let config = |presolve| Config {
            presolve,
            time_limit,
        };
        if ilp::too_large(spec) {
            return Checked::Error("model too large; left to the heuristics".into());
        }
        let model = match ilp::build(spec) {
            Ok(m) => m,
            Err(ilp::Empty) => {
                return if spec.warm.is_some() {
                    Checked::Error("model empty despite a known schedule".into())
                } else {
                    Checked::Infeasible
                };
            }
        };
        *size = model.size();
        let known_feasible = spec.warm.is_some();
        let mut raw = backend::solve(&model, config(true));
        if matches!(raw, Raw::Infeasible) {
            stats.rechecks += 1;
            raw = backend::solve(&model, config(false));
            match raw {
                Raw::Solved { .. } => stats.overturned.push(ii),
                Raw::Infeasible if known_feasible => {
                    stats.overturned.push(ii);
                    return Checked::Error(
                        "solver reported infeasible, but the heuristic found a schedule".into(),
                    );
                }
                _ => {}
            }
        }
        match raw {
            Raw::Solved { values, optimal } => Checked::Solved {
                times: model.decode(&values),
                optimal,
            },
            Raw::Infeasible => Checked::Infeasible,
            Raw::NoSolution => Checked::Unknown,
            Raw::Error(e) => Checked::Error(e),
        }
    }

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

    fn dep_form(&self, ii: i64, lo: &[i64], hi: Option<&[i64]>) -> DependenceForm {
        self.dep_form_for(&self.g, ii, lo, hi)
    }

    fn dep_form_for(&self, g: &Graph, ii: i64, lo: &[i64], hi: Option<&[i64]>) -> DependenceForm {
        match self.o.dependence_form {
            DependenceForm::Auto => {
                // Structured rows cost about |rows(i)| * (|rows(i)| + |rows(j)|) / 2
                // nonzeros per edge; keep them while that stays moderate.
                let rows = |v: usize| hi.map_or(ii, |hi| (hi[v] - lo[v] + 1).clamp(1, ii));
                let mut nnz: i64 = 0;
                for d in &g.deps {
                    let (ri, rj) = (rows(d.src), rows(d.dst));
                    nnz = nnz.saturating_add(ri.saturating_mul(ri + rj) / 2);
                }
                if nnz <= 400_000 {
                    DependenceForm::Structured
                } else {
                    DependenceForm::Aggregated
                }
            }
            f => f,
        }
    }

    fn build_core(&self) -> Core {
        let g = &self.g;
        let comp = scc(g.n, &g.out, |k| g.deps[k].dst);
        let mut size = vec![0usize; g.n];
        for &c in &comp {
            size[c] += 1;
        }
        let map: Vec<usize> = (0..g.n)
            .filter(|&v| self.p.occupancy(v).is_some())
            .collect();
        let mut seen = vec![false; g.n];
        let anchor = map
            .iter()
            .map(|&v| !std::mem::replace(&mut seen[comp[v]], true))
            .collect();
        let p = Problem {
            ops: map.iter().map(|&v| self.p.ops[v].clone()).collect(),
            edges: Vec::new(),
            resources: self.p.resources.clone(),
            clock_period_ns: None,
        };
        Core {
            p,
            map,
            comp,
            size,
            anchor,
        }
    }

    /// The core constraint graph at `ii`: for every limited operation, the longest paths
    /// inside its component to the other limited operations, through unlimited ones only.
    /// `None` if a positive cycle shows up (not at II >= RecMII).
    fn project(&self, core: &Core, ii: i64) -> Option<Graph> {
        let g = &self.g;
        let m = core.map.len();
        let mut back = vec![usize::MAX; g.n];
        for (c, &v) in core.map.iter().enumerate() {
            back[v] = c;
        }
        const NONE: i64 = i64::MIN / 4;
        let mut dist = vec![NONE; g.n];
        let mut count = vec![0usize; g.n];
        let mut deps = Vec::new();
        for (c, &s) in core.map.iter().enumerate() {
            if core.size[core.comp[s]] < 2 {
                continue;
            }
            let mut touched = vec![s];
            dist[s] = 0;
            let mut queue = std::collections::VecDeque::from([s]);
            let mut queued = vec![false; g.n];
            while let Some(v) = queue.pop_front() {
                count[v] += 1;
                if count[v] > g.n + 1 {
                    return None;
                }
                queued[v] = false;
                // Limited operations end paths (except the start).
                if v != s && back[v] != usize::MAX {
                    continue;
                }
                for &k in &g.out[v] {
                    let d = &g.deps[k];
                    if core.comp[d.dst] != core.comp[s] {
                        continue;
                    }
                    let cand = dist[v] + d.weight(ii);
                    if cand > dist[d.dst] {
                        if d.dst == s {
                            if cand > 0 {
                                return None;
                            }
                            continue;
                        }
                        if dist[d.dst] == NONE {
                            touched.push(d.dst);
                        }
                        dist[d.dst] = cand;
                        if !queued[d.dst] {
                            queued[d.dst] = true;
                            queue.push_back(d.dst);
                        }
                    }
                }
            }
            for &v in &touched {
                if v != s && back[v] != usize::MAX {
                    deps.push(Dep {
                        src: c,
                        dst: back[v],
                        d: dist[v],
                        omega: 0,
                        origin: Vec::new(),
                    });
                }
                dist[v] = NONE;
                count[v] = 0;
            }
        }
        let mut out = vec![Vec::new(); m];
        let mut inc = vec![Vec::new(); m];
        for (k, d) in deps.iter().enumerate() {
            out[d.src].push(k);
            inc[d.dst].push(k);
        }
        Some(Graph {
            n: m,
            deps,
            out,
            inc,
            lat1: core.map.iter().map(|&v| g.lat1[v]).collect(),
        })
    }

    /// Start-time windows of the core operations at `ii`: anchors (and operations outside
    /// recurrences) in stage 0, others within the stages their paths to and from the
    /// anchor allow. Whatever the rows, edge `i -> j` forces
    /// `k(j) - k(i) >= ceil((d - II + 1) / II) - omega`. `None`: those least steps already
    /// form a positive cycle, so no rows work and the II is infeasible.
    fn core_windows(core: &Core, g: &Graph, ii: i64) -> Option<(Vec<i64>, Vec<i64>)> {
        let n = g.n;
        let step = |k: usize| {
            let d = &g.deps[k];
            (d.d - ii + 1).div_euclid(ii) + i64::from((d.d - ii + 1).rem_euclid(ii) != 0) - d.omega
        };
        const NONE: i64 = i64::MIN / 4;
        let longest = |forward: bool| -> Option<Vec<i64>> {
            let mut dist: Vec<i64> = (0..n)
                .map(|v| if core.anchor[v] { 0 } else { NONE })
                .collect();
            let mut queue: std::collections::VecDeque<usize> =
                (0..n).filter(|&v| core.anchor[v]).collect();
            let mut queued = core.anchor.clone();
            let mut count = vec![0usize; n];
            while let Some(v) = queue.pop_front() {
                queued[v] = false;
                count[v] += 1;
                if count[v] > n + 1 {
                    return None;
                }
                let list = if forward { &g.out[v] } else { &g.inc[v] };
                for &k in list {
                    let u = if forward {
                        g.deps[k].dst
                    } else {
                        g.deps[k].src
                    };
                    let cand = dist[v] + step(k);
                    if cand > dist[u] {
                        if core.anchor[u] && cand > 0 {
                            // A positive closed walk through the anchor.
                            return None;
                        }
                        dist[u] = cand;
                        if !queued[u] {
                            queued[u] = true;
                            queue.push_back(u);
                        }
                    }
                }
            }
            Some(dist)
        };
        let from = longest(true)?;
        let to = longest(false)?;
        let mut lo = vec![0; n];
        let mut hi = vec![ii - 1; n];
        for v in 0..n {
            let (klo, khi) = if from[v] == NONE || to[v] == NONE {
                (0, 0)
            } else {
                (from[v], -to[v])
            };
            if klo > khi {
                return None;
            }
            lo[v] = klo * ii;
            hi[v] = khi * ii + ii - 1;
        }
        Some((lo, hi))
    }

    /// Extends start times fixed for some operations to all: longest paths from `lo`,
    /// where a fixed operation only moves by whole multiples of II (keeping its row).
    /// `None` if that does not settle (the fixed rows admit no schedule).
    fn complete(&self, ii: i64, fixed: &[Option<i64>], lo: &[i64]) -> Option<Vec<i64>> {
        let g = &self.g;
        let n = g.n;
        let mut t: Vec<i64> = (0..n)
            .map(|v| fixed[v].unwrap_or(lo[v]).max(lo[v]))
            .collect();
        let row: Vec<Option<i64>> = fixed.iter().map(|f| f.map(|x| x.rem_euclid(ii))).collect();
        for v in 0..n {
            if let Some(r) = row[v] {
                t[v] += (r - t[v]).rem_euclid(ii);
            }
        }
        let mut queue: std::collections::VecDeque<usize> = (0..n).collect();
        let mut queued = vec![true; n];
        let mut count = vec![0usize; n];
        while let Some(u) = queue.pop_front() {
            queued[u] = false;
            count[u] += 1;
            if count[u] > 2 * n + 2 {
                return None;
            }
            for &k in &g.out[u] {
                let d = &g.deps[k];
                if d.src == d.dst {
                    continue;
                }
                let need = t[u] + d.weight(ii);
                if need > t[d.dst] {
                    let v = d.dst;
                    t[v] = match row[v] {
                        Some(r) => need + (r - need).rem_euclid(ii),
                        None => need,
                    };
                    if !queued[v] {
                        queued[v] = true;
                        queue.push_back(v);
                    }
                }
            }
        }
        let min = t.iter().copied().min().unwrap_or(0);
        // Shift by whole stages only, so rows stay put.
        let shift = min.div_euclid(ii) * ii;
        Some(t.into_iter().map(|x| x - shift).collect())
    }

    fn pipelined(&mut self) -> Result<Schedule, ScheduleError> {
        let n = self.g.n;
        if n == 0 {
            return self
                .assemble(&[], 1, true, Limit::None, Method::Heuristic)
                .map_err(|reason| ScheduleError::NoSchedule { reason });
        }
        let cap = match self.o.max_ii {
            Some(m) => m,
            None => self.mii.saturating_add(self.o.ii_search_span),
        };
        let mut proven = true;
        let mut ii = self.mii;
        while ii <= cap {
            let t0 = Instant::now();
            let mut attempt = IiAttempt {
                ii,
                heuristic: false,
                feasibility: IlpOutcome::NotRun,
                ilp: IlpOutcome::NotRun,
                ilp_size: (0, 0),
                ms: 0.0,
            };
            let found = self.attempt(ii, &mut attempt);
            attempt.ms = ms_since(t0);
            let feasibility = attempt.feasibility.clone();
            self.stats.attempts.push(attempt);
            if let Some((times, method, fallback)) = found {
                let limit = self.limit_for(ii, proven);
                match self.assemble(&times, ii, proven, limit.clone(), method) {
                    Ok(s) => return Ok(s),
                    Err(e) => {
                        if let Some(last) = self.stats.attempts.last_mut() {
                            last.ilp = IlpOutcome::Error(e);
                        }
                        if let Some(t) = fallback {
                            if let Ok(s) = self.assemble(&t, ii, proven, limit, Method::Heuristic) {
                                return Ok(s);
                            }
                        }
                    }
                }
            }
            proven &= matches!(feasibility, IlpOutcome::Infeasible { complete: true });
            if ii == u32::MAX || self.hopeless {
                break;
            }
            ii += 1;
        }
        if let Some(max_ii) = self.o.max_ii {
            return Err(ScheduleError::NoScheduleWithin {
                max_ii,
                mii: self.mii,
            });
        }
        self.fallback(cap)
    }

    /// One candidate II: iterative modulo scheduling, else the complete feasibility ILP;
    /// then, given a schedule, the optimising ILP bounded by its length. Returns the start
    /// times, where they come from, and a verified-feasible alternative to fall back to if
    /// the optimised times fail verification.
    #[allow(clippy::type_complexity)]
    fn attempt(
        &mut self,
        ii: u32,
        attempt: &mut IiAttempt,
    ) -> Option<(Vec<i64>, Method, Option<Vec<i64>>)> {
        let n = self.g.n;
        let iil = i64::from(ii);
        let first = heuristic::schedule(&self.g, self.p, Some(ii));
        let gave_up = first == Err(heuristic::Failure::Work);
        let mut h = first.ok();
        attempt.heuristic = h.is_some();
        let mut method = Method::Heuristic;
        let asap = self.g.asap(Some(iil))?;
        let l_min = (0..n).map(|v| asap[v] + self.g.lat1[v]).max().unwrap_or(0);
        if h.is_none() {
            if !self.o.use_ilp {
                self.hopeless |= gave_up;
                return None;
            }
            if self.core.is_none() {
                self.core = Some(self.build_core());
            }
            let core = self.core.as_ref()?;
            let windows = self
                .project(core, iil)
                .and_then(|cg| Self::core_windows(core, &cg, iil).map(|w| (cg, w)));
            let Some((core_g, (lo, hi))) = windows else {
                attempt.feasibility = IlpOutcome::Infeasible { complete: true };
                return None;
            };
            let horizon = (0..core_g.n)
                .map(|v| hi[v] + core_g.lat1[v])
                .max()
                .unwrap_or(0);
            let spec = Spec {
                g: &core_g,
                p: &core.p,
                ii: iil,
                flat: false,
                // Measured on MachSuite: on projected cores (dense, few operations) the
                // aggregated rows solve and prove infeasibility 5-20x faster.
                form: match self.o.dependence_form {
                    DependenceForm::Auto => DependenceForm::Aggregated,
                    f => f,
                },
                lo,
                hi,
                l_min: 0,
                horizon,
                warm: None,
                objective: Objective::Feasibility,
            };
            self.hopeless |= gave_up && ilp::too_large(&spec);
            let mut size = (0, 0);
            let out = Self::run_ilp(
                &mut self.stats,
                self.o.time_limit_per_ii,
                &spec,
                ii,
                &mut size,
            );
            attempt.ilp_size = size;
            attempt.feasibility = match out {
                Checked::Solved { times, .. } => {
                    let mut fixed = vec![None; n];
                    for (c, &v) in core.map.iter().enumerate() {
                        fixed[v] = Some(times[c]);
                    }
                    match self.complete(iil, &fixed, &asap) {
                        Some(t) => {
                            h = Some(t);
                            method = Method::Ilp;
                            IlpOutcome::Feasible
                        }
                        None => IlpOutcome::Error("could not extend the core solution".into()),
                    }
                }
                Checked::Infeasible => IlpOutcome::Infeasible { complete: true },
                Checked::Unknown => IlpOutcome::Unknown,
                Checked::Error(e) => IlpOutcome::Error(e),
            };
        }
        let h = h?;
        if !self.o.use_ilp || self.o.objective == Objective::Feasibility {
            return Some((h, method, None));
        }
        let horizon = self.length_of(&h);
        let end = self.g.lat1.clone();
        let Some(hi) = self.g.alap(Some(iil), horizon, &end) else {
            return Some((h, method, None));
        };
        let spec = Spec {
            g: &self.g,
            p: self.p,
            ii: iil,
            flat: false,
            form: self.dep_form(iil, &asap, Some(&hi)),
            lo: asap,
            hi,
            l_min,
            horizon,
            warm: Some((h.clone(), horizon)),
            objective: self.o.objective,
        };
        let mut size = (0, 0);
        let out = Self::run_ilp(
            &mut self.stats,
            self.o.time_limit_per_ii,
            &spec,
            ii,
            &mut size,
        );
        attempt.ilp_size = (
            attempt.ilp_size.0.max(size.0),
            attempt.ilp_size.1.max(size.1),
        );
        match out {
            Checked::Solved { times, optimal } => {
                attempt.ilp = if optimal {
                    IlpOutcome::Optimal
                } else {
                    IlpOutcome::Feasible
                };
                Some((times, Method::Ilp, Some(h)))
            }
            other => {
                attempt.ilp = match other {
                    Checked::Infeasible => IlpOutcome::Infeasible { complete: false },
                    Checked::Unknown => IlpOutcome::Unknown,
                    Checked::Error(e) => IlpOutcome::Error(e),
                    Checked::Solved { .. } => IlpOutcome::NotRun,
                };
                Some((h, method, None))
            }
        }
    }

    /// After the search: iterative modulo scheduling at geometrically growing II, then
    /// the non-overlapped schedule, which is a valid modulo schedule at II = its latency.
    fn fallback(&mut self, searched: u32) -> Result<Schedule, ScheduleError> {
        let flat = heuristic::schedule(&self.g, self.p, None).ok();
        let flat_ii = flat.as_ref().map(|t| self.flat_ii(t));
        let limit = flat_ii.unwrap_or(i64::from(u32::MAX));
        let mut step: u32 = 1;
        let mut ii = searched.saturating_add(1);
        while i64::from(ii) < limit {
            let t0 = Instant::now();
            let result = heuristic::schedule(&self.g, self.p, Some(ii));
            let gave_up = result == Err(heuristic::Failure::Work);
            let h = result.ok();
            self.stats.attempts.push(IiAttempt {
                ii,
                heuristic: h.is_some(),
                feasibility: IlpOutcome::NotRun,
                ilp: IlpOutcome::NotRun,
                ilp_size: (0, 0),
                ms: ms_since(t0),
            });
            if let Some(t) = h {
                let lim = self.limit_for(ii, false);
                if let Ok(s) = self.assemble(&t, ii, ii == self.mii, lim, Method::Fallback) {
                    return Ok(s);
                }
            }
            if gave_up {
                break;
            }
            step = step.saturating_mul(2);
            match ii.checked_add(step) {
                Some(x) => ii = x,
                None => break,
            }
        }
        if let (Some(t), Some(fii)) = (flat, flat_ii) {
            if let Ok(fii) = u32::try_from(fii) {
                let lim = self.limit_for(fii, false);
                match self.assemble(&t, fii, fii == self.mii, lim, Method::Fallback) {
                    Ok(s) => return Ok(s),
                    Err(reason) => return Err(ScheduleError::NoSchedule { reason }),
                }
            }
        }
        Err(ScheduleError::NoSchedule {
            reason: "the ILP found nothing in time and the heuristics failed \
                     (negative-delay edges bound operations from above)"
                .into(),
        })
    }

    /// Smallest II at which flat times work: no overlap of iterations (length, blocking
    /// times) and loop-carried edges satisfied.
    fn flat_ii(&self, times: &[i64]) -> i64 {
        let mut l = self.length_of(times).max(1);
        for (v, &t) in times.iter().enumerate() {
            if let Some((_, _, bt)) = self.p.occupancy(v) {
                l = l.max(t + i64::from(bt));
            }
        }
        for d in &self.g.deps {
            if d.omega > 0 {
                let need = times[d.src] + d.d - times[d.dst];
                if need > 0 {
                    l = l.max((need + d.omega - 1) / d.omega);
                }
            }
        }
        l
    }

    fn flat(&mut self) -> Result<Schedule, ScheduleError> {
        let n = self.g.n;
        let t0 = Instant::now();
        let h = heuristic::schedule(&self.g, self.p, None).ok();
        let end: Vec<i64> = (0..n)
            .map(|v| {
                let bt = self.p.occupancy(v).map_or(0, |(_, _, bt)| i64::from(bt));
                self.g.lat1[v].max(bt)
            })
            .collect();
        let mut attempt = IiAttempt {
            ii: 0,
            heuristic: h.is_some(),
            feasibility: IlpOutcome::NotRun,
            ilp: IlpOutcome::NotRun,
            ilp_size: (0, 0),
            ms: 0.0,
        };
        let mut result: Option<(Vec<i64>, bool, Method)> = None;
        let asap = self.g.asap(None);
        let lower = asap
            .as_ref()
            .map(|a| (0..n).map(|v| a[v] + end[v]).max().unwrap_or(0).max(1));
        if let Some(t) = &h {
            let proven = lower == Some(self.flat_ii(t));
            result = Some((t.clone(), proven, Method::Heuristic));
        }
        let proven_by_heuristic = matches!(result, Some((_, true, _)));
        if self.o.use_ilp && !proven_by_heuristic {
            let horizon = match &h {
                Some(t) => self.flat_ii(t),
                None => {
                    // A generous bound: everything in sequence.
                    let mut s: i64 = end.iter().sum();
                    for d in &self.g.deps {
                        s = s.saturating_add(d.d.unsigned_abs() as i64);
                    }
                    s.min(i64::from(u32::MAX))
                }
            };
            let alap = self.g.alap(None, horizon, &end);
            if let (Some(lo), Some(hi), Some(l_min)) = (asap, alap, lower) {
                let maxbt = end.iter().copied().max().unwrap_or(1);
                let period = horizon + maxbt + 1;
                let form = self.dep_form(period, &lo, Some(&hi));
                let spec = Spec {
                    g: &self.g,
                    p: self.p,
                    ii: period,
                    flat: true,
                    lo,
                    hi,
                    l_min,
                    horizon,
                    warm: h.as_ref().map(|t| (t.clone(), self.flat_ii(t))),
                    form,
                    objective: self.o.objective,
                };
                let mut size = (0, 0);
                let out = Self::run_ilp(
                    &mut self.stats,
                    self.o.time_limit_per_ii,
                    &spec,
                    0,
                    &mut size,
                );
                attempt.ilp_size = size;
                attempt.ilp = match out {
                    Checked::Solved { times, optimal } => {
                        result = Some((times, optimal, Method::Ilp));
                        if optimal {
                            IlpOutcome::Optimal
                        } else {
                            IlpOutcome::Feasible
                        }
                    }
                    Checked::Infeasible => IlpOutcome::Infeasible { complete: false },
                    Checked::Unknown => IlpOutcome::Unknown,
                    Checked::Error(e) => IlpOutcome::Error(e),
                };
            }
        }
        attempt.ms = ms_since(t0);
        if let Some((times, _, _)) = &result {
            attempt.ii = u32::try_from(self.flat_ii(times)).unwrap_or(u32::MAX);
        }
        self.stats.attempts.push(attempt);
        let Some((times, optimal, method)) = result else {
            return Err(ScheduleError::NoSchedule {
                reason: "no non-pipelined schedule found (heuristic failed, ILP found none)".into(),
            });
        };
        let ii = u32::try_from(self.flat_ii(&times)).map_err(|_| ScheduleError::OutOfRange {
            what: "iteration latency above u32::MAX".into(),
        })?;
        match self.assemble(&times, ii, optimal, Limit::NotPipelined, method) {
            Ok(s) => Ok(s),
            Err(e) => match (&h, method) {
                (Some(t), Method::Ilp) => {
                    let ii = u32::try_from(self.flat_ii(t)).unwrap_or(u32::MAX);
                    self.assemble(t, ii, false, Limit::NotPipelined, Method::Heuristic)
                        .map_err(|reason| ScheduleError::NoSchedule { reason })
                }
                _ => Err(ScheduleError::NoSchedule { reason: e }),
            },
        }
    }
}
