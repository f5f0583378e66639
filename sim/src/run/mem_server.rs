//! The memory server of one pointer port: memory's side of the request and response
//! handshakes, with random latency (responses in request order) and random back-pressure, or
//! the timing of the run's shared SDRAM (`sdram`); a bound on outstanding requests; bursts on
//! ports that have the burst fields (`docs/hardware-interface.md`, "Revision 2"); a fault for
//! every misaligned or out-of-buffer access; and the protocol checker (`protocol_check`) on
//! every cycle.
//!
//! Data moves when a request is accepted: a read (or an atomic) takes its data from memory
//! when its address is accepted, a write updates memory beat by beat as its data beats are
//! matched to its address. The timing mode only decides when responses become valid and when
//! `ready` is high.
//!
//! A bursting write port's data beats (W) may come before, with or after their address
//! (AW): up to [`W_BUFFER`] beats are buffered ahead of their address, and the beats are
//! matched to addresses in order; the write response of a burst comes after its last beat.

use std::collections::VecDeque;

use rand::rngs::StdRng;
use rand::Rng;

use crate::memory::GlobalMemory;
use crate::model::PortId;
use crate::{FaultKind, Outstanding, SimError};

use super::config::{MemConfig, RunConfig};
use super::mem_env::MemEnv;
use super::port_io::PortIo;
use super::ports::{KernelPorts, PointerArg};
use super::protocol_check::{check_burst, check_last, Handshake, Violation};
use super::sdram::{Access, AccessKind, RequesterId};
use super::stats::PortStats;

/// Data beats a bursting write port may send ahead of their write address.
pub(crate) const W_BUFFER: usize = 256;

/// One memory server per pointer port of `kernel`; `config.port_memory` entries are looked up
/// by `<prefix><pointer>` and marked in `used`.
pub(super) fn memory_servers(
    kernel: &KernelPorts,
    io: &impl PortIo,
    config: &RunConfig,
    used: &mut [bool],
) -> Result<Vec<MemoryServer>, SimError> {
    servers_of(&kernel.prefix, &kernel.pointers, io, config, used)
}

/// One memory server per pointer port `<prefix><pointer>` of `pointers` (checked ports).
pub(super) fn servers_of(
    prefix: &str,
    pointers: &[PointerArg],
    io: &impl PortIo,
    config: &RunConfig,
    used: &mut [bool],
) -> Result<Vec<MemoryServer>, SimError> {
    let mut out = Vec::new();
    for p in pointers {
        let name = format!("{prefix}{}", p.name);
        let chosen = config.port_memory.iter().rposition(|(n, _)| *n == name);
        if let Some(k) = chosen {
            used[k] = true;
        }
        let cfg = chosen
            .map_or(&config.memory, |k| &config.port_memory[k].1)
            .clone();
        cfg.validate(&name)?;
        let mut server = MemoryServer::new(io, name, &p.name, p.reads, p.writes, cfg);
        server.strict = config.strict_handshakes;
        out.push(server);
    }
    Ok(out)
}

struct ReadPorts {
    req_valid: PortId,
    req_ready: PortId,
    req_addr: PortId,
    /// Bursts: `len` (beats − 1) and `last`.
    req_len: Option<PortId>,
    resp_last: Option<PortId>,
    resp_valid: PortId,
    resp_ready: PortId,
    resp_data: PortId,
    /// Atomic requests (`docs/hardware-interface.md`, "Revision 2"), when the kernel issues
    /// them through this port.
    req_op: Option<PortId>,
    req_operand: Option<PortId>,
    req_compare: Option<PortId>,
}

struct WritePorts {
    req_valid: PortId,
    req_ready: PortId,
    req_addr: PortId,
    req_len: Option<PortId>,
    resp_valid: PortId,
    resp_ready: PortId,
    data: WriteData,
}

enum WriteData {
    /// Revision 1: one element with its address. `strb` (bit i: byte i of the element) when
    /// the kernel writes parts of elements.
    WithAddress { data: PortId, strb: Option<PortId> },
    /// A bursting port's own data channel (AXI W).
    Channel {
        valid: PortId,
        ready: PortId,
        data: PortId,
        strb: Option<PortId>,
        last: PortId,
    },
}

struct PendingRead {
    /// Little-endian words of every beat, `words` per beat.
    data: Vec<u32>,
    beats: u32,
    /// Beats the kernel has taken.
    taken: u32,
    /// The earliest cycle for beat `taken` (random mode: when it is valid).
    ready_at: u64,
    /// SDRAM mode: the cycle each beat is valid, once the SDRAM scheduled the burst.
    times: Option<Vec<u64>>,
    scheduled: bool,
}

impl PendingRead {
    fn valid_from(&self) -> u64 {
        match &self.times {
            _ if !self.scheduled => u64::MAX,
            Some(t) => t[self.taken as usize].max(self.ready_at),
            None => self.ready_at,
        }
    }
}

/// A write burst whose address is accepted and whose beats are still arriving.
struct OpenWrite {
    addr: u32,
    beats: u32,
    received: u32,
    /// SDRAM timing: the first cycle the burst's first bus word may be written such that
    /// every later word, written one per cycle after it, has its data by then
    /// ([`Access::not_before`]).
    not_before: u64,
}

/// A data beat received ahead of its matching: data words, then strobe words.
struct WBeat {
    words: Vec<u32>,
    last: bool,
}

/// Not scheduled yet by the SDRAM.
const UNSCHEDULED: u64 = u64::MAX;

/// The memory server of one pointer port.
pub(super) struct MemoryServer {
    /// The port name with the kernel prefix (`K__a`).
    pub(super) name: String,
    bytes: u32,
    /// Words of one beat in the buffers (at least 2).
    words: usize,
    read: Option<ReadPorts>,
    write: Option<WritePorts>,
    cfg: MemConfig,
    reads: VecDeque<PendingRead>,
    open_writes: VecDeque<OpenWrite>,
    wbeats: VecDeque<WBeat>,
    /// Cycle at which each write response becomes valid ([`UNSCHEDULED`] until the SDRAM
    /// scheduled it).
    writes: VecDeque<u64>,
    /// SDRAM mode: the requesters of the read and write channels, once registered.
    sdram_ids: Option<(RequesterId, RequesterId)>,
    // This cycle's decisions, made in `drive` and used in `transfer`.
    rreq_ready: bool,
    wreq_ready: bool,
    wdata_ready: bool,
    rresp_valid: bool,
    wresp_valid: bool,
    /// The kernel's request channels: read address, write address, write data.
    checks: [Handshake; 3],
    /// Handshake violations of channels without bursts fail the run (otherwise counted).
    strict: bool,
    pub(super) stats: PortStats,
}

impl MemoryServer {
    fn new(
        io: &impl PortIo,
        name: String,
        local: &str,
        read: bool,
        write: bool,
        cfg: MemConfig,
    ) -> MemoryServer {
        let id = |s: &str| {
            io.port(&format!("{name}_{s}"))
                .expect("checked by discover")
        };
        let opt = |s: &str| io.port(&format!("{name}_{s}"));
        let data = ["rresp_data", "wreq_data", "wdata_data"]
            .iter()
            .find_map(|s| opt(s))
            .expect("checked by discover");
        let bytes = io.width(data) / 8;
        let write_data = match opt("wdata_valid") {
            Some(valid) => WriteData::Channel {
                valid,
                ready: id("wdata_ready"),
                data: id("wdata_data"),
                strb: opt("wdata_strb"),
                last: id("wdata_last"),
            },
            None if write => WriteData::WithAddress {
                data: id("wreq_data"),
                strb: opt("wreq_strb"),
            },
            None => WriteData::WithAddress { data, strb: None },
        };
        MemoryServer {
            bytes,
            words: (bytes as usize).div_ceil(4).max(2),
            read: read.then(|| ReadPorts {
                req_valid: id("rreq_valid"),
                req_ready: id("rreq_ready"),
                req_addr: id("rreq_addr"),
                req_len: opt("rreq_len"),
                resp_last: opt("rresp_last"),
                resp_valid: id("rresp_valid"),
                resp_ready: id("rresp_ready"),
                resp_data: id("rresp_data"),
                req_op: opt("rreq_op"),
                req_operand: opt("rreq_operand"),
                req_compare: opt("rreq_compare"),
            }),
            write: write.then(|| WritePorts {
                req_valid: id("wreq_valid"),
                req_ready: id("wreq_ready"),
                req_addr: id("wreq_addr"),
                req_len: opt("wreq_len"),
                resp_valid: id("wresp_valid"),
                resp_ready: id("wresp_ready"),
                data: write_data,
            }),
            cfg,
            reads: VecDeque::new(),
            open_writes: VecDeque::new(),
            wbeats: VecDeque::new(),
            writes: VecDeque::new(),
            sdram_ids: None,
            rreq_ready: false,
            wreq_ready: false,
            wdata_ready: false,
            rresp_valid: false,
            wresp_valid: false,
            checks: Default::default(),
            strict: false,
            stats: PortStats {
                name: local.to_string(),
                element_bytes: bytes,
                ..PortStats::default()
            },
            name,
        }
    }

    /// Read responses and write acknowledgements memory still owes the kernel (write bursts
    /// still receiving data, and data beats without their address, count as writes).
    pub(super) fn owed(&self) -> (usize, usize) {
        (
            self.reads.len(),
            self.writes.len() + self.open_writes.len() + self.wbeats.len(),
        )
    }

    /// Sets memory's side of the handshakes for this cycle, from memory state only.
    pub(super) fn drive(&mut self, io: &mut impl PortIo, env: &mut MemEnv, cycle: u64) {
        let sdram = self.cfg.sdram.is_some();
        if sdram {
            self.collect_schedules(env, cycle);
        }
        let stall = |rng: &mut StdRng, p: f64| !sdram && p > 0.0 && rng.random_bool(p);
        let p = self.cfg.stall_probability;
        if let Some(r) = &self.read {
            self.rreq_ready =
                self.reads.len() < self.cfg.max_outstanding && !stall(&mut env.rng, p);
            io.set(r.req_ready, u64::from(self.rreq_ready));
            let head = self.reads.front().filter(|h| h.valid_from() <= cycle);
            self.rresp_valid = head.is_some();
            io.set(r.resp_valid, u64::from(self.rresp_valid));
            if let Some(h) = head {
                let k = h.taken as usize * self.words;
                io.set_wide(r.resp_data, &h.data[k..k + self.words]);
                if let Some(last) = r.resp_last {
                    io.set(last, u64::from(h.taken + 1 == h.beats));
                }
            }
        }
        if let Some(w) = &self.write {
            let busy = self.writes.len() + self.open_writes.len();
            self.wreq_ready = busy < self.cfg.max_outstanding && !stall(&mut env.rng, p);
            io.set(w.req_ready, u64::from(self.wreq_ready));
            if let WriteData::Channel { ready, .. } = w.data {
                self.wdata_ready = self.wbeats.len() < W_BUFFER && !stall(&mut env.rng, p);
                io.set(ready, u64::from(self.wdata_ready));
            }
            self.wresp_valid = self.writes.front().is_some_and(|&t| t <= cycle);
            io.set(w.resp_valid, u64::from(self.wresp_valid));
        }
    }

    /// SDRAM mode: registers the channels on first use, and takes the schedules the SDRAM
    /// made for bursts not scheduled yet (in order).
    fn collect_schedules(&mut self, env: &mut MemEnv, cycle: u64) {
        let (rid, wid) = *self.sdram_ids.get_or_insert_with(|| {
            let s = env.sdram();
            (s.requester(), s.requester())
        });
        let s = env.sdram_at(cycle);
        for p in self.reads.iter_mut().filter(|p| !p.scheduled) {
            let Some(t) = s.take_done(rid) else { break };
            p.times = Some(t);
            p.scheduled = true;
        }
        for w in self.writes.iter_mut().filter(|w| **w == UNSCHEDULED) {
            let Some(t) = s.take_done(wid) else { break };
            *w = t[0];
        }
    }

    /// Performs the transfers of the coming edge (after the model was evaluated) and checks
    /// the kernel's side of the protocol; whether any request, data beat or response moved.
    pub(super) fn transfer(
        &mut self,
        io: &impl PortIo,
        mem: &mut GlobalMemory,
        env: &mut MemEnv,
        cycle: u64,
        scratch: &mut Vec<u32>,
    ) -> Result<bool, SimError> {
        let mut moved = false;
        if self.read.is_some() {
            moved |= self.transfer_read(io, mem, env, cycle)?;
        }
        if self.write.is_some() {
            moved |= self.transfer_write(io, mem, env, cycle, scratch)?;
        }
        Ok(moved)
    }

    fn transfer_read(
        &mut self,
        io: &impl PortIo,
        mem: &mut GlobalMemory,
        env: &mut MemEnv,
        cycle: u64,
    ) -> Result<bool, SimError> {
        let r = self.read.as_ref().expect("a read channel");
        let mut moved = false;
        if self.rresp_valid {
            if io.get(r.resp_ready) != 0 {
                let head = self.reads.front_mut().expect("valid, so pending");
                head.taken += 1;
                if head.taken == head.beats {
                    self.reads.pop_front();
                } else {
                    let p = self.cfg.stall_probability;
                    let mut gap = 0;
                    while self.cfg.sdram.is_none() && p > 0.0 && gap < 16 && env.rng.random_bool(p)
                    {
                        gap += 1;
                    }
                    head.ready_at = cycle + 1 + gap;
                }
                moved = true;
            } else {
                self.stats.read_response_blocked_cycles += 1;
            }
        }
        let valid = io.get(r.req_valid) != 0;
        let words = self.words;
        let checked = self.checks[0].observe((&self.name, "rreq"), valid, self.rreq_ready, |out| {
            out.push(io.get(r.req_addr) as u32);
            for p in [r.req_len, r.req_op].into_iter().flatten() {
                out.push(io.get(p) as u32);
            }
            for p in [r.req_operand, r.req_compare].into_iter().flatten() {
                let n = out.len();
                out.resize(n + words, 0);
                io.get_wide_into(p, &mut out[n..]);
            }
        });
        let strict = r.req_len.is_some() || self.strict;
        handshake(&mut self.stats, &self.name, checked, strict, cycle)?;
        if !valid {
            return Ok(moved);
        }
        if !self.rreq_ready {
            self.stats.read_stall_cycles += 1;
            return Ok(moved);
        }
        let addr = io.get(r.req_addr) as u32;
        let len = r.req_len.map_or(0, |p| io.get(p));
        let code = r.req_op.map_or(0, |p| io.get(p) as u8);
        let atomic = code != hwcontract::atomic::OP_READ;
        check_burst(addr, len, self.bytes, atomic).map_err(|v| v.into_error(&self.name, cycle))?;
        let beats = len as u32 + 1;
        self.check(mem, addr, beats, false, cycle)?;
        let mut data = vec![0u32; self.words * beats as usize];
        for (k, b) in mem.slice(addr, self.bytes * beats).iter().enumerate() {
            let (beat, byte) = (k / self.bytes as usize, k % self.bytes as usize);
            data[beat * self.words + byte / 4] |= u32::from(*b) << (8 * (byte % 4));
        }
        if atomic {
            // An atomic: memory writes the new element in the same step.
            self.execute_atomic(io, mem, addr, code, cycle, &data)?;
            self.stats.atomics += 1;
        }
        let mut pending = PendingRead {
            data,
            beats,
            taken: 0,
            ready_at: cycle + 1,
            times: None,
            scheduled: true,
        };
        if let Some((rid, _)) = self.sdram_ids {
            let kind = if atomic {
                AccessKind::Atomic
            } else {
                AccessKind::Read
            };
            env.sdram().submit(rid, self.access(addr, beats, kind));
            pending.scheduled = false;
        } else {
            pending.ready_at =
                cycle + u64::from(env.rng.random_range(self.cfg.read_latency.clone()));
        }
        self.reads.push_back(pending);
        self.stats.reads += 1;
        self.stats.read_beats += u64::from(beats);
        self.stats.max_outstanding_reads = self.stats.max_outstanding_reads.max(self.reads.len());
        Ok(true)
    }

    fn access(&self, addr: u32, beats: u32, kind: AccessKind) -> Access {
        Access {
            addr,
            beats,
            beat_bytes: self.bytes,
            kind,
            not_before: 0,
        }
    }

    fn transfer_write(
        &mut self,
        io: &impl PortIo,
        mem: &mut GlobalMemory,
        env: &mut MemEnv,
        cycle: u64,
        scratch: &mut Vec<u32>,
    ) -> Result<bool, SimError> {
        let w = self.write.as_ref().expect("a write channel");
        let mut moved = false;
        if self.wresp_valid {
            if io.get(w.resp_ready) != 0 {
                self.writes.pop_front();
                moved = true;
            } else {
                self.stats.write_response_blocked_cycles += 1;
            }
        }
        let valid = io.get(w.req_valid) != 0;
        let words = self.words;
        let checked = self.checks[1].observe((&self.name, "wreq"), valid, self.wreq_ready, |out| {
            out.push(io.get(w.req_addr) as u32);
            if let Some(p) = w.req_len {
                out.push(io.get(p) as u32);
            }
            if let WriteData::WithAddress { data, strb } = w.data {
                for p in [Some(data), strb].into_iter().flatten() {
                    let n = out.len();
                    out.resize(n + words, 0);
                    io.get_wide_into(p, &mut out[n..]);
                }
            }
        });
        let strict = matches!(w.data, WriteData::Channel { .. }) || self.strict;
        handshake(&mut self.stats, &self.name, checked, strict, cycle)?;
        if valid && !self.wreq_ready {
            self.stats.write_stall_cycles += 1;
        } else if valid {
            let addr = io.get(w.req_addr) as u32;
            let len = w.req_len.map_or(0, |p| io.get(p));
            check_burst(addr, len, self.bytes, false)
                .map_err(|v| v.into_error(&self.name, cycle))?;
            let beats = len as u32 + 1;
            self.check(mem, addr, beats, true, cycle)?;
            self.stats.writes += 1;
            moved = true;
            match w.data {
                WriteData::WithAddress { data, strb } => {
                    scratch.resize(2 * words, 0);
                    let (d, s) = scratch.split_at_mut(words);
                    io.get_wide_into(data, d);
                    match strb {
                        Some(p) => io.get_wide_into(p, s),
                        None => s.fill(u32::MAX),
                    }
                    self.write_beat(mem, addr, d, s);
                    self.stats.write_beats += 1;
                    self.complete_write(env, addr, 1, cycle, cycle + 1);
                }
                WriteData::Channel { .. } => self.open_writes.push_back(OpenWrite {
                    addr,
                    beats,
                    received: 0,
                    not_before: 0,
                }),
            }
        }
        let w = self.write.as_ref().expect("a write channel");
        if let WriteData::Channel {
            valid,
            data,
            strb,
            last,
            ..
        } = w.data
        {
            let wvalid = io.get(valid) != 0;
            let beat = |out: &mut Vec<u32>| {
                for p in [Some(data), strb].into_iter().flatten() {
                    let n = out.len();
                    out.resize(n + words, 0);
                    io.get_wide_into(p, &mut out[n..]);
                }
                if strb.is_none() {
                    out.resize(2 * words, u32::MAX);
                }
                out.push(io.get(last) as u32);
            };
            self.checks[2]
                .observe((&self.name, "wdata"), wvalid, self.wdata_ready, beat)
                .map_err(|v| v.into_error(&self.name, cycle))?;
            if wvalid && self.wdata_ready {
                let mut words = Vec::with_capacity(2 * self.words + 1);
                beat(&mut words);
                let last = words.pop() == Some(1);
                self.wbeats.push_back(WBeat { words, last });
                moved = true;
            }
            self.match_beats(mem, env, cycle)?;
        }
        Ok(moved)
    }

    /// Matches buffered data beats to open write bursts (in order): writes them, and
    /// completes the bursts whose last beat arrived.
    fn match_beats(
        &mut self,
        mem: &mut GlobalMemory,
        env: &mut MemEnv,
        cycle: u64,
    ) -> Result<(), SimError> {
        while let (Some(open), false) = (self.open_writes.front(), self.wbeats.is_empty()) {
            let (addr, beats, k) = (open.addr, open.beats, open.received);
            let beat = self.wbeats.pop_front().expect("not empty");
            check_last(k, beats, beat.last).map_err(|v| v.into_error(&self.name, cycle))?;
            let (d, s) = beat.words.split_at(self.words);
            self.write_beat(mem, addr + k * self.bytes, d, s);
            self.stats.write_beats += 1;
            let bus = env.sdram_bus_bytes();
            let open = self.open_writes.front_mut().expect("present");
            if let Some(bus) = bus {
                let ready = words_ready_at(addr, beats, self.bytes, k, bus, cycle);
                open.not_before = open.not_before.max(ready);
            }
            open.received += 1;
            if open.received == beats {
                let not_before = open.not_before;
                self.open_writes.pop_front();
                self.complete_write(env, addr, beats, cycle, not_before);
            }
        }
        Ok(())
    }

    /// Writes the bytes of one beat that `strb` enables (address checked already).
    fn write_beat(&self, mem: &mut GlobalMemory, addr: u32, data: &[u32], strb: &[u32]) {
        for (k, b) in mem.slice_mut(addr, self.bytes).iter_mut().enumerate() {
            if (strb[k / 32] >> (k % 32)) & 1 == 1 {
                *b = (data[k / 4] >> (8 * (k % 4))) as u8;
            }
        }
    }

    /// A write burst has all its data: its response is due after the latency, or when the
    /// SDRAM has written it.
    /// `not_before`: see [`OpenWrite::not_before`].
    fn complete_write(
        &mut self,
        env: &mut MemEnv,
        addr: u32,
        beats: u32,
        cycle: u64,
        not_before: u64,
    ) {
        if let Some((_, wid)) = self.sdram_ids {
            let a = Access {
                not_before,
                ..self.access(addr, beats, AccessKind::Write)
            };
            env.sdram().submit(wid, a);
            self.writes.push_back(UNSCHEDULED);
        } else {
            let lat = env.rng.random_range(self.cfg.write_latency.clone());
            self.writes.push_back(cycle + u64::from(lat));
        }
        self.stats.max_outstanding_writes = self
            .stats
            .max_outstanding_writes
            .max(self.writes.len() + self.open_writes.len());
    }

    /// Executes the atomic with opcode `code` on the element at `addr` (its old value `old`,
    /// little-endian words): writes the new element.
    fn execute_atomic(
        &self,
        io: &impl PortIo,
        mem: &mut GlobalMemory,
        addr: u32,
        code: u8,
        cycle: u64,
        old: &[u32],
    ) -> Result<(), SimError> {
        let r = self.read.as_ref().expect("a read channel");
        let fault = |detail: String| SimError::MemoryFault {
            port: self.name.clone(),
            addr,
            bytes: self.bytes,
            write: true,
            cycle,
            kind: FaultKind::Protocol,
            detail,
        };
        let Some(op) = hwcontract::atomic::AtomicOp::from_opcode(code) else {
            return Err(fault(format!("reserved atomic opcode {code}")));
        };
        if !matches!(self.bytes, 4 | 8) {
            return Err(fault("atomics are on 4- or 8-byte elements".into()));
        }
        let value = |p: Option<PortId>| p.map_or(0, |p| io.get(p));
        let old = u64::from(old[0]) | (u64::from(old[1]) << 32);
        let new = op.apply(
            old,
            value(r.req_operand),
            value(r.req_compare),
            8 * self.bytes,
        );
        for (k, b) in mem.slice_mut(addr, self.bytes).iter_mut().enumerate() {
            *b = (new >> (8 * k)) as u8;
        }
        Ok(())
    }

    /// `beats` elements from `addr`: aligned, and inside one allocation.
    fn check(
        &self,
        mem: &GlobalMemory,
        addr: u32,
        beats: u32,
        write: bool,
        cycle: u64,
    ) -> Result<(), SimError> {
        let fault = |kind, bytes, detail| SimError::MemoryFault {
            port: self.name.clone(),
            addr,
            bytes,
            write,
            cycle,
            kind,
            detail,
        };
        // Elements are aligned to their size, or for sizes that are not a power of two
        // (structs) to the largest power of two dividing it (their alignment divides that).
        let align = self.bytes & self.bytes.wrapping_neg();
        if !addr.is_multiple_of(align) {
            return Err(fault(FaultKind::Misaligned, self.bytes, String::new()));
        }
        let total = self.bytes * beats;
        mem.check(addr, total)
            .map_err(|(kind, detail)| fault(kind, total, detail))
    }

    pub(super) fn outstanding(&self, io: &impl PortIo) -> Outstanding {
        let (reads, writes) = self.owed();
        Outstanding {
            port: self.name.clone(),
            reads,
            writes,
            read_request_waiting: self.read.as_ref().is_some_and(|r| io.get(r.req_valid) != 0),
            write_request_waiting: self
                .write
                .as_ref()
                .is_some_and(|w| io.get(w.req_valid) != 0),
        }
    }
}

/// The outcome of a handshake check of port `name`: an error when `strict` (a bursting
/// channel, or [`RunConfig::strict_handshakes`]), otherwise counted in `stats`.
fn handshake(
    stats: &mut PortStats,
    name: &str,
    checked: Result<(), Violation>,
    strict: bool,
    cycle: u64,
) -> Result<(), SimError> {
    let Err(v) = checked else { return Ok(()) };
    let e = v.into_error(name, cycle);
    if strict {
        return Err(e);
    }
    stats.handshake_violations += 1;
    stats
        .first_handshake_violation
        .get_or_insert_with(|| e.to_string());
    Ok(())
}

/// Memory's side of every handshake of this cycle (before `eval`), for each of `servers`.
pub(super) fn drive_all(
    servers: &mut [MemoryServer],
    io: &mut impl PortIo,
    env: &mut MemEnv,
    cycle: u64,
) {
    for p in servers {
        p.drive(io, env, cycle);
    }
}

/// The transfers of the coming edge (after `eval`) of each of `servers`; whether any request
/// or response moved.
pub(super) fn transfer_all(
    servers: &mut [MemoryServer],
    io: &impl PortIo,
    mem: &mut GlobalMemory,
    env: &mut MemEnv,
    cycle: u64,
    scratch: &mut Vec<u32>,
) -> Result<bool, SimError> {
    let mut moved = false;
    for p in servers {
        moved |= p.transfer(io, mem, env, cycle, scratch)?;
    }
    Ok(moved)
}

/// The first of `servers` that still owes responses or acknowledgements.
pub(super) fn owing(servers: &[MemoryServer]) -> Option<&MemoryServer> {
    servers.iter().find(|p| p.owed() != (0, 0))
}

#[cfg(test)]
#[path = "mem_server_tests.rs"]
mod tests;

/// Beat `k` (of `beats` beats of `bytes` from `addr`) arrived in `cycle`: the earliest cycle
/// the burst's first bus word (of `bus` bytes) may be written so that each word it completes,
/// written one per cycle after the first, is written after its data arrived.
fn words_ready_at(addr: u32, beats: u32, bytes: u32, k: u32, bus: u32, cycle: u64) -> u64 {
    let (addr, bytes, bus) = (u64::from(addr), u64::from(bytes), u64::from(bus));
    let first = addr / bus;
    let lo = addr + u64::from(k) * bytes;
    let hi = lo + bytes - 1;
    // The first word this beat completes is the word of its first byte, when that word ends
    // within the beat (or the burst does); an earlier one would have been completed before.
    if (lo / bus + 1) * bus - 1 > hi && k + 1 != beats {
        return 0;
    }
    let first_done = lo / bus;
    // It is written `first_done - first` words after the first word, and later words of the
    // beat later still: the first word may go that many cycles before the data came.
    (cycle + 1).saturating_sub(first_done - first)
}
