//! Running the LiteX script and the open flow on the SoC it writes.
//!
//! [`generate`] writes, into the work dir: `oclhls_board_core.v` (the wrapper),
//! `oclhls_litedram_port.v` (the adapter), `oclhls_soc.py` (the script, embedded in the
//! binary), `manifest.json`, then runs the script in the LiteX venv ([`toolchain::Tool::Litex`]),
//! which writes `soc/gateware/<name>.v`, `.lpf` and `soc/csr.csv`. The CSR addresses LiteX
//! chose are read back and checked against the plan ([`check_csr_map`]).
//! With [`SocOptions::sim`] the script builds the board simulation's variant instead
//! (`soc/gateware/oclhls_ulx3s_sim.v`: LiteDRAM's SDRAM model, the bridge as byte streams; the
//! same CSR map) and `oclhls_board_sim.v`, the simulation top, is written beside the wrapper.
//! [`implement`] synthesises the SoC with the core's files and places, routes and packs it.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde::Serialize;
use toolchain::{Tool, Toolchain};

use super::wrapper::{core_verilog, native_address_bits, wrapper_ports};
use super::{Access, CorePort, SocPlan, ATOMIC_UNIT_V, LITEDRAM_PORT_V, MAGIC};
use crate::flow::{self, io_err, FlowError, PnrOptions, SynthOptions, Target};
use crate::Board;

/// The script, embedded so that an installed `oclhls` needs no source tree.
pub const SOC_SCRIPT: &str = include_str!("../../litex/oclhls_soc.py");

/// Name of the SoC's top module and files (`soc/gateware/oclhls_ulx3s.v`; the simulation
/// variant's is `oclhls_ulx3s_sim`).
pub const SOC_NAME: &str = "oclhls_ulx3s";

/// The UARTBone bridge's baud rate on the board: the FT231X's highest, 3 Mbaud (298 KB/s of
/// payload, 26 times LiteX's default of 115 200). At the 50 MHz system clock a bit is 16.7
/// clocks, which LiteX's phase-accumulator UART samples in its middle. `oclhls run --baud`
/// defaults to it; a bitstream built at another rate needs the same `--baud`.
pub const UART_BAUD: u32 = 3_000_000;

/// The top of the board simulation, around the simulation variant of the SoC.
pub const BOARD_SIM_V: &str = include_str!("../../rtl/oclhls_board_sim.v");

/// Module name of [`BOARD_SIM_V`].
pub const BOARD_SIM_TOP: &str = "oclhls_board_sim";

/// The SDRAM chip of a ULX3S revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Sdram {
    /// Micron MT48LC16M16A2, 32 MB (also what the ISSI IS42S16160G boards run as).
    Mt48lc16m16a2,
    /// Alliance AS4C32M16SB, 64 MB.
    As4c32m16sb,
}

impl Sdram {
    pub const ALL: [Sdram; 2] = [Sdram::Mt48lc16m16a2, Sdram::As4c32m16sb];

    pub fn name(self) -> &'static str {
        match self {
            Sdram::Mt48lc16m16a2 => "MT48LC16M16A2",
            Sdram::As4c32m16sb => "AS4C32M16SB",
        }
    }

    /// LiteDRAM's module class.
    pub fn litedram_module(self) -> &'static str {
        match self {
            Sdram::Mt48lc16m16a2 => "MT48LC16M16",
            Sdram::As4c32m16sb => "AS4C32M16",
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Sdram::Mt48lc16m16a2 => 32 << 20,
            Sdram::As4c32m16sb => 64 << 20,
        }
    }

    /// Case-insensitive; `IS42S16160G` is the MT48LC16M16A2's twin.
    pub fn parse(s: &str) -> Result<Sdram, String> {
        let u = s.to_ascii_uppercase();
        match u.as_str() {
            "MT48LC16M16A2" | "MT48LC16M16" | "IS42S16160G" => Ok(Sdram::Mt48lc16m16a2),
            "AS4C32M16SB" | "AS4C32M16" => Ok(Sdram::As4c32m16sb),
            _ => Err(format!(
                "unknown SDRAM chip `{s}`: the ULX3S has MT48LC16M16A2 (32 MB, the default; \
                 also for IS42S16160G boards) or AS4C32M16SB (64 MB)"
            )),
        }
    }
}

/// What [`generate`] needs besides the plan.
#[derive(Clone, Debug)]
pub struct SocOptions {
    pub work_dir: PathBuf,
    pub sdram: Sdram,
    /// The system clock (kernels and SDRAM), from the PLL.
    pub clock_mhz: f64,
    /// The board simulation's variant (`oclhls_soc.py --sim`) rather than the board's.
    pub sim: bool,
}

/// A register's absolute CSR address as LiteX placed it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CsrBank {
    pub bank: String,
    pub base: u64,
}

/// What [`generate`] wrote.
#[derive(Clone, Debug, Serialize)]
pub struct Generated {
    pub soc_verilog: PathBuf,
    /// The constraints (not written for the simulation variant).
    pub lpf: PathBuf,
    /// The simulation top `oclhls_board_sim` (only for the simulation variant).
    pub sim_top: Option<PathBuf>,
    /// LiteDRAM's SDRAM init sequence (`soc/sdram_init.json`, see the script).
    pub sdram_init: PathBuf,
    pub csr_csv: PathBuf,
    /// The core's Verilog files (the wrapper, the adapter and the caller's files).
    pub core_files: Vec<PathBuf>,
    pub build_id: u32,
    pub banks: Vec<CsrBank>,
    pub elapsed_s: f64,
}

/// The JSON the script reads.
fn manifest(
    plan: &SocPlan,
    board: &Board,
    files: &[PathBuf],
    opts: &SocOptions,
    build_id: u32,
) -> serde_json::Value {
    let ports: Vec<serde_json::Value> = wrapper_ports(plan, opts.sdram.bytes())
        .into_iter()
        .map(|p| serde_json::json!({"name": p.name, "dir": p.dir.name(), "width": p.width}))
        .collect();
    let banks: Vec<serde_json::Value> = plan
        .banks
        .iter()
        .map(|b| {
            let regs: Vec<serde_json::Value> = b
                .registers
                .iter()
                .map(|r| serde_json::json!({"name": r.name, "access": r.access, "doc": r.doc}))
                .collect();
            serde_json::json!({"bank": b.bank, "registers": regs})
        })
        .collect();
    let mems: Vec<serde_json::Value> = plan
        .native_ports()
        .iter()
        .map(|m| {
            serde_json::json!({
                "index": m.index, "data_bits": m.data_bits, "read": m.read, "write": m.write,
                "address_bits": native_address_bits(opts.sdram.bytes(), m.data_bits),
            })
        })
        .collect();
    serde_json::json!({
        "name": SOC_NAME,
        "core_module": "oclhls_board_core",
        "core_files": files,
        "device": board.device().part,
        "sdram_module": opts.sdram.litedram_module(),
        "sys_clk_hz": (opts.clock_mhz * 1e6).round() as u64,
        "uart_baud": UART_BAUD,
        "magic": MAGIC,
        "build_id": build_id,
        "banks": banks,
        "mem_ports": mems,
        "ports": ports,
    })
}

/// Writes the wrapper, the manifest and the script, and runs the script (see the module docs).
/// `files` are the Verilog files of `core` (the kernel or system top and its support modules).
pub fn generate(
    tc: &Toolchain,
    plan: &SocPlan,
    core: &[CorePort],
    files: &[PathBuf],
    board: &Board,
    opts: &SocOptions,
) -> Result<Generated, FlowError> {
    let started = std::time::Instant::now();
    let work = flow::prepare_dir(&opts.work_dir)?;
    let write = |name: &str, text: &str| -> Result<PathBuf, FlowError> {
        let p = work.join(name);
        std::fs::write(&p, text).map_err(io_err(format!("writing {}", p.display())))?;
        Ok(p)
    };
    let wrapper = core_verilog(plan, core, opts.sdram.bytes());
    let mut core_files = vec![
        write("oclhls_board_core.v", &wrapper)?,
        write("oclhls_litedram_port.v", LITEDRAM_PORT_V)?,
    ];
    if plan.atomic_unit.is_some() {
        core_files.push(write("oclhls_atomic_unit.v", ATOMIC_UNIT_V)?);
    }
    for f in files {
        core_files.push(
            std::fs::canonicalize(f)
                .map_err(|e| FlowError::Input(format!("{} cannot be read: {e}", f.display())))?,
        );
    }
    let mut texts = Vec::new();
    for f in &core_files {
        texts.push(std::fs::read(f).map_err(io_err(format!("reading {}", f.display())))?);
    }
    let build_id = super::build_id(&texts);
    let m = manifest(plan, board, &core_files, opts, build_id);
    let text = serde_json::to_string_pretty(&m).expect("the manifest serialises");
    write("manifest.json", &text)?;
    write("oclhls_soc.py", SOC_SCRIPT)?;
    let python = tc.locate(Tool::Litex)?;
    let log = work.join("litex.log");
    let sim_top = if opts.sim {
        Some(write("oclhls_board_sim.v", BOARD_SIM_V)?)
    } else {
        None
    };
    let out = tc
        .command(&python)
        .args(["oclhls_soc.py", "manifest.json", "soc"])
        .args(opts.sim.then_some("--sim"))
        .current_dir(&work)
        .stdin(Stdio::null())
        .output()
        .map_err(io_err(format!("running {}", python.path.display())))?;
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&log, &all).map_err(io_err(format!("writing {}", log.display())))?;
    if !out.status.success() {
        let lines: Vec<&str> = all.lines().filter(|l| !l.trim().is_empty()).collect();
        return Err(FlowError::ToolFailed {
            tool: Tool::Litex,
            status: out.status.to_string(),
            excerpt: lines[lines.len().saturating_sub(12)..]
                .iter()
                .map(|l| l.to_string())
                .collect(),
            log,
        });
    }
    let gw = work.join("soc/gateware");
    let csr_csv = work.join("soc/csr.csv");
    let csv = std::fs::read_to_string(&csr_csv).map_err(|e| FlowError::BadOutput {
        tool: Tool::Litex,
        path: csr_csv.clone(),
        detail: format!("csr.csv missing: {e}"),
    })?;
    let banks = check_csr_map(plan, &csv).map_err(|detail| FlowError::BadOutput {
        tool: Tool::Litex,
        path: csr_csv.clone(),
        detail,
    })?;
    let top = if opts.sim {
        format!("{SOC_NAME}_sim")
    } else {
        SOC_NAME.to_string()
    };
    Ok(Generated {
        soc_verilog: gw.join(format!("{top}.v")),
        lpf: gw.join(format!("{SOC_NAME}.lpf")),
        sim_top,
        sdram_init: work.join("soc/sdram_init.json"),
        csr_csv,
        core_files,
        build_id,
        banks,
        elapsed_s: started.elapsed().as_secs_f64(),
    })
}

/// The bases of the banks in LiteX's `csr.csv`, after checking that every register of the
/// plan (and of the `oclhls` bank) is at its bank's base plus its offset, with the access the
/// plan gives it.
pub fn check_csr_map(plan: &SocPlan, csv: &str) -> Result<Vec<CsrBank>, String> {
    let mut bases: Vec<CsrBank> = Vec::new();
    let mut regs: Vec<(String, u64, String)> = Vec::new();
    for line in csv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(',').collect();
        let num = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16);
        match f.as_slice() {
            ["csr_base", name, addr, ..] => bases.push(CsrBank {
                bank: name.to_string(),
                base: num(addr).map_err(|e| format!("bad address in `{line}`: {e}"))?,
            }),
            ["csr_register", name, addr, _, access, ..] => regs.push((
                name.to_string(),
                num(addr).map_err(|e| format!("bad address in `{line}`: {e}"))?,
                access.to_string(),
            )),
            _ => {}
        }
    }
    let mut wanted: Vec<(String, String, u32, &str)> = super::GLOBAL_REGISTERS
        .iter()
        .map(|(n, off, _)| ("oclhls".to_string(), n.to_string(), *off, "ro"))
        .collect();
    for b in &plan.banks {
        for r in &b.registers {
            let access = match r.access {
                Access::Ctrl | Access::Rw => "rw",
                Access::Ro => "ro",
            };
            wanted.push((b.bank.clone(), r.name.clone(), r.offset, access));
        }
    }
    let mut out = Vec::new();
    for (bank, name, offset, access) in wanted {
        let base = bases
            .iter()
            .find(|b| b.bank == bank)
            .ok_or_else(|| format!("no CSR bank `{bank}`"))?;
        let full = format!("{bank}_{name}");
        let Some((_, addr, acc)) = regs.iter().find(|(n, _, _)| *n == full) else {
            return Err(format!("no CSR `{full}`"));
        };
        if *addr != base.base + u64::from(offset) || acc != access {
            return Err(format!(
                "CSR `{full}` is at {addr:#x} ({acc}), the register map says {:#x} ({access})",
                base.base + u64::from(offset)
            ));
        }
        if !out.contains(base) {
            out.push(base.clone());
        }
    }
    Ok(out)
}

/// Everything [`implement`] produced.
#[derive(Clone, Debug, Serialize)]
pub struct SocImplementation {
    pub synth: flow::SynthReport,
    pub pnr: flow::PnrReport,
    pub bitstream: flow::BitstreamReport,
}

/// Synthesises the SoC (its Verilog and the core's files), places and routes it with the LPF
/// LiteX wrote (its `FREQUENCY` on the oscillator; nextpnr derives the PLL outputs), and packs
/// `<work_dir>/<SOC_NAME>.bit` and `.svf`. Timing is reported, not enforced: the caller
/// decides.
pub fn implement(
    tc: &Toolchain,
    gen: &Generated,
    board: &Board,
    work_dir: &Path,
    seed: u64,
    mut progress: impl FnMut(&str),
) -> Result<SocImplementation, FlowError> {
    let mut files = vec![gen.soc_verilog.clone()];
    files.extend(gen.core_files.iter().cloned());
    let mut sopts = SynthOptions::new(work_dir.join("synth"));
    // LiteX's own Verilog does not pass `check` cleanly (its CSR multiplexers leave
    // undriven bits); the problems stay in the report.
    sopts.require_clean_check = false;
    // The identifier ROM's `$readmemh` names its file relative to the working directory.
    let init = gen
        .soc_verilog
        .with_file_name(format!("{SOC_NAME}_mem.init"));
    if init.is_file() {
        let dst = flow::prepare_dir(&sopts.work_dir)?.join(init.file_name().unwrap_or_default());
        std::fs::copy(&init, &dst).map_err(io_err(format!("copying {}", init.display())))?;
    }
    progress("synthesis (yosys)");
    let synth = flow::synth(tc, &files, SOC_NAME, &sopts)?;
    let lpf = std::fs::read_to_string(&gen.lpf)
        .map_err(io_err(format!("reading {}", gen.lpf.display())))?;
    let pnr_opts = PnrOptions::new(work_dir.join("pnr")).lpf(lpf).seed(seed);
    progress("place and route (nextpnr-ecp5)");
    let pnr = flow::place_route(tc, &synth.netlist, Target::Board(board), &pnr_opts)?;
    let textcfg = pnr.textcfg.clone().ok_or_else(|| FlowError::BadOutput {
        tool: Tool::NextpnrEcp5,
        path: pnr.report.clone(),
        detail: "no textual configuration was written".to_string(),
    })?;
    progress("bitstream (ecppack)");
    let bitstream =
        flow::bitstream_and_svf(tc, &textcfg, &work_dir.join(format!("{SOC_NAME}.bit")))?;
    Ok(SocImplementation {
        synth,
        pnr,
        bitstream,
    })
}
