//! Memory ports of a kernel module: where each memory lives ([`MemPlan`], part of the plan),
//! the global memory ports' write channels (fixed-priority arbiters between pipelines, the
//! write-acknowledge counter; their read channels are `read_port`, their bursts `bursts`) and
//! the on-chip memories (arrays with registered reads). The loads and stores themselves are
//! datapath ops (`datapath::access`); they leave their request wires in [`Handshakes`] for
//! this module.

use super::bursts::{read_burst_beats, read_waits_for};
use super::datapath::Handshakes;
use super::onchip_atomic::PendingWrite;
use super::plan::Plan;
use super::stall::StallTerm;
use super::Emitter;
use crate::namer::legal;
use crate::writer::{bit_range, literal, range, select_chain, VWriter};
use hls_ir::{AtomicOp, MemId, MemKind, OpId, OpKind};
use std::collections::{BTreeMap, BTreeSet};

/// One memory the kernel accesses: a global memory port or an on-chip array.
pub(super) struct Mem {
    pub prefix: String,
    pub bits: u32,
    /// Loads and atomics (an atomic's request and old value travel like a load's).
    pub loads: Vec<OpId>,
    pub stores: Vec<OpId>,
    /// Atomics (also in `loads`): on a global port they add the opcode and operands to the
    /// read request; on-chip they also write, one cycle after their read.
    pub atomics: Vec<OpId>,
    /// Global atomics whose old value nothing reads: their responses are dropped at the port
    /// (a drop bit in the tag FIFO) instead of waiting in a response buffer, so the pipeline
    /// never waits for them; `_dcnt` counts those in flight (fences, barriers and `done` wait
    /// for it like for `_wcnt`).
    pub dropped: Vec<OpId>,
    /// Loads (stores) come from more than one pipeline: requests are arbitrated and read
    /// responses routed back by a tag FIFO. A port with dropped atomics has the tag FIFO too.
    pub multi_read: bool,
    pub multi_write: bool,
    /// An on-chip memory of this many elements (`local`/private array), not a global port.
    pub onchip: Option<u32>,
    /// The write channel bursts (`oclhls_wburst` combines consecutive writes): some store
    /// steps through consecutive elements (`hls_ir::analysis::stream`).
    pub burst_write: bool,
    /// Beats of a read burst at most (0: the read channel does not burst; `oclhls_rburst`
    /// combines consecutive reads): some load steps through consecutive elements, the port
    /// has no atomics, and the schedule's read latency leaves time to gather a burst.
    pub burst_read: u32,
    /// Some store writes only part of an element (a field or lanes): writes carry a byte
    /// strobe (`wreq_strb`; on-chip, a write enable per byte).
    pub partial: bool,
}

impl Mem {
    /// Some atomic through this memory is a compare-and-exchange (a global port then has
    /// `rreq_compare`).
    pub fn has_cmpxchg(&self, k: &hls_ir::Kernel) -> bool {
        self.atomics.iter().any(|&a| {
            matches!(
                k.op(a).kind,
                OpKind::Atomic {
                    op: AtomicOp::CmpXchg,
                    ..
                }
            )
        })
    }

    /// Loads of the response buffers: `loads` without the dropped atomics.
    pub fn kept_loads(&self) -> impl Iterator<Item = OpId> + '_ {
        self.loads
            .iter()
            .copied()
            .filter(|l| !self.dropped.contains(l))
    }

    /// The kernel's read request channel of this port: `<p>_rreq` (the port's own) or, when
    /// the port bursts, `<p>_rc` (into the combining unit).
    pub fn rq(&self) -> String {
        if self.burst_read > 0 {
            format!("{}_rc", self.prefix)
        } else {
            format!("{}_rreq", self.prefix)
        }
    }

    /// The kernel's single-write request channel of this port: `<p>_wreq` (the port's own)
    /// or, when the port bursts, `<p>_wc` (into the combining unit).
    pub fn wq(&self) -> String {
        if self.burst_write {
            format!("{}_wc", self.prefix)
        } else {
            format!("{}_wreq", self.prefix)
        }
    }

    /// The response buffer of region `r`'s loads.
    pub fn rfifo(&self, r: usize) -> String {
        if self.multi_read {
            format!("{}_r{r}_rfifo", self.prefix)
        } else {
            format!("{}_rfifo", self.prefix)
        }
    }
}

/// The memories of a kernel and the read port of every on-chip load.
#[derive(Default)]
pub(super) struct MemPlan {
    pub mems: BTreeMap<MemId, Mem>,
    /// The read port (0 or 1) of each on-chip load: loads of one region in the same modulo
    /// slot use different ports.
    pub onchip_port: BTreeMap<OpId, u32>,
}

/// The memories the kernel's loads and stores use.
pub(super) fn plan_memories(p: &Plan) -> MemPlan {
    let k = p.k;
    let mut mems: BTreeMap<MemId, Mem> = BTreeMap::new();
    for o in k.op_ids() {
        let Some(mem) = k.op(o).kind.memory() else {
            continue;
        };
        let m = mems.entry(mem).or_insert_with(|| Mem {
            prefix: String::new(),
            bits: k.mem(mem).elem.bits().max(8),
            loads: vec![],
            stores: vec![],
            atomics: vec![],
            dropped: vec![],
            multi_read: false,
            multi_write: false,
            onchip: k.mem(mem).onchip_len(),
            burst_write: false,
            burst_read: 0,
            partial: false,
        });
        match k.op(o).kind {
            OpKind::Load { .. } => m.loads.push(o),
            OpKind::Atomic { .. } => {
                m.loads.push(o);
                m.atomics.push(o);
                if drops_response(k, o) {
                    m.dropped.push(o);
                }
            }
            _ => m.stores.push(o),
        }
        if matches!(k.op(o).kind, OpKind::Store { mask: Some(_), .. }) {
            m.partial = true;
        }
    }
    // Prefixes from the memories' names; two memories of one name (a helper's array inlined
    // twice) get their id appended, pointer arguments (named by their ports) keep theirs.
    let mut taken: BTreeSet<String> = mems
        .keys()
        .filter(|&&m| matches!(k.mem(m).kind, MemKind::Global { .. }))
        .map(|&m| legal(&k.mem(m).name))
        .collect();
    for (&id, m) in mems.iter_mut() {
        let base = legal(&k.mem(id).name);
        m.prefix = if matches!(k.mem(id).kind, MemKind::Global { .. }) || taken.insert(base.clone())
        {
            base
        } else {
            let unique = format!("{base}_m{}", id.index());
            taken.insert(unique.clone());
            unique
        };
    }
    // Read ports of on-chip memories (the scheduler allows
    // `scheduler::oplib::ONCHIP_READ_PORTS` loads per modulo slot).
    let mut onchip_port = BTreeMap::new();
    for m in mems.values().filter(|m| m.onchip.is_some()) {
        let mut used: BTreeMap<(usize, u32), u32> = BTreeMap::new();
        for &l in &m.loads {
            let r = p.region_of(l);
            let ii = p.regions[r].ls.slot_ii.max(1);
            let n = used.entry((r, p.start(l) % ii)).or_insert(0);
            onchip_port.insert(l, *n);
            *n += 1;
        }
    }
    for m in mems.values_mut() {
        let regions = |ops: &[OpId]| {
            ops.iter()
                .map(|&o| k.op(o).region)
                .collect::<BTreeSet<_>>()
                .len()
        };
        m.multi_read = regions(&m.loads) > 1 || !m.dropped.is_empty();
        m.multi_write = regions(&m.stores) > 1;
        m.burst_read = read_burst_beats(p, m);
        m.burst_write = m.onchip.is_none()
            && !m.stores.iter().any(|&s| read_waits_for(k, s))
            && m.stores
                .iter()
                .any(|&s| super::bursts::stream_of(k, s).is_ok());
    }
    MemPlan { mems, onchip_port }
}

/// `o` is an atomic on global memory whose old value nothing reads: the port drops its
/// response ([`Mem::dropped`]).
pub(super) fn drops_response(k: &hls_ir::Kernel, o: OpId) -> bool {
    match k.op(o).kind {
        OpKind::Atomic { mem, .. } => {
            matches!(k.mem(mem).kind, MemKind::Global { .. }) && !k.has_data_uses(o)
        }
        _ => false,
    }
}

/// The read address and data register of read port `port` of on-chip memory `p`.
pub(super) fn onchip_port_names(p: &str, port: u32) -> (String, String) {
    if port == 0 {
        (format!("{p}_raddr"), format!("{p}_q"))
    } else {
        (format!("{p}_raddr{port}"), format!("{p}_q{port}"))
    }
}

/// Width of a tag naming one of `regions`.
pub(super) fn tag_bits(regions: &BTreeSet<usize>) -> u32 {
    let max = regions.iter().copied().max().unwrap_or(0) as u32;
    (32 - max.leading_zeros()).max(1)
}

/// A Verilog literal of one bit per flag (flag 0 is bit 0), any width.
fn flags_literal(flags: &[bool]) -> String {
    let n = flags.len();
    if n == 1 {
        return format!("1'b{}", u8::from(flags[0]));
    }
    let mut hex = String::new();
    for d in (0..n.div_ceil(4)).rev() {
        let mut v = 0;
        for b in 0..4 {
            if flags.get(4 * d + b).copied().unwrap_or(false) {
                v |= 1 << b;
            }
        }
        hex.push(char::from_digit(v, 16).expect("a hex digit"));
    }
    format!("{n}'h{hex}")
}

impl Plan<'_> {
    /// Prefixes of the global memory ports that have writes (their `_wcnt` counters are
    /// declared before the pipelines).
    pub fn global_store_prefixes(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .k
            .op_ids()
            .into_iter()
            .filter_map(|o| match self.k.op(o).kind {
                OpKind::Store { mem, .. }
                    if matches!(self.k.mem(mem).kind, MemKind::Global { .. }) =>
                {
                    Some(legal(&self.k.mem(mem).name))
                }
                _ => None,
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Prefixes of the global memory ports with dropped atomics (their `_dcnt` counters are
    /// declared before the pipelines).
    pub fn global_drop_prefixes(&self) -> Vec<String> {
        self.mems
            .mems
            .values()
            .filter(|m| !m.dropped.is_empty())
            .map(|m| m.prefix.clone())
            .collect()
    }

    /// `_wcnt == 0` of every port with writes and `_dcnt == 0` of every port with dropped
    /// atomics: every write and atomic the kernel issued has been done.
    pub fn global_quiet_terms(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .global_store_prefixes()
            .iter()
            .map(|p| format!("{p}_wcnt == 16'd0"))
            .collect();
        v.extend(
            self.global_drop_prefixes()
                .iter()
                .map(|p| format!("{p}_dcnt == 16'd0")),
        );
        v
    }

    /// The byte strobe of store `st` into an element of `bits` bits: its mask, or every byte.
    fn strobe(&self, st: OpId, bits: u32) -> String {
        let n = (bits / 8) as usize;
        match &self.k.op(st).kind {
            OpKind::Store { mask: Some(m), .. } => flags_literal(&m.0),
            _ => flags_literal(&vec![true; n]),
        }
    }
}

impl Emitter<'_> {
    /// The write-acknowledge counters of the global ports with writes.
    pub(super) fn declare_write_counters(&self, w: &mut VWriter) {
        for p in self.plan.global_store_prefixes() {
            w.reg(&format!("{p}_wcnt"), 16);
        }
        for p in self.plan.global_drop_prefixes() {
            w.reg(&format!("{p}_dcnt"), 16);
        }
    }

    /// Every memory's ports; returns the conditions under which all writes are acknowledged
    /// (the kernel is done only then).
    pub(super) fn emit_memory_ports(&mut self, w: &mut VWriter, hs: &Handshakes) -> Vec<String> {
        let mut idle_terms: Vec<String> = Vec::new();
        let ids: Vec<MemId> = self.plan.mems.mems.keys().copied().collect();
        for id in ids {
            let m = &self.plan.mems.mems[&id];
            let p = m.prefix.clone();
            let (has_loads, has_stores) = (!m.loads.is_empty(), !m.stores.is_empty());
            let drops = !m.dropped.is_empty();
            if let Some(len) = m.onchip {
                self.emit_onchip(w, id, len, hs);
                continue;
            }
            w.comment(format!("---- Global memory port `{p}`"));
            if has_loads {
                self.emit_read_port(w, id, hs);
            }
            if has_stores {
                self.emit_write_port(w, id, hs);
                idle_terms.push(format!("{p}_wcnt == 16'd0"));
            }
            if drops {
                idle_terms.push(format!("{p}_dcnt == 16'd0"));
            }
        }
        idle_terms
    }

    /// The write channel of a global memory port, with a counter of unacknowledged writes
    /// (the kernel is done only when it is 0); with several pipelines, a fixed-priority
    /// arbiter.
    fn emit_write_port(&mut self, w: &mut VWriter, id: MemId, hs: &Handshakes) {
        let (p, q, multi_write, bits, partial, burst) = {
            let m = &self.plan.mems.mems[&id];
            let burst = m.burst_write;
            (
                m.prefix.clone(),
                m.wq(),
                m.multi_write,
                m.bits,
                m.partial,
                burst,
            )
        };
        if burst {
            w.line(format!("wire {q}_valid;"));
            w.line(format!("wire {q}_ready;"));
            w.line(format!("wire [31:0] {q}_addr;"));
            w.line(format!("wire {}{q}_data;", range(bits)));
            w.line(format!("wire {}{q}_strb;", range(bits / 8)));
        }
        // The counter is full: a register (`write_counter`), as it gates every store's
        // acceptance and so reaches the pipeline's stall.
        w.reg(&format!("{p}_wcnt_full"), 1);
        let all_stores = self.plan.mems.mems[&id].stores.clone();
        let regions: BTreeSet<usize> = all_stores.iter().map(|&s| self.plan.region_of(s)).collect();
        let mut all_reqs = Vec::new();
        // With several pipelines, the arbiter keeps the one it chose until it is accepted.
        let tw = tag_bits(&regions);
        let (locked, lock) = (format!("{p}_wlocked"), format!("{p}_wlock"));
        let mut chosen = Vec::new();
        if multi_write {
            w.reg(&locked, 1);
            w.reg(&lock, tw);
        }
        // Per pipeline: (grant, address, data, strobe); one pipeline needs no grant.
        let (mut addr, mut data, mut strb) = (Vec::new(), Vec::new(), Vec::new());
        let mut earlier: Vec<String> = Vec::new();
        for &r in &regions {
            self.cur = r;
            let stores: Vec<OpId> = all_stores
                .iter()
                .copied()
                .filter(|&s| self.plan.region_of(s) == r)
                .collect();
            let reqs: Vec<String> = stores.iter().map(|s| hs.stores[s].clone()).collect();
            let (mut ra, mut rd, mut rs) = (Vec::new(), Vec::new(), Vec::new());
            for &s in &stores {
                let ops = self.k.operands(s);
                let c = self.plan.start(s);
                ra.push((hs.stores[&s].clone(), self.val(ops[0], c)));
                rd.push((hs.stores[&s].clone(), self.val(ops[1], c)));
                rs.push((hs.stores[&s].clone(), self.plan.strobe(s, bits)));
            }
            let (ra, rd, rs) = (select_chain(&ra), select_chain(&rd), select_chain(&rs));
            if multi_write {
                let rq = format!("{p}_wreq_r{r}");
                w.wire(&rq, 1, &reqs.join(" || "));
                let gnt = format!("{p}_wgnt_r{r}");
                let blocked: String = earlier.iter().map(|e| format!(" && !{e}")).collect();
                let me = literal(r as u64, tw);
                w.wire(
                    &gnt,
                    1,
                    &format!("{rq} && ({locked} ? {lock} == {me} : 1'b1{blocked})"),
                );
                chosen.push((gnt.clone(), me));
                let acc = format!("{p}_wacc_r{r}");
                w.wire(&acc, 1, &format!("{gnt} && {q}_ready && !{p}_wcnt_full"));
                for s in &stores {
                    self.control[r]
                        .stall_terms
                        .push(StallTerm::now(format!("({} && !{acc})", hs.stores[s])));
                }
                earlier.push(rq);
                addr.push((gnt.clone(), format!("({ra})")));
                data.push((gnt.clone(), format!("({rd})")));
                strb.push((gnt, format!("({rs})")));
            } else {
                for s in &stores {
                    // Next cycle: the stage may hold a work-item and the combining unit's
                    // input, or the write counter, will be full (`wcnt_full` is loaded from
                    // the counter's top bits).
                    let next = (burst && self.stall_registered()).then(|| {
                        format!(
                            "({} && !({q}_ready_next && !(&{p}_wcnt[15:1])))",
                            self.next_valid(self.plan.start(*s))
                        )
                    });
                    self.control[r].stall_terms.push(StallTerm::new(
                        format!("({} && !({q}_ready && !{p}_wcnt_full))", hs.store_pend[s]),
                        next,
                    ));
                }
                addr.push((String::new(), ra));
                data.push((String::new(), rd));
                strb.push((String::new(), rs));
            }
            all_reqs.extend(reqs);
        }
        self.cur = 0;
        w.assign(
            &format!("{q}_valid"),
            &format!("({}) && !{p}_wcnt_full", all_reqs.join(" || ")),
        );
        if multi_write {
            let chosen = select_chain(&chosen);
            w.always_ff(|w| {
                w.line(format!("if (rst) {locked} <= 1'b0;"));
                w.line(format!("else {locked} <= {q}_valid && !{q}_ready;"));
                w.line(format!("if ({q}_valid && !{q}_ready) {lock} <= {chosen};"));
            });
        }
        w.assign(&format!("{q}_addr"), &select_chain(&addr));
        w.assign(&format!("{q}_data"), &select_chain(&data));
        if partial || burst {
            w.assign(&format!("{q}_strb"), &select_chain(&strb));
        }
        w.assign(&format!("{p}_wresp_ready"), "1'b1");
        if burst {
            let predicted = regions
                .iter()
                .all(|&r| self.plan.regions[r].registered_stall);
            self.emit_write_combining(w, &p, bits, partial, predicted);
            return;
        }
        let acc = format!("({q}_valid && {q}_ready)");
        write_counter(
            w,
            &p,
            &format!(
                "{p}_wcnt + {{15'd0, {acc} && !{p}_wresp_valid}} - {{15'd0, !{acc} && {p}_wresp_valid}}"
            ),
        );
    }

    /// An on-chip memory: an array with a registered read (Yosys maps it to EBR, or to LUT RAM
    /// when small) and one write port. The regions using it never run at the same time (see
    /// `hls_ir::analysis::serial`), so requests are simply OR-ed; the read register updates only
    /// when the reading pipeline moves, so a stalled consumer keeps its data.
    fn emit_onchip(&mut self, w: &mut VWriter, id: MemId, len: u32, hs: &Handshakes) {
        let p = self.plan.mems.mems[&id].prefix.clone();
        let mem = self.k.mem(id);
        let bits = mem.elem.bits().max(8);
        // The bits `narrow` keeps exact in addresses of on-chip memories.
        let (sh, aw) = mem
            .onchip_address_bits()
            .expect("only on-chip memories are emitted as arrays");
        // The scheduler's timing of the read depends on where the memory goes. A ROM has no
        // write port; Yosys maps it to LUTs with `rom_style = "logic"` (its "distributed"
        // needs a write port and falls back to EBR).
        let lut = scheduler::oplib::onchip_in_lutram(len);
        let rom = mem.kind.is_rom();
        let (attr, style) = match (rom, lut) {
            (true, true) => ("rom_style", "logic"),
            (true, false) => ("rom_style", "block"),
            (false, true) => ("ram_style", "distributed"),
            (false, false) => ("ram_style", "block"),
        };
        w.comment(format!(
            "---- On-chip {} `{p}`: {len} x {bits} bits, registered read (1 cycle), {} {}",
            if rom { "ROM" } else { "memory" },
            if lut { "LUT" } else { "EBR" },
            if rom { "ROM" } else { "RAM" },
        ));
        w.line(format!(
            "(* {attr} = \"{style}\" *) reg {}{p}_mem [0:{}];",
            range(bits),
            len - 1
        ));
        if matches!(mem.kind, MemKind::Program { .. }) {
            self.emit_initial_contents(w, id, &p, bits, len);
        }
        let index = OnchipIndex { sh, aw };
        let m = &self.plan.mems.mems[&id];
        // With atomics the reads forward the write of the same edge, so the write port's
        // wires come first.
        if !m.atomics.is_empty() {
            let pending = self.emit_onchip_write(w, id, &index, hs);
            self.emit_onchip_reads(w, id, &index, hs);
            self.emit_forwarded_reads(w, id, &pending);
        } else {
            self.emit_onchip_reads(w, id, &index, hs);
            if !self.plan.mems.mems[&id].stores.is_empty() {
                self.emit_onchip_write(w, id, &index, hs);
            }
        }
        self.cur = 0;
    }

    /// The contents of program-scope memory `id` at configuration: an `initial` block (Yosys
    /// turns it into the EBR's or LUTs' initial values, Verilator runs it once), zeros where
    /// the program gives none. Nothing resets the array, so a writable one keeps its values
    /// from one launch to the next.
    fn emit_initial_contents(&mut self, w: &mut VWriter, id: MemId, p: &str, bits: u32, len: u32) {
        let stride = self.k.mem(id).elem_bytes as usize;
        let init = self.k.mem_init.get(&id);
        w.line("initial begin");
        for i in 0..len as usize {
            let bytes = init.map_or(&[][..], |b| &b[i * stride..(i + 1) * stride]);
            let mut hex = String::new();
            for b in (0..bits.div_ceil(8) as usize).rev() {
                hex.push_str(&format!("{:02x}", bytes.get(b).copied().unwrap_or(0)));
            }
            let hex = hex.trim_start_matches('0');
            let hex = if hex.is_empty() { "0" } else { hex };
            w.line(format!("    {p}_mem[{i}] = {bits}'h{hex};"));
        }
        w.line("end");
    }

    /// The read ports of on-chip memory `id`: per port, an address mux over the loads that use
    /// it and the read register.
    fn emit_onchip_reads(
        &mut self,
        w: &mut VWriter,
        id: MemId,
        index: &OnchipIndex,
        hs: &Handshakes,
    ) {
        let bits = self.k.mem(id).elem.bits().max(8);
        let m = &self.plan.mems.mems[&id];
        let p = m.prefix.clone();
        let loads = m.loads.clone();
        let port_of = |l: &OpId| self.plan.mems.onchip_port[l];
        let ports = loads.iter().map(|l| port_of(l) + 1).max().unwrap_or(0);
        for port in 0..ports {
            let mut addr = Vec::new();
            let mut res = Vec::new();
            let mine: Vec<OpId> = loads
                .iter()
                .copied()
                .filter(|l| self.plan.mems.onchip_port[l] == port)
                .collect();
            let Some(&mine_first) = mine.first() else {
                continue;
            };
            let mut reads = Vec::new();
            for l in mine {
                self.cur = self.plan.region_of(l);
                let a = format!("{p}_ra_v{}", l.0);
                let v = self.val(self.k.operands(l)[0], self.plan.start(l));
                w.wire(&a, 32, &v);
                let ix = self.onchip_index(index, a);
                let re = &hs.loads[&l].req;
                reads.push((re.clone(), self.cur));
                res.push(re.clone());
                addr.push((re.clone(), ix));
            }
            let (raddr, q) = onchip_port_names(&p, port);
            w.wire(&raddr, index.aw, &select_chain(&addr));
            w.reg(&q, bits);
            let cond = res.join(" || ");
            if self.plan.mems.mems[&id].atomics.is_empty() {
                w.always_ff(|w| {
                    w.line(format!("if ({cond}) {q} <= {p}_mem[{raddr}];"));
                });
                continue;
            }
            // With atomics the read also notes its element and the write of its own edge,
            // which the array read misses (`onchip_atomic`).
            w.reg(&format!("{q}_a"), index.aw);
            w.reg(&format!("{q}_hit"), 1);
            w.reg(&format!("{q}_hd"), bits);
            w.always_ff(|w| {
                w.block(&format!("if ({cond})"), |w| {
                    w.line(format!("{q} <= {p}_mem[{raddr}];"));
                    w.line(format!("{q}_a <= {raddr};"));
                    w.line(format!("{q}_hit <= {p}_we && {p}_waddr == {raddr};"));
                    w.line(format!("{q}_hd <= {p}_wdata;"));
                });
            });
            if self.plan.load_latency(mine_first) == 2 {
                self.emit_second_read_stage(w, (&p, &q), &reads, (index.aw, bits));
            }
        }
    }

    /// The write port of on-chip memory `id`: address, data and (for partial stores) byte
    /// enables multiplexed by the stores' write enables.
    fn emit_onchip_write(
        &mut self,
        w: &mut VWriter,
        id: MemId,
        index: &OnchipIndex,
        hs: &Handshakes,
    ) -> Vec<PendingWrite> {
        let bits = self.k.mem(id).elem.bits().max(8);
        let m = &self.plan.mems.mems[&id];
        let (p, partial, stores) = (m.prefix.clone(), m.partial, m.stores.clone());
        let atomics = m.atomics.clone();
        let m_loads = m.loads.clone();
        let (mut addr, mut data) = (Vec::new(), Vec::new());
        let mut strb = Vec::new();
        let mut wes = Vec::new();
        let mut pending = Vec::new();
        for &a in &atomics {
            let pw = self.onchip_atomic_write(w, id, a, index);
            let we = format!("{}_we", self.plan.names[&a]);
            w.wire(&we, 1, &format!("{} && !{}", pw.would, self.stall()));
            wes.push(we.clone());
            addr.push((we.clone(), pw.ix.clone()));
            data.push((we.clone(), pw.data.clone()));
            strb.push((we, self.plan.strobe(a, bits)));
            pending.push(pw);
        }
        for &st in &stores {
            self.cur = self.plan.region_of(st);
            let ops = self.k.operands(st);
            let c = self.plan.start(st);
            let a = format!("{p}_wa_v{}", st.0);
            let v = self.val(ops[0], c);
            w.wire(&a, 32, &v);
            let ix = self.onchip_index(index, a);
            let d = self.val(ops[1], c);
            let we = &hs.stores[&st];
            // A store is forwarded to the reads of its own pipeline, if it has any.
            let read_here = m_loads.iter().any(|&l| self.plan.region_of(l) == self.cur);
            if !atomics.is_empty() && read_here {
                let would = format!("{}_would", self.plan.names[&st]);
                let pred = self.val(ops[2], c);
                w.wire(&would, 1, &format!("{} && {pred}", self.valid(c)));
                pending.push(PendingWrite {
                    region: self.cur,
                    would,
                    ix: ix.clone(),
                    data: d.clone(),
                });
            }
            wes.push(we.clone());
            addr.push((we.clone(), ix));
            data.push((we.clone(), d));
            strb.push((we.clone(), self.plan.strobe(st, bits)));
        }
        w.wire(&format!("{p}_waddr"), index.aw, &select_chain(&addr));
        w.wire(&format!("{p}_wdata"), bits, &select_chain(&data));
        let mut cond = wes.join(" || ");
        if !atomics.is_empty() {
            w.wire(&format!("{p}_we"), 1, &cond);
            cond = format!("{p}_we");
        }
        // A program-scope memory keeps its contents through resets: pipeline registers that
        // power up (or come out of a simulator) with random values must not write it.
        if matches!(self.k.mem(id).kind, MemKind::Program { .. }) {
            cond = format!("!rst && ({cond})");
        }
        if partial {
            // A write enable per byte: field and lane stores leave the other bytes alone.
            let nb = bits / 8;
            w.wire(&format!("{p}_wstrb"), nb, &select_chain(&strb));
            w.always_ff(|w| {
                for b in 0..nb {
                    let r = format!("[{}:{}]", 8 * b + 7, 8 * b);
                    let en = if nb == 1 {
                        format!("{p}_wstrb")
                    } else {
                        format!("{p}_wstrb[{b}]")
                    };
                    w.line(format!(
                        "if (({cond}) && {en}) {p}_mem[{p}_waddr]{r} <= {p}_wdata{r};"
                    ));
                }
            });
        } else {
            w.always_ff(|w| {
                w.line(format!("if ({cond}) {p}_mem[{p}_waddr] <= {p}_wdata;"));
            });
        }
        pending
    }

    /// The element index in byte address `a` (a 32-bit wire); the other bits are unused.
    pub(super) fn onchip_index(&mut self, ix: &OnchipIndex, a: String) -> String {
        let OnchipIndex { sh, aw } = *ix;
        if sh + aw < 32 {
            self.unused.push(bit_range(&a, 31, sh + aw));
        }
        if sh > 0 {
            self.unused.push(bit_range(&a, sh - 1, 0));
        }
        bit_range(&a, sh + aw - 1, sh)
    }
}

/// Where the element index sits in an on-chip memory's byte addresses: `aw` bits from bit
/// `sh` (the bits `narrow` keeps exact).
#[derive(Clone, Copy)]
pub(super) struct OnchipIndex {
    pub sh: u32,
    pub aw: u32,
}

/// The update of port `p`'s counter of unacknowledged writes to `next` (cleared at a launch),
/// and of its `_wcnt_full` register: set when the counter is at 0xfffe or more. The counter
/// grows by at most one a cycle, so it is never above 0xffff when the flag is a cycle late;
/// the flag reads only the counter register (the next value's compare would follow the
/// acknowledgement's subtraction, a path as long as the one it takes off the stall).
pub(super) fn write_counter(w: &mut VWriter, p: &str, next: &str) {
    w.always_ff(|w| {
        w.block("if (rst || launch)", |w| {
            w.line(format!("{p}_wcnt <= 16'd0;"));
            w.line(format!("{p}_wcnt_full <= 1'b0;"));
        });
        w.block("else", |w| {
            w.line(format!("{p}_wcnt <= {next};"));
            w.line(format!("{p}_wcnt_full <= &{p}_wcnt[15:1];"));
        });
    });
}
