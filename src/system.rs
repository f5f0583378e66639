//! Streaming systems: which kernel writes and which reads each pipe, and the system top that
//! wires them (rtl_templates::system). The topology comes from, in order of precedence:
//! a test section (`--system TEST_NAME`, and every multi-kernel test of `oclhls sim`), the
//! Xilinx dialect's program-scope pipes (named in the source), or inference: exactly one
//! writer and one reader for a packet type.

use crate::compile::Compiled;
use rtl_templates::system::SystemPipe;
use rtl_templates::ArgPortKind;
use std::collections::BTreeMap;
use testfile::{LaunchArgValue, MultiTest};

/// One kernel's pipe argument, as inference matches writers with readers.
#[derive(Clone, Debug)]
struct PipeEnd {
    /// The kernel's position in the system.
    kernel: usize,
    /// The kernel's port prefix of the pipe.
    prefix: String,
    /// The argument's name.
    arg: String,
    packet_bits: u32,
}

/// A system: kernels (indices into `Compiled::kernels`) and pipes (kernel indices in
/// `SystemPipe` are positions in `kernels`).
#[derive(Debug)]
pub struct Plan {
    pub module: String,
    pub kernels: Vec<usize>,
    pub pipes: Vec<SystemPipe>,
    /// How the topology was found (for messages).
    pub source: String,
    /// Atomic counters the system top holds for kernels running at once.
    pub shared: crate::shared_counters::Shared,
}

impl Plan {
    pub fn top(&self, c: &Compiled) -> rtl_templates::system::SystemTop {
        let ifaces: Vec<&rtl_templates::Interface> = self
            .kernels
            .iter()
            .map(|&k| &c.kernels[k].rtl.interface)
            .collect();
        let modules: Vec<&rtl_templates::Interface> =
            self.modules(c).into_iter().map(|m| &m.interface).collect();
        rtl_templates::system::emit_system(
            &self.module,
            &ifaces,
            &modules,
            &self.pipes,
            &self.shared.counters,
        )
    }

    /// The kernel module instantiated for each kernel of the system: its `__shared` variant
    /// when it uses a counter the top holds.
    pub fn modules<'c>(&'c self, c: &'c Compiled) -> Vec<&'c rtl_templates::EmittedKernel> {
        self.kernels
            .iter()
            .enumerate()
            .map(|(i, &k)| match self.shared.variants.get(i) {
                Some(Some(v)) => v,
                _ => &c.kernels[k].rtl,
            })
            .collect()
    }
}

fn kernel_index(c: &Compiled, name: &str) -> Option<usize> {
    c.kernels.iter().position(|k| k.ir.name == name)
}

/// The system of one multi-kernel test: its launched kernels and `pipe:` objects.
pub fn from_test(c: &Compiled, m: &MultiTest, module: &str) -> Result<Plan, String> {
    let mut kernels = Vec::new();
    for l in &m.launches {
        let k = kernel_index(c, &l.kernel).ok_or_else(|| {
            format!(
                "line {}: no kernel named `{}` was built from this file",
                l.line, l.kernel
            )
        })?;
        kernels.push(k);
    }
    let mut pipes: Vec<SystemPipe> = m
        .pipes
        .iter()
        .map(|p| SystemPipe {
            name: p.name.clone(),
            packet_bits: 0,
            depth: p.max_packets,
            max_reservations: c.pipe_reservations,
            writer: None,
            reader: None,
        })
        .collect();
    for (li, l) in m.launches.iter().enumerate() {
        let iface = &c.kernels[kernels[li]].rtl.interface;
        for a in &l.args {
            let LaunchArgValue::Pipe(pi) = a.value else {
                continue;
            };
            let Some(ap) = iface.args.get(a.index as usize) else {
                return Err(format!(
                    "line {}: kernel `{}` has no argument {}",
                    a.line, l.kernel, a.index
                ));
            };
            let Some(pre) = ap
                .mem_prefix
                .clone()
                .filter(|_| ap.kind == ArgPortKind::Pipe)
            else {
                return Err(format!(
                    "line {}: argument {} of `{}` (`{}`) is not a pipe",
                    a.line, a.index, l.kernel, ap.name
                ));
            };
            let decl = &m.pipes[pi];
            hwcontract::pipe::exact_depth(decl.max_packets)
                .map_err(|e| format!("line {}: pipe `{}` {e}", decl.line, decl.name))?;
            let sp = &mut pipes[pi];
            if sp.packet_bits != 0 && sp.packet_bits != ap.bits {
                return Err(format!(
                    "line {}: pipe `{}` carries {}-bit packets for one kernel and {}-bit packets for `{}`",
                    a.line, decl.name, sp.packet_bits, ap.bits, l.kernel
                ));
            }
            sp.packet_bits = ap.bits;
            let slot = if ap.writes {
                &mut sp.writer
            } else {
                &mut sp.reader
            };
            if let Some((other, _)) = slot {
                return Err(format!(
                    "line {}: pipe `{}` already has a {} (`{}`); the hardware FIFO has one writer and one reader",
                    a.line,
                    decl.name,
                    if ap.writes { "writer" } else { "reader" },
                    c.kernels[kernels[*other]].ir.name
                ));
            }
            *slot = Some((li, pre));
        }
    }
    // Program-scope pipes of the launched kernels join by name.
    add_program_scope(c, &kernels, &mut pipes)?;
    pipes.retain(|p| p.packet_bits != 0);
    check_program_variables(c, &kernels)?;
    let shared = crate::shared_counters::plan(c, &kernels, m)?;
    Ok(Plan {
        module: module.to_string(),
        kernels,
        pipes,
        source: "the test's `launch:`/`pipe:`/`arg:` lines".into(),
        shared,
    })
}

fn add_program_scope(
    c: &Compiled,
    kernels: &[usize],
    pipes: &mut Vec<SystemPipe>,
) -> Result<(), String> {
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    for (li, p) in pipe_ifaces(c, kernels, true) {
        let idx = *by_name.entry(p.name.clone()).or_insert_with(|| {
            pipes.push(SystemPipe {
                name: p.name.clone(),
                packet_bits: p.packet_bits,
                depth: hwcontract::pipe::effective_depth(p.depth),
                max_reservations: p.max_reservations,
                writer: None,
                reader: None,
            });
            pipes.len() - 1
        });
        let slot = if p.write {
            &mut pipes[idx].writer
        } else {
            &mut pipes[idx].reader
        };
        if slot.is_some() {
            return Err(format!(
                    "program-scope pipe `{}` has more than one {}; the hardware FIFO has one writer and one reader",
                    p.name,
                    if p.write { "writer" } else { "reader" }
                ));
        }
        *slot = Some((li, p.prefix.clone()));
    }
    Ok(())
}

/// The pipes of the system's kernels (with each kernel's position), program-scope ones or
/// pipe arguments.
fn pipe_ifaces<'c>(
    c: &'c Compiled,
    kernels: &'c [usize],
    program_scope: bool,
) -> impl Iterator<Item = (usize, &'c rtl_templates::PipeIface)> + 'c {
    kernels.iter().enumerate().flat_map(move |(li, &k)| {
        c.kernels[k]
            .rtl
            .interface
            .pipes
            .iter()
            .filter(move |p| p.program_scope == program_scope)
            .map(move |p| (li, p))
    })
}

/// Each kernel module holds its own copy of the writable program-scope variables (OpenCL 2.0
/// `global` variables) it uses, as on-chip memory: one used by two kernels of a system would be
/// two memories that do not see each other's writes. ROMs (read-only) may be copied freely.
fn check_program_variables(c: &Compiled, kernels: &[usize]) -> Result<(), String> {
    // Program-scope memories by their declaration (banks of one keep its span).
    let mut users: BTreeMap<frontend::span::Span, (String, Vec<String>)> = BTreeMap::new();
    for &ki in kernels {
        let k = &c.kernels[ki].ir;
        for m in k.mems.iter() {
            if let hls_ir::MemKind::Program {
                constant: false, ..
            } = m.kind
            {
                let e = users
                    .entry(m.span)
                    .or_insert_with(|| (m.name.clone(), Vec::new()));
                if !e.1.contains(&k.name) {
                    e.1.push(k.name.clone());
                }
            }
        }
    }
    for (span, (name, ks)) in users {
        if let [a, b, ..] = &ks[..] {
            return Err(format!(
                "program-scope variable `{name}` (line {}) is used by kernels `{a}` and `{b}` of this system; sharing a program-scope `global` variable between kernels is not yet supported by the hardware path (each kernel module holds its own copy in on-chip memory); pass it to the kernels as a `global` buffer argument instead",
                c.sm.line_col(span).0
            ));
        }
    }
    Ok(())
}

/// The system `oclhls FILE.cl` builds without a test: program-scope pipes by name, pipe
/// arguments by packet type when each type has exactly one writer and one reader. `Ok(None)`
/// when no kernel uses a pipe; `Err` says what to add when the topology is ambiguous.
pub fn from_source(c: &Compiled, module: &str) -> Result<Option<Plan>, String> {
    if c.kernels.iter().all(|k| k.rtl.interface.pipes.is_empty()) {
        return Ok(None);
    }
    let kernels: Vec<usize> = (0..c.kernels.len()).collect();
    let mut pipes = Vec::new();
    add_program_scope(c, &kernels, &mut pipes)?;
    // Pipe arguments, grouped by packet type.
    let mut by_type: BTreeMap<String, (Vec<PipeEnd>, Vec<PipeEnd>)> = BTreeMap::new();
    for (li, p) in pipe_ifaces(c, &kernels, false) {
        let e = by_type.entry(p.packet_type.clone()).or_default();
        let item = PipeEnd {
            kernel: li,
            prefix: p.prefix.clone(),
            arg: p.name.clone(),
            packet_bits: p.packet_bits,
        };
        if p.write {
            e.0.push(item);
        } else {
            e.1.push(item);
        }
    }
    let mut problems = Vec::new();
    for (ty, (w, r)) in by_type {
        if let ([w], [r]) = (&w[..], &r[..]) {
            pipes.push(SystemPipe {
                name: format!(
                    "{}_{}_to_{}_{}",
                    c.kernels[w.kernel].ir.name, w.arg, c.kernels[r.kernel].ir.name, r.arg
                ),
                packet_bits: w.packet_bits,
                // Nobody gave a depth: the contract's default.
                depth: hwcontract::pipe::effective_depth(None),
                max_reservations: c.pipe_reservations,
                writer: Some((w.kernel, w.prefix.clone())),
                reader: Some((r.kernel, r.prefix.clone())),
            });
        } else {
            let names = |v: &[PipeEnd]| {
                v.iter()
                    .map(|e| format!("`{}`.{}", c.kernels[e.kernel].ir.name, e.arg))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            problems.push(format!(
                "`{ty}` pipes have {} writer(s) [{}] and {} reader(s) [{}]",
                w.len(),
                names(&w),
                r.len(),
                names(&r)
            ));
        }
    }
    if !problems.is_empty() {
        return Err(format!(
            "cannot tell which kernel feeds which through the pipe arguments: {}; describe the system in a test section (`launch:`, `pipe:`, `arg:` lines, docs/test-format.md) and build it with `--system TEST_NAME`",
            problems.join("; ")
        ));
    }
    check_program_variables(c, &kernels)?;
    Ok(Some(Plan {
        module: module.to_string(),
        kernels,
        pipes,
        source: "program-scope pipes and pipe arguments matched by packet type".into(),
        shared: crate::shared_counters::Shared::default(),
    }))
}

/// The system of multi-kernel test `m` as top module `module`, written into `dir` ([`write`]):
/// what a board build of the test starts from (simulated or real).
pub fn from_test_written(
    c: &Compiled,
    m: &MultiTest,
    module: &str,
    dir: &std::path::Path,
) -> Result<Plan, String> {
    let plan = from_test(c, m, module)?;
    write(c, &plan, dir).map_err(|e| format!("{e:#}"))?;
    Ok(plan)
}

/// Writes the system top (`<module>.v`) and the FIFO modules into `dir`; returns the top's path.
pub fn write(
    c: &Compiled,
    plan: &Plan,
    dir: &std::path::Path,
) -> anyhow::Result<std::path::PathBuf> {
    use anyhow::Context;
    for (name, text) in rtl_templates::system::system_support_files() {
        let p = dir.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
    }
    for v in plan.shared.variants.iter().flatten() {
        let p = dir.join(&v.file_name);
        std::fs::write(&p, &v.verilog).with_context(|| format!("cannot write {}", p.display()))?;
    }
    let p = dir.join(format!("{}.v", plan.module));
    std::fs::write(&p, plan.top(c).verilog)
        .with_context(|| format!("cannot write {}", p.display()))?;
    Ok(p)
}
