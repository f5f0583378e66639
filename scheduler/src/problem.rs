//! The scheduling problem: operations, dependence edges and resources.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::ScheduleError;

/// Index of an operation in [`Problem::ops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct OpIdx(pub u32);

impl OpIdx {
    /// The position in [`Problem::ops`] (and in [`crate::Schedule::start`]).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for OpIdx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "op{}", self.0)
    }
}

/// Index of a resource type in [`Problem::resources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ResourceId(pub u32);

impl ResourceId {
    /// The position in [`Problem::resources`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ResourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "res{}", self.0)
    }
}

/// One operation of the loop body (or of a straight-line region).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Op {
    /// Name used in messages only.
    pub name: String,
    /// The resource type this operation occupies, if any (`None`: needs no shared unit).
    pub resource: Option<ResourceId>,
    /// Cycles from the start of the operation until its result is available.
    /// `0` means combinational: the result can feed consumers in the same cycle (chaining).
    pub latency: u32,
    /// Combinational delay in nanoseconds, used to keep chains of latency-0 operations
    /// within [`Problem::clock_period_ns`].
    pub delay_ns: f64,
    /// For an operation with latency >= 1: how late (ns into the cycle) its result arrives
    /// in the cycle it becomes available, because it leaves a memory's output without a
    /// register (an EBR's data output, a response FIFO's read data). Consumers chained in
    /// that cycle see it added to their delays. 0 for a registered result.
    #[serde(default)]
    pub out_delay_ns: f64,
    /// For an operation with latency >= 1: the combinational logic between its operands and
    /// its first register (a float unit's first stage, an on-chip memory's read, a memory
    /// request's handshake into the pipeline's stall). A chain of latency-0 operations that
    /// feeds it in its issue cycle ends with this delay. 0: its operands are registered as
    /// they arrive.
    #[serde(default)]
    pub in_delay_ns: f64,
    /// Input logic that differs by operand: the delay after the result of the listed
    /// operation, instead of [`Op::in_delay_ns`] (a memory request's predicate reaches the
    /// pipeline's stall, its address only the port's registers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_delay_from: Vec<(OpIdx, f64)>,
}

impl Op {
    /// An operation without resource and without combinational delay.
    pub fn new(name: impl Into<String>, latency: u32) -> Self {
        Op {
            name: name.into(),
            resource: None,
            latency,
            delay_ns: 0.0,
            out_delay_ns: 0.0,
            in_delay_ns: 0.0,
            in_delay_from: Vec::new(),
        }
    }

    /// Builder: the operation occupies a unit of `resource`.
    pub fn on(mut self, resource: ResourceId) -> Self {
        self.resource = Some(resource);
        self
    }

    /// Builder: combinational delay in nanoseconds.
    pub fn with_delay(mut self, delay_ns: f64) -> Self {
        self.delay_ns = delay_ns;
        self
    }

    /// Builder: the logic before its first register (see [`Op::in_delay_ns`]).
    pub fn with_in_delay(mut self, in_delay_ns: f64) -> Self {
        self.in_delay_ns = in_delay_ns;
        self
    }

    /// Builder: the input logic after the result of `src` (see [`Op::in_delay_from`]).
    pub fn with_in_delay_from(mut self, src: OpIdx, in_delay_ns: f64) -> Self {
        self.in_delay_from.push((src, in_delay_ns));
        self
    }

    /// The input logic after the result of `src`.
    pub fn in_delay_after(&self, src: OpIdx) -> f64 {
        self.in_delay_from
            .iter()
            .find(|&&(s, _)| s == src)
            .map_or(self.in_delay_ns, |&(_, d)| d)
    }

    /// Builder: the result's arrival time in its first cycle (see [`Op::out_delay_ns`]).
    pub fn with_out_delay(mut self, out_delay_ns: f64) -> Self {
        self.out_delay_ns = out_delay_ns;
        self
    }
}

/// A dependence: `t(dst) >= t(src) + latency(src) + delay - distance * II`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edge {
    /// Producer (or the earlier operation of an ordering constraint).
    pub src: OpIdx,
    /// Consumer.
    pub dst: OpIdx,
    /// Extra cycles on top of the latency of `src` (may be negative to express
    /// "at most" constraints; such edges never carry combinational data).
    pub delay: i32,
    /// Iteration distance; `> 0` marks a loop-carried dependence.
    pub distance: u32,
}

/// A resource type: `limit` identical units, each busy for `blocking_time` cycles per use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resource {
    /// Name used in messages only.
    pub name: String,
    /// Number of units; `None` = unlimited.
    pub limit: Option<u32>,
    /// Cycles a unit stays busy after an operation starts on it. `0` means an operation
    /// does not occupy the unit at all (it is then never a constraint).
    pub blocking_time: u32,
}

impl Resource {
    /// A limited resource with a blocking time of one cycle (a fully pipelined unit).
    pub fn limited(name: impl Into<String>, limit: u32) -> Self {
        Resource {
            name: name.into(),
            limit: Some(limit),
            blocking_time: 1,
        }
    }
}

/// A scheduling problem: one loop body (or straight-line region).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// Operations; [`OpIdx`] indexes this vector.
    pub ops: Vec<Op>,
    /// Dependence edges; [`crate::Limit::Recurrence`] and violations refer to indices here.
    pub edges: Vec<Edge>,
    /// Resource types; [`ResourceId`] indexes this vector.
    pub resources: Vec<Resource>,
    /// Clock period; when set, chains of latency-0 operations in one cycle must fit in it.
    pub clock_period_ns: Option<f64>,
}

/// Bound on latencies, delays, distances and blocking times. It keeps every time and
/// path length the scheduler computes far inside `i64`, and II inside `u32`.
pub(crate) const MAX_MAGNITUDE: u64 = 1 << 20;
/// Bound on the number of operations and edges (see [`MAX_MAGNITUDE`]).
pub(crate) const MAX_ITEMS: usize = 1 << 22;

impl Problem {
    /// An empty problem without clock period.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an operation and returns its index.
    pub fn add_op(&mut self, op: Op) -> OpIdx {
        self.ops.push(op);
        OpIdx((self.ops.len() - 1) as u32)
    }

    /// Appends a dependence edge and returns its index in [`Problem::edges`].
    pub fn add_edge(&mut self, src: OpIdx, dst: OpIdx, delay: i32, distance: u32) -> usize {
        self.edges.push(Edge {
            src,
            dst,
            delay,
            distance,
        });
        self.edges.len() - 1
    }

    /// Appends a resource type and returns its id.
    pub fn add_resource(&mut self, resource: Resource) -> ResourceId {
        self.resources.push(resource);
        ResourceId((self.resources.len() - 1) as u32)
    }

    /// Number of operations bound to `resource`.
    pub fn uses(&self, resource: ResourceId) -> u32 {
        self.ops
            .iter()
            .filter(|o| o.resource == Some(resource))
            .count() as u32
    }

    /// Checks that every index is in range and every number is usable.
    /// [`crate::schedule`] calls this first; it is public so that producers of problems
    /// can check them in their own verifiers.
    pub fn validate(&self) -> Result<(), ScheduleError> {
        let too_big = |what: String| Err(ScheduleError::OutOfRange { what });
        if self.ops.len() > MAX_ITEMS {
            return too_big(format!(
                "{} operations (at most {MAX_ITEMS})",
                self.ops.len()
            ));
        }
        if self.edges.len() > MAX_ITEMS {
            return too_big(format!("{} edges (at most {MAX_ITEMS})", self.edges.len()));
        }
        if self.resources.len() > MAX_ITEMS {
            return too_big(format!(
                "{} resources (at most {MAX_ITEMS})",
                self.resources.len()
            ));
        }
        if let Some(period) = self.clock_period_ns {
            if !(period.is_finite() && period > 0.0) {
                return Err(ScheduleError::InvalidClockPeriod(period));
            }
        }
        for (i, op) in self.ops.iter().enumerate() {
            let idx = OpIdx(i as u32);
            let per_operand = op.in_delay_from.iter().map(|&(_, d)| d);
            for d in [op.delay_ns, op.out_delay_ns, op.in_delay_ns]
                .into_iter()
                .chain(per_operand)
            {
                if !(d.is_finite() && d >= 0.0) {
                    return Err(ScheduleError::InvalidDelay {
                        op: idx,
                        name: op.name.clone(),
                        delay_ns: d,
                    });
                }
            }
            if u64::from(op.latency) > MAX_MAGNITUDE {
                return too_big(format!(
                    "latency {} of {idx} (`{}`), at most {MAX_MAGNITUDE}",
                    op.latency, op.name
                ));
            }
            if let Some(r) = op.resource {
                if r.index() >= self.resources.len() {
                    return Err(ScheduleError::UnknownResource {
                        op: idx,
                        name: op.name.clone(),
                        resource: r,
                        num_resources: self.resources.len(),
                    });
                }
            }
        }
        for (i, e) in self.edges.iter().enumerate() {
            for op in [e.src, e.dst] {
                if op.index() >= self.ops.len() {
                    return Err(ScheduleError::UnknownOp {
                        edge: i,
                        op,
                        num_ops: self.ops.len(),
                    });
                }
            }
            if u64::from(e.delay.unsigned_abs()) > MAX_MAGNITUDE {
                return too_big(format!(
                    "delay {} of edge {i}, magnitude at most {MAX_MAGNITUDE}",
                    e.delay
                ));
            }
            if u64::from(e.distance) > MAX_MAGNITUDE {
                return too_big(format!(
                    "distance {} of edge {i}, at most {MAX_MAGNITUDE}",
                    e.distance
                ));
            }
        }
        for (i, r) in self.resources.iter().enumerate() {
            let id = ResourceId(i as u32);
            if u64::from(r.blocking_time) > MAX_MAGNITUDE {
                return too_big(format!(
                    "blocking time {} of {id} (`{}`), at most {MAX_MAGNITUDE}",
                    r.blocking_time, r.name
                ));
            }
            if r.limit == Some(0) && r.blocking_time > 0 {
                let uses = self.uses(id);
                if uses > 0 {
                    return Err(ScheduleError::NoUnits {
                        resource: id,
                        name: r.name.clone(),
                        uses,
                    });
                }
            }
        }
        Ok(())
    }

    /// `(limit, blocking_time)` of the resource `op` occupies, when that resource constrains
    /// the schedule (limited, blocking time > 0). Assumes a validated problem.
    pub(crate) fn occupancy(&self, op: usize) -> Option<(usize, u32, u32)> {
        let r = self.ops[op].resource?;
        let res = self.resources.get(r.index())?;
        match res.limit {
            Some(limit) if res.blocking_time > 0 => Some((r.index(), limit, res.blocking_time)),
            _ => None,
        }
    }
}
