//! Helpers shared by the integration tests: run the `oclhls` binary and capture its output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn oclhls(args: &[&str], cwd: &Path) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_oclhls"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("the oclhls binary runs");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Writes `source` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, source: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, source).expect("write test source");
    p.display().to_string()
}

/// The external tools, located (or provisioned) once per test binary.
pub fn toolchain() -> &'static toolchain::Toolchain {
    static TC: std::sync::OnceLock<toolchain::Toolchain> = std::sync::OnceLock::new();
    TC.get_or_init(|| toolchain::Toolchain::new(false))
}
