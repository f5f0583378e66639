//! `report.json`: what the compile of a file built, per kernel and loop, in source terms (II
//! and what limits it, memories and what array partitioning made of them, atomic counters and
//! their registers, the interface).

use super::Compiled;
use anyhow::{Context, Result};
use frontend::span::SourceMap;
use hls_ir::{Kernel, MemKind, OpKind, Partition, PortNeed};
use rtl_templates::Interface;
use scheduler::kernel::LimitedBy;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Serialize)]
pub struct Report {
    pub oclhls_version: &'static str,
    pub source: String,
    pub clock_mhz: f64,
    /// `CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`: reservation table entries per pipe side.
    pub pipe_max_active_reservations: u32,
    /// `CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT`: atomic counter arguments one kernel may have.
    pub max_atomic_counters: u32,
    pub kernels: Vec<KernelReport>,
}

#[derive(Serialize)]
pub struct KernelReport {
    pub name: String,
    pub line: u32,
    pub verilog: String,
    /// The support modules' files the kernel's module needs (written next to it).
    pub support_files: Vec<String>,
    pub loops: Vec<LoopReport>,
    /// On-chip memories (arrays, per-work-item contexts) and what array partitioning did.
    pub memories: Vec<MemoryReport>,
    /// ROMs: program-scope `constant` data read at indices that are not constants (reads at
    /// constant indices are constants and need none).
    pub roms: Vec<ProgramMemoryReport>,
    /// OpenCL 2.0 program-scope `global` variables: on-chip memories initialised at
    /// configuration, kept across launches.
    pub program_variables: Vec<ProgramMemoryReport>,
    /// Atomic counters the kernel updates: each an atomic register in the module.
    pub counters: Vec<CounterReport>,
    /// Integer dividers: one per division by a value not known at compile time (a quotient
    /// and a remainder of the same operands share one).
    pub dividers: Vec<DividerReport>,
    /// Every global load, store and atomic: does its port combine it into bursts, and if
    /// not, why (docs/hardware-interface.md, "Bursts").
    pub bursts: Vec<BurstReport>,
    pub interface: Interface,
}

/// The burst decision of one global access.
#[derive(Serialize)]
pub struct BurstReport {
    pub line: u32,
    /// The loop it runs in (an async copy's is its copy loop: the DMA engine).
    #[serde(rename = "loop")]
    pub loop_name: String,
    /// `load from `a``, `store to `c``, `atomic on `h``.
    pub access: String,
    /// Beats per burst at most; `null` when it does not burst.
    pub max_beats: Option<u32>,
    /// "burst of up to N beats" or "no burst, because ...".
    pub decision: String,
}

fn bursts(sm: &SourceMap, k: &super::CompiledKernel) -> Vec<BurstReport> {
    k.rtl
        .bursts
        .iter()
        .map(|d| {
            let op = k.ir.op(d.op);
            let name = op
                .kind
                .memory()
                .map(|m| k.ir.mem(m).name.clone())
                .unwrap_or_default();
            let access = match op.kind {
                OpKind::Store { .. } => format!("store to `{name}`"),
                OpKind::Atomic { .. } => format!("atomic on `{name}`"),
                _ => format!("load from `{name}`"),
            };
            BurstReport {
                line: sm.line_col(op.span).0,
                loop_name: k.ir.loops[op.region].name.clone(),
                access,
                max_beats: d.outcome.as_ref().ok().copied(),
                decision: match &d.outcome {
                    Ok(n) if d.unit_stride => format!(
                        "burst of up to {n} beats when its run-time stride is one element \
                         (the port checks every address; other strides are single transfers)"
                    ),
                    Ok(n) if k.ir.read_runs.contains_key(&d.op) => format!(
                        "burst of up to {n} beats, each asked for at its first read (an async \
                         copy knows how many elements it reads)"
                    ),
                    Ok(n) => format!("burst of up to {n} beats"),
                    Err(why) => format!("no burst, because {why}"),
                },
            }
        })
        .collect()
}

/// An integer divider (`scheduler::divide`): pipelined or iterative, as the schedule chose.
#[derive(Serialize)]
pub struct DividerReport {
    /// The division's line.
    pub line: u32,
    /// The loop it runs in.
    #[serde(rename = "loop")]
    pub loop_name: String,
    /// What it computes: `/`, `%`, or `/ %` (both from one unit).
    pub ops: String,
    pub bits: u32,
    pub signed: bool,
    /// `pipelined` (a new operation every cycle) or `iterative` (one operation at a time,
    /// chosen where the loop's II leaves it the time).
    pub unit: &'static str,
    /// Cycles from the operands to the quotient and remainder.
    pub latency: u32,
    /// Cycles from one operation to the next the unit can take.
    pub interval: u32,
}

/// A program-scope variable's memory in the kernel module (a ROM, or a writable variable; a
/// bank of one when array banking split it).
#[derive(Serialize)]
pub struct ProgramMemoryReport {
    pub name: String,
    /// The variable's line.
    pub line: u32,
    pub words: u32,
    /// Bits per word (the element's memory image).
    pub width: u32,
    /// `lut` (LUT ROM / LUT RAM, up to `scheduler::oplib::LUTRAM_MAX_ELEMS` words) or `ebr`
    /// (block RAM with initial contents).
    pub kind: &'static str,
}

/// An atomic counter argument (`counter32_t`, `counter64_t`) and the register it became.
#[derive(Serialize)]
pub struct CounterReport {
    pub name: String,
    /// The argument's line.
    pub line: u32,
    pub bits: u32,
    /// The register holding the counter while the kernel runs (loaded from the buffer at
    /// start, written back before `done`).
    pub register: String,
    /// `up` (`atomic_inc`) or `down` (`atomic_dec`).
    pub counts: &'static str,
    /// Update sites: all of them may take a value in the same cycle.
    pub updates: usize,
    /// The address input and memory channels through which it is loaded and written back.
    pub ports: Vec<String>,
}

#[derive(Serialize)]
pub struct MemoryReport {
    pub name: String,
    pub space: MemorySpace,
    pub elements: u32,
    pub element_bits: u32,
    pub partitioned: PartitionKind,
    /// The banks' names, bank 0 first.
    pub banks: Vec<String>,
    /// Why it was kept whole, or how the registers are indexed.
    pub reason: String,
    /// The access the reason is about.
    pub at: Option<String>,
    /// Loops whose accesses need more ports than one memory has.
    pub port_limited_loops: Vec<PortLimitedLoop>,
}

/// The address space of an on-chip memory (`local` or `private` in report.json).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MemorySpace {
    Local,
    Private,
    /// A program-scope variable.
    Program,
}

impl std::fmt::Display for MemorySpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MemorySpace::Local => "local",
            MemorySpace::Private => "private",
            MemorySpace::Program => "program",
        })
    }
}

/// What array partitioning made of a memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PartitionKind {
    /// Every element a value: no memory.
    Registers,
    /// Cyclic banks: element i in bank i mod B.
    Banks,
    /// One memory.
    Whole,
}

#[derive(Serialize)]
pub struct PortLimitedLoop {
    pub name: String,
    /// The II the loop could reach with unlimited ports (recurrences, other resources).
    pub ii_goal: u32,
    /// Modulo slots an iteration needs for its accesses to this memory (max over banks).
    pub slots_whole: u32,
    pub slots_banked: u32,
}

#[derive(Serialize)]
pub struct LoopReport {
    pub name: String,
    pub line: u32,
    /// The enclosing loop (`None` for the work-item loop).
    pub parent: Option<String>,
    pub ii: u32,
    pub mii: u32,
    pub res_mii: u32,
    pub rec_mii: u32,
    /// Pipeline stages of the emitted datapath.
    pub depth: u32,
    pub trip_count: Option<u64>,
    pub optimal: bool,
    pub limited_by: String,
    pub ops: usize,
    pub solver: String,
    pub solve_ms: f64,
    /// Dependences through on-chip memory from one iteration to a later one: exact (affine
    /// indices) or assumed (indices the analysis does not understand).
    pub memory_dependences: Vec<String>,
    /// The lines of the loops of a perfect nest flattened into this one (one pipeline runs
    /// every iteration of the nest).
    pub flattened: Vec<u32>,
    /// Why this loop and the loop inside it were not flattened, when they are a perfect nest
    /// that was tried.
    pub not_flattened: Option<String>,
}

/// "loop-carried dependence through `acc` (kernel.cl:14 → kernel.cl:14, distance 1, latency 3)".
/// A port of an on-chip memory that array partitioning kept whole says why.
pub fn explain(sm: &SourceMap, k: &Kernel, l: &LimitedBy, ii: u32) -> String {
    match l {
        LimitedBy::Nothing => "nothing (II = 1)".to_string(),
        LimitedBy::Resource {
            resource,
            uses,
            limit,
            spans,
            mem,
        } => {
            let mut lines: Vec<String> = spans.iter().map(|s| sm.describe(*s)).collect();
            lines.dedup();
            let why = match mem.and_then(|m| partition_of(k, m)) {
                Some(Partition::Whole { reason, at, .. }) => format!(
                    "; not banked: {reason}{}",
                    at.map(|s| format!(" ({})", sm.describe(s)))
                        .unwrap_or_default()
                ),
                _ => String::new(),
            };
            format!("{resource}: {uses} accesses per iteration on {limit} unit(s) ({}) limit II to {ii}{why}", lines.join(", "))
        }
        LimitedBy::Serial { reason, stages } => format!(
            "one iteration at a time ({stages} stages), because {}{}",
            reason.describe(k),
            reason
                .mem()
                .map(|m| kept_in_memory(sm, k, m))
                .unwrap_or_default()
        ),
        LimitedBy::Combined { mii } => format!(
            "resources and loop-carried dependences together: every II from {mii} to {} was proven infeasible",
            ii.saturating_sub(1)
        ),
        LimitedBy::Requested { ii } => format!(
            "the II the source asks for ({ii}, by `#pragma ii`, `xcl_pipeline_loop` or `HLS pipeline II=`), more than the loop needs"
        ),
        LimitedBy::Unproven { mii } => format!(
            "not proven: II {mii} to {} were neither scheduled nor proven impossible within the solver time limit",
            ii.saturating_sub(1)
        ),
        LimitedBy::Recurrence {
            names,
            spans,
            latency,
            distance,
            exit,
        } => {
            let mut lines: Vec<String> = Vec::new();
            for l in spans.iter().map(|s| sm.describe(*s)) {
                if !lines.contains(&l) {
                    lines.push(l);
                }
            }
            let through = if names.is_empty() {
                String::new()
            } else {
                format!(" through `{}`", names.join("`, `"))
            };
            if *exit {
                format!(
                    "the loop's exit condition{through} ({}) must be decided before the next iteration starts, which limits II to {ii}",
                    lines.join(" → ")
                )
            } else {
                format!(
                    "loop-carried dependence{through} ({}, distance {distance}, latency {latency}) limits II to {ii}",
                    lines.join(" → ")
                )
            }
        }
    }
}

/// The loop-carried dependences through memory of loop `l`, in source terms.
fn memory_dependences(sm: &SourceMap, k: &Kernel, l: hls_ir::LoopId) -> Vec<String> {
    let mut v: Vec<String> = k
        .mem_deps
        .iter()
        .filter(|d| d.lp == l && k.contains(d.from) && k.contains(d.to))
        .map(|d| {
            let what = |o: hls_ir::OpId| match k.op(o).kind {
                OpKind::Store { mem, .. } => format!("store to `{}`", k.mem(mem).name),
                OpKind::Load { mem } => format!("load from `{}`", k.mem(mem).name),
                _ => k.op(o).kind.mnemonic(),
            };
            format!(
                "{} ({}) -> {} ({}), distance {}: {}",
                what(d.from),
                sm.describe(k.op(d.from).span),
                what(d.to),
                sm.describe(k.op(d.to).span),
                d.distance,
                if d.exact {
                    "exact (affine indices)"
                } else {
                    "assumed (an index is not an affine function of the loop counter)"
                }
            )
        })
        .collect();
    v.dedup();
    v
}

/// What array partitioning last decided for memory `m` (banking comes after registers).
fn partition_of(k: &Kernel, m: hls_ir::MemId) -> Option<&Partition> {
    k.partitions
        .iter()
        .rev()
        .find(|p| p.mem == m)
        .map(|p| &p.outcome)
}

/// Why the array a serial pipeline's reason is about is still a memory.
fn kept_in_memory(sm: &SourceMap, k: &Kernel, m: hls_ir::MemId) -> String {
    match partition_of(k, m) {
        Some(Partition::Whole { reason, at, .. }) => format!(
            " (not in registers: {reason}{})",
            at.map(|s| format!(", {}", sm.describe(s)))
                .unwrap_or_default()
        ),
        _ => String::new(),
    }
}

/// The program-scope memories (ROMs when `rom`, else writable) the kernel's final IR reads or
/// writes, in id order.
fn program_memories(sm: &SourceMap, k: &Kernel, rom: bool) -> Vec<ProgramMemoryReport> {
    let used: std::collections::BTreeSet<hls_ir::MemId> = k
        .op_ids()
        .into_iter()
        .filter_map(|o| k.op(o).kind.memory())
        .collect();
    used.into_iter()
        .filter_map(|m| {
            let mem = k.mem(m);
            let MemKind::Program { len, constant } = mem.kind else {
                return None;
            };
            (constant == rom).then(|| ProgramMemoryReport {
                name: mem.name.clone(),
                line: sm.line_col(mem.span).0,
                words: len,
                width: mem.elem.bits().max(8),
                kind: if scheduler::oplib::onchip_in_lutram(len) {
                    "lut"
                } else {
                    "ebr"
                },
            })
        })
        .collect()
}

/// The on-chip memories array partitioning looked at, in declaration order.
fn memories(sm: &SourceMap, k: &Kernel) -> Vec<MemoryReport> {
    k.partitions
        .iter()
        .map(|p| p.mem)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter_map(|m| {
            let mem = k.mem(m);
            let outcome = partition_of(k, m)?;
            let space = match mem.kind {
                MemKind::Local { .. } => MemorySpace::Local,
                MemKind::Program { .. } => MemorySpace::Program,
                _ => MemorySpace::Private,
            };
            let loops = |v: &[PortNeed]| {
                v.iter()
                    .map(|n| PortLimitedLoop {
                        name: k.loops[n.lp].name.clone(),
                        ii_goal: n.goal,
                        slots_whole: n.before,
                        slots_banked: n.after,
                    })
                    .collect()
            };
            let (partitioned, banks, reason, at, port_limited_loops) = match outcome {
                Partition::Registers { dynamic, .. } => (
                    PartitionKind::Registers,
                    Vec::new(),
                    if *dynamic {
                        "a variable index selects among the elements".to_string()
                    } else {
                        "every index is a constant".to_string()
                    },
                    None,
                    Vec::new(),
                ),
                Partition::Banks { banks, loops: l } => (
                    PartitionKind::Banks,
                    banks.iter().map(|b| k.mem(*b).name.clone()).collect(),
                    format!(
                        "cyclic: element i in bank i mod {}, at i / {}",
                        banks.len(),
                        banks.len()
                    ),
                    None,
                    loops(l),
                ),
                Partition::Whole {
                    reason,
                    at,
                    loops: l,
                } => (
                    PartitionKind::Whole,
                    Vec::new(),
                    reason.clone(),
                    at.map(|s| sm.describe(s)),
                    loops(l),
                ),
            };
            Some(MemoryReport {
                name: mem.name.clone(),
                space,
                elements: mem.onchip_len().unwrap_or(0),
                element_bits: mem.elem.bits(),
                partitioned,
                banks,
                reason,
                at,
                port_limited_loops,
            })
        })
        .collect()
}

/// The dividers of kernel `k`, loop by loop, in op order.
fn dividers(sm: &SourceMap, k: &super::CompiledKernel) -> Vec<DividerReport> {
    use scheduler::divide::{division, partners};
    let mut out = Vec::new();
    for l in &k.schedule.loops {
        let ops: Vec<hls_ir::OpId> = l
            .start
            .keys()
            .copied()
            .filter(|&o| division(&k.ir, o).is_some())
            .collect();
        let shared = partners(&k.ir, &ops);
        for &o in ops.iter().filter(|o| !shared.contains_key(o)) {
            let (signed, rem) = division(&k.ir, o).expect("a division");
            let bits = k.ir.op(o).ty.bits();
            let latency = l.latency[&o];
            let iterative = l.iterative.contains(&o);
            let interval = if iterative {
                let w = hwcontract::div::unit_width(bits);
                let step = hwcontract::div::iterative_step(w, signed, latency);
                hwcontract::div::iterative_busy(w, step)
            } else {
                1
            };
            let ops = match (rem, shared.values().any(|&q| q == o)) {
                (false, true) => "/ %",
                (false, false) => "/",
                (true, _) => "%",
            };
            out.push(DividerReport {
                line: sm.line_col(k.ir.op(o).span).0,
                loop_name: k.ir.loops[l.region].name.clone(),
                ops: ops.into(),
                bits,
                signed,
                unit: if iterative { "iterative" } else { "pipelined" },
                latency,
                interval,
            });
        }
    }
    out
}

/// The atomic registers of kernel `k`, in argument order.
fn counters(sm: &SourceMap, k: &super::CompiledKernel) -> Vec<CounterReport> {
    k.rtl
        .counters
        .iter()
        .map(|r| {
            let span =
                k.ir.counters
                    .iter()
                    .find(|c| c.name == r.name)
                    .map(|c| c.span);
            CounterReport {
                name: r.name.clone(),
                line: span.map_or(0, |s| sm.line_col(s).0),
                bits: r.bits,
                register: r.register.clone(),
                counts: if r.increment { "up" } else { "down" },
                updates: r.updates,
                ports: r.ports.clone(),
            }
        })
        .collect()
}

pub fn report(c: &Compiled, source: &Path, clock_mhz: f64) -> Report {
    let kernels = c
        .kernels
        .iter()
        .map(|k| {
            let line = c.sm.line_col(k.ir.span).0;
            let loops = k
                .schedule
                .loops
                .iter()
                .map(|l| {
                    let lp = &k.ir.loops[l.region];
                    let stages = k.rtl.loop_stages[l.region];
                    let ii = l.ii;
                    let limited_by = explain(&c.sm, &k.ir, &l.limited_by, l.ii);
                    LoopReport {
                        name: lp.name.clone(),
                        line: c.sm.line_col(lp.span).0,
                        parent: lp.parent.map(|p| k.ir.loops[p].name.clone()),
                        ii,
                        mii: l.mii,
                        res_mii: l.res_mii,
                        rec_mii: l.rec_mii,
                        depth: stages,
                        trip_count: lp
                            .trip_count
                            .or_else(|| hls_ir::analysis::trip_count::trip_count(&k.ir, l.region)),
                        optimal: l.optimal,
                        limited_by,
                        ops: l.ops,
                        solver: l.solver.clone(),
                        solve_ms: (l.solve_ms * 1000.0).round() / 1000.0,
                        memory_dependences: memory_dependences(&c.sm, &k.ir, l.region),
                        flattened: lp.flattened.iter().map(|s| c.sm.line_col(*s).0).collect(),
                        not_flattened: lp.flatten_declined.map(|flat| format!(
                            "flattened with the loop inside it, it reached II {flat}; nested, the inner loop reaches a smaller II (`#pragma loop_coalesce` flattens it anyway)"
                        )),
                    }
                })
                .collect();
            KernelReport {
                name: k.ir.name.clone(),
                line,
                verilog: k.rtl.file_name.clone(),
                support_files: k.rtl.support.clone(),
                loops,
                memories: memories(&c.sm, &k.ir),
                roms: program_memories(&c.sm, &k.ir, true),
                program_variables: program_memories(&c.sm, &k.ir, false),
                counters: counters(&c.sm, k),
                dividers: dividers(&c.sm, k),
                bursts: bursts(&c.sm, k),
                interface: k.rtl.interface.clone(),
            }
        })
        .collect();
    Report {
        pipe_max_active_reservations: c.pipe_reservations,
        max_atomic_counters: hls_ir::lower::MAX_ATOMIC_COUNTERS,
        oclhls_version: env!("CARGO_PKG_VERSION"),
        source: source.display().to_string(),
        clock_mhz,
        kernels,
    }
}

/// Write every kernel's Verilog, the support modules and report.json into `dir`.
pub fn write_outputs(c: &Compiled, dir: &Path, report: &Report) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output directory {}", dir.display()))?;
    let mut files = Vec::new();
    let needed: std::collections::BTreeSet<&String> =
        c.kernels.iter().flat_map(|k| &k.rtl.support).collect();
    for (name, text) in rtl_templates::support_files() {
        if !needed.contains(&name) {
            continue;
        }
        let p = dir.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        files.push(p);
    }
    for k in &c.kernels {
        let p = dir.join(&k.rtl.file_name);
        std::fs::write(&p, &k.rtl.verilog)
            .with_context(|| format!("cannot write {}", p.display()))?;
        files.push(p);
    }
    let p = dir.join("report.json");
    std::fs::write(&p, serde_json::to_string_pretty(report)? + "\n")
        .with_context(|| format!("cannot write {}", p.display()))?;
    Ok(files)
}
