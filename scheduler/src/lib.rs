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
//! * [`res_mii`], [`rec_mii`] (exact: binary search on II with Bellman-Ford positive-cycle
//!   checks inside strongly connected components; returns the critical cycle so that the
//!   compiler can say *"loop-carried dependence through `acc` limits II to 3"*) and
//!   MII = max of both.
//! * [`schedule`]: searches II upward from MII. At each candidate II:
//!   1. iterative modulo scheduling (Rau) — fast, and usually enough;
//!   2. if it fails, a feasibility ILP on the *core* of the problem (recurrences projected
//!      onto their resource-limited operations, after Oppermann et al., FPL 2018), which
//!      either finds rows for the limited operations — extended to a full schedule by longest
//!      paths — or proves the II infeasible (the core is exact, so the proof is complete);
//!   3. given a schedule, a time-indexed ILP (Eichenberger–Davidson folded formulation,
//!      ASAP/ALAP windows within that schedule's length, warm-started with it) minimising
//!      length, then register pressure (sum of edge lifetimes).
//!
//!   Every solve has a time limit ([`Options::time_limit_per_ii`]); a timed-out II counts as
//!   "not proven". If the search range is exhausted, a heuristic fallback (modulo scheduling
//!   at growing II, finally the non-overlapped schedule) still produces a schedule.
//! * Non-pipelined scheduling ([`Options::pipelined`] = false): list scheduling and the same
//!   ILP without folding; iterations never overlap.
//! * [`verify`]: an independent checker of every rule below.
//!
//! ## Rules a schedule obeys (checked by [`verify`])
//! * every edge: `t(dst) >= t(src) + latency(src) + delay - distance * II`;
//! * every limited resource, every congruence class `c` modulo II: at most `limit`
//!   operations are busy in cycles `≡ c`, an operation being busy for `blocking_time` cycles
//!   from its start (blocking time 0: never busy);
//! * with a clock period: a chain of latency-0 operations joined by delay-0, distance-0
//!   edges and started in the same cycle has a summed delay (each operation counted at most
//!   at the period, so one slow operation alone is fine) within the period, and so has such
//!   a chain plus the input logic of a multi-cycle operation it feeds in that cycle
//!   ([`Op::in_delay_ns`], or per producer [`Op::in_delay_from`]), or a multi-cycle
//!   result's output delay plus the chain it starts;
//! * `length = max(start + max(latency, 1))`; non-pipelined: `ii >= length`.
//!
//! ## Invariants
//! * Every `Schedule` returned by [`schedule`] has passed [`verify`].
//! * `Schedule::optimal` is true only if the II is proven minimal: it equals MII, or every
//!   lower II was proven infeasible (by the core ILP, which has no latency bound). A
//!   solver's "infeasible" is never accepted without a re-check with presolve off (HiGHS
//!   1.15, bundled by `highs-sys` 1.15.0, wrongly reports some feasible models infeasible
//!   with presolve on), nor when a heuristic schedule exists; overturned verdicts are
//!   recorded in [`SolveStats`].
//! * User input never causes a panic: malformed problems and impossible constraint systems
//!   (a zero-distance cycle of positive length, a needed resource with no unit, a
//!   combinational loop under chaining) are [`ScheduleError`]s.
//! * Chaining (with a clock period) is encoded before solving as derived constraints
//!   `t(v) >= t(u) + 1` for every minimal over-long combinational path `u ~> v` (the same
//!   kind of edges HatScheT's `.200MHz` graphs carry); they take part in RecMII, and a
//!   critical cycle through one reports the chain's edges.
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
pub mod divide;
pub mod kernel;
pub mod oplib;

pub use error::ScheduleError;
pub use problem::{Edge, Op, OpIdx, Problem, Resource, ResourceId};
pub use schedule::{
    rec_mii, res_mii, schedule, try_rec_mii, DependenceForm, IiAttempt, IlpOutcome, Limit, Method,
    Objective, Options, Schedule, SolveStats,
};
pub use verify::{verify, Violation};
