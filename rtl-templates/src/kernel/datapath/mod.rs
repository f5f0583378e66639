//! The datapath of each pipeline: one wire (or unit instance) per op in the stage of its
//! schedule, then the registers carrying values to the later stages that read them. Ops are
//! written by family: [`integer`] (arithmetic, logic, compares, bit selects and extensions),
//! [`float`] (the float units), [`multiply`] (registered multipliers), [`divide`] (the integer
//! dividers), [`loops`] (loop start,
//! results, carried values), [`access`] (loads and stores), and pipe ops (`super::pipes`).
//!
//! Values are named `<source name>_v<op id>`; `_cN` is the copy in stage N.

mod access;
mod copies;
mod divide;
mod float;
mod integer;
mod loops;
mod multiply;

pub(super) use divide::Dividers;

use super::pipes::PipeReq;
use super::stall::StallTerm;
use super::Emitter;
use crate::namer::legal;
use crate::writer::{literal, VWriter};
use hls_ir::{BinOp, ConvOp, OpId, OpKind, PipeId, UnOp, WorkItemFn};
use std::collections::BTreeMap;

/// The wires of a load's handshake with its port.
pub(super) struct LoadWires {
    /// The request (on-chip: the read enable).
    pub req: String,
    /// Pops the response buffer (global ports only; empty on-chip).
    pub pop: String,
}

/// The handshake wires the datapath's ops create for the logic written after them: the
/// region's waits, and the requests the memory ports and pipe ports multiplex.
#[derive(Default)]
pub(super) struct Handshakes {
    /// Per stage of the region being emitted that may wait: the conditions that make it wait
    /// (`wait_cN`, see `Emitter::declare_waits`).
    pub waits: BTreeMap<u32, Vec<StallTerm>>,
    /// Per load: its request and pop.
    pub loads: BTreeMap<OpId, LoadWires>,
    /// Per store: its request (on-chip: the write enable).
    pub stores: BTreeMap<OpId, String>,
    /// Per store to a global port without arbitration: its `_pend` wire (see
    /// `Emitter::emit_pending`).
    pub store_pend: BTreeMap<OpId, String>,
    /// Requests of pipe ops for their FIFO ports, per pipe.
    pub pipes: BTreeMap<PipeId, Vec<PipeReq>>,
}

/// The op being written: its id, value name and width, and the cycle its operands are read.
pub(super) struct OpCtx {
    pub o: OpId,
    pub name: String,
    pub bits: u32,
    pub c: u32,
    pub args: Vec<OpId>,
}

impl Emitter<'_> {
    /// The Verilog expression for value `x` as seen in cycle `c` of an iteration of the
    /// region being emitted.
    pub(super) fn val(&self, x: OpId, c: u32) -> String {
        self.val_at(self.cur, x, c)
    }

    /// The Verilog expression for value `x` as seen in cycle `c` of region `r`.
    pub(super) fn val_at(&self, r: usize, x: OpId, c: u32) -> String {
        let op = self.k.op(x);
        match &op.kind {
            OpKind::Const(v) => literal(*v, op.ty.bits()),
            OpKind::Arg(a) => format!("arg_{}_r", legal(&self.k.arg(*a).name)),
            OpKind::WorkItem(f, d) if f.is_launch_invariant() => match f {
                WorkItemFn::GlobalSize => format!("gsz_{d}"),
                WorkItemFn::EnqueuedLocalSize => format!("lsz_{d}"),
                WorkItemFn::GlobalOffset => format!("goff_{d}"),
                WorkItemFn::NumGroups => format!("ngrp_{d}"),
                WorkItemFn::WorkDim => "work_dim_r".to_string(),
                _ => "32'd0".to_string(),
            },
            _ if self.plan.region_of(x) != r => {
                assert!(
                    self.plan.regions[r].live_ins.contains(&x),
                    "{x} is used in region {r} without being a live-in"
                );
                if self.plan.regions[r].overlap {
                    self.overlap_live_in(r, x, c)
                } else {
                    self.live_in(r, x)
                }
            }
            _ => {
                let a = self.plan.avail[&x];
                assert!(
                    c >= a,
                    "{x} used in cycle {c} before it is available in cycle {a}"
                );
                if c == a {
                    self.plan.names[&x].clone()
                } else {
                    format!("{}_c{c}", self.plan.names[&x])
                }
            }
        }
    }

    /// Operand `i` of the op being written, in the cycle it is read.
    fn arg(&self, cx: &OpCtx, i: usize) -> String {
        self.val(cx.args[i], cx.c)
    }

    /// The datapath of the region being emitted: its waits, every op, and the registers
    /// carrying values to later stages.
    pub(super) fn emit_datapath(&mut self, w: &mut VWriter, hs: &mut Handshakes) {
        w.line("");
        w.comment("Datapath (values are named <source name>_v<op id>; _cN = copy in stage N).");
        // A stage waits while a load that pops its response in that stage finds the buffer
        // empty (or a loop it started has not finished): its data (and everything computed
        // from it in the same cycle) is not there yet, so no request of that stage may issue.
        hs.waits = self.declare_waits(w);
        for o in self.plan.ops(self.cur) {
            self.emit_op(w, o, hs);
        }
        let waits = std::mem::take(&mut hs.waits);
        self.assign_waits(w, waits);
        self.emit_value_registers(w);
    }

    /// Op `o` of the region being emitted: its value wire (or the unit, register or request
    /// that makes it).
    fn emit_op(&mut self, w: &mut VWriter, o: OpId, hs: &mut Handshakes) {
        let op = self.k.op(o);
        if op.kind.is_launch_invariant() {
            return;
        }
        let name = self.plan.names[&o].clone();
        let bits = op.ty.bits();
        if let OpKind::WorkItem(f, d) = &op.kind {
            // The head of the generator's item queue (`workitems.v`).
            let src = format!("item_{}", super::plan::item_register(*f, *d));
            if self.k.has_uses(o) {
                w.wire(&name, bits, &src);
            }
            return;
        }
        let c = match op.kind {
            OpKind::LoopResult | OpKind::Extract { .. } => self.plan.avail[&o],
            _ => self.plan.start(o),
        };
        let cx = OpCtx {
            o,
            name,
            bits,
            c,
            args: self.k.operands(o),
        };
        let expr = match &op.kind {
            OpKind::Binary(BinOp::Mul) => {
                self.emit_mul_op(w, &cx);
                None
            }
            OpKind::Binary(BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU) => {
                self.emit_division(w, &cx);
                None
            }
            OpKind::Binary(
                b @ (BinOp::FAdd
                | BinOp::FSub
                | BinOp::FMul
                | BinOp::FDiv
                | BinOp::FMin
                | BinOp::FMax),
            ) => self.float_binary(w, &cx, *b),
            OpKind::Binary(b) => Some(self.int_binary(&cx, *b)),
            OpKind::Unary(u @ (UnOp::FNeg | UnOp::FAbs | UnOp::FSqrt)) => {
                self.float_unary(w, &cx, *u)
            }
            OpKind::Unary(u) => Some(self.int_unary(&cx, *u)),
            OpKind::Cmp(cmp) if float::is_float_cmp(*cmp) => Some(self.float_compare(w, &cx, *cmp)),
            OpKind::Cmp(cmp) => Some(self.int_compare(&cx, *cmp)),
            OpKind::Select => Some(format!(
                "{} ? {} : {}",
                self.arg(&cx, 0),
                self.arg(&cx, 1),
                self.arg(&cx, 2)
            )),
            OpKind::Extract { lo } => Some(self.extract(&cx, *lo)),
            OpKind::Concat => {
                let e = self.concat(&cx);
                // A concatenation rebuilt in later stages may have its wire here only for a
                // reader that is itself rebuilt later (a concatenation of concatenations):
                // the sink takes it (reading a used wire there is harmless; fuzz case 6310).
                if e.is_some() && self.plan.remat.contains(&o) {
                    self.unused.push(cx.name.clone());
                }
                e
            }
            OpKind::Convert(
                cv @ (ConvOp::SIToF | ConvOp::UIToF | ConvOp::FToSI { .. } | ConvOp::FToUI { .. }),
            ) => {
                self.float_convert(w, &cx, *cv);
                None
            }
            OpKind::Convert(cv) => Some(self.int_convert(&cx, *cv)),
            OpKind::Load { mem } => Some(self.emit_load(w, &cx, *mem, hs)),
            OpKind::Atomic { mem, .. } => {
                let old = self.emit_load(w, &cx, *mem, hs);
                if self.k.has_data_uses(o) {
                    Some(old)
                } else {
                    // An atomic for its effect only: its old value goes to the sink.
                    self.unused.push(old);
                    None
                }
            }
            OpKind::Store { mem, .. } => {
                self.emit_store(w, &cx, *mem, hs);
                None
            }
            OpKind::Loop(l) => {
                self.emit_loop_start(w, &cx, l.index(), hs);
                None
            }
            OpKind::WaitEvents => {
                self.emit_wait_events(&cx, hs);
                None
            }
            OpKind::LoopResult => Some(self.loop_result(&cx)),
            OpKind::Carried => Some(self.carried(w, &cx)),
            OpKind::LoopExit => None,
            OpKind::PipeRead { .. }
            | OpKind::PipeWrite { .. }
            | OpKind::PipeReserve { .. }
            | OpKind::PipeCommit { .. }
            | OpKind::PipeQuery { .. } => self.pipe_op(w, &cx, hs),
            OpKind::CounterUpdate { .. } => {
                self.emit_counter_update(w, &cx);
                None
            }
            other => {
                unreachable!("lowering and the operator library reject `{other}` before emission")
            }
        };
        if let Some(expr) = expr {
            w.wire(&cx.name, bits, &expr);
        }
    }

    /// A pipe op (`super::pipes`): its value, when something reads it.
    fn pipe_op(&mut self, w: &mut VWriter, cx: &OpCtx, hs: &mut Handshakes) -> Option<String> {
        match self.emit_pipe_op(w, cx.o, cx.c, &mut hs.pipes) {
            Some(v) if self.k.has_data_uses(cx.o) => Some(v),
            Some(v) => {
                // A status nobody reads (or a packet read only to drop it).
                self.unused.push(v);
                None
            }
            None => None,
        }
    }
}
