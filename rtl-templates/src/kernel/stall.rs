//! The stall of each pipeline: combinational, or a register predicted a cycle ahead.
//!
//! Every condition that stops a pipeline (a request its port does not take, a response not
//! there yet, ...) is a [`StallTerm`]. The combinational stall is their OR: it reaches every
//! pipeline register's enable through the conditions' logic, which in large kernels is what
//! limits Fmax (issue 17: the critical paths of `cbrt`, `exp2` and `acosh` all ran from a
//! port's flag through the OR into the item queue). A *registered* stall is a flip-flop
//! loaded with the OR of the terms' `next` forms: each says, from this cycle's signals, that
//! its condition may hold in the next cycle, computed from the next state of the registers it
//! reads (the valid bit a stage will hold is `stall ? v_cN : v_c(N-1)`, a buffer's flag its
//! next value). Nothing of the datapath sits in front of the stall's fan-out then.
//!
//! A `next` form may say "stall" when the condition turns out false (the pipeline then waits
//! a cycle, as under any stall: requests taken meanwhile are remembered by `_issued`), never
//! the reverse. Simulation checks it every cycle: the combinational OR is still computed
//! under `ifndef SYNTHESIS` and a cycle in which it holds while the register does not stops
//! the model with `$fatal`, so every kernel test in Verilator (random memory back-pressure
//! included) checks the prediction.
//!
//! A pipeline gets the registered stall when every condition it can have has a `next` form
//! ([`registered_stall_ok`]): loads through a port of its own (a direct port gets a one-entry
//! skid register, `<p>_rk_*`, so that its external `ready` is never needed a cycle ahead;
//! a bursting port's combining unit announces `in_ready_next`), response buffers (their
//! occupancy is counted beside them for the next `empty`), stores into a write-combining unit,
//! on-chip memories and arithmetic. Pipes, loops started from the pipeline, atomics, copies,
//! barriers and accesses ordered after writes keep the combinational stall for now.

use super::plan::Plan;
use super::Emitter;
use crate::writer::{any_of, VWriter};
use hls_ir::{Dep, OpKind};

/// One condition of a pipeline's stall (see the module documentation).
pub(super) struct StallTerm {
    /// The condition in this cycle.
    pub now: String,
    /// True in every cycle before one in which `now` holds (computed from this cycle's
    /// signals); `None` when the condition cannot be predicted.
    pub next: Option<String>,
}

impl StallTerm {
    pub fn new(now: String, next: Option<String>) -> Self {
        StallTerm { now, next }
    }

    /// A condition with no prediction: its pipeline keeps the combinational stall.
    pub fn now(now: String) -> Self {
        StallTerm { now, next: None }
    }
}

/// Region `r`'s stall can be a register: every op of it stalls only in ways that have a
/// `next` form (see the module documentation).
pub(super) fn registered_stall_ok(p: &Plan, r: usize) -> bool {
    p.ops(r).into_iter().all(|o| {
        // Ordered after a global write or atomic: it waits for acknowledgements
        // (`writes_acknowledged`), a condition with no prediction yet.
        let ordered = p.k.preds(o).into_iter().any(|(s, d)| {
            matches!(d, Dep::Order { .. })
                && matches!(p.k.op(s).kind, OpKind::Store { .. } | OpKind::Atomic { .. })
                && p.k
                    .op(s)
                    .kind
                    .memory()
                    .is_some_and(|m| p.mems.mems[&m].onchip.is_none())
        });
        match p.k.op(o).kind {
            OpKind::Load { mem } => {
                let m = &p.mems.mems[&mem];
                m.onchip.is_some() || (!m.multi_read && !ordered && p.load_latency(o) >= 1)
            }
            OpKind::Store { mem, .. } => {
                let m = &p.mems.mems[&mem];
                m.onchip.is_some() || (!m.multi_write && m.burst_write && !ordered)
            }
            OpKind::Atomic { .. } => false,
            ref k => !super::plan::waits_on_other_units(k),
        }
    })
}

impl Emitter<'_> {
    /// The region being emitted has a registered stall.
    pub(super) fn stall_registered(&self) -> bool {
        self.plan.regions[self.cur].registered_stall
    }

    /// Stage `c` will hold a work-item in the next cycle (the one it holds now if the
    /// pipeline stalls, else the previous stage's). For stage 0, whose valid bit is the issue
    /// logic, "maybe": `1'b1`.
    pub(super) fn next_valid(&self, c: u32) -> String {
        if c == 0 {
            "1'b1".to_string()
        } else {
            format!(
                "({} ? {} : {})",
                self.stall(),
                self.valid(c),
                self.valid(c - 1)
            )
        }
    }

    /// Assigns the stall of the region being emitted from its terms. A region planned with a
    /// registered stall whose terms do not all predict (not expected: `registered_stall_ok`
    /// admits only conditions that do) falls back to the combinational stall, and the
    /// predictions written for it go to the unused sink.
    pub(super) fn emit_stall(&mut self, w: &mut VWriter, terms: &[StallTerm]) {
        let st = self.stall();
        let nows: Vec<String> = terms.iter().map(|t| t.now.clone()).collect();
        let nexts: Option<Vec<String>> = terms.iter().map(|t| t.next.clone()).collect();
        let any = |v: &[String]| {
            if v.is_empty() {
                "1'b0".to_string()
            } else {
                any_of(v, "\n        ")
            }
        };
        match nexts {
            Some(nexts) if self.stall_registered() => {
                let (q, now) = (self.sig("stall_q"), self.sig("stall_now"));
                w.comment(
                    "Registered stall: loaded with what the conditions will be (their next state).",
                );
                w.reg(&q, 1);
                w.assign(&st, &q);
                w.always_ff(|w| {
                    w.line(format!("if (rst) {q} <= 1'b0;"));
                    w.line(format!("else {q} <= {};", any(&nexts)));
                });
                w.line("`ifndef SYNTHESIS");
                w.wire(&now, 1, &any(&nows));
                w.always_ff(|w| {
                    w.line(format!(
                        "if (!rst && {now} && !{q}) $fatal(1, \"{st}: a stall condition held that the registered stall did not predict\");"
                    ));
                });
                w.line("`endif");
            }
            _ => {
                if self.stall_registered() {
                    for t in terms {
                        if let Some(n) = &t.next {
                            self.unused.push(n.clone());
                        }
                    }
                }
                w.assign(&st, &any(&nows));
            }
        }
    }
}
