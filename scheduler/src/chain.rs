//! Operation chaining: derive the constraints that keep every combinational chain within
//! the clock period.
//!
//! A *combinational edge* is a problem edge with distance 0 and delay 0 whose source and
//! destination both have latency 0: when both operations sit in the same cycle, the value
//! flows through wires. (Edges with negative delay are timing windows, not data; values
//! carried across iterations pass through a register; operations with latency >= 1 register
//! their inputs and outputs.) A *chain* is a path of combinational edges whose operations
//! all start in the same cycle; its delay is the sum of `min(delay_ns, period)` over its
//! operations. Clamping each operation at the period encodes "an operation slower than the
//! period is fine alone" while still forbidding anything with positive delay next to it.
//!
//! For every pair `(u, v)` joined by combinational paths whose longest delay exceeds the
//! period, and no shorter prefix of which already exceeds it, we add `t(v) >= t(u) + 1`.
//! This is exact: every combinational edge forces `t(dst) >= t(src)`, so `u` and `v` share a
//! cycle only if the whole path does; and every over-long same-cycle chain contains such a
//! minimal pair. The `.200MHz` MachSuite graphs carry the same kind of edges.
//!
//! A multi-cycle operation `u` whose result leaves a memory without a register
//! ([`crate::Op::out_delay_ns`] > 0) starts a chain too: a consumer `v` reached by a *landing
//! edge* (distance 0, delay 0, from `u`) and placed in `u`'s result cycle `t(u) + latency(u)`
//! sees the result `min(out_delay, period)` into that cycle. Where that plus the combinational
//! path from `v` to `w` exceeds the period, we add `t(w) >= t(u) + latency(u) + 1`. This is
//! exact as well: `w` can be in the result cycle only if the whole path from `v` is.
//!
//! A multi-cycle operation `s` with input logic before its first register
//! ([`crate::Op::in_delay_ns`] > 0) ends a chain: an *input edge* (distance 0, delay 0, from
//! a latency-0 `v` to `s`) in `s`'s issue cycle adds `min(in_delay, period)` to the chain
//! that reaches `v`. Where that exceeds the period, `s` goes a cycle later than the chain's
//! start (`t(s) >= t(u) + d` with the start's `d`), exactly as for a latency-0 end. The
//! input delay may differ by operand ([`crate::Op::in_delay_from`]): it is the edge's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::ScheduleError;
use crate::problem::{OpIdx, Problem};

/// Tolerance when comparing summed delays against the period.
pub(crate) const DELAY_EPS: f64 = 1e-9;

/// A derived constraint `t(dst) >= t(src) + d`: `d` = 1 for a chain of combinational
/// operations, `latency(src) + 1` for a chain behind a result with an output delay.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChainEdge {
    pub src: usize,
    pub dst: usize,
    pub d: i64,
    /// The problem edges of the longest chain from `src` to `dst`.
    pub path: Vec<usize>,
    /// Its delay in ns (clamped per operation, see module docs).
    pub delay_ns: f64,
}

/// Whether problem edge `e` is a combinational edge.
pub(crate) fn is_combinational(p: &Problem, e: usize) -> bool {
    let e = &p.edges[e];
    e.distance == 0
        && e.delay == 0
        && e.src != e.dst
        && p.ops[e.src.index()].latency == 0
        && p.ops[e.dst.index()].latency == 0
}

/// Clamped delay of `op` under `period`.
pub(crate) fn chain_delay(p: &Problem, op: usize, period: f64) -> f64 {
    p.ops[op].delay_ns.min(period)
}

/// Whether problem edge `e` is a landing edge: it carries the result of an operation with an
/// output delay to a consumer that may sit in the result's first cycle.
pub(crate) fn is_landing(p: &Problem, e: usize) -> bool {
    let e = &p.edges[e];
    let src = &p.ops[e.src.index()];
    e.distance == 0 && e.delay == 0 && e.src != e.dst && src.latency >= 1 && src.out_delay_ns > 0.0
}

/// Whether problem edge `e` is an input edge: a latency-0 operation's result into the input
/// logic of a multi-cycle one, in the same cycle.
pub(crate) fn is_input(p: &Problem, e: usize) -> bool {
    let e = &p.edges[e];
    let dst = &p.ops[e.dst.index()];
    e.distance == 0
        && e.delay == 0
        && e.src != e.dst
        && p.ops[e.src.index()].latency == 0
        && dst.latency >= 1
        && dst.in_delay_after(e.src) > 0.0
}

/// What a result landing through edge `e` in its consumer's issue cycle passes through
/// before a register: a latency-0 consumer's delay, or a multi-cycle one's input logic.
pub(crate) fn arrival_delay(p: &Problem, e: usize, period: f64) -> f64 {
    let op = p.edges[e].dst.index();
    if p.ops[op].latency == 0 {
        chain_delay(p, op, period)
    } else {
        in_delay(p, e, period)
    }
}

/// Clamped input delay, under `period`, of edge `e`'s consumer after its producer.
pub(crate) fn in_delay(p: &Problem, e: usize, period: f64) -> f64 {
    let e = &p.edges[e];
    p.ops[e.dst.index()].in_delay_after(e.src).min(period)
}

/// Out-lists of input edges per operation.
pub(crate) fn input_out(p: &Problem) -> Vec<Vec<usize>> {
    out_lists(p, is_input)
}

/// Out-lists per operation of the edges `keep` accepts.
fn out_lists(p: &Problem, keep: fn(&Problem, usize) -> bool) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); p.ops.len()];
    for e in (0..p.edges.len()).filter(|&e| keep(p, e)) {
        out[p.edges[e].src.index()].push(e);
    }
    out
}

/// Clamped output delay of `op` under `period`.
pub(crate) fn out_delay(p: &Problem, op: usize, period: f64) -> f64 {
    p.ops[op].out_delay_ns.min(period)
}

/// Topological order of the combinational edges, or the operations of a cycle.
pub(crate) fn combinational_order(
    p: &Problem,
    comb_out: &[Vec<usize>],
) -> Result<Vec<usize>, Vec<OpIdx>> {
    let n = p.ops.len();
    let mut indeg = vec![0usize; n];
    for list in comb_out {
        for &e in list {
            indeg[p.edges[e].dst.index()] += 1;
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&v| indeg[v] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(v)) = ready.pop() {
        order.push(v);
        for &e in &comb_out[v] {
            let w = p.edges[e].dst.index();
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.push(Reverse(w));
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // Walk backwards inside the leftover (cyclic) part to report one cycle.
    let mut comb_in = vec![Vec::new(); n];
    for list in comb_out {
        for &e in list {
            comb_in[p.edges[e].dst.index()].push(e);
        }
    }
    let Some(start) = (0..n).find(|&v| indeg[v] > 0) else {
        return Err(Vec::new());
    };
    let mut seen = vec![usize::MAX; n];
    let mut walk = Vec::new();
    let mut v = start;
    loop {
        if seen[v] != usize::MAX {
            let mut cycle: Vec<OpIdx> = walk[seen[v]..].iter().map(|&x| OpIdx(x as u32)).collect();
            cycle.reverse();
            return Err(cycle);
        }
        seen[v] = walk.len();
        walk.push(v);
        // Every leftover node has a leftover predecessor.
        match comb_in[v]
            .iter()
            .map(|&e| p.edges[e].src.index())
            .find(|&u| indeg[u] > 0)
        {
            Some(u) => v = u,
            None => return Err(vec![OpIdx(v as u32)]),
        }
    }
}

/// Out-lists of combinational edges per operation.
pub(crate) fn combinational_out(p: &Problem) -> Vec<Vec<usize>> {
    out_lists(p, is_combinational)
}

/// The edges of the longest chain from `u` to `v` (through `pred`, final for `v`'s ancestors
/// once `v` is reached in topological order).
fn path_from(p: &Problem, pred: &[usize], u: usize, v: usize) -> Vec<usize> {
    let mut path = Vec::new();
    let mut x = v;
    while x != u && pred[x] != usize::MAX {
        path.push(pred[x]);
        x = p.edges[pred[x]].src.index();
    }
    path.reverse();
    path
}

/// Where a chain starts: an operation, its arrival time (ns) and the edge it was reached by
/// (`usize::MAX` for the source itself).
type Seed = (usize, f64, usize);

/// Derives the chaining constraints of a validated problem (none without a clock period).
pub(crate) fn derive(p: &Problem) -> Result<Vec<ChainEdge>, ScheduleError> {
    let Some(period) = p.clock_period_ns else {
        return Ok(Vec::new());
    };
    let n = p.ops.len();
    let comb_out = combinational_out(p);
    let inputs = input_out(p);
    let order = combinational_order(p, &comb_out)
        .map_err(|ops| ScheduleError::CombinationalCycle { ops })?;
    let mut pos = vec![0usize; n];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i;
    }
    let mut landing: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in 0..p.edges.len() {
        if is_landing(p, e) {
            landing[p.edges[e].src.index()].push(e);
        }
    }
    let mut result = Vec::new();
    // Per-source longest-path sweep in topological order, touching only reached nodes.
    let mut arr = vec![f64::NEG_INFINITY; n];
    let mut pred = vec![usize::MAX; n];
    let mut touched: Vec<usize> = Vec::new();
    for u in 0..n {
        // Chains of combinational operations starting at `u` (d = 1), then the chains behind
        // `u`'s delayed result (d = latency + 1).
        let mut seeds: Vec<(Vec<Seed>, i64)> = Vec::new();
        if !comb_out[u].is_empty() || !inputs[u].is_empty() {
            seeds.push((vec![(u, chain_delay(p, u, period), usize::MAX)], 1));
        }
        if !landing[u].is_empty() {
            let out = out_delay(p, u, period);
            let first: Vec<Seed> = landing[u]
                .iter()
                .map(|&e| {
                    let v = p.edges[e].dst.index();
                    (v, out + arrival_delay(p, e, period), e)
                })
                .collect();
            seeds.push((first, i64::from(p.ops[u].latency) + 1));
        }
        for (first, d) in seeds {
            // The longest over-long chain into each multi-cycle operation's input logic.
            let mut into: Vec<(usize, f64, usize, usize)> = Vec::new();
            let mut heap: BinaryHeap<Reverse<usize>> = BinaryHeap::new();
            for (v, a, e) in first {
                if a > arr[v] {
                    if arr[v] == f64::NEG_INFINITY {
                        touched.push(v);
                    }
                    arr[v] = a;
                    pred[v] = e;
                    heap.push(Reverse(pos[v]));
                }
            }
            let mut last = usize::MAX;
            while let Some(Reverse(k)) = heap.pop() {
                if k == last {
                    continue;
                }
                last = k;
                let v = order[k];
                if v != u && arr[v] > period + DELAY_EPS {
                    result.push(ChainEdge {
                        src: u,
                        dst: v,
                        d,
                        path: path_from(p, &pred, u, v),
                        delay_ns: arr[v],
                    });
                    // Everything behind v starts after that anyway.
                    continue;
                }
                for &e in &inputs[v] {
                    let sink = p.edges[e].dst.index();
                    let cand = arr[v] + in_delay(p, e, period);
                    if sink != u && cand > period + DELAY_EPS {
                        match into.iter_mut().find(|x| x.0 == sink) {
                            Some(x) if x.1 >= cand => {}
                            Some(x) => *x = (sink, cand, v, e),
                            None => into.push((sink, cand, v, e)),
                        }
                    }
                }
                for &e in &comb_out[v] {
                    let w = p.edges[e].dst.index();
                    let cand = arr[v] + chain_delay(p, w, period);
                    if cand > arr[w] {
                        if arr[w] == f64::NEG_INFINITY {
                            touched.push(w);
                        }
                        arr[w] = cand;
                        pred[w] = e;
                        heap.push(Reverse(pos[w]));
                    }
                }
            }
            for (sink, delay_ns, v, e) in into {
                let mut path = path_from(p, &pred, u, v);
                path.push(e);
                result.push(ChainEdge {
                    src: u,
                    dst: sink,
                    d,
                    path,
                    delay_ns,
                });
            }
            for &v in &touched {
                arr[v] = f64::NEG_INFINITY;
                pred[v] = usize::MAX;
            }
            touched.clear();
        }
    }
    Ok(result)
}
