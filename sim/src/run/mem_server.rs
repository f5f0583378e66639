//! The memory server of one pointer port: memory's side of the request and response
//! handshakes, with random latency (responses in request order), random back-pressure, a bound
//! on outstanding requests, and a fault for every misaligned or out-of-buffer access.

use std::collections::VecDeque;

use rand::rngs::StdRng;
use rand::Rng;

use crate::memory::GlobalMemory;
use crate::model::{Model, PortId};
use crate::{Outstanding, SimError};

use super::config::{MemConfig, RunConfig};
use super::ports::{KernelPorts, PointerArg};
use super::stats::PortStats;

/// One memory server per pointer port of `kernel`; `config.port_memory` entries are looked up
/// by `<prefix><pointer>` and marked in `used`.
pub(super) fn memory_servers(
    kernel: &KernelPorts,
    model: &Model,
    config: &RunConfig,
    used: &mut [bool],
) -> Result<Vec<MemoryServer>, SimError> {
    servers_of(&kernel.prefix, &kernel.pointers, model, config, used)
}

/// One memory server per pointer port `<prefix><pointer>` of `pointers` (checked ports).
pub(super) fn servers_of(
    prefix: &str,
    pointers: &[PointerArg],
    model: &Model,
    config: &RunConfig,
    used: &mut [bool],
) -> Result<Vec<MemoryServer>, SimError> {
    let id = |s: String| model.port(&s).expect("checked by discover");
    let mut out = Vec::new();
    for p in pointers {
        let (local, read, write) = (&p.name, p.reads, p.writes);
        let name = format!("{prefix}{local}");
        let chosen = config.port_memory.iter().rposition(|(n, _)| *n == name);
        if let Some(k) = chosen {
            used[k] = true;
        }
        let cfg = chosen
            .map_or(&config.memory, |k| &config.port_memory[k].1)
            .clone();
        cfg.validate(&name)?;
        let data = if read {
            format!("{name}_rresp_data")
        } else {
            format!("{name}_wreq_data")
        };
        let bytes = model.spec(id(data)).width / 8;
        out.push(MemoryServer {
            bytes,
            read: read.then(|| ReadPorts {
                req_valid: id(format!("{name}_rreq_valid")),
                req_ready: id(format!("{name}_rreq_ready")),
                req_addr: id(format!("{name}_rreq_addr")),
                resp_valid: id(format!("{name}_rresp_valid")),
                resp_ready: id(format!("{name}_rresp_ready")),
                resp_data: id(format!("{name}_rresp_data")),
                req_op: model.port(&format!("{name}_rreq_op")),
                req_operand: model.port(&format!("{name}_rreq_operand")),
                req_compare: model.port(&format!("{name}_rreq_compare")),
            }),
            write: write.then(|| WritePorts {
                req_valid: id(format!("{name}_wreq_valid")),
                req_ready: id(format!("{name}_wreq_ready")),
                req_addr: id(format!("{name}_wreq_addr")),
                req_data: id(format!("{name}_wreq_data")),
                req_strb: model.port(&format!("{name}_wreq_strb")),
                resp_valid: id(format!("{name}_wresp_valid")),
                resp_ready: id(format!("{name}_wresp_ready")),
            }),
            cfg,
            reads: VecDeque::new(),
            writes: VecDeque::new(),
            rreq_ready: false,
            wreq_ready: false,
            rresp_valid: false,
            wresp_valid: false,
            stats: PortStats {
                name: local.clone(),
                element_bytes: bytes,
                ..PortStats::default()
            },
            name,
        });
    }
    Ok(out)
}

struct ReadPorts {
    req_valid: PortId,
    req_ready: PortId,
    req_addr: PortId,
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
    req_data: PortId,
    /// Byte enables (bit i: byte i of the element), when the kernel writes parts of elements.
    req_strb: Option<PortId>,
    resp_valid: PortId,
    resp_ready: PortId,
}

struct PendingRead {
    ready_at: u64,
    /// Little-endian words of the element (two for elements up to 64 bits).
    data: Box<[u32]>,
}

/// The memory server of one pointer port.
pub(super) struct MemoryServer {
    /// The port name with the kernel prefix (`K__a`).
    pub(super) name: String,
    bytes: u32,
    read: Option<ReadPorts>,
    write: Option<WritePorts>,
    cfg: MemConfig,
    reads: VecDeque<PendingRead>,
    /// Cycle at which each write acknowledgement becomes valid.
    writes: VecDeque<u64>,
    // This cycle's decisions, made in `drive` and used in `transfer`.
    rreq_ready: bool,
    wreq_ready: bool,
    rresp_valid: bool,
    wresp_valid: bool,
    pub(super) stats: PortStats,
}

impl MemoryServer {
    /// Read responses and write acknowledgements memory still owes the kernel.
    pub(super) fn owed(&self) -> (usize, usize) {
        (self.reads.len(), self.writes.len())
    }

    /// Sets memory's side of the handshakes for this cycle, from memory state only.
    pub(super) fn drive(&mut self, model: &mut Model, rng: &mut StdRng, cycle: u64) {
        let stall = |rng: &mut StdRng, p: f64| p > 0.0 && rng.random_bool(p);
        if let Some(r) = &self.read {
            self.rreq_ready = self.reads.len() < self.cfg.max_outstanding
                && !stall(rng, self.cfg.stall_probability);
            model.set(r.req_ready, u64::from(self.rreq_ready));
            let head = self.reads.front().filter(|h| h.ready_at <= cycle);
            self.rresp_valid = head.is_some();
            model.set(r.resp_valid, u64::from(self.rresp_valid));
            if let Some(h) = head {
                model.set_wide(r.resp_data, &h.data);
            }
        }
        if let Some(w) = &self.write {
            self.wreq_ready = self.writes.len() < self.cfg.max_outstanding
                && !stall(rng, self.cfg.stall_probability);
            model.set(w.req_ready, u64::from(self.wreq_ready));
            self.wresp_valid = self.writes.front().is_some_and(|&t| t <= cycle);
            model.set(w.resp_valid, u64::from(self.wresp_valid));
        }
    }

    /// Performs the transfers of the coming edge (after the model was evaluated); whether any
    /// request or response moved.
    pub(super) fn transfer(
        &mut self,
        model: &Model,
        mem: &mut GlobalMemory,
        rng: &mut StdRng,
        cycle: u64,
        scratch: &mut Vec<u32>,
    ) -> Result<bool, SimError> {
        let mut moved = false;
        if let Some(r) = &self.read {
            if self.rresp_valid {
                if model.get(r.resp_ready) != 0 {
                    self.reads.pop_front();
                    moved = true;
                } else {
                    self.stats.read_response_blocked_cycles += 1;
                }
            }
            if model.get(r.req_valid) != 0 {
                if self.rreq_ready {
                    let addr = model.get(r.req_addr) as u32;
                    self.check(mem, addr, false, cycle)?;
                    let bytes = mem.slice(addr, self.bytes);
                    let mut data = vec![0u32; (self.bytes as usize).div_ceil(4).max(2)];
                    for (k, b) in bytes.iter().enumerate() {
                        data[k / 4] |= u32::from(*b) << (8 * (k % 4));
                    }
                    // An atomic: memory writes the new element in the same step.
                    let code = r.req_op.map_or(0, |p| model.get(p) as u8);
                    if code != hwcontract::atomic::OP_READ {
                        self.execute_atomic(model, mem, r, addr, code, cycle, &data)?;
                        self.stats.atomics += 1;
                    }
                    let lat = rng.random_range(self.cfg.read_latency.clone());
                    self.reads.push_back(PendingRead {
                        ready_at: cycle + u64::from(lat),
                        data: data.into_boxed_slice(),
                    });
                    self.stats.reads += 1;
                    moved = true;
                    self.stats.max_outstanding_reads =
                        self.stats.max_outstanding_reads.max(self.reads.len());
                } else {
                    self.stats.read_stall_cycles += 1;
                }
            }
        }
        if let Some(w) = &self.write {
            if self.wresp_valid {
                if model.get(w.resp_ready) != 0 {
                    self.writes.pop_front();
                    moved = true;
                } else {
                    self.stats.write_response_blocked_cycles += 1;
                }
            }
            if model.get(w.req_valid) != 0 {
                if self.wreq_ready {
                    let addr = model.get(w.req_addr) as u32;
                    self.check(mem, addr, true, cycle)?;
                    let words = (self.bytes as usize).div_ceil(4).max(2);
                    scratch.resize(2 * words, 0);
                    let (data, strb) = scratch.split_at_mut(words);
                    model.get_wide_into(w.req_data, data);
                    match w.req_strb {
                        Some(p) => model.get_wide_into(p, strb),
                        None => strb.fill(u32::MAX),
                    }
                    for (k, b) in mem.slice_mut(addr, self.bytes).iter_mut().enumerate() {
                        if (strb[k / 32] >> (k % 32)) & 1 == 1 {
                            *b = (data[k / 4] >> (8 * (k % 4))) as u8;
                        }
                    }
                    let lat = rng.random_range(self.cfg.write_latency.clone());
                    self.writes.push_back(cycle + u64::from(lat));
                    self.stats.writes += 1;
                    moved = true;
                    self.stats.max_outstanding_writes =
                        self.stats.max_outstanding_writes.max(self.writes.len());
                } else {
                    self.stats.write_stall_cycles += 1;
                }
            }
        }
        Ok(moved)
    }

    /// Executes the atomic with opcode `code` on the element at `addr` (its old value `old`,
    /// little-endian words): writes the new element.
    #[allow(clippy::too_many_arguments)]
    fn execute_atomic(
        &self,
        model: &Model,
        mem: &mut GlobalMemory,
        r: &ReadPorts,
        addr: u32,
        code: u8,
        cycle: u64,
        old: &[u32],
    ) -> Result<(), SimError> {
        let fault = |detail: String| SimError::MemoryFault {
            port: self.name.clone(),
            addr,
            bytes: self.bytes,
            write: true,
            cycle,
            kind: crate::FaultKind::Protocol,
            detail,
        };
        let Some(op) = hwcontract::atomic::AtomicOp::from_opcode(code) else {
            return Err(fault(format!("reserved atomic opcode {code}")));
        };
        if !matches!(self.bytes, 4 | 8) {
            return Err(fault("atomics are on 4- or 8-byte elements".into()));
        }
        let value = |p: Option<PortId>| p.map_or(0, |p| model.get(p));
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

    fn check(
        &self,
        mem: &GlobalMemory,
        addr: u32,
        write: bool,
        cycle: u64,
    ) -> Result<(), SimError> {
        let fault = |kind, detail| SimError::MemoryFault {
            port: self.name.clone(),
            addr,
            bytes: self.bytes,
            write,
            cycle,
            kind,
            detail,
        };
        // Elements are aligned to their size, or for sizes that are not a power of two
        // (structs) to the largest power of two dividing it (their alignment divides that).
        let align = self.bytes & self.bytes.wrapping_neg();
        if !addr.is_multiple_of(align) {
            return Err(fault(crate::FaultKind::Misaligned, String::new()));
        }
        mem.check(addr, self.bytes)
            .map_err(|(kind, detail)| fault(kind, detail))
    }

    pub(super) fn outstanding(&self, model: &Model) -> Outstanding {
        Outstanding {
            port: self.name.clone(),
            reads: self.reads.len(),
            writes: self.writes.len(),
            read_request_waiting: self
                .read
                .as_ref()
                .is_some_and(|r| model.get(r.req_valid) != 0),
            write_request_waiting: self
                .write
                .as_ref()
                .is_some_and(|w| model.get(w.req_valid) != 0),
        }
    }
}

/// Memory's side of every handshake of this cycle (before `eval`), for each of `servers`.
pub(super) fn drive_all(
    servers: &mut [MemoryServer],
    model: &mut Model,
    rng: &mut StdRng,
    cycle: u64,
) {
    for p in servers {
        p.drive(model, rng, cycle);
    }
}

/// The transfers of the coming edge (after `eval`) of each of `servers`; whether any request
/// or response moved.
pub(super) fn transfer_all(
    servers: &mut [MemoryServer],
    model: &Model,
    mem: &mut GlobalMemory,
    rng: &mut StdRng,
    cycle: u64,
    scratch: &mut Vec<u32>,
) -> Result<bool, SimError> {
    let mut moved = false;
    for p in servers {
        moved |= p.transfer(model, mem, rng, cycle, scratch)?;
    }
    Ok(moved)
}

/// The first of `servers` that still owes responses or acknowledgements.
pub(super) fn owing(servers: &[MemoryServer]) -> Option<&MemoryServer> {
    servers.iter().find(|p| p.owed() != (0, 0))
}
