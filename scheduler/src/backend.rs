//! Solver backends behind one function, selected by cargo feature: HiGHS when `highs` is
//! enabled, otherwise microlp.

use std::time::Duration;

use good_lp::{ResolutionError, Solution, SolutionStatus, SolverModel};

use crate::ilp::Model;

/// How to run one solve.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    /// Run the solver's presolve (HiGHS only; microlp has none).
    pub presolve: bool,
    pub time_limit: Duration,
}

/// What a solver said.
#[derive(Clone, Debug)]
pub(crate) enum Raw {
    /// Values of `Model::all`, and whether the objective was proven optimal.
    Solved {
        values: Vec<f64>,
        optimal: bool,
    },
    Infeasible,
    /// Stopped (time limit) before finding a solution.
    NoSolution,
    Error(String),
}

fn classify(e: ResolutionError) -> Raw {
    match e {
        ResolutionError::Infeasible => Raw::Infeasible,
        // good_lp's words for "limit reached without a feasible point".
        ResolutionError::Other("NoSolutionFound") => Raw::NoSolution,
        ResolutionError::Other(s) if s.starts_with("Time limit") => Raw::NoSolution,
        other => Raw::Error(other.to_string()),
    }
}

fn finish<S: Solution>(model: &Model, sol: S) -> Raw {
    Raw::Solved {
        values: model.all.iter().map(|&v| sol.value(v)).collect(),
        optimal: matches!(sol.status(), SolutionStatus::Optimal),
    }
}

#[cfg(feature = "highs")]
pub(crate) const SOLVER: &str = "highs";

#[cfg(feature = "highs")]
pub(crate) fn solve(model: &Model, cfg: Config) -> Raw {
    use good_lp::solvers::highs::{highs, HighsPresolveType};
    use good_lp::WithInitialSolution;

    let mut m = model
        .vars
        .clone()
        .minimise(model.objective.clone())
        .using(highs)
        .set_presolve(if cfg.presolve {
            HighsPresolveType::On
        } else {
            HighsPresolveType::Off
        })
        .set_time_limit(cfg.time_limit.as_secs_f64())
        // One thread: the machine is shared and these models are small; HiGHS's MIP
        // search is sequential anyway.
        .set_threads(1)
        // Presolve rule 16 ("enumeration", bit 65536) enumerates the solutions of small
        // sub-problems by domain propagation without looking at the clock: on folded
        // modulo scheduling models it ran 10 s past a 2 s limit, and switching it off also
        // made infeasibility proofs faster.
        .set_option("presolve_rule_off", 65536);
    if let Some(warm) = &model.warm {
        m = m.with_initial_solution(warm.iter().copied());
    }
    for c in &model.constraints {
        m.add_constraint(c.clone());
    }
    match m.solve() {
        Ok(sol) => finish(model, sol),
        Err(e) => classify(e),
    }
}

#[cfg(all(feature = "microlp", not(feature = "highs")))]
pub(crate) const SOLVER: &str = "microlp";

#[cfg(all(feature = "microlp", not(feature = "highs")))]
pub(crate) fn solve(model: &Model, cfg: Config) -> Raw {
    use good_lp::solvers::microlp::microlp;
    use good_lp::{WithInitialSolution, WithTimeLimit};

    // microlp has no presolve: `cfg.presolve` changes nothing, and a re-check simply
    // confirms the verdict. The driver's code path stays the same for both solvers.
    let _ = cfg.presolve;
    let mut m = model
        .vars
        .clone()
        .minimise(model.objective.clone())
        .using(microlp)
        .with_time_limit(cfg.time_limit.as_secs_f64());
    if let Some(warm) = &model.warm {
        m = m.with_initial_solution(warm.iter().copied());
    }
    for c in &model.constraints {
        m.add_constraint(c.clone());
    }
    match m.solve() {
        Ok(sol) => finish(model, sol),
        Err(e) => classify(e),
    }
}

#[cfg(not(any(feature = "highs", feature = "microlp")))]
pub(crate) const SOLVER: &str = "none";

#[cfg(not(any(feature = "highs", feature = "microlp")))]
pub(crate) fn solve(_model: &Model, _cfg: Config) -> Raw {
    Raw::Error("no ILP solver compiled in".into())
}
