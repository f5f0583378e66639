//! The exact feasibility check of an II: the core of the problem (its limited operations and
//! the constraints projected onto them), the stage windows of the core operations, the
//! feasibility ILP on the core, and the extension of a core solution to every operation.

use super::{Checked, Ctx, DependenceForm, IiAttempt, IlpOutcome, Objective};
use crate::graph::{scc, Dep, Graph};
use crate::ilp::{self, Spec};
use crate::problem::Problem;

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
pub(super) struct Core {
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

impl Ctx<'_> {
    /// When the heuristic found nothing at `ii`: the feasibility ILP on the core, which either
    /// finds rows for the limited operations (extended to every operation from `asap`) or
    /// proves `ii` infeasible. Records its outcome in `attempt`; the start times when feasible.
    pub(super) fn core_feasibility(
        &mut self,
        ii: u32,
        asap: &[i64],
        gave_up: bool,
        attempt: &mut IiAttempt,
    ) -> Option<Vec<i64>> {
        let n = self.g.n;
        let iil = i64::from(ii);
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
        let (outcome, times) = match out {
            Checked::Solved { times, .. } => {
                let mut fixed = vec![None; n];
                for (c, &v) in core.map.iter().enumerate() {
                    fixed[v] = Some(times[c]);
                }
                match self.complete(iil, &fixed, asap) {
                    Some(t) => (IlpOutcome::Feasible, Some(t)),
                    None => (
                        IlpOutcome::Error("could not extend the core solution".into()),
                        None,
                    ),
                }
            }
            Checked::Infeasible => (IlpOutcome::Infeasible { complete: true }, None),
            Checked::Unknown => (IlpOutcome::Unknown, None),
            Checked::Error(e) => (IlpOutcome::Error(e), None),
        };
        attempt.feasibility = outcome;
        times
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
}
