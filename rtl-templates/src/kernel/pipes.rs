//! Pipe operations of a kernel and the kernel's pipe ports (docs/hardware-interface.md,
//! "Pipes in a kernel").
//!
//! Every pipe op asks for its FIFO port (`rq`: its stage holds a work-item and its predicate
//! holds) and fires when its pipeline is not stalled (`fire = rq && !stall`). The FIFO's
//! statuses never depend on a strobe, so a blocking op may stall its pipeline on the status
//! without a combinational loop: the port's operands are multiplexed by `rq`, never by `fire`.
//!
//! Several ops may use one port: within a pipeline the modulo schedule puts them in different
//! slots (never valid together), and a pipeline that started a nested loop is frozen while the
//! loop runs, so the deepest requesting pipeline has priority. The lowering orders the pipe ops
//! of consecutive iterations, so a frozen pipeline never holds a read result the running loop
//! could overwrite (read data and reservation ids come back registered, one cycle after the
//! op, and are consumed from there).

use super::interface::PortDir;
use super::stall::StallTerm;
use super::Emitter;
use crate::writer::{bit_range, literal, select_chain, VWriter};
use hls_ir::{Kernel, OpId, OpKind, PipeId, PipeSide};
use std::collections::BTreeMap;

/// Which FIFO port an op uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum PortKind {
    Data,
    Reserve,
    Commit,
}

/// One request of a pipe op for its FIFO port.
#[derive(Clone, Debug)]
pub(super) struct PipeReq {
    pub depth: usize,
    pub port: PortKind,
    pub rq: String,
    pub fire: String,
    /// A blocking op's refused offer (`rq && !ok`): raised on the strobe too, so the system
    /// sees the side waiting (the FIFO ignores a refused operation).
    pub refused: Option<String>,
    /// The FIFO port operands the op drives.
    pub operands: Vec<PortOperand>,
    /// A commit's condition: its reserve id is valid (a commit of an invalid id does nothing).
    pub commit_valid: Option<String>,
}

/// One operand a pipe op drives on its FIFO port.
#[derive(Clone, Debug)]
pub(super) struct PortOperand {
    /// The FIFO port's suffix (`wr_data`, `rd_slot_id` ...).
    pub port: &'static str,
    pub value: String,
}

fn operand(port: &'static str, value: String) -> PortOperand {
    PortOperand { port, value }
}

/// A kernel-side port of a pipe.
#[derive(Clone, Debug)]
pub(super) struct PipePort {
    /// The suffix after the pipe's prefix (`wr_valid`, `num_packets` ...).
    pub suffix: String,
    pub dir: PortDir,
    pub width: u32,
}

/// The port prefix of pipe `p` (`<argument name>_`).
pub(super) fn pipe_prefix(k: &Kernel, p: PipeId) -> String {
    format!("{}_", crate::namer::legal(&k.pipes[p].name))
}

/// Width of a reservation table index.
pub(super) fn id_bits(max_res: u32) -> u32 {
    hwcontract::pipe::id_width(max_res)
}

/// The kernel-side ports of pipe `p` used by the kernel.
pub(super) fn pipe_ports(k: &Kernel, p: PipeId) -> Vec<PipePort> {
    let pipe = &k.pipes[p];
    let s = if pipe.side == PipeSide::Write {
        "wr"
    } else {
        "rd"
    };
    let idw = id_bits(pipe.max_reservations);
    let (mut data, mut slot, mut res, mut commit, mut num, mut max) =
        (false, false, false, false, false, false);
    for o in k.op_ids() {
        match k.op(o).kind {
            OpKind::PipeRead {
                pipe: q, reserved, ..
            }
            | OpKind::PipeWrite {
                pipe: q, reserved, ..
            } if q == p => {
                data = true;
                slot |= reserved;
            }
            OpKind::PipeReserve { pipe: q, .. } if q == p => res = true,
            OpKind::PipeCommit { pipe: q, .. } if q == p => commit = true,
            OpKind::PipeQuery { pipe: q, query } if q == p => match query {
                hls_ir::PipeQuery::NumPackets => num = true,
                hls_ir::PipeQuery::MaxPackets => max = true,
            },
            _ => {}
        }
    }
    use PortDir::{In, Out};
    let mut v: Vec<PipePort> = Vec::new();
    let mut port = |suffix: String, dir, width| v.push(PipePort { suffix, dir, width });
    let w = pipe.packet_bits;
    if data {
        port(format!("{s}_valid"), Out, 1);
        if slot {
            port(format!("{s}_slot"), Out, 1);
            port(format!("{s}_slot_id"), Out, idw);
            port(format!("{s}_slot_idx"), Out, 32);
        }
        if pipe.side == PipeSide::Write {
            port("wr_data".into(), Out, w);
        }
        port(format!("{s}_ok"), In, 1);
        if pipe.side == PipeSide::Read {
            port("rd_data".into(), In, w);
        }
    }
    if res {
        port(format!("{s}_res_req"), Out, 1);
        port(format!("{s}_res_n"), Out, 32);
        port(format!("{s}_res_ok"), In, 1);
        port(format!("{s}_res_id"), In, idw);
    }
    if commit {
        port(format!("{s}_commit"), Out, 1);
        port(format!("{s}_commit_id"), Out, idw);
    }
    if num {
        port("num_packets".into(), In, 32);
    }
    if max {
        port("max_packets".into(), In, 32);
    }
    v
}

impl Emitter<'_> {
    /// The port prefix of pipe `p` (`<argument name>_`).
    fn pipe_prefix(&self, p: PipeId) -> String {
        pipe_prefix(self.k, p)
    }

    fn side(&self, p: PipeId) -> &'static str {
        if self.k.pipes[p].side == PipeSide::Write {
            "wr"
        } else {
            "rd"
        }
    }

    /// Region depth in the loop tree (the work-item loop is 0).
    fn region_depth(&self, r: usize) -> usize {
        let mut d = 0;
        let mut cur = self.plan.regions[r].parent;
        while let Some(p) = cur {
            d += 1;
            cur = self.plan.regions[p].parent;
        }
        d
    }

    /// Emits pipe op `o` of the current region at cycle `c`; returns the value expression for
    /// ops with a value.
    pub(super) fn emit_pipe_op(
        &mut self,
        w: &mut VWriter,
        o: OpId,
        c: u32,
        reqs: &mut BTreeMap<PipeId, Vec<PipeReq>>,
    ) -> Option<String> {
        let op = self.k.op(o);
        let name = self.plan.names[&o].clone();
        let args = self.k.operands(o);
        let vals: Vec<String> = args.iter().map(|&x| self.val(x, c)).collect();
        let a = |i: usize| vals[i].clone();
        if let OpKind::PipeQuery { pipe, query } = op.kind {
            let port = match query {
                hls_ir::PipeQuery::NumPackets => "num_packets",
                hls_ir::PipeQuery::MaxPackets => "max_packets",
            };
            return Some(format!("{}{port}", self.pipe_prefix(pipe)));
        }
        let pred = a(args.len() - 1);
        let rq = format!("{name}_rq");
        let fire = format!("{name}_fire");
        let st = self.stall();
        w.wire(&rq, 1, &format!("{} && {pred}", self.valid(c)));
        w.wire(&fire, 1, &format!("{rq} && !{st}"));
        let depth = self.region_depth(self.cur);
        let (pipe, port, blocking, operands, commit_valid, value) = match op.kind {
            OpKind::PipeRead {
                pipe,
                reserved,
                blocking,
            }
            | OpKind::PipeWrite {
                pipe,
                reserved,
                blocking,
            } => {
                let pre = self.pipe_prefix(pipe);
                let write = matches!(op.kind, OpKind::PipeWrite { .. });
                let [slot, slot_id, slot_idx] = if write {
                    ["wr_slot", "wr_slot_id", "wr_slot_idx"]
                } else {
                    ["rd_slot", "rd_slot_id", "rd_slot_idx"]
                };
                let mut ops = Vec::new();
                if reserved {
                    let idw = id_bits(self.k.pipes[pipe].max_reservations);
                    ops.push(operand(slot, "1'b1".to_string()));
                    ops.push(operand(slot_id, self.rid_index(args[0], c, idw)));
                    ops.push(operand(slot_idx, a(1)));
                } else if self.pipe_has_slots(pipe) {
                    ops.push(operand(slot, "1'b0".to_string()));
                }
                let v = if write {
                    ops.push(operand("wr_data", a(args.len() - 2)));
                    format!("{pre}wr_ok")
                } else {
                    format!("{{{pre}rd_okq, {pre}rd_data}}")
                };
                (pipe, PortKind::Data, blocking, ops, None, Some(v))
            }
            OpKind::PipeReserve { pipe, blocking, .. } => {
                let pre = self.pipe_prefix(pipe);
                let s = self.side(pipe);
                let idw = id_bits(self.k.pipes[pipe].max_reservations);
                let pad = hls_ir::RESERVE_ID_VALID_BIT - idw;
                let ops = vec![operand(
                    if s == "wr" { "wr_res_n" } else { "rd_res_n" },
                    a(0),
                )];
                let v = format!(
                    "{{{}'d0, {pre}{s}_res_okq, {}{pre}{s}_res_idq}}",
                    31 - hls_ir::RESERVE_ID_VALID_BIT,
                    if pad > 0 {
                        format!("{}, ", literal(0, pad))
                    } else {
                        String::new()
                    }
                );
                (pipe, PortKind::Reserve, blocking, ops, None, Some(v))
            }
            OpKind::PipeCommit { pipe, .. } => {
                let s = self.side(pipe);
                let idw = id_bits(self.k.pipes[pipe].max_reservations);
                let id = self.rid_index(args[0], c, idw);
                let valid = self.rid_valid(args[0], c);
                let port = if s == "wr" {
                    "wr_commit_id"
                } else {
                    "rd_commit_id"
                };
                let ops = vec![operand(port, id)];
                (pipe, PortKind::Commit, false, ops, Some(valid), None)
            }
            _ => unreachable!("emit_pipe_op is called for pipe ops"),
        };
        let mut refused = None;
        if blocking {
            let pre = self.pipe_prefix(pipe);
            let s = self.side(pipe);
            let ok = match port {
                PortKind::Reserve => format!("{pre}{s}_res_ok"),
                _ => format!("{pre}{s}_ok"),
            };
            let r = format!("({rq} && !{ok})");
            self.control[self.cur]
                .stall_terms
                .push(StallTerm::now(r.clone()));
            refused = Some(r);
        }
        reqs.entry(pipe).or_default().push(PipeReq {
            depth,
            port,
            rq,
            fire,
            refused,
            operands,
            commit_valid,
        });
        value
    }

    /// Whether any op of `p` uses a reservation slot (the kernel then drives `*_slot`).
    fn pipe_has_slots(&self, p: PipeId) -> bool {
        self.k.op_ids().into_iter().any(|o| {
            matches!(self.k.op(o).kind,
                OpKind::PipeRead { pipe, reserved: true, .. }
                | OpKind::PipeWrite { pipe, reserved: true, .. } if pipe == p)
        })
    }

    /// The table index bits of reserve id `rid` (an i32 value) at cycle `c`.
    fn rid_index(&mut self, rid: OpId, c: u32, idw: u32) -> String {
        self.rid_bits(rid, c, idw - 1, 0)
    }

    /// The valid bit of reserve id `rid` at cycle `c`.
    fn rid_valid(&mut self, rid: OpId, c: u32) -> String {
        let b = hls_ir::RESERVE_ID_VALID_BIT;
        self.rid_bits(rid, c, b, b)
    }

    /// Bits `hi:lo` of a reserve id; the bits no pipe op reads are marked unused.
    fn rid_bits(&mut self, rid: OpId, c: u32, hi: u32, lo: u32) -> String {
        if let OpKind::Const(v) = self.k.op(rid).kind {
            let n = hi - lo + 1;
            return literal((v >> lo) & ((1u64 << n) - 1), n);
        }
        let v = self.val(rid, c);
        // The other bits of the id are not needed here.
        self.unused.push(v.clone());
        bit_range(&v, hi, lo)
    }

    /// The registers holding read data status and reservation ids, and the multiplexers in
    /// front of each FIFO port.
    pub(super) fn emit_pipe_ports(
        &mut self,
        w: &mut VWriter,
        reqs: &BTreeMap<PipeId, Vec<PipeReq>>,
    ) {
        for (&p, list) in reqs {
            let pre = self.pipe_prefix(p);
            let s = self.side(p);
            let pipe = &self.k.pipes[p];
            let idw = id_bits(pipe.max_reservations);
            w.comment(format!(
                "---- Pipe `{}` ({} side, {}-bit packets): the FIFO is outside the kernel (system top)",
                pipe.name,
                if s == "wr" { "write" } else { "read" },
                pipe.packet_bits
            ));
            for port in [PortKind::Data, PortKind::Reserve, PortKind::Commit] {
                let mut ops: Vec<&PipeReq> = list.iter().filter(|r| r.port == port).collect();
                if ops.is_empty() {
                    continue;
                }
                // The deepest pipeline first: a pipeline with a loop running is frozen.
                ops.sort_by_key(|r| std::cmp::Reverse(r.depth));
                let strobe = match port {
                    PortKind::Data => format!("{pre}{s}_valid"),
                    PortKind::Reserve => format!("{pre}{s}_res_req"),
                    PortKind::Commit => format!("{pre}{s}_commit"),
                };
                // Fires, each masked by the requests of higher priority; the strobe also
                // carries blocking ops' refused offers (no effect in the FIFO), while the
                // result registers below take only real fires.
                let mut fires = Vec::new();
                let mut offers = Vec::new();
                for (i, r) in ops.iter().enumerate() {
                    let higher: Vec<String> = ops[..i].iter().map(|h| h.rq.clone()).collect();
                    let mask = if higher.is_empty() {
                        String::new()
                    } else {
                        format!(" && !({})", higher.join(" || "))
                    };
                    let mut f = format!("{}{mask}", r.fire);
                    if let Some(valid) = &r.commit_valid {
                        f = format!("{f} && {valid}");
                    }
                    fires.push(format!("({f})"));
                    if let Some(x) = &r.refused {
                        offers.push(format!("({x}{mask})"));
                    }
                }
                let fired = if offers.is_empty() {
                    strobe.clone()
                } else {
                    let fired = format!("{strobe}_fired");
                    w.wire(&fired, 1, &fires.join(" || "));
                    offers.insert(0, fired.clone());
                    fires = offers;
                    fired
                };
                w.assign(&strobe, &fires.join(" || "));
                // Operands: by request, in priority order.
                // Every port operand any of them drives, in first-seen order.
                let mut all_names: Vec<&'static str> = Vec::new();
                for q in ops.iter().flat_map(|r| &r.operands) {
                    if !all_names.contains(&q.port) {
                        all_names.push(q.port);
                    }
                }
                for n in all_names {
                    let cases: Vec<(String, String)> = ops
                        .iter()
                        .map(|r| {
                            let v = r
                                .operands
                                .iter()
                                .find(|q| q.port == n)
                                .map(|q| q.value.clone())
                                .unwrap_or_else(|| default_operand(n, idw));
                            (r.rq.clone(), v)
                        })
                        .collect();
                    w.assign(&format!("{pre}{n}"), &select_chain(&cases));
                }
                match port {
                    PortKind::Data if s == "rd" => {
                        let q = format!("{pre}rd_okq");
                        w.reg(&q, 1);
                        w.always_ff(|w| {
                            w.line(format!(
                                "if (rst) {q} <= 1'b0; else if ({fired}) {q} <= {pre}rd_ok;"
                            ));
                        });
                    }
                    PortKind::Reserve => {
                        let (okq, idq) = (format!("{pre}{s}_res_okq"), format!("{pre}{s}_res_idq"));
                        w.reg(&okq, 1);
                        w.reg(&idq, idw);
                        w.always_ff(|w| {
                            w.block(&format!("if ({fired})"), |w| {
                                w.line(format!("{okq} <= {pre}{s}_res_ok;"));
                                w.line(format!("{idq} <= {pre}{s}_res_id;"));
                            });
                        });
                    }
                    _ => {}
                }
            }
        }
    }
}

/// Value of a port operand for an op that does not drive it (a plain write on a pipe whose
/// other ops use reservations).
fn default_operand(n: &str, idw: u32) -> String {
    match n {
        "wr_slot" | "rd_slot" => "1'b0".into(),
        "wr_slot_id" | "rd_slot_id" => literal(0, idw),
        _ => "32'd0".into(),
    }
}
