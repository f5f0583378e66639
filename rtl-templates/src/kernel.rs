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
    /// `"scalar"` or `"global"`.
    pub kind: &'static str,
    /// The value port (`arg_<name>`), absent when the kernel never uses the argument.
    pub port: Option<String>,
    /// Prefix of the memory channels (`<prefix>_rreq_valid` ...), for pointer arguments.
    pub mem_prefix: Option<String>,
    /// Width of the value (scalars) or of one element (pointers), in bits.
    pub bits: u32,
    pub reads: bool,
    pub writes: bool,
}

/// The interface of a generated kernel module (see docs/hardware-interface.md).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Interface {
    pub module: String,
    pub ports: Vec<Port>,
    pub args: Vec<ArgPort>,
}

pub struct EmittedKernel {
    pub module: String,
    pub file_name: String,
    pub verilog: String,
    pub interface: Interface,
    /// Depth of the work-item pipeline in stages.
    pub stages: u32,
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

/// Support modules every build directory needs, as `(file name, text)`.
pub fn support_files() -> Vec<(String, String)> {
    let fifo = FifoTemplate {
        version: env!("CARGO_PKG_VERSION"),
    }
    .render()
    .expect("the FIFO template renders");
    // askama drops the template's final newline; POSIX (and Verilator's EOFNEWLINE) want it.
    vec![("oclhls_fifo.v".to_string(), fifo + "\n")]
}

struct Mem {
    prefix: String,
    bits: u32,
    loads: Vec<OpId>,
    stores: Vec<OpId>,
}

struct Emitter<'a> {
    k: &'a Kernel,
    ls: &'a LoopSchedule,
    names: BTreeMap<OpId, String>,
    avail: BTreeMap<OpId, u32>,
    last_use: BTreeMap<OpId, u32>,
    diags: Vec<Diagnostic>,
    dims: [DimUse; 3],
    uses_work_dim: bool,
    /// Registers latched at launch for used scalar arguments: (port, reg, bits).
    arg_regs: Vec<(String, String, u32)>,
    unused_bits: Vec<String>,
    /// Stages in which some load pops its response (see `wait_cN`).
    wait_stages: std::collections::BTreeSet<u32>,
}

fn is_per_item(kind: &OpKind) -> bool {
    matches!(kind, OpKind::WorkItem(f, _) if !f.is_launch_invariant())
}

/// Emit the Verilog module of kernel `k` scheduled by `s`.
pub fn emit_kernel(k: &Kernel, s: &KernelSchedule) -> Result<EmittedKernel, Vec<Diagnostic>> {
    if k.loops.iter().any(|l| l.kind != LoopKind::WorkItems) || k.loops.len() != 1 {
        return Err(vec![Diagnostic::error(
            k.span,
            "kernels with loops are not yet supported by the hardware path",
        )]);
    }
    let ls = s
        .for_loop(Kernel::WORK_ITEM_LOOP)
        .expect("the work-item loop is scheduled before emission");
    let mut e = Emitter {
        k,
        ls,
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
        wait_stages: Default::default(),
    };
    e.analyse();
    for d in e.dims.iter_mut() {
        d.grouped = d.lid || d.grp || d.lsize;
    }
    if !e.diags.is_empty() {
        return Err(e.diags);
    }
    Ok(e.emit())
}

impl<'a> Emitter<'a> {
    fn ops(&self) -> Vec<OpId> {
        self.k.ops_in(Kernel::WORK_ITEM_LOOP)
    }

    fn load_latency(&self, o: OpId) -> u32 {
        self.ls.latency[&o]
    }

    fn analyse(&mut self) {
        for o in self.ops() {
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
                _ => {
                    if !self.ls.start.contains_key(&o) {
                        panic!("op {o} of the work-item loop has no schedule");
                    }
                    // Tokens (stores) carry no value: nothing waits for them in the datapath.
                    if op.ty != hls_ir::Ty::Token {
                        self.avail
                            .insert(o, self.ls.start[&o] + self.ls.latency[&o]);
                    }
                }
            }
        }
        for o in self.ops() {
            let Some(&start) = self.ls.start.get(&o) else {
                continue;
            };
            if is_per_item(&self.k.op(o).kind) {
                continue;
            }
            let operands = self.k.operands(o);
            for &x in &operands {
                self.note_use(x, start);
            }
            if let OpKind::Load { .. } = self.k.op(o).kind {
                let pred = *operands.last().expect("loads have a predicate");
                self.note_use(pred, start + self.load_latency(o));
            }
        }
    }

    fn note_use(&mut self, x: OpId, cycle: u32) {
        if self.avail.contains_key(&x) {
            let e = self.last_use.entry(x).or_insert(cycle);
            *e = (*e).max(cycle);
        }
    }

    fn stages(&self) -> u32 {
        let mut d = 1;
        for o in self.ops() {
            if let Some(&s) = self.ls.start.get(&o) {
                d = d.max(s + 1);
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

    /// The Verilog expression for value `x` as seen in cycle `c` of an iteration.
    fn val(&self, x: OpId, c: u32) -> String {
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

    /// The request of a memory op issued in stage `c` under `pred`: valid while its work-item is
    /// there, its data is there (`wait_cN`), and it has not been accepted during this stall
    /// (`<name>_issued`, set when `accepted` and cleared when the pipeline moves), so a
    /// request is sent exactly once per work-item. Returns the request wire's name.
    fn emit_request(
        &self,
        w: &mut VWriter,
        name: &str,
        c: u32,
        pred: OpId,
        accepted: &str,
    ) -> String {
        let req = format!("{name}_req");
        let issued = format!("{name}_issued");
        w.reg(&issued, 1);
        w.wire(
            &req,
            1,
            &format!(
                "{} && {} && !{issued}{}",
                self.valid(c),
                self.val(pred, c),
                self.not_waiting(c)
            ),
        );
        w.always_ff(|w| {
            w.line(format!("if (rst || !stall) {issued} <= 1'b0;"));
            w.line(format!("else if ({req} && {accepted}) {issued} <= 1'b1;"));
        });
        req
    }

    /// ` && !wait_cN` when stage `c` can wait for a load response, else nothing.
    fn not_waiting(&self, c: u32) -> String {
        if self.wait_stages.contains(&c) {
            format!(" && !wait_c{c}")
        } else {
            String::new()
        }
    }

    fn valid(&self, c: u32) -> String {
        format!("v_c{c}")
    }

    fn emit(mut self) -> EmittedKernel {
        let k = self.k;
        let module = legal(&k.name);
        let stages = self.stages();
        let ii = self.ls.ii.max(1);
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
        for o in self.ops() {
            match self.k.op(o).kind {
                OpKind::Load { mem } | OpKind::Store { mem } => {
                    let m = mems.entry(mem).or_insert_with(|| Mem {
                        prefix: legal(&k.mem(mem).name),
                        bits: k.mem(mem).elem.bits().max(8),
                        loads: vec![],
                        stores: vec![],
                    });
                    if matches!(self.k.op(o).kind, OpKind::Load { .. }) {
                        m.loads.push(o);
                    } else {
                        m.stores.push(o);
                    }
                }
                _ => {}
            }
        }
        let used_args: std::collections::BTreeSet<u32> = self
            .ops()
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
                    });
                }
                _ => unreachable!("lowering rejects other argument kinds"),
            }
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
        // ---- pipeline valid bits
        w.comment("---- Pipeline control: one stage per schedule cycle, one global stall.");
        w.line("wire stall;");
        if ii > 1 {
            let pw = 32 - (ii - 1).leading_zeros();
            w.reg("phase", pw);
            w.always_ff(|w| {
                w.line(format!("if (rst || launch) phase <= {};", literal(0, pw)));
                w.line(format!(
                    "else if (!stall) phase <= (phase == {}) ? {} : phase + {};",
                    literal((ii - 1) as u64, pw),
                    literal(0, pw),
                    literal(1, pw)
                ));
            });
            w.wire(
                &self.valid(0),
                1,
                &format!("gen_active && (phase == {})", literal(0, pw)),
            );
        } else {
            w.wire(&self.valid(0), 1, "gen_active");
        }
        w.assign("gen_take", &format!("{} && !stall", self.valid(0)));
        for c in 1..stages {
            w.reg(&self.valid(c), 1);
        }
        if stages > 1 {
            let st = stages;
            w.always_ff(|w| {
                w.block("if (rst)", |w| {
                    for c in 1..st {
                        w.line(format!("v_c{c} <= 1'b0;"));
                    }
                });
                w.block("else if (!stall)", |w| {
                    for c in 1..st {
                        w.line(format!("v_c{c} <= v_c{};", c - 1));
                    }
                });
            });
        }
        w.line("");
        // ---- datapath
        w.comment(
            "---- Datapath (values are named <source name>_v<op id>; _cN = copy in stage N).",
        );
        // A stage waits while a load that pops its response in that stage finds the buffer
        // empty: its data (and everything computed from it in the same cycle) is not there
        // yet, so no request of that stage may issue.
        let mut waits: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for o in self.ops() {
            if let OpKind::Load { .. } = self.k.op(o).kind {
                waits
                    .entry(self.ls.start[&o] + self.load_latency(o))
                    .or_default();
            }
        }
        for c in waits.keys() {
            w.line(format!("wire wait_c{c};"));
        }
        self.wait_stages = waits.keys().copied().collect();
        let mut stall_terms: Vec<String> = Vec::new();
        let mut load_info: BTreeMap<OpId, (String, String)> = BTreeMap::new(); // req, pop
        let mut store_info: BTreeMap<OpId, String> = BTreeMap::new();
        let ops = self.ops();
        for &o in &ops {
            self.emit_op(
                &mut w,
                o,
                &mems,
                &mut waits,
                &mut stall_terms,
                &mut load_info,
                &mut store_info,
            );
        }
        for (c, terms) in &waits {
            w.assign(&format!("wait_c{c}"), &terms.join(" || "));
            stall_terms.push(format!("wait_c{c}"));
        }
        // Pipeline registers carrying values to later stages.
        let mut carried: Vec<(OpId, u32, u32)> = Vec::new();
        for (&x, &u) in &self.last_use {
            let a = self.avail[&x];
            if u > a {
                carried.push((x, a, u));
            }
        }
        if !carried.is_empty() {
            for &(x, a, u) in &carried {
                for c in a + 1..=u {
                    w.reg(&format!("{}_c{c}", self.names[&x]), self.bits(x));
                }
            }
            let names = self.names.clone();
            w.always_ff(|w| {
                w.block("if (!stall)", |w| {
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
        w.line("");
        // ---- memory ports
        let mut idle_terms: Vec<String> = Vec::new();
        for m in mems.values() {
            let p = &m.prefix;
            w.comment(format!("---- Global memory port `{p}`"));
            if !m.loads.is_empty() {
                // Outstanding reads are bounded by the work-items between issue and use.
                let mut depth = 0;
                for &l in &m.loads {
                    depth += self.load_latency(l) + 1;
                }
                let depth = depth.next_power_of_two().max(2);
                let aw = depth.trailing_zeros();
                let reqs: Vec<&(String, String)> = m.loads.iter().map(|l| &load_info[l]).collect();
                w.line(format!("wire {p}_rfifo_full;"));
                w.line(format!("wire {p}_rfifo_empty;"));
                w.line(format!("wire {}{p}_rfifo_data;", range(m.bits)));
                w.wire(
                    &format!("{p}_rfifo_pop"),
                    1,
                    &format!(
                        "({}) && !stall",
                        reqs.iter()
                            .map(|r| r.1.clone())
                            .collect::<Vec<_>>()
                            .join(" || ")
                    ),
                );
                w.assign(&format!("{p}_rresp_ready"), &format!("!{p}_rfifo_full"));
                w.line(format!(
                    "oclhls_fifo #(.W({}), .DEPTH({depth}), .AW({aw})) {p}_rfifo (.clk(clk), .rst(rst), .push({p}_rresp_valid), .push_data({p}_rresp_data), .full({p}_rfifo_full), .pop({p}_rfifo_pop), .pop_data({p}_rfifo_data), .empty({p}_rfifo_empty));",
                    m.bits
                ));
                w.assign(
                    &format!("{p}_rreq_valid"),
                    &reqs
                        .iter()
                        .map(|r| r.0.clone())
                        .collect::<Vec<_>>()
                        .join(" || "),
                );
                // Address mux: at most one load of this port requests in any cycle.
                let mut addr = String::new();
                for (i, &l) in m.loads.iter().enumerate() {
                    let a = self.val(self.k.operands(l)[0], self.ls.start[&l]);
                    if i + 1 == m.loads.len() {
                        addr.push_str(&a);
                    } else {
                        addr.push_str(&format!("{} ? {a} : ", load_info[&l].0));
                    }
                }
                w.assign(&format!("{p}_rreq_addr"), &addr);
            }
            if !m.stores.is_empty() {
                w.reg(&format!("{p}_wcnt"), 16);
                w.wire(
                    &format!("{p}_wcnt_full"),
                    1,
                    &format!("{p}_wcnt == 16'hffff"),
                );
                let reqs: Vec<String> = m.stores.iter().map(|s| store_info[s].clone()).collect();
                w.assign(
                    &format!("{p}_wreq_valid"),
                    &format!("({}) && !{p}_wcnt_full", reqs.join(" || ")),
                );
                let mut addr = String::new();
                let mut data = String::new();
                for (i, &s) in m.stores.iter().enumerate() {
                    let ops = self.k.operands(s);
                    let c = self.ls.start[&s];
                    let (a, d) = (self.val(ops[0], c), self.val(ops[1], c));
                    if i + 1 == m.stores.len() {
                        addr.push_str(&a);
                        data.push_str(&d);
                    } else {
                        addr.push_str(&format!("{} ? {a} : ", store_info[&s]));
                        data.push_str(&format!("{} ? {d} : ", store_info[&s]));
                    }
                }
                w.assign(&format!("{p}_wreq_addr"), &addr);
                w.assign(&format!("{p}_wreq_data"), &data);
                w.assign(&format!("{p}_wresp_ready"), "1'b1");
                let pp = p.clone();
                w.always_ff(|w| {
                    w.line(format!("if (rst || launch) {pp}_wcnt <= 16'd0;"));
                    w.line(format!(
                        "else if (({pp}_wreq_valid && {pp}_wreq_ready) && !{pp}_wresp_valid) {pp}_wcnt <= {pp}_wcnt + 16'd1;"
                    ));
                    w.line(format!(
                        "else if (!({pp}_wreq_valid && {pp}_wreq_ready) && {pp}_wresp_valid) {pp}_wcnt <= {pp}_wcnt - 16'd1;"
                    ));
                });
                idle_terms.push(format!("{p}_wcnt == 16'd0"));
                for s in &m.stores {
                    stall_terms.push(format!(
                        "({} && !({p}_wreq_ready && !{p}_wcnt_full))",
                        store_info[s]
                    ));
                }
            }
        }
        // ---- stall and finish
        w.line("");
        w.comment("---- Stall: any stage that cannot proceed freezes the whole pipeline.");
        if stall_terms.is_empty() {
            w.assign("stall", "1'b0");
        } else {
            w.assign("stall", &stall_terms.join("\n        || "));
        }
        let mut busy_terms: Vec<String> = vec!["gen_init".into(), "gen_active".into()];
        for c in 1..stages {
            busy_terms.push(self.valid(c));
        }
        let mut fin = format!("running && !({})", busy_terms.join(" || "));
        for t in &idle_terms {
            fin.push_str(&format!(" && ({t})"));
        }
        w.assign("finish", &fin);
        if !self.unused_bits.is_empty() {
            w.comment("Bits dropped by truncations (Verilator's unused-signal idiom).");
            w.wire(
                "unused_truncated_bits",
                1,
                &format!("&{{1'b0, {}, 1'b0}}", self.unused_bits.join(", ")),
            );
        }
        w.indented(0);
        w.line("endmodule");
        w.line("`default_nettype wire");
        EmittedKernel {
            file_name: format!("{module}.v"),
            interface: Interface {
                module: module.clone(),
                ports,
                args,
            },
            module,
            verilog: w.finish(),
            stages,
        }
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
                w.block("if (!stall)", |w| {
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
        } else {
            for i in 1..=lat {
                w.reg(&format!("{name}_m{i}"), bits);
            }
            w.always_ff(|w| {
                w.block("if (!stall)", |w| {
                    w.line(format!("{name}_m1 <= {x} * {y};"));
                    for i in 2..=lat {
                        w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                    }
                });
            });
        }
        w.wire(name, bits, &format!("{name}_m{lat}"));
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_op(
        &mut self,
        w: &mut VWriter,
        o: OpId,
        mems: &BTreeMap<MemId, Mem>,
        waits: &mut BTreeMap<u32, Vec<String>>,
        stall_terms: &mut Vec<String>,
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
        let c = self.ls.start[&o];
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
                        self.emit_mul(w, &name, bits, &x, &y, self.ls.latency[&o].max(1));
                        return;
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
                    other => unreachable!("the operator library rejects {other:?} before emission"),
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
                    other => unreachable!("the operator library rejects {other:?} before emission"),
                }
            }
            OpKind::Load { mem } => {
                let p = &mems[mem].prefix;
                let pred = args[1];
                let lat = self.load_latency(o);
                let req = self.emit_request(w, &name, c, pred, &format!("{p}_rreq_ready"));
                let pop = format!("{name}_pop");
                w.wire(
                    &pop,
                    1,
                    &format!("{} && {}", self.valid(c + lat), self.val(pred, c + lat)),
                );
                stall_terms.push(format!("({req} && !{p}_rreq_ready)"));
                waits
                    .entry(c + lat)
                    .or_default()
                    .push(format!("({pop} && {p}_rfifo_empty)"));
                load_info.insert(o, (req, pop));
                format!("{p}_rfifo_data")
            }
            OpKind::Store { mem } => {
                let p = &mems[mem].prefix;
                let accepted = format!("{p}_wreq_valid && {p}_wreq_ready");
                let req = self.emit_request(w, &name, c, args[2], &accepted);
                store_info.insert(o, req);
                return;
            }
            other => {
                unreachable!("lowering and the operator library reject `{other}` before emission")
            }
        };
        w.wire(&name, bits, &expr);
    }
}
