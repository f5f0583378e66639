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
    /// The system top holds the register, shared with other kernels running at the same time
    /// (docs/hardware-interface.md, "Shared atomic counters"); the module then has the
    /// [`shared_ports`] instead of the counter's memory port.
    pub shared: bool,
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
            shared: false,
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

/// The ports through which a kernel uses a counter the system top holds (`<c>_...`):
/// `base` (the register's value plus the counts of kernels served before this one in the
/// cycle), `live` (the register holds the counter), `release` (the kernel may finish),
/// `fired` (updates that take a value this cycle), `busy` (launched and not yet quiet) and
/// `quiet` (nothing of the kernel will update the counter any more; waiting for `release`).
pub fn shared_ports(prefix: &str, bits: u32, count_bits: u32) -> Vec<crate::kernel::Port> {
    use crate::kernel::PortDir::{In, Out};
    [
        ("base", In, bits),
        ("live", In, 1),
        ("release", In, 1),
        ("fired", Out, count_bits),
        ("busy", Out, 1),
        ("quiet", Out, 1),
    ]
    .into_iter()
    .map(|(s, dir, width)| crate::kernel::Port {
        name: format!("{prefix}_{s}"),
        dir,
        width,
    })
    .collect()
}

impl CounterPlan {
    /// The value old values are counted from: the module's register, or the system's base.
    fn value(&self) -> String {
        if self.shared {
            format!("{}_base", self.prefix)
        } else {
            self.register()
        }
    }

    /// The counter holds its value for the kernel: loaded from its buffer, or (shared) the
    /// system top's register was live since the launch.
    fn ready(&self) -> String {
        if self.shared {
            format!("{}_ld", self.prefix)
        } else {
            format!("!{}_rd_wait", self.prefix)
        }
    }

    /// The counter's part of `finish`: written back, or (shared) released by the system.
    fn finished(&self) -> String {
        if self.shared {
            format!("{}_release", self.prefix)
        } else {
            format!("{}_wr_done", self.prefix)
        }
    }

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
            register: if c.shared {
                "(the system top's)".to_string()
            } else {
                c.register()
            },
            increment: c.inc,
            updates: c.updates.len(),
            ports: if c.shared {
                shared_ports(&c.prefix, c.bits, c.count_bits)
                    .into_iter()
                    .map(|q| q.name)
                    .collect()
            } else {
                std::iter::once(format!("arg_{}", c.prefix))
                    .chain(
                        channel_ports(&c.prefix, true, true, c.bits)
                            .into_iter()
                            .map(|q| q.name),
                    )
                    .collect()
            },
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
        let mut ready = Vec::new();
        for c in counters {
            let p = &c.prefix;
            if c.shared {
                w.reg(&format!("{p}_ld"), 1);
            } else {
                w.reg(&c.register(), c.bits);
                for s in ["rd_pend", "rd_wait", "wr_sent", "wr_done"] {
                    w.reg(&format!("{p}_{s}"), 1);
                }
            }
            for &o in &c.updates {
                w.line(format!("wire {};", self.request(o)));
            }
            ready.push(c.ready());
        }
        w.wire("counters_loaded", 1, &ready.join(" && "));
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
        let value = c.value();
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

    /// Every counter's memory port, load, update and write-back (or, shared, its ports to the
    /// system top's register).
    pub(super) fn emit_counters(&mut self, w: &mut VWriter) {
        let counters = std::mem::take(&mut self.plan.counters);
        for c in &counters {
            let name = &self.k.counters[c.id].name;
            w.comment(format!(
                "---- Atomic counter `{name}` (counter{}_t): {}, {} update(s) a cycle at most, counting {}.",
                c.bits,
                if c.shared {
                    "shared with other kernels in the system top's register".to_string()
                } else {
                    format!("register `{}`", c.register())
                },
                c.updates.len(),
                if c.inc { "up" } else { "down" }
            ));
            if c.shared {
                self.emit_shared_counter(w, c);
            } else {
                self.emit_own_counter(w, c);
            }
        }
        self.plan.counters = counters;
    }

    /// Counter `c` in a register of the module, with its memory port.
    fn emit_own_counter(&self, w: &mut VWriter, c: &CounterPlan) {
        let (p, v) = (&c.prefix, c.register());
        let arg = format!("arg_{p}_r");
        w.assign(&format!("{p}_rreq_valid"), &format!("{p}_rd_pend"));
        w.assign(&format!("{p}_rreq_addr"), &arg);
        w.assign(&format!("{p}_rresp_ready"), "1'b1");
        let op = if c.inc { "+" } else { "-" };
        let wide = |x: &str| widen(x, c.count_bits, c.bits);
        let step = match &self.region_requests(w, c)[..] {
            // One pipeline: its stall is the register's enable, off the adders.
            [(stall, reqs)] => format!("else if (!{stall}) {v} <= {v} {op} {}", wide(reqs)),
            moved => {
                let fired = format!("{p}_fired");
                w.wire(&fired, c.count_bits, &Self::fired_sum(moved, c.count_bits));
                format!("else {v} <= {v} {op} {}", wide(&fired))
            }
        };
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

    /// Counter `c` held by the system top: the module tells it how many updates take a value
    /// each cycle, and whether it still needs the counter; `<c>_ld` notes that the register
    /// was live since the launch (work-items enter only then).
    fn emit_shared_counter(&mut self, w: &mut VWriter, c: &CounterPlan) {
        let p = &c.prefix;
        if !c.updates.iter().any(|&o| self.k.has_data_uses(o)) {
            // No update's old value is read: the base only matters to the other kernels.
            self.unused.push(format!("{p}_base"));
        }
        w.always_ff(|w| {
            w.line(format!("if (rst || launch) {p}_ld <= 1'b0;"));
            w.line(format!("else if (running && {p}_live) {p}_ld <= 1'b1;"));
        });
        let fired = Self::fired_sum(&self.region_requests(w, c), c.count_bits);
        w.assign(&format!("{p}_fired"), &fired);
        w.assign(&format!("{p}_busy"), "running && !counters_quiet");
        w.assign(&format!("{p}_quiet"), "counters_quiet");
    }

    /// Per pipeline with updates of counter `c`: its stall, and a wire `<c>_<pre>reqs` with the
    /// count of its requests this cycle (they fire when it does not stall).
    fn region_requests(&self, w: &mut VWriter, c: &CounterPlan) -> Vec<(String, String)> {
        let (p, bits) = (&c.prefix, c.count_bits);
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
        moved
    }

    /// The sum over pipelines `moved` of the requests that fire.
    fn fired_sum(moved: &[(String, String)], bits: u32) -> String {
        moved
            .iter()
            .map(|(stall, reqs)| format!("({stall} ? {bits}'d0 : {reqs})"))
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// `finish` of a kernel with counters: once the kernel is otherwise done (`fin`) and every
    /// counter was loaded, the counters are written back; `finish` waits for their
    /// acknowledgements. `None` without counters.
    pub(super) fn counters_finish(&self, w: &mut VWriter, fin: &str) -> Option<String> {
        if self.plan.counters.is_empty() {
            return None;
        }
        w.assign("counters_quiet", &format!("{fin} && counters_loaded"));
        let done: Vec<String> = self.plan.counters.iter().map(|c| c.finished()).collect();
        Some(format!("counters_quiet && {}", done.join(" && ")))
    }
}
