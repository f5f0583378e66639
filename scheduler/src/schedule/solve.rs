//! One ILP solve with its infeasibility re-check, and the choice of the dependence form of
//! the model.

use std::time::Duration;

use super::{Ctx, DependenceForm, SolveStats};
use crate::backend::{self, Config, Raw};
use crate::graph::Graph;
use crate::ilp::{self, Spec};

/// What one ILP run (with re-check) gave.
pub(super) enum Checked {
    Solved { times: Vec<i64>, optimal: bool },
    Infeasible,
    Unknown,
    Error(String),
}

impl Ctx<'_> {
    /// Runs the ILP; an "infeasible" verdict is re-checked with presolve off (HiGHS 1.15
    /// presolve wrongly reports some feasible modulo scheduling models infeasible) and is
    /// never believed when `known_feasible` (a heuristic schedule exists).
    pub(super) fn run_ilp(
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

    pub(super) fn dep_form(&self, ii: i64, lo: &[i64], hi: Option<&[i64]>) -> DependenceForm {
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
}
