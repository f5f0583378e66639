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
//!
//! Emission is "plan, then write": [`plan`] decides everything (stages, where each value
//! lives and until when, loop plans, memories) before any text is written, then the module is
//! written top to bottom by concern:
//! - [`interface`]: the ports, the argument mapping ([`Interface`]) and the module head;
//! - `control`: launch control, valid bits, phase counters, waits, loop controllers;
//! - `stall`: the stall conditions and each pipeline's stall, a flip-flop predicted a cycle
//!   ahead where every condition can be predicted;
//! - `datapath`: the ops of each pipeline, one function per op family, and the registers
//!   carrying values down the pipeline;
//! - `memory`: global memory ports (buffers, arbitration) and on-chip memories;
//! - `pipes`: pipe ops and the multiplexers in front of each pipe port;
//! - `counters`: atomic counters, registers with a prefix sum over each cycle's updates;
//! - `unused`: the sink for bits nothing reads.

mod bursts;
mod control;
mod counters;
mod datapath;
mod interface;
mod memory;
mod onchip_atomic;
mod overlap;
mod pipes;
mod plan;
mod read_port;
mod stall;
mod unused;

pub use bursts::BurstDecision;
pub use counters::{shared_ports, AtomicRegister};
pub use interface::{ArgPort, ArgPortKind, Interface, PipeIface, Port, PortDir};

/// The read and write channels of a memory port `<p>_*` with `bits`-bit data (a counter's).
pub fn counter_channel_ports(p: &str, bits: u32) -> Vec<Port> {
    interface::channel_ports(p, true, true, bits)
}

use crate::fp::FpUnit;
use crate::namer::legal;
use crate::writer::VWriter;
use askama::Template;
use control::RegionControl;
use datapath::Handshakes;
use frontend::diag::Diagnostic;
use hls_ir::{IdVec, Kernel, LoopId};
use plan::Plan;
use scheduler::kernel::KernelSchedule;
use std::collections::{BTreeMap, BTreeSet};
use unused::UnusedBits;

pub struct EmittedKernel {
    pub module: String,
    pub file_name: String,
    pub verilog: String,
    pub interface: Interface,
    /// Depth of the work-item pipeline in stages.
    pub stages: u32,
    /// Stages of every loop region's pipeline (`loop0` = `stages`).
    pub loop_stages: IdVec<LoopId, u32>,
    /// The support files (`support_files`) the module needs, its own file not included.
    pub support: Vec<String>,
    /// The atomic counters, each a register in the module.
    pub counters: Vec<AtomicRegister>,
    /// The options it was built with.
    pub options: EmitOptions,
    /// Every global load, store and atomic with its burst decision.
    pub bursts: Vec<BurstDecision>,
}

#[derive(Template)]
#[template(path = "oclhls_fifo.v", escape = "none")]
struct FifoTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_wburst.v", escape = "none")]
struct WburstTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_rburst.v", escape = "none")]
struct RburstTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_skid.v", escape = "none")]
struct SkidTemplate<'a> {
    version: &'a str,
}

/// The support modules a kernel may instantiate, as `(file name, text)`: the FIFO every
/// kernel uses, the integer dividers and the float units (`EmittedKernel::support` names the ones a kernel needs).
pub fn support_files() -> Vec<(String, String)> {
    let fifo = FifoTemplate {
        version: env!("CARGO_PKG_VERSION"),
    }
    .render()
    .expect("the FIFO template renders");
    // askama drops the template's final newline; POSIX (and Verilator's EOFNEWLINE) want it.
    let wburst = WburstTemplate {
        version: env!("CARGO_PKG_VERSION"),
    }
    .render()
    .expect("the write-burst template renders");
    let rburst = RburstTemplate {
        version: env!("CARGO_PKG_VERSION"),
    }
    .render()
    .expect("the read-burst template renders");
    let skid = SkidTemplate {
        version: env!("CARGO_PKG_VERSION"),
    }
    .render()
    .expect("the skid template renders");
    let mut files = vec![
        ("oclhls_fifo.v".to_string(), fifo + "\n"),
        ("oclhls_wburst.v".to_string(), wburst + "\n"),
        ("oclhls_rburst.v".to_string(), rburst + "\n"),
        ("oclhls_skid.v".to_string(), skid + "\n"),
    ];
    files.extend(crate::fp::fp_files());
    files.extend(crate::divide::div_files());
    files
}

/// Emit the Verilog module of kernel `k` scheduled by `s`.
pub fn emit_kernel(k: &Kernel, s: &KernelSchedule) -> Result<EmittedKernel, Vec<Diagnostic>> {
    emit_kernel_with(k, s, &[], &EmitOptions::default())
}

/// Choices a build makes for the emitter (`EmittedKernel::options` keeps them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmitOptions {
    /// Global ports combine consecutive accesses into bursts (docs/hardware-interface.md,
    /// "Bursts"); off, every port keeps single transfers (for memory that cannot burst).
    pub bursts: bool,
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions { bursts: true }
    }
}

/// The module of kernel `k` whose atomic counters `shared` are held by the system top
/// (docs/hardware-interface.md, "Shared atomic counters"): module `<kernel>__shared`, with
/// share ports for those counters instead of their registers and memory ports. Without
/// `shared`, [`emit_kernel`].
pub fn emit_kernel_with(
    k: &Kernel,
    s: &KernelSchedule,
    shared: &[hls_ir::CounterId],
    opts: &EmitOptions,
) -> Result<EmittedKernel, Vec<Diagnostic>> {
    let mut plan = Plan::build(k, s)?;
    if !opts.bursts {
        for m in plan.mems.mems.values_mut() {
            m.burst_read = 0;
            m.burst_write = false;
        }
    }
    for c in &mut plan.counters {
        c.shared = shared.contains(&c.id);
    }
    let control = plan
        .regions
        .iter()
        .map(|_| RegionControl::default())
        .collect();
    let bursts = bursts::burst_decisions(&plan, opts);
    let e = Emitter {
        k,
        plan,
        cur: 0,
        control,
        unused: UnusedBits::default(),
        fp_units: BTreeSet::new(),
        divs: datapath::Dividers::default(),
        wflush: BTreeMap::new(),
        dsp_muls: false,
    };
    let mut out = e.emit();
    out.options = *opts;
    out.bursts = bursts;
    Ok(out)
}

/// The writer of one kernel module from its [`Plan`].
struct Emitter<'a> {
    k: &'a Kernel,
    plan: Plan<'a>,
    /// The region being emitted (an index into `plan.regions`): names of valid bits, stalls
    /// and waits are its own.
    cur: usize,
    /// Per loop region (indexed like `plan.regions`): its waits and stall terms.
    control: Vec<RegionControl>,
    unused: UnusedBits,
    /// Float units instantiated (their modules' files go with the kernel).
    fp_units: BTreeSet<FpUnit>,
    /// Per global port with write combining: the conditions under which an access waits for
    /// its writes to be acknowledged (the unit then sends its open burst at once).
    wflush: BTreeMap<String, Vec<String>>,
    /// Integer dividers instantiated (likewise).
    divs: datapath::Dividers,
    /// Integer multiplies in the DSPs' registers use `oclhls_fp_mul18` (its file goes with
    /// the kernel).
    dsp_muls: bool,
}

impl Emitter<'_> {
    fn emit(mut self) -> EmittedKernel {
        let mut module = legal(&self.k.name);
        if self.plan.counters.iter().any(|c| c.shared) {
            module.push_str("__shared");
        }
        self.cur = 0;
        let stages = self.plan.stages(0);
        let (interface, arg_regs) = interface::build_interface(&self.plan, &module);
        let counters = counters::atomic_registers(&self.plan);
        let mut w = VWriter::default();
        interface::write_header(&mut w, &self.plan, &interface, stages);
        w.indented(1);
        self.emit_launch(&mut w, &arg_regs);
        let mut hs = Handshakes::default();
        self.declare_write_counters(&mut w);
        self.declare_counters(&mut w);
        self.declare_loop_handshakes(&mut w);
        let mut loop_stages = IdVec::new();
        for r in 0..self.plan.regions.len() {
            self.cur = r;
            let stages = self.plan.stages(r);
            let ls = self.plan.regions[r].ls;
            // The scheduler gave a serial loop the II its pipeline depth makes; this is that
            // pipeline (`scheduler::kernel::pipeline_stages` computes the same depth).
            debug_assert!(
                ls.serial.is_none() || stages <= ls.slot_ii || stages == ls.ii,
                "{}: the schedule's serial II {} is not the pipeline's {stages} stages",
                self.k.loops[LoopId::from_index(r)].name,
                ls.ii
            );
            loop_stages.push(stages);
            self.emit_pipeline_control(&mut w, stages);
            self.emit_datapath(&mut w, &mut hs);
        }
        self.cur = 0;
        w.line("");
        let idle_terms = self.emit_memory_ports(&mut w, &hs);
        self.emit_counters(&mut w);
        self.mark_unused_first_flags();
        self.emit_pipe_ports(&mut w, &hs.pipes);
        self.emit_stalls_and_finish(&mut w, stages, &idle_terms);
        // `get_num_groups` is computed by the work-item generator's iterative dividers.
        if self.plan.work_items.dims.iter().any(|d| d.ngrp) {
            self.divs.units.insert(crate::divide::DivUnit::Iterative);
        }
        let Emitter {
            unused,
            fp_units,
            divs,
            dsp_muls,
            ..
        } = self;
        unused.emit(&mut w);
        w.indented(0);
        w.line("endmodule");
        w.line("`default_nettype wire");
        let mut support = vec!["oclhls_fifo.v".to_string()];
        for (file, _) in fp_units.iter().flat_map(|u| u.files()) {
            if !support.contains(&file) {
                support.push(file);
            }
        }
        let mul18 = format!("{}.v", crate::fp::MUL18);
        if dsp_muls && !support.contains(&mul18) {
            support.push(mul18);
        }
        support.extend(divs.units.iter().map(|u| u.file().0));
        if self.plan.mems.mems.values().any(|m| m.burst_write) {
            support.push("oclhls_wburst.v".to_string());
        }
        if self.plan.mems.mems.values().any(|m| m.burst_read > 0) {
            support.push("oclhls_rburst.v".to_string());
        }
        // The burst units' input stage.
        if support.iter().any(|f| f.ends_with("burst.v")) {
            support.push("oclhls_skid.v".to_string());
        }
        EmittedKernel {
            file_name: format!("{module}.v"),
            interface,
            module,
            verilog: w.finish(),
            stages,
            loop_stages,
            support,
            counters,
            options: EmitOptions::default(),
            bursts: Vec::new(),
        }
    }
}
