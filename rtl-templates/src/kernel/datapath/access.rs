//! Loads and stores of the datapath. A global load issues its request at its start cycle and
//! pops its port's response buffer `latency` cycles later (the stage waits while the buffer is
//! empty); a global store issues a request. On-chip, a load is a read enable (the data is the
//! read port's register) and a store a write enable. The ports (`memory`) multiplex the wires
//! left in [`Handshakes`].

use super::{Emitter, Handshakes, LoadWires, OpCtx};
use crate::kernel::memory::onchip_port_names;
use crate::kernel::stall::StallTerm;
use crate::writer::VWriter;
use hls_ir::MemId;

impl Emitter<'_> {
    /// A load from memory `mem`, or an atomic (its request and old value are a load's; an
    /// on-chip atomic also writes, see `memory::emit_onchip_write`); returns its data.
    pub(super) fn emit_load(
        &mut self,
        w: &mut VWriter,
        cx: &OpCtx,
        mem: MemId,
        hs: &mut Handshakes,
    ) -> String {
        let (o, name, c) = (cx.o, &cx.name, cx.c);
        // The predicate is the last operand (`(addr, pred)`, atomics `(addr, value.., pred)`).
        let pred_ix = cx.args.len() - 1;
        let m = &self.plan.mems.mems[&mem];
        if m.onchip.is_some() {
            let re = format!("{name}_re");
            w.wire(
                &re,
                1,
                &format!(
                    "{} && {} && !{}",
                    self.valid(c),
                    self.arg(cx, pred_ix),
                    self.stall()
                ),
            );
            hs.loads.insert(
                o,
                LoadWires {
                    req: re,
                    pop: String::new(),
                },
            );
            if !m.atomics.is_empty() {
                // Corrected by the writes the read missed (`onchip_atomic`).
                return format!("{name}_rd");
            }
            return onchip_port_names(&m.prefix, self.plan.mems.onchip_port[&o]).1;
        }
        let p = &m.prefix;
        let f = m.rfifo(self.cur);
        let pred = cx.args[pred_ix];
        let lat = self.plan.load_latency(o);
        // Under a registered stall a direct port takes the request into its skid register
        // (`<p>_rreq_take`, a flip-flop) whatever memory's `ready` is (`read_port.rs`).
        let skid = self.stall_registered() && !m.multi_read && m.burst_read == 0;
        let accepted = if m.multi_read {
            format!("{p}_racc_r{}", self.cur)
        } else if skid {
            format!("{p}_rreq_take")
        } else {
            format!("{}_ready", m.rq())
        };
        // The request term's next form: the stage may hold a work-item and the skid (or the
        // combining unit's input) will be full.
        let refused_next = if skid {
            format!("{p}_rk_next")
        } else {
            format!("!{}_ready_next", m.rq())
        };
        let request_next =
            (!m.multi_read).then(|| format!("({} && {refused_next})", self.next_valid(c)));
        // Read after write: wait until the ports this work-item stored to earlier (through
        // memory the read may alias) have acknowledged every write.
        let pred_now = self.arg(cx, pred_ix);
        let gate = self.writes_acknowledged(o, p, false);
        let mut flush = None;
        let (req, asking) = match &gate {
            None => {
                let req = self.emit_request(w, name, c, &pred_now, &accepted);
                let asking = if m.multi_read {
                    req.clone()
                } else {
                    self.emit_pending(w, name, c)
                };
                (req, asking)
            }
            Some(g) => {
                let gated = format!("{pred_now} && {g}");
                let req = self.emit_request(w, name, c, &gated, &accepted);
                // The stage holds while the read waits for the acknowledgements, and then
                // until its request is accepted.
                let waiting = format!("{} && {pred_now} && !{name}_issued", self.valid(c));
                flush = Some(waiting.clone());
                self.control[self.cur]
                    .stall_terms
                    .push(StallTerm::now(format!("({waiting} && !{g})")));
                (req.clone(), req)
            }
        };
        // The stage holds until memory accepts the request.
        self.control[self.cur].stall_terms.push(StallTerm::new(
            format!("({asking} && !{accepted})"),
            request_next,
        ));
        let (own, dropped) = (p.clone(), m.dropped.contains(&o));
        if let Some(waiting) = flush {
            self.flush_while(o, &own, false, &waiting);
        }
        if dropped {
            // Nothing reads the old value: the port drops the response, no stage waits for it.
            hs.loads.insert(
                o,
                LoadWires {
                    req,
                    pop: String::new(),
                },
            );
            return crate::writer::literal(0, self.plan.bits(o));
        }
        let pop = format!("{name}_pop");
        w.wire(
            &pop,
            1,
            &format!("{} && {}", self.valid(c + lat), self.val(pred, c + lat)),
        );
        // Next cycle's pop: this one's if the pipeline stalls, else the previous stage's.
        let pop_next = format!(
            "({} ? {pop} : ({} && {}))",
            self.stall(),
            self.valid(c + lat - 1),
            self.val(pred, c + lat - 1)
        );
        let next = self
            .stall_registered()
            .then(|| format!("({pop_next} && {f}_next_empty)"));
        hs.waits
            .entry(c + lat)
            .or_default()
            .push(StallTerm::new(format!("({pop} && {f}_empty)"), next));
        hs.loads.insert(o, LoadWires { req, pop });
        format!("{f}_data")
    }

    /// For a global access `o` ordered after stores or dropped atomics on global memory
    /// (`Dep::Order`, see `hls_ir::lower::memory`): the condition that every write of those
    /// ports has been acknowledged and every dropped atomic answered.
    /// A store passes its own port's writes (`own`, a store's): one port keeps its writes in
    /// order; any access passes its own port's atomics (one port executes its reads and
    /// atomics in order).
    fn writes_acknowledged(&self, o: hls_ir::OpId, own: &str, store: bool) -> Option<String> {
        let terms = self.ack_terms(o, own, store);
        (!terms.is_empty()).then(|| format!("({})", terms.join(" && ")))
    }

    /// The ports `writes_acknowledged` waits on: while `waiting`, their write-combining units
    /// send what they hold at once (`oclhls_wburst`'s flush).
    fn flush_while(&mut self, o: hls_ir::OpId, own: &str, store: bool, waiting: &str) {
        for t in self.ack_terms(o, own, store) {
            if let Some(p) = t.strip_suffix("_wcnt == 16'd0") {
                self.wflush
                    .entry(p.to_string())
                    .or_default()
                    .push(format!("({waiting})"));
            }
        }
    }

    /// The `_wcnt == 0` and `_dcnt == 0` terms of `writes_acknowledged`.
    fn ack_terms(&self, o: hls_ir::OpId, own: &str, store: bool) -> Vec<String> {
        let mut terms: Vec<String> = self
            .k
            .preds(o)
            .into_iter()
            .filter(|(_, d)| matches!(d, hls_ir::Dep::Order { .. }))
            .filter_map(|(s, _)| {
                let mem = self.k.op(s).kind.memory()?;
                let m = self
                    .plan
                    .mems
                    .mems
                    .get(&mem)
                    .filter(|m| m.onchip.is_none())?;
                let p = &m.prefix;
                match self.k.op(s).kind {
                    hls_ir::OpKind::Store { .. } if !(store && p == own) => {
                        Some(format!("{p}_wcnt == 16'd0"))
                    }
                    hls_ir::OpKind::Atomic { .. } if m.dropped.contains(&s) && p != own => {
                        Some(format!("{p}_dcnt == 16'd0"))
                    }
                    _ => None,
                }
            })
            .collect();
        terms.sort();
        terms.dedup();
        terms
    }

    /// A store to memory `mem`: its request (on-chip: write enable).
    pub(super) fn emit_store(
        &mut self,
        w: &mut VWriter,
        cx: &OpCtx,
        mem: MemId,
        hs: &mut Handshakes,
    ) {
        let (o, name, c) = (cx.o, &cx.name, cx.c);
        let m = &self.plan.mems.mems[&mem];
        if m.onchip.is_some() {
            let we = format!("{name}_we");
            w.wire(
                &we,
                1,
                &format!(
                    "{} && {} && !{}",
                    self.valid(c),
                    self.arg(cx, 2),
                    self.stall()
                ),
            );
            hs.stores.insert(o, we);
            return;
        }
        let p = &m.prefix;
        let accepted = if m.multi_write {
            format!("{p}_wacc_r{}", self.cur)
        } else {
            let q = m.wq();
            format!("{q}_valid && {q}_ready")
        };
        // After a fence: wait until the other ports' earlier writes are acknowledged.
        let pred_now = self.arg(cx, 2);
        let gate = self.writes_acknowledged(o, p, true);
        let pred = match &gate {
            Some(g) => format!("{pred_now} && {g}"),
            None => pred_now.clone(),
        };
        let req = self.emit_request(w, name, c, &pred, &accepted);
        let (own, multi_write) = (p.clone(), m.multi_write);
        if let Some(g) = &gate {
            let waiting = format!("{} && {pred_now} && !{name}_issued", self.valid(c));
            self.flush_while(o, &own, true, &waiting);
            self.control[self.cur]
                .stall_terms
                .push(StallTerm::now(format!("({waiting} && !{g})")));
        }
        if !multi_write {
            let pend = self.emit_pending(w, name, c);
            hs.store_pend.insert(o, pend);
        }
        hs.stores.insert(o, req);
    }
}
