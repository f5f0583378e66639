//! Bitstream packing with ecppack.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Serialize;
use toolchain::{Tool, Toolchain};

use super::{io_err, prepare_dir, relative_existing, run_tool, FlowError};

/// What [`bitstream`] produced.
#[derive(Clone, Debug, Serialize)]
pub struct BitstreamReport {
    pub bit: PathBuf,
    pub bytes: u64,
    /// The SVF file for JTAG programming (`bitstream_and_svf`).
    pub svf: Option<PathBuf>,
    /// ecppack's output (it writes no log of its own).
    pub log: PathBuf,
    pub elapsed_s: f64,
}

/// Packs the textual configuration `textcfg` (from a full-design [`super::place_route`]) into
/// the bitstream `out_bit`. ecppack runs in the directory of `out_bit` and leaves its output
/// in `ecppack.log` there.
pub fn bitstream(
    tc: &Toolchain,
    textcfg: &Path,
    out_bit: &Path,
) -> Result<BitstreamReport, FlowError> {
    pack(tc, textcfg, out_bit, false)
}

/// [`bitstream`], plus the SVF file (`out_bit` with extension `svf`) that JTAG programmers
/// (openFPGALoader, OpenOCD) load.
pub fn bitstream_and_svf(
    tc: &Toolchain,
    textcfg: &Path,
    out_bit: &Path,
) -> Result<BitstreamReport, FlowError> {
    pack(tc, textcfg, out_bit, true)
}

fn pack(
    tc: &Toolchain,
    textcfg: &Path,
    out_bit: &Path,
    svf: bool,
) -> Result<BitstreamReport, FlowError> {
    let name = out_bit
        .file_name()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            FlowError::Input(format!(
                "bitstream path {} has no file name",
                out_bit.display()
            ))
        })?;
    let parent = match out_bit.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = prepare_dir(parent)?;
    let cfg = relative_existing(textcfg, &dir, "textual configuration")?;
    let bit = dir.join(name);
    if bit.exists() {
        std::fs::remove_file(&bit).map_err(io_err(format!("removing {}", bit.display())))?;
    }
    let log = dir.join("ecppack.log");
    let mut args: Vec<OsString> = vec![cfg.into_os_string(), name.to_os_string()];
    let svf = svf.then(|| bit.with_extension("svf"));
    if let Some(svf) = &svf {
        args.push("--svf".into());
        args.push(svf.file_name().unwrap_or_default().to_os_string());
    }
    let run = run_tool(tc, Tool::Ecppack, &args, &dir, &log, true)?;
    let bytes = std::fs::metadata(&bit)
        .map_err(|e| FlowError::BadOutput {
            tool: Tool::Ecppack,
            path: bit.clone(),
            detail: format!("bitstream missing: {e}"),
        })?
        .len();
    Ok(BitstreamReport {
        bit,
        bytes,
        svf,
        log,
        elapsed_s: run.elapsed.as_secs_f64(),
    })
}
