//! The II search of modulo scheduling: from MII upward, each candidate II tried with
//! iterative modulo scheduling, the exact feasibility check and the optimising ILP; then the
//! heuristic fallback above the searched range.

use std::time::Instant;

use super::{ms_since, Checked, Ctx, IiAttempt, IlpOutcome, Limit, Method, Objective, Schedule};
use crate::error::ScheduleError;
use crate::heuristic;
use crate::ilp::Spec;

/// Start times, where they come from, and a verified-feasible alternative to fall back to.
type Found = (Vec<i64>, Method, Option<Vec<i64>>);

impl Ctx<'_> {
    pub(super) fn pipelined(&mut self) -> Result<Schedule, ScheduleError> {
        let n = self.g.n;
        if n == 0 {
            return self
                .assemble(&[], 1, true, Limit::None, Method::Heuristic)
                .map_err(|reason| ScheduleError::NoSchedule { reason });
        }
        let first = self.mii.max(self.o.min_ii.unwrap_or(1));
        let cap = match self.o.max_ii {
            Some(m) => m.max(first),
            None => first.saturating_add(self.o.ii_search_span),
        };
        let mut proven = true;
        let mut ii = first;
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
    fn attempt(&mut self, ii: u32, attempt: &mut IiAttempt) -> Option<Found> {
        let n = self.g.n;
        let iil = i64::from(ii);
        let first = heuristic::schedule(&self.g, self.p, Some(ii));
        let gave_up = first == Err(heuristic::Failure::Work);
        let h = first.ok();
        attempt.heuristic = h.is_some();
        let asap = self.g.asap(Some(iil))?;
        let l_min = (0..n).map(|v| asap[v] + self.g.lat1[v]).max().unwrap_or(0);
        let (h, method) = match h {
            Some(t) => (t, Method::Heuristic),
            None => {
                if !self.o.use_ilp {
                    self.hopeless |= gave_up;
                    return None;
                }
                let t = self.core_feasibility(ii, &asap, gave_up, attempt)?;
                (t, Method::Ilp)
            }
        };
        self.optimise(ii, h, method, asap, l_min, attempt)
    }

    /// Given start times `h` at `ii`: the ILP minimising the objective within windows from
    /// `asap` to the ALAP times of `h`'s length, warm-started with `h`.
    fn optimise(
        &mut self,
        ii: u32,
        h: Vec<i64>,
        method: Method,
        asap: Vec<i64>,
        l_min: i64,
        attempt: &mut IiAttempt,
    ) -> Option<Found> {
        let iil = i64::from(ii);
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
}
