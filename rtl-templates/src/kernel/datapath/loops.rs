//! Loop values of the datapath: the `Loop` op that starts a loop region (its request, and the
//! wait for the loop's results in the next stage), the results a parent takes from a finished
//! loop, and loop-carried values (a register of their own, or a select by the first-iteration
//! flag that travels with each iteration). The loop's controller is `control`'s.

use super::{Emitter, Handshakes, OpCtx};
use crate::kernel::stall::StallTerm;
use crate::writer::{any_of, VWriter};

impl Emitter<'_> {
    /// The `Loop` op starting region `l`: requests the start when the loop is idle; the
    /// work-item waits in the next stage until the loop has finished, then takes the results
    /// at once (`take`, kept in `hold_*` while this pipeline is stalled for another reason),
    /// so the loop can start for the next work-item.
    pub(super) fn emit_loop_start(
        &mut self,
        w: &mut VWriter,
        cx: &OpCtx,
        l: usize,
        hs: &mut Handshakes,
    ) {
        let c = cx.c;
        let lp = self.plan.regions[l].pre.clone();
        let idle = format!("{lp}idle");
        // An overlapped loop accepts the start a cycle early too (`overlap.rs`): the stall
        // stays `!idle`, so the parent may wait a cycle with its request already accepted.
        let accept = if self.plan.regions[l].overlap {
            format!("{lp}accept")
        } else {
            idle.clone()
        };
        let req = self.emit_request(w, &cx.name, c, "1'b1", &accept);
        w.assign(&format!("{lp}start"), &format!("{req} && {accept}"));
        w.assign(&format!("{lp}enter"), &self.arg(cx, 0));
        self.control[self.cur]
            .stall_terms
            .push(StallTerm::now(format!("({req} && !{idle})")));
        if self.detached(l) {
            // An async copy beside the code after it: nothing waits here (a `WaitEvents` op
            // waits for it) and there are no results to take.
            w.assign(&format!("{lp}take"), "1'b0");
            self.unused.push(format!("{lp}taken"));
            return;
        }
        let here = self.valid(c + 1);
        hs.waits
            .entry(c + 1)
            .or_default()
            .push(StallTerm::now(format!(
                "({here} && !{lp}pend && !{lp}taken)"
            )));
        w.assign(
            &format!("{lp}take"),
            &format!("{here} && {lp}pend && !{lp}taken"),
        );
    }

    /// `wait_group_events`: the work-item waits in this stage while a copy its events may
    /// name runs (`hls_ir::analysis::events`); with no copy to wait for, nothing.
    pub(super) fn emit_wait_events(&mut self, cx: &OpCtx, hs: &mut Handshakes) {
        let ops = self.k.operands(cx.o);
        let (events, pred) = ops.split_at(ops.len() - 1);
        let mut sites: std::collections::BTreeSet<usize> = Default::default();
        for &e in events {
            match hls_ir::analysis::events::copy_sites(self.k, e) {
                Some(s) => sites.extend(s),
                None => sites.extend((1..self.plan.regions.len()).filter(|&r| {
                    matches!(
                        self.k.loops[hls_ir::LoopId::from_index(r)].kind,
                        hls_ir::LoopKind::Copy { .. }
                    )
                })),
            }
        }
        let busy: Vec<String> = sites
            .iter()
            .filter(|&&r| r < self.plan.regions.len())
            .map(|&r| format!("{}busy", self.plan.regions[r].pre))
            .collect();
        let c = cx.c;
        let p = self.val(pred[0], c);
        let here = self.valid(c);
        let term = if busy.is_empty() {
            // Nothing to wait for; the term keeps the stage's wait wire defined.
            format!("({here} && {p} && 1'b0)")
        } else {
            format!("({here} && {p} && ({}))", any_of(&busy, " "))
        };
        hs.waits.entry(c).or_default().push(StallTerm::now(term));
        for &e in events {
            let v = self.val(e, c);
            self.unused.push(v);
        }
    }

    /// A value leaving a loop: the loop's result register, or its copy while this pipeline
    /// was stalled after taking it.
    pub(super) fn loop_result(&self, cx: &OpCtx) -> String {
        let r = self.plan.result_loop(cx.o);
        let lp = &self.plan.regions[r].pre;
        let name = &cx.name;
        format!("{lp}taken ? {lp}hold_{name} : {}", self.result_reg(r, name))
    }

    /// A loop-carried value (operands: initial value, next value).
    pub(super) fn carried(&mut self, w: &mut VWriter, cx: &OpCtx) -> String {
        let (name, bits, c) = (&cx.name, cx.bits, cx.c);
        let ii = self.plan.regions[self.cur].ls.slot_ii.max(1);
        let first = if c == 0 {
            self.sig("first")
        } else {
            self.sig(&format!("first_c{c}"))
        };
        if self.plan.regions[self.cur].serial.is_some() {
            // One iteration at a time: the previous one has left the pipeline, so its next
            // value is kept in a register.
            let hold = format!("{name}_hold");
            let next = cx.args[1];
            // (A constant next value has no stage: it is there in every cycle.)
            let at = if self.plan.region_of(next) == self.cur {
                self.plan.avail.get(&next).copied().unwrap_or(c)
            } else {
                c
            };
            w.reg(&hold, bits);
            let (v, nv, st) = (self.valid(at), self.val(next, at), self.stall());
            w.always_ff(|w| {
                w.line(format!("if ({v} && !{st}) {hold} <= {nv};"));
            });
            format!("{first} ? {} : {hold}", self.arg(cx, 0))
        } else if self.plan.carried_holds(cx.o) {
            // The register holds the value for the iteration in stage `c`: the initial value
            // from the start, then each iteration's next value as it leaves the stage that
            // computes it (no first-iteration select in front of it).
            let r = self.cur;
            let parent = self.plan.regions[r]
                .parent
                .expect("a source loop has a parent");
            let (_, s) = self.plan.loop_start(r);
            let init = self.val_at(parent, cx.args[0], s);
            let at = self.plan.avail[&cx.args[1]];
            // An overlapped loop's next entry starts once this one has issued its last
            // iteration: a value read and written only in the issue stage (a counter, the stop
            // `exit-ahead` carries) is done with by then, so the entries share one register
            // (the start's initial value wins over the last iteration's write) and no entry
            // bit selects it in front of the counter's logic.
            if self.plan.regions[r].overlap && (c, at) != (0, 0) {
                return self.overlap_carried_hold(w, name, bits, c, init, cx.args[1]);
            }
            let hold = format!("{name}_hold");
            w.reg(&hold, bits);
            let (start, v, nv, st) = (
                self.sig("start"),
                self.valid(at),
                self.val(cx.args[1], at),
                self.stall(),
            );
            w.always_ff(|w| {
                w.line(format!("if ({start}) {hold} <= {init};"));
                w.line(format!("else if ({v} && !{st}) {hold} <= {nv};"));
            });
            hold
        } else {
            format!(
                "{first} ? {} : {}",
                self.arg(cx, 0),
                self.val(cx.args[1], c + ii)
            )
        }
    }
}
