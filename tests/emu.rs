//! The emulator corpus: every kernel file under tests/emu/, tests/kernels/ and examples/ runs
//! its own test vectors on the reference emulator (`oclhls emu`), and every file under
//! tests/emu/errors/ must fail with the diagnostics its `// EXPECT:` lines name (an
//! `// ARGS:` line adds command-line options). Expected values in the files are computed
//! independently of the emulator (by hand or with a short script; see each file).

mod common;

use common::{oclhls, root, write};
use std::path::Path;

/// The `.cl` files of a directory of the repository, sorted.
fn cl_files(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    v.sort();
    v
}

fn has_header(file: &str) -> bool {
    std::fs::read_to_string(root().join(file))
        .unwrap()
        .contains("/*!")
}

#[test]
fn corpus_passes_on_the_emulator() {
    let mut files = cl_files("tests/emu");
    files.extend(cl_files("tests/kernels"));
    files.extend(cl_files("examples").into_iter().filter(|f| has_header(f)));
    assert!(files.len() >= 20, "the corpus shrank: {files:?}");
    let mut failures = Vec::new();
    for f in &files {
        let o = oclhls(&["emu", f], &root());
        let ok = o.code == 0
            && o.stdout.contains(" 0 failed")
            && !o
                .stdout
                .lines()
                .last()
                .unwrap_or("")
                .starts_with("0 passed");
        if !ok {
            failures.push(format!("{f} (exit {}):\n{}{}", o.code, o.stdout, o.stderr));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn runtime_errors_are_reported_with_spans() {
    let files = cl_files("tests/emu/errors");
    assert!(files.len() >= 8, "{files:?}");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(root().join(f)).unwrap();
        let expects: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("// EXPECT: "))
            .collect();
        assert!(!expects.is_empty(), "{f} has no `// EXPECT:` line");
        let mut args = vec!["emu", f.as_str()];
        if let Some(extra) = text.lines().find_map(|l| l.strip_prefix("// ARGS: ")) {
            args.extend(extra.split_whitespace());
        }
        let o = oclhls(&args, &root());
        if o.code != 1 || !o.stdout.contains("0 passed, 1 failed") {
            failures.push(format!("{f}: exit {}\n{}{}", o.code, o.stdout, o.stderr));
            continue;
        }
        for e in expects {
            if !o.stdout.contains(e) {
                failures.push(format!("{f}: missing `{e}` in\n{}", o.stdout));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn other_seeds_give_the_same_results() {
    for seed in ["2", "77"] {
        let o = oclhls(
            &["emu", "tests/emu/pipes_concurrent.cl", "--seed", seed],
            &root(),
        );
        assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("3 passed, 0 failed"), "{}", o.stdout);
    }
}

#[test]
fn usage_and_compile_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = common::write(
        dir.path(),
        "bad.cl",
        "/*!\n[config]\n[test]\nkernel_name: k\narg_out: 0 buffer int[1] 1\n!*/\nkernel void k(global int *o) { o[0] = ; }\n",
    );
    let o = oclhls(&["emu", &bad], Path::new("."));
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("error"), "{}", o.stderr);
    let header = common::write(
        dir.path(),
        "header.cl",
        "/*!\n[config]\n[test]\nlaunch: k 4\narg: k 0 nowhere\n!*/\nkernel void k(global int *o) { }\n",
    );
    let o = oclhls(&["emu", &header], Path::new("."));
    assert_eq!(o.code, 2, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stderr
            .contains("header.cl:5: `nowhere` is not a buffer or pipe of this test"),
        "{}",
        o.stderr
    );
    let o = oclhls(&["emu", &header, "--no-such-flag"], Path::new("."));
    assert_eq!(o.code, 2);
}

/// A test whose last expected value is wrong.
const WRONG_EXPECTATION: &str = "/*!\n[config]\n[test]\nname: off by one\nkernel_name: k\n\
    global_size: 4 0 0\narg_out: 0 buffer int[4] 0 1 2 4\n!*/\n\
    kernel void k(global int *o) { o[get_global_id(0)] = get_global_id(0); }\n";

#[test]
fn a_wrong_expected_value_fails_with_the_first_difference() {
    let dir = tempfile::tempdir().unwrap();
    let f = common::write(dir.path(), "wrong.cl", WRONG_EXPECTATION);
    let o = oclhls(&["emu", &f], Path::new("."));
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stdout
            .contains("FAIL off by one: argument 0 (`o`, line 7): int[3]: expected 4"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("0 passed, 1 failed"), "{}", o.stdout);
}

#[test]
fn sim_compares_verilator_with_the_emulator() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rtl");
    let o = oclhls(
        &[
            "sim",
            "tests/kernels/widths.cl",
            "-o",
            out.to_str().unwrap(),
        ],
        &root(),
    );
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("; the emulator agrees)"), "{}", o.stdout);
    // a wrong expectation: both Verilator and the emulator report it
    let f = common::write(dir.path(), "wrong.cl", WRONG_EXPECTATION);
    let out2 = dir.path().join("rtl2");
    let o = oclhls(&["sim", &f, "-o", out2.to_str().unwrap()], &root());
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains(
            "int[3]: expected 4 (0x00000004), got 3 (0x00000003)\n  emulator: argument 0"
        ),
        "{}",
        o.stdout
    );
}

#[test]
fn sim_runs_multi_kernel_tests_and_skips_what_it_cannot_build() {
    // Multi-kernel tests run as a system in Verilator; each builds only the kernels it
    // launches, so one test with a kernel the hardware path cannot build yet (a union is not
    // built in hardware) is a skip with the reason while the others run.
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "skip.cl", MULTI_KERNEL_SKIP);
    let out = dir.path().join("rtl");
    let o = oclhls(&["sim", &f, "-o", out.to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains(
            "SKIP a union is not built in hardware: the hardware path cannot build this kernel \
             yet (a union"
        ),
        "{}{}",
        o.stdout,
        o.stderr
    );
    assert!(
        o.stdout.contains("PASS squares through a pipe"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("1 passed, 0 failed, 1 skipped"),
        "{}",
        o.stdout
    );
}

/// A producer feeding one of two consumers per test; the second consumer uses a union.
const MULTI_KERNEL_SKIP: &str = r#"/*!
[config]
name: one buildable system, one with a kernel the hardware path cannot build

[test]
name: squares through a pipe
launch: src 1
launch: sq 1
pipe:   p uint 2
buffer: dst uint[4] repeat 0
arg: src 0 p
arg: sq 0 p
arg: sq 1 dst
expect: dst uint[4] 0 1 4 9

[test]
name: a union is not built in hardware
launch: src 1
launch: ex 1
pipe:   p uint 2
buffer: dst float[4] repeat 0
arg: src 0 p
arg: ex 0 p
arg: ex 1 dst
expect: dst float[4] 0 1 2 3
!*/
kernel void src(write_only pipe uint out __attribute__((blocking))) {
  for (uint i = 0; i < 4; i++)
    write_pipe(out, &i);
}

kernel void sq(read_only pipe uint in __attribute__((blocking)), global uint *dst) {
  for (uint i = 0; i < 4; i++) {
    uint v;
    read_pipe(in, &v);
    dst[i] = v * v;
  }
}

kernel void ex(read_only pipe uint in __attribute__((blocking)), global float *dst) {
  for (uint i = 0; i < 4; i++) {
    uint v;
    read_pipe(in, &v);
    union {
      float f;
      uint u;
    } w;
    w.u = v;
    dst[i] = (float)w.u;
  }
}
"#;

#[test]
fn sim_skips_what_the_hardware_path_cannot_build_yet() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rtl");
    let o = oclhls(
        &["sim", "tests/emu/structs.cl", "-o", out.to_str().unwrap()],
        &root(),
    );
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains(
            "SKIP layout, copies, member access through pointers: the hardware path cannot \
             build this kernel yet (a union is not yet supported by the hardware path); the \
             emulator passes it"
        ),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("0 passed, 0 failed, 1 skipped"),
        "{}",
        o.stdout
    );
}

#[test]
fn printf_output_is_captured_and_shown() {
    let o = oclhls(&["emu", "tests/emu/printf.cl"], &root());
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    for line in [
        "printf: item 0:    -7 0xfffffff9 ok 0.00 0.5,-1.25,100,3",
        "printf: item 1:   255 0xff ok 2.50 0.5,-1.25,100,3",
    ] {
        assert!(
            o.stdout.contains(line),
            "missing `{line}` in:\n{}",
            o.stdout
        );
    }
}

#[test]
fn xilinx_blocking_pipe_builtins() {
    let o = oclhls(&["emu", "tests/emu/pipes_block.cl"], &root());
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("1 passed, 0 failed"), "{}", o.stdout);
}
