//! Synthesis with Yosys `synth_ecp5`.
//!
//! The script (kept as `synth.ys` in the work dir) elaborates the design, runs `check` on the
//! elaborated RTL (on a copy, after `proc`), synthesises, runs `check` again on the netlist,
//! and writes cell counts with `stat -json`:
//!
//! ```text
//! read_verilog "../src/kernel.v" ...
//! chparam -set NAME VALUE TOP             # one per SynthOptions::parameters entry
//! synth_ecp5 -top TOP -run :coarse        # ECP5 cell library + hierarchy -check
//! design -save oclhls_elab
//! proc
//! tee -q -o check_rtl.txt check
//! design -load oclhls_elab
//! synth_ecp5 -top TOP -run coarse: -json netlist.json
//! tee -q -o check_netlist.txt check
//! tee -q -o stat.json stat -json
//! ```
//!
//! Why two checks: synthesis repairs or hides some RTL problems (an undriven wire becomes a
//! constant, a combinational loop may be optimised away, a conflict between a port and an
//! assignment becomes a constant driver), so the netlist check alone misses bugs the emitter
//! must not have. `check` runs without `-assert` so that all problems of both checks are
//! collected; a non-empty list is then an error exactly like `check -assert` would be
//! ([`SynthOptions::require_clean_check`]).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Serialize;
use toolchain::{Tool, Toolchain};

use super::{io_err, prepare_dir, relative_existing, run_tool, warnings, FlowError};
use crate::names::is_identifier;

/// Options for [`synth`].
#[derive(Clone, Debug)]
pub struct SynthOptions {
    /// Where the script, log, netlist and reports go (created if missing).
    pub work_dir: PathBuf,
    /// `` `define``s for `read_verilog` (`-DNAME` or `-DNAME=VALUE`).
    pub defines: Vec<(String, Option<String>)>,
    /// `` `include`` search directories.
    pub include_dirs: Vec<PathBuf>,
    /// Parameters of the top module (`chparam -set NAME VALUE TOP`); values are integers.
    pub parameters: Vec<(String, i64)>,
    /// Read the sources as SystemVerilog (`read_verilog -sv`).
    pub systemverilog: bool,
    /// `synth_ecp5 -nodsp`: multipliers in LUTs instead of MULT18X18D.
    pub no_dsp: bool,
    /// `synth_ecp5 -nobram`: no DP16KD block RAM.
    pub no_bram: bool,
    /// `synth_ecp5 -nolutram`: no distributed (LUT) RAM.
    pub no_lutram: bool,
    /// Make `check` problems a [`FlowError::CheckFailed`] (the default, like
    /// `check -assert`). When false, they are only listed in [`SynthReport::check`].
    pub require_clean_check: bool,
}

impl SynthOptions {
    pub fn new(work_dir: impl Into<PathBuf>) -> SynthOptions {
        SynthOptions {
            work_dir: work_dir.into(),
            defines: Vec::new(),
            include_dirs: Vec::new(),
            parameters: Vec::new(),
            systemverilog: false,
            no_dsp: false,
            no_bram: false,
            no_lutram: false,
            require_clean_check: true,
        }
    }
}

/// Problems Yosys `check` found, each as Yosys words it (first line `Warning: ...`, then its
/// indented details).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// On the elaborated RTL (after `hierarchy` and `proc`, before optimisation).
    pub rtl: Vec<String>,
    /// On the synthesised netlist.
    pub netlist: Vec<String>,
}

impl CheckReport {
    /// True when neither check found anything: `check -assert` would pass on both.
    pub fn passed(&self) -> bool {
        self.rtl.is_empty() && self.netlist.is_empty()
    }

    /// All problems, each prefixed by where it was found.
    pub fn problems(&self) -> Vec<String> {
        let before = self.rtl.iter().map(|p| format!("before synthesis: {p}"));
        let after = self.netlist.iter().map(|p| format!("after synthesis: {p}"));
        before.chain(after).collect()
    }
}

/// What [`synth`] produced.
#[derive(Clone, Debug, Serialize)]
pub struct SynthReport {
    pub top: String,
    /// The netlist for nextpnr (`netlist.json` in the work dir).
    pub netlist: PathBuf,
    /// Yosys' full log.
    pub log: PathBuf,
    /// Cells of the netlist by type (`LUT4`, `TRELLIS_FF`, `CCU2C`, `DP16KD`, `MULT18X18D`,
    /// `PFUMX`, `L6MUX21`, `TRELLIS_DPR16X4`, ...), from `stat -json`. Yosys' bookkeeping
    /// cells (`$scopeinfo`) are left out; any other `$`-type is logic Yosys could not map.
    pub cells: BTreeMap<String, u64>,
    pub check: CheckReport,
    /// Every distinct Yosys warning of the run (includes the check problems).
    pub warnings: Vec<String>,
    pub yosys_version: String,
    pub elapsed_s: f64,
}

impl SynthReport {
    fn count(&self, pred: impl Fn(&str) -> bool) -> u64 {
        self.cells
            .iter()
            .filter(|(t, _)| pred(t))
            .map(|(_, n)| n)
            .sum()
    }

    /// Number of cells of exactly this type.
    pub fn cells_of(&self, ty: &str) -> u64 {
        self.cells.get(ty).copied().unwrap_or(0)
    }

    /// LUT4s (carry chains and wide-LUT muxes are counted separately).
    pub fn luts(&self) -> u64 {
        self.cells_of("LUT4")
    }

    /// Flip-flops: `TRELLIS_FF`, and Diamond-style `FD1S3*`/`FD1P3*` if a flow produces them.
    pub fn ffs(&self) -> u64 {
        self.count(|t| t == "TRELLIS_FF" || t.starts_with("FD1S3") || t.starts_with("FD1P3"))
    }

    /// `CCU2C` carry cells (two bits of an adder or comparator each).
    pub fn carries(&self) -> u64 {
        self.cells_of("CCU2C")
    }

    /// `DP16KD` block RAMs (18 Kbit each).
    pub fn ebr(&self) -> u64 {
        self.cells_of("DP16KD")
    }

    /// `MULT18X18D` and `ALU54B` DSP blocks.
    pub fn dsp(&self) -> u64 {
        self.cells_of("MULT18X18D") + self.cells_of("ALU54B")
    }

    /// Distributed RAM cells (`TRELLIS_DPR16X4`, 16x4 bits each).
    pub fn lutram(&self) -> u64 {
        self.cells_of("TRELLIS_DPR16X4")
    }

    pub fn total_cells(&self) -> u64 {
        self.count(|_| true)
    }
}

/// Quotes a path for a Yosys script; a `"` or line break cannot be quoted there.
fn quoted(path: &Path) -> Result<String, FlowError> {
    let s = path.to_string_lossy();
    if s.contains(['"', '\n', '\r']) {
        return Err(FlowError::Input(format!(
            "path {} cannot be written to a Yosys script (it contains a quote or line break)",
            path.display()
        )));
    }
    Ok(format!("\"{s}\""))
}

/// Synthesises `files` for ECP5 with top module `top`. See the module docs for the script.
pub fn synth<P: AsRef<Path>>(
    tc: &Toolchain,
    files: &[P],
    top: &str,
    opts: &SynthOptions,
) -> Result<SynthReport, FlowError> {
    if files.is_empty() {
        return Err(FlowError::Input("no Verilog files to synthesise".into()));
    }
    if !is_identifier(top) {
        return Err(FlowError::Input(format!(
            "top module name `{top}` is not a plain Verilog identifier"
        )));
    }
    let work = prepare_dir(&opts.work_dir)?;
    let mut read = String::from("read_verilog");
    if opts.systemverilog {
        read.push_str(" -sv");
    }
    for (name, value) in &opts.defines {
        let value_ok = value
            .as_deref()
            .is_none_or(|v| !v.is_empty() && !v.contains(|c: char| c.is_whitespace() || c == '"'));
        if !is_identifier(name) || !value_ok {
            return Err(FlowError::Input(format!(
                "define `{name}` = {value:?} cannot be passed to Yosys: the name must be an \
                 identifier and the value a non-empty word without spaces or quotes"
            )));
        }
        match value {
            Some(v) => read.push_str(&format!(" -D{name}={v}")),
            None => read.push_str(&format!(" -D{name}")),
        }
    }
    for dir in &opts.include_dirs {
        let rel = relative_existing(dir, &work, "include directory")?;
        read.push_str(&format!(" -I {}", quoted(&rel)?));
    }
    for f in files {
        let rel = relative_existing(f.as_ref(), &work, "Verilog source")?;
        read.push(' ');
        read.push_str(&quoted(&rel)?);
    }
    let mut chparam = String::new();
    for (name, value) in &opts.parameters {
        if !is_identifier(name) {
            return Err(FlowError::Input(format!(
                "parameter `{name}` cannot be passed to Yosys: the name must be an identifier"
            )));
        }
        chparam.push_str(&format!("chparam -set {name} {value} {top}\n"));
    }
    let mut flags = String::new();
    for (on, flag) in [
        (opts.no_dsp, " -nodsp"),
        (opts.no_bram, " -nobram"),
        (opts.no_lutram, " -nolutram"),
    ] {
        if on {
            flags.push_str(flag);
        }
    }
    // Outputs of an earlier run must not be mistaken for this run's.
    for f in [NETLIST, CHECK_RTL, CHECK_NETLIST, STAT, LOG] {
        let p = work.join(f);
        if p.exists() {
            std::fs::remove_file(&p).map_err(io_err(format!("removing {}", p.display())))?;
        }
    }
    let script = format!(
        "# Generated by oclhls (board-support::flow::synth).\n\
         {read}\n\
         {chparam}\
         synth_ecp5 -top {top} -run :coarse\n\
         design -save oclhls_elab\n\
         proc\n\
         tee -q -o {CHECK_RTL} check\n\
         design -load oclhls_elab\n\
         synth_ecp5 -top {top} -run coarse:{flags} -json {NETLIST}\n\
         tee -q -o {CHECK_NETLIST} check\n\
         tee -q -o {STAT} stat -json\n"
    );
    std::fs::write(work.join(SCRIPT), &script)
        .map_err(io_err(format!("writing {}", work.join(SCRIPT).display())))?;

    let log = work.join(LOG);
    let args: Vec<OsString> = ["-q", "-l", LOG, "-s", SCRIPT]
        .iter()
        .map(OsString::from)
        .collect();
    let run = run_tool(tc, Tool::Yosys, &args, &work, &log, false)?;

    let read_out = |name: &str| -> Result<String, FlowError> {
        let p = work.join(name);
        std::fs::read_to_string(&p).map_err(|e| FlowError::BadOutput {
            tool: Tool::Yosys,
            path: p.clone(),
            detail: format!("expected output missing: {e}"),
        })
    };
    let check = CheckReport {
        rtl: parse_check(&read_out(CHECK_RTL)?),
        netlist: parse_check(&read_out(CHECK_NETLIST)?),
    };
    let stat_path = work.join(STAT);
    let cells = parse_stat(&read_out(STAT)?, top).map_err(|detail| FlowError::BadOutput {
        tool: Tool::Yosys,
        path: stat_path,
        detail,
    })?;
    let netlist = work.join(NETLIST);
    if !netlist.is_file() {
        return Err(FlowError::BadOutput {
            tool: Tool::Yosys,
            path: netlist,
            detail: "no netlist was written".into(),
        });
    }
    if opts.require_clean_check && !check.passed() {
        return Err(FlowError::CheckFailed {
            top: top.to_string(),
            problems: check.problems(),
            log,
        });
    }
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    Ok(SynthReport {
        top: top.to_string(),
        netlist,
        log,
        cells,
        check,
        warnings: warnings(&log_text),
        yosys_version: run.info.version,
        elapsed_s: run.elapsed.as_secs_f64(),
    })
}

const SCRIPT: &str = "synth.ys";
const LOG: &str = "yosys.log";
const NETLIST: &str = "netlist.json";
const CHECK_RTL: &str = "check_rtl.txt";
const CHECK_NETLIST: &str = "check_netlist.txt";
const STAT: &str = "stat.json";

/// Problems in the output of one `check` pass: each `Warning:` line with its indented
/// details. If the closing count says there are problems but none could be separated, the
/// whole body counts as one problem, so a problem is never lost to a format change.
fn parse_check(text: &str) -> Vec<String> {
    let problems = warnings(text);
    let reported = text.lines().find_map(|l| {
        l.strip_prefix("Found and reported ")?
            .split_whitespace()
            .next()?
            .parse::<usize>()
            .ok()
    });
    match reported {
        Some(n) if n > 0 && problems.is_empty() => {
            let body: Vec<&str> = text
                .lines()
                .filter(|l| {
                    !l.trim().is_empty()
                        && !l.contains("Executing CHECK pass")
                        && !l.starts_with("Checking module")
                        && !l.starts_with("Found and reported")
                })
                .collect();
            vec![body.join("\n")]
        }
        _ => problems,
    }
}

/// Cell counts by type from `stat -json`: the `design` totals, or the top module's if an older
/// Yosys writes no totals.
fn parse_stat(text: &str, top: &str) -> Result<BTreeMap<String, u64>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("`stat -json` output is not JSON: {e}"))?;
    let by_type = v
        .pointer("/design/num_cells_by_type")
        .or_else(|| {
            let modules = v.get("modules")?;
            modules
                .get(format!("\\{top}"))
                .or_else(|| modules.get(top))?
                .get("num_cells_by_type")
        })
        .and_then(|t| t.as_object())
        .ok_or("`stat -json` output has no `num_cells_by_type`")?;
    let mut cells = BTreeMap::new();
    for (ty, n) in by_type {
        let n = n
            .as_u64()
            .ok_or_else(|| format!("cell count of `{ty}` is not a number: {n}"))?;
        if ty != "$scopeinfo" && n > 0 {
            cells.insert(ty.trim_start_matches('\\').to_string(), n);
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_output() {
        let clean = "\n5. Executing CHECK pass (checking for obvious problems).\nChecking module vadd...\nFound and reported 0 problems.\n";
        assert!(parse_check(clean).is_empty());
        let bad = "\n5. Executing CHECK pass (checking for obvious problems).\nChecking module bad2...\nWarning: multiple conflicting drivers for bad2.\\b:\n    port y[0] of cell i0 (inv)\n    module input b[0]\nWarning: Wire bad2.\\u is used but has no driver.\nFound and reported 2 problems.\n";
        assert_eq!(
            parse_check(bad),
            vec![
                "Warning: multiple conflicting drivers for bad2.\\b:\n    port y[0] of cell i0 (inv)\n    module input b[0]",
                "Warning: Wire bad2.\\u is used but has no driver.",
            ]
        );
        let odd =
            "Checking module m...\nproblem worded differently\nFound and reported 1 problems.\n";
        assert_eq!(parse_check(odd), vec!["problem worded differently"]);
    }

    #[test]
    fn stat_output() {
        let s = r#"{"creator": "Yosys", "modules": {"\\counter": {"num_cells_by_type": {"CCU2C": 16, "LUT4": 1}}},
            "design": {"num_cells": 49, "num_cells_by_type": {"$scopeinfo": 2, "CCU2C": 16, "LUT4": 1, "TRELLIS_FF": 32}}}"#;
        let cells = parse_stat(s, "counter").unwrap();
        assert_eq!(
            cells.into_iter().collect::<Vec<_>>(),
            vec![
                ("CCU2C".to_string(), 16),
                ("LUT4".to_string(), 1),
                ("TRELLIS_FF".to_string(), 32)
            ]
        );
        let old = r#"{"modules": {"\\counter": {"num_cells_by_type": {"LUT4": 3}}}}"#;
        assert_eq!(parse_stat(old, "counter").unwrap()["LUT4"], 3);
        assert!(parse_stat("{}", "x").is_err());
        assert!(parse_stat("nope", "x").is_err());
    }

    #[test]
    fn report_counts() {
        let r = SynthReport {
            top: "t".into(),
            netlist: "n".into(),
            log: "l".into(),
            cells: [
                ("LUT4", 10),
                ("TRELLIS_FF", 5),
                ("CCU2C", 3),
                ("MULT18X18D", 2),
                ("DP16KD", 1),
                ("TRELLIS_DPR16X4", 4),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
            check: CheckReport::default(),
            warnings: vec![],
            yosys_version: "0".into(),
            elapsed_s: 0.0,
        };
        assert_eq!(
            (r.luts(), r.ffs(), r.carries(), r.dsp(), r.ebr(), r.lutram()),
            (10, 5, 3, 2, 1, 4)
        );
        assert_eq!(r.total_cells(), 25);
    }

    #[test]
    fn bad_requests_are_input_errors() {
        let tc = Toolchain::with_cache_dir("/nonexistent-oclhls-cache", true)
            .with_search_path("/nonexistent-oclhls-path");
        let tmp = tempfile::tempdir().unwrap();
        let opts = SynthOptions::new(tmp.path());
        let none: [&str; 0] = [];
        for (files, top, needle) in [
            (&none[..], "t", "no Verilog files"),
            (&["x.v"][..], "1t", "not a plain Verilog identifier"),
            (
                &["/nonexistent/x.v"][..],
                "t",
                "Verilog source /nonexistent/x.v cannot be read",
            ),
        ] {
            match synth(&tc, files, top, &opts) {
                Err(FlowError::Input(m)) => assert!(m.contains(needle), "{m}"),
                other => panic!("{files:?} {top}: {other:?}"),
            }
        }
        let f = tmp.path().join("a.v");
        std::fs::write(&f, "module t; endmodule\n").unwrap();
        let mut o = SynthOptions::new(tmp.path().join("w"));
        o.defines.push(("W".into(), Some("a b".into())));
        assert!(matches!(
            synth(&tc, &[&f], "t", &o),
            Err(FlowError::Input(_))
        ));
        // With a valid request the missing tool is the error.
        let o = SynthOptions::new(tmp.path().join("w"));
        assert!(matches!(
            synth(&tc, &[&f], "t", &o),
            Err(FlowError::Tool(_))
        ));
    }
}
