//! The command line: exit codes, outputs, report.json and diagnostics.

mod common;

use common::{oclhls, root, write};

const VADD: &str = "examples/vadd.cl";

#[test]
fn check_accepts_vadd() {
    let o = oclhls(&["check", VADD], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("ok"));
}

#[test]
fn compile_writes_verilog_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = oclhls(&[VADD, "-o", out.to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("II 1 (MII 1"), "{}", o.stdout);
    assert!(out.join("vadd.v").is_file());
    assert!(out.join("oclhls_fifo.v").is_file());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let k = &report["kernels"][0];
    assert_eq!(k["name"], "vadd");
    let l = &k["loops"][0];
    assert_eq!(l["ii"], 1);
    assert_eq!(l["mii"], 1);
    assert_eq!(l["res_mii"], 1);
    assert_eq!(l["rec_mii"], 1);
    assert_eq!(l["optimal"], true);
    assert_eq!(l["line"], 33);
    assert!(
        l["depth"].as_u64().unwrap() >= 4,
        "a load takes 3 cycles: {l}"
    );
    // The interface lists a read port for a and b and a write port for c (bursting: its
    // data on the W channel).
    let ports: Vec<String> = k["interface"]["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    for p in [
        "a_rreq_valid",
        "b_rresp_data",
        "c_wdata_data",
        "c_wreq_len",
        "c_wresp_valid",
        "arg_a",
    ] {
        assert!(ports.contains(&p.to_string()), "missing {p} in {ports:?}");
    }
    assert!(!ports.contains(&"c_rreq_valid".to_string()));
}

#[test]
fn default_output_directory_is_build_stem() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "k.cl",
        "kernel void k(global int *o) { o[get_global_id(0)] = 1; }\n",
    );
    let o = oclhls(&[&src], dir.path());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(dir.path().join("build/k/k.v").is_file());
    assert!(dir.path().join("build/k/report.json").is_file());
}

#[test]
fn kernel_selection() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "two.cl",
        "kernel void one(global int *o) { o[0] = 1; }\nkernel void two(global int *o) { o[0] = 2; }\n",
    );
    let out = dir.path().join("o");
    let o = oclhls(
        &[&src, "--kernel", "two", "-o", out.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(out.join("two.v").is_file());
    assert!(!out.join("one.v").exists());
    let o = oclhls(
        &[&src, "--kernel", "three", "-o", out.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("no kernel named `three`"), "{}", o.stderr);
    assert!(o.stderr.contains("one, two"), "{}", o.stderr);
}

#[test]
fn defines_reach_the_preprocessor() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "d.cl",
        "kernel void d(global int *o) { o[0] = VALUE; }\n",
    );
    let o = oclhls(&["check", &src], dir.path());
    assert_eq!(o.code, 1, "VALUE is undefined without -D");
    let o = oclhls(&["check", &src, "-D", "VALUE=3"], dir.path());
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn usage_errors_exit_2() {
    let o = oclhls(&["--no-such-flag"], &root());
    assert_eq!(o.code, 2);
    let o = oclhls(&[], &root());
    assert_eq!(o.code, 2);
    let o = oclhls(&[VADD, "--clock-mhz", "0"], &root());
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("--clock-mhz"));
}

#[test]
fn missing_file_is_a_clear_error() {
    let o = oclhls(&["does-not-exist.cl"], &root());
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("does-not-exist.cl"), "{}", o.stderr);
    let o = oclhls(&["check", "does-not-exist.cl"], &root());
    assert_eq!(o.code, 1);
    let o = oclhls(&["sim", "does-not-exist.cl"], &root());
    assert_eq!(o.code, 1);
}

#[test]
fn unsupported_constructs_are_spanned_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "loop.cl",
        // A union: valid OpenCL C that the hardware path does not build yet.
        "typedef union { int i; float f; } U;\nkernel void acc(global int *o) {\n  U u;\n  u.i = o[1];\n  o[0] = u.i;\n}\n",
    );
    let o = oclhls(
        &[&src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("not yet supported by the hardware path"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("loop.cl:3"), "{}", o.stderr);
    assert!(
        !dir.path().join("o/acc.v").exists(),
        "no output for a failed compile"
    );
    // The same program is valid OpenCL C.
    let o = oclhls(&["check", &src], dir.path());
    assert_eq!(o.code, 0, "{}", o.stderr);
}

#[test]
fn syntax_errors_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "bad.cl",
        "kernel void k(global int *o) {\n  o[0] = ;\n}\n",
    );
    let o = oclhls(&[&src], dir.path());
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("bad.cl:2"), "{}", o.stderr);
}

#[test]
fn ir_can_be_printed_after_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let o = oclhls(
        &[
            VADD,
            "-o",
            dir.path().to_str().unwrap(),
            "--print-ir-after",
            "dce",
        ],
        &root(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("; IR of `vadd` after dce"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("global_id(0)"));
    assert!(o.stdout.contains("store mem2"));
}

#[test]
fn sim_without_header_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "k.cl",
        "kernel void k(global int *o) { o[0] = 1; }\n",
    );
    let o = oclhls(&["sim", &src], dir.path());
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("no test vectors"), "{}", o.stderr);
}

#[test]
fn doctor_lists_every_tool() {
    let o = oclhls(&["doctor", "--offline"], &root());
    assert!(o.code == 0 || o.code == 1, "{}", o.stderr);
    assert!(o.stdout.contains("tool cache:"), "{}", o.stdout);
    for tool in [
        "verilator",
        "yosys",
        "nextpnr-ecp5",
        "ecppack",
        "sby",
        "yices-smt2",
        "openFPGALoader",
    ] {
        let line = o
            .stdout
            .lines()
            .find(|l| l.starts_with(tool))
            .unwrap_or_else(|| panic!("{tool} missing: {}", o.stdout));
        // Either a version and a path, or `missing` with how to get it.
        assert!(line.contains('/') || line.contains("missing"), "{line}");
    }
}

#[test]
fn pragma_unroll_needs_a_constant_trip_count() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "u.cl",
        "kernel void u(global const int *a, global int *o, int n) {\n  int s = 0;\n  #pragma unroll\n  for (int k = 0; k < n; k++) s += a[k];\n  o[0] = s;\n}\n",
    );
    let o = oclhls(
        &[&src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("compile-time constant"), "{}", o.stderr);
    assert!(o.stderr.contains("u.cl:4"), "{}", o.stderr);
}

#[test]
fn memories_kept_whole_say_why() {
    // Three loads per iteration at j, j + 1 and j + 2 with j stepping by 1: no access has a
    // fixed bank, so the memory stays whole, and the report, the summary and the loop's
    // `limited_by` point at the access.
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "win3.cl",
        "__attribute__((reqd_work_group_size(1, 1, 1)))\nkernel void win3(global const int *restrict in, global int *restrict out, int n) {\n  local int t[64];\n  for (int j = 0; j < n; j++) t[j] = in[j];\n  for (int j = 0; j < n - 2; j++) out[j] = t[j] + t[j + 1] * 2 + t[j + 2] * 3;\n}\n",
    );
    let out = dir.path().join("o");
    let o = oclhls(&[&src, "-o", out.to_str().unwrap()], dir.path());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("memory `t` (local, 64 x 32 bits): kept whole although win3.loop2 needs 2 cycles per iteration for its accesses (II goal 1)"),
        "{}",
        o.stdout
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let k = &report["kernels"][0];
    let m = &k["memories"][0];
    assert_eq!(m["partitioned"], "whole", "{m:#}");
    assert!(m["at"].as_str().unwrap().ends_with("win3.cl:5:44"), "{m:#}");
    let why = k["loops"][2]["limited_by"].as_str().unwrap();
    assert!(
        why.contains("read port of `t`")
            && why.contains("not banked: this index has no known residue modulo 2"),
        "{why}"
    );
}

/// A 600 KB line of random tokens: thousands of errors, of which the first 20 are printed,
/// each with its line clipped around the error, then how many more there were (the output
/// stays small however long the line; it used to print the whole line for every error).
#[test]
fn hostile_input_gives_bounded_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let toks = [
        "int", "x", "(", ")", "{", "}", ";", "+", "kernel", "void", "3", "=", "*",
    ];
    let mut line = String::new();
    let mut r: u32 = 7;
    while line.len() < 600_000 {
        r = r.wrapping_mul(1_103_515_245).wrapping_add(12345);
        line.push_str(toks[(r >> 16) as usize % toks.len()]);
        line.push(' ');
    }
    let src = write(dir.path(), "soup.cl", &line);
    let o = oclhls(&["check", &src], dir.path());
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.len() < 20_000,
        "{} bytes of output",
        o.stderr.len()
    );
    assert_eq!(o.stderr.matches("error:").count(), 20, "{}", o.stderr);
    assert!(o.stderr.contains("soup.cl:1:"), "{}", o.stderr);
    assert!(o.stderr.contains("more error(s)"), "{}", o.stderr);
    assert!(o.stderr.contains('…'), "{}", o.stderr);
    let all = oclhls(&["check", &src, "--error-limit", "0"], dir.path());
    assert!(all.stderr.matches("error:").count() > 20);
}

/// `oclhls ... | head`: when the reader closes the pipe early, the process ends quietly (as
/// other tools do) instead of panicking in `println!`.
#[test]
fn a_closed_output_pipe_ends_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let mut child = Command::new(env!("CARGO_BIN_EXE_oclhls"))
        .args([VADD, "-o", out.to_str().unwrap(), "--print-ir-after", "all"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("; IR of `vadd`"), "{first}");
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Compiles `src` (file `n.cl`) and returns the output and report.json.
fn compile_with_report(src: &str) -> (common::Output, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "n.cl", src);
    let out = dir.path().join("o");
    let o = oclhls(&[&f, "-o", out.to_str().unwrap()], dir.path());
    let report = std::fs::read_to_string(out.join("report.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(serde_json::Value::Null);
    (o, report)
}

fn loop_named<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["kernels"][0]["loops"]
        .as_array()
        .and_then(|ls| ls.iter().find(|l| l["name"] == name))
        .unwrap_or_else(|| panic!("no loop {name} in {report}"))
}

const RECT: &str = "kernel void r(global const int *restrict a, global int *restrict o, int m, int n) {\n  PRAGMA\n  for (int i = 0; i < m; i++)\n    for (int j = 0; j < n; j++)\n      o[i * n + j] = a[i * n + j] + i;\n}\n";

#[test]
fn perfect_nests_are_flattened_and_say_so() {
    let (o, report) = compile_with_report(&RECT.replace("PRAGMA", ""));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let l = loop_named(&report, "r.loop1");
    assert_eq!(l["flattened"], serde_json::json!([4]), "{report}");
    assert_eq!(l["ii"], 1, "{report}");
    assert_eq!(report["kernels"][0]["loops"].as_array().unwrap().len(), 2);
    assert!(
        o.stdout.contains("flattened with the loop(s) at line 4"),
        "{}",
        o.stdout
    );
    // The bursts of a row stay: the outer counter does not change within a row.
    assert!(o.stdout.contains("burst of up to 32 beats"), "{}", o.stdout);
}

#[test]
fn loop_flatten_off_keeps_the_nest() {
    for off in ["#pragma loop_flatten off", "#pragma HLS loop_flatten off"] {
        let (o, report) = compile_with_report(&RECT.replace("PRAGMA", off));
        assert_eq!(o.code, 0, "{}", o.stderr);
        assert_eq!(report["kernels"][0]["loops"].as_array().unwrap().len(), 3);
        assert_eq!(
            loop_named(&report, "r.loop1")["flattened"],
            serde_json::json!([])
        );
    }
}

#[test]
fn requested_ii_is_honoured_or_explained() {
    for ii in ["#pragma ii 3", "#pragma HLS pipeline II=3"] {
        let (o, report) = compile_with_report(&RECT.replace("PRAGMA", ii));
        assert_eq!(o.code, 0, "{}", o.stderr);
        let l = loop_named(&report, "r.loop1");
        assert_eq!(l["ii"], 3, "{report}");
        assert!(
            l["limited_by"].as_str().unwrap().contains("asks for (3"),
            "{report}"
        );
    }
    // Below what the loop needs: a warning at the loop, and the II it can have.
    let src = "kernel void s(global float *restrict a, int n) {\n  float x = 0.0f;\n  #pragma ii 1\n  for (int i = 0; i < n; i++)\n    x = x * 0.5f + a[i];\n  a[0] = x;\n}\n";
    let (o, report) = compile_with_report(src);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("n.cl:4"), "{}", o.stderr);
    assert!(
        o.stderr.contains("II of 1 asked for is not reached"),
        "{}",
        o.stderr
    );
    assert!(loop_named(&report, "s.loop1")["ii"].as_u64().unwrap() > 1);
}

#[test]
fn loop_pragmas_that_cannot_be_honoured_warn() {
    // Two loops inside the outer one: not a nest that flattens.
    let src = "kernel void c(global int *o, int n) {\n  #pragma loop_coalesce\n  for (int i = 0; i < n; i++) {\n    for (int j = 0; j < n; j++) o[j] += i;\n    for (int j = 0; j < n; j++) o[j] -= 1;\n  }\n  #pragma speculated_iterations 2\n  for (int k = 0; k < n; k++) o[k] += 1;\n}\n";
    let (o, _) = compile_with_report(src);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("`#pragma loop_coalesce` is not honoured"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("exactly one loop"), "{}", o.stderr);
    assert!(
        o.stderr
            .contains("`#pragma speculated_iterations 2` is not honoured"),
        "{}",
        o.stderr
    );
    let bad = "kernel void b(global int *o) {\n  #pragma ii 0\n  for (int k = 0; k < 4; k++) o[k] = 1;\n}\n";
    let (o, _) = compile_with_report(bad);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("n.cl:2"), "{}", o.stderr);
    assert!(
        o.stderr.contains("needs a positive integer"),
        "{}",
        o.stderr
    );
}
