//! Emission of one kernel module: ports, launch control, the work-item generator (askama
//! templates) and the pipelined datapath (written with [`VWriter`]).
//!
//! Pipeline structure: one stage per cycle of the schedule. A work-item enters stage 0 when the
//! generator has one and the modulo phase counter is at 0 (every II cycles); `v_cN` says stage N
//! holds a work-item. One global `stall` freezes every stage register, so a work-item is never
//! lost or duplicated; it is raised when a memory request cannot be issued, a response has not
//! arrived by the cycle that needs it, or the write-acknowledge counter is full. Because
//! work-items only enter at phase 0, the work-items in flight are always a multiple of II
//! stages apart, so two ops that the modulo schedule put in different slots of a shared port
//! are never active in the same cycle.

#[path = "kernel_pipes.rs"]
mod pipes;

use crate::fp::FpUnit;
use crate::namer::{legal, value_name};
use crate::writer::{literal, range, VWriter};
use askama::Template;
use frontend::diag::Diagnostic;
use hls_ir::{
    ArgKind, BinOp, CmpOp, ConvOp, Kernel, LoopKind, MemId, OpId, OpKind, UnOp, WorkItemFn,
};
use scheduler::kernel::{KernelSchedule, LoopSchedule};
use std::collections::BTreeMap;

/// A port of the generated module.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Port {
    pub name: String,
    /// `"in"` or `"out"`.
    pub dir: &'static str,
    pub width: u32,
}

/// How a kernel argument reaches the module.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ArgPort {
    pub index: u32,
    pub name: String,
    /// `"scalar"`, `"global"` or `"pipe"` (`mem_prefix` is then the pipe's port prefix).
    pub kind: &'static str,
    /// The value port (`arg_<name>`), absent when the kernel never uses the argument.
    pub port: Option<String>,
    /// Prefix of the memory channels (`<prefix>_rreq_valid` ...), for pointer arguments.
    pub mem_prefix: Option<String>,
    /// Width of the value (scalars) or of one element (pointers), in bits.
    pub bits: u32,
    pub reads: bool,
    pub writes: bool,
    /// `local` pointer arguments: the bytes the on-chip memory holds (a launch may ask for
    /// at most this many).
    pub local_bytes: Option<u32>,
}

/// The interface of a generated kernel module (see docs/hardware-interface.md).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Interface {
    pub module: String,
    pub ports: Vec<Port>,
    pub args: Vec<ArgPort>,
    /// The pipes the kernel reads or writes, each through ports `<prefix>_<suffix>`.
    pub pipes: Vec<PipeIface>,
}

/// One pipe side used by a kernel (docs/hardware-interface.md, "Pipes in a kernel").
#[derive(Clone, Debug, serde::Serialize)]
pub struct PipeIface {
    /// The pipe argument's name, or the program-scope pipe's name.
    pub name: String,
    pub prefix: String,
    /// The kernel writes the pipe (otherwise it reads it).
    pub write: bool,
    pub packet_type: String,
    pub packet_bits: u32,
    /// A Xilinx program-scope pipe (`xcl_reqd_pipe_depth`), not an argument.
    pub program_scope: bool,
    /// Depth from the source (`xcl_reqd_pipe_depth`).
    pub depth: Option<u32>,
    /// Reservation table entries the kernel's reserve ids can name.
    pub max_reservations: u32,
    /// Port suffixes the kernel has (`wr_valid`, `wr_data`, `wr_ok`, ...).
    pub ports: Vec<String>,
}

pub struct EmittedKernel {
    pub module: String,
    pub file_name: String,
    pub verilog: String,
    pub interface: Interface,
    /// Depth of the work-item pipeline in stages.
    pub stages: u32,
    /// Stages of every loop region's pipeline, indexed by `LoopId` (`[0]` = `stages`).
    pub loop_stages: Vec<u32>,
    /// The support files (`support_files`) the module needs, its own file not included.
    pub support: Vec<String>,
}

#[derive(Template)]
#[template(path = "workitems.v", escape = "none")]
struct WorkItemsTemplate {
    dims: Vec<DimUse>,
}

#[derive(Clone, Copy, Default)]
struct DimUse {
    dim: u8,
    gid: bool,
    lid: bool,
    grp: bool,
    lsize: bool,
    goff: bool,
    /// The kernel observes the work-group structure of this dimension (local id, group id or
    /// local size); otherwise the dimension is walked as one group, which needs far less logic.
    grouped: bool,
}

#[derive(Template)]
#[template(path = "oclhls_fifo.v", escape = "none")]
struct FifoTemplate<'a> {
    version: &'a str,
}

/// The support modules a kernel may instantiate, as `(file name, text)`: the FIFO every
/// kernel uses and the float units (`EmittedKernel::support` names the ones a kernel needs).
pub fn support_files() -> Vec<(String, String)> {
    let fifo = FifoTemplate {
        version: env!("CARGO_PKG_VERSION"),
    }
    .render()
    .expect("the FIFO template renders");
    // askama drops the template's final newline; POSIX (and Verilator's EOFNEWLINE) want it.
    let mut files = vec![("oclhls_fifo.v".to_string(), fifo + "\n")];
    files.extend(crate::fp::fp_files());
    files
}

struct Mem {
    prefix: String,
    bits: u32,
    loads: Vec<OpId>,
    stores: Vec<OpId>,
    /// Loads (stores) come from more than one pipeline: requests are arbitrated and read
    /// responses routed back by a tag FIFO.
    multi_read: bool,
    multi_write: bool,
    /// An on-chip memory of this many elements (`local`/private array), not a global port.
    onchip: Option<u32>,
    /// Some store writes only part of an element (a field or lanes): writes carry a byte
    /// strobe (`wreq_strb`; on-chip, a write enable per byte).
    partial: bool,
}

impl Mem {
    /// The response buffer of region `r`'s loads.
    fn rfifo(&self, r: usize) -> String {
        if self.multi_read {
            format!("{}_r{r}_rfifo", self.prefix)
        } else {
            format!("{}_rfifo", self.prefix)
        }
    }
}

struct Emitter<'a> {
    k: &'a Kernel,
    /// Per loop region (indexed by `LoopId`): its schedule and emission state.
    regions: Vec<Region<'a>>,
    /// The region being emitted: names of valid bits, stalls and waits are its own.
    cur: usize,
    names: BTreeMap<OpId, String>,
    avail: BTreeMap<OpId, u32>,
    last_use: BTreeMap<OpId, u32>,
    diags: Vec<Diagnostic>,
    dims: [DimUse; 3],
    uses_work_dim: bool,
    /// Registers latched at launch for used scalar arguments: (port, reg, bits).
    arg_regs: Vec<(String, String, u32)>,
    unused_bits: Vec<String>,
    /// Float units instantiated (their modules' files go with the kernel).
    fp_units: std::collections::BTreeSet<crate::fp::FpUnit>,
    /// Requests of pipe ops for their FIFO ports, per pipe.
    pipe_reqs: BTreeMap<hls_ir::PipeId, Vec<pipes::PipeReq>>,
    /// Per store to a global port without arbitration: its `_pend` wire (see `emit_pending`).
    store_pend: BTreeMap<OpId, String>,
    /// The read port (0 or 1) of each on-chip load: loads of one region in the same modulo
    /// slot use different ports.
    onchip_port: BTreeMap<OpId, u32>,
    /// Bits read by bit selects, per signal (its width, the `[lo, hi)` ranges): the others
    /// go to the unused-bits sink.
    selected: BTreeMap<String, (u32, Vec<(u32, u32)>)>,
    /// Concatenations rebuilt as wires in each later stage that needs them (from their
    /// pipelined parts) instead of being pipelined whole.
    remat: std::collections::BTreeSet<OpId>,
    /// Every cycle (of its own region) in which each value is read.
    use_cycles: BTreeMap<OpId, std::collections::BTreeSet<u32>>,
}

/// One loop region: the work-item pipeline (`loop0`, no prefix) or a loop written in the
/// kernel (`lN_` prefix), a pipeline of its own started by a `Loop` op of its parent.
struct Region<'a> {
    ls: &'a LoopSchedule,
    pre: String,
    parent: Option<usize>,
    /// The parent's `Loop` op that starts this loop.
    loop_op: Option<OpId>,
    /// Values of enclosing regions read inside: latched when the loop starts.
    live_ins: std::collections::BTreeSet<OpId>,
    /// Stages in which some load pops its response (see `wait_cN`).
    wait_stages: std::collections::BTreeSet<u32>,
    stall_terms: Vec<String>,
    /// Why this pipeline runs one iteration at a time, when it must: an on-chip memory used
    /// here and in a loop inside (one port, no arbitration), or a private array (one copy).
    serial: Option<hls_ir::analysis::serial::SerialReason>,
}

/// `s0 ? v0 : s1 ? v1 : ... : vN`: the value of the first case whose selector holds; the last
/// case is the default (callers guarantee at most one selector holds).
fn select_chain(cases: &[(String, String)]) -> String {
    let mut out = String::new();
    for (i, (sel, v)) in cases.iter().enumerate() {
        if i + 1 == cases.len() {
            out.push_str(v);
        } else {
            out.push_str(&format!("{sel} ? {v} : "));
        }
    }
    out
}

/// `x[hi:lo]`, or `x[lo]` for one bit.
fn bit_range(x: &str, hi: u32, lo: u32) -> String {
    if hi == lo {
        format!("{x}[{lo}]")
    } else {
        format!("{x}[{hi}:{lo}]")
    }
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

/// Width of a tag naming one of `regions`.
/// The read address and data register of read port `port` of on-chip memory `p`.
fn onchip_port_names(p: &str, port: u32) -> (String, String) {
    if port == 0 {
        (format!("{p}_raddr"), format!("{p}_q"))
    } else {
        (format!("{p}_raddr{port}"), format!("{p}_q{port}"))
    }
}

fn tag_bits(regions: &std::collections::BTreeSet<usize>) -> u32 {
    let max = regions.iter().copied().max().unwrap_or(0) as u32;
    (32 - max.leading_zeros()).max(1)
}

fn is_per_item(kind: &OpKind) -> bool {
    matches!(kind, OpKind::WorkItem(f, _) if !f.is_launch_invariant())
}

/// Emit the Verilog module of kernel `k` scheduled by `s`.
pub fn emit_kernel(k: &Kernel, s: &KernelSchedule) -> Result<EmittedKernel, Vec<Diagnostic>> {
    let mut regions = Vec::new();
    for (i, l) in k.loops.iter().enumerate() {
        let id = hls_ir::LoopId::from_index(i);
        let ls = s
            .for_loop(id)
            .expect("every loop region is scheduled before emission");
        let loop_op = k
            .op_ids()
            .into_iter()
            .find(|&o| k.op(o).kind == OpKind::Loop(id));
        if l.kind != LoopKind::WorkItems && loop_op.is_none() {
            panic!("loop{i} has no `loop` op in its parent");
        }
        regions.push(Region {
            ls,
            pre: if i == 0 {
                String::new()
            } else {
                format!("l{i}_")
            },
            parent: l.parent.map(|p| p.index()),
            loop_op,
            live_ins: Default::default(),
            wait_stages: Default::default(),
            stall_terms: Vec::new(),
            serial: None,
        });
    }
    let mut e = Emitter {
        k,
        regions,
        cur: 0,
        names: BTreeMap::new(),
        avail: BTreeMap::new(),
        last_use: BTreeMap::new(),
        diags: Vec::new(),
        dims: [0u8, 1, 2].map(|d| DimUse {
            dim: d,
            ..Default::default()
        }),
        uses_work_dim: false,
        arg_regs: Vec::new(),
        unused_bits: Vec::new(),
        fp_units: Default::default(),
        pipe_reqs: BTreeMap::new(),
        onchip_port: BTreeMap::new(),
        store_pend: BTreeMap::new(),
        selected: BTreeMap::new(),
        remat: Default::default(),
        use_cycles: BTreeMap::new(),
    };
    e.analyse();
    if k.work_groups.is_some() {
        // The walk visits every work-item; the group's first (all local ids 0) leads it.
        for d in e.dims.iter_mut() {
            d.lid = true;
        }
    }
    for d in e.dims.iter_mut() {
        d.grouped = d.lid || d.grp || d.lsize;
    }
    if !e.diags.is_empty() {
        return Err(e.diags);
    }
    Ok(e.emit())
}

impl<'a> Emitter<'a> {
    /// Ops of the region being emitted.
    fn ops(&self) -> Vec<OpId> {
        self.k.ops_in(hls_ir::LoopId::from_index(self.cur))
    }

    fn region_of(&self, o: OpId) -> usize {
        self.k.op(o).region.index()
    }

    /// The schedule of the region `o` belongs to.
    fn ls_of(&self, o: OpId) -> &'a LoopSchedule {
        self.regions[self.region_of(o)].ls
    }

    fn start(&self, o: OpId) -> u32 {
        self.ls_of(o).start[&o]
    }

    fn load_latency(&self, o: OpId) -> u32 {
        self.ls_of(o).latency[&o]
    }

    /// The `Loop` op that starts region `r`, and its start cycle in the parent.
    fn loop_start(&self, r: usize) -> (OpId, u32) {
        let l = self.regions[r]
            .loop_op
            .expect("a source loop has a loop op");
        (l, self.start(l))
    }

    /// The region index of `LoopResult` `o`'s loop.
    fn result_loop(&self, o: OpId) -> usize {
        match self.k.op(self.k.operands(o)[0]).kind {
            OpKind::Loop(l) => l.index(),
            _ => unreachable!("the verifier checks that a loop result names a loop"),
        }
    }

    /// The stage of loop `r` in which its last iteration's results are captured: every value
    /// leaving the loop and the exit condition are available there.
    fn capture_stage(&self, r: usize) -> u32 {
        let mut c = 0;
        for o in self.k.ops_in(hls_ir::LoopId::from_index(r)) {
            if let OpKind::LoopExit = self.k.op(o).kind {
                let stop = self.k.operands(o)[0];
                c = c.max(self.avail.get(&stop).copied().unwrap_or(0));
            }
        }
        for (_, next) in self.loop_results(r) {
            if self.region_of(next) == r {
                c = c.max(self.avail.get(&next).copied().unwrap_or(0));
            }
        }
        c
    }

    /// `(loop result, value in the loop)` for every value leaving loop `r`.
    fn loop_results(&self, r: usize) -> Vec<(OpId, OpId)> {
        self.k
            .op_ids()
            .into_iter()
            .filter(|&o| {
                matches!(self.k.op(o).kind, OpKind::LoopResult) && self.result_loop(o) == r
            })
            .map(|o| (o, self.k.operands(o)[1]))
            .collect()
    }

    fn exit_of(&self, r: usize) -> Option<OpId> {
        self.k
            .ops_in(hls_ir::LoopId::from_index(r))
            .into_iter()
            .find(|&o| matches!(self.k.op(o).kind, OpKind::LoopExit))
    }

    fn analyse(&mut self) {
        self.find_serial_regions();
        let all = self.k.op_ids();
        for &o in &all {
            let op = self.k.op(o);
            let base = op.name.clone().unwrap_or_else(|| op.kind.mnemonic());
            self.names.insert(o, value_name(&base, o.0));
            match &op.kind {
                OpKind::WorkItem(f, d) => {
                    let du = &mut self.dims[*d as usize];
                    match f {
                        WorkItemFn::GlobalId => {
                            du.gid = true;
                            du.goff = true;
                        }
                        WorkItemFn::LocalId => du.lid = true,
                        WorkItemFn::GroupId => du.grp = true,
                        WorkItemFn::LocalSize => du.lsize = true,
                        WorkItemFn::GlobalOffset => du.goff = true,
                        WorkItemFn::WorkDim => self.uses_work_dim = true,
                        WorkItemFn::GlobalSize | WorkItemFn::EnqueuedLocalSize => {}
                        WorkItemFn::NumGroups => self.diags.push(Diagnostic::error(
                            op.span,
                            "`get_num_groups` is not yet supported by the hardware path",
                        )),
                    }
                    if is_per_item(&op.kind) {
                        self.avail.insert(o, 0);
                    }
                }
                k if k.is_launch_invariant() => {}
                // A loop's results are there in the cycle after it was started (the parent
                // waits in that stage until the loop has finished).
                OpKind::LoopResult => {
                    let l = self.k.operands(o)[0];
                    let c = self.start(l) + 1;
                    self.avail.insert(o, c);
                }
                _ => {
                    let ls = self.ls_of(o);
                    if !ls.start.contains_key(&o) {
                        panic!("op {o} of {} has no schedule", op.region);
                    }
                    // Tokens (stores) carry no value: nothing waits for them in the datapath.
                    if op.ty != hls_ir::Ty::Token {
                        self.avail.insert(o, ls.start[&o] + ls.latency[&o]);
                    }
                }
            }
        }
        // Bit selects are wiring: each is taken as soon as its source is there, so the
        // narrow field travels down the pipeline rather than the wide image it comes from.
        loop {
            let mut changed = false;
            for &o in &all {
                if !matches!(self.k.op(o).kind, OpKind::Extract { .. }) {
                    continue;
                }
                let src = self.k.operands(o)[0];
                if self.region_of(src) != self.region_of(o) || is_per_item(&self.k.op(src).kind) {
                    continue;
                }
                if let (Some(&a), Some(&b)) = (self.avail.get(&src), self.avail.get(&o)) {
                    if a < b {
                        self.avail.insert(o, a);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for &o in &all {
            let kind = self.k.op(o).kind.clone();
            if kind.is_launch_invariant() || is_per_item(&kind) {
                continue;
            }
            let r = self.region_of(o);
            let operands = self.k.operands(o);
            let start = match kind {
                OpKind::LoopResult | OpKind::Extract { .. } => self.avail[&o],
                _ => self.start(o),
            };
            for (i, &x) in operands.iter().enumerate() {
                match (&kind, i) {
                    // The value leaving the loop is captured inside the loop.
                    (OpKind::LoopResult, 1) => continue,
                    // The init value is latched when the loop starts.
                    (OpKind::LoopResult, 2) => {
                        let l = operands[0];
                        self.use_in(x, r, self.start(l));
                        continue;
                    }
                    // The next value: the previous iteration's, II stages further on.
                    // A carried value in a register of its own takes its initial value from
                    // the parent when the loop starts.
                    (OpKind::Carried, 0) if self.carried_holds(o) => {
                        let parent = self.regions[r].parent.expect("a source loop has a parent");
                        let (_, s) = self.loop_start(r);
                        self.use_in(x, parent, s);
                        continue;
                    }
                    (OpKind::Carried, 1) => {
                        // Serial, or in a register of its own: the next value is stored as it
                        // is computed. Otherwise the previous iteration is exactly II stages
                        // ahead.
                        let c = if self.regions[r].serial.is_some() || self.carried_holds(o) {
                            self.avail.get(&x).copied().unwrap_or(start)
                        } else {
                            start + self.ls_of(o).slot_ii.max(1)
                        };
                        self.use_in(x, r, c);
                        continue;
                    }
                    _ => {}
                }
                self.use_in(x, r, start);
            }
            if let OpKind::Load { .. } = kind {
                let pred = *operands.last().expect("loads have a predicate");
                self.use_in(pred, r, start + self.load_latency(o));
            }
        }
        // Values leaving each loop and its exit condition, at the capture stage.
        for r in 1..self.regions.len() {
            let c = self.capture_stage(r);
            for (_, next) in self.loop_results(r) {
                self.use_in(next, r, c);
            }
            if let Some(e) = self.exit_of(r) {
                let stop = self.k.operands(e)[0];
                self.use_in(stop, r, c);
            }
        }
        // A concatenation needed in a later stage is rebuilt there from its parts, so only
        // its non-constant parts travel down the pipeline.
        loop {
            let mut changed = false;
            for &o in &all {
                if !matches!(self.k.op(o).kind, OpKind::Concat) {
                    continue;
                }
                let (Some(&a), Some(&u)) = (self.avail.get(&o), self.last_use.get(&o)) else {
                    continue;
                };
                if u <= a {
                    continue;
                }
                self.remat.insert(o);
                let r = self.region_of(o);
                for x in self.k.operands(o) {
                    let before = self.last_use.get(&x).copied();
                    self.use_in(x, r, u);
                    changed |= self.last_use.get(&x).copied() != before;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Regions that must run one iteration at a time (`hls_ir::analysis::serial`, as the
    /// scheduler recorded it).
    fn find_serial_regions(&mut self) {
        for r in &mut self.regions {
            if let Some(why) = r.ls.serial {
                r.serial.get_or_insert(why);
            }
        }
    }

    /// Value `x` is used in cycle `c` of region `r`: in its own region it must be kept in the
    /// pipeline until then; from an enclosing region it is a live-in of `r` (and of every region
    /// in between), read by the parent when it starts the loop.
    fn use_in(&mut self, x: OpId, r: usize, c: u32) {
        if self.k.op(x).kind.is_launch_invariant() || !self.avail.contains_key(&x) {
            return;
        }
        let home = self.region_of(x);
        let mut r = r;
        let mut c = c;
        while r != home {
            self.regions[r].live_ins.insert(x);
            let (_, s) = self.loop_start(r);
            c = s;
            r = self.regions[r]
                .parent
                .expect("a value's region encloses the regions that use it");
        }
        self.note_use(x, c);
    }

    fn note_use(&mut self, x: OpId, cycle: u32) {
        if self.avail.contains_key(&x) {
            self.use_cycles.entry(x).or_default().insert(cycle);
            let e = self.last_use.entry(x).or_insert(cycle);
            *e = (*e).max(cycle);
        }
    }

    /// Stages of the pipeline of the region being emitted.
    fn stages(&self) -> u32 {
        let mut d = 1;
        for o in self.ops() {
            if let Some(&s) = self.regions[self.cur].ls.start.get(&o) {
                // A work-item that started a loop waits for it in the next stage.
                let wait = u32::from(matches!(self.k.op(o).kind, OpKind::Loop(_)));
                d = d.max(s + 1 + wait);
            }
            if is_per_item(&self.k.op(o).kind) {
                continue;
            }
            if let Some(&a) = self.avail.get(&o) {
                d = d.max(a + 1);
            }
            if let Some(&u) = self.last_use.get(&o) {
                d = d.max(u + 1);
            }
        }
        d
    }

    fn bits(&self, o: OpId) -> u32 {
        self.k.op(o).ty.bits()
    }

    /// The byte strobe of store `st` into an element of `bits` bits: its mask, or every byte.
    fn strobe(&self, st: OpId, bits: u32) -> String {
        let n = (bits / 8) as usize;
        match &self.k.op(st).kind {
            OpKind::Store { mask: Some(m), .. } => flags_literal(&m.0),
            _ => flags_literal(&vec![true; n]),
        }
    }

    /// The Verilog expression for value `x` as seen in cycle `c` of an iteration of the
    /// region being emitted.
    fn val(&self, x: OpId, c: u32) -> String {
        self.val_at(self.cur, x, c)
    }

    /// The Verilog expression for value `x` as seen in cycle `c` of region `r`.
    fn val_at(&self, r: usize, x: OpId, c: u32) -> String {
        let op = self.k.op(x);
        match &op.kind {
            OpKind::Const(v) => literal(*v, op.ty.bits()),
            OpKind::Arg(a) => format!("arg_{}_r", legal(&self.k.arg(*a).name)),
            OpKind::WorkItem(f, d) if f.is_launch_invariant() => match f {
                WorkItemFn::GlobalSize => format!("gsz_{d}"),
                WorkItemFn::EnqueuedLocalSize => format!("lsz_{d}"),
                WorkItemFn::GlobalOffset => format!("goff_{d}"),
                WorkItemFn::WorkDim => "work_dim_r".to_string(),
                _ => "32'd0".to_string(),
            },
            _ if self.region_of(x) != r => {
                assert!(
                    self.regions[r].live_ins.contains(&x),
                    "{x} is used in region {r} without being a live-in"
                );
                self.live_in(r, x)
            }
            _ => {
                let a = self.avail[&x];
                assert!(
                    c >= a,
                    "{x} used in cycle {c} before it is available in cycle {a}"
                );
                if c == a {
                    self.names[&x].clone()
                } else {
                    format!("{}_c{c}", self.names[&x])
                }
            }
        }
    }

    /// The register holding live-in `x` of loop region `r` while it runs.
    fn live_in(&self, r: usize, x: OpId) -> String {
        format!("{}in_{}", self.regions[r].pre, self.names[&x])
    }

    /// The name of a per-region control signal (`stall`, `v_c3`, `wait_c2`, `phase` ...).
    fn sig(&self, name: &str) -> String {
        format!("{}{name}", self.regions[self.cur].pre)
    }

    fn stall(&self) -> String {
        self.sig("stall")
    }

    /// The request of a memory op (or loop start) issued in stage `c` under `pred`: valid
    /// while its work-item is there, its data is there (`wait_cN`), and it has not been
    /// accepted during this stall (`<name>_issued`, set when `accepted` and cleared when the
    /// pipeline moves), so a request is sent exactly once per work-item. Returns the request
    /// wire's name.
    fn emit_request(
        &self,
        w: &mut VWriter,
        name: &str,
        c: u32,
        pred: &str,
        accepted: &str,
    ) -> String {
        let req = format!("{name}_req");
        let issued = format!("{name}_issued");
        let stall = self.stall();
        w.reg(&issued, 1);
        w.wire(
            &req,
            1,
            &format!(
                "{} && {pred} && !{issued}{}",
                self.valid(c),
                self.not_waiting(c)
            ),
        );
        w.always_ff(|w| {
            w.line(format!("if (rst || !{stall}) {issued} <= 1'b0;"));
            w.line(format!("else if ({req} && {accepted}) {issued} <= 1'b1;"));
        });
        req
    }

    /// `<name>_pend`: stage `c` holds a work-item whose request `name` (see `emit_request`)
    /// has not been accepted yet, whatever its predicate. The stall uses it instead of the
    /// request where a port has no arbiter: the predicate (computed in this cycle) then stays
    /// off the stall, which fans out to every register of the pipeline. The price is a stall
    /// while the port is not ready even for a work-item that would not use it.
    fn emit_pending(&self, w: &mut VWriter, name: &str, c: u32) -> String {
        let pend = format!("{name}_pend");
        w.wire(
            &pend,
            1,
            &format!("{}{} && !{name}_issued", self.valid(c), self.not_waiting(c)),
        );
        pend
    }

    /// ` && !wait_cN` when stage `c` can wait for a load response, else nothing.
    fn not_waiting(&self, c: u32) -> String {
        if self.regions[self.cur].wait_stages.contains(&c) {
            format!(" && !{}", self.sig(&format!("wait_c{c}")))
        } else {
            String::new()
        }
    }

    fn valid(&self, c: u32) -> String {
        self.sig(&format!("v_c{c}"))
    }

    fn emit(mut self) -> EmittedKernel {
        let k = self.k;
        let module = legal(&k.name);
        self.cur = 0;
        let stages = self.stages();
        let ii = self.regions[0].ls.slot_ii.max(1);
        let port = |name: String, dir: &'static str, width: u32| Port { name, dir, width };
        let mut ports: Vec<Port> = [
            ("clk", "in"),
            ("rst", "in"),
            ("start", "in"),
            ("busy", "out"),
            ("done", "out"),
        ]
        .into_iter()
        .map(|(n, dir)| port(n.to_string(), dir, 1))
        .collect();
        // Sizes and offsets per dimension; local sizes and offsets only where used.
        for (base, needed) in [
            ("global_size", [true; 3]),
            ("local_size", self.dims.map(|d| d.grouped)),
            ("global_offset", self.dims.map(|d| d.goff)),
        ] {
            for d in (0..3).filter(|&d| needed[d]) {
                ports.push(port(format!("{base}_{d}"), "in", 32));
            }
        }
        if self.uses_work_dim {
            ports.push(port("work_dim".into(), "in", 32));
        }
        // Memories and arguments.
        let mut mems: BTreeMap<MemId, Mem> = BTreeMap::new();
        for o in self.k.op_ids() {
            match self.k.op(o).kind {
                OpKind::Load { mem } | OpKind::Store { mem, .. } => {
                    let m = mems.entry(mem).or_insert_with(|| Mem {
                        prefix: legal(&k.mem(mem).name),
                        bits: k.mem(mem).elem.bits().max(8),
                        loads: vec![],
                        stores: vec![],
                        multi_read: false,
                        multi_write: false,
                        onchip: match k.mem(mem).kind {
                            hls_ir::MemKind::Local { len } | hls_ir::MemKind::Private { len } => {
                                Some(len)
                            }
                            hls_ir::MemKind::Global { .. } => None,
                        },
                        partial: false,
                    });
                    if matches!(self.k.op(o).kind, OpKind::Load { .. }) {
                        m.loads.push(o);
                    } else {
                        m.stores.push(o);
                    }
                    if matches!(self.k.op(o).kind, OpKind::Store { mask: Some(_), .. }) {
                        m.partial = true;
                    }
                }
                _ => {}
            }
        }
        // Read ports of on-chip memories (the scheduler allows
        // `scheduler::oplib::ONCHIP_READ_PORTS` loads per modulo slot).
        for m in mems.values().filter(|m| m.onchip.is_some()) {
            let mut used: BTreeMap<(usize, u32), u32> = BTreeMap::new();
            for &l in &m.loads {
                let r = self.region_of(l);
                let ii = self.regions[r].ls.slot_ii.max(1);
                let n = used.entry((r, self.start(l) % ii)).or_insert(0);
                self.onchip_port.insert(l, *n);
                *n += 1;
            }
        }
        for m in mems.values_mut() {
            let regions = |ops: &[OpId]| {
                ops.iter()
                    .map(|&o| k.op(o).region)
                    .collect::<std::collections::BTreeSet<_>>()
                    .len()
            };
            m.multi_read = regions(&m.loads) > 1;
            m.multi_write = regions(&m.stores) > 1;
        }
        let used_args: std::collections::BTreeSet<u32> = self
            .k
            .op_ids()
            .into_iter()
            .filter_map(|o| match self.k.op(o).kind {
                OpKind::Arg(a) if self.k.has_uses(o) => Some(a.0),
                _ => None,
            })
            .collect();
        let mut args = Vec::new();
        for (i, a) in k.args.iter().enumerate() {
            let used = used_args.contains(&(i as u32));
            let name = legal(&a.name);
            match &a.kind {
                ArgKind::Scalar(t) => {
                    let port = format!("arg_{name}");
                    if used {
                        ports.push(Port {
                            name: port.clone(),
                            dir: "in",
                            width: t.bits(),
                        });
                        self.arg_regs
                            .push((port.clone(), format!("arg_{name}_r"), t.bits()));
                    }
                    args.push(ArgPort {
                        index: i as u32,
                        name: a.name.clone(),
                        kind: "scalar",
                        port: used.then_some(port),
                        mem_prefix: None,
                        bits: t.bits(),
                        reads: false,
                        writes: false,
                        local_bytes: None,
                    });
                }
                ArgKind::GlobalPtr(mem) => {
                    let port = format!("arg_{name}");
                    if used {
                        ports.push(Port {
                            name: port.clone(),
                            dir: "in",
                            width: 32,
                        });
                        self.arg_regs
                            .push((port.clone(), format!("arg_{name}_r"), 32));
                    }
                    let m = mems.get(mem);
                    let (reads, writes) = m
                        .map(|m| (!m.loads.is_empty(), !m.stores.is_empty()))
                        .unwrap_or((false, false));
                    let bits = k.mem(*mem).elem.bits().max(8);
                    if let Some(m) = m {
                        let p = &m.prefix;
                        // (suffix, direction, width; 0 = the element width) per channel.
                        let read: [(&str, &'static str, u32); 6] = [
                            ("rreq_valid", "out", 1),
                            ("rreq_ready", "in", 1),
                            ("rreq_addr", "out", 32),
                            ("rresp_valid", "in", 1),
                            ("rresp_ready", "out", 1),
                            ("rresp_data", "in", 0),
                        ];
                        let write: [(&str, &'static str, u32); 6] = [
                            ("wreq_valid", "out", 1),
                            ("wreq_ready", "in", 1),
                            ("wreq_addr", "out", 32),
                            ("wreq_data", "out", 0),
                            ("wresp_valid", "in", 1),
                            ("wresp_ready", "out", 1),
                        ];
                        let used = [(reads, &read), (writes, &write)];
                        for (_, channel) in used.iter().filter(|(on, _)| *on) {
                            for &(suffix, dir, width) in channel.iter() {
                                ports.push(Port {
                                    name: format!("{p}_{suffix}"),
                                    dir,
                                    width: if width == 0 { bits } else { width },
                                });
                            }
                        }
                        if writes && m.partial {
                            ports.push(Port {
                                name: format!("{p}_wreq_strb"),
                                dir: "out",
                                width: bits / 8,
                            });
                        }
                    }
                    args.push(ArgPort {
                        index: i as u32,
                        name: a.name.clone(),
                        kind: "global",
                        port: used.then_some(port),
                        mem_prefix: m.map(|m| m.prefix.clone()),
                        bits,
                        reads,
                        writes,
                        local_bytes: None,
                    });
                }
                ArgKind::LocalPtr(mem) => {
                    // An on-chip memory inside the module: no port.
                    let m = k.mem(*mem);
                    let len = match m.kind {
                        hls_ir::MemKind::Local { len } => len,
                        _ => 0,
                    };
                    args.push(ArgPort {
                        index: i as u32,
                        name: a.name.clone(),
                        kind: "local",
                        port: None,
                        mem_prefix: None,
                        bits: m.elem.bits().max(8),
                        reads: false,
                        writes: false,
                        local_bytes: Some(len * m.elem_bytes),
                    });
                }
                ArgKind::Pipe(p) => {
                    let pipe = &k.pipes[p.index()];
                    args.push(ArgPort {
                        index: i as u32,
                        name: a.name.clone(),
                        kind: "pipe",
                        port: None,
                        mem_prefix: Some(self.pipe_prefix(*p).trim_end_matches('_').to_string()),
                        bits: pipe.packet_bits,
                        reads: pipe.side == hls_ir::PipeSide::Read,
                        writes: pipe.side == hls_ir::PipeSide::Write,
                        local_bytes: None,
                    });
                }
                _ => unreachable!("lowering rejects other argument kinds"),
            }
        }
        // Pipes (arguments and program-scope pipes): the ports of the FIFO side they use.
        let mut pipe_ifaces = Vec::new();
        for (i, pipe) in k.pipes.iter().enumerate() {
            let id = hls_ir::PipeId::from_index(i);
            let pre = self.pipe_prefix(id);
            let list = pipes::pipe_ports(k, id);
            for (suffix, dir, width) in &list {
                ports.push(Port {
                    name: format!("{pre}{suffix}"),
                    dir,
                    width: *width,
                });
            }
            pipe_ifaces.push(PipeIface {
                name: pipe.name.clone(),
                prefix: pre.trim_end_matches('_').to_string(),
                write: pipe.side == hls_ir::PipeSide::Write,
                packet_type: pipe.packet_type.clone(),
                packet_bits: pipe.packet_bits,
                program_scope: !k
                    .args
                    .iter()
                    .any(|a| matches!(a.kind, ArgKind::Pipe(q) if q == id)),
                depth: pipe.depth,
                max_reservations: pipe.max_reservations,
                ports: list.iter().map(|(s, _, _)| s.clone()).collect(),
            });
        }

        let mut w = VWriter::default();
        w.line(format!(
            "// Kernel `{}`: generated by oclhls {}. Do not edit.",
            k.name,
            env!("CARGO_PKG_VERSION")
        ));
        w.line(format!("// Work-item pipeline: II = {ii}, {stages} stages. Interface: docs/hardware-interface.md."));
        w.line("`default_nettype none");
        w.line(format!("module {module} ("));
        let n = ports.len();
        for (i, p) in ports.iter().enumerate() {
            let dir = if p.dir == "in" {
                "input  wire"
            } else {
                "output wire"
            };
            let comma = if i + 1 < n { "," } else { "" };
            w.line(format!("    {dir} {}{}{comma}", range(p.width), p.name));
        }
        w.line(");");
        w.indented(1);
        // ---- launch control
        w.comment(
            "---- Launch control: `start` is accepted when idle; arguments are latched then.",
        );
        w.line("reg running;");
        w.line("reg done_r;");
        w.wire("launch", 1, "start && !running && !rst");
        w.line("wire finish;");
        w.assign("busy", "running");
        w.assign("done", "done_r");
        w.always_ff(|w| {
            w.block("if (rst)", |w| {
                w.line("running <= 1'b0;");
                w.line("done_r <= 1'b0;");
            });
            w.block("else", |w| {
                w.line("done_r <= finish;");
                w.line("if (launch) running <= 1'b1;");
                w.line("else if (finish) running <= 1'b0;");
            });
        });
        for (_, reg, bits) in &self.arg_regs {
            w.reg(reg, *bits);
        }
        if self.uses_work_dim {
            w.reg("work_dim_r", 32);
        }
        if !self.arg_regs.is_empty() || self.uses_work_dim {
            let regs = self.arg_regs.clone();
            let wd = self.uses_work_dim;
            w.always_ff(|w| {
                w.block("if (launch)", |w| {
                    for (port, reg, _) in &regs {
                        w.line(format!("{reg} <= {port};"));
                    }
                    if wd {
                        w.line("work_dim_r <= work_dim;");
                    }
                });
            });
        }
        w.line("");
        let wi = WorkItemsTemplate {
            dims: self.dims.to_vec(),
        }
        .render()
        .expect("the work-item template renders");
        w.raw(&wi);
        w.line("");
        let mut load_info: BTreeMap<OpId, (String, String)> = BTreeMap::new(); // req, pop
        let mut store_info: BTreeMap<OpId, String> = BTreeMap::new();
        for p in self.global_store_prefixes() {
            w.reg(&format!("{p}_wcnt"), 16);
        }
        let n_regions = self.regions.len();
        if n_regions > 1 {
            w.comment(
                "---- Handshakes between each pipelined loop and the pipeline that starts it.",
            );
        }
        for r in 1..n_regions {
            self.cur = r;
            for n in ["busy", "run", "pend", "first", "taken"] {
                w.reg(&self.sig(n), 1);
            }
            for n in ["start", "enter", "take"] {
                w.line(format!("wire {};", self.sig(n)));
            }
            w.wire(
                &self.sig("idle"),
                1,
                &format!("!{} && !{}", self.sig("busy"), self.sig("pend")),
            );
            for (res, _) in self.loop_results(r) {
                let bits = self.bits(res);
                w.reg(&self.sig(&format!("res_{}", self.names[&res])), bits);
                w.reg(&self.sig(&format!("hold_{}", self.names[&res])), bits);
            }
        }
        let mut loop_stages = Vec::new();
        for r in 0..n_regions {
            self.cur = r;
            let stages = self.stages();
            let ls = &self.regions[r].ls;
            debug_assert!(
                ls.serial.is_none() || stages <= ls.slot_ii || stages == ls.ii,
                "{}: the scheduler's serial II {} is not the pipeline's {stages} stages",
                self.k.loops[r].name,
                ls.ii
            );
            loop_stages.push(stages);
            self.emit_region(&mut w, &mems, &mut load_info, &mut store_info);
        }
        self.cur = 0;
        w.line("");
        // ---- memory ports
        let mut idle_terms: Vec<String> = Vec::new();
        for (&id, m) in &mems {
            let p = m.prefix.clone();
            if let Some(len) = m.onchip {
                self.emit_onchip(&mut w, id, m, len, &load_info, &store_info);
                continue;
            }
            w.comment(format!("---- Global memory port `{p}`"));
            if !m.loads.is_empty() {
                self.emit_read_port(&mut w, m, &load_info);
            }
            if !m.stores.is_empty() {
                self.emit_write_port(&mut w, m, &store_info);
                idle_terms.push(format!("{p}_wcnt == 16'd0"));
            }
        }
        // A loop without a carried value that selects its initial value by the first-iteration
        // flag never looks at the flag.
        for r in 1..self.regions.len() {
            self.cur = r;
            let carried = self
                .k
                .ops_in(hls_ir::LoopId::from_index(r))
                .into_iter()
                .any(|o| self.carried_mux(o));
            if !carried {
                let f = self.sig("first");
                self.unused_bits.push(f);
            }
        }
        self.cur = 0;
        let reqs = std::mem::take(&mut self.pipe_reqs);
        self.emit_pipe_ports(&mut w, &reqs);
        // ---- stall and finish
        w.line("");
        w.comment("---- Stall: any stage that cannot proceed freezes its whole pipeline.");
        for r in 0..self.regions.len() {
            self.cur = r;
            let st = self.stall();
            let terms = std::mem::take(&mut self.regions[r].stall_terms);
            if terms.is_empty() {
                w.assign(&st, "1'b0");
            } else {
                w.assign(&st, &terms.join("\n        || "));
            }
        }
        self.cur = 0;
        let mut busy_terms: Vec<String> = vec!["gen_init".into(), "gen_active".into()];
        for c in 1..stages {
            busy_terms.push(self.valid(c));
        }
        let mut fin = format!("running && !({})", busy_terms.join(" || "));
        for t in &idle_terms {
            fin.push_str(&format!(" && ({t})"));
        }
        w.assign("finish", &fin);
        // Bits no bit select reads (padding, fields a kernel ignores) are deliberately unused.
        for (sig, (width, mut ranges)) in std::mem::take(&mut self.selected) {
            ranges.sort();
            let mut at = 0;
            for (lo, hi) in ranges {
                if lo > at {
                    self.unused_bits.push(bit_range(&sig, lo - 1, at));
                }
                at = at.max(hi);
            }
            if at < width {
                self.unused_bits.push(bit_range(&sig, width - 1, at));
            }
        }
        if !self.unused_bits.is_empty() {
            w.comment("Deliberately unused bits (truncated, or read by no bit select): Verilator's idiom.");
            w.wire(
                "unused_bits",
                1,
                &format!("&{{1'b0, {}, 1'b0}}", self.unused_bits.join(", ")),
            );
        }
        w.indented(0);
        w.line("endmodule");
        w.line("`default_nettype wire");
        let mut support = vec!["oclhls_fifo.v".to_string()];
        for (file, _) in self.fp_units.iter().flat_map(|u| u.files()) {
            if !support.contains(&file) {
                support.push(file);
            }
        }
        EmittedKernel {
            file_name: format!("{module}.v"),
            interface: Interface {
                module: module.clone(),
                ports,
                args,
                pipes: pipe_ifaces,
            },
            module,
            verilog: w.finish(),
            stages,
            loop_stages,
            support,
        }
    }

    /// The pipeline of the region being emitted: valid bits, (for a loop) its controller,
    /// the datapath, waits, and the registers carrying values to later stages.
    fn emit_region(
        &mut self,
        w: &mut VWriter,
        mems: &BTreeMap<MemId, Mem>,
        load_info: &mut BTreeMap<OpId, (String, String)>,
        store_info: &mut BTreeMap<OpId, String>,
    ) {
        let r = self.cur;
        let stages = self.stages();
        let ii = self.regions[r].ls.slot_ii.max(1);
        let st = self.stall();
        if r == 0 {
            w.comment("---- Pipeline control: one stage per schedule cycle, one global stall.");
        } else {
            let l = &self.k.loops[r];
            w.line("");
            w.comment(format!(
                "---- Loop {} (`{}`): II = {ii}, {stages} stages; started by the parent pipeline, which waits for it.",
                self.regions[r].pre.trim_end_matches('_'),
                l.name
            ));
        }
        w.line(format!("wire {st};"));
        let (issue, restart) = if r == 0 && self.k.work_groups.is_some() {
            ("gen_active && gen_leader".to_string(), "launch".to_string())
        } else if r == 0 {
            ("gen_active".to_string(), "launch".to_string())
        } else {
            (self.sig("run"), self.sig("start"))
        };
        // A serial pipeline takes a new iteration only when it is empty (see `serial`).
        let issue = if self.regions[r].serial.is_some() && stages > 1 {
            let busy: Vec<String> = (1..stages).map(|c| self.valid(c)).collect();
            format!("{issue} && !({})", busy.join(" || "))
        } else {
            issue
        };
        if ii > 1 {
            let pw = 32 - (ii - 1).leading_zeros();
            let phase = self.sig("phase");
            w.reg(&phase, pw);
            w.always_ff(|w| {
                w.line(format!(
                    "if (rst || {restart}) {phase} <= {};",
                    literal(0, pw)
                ));
                w.line(format!(
                    "else if (!{st}) {phase} <= ({phase} == {}) ? {} : {phase} + {};",
                    literal((ii - 1) as u64, pw),
                    literal(0, pw),
                    literal(1, pw)
                ));
            });
            w.wire(
                &self.valid(0),
                1,
                &format!("{issue} && ({phase} == {})", literal(0, pw)),
            );
        } else {
            w.wire(&self.valid(0), 1, &issue);
        }
        if r == 0 && self.k.work_groups.is_some() {
            // Work-group mode: one pipeline entry per group; the others are walked past.
            w.wire(
                "gen_leader",
                1,
                "(lid_0 == 32'd0) && (lid_1 == 32'd0) && (lid_2 == 32'd0)",
            );
            w.assign(
                "gen_take",
                &format!(
                    "({} && !{st}) || (gen_active && !gen_leader)",
                    self.valid(0)
                ),
            );
        } else if r == 0 {
            w.assign("gen_take", &format!("{} && !{st}", self.valid(0)));
        }
        for c in 1..stages {
            w.reg(&self.valid(c), 1);
        }
        if stages > 1 {
            let v: Vec<String> = (0..stages).map(|c| self.valid(c)).collect();
            let st = st.clone();
            w.always_ff(|w| {
                w.block("if (rst)", |w| {
                    for vc in &v[1..] {
                        w.line(format!("{vc} <= 1'b0;"));
                    }
                });
                w.block(&format!("else if (!{st})"), |w| {
                    for c in 1..v.len() {
                        w.line(format!("{} <= {};", v[c], v[c - 1]));
                    }
                });
            });
        }
        if r > 0 {
            self.emit_loop_control(w, stages);
        }
        w.line("");
        w.comment("Datapath (values are named <source name>_v<op id>; _cN = copy in stage N).");
        // A stage waits while a load that pops its response in that stage finds the buffer
        // empty (or a loop it started has not finished): its data (and everything computed
        // from it in the same cycle) is not there yet, so no request of that stage may issue.
        let mut waits: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for o in self.ops() {
            match self.k.op(o).kind {
                OpKind::Load { mem } if mems[&mem].onchip.is_none() => {
                    waits
                        .entry(self.start(o) + self.load_latency(o))
                        .or_default();
                }
                OpKind::Loop(_) => {
                    waits.entry(self.start(o) + 1).or_default();
                }
                _ => {}
            }
        }
        for c in waits.keys() {
            w.line(format!("wire {};", self.sig(&format!("wait_c{c}"))));
        }
        self.regions[r].wait_stages = waits.keys().copied().collect();
        for o in self.ops() {
            self.emit_op(w, o, mems, &mut waits, load_info, store_info);
        }
        for (c, terms) in &waits {
            let wc = self.sig(&format!("wait_c{c}"));
            w.assign(&wc, &terms.join(" || "));
            self.regions[r].stall_terms.push(wc);
        }
        // Pipeline registers carrying values to later stages.
        let mut carried: Vec<(OpId, u32, u32)> = Vec::new();
        for (&x, &u) in &self.last_use {
            if self.region_of(x) != r || is_per_item(&self.k.op(x).kind) && r != 0 {
                continue;
            }
            let a = self.avail[&x];
            if u > a {
                carried.push((x, a, u));
            }
        }
        // Concatenations rebuilt in later stages: wires of the parts' copies there.
        for &(x, a, _) in carried.iter().filter(|(x, _, _)| self.remat.contains(x)) {
            let parts = self.k.operands(x);
            let cycles: Vec<u32> = self.use_cycles[&x].range(a + 1..).copied().collect();
            for c in cycles {
                let vals: Vec<String> = parts.iter().rev().map(|&p| self.val(p, c)).collect();
                w.wire(
                    &format!("{}_c{c}", self.names[&x]),
                    self.bits(x),
                    &format!("{{{}}}", vals.join(", ")),
                );
            }
        }
        carried.retain(|(x, _, _)| !self.remat.contains(x));
        if !carried.is_empty() {
            for &(x, a, u) in &carried {
                for c in a + 1..=u {
                    w.reg(&format!("{}_c{c}", self.names[&x]), self.bits(x));
                }
            }
            let names = self.names.clone();
            w.always_ff(|w| {
                w.block(&format!("if (!{st})"), |w| {
                    for &(x, a, u) in &carried {
                        for c in a + 1..=u {
                            let prev = if c == a + 1 {
                                names[&x].clone()
                            } else {
                                format!("{}_c{}", names[&x], c - 1)
                            };
                            w.line(format!("{}_c{c} <= {prev};", names[&x]));
                        }
                    }
                });
            });
        }
    }

    /// Whether loop-carried value `o` is kept in a register of its own (see `Carried` in
    /// `emit_op`): in a pipelined source loop, when its next value is computed in the stage
    /// that reads the carried value or in one of the `ii - 1` after it (`c <= a < c + ii`). Then
    /// an iteration reads the register before it overwrites it, and after the previous
    /// iteration has written it.
    fn carried_holds(&self, o: OpId) -> bool {
        let r = self.region_of(o);
        if !matches!(self.k.op(o).kind, OpKind::Carried)
            || r == 0
            || self.regions[r].serial.is_some()
        {
            return false;
        }
        let next = self.k.operands(o)[1];
        if self.region_of(next) != r {
            return false;
        }
        let (c, a, ii) = (
            self.start(o),
            self.avail[&next],
            self.regions[r].ls.slot_ii.max(1),
        );
        c <= a && a < c + ii
    }

    /// Whether loop-carried value `o` selects its value with the first-iteration flag.
    fn carried_mux(&self, o: OpId) -> bool {
        matches!(self.k.op(o).kind, OpKind::Carried) && !self.carried_holds(o)
    }

    /// The controller of a loop region: started by its parent (`lN_start`, with the live-ins
    /// and `lN_enter`), it issues an iteration every II cycles until one says stop, waits for
    /// the pipeline to drain, then holds the results (`lN_pend`) until the parent takes them.
    fn emit_loop_control(&mut self, w: &mut VWriter, stages: u32) {
        let r = self.cur;
        let parent = self.regions[r].parent.expect("a source loop has a parent");
        let (_, s) = self.loop_start(r);
        let sig = |n: &str| self.sig(n);
        let (busy, run, pend, first, start, st) = (
            sig("busy"),
            sig("run"),
            sig("pend"),
            sig("first"),
            sig("start"),
            self.stall(),
        );
        // Live-ins, latched from the parent's stage that starts the loop.
        let live: Vec<OpId> = self.regions[r].live_ins.iter().copied().collect();
        let mut latches = Vec::new();
        for &x in &live {
            let reg = self.live_in(r, x);
            w.reg(&reg, self.bits(x));
            latches.push((reg, self.val_at(parent, x, s)));
        }
        // Results: the init value at start, then the last iteration's values.
        let capture = self.capture_stage(r);
        let exit = self.exit_of(r).expect("a source loop has an exit");
        let stop_op = self.k.operands(exit)[0];
        let te = self.start(exit);
        let stop = sig("stop");
        w.wire(
            &stop,
            1,
            &format!("{} && {} && !{st}", self.valid(te), self.val(stop_op, te)),
        );
        let last = sig("last");
        if !self.loop_results(r).is_empty() {
            w.wire(
                &last,
                1,
                &format!(
                    "{} && {} && !{st}",
                    self.valid(capture),
                    self.val(stop_op, capture)
                ),
            );
        }
        let mut results = Vec::new();
        let mut holds = Vec::new();
        for (res, next) in self.loop_results(r) {
            let reg = format!("{}res_{}", self.regions[r].pre, self.names[&res]);
            holds.push((
                format!("{}hold_{}", self.regions[r].pre, self.names[&res]),
                reg.clone(),
            ));
            let init = self.k.operands(res)[2];
            results.push((reg, self.val_at(parent, init, s), self.val(next, capture)));
        }
        if !latches.is_empty() || !results.is_empty() {
            let start = start.clone();
            let last = last.clone();
            w.always_ff(|w| {
                w.block(&format!("if ({start})"), |w| {
                    for (reg, v) in &latches {
                        w.line(format!("{reg} <= {v};"));
                    }
                    for (reg, init, _) in &results {
                        w.line(format!("{reg} <= {init};"));
                    }
                });
                if !results.is_empty() {
                    w.block(&format!("else if ({last})"), |w| {
                        for (reg, _, next) in &results {
                            w.line(format!("{reg} <= {next};"));
                        }
                    });
                }
            });
        }
        // The first-iteration flag travels with each iteration to the carried values that
        // select their initial value with it (the others keep it in a register).
        let max_carried = self
            .ops()
            .into_iter()
            .filter(|&o| self.carried_mux(o))
            .map(|o| self.start(o))
            .max()
            .unwrap_or(0);
        for c in 1..=max_carried {
            w.reg(&sig(&format!("first_c{c}")), 1);
        }
        if max_carried > 0 {
            let names: Vec<String> = (0..=max_carried)
                .map(|c| {
                    if c == 0 {
                        first.clone()
                    } else {
                        sig(&format!("first_c{c}"))
                    }
                })
                .collect();
            let st = st.clone();
            w.always_ff(|w| {
                w.block(&format!("if (!{st})"), |w| {
                    for c in 1..names.len() {
                        w.line(format!("{} <= {};", names[c], names[c - 1]));
                    }
                });
            });
        }
        let inflight: Vec<String> = (1..stages).map(|c| self.valid(c)).collect();
        let mut drained = if inflight.is_empty() {
            "1'b1".to_string()
        } else {
            format!("!({})", inflight.join(" || "))
        };
        if self.k.loops[r].kind == LoopKind::Phase {
            // A barrier: every write of the phase is acknowledged before the next phase.
            for p in self.global_store_prefixes() {
                drained.push_str(&format!(" && ({p}_wcnt == 16'd0)"));
            }
        }
        let (v0, enter, take, taken) = (self.valid(0), sig("enter"), sig("take"), sig("taken"));
        let parent_stall = format!("{}stall", self.regions[parent].pre);
        if !holds.is_empty() {
            let take = take.clone();
            w.always_ff(|w| {
                w.block(&format!("if ({take})"), |w| {
                    for (h, r) in &holds {
                        w.line(format!("{h} <= {r};"));
                    }
                });
            });
        }
        w.always_ff(|w| {
            w.line(format!("if (rst || !{parent_stall}) {taken} <= 1'b0;"));
            w.line(format!("else if ({take}) {taken} <= 1'b1;"));
        });
        w.always_ff(|w| {
            w.block("if (rst)", |w| {
                for n in [&busy, &run, &pend, &first] {
                    w.line(format!("{n} <= 1'b0;"));
                }
            });
            w.block("else", |w| {
                w.block(&format!("if ({start})"), |w| {
                    w.line(format!("{busy} <= 1'b1;"));
                    w.line(format!("{run} <= {enter};"));
                    w.line(format!("{first} <= 1'b1;"));
                });
                w.block("else", |w| {
                    w.line(format!("if ({v0} && !{st}) {first} <= 1'b0;"));
                    w.line(format!("if ({stop}) {run} <= 1'b0;"));
                    w.block(&format!("if ({busy} && !{run} && {drained})"), |w| {
                        w.line(format!("{busy} <= 1'b0;"));
                        w.line(format!("{pend} <= 1'b1;"));
                    });
                });
                w.line(format!("if ({take}) {pend} <= 1'b0;"));
            });
        });
    }

    /// Prefixes of the global memory ports that have writes (their `_wcnt` counters are
    /// declared before the pipelines).
    fn global_store_prefixes(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .k
            .op_ids()
            .into_iter()
            .filter_map(|o| match self.k.op(o).kind {
                OpKind::Store { mem, .. }
                    if matches!(self.k.mem(mem).kind, hls_ir::MemKind::Global { .. }) =>
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

    /// The read channel of a global memory port: one response buffer per pipeline that loads
    /// through it; with several pipelines, a fixed-priority arbiter (outer pipeline first) and
    /// a FIFO of tags that sends each response to the pipeline that asked (responses come back
    /// in request order).
    fn emit_read_port(
        &mut self,
        w: &mut VWriter,
        m: &Mem,
        load_info: &BTreeMap<OpId, (String, String)>,
    ) {
        let p = m.prefix.clone();
        let regions: std::collections::BTreeSet<usize> =
            m.loads.iter().map(|&l| self.region_of(l)).collect();
        let mut tag_depth = 0;
        let mut per_region = Vec::new(); // (r, req, addr)
        for &r in &regions {
            self.cur = r;
            let loads: Vec<OpId> = m
                .loads
                .iter()
                .copied()
                .filter(|&l| self.region_of(l) == r)
                .collect();
            // Outstanding reads are bounded by the iterations between issue and use.
            let mut depth = 0;
            for &l in &loads {
                depth += self.load_latency(l) + 1;
            }
            let depth = depth.next_power_of_two().max(2);
            tag_depth += depth;
            let aw = depth.trailing_zeros();
            let f = m.rfifo(r);
            w.line(format!("wire {f}_full;"));
            w.line(format!("wire {f}_empty;"));
            w.line(format!("wire {}{f}_data;", range(m.bits)));
            let pops: Vec<String> = loads.iter().map(|l| load_info[l].1.clone()).collect();
            w.wire(
                &format!("{f}_pop"),
                1,
                &format!("({}) && !{}", pops.join(" || "), self.stall()),
            );
            let push = if m.multi_read {
                let tw = tag_bits(&regions);
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
            // Address mux: at most one load of a pipeline requests in any cycle.
            let reqs: Vec<String> = loads.iter().map(|l| load_info[l].0.clone()).collect();
            let cases: Vec<(String, String)> = loads
                .iter()
                .map(|&l| {
                    let a = self.val(self.k.operands(l)[0], self.start(l));
                    (load_info[&l].0.clone(), a)
                })
                .collect();
            per_region.push((r, reqs.join(" || "), select_chain(&cases)));
        }
        self.cur = 0;
        if !m.multi_read {
            let (r, req, addr) = &per_region[0];
            w.assign(&format!("{p}_rreq_valid"), req);
            w.assign(&format!("{p}_rreq_addr"), addr);
            w.assign(
                &format!("{p}_rresp_ready"),
                &format!("!{}_full", m.rfifo(*r)),
            );
            return;
        }
        let tw = tag_bits(&regions);
        let mut earlier: Vec<String> = Vec::new();
        let (mut addr, mut tag) = (Vec::new(), Vec::new());
        let mut full = Vec::new();
        for (r, req, a) in &per_region {
            let rq = format!("{p}_rreq_r{r}");
            w.wire(&rq, 1, req);
            let gnt = format!("{p}_rgnt_r{r}");
            let blocked: String = earlier.iter().map(|e| format!(" && !{e}")).collect();
            w.wire(&gnt, 1, &format!("{rq}{blocked}"));
            w.wire(
                &format!("{p}_racc_r{r}"),
                1,
                &format!("{gnt} && {p}_rreq_ready && !{p}_tag_full"),
            );
            earlier.push(rq);
            addr.push((gnt.clone(), format!("({a})")));
            tag.push((gnt, literal(*r as u64, tw)));
            full.push(format!(
                "({p}_tag_head == {} && {}_full)",
                literal(*r as u64, tw),
                m.rfifo(*r)
            ));
        }
        let tag_depth = tag_depth.next_power_of_two();
        w.line(format!("wire {p}_tag_full;"));
        w.line(format!("wire {p}_tag_empty;"));
        w.line(format!("wire {}{p}_tag_head;", range(tw)));
        w.assign(
            &format!("{p}_rreq_valid"),
            &format!("({}) && !{p}_tag_full", earlier.join(" || ")),
        );
        w.assign(&format!("{p}_rreq_addr"), &select_chain(&addr));
        let tag = select_chain(&tag);
        w.assign(
            &format!("{p}_rresp_ready"),
            &format!("!{p}_tag_empty && !({})", full.join(" || ")),
        );
        w.line(format!(
            "oclhls_fifo #(.W({tw}), .DEPTH({tag_depth}), .AW({})) {p}_tag (.clk(clk), .rst(rst), .push({p}_rreq_valid && {p}_rreq_ready), .push_data({tag}), .full({p}_tag_full), .pop({p}_rresp_valid && {p}_rresp_ready), .pop_data({p}_tag_head), .empty({p}_tag_empty));",
            tag_depth.trailing_zeros()
        ));
    }

    /// An on-chip memory: an array with a registered read (Yosys maps it to EBR, or to LUT RAM
    /// when small) and one write port. The regions using it never run at the same time (see
    /// `find_serial_regions`), so requests are simply OR-ed; the read register updates only
    /// when the reading pipeline moves, so a stalled consumer keeps its data.
    fn emit_onchip(
        &mut self,
        w: &mut VWriter,
        id: MemId,
        m: &Mem,
        len: u32,
        load_info: &BTreeMap<OpId, (String, String)>,
        store_info: &BTreeMap<OpId, String>,
    ) {
        let p = m.prefix.clone();
        let mem = self.k.mem(id);
        let bits = mem.elem.bits().max(8);
        // The bits `narrow` keeps exact in addresses of on-chip memories.
        let (sh, aw) = mem
            .onchip_address_bits()
            .expect("only on-chip memories are emitted as arrays");
        // The scheduler's timing of the read depends on where the memory goes.
        let style = if scheduler::oplib::onchip_in_lutram(len) {
            "distributed"
        } else {
            "block"
        };
        w.comment(format!(
            "---- On-chip memory `{p}`: {len} x {bits} bits, registered read (1 cycle), {} RAM",
            if style == "block" { "EBR" } else { "LUT" }
        ));
        w.line(format!(
            "(* ram_style = \"{style}\" *) reg {}{p}_mem [0:{}];",
            range(bits),
            len - 1
        ));
        let index = |this: &mut Self, a: String| -> String {
            if sh + aw < 32 {
                this.unused_bits.push(format!("{a}[31:{}]", sh + aw));
            }
            if sh > 0 {
                this.unused_bits.push(format!("{a}[{}:0]", sh - 1));
            }
            format!("{a}[{}:{sh}]", sh + aw - 1)
        };
        let ports = m
            .loads
            .iter()
            .map(|l| self.onchip_port[l] + 1)
            .max()
            .unwrap_or(0);
        for port in 0..ports {
            let mut addr = Vec::new();
            let mut res = Vec::new();
            let mine: Vec<OpId> = m
                .loads
                .iter()
                .copied()
                .filter(|l| self.onchip_port[l] == port)
                .collect();
            for l in mine {
                self.cur = self.region_of(l);
                let a = format!("{p}_ra_v{}", l.0);
                let v = self.val(self.k.operands(l)[0], self.start(l));
                w.wire(&a, 32, &v);
                let ix = index(self, a);
                let re = &load_info[&l].0;
                res.push(re.clone());
                addr.push((re.clone(), ix));
            }
            let (raddr, q) = onchip_port_names(&p, port);
            w.wire(&raddr, aw, &select_chain(&addr));
            w.reg(&q, bits);
            let cond = res.join(" || ");
            w.always_ff(|w| {
                w.line(format!("if ({cond}) {q} <= {p}_mem[{raddr}];"));
            });
        }
        if !m.stores.is_empty() {
            let (mut addr, mut data) = (Vec::new(), Vec::new());
            let mut strb = Vec::new();
            let mut wes = Vec::new();
            for &st in &m.stores {
                self.cur = self.region_of(st);
                let ops = self.k.operands(st);
                let c = self.start(st);
                let a = format!("{p}_wa_v{}", st.0);
                let v = self.val(ops[0], c);
                w.wire(&a, 32, &v);
                let ix = index(self, a);
                let d = self.val(ops[1], c);
                let we = &store_info[&st];
                wes.push(we.clone());
                addr.push((we.clone(), ix));
                data.push((we.clone(), d));
                strb.push((we.clone(), self.strobe(st, bits)));
            }
            w.wire(&format!("{p}_waddr"), aw, &select_chain(&addr));
            w.wire(&format!("{p}_wdata"), bits, &select_chain(&data));
            let cond = wes.join(" || ");
            if m.partial {
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
        }
        self.cur = 0;
    }

    /// The write channel of a global memory port, with a counter of unacknowledged writes
    /// (the kernel is done only when it is 0); with several pipelines, a fixed-priority
    /// arbiter.
    fn emit_write_port(&mut self, w: &mut VWriter, m: &Mem, store_info: &BTreeMap<OpId, String>) {
        let p = m.prefix.clone();
        w.wire(
            &format!("{p}_wcnt_full"),
            1,
            &format!("{p}_wcnt == 16'hffff"),
        );
        let regions: std::collections::BTreeSet<usize> =
            m.stores.iter().map(|&s| self.region_of(s)).collect();
        let mut all_reqs = Vec::new();
        // Per pipeline: (grant, address, data, strobe); one pipeline needs no grant.
        let (mut addr, mut data, mut strb) = (Vec::new(), Vec::new(), Vec::new());
        let mut earlier: Vec<String> = Vec::new();
        for &r in &regions {
            self.cur = r;
            let stores: Vec<OpId> = m
                .stores
                .iter()
                .copied()
                .filter(|&s| self.region_of(s) == r)
                .collect();
            let reqs: Vec<String> = stores.iter().map(|s| store_info[s].clone()).collect();
            let (mut ra, mut rd, mut rs) = (Vec::new(), Vec::new(), Vec::new());
            for &s in &stores {
                let ops = self.k.operands(s);
                let c = self.start(s);
                ra.push((store_info[&s].clone(), self.val(ops[0], c)));
                rd.push((store_info[&s].clone(), self.val(ops[1], c)));
                rs.push((store_info[&s].clone(), self.strobe(s, m.bits)));
            }
            let (ra, rd, rs) = (select_chain(&ra), select_chain(&rd), select_chain(&rs));
            if m.multi_write {
                let rq = format!("{p}_wreq_r{r}");
                w.wire(&rq, 1, &reqs.join(" || "));
                let gnt = format!("{p}_wgnt_r{r}");
                let blocked: String = earlier.iter().map(|e| format!(" && !{e}")).collect();
                w.wire(&gnt, 1, &format!("{rq}{blocked}"));
                let acc = format!("{p}_wacc_r{r}");
                w.wire(
                    &acc,
                    1,
                    &format!("{gnt} && {p}_wreq_ready && !{p}_wcnt_full"),
                );
                for s in &stores {
                    self.regions[r]
                        .stall_terms
                        .push(format!("({} && !{acc})", store_info[s]));
                }
                earlier.push(rq);
                addr.push((gnt.clone(), format!("({ra})")));
                data.push((gnt.clone(), format!("({rd})")));
                strb.push((gnt, format!("({rs})")));
            } else {
                for s in &stores {
                    self.regions[r].stall_terms.push(format!(
                        "({} && !({p}_wreq_ready && !{p}_wcnt_full))",
                        self.store_pend[s]
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
            &format!("{p}_wreq_valid"),
            &format!("({}) && !{p}_wcnt_full", all_reqs.join(" || ")),
        );
        w.assign(&format!("{p}_wreq_addr"), &select_chain(&addr));
        w.assign(&format!("{p}_wreq_data"), &select_chain(&data));
        if m.partial {
            w.assign(&format!("{p}_wreq_strb"), &select_chain(&strb));
        }
        w.assign(&format!("{p}_wresp_ready"), "1'b1");
        w.always_ff(|w| {
            w.line(format!("if (rst || launch) {p}_wcnt <= 16'd0;"));
            w.line(format!(
                "else if (({p}_wreq_valid && {p}_wreq_ready) && !{p}_wresp_valid) {p}_wcnt <= {p}_wcnt + 16'd1;"
            ));
            w.line(format!(
                "else if (!({p}_wreq_valid && {p}_wreq_ready) && {p}_wresp_valid) {p}_wcnt <= {p}_wcnt - 16'd1;"
            ));
        });
    }

    /// A registered multiplier of `lat` stages. 32-bit products are split into
    /// 16x16 partial products (one DSP each) registered in the first stage and summed in the
    /// second, so no stage holds a full 32x32 multiplier (about 93 MHz on ECP5 in one stage).
    fn emit_mul(&self, w: &mut VWriter, name: &str, bits: u32, x: &str, y: &str, lat: u32) {
        if bits == 32 && lat >= 2 {
            let hi = 16;
            w.wire(&format!("{name}_a"), bits, x);
            w.wire(&format!("{name}_b"), bits, y);
            w.reg(&format!("{name}_ll"), 32);
            w.reg(&format!("{name}_lh"), hi);
            w.reg(&format!("{name}_hl"), hi);
            for i in 2..=lat {
                w.reg(&format!("{name}_m{i}"), bits);
            }
            let (hr, lr) = ("[31:16]", "[15:0]");
            w.always_ff(|w| {
                w.block(&format!("if (!{})", self.stall()), |w| {
                    w.line(format!(
                        "{name}_ll <= {{16'd0, {name}_a[15:0]}} * {{16'd0, {name}_b[15:0]}};"
                    ));
                    w.line(format!("{name}_lh <= {name}_a{lr} * {name}_b{hr};"));
                    w.line(format!("{name}_hl <= {name}_a{hr} * {name}_b{lr};"));
                    w.line(format!(
                        "{name}_m2 <= {name}_ll + {{{name}_lh + {name}_hl, 16'd0}};"
                    ));
                    for i in 3..=lat {
                        w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                    }
                });
            });
        } else if bits == 64 && lat >= 4 {
            self.emit_mul64(w, name, x, y, lat);
        } else {
            for i in 1..=lat {
                w.reg(&format!("{name}_m{i}"), bits);
            }
            w.always_ff(|w| {
                w.block(&format!("if (!{})", self.stall()), |w| {
                    w.line(format!("{name}_m1 <= {x} * {y};"));
                    for i in 2..=lat {
                        w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                    }
                });
            });
        }
        w.wire(name, bits, &format!("{name}_m{lat}"));
    }

    /// An instance of float unit `unit` (`params`: its parameter list with a trailing space, or
    /// empty) whose registered output `y` of `out_bits` bits is the value `name`. Its
    /// registers move with this pipeline (`ce` = not stalled), like a multiplier's stages.
    fn emit_fp_unit(
        &mut self,
        w: &mut VWriter,
        name: &str,
        unit: FpUnit,
        params: &str,
        ins: &[(&str, String)],
        out_bits: u32,
    ) {
        self.fp_units.insert(unit);
        let q = format!("{name}_y");
        w.line(format!("wire {}{q};", range(out_bits)));
        let conns: Vec<String> = ins.iter().map(|(p, v)| format!(".{p}({v})")).collect();
        w.line(format!(
            "{} {params}{name}_u (.clk(clk), .ce(!{}), {}, .y({q}));",
            unit.module(),
            self.stall(),
            conns.join(", ")
        ));
        w.wire(name, out_bits, &q);
    }

    /// An instance of the combinational float compare of `a` and `b`; returns its outputs'
    /// wires `(a < b, a == b, unordered)`.
    fn fp_compare(
        &mut self,
        w: &mut VWriter,
        name: &str,
        a: &str,
        b: &str,
    ) -> (String, String, String) {
        let (lt, eq, un) = (
            format!("{name}_lt"),
            format!("{name}_eq"),
            format!("{name}_un"),
        );
        for n in [&lt, &eq, &un] {
            w.line(format!("wire {n};"));
        }
        self.fp_units.insert(FpUnit::Cmp);
        w.line(format!(
            "oclhls_fp_cmp {name}_cmp (.a({a}), .b({b}), .lt({lt}), .eq({eq}), .unordered({un}));"
        ));
        (lt, eq, un)
    }

    /// A float compare for `fmin` (`min`: is `y < x`) or `fmax` (is `x < y`); returns the
    /// wire that says so.
    fn emit_fp_cmp(&mut self, w: &mut VWriter, name: &str, x: &str, y: &str, min: bool) -> String {
        let (a, b) = if min { (y, x) } else { (x, y) };
        let (lt, eq, un) = self.fp_compare(w, name, a, b);
        self.unused_bits.push(eq);
        self.unused_bits.push(un);
        lt
    }

    /// The low 64 bits of a 64x64 product from 16-bit digits, so that no stage holds more than
    /// one level of wide additions (measured in docs/benchmarks.md, "ECP5 operator library:
    /// measurements", row `mul_64_split`): stage 1 registers the ten digit products
    /// `a_i * b_j` with `i + j <= 3` (those of weight 48 only to 16 bits), stage 2 sums the
    /// products of equal weight, stage 3 forms the low part (weights 0 and 16) and the high
    /// half (weights 32 and 48), stage 4 adds them; further stages only delay.
    fn emit_mul64(&self, w: &mut VWriter, name: &str, x: &str, y: &str, lat: u32) {
        w.wire(&format!("{name}_a"), 64, x);
        w.wire(&format!("{name}_b"), 64, y);
        let digit = |v: &str, i: u32| format!("{name}_{v}[{}:{}]", 16 * i + 15, 16 * i);
        for i in 0..4 {
            for j in 0..4 - i {
                w.reg(&format!("{name}_p{i}{j}"), if i + j == 3 { 16 } else { 32 });
            }
        }
        w.reg(&format!("{name}_q0"), 32);
        w.reg(&format!("{name}_s16"), 33);
        w.reg(&format!("{name}_s32"), 32);
        w.reg(&format!("{name}_s48"), 16);
        w.reg(&format!("{name}_lo"), 64);
        w.reg(&format!("{name}_hi"), 32);
        for i in 4..=lat {
            w.reg(&format!("{name}_m{i}"), 64);
        }
        w.always_ff(|w| {
            w.block(&format!("if (!{})", self.stall()), |w| {
                for i in 0..4 {
                    for j in 0..4 - i {
                        w.line(format!(
                            "{name}_p{i}{j} <= {} * {};",
                            digit("a", i),
                            digit("b", j)
                        ));
                    }
                }
                w.line(format!("{name}_q0 <= {name}_p00;"));
                w.line(format!(
                    "{name}_s16 <= {{1'b0, {name}_p01}} + {{1'b0, {name}_p10}};"
                ));
                w.line(format!(
                    "{name}_s32 <= {name}_p02 + {name}_p11 + {name}_p20;"
                ));
                w.line(format!(
                    "{name}_s48 <= {name}_p03 + {name}_p12 + {name}_p21 + {name}_p30;"
                ));
                w.line(format!(
                    "{name}_lo <= {{32'd0, {name}_q0}} + {{15'd0, {name}_s16, 16'd0}};"
                ));
                w.line(format!("{name}_hi <= {name}_s32 + {{{name}_s48, 16'd0}};"));
                w.line(format!("{name}_m4 <= {name}_lo + {{{name}_hi, 32'd0}};"));
                for i in 5..=lat {
                    w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                }
            });
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_op(
        &mut self,
        w: &mut VWriter,
        o: OpId,
        mems: &BTreeMap<MemId, Mem>,
        waits: &mut BTreeMap<u32, Vec<String>>,
        load_info: &mut BTreeMap<OpId, (String, String)>,
        store_info: &mut BTreeMap<OpId, String>,
    ) {
        let op = self.k.op(o);
        if op.kind.is_launch_invariant() {
            return;
        }
        let name = self.names[&o].clone();
        let bits = op.ty.bits();
        if let OpKind::WorkItem(f, d) = &op.kind {
            let src = match f {
                WorkItemFn::GlobalId => format!("gid_{d}"),
                WorkItemFn::LocalId => format!("lid_{d}"),
                WorkItemFn::GroupId => format!("grp_{d}"),
                WorkItemFn::LocalSize => format!("cur_{d}"),
                _ => unreachable!("launch-invariant work-item values return above"),
            };
            if self.k.has_uses(o) {
                w.wire(&name, bits, &src);
            }
            return;
        }
        let c = match op.kind {
            OpKind::LoopResult | OpKind::Extract { .. } => self.avail[&o],
            _ => self.start(o),
        };
        let args = self.k.operands(o);
        let a = |i: usize| self.val(args[i], c);
        let signed = |s: String| format!("$signed({s})");
        let expr = match &op.kind {
            OpKind::Binary(b) => {
                let (x, y) = (a(0), a(1));
                match b {
                    BinOp::Add => format!("{x} + {y}"),
                    BinOp::Sub => format!("{x} - {y}"),
                    BinOp::And => format!("{x} & {y}"),
                    BinOp::Or => format!("{x} | {y}"),
                    BinOp::Xor => format!("{x} ^ {y}"),
                    BinOp::Shl | BinOp::ShrU | BinOp::ShrS => {
                        // OpenCL: the shift count is taken modulo the width.
                        let sb = 32 - (bits.max(2) - 1).leading_zeros();
                        let amt_bits = self.bits(args[1]);
                        let amt = if let OpKind::Const(v) = self.k.op(args[1]).kind {
                            format!("{}", v % bits as u64)
                        } else if !bits.is_power_of_two() && amt_bits >= sb {
                            // The low bits are the count modulo a power of two only; other
                            // widths (which the IR allows, though `narrow` keeps variable
                            // shifts whole) take the remainder.
                            format!("({y} % {amt_bits}'d{bits})")
                        } else if amt_bits > sb {
                            self.unused_bits.push(format!("{y}[{}:{sb}]", amt_bits - 1));
                            format!("{y}[{}:0]", sb - 1)
                        } else {
                            y.clone()
                        };
                        match b {
                            BinOp::Shl => format!("{x} << {amt}"),
                            BinOp::ShrU => format!("{x} >> {amt}"),
                            _ => format!("{} >>> {amt}", signed(x)),
                        }
                    }
                    BinOp::MinS => format!(
                        "({} < {}) ? {x} : {y}",
                        signed(x.clone()),
                        signed(y.clone())
                    ),
                    BinOp::MaxS => format!(
                        "({} > {}) ? {x} : {y}",
                        signed(x.clone()),
                        signed(y.clone())
                    ),
                    BinOp::MinU => format!("({x} < {y}) ? {x} : {y}"),
                    BinOp::MaxU => format!("({x} > {y}) ? {x} : {y}"),
                    BinOp::Mul => {
                        self.emit_mul(w, &name, bits, &x, &y, self.load_latency(o).max(1));
                        return;
                    }
                    BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv => {
                        let (unit, y) = match b {
                            BinOp::FAdd => (FpUnit::Add, y),
                            // a - b = a + (-b): the sign of b flipped.
                            BinOp::FSub => (FpUnit::Add, format!("{{~{y}[31], {y}[30:0]}}")),
                            BinOp::FMul => (FpUnit::Mul, y),
                            _ => (FpUnit::Div, y),
                        };
                        self.emit_fp_unit(w, &name, unit, "", &[("a", x), ("b", y)], 32);
                        return;
                    }
                    BinOp::FMin | BinOp::FMax => {
                        // OpenCL fmin: b if b < a, else a; fmax: b if a < b, else a; a NaN
                        // operand gives the other one, two NaNs the canonical NaN; the result is
                        // the flushed operand (fpsem::min/max).
                        let lt = self.emit_fp_cmp(w, &name, &x, &y, *b == BinOp::FMin);
                        let nan = |v: &str| format!("(&{v}[30:23] && |{v}[22:0])");
                        let flush = |v: &str| format!("(|{v}[30:23] ? {v} : {{{v}[31], 31'd0}})");
                        let (an, bn) = (format!("{name}_an"), format!("{name}_bn"));
                        w.wire(&an, 1, &nan(&x));
                        w.wire(&bn, 1, &nan(&y));
                        format!(
                            "({an} && {bn}) ? 32'h7fc00000 : ({an} || (!{bn} && {lt})) ? {} : {}",
                            flush(&y),
                            flush(&x)
                        )
                    }
                    other => unreachable!("the operator library rejects {other:?} before emission"),
                }
            }
            OpKind::Unary(u) => {
                let x = a(0);
                match u {
                    UnOp::Not => format!("~{x}"),
                    UnOp::Neg => format!("-{x}"),
                    UnOp::AbsS => format!("{x}[{}] ? -{x} : {x}", bits - 1),
                    // IEEE negate and abs: the sign bit only.
                    UnOp::FNeg => format!("{{~{x}[31], {x}[30:0]}}"),
                    UnOp::FAbs => {
                        self.unused_bits.push(format!("{x}[31]"));
                        format!("{{1'b0, {x}[30:0]}}")
                    }
                    UnOp::FSqrt => {
                        self.emit_fp_unit(w, &name, FpUnit::Sqrt, "", &[("a", x)], 32);
                        return;
                    }
                }
            }
            OpKind::Cmp(cmp) if is_float_cmp(*cmp) => {
                let (x, y) = (a(0), a(1));
                let (lt, eq, un) = self.fp_compare(w, &name, &x, &y);
                let used = |this: &mut Self, n: &String| this.unused_bits.push(n.clone());
                match cmp {
                    CmpOp::FEq | CmpOp::FNe => {
                        used(self, &lt);
                        used(self, &un);
                    }
                    CmpOp::FLt => {
                        used(self, &eq);
                        used(self, &un);
                    }
                    CmpOp::FLe => used(self, &un),
                    CmpOp::FGe => used(self, &eq),
                    _ => {}
                }
                match cmp {
                    CmpOp::FEq => eq,
                    CmpOp::FNe => format!("!{eq}"),
                    CmpOp::FLt => lt,
                    CmpOp::FLe => format!("{lt} || {eq}"),
                    CmpOp::FGt => format!("!({lt} || {eq} || {un})"),
                    _ => format!("!({lt} || {un})"),
                }
            }
            OpKind::Cmp(cmp) => {
                let (x, y) = (a(0), a(1));
                let (op_s, sg) = match cmp {
                    CmpOp::Eq => ("==", false),
                    CmpOp::Ne => ("!=", false),
                    CmpOp::LtS => ("<", true),
                    CmpOp::LeS => ("<=", true),
                    CmpOp::GtS => (">", true),
                    CmpOp::GeS => (">=", true),
                    CmpOp::LtU => ("<", false),
                    CmpOp::LeU => ("<=", false),
                    CmpOp::GtU => (">", false),
                    CmpOp::GeU => (">=", false),
                    other => unreachable!("the operator library rejects {other:?} before emission"),
                };
                if sg {
                    format!("{} {op_s} {}", signed(x), signed(y))
                } else {
                    format!("{x} {op_s} {y}")
                }
            }
            OpKind::Select => format!("{} ? {} : {}", a(0), a(1), a(2)),
            OpKind::Extract { lo } => {
                let src = args[0];
                let from = self.bits(src);
                let lo = *lo;
                if let OpKind::Const(v) = self.k.op(src).kind {
                    let v = if lo >= 64 { 0 } else { v >> lo };
                    literal(v & op.ty.mask(), bits)
                } else {
                    let x = a(0);
                    self.selected
                        .entry(x.clone())
                        .or_insert((from, Vec::new()))
                        .1
                        .push((lo, lo + bits));
                    bit_range(&x, lo + bits - 1, lo)
                }
            }
            // Rebuilt in the later stages that need it; here only if used here.
            OpKind::Concat
                if self.remat.contains(&o)
                    && !self.use_cycles.get(&o).is_some_and(|u| u.contains(&c)) =>
            {
                return
            }
            OpKind::Concat => {
                let parts: Vec<String> = (0..args.len()).rev().map(a).collect();
                format!("{{{}}}", parts.join(", "))
            }
            OpKind::Convert(cv) => {
                let x = a(0);
                let from = self.bits(args[0]);
                match cv {
                    ConvOp::Trunc => {
                        self.unused_bits.push(format!("{x}[{}:{bits}]", from - 1));
                        if bits == 1 {
                            format!("{x}[0]")
                        } else {
                            format!("{x}[{}:0]", bits - 1)
                        }
                    }
                    ConvOp::ZExt => format!("{{{{{}{{1'b0}}}}, {x}}}", bits - from),
                    ConvOp::SExt => {
                        let msb = if from == 1 {
                            x.clone()
                        } else {
                            format!("{x}[{}]", from - 1)
                        };
                        format!("{{{{{}{{{msb}}}}}, {x}}}", bits - from)
                    }
                    ConvOp::Bitcast => x,
                    ConvOp::SIToF | ConvOp::UIToF => {
                        // The unit takes 8, 16, 32 or 64 bits: extend the integer to that.
                        let signed = *cv == ConvOp::SIToF && from > 1;
                        let width = fp_int_width(from);
                        let a = if width == from {
                            x
                        } else if signed {
                            format!("{{{{{}{{{x}[{}]}}}}, {x}}}", width - from, from - 1)
                        } else {
                            format!("{{{}'d0, {x}}}", width - from)
                        };
                        let params = format!("#(.WIDTH({width}), .SIGNED({})) ", signed as u8);
                        self.emit_fp_unit(w, &name, FpUnit::FromInt, &params, &[("a", a)], 32);
                        return;
                    }
                    ConvOp::FToSI { .. } | ConvOp::FToUI { .. } => {
                        let signed = matches!(cv, ConvOp::FToSI { .. });
                        let params = format!("#(.WIDTH({bits}), .SIGNED({})) ", signed as u8);
                        self.emit_fp_unit(w, &name, FpUnit::ToInt, &params, &[("a", x)], bits);
                        return;
                    }
                    other => unreachable!("the operator library rejects {other:?} before emission"),
                }
            }
            OpKind::Load { mem } if mems[mem].onchip.is_some() => {
                let re = format!("{name}_re");
                w.wire(
                    &re,
                    1,
                    &format!("{} && {} && !{}", self.valid(c), a(1), self.stall()),
                );
                load_info.insert(o, (re, String::new()));
                onchip_port_names(&mems[mem].prefix, self.onchip_port[&o]).1
            }
            OpKind::Store { mem, .. } if mems[mem].onchip.is_some() => {
                let we = format!("{name}_we");
                w.wire(
                    &we,
                    1,
                    &format!("{} && {} && !{}", self.valid(c), a(2), self.stall()),
                );
                store_info.insert(o, we);
                return;
            }
            OpKind::Load { mem } => {
                let m = &mems[mem];
                let p = &m.prefix;
                let f = m.rfifo(self.cur);
                let pred = args[1];
                let lat = self.load_latency(o);
                let accepted = if m.multi_read {
                    format!("{p}_racc_r{}", self.cur)
                } else {
                    format!("{p}_rreq_ready")
                };
                let req = self.emit_request(w, &name, c, &a(1), &accepted);
                let asking = if m.multi_read {
                    req.clone()
                } else {
                    self.emit_pending(w, &name, c)
                };
                let pop = format!("{name}_pop");
                w.wire(
                    &pop,
                    1,
                    &format!("{} && {}", self.valid(c + lat), self.val(pred, c + lat)),
                );
                self.regions[self.cur]
                    .stall_terms
                    .push(format!("({asking} && !{accepted})"));
                waits
                    .entry(c + lat)
                    .or_default()
                    .push(format!("({pop} && {f}_empty)"));
                load_info.insert(o, (req, pop));
                format!("{f}_data")
            }
            OpKind::Store { mem, .. } => {
                let m = &mems[mem];
                let p = &m.prefix;
                let accepted = if m.multi_write {
                    format!("{p}_wacc_r{}", self.cur)
                } else {
                    format!("{p}_wreq_valid && {p}_wreq_ready")
                };
                let req = self.emit_request(w, &name, c, &a(2), &accepted);
                if !m.multi_write {
                    let pend = self.emit_pending(w, &name, c);
                    self.store_pend.insert(o, pend);
                }
                store_info.insert(o, req);
                return;
            }
            OpKind::Loop(l) => {
                let lp = self.regions[l.index()].pre.clone();
                let idle = format!("{lp}idle");
                let req = self.emit_request(w, &name, c, "1'b1", &idle);
                w.assign(&format!("{lp}start"), &format!("{req} && {idle}"));
                w.assign(&format!("{lp}enter"), &a(0));
                self.regions[self.cur]
                    .stall_terms
                    .push(format!("({req} && !{idle})"));
                // The work-item waits in the next stage until the loop has finished, then
                // takes the results at once (`take`, kept in `hold_*` while this pipeline is
                // stalled for another reason), so the loop can start for the next work-item.
                let here = self.valid(c + 1);
                waits
                    .entry(c + 1)
                    .or_default()
                    .push(format!("({here} && !{lp}pend && !{lp}taken)"));
                w.assign(
                    &format!("{lp}take"),
                    &format!("{here} && {lp}pend && !{lp}taken"),
                );
                return;
            }
            OpKind::LoopResult => {
                let lp = &self.regions[self.result_loop(o)].pre;
                format!("{lp}taken ? {lp}hold_{name} : {lp}res_{name}")
            }
            OpKind::Carried => {
                let ii = self.regions[self.cur].ls.slot_ii.max(1);
                let first = if c == 0 {
                    self.sig("first")
                } else {
                    self.sig(&format!("first_c{c}"))
                };
                if self.regions[self.cur].serial.is_some() {
                    // One iteration at a time: the previous one has left the pipeline, so its
                    // next value is kept in a register.
                    let hold = format!("{name}_hold");
                    let next = args[1];
                    let at = if self.region_of(next) == self.cur {
                        self.avail[&next]
                    } else {
                        c
                    };
                    w.reg(&hold, bits);
                    let (v, nv, st) = (self.valid(at), self.val(next, at), self.stall());
                    w.always_ff(|w| {
                        w.line(format!("if ({v} && !{st}) {hold} <= {nv};"));
                    });
                    format!("{first} ? {} : {hold}", a(0))
                } else if self.carried_holds(o) {
                    // The register holds the value for the iteration in stage `c`: the initial
                    // value from the start, then each iteration's next value as it leaves the
                    // stage that computes it (no first-iteration select in front of it).
                    let r = self.cur;
                    let parent = self.regions[r].parent.expect("a source loop has a parent");
                    let (_, s) = self.loop_start(r);
                    let init = self.val_at(parent, args[0], s);
                    let at = self.avail[&args[1]];
                    let hold = format!("{name}_hold");
                    w.reg(&hold, bits);
                    let (start, v, nv, st) = (
                        self.sig("start"),
                        self.valid(at),
                        self.val(args[1], at),
                        self.stall(),
                    );
                    w.always_ff(|w| {
                        w.line(format!("if ({start}) {hold} <= {init};"));
                        w.line(format!("else if ({v} && !{st}) {hold} <= {nv};"));
                    });
                    hold
                } else {
                    format!("{first} ? {} : {}", a(0), self.val(args[1], c + ii))
                }
            }
            OpKind::LoopExit => return,
            OpKind::PipeRead { .. }
            | OpKind::PipeWrite { .. }
            | OpKind::PipeReserve { .. }
            | OpKind::PipeCommit { .. }
            | OpKind::PipeQuery { .. } => {
                let mut reqs = std::mem::take(&mut self.pipe_reqs);
                let v = self.emit_pipe_op(w, o, c, &mut reqs);
                self.pipe_reqs = reqs;
                match v {
                    Some(v) if self.k.has_data_uses(o) => v,
                    Some(v) => {
                        // A status nobody reads (or a packet read only to drop it).
                        self.unused_bits.push(v);
                        return;
                    }
                    None => return,
                }
            }
            other => {
                unreachable!("lowering and the operator library reject `{other}` before emission")
            }
        };
        w.wire(&name, bits, &expr);
    }
}

/// Whether `c` compares floats.
fn is_float_cmp(c: CmpOp) -> bool {
    matches!(
        c,
        CmpOp::FEq | CmpOp::FNe | CmpOp::FLt | CmpOp::FLe | CmpOp::FGt | CmpOp::FGe
    )
}

/// The integer width (8, 16, 32 or 64) a float conversion unit takes for a `bits`-bit integer.
fn fp_int_width(bits: u32) -> u32 {
    [8, 16, 32, 64]
        .into_iter()
        .find(|&w| bits <= w)
        .unwrap_or(64)
}
