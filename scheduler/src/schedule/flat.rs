//! Non-pipelined scheduling: one iteration at a time, the II being the iteration latency
//! (list scheduling, then the ILP without folding).

use std::time::Instant;

use super::{ms_since, Checked, Ctx, IiAttempt, IlpOutcome, Limit, Method, Schedule};
use crate::error::ScheduleError;
use crate::heuristic;
use crate::ilp::Spec;

impl Ctx<'_> {
    /// Smallest II at which flat times work: no overlap of iterations (length, blocking
    /// times) and loop-carried edges satisfied.
    pub(super) fn flat_ii(&self, times: &[i64]) -> i64 {
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

    pub(super) fn flat(&mut self) -> Result<Schedule, ScheduleError> {
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
