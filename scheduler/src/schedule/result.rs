//! The [`Schedule`] artefact and how it was found: what limits its II ([`Limit`]), the
//! candidate IIs tried ([`IiAttempt`], [`IlpOutcome`]) and the solve statistics
//! ([`SolveStats`], [`Method`]).

use serde::{Deserialize, Serialize};

use crate::problem::{OpIdx, ResourceId};

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
    /// II = the smallest II asked for (`Options::min_ii`), above MII.
    Requested {
        /// The II asked for.
        ii: u32,
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
