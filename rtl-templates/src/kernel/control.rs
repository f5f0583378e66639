//! Pipeline control of a kernel module: launch control and the work-item generator; per loop
//! region its valid bits (`v_cN`), modulo phase counter, waits (`wait_cN`) and stall; the
//! controller of each loop written in the kernel (start, issue, drain, hand the results to the
//! parent); the request handshake every memory op and loop start uses; and `finish`.
//!
//! One `stall` per pipeline freezes every stage register of it, so a work-item (iteration) is
//! never lost or duplicated; its terms are collected in [`RegionControl::stall_terms`] while
//! the datapath and the ports are written, and assigned last (`stall.rs`).

use super::interface::ArgReg;
use super::plan::DimUse;
use super::stall::StallTerm;
use super::Emitter;
use crate::writer::{any_of, literal, VWriter};
use askama::Template;
use hls_ir::{LoopKind, OpId, OpKind};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Template)]
#[template(path = "workitems.v", escape = "none")]
struct WorkItemsTemplate {
    dims: Vec<DimUse>,
    /// Some dimension's `get_num_groups` is read: the generator waits for the dividers.
    ngrp: bool,
    /// Some dimension is walked in groups: the first cycle after a launch registers the first
    /// group's values (`gen_prep`).
    grouped: bool,
    /// Work-group mode (one pipeline entry per group): the generator keeps `gen_leader`, the
    /// current work-item is its group's first.
    leader: bool,
    /// The per-work-item registers the datapath reads (`gid_0`, `lid_1` ...), each with a
    /// head and a spare copy in the item queue (`item_gid_0`, `item_s_gid_0`).
    queued: Vec<String>,
    /// Cycles from the dividers' start to their quotients (`hwcontract::div`).
    ngrp_cycles: u32,
}

/// Cycles from the start of the iterative divider that computes `get_num_groups` (32 bits,
/// one quotient bit a cycle) to its quotient: 1 + 32 (`oclhls_int_div_iter`). The generator
/// waits that long after a launch before its first work-item, in kernels that read it.
pub(super) const NUM_GROUPS_DIV_CYCLES: u32 = 33;

/// The control state of one loop region while it is emitted.
#[derive(Default)]
pub(super) struct RegionControl {
    /// Stages in which some load pops its response or the pipeline waits for a loop it
    /// started (see `wait_cN`).
    pub wait_stages: BTreeSet<u32>,
    /// Conditions that stall this pipeline (OR-ed into its `stall`, see `stall.rs`).
    pub stall_terms: Vec<StallTerm>,
}

impl Emitter<'_> {
    /// The name of a per-region control signal (`stall`, `v_c3`, `wait_c2`, `phase` ...).
    pub(super) fn sig(&self, name: &str) -> String {
        format!("{}{name}", self.plan.regions[self.cur].pre)
    }

    pub(super) fn stall(&self) -> String {
        self.sig("stall")
    }

    pub(super) fn valid(&self, c: u32) -> String {
        self.sig(&format!("v_c{c}"))
    }

    /// ` && !wait_cN` when stage `c` can wait for a load response, else nothing.
    fn not_waiting(&self, c: u32) -> String {
        if self.control[self.cur].wait_stages.contains(&c) {
            format!(" && !{}", self.sig(&format!("wait_c{c}")))
        } else {
            String::new()
        }
    }

    /// Launch control (`start` accepted when idle, arguments latched then) and the work-item
    /// generator.
    pub(super) fn emit_launch(&self, w: &mut VWriter, arg_regs: &[ArgReg]) {
        w.comment(
            "---- Launch control: `start` is accepted when idle; arguments are latched then.",
        );
        w.line("reg running;");
        w.line("reg done_r;");
        w.wire("launch", 1, "start && !running && !rst");
        w.line("wire finish;");
        w.assign("busy", "running");
        w.assign("done", "done_r");
        w.always_ff(|w| {
            w.block("if (rst)", |w| {
                w.line("running <= 1'b0;");
                w.line("done_r <= 1'b0;");
            });
            w.block("else", |w| {
                w.line("done_r <= finish;");
                w.line("if (launch) running <= 1'b1;");
                w.line("else if (finish) running <= 1'b0;");
            });
        });
        for a in arg_regs {
            w.reg(&a.reg, a.bits);
        }
        let wd = self.plan.work_items.work_dim;
        if wd {
            w.reg("work_dim_r", 32);
        }
        if !arg_regs.is_empty() || wd {
            w.always_ff(|w| {
                w.block("if (launch)", |w| {
                    for a in arg_regs {
                        w.line(format!("{} <= {};", a.reg, a.port));
                    }
                    if wd {
                        w.line("work_dim_r <= work_dim;");
                    }
                });
            });
        }
        w.line("");
        let dims = self.plan.work_items.dims.to_vec();
        let wi = WorkItemsTemplate {
            ngrp: dims.iter().any(|d| d.ngrp),
            grouped: dims.iter().any(|d| d.grouped),
            leader: self.k.work_groups.is_some(),
            queued: self.queued_items(),
            ngrp_cycles: NUM_GROUPS_DIV_CYCLES,
            dims,
        }
        .render()
        .expect("the work-item template renders");
        w.raw(&wi);
        w.line("");
    }

    /// The generator's per-work-item registers the datapath reads (each once, in order).
    fn queued_items(&self) -> Vec<String> {
        let regs: BTreeSet<String> = self
            .k
            .op_ids()
            .into_iter()
            .filter(|&o| self.k.has_uses(o))
            .filter_map(|o| match self.k.op(o).kind {
                OpKind::WorkItem(f, d) if !f.is_launch_invariant() => {
                    Some(super::plan::item_register(f, d))
                }
                _ => None,
            })
            .collect();
        regs.into_iter().collect()
    }

    /// The handshake signals between each loop and the pipeline that starts it (declared
    /// before any pipeline, as both sides use them).
    pub(super) fn declare_loop_handshakes(&mut self, w: &mut VWriter) {
        let n_regions = self.plan.regions.len();
        if n_regions > 1 {
            w.comment(
                "---- Handshakes between each pipelined loop and the pipeline that starts it.",
            );
        }
        for r in 1..n_regions {
            self.cur = r;
            if self.plan.regions[r].overlap {
                self.declare_overlap_handshakes(w);
                continue;
            }
            for n in ["busy", "run", "pend", "first", "taken"] {
                w.reg(&self.sig(n), 1);
            }
            for n in ["start", "enter", "take"] {
                w.line(format!("wire {};", self.sig(n)));
            }
            // The loop can start again in the cycle its parent takes the last entry's
            // results: the parent reads them this cycle (and keeps them in `hold_*` if it
            // stays), and the start writes the result registers only at the clock edge.
            w.wire(
                &self.sig("idle"),
                1,
                &format!(
                    "!{} && (!{} || {})",
                    self.sig("busy"),
                    self.sig("pend"),
                    self.sig("take")
                ),
            );
            for (res, _) in self.plan.loop_results(r) {
                let bits = self.plan.bits(res);
                let name = &self.plan.names[&res];
                w.reg(&self.sig(&format!("res_{name}")), bits);
                w.reg(&self.sig(&format!("hold_{name}")), bits);
            }
        }
    }

    /// The condition under which the region being emitted takes a new work-item (iteration),
    /// and the event that restarts its phase counter.
    fn issue_condition(&self, stages: u32) -> (String, String) {
        let r = self.cur;
        let gate = self.counters_gate();
        let (issue, restart) = if r == 0 {
            // The head of the generator's item queue (a group's leader in work-group mode).
            (format!("item_valid{gate}"), "launch".to_string())
        } else {
            (self.sig("run"), self.sig("start"))
        };
        // A serial pipeline takes a new iteration only when it is empty (see `serial`).
        let issue = if self.plan.regions[r].serial.is_some() && stages > 1 {
            let busy: Vec<String> = (1..stages).map(|c| self.valid(c)).collect();
            format!("{issue} && !({})", any_of(&busy, " "))
        } else {
            issue
        };
        (issue, restart)
    }

    /// The control of the region being emitted: its stall wire, issue (phase counter when
    /// II > 1), valid bits, and for a loop its controller.
    pub(super) fn emit_pipeline_control(&mut self, w: &mut VWriter, stages: u32) {
        let r = self.cur;
        let ii = self.plan.regions[r].ls.slot_ii.max(1);
        let st = self.stall();
        if r == 0 {
            w.comment("---- Pipeline control: one stage per schedule cycle, one global stall.");
        } else {
            let l = &self.k.loops[hls_ir::LoopId::from_index(r)];
            w.line("");
            w.comment(format!(
                "---- Loop {} (`{}`): II = {ii}, {stages} stages; started by the parent pipeline, which waits for it.",
                self.plan.regions[r].pre.trim_end_matches('_'),
                l.name
            ));
        }
        w.line(format!("wire {st};"));
        let (issue, restart) = self.issue_condition(stages);
        if ii > 1 {
            let pw = 32 - (ii - 1).leading_zeros();
            let phase = self.sig("phase");
            w.reg(&phase, pw);
            w.always_ff(|w| {
                w.line(format!(
                    "if (rst || {restart}) {phase} <= {};",
                    literal(0, pw)
                ));
                w.line(format!(
                    "else if (!{st}) {phase} <= ({phase} == {}) ? {} : {phase} + {};",
                    literal((ii - 1) as u64, pw),
                    literal(0, pw),
                    literal(1, pw)
                ));
            });
            w.wire(
                &self.valid(0),
                1,
                &format!("{issue} && ({phase} == {})", literal(0, pw)),
            );
        } else {
            w.wire(&self.valid(0), 1, &issue);
        }
        if r == 0 {
            // The pipeline takes the head of the item queue (in work-group mode a group's
            // leader: the generator walks past the others).
            w.assign("item_pop", &format!("{} && !{st}", self.valid(0)));
        }
        for c in 1..stages {
            w.reg(&self.valid(c), 1);
        }
        if stages > 1 {
            let v: Vec<String> = (0..stages).map(|c| self.valid(c)).collect();
            w.always_ff(|w| {
                w.block("if (rst)", |w| {
                    for vc in &v[1..] {
                        w.line(format!("{vc} <= 1'b0;"));
                    }
                });
                w.block(&format!("else if (!{st})"), |w| {
                    for c in 1..v.len() {
                        w.line(format!("{} <= {};", v[c], v[c - 1]));
                    }
                });
            });
        }
        if r > 0 {
            self.emit_loop_control(w, stages);
        }
    }

    /// The controller of a loop region: started by its parent (`lN_start`, with the live-ins
    /// and `lN_enter`), it issues an iteration every II cycles until one says stop, waits for
    /// the pipeline to drain, then holds the results (`lN_pend`) until the parent takes them.
    fn emit_loop_control(&mut self, w: &mut VWriter, stages: u32) {
        if self.plan.regions[self.cur].overlap {
            self.emit_entry_flags(w, stages);
            let stop = self.emit_overlap_latches(w);
            self.emit_first_flags(w);
            self.emit_overlap_states(w, stages, &stop);
            return;
        }
        let (stop, holds) = self.emit_loop_latches(w);
        self.emit_first_flags(w);
        self.emit_loop_states(w, stages, &stop, &holds);
    }

    /// Live-ins latched when the loop starts; the results (the init value at start, then the
    /// last iteration's values, captured with `lN_last`); the `lN_stop` wire. Returns `stop`
    /// and the `(hold, result)` register pairs.
    fn emit_loop_latches(&mut self, w: &mut VWriter) -> (String, Vec<(String, String)>) {
        let r = self.cur;
        let p = &self.plan;
        let parent = p.regions[r].parent.expect("a source loop has a parent");
        let (_, s) = p.loop_start(r);
        let st = self.stall();
        // Live-ins, latched from the parent's stage that starts the loop.
        let mut latches = Vec::new();
        for &x in &p.regions[r].live_ins {
            let reg = self.live_in(r, x);
            w.reg(&reg, p.bits(x));
            latches.push((reg, self.val_at(parent, x, s)));
        }
        // Results: the init value at start, then the last iteration's values.
        let capture = p.capture_stage(r);
        let exit = p.exit_of(r).expect("a source loop has an exit");
        let stop_op = self.k.operands(exit)[0];
        let te = p.start(exit);
        let stop = self.sig("stop");
        w.wire(
            &stop,
            1,
            &format!("{} && {} && !{st}", self.valid(te), self.val(stop_op, te)),
        );
        let last = self.sig("last");
        let loop_results = p.loop_results(r);
        if !loop_results.is_empty() {
            w.wire(
                &last,
                1,
                &format!(
                    "{} && {} && !{st}",
                    self.valid(capture),
                    self.val(stop_op, capture)
                ),
            );
        }
        let mut results = Vec::new();
        let mut holds = Vec::new();
        let pre = &p.regions[r].pre;
        for (res, next) in loop_results {
            let reg = format!("{pre}res_{}", p.names[&res]);
            holds.push((format!("{pre}hold_{}", p.names[&res]), reg.clone()));
            let init = self.k.operands(res)[2];
            results.push((reg, self.val_at(parent, init, s), self.val(next, capture)));
        }
        if !latches.is_empty() || !results.is_empty() {
            let start = self.sig("start");
            w.always_ff(|w| {
                w.block(&format!("if ({start})"), |w| {
                    for (reg, v) in &latches {
                        w.line(format!("{reg} <= {v};"));
                    }
                    for (reg, init, _) in &results {
                        w.line(format!("{reg} <= {init};"));
                    }
                });
                if !results.is_empty() {
                    w.block(&format!("else if ({last})"), |w| {
                        for (reg, _, next) in &results {
                            w.line(format!("{reg} <= {next};"));
                        }
                    });
                }
            });
        }
        (stop, holds)
    }

    /// The first-iteration flag travels with each iteration to the carried values that
    /// select their initial value with it (the others keep it in a register).
    fn emit_first_flags(&self, w: &mut VWriter) {
        let max_carried = self
            .plan
            .ops(self.cur)
            .into_iter()
            .filter(|&o| self.plan.carried_mux(o))
            .map(|o| self.plan.start(o))
            .max()
            .unwrap_or(0);
        for c in 1..=max_carried {
            w.reg(&self.sig(&format!("first_c{c}")), 1);
        }
        if max_carried > 0 {
            let names: Vec<String> = (0..=max_carried)
                .map(|c| {
                    if c == 0 {
                        self.sig("first")
                    } else {
                        self.sig(&format!("first_c{c}"))
                    }
                })
                .collect();
            let st = self.stall();
            w.always_ff(|w| {
                w.block(&format!("if (!{st})"), |w| {
                    for c in 1..names.len() {
                        w.line(format!("{} <= {};", names[c], names[c - 1]));
                    }
                });
            });
        }
    }

    /// The loop's states: `busy` from start until drained, `run` while it issues iterations,
    /// `pend` while the results wait for the parent, `first` for the first iteration; the
    /// parent's `take` (`taken` until the parent moves, the results kept in `hold_*`).
    fn emit_loop_states(
        &self,
        w: &mut VWriter,
        stages: u32,
        stop: &str,
        holds: &[(String, String)],
    ) {
        let r = self.cur;
        let parent = self.plan.regions[r]
            .parent
            .expect("a source loop has a parent");
        let sig = |n: &str| self.sig(n);
        let (busy, run, pend, first, start, st) = (
            sig("busy"),
            sig("run"),
            sig("pend"),
            sig("first"),
            sig("start"),
            self.stall(),
        );
        // A source loop is done in the cycle its last iteration leaves the last stage (the
        // results are captured by then). So is a phase whose last stage sends no global write
        // or atomic: the writes of earlier stages are counted by then (`global_quiet_terms`),
        // and on-chip writes are done at the clock edge. Copies, and a phase writing in its
        // last stage, wait until the pipeline is empty.
        let kind = self.k.loops[hls_ir::LoopId::from_index(r)].kind;
        let last_stage_writes = self
            .plan
            .ops(r)
            .into_iter()
            .any(|o| match self.k.op(o).kind {
                OpKind::Store { mem, .. } | OpKind::Atomic { mem, .. } => {
                    self.plan.mems.mems[&mem].onchip.is_none() && self.plan.start(o) + 1 >= stages
                }
                _ => false,
            });
        let early_done = self.detached_children(r).is_empty()
            && (kind == LoopKind::Source || (kind == LoopKind::Phase && !last_stage_writes));
        let inflight: Vec<String> = if early_done {
            (1..stages.saturating_sub(1))
                .map(|c| self.valid(c))
                .collect()
        } else {
            (1..stages).map(|c| self.valid(c)).collect()
        };
        let mut drained = if inflight.is_empty() {
            "1'b1".to_string()
        } else {
            format!("!({})", any_of(&inflight, " "))
        };
        if early_done && stages > 1 {
            // The last stage is empty, or its iteration leaves in this cycle.
            drained = format!("{drained} && !({} && {st})", self.valid(stages - 1));
        }
        if matches!(
            self.k.loops[hls_ir::LoopId::from_index(r)].kind,
            LoopKind::Phase | LoopKind::Copy { .. }
        ) {
            // A barrier: every write (and atomic) of the phase is done before the next phase.
            for t in self.plan.global_quiet_terms() {
                drained.push_str(&format!(" && ({t})"));
            }
        }
        // A loop finishes only when the copies it started beside its code have (a copy
        // waited for in the next iteration may still run after the last one).
        for c in self.detached_children(r) {
            drained.push_str(&format!(" && !{}busy", self.plan.regions[c].pre));
        }
        let detached = self.detached(r);
        let (v0, enter, take, taken) = (self.valid(0), sig("enter"), sig("take"), sig("taken"));
        let parent_stall = format!("{}stall", self.plan.regions[parent].pre);
        if !holds.is_empty() {
            w.always_ff(|w| {
                w.block(&format!("if ({take})"), |w| {
                    for (h, r) in holds {
                        w.line(format!("{h} <= {r};"));
                    }
                });
            });
        }
        w.always_ff(|w| {
            w.line(format!("if (rst || !{parent_stall}) {taken} <= 1'b0;"));
            w.line(format!("else if ({take}) {taken} <= 1'b1;"));
        });
        w.always_ff(|w| {
            w.block("if (rst)", |w| {
                for n in [&busy, &run, &pend, &first] {
                    w.line(format!("{n} <= 1'b0;"));
                }
            });
            w.block("else", |w| {
                w.block(&format!("if ({start})"), |w| {
                    w.line(format!("{busy} <= 1'b1;"));
                    w.line(format!("{run} <= {enter};"));
                    w.line(format!("{first} <= 1'b1;"));
                });
                w.block("else", |w| {
                    w.line(format!("if ({v0} && !{st}) {first} <= 1'b0;"));
                    w.line(format!("if ({stop}) {run} <= 1'b0;"));
                    w.block(&format!("if ({busy} && !{run} && {drained})"), |w| {
                        w.line(format!("{busy} <= 1'b0;"));
                        // A detached copy has no results for its parent to take.
                        if !detached {
                            w.line(format!("{pend} <= 1'b1;"));
                        }
                    });
                });
                w.line(format!("if ({take}) {pend} <= 1'b0;"));
            });
        });
    }

    /// Region `r` is an async copy that runs beside the code after it (`LoopKind::Copy`).
    pub(super) fn detached(&self, r: usize) -> bool {
        r > 0
            && matches!(
                self.k.loops[hls_ir::LoopId::from_index(r)].kind,
                LoopKind::Copy { detached: true }
            )
    }

    /// The detached copies region `r` starts.
    fn detached_children(&self, r: usize) -> Vec<usize> {
        (1..self.plan.regions.len())
            .filter(|&c| self.plan.regions[c].parent == Some(r) && self.detached(c))
            .collect()
    }

    /// The stages of the region being emitted that may wait: where a load pops its response
    /// buffer (it may be empty) or where a work-item waits for a loop it started. Declares
    /// their `wait_cN` wires; returns them (each without terms yet, see `Handshakes::waits`).
    pub(super) fn declare_waits(&mut self, w: &mut VWriter) -> BTreeMap<u32, Vec<StallTerm>> {
        let mut waits: BTreeMap<u32, Vec<StallTerm>> = BTreeMap::new();
        for o in self.plan.ops(self.cur) {
            match self.k.op(o).kind {
                OpKind::Load { mem } | OpKind::Atomic { mem, .. }
                    if self.plan.mems.mems[&mem].onchip.is_none()
                        && !self.plan.mems.mems[&mem].dropped.contains(&o) =>
                {
                    waits
                        .entry(self.plan.start(o) + self.plan.load_latency(o))
                        .or_default();
                }
                OpKind::Loop(l) if !self.detached(l.index()) => {
                    waits.entry(self.plan.start(o) + 1).or_default();
                }
                OpKind::WaitEvents => {
                    waits.entry(self.plan.start(o)).or_default();
                }
                _ => {}
            }
        }
        for c in waits.keys() {
            w.line(format!("wire {};", self.sig(&format!("wait_c{c}"))));
        }
        self.control[self.cur].wait_stages = waits.keys().copied().collect();
        waits
    }

    /// Assigns the region's `wait_cN` wires; each stalls the pipeline (predicted when each of
    /// its conditions is).
    pub(super) fn assign_waits(&mut self, w: &mut VWriter, waits: BTreeMap<u32, Vec<StallTerm>>) {
        for (c, terms) in &waits {
            let wc = self.sig(&format!("wait_c{c}"));
            let nows: Vec<String> = terms.iter().map(|t| t.now.clone()).collect();
            w.assign(&wc, &any_of(&nows, " "));
            let next: Option<Vec<String>> = terms.iter().map(|t| t.next.clone()).collect();
            let next = next.map(|n| format!("({})", any_of(&n, " ")));
            self.control[self.cur]
                .stall_terms
                .push(StallTerm::new(wc, next));
        }
    }

    /// The request of a memory op (or loop start) issued in stage `c` under `pred`: valid
    /// while its work-item is there, its data is there (`wait_cN`), and it has not been
    /// accepted during this stall (`<name>_issued`, set when `accepted` and cleared when the
    /// pipeline moves), so a request is sent exactly once per work-item. Returns the request
    /// wire's name.
    pub(super) fn emit_request(
        &self,
        w: &mut VWriter,
        name: &str,
        c: u32,
        pred: &str,
        accepted: &str,
    ) -> String {
        let req = format!("{name}_req");
        let issued = format!("{name}_issued");
        let held = format!("{name}_held");
        let stall = self.stall();
        w.reg(&issued, 1);
        w.reg(&held, 1);
        // Once raised, a request stays until it is accepted (AXI: a valid is never taken
        // back), even when what allowed it changes meanwhile: a read-after-write gate closes
        // when a younger work-item's store is accepted, but this read only waited for the
        // writes before it. The pipeline is stalled while it waits, so its payload holds.
        w.wire(
            &req,
            1,
            &format!(
                "{held} || ({} && {pred} && !{issued}{})",
                self.valid(c),
                self.not_waiting(c)
            ),
        );
        w.always_ff(|w| {
            w.line(format!("if (rst || !{stall}) {issued} <= 1'b0;"));
            w.line(format!("else if ({req} && {accepted}) {issued} <= 1'b1;"));
        });
        w.always_ff(|w| {
            w.line(format!("if (rst) {held} <= 1'b0;"));
            w.line(format!("else {held} <= {req} && !({accepted});"));
        });
        req
    }

    /// `<name>_pend`: stage `c` holds a work-item whose request `name` (see `emit_request`)
    /// has not been accepted yet, whatever its predicate. The stall uses it instead of the
    /// request where a port has no arbiter: the predicate (computed in this cycle) then stays
    /// off the stall, which fans out to every register of the pipeline. The price is a stall
    /// while the port is not ready even for a work-item that would not use it.
    pub(super) fn emit_pending(&self, w: &mut VWriter, name: &str, c: u32) -> String {
        let pend = format!("{name}_pend");
        w.wire(
            &pend,
            1,
            &format!("{}{} && !{name}_issued", self.valid(c), self.not_waiting(c)),
        );
        pend
    }

    /// A loop without a carried value that selects its initial value by the first-iteration
    /// flag never looks at the flag.
    pub(super) fn mark_unused_first_flags(&mut self) {
        for r in 1..self.plan.regions.len() {
            self.cur = r;
            let carried = self
                .plan
                .ops(r)
                .into_iter()
                .any(|o| self.plan.carried_mux(o));
            if !carried {
                let f = self.sig("first");
                self.unused.push(f);
            }
        }
        self.cur = 0;
    }

    /// Every pipeline's stall (any stage that cannot proceed freezes its whole pipeline) and
    /// `finish`: the work-item pipeline is empty and every write acknowledged (`idle_terms`),
    /// then every atomic counter written back.
    pub(super) fn emit_stalls_and_finish(
        &mut self,
        w: &mut VWriter,
        stages: u32,
        idle_terms: &[String],
    ) {
        w.line("");
        w.comment("---- Stall: any stage that cannot proceed freezes its whole pipeline.");
        for r in 0..self.plan.regions.len() {
            self.cur = r;
            let terms = std::mem::take(&mut self.control[r].stall_terms);
            self.emit_stall(w, &terms);
        }
        self.cur = 0;
        let mut busy_terms: Vec<String> = ["gen_init", "gen_active", "item_valid", "item_s_valid"]
            .map(String::from)
            .to_vec();
        for c in 1..stages {
            busy_terms.push(self.valid(c));
        }
        let mut fin = format!("running && !({})", any_of(&busy_terms, " "));
        for t in idle_terms {
            fin.push_str(&format!(" && ({t})"));
        }
        let fin = self.counters_finish(w, &fin).unwrap_or(fin);
        w.assign("finish", &fin);
    }

    /// The register holding live-in `x` of loop region `r` while it runs.
    pub(super) fn live_in(&self, r: usize, x: OpId) -> String {
        format!("{}in_{}", self.plan.regions[r].pre, self.plan.names[&x])
    }
}
