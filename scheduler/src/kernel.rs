//! Scheduling a kernel: build one modulo-scheduling [`Problem`] per loop region of the IR, solve
//! it, and keep the result in a [`KernelSchedule`] side table keyed by [`OpId`]. The IR is never
//! changed, so a kernel can be rescheduled at another II or clock.
//!
//! Resources: each global memory has one read port and one write port (one access per cycle
//! each), each on-chip memory `hls_ir::kernel::ONCHIP_READ_PORTS` read ports and
//! `ONCHIP_WRITE_PORTS` write port; multipliers are not limited yet (every multiply gets its
//! own DSP); atomic counter updates use no resource (any number per cycle); a pipelined divider
//! takes an operation every cycle, an iterative one (chosen where the II allows it,
//! `crate::divide`) is a unit of its own busy for its steps.

use crate::oplib::{is_invariant, OpLibrary};
use crate::{Edge, Op, OpIdx, Options, Problem, Resource, ResourceId, Schedule};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use hls_ir::analysis::serial::{serial_regions, SerialReason};
use hls_ir::{Kernel, LoopId, MemId, OpId, OpKind};
use std::collections::{BTreeMap, BTreeSet};

/// Why a loop's II is above 1, in source terms.
#[derive(Clone, Debug)]
pub enum LimitedBy {
    /// Nothing: II = 1.
    Nothing,
    /// A limited resource used `uses` times per iteration with `limit` units (`mem`: the
    /// memory whose port it is).
    Resource {
        resource: String,
        uses: u32,
        limit: u32,
        spans: Vec<Span>,
        mem: Option<MemId>,
    },
    /// II > MII although neither bound alone forces it: every II from MII up was proven
    /// infeasible (resources and recurrences together).
    Combined { mii: u32 },
    /// II > MII and a lower II was neither scheduled nor proven impossible in the time limit.
    Unproven { mii: u32 },
    /// The source asked for this II (`#pragma ii N`, `xcl_pipeline_loop(N)`), above MII.
    Requested { ii: u32 },
    /// A recurrence: the ops on the cycle (source spans and names), total latency and distance.
    Recurrence {
        names: Vec<String>,
        spans: Vec<Span>,
        latency: i64,
        distance: u32,
        /// The cycle runs through the loop's exit condition: deciding whether another
        /// iteration starts is what takes the time.
        exit: bool,
    },
    /// The loop's pipeline holds one iteration at a time (`hls_ir::analysis::serial`), so
    /// the next iteration starts when the previous one has left its `stages` stages.
    Serial { reason: SerialReason, stages: u32 },
}

/// The schedule of one loop region.
#[derive(Clone, Debug)]
pub struct LoopSchedule {
    pub region: LoopId,
    /// Cycles between the starts of two iterations in hardware: the modulo schedule's II, or
    /// the pipeline's depth for a loop that holds one iteration at a time (`serial`).
    pub ii: u32,
    /// The II of the modulo schedule (the ops' slots, resource sharing): `ii` except for a
    /// serial loop, whose iterations never overlap however small it is.
    pub slot_ii: u32,
    /// Why the loop holds one iteration at a time, if it does.
    pub serial: Option<SerialReason>,
    pub res_mii: u32,
    pub rec_mii: u32,
    pub mii: u32,
    /// Pipeline depth in cycles (stages): every op has finished by then.
    pub depth: u32,
    pub optimal: bool,
    pub limited_by: LimitedBy,
    /// Start cycle of every scheduled op (invariant ops are absent: they are always available).
    pub start: BTreeMap<OpId, u32>,
    pub latency: BTreeMap<OpId, u32>,
    pub ops: usize,
    pub solve_ms: f64,
    pub solver: String,
    /// Divisions built as iterative dividers (`crate::divide`); the others are pipelined.
    pub iterative: BTreeSet<OpId>,
}

impl LoopSchedule {
    /// The cycle (relative to the iteration's start) in which `op`'s value is available.
    pub fn ready(&self, op: OpId) -> Option<u32> {
        Some(self.start.get(&op)? + self.latency.get(&op)?)
    }
}

#[derive(Clone, Debug, Default)]
pub struct KernelSchedule {
    pub loops: Vec<LoopSchedule>,
}

impl KernelSchedule {
    pub fn for_loop(&self, l: LoopId) -> Option<&LoopSchedule> {
        self.loops.iter().find(|s| s.region == l)
    }
}

/// Schedule every loop region of `k`. Unsupported operations are diagnostics with the span of
/// the source that produced them.
pub fn schedule_kernel(
    k: &Kernel,
    lib: &OpLibrary,
    opts: &Options,
) -> Result<KernelSchedule, Vec<Diagnostic>> {
    let mut out = KernelSchedule::default();
    let mut diags = Vec::new();
    let serial = serial_regions(k);
    for region in k.loops.ids() {
        match schedule_region(k, region, serial[region], lib, opts) {
            Ok(s) => out.loops.push(s),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// One loop region as a scheduling problem, with the maps back to the IR.
struct RegionProblem {
    problem: Problem,
    /// The region's scheduled ops (invariant ones are left out) and their problem indices.
    ops: Vec<OpId>,
    index: BTreeMap<OpId, OpIdx>,
    latency: BTreeMap<OpId, u32>,
    /// The IR edge behind each problem edge.
    edge_src: Vec<(OpId, OpId, hls_ir::Dep)>,
    /// The memory behind each port resource.
    port_mem: BTreeMap<ResourceId, MemId>,
}

/// The scheduling problem of loop `region`. With `onchip_ports` false, on-chip memories have
/// as many ports as their accesses need (for [`ii_goal`]). The divisions in `iterative` are
/// iterative dividers (`crate::divide`), the others pipelined.
fn region_problem(
    k: &Kernel,
    region: LoopId,
    lib: &OpLibrary,
    onchip_ports: bool,
    iterative: &BTreeSet<OpId>,
) -> Result<RegionProblem, Vec<Diagnostic>> {
    let ops: Vec<OpId> = k
        .ops_in(region)
        .into_iter()
        .filter(|&o| !is_invariant(k, o))
        .collect();
    let mut b = ProblemBuilder {
        k,
        onchip_ports,
        rp: RegionProblem {
            problem: Problem {
                ops: Vec::new(),
                edges: Vec::new(),
                resources: Vec::new(),
                clock_period_ns: Some(lib.chain_budget_ns()),
            },
            ops: Vec::new(),
            index: BTreeMap::new(),
            latency: BTreeMap::new(),
            edge_src: Vec::new(),
            port_mem: BTreeMap::new(),
        },
        ports: BTreeMap::new(),
        pipe_ports: BTreeMap::new(),
        div_partners: crate::divide::partners(k, &ops),
        iterative: BTreeMap::new(),
        data_in_delay: BTreeMap::new(),
    };
    let mut diags = Vec::new();
    let facts = crate::oplib::KernelFacts::of(k);
    for &o in &ops {
        let timing = if iterative.contains(&o) {
            let (t, busy) = crate::divide::iterative_timing(lib, k, o);
            b.iterative.insert(o, busy);
            Ok(t)
        } else {
            lib.timing_in(k, o, &facts)
        };
        match timing {
            Ok(t) => b.add_op(o, &t),
            Err(why) => diags.push(
                Diagnostic::error(k.op(o).span, why)
                    .note("this construct cannot be compiled to hardware by this version of oclhls; the rest of the kernel was checked"),
            ),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    b.add_operand_in_delays();
    b.add_atomic_write_slots(&ops);
    b.tie_division_partners();
    b.add_region_edges(&ops);
    b.add_nested_loop_edges(region);
    b.add_exit_edges(&ops);
    b.rp.ops = ops;
    Ok(b.rp)
}

/// Builds a [`RegionProblem`]: ops with their resources, then the edges.
struct ProblemBuilder<'k> {
    k: &'k Kernel,
    onchip_ports: bool,
    rp: RegionProblem,
    /// Each memory's read (`false`) and write (`true`) port.
    ports: BTreeMap<(MemId, bool), ResourceId>,
    /// Each pipe side's data, reservation and commit port, by name.
    pipe_ports: BTreeMap<String, ResourceId>,
    /// Remainders computed by the unit of their quotient (`crate::divide::partners`).
    div_partners: BTreeMap<OpId, OpId>,
    /// Iterative divisions and their busy cycles per operation.
    iterative: BTreeMap<OpId, u32>,
    /// Ops whose non-predicate operands have a shorter input logic, and its delay.
    data_in_delay: BTreeMap<OpId, f64>,
}

impl ProblemBuilder<'_> {
    fn add_op(&mut self, o: OpId, t: &crate::oplib::OpTiming) {
        let k = self.k;
        let resource = self.resource_of(o);
        let rp = &mut self.rp;
        rp.index.insert(o, OpIdx(rp.problem.ops.len() as u32));
        rp.latency.insert(o, t.latency);
        rp.problem.ops.push(Op {
            name: k
                .op(o)
                .name
                .clone()
                .unwrap_or_else(|| format!("{o} {}", k.op(o).kind.mnemonic())),
            resource,
            latency: t.latency,
            delay_ns: t.delay_ns,
            out_delay_ns: t.out_delay_ns,
            // The library's delay of a multi-cycle operation is its input logic.
            in_delay_ns: if t.latency >= 1 { t.delay_ns } else { 0.0 },
            in_delay_from: Vec::new(),
        });
        if let Some(d) = t.data_in_delay_ns.filter(|_| t.latency >= 1) {
            self.data_in_delay.insert(o, d);
        }
    }

    /// The shorter input logic after the non-predicate operands of the ops that have it
    /// ([`crate::oplib::OpTiming::data_in_delay_ns`]), once every op has its index. An
    /// operand that is also the predicate keeps the predicate's delay.
    fn add_operand_in_delays(&mut self) {
        let k = self.k;
        for (&o, &d) in &self.data_in_delay {
            let mut operands = k.operands(o);
            let pred = if k.op(o).kind.is_predicated() {
                operands.pop()
            } else {
                None
            };
            let dst = self.rp.index[&o].index();
            for src in operands {
                if Some(src) == pred {
                    continue;
                }
                if let Some(&s) = self.rp.index.get(&src) {
                    let op = &mut self.rp.problem.ops[dst];
                    if !op.in_delay_from.iter().any(|&(x, _)| x == s) {
                        op.in_delay_from.push((s, d));
                    }
                }
            }
        }
    }

    fn new_resource(&mut self, name: String, limit: Option<u32>) -> ResourceId {
        self.new_unit(name, limit, 1)
    }

    fn new_unit(&mut self, name: String, limit: Option<u32>, blocking_time: u32) -> ResourceId {
        let id = ResourceId(self.rp.problem.resources.len() as u32);
        self.rp.problem.resources.push(Resource {
            name,
            limit,
            blocking_time,
        });
        id
    }

    /// A remainder computed by its quotient's unit starts with it: two edges tie them
    /// (`t(rem) = t(quotient)`, equal latencies).
    fn tie_division_partners(&mut self) {
        let pairs: Vec<(OpId, OpId)> = self.div_partners.iter().map(|(&r, &q)| (r, q)).collect();
        for (r, q) in pairs {
            let rp = &mut self.rp;
            let (Some(&ri), Some(&qi)) = (rp.index.get(&r), rp.index.get(&q)) else {
                continue;
            };
            let (lr, lq) = (rp.latency[&r] as i32, rp.latency[&q] as i32);
            for (src, dst, delay) in [(qi, ri, -lq), (ri, qi, -lr)] {
                rp.problem.edges.push(Edge {
                    src,
                    dst,
                    delay,
                    distance: 0,
                });
                rp.edge_src.push((q, r, hls_ir::Dep::Order { distance: 0 }));
            }
        }
    }

    /// The limited resource op `o` uses, if any: a memory port, a pipe side's port, or an
    /// iterative divider (its own unit, shared only with a remainder of the same operands).
    fn resource_of(&mut self, o: OpId) -> Option<ResourceId> {
        let k = self.k;
        if let Some(&busy) = self.iterative.get(&o) {
            if self.div_partners.contains_key(&o) {
                return None;
            }
            let what = k.op(o).name.clone().unwrap_or_else(|| o.to_string());
            return Some(self.new_unit(format!("iterative divider of `{what}`"), Some(1), busy));
        }
        match k.op(o).kind {
            OpKind::Load { mem } | OpKind::Store { mem, .. } | OpKind::Atomic { mem, .. } => {
                let write = matches!(k.op(o).kind, OpKind::Store { .. });
                Some(self.port(mem, write))
            }
            // One operation per cycle on each of a pipe side's FIFO ports: data (reads and
            // writes, plain or into a reservation), reservations, commits.
            OpKind::PipeRead { pipe, .. }
            | OpKind::PipeWrite { pipe, .. }
            | OpKind::PipeReserve { pipe, .. }
            | OpKind::PipeCommit { pipe, .. } => {
                let port = match k.op(o).kind {
                    OpKind::PipeReserve { .. } => "reservation",
                    OpKind::PipeCommit { .. } => "commit",
                    _ => "data",
                };
                let key = format!("{port} port of pipe `{}`", k.pipes[pipe].name);
                if let Some(&r) = self.pipe_ports.get(&key) {
                    return Some(r);
                }
                let r = self.new_resource(key.clone(), Some(1));
                self.pipe_ports.insert(key, r);
                Some(r)
            }
            _ => None,
        }
    }

    /// The read (`write` false) or write port resource of memory `mem`.
    fn port(&mut self, mem: MemId, write: bool) -> ResourceId {
        let k = self.k;
        let r = match self.ports.get(&(mem, write)) {
            Some(&r) => r,
            None => {
                let onchip = !matches!(k.mem(mem).kind, hls_ir::MemKind::Global { .. });
                let limit = match (onchip, write) {
                    (true, _) if !self.onchip_ports => None,
                    (true, false) => Some(hls_ir::kernel::ONCHIP_READ_PORTS),
                    (true, true) => Some(hls_ir::kernel::ONCHIP_WRITE_PORTS),
                    (false, _) => Some(1),
                };
                let name = format!(
                    "{} port of `{}`",
                    if write { "write" } else { "read" },
                    k.mem(mem).name
                );
                let r = self.new_resource(name, limit);
                self.ports.insert((mem, write), r);
                r
            }
        };
        self.rp.port_mem.insert(r, mem);
        r
    }

    /// An on-chip atomic reads in its issue cycle and writes one cycle later: a second
    /// problem op (not an IR op) holds the write port in that cycle, tied to the atomic by
    /// two edges (`t(write) = t(atomic) + 1`).
    fn add_atomic_write_slots(&mut self, ops: &[OpId]) {
        for &o in ops {
            let OpKind::Atomic { mem, .. } = self.k.op(o).kind else {
                continue;
            };
            if matches!(self.k.mem(mem).kind, hls_ir::MemKind::Global { .. }) {
                continue;
            }
            let resource = Some(self.port(mem, true));
            let rp = &mut self.rp;
            let w = OpIdx(rp.problem.ops.len() as u32);
            rp.problem.ops.push(Op {
                name: format!("{} (write)", rp.problem.ops[rp.index[&o].index()].name),
                resource,
                latency: 0,
                delay_ns: 0.0,
                out_delay_ns: 0.0,
                in_delay_ns: 0.0,
                in_delay_from: Vec::new(),
            });
            let a = rp.index[&o];
            // The atomic writes one cycle after its result (its latency `lat`,
            // `rtl_templates::kernel::onchip_atomic`): t(w) = t(a) + lat + 1.
            let lat = crate::oplib::onchip_read_latency(self.k, mem) as i32;
            for (src, dst, delay) in [(a, w, 1), (w, a, -(lat + 1))] {
                rp.problem.edges.push(Edge {
                    src,
                    dst,
                    delay,
                    distance: 0,
                });
                rp.edge_src.push((o, o, hls_ir::Dep::Order { distance: 0 }));
            }
        }
    }

    fn push_edge(&mut self, src: OpId, dst: OpId, delay: i32, dep: hls_ir::Dep) {
        let rp = &mut self.rp;
        rp.problem.edges.push(Edge {
            src: rp.index[&src],
            dst: rp.index[&dst],
            delay,
            distance: dep.distance(),
        });
        rp.edge_src.push((src, dst, dep));
    }

    /// The dependences between this region's ops.
    fn add_region_edges(&mut self, ops: &[OpId]) {
        for &o in ops {
            for (src, dep) in self.k.preds(o) {
                if !self.rp.index.contains_key(&src) {
                    continue;
                }
                // Data and order edges alike: the target starts once the source's latency
                // has passed (a store's latency is 1, so side effects keep program order). A
                // value carried to the next iteration goes through a pipeline register, so a
                // combinational producer needs one more cycle (no chain across iterations).
                // An ordered side effect with a combinational result (a pipe write) is
                // followed one cycle later, so a FIFO sees the operations of one work-item in
                // order.
                let ordered = matches!(dep, hls_ir::Dep::Order { .. });
                let combinational = self.rp.latency[&src] == 0;
                let delay = if ordered && counter_updates(self.k, src, o) {
                    // Updates of one counter may share a cycle: the hardware hands out the
                    // old values of a cycle in program order (older iterations first).
                    -(self.rp.latency[&src] as i32)
                } else if ordered && onchip_atomic_then_store(self.k, src, o) {
                    // The atomic writes one cycle after its result: a store after it writes
                    // later still (reads after it see its write forwarded).
                    2
                } else {
                    i32::from((dep.distance() > 0 || ordered) && combinational)
                };
                self.push_edge(src, o, delay, dep);
                // A loop result's initial value is latched when its loop starts, and so is
                // its value at the exit when that is computed out here (loop-invariant).
                if let (OpKind::LoopResult, hls_ir::Dep::Data { operand: 1 | 2, .. }) =
                    (&self.k.op(o).kind, dep)
                {
                    let l = self.k.operands(o)[0];
                    if self.rp.index.contains_key(&l) && l != src {
                        self.push_edge(src, l, 0, dep);
                    }
                }
            }
        }
    }

    /// A nested loop is one op of this region: everything its ops read from here must be
    /// ready when it starts, and what here depends on its ops (memory order) waits until it
    /// has finished.
    fn add_nested_loop_edges(&mut self, region: LoopId) {
        let k = self.k;
        let loop_ops = k.loop_ops();
        for (src, dst, dep) in k.edges() {
            let (r_src, r_dst) = (k.op(src).region, k.op(dst).region);
            if r_src == region && r_dst == region {
                continue; // added by `add_region_edges`
            }
            // A value leaving a loop reaches its `LoopResult`, which already follows the loop.
            if matches!(k.op(dst).kind, OpKind::LoopResult) && r_dst == region {
                continue;
            }
            let rep = |x: OpId| {
                k.representative(x, region, &loop_ops)
                    .filter(|o| self.rp.index.contains_key(o))
            };
            let (Some(a), Some(b)) = (rep(src), rep(dst)) else {
                continue;
            };
            if a != b {
                // An on-chip atomic's write lands one cycle after its result: a nested loop
                // that uses the same memory starts after that (its reads see no forwarding).
                let delay = if onchip_atomic_then_loop(k, a, b) {
                    2
                } else {
                    0
                };
                self.push_edge(a, b, delay, live_in(dep, r_dst == region));
            }
        }
    }

    /// No iteration starts before the previous one has decided whether it was the last: the
    /// exit condition is registered before the next issue (`ops` are all of this loop's ops,
    /// and the one at cycle 0 binds).
    fn add_exit_edges(&mut self, ops: &[OpId]) {
        let Some(&exit) = ops
            .iter()
            .find(|&&o| matches!(self.k.op(o).kind, OpKind::LoopExit))
        else {
            return;
        };
        for &o in ops {
            self.push_edge(exit, o, 1, hls_ir::Dep::Order { distance: 1 });
        }
    }
}

/// A value read by an op of a nested loop is read when that loop starts (the loop latches its
/// live-ins): a carried value's next value computed out here (loop-invariant) has a distance
/// counted in the nested loop's iterations, not in this region's, so here it is a live-in
/// like any other (distance 0). The kernel fuzzer found it: `tests/fuzz-regressions/
/// seed20261126_case7146.cl`, a next value available one cycle after its loop started.
fn live_in(dep: hls_ir::Dep, dst_here: bool) -> hls_ir::Dep {
    match dep {
        hls_ir::Dep::Data { operand, .. } if !dst_here => hls_ir::Dep::Data {
            operand,
            distance: 0,
        },
        _ => dep,
    }
}

/// Both ops update one atomic counter.
fn counter_updates(k: &Kernel, a: OpId, b: OpId) -> bool {
    match (&k.op(a).kind, &k.op(b).kind) {
        (OpKind::CounterUpdate { counter: x, .. }, OpKind::CounterUpdate { counter: y, .. }) => {
            x == y
        }
        _ => false,
    }
}

/// The II loop `region` could reach if every on-chip memory had the ports its accesses need:
/// the larger of its recurrence bound and the bound of its other resources (global memory
/// ports, pipe ports). `None` when the loop cannot be scheduled at all (an unsupported
/// operation, reported when the kernel is scheduled). This is what array banking
/// (`hls_ir::passes::bank`) aims for.
pub fn ii_goal(k: &Kernel, region: LoopId, lib: &OpLibrary) -> Option<u32> {
    let p = region_problem(k, region, lib, false, &BTreeSet::new())
        .ok()?
        .problem;
    let rec = crate::rec_mii(&p).0;
    (rec != u32::MAX).then(|| rec.max(crate::res_mii(&p).0))
}

/// Schedules loop `region` with pipelined dividers, then, if its II leaves some division the
/// busy cycles of an iterative divider, once more with those iterative; the second schedule is
/// kept when its II is no larger (`crate::divide`).
fn schedule_region(
    k: &Kernel,
    region: LoopId,
    serial: Option<SerialReason>,
    lib: &OpLibrary,
    opts: &Options,
) -> Result<LoopSchedule, Vec<Diagnostic>> {
    let requested = Options {
        min_ii: k.loops[region].requested_ii.or(opts.min_ii),
        ..opts.clone()
    };
    let opts = &requested;
    let first = solve_region(k, region, serial, lib, opts, &BTreeSet::new())?;
    let iterative = crate::divide::iterative_candidates(k, lib, &first);
    if iterative.is_empty() {
        return Ok(first);
    }
    match solve_region(k, region, serial, lib, opts, &iterative) {
        Ok(second) if second.ii <= first.ii => Ok(second),
        _ => Ok(first),
    }
}

fn solve_region(
    k: &Kernel,
    region: LoopId,
    serial: Option<SerialReason>,
    lib: &OpLibrary,
    opts: &Options,
    iterative: &BTreeSet<OpId>,
) -> Result<LoopSchedule, Vec<Diagnostic>> {
    let RegionProblem {
        problem,
        ops,
        index,
        latency,
        edge_src,
        port_mem,
    } = region_problem(k, region, lib, true, iterative)?;
    let pipelined = opts.pipelined;
    let started = std::time::Instant::now();
    let sched: Schedule = crate::schedule(&problem, opts).map_err(|e| {
        vec![Diagnostic::error(
            k.loops[region].span,
            format!("scheduling failed: {e}"),
        )]
    })?;
    let solve_ms = started.elapsed().as_secs_f64() * 1e3;
    if let Err(v) = crate::verify(&problem, &sched) {
        panic!(
            "scheduler returned an invalid schedule for {}: {v:?}",
            k.loops[region].name
        );
    }
    let limited_by = match &sched.limited_by {
        _ if sched.ii <= 1 || !pipelined => LimitedBy::Nothing,
        crate::Limit::Recurrence { edges, .. } => {
            let mut names = Vec::new();
            let mut spans = Vec::new();
            let mut lat = 0i64;
            let mut dist = 0;
            let mut exit = false;
            for &e in edges {
                let (src, _, dep) = edge_src[e];
                exit |= matches!(k.op(src).kind, OpKind::LoopExit);
                lat += *latency.get(&src).unwrap_or(&0) as i64 + problem.edges[e].delay as i64;
                dist += dep.distance();
                spans.push(k.op(src).span);
                // A recurrence through memory is named by the array it goes through.
                let name = match k.op(src).kind {
                    OpKind::Store { mem, .. } | OpKind::Load { mem } => {
                        Some(k.mem(mem).name.clone())
                    }
                    _ => k.op(src).name.clone(),
                };
                if let Some(n) = name {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
            }
            LimitedBy::Recurrence {
                names,
                spans,
                latency: lat,
                distance: dist,
                exit,
            }
        }
        crate::Limit::Resource { resource, uses } => {
            let spans = index
                .iter()
                .filter(|(_, i)| problem.ops[i.0 as usize].resource == Some(*resource))
                .map(|(o, _)| k.op(*o).span)
                .collect();
            let res = &problem.resources[resource.0 as usize];
            LimitedBy::Resource {
                resource: res.name.clone(),
                uses: *uses,
                limit: res.limit.unwrap_or(0),
                spans,
                mem: port_mem.get(resource).copied(),
            }
        }
        crate::Limit::Combined { mii } => LimitedBy::Combined { mii: *mii },
        crate::Limit::Unproven { mii } => LimitedBy::Unproven { mii: *mii },
        crate::Limit::Requested { ii } => LimitedBy::Requested { ii: *ii },
        _ => LimitedBy::Nothing,
    };
    // Start the iteration at cycle 0: the schedule's constraints are differences, so shifting
    // every op keeps it valid, and the exit edges then say the exit is known before cycle II.
    let first = sched.start.iter().copied().min().unwrap_or(0);
    let start: BTreeMap<OpId, u32> = index
        .iter()
        .map(|(o, i)| (*o, sched.start[i.0 as usize] - first))
        .collect();
    let depth = (sched.length - first).max(1);
    let stages = pipeline_stages(k, &start, &latency, depth);
    let (ii, limited_by) = match serial {
        Some(reason) if stages > sched.ii => (stages, LimitedBy::Serial { reason, stages }),
        _ => (sched.ii, limited_by),
    };
    Ok(LoopSchedule {
        region,
        ii,
        slot_ii: sched.ii,
        serial,
        res_mii: sched.res_mii,
        rec_mii: sched.rec_mii,
        mii: sched.mii,
        depth,
        optimal: sched.optimal,
        limited_by,
        start,
        latency,
        ops: ops.len(),
        solve_ms,
        solver: sched.stats.solver.clone(),
        iterative: iterative.clone(),
    })
}

/// Whether `src` is an atomic on an on-chip memory and `dst` a store to the same memory.
fn onchip_atomic_then_store(k: &Kernel, src: OpId, dst: OpId) -> bool {
    match (&k.op(src).kind, &k.op(dst).kind) {
        (OpKind::Atomic { mem: a, .. }, OpKind::Store { mem: b, .. }) => {
            a == b && !matches!(k.mem(*a).kind, hls_ir::MemKind::Global { .. })
        }
        _ => false,
    }
}

/// Whether `src` is an atomic on an on-chip memory and `dst` starts a nested loop.
fn onchip_atomic_then_loop(k: &Kernel, src: OpId, dst: OpId) -> bool {
    matches!(
        (&k.op(src).kind, &k.op(dst).kind),
        (OpKind::Atomic { mem, .. }, OpKind::Loop(_))
            if !matches!(k.mem(*mem).kind, hls_ir::MemKind::Global { .. })
    )
}

/// The stages of a loop's pipeline: every op finished (`depth`), and an iteration that starts
/// a nested loop waits for it in the stage after the start (the emitter builds it so; the
/// corpus tests check that the emitted pipelines of serial loops have exactly this depth).
/// A value that arrives after its op's cycle (a load's, an atomic's old value) is taken in the
/// stage it arrives in even when nothing reads it (an atomic's response leaves its buffer
/// there), so that stage is part of the pipeline too; the length `depth` only counts it when
/// the value has a user (`rtl_templates::kernel::plan::Plan::stages` is the emitter's side).
fn pipeline_stages(
    k: &Kernel,
    start: &BTreeMap<OpId, u32>,
    latency: &BTreeMap<OpId, u32>,
    depth: u32,
) -> u32 {
    start
        .iter()
        .map(|(o, s)| {
            let op = k.op(*o);
            let lat = latency.get(o).copied().unwrap_or(0);
            match op.kind {
                OpKind::Loop(_) => s + 2,
                _ if op.ty != hls_ir::Ty::Token && lat > 0 => s + lat + 1,
                _ => 0,
            }
        })
        .fold(depth, u32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oplib::OpLibrary;

    fn lowered(src: &str) -> Kernel {
        let mut sm = frontend::span::SourceMap::new();
        let f = sm.add_file("k.cl", src);
        let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
            .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
        let (id, _) = p.kernels().next().unwrap();
        let mut k = hls_ir::lower::lower_kernel(&p, id).unwrap();
        hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
        k
    }

    #[test]
    fn updates_of_one_counter_share_a_cycle() {
        // Four ordered updates in every iteration, and the last of one iteration before the
        // first of the next: no resource and no recurrence, so II 1 with all four in one cycle,
        // each result registered (latency 1).
        let k = lowered(
            "kernel void k(uint n, counter32_t c) {
  for (uint j = 0; j < n; j++) {
#pragma unroll
    for (int u = 0; u < 4; u++) atomic_inc(c);
  }
}",
        );
        let s = schedule_kernel(&k, &OpLibrary::default(), &crate::Options::default()).unwrap();
        let lp = s.for_loop(LoopId::from_index(1)).unwrap();
        assert_eq!(lp.ii, 1);
        let ups: Vec<OpId> = k
            .ops_in(LoopId::from_index(1))
            .into_iter()
            .filter(|&o| matches!(k.op(o).kind, OpKind::CounterUpdate { .. }))
            .collect();
        assert_eq!(ups.len(), 4);
        let starts: Vec<u32> = ups.iter().map(|o| lp.start[o]).collect();
        assert!(starts.iter().all(|&s| s == starts[0]), "{starts:?}");
        assert!(ups.iter().all(|o| lp.latency[o] == 1));
    }
}
