//! The read channel of a global memory port: a response buffer per pipeline that loads
//! through it, the arbiter between pipelines and the tag FIFO that routes responses back (with
//! the drop bit of atomics whose old value nothing reads), the atomic payload of the requests,
//! and the read-combining unit when the port bursts (`bursts`).

use super::datapath::Handshakes;
use super::memory::tag_bits;
use super::Emitter;
use crate::writer::{bit_range, literal, range, select_chain, VWriter};
use hls_ir::{AtomicOp, MemId, OpId, OpKind};
use std::collections::BTreeSet;

/// What routes a port's read responses: tag width, the tag of the request that asks, the
/// conditions under which the head response's buffer is full, the buffers' total depth.
struct Routing {
    /// The kernel's read request channel (`Mem::rq`).
    rq: String,
    tw: u32,
    tag: String,
    full: Vec<String>,
    depth: u32,
}

/// Dropped atomics a port lets be in flight beyond its response buffers' entries (the tag
/// FIFO's extra depth; requests wait when it is full).
const DROP_WINDOW: u32 = 32;

/// The requests of one pipeline for a read port: any of them, and the address of the one
/// that asks.
struct PipelineReads {
    region: usize,
    req: String,
    addr: String,
    /// The atomic payload (`rreq_op`, `rreq_operand`, `rreq_compare`) of the request that
    /// asks, when the port carries atomics.
    atomic: Option<[String; 3]>,
    /// The request that asks is a dropped atomic (its response goes to no buffer).
    drop: Option<String>,
    /// Some load of the pipeline keeps its response (the pipeline has a response buffer).
    kept: bool,
    /// The read run of the request that asks (9 bits, `Kernel::read_runs`), when a load of
    /// the pipeline has one and the port bursts.
    run: Option<String>,
}

impl Emitter<'_> {
    /// The read channel of a global memory port: one response buffer per pipeline that loads
    /// through it; with several pipelines, a fixed-priority arbiter (outer pipeline first) and
    /// a FIFO of tags that sends each response to the pipeline that asked (responses come back
    /// in request order).
    pub(super) fn emit_read_port(&mut self, w: &mut VWriter, id: MemId, hs: &Handshakes) {
        let plan = &self.plan;
        let m = &plan.mems.mems[&id];
        let p = m.prefix.clone();
        let rq = m.rq();
        let beats = m.burst_read;
        let regions: BTreeSet<usize> = m.loads.iter().map(|&l| plan.region_of(l)).collect();
        // The one pipeline reading through the port has a registered stall (`stall.rs`).
        let predicted = !m.multi_read && regions.iter().all(|&r| plan.regions[r].registered_stall);
        if beats > 0 {
            let bytes = m.bits / 8;
            self.emit_read_combining(w, &p, (beats, bytes), predicted);
        } else {
            // A port without bursts has no use for its reads' runs (`Kernel::read_runs`).
            for &l in &m.loads {
                if let Some(&run) = plan.k.read_runs.get(&l) {
                    let v = self.val_at(plan.region_of(l), run, plan.start(l));
                    self.unused.push(v);
                }
            }
        }
        let (per_region, tag_depth) = self.emit_read_buffers(w, id, &regions, hs);
        let m = &self.plan.mems.mems[&id];
        if !m.multi_read {
            let reads = &per_region[0];
            if predicted && beats == 0 {
                emit_request_skid(w, &p, reads);
            } else {
                w.assign(&format!("{rq}_valid"), &reads.req);
                w.assign(&format!("{rq}_addr"), &reads.addr);
            }
            if beats > 0 {
                let run = reads.run.clone().unwrap_or_else(|| "9'd1".into());
                w.assign(&format!("{rq}_run"), &run);
                // One pipeline: nothing to lock while a planned burst expects reads.
                self.unused.push(format!("{p}_planned"));
            }
            if let Some(payload) = &reads.atomic {
                let fields = payload.clone().map(|x| vec![(String::new(), x)]);
                self.assign_atomic_payload(w, id, fields);
            }
            w.assign(
                &format!("{p}_rresp_ready"),
                &format!("!{}_full", m.rfifo(reads.region)),
            );
            return;
        }
        let tw = tag_bits(&regions);
        // With dropped atomics the tag has one more bit, set for a request whose response
        // nobody waits for: such a response is taken at once and goes to no buffer.
        let drops = !m.dropped.is_empty();
        let resp_drop = format!("{p}_resp_drop");
        let route = if drops {
            format!("{p}_tag_route")
        } else {
            format!("{p}_tag_head")
        };
        // The arbiter keeps presenting the pipeline it chose until memory accepts it (the
        // request's payload must not change while it waits: AXI).
        let (locked, lock) = (format!("{p}_rlocked"), format!("{p}_rlock"));
        w.reg(&locked, 1);
        w.reg(&lock, tw);
        // While a planned burst expects reads, only the pipeline that started it (the last
        // one whose read was taken) may ask: the burst's beats are its reads.
        let plans = beats > 0 && per_region.iter().any(|r| r.run.is_some());
        let last = format!("{p}_rlast");
        if plans {
            w.reg(&last, tw);
        } else if beats > 0 {
            self.unused.push(format!("{p}_planned"));
        }
        let mut run = Vec::new();
        let mut earlier: Vec<String> = Vec::new();
        let (mut addr, mut tag, mut region_tag) = (Vec::new(), Vec::new(), Vec::new());
        let mut payload: [Vec<(String, String)>; 3] = Default::default();
        let mut full = Vec::new();
        for reads in &per_region {
            let r = reads.region;
            let req_r = format!("{p}_rreq_r{r}");
            w.wire(&req_r, 1, &reads.req);
            let gnt = format!("{p}_rgnt_r{r}");
            let blocked: String = earlier.iter().map(|e| format!(" && !{e}")).collect();
            let me = literal(r as u64, tw);
            let free = format!("({locked} ? {lock} == {me} : 1'b1{blocked})");
            let turn = if plans {
                format!("({p}_planned ? {last} == {me} : {free})")
            } else {
                free
            };
            w.wire(&gnt, 1, &format!("{req_r} && {turn}"));
            if plans {
                run.push((
                    gnt.clone(),
                    reads.run.clone().unwrap_or_else(|| "9'd1".into()),
                ));
            }
            w.wire(
                &format!("{p}_racc_r{r}"),
                1,
                &format!("{gnt} && {rq}_ready && !{p}_tag_full"),
            );
            earlier.push(req_r);
            addr.push((gnt.clone(), format!("({})", reads.addr)));
            if let Some(fields) = &reads.atomic {
                for (list, f) in payload.iter_mut().zip(fields) {
                    list.push((gnt.clone(), format!("({f})")));
                }
            }
            region_tag.push((gnt.clone(), me.clone()));
            let t = match &reads.drop {
                Some(d) if drops => format!("{{{d}, {me}}}"),
                _ if drops => format!("{{1'b0, {me}}}"),
                _ => me.clone(),
            };
            tag.push((gnt, t));
            if reads.kept {
                full.push(format!("({route} == {me} && {}_full)", m.rfifo(r)));
            }
        }
        let any_kept = per_region.iter().any(|r| r.kept);
        if !any_kept {
            // Every read of the port is a dropped atomic: no response data is read, and
            // responses need no routing (only counting).
            self.unused.push(format!("{p}_rresp_data"));
            w.wire(
                &format!("{p}_tag_full"),
                1,
                &format!("{p}_dcnt == 16'hffff"),
            );
            w.assign(&format!("{p}_rresp_ready"), "1'b1");
        }
        let asks = if plans {
            // A planned burst's pipeline alone (its grant), else any.
            region_tag
                .iter()
                .map(|(g, _)| g.clone())
                .collect::<Vec<_>>()
                .join(" || ")
        } else {
            earlier.join(" || ")
        };
        w.assign(
            &format!("{rq}_valid"),
            &format!("({asks}) && !{p}_tag_full"),
        );
        if beats > 0 {
            let r = if plans {
                select_chain(&run)
            } else {
                "9'd1".into()
            };
            w.assign(&format!("{rq}_run"), &r);
        }
        let chosen = select_chain(&region_tag);
        w.always_ff(|w| {
            w.line(format!("if (rst) {locked} <= 1'b0;"));
            w.line(format!("else {locked} <= {rq}_valid && !{rq}_ready;"));
            w.line(format!(
                "if ({rq}_valid && !{rq}_ready) {lock} <= {chosen};"
            ));
            if plans {
                w.line(format!("if ({rq}_valid && {rq}_ready) {last} <= {chosen};"));
            }
        });
        w.assign(&format!("{rq}_addr"), &select_chain(&addr));
        if !payload[0].is_empty() {
            self.assign_atomic_payload(w, id, payload);
        }
        if any_kept {
            let routing = Routing {
                rq: rq.clone(),
                tw,
                tag: select_chain(&tag),
                full,
                depth: tag_depth,
            };
            self.emit_tag_fifo(w, &p, drops, routing);
        }
        if drops {
            let d = format!("{p}_dcnt");
            let (issued, done) = if any_kept {
                (
                    format!("{rq}_valid && {rq}_ready && {p}_tag_push_drop"),
                    format!("{p}_rresp_valid && {p}_rresp_ready && {resp_drop}"),
                )
            } else {
                (
                    format!("{rq}_valid && {rq}_ready"),
                    format!("{p}_rresp_valid"),
                )
            };
            w.always_ff(|w| {
                w.line(format!("if (rst || launch) {d} <= 16'd0;"));
                w.line(format!(
                    "else if (({issued}) && !({done})) {d} <= {d} + 16'd1;"
                ));
                w.line(format!(
                    "else if (!({issued}) && ({done})) {d} <= {d} - 16'd1;"
                ));
            });
        }
    }

    /// The FIFO of tags of port `p` that routes each response to the buffer of the pipeline
    /// that asked; with `drops`, a tag's top bit marks a dropped atomic, whose response is
    /// taken at once and goes to no buffer.
    fn emit_tag_fifo(&self, w: &mut VWriter, p: &str, drops: bool, routing: Routing) {
        let Routing {
            rq,
            tw,
            mut tag,
            full,
            depth,
        } = routing;
        let tag_w = tw + u32::from(drops);
        let depth = if drops {
            (depth + DROP_WINDOW).next_power_of_two()
        } else {
            depth.next_power_of_two()
        };
        w.line(format!("wire {p}_tag_full;"));
        w.line(format!("wire {p}_tag_empty;"));
        w.line(format!("wire {}{p}_tag_head;", range(tag_w)));
        let room = format!("!({})", full.join(" || "));
        let ready = if drops {
            let head = format!("{p}_tag_head");
            w.wire(&format!("{p}_tag_route"), tw, &bit_range(&head, tw - 1, 0));
            w.wire(&format!("{p}_resp_drop"), 1, &format!("{head}[{tw}]"));
            w.wire(&format!("{p}_tag_in"), tag_w, &tag);
            w.wire(
                &format!("{p}_tag_push_drop"),
                1,
                &format!("{p}_tag_in[{tw}]"),
            );
            tag = format!("{p}_tag_in");
            format!("!{p}_tag_empty && ({p}_resp_drop || {room})")
        } else {
            format!("!{p}_tag_empty && {room}")
        };
        w.assign(&format!("{p}_rresp_ready"), &ready);
        w.line(format!(
            "oclhls_fifo #(.W({tag_w}), .DEPTH({depth}), .AW({})) {p}_tag (.clk(clk), .rst(rst), .push({rq}_valid && {rq}_ready), .push_data({tag}), .full({p}_tag_full), .pop({p}_rresp_valid && {p}_rresp_ready), .pop_data({p}_tag_head), .empty({p}_tag_empty));",
            depth.trailing_zeros()
        ));
    }

    /// The response buffer of every pipeline loading through global memory `id`, and its
    /// requests; returns them per pipeline with the sum of the buffers' depths.
    fn emit_read_buffers(
        &mut self,
        w: &mut VWriter,
        id: MemId,
        regions: &BTreeSet<usize>,
        hs: &Handshakes,
    ) -> (Vec<PipelineReads>, u32) {
        let mut tag_depth = 0;
        let mut per_region = Vec::new();
        for &r in regions {
            self.cur = r;
            let plan = &self.plan;
            let m = &plan.mems.mems[&id];
            let loads: Vec<OpId> = m
                .loads
                .iter()
                .copied()
                .filter(|&l| plan.region_of(l) == r)
                .collect();
            let kept: Vec<OpId> = m.kept_loads().filter(|&l| plan.region_of(l) == r).collect();
            let drops: Vec<String> = loads
                .iter()
                .filter(|l| m.dropped.contains(l))
                .map(|l| hs.loads[l].req.clone())
                .collect();
            // Outstanding reads are bounded by the iterations between issue and use.
            let depth = hwcontract::read_port::response_buffer_depth(
                kept.iter().map(|&l| plan.load_latency(l)),
            );
            if !kept.is_empty() {
                tag_depth += depth;
                self.emit_response_buffer(w, id, r, depth, &kept, regions, hs);
            }
            // Address mux: at most one load of a pipeline requests in any cycle.
            let reqs: Vec<String> = loads.iter().map(|l| hs.loads[l].req.clone()).collect();
            let cases: Vec<(String, String)> = loads
                .iter()
                .map(|&l| {
                    let a = self.val(plan.k.operands(l)[0], plan.start(l));
                    (hs.loads[&l].req.clone(), a)
                })
                .collect();
            let atomic = (!m.atomics.is_empty()).then(|| self.atomic_payload(&loads, hs));
            let run = (m.burst_read > 0)
                .then(|| self.read_run(&loads, hs))
                .flatten();
            per_region.push(PipelineReads {
                region: r,
                req: reqs.join(" || "),
                addr: select_chain(&cases),
                atomic,
                drop: (!drops.is_empty()).then(|| format!("({})", drops.join(" || "))),
                kept: !kept.is_empty(),
                run,
            });
        }
        self.cur = 0;
        (per_region, tag_depth)
    }

    /// The read run (9 bits, saturated) of the one of `loads` (a pipeline's) that asks, when
    /// any has one (`Kernel::read_runs`); a load without one counts 1.
    fn read_run(&self, loads: &[OpId], hs: &Handshakes) -> Option<String> {
        let k = self.plan.k;
        if !loads.iter().any(|l| k.read_runs.contains_key(l)) {
            return None;
        }
        let cases: Vec<(String, String)> = loads
            .iter()
            .map(|&l| {
                let v = match k.read_runs.get(&l) {
                    Some(&x) => {
                        let v = self.val(x, self.plan.start(l));
                        match self.plan.bits(x) {
                            b @ ..9 => format!("{{{}'d0, {v}}}", 9 - b),
                            9 => v,
                            b => format!(
                                "(|{} ? 9'd511 : {})",
                                bit_range(&v, b - 1, 9),
                                bit_range(&v, 8, 0)
                            ),
                        }
                    }
                    None => "9'd1".into(),
                };
                (hs.loads[&l].req.clone(), v)
            })
            .collect();
        Some(select_chain(&cases))
    }

    /// The response buffer (`depth` entries) of region `r`'s loads `kept` of port `id`. Under
    /// a registered stall its occupancy is counted beside it for `<buffer>_next_empty`, what
    /// its `empty` flag will be after this cycle's edge.
    #[allow(clippy::too_many_arguments)]
    fn emit_response_buffer(
        &self,
        w: &mut VWriter,
        id: MemId,
        r: usize,
        depth: u32,
        kept: &[OpId],
        regions: &BTreeSet<usize>,
        hs: &Handshakes,
    ) {
        let m = &self.plan.mems.mems[&id];
        let p = &m.prefix;
        let aw = depth.trailing_zeros();
        let f = m.rfifo(r);
        w.line(format!("wire {f}_full;"));
        w.line(format!("wire {f}_empty;"));
        w.line(format!("wire {}{f}_data;", range(m.bits)));
        let pops: Vec<String> = kept.iter().map(|l| hs.loads[l].pop.clone()).collect();
        w.wire(
            &format!("{f}_pop"),
            1,
            &format!("({}) && !{}", pops.join(" || "), self.stall()),
        );
        let push = if !m.dropped.is_empty() {
            let tw = tag_bits(regions);
            format!(
                "{p}_rresp_valid && !{p}_resp_drop && ({p}_tag_route == {})",
                literal(r as u64, tw)
            )
        } else if m.multi_read {
            let tw = tag_bits(regions);
            format!(
                "{p}_rresp_valid && ({p}_tag_head == {})",
                literal(r as u64, tw)
            )
        } else {
            format!("{p}_rresp_valid")
        };
        w.line(format!(
            "oclhls_fifo #(.W({}), .DEPTH({depth}), .AW({aw})) {f} (.clk(clk), .rst(rst), .push({push}), .push_data({p}_rresp_data), .full({f}_full), .pop({f}_pop), .pop_data({f}_data), .empty({f}_empty));",
            m.bits
        ));
        if self.plan.regions[r].registered_stall {
            occupancy(w, &f, &push, aw + 1);
        }
    }

    /// The atomic payload of one pipeline's read requests (`loads`, atomics among them):
    /// opcode, operand and compare value of the one that asks (a plain load: opcode 0).
    fn atomic_payload(&self, loads: &[OpId], hs: &Handshakes) -> [String; 3] {
        let plan = &self.plan;
        let bits = plan
            .k
            .mem(plan.k.op(loads[0]).kind.memory().expect("an access"))
            .elem
            .bits();
        let (mut op, mut operand, mut compare) = (Vec::new(), Vec::new(), Vec::new());
        for &l in loads {
            let OpKind::Atomic { op: aop, .. } = plan.k.op(l).kind else {
                continue;
            };
            let (req, c, args) = (&hs.loads[&l].req, plan.start(l), plan.k.operands(l));
            op.push((
                req.clone(),
                literal(u64::from(aop.opcode()), hwcontract::atomic::OP_BITS),
            ));
            operand.push((req.clone(), self.val(args[1], c)));
            if aop == AtomicOp::CmpXchg {
                compare.push((req.clone(), self.val(args[2], c)));
            }
        }
        // A plain load (or an atomic without a compare value) sends zeros.
        let zero = |b: u32| (String::new(), literal(0, b));
        op.push(zero(hwcontract::atomic::OP_BITS));
        operand.push(zero(bits));
        compare.push(zero(bits));
        [
            select_chain(&op),
            select_chain(&operand),
            select_chain(&compare),
        ]
    }

    /// Drives `rreq_op`, `rreq_operand` and (with a compare-and-exchange) `rreq_compare` of
    /// port `p` from (condition, value) lists.
    fn assign_atomic_payload(
        &self,
        w: &mut VWriter,
        id: MemId,
        fields: [Vec<(String, String)>; 3],
    ) {
        let m = &self.plan.mems.mems[&id];
        let p = &m.prefix;
        let [op, operand, compare] = fields;
        w.assign(&format!("{p}_rreq_op"), &select_chain(&op));
        w.assign(&format!("{p}_rreq_operand"), &select_chain(&operand));
        if m.has_cmpxchg(self.k) {
            w.assign(&format!("{p}_rreq_compare"), &select_chain(&compare));
        }
    }
}

/// The one-entry skid register of a direct read port under a registered stall: a request
/// memory does not take in its cycle waits in `<p>_rk_*` and goes out from there, so the
/// pipeline's request is taken whenever the skid is empty (`<p>_rreq_take`, a flip-flop) and
/// never waits for memory's `ready` in the same cycle. The request channel still follows
/// AXI's rules: once valid, the request and its address stay until taken. `<p>_rk_next` is
/// what the skid will hold after this cycle's edge (the stall's prediction reads it).
fn emit_request_skid(w: &mut VWriter, p: &str, reads: &PipelineReads) {
    let rq = format!("{p}_rreq");
    let (kv, ka, kn) = (
        format!("{p}_rk_valid"),
        format!("{p}_rk_addr"),
        format!("{p}_rk_next"),
    );
    w.reg(&kv, 1);
    w.reg(&ka, 32);
    w.wire(&format!("{rq}_take"), 1, &format!("!{kv}"));
    w.assign(&format!("{rq}_valid"), &format!("{kv} || {}", reads.req));
    w.assign(
        &format!("{rq}_addr"),
        &format!("{kv} ? {ka} : {}", reads.addr),
    );
    w.wire(&kn, 1, &format!("{rq}_valid && !{rq}_ready"));
    w.always_ff(|w| {
        w.line(format!("if (rst) {kv} <= 1'b0;"));
        w.line(format!("else {kv} <= {kn};"));
        w.line(format!("if (!{kv}) {ka} <= {};", reads.addr));
    });
}

/// `<f>_next_empty` of response buffer `f` (an `oclhls_fifo` pushed by `push`, popped by
/// `<f>_pop`): its occupancy counted in `bits` bits beside it, and whether it will be empty
/// after this cycle's edge.
fn occupancy(w: &mut VWriter, f: &str, push: &str, bits: u32) {
    let (cnt, pin, pout) = (format!("{f}_count"), format!("{f}_in"), format!("{f}_out"));
    w.reg(&cnt, bits);
    w.wire(&pin, 1, &format!("({push}) && !{f}_full"));
    w.wire(&pout, 1, &format!("{f}_pop && !{f}_empty"));
    let (zero, one) = (literal(0, bits), literal(1, bits));
    w.always_ff(|w| {
        w.line(format!("if (rst) {cnt} <= {zero};"));
        w.line(format!(
            "else if ({pin} != {pout}) {cnt} <= {pin} ? {cnt} + {one} : {cnt} - {one};"
        ));
    });
    w.wire(
        &format!("{f}_next_empty"),
        1,
        &format!("!{pin} && ({f}_empty || ({cnt} == {one} && {pout}))"),
    );
}
