//! `oclhls FILE.cl --board ulx3s`: after compiling, the board system in
//! `<out>/<board family>/` (board_support::soc): the core (one kernel, or the system top of
//! kernels joined by pipes) with its registers and SDRAM adapters, the LiteX SoC around it,
//! then Yosys, nextpnr-ecp5 and ecppack. Post-route numbers go into `report.json` (`board`).

use crate::compile::Compiled;
use anyhow::{Context, Result};
use board_support::soc::{self, litex, CorePort, CoreSpec};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The kernels' clock on a board when `--clock-mhz` is not given: LiteX's proven ULX3S clock,
/// which the SDRAM controller meets.
pub const DEFAULT_BOARD_CLOCK_MHZ: f64 = 50.0;

/// The read latency kernels are scheduled for on a board when `--memory-latency` is not
/// given. A read through the adapter, LiteDRAM's crossbar and controller and the SDR PHY takes
/// about a dozen cycles, and a loop's read stream gathers bursts only when the schedule leaves
/// it time: on the board simulation a single work-item copy loop reaches 71 % of the SDRAM's
/// peak at 3 (the default without a board), 91.7 % at 16 (docs/benchmarks.md, "Board
/// simulation").
pub const DEFAULT_BOARD_MEMORY_LATENCY: u32 = 16;

/// `opts` for a board build: the board's clock unless the user gave one (`clock_given`), and
/// its read latency unless `--memory-latency` gave one (`oclhls sim --board` applies the same
/// defaults through `SimArgs::clock` and `SimArgs::memory_latency`).
pub fn apply_defaults(opts: &mut crate::compile::CompileOptions, clock_given: bool) {
    if !clock_given {
        opts.clock_mhz = DEFAULT_BOARD_CLOCK_MHZ;
    }
    opts.memory_latency
        .get_or_insert(DEFAULT_BOARD_MEMORY_LATENCY);
}

/// `--sdram CHIP`.
pub fn litex_sdram(name: &str) -> Result<litex::Sdram, String> {
    litex::Sdram::parse(name)
}

/// What `--board` asks for.
pub struct BoardRequest {
    pub board: String,
    pub sdram: litex::Sdram,
    pub clock_mhz: f64,
    pub offline: bool,
    pub seed: u64,
}

/// One clock's result, as report.json has it.
#[derive(serde::Serialize)]
struct ClockResult {
    name: String,
    target_mhz: f64,
    fmax_mhz: f64,
    timing_met: bool,
}

#[derive(serde::Serialize)]
struct UsageResult {
    used: u64,
    available: u64,
}

/// The core to put on the board and its Verilog files (in `dir`, where `compile::write_outputs`
/// and `system::write` put them); `Err` says why the file has no core for a board.
pub fn core_spec(
    c: &Compiled,
    plan: Option<&crate::system::Plan>,
    dir: &Path,
) -> Result<(CoreSpec, Vec<PathBuf>), String> {
    let mut files: Vec<String> = Vec::new();
    let mut add = |f: &str| {
        if !files.iter().any(|g| g == f) {
            files.push(f.to_string());
        }
    };
    let spec = match plan {
        Some(plan) => {
            let top = plan.top(c);
            add(&format!("{}.v", plan.module));
            for (name, _) in rtl_templates::system::system_support_files() {
                add(&name);
            }
            for m in plan.modules(c) {
                add(&m.file_name);
                m.support.iter().for_each(|s| add(s));
            }
            // The `__shared` variants instantiate the kernels' own support modules too.
            for &k in &plan.kernels {
                c.kernels[k].rtl.support.iter().for_each(|s| add(s));
            }
            CoreSpec {
                module: top.module.clone(),
                ports: top
                    .ports
                    .iter()
                    .map(|p| CorePort {
                        name: p.name.clone(),
                        dir: p.dir,
                        width: p.width,
                    })
                    .collect(),
                kernels: plan
                    .kernels
                    .iter()
                    .map(|&k| c.kernels[k].ir.name.clone())
                    .collect(),
                system: true,
            }
        }
        None => {
            let [k] = c.kernels.as_slice() else {
                return Err(format!(
                    "the file has {} kernels and no pipes joining them; --board builds one \
                     kernel (choose it with --kernel NAME) or a system of kernels joined by \
                     pipes (--system TEST_NAME)",
                    c.kernels.len()
                ));
            };
            add(&k.rtl.file_name);
            k.rtl.support.iter().for_each(|s| add(s));
            let i = &k.rtl.interface;
            CoreSpec {
                module: i.module.clone(),
                ports: i
                    .ports
                    .iter()
                    .map(|p| CorePort {
                        name: p.name.clone(),
                        dir: p.dir,
                        width: p.width,
                    })
                    .collect(),
                kernels: vec![k.ir.name.clone()],
                system: false,
            }
        }
    };
    Ok((spec, files.into_iter().map(|f| dir.join(f)).collect()))
}

/// The error with the argument's OpenCL name instead of its port prefix (`bins`, not the
/// legalised `bins_k`).
fn opencl_names(c: &Compiled, e: soc::SocError) -> soc::SocError {
    let name_of = |kernel: &str, arg: &str| -> String {
        c.kernels
            .iter()
            .filter(|k| k.ir.name == kernel)
            .flat_map(|k| &k.rtl.interface.args)
            .find(|a| a.mem_prefix.as_deref() == Some(arg))
            .map_or_else(|| arg.to_string(), |a| a.name.clone())
    };
    match e {
        soc::SocError::AtomicPort {
            kernel,
            arg,
            prefix,
            bits,
            bursts,
        } => soc::SocError::AtomicPort {
            arg: name_of(&kernel, &arg),
            kernel,
            prefix,
            bits,
            bursts,
        },
        soc::SocError::ElementWidth { kernel, arg, bits } => soc::SocError::ElementWidth {
            arg: name_of(&kernel, &arg),
            kernel,
            bits,
        },
        e => e,
    }
}

/// The source line of the first global atomic of `kernel` on argument `arg` (for the error).
fn atomic_line(c: &Compiled, kernel: &str, arg: &str) -> Option<u32> {
    let k = c.kernels.iter().find(|k| k.ir.name == kernel)?;
    let ir = &k.ir;
    let mut fallback = None;
    for o in ir.op_ids() {
        if let hls_ir::OpKind::Atomic { mem, .. } = ir.op(o).kind {
            let m = ir.mem(mem);
            if let hls_ir::MemKind::Global { .. } = m.kind {
                let line = c.sm.line_col(ir.op(o).span).0;
                if m.name == arg {
                    return Some(line);
                }
                fallback.get_or_insert(line);
            }
        }
    }
    fallback
}

/// What a board build made (for `oclhls run`).
pub struct BoardBuilt {
    /// The bitstream (`None` when only the SoC was generated).
    pub bit: Option<PathBuf>,
    /// The LiteX output folder (`csr.csv`, `sdram_init.json`): what the host runtime reads.
    pub soc_dir: PathBuf,
    /// The build id the bitstream answers in `oclhls_build_id`.
    pub build_id: u32,
}

/// Builds the board system and its bitstream, adds `board` to `report.json` in `dir`.
pub fn build(
    c: &Compiled,
    plan: Option<&crate::system::Plan>,
    file: &Path,
    dir: &Path,
    req: &BoardRequest,
) -> Result<ExitCode> {
    Ok(match build_board(c, plan, file, dir, req, true)? {
        Ok(_) => ExitCode::SUCCESS,
        Err(code) => code,
    })
}

/// Builds the board system of `c` in `dir/<family>/`: the LiteX SoC, then (with `bitstream`)
/// synthesis, place and route and the bitstream, unless the bitstream of an earlier build of
/// the same system (same build id, board, SDRAM, clock and seed) is there: that one is kept
/// (`implemented.json` beside it records what it was built from). `Err`: the exit status,
/// after the diagnostics were printed.
pub fn build_board(
    c: &Compiled,
    plan: Option<&crate::system::Plan>,
    file: &Path,
    dir: &Path,
    req: &BoardRequest,
    bitstream: bool,
) -> Result<std::result::Result<BoardBuilt, ExitCode>> {
    let started = Instant::now();
    let board = match board_support::find_board(&req.board) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: --board {}: {e}", req.board);
            return Ok(Err(ExitCode::from(2)));
        }
    };
    let (spec, files) = match core_spec(c, plan, dir) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return Ok(Err(ExitCode::from(1)));
        }
    };
    let soc_plan = match soc::plan(&spec) {
        Ok(p) => p,
        Err(e) => {
            let e = opencl_names(c, e);
            let at = match &e {
                soc::SocError::AtomicPort { kernel, arg, .. } => atomic_line(c, kernel, arg)
                    .map(|l| format!("{}:{l}: ", file.display()))
                    .unwrap_or_else(|| format!("{}: ", file.display())),
                _ => format!("{}: ", file.display()),
            };
            eprintln!("error: {at}--board {}: {e}", req.board);
            return Ok(Err(ExitCode::from(1)));
        }
    };
    let family = req.board.split('-').next().unwrap_or("board").to_string();
    let work = dir.join(&family);
    let tc = toolchain::Toolchain::new(req.offline);
    let progress = crate::progress::Progress::new();
    let step = progress.step("LiteX SoC (LiteDRAM, UARTBone) and registers");
    let opts = litex::SocOptions {
        work_dir: work.clone(),
        sdram: req.sdram,
        clock_mhz: req.clock_mhz,
        sim: false,
    };
    let generated = litex::generate(&tc, &soc_plan, &spec.ports, &files, board, &opts)
        .context("generating the LiteX SoC")?;
    step.finish();
    let soc_dir = generated
        .csr_csv
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let built = |bit| BoardBuilt {
        bit,
        soc_dir: soc_dir.clone(),
        build_id: generated.build_id,
    };
    if !bitstream {
        return Ok(Ok(built(None)));
    }
    let stamp = work.join("implemented.json");
    let board_report = match earlier_build(&stamp, board.name(), req, generated.build_id) {
        Some(r) => {
            println!(
                "board {}: the bitstream of build id {:#010x} is up to date, not rebuilt ({})",
                board.name(),
                generated.build_id,
                stamp.display()
            );
            r
        }
        None => {
            let terms = |cells: &[String]| crate::timing_terms::describe(c, &spec.kernels, cells);
            let r = implement(
                &tc, &generated, board, &work, req, &soc_plan, started, &terms,
            )?;
            if r["timing_met"] == true {
                std::fs::write(&stamp, serde_json::to_string_pretty(&r)? + "\n")
                    .with_context(|| format!("cannot write {}", stamp.display()))?;
            }
            r
        }
    };
    let report_path = dir.join("report.json");
    let text = std::fs::read_to_string(&report_path)
        .with_context(|| format!("cannot read {}", report_path.display()))?;
    let mut report: serde_json::Value = serde_json::from_str(&text)?;
    report["board"] = board_report.clone();
    std::fs::write(&report_path, serde_json::to_string_pretty(&report)? + "\n")
        .with_context(|| format!("cannot write {}", report_path.display()))?;
    println!("  wrote {}", report_path.display());
    if board_report["timing_met"] != true {
        return Ok(Err(ExitCode::from(1)));
    }
    let bit = board_report["files"]["bit"]
        .as_str()
        .map(PathBuf::from)
        .unwrap_or_default();
    Ok(Ok(built(Some(bit))))
}

/// The `board` section of an earlier build in `stamp` whose bitstream is this build's.
fn earlier_build(
    stamp: &Path,
    board: &str,
    req: &BoardRequest,
    build_id: u32,
) -> Option<serde_json::Value> {
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(stamp).ok()?).ok()?;
    let same = r["board"] == board
        && r["build_id"] == format!("{build_id:#010x}")
        && r["sdram"] == req.sdram.name()
        && r["clock_mhz"].as_f64() == Some(req.clock_mhz)
        && r["seed"].as_u64() == Some(req.seed)
        && r["timing_met"] == true;
    let bit = Path::new(r["files"]["bit"].as_str()?);
    (same && bit.is_file()).then_some(r)
}

/// Synthesis, place and route and the bitstream of the generated SoC: its `board` report
/// section (`timing_met` false after the error was printed).
#[allow(clippy::too_many_arguments)]
fn implement(
    tc: &toolchain::Toolchain,
    generated: &litex::Generated,
    board: &board_support::Board,
    work: &Path,
    req: &BoardRequest,
    soc_plan: &soc::SocPlan,
    started: Instant,
    terms: &dyn Fn(&[String]) -> Option<String>,
) -> Result<serde_json::Value> {
    let progress = crate::progress::Progress::new();
    let mut current = None;
    let imp = litex::implement(tc, generated, board, work, req.seed, |what| {
        if let Some(s) = current.take() {
            crate::progress::Step::finish(s);
        }
        current = Some(progress.step(what));
    });
    if let Some(s) = current.take() {
        s.finish();
    }
    let imp = imp.context("implementing the board system")?;
    let clocks: Vec<ClockResult> = imp
        .pnr
        .clocks
        .iter()
        .map(|k| ClockResult {
            name: k.name.clone(),
            target_mhz: k.constraint_mhz,
            fmax_mhz: k.achieved_mhz,
            timing_met: k.met,
        })
        .collect();
    let usage = |u: board_support::flow::Usage| UsageResult {
        used: u.used,
        available: u.available,
    };
    let board_report = serde_json::json!({
        "board": board.name(),
        "device": board.device().part,
        "sdram": req.sdram.name(),
        "clock_mhz": req.clock_mhz,
        "seed": req.seed,
        "build_id": format!("{:#010x}", generated.build_id),
        "clocks": clocks,
        "timing_met": imp.pnr.timing_met(),
        "utilisation": {
            "lut": usage(imp.pnr.luts()),
            "ff": usage(imp.pnr.ffs()),
            "ebr": usage(imp.pnr.ebr()),
            "dsp": usage(imp.pnr.dsp()),
        },
        "csr_banks": generated.banks,
        "registers": soc_plan.banks,
        "memory_ports": soc_plan.mem_ports,
        "files": {
            "soc_verilog": generated.soc_verilog,
            "lpf": generated.lpf,
            "csr_csv": generated.csr_csv,
            "bit": imp.bitstream.bit,
            "svf": imp.bitstream.svf,
        },
        "seconds": {
            "litex": generated.elapsed_s,
            "synth": imp.synth.elapsed_s,
            "pnr": imp.pnr.elapsed_s,
            "bitstream": imp.bitstream.elapsed_s,
            "total": started.elapsed().as_secs_f64(),
        },
    });
    print_summary(board, req, &imp, generated, &clocks, started);
    if let Some(k) = clocks.iter().find(|k| !k.timing_met) {
        let path = imp
            .pnr
            .critical_paths
            .iter()
            .find(|p| p.from.contains(&k.name) || p.to.contains(&k.name))
            .or(imp.pnr.critical_paths.first())
            .map(|p| {
                let inside = terms(&p.cells)
                    .map(|t| format!("; {t}"))
                    .unwrap_or_default();
                format!(
                    " (critical path {} -> {}, {:.2} ns{inside})",
                    p.start, p.end, p.delay_ns
                )
            })
            .unwrap_or_default();
        eprintln!(
            "error: timing not met: clock `{}` reaches {:.1} MHz of {:.1} MHz{path}. Try a \
             lower clock (`--clock-mhz {}`), which also lets the scheduler chain less per cycle",
            k.name,
            k.fmax_mhz,
            k.target_mhz,
            (k.fmax_mhz * 0.9).floor().max(1.0)
        );
    }
    Ok(board_report)
}

/// The board lines of the build summary: clocks, utilisation, register banks, time.
fn print_summary(
    board: &board_support::Board,
    req: &BoardRequest,
    imp: &litex::SocImplementation,
    generated: &litex::Generated,
    clocks: &[ClockResult],
    started: Instant,
) {
    println!(
        "board {} ({}, {} SDRAM) -> {}",
        board.name(),
        board.device().part,
        req.sdram.name(),
        imp.bitstream.bit.display()
    );
    for k in clocks {
        println!(
            "  clock {}: Fmax {:.1} MHz, target {:.1} MHz: {}",
            k.name,
            k.fmax_mhz,
            k.target_mhz,
            if k.timing_met { "met" } else { "NOT MET" }
        );
    }
    for (what, u) in [
        ("LUT", imp.pnr.luts()),
        ("FF", imp.pnr.ffs()),
        ("EBR", imp.pnr.ebr()),
        ("DSP", imp.pnr.dsp()),
    ] {
        let pct = if u.available > 0 {
            100.0 * u.used as f64 / u.available as f64
        } else {
            0.0
        };
        println!("  {what:<4} {:>6} / {:<6} ({pct:.1}%)", u.used, u.available);
    }
    for b in &generated.banks {
        println!("  registers `{}` at {:#06x}", b.bank, b.base);
    }
    println!(
        "  {:.0} s from LiteX to bitstream",
        started.elapsed().as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bitstream_is_kept_only_for_the_same_system() {
        let d = tempfile::tempdir().unwrap();
        let bit = d.path().join("soc.bit");
        std::fs::write(&bit, b"bits").unwrap();
        let stamp = d.path().join("implemented.json");
        let req = BoardRequest {
            board: "ulx3s".into(),
            sdram: litex::Sdram::Mt48lc16m16a2,
            clock_mhz: 50.0,
            offline: true,
            seed: 1,
        };
        let sdram = req.sdram.name();
        let write = |timing_met: bool| {
            let r = serde_json::json!({
                "board": "ulx3s-85f",
                "build_id": format!("{:#010x}", 0x1234_5678u32),
                "sdram": sdram,
                "clock_mhz": 50.0,
                "seed": 1,
                "timing_met": timing_met,
                "files": { "bit": bit },
            });
            std::fs::write(&stamp, r.to_string()).unwrap();
        };
        assert!(
            earlier_build(&stamp, "ulx3s-85f", &req, 0x1234_5678).is_none(),
            "no stamp"
        );
        write(true);
        assert!(earlier_build(&stamp, "ulx3s-85f", &req, 0x1234_5678).is_some());
        assert!(
            earlier_build(&stamp, "ulx3s-85f", &req, 0x1234_5679).is_none(),
            "other id"
        );
        assert!(
            earlier_build(&stamp, "ulx3s-12f", &req, 0x1234_5678).is_none(),
            "other board"
        );
        let other_seed = BoardRequest { seed: 2, ..req };
        assert!(earlier_build(&stamp, "ulx3s-85f", &other_seed, 0x1234_5678).is_none());
        let req = BoardRequest {
            seed: 1,
            ..other_seed
        };
        let faster = BoardRequest {
            clock_mhz: 60.0,
            ..req
        };
        assert!(earlier_build(&stamp, "ulx3s-85f", &faster, 0x1234_5678).is_none());
        let req = BoardRequest {
            clock_mhz: 50.0,
            ..faster
        };
        write(false);
        assert!(
            earlier_build(&stamp, "ulx3s-85f", &req, 0x1234_5678).is_none(),
            "timing"
        );
        write(true);
        std::fs::remove_file(&bit).unwrap();
        assert!(
            earlier_build(&stamp, "ulx3s-85f", &req, 0x1234_5678).is_none(),
            "no bit"
        );
    }
}
