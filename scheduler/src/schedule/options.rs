//! The scheduler's settings: [`Options`], with the ILP's [`Objective`] and
//! [`DependenceForm`].

use std::time::Duration;

use serde::{Deserialize, Serialize};

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
    /// Smallest II to try (`None`: MII). The source can ask for a larger II than the loop
    /// needs (`#pragma ii N`): fewer resources, and time for longer combinational chains.
    pub min_ii: Option<u32>,
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
            min_ii: None,
            max_ii: None,
            time_limit_per_ii: Duration::from_secs(5),
            ii_search_span: 64,
            use_ilp: true,
            objective: Objective::LengthThenRegisters,
            dependence_form: DependenceForm::Auto,
        }
    }
}
