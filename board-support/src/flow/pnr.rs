//! Place and route with nextpnr-ecp5.
//!
//! Two kinds of run:
//! - out of context (`--out-of-context`): a module alone, without I/O buffers, global clock
//!   routing or constraints; for measuring a kernel's Fmax and area. No bitstream can be made.
//! - full design: all top-level ports constrained by an LPF (see [`crate::lpf()`]); writes the
//!   textual configuration (`--textcfg`) that [`super::bitstream`] packs.
//!
//! Numbers come from nextpnr's `--report` JSON (`fmax` per clock, `utilization` per bel type,
//! `critical_paths`). nextpnr always runs with `--timing-allow-fail`, so a design that misses
//! its target still yields a report; [`PnrOptions::require_timing`] turns a miss into an error.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toolchain::{Tool, Toolchain};

use super::{io_err, prepare_dir, relative_existing, run_tool, warnings, FlowError};
use crate::board::{Board, Device};

/// What to place and route for.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// A board: its device, and its clock as the default timing target.
    Board(&'a Board),
    /// A bare device (out-of-context runs need nothing else).
    Device(Device),
}

impl Target<'_> {
    pub fn device(&self) -> Device {
        match self {
            Target::Board(b) => b.device(),
            Target::Device(d) => *d,
        }
    }
}

impl From<Device> for Target<'static> {
    fn from(d: Device) -> Self {
        Target::Device(d)
    }
}

impl<'a> From<&'a Board> for Target<'a> {
    fn from(b: &'a Board) -> Self {
        Target::Board(b)
    }
}

/// Options for [`place_route`].
#[derive(Clone, Debug)]
pub struct PnrOptions {
    /// Where the LPF, log, report and configuration go (created if missing).
    pub work_dir: PathBuf,
    /// Timing target for every clock (`--freq`). `None`: clocks constrained in the LPF use
    /// their `FREQUENCY`, a board target without LPF clock uses the board clock, and a bare
    /// device uses nextpnr's default.
    pub freq_mhz: Option<f64>,
    /// Place the module alone (`--out-of-context`): no LPF, no I/O, no bitstream.
    pub out_of_context: bool,
    /// Placer seed (`--seed`); results are reproducible for a given seed and tool version.
    pub seed: u64,
    /// LPF text for a full design (from [`crate::lpf()`]); required unless out of context.
    pub lpf: Option<String>,
    /// Fail with [`FlowError::TimingFailed`] if any clock misses its target.
    pub require_timing: bool,
}

impl PnrOptions {
    /// A full-design run (set [`PnrOptions::lpf`]) with seed 1 and no explicit target.
    pub fn new(work_dir: impl Into<PathBuf>) -> PnrOptions {
        PnrOptions {
            work_dir: work_dir.into(),
            freq_mhz: None,
            out_of_context: false,
            seed: 1,
            lpf: None,
            require_timing: false,
        }
    }

    /// An out-of-context run at `freq_mhz` with seed 1.
    pub fn out_of_context(work_dir: impl Into<PathBuf>, freq_mhz: f64) -> PnrOptions {
        PnrOptions {
            freq_mhz: Some(freq_mhz),
            out_of_context: true,
            ..PnrOptions::new(work_dir)
        }
    }

    pub fn lpf(mut self, lpf: impl Into<String>) -> PnrOptions {
        self.lpf = Some(lpf.into());
        self
    }

    pub fn seed(mut self, seed: u64) -> PnrOptions {
        self.seed = seed;
        self
    }

    pub fn freq_mhz(mut self, mhz: f64) -> PnrOptions {
        self.freq_mhz = Some(mhz);
        self
    }
}

/// Achieved and wanted frequency of one clock.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockReport {
    /// The clock net as nextpnr names it (`clk`, or `$glbnet$clk` once promoted to a global).
    pub name: String,
    pub achieved_mhz: f64,
    pub constraint_mhz: f64,
    pub met: bool,
}

impl fmt::Display for ClockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clock `{}` reaches {:.2} MHz ({} at {:.2} MHz)",
            self.name,
            self.achieved_mhz,
            if self.met { "PASS" } else { "FAIL" },
            self.constraint_mhz
        )
    }
}

/// Used and available bels of one type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub used: u64,
    pub available: u64,
}

/// One critical path of the report, summarised.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CriticalPath {
    /// Launching clock edge, `posedge clk` (or `<async>` for an input).
    pub from: String,
    /// Capturing clock edge.
    pub to: String,
    /// First and last cell port of the path (`q_TRELLIS_FF_Q_31.Q`).
    pub start: String,
    pub end: String,
    pub delay_ns: f64,
    /// Cell delays (logic, clock-to-out, setup).
    pub logic_ns: f64,
    pub routing_ns: f64,
    /// Distinct source locations (`kernel.v:80.25-80.40`) of the nets on the path, in path
    /// order: where in the Verilog the path runs.
    pub sources: Vec<String>,
    /// The cells the path passes through, in path order, each once (hierarchical names:
    /// `oclhls_board_core.u_core.l3_run_LUT4_C_Z`): where in the design it runs when the
    /// netlist kept no source locations.
    pub cells: Vec<String>,
}

/// What [`place_route`] produced.
#[derive(Clone, Debug, Serialize)]
pub struct PnrReport {
    pub device: Device,
    pub out_of_context: bool,
    pub seed: u64,
    /// Per clock, by name.
    pub clocks: Vec<ClockReport>,
    /// Per bel type (`TRELLIS_COMB`, `TRELLIS_FF`, `DP16KD`, `MULT18X18D`, `TRELLIS_RAMW`,
    /// `TRELLIS_IO`, ...).
    pub utilisation: BTreeMap<String, Usage>,
    pub critical_paths: Vec<CriticalPath>,
    /// The textual configuration for [`super::bitstream`]; only for full designs.
    pub textcfg: Option<PathBuf>,
    /// nextpnr's JSON report.
    pub report: PathBuf,
    pub log: PathBuf,
    pub warnings: Vec<String>,
    pub nextpnr_version: String,
    pub elapsed_s: f64,
}

impl PnrReport {
    /// The slowest clock's achieved frequency; `None` for a design without clocked paths.
    pub fn fmax_mhz(&self) -> Option<f64> {
        self.clocks
            .iter()
            .map(|c| c.achieved_mhz)
            .min_by(|a, b| a.total_cmp(b))
    }

    /// Whether every clock met its target.
    pub fn timing_met(&self) -> bool {
        self.clocks.iter().all(|c| c.met)
    }

    pub fn usage(&self, bel: &str) -> Usage {
        self.utilisation.get(bel).copied().unwrap_or_default()
    }

    /// Logic cells (`TRELLIS_COMB`: one LUT4, or half a carry cell, each): the LUT count.
    pub fn luts(&self) -> Usage {
        self.usage("TRELLIS_COMB")
    }

    pub fn ffs(&self) -> Usage {
        self.usage("TRELLIS_FF")
    }

    /// `DP16KD` block RAMs.
    pub fn ebr(&self) -> Usage {
        self.usage("DP16KD")
    }

    /// `MULT18X18D` multipliers.
    pub fn dsp(&self) -> Usage {
        self.usage("MULT18X18D")
    }

    /// `TRELLIS_RAMW`: write ports of distributed RAM.
    pub fn lutram(&self) -> Usage {
        self.usage("TRELLIS_RAMW")
    }

    pub fn io(&self) -> Usage {
        self.usage("TRELLIS_IO")
    }
}

/// Places and routes the netlist `netlist` (from [`super::synth()`]) for `target`.
pub fn place_route(
    tc: &Toolchain,
    netlist: &Path,
    target: Target<'_>,
    opts: &PnrOptions,
) -> Result<PnrReport, FlowError> {
    if let Some(f) = opts.freq_mhz {
        if !(f.is_finite() && f > 0.0) {
            return Err(FlowError::Input(format!(
                "target frequency {f} MHz is not a positive number"
            )));
        }
    }
    match (&opts.lpf, opts.out_of_context) {
        (Some(_), true) => {
            return Err(FlowError::Input(
                "an out-of-context run places a module without I/O and takes no LPF".into(),
            ))
        }
        (None, false) => {
            return Err(FlowError::Input(
                "a full-design run needs pin constraints (PnrOptions::lpf, see \
                 board_support::lpf); place a module alone with out_of_context"
                    .into(),
            ))
        }
        _ => {}
    }
    let work = prepare_dir(&opts.work_dir)?;
    let device = target.device();
    let mut args: Vec<OsString> = Vec::new();
    let mut arg = |a: &str| args.push(a.into());
    arg("-q");
    arg("-l");
    arg(LOG);
    arg("--json");
    arg(&relative_existing(netlist, &work, "netlist")?.to_string_lossy());
    arg(device.nextpnr_flag);
    arg("--package");
    arg(device.package);
    arg("--speed");
    arg(&device.speed_grade.to_string());
    arg("--seed");
    arg(&opts.seed.to_string());
    arg("--report");
    arg(REPORT);
    arg("--timing-allow-fail");
    let freq = opts.freq_mhz.or(match (target, &opts.lpf) {
        // The board clock is the target unless the LPF constrains a clock itself.
        (Target::Board(b), Some(lpf)) if !lpf.contains("FREQUENCY") => Some(b.clock().mhz),
        _ => None,
    });
    if let Some(f) = freq {
        arg("--freq");
        arg(&f.to_string());
    }
    let mut textcfg = None;
    if opts.out_of_context {
        arg("--out-of-context");
    } else {
        std::fs::write(work.join(LPF), opts.lpf.as_deref().unwrap_or_default())
            .map_err(io_err(format!("writing {}", work.join(LPF).display())))?;
        arg("--lpf");
        arg(LPF);
        arg("--textcfg");
        arg(TEXTCFG);
        textcfg = Some(work.join(TEXTCFG));
    }
    for f in [REPORT, TEXTCFG, LOG] {
        let p = work.join(f);
        if p.exists() {
            std::fs::remove_file(&p).map_err(io_err(format!("removing {}", p.display())))?;
        }
    }

    let log = work.join(LOG);
    let run = run_tool(tc, Tool::NextpnrEcp5, &args, &work, &log, false)?;
    let report_path = work.join(REPORT);
    let bad = |detail: String| FlowError::BadOutput {
        tool: Tool::NextpnrEcp5,
        path: report_path.clone(),
        detail,
    };
    let text =
        std::fs::read_to_string(&report_path).map_err(|e| bad(format!("report missing: {e}")))?;
    let raw: RawReport =
        serde_json::from_str(&text).map_err(|e| bad(format!("report is not understood: {e}")))?;
    if let Some(cfg) = &textcfg {
        if !cfg.is_file() {
            return Err(bad(format!("{} was not written", cfg.display())));
        }
    }
    let clocks: Vec<ClockReport> = raw
        .fmax
        .into_iter()
        .map(|(name, f)| ClockReport {
            name,
            achieved_mhz: f.achieved,
            constraint_mhz: f.constraint,
            met: f.achieved >= f.constraint,
        })
        .collect();
    if opts.require_timing && clocks.iter().any(|c| !c.met) {
        return Err(FlowError::TimingFailed { clocks });
    }
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    Ok(PnrReport {
        device,
        out_of_context: opts.out_of_context,
        seed: opts.seed,
        clocks,
        utilisation: raw.utilization,
        critical_paths: raw.critical_paths.iter().map(summarise).collect(),
        textcfg,
        report: report_path,
        log,
        warnings: warnings(&log_text),
        nextpnr_version: run.info.version,
        elapsed_s: run.elapsed.as_secs_f64(),
    })
}

const LOG: &str = "nextpnr.log";
const REPORT: &str = "report.json";
const LPF: &str = "constraints.lpf";
const TEXTCFG: &str = "design.config";

/// nextpnr's `--report` JSON (`timing_report.cc`), the parts we read.
#[derive(Deserialize)]
struct RawReport {
    #[serde(default)]
    fmax: BTreeMap<String, RawFmax>,
    #[serde(default)]
    utilization: BTreeMap<String, Usage>,
    #[serde(default)]
    critical_paths: Vec<RawPath>,
}

#[derive(Deserialize)]
struct RawFmax {
    achieved: f64,
    constraint: f64,
}

#[derive(Deserialize)]
struct RawPath {
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    path: Vec<RawSegment>,
}

#[derive(Deserialize)]
struct RawSegment {
    #[serde(default)]
    delay: f64,
    #[serde(default, rename = "type")]
    kind: String,
    from: RawEnd,
    to: RawEnd,
    #[serde(default)]
    sources: Vec<String>,
}

#[derive(Deserialize)]
struct RawEnd {
    #[serde(default)]
    cell: String,
    #[serde(default)]
    port: String,
}

fn summarise(p: &RawPath) -> CriticalPath {
    let end_name = |e: &RawEnd| format!("{}.{}", e.cell, e.port);
    let mut sources: Vec<String> = Vec::new();
    let mut cells: Vec<String> = Vec::new();
    let (mut logic, mut routing) = (0.0, 0.0);
    for s in &p.path {
        for c in [&s.from.cell, &s.to.cell] {
            if !c.is_empty() && !cells.contains(c) {
                cells.push(c.clone());
            }
        }
        if s.kind == "routing" {
            routing += s.delay;
        } else {
            logic += s.delay;
        }
        for src in &s.sources {
            if !sources.contains(src) {
                sources.push(src.clone());
            }
        }
    }
    CriticalPath {
        from: p.from.clone(),
        to: p.to.clone(),
        start: p
            .path
            .first()
            .map(|s| end_name(&s.from))
            .unwrap_or_default(),
        end: p.path.last().map(|s| end_name(&s.to)).unwrap_or_default(),
        delay_ns: logic + routing,
        logic_ns: logic,
        routing_ns: routing,
        sources,
        cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT_JSON: &str = r#"{"critical_paths": [{"from": "posedge clk", "to": "posedge clk", "path": [
        {"delay": 0.5, "from": {"cell": "q_FF", "loc": [3, 2], "port": "Q"}, "to": {"cell": "q_FF", "loc": [3, 2], "port": "Q"}, "type": "clk-to-q"},
        {"delay": 1.0, "from": {"cell": "q_FF", "loc": [3, 2], "port": "Q"}, "net": "q[0]", "sources": ["c.v:5.25-5.26"], "to": {"cell": "add", "loc": [4, 2], "port": "B"}, "type": "routing"},
        {"delay": 0.25, "from": {"cell": "add", "loc": [4, 2], "port": "B"}, "to": {"cell": "add", "loc": [4, 2], "port": "F"}, "type": "logic"},
        {"delay": 0.25, "from": {"cell": "add", "port": "F"}, "net": "n", "sources": ["c.v:9.27-9.35", "c.v:5.25-5.26"], "to": {"cell": "d_FF", "port": "DI"}, "type": "routing"},
        {"delay": 0, "from": {"cell": "d_FF", "port": "DI"}, "to": {"cell": "d_FF", "port": "DI"}, "type": "setup"}]}],
      "fmax": {"clk": {"achieved": 282.0, "constraint": 200}, "clk2": {"achieved": 90.5, "constraint": 100}},
      "utilization": {"TRELLIS_COMB": {"available": 83640, "used": 39}, "TRELLIS_FF": {"available": 83640, "used": 32}, "DP16KD": {"available": 208, "used": 0}}}"#;

    #[test]
    fn report_json() {
        let raw: RawReport = serde_json::from_str(REPORT_JSON).unwrap();
        let p = summarise(&raw.critical_paths[0]);
        assert_eq!(
            (p.from.as_str(), p.to.as_str()),
            ("posedge clk", "posedge clk")
        );
        assert_eq!((p.start.as_str(), p.end.as_str()), ("q_FF.Q", "d_FF.DI"));
        assert_eq!((p.delay_ns, p.logic_ns, p.routing_ns), (2.0, 0.75, 1.25));
        assert_eq!(p.sources, ["c.v:5.25-5.26", "c.v:9.27-9.35"]);
        assert_eq!(p.cells, ["q_FF", "add", "d_FF"]);
        assert_eq!(raw.utilization["TRELLIS_COMB"].used, 39);
        assert_eq!(raw.fmax["clk2"].achieved, 90.5);
        // A report without paths or clocks (a combinational design) is still understood.
        let empty: RawReport = serde_json::from_str("{}").unwrap();
        assert!(empty.fmax.is_empty() && empty.critical_paths.is_empty());
    }

    #[test]
    fn clock_display() {
        let c = ClockReport {
            name: "clk".into(),
            achieved_mhz: 54.878,
            constraint_mhz: 100.0,
            met: false,
        };
        assert_eq!(
            c.to_string(),
            "clock `clk` reaches 54.88 MHz (FAIL at 100.00 MHz)"
        );
    }

    #[test]
    fn contradictory_options_are_input_errors() {
        let tc = Toolchain::with_cache_dir("/nonexistent-oclhls-cache", true)
            .with_search_path("/nonexistent-oclhls-path");
        let tmp = tempfile::tempdir().unwrap();
        let d = Device::ecp5("LFE5U-85F", "CABGA381", 6).unwrap();
        let n = tmp.path().join("n.json");
        for (opts, needle) in [
            (
                PnrOptions::out_of_context(tmp.path(), 100.0).lpf("x"),
                "takes no LPF",
            ),
            (PnrOptions::new(tmp.path()), "needs pin constraints"),
            (
                PnrOptions::out_of_context(tmp.path(), f64::NAN),
                "not a positive number",
            ),
            (PnrOptions::out_of_context(tmp.path(), 100.0), "netlist"),
        ] {
            match place_route(&tc, &n, Target::Device(d), &opts) {
                Err(FlowError::Input(m)) => assert!(m.contains(needle), "{m}"),
                other => panic!("{opts:?}: {other:?}"),
            }
        }
    }
}
