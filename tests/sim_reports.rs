//! `oclhls sim` for CI: several kernel files in one call, the JUnit XML report (`--junit`),
//! waveforms (`--trace`) and the hint that says how to get a failing test's waveform.
//!
//! The kernel is the one `tests/kernels.rs` simulates (`inc`), so its untraced model is in the
//! model cache already; the traced model is built once and cached after.

mod common;

use common::{oclhls, write};
use std::path::Path;

const INC: &str = "kernel void inc(global const int *a, global int *b) { size_t i = get_global_id(0); b[i] = a[i] + 1; }\n";

/// A test file of `inc`: `right` expects a[i] + 1, `wrong` expects 5 where the kernel gives 4.
fn inc_file(dir: &Path, name: &str) -> String {
    let header = "/*!\n[config]\nkernel_name: inc\n\n[test]\nname: right\nglobal_size: 4 1 1\nlocal_size: 4 1 1\narg_in: 0 buffer int[4] 1 2 3 4\narg_out: 1 buffer int[4] 2 3 4 5\n\n[test]\nname: it's wrong\nglobal_size: 4 1 1\nlocal_size: 4 1 1\narg_in: 0 buffer int[4] 1 2 3 4\narg_out: 1 buffer int[4] 2 3 5 5\n!*/\n";
    write(dir, name, &format!("{header}{INC}"))
}

/// Test cases, failures and skips per test suite of a JUnit file, as python3's
/// `xml.etree.ElementTree` reads them (an independent check that the XML is well formed);
/// `None` without python3.
fn junit_by_python(path: &Path) -> Option<String> {
    let script = "import sys, xml.etree.ElementTree as ET\n\
        root = ET.parse(sys.argv[1]).getroot()\n\
        assert root.tag == 'testsuites', root.tag\n\
        for s in root.findall('testsuite'):\n\
        \x20   cases = s.findall('testcase')\n\
        \x20   assert all(c.get('classname') == s.get('name') for c in cases)\n\
        \x20   assert all(float(c.get('time')) >= 0 for c in cases)\n\
        \x20   f = [c.get('name') for c in cases if c.find('failure') is not None]\n\
        \x20   k = [c.get('name') for c in cases if c.find('skipped') is not None]\n\
        \x20   print(s.get('name'), len(cases), 'failed', f, 'skipped', k)\n";
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(path)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "python3 cannot read the report: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn several_files_with_a_junit_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("a")).unwrap();
    std::fs::create_dir_all(d.join("b")).unwrap();
    inc_file(d, "a/inc.cl");
    inc_file(d, "b/inc.cl");
    // Valid OpenCL C that the hardware path does not build yet: a skip (the emulator passes).
    write(
        d,
        "later.cl",
        "/*!\n[config]\n[test]\nname: union copy\nkernel_name: acc\nglobal_size: 1 1 1\nlocal_size: 1 1 1\narg_out: 0 buffer int[1] 5\n!*/\ntypedef union { int i; float f; } U;\nkernel void acc(global int *o) {\n  U u;\n  u.i = 5;\n  o[0] = u.i;\n}\n",
    );
    write(d, "none.cl", INC);
    let o = oclhls(
        &[
            "sim",
            "a/inc.cl",
            "b/inc.cl",
            "later.cl",
            "none.cl",
            "-o",
            "out",
            "--seed",
            "3",
            "--junit",
            "reports/r.xml",
        ],
        d,
    );
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    // Each file's lines as for one file, after a header line; then the total.
    let fail = "FAIL it's wrong: argument 1 (`b`, line 17): int[2]: expected 5 (0x00000005), got 4 (0x00000004)";
    let hint = "  waveform: oclhls sim a/inc.cl --seed 3 --filter 'it'\\''s wrong' --trace waves";
    for want in [
        "== a/inc.cl",
        fail,
        hint,
        "1 passed, 1 failed",
        "== b/inc.cl",
        "== later.cl",
        "0 passed, 0 failed, 1 skipped",
        "== none.cl",
        "4 files: 2 passed, 3 failed, 1 skipped",
    ] {
        assert!(lines.contains(&want), "no line `{want}` in\n{}", o.stdout);
    }
    assert_eq!(
        lines.last(),
        Some(&"4 files: 2 passed, 3 failed, 1 skipped")
    );
    assert!(
        o.stderr.contains("none.cl has no test vectors"),
        "{}",
        o.stderr
    );
    // `-o DIR` with several files: DIR/<stem>, the second `inc` as `inc-2`.
    assert!(d.join("out/inc/inc.v").is_file());
    assert!(d.join("out/inc-2/inc.v").is_file());

    let xml = std::fs::read_to_string(d.join("reports/r.xml")).unwrap();
    assert!(
        xml.contains(r#"<testsuites name="oclhls sim" tests="6" skipped="1" failures="3""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testcase name="it&apos;s wrong" classname="a/inc.cl""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="argument 1 (`b`, line 17): int[2]: expected 5 (0x00000005), got 4 (0x00000004)">"#),
        "{xml}"
    );
    assert!(
        xml.contains("<skipped message=\"the hardware path cannot build this kernel yet"),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testcase name="header" classname="none.cl""#),
        "{xml}"
    );
    if let Some(seen) = junit_by_python(&d.join("reports/r.xml")) {
        assert_eq!(
            seen,
            "a/inc.cl 2 failed [\"it's wrong\"] skipped []\n\
             b/inc.cl 2 failed [\"it's wrong\"] skipped []\n\
             later.cl 1 failed [] skipped ['union copy']\n\
             none.cl 1 failed ['header'] skipped []\n"
        );
    }
}

#[test]
fn trace_writes_one_fst_per_test() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    inc_file(d, "inc.cl");
    let o = oclhls(&["sim", "inc.cl", "-o", "out", "--trace", "waves"], d);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    // Passing and failing tests name their waveform on the line after theirs.
    let pass = lines
        .iter()
        .position(|l| l.starts_with("PASS right"))
        .unwrap();
    assert_eq!(lines[pass + 1], "  waveform: waves/inc/right.fst");
    // A failure's message ends with the waveform line (after the emulator's line here).
    let fail = lines
        .iter()
        .position(|l| l.starts_with("FAIL it's wrong"))
        .unwrap();
    assert!(lines[fail + 1].starts_with("  emulator: "), "{}", o.stdout);
    assert_eq!(lines[fail + 2], "  waveform: waves/inc/it_s_wrong.fst");
    for name in ["right", "it_s_wrong"] {
        let bytes = std::fs::read(d.join(format!("waves/inc/{name}.fst"))).unwrap();
        // An FST header block: type 0, 329 bytes long.
        assert_eq!(bytes[0], 0);
        assert_eq!(bytes[1..9], 329u64.to_be_bytes());
        assert!(bytes.len() > 1000, "{} bytes", bytes.len());
        let fst = sim::fst::read(&bytes).unwrap();
        assert!(fst.end_time > 20, "{fst:?}");
        let signals = fst.signals.expect("an LZ4 hierarchy");
        // Verilator's names: the top's ports under TOP, the module's signals under its
        // name; a vector's name ends with its range, as FST files hold them.
        for s in [
            "TOP.clk",
            "TOP.inc.a_rreq_valid",
            "TOP.inc.b_wdata_data [31:0]",
        ] {
            assert!(signals.iter().any(|x| x == s), "no {s} in {signals:?}");
        }
    }
}
