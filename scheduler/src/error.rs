//! Errors reported for problems that cannot be scheduled.

use crate::problem::{OpIdx, ResourceId};

/// Why a [`crate::Problem`] could not be scheduled. Every variant is caused by the input,
/// never by a broken invariant of this crate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScheduleError {
    /// An edge names an operation that does not exist.
    #[error("edge {edge} refers to {op}, but the problem has only {num_ops} operations")]
    UnknownOp {
        /// Index into `Problem::edges`.
        edge: usize,
        /// The missing operation.
        op: OpIdx,
        /// Number of operations in the problem.
        num_ops: usize,
    },
    /// An operation names a resource that does not exist.
    #[error(
        "operation {op} (`{name}`) uses {resource}, but the problem has only {num_resources} resources"
    )]
    UnknownResource {
        /// The operation.
        op: OpIdx,
        /// Its name.
        name: String,
        /// The missing resource.
        resource: ResourceId,
        /// Number of resources in the problem.
        num_resources: usize,
    },
    /// A combinational or output delay is negative, NaN or infinite.
    #[error("operation {op} (`{name}`) has delay {delay_ns} ns (combinational or output); it must be finite and >= 0")]
    InvalidDelay {
        /// The operation.
        op: OpIdx,
        /// Its name.
        name: String,
        /// The offending value.
        delay_ns: f64,
    },
    /// The clock period is not a positive finite number.
    #[error("clock period {0} ns is invalid; it must be finite and > 0")]
    InvalidClockPeriod(f64),
    /// A resource with zero units is needed by some operation.
    #[error("resource {resource} (`{name}`) has limit 0 but {uses} operations need it; give it at least one unit")]
    NoUnits {
        /// The resource.
        resource: ResourceId,
        /// Its name.
        name: String,
        /// How many operations use it.
        uses: u32,
    },
    /// A number is too large for the scheduler's arithmetic.
    #[error("value out of range: {what}")]
    OutOfRange {
        /// What was too large.
        what: String,
    },
    /// A dependence cycle whose edges all have distance 0 has positive length: an operation
    /// would have to start after itself, at every II.
    #[error(
        "dependence cycle through edges {edges:?} has distance 0 and positive length {length}: \
         an operation would have to start after itself (chaining constraints included); \
         a loop-carried edge in it needs distance > 0"
    )]
    PositiveCycle {
        /// The cycle, as indices into `Problem::edges` (a chaining constraint appears as the
        /// edges of the combinational chain it was derived from).
        edges: Vec<usize>,
        /// Its length in cycles.
        length: i64,
    },
    /// Latency-0 operations joined by delay-0 edges form a cycle: a combinational loop,
    /// whose delay cannot be checked against the clock period.
    #[error("combinational cycle through {ops:?}: latency-0 operations feed each other in the same cycle")]
    CombinationalCycle {
        /// Operations on the cycle.
        ops: Vec<OpIdx>,
    },
    /// No schedule exists (or none was found) with II at most the requested maximum.
    #[error("no schedule found with II <= {max_ii} (MII is {mii}); raise Options::max_ii")]
    NoScheduleWithin {
        /// The requested maximum.
        max_ii: u32,
        /// The lower bound.
        mii: u32,
    },
    /// Neither the ILP nor the heuristics found a schedule (possible only with
    /// negative-delay edges that bound operations from above).
    #[error("no valid schedule found: {reason}")]
    NoSchedule {
        /// What was tried.
        reason: String,
    },
}
