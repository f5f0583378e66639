//! Overlapped loop entries: a loop started by the work-item pipeline of an NDRange kernel
//! takes its next entry (the next work-item's) as soon as the previous entry has issued its
//! last iteration, while that entry's iterations still drain. Without it every work-item pays
//! the loop pipeline's depth on top of its trip count.
//!
//! Each iteration carries an entry bit (`lN_ent` at issue, `lN_e_cN` in stage N) naming one of
//! two copies of everything that belongs to an entry rather than to an iteration:
//! - the live-ins (`lN_in0_x`, `lN_in1_x`, read through `lN_in_x_cN`, which selects by the
//!   entry bit of the stage that reads);
//! - the results (`lN_res0_x`, `lN_res1_x`), captured from the entry's last iteration;
//! - carried values kept in a register of their own (`x_hold0`, `x_hold1`);
//! - the controller's `busy` and `pend` (`lN_busy0`, `lN_pend0` ...).
//!
//! The loop starts an entry into copy `lN_sp` (toggled at every start); the parent, which
//! takes results in its own order, reads copy `lN_tp` (toggled at every take). Both orders are
//! the work-items' order, so the copies match. The next entry needs only a free copy: not
//! draining, and its results taken (or being taken in this cycle).
//!
//! Which loops (`Plan::overlappable`): the work-item pipeline's direct children in NDRange
//! kernels (OpenCL orders nothing between work-items without barriers or atomics, so the next
//! work-item's iterations may run beside this one's), that start no loop themselves, run more
//! than one iteration at a time, and use no on-chip memory, pipe or counter, whose state is
//! not per entry.

use super::plan::Plan;
use super::Emitter;
use crate::writer::VWriter;
use hls_ir::{LoopId, LoopKind, OpId, OpKind};

impl Plan<'_> {
    /// Whether loop region `r` may overlap its entries (see the module docs).
    pub fn overlappable(&self, r: usize) -> bool {
        let l = &self.k.loops[LoopId::from_index(r)];
        let onchip = |mem| self.mems.mems.get(&mem).is_none_or(|m| m.onchip.is_some());
        self.k.work_groups.is_none()
            && l.kind == LoopKind::Source
            && self.regions[r].parent == Some(0)
            && self.regions[r].serial.is_none()
            && !self.regions.iter().any(|c| c.parent == Some(r))
            && self.ops(r).into_iter().all(|o| match self.k.op(o).kind {
                OpKind::Load { mem } | OpKind::Store { mem, .. } | OpKind::Atomic { mem, .. } => {
                    !onchip(mem)
                }
                ref k => !super::plan::waits_on_other_units(k),
            })
    }
}

impl Emitter<'_> {
    /// The entry bit of the iteration in stage `c` of region `r`.
    pub(super) fn entry_at(&self, r: usize, c: u32) -> String {
        let pre = &self.plan.regions[r].pre;
        if c == 0 {
            format!("{pre}ent")
        } else {
            format!("{pre}e_c{c}")
        }
    }

    /// Live-in `x` of overlapped region `r` as read in stage `c`: the copy of the entry there.
    pub(super) fn overlap_live_in(&self, r: usize, x: OpId, c: u32) -> String {
        let reads = self.plan.regions[r].live_in_reads.get(&x);
        if reads.is_some_and(|s| s.contains(&c)) {
            format!(
                "{}in_{}_c{c}",
                self.plan.regions[r].pre, self.plan.names[&x]
            )
        } else {
            let (a, b) = self.live_in_copies(r, x);
            format!("({} ? {b} : {a})", self.entry_at(r, c))
        }
    }

    fn live_in_copies(&self, r: usize, x: OpId) -> (String, String) {
        let (pre, name) = (&self.plan.regions[r].pre, &self.plan.names[&x]);
        (format!("{pre}in0_{name}"), format!("{pre}in1_{name}"))
    }

    /// Result `name` of loop region `r` as the parent takes it: the copy of the entry it takes.
    pub(super) fn result_reg(&self, r: usize, name: &str) -> String {
        let pre = &self.plan.regions[r].pre;
        if self.plan.regions[r].overlap {
            format!("({pre}tp ? {pre}res1_{name} : {pre}res0_{name})")
        } else {
            format!("{pre}res_{name}")
        }
    }

    /// The handshake signals of overlapped region `r` (see `declare_loop_handshakes`).
    pub(super) fn declare_overlap_handshakes(&self, w: &mut VWriter) {
        let sig = |n: &str| self.sig(n);
        for n in [
            "run", "first", "taken", "sp", "tp", "ent", "busy0", "busy1", "pend0", "pend1",
        ] {
            w.reg(&sig(n), 1);
        }
        for n in ["start", "enter", "take", "stop"] {
            w.line(format!("wire {};", sig(n)));
        }
        let (tp, take) = (sig("tp"), sig("take"));
        w.wire(
            &sig("pend"),
            1,
            &format!("{tp} ? {} : {}", sig("pend1"), sig("pend0")),
        );
        // A copy is free when its entry has drained and its results are taken, or are being
        // taken in this cycle (the start writes them only at the clock edge).
        for p in 0..2 {
            let mine = if p == 1 { tp.clone() } else { format!("!{tp}") };
            w.wire(
                &sig(&format!("free{p}")),
                1,
                &format!(
                    "!{} && (!{} || ({take} && {mine}))",
                    sig(&format!("busy{p}")),
                    sig(&format!("pend{p}"))
                ),
            );
        }
        // The entry copy the next entry would take is free.
        let free_sp = sig("free_sp");
        w.wire(
            &free_sp,
            1,
            &format!("{} ? {} : {}", sig("sp"), sig("free1"), sig("free0")),
        );
        w.wire(&sig("idle"), 1, &format!("!{} && {free_sp}", sig("run")));
        // The next entry may also start in the cycle of the last issue (`stop`) at II = 1, so
        // that its first iteration follows at once (at II > 1 it must wait for a slot
        // boundary: the issue restarts the phase). `idle` alone, from registers, stays the
        // parent's stall term (`emit_loop_start`): the exit test reaches only this loop's
        // registers and the request's flags, not the parent's stall.
        let accept = if self.plan.regions[self.cur].ls.slot_ii <= 1 {
            format!("{} || ({} && {free_sp})", sig("idle"), sig("stop"))
        } else {
            sig("idle")
        };
        w.wire(&sig("accept"), 1, &accept);
        for (res, _) in self.plan.loop_results(self.cur) {
            let bits = self.plan.bits(res);
            let name = &self.plan.names[&res];
            for n in ["res0", "res1", "hold"] {
                w.reg(&sig(&format!("{n}_{name}")), bits);
            }
        }
    }

    /// The entry bits of the stages (`lN_e_cN`), moving with the valid bits; up to the last
    /// stage and every stage that reads a live-in.
    pub(super) fn emit_entry_flags(&self, w: &mut VWriter, stages: u32) {
        let r = self.cur;
        let reads = self.plan.regions[r]
            .live_in_reads
            .values()
            .flatten()
            .copied()
            .max()
            .unwrap_or(0);
        let last = (stages - 1).max(reads);
        for c in 1..=last {
            w.reg(&self.entry_at(r, c), 1);
        }
        if last > 0 {
            let st = self.stall();
            w.always_ff(|w| {
                w.block(&format!("if (!{st})"), |w| {
                    for c in 1..=last {
                        w.line(format!(
                            "{} <= {};",
                            self.entry_at(r, c),
                            self.entry_at(r, c - 1)
                        ));
                    }
                });
            });
        }
    }

    /// Live-ins (both copies, and the per-stage selects) and results (both copies) of the
    /// overlapped loop being emitted; the `lN_stop` wire, which it returns.
    pub(super) fn emit_overlap_latches(&mut self, w: &mut VWriter) -> String {
        let r = self.cur;
        let p = &self.plan;
        let parent = p.regions[r].parent.expect("a source loop has a parent");
        let (_, s) = p.loop_start(r);
        let st = self.stall();
        let mut latches = Vec::new();
        for &x in &p.regions[r].live_ins {
            let (a, b) = self.live_in_copies(r, x);
            let bits = p.bits(x);
            w.reg(&a, bits);
            w.reg(&b, bits);
            for &c in &p.regions[r].live_in_reads[&x] {
                let sel = format!("{}in_{}_c{c}", p.regions[r].pre, p.names[&x]);
                w.wire(&sel, bits, &format!("{} ? {b} : {a}", self.entry_at(r, c)));
            }
            latches.push(([a, b], self.val_at(parent, x, s)));
        }
        let capture = p.capture_stage(r);
        let exit = p.exit_of(r).expect("a source loop has an exit");
        let stop_op = self.k.operands(exit)[0];
        let te = p.start(exit);
        let stop = self.sig("stop");
        w.assign(
            &stop,
            &format!("{} && {} && !{st}", self.valid(te), self.val(stop_op, te)),
        );
        let last = self.sig("last");
        let pre = &p.regions[r].pre;
        let mut results = Vec::new();
        for (res, next) in p.loop_results(r) {
            let name = &p.names[&res];
            let init = self.k.operands(res)[2];
            results.push((
                [format!("{pre}res0_{name}"), format!("{pre}res1_{name}")],
                self.val_at(parent, init, s),
                self.val(next, capture),
            ));
        }
        if !results.is_empty() {
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
        let (start, sp, e_cap) = (self.sig("start"), self.sig("sp"), self.entry_at(r, capture));
        for copy in 0..2 {
            if latches.is_empty() && results.is_empty() {
                break;
            }
            let (this_sp, this_e) = if copy == 1 {
                (sp.clone(), e_cap.clone())
            } else {
                (format!("!{sp}"), format!("!{e_cap}"))
            };
            w.always_ff(|w| {
                w.block(&format!("if ({start} && {this_sp})"), |w| {
                    for (regs, v) in &latches {
                        w.line(format!("{} <= {v};", regs[copy]));
                    }
                    for (regs, init, _) in &results {
                        w.line(format!("{} <= {init};", regs[copy]));
                    }
                });
                if !results.is_empty() {
                    w.block(&format!("else if ({last} && {this_e})"), |w| {
                        for (regs, _, next) in &results {
                            w.line(format!("{} <= {next};", regs[copy]));
                        }
                    });
                }
            });
        }
        stop
    }

    /// The controller of the overlapped loop being emitted: one entry issues (`run`) while the
    /// other may drain; each copy is busy from its start until its entry has left the
    /// pipeline, then pending until the parent takes its results.
    pub(super) fn emit_overlap_states(&self, w: &mut VWriter, stages: u32, stop: &str) {
        let r = self.cur;
        let parent = self.plan.regions[r]
            .parent
            .expect("a source loop has a parent");
        let sig = |n: &str| self.sig(n);
        let (run, first, start, enter, take, taken) = (
            sig("run"),
            sig("first"),
            sig("start"),
            sig("enter"),
            sig("take"),
            sig("taken"),
        );
        let (sp, tp, ent, st, v0) = (
            sig("sp"),
            sig("tp"),
            sig("ent"),
            self.stall(),
            self.valid(0),
        );
        let parent_stall = format!("{}stall", self.plan.regions[parent].pre);
        // A copy's entry has drained when no stage but the last holds one of its iterations,
        // and the last one is empty or its iteration leaves in this cycle (a source loop's
        // results are captured by then, as in `emit_loop_states`).
        let drained = |p: u32| -> String {
            let is_p = |c: u32| {
                let e = self.entry_at(r, c);
                if p == 1 {
                    e
                } else {
                    format!("!{e}")
                }
            };
            let mut terms: Vec<String> = (1..stages.saturating_sub(1))
                .map(|c| format!("({} && {})", self.valid(c), is_p(c)))
                .collect();
            if stages > 1 {
                terms.push(format!(
                    "({} && {} && {st})",
                    self.valid(stages - 1),
                    is_p(stages - 1)
                ));
            }
            if terms.is_empty() {
                "1'b1".to_string()
            } else {
                format!("!({})", terms.join(" || "))
            }
        };
        let holds: Vec<(String, String)> = self
            .plan
            .loop_results(r)
            .into_iter()
            .map(|(res, _)| {
                let name = &self.plan.names[&res];
                (sig(&format!("hold_{name}")), self.result_reg(r, name))
            })
            .collect();
        if !holds.is_empty() {
            w.always_ff(|w| {
                w.block(&format!("if ({take})"), |w| {
                    for (h, res) in &holds {
                        w.line(format!("{h} <= {res};"));
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
                for n in [
                    "run", "first", "sp", "tp", "ent", "busy0", "busy1", "pend0", "pend1",
                ] {
                    w.line(format!("{} <= 1'b0;", sig(n)));
                }
            });
            w.block("else", |w| {
                w.block(&format!("if ({start})"), |w| {
                    w.line(format!("{run} <= {enter};"));
                    w.line(format!("{first} <= 1'b1;"));
                    w.line(format!("{ent} <= {sp};"));
                    w.line(format!("{sp} <= !{sp};"));
                });
                w.block("else", |w| {
                    w.line(format!("if ({v0} && !{st}) {first} <= 1'b0;"));
                    w.line(format!("if ({stop}) {run} <= 1'b0;"));
                });
                w.line(format!("if ({take}) {tp} <= !{tp};"));
                for p in 0..2u32 {
                    let (busy, pend) = (sig(&format!("busy{p}")), sig(&format!("pend{p}")));
                    let (is_sp, is_ent, is_tp) = if p == 1 {
                        (sp.clone(), ent.clone(), tp.clone())
                    } else {
                        (format!("!{sp}"), format!("!{ent}"), format!("!{tp}"))
                    };
                    w.line(format!("if ({start} && {is_sp}) {busy} <= 1'b1;"));
                    w.block(
                        &format!("else if ({busy} && !({run} && {is_ent}) && {})", drained(p)),
                        |w| {
                            w.line(format!("{busy} <= 1'b0;"));
                            w.line(format!("{pend} <= 1'b1;"));
                        },
                    );
                    w.line(format!("if ({take} && {is_tp}) {pend} <= 1'b0;"));
                }
            });
        });
    }

    /// A carried value of an overlapped loop kept in a register of its own (see
    /// `carried`): one register per entry copy, read by the entry bit of the stage.
    pub(super) fn overlap_carried_hold(
        &self,
        w: &mut VWriter,
        name: &str,
        bits: u32,
        c: u32,
        init: String,
        next: OpId,
    ) -> String {
        let r = self.cur;
        let at = self.plan.avail[&next];
        let (start, sp, v, nv, st) = (
            self.sig("start"),
            self.sig("sp"),
            self.valid(at),
            self.val(next, at),
            self.stall(),
        );
        let e_at = self.entry_at(r, at);
        let hold = |p: u32| format!("{name}_hold{p}");
        for p in 0..2u32 {
            w.reg(&hold(p), bits);
            let (is_sp, is_e) = if p == 1 {
                (sp.clone(), e_at.clone())
            } else {
                (format!("!{sp}"), format!("!{e_at}"))
            };
            w.always_ff(|w| {
                w.line(format!("if ({start} && {is_sp}) {} <= {init};", hold(p)));
                w.line(format!(
                    "else if ({v} && {is_e} && !{st}) {} <= {nv};",
                    hold(p)
                ));
            });
        }
        format!("{} ? {} : {}", self.entry_at(r, c), hold(1), hold(0))
    }
}
