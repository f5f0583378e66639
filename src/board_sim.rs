//! `oclhls sim FILE.cl --board ulx3s`: a test runs on the whole board system in Verilator.
//! The kernel goes into the simulation variant of the LiteX SoC (board_support::soc with
//! `sim`: LiteDRAM with its SDRAM model and DFI timing checker, UARTBone on a byte stream),
//! built once per build into a cached Verilator model (`oclhls_board_sim`); each test then
//! runs on a fresh instance through the host runtime exactly as on a board: open the device
//! (magic and build id), replay the SDRAM init sequence, write the buffers over the bridge,
//! set the kernel's registers, start, wait for done, read the outputs back. Outputs are
//! checked like `oclhls sim` checks them (emulator, IR interpreter, expected values). A
//! multi-kernel test runs on the SoC of its system top ([`BoardSim::prepare_system`],
//! [`BoardSim::run_multi`]) and is checked against its expected values.
//!
//! Buffers sit at the SDRAM offsets the test's binding gave them in `sim::GlobalMemory`
//! (from 0x1000 up), so pointer arguments are the binding's values unchanged.

use crate::compile::Compiled;
use crate::simulate::{check_output, kernel_shape, IrResults, SimArgs, TestError, Waveform};
use board_support::soc::{self, litex};
use host_runtime::{BoardInfo, Device, SimBoard, SimBoardOptions};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};
use testfile::TestCase;

/// Why a build has no simulated board.
#[derive(Clone, Debug)]
pub enum PrepareError {
    /// The kernel uses what the board system does not serve (elements that are not a power
    /// of two bytes; a file of several kernels without a test that launches them together):
    /// a skip.
    Unsupported(String),
    /// Anything else (LiteX or Verilator failed): a failure.
    Failed(String),
}

/// A board system built for simulation: its model and what the host needs to drive it.
pub struct BoardSim {
    built: sim::BuiltModel,
    info: BoardInfo,
}

impl BoardSim {
    /// Generates the simulation SoC around the one kernel of `c` (Verilog in `dir`) in
    /// `dir/ulx3s-sim/` and builds (or finds in the cache) its model.
    pub fn prepare(
        a: &SimArgs,
        tc: &toolchain::Toolchain,
        c: &Compiled,
        dir: &Path,
    ) -> Result<BoardSim, PrepareError> {
        let (spec, files) =
            crate::board::core_spec(c, None, dir).map_err(PrepareError::Unsupported)?;
        Self::prepare_core(a, tc, &spec, &files, dir)
    }

    /// The same for the system of multi-kernel test `m` (every launched kernel, its pipes and
    /// shared counters: the system top `oclhls sim` builds for it), named `module`, in
    /// `dir/systems/<module>/ulx3s-sim/`.
    pub fn prepare_system(
        a: &SimArgs,
        tc: &toolchain::Toolchain,
        c: &Compiled,
        dir: &Path,
        m: &testfile::MultiTest,
        module: &str,
    ) -> Result<BoardSim, PrepareError> {
        use PrepareError::Failed;
        let plan = crate::system::from_test_written(c, m, module, dir).map_err(Failed)?;
        let (spec, files) = crate::board::core_spec(c, Some(&plan), dir).map_err(Failed)?;
        Self::prepare_core(a, tc, &spec, &files, &dir.join("systems").join(module))
    }

    /// The SoC around `spec` (its Verilog `files`) in `dir/<board>-sim/`, and its model.
    fn prepare_core(
        a: &SimArgs,
        tc: &toolchain::Toolchain,
        spec: &soc::CoreSpec,
        files: &[std::path::PathBuf],
        dir: &Path,
    ) -> Result<BoardSim, PrepareError> {
        use PrepareError::{Failed, Unsupported};
        let name = a.board.as_deref().unwrap_or("ulx3s");
        let board =
            board_support::find_board(name).map_err(|e| Failed(format!("--board {name}: {e}")))?;
        let sdram = match a.sdram.as_deref() {
            None => litex::Sdram::Mt48lc16m16a2,
            Some(s) => litex::Sdram::parse(s).map_err(Failed)?,
        };
        let plan = soc::plan(spec).map_err(|e| Unsupported(format!("--board {name}: {e}")))?;
        let opts = litex::SocOptions {
            work_dir: dir.join(format!("{}-sim", board.family_name())),
            sdram,
            clock_mhz: a.clock(),
            sim: true,
        };
        let started = Instant::now();
        let gen = litex::generate(tc, &plan, &spec.ports, files, board, &opts)
            .map_err(|e| Failed(format!("generating the simulation SoC: {e}")))?;
        let litex_s = started.elapsed().as_secs_f64();
        let mut model_files = Vec::new();
        model_files.extend(gen.sim_top.clone());
        model_files.push(gen.soc_verilog.clone());
        model_files.extend(gen.core_files.iter().cloned());
        let src = sim::ModelSource {
            top: litex::BOARD_SIM_TOP.to_string(),
            files: model_files,
            ports: host_runtime::board_sim_ports(),
        };
        let built = crate::simulate::build_model(a, tc, &src).map_err(Failed)?;
        if let Some(t) = built.build_time() {
            eprintln!(
                "board simulation: LiteX {litex_s:.1} s, Verilator build of the SoC {:.1} s \
                 (cached for the next runs)",
                t.as_secs_f64()
            );
        }
        let info = BoardInfo::load(
            gen.csr_csv.parent().unwrap_or(Path::new(".")),
            Some(gen.build_id),
        )
        .map_err(|e| PrepareError::Failed(e.to_string()))?;
        Ok(BoardSim { built, info })
    }

    /// A fresh simulated board (a new instance of the model), out of reset.
    pub fn board(&self) -> Result<SimBoard, String> {
        let model = self.built.instantiate().map_err(|e| e.to_string())?;
        SimBoard::new(model, SimBoardOptions::new(self.info.clock_hz)).map_err(|e| e.to_string())
    }

    /// A fresh simulated board with its memory initialised, through the host runtime.
    fn open(&self, wave: &mut Waveform) -> Result<Device<SimBoard>, TestError> {
        let rt = |e: host_runtime::Error| TestError::Other(format!("board simulation: {e}"));
        let model = wave.instantiate(&self.built)?;
        let board = SimBoard::new(model, SimBoardOptions::new(self.info.clock_hz)).map_err(rt)?;
        let mut dev = Device::open(board, self.info.clone()).map_err(rt)?;
        dev.init_memory().map_err(rt)?;
        Ok(dev)
    }

    /// Runs multi-kernel test `t` (`m`) on a fresh simulated board of its system
    /// ([`run_multi_on_device`]).
    pub(crate) fn run_multi(
        &self,
        a: &SimArgs,
        c: &Compiled,
        prog: &frontend::ast::Program,
        t: &TestCase,
        m: &testfile::MultiTest,
        wave: &mut Waveform,
    ) -> Result<String, TestError> {
        let wall = Instant::now();
        let mut dev = self.open(wave)?;
        let timeout = Duration::from_secs_f64(a.cycle_budget() as f64 / self.info.clock_hz as f64);
        let cycles = run_multi_on_device(&mut dev, c, prog, t, m, timeout)
            .map_err(|e| e.context("board simulation"))?;
        let board = dev.into_link();
        Ok(format!(
            "{}; {} cycles simulated in all in {:.1} s",
            cycles,
            board.cycles(),
            wall.elapsed().as_secs_f64()
        ))
    }

    /// Runs test `t` (a single-kernel test of `c`) on a fresh simulated board.
    pub(crate) fn run_test(
        &self,
        a: &SimArgs,
        c: &Compiled,
        t: &TestCase,
        emu_outputs: &BTreeMap<u32, Vec<u8>>,
        wave: &mut Waveform,
    ) -> Result<String, TestError> {
        let wall = Instant::now();
        let (k, b, ir) = bind_test(c, t)?;
        let mut dev = self.open(wave)?;
        let timeout = Duration::from_secs_f64(a.cycle_budget() as f64 / self.info.clock_hz as f64);
        let run = run_on_device(&mut dev, k, &b, &ir, emu_outputs, timeout)
            .map_err(|e| e.context("board simulation"))?;
        let stats = dev.bridge().stats;
        let board = dev.into_link();
        let items: u64 = b.range.global_size.iter().map(|&g| u64::from(g)).product();
        Ok(format!(
            "{} cycles for {items} work-items on the board; {} cycles simulated in all \
             (SDRAM init, {} bridge frames, {} words written, {} read) in {:.1} s",
            run.cycles,
            board.cycles(),
            stats.frames,
            stats.words_written,
            stats.words_read,
            wall.elapsed().as_secs_f64()
        ))
    }
}

/// The kernel of single-kernel test `t`, the test bound to its ports, and the IR
/// interpreter's results for it.
pub(crate) fn bind_test<'c>(
    c: &'c Compiled,
    t: &TestCase,
) -> Result<(&'c crate::compile::CompiledKernel, sim::Binding, IrResults), TestError> {
    let k = c
        .kernels
        .iter()
        .find(|k| k.ir.name == t.kernel_name)
        .ok_or_else(|| format!("no kernel named `{}` (line {})", t.kernel_name, t.line))?;
    let b = sim::bind(t, &kernel_shape(k)).map_err(|e| e.to_string())?;
    let ir = IrResults::of(k, &b)?;
    Ok((k, b, ir))
}

/// Runs the test bound in `b` on the kernel `k` of an open board: its buffers written, its
/// registers set, started, waited for (`timeout`), its outputs read back and checked like
/// `oclhls sim` checks them. The caller opened the device and initialised its memory.
pub(crate) fn run_on_device<T: host_runtime::Transport>(
    dev: &mut Device<T>,
    k: &crate::compile::CompiledKernel,
    b: &sim::Binding,
    ir: &IrResults,
    emu_outputs: &BTreeMap<u32, Vec<u8>>,
    timeout: Duration,
) -> Result<host_runtime::RunInfo, TestError> {
    let rt = |e: host_runtime::Error| TestError::Other(e.to_string());
    for (addr, bytes) in &b.buffers {
        dev.write(*addr, bytes).map_err(rt)?;
    }
    let kernel = dev.kernel(&k.ir.name).map_err(rt)?;
    let ports = b.ports.iter().map(|(port, value)| {
        let words = match value {
            sim::PortValue::Scalar(x) => vec![*x as u32, (*x >> 32) as u32],
            sim::PortValue::Wide(w) => w.clone(),
        };
        (port.as_str(), words)
    });
    set_registers(dev, &kernel, ports, &b.range).map_err(rt)?;
    dev.start(&kernel).map_err(rt)?;
    let run = dev.wait(&kernel, timeout).map_err(rt)?;
    for o in &b.outputs {
        let got = dev.read(o.addr, o.size).map_err(rt)?;
        check_output(o, &got, ir, emu_outputs.get(&o.index))?;
    }
    Ok(run)
}

/// Sets kernel `kernel`'s argument registers (`ports`: port and 32-bit words) and NDRange
/// registers; those the kernel does not have (an argument it never reads) are left out.
fn set_registers<'p, T: host_runtime::Transport>(
    dev: &mut Device<T>,
    kernel: &host_runtime::Kernel,
    ports: impl Iterator<Item = (&'p str, Vec<u32>)>,
    r: &sim::NdRange,
) -> host_runtime::Result<()> {
    for (port, words) in ports {
        let reg = format!("arg_{port}");
        if dev.has_input(kernel, &reg) {
            dev.set_input(kernel, &reg, &words)?;
        }
    }
    for d in 0..3 {
        for (reg, v) in [
            (format!("global_size_{d}"), r.global_size[d]),
            (format!("local_size_{d}"), r.local_size[d]),
            (format!("global_offset_{d}"), r.global_offset[d]),
        ] {
            if dev.has_input(kernel, &reg) {
                dev.set_input(kernel, &reg, &[v])?;
            }
        }
    }
    if dev.has_input(kernel, "work_dim") {
        dev.set_input(kernel, "work_dim", &[r.work_dim])?;
    }
    Ok(())
}

/// Runs multi-kernel test `t` (`m`) on an open board of its system (memory initialised): the
/// buffers written, each launch's registers set (and the shared counters' buffer addresses),
/// the launches started together (those with `after` once the kernels they wait for are
/// done), every kernel waited for (`timeout` each), the buffers read back and checked against
/// the test's expected values. Returns the kernels' cycle counts as a summary.
pub(crate) fn run_multi_on_device<T: host_runtime::Transport>(
    dev: &mut Device<T>,
    c: &Compiled,
    prog: &frontend::ast::Program,
    t: &TestCase,
    m: &testfile::MultiTest,
    timeout: Duration,
) -> Result<String, TestError> {
    let rt = |e: host_runtime::Error| TestError::Other(e.to_string());
    let plan = crate::system::from_test(c, m, "system")?;
    let crate::simulate_system::BoundSystem {
        mem,
        addrs,
        launches,
    } = crate::simulate_system::bind_multi(c, m, &plan)?;
    for &(addr, size) in &addrs {
        let bytes = mem.read_bytes(addr, size).map_err(|e| e.to_string())?;
        dev.write(addr, bytes).map_err(rt)?;
    }
    let mut kernels = Vec::new();
    for (li, bound) in launches.iter().enumerate() {
        let kc = &c.kernels[plan.kernels[li]];
        let kernel = dev.kernel(&kc.ir.name).map_err(rt)?;
        let ports = bound
            .ports
            .iter()
            .map(|(p, v)| (p.as_str(), vec![*v as u32, (*v >> 32) as u32]));
        set_registers(dev, &kernel, ports, &bound.range).map_err(rt)?;
        kernels.push(kernel);
    }
    if !plan.shared.counters.is_empty() {
        let bank = dev.bank("counters").map_err(rt)?;
        for (sc, &b) in plan.shared.counters.iter().zip(&plan.shared.buffers) {
            let reg = format!("arg_{}", rtl_templates::namer::legal(&sc.name));
            dev.set_input(&bank, &reg, &[addrs[b].0]).map_err(rt)?;
        }
    }
    let n = m.launches.len();
    let (mut started, mut cycles) = (vec![false; n], vec![None; n]);
    loop {
        for i in 0..n {
            if !started[i] && m.launches[i].after.iter().all(|&d| cycles[d].is_some()) {
                dev.start(&kernels[i]).map_err(rt)?;
                started[i] = true;
            }
        }
        let Some(i) = (0..n).find(|&i| started[i] && cycles[i].is_none()) else {
            break;
        };
        cycles[i] = Some(dev.wait(&kernels[i], timeout).map_err(rt)?.cycles);
    }
    let (_, checks) = crate::emulate::run_spec(prog, t)?;
    let mut buffers = Vec::new();
    for &(addr, size) in &addrs {
        buffers.push(dev.read(addr, size).map_err(rt)?);
    }
    crate::emulate::check_outputs(&checks, &buffers).map_err(|m| format!("board: {m}"))?;
    let per_kernel: Vec<String> = m
        .launches
        .iter()
        .zip(&cycles)
        .map(|(l, c)| format!("{} {}", l.kernel, c.unwrap_or(0)))
        .collect();
    Ok(format!(
        "{n} kernel{} on the board, cycles each: {}",
        if n == 1 { "" } else { "s" },
        per_kernel.join(", ")
    ))
}
