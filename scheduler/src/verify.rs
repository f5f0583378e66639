//! Independent schedule checker. It re-derives every rule from the [`Problem`] alone; the
//! only code it shares with the scheduler is the definition of a combinational chain
//! (`chain::combinational_out`, `chain::combinational_order`, `chain::chain_delay`, and the
//! input and landing edges of multi-cycle operations), so a
//! bug in the formulation, the heuristics or the bounds shows up as a violation here. The
//! property tests cross-check it against a naive oracle written from the definitions.

use serde::{Deserialize, Serialize};

use crate::chain::{
    arrival_delay, chain_delay, combinational_order, combinational_out, in_delay, is_input,
    is_landing, out_delay, DELAY_EPS,
};
use crate::problem::{OpIdx, Problem, ResourceId};
use crate::schedule::Schedule;

/// One broken rule of a schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Violation {
    /// The problem itself is malformed (see [`Problem::validate`]).
    InvalidProblem {
        /// The validation message.
        message: String,
    },
    /// `start` does not have one entry per operation.
    WrongOpCount {
        /// Operations in the problem.
        expected: usize,
        /// Entries in `start`.
        got: usize,
    },
    /// II is 0.
    ZeroIi,
    /// `t(dst) >= t(src) + latency(src) + delay - distance * II` does not hold.
    Dependence {
        /// Index into `Problem::edges`.
        edge: usize,
        /// Start of the source.
        src_start: u32,
        /// Start of the destination.
        dst_start: u32,
        /// Earliest allowed start of the destination (may be negative).
        earliest: i64,
    },
    /// More units of a resource are busy in one congruence class modulo II than exist.
    Resource {
        /// The resource.
        resource: ResourceId,
        /// Congruence class `t mod II`.
        slot: u32,
        /// Units busy in it (an operation blocking for more than II cycles counts once per
        /// time it covers the slot).
        used: u64,
        /// Units available.
        limit: u32,
        /// Operations occupying the slot.
        ops: Vec<OpIdx>,
    },
    /// A chain of latency-0 operations in one cycle is longer than the clock period.
    Chaining {
        /// The chain, in data-flow order.
        ops: Vec<OpIdx>,
        /// Its delay (each operation counted at most at the period).
        delay_ns: f64,
        /// The clock period.
        period_ns: f64,
    },
    /// Latency-0 operations feed each other combinationally in a loop.
    CombinationalCycle {
        /// Operations on the loop.
        ops: Vec<OpIdx>,
    },
    /// `length` is not `max(start + max(latency, 1))`.
    WrongLength {
        /// The value in the schedule.
        reported: u32,
        /// The value implied by `start`.
        actual: u64,
    },
    /// A non-pipelined schedule overlaps iterations (`ii < length`).
    Overlap {
        /// The II.
        ii: u32,
        /// The length.
        length: u32,
    },
}

/// Checks a schedule against its problem: every edge at the schedule's II, every modulo
/// resource slot (honouring blocking times), every same-cycle combinational chain against
/// the clock period, the reported length, and (non-pipelined) that iterations do not
/// overlap. Returns all violations found.
pub fn verify(p: &Problem, s: &Schedule) -> Result<(), Vec<Violation>> {
    if let Err(e) = p.validate() {
        return Err(vec![Violation::InvalidProblem {
            message: e.to_string(),
        }]);
    }
    let mut v = Vec::new();
    if s.start.len() != p.ops.len() {
        v.push(Violation::WrongOpCount {
            expected: p.ops.len(),
            got: s.start.len(),
        });
        return Err(v);
    }
    if s.ii == 0 {
        v.push(Violation::ZeroIi);
        return Err(v);
    }
    let ii = i64::from(s.ii);
    let t = |op: OpIdx| i64::from(s.start[op.index()]);

    for (i, e) in p.edges.iter().enumerate() {
        let earliest = t(e.src) + i64::from(p.ops[e.src.index()].latency) + i64::from(e.delay)
            - i64::from(e.distance) * ii;
        if t(e.dst) < earliest {
            v.push(Violation::Dependence {
                edge: i,
                src_start: s.start[e.src.index()],
                dst_start: s.start[e.dst.index()],
                earliest,
            });
        }
    }

    for (r, res) in p.resources.iter().enumerate() {
        let Some(limit) = res.limit else { continue };
        if res.blocking_time == 0 {
            continue;
        }
        check_resource(p, s, ResourceId(r as u32), limit, &mut v);
    }

    if let Some(period) = p.clock_period_ns {
        check_chains(p, s, period, &mut v);
    }

    let actual = p
        .ops
        .iter()
        .zip(&s.start)
        .map(|(o, &st)| u64::from(st) + u64::from(o.latency.max(1)))
        .max()
        .unwrap_or(0);
    if u64::from(s.length) != actual {
        v.push(Violation::WrongLength {
            reported: s.length,
            actual,
        });
    }
    if !s.pipelined && s.ii < s.length {
        v.push(Violation::Overlap {
            ii: s.ii,
            length: s.length,
        });
    }

    if v.is_empty() {
        Ok(())
    } else {
        Err(v)
    }
}

fn check_chains(p: &Problem, s: &Schedule, period: f64, v: &mut Vec<Violation>) {
    let n = p.ops.len();
    // Only combinational edges whose ends share a cycle carry a same-cycle chain.
    let mut out = combinational_out(p);
    for list in out.iter_mut() {
        list.retain(|&e| s.start[p.edges[e].src.index()] == s.start[p.edges[e].dst.index()]);
    }
    let order = match combinational_order(p, &out) {
        Ok(order) => order,
        Err(ops) => {
            v.push(Violation::CombinationalCycle { ops });
            return;
        }
    };
    // Longest chain ending at each op; report a chain where it first exceeds the period.
    let mut arr: Vec<f64> = (0..n).map(|i| chain_delay(p, i, period)).collect();
    let mut pred = vec![usize::MAX; n];
    let mut inputs_at: Vec<Vec<usize>> = vec![Vec::new(); n];
    // A result with an output delay, consumed in the cycle it arrives, starts the chain late.
    for e in 0..p.edges.len() {
        if !is_landing(p, e) {
            continue;
        }
        let (u, x) = (p.edges[e].src.index(), p.edges[e].dst.index());
        if u64::from(s.start[x]) != u64::from(s.start[u]) + u64::from(p.ops[u].latency) {
            continue;
        }
        let cand = out_delay(p, u, period) + arrival_delay(p, e, period);
        if cand > arr[x] {
            arr[x] = cand;
            pred[x] = e;
        }
    }
    // A multi-cycle operation's input logic ends the chains into it in its issue cycle.
    for e in 0..p.edges.len() {
        let (x, sink) = (p.edges[e].src.index(), p.edges[e].dst.index());
        if is_input(p, e) && s.start[x] == s.start[sink] {
            // Filled in below, once `arr[x]` is final (`order` puts `x` first).
            inputs_at[x].push(e);
        }
    }
    let mut over = vec![false; n];
    for &x in &order {
        let prev_over = pred[x] != usize::MAX && over[p.edges[pred[x]].src.index()];
        if arr[x] > period + DELAY_EPS {
            over[x] = true;
            if !prev_over {
                v.push(Violation::Chaining {
                    ops: chain_to(p, &pred, x, None),
                    delay_ns: arr[x],
                    period_ns: period,
                });
            }
        }
        for &e in &inputs_at[x] {
            let sink = p.edges[e].dst.index();
            let delay_ns = arr[x] + in_delay(p, e, period);
            if delay_ns > period + DELAY_EPS && !over[x] {
                v.push(Violation::Chaining {
                    ops: chain_to(p, &pred, x, Some(sink)),
                    delay_ns,
                    period_ns: period,
                });
            }
        }
        for &e in &out[x] {
            let w = p.edges[e].dst.index();
            let cand = arr[x] + chain_delay(p, w, period);
            if cand > arr[w] {
                arr[w] = cand;
                pred[w] = e;
            }
        }
    }
}

/// The operations of the longest same-cycle chain ending at `x` (through `pred`), then
/// `sink` whose input logic it feeds.
fn chain_to(p: &Problem, pred: &[usize], x: usize, sink: Option<usize>) -> Vec<OpIdx> {
    let mut ops: Vec<OpIdx> = sink.map(|s| OpIdx(s as u32)).into_iter().collect();
    ops.push(OpIdx(x as u32));
    let mut y = x;
    while pred[y] != usize::MAX {
        y = p.edges[pred[y]].src.index();
        ops.push(OpIdx(y as u32));
    }
    ops.reverse();
    ops
}

/// Modulo reservation check by a sweep over interval end points, so that the cost does
/// not depend on II (a non-pipelined schedule may have a very large one).
fn check_resource(p: &Problem, s: &Schedule, r: ResourceId, limit: u32, v: &mut Vec<Violation>) {
    let ii = u64::from(s.ii);
    let bt = u64::from(p.resources[r.index()].blocking_time);
    let users: Vec<usize> = (0..p.ops.len())
        .filter(|&i| p.ops[i].resource == Some(r))
        .collect();
    // Busy cycles start, ..., start + bt - 1: `full` times every slot, plus once on the
    // cyclic interval [start mod II, start mod II + rest).
    let full = bt / ii;
    let rest = bt % ii;
    let base = full * users.len() as u64;
    let mut events: Vec<(u64, i64)> = Vec::new();
    let busy_in = |i: usize, slot: u64| -> u64 {
        let offset = (slot + ii - u64::from(s.start[i]) % ii) % ii;
        full + u64::from(offset < rest)
    };
    for &i in &users {
        if rest == 0 {
            continue;
        }
        let a = u64::from(s.start[i]) % ii;
        let b = a + rest;
        if b <= ii {
            events.push((a, 1));
            events.push((b, -1));
        } else {
            events.push((a, 1));
            events.push((ii, -1));
            events.push((0, 1));
            events.push((b - ii, -1));
        }
    }
    events.push((0, 0));
    events.sort_unstable();
    let mut level: i64 = 0;
    let mut k = 0;
    while k < events.len() {
        let at = events[k].0;
        while k < events.len() && events[k].0 == at {
            level += events[k].1;
            k += 1;
        }
        if at >= ii {
            break;
        }
        let used = base + level.max(0) as u64;
        if used > u64::from(limit) {
            let ops = users
                .iter()
                .filter(|&&i| busy_in(i, at) > 0)
                .map(|&i| OpIdx(i as u32))
                .collect();
            v.push(Violation::Resource {
                resource: r,
                slot: at as u32,
                used,
                limit,
                ops,
            });
        }
    }
}
