//! Atomics on on-chip (local) memory: a read-modify-write over three stages, so that neither
//! the array read nor the write is in the same cycle as the operation
//! (docs/hardware-interface.md, "Atomics on local memory").
//!
//! An atomic issued in stage `c` reads its element like a load (the read register `q` of its
//! port, there in `c + 1`). In `c + 1` its old value is that read, corrected by the writes the
//! read missed, and its new value is computed and registered; in `c + 2` the new value is
//! written. The writes a read at edge `e` misses are the one at `e` itself (the array is read
//! before it is written) and, when the reader is in `c + 1` in cycle `e + 1`, the one of that
//! cycle: the previous work-item's atomic, one stage ahead. So each read port notes, with its
//! data, its element (`q_a`) and whether the write at its edge hit it (`q_hit`, `q_hd`), and
//! every reader of the memory (atomics and loads alike) takes, in this order, the write of the
//! current cycle that its pipeline would make to that element, the write of its read edge, or
//! the array's data (`<op>_rd`). A pending write of the current cycle is counted without the
//! stall: if the pipeline stalls, the reader does not move either and repeats the choice
//! next cycle; writes of other pipelines never happen in a cycle in which the reader's moves
//! (the regions using one on-chip memory never run at the same time).
//!
//! The path from one atomic to the next (the new value, registered, as the pending write's
//! data, through the choice and the operation back into the register) has one 3-input choice
//! and the operation; the array's read and write are off it.

use super::memory::{onchip_port_names, OnchipIndex};
use super::Emitter;
use crate::writer::{select_chain, VWriter};
use hls_ir::{AtomicOp, MemId, OpId, OpKind};

/// A write to an on-chip memory with atomics, as its readers see it before it happens.
pub(super) struct PendingWrite {
    /// The pipeline (region) it belongs to.
    pub region: usize,
    /// Its write stage holds a work-item whose predicate holds (the stall left out).
    pub would: String,
    /// The element index it writes.
    pub ix: String,
    pub data: String,
}

impl Emitter<'_> {
    /// The new value of on-chip atomic `a` (computed in its second stage from the forwarded
    /// old value `<a>_rd` and the operands, registered) and its write in the third.
    pub(super) fn onchip_atomic_write(
        &mut self,
        w: &mut VWriter,
        id: MemId,
        a: OpId,
        index: &OnchipIndex,
    ) -> PendingWrite {
        self.cur = self.plan.region_of(a);
        let p = self.plan.mems.mems[&id].prefix.clone();
        let OpKind::Atomic { op, .. } = self.k.op(a).kind else {
            unreachable!("only atomics are passed here")
        };
        let ops = self.k.operands(a);
        let c1 = self.plan.start(a) + self.plan.load_latency(a);
        let c2 = c1 + 1;
        let name = self.plan.names[&a].clone();
        let bits = self.k.op(a).ty.bits();
        let old = format!("{name}_rd");
        let x = self.val(ops[1], c1);
        let cx = match self.k.op(ops[1]).kind {
            OpKind::Const(v) => Some(v),
            _ => None,
        };
        let min_max = |b| hls_ir::integer::decided_min_max(b, bits, cx, None);
        let new = match op {
            // `atomic_max(p, 0u)`, ...: the constant decides (and `0 > old` would be a lint
            // warning); the value is still written, like any atomic's.
            AtomicOp::MinS | AtomicOp::MinU | AtomicOp::MaxS | AtomicOp::MaxU
                if min_max(min_max_op(op)).is_some() =>
            {
                if min_max(min_max_op(op)) == Some(0) {
                    x
                } else {
                    old.clone()
                }
            }
            AtomicOp::Add => format!("{old} + {x}"),
            AtomicOp::Sub => format!("{old} - {x}"),
            AtomicOp::Xchg => x,
            AtomicOp::CmpXchg => format!("({old} == {}) ? {x} : {old}", self.val(ops[2], c1)),
            AtomicOp::MinS => format!("($signed({x}) < $signed({old})) ? {x} : {old}"),
            AtomicOp::MinU => format!("({x} < {old}) ? {x} : {old}"),
            AtomicOp::MaxS => format!("($signed({x}) > $signed({old})) ? {x} : {old}"),
            AtomicOp::MaxU => format!("({x} > {old}) ? {x} : {old}"),
            AtomicOp::And => format!("{old} & {x}"),
            AtomicOp::Or => format!("{old} | {x}"),
            AtomicOp::Xor => format!("{old} ^ {x}"),
        };
        let nv = format!("{name}_new");
        w.wire(&nv, bits, &new);
        let nr = format!("{name}_new_r");
        w.reg(&nr, bits);
        let st = self.stall();
        w.always_ff(|w| {
            w.line(format!("if (!{st}) {nr} <= {nv};"));
        });
        let pred = self.val(*ops.last().expect("predicated"), c2);
        let would = format!("{name}_would");
        w.wire(&would, 1, &format!("{} && {pred}", self.valid(c2)));
        let wa = format!("{p}_wa_v{}", a.0);
        let av = self.val(ops[0], c2);
        w.wire(&wa, 32, &av);
        let ix = self.onchip_index(index, wa);
        PendingWrite {
            region: self.cur,
            would,
            ix,
            data: nr,
        }
    }

    /// The value every reader of on-chip memory `id` (with atomics) sees, `<op>_rd`: the
    /// pending write of its pipeline to its element, else the write of its read edge, else
    /// the array's data.
    pub(super) fn emit_forwarded_reads(
        &mut self,
        w: &mut VWriter,
        id: MemId,
        pending: &[PendingWrite],
    ) {
        let bits = self.k.mem(id).elem.bits().max(8);
        let m = &self.plan.mems.mems[&id];
        let p = m.prefix.clone();
        for l in m.loads.clone() {
            let r = self.plan.region_of(l);
            let q = onchip_port_names(&p, self.plan.mems.onchip_port[&l]).1;
            let mut v = if self.plan.load_latency(l) == 2 {
                format!("{q}_r_hit1 ? {q}_r_hd1 : {q}_r_hit0 ? {q}_r_hd0 : {q}_r")
            } else {
                format!("{q}_hit ? {q}_hd : {q}")
            };
            let a = if self.plan.load_latency(l) == 2 {
                format!("{q}_r_a")
            } else {
                format!("{q}_a")
            };
            let mut mine = pending.iter().rev().filter(|pw| pw.region == r).peekable();
            if mine.peek().is_none() {
                // A read in a pipeline without atomics on this memory (another phase of a
                // kernel with barriers): nothing pending to compare its element with.
                self.unused.push(a.clone());
            }
            for pw in mine {
                v = format!("({} && {} == {a}) ? {} : {v}", pw.would, pw.ix, pw.data);
            }
            w.wire(&format!("{}_rd", self.plan.names[&l]), bits, &v);
        }
    }

    /// Read port `q` of on-chip memory `p` (with atomics) at read latency 2: its data, element
    /// and hit of the read edge move into a second register set (`<q>_r...`) when the pipeline
    /// that read moves, with the hit of the write at that edge (`<q>_r_hit1`). `reads` are the
    /// port's read enables with their pipelines (regions); with several pipelines the port
    /// notes which one read last (`<q>_rg`; they never run at the same time).
    pub(super) fn emit_second_read_stage(
        &mut self,
        w: &mut VWriter,
        (p, q): (&str, &str),
        reads: &[(String, usize)],
        (aw, bits): (u32, u32),
    ) {
        let mut regions: Vec<usize> = reads.iter().map(|(_, r)| *r).collect();
        regions.sort_unstable();
        regions.dedup();
        let stall = |r: usize| format!("{}stall", self.plan.regions[r].pre);
        let moves = if let [r] = regions[..] {
            format!("!{}", stall(r))
        } else {
            let tb = hwcontract::clog2(regions.len() as u32).max(1);
            let rg = format!("{q}_rg");
            w.reg(&rg, tb);
            let tag = |r: usize| {
                let i = regions.iter().position(|&x| x == r).expect("listed");
                format!("{tb}'d{i}")
            };
            let set: Vec<(String, String)> =
                reads.iter().map(|(re, r)| (re.clone(), tag(*r))).collect();
            let any = reads
                .iter()
                .map(|(re, _)| re.as_str())
                .collect::<Vec<_>>()
                .join(" || ");
            w.always_ff(|w| {
                w.line(format!("if ({any}) {rg} <= {};", select_chain(&set)));
            });
            let cases: Vec<(String, String)> = regions
                .iter()
                .map(|&r| (format!("{rg} == {}", tag(r)), format!("!{}", stall(r))))
                .collect();
            let name = format!("{q}_moves");
            w.wire(&name, 1, &select_chain(&cases));
            name
        };
        w.reg(&format!("{q}_r"), bits);
        w.reg(&format!("{q}_r_a"), aw);
        for s in ["hit0", "hit1"] {
            w.reg(&format!("{q}_r_{s}"), 1);
        }
        for s in ["hd0", "hd1"] {
            w.reg(&format!("{q}_r_{s}"), bits);
        }
        w.always_ff(|w| {
            w.block(&format!("if ({moves})"), |w| {
                w.line(format!("{q}_r <= {q};"));
                w.line(format!("{q}_r_a <= {q}_a;"));
                w.line(format!("{q}_r_hit0 <= {q}_hit;"));
                w.line(format!("{q}_r_hd0 <= {q}_hd;"));
                w.line(format!("{q}_r_hit1 <= {p}_we && {p}_waddr == {q}_a;"));
                w.line(format!("{q}_r_hd1 <= {p}_wdata;"));
            });
        });
    }
}

/// The binary op of a min/max atomic.
fn min_max_op(op: AtomicOp) -> hls_ir::BinOp {
    match op {
        AtomicOp::MinS => hls_ir::BinOp::MinS,
        AtomicOp::MinU => hls_ir::BinOp::MinU,
        AtomicOp::MaxS => hls_ir::BinOp::MaxS,
        _ => hls_ir::BinOp::MaxU,
    }
}
