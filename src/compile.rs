//! The compile flow shared by `oclhls FILE.cl` and `oclhls sim`: front end, lowering, passes,
//! scheduling and Verilog emission, with every stage's diagnostics rendered against the source.

use anyhow::{Context, Result};
use frontend::diag::Diagnostic;
use frontend::span::{SourceMap, Span};
use hls_ir::{Kernel, MemKind, OpKind, Partition, PortNeed};
use rtl_templates::{EmittedKernel, Interface};
use scheduler::kernel::{KernelSchedule, LimitedBy};
use scheduler::oplib::OpLibrary;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Options of one compilation.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    pub defines: Vec<(String, Option<String>)>,
    pub undefines: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    /// Kernels to build; empty = all.
    pub kernels: Vec<String>,
    pub clock_mhz: f64,
    /// Print the IR after this pass (`lower` = right after lowering, `all` = after each).
    pub print_ir_after: Option<String>,
    /// Reservation table entries per pipe side (`CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`);
    /// `None`: `hls_ir::lower::PIPE_MAX_RESERVATIONS`.
    pub pipe_reservations: Option<u32>,
}

/// One compiled kernel.
pub struct CompiledKernel {
    /// The IR after the pass pipeline (what was scheduled).
    pub ir: Kernel,
    /// The IR as lowering produced it, for the IR interpreter's link of the differential chain.
    pub ir_lowered: Kernel,
    pub schedule: KernelSchedule,
    pub rtl: EmittedKernel,
}

/// The result of compiling a file.
pub struct Compiled {
    pub sm: SourceMap,
    pub kernels: Vec<CompiledKernel>,
    pub warnings: Vec<Diagnostic>,
    /// Reservation table entries per pipe side of every pipe.
    pub pipe_reservations: u32,
}

/// A compile failure: diagnostics already rendered for the terminal.
#[derive(Debug)]
pub struct CompileFailed {
    pub rendered: String,
    pub errors: usize,
}

impl std::fmt::Display for CompileFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.rendered)
    }
}

fn color() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

pub fn render(sm: &SourceMap, diags: &[Diagnostic]) -> String {
    frontend::diag::render(sm, diags, color())
}

fn fail(sm: &SourceMap, diags: Vec<Diagnostic>) -> CompileFailed {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    CompileFailed {
        rendered: render(sm, &diags),
        errors,
    }
}

fn front_end(
    path: &Path,
    opts: &CompileOptions,
) -> Result<(SourceMap, frontend::FileId, frontend::CompileResult)> {
    let mut sm = SourceMap::new();
    let file = frontend::load_file(&mut sm, path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let fopts = frontend::Options {
        defines: opts.defines.clone(),
        undefines: opts.undefines.clone(),
        include_dirs: opts.include_dirs.clone(),
        ..Default::default()
    };
    let r = frontend::compile(&mut sm, file, &fopts);
    Ok((sm, file, r))
}

/// Parse and check only.
pub fn check(
    path: &Path,
    opts: &CompileOptions,
) -> Result<std::result::Result<(SourceMap, Vec<Diagnostic>), CompileFailed>> {
    let (sm, _, r) = front_end(path, opts)?;
    Ok(match r {
        Ok((_, warnings)) => Ok((sm, warnings)),
        Err(d) => Err(fail(&sm, d)),
    })
}

/// What the front end alone produces: the source map, the checked program and its warnings.
pub type Front = (SourceMap, frontend::ast::Program, Vec<Diagnostic>);

/// The front end only: the checked program, for the emulator.
pub fn front(
    path: &Path,
    opts: &CompileOptions,
) -> Result<std::result::Result<Front, CompileFailed>> {
    let (sm, _, r) = front_end(path, opts)?;
    Ok(match r {
        Ok((p, warnings)) => Ok((sm, p, warnings)),
        Err(d) => Err(fail(&sm, d)),
    })
}

/// The whole flow for every selected kernel.
pub fn compile(
    path: &Path,
    opts: &CompileOptions,
) -> Result<std::result::Result<Compiled, CompileFailed>> {
    let (sm, file, r) = front_end(path, opts)?;
    let (program, mut warnings) = match r {
        Ok(p) => p,
        Err(d) => return Ok(Err(fail(&sm, d))),
    };
    let mut diags: Vec<Diagnostic> = Vec::new();
    for name in &opts.kernels {
        if !program.kernels().any(|(_, f)| &f.name == name) {
            let known: Vec<&str> = program.kernels().map(|(_, f)| f.name.as_str()).collect();
            diags.push(
                Diagnostic::error(
                    Span::new(file, 0, 0),
                    format!("no kernel named `{name}` in this file"),
                )
                .note(format!(
                    "kernels in this file: {}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )),
            );
        }
    }
    let lib = OpLibrary::with_clock(opts.clock_mhz);
    let sched_opts = scheduler::Options::default();
    let mut kernels = Vec::new();
    let selected: Vec<_> = program
        .kernels()
        .filter(|(_, f)| opts.kernels.is_empty() || opts.kernels.contains(&f.name))
        .map(|(id, _)| id)
        .collect();
    if selected.is_empty() && diags.is_empty() {
        diags.push(
            Diagnostic::error(Span::new(file, 0, 0), "this file defines no kernel")
                .note("declare a function with `kernel void name(...)`"),
        );
    }
    for id in selected {
        let lower_opts = hls_ir::lower::LowerOptions {
            max_reservations: opts
                .pipe_reservations
                .unwrap_or(hls_ir::lower::PIPE_MAX_RESERVATIONS),
        };
        let lowered =
            hls_ir::lower::lower_kernel_with_warnings(&program, id, &lower_opts, &mut warnings);
        let mut ir = match lowered {
            Ok(k) => k,
            Err(mut d) => {
                diags.append(&mut d);
                continue;
            }
        };
        let show = |pass: &str, k: &Kernel, sm: &SourceMap| {
            if let Some(p) = &opts.print_ir_after {
                if p == pass || p == "all" {
                    println!("; IR of `{}` after {pass}", k.name);
                    print!("{}", hls_ir::printer::print_kernel(k, &|s| sm.describe(s)));
                }
            }
        };
        show("lower", &ir, &sm);
        let ir_lowered = ir.clone();
        let goal = |k: &Kernel, l: hls_ir::LoopId| scheduler::kernel::ii_goal(k, l, &lib);
        hls_ir::passes::run_pipeline(&mut ir, true, Some(&goal), &mut |pass, k| {
            show(pass, k, &sm)
        })
        .expect("IR verification failed: this is a bug in oclhls");
        let schedule = match scheduler::kernel::schedule_kernel(&ir, &lib, &sched_opts) {
            Ok(s) => s,
            Err(mut d) => {
                diags.append(&mut d);
                continue;
            }
        };
        let rtl = match rtl_templates::emit_kernel(&ir, &schedule) {
            Ok(r) => r,
            Err(mut d) => {
                diags.append(&mut d);
                continue;
            }
        };
        kernels.push(CompiledKernel {
            ir,
            ir_lowered,
            schedule,
            rtl,
        });
    }
    if !diags.is_empty() {
        diags.extend(warnings);
        return Ok(Err(fail(&sm, diags)));
    }
    Ok(Ok(Compiled {
        sm,
        kernels,
        warnings,
        pipe_reservations: opts
            .pipe_reservations
            .unwrap_or(hls_ir::lower::PIPE_MAX_RESERVATIONS),
    }))
}

// ---- report.json ------------------------------------------------------------------------

#[derive(Serialize)]
pub struct Report {
    pub oclhls_version: &'static str,
    pub source: String,
    pub clock_mhz: f64,
    /// `CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`: reservation table entries per pipe side.
    pub pipe_max_active_reservations: u32,
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
    pub interface: Interface,
}

#[derive(Serialize)]
pub struct MemoryReport {
    pub name: String,
    /// `local` or `private`.
    pub space: &'static str,
    pub elements: u32,
    pub element_bits: u32,
    /// `registers` (every element a value: no memory), `banks` (cyclic: element i in bank
    /// i mod B) or `whole` (one memory).
    pub partitioned: &'static str,
    /// The banks' names, bank 0 first.
    pub banks: Vec<String>,
    /// Why it was kept whole, or how the registers are indexed.
    pub reason: String,
    /// The access the reason is about.
    pub at: Option<String>,
    /// Loops whose accesses need more ports than one memory has.
    pub port_limited_loops: Vec<PortLimitedLoop>,
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
        LimitedBy::Combined { mii } => format!(
            "resources and loop-carried dependences together: every II from {mii} to {} was proven infeasible",
            ii.saturating_sub(1)
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

/// Why the array a serial pipeline's reason names (`why` quotes its name) is still a memory.
fn kept_in_memory(sm: &SourceMap, k: &Kernel, why: &str) -> String {
    k.partitions
        .iter()
        .filter(|p| why.contains(&format!("`{}`", k.mem(p.mem).name)))
        .find_map(|p| match partition_of(k, p.mem) {
            Some(Partition::Whole { reason, at, .. }) => Some(format!(
                " (not in registers: {reason}{})",
                at.map(|s| format!(", {}", sm.describe(s)))
                    .unwrap_or_default()
            )),
            _ => None,
        })
        .unwrap_or_default()
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
                MemKind::Local { .. } => "local",
                _ => "private",
            };
            let loops = |v: &[PortNeed]| {
                v.iter()
                    .map(|n| PortLimitedLoop {
                        name: k.loops[n.lp.index()].name.clone(),
                        ii_goal: n.goal,
                        slots_whole: n.before,
                        slots_banked: n.after,
                    })
                    .collect()
            };
            let (partitioned, banks, reason, at, port_limited_loops) = match outcome {
                Partition::Registers { dynamic, .. } => (
                    "registers",
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
                    "banks",
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
                    "whole",
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
                    let lp = &k.ir.loops[l.region.index()];
                    let stages = k.rtl.loop_stages[l.region.index()];
                    // A serial pipeline starts an iteration only when the previous one has left.
                    let serial = k.rtl.serial[l.region.index()].as_ref();
                    let (ii, limited_by) = match serial {
                        Some(why) if stages > l.ii => (
                            stages,
                            format!(
                                "one iteration at a time ({stages} stages), because {why}{}",
                                kept_in_memory(&c.sm, &k.ir, why)
                            ),
                        ),
                        _ => (l.ii, explain(&c.sm, &k.ir, &l.limited_by, l.ii)),
                    };
                    LoopReport {
                        name: lp.name.clone(),
                        line: c.sm.line_col(lp.span).0,
                        parent: lp.parent.map(|p| k.ir.loops[p.index()].name.clone()),
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
                interface: k.rtl.interface.clone(),
            }
        })
        .collect();
    Report {
        pipe_max_active_reservations: c.pipe_reservations,
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
