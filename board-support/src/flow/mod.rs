//! The open ECP5 flow: Yosys `synth_ecp5` → nextpnr-ecp5 → ecppack.
//!
//! Each step is one function that runs one tool in a work directory the caller chooses, keeps
//! the tool's inputs, outputs and full log there, and returns a report of numbers read from the
//! tool's machine-readable output (`stat -json`, nextpnr `--report`), not scraped from text:
//!
//! - [`synth()`]: Verilog files → netlist JSON + [`SynthReport`] (cells by type, `check`
//!   results before and after synthesis);
//! - [`place_route()`]: netlist → [`PnrReport`] (Fmax per clock, utilisation, critical paths),
//!   plus the textual configuration for a full design;
//! - [`bitstream()`]: textual configuration → `.bit`;
//! - [`implement()`]: the three in a row for a full design on a [`Board`].
//!
//! Tools come from [`toolchain::Toolchain`]. YoWASP builds (the default when provisioned) run
//! in a WebAssembly sandbox that maps the host's `/tmp` to a private directory, so every path
//! handed to a tool is made relative to the tool's working directory (the work dir).
//!
//! Invariants: a returned report describes files that exist in the work dir; a tool that fails
//! is a [`FlowError::ToolFailed`] carrying the relevant log lines (errors and their context,
//! not the whole log) and the log's path; a design whose `check` finds problems is a
//! [`FlowError::CheckFailed`] unless the caller asked for the report anyway.

mod pack;
mod pnr;
mod synth;

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use toolchain::{Tool, ToolError, ToolInfo, Toolchain};

use crate::board::{Board, BoardError};

pub use pack::{bitstream, bitstream_and_svf, BitstreamReport};
pub use pnr::{place_route, ClockReport, CriticalPath, PnrOptions, PnrReport, Target, Usage};
pub use synth::{synth, CheckReport, SynthOptions, SynthReport};

/// Why a flow step failed.
#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// The caller's request cannot be run (missing file, bad top name, contradictory options).
    #[error("{0}")]
    Input(String),
    #[error("`{tool}` failed ({status}); full log: {}\n{}", log.display(), indent(excerpt))]
    ToolFailed {
        tool: Tool,
        status: String,
        /// The lines that say why: errors with a little context.
        excerpt: Vec<String>,
        log: PathBuf,
    },
    #[error(
        "yosys `check` found {} problem(s) in `{top}`; full log: {}\n{}",
        problems.len(), log.display(), indent(problems)
    )]
    CheckFailed {
        top: String,
        /// Each problem as Yosys words it, prefixed by `before synthesis:` or
        /// `after synthesis:`.
        problems: Vec<String>,
        log: PathBuf,
    },
    #[error("timing not met: {}", clocks.iter().filter(|c| !c.met).map(|c| c.to_string()).collect::<Vec<_>>().join("; "))]
    TimingFailed { clocks: Vec<ClockReport> },
    /// A tool succeeded but its output is not what this crate understands.
    #[error("unexpected output from `{tool}` in {}: {detail}", path.display())]
    BadOutput {
        tool: Tool,
        path: PathBuf,
        detail: String,
    },
}

fn indent(lines: &[String]) -> String {
    lines
        .iter()
        .flat_map(|l| l.lines())
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> FlowError {
    let context = context.into();
    move |source| FlowError::Io { context, source }
}

/// Creates `dir` and returns its canonical absolute path.
pub(crate) fn prepare_dir(dir: &Path) -> Result<PathBuf, FlowError> {
    std::fs::create_dir_all(dir)
        .map_err(io_err(format!("creating work directory {}", dir.display())))?;
    std::fs::canonicalize(dir).map_err(io_err(format!("resolving {}", dir.display())))
}

/// `path` (which must exist) relative to the canonical directory `base`.
pub(crate) fn relative_existing(
    path: &Path,
    base: &Path,
    what: &str,
) -> Result<PathBuf, FlowError> {
    let abs = std::fs::canonicalize(path)
        .map_err(|e| FlowError::Input(format!("{what} {} cannot be read: {e}", path.display())))?;
    Ok(relative_to(&abs, base))
}

/// Relative path from directory `base` to `path`, both absolute and canonical.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let p: Vec<Component> = path.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &p[common..] {
        rel.push(c.as_os_str());
    }
    if rel.as_os_str().is_empty() {
        rel.push(".");
    }
    rel
}

/// What a finished tool run left behind.
pub(crate) struct Run {
    pub info: ToolInfo,
    pub elapsed: Duration,
}

/// Runs `tool` with `args` in `cwd`. On a non-zero exit, the error carries an excerpt of the
/// log file `log` (or of the captured output if the tool wrote no log).
pub(crate) fn run_tool(
    tc: &Toolchain,
    tool: Tool,
    args: &[OsString],
    cwd: &Path,
    log: &Path,
    capture_log: bool,
) -> Result<Run, FlowError> {
    let info = tc.locate(tool)?;
    let start = Instant::now();
    let out = tc
        .command(&info)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .map_err(io_err(format!(
            "running `{tool}` ({})",
            info.path.display()
        )))?;
    let elapsed = start.elapsed();
    let captured = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if capture_log {
        std::fs::write(log, &captured).map_err(io_err(format!("writing {}", log.display())))?;
    }
    if !out.status.success() {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let mut excerpt = error_excerpt(&text);
        if excerpt.is_empty() {
            excerpt = error_excerpt(&captured);
        }
        if excerpt.is_empty() {
            // No line says ERROR: the end of the output is the best we have.
            let lines: Vec<&str> = captured.lines().filter(|l| !l.trim().is_empty()).collect();
            excerpt = lines[lines.len().saturating_sub(10)..]
                .iter()
                .map(|l| l.to_string())
                .collect();
        }
        if captured.contains("call stack exhausted") {
            excerpt.push(WASM_STACK_HINT.to_string());
        }
        return Err(FlowError::ToolFailed {
            tool,
            status: out.status.to_string(),
            excerpt,
            log: log.to_path_buf(),
        });
    }
    Ok(Run { info, elapsed })
}

/// Why a YoWASP tool stops with "wasm trap: call stack exhausted", and what to do. Yosys'
/// ABC9 flow walks logic cones recursively within wasmtime's 512 KiB stack: a chain of a few
/// hundred gates without a register stops it (oclhls writes its wide ORs as reductions, which
/// map to balanced trees, so its own control logic stays far below that).
const WASM_STACK_HINT: &str = "the WebAssembly (YoWASP) build of the tool ran out of stack: \
     the design has a very long chain of logic without a register (several hundred gates). \
     Put a native build on PATH (e.g. `apt-get install yosys nextpnr-ecp5`, or the OSS CAD \
     Suite), which oclhls prefers to YoWASP and which has no such limit, or split the chain.";

/// The lines of a Yosys or nextpnr log that explain a failure: each `ERROR` line, preceded by
/// the pass that was running (a Yosys `N.M. Executing ...` heading) or, failing that, by up to
/// three lines of context. At most 40 lines.
pub(crate) fn error_excerpt(log: &str) -> Vec<String> {
    let lines: Vec<&str> = log.lines().collect();
    let mut picked: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.contains("ERROR") {
            continue;
        }
        let heading = lines[..i].iter().rposition(|l| is_yosys_heading(l));
        match heading {
            Some(h) if i - h <= 40 => {
                picked.push(h);
                // Context right before the error matters more than the whole pass output.
                picked.extend(i.saturating_sub(3).max(h + 1)..i);
            }
            _ => picked.extend(i.saturating_sub(3)..i),
        }
        picked.push(i);
    }
    picked.sort_unstable();
    picked.dedup();
    picked
        .into_iter()
        .map(|i| lines[i].trim_end().to_string())
        .filter(|l| !l.trim().is_empty())
        .take(40)
        .collect()
}

/// `2.3. Executing HIERARCHY pass (managing design hierarchy).`
fn is_yosys_heading(line: &str) -> bool {
    let Some((num, rest)) = line.split_once(' ') else {
        return false;
    };
    rest.starts_with("Executing")
        && num.ends_with('.')
        && num.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// `Warning:` messages of a log with their indented continuation lines, each once, in order.
pub(crate) fn warnings(log: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur: Option<String> = None;
    for line in log.lines() {
        if line.starts_with("Warning:") {
            if let Some(w) = cur.take() {
                out.push(w);
            }
            cur = Some(line.trim_end().to_string());
        } else if let Some(w) = cur.as_mut() {
            if line.starts_with(' ') || line.starts_with('\t') {
                w.push('\n');
                w.push_str(line.trim_end());
            } else {
                out.push(cur.take().unwrap_or_default());
            }
        }
    }
    out.extend(cur);
    let mut seen = std::collections::HashSet::new();
    out.retain(|w| seen.insert(w.clone()));
    out
}

/// Options for [`implement`].
#[derive(Clone, Debug)]
pub struct ImplementOptions {
    /// `synth/` and `pnr/` are made under it, and the bitstream `<top>.bit`.
    pub work_dir: PathBuf,
    /// Seed for nextpnr's placer.
    pub seed: u64,
    /// Fail if a clock misses its constraint (otherwise the report says so).
    pub require_timing: bool,
}

impl ImplementOptions {
    pub fn new(work_dir: impl Into<PathBuf>) -> ImplementOptions {
        ImplementOptions {
            work_dir: work_dir.into(),
            seed: 1,
            require_timing: false,
        }
    }
}

/// Everything [`implement`] produced.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Implementation {
    pub synth: SynthReport,
    pub pnr: PnrReport,
    pub bitstream: BitstreamReport,
}

/// A full design on a board: synthesise `files` with top module `top`, constrain its ports
/// with `pins` (see [`crate::lpf()`]: `(port, board pin)`, a whole vector may map to a bus),
/// place and route for the board's device with the board clock as the timing target, and pack
/// the bitstream. The top module's ports must all be constrained.
pub fn implement<P: AsRef<Path>, S: AsRef<str>, B: AsRef<str>>(
    tc: &Toolchain,
    files: &[P],
    top: &str,
    board: &Board,
    pins: &[(S, B)],
    opts: &ImplementOptions,
) -> Result<Implementation, FlowError> {
    let lpf = crate::lpf::lpf(board, pins)?;
    let synth = synth(
        tc,
        files,
        top,
        &SynthOptions::new(opts.work_dir.join("synth")),
    )?;
    let mut pnr_opts = PnrOptions::new(opts.work_dir.join("pnr")).lpf(lpf);
    pnr_opts.seed = opts.seed;
    pnr_opts.require_timing = opts.require_timing;
    let pnr = place_route(tc, &synth.netlist, Target::Board(board), &pnr_opts)?;
    let textcfg = pnr.textcfg.clone().ok_or_else(|| FlowError::BadOutput {
        tool: Tool::NextpnrEcp5,
        path: pnr.report.clone(),
        detail: "no textual configuration was written".to_string(),
    })?;
    let bitstream = bitstream(tc, &textcfg, &opts.work_dir.join(format!("{top}.bit")))?;
    Ok(Implementation {
        synth,
        pnr,
        bitstream,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        let r = |p: &str, b: &str| relative_to(Path::new(p), Path::new(b));
        assert_eq!(r("/tmp/a/x.v", "/tmp/a/work"), PathBuf::from("../x.v"));
        assert_eq!(r("/tmp/a/work/x.v", "/tmp/a/work"), PathBuf::from("x.v"));
        assert_eq!(r("/w/src/x.v", "/tmp/a"), PathBuf::from("../../w/src/x.v"));
        assert_eq!(r("/tmp/a", "/tmp/a"), PathBuf::from("."));
    }

    #[test]
    fn excerpts_keep_the_pass_and_the_error() {
        let log = "\
1. Executing Verilog-2005 frontend: a.v
Parsing Verilog input from `a.v' to AST representation.
Generating RTLIL representation for module `\\a'.

2.3. Executing HIERARCHY pass (managing design hierarchy).

2.3.1. Analyzing design hierarchy..
Top module:  \\m
ERROR: Module `\\foo' referenced in module `\\m' in cell `\\u' is not part of the design.
";
        assert_eq!(
            error_excerpt(log),
            vec![
                "2.3. Executing HIERARCHY pass (managing design hierarchy).",
                "2.3.1. Analyzing design hierarchy..",
                "Top module:  \\m",
                "ERROR: Module `\\foo' referenced in module `\\m' in cell `\\u' is not part of the design.",
            ]
        );
        let pnr = "Info: a\nInfo: b\nInfo: c\nInfo: d\nERROR: failed to place cell 'x'\n0 warnings, 1 error\n";
        assert_eq!(
            error_excerpt(pnr),
            vec![
                "Info: b",
                "Info: c",
                "Info: d",
                "ERROR: failed to place cell 'x'"
            ]
        );
        assert!(error_excerpt("all good\n").is_empty());
    }

    #[test]
    fn warnings_are_grouped_and_deduplicated() {
        let log = "x\nWarning: multiple conflicting drivers for m.\\b:\n    port y[0] of cell i0 (inv)\n    module input b[0]\nnext\nWarning: w2\nWarning: multiple conflicting drivers for m.\\b:\n    port y[0] of cell i0 (inv)\n    module input b[0]\n";
        assert_eq!(
            warnings(log),
            vec![
                "Warning: multiple conflicting drivers for m.\\b:\n    port y[0] of cell i0 (inv)\n    module input b[0]",
                "Warning: w2",
            ]
        );
    }
}
