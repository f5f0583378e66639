//! `oclhls`: OpenCL C to Verilog high-level synthesis. A thin driver over the stage crates.
//!
//! Exit status: 0 success, 1 compile or test failure (with diagnostics), 2 usage error
//! (`oclhls emu` also exits 2 when the header or the program does not compile).

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use oclhls::compile::{self, CompileOptions};
use oclhls::{board, board_run, build, doctor, emulate, simulate};
use std::path::PathBuf;
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
    /// Build the kernels into a system on this board, to a bitstream: ulx3s (the 85F),
    /// ulx3s-12f, ulx3s-25f, ulx3s-45f or ulx3s-85f (outputs in DIR/ulx3s/).
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,
    /// The board's SDRAM chip: MT48LC16M16A2 (default; also IS42S16160G boards) or
    /// AS4C32M16SB (64 MB boards).
    #[arg(long, value_name = "CHIP", requires = "board")]
    sdram: Option<String>,
    /// Placement seed of nextpnr (--board).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "board")]
    seed: u64,
    /// Do not install missing tools (--board).
    #[arg(long, requires = "board")]
    offline: bool,
    /// Print at most N errors and N warnings (0: all).
    #[arg(long, global = true, value_name = "N", default_value_t = compile::DEFAULT_ERROR_LIMIT)]
    error_limit: usize,
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
    /// Target clock frequency in MHz (operations are chained within one period); default 100,
    /// or 50 with --board (the board's PLL makes it for the kernels and the SDRAM).
    #[arg(long, value_name = "F")]
    clock_mhz: Option<f64>,
    /// Reservations each pipe side can hold at once (CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
    /// 1 to 256; default 4): the size of the FIFO's reservation tables.
    // The range and the default are `hwcontract::pipe`'s (MAX_RESERVATIONS_RANGE,
    // DEFAULT_MAX_RESERVATIONS); a test there checks this text.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(
        i64::from(*hwcontract::pipe::MAX_RESERVATIONS_RANGE.start())
            ..=i64::from(*hwcontract::pipe::MAX_RESERVATIONS_RANGE.end())))]
    pipe_reservations: Option<u32>,
    /// Cycles between a global read's request and the use of its data that the schedule
    /// allows (default 3, 16 with --board): set it to your memory's read latency so that loads and atomics
    /// whose results are used keep the pipeline's rate (1 to 256; each load's response buffer
    /// gets that many entries).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    memory_latency: Option<u32>,
    /// Keep single transfers on every global port (no write or read combining into bursts).
    #[arg(long)]
    no_bursts: bool,
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
    /// Run the test vectors in the headers of FILE.cl... in Verilator and on the emulator
    /// (optionally with a JUnit report and a waveform per test).
    Sim(simulate::SimArgs),
    /// Run the test vectors in FILE's header on the reference emulator (checked AST).
    Emu(emulate::EmuArgs),
    /// Run the test vectors in FILE's header on a board: build (or keep) its bitstream, load
    /// it, and drive each test over the board's serial port.
    Run(board_run::RunArgs),
    /// List the external tools oclhls uses, where each was found, and its version.
    Doctor {
        /// Do not install missing tools; only report.
        #[arg(long)]
        offline: bool,
    },
}

impl BuildArgs {
    fn options(&self) -> CompileOptions {
        CompileOptions {
            defines: compile::parse_defines(&self.defines),
            undefines: self.undefines.clone(),
            include_dirs: self.include_dirs.clone(),
            kernels: self.kernels.clone(),
            clock_mhz: self.clock_mhz.unwrap_or(compile::DEFAULT_CLOCK_MHZ),
            print_ir_after: None,
            pipe_reservations: self.pipe_reservations,
            memory_latency: self.memory_latency,
            bursts: !self.no_bursts,
        }
    }
}

/// Output into a closed pipe (`oclhls ... | head`) ends the process quietly, as for other
/// command-line tools, instead of a panic in `println!` (Rust ignores SIGPIPE by default).
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    compile::set_error_limit(cli.error_limit);
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
                defines: compile::parse_defines(&defines),
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
        Some(Command::Run(args)) => board_run::run(&args),
        Some(Command::Doctor { offline }) => doctor::doctor(offline),
        None => {
            let file = cli.file.expect("clap requires FILE.cl");
            let mut opts = cli.build.options();
            if cli.board.is_some() {
                oclhls::board::apply_defaults(&mut opts, cli.build.clock_mhz.is_some());
            }
            if !(opts.clock_mhz > 0.0 && opts.clock_mhz.is_finite()) {
                eprintln!(
                    "error: --clock-mhz must be a positive number of MHz, not {}",
                    opts.clock_mhz
                );
                return Ok(ExitCode::from(2));
            }
            opts.print_ir_after = cli.print_ir_after;
            let board = match &cli.board {
                Some(name) => {
                    let sdram = match cli.sdram.as_deref().map(board::litex_sdram) {
                        None => board_support::soc::litex::Sdram::Mt48lc16m16a2,
                        Some(Ok(s)) => s,
                        Some(Err(e)) => {
                            eprintln!("error: --sdram: {e}");
                            return Ok(ExitCode::from(2));
                        }
                    };
                    Some(board::BoardRequest {
                        board: name.clone(),
                        sdram,
                        clock_mhz: opts.clock_mhz,
                        offline: cli.offline,
                        seed: cli.seed,
                    })
                }
                None => None,
            };
            build::build(&file, cli.out, &opts, cli.system.as_deref(), board.as_ref())
        }
    }
}
