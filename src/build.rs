//! `oclhls FILE.cl`: compile, write the Verilog, the support modules and `report.json`, print
//! a summary per kernel (II and what limits it per loop, memories, atomic registers), and write
//! the system top of kernels connected by pipes.

use crate::compile::{CompileOptions, PartitionKind};
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn default_out_dir(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "out".into());
    PathBuf::from("build").join(stem)
}

pub fn build(
    file: &Path,
    out: Option<PathBuf>,
    opts: &CompileOptions,
    system_test: Option<&str>,
    board: Option<&crate::board::BoardRequest>,
) -> Result<ExitCode> {
    let compiled = match crate::compile::compile(file, opts)? {
        Ok(c) => c,
        Err(f) => {
            eprint!("{f}");
            eprintln!("{}: {} error(s)", file.display(), f.errors);
            return Ok(ExitCode::from(1));
        }
    };
    if !compiled.warnings.is_empty() {
        eprint!(
            "{}",
            crate::compile::render(&compiled.sm, &compiled.warnings)
        );
    }
    let dir = out.unwrap_or_else(|| default_out_dir(file));
    let report = crate::compile::report(&compiled, file, opts.clock_mhz);
    crate::compile::write_outputs(&compiled, &dir, &report)?;
    print_summary(&report, file, &dir);
    println!("wrote {}", dir.join("report.json").display());
    let plan = match system_plan(&compiled, file, system_test) {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    if let Some(plan) = &plan {
        let path = crate::system::write(&compiled, plan, &dir)?;
        println!(
            "system {} -> {} ({} kernel(s), {} pipe(s); topology from {})",
            plan.module,
            path.display(),
            plan.kernels.len(),
            plan.pipes.len(),
            plan.source
        );
        for p in &plan.pipes {
            let end = |e: &Option<(usize, String)>| match e {
                Some((k, _)) => compiled.kernels[plan.kernels[*k]].ir.name.clone(),
                None => "(none)".into(),
            };
            println!(
                "  pipe {}: {} -> {}, {} packets of {} bits",
                p.name,
                end(&p.writer),
                end(&p.reader),
                p.depth,
                p.packet_bits
            );
        }
        for c in &plan.shared.counters {
            let users: Vec<String> = c
                .users
                .iter()
                .map(|u| {
                    let k = &compiled.kernels[plan.kernels[u.kernel]].ir.name;
                    format!("`{k}` ({})", if u.inc { "up" } else { "down" })
                })
                .collect();
            println!(
                "  shared counter {}: {}-bit register in the system top for {} (module `<kernel>__shared` each)",
                c.name,
                c.bits,
                users.join(", ")
            );
        }
    }
    if let Some(req) = board {
        return crate::board::build(&compiled, plan.as_ref(), file, &dir, req);
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per kernel, loop, memory worth a line and atomic counter: II and what limits it,
/// partitioning, the counter's register.
fn print_summary(report: &crate::compile::Report, file: &Path, dir: &Path) {
    for k in &report.kernels {
        println!(
            "kernel {} ({}:{}) -> {}",
            k.name,
            file.display(),
            k.line,
            dir.join(&k.verilog).display()
        );
        for l in &k.loops {
            println!(
                "  {} (line {}): II {} (MII {}: res {}, rec {}){}, {} stages, {} ops{}",
                l.name,
                l.line,
                l.ii,
                l.mii,
                l.res_mii,
                l.rec_mii,
                if l.optimal {
                    ""
                } else {
                    " [not proven optimal]"
                },
                l.depth,
                l.ops,
                match l.trip_count {
                    Some(n) => format!(", {n} iterations"),
                    None => String::new(),
                }
            );
            if !l.flattened.is_empty() {
                let lines: Vec<String> = l.flattened.iter().map(|n| n.to_string()).collect();
                println!(
                    "    flattened with the loop(s) at line {}: one pipeline for the whole nest",
                    lines.join(", ")
                );
            }
            if let Some(why) = &l.not_flattened {
                println!("    kept nested: {why}");
            }
            if l.ii > 1 {
                println!("    II limited by {}", l.limited_by);
            }
            for b in k.bursts.iter().filter(|b| b.loop_name == l.name) {
                println!("    {} (line {}): {}", b.access, b.line, b.decision);
            }
            for d in k.dividers.iter().filter(|d| d.loop_name == l.name) {
                println!(
                    "    divider (line {}): {}-bit {} `{}`, {} ({} cycles, one operation every {})",
                    d.line,
                    d.bits,
                    if d.signed { "signed" } else { "unsigned" },
                    d.ops,
                    d.unit,
                    d.latency,
                    if d.interval == 1 {
                        "cycle".to_string()
                    } else {
                        format!("{} cycles", d.interval)
                    }
                );
            }
        }
        for m in &k.memories {
            let what = format!(
                "  memory `{}` ({}, {} x {} bits)",
                m.name, m.space, m.elements, m.element_bits
            );
            let loops = m
                .port_limited_loops
                .iter()
                .map(|l| {
                    format!(
                        "{} needs {} cycles per iteration for its accesses{} (II goal {})",
                        l.name,
                        l.slots_whole,
                        if m.partitioned == PartitionKind::Banks {
                            format!(", {} with the banks", l.slots_banked)
                        } else {
                            String::new()
                        },
                        l.ii_goal
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            match m.partitioned {
                PartitionKind::Registers => println!("{what}: registers ({})", m.reason),
                PartitionKind::Banks => println!(
                    "{what}: {} banks ({}): {loops}",
                    m.banks.len(),
                    m.banks.join(", ")
                ),
                // Worth a line only where a loop waits for its ports.
                _ if !m.port_limited_loops.is_empty() => println!(
                    "{what}: kept whole although {loops}: {}{}",
                    m.reason,
                    m.at.as_ref().map(|a| format!(" ({a})")).unwrap_or_default()
                ),
                _ => {}
            }
        }
        for c in &k.counters {
            println!(
                "  atomic counter `{}` (line {}): {}-bit atomic register `{}` counting {}, {} update site(s) served in one cycle; read from its buffer (`{}`) at start, written back before `done`",
                c.name,
                c.line,
                c.bits,
                c.register,
                c.counts,
                c.updates,
                c.ports.first().map_or("", String::as_str)
            );
        }
    }
}

/// The system top to build: from test `system_test` of the file's header, else from the
/// source (program-scope pipes, pipe arguments by packet type); `Err` is the exit code after
/// a message.
fn system_plan(
    compiled: &crate::compile::Compiled,
    file: &Path,
    system_test: Option<&str>,
) -> std::result::Result<Option<crate::system::Plan>, ExitCode> {
    // The system top of a streaming system.
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "kernels".into());
    let module = format!("{}_system", rtl_templates::namer::legal(&stem));
    let plan = match system_test {
        Some(name) => {
            let tf = crate::simulate::read_tests(file, 1)?;
            let Some(t) = tf.tests.iter().find(|t| t.name == name) else {
                eprintln!(
                    "error: {} has no test named `{name}` (tests: {})",
                    file.display(),
                    tf.tests
                        .iter()
                        .map(|t| format!("`{}`", t.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                return Err(ExitCode::from(1));
            };
            let Some(m) = &t.multi else {
                eprintln!(
                    "error: {}:{}: test `{name}` launches one kernel; a system needs `launch:`, `pipe:` and `arg:` lines (docs/test-format.md)",
                    file.display(),
                    t.line
                );
                return Err(ExitCode::from(1));
            };
            match crate::system::from_test(compiled, m, &module) {
                Ok(p) => Some(p),
                Err(e) => {
                    eprintln!("error: {}: test `{name}`: {e}", file.display());
                    return Err(ExitCode::from(1));
                }
            }
        }
        None => match crate::system::from_source(compiled, &module) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("warning: {}: no system top: {e}", file.display());
                None
            }
        },
    };
    Ok(plan)
}
