//! Atomic counters (`counter32_t`, `counter64_t`) as atomic registers: each counter the kernel
//! updates is a register `<c>_value` inside the module, with a global memory port `<c>_*` of
//! its width and the address input `arg_<c>` (docs/hardware-interface.md, "Atomic counters").
//!
//! Launch: after `start` the counter is read from its buffer (`<c>_rd_pend` until the request
//! is accepted, `<c>_rd_wait` until the response); no work-item enters before every counter
//! has its value (`counters_loaded`). End: once every pipeline is empty and every other write
//! acknowledged (`counters_quiet`), the value is written back (`<c>_wr_sent`, `<c>_wr_done`),
//! and `finish` waits for that acknowledgement.
//!
//! Updates: every `CounterUpdate` op is a request `<v>_req` (its stage holds a work-item whose
//! predicate holds) that fires when its pipeline moves. All requests of a counter are served
//! in the same cycle, in a fixed order ([`CounterPlan::updates`]): update `i` gets
//! `value + (requests before i that fire this cycle)` (minus for a decrement) in a register
//! (the op's result, there one cycle later), and the register moves by the number that fire.
//! Requests of the same pipeline share its stall, so within a pipeline the prefix counts
//! requests and the stall is the registers' enable, off the adders (`<c>_reqs` counts a
//! pipeline's requests); requests of other pipelines count only when they fire, so a stalled
//! one never takes a value another update also gets.

use super::interface::channel_ports;
use super::plan::Plan;
use super::Emitter;
use crate::namer::legal;
use crate::writer::VWriter;
use hls_ir::{CounterId, OpId, OpKind};
use hwcontract::clog2;

/// One counter the kernel updates.
pub(super) struct CounterPlan {
    pub id: CounterId,
    /// Its register and ports are named `<prefix>_...`.
    pub prefix: String,
    pub bits: u32,
    /// Counts up (`atomic_inc`) or down (`atomic_dec`); the front end allows only one.
    pub inc: bool,
    /// The updates in the order one cycle hands out old values: by pipeline, then by stage
    /// from the last (the oldest iteration first), then in program order (op ids). Program
    /// order within one work-item is kept: the scheduler never puts an update in an earlier
    /// stage than one before it.
    pub updates: Vec<OpId>,
    /// Width of a count of updates in one cycle.
    pub count_bits: u32,
}

/// The counters the kernel updates, in id order.
pub(super) fn plan_counters(p: &Plan) -> Vec<CounterPlan> {
    let k = p.k;
    let mut out = Vec::new();
    for (i, c) in k.counters.iter().enumerate() {
        let id = CounterId::from_index(i);
        let mut updates: Vec<OpId> = k
            .op_ids()
            .into_iter()
            .filter(
                |&o| matches!(k.op(o).kind, OpKind::CounterUpdate { counter, .. } if counter == id),
            )
            .collect();
        let Some(&first) = updates.first() else {
            continue;
        };
        updates.sort_by_key(|&o| (p.region_of(o), std::cmp::Reverse(p.start(o)), o));
        let inc = matches!(k.op(first).kind, OpKind::CounterUpdate { inc: true, .. });
        out.push(CounterPlan {
            id,
            prefix: legal(&c.name),
            bits: c.bits,
            inc,
            count_bits: clog2(updates.len() as u32 + 1).max(1),
            updates,
        });
    }
    out
}

/// `x` (`from` bits) zero-extended to `to` bits.
fn widen(x: &str, from: u32, to: u32) -> String {
    if from >= to {
        x.to_string()
    } else {
        format!("{{{}'d0, {x}}}", to - from)
    }
}

/// The sum of one-bit `terms` as a `bits`-bit expression.
fn count(terms: &[String], bits: u32) -> String {
    terms
        .iter()
        .map(|t| widen(t, 1, bits))
        .collect::<Vec<_>>()
        .join(" + ")
}

impl CounterPlan {
    /// The counter register.
    pub fn register(&self) -> String {
        format!("{}_value", self.prefix)
    }
}

/// An atomic counter as built: a register inside the module (for reports).
#[derive(Clone, Debug, serde::Serialize)]
pub struct AtomicRegister {
    /// The counter argument's name.
    pub name: String,
    pub bits: u32,
    /// The register holding the counter while the kernel runs.
    pub register: String,
    /// `atomic_inc` (true) or `atomic_dec` updates.
    pub increment: bool,
    /// Update sites in the datapath; all of them may take a value in the same cycle.
    pub updates: usize,
    /// Its ports: the buffer's address `arg_<c>`, then the memory channels `<c>_*`.
    pub ports: Vec<String>,
}

/// The atomic registers of a planned kernel.
pub(super) fn atomic_registers(p: &Plan) -> Vec<AtomicRegister> {
    p.counters
        .iter()
        .map(|c| AtomicRegister {
            name: p.k.counters[c.id].name.clone(),
            bits: c.bits,
            register: c.register(),
            increment: c.inc,
            updates: c.updates.len(),
            ports: std::iter::once(format!("arg_{}", c.prefix))
                .chain(
                    channel_ports(&c.prefix, true, true, c.bits)
                        .into_iter()
                        .map(|q| q.name),
                )
                .collect(),
        })
        .collect()
}

impl Emitter<'_> {
    /// The request wire of update `o`.
    fn request(&self, o: OpId) -> String {
        format!("{}_req", self.plan.names[&o])
    }

    /// Update `o`'s request as it counts in a cycle: fired, when its pipeline moves.
    fn fired(&self, o: OpId) -> String {
        let pre = &self.plan.regions[self.plan.region_of(o)].pre;
        format!("({} && !{pre}stall)", self.request(o))
    }

    /// Declares every counter's register and state, every update's request wires (the prefix
    /// sums read requests of pipelines written later), `counters_loaded` and `counters_quiet`.
    pub(super) fn declare_counters(&self, w: &mut VWriter) {
        let counters = &self.plan.counters;
        if counters.is_empty() {
            return;
        }
        w.comment("---- Atomic counters: a register each, read from its buffer at start, written back before `done`.");
        let mut waits = Vec::new();
        for c in counters {
            let p = &c.prefix;
            w.reg(&c.register(), c.bits);
            for s in ["rd_pend", "rd_wait", "wr_sent", "wr_done"] {
                w.reg(&format!("{p}_{s}"), 1);
            }
            for &o in &c.updates {
                w.line(format!("wire {};", self.request(o)));
            }
            waits.push(format!("{p}_rd_wait"));
        }
        w.wire("counters_loaded", 1, &format!("!({})", waits.join(" || ")));
        w.line("wire counters_quiet;");
        w.line("");
    }

    /// ` && counters_loaded` when the kernel has counters: no work-item enters before.
    pub(super) fn counters_gate(&self) -> &'static str {
        if self.plan.counters.is_empty() {
            ""
        } else {
            " && counters_loaded"
        }
    }

    /// Update op `cx.o` of the region being emitted: its request, and the old value into its
    /// result register when something reads it.
    pub(super) fn emit_counter_update(&mut self, w: &mut VWriter, cx: &super::datapath::OpCtx) {
        let req = self.request(cx.o);
        let st = self.stall();
        let pred = self.val(cx.args[0], cx.c);
        w.assign(&req, &format!("{} && {pred}", self.valid(cx.c)));
        if !self.k.has_data_uses(cx.o) {
            return;
        }
        let c = self
            .plan
            .counters
            .iter()
            .find(|c| c.updates.contains(&cx.o))
            .expect("every update is planned");
        let me = self.plan.region_of(cx.o);
        let before: Vec<String> = c
            .updates
            .iter()
            .take_while(|&&u| u != cx.o)
            .map(|&u| {
                if self.plan.region_of(u) == me {
                    self.request(u)
                } else {
                    self.fired(u)
                }
            })
            .collect();
        let value = c.register();
        let next = if before.is_empty() {
            value
        } else {
            let pre = format!("{}_pre", cx.name);
            w.wire(&pre, c.count_bits, &count(&before, c.count_bits));
            let op = if c.inc { "+" } else { "-" };
            format!("{value} {op} {}", widen(&pre, c.count_bits, c.bits))
        };
        w.reg(&cx.name, c.bits);
        w.always_ff(|w| {
            w.line(format!("if (!{st}) {} <= {next};", cx.name));
        });
    }

    /// Every counter's memory port, load, update and write-back.
    pub(super) fn emit_counters(&self, w: &mut VWriter) {
        for c in &self.plan.counters {
            let (p, v) = (&c.prefix, c.register());
            let name = &self.k.counters[c.id].name;
            w.comment(format!(
                "---- Atomic counter `{name}` (counter{}_t): register `{v}`, {} update(s) a cycle at most, counting {}.",
                c.bits,
                c.updates.len(),
                if c.inc { "up" } else { "down" }
            ));
            let arg = format!("arg_{p}_r");
            w.assign(&format!("{p}_rreq_valid"), &format!("{p}_rd_pend"));
            w.assign(&format!("{p}_rreq_addr"), &arg);
            w.assign(&format!("{p}_rresp_ready"), "1'b1");
            let step = self.counter_step(w, c);
            w.always_ff(|w| {
                w.line(format!("if ({p}_rresp_valid) {v} <= {p}_rresp_data;"));
                w.line(format!("{step};"));
            });
            w.always_ff(|w| {
                let states = ["rd_pend", "rd_wait", "wr_sent", "wr_done"];
                w.block("if (rst)", |w| {
                    for s in states {
                        w.line(format!("{p}_{s} <= 1'b0;"));
                    }
                });
                w.block("else if (launch)", |w| {
                    for (s, x) in states.iter().zip([1, 1, 0, 0]) {
                        w.line(format!("{p}_{s} <= 1'b{x};"));
                    }
                });
                w.block("else", |w| {
                    w.line(format!(
                        "if ({p}_rreq_valid && {p}_rreq_ready) {p}_rd_pend <= 1'b0;"
                    ));
                    w.line(format!("if ({p}_rresp_valid) {p}_rd_wait <= 1'b0;"));
                    w.line(format!(
                        "if ({p}_wreq_valid && {p}_wreq_ready) {p}_wr_sent <= 1'b1;"
                    ));
                    w.line(format!("if ({p}_wresp_valid) {p}_wr_done <= 1'b1;"));
                });
            });
            w.assign(
                &format!("{p}_wreq_valid"),
                &format!("counters_quiet && !{p}_wr_sent"),
            );
            w.assign(&format!("{p}_wreq_addr"), &arg);
            w.assign(&format!("{p}_wreq_data"), &v);
            w.assign(&format!("{p}_wresp_ready"), "1'b1");
        }
    }

    /// The requests of counter `c` in each pipeline that has some (`<c>_reqs`, `<c>_l1_reqs`
    /// ...), and the `else ...` branch that moves the register by those that fire: with one
    /// pipeline, its stall is the register's enable.
    fn counter_step(&self, w: &mut VWriter, c: &CounterPlan) -> String {
        let (p, v, bits) = (&c.prefix, c.register(), c.count_bits);
        let op = if c.inc { "+" } else { "-" };
        let mut regions: Vec<usize> = c.updates.iter().map(|&o| self.plan.region_of(o)).collect();
        regions.dedup();
        let mut moved = Vec::new();
        for &r in &regions {
            let pre = &self.plan.regions[r].pre;
            let reqs: Vec<String> = c
                .updates
                .iter()
                .filter(|&&o| self.plan.region_of(o) == r)
                .map(|&o| self.request(o))
                .collect();
            let name = format!("{p}_{pre}reqs");
            w.wire(&name, bits, &count(&reqs, bits));
            moved.push((format!("{pre}stall"), name));
        }
        if let [(stall, reqs)] = &moved[..] {
            return format!(
                "else if (!{stall}) {v} <= {v} {op} {}",
                widen(reqs, bits, c.bits)
            );
        }
        let fired: Vec<String> = moved
            .iter()
            .map(|(stall, reqs)| format!("({stall} ? {bits}'d0 : {reqs})"))
            .collect();
        let name = format!("{p}_fired");
        w.wire(&name, bits, &fired.join(" + "));
        format!("else {v} <= {v} {op} {}", widen(&name, bits, c.bits))
    }

    /// `finish` of a kernel with counters: once the kernel is otherwise done (`fin`) and every
    /// counter was loaded, the counters are written back; `finish` waits for their
    /// acknowledgements. `None` without counters.
    pub(super) fn counters_finish(&self, w: &mut VWriter, fin: &str) -> Option<String> {
        if self.plan.counters.is_empty() {
            return None;
        }
        w.assign("counters_quiet", &format!("{fin} && counters_loaded"));
        let done: Vec<String> = self
            .plan
            .counters
            .iter()
            .map(|c| format!("{}_wr_done", c.prefix))
            .collect();
        Some(format!("counters_quiet && {}", done.join(" && ")))
    }
}
