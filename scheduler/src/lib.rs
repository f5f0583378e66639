//! # scheduler — ILP-based modulo scheduling of abstract dependence graphs
//!
//! This crate owns the **[`Schedule`]** artefact: a start cycle for every operation of one
//! loop body (or straight-line region) and the initiation interval (II) at which
//! iterations start. It knows nothing of the compiler's IR: the IR crate builds a
//! [`Problem`] per loop (operations with latency, combinational delay and resource type;
//! dependence edges with delay and iteration distance; resource types with unit counts and
//! blocking times; an optional clock period) and keeps the returned `Schedule` in a side
//! table, so rescheduling at another II never touches the IR.
//!
//! ## What it computes
//! * [`res_mii`], [`rec_mii`] (exact, with the critical cycle so that the compiler can say
//!   *"loop-carried dependence through `acc` limits II to 3"*) and MII = max of both.
//! * [`schedule`]: searches II upward from MII. At each II it first runs iterative modulo
//!   scheduling (fast; its result is also the ILP's warm start and latency bound), then a
//!   time-indexed ILP (Eichenberger–Davidson folded formulation, see the `ilp` module) that
//!   either finds a schedule minimising length, then register pressure, or proves the II
//!   infeasible. Every solve has a time limit ([`Options::time_limit_per_ii`]). If the
//!   search range is exhausted, a heuristic fallback always produces a schedule (for
//!   problems without upper-bound timing constraints).
//! * Non-pipelined scheduling ([`Options::pipelined`] = false): the same ILP without
//!   folding; iterations never overlap.
//! * [`verify`]: an independent checker of every rule below.
//!
//! ## Rules a schedule obeys (checked by [`verify`])
//! * every edge: `t(dst) >= t(src) + latency(src) + delay - distance * II`;
//! * every limited resource, every congruence class `c` modulo II: at most `limit`
//!   operations are busy in cycles `≡ c`, an operation being busy for `blocking_time` cycles
//!   from its start (blocking time 0: never busy);
//! * with a clock period: a chain of latency-0 operations joined by delay-0, distance-0
//!   edges and started in the same cycle has a summed delay (each operation counted at most
//!   at the period, so one slow operation alone is fine) within the period;
//! * `length = max(start + max(latency, 1))`; non-pipelined: `ii >= length`.
//!
//! ## Invariants
//! * Every `Schedule` returned by [`schedule`] has passed [`verify`].
//! * `Schedule::optimal` is true only if the II is proven minimal: it equals MII, or every
//!   lower II was proven infeasible with a latency bound large enough to admit every
//!   schedule. A solver's "infeasible" is never accepted without a re-check with presolve
//!   off (HiGHS 1.15, bundled by `highs-sys` 1.15.0, wrongly reports some feasible models
//!   infeasible with presolve on); overturned verdicts are recorded in [`SolveStats`].
//! * User input never causes a panic: malformed problems and impossible constraint systems
//!   (a zero-distance cycle of positive length, a needed resource with no unit) are
//!   [`ScheduleError`]s.
//! * With the same problem and options, the result is deterministic unless a time limit
//!   is hit.
//!
//! ## Solver
//! Feature `highs` (default) uses HiGHS through `good_lp`; otherwise feature `microlp` uses
//! the pure-Rust microlp. One of them must be enabled.

#[cfg(not(any(feature = "highs", feature = "microlp")))]
compile_error!(
    "the `scheduler` crate needs an ILP solver: enable its feature `highs` (default, HiGHS) \
     or `microlp` (pure Rust)"
);

mod backend;
mod chain;
mod error;
mod graph;
mod heuristic;
mod ilp;
mod mii;
mod problem;
mod schedule;
mod verify;

// IR glue and the ECP5 operator library (owned by the compiler side, not the benchmark core).
pub mod kernel;
pub mod oplib;

pub use error::ScheduleError;
pub use problem::{Edge, Op, OpIdx, Problem, Resource, ResourceId};
pub use schedule::{
    rec_mii, res_mii, schedule, try_rec_mii, DependenceForm, IiAttempt, IlpOutcome, Limit, Method,
    Objective, Options, Schedule, SolveStats,
};
pub use verify::{verify, Violation};
