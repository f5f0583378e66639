//! `oclhls`: OpenCL C to Verilog high-level synthesis. A thin driver over the stage crates.
//!
//! Exit status: 0 success, 1 compile or test failure (with diagnostics), 2 usage error
//! (`oclhls emu` also exits 2 when the header or the program does not compile).

mod compile;
mod emulate;
mod simulate;
mod simulate_system;
mod system;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use compile::CompileOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "oclhls",
    version,
    about = "OpenCL C to Verilog high-level synthesis for FPGAs",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Compile FILE.cl: writes Verilog and report.json into the output directory.
    #[arg(value_name = "FILE.cl", required = true)]
    file: Option<PathBuf>,
    #[command(flatten)]
    build: BuildArgs,
    /// Output directory (default: build/<file stem>/).
    #[arg(short = 'o', value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the IR after a pass (`lower`, a pass name such as `dce`, or `all`).
    #[arg(long, value_name = "PASS")]
    print_ir_after: Option<String>,
    /// Build the system top of this multi-kernel test of FILE's header (which kernel feeds
    /// which pipe, and the pipes' sizes); default: program-scope pipes, or pipe arguments
    /// matched by packet type.
    #[arg(long, value_name = "TEST_NAME")]
    system: Option<String>,
}

#[derive(Args, Clone, Default)]
struct BuildArgs {
    /// Build only this kernel (repeatable; default: every kernel).
    #[arg(long = "kernel", value_name = "NAME")]
    kernels: Vec<String>,
    /// Define a preprocessor macro (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=V]")]
    defines: Vec<String>,
    /// Undefine a preprocessor macro.
    #[arg(short = 'U', value_name = "NAME")]
    undefines: Vec<String>,
    /// Add a directory to the #include search path.
    #[arg(short = 'I', value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// Target clock frequency in MHz (operations are chained within one period).
    #[arg(long, value_name = "F", default_value_t = 100.0)]
    clock_mhz: f64,
    /// Reservations each pipe side can hold at once (CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
    /// 1 to 256; default 4): the size of the FIFO's reservation tables.
    // The range and the default are `hwcontract::pipe`'s (MAX_RESERVATIONS_RANGE,
    // DEFAULT_MAX_RESERVATIONS); a test there checks this text.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(
        i64::from(*hwcontract::pipe::MAX_RESERVATIONS_RANGE.start())
            ..=i64::from(*hwcontract::pipe::MAX_RESERVATIONS_RANGE.end())))]
    pipe_reservations: Option<u32>,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and type-check only (exit 0, or 1 with diagnostics).
    Check {
        #[arg(value_name = "FILE.cl")]
        file: PathBuf,
        #[arg(short = 'D', value_name = "NAME[=V]")]
        defines: Vec<String>,
        #[arg(short = 'U', value_name = "NAME")]
        undefines: Vec<String>,
        #[arg(short = 'I', value_name = "DIR")]
        include_dirs: Vec<PathBuf>,
    },
    /// Run the test vectors in FILE's header in Verilator.
    Sim(simulate::SimArgs),
    /// Run the test vectors in FILE's header on the reference emulator (checked AST).
    Emu(emulate::EmuArgs),
    /// List the external tools oclhls uses, where each was found, and its version.
    Doctor {
        /// Do not install missing tools; only report.
        #[arg(long)]
        offline: bool,
    },
}

fn parse_defines(d: &[String]) -> Vec<(String, Option<String>)> {
    d.iter()
        .map(|s| match s.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (s.clone(), None),
        })
        .collect()
}

impl BuildArgs {
    fn options(&self) -> CompileOptions {
        CompileOptions {
            defines: parse_defines(&self.defines),
            undefines: self.undefines.clone(),
            include_dirs: self.include_dirs.clone(),
            kernels: self.kernels.clone(),
            clock_mhz: self.clock_mhz,
            print_ir_after: None,
            pipe_reservations: self.pipe_reservations,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Check {
            file,
            defines,
            undefines,
            include_dirs,
        }) => {
            let opts = CompileOptions {
                defines: parse_defines(&defines),
                undefines,
                include_dirs,
                ..Default::default()
            };
            match compile::check(&file, &opts)? {
                Ok((sm, warnings)) => {
                    if !warnings.is_empty() {
                        eprint!("{}", compile::render(&sm, &warnings));
                    }
                    println!("{}: ok", file.display());
                    Ok(ExitCode::SUCCESS)
                }
                Err(f) => {
                    eprint!("{f}");
                    eprintln!("{}: {} error(s)", file.display(), f.errors);
                    Ok(ExitCode::from(1))
                }
            }
        }
        Some(Command::Sim(args)) => simulate::run(&args),
        Some(Command::Emu(args)) => emulate::run(&args),
        Some(Command::Doctor { offline }) => doctor(offline),
        None => {
            let file = cli.file.expect("clap requires FILE.cl");
            let mut opts = cli.build.options();
            if !(opts.clock_mhz > 0.0 && opts.clock_mhz.is_finite()) {
                eprintln!(
                    "error: --clock-mhz must be a positive number of MHz, not {}",
                    opts.clock_mhz
                );
                return Ok(ExitCode::from(2));
            }
            opts.print_ir_after = cli.print_ir_after;
            build(&file, cli.out, &opts, cli.system.as_deref())
        }
    }
}

fn default_out_dir(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "out".into());
    PathBuf::from("build").join(stem)
}

fn build(
    file: &Path,
    out: Option<PathBuf>,
    opts: &CompileOptions,
    system_test: Option<&str>,
) -> Result<ExitCode> {
    let compiled = match compile::compile(file, opts)? {
        Ok(c) => c,
        Err(f) => {
            eprint!("{f}");
            eprintln!("{}: {} error(s)", file.display(), f.errors);
            return Ok(ExitCode::from(1));
        }
    };
    if !compiled.warnings.is_empty() {
        eprint!("{}", compile::render(&compiled.sm, &compiled.warnings));
    }
    let dir = out.unwrap_or_else(|| default_out_dir(file));
    let report = compile::report(&compiled, file, opts.clock_mhz);
    compile::write_outputs(&compiled, &dir, &report)?;
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
            if l.ii > 1 {
                println!("    II limited by {}", l.limited_by);
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
                        if m.partitioned == "banks" {
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
                "registers" => println!("{what}: registers ({})", m.reason),
                "banks" => println!(
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
    }
    println!("wrote {}", dir.join("report.json").display());
    // The system top of a streaming system.
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "kernels".into());
    let module = format!("{}_system", rtl_templates::namer::legal(&stem));
    let plan = match system_test {
        Some(name) => {
            let tf = match simulate::read_tests(file, 1) {
                Ok(t) => t,
                Err(code) => return Ok(code),
            };
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
                return Ok(ExitCode::from(1));
            };
            let Some(m) = &t.multi else {
                eprintln!(
                    "error: {}:{}: test `{name}` launches one kernel; a system needs `launch:`, `pipe:` and `arg:` lines (docs/test-format.md)",
                    file.display(),
                    t.line
                );
                return Ok(ExitCode::from(1));
            };
            match system::from_test(&compiled, m, &module) {
                Ok(p) => Some(p),
                Err(e) => {
                    eprintln!("error: {}: test `{name}`: {e}", file.display());
                    return Ok(ExitCode::from(1));
                }
            }
        }
        None => match system::from_source(&compiled, &module) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("warning: {}: no system top: {e}", file.display());
                None
            }
        },
    };
    if let Some(plan) = plan {
        let path = system::write(&compiled, &plan, &dir)?;
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
    }
    Ok(ExitCode::SUCCESS)
}

fn doctor(offline: bool) -> Result<ExitCode> {
    let tc = toolchain::Toolchain::new(offline);
    println!("tool cache: {}", tc.cache_dir().display());
    let mut missing = 0;
    for tool in toolchain::Tool::ALL {
        let r = if offline {
            tc.probe(tool)
        } else {
            tc.locate(tool)
        };
        match r {
            Ok(info) => {
                let from = match &info.source {
                    toolchain::Source::Path => "PATH".to_string(),
                    toolchain::Source::Provisioned(v) => format!("provisioned in {}", v.display()),
                };
                println!(
                    "{:<13} {:<10} {} ({from})",
                    tool.name(),
                    info.version,
                    info.path.display()
                );
            }
            Err(e) => {
                missing += 1;
                println!("{:<13} {:<20} {e}", tool.name(), "missing");
            }
        }
    }
    Ok(if missing == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
