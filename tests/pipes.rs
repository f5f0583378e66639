//! Streaming systems in hardware: every multi-kernel test file below runs with `oclhls sim`,
//! which builds the test's system top (all kernels live at once, one FIFO per pipe) in
//! Verilator and checks the buffers against the expected values, which the emulator must meet
//! too. The generated system tops must be lint-clean (`verilator --lint-only -Wall`, no
//! waivers) and pass Yosys `synth_ecp5` with `check -assert`. Expected values in the files are
//! computed by hand.

mod common;

use common::{oclhls, root};
use std::path::Path;

/// Runs every test of `file` in Verilator (hostile memory unless `extra` says otherwise);
/// returns the output directory (kept alive by the returned guard).
fn sim(file: &str, extra: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rtl");
    let mut args = vec!["sim", file, "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = oclhls(&args, &root());
    assert_eq!(o.code, 0, "{file}:\n{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains(" 0 failed"), "{}", o.stdout);
    assert!(!o.stdout.contains("SKIP"), "{}", o.stdout);
    assert!(!o.stdout.contains("0 passed"), "{}", o.stdout);
    lint_systems(&out.join("systems"));
    dir
}

/// `verilator --lint-only -Wall` on every system top of a run, with all the modules it uses.
fn lint_systems(dir: &Path) {
    let tc = toolchain::Toolchain::new(false);
    let v = tc
        .locate(toolchain::Tool::Verilator)
        .expect("verilator is available");
    let mut tops = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        let Some(module) = name.strip_prefix("system_").and(name.strip_suffix(".v")) else {
            continue;
        };
        tops += 1;
        let out = tc
            .command(&v)
            .current_dir(dir)
            .args([
                "--lint-only",
                "-Wall",
                "--top-module",
                module,
                "-y",
                "..",
                "-y",
                ".",
            ])
            .arg(&name)
            .output()
            .expect("verilator runs");
        assert!(
            out.status.success(),
            "lint of {module}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(tops > 0, "no system top in {}", dir.display());
}

#[test]
fn chain_of_three_kernels_with_retry_loops() {
    let dir = sim("tests/pipes/chain3.cl", &[]);
    // The system synthesises for ECP5 and passes `check -assert`.
    let sys = dir.path().join("rtl/systems");
    let tc = toolchain::Toolchain::new(false);
    let top = std::fs::read_dir(&sys)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .find(|n| n.starts_with("system_"))
        .unwrap();
    let module = top.trim_end_matches(".v").to_string();
    let mut files: Vec<std::path::PathBuf> = vec![sys.join(&top)];
    for f in ["oclhls_fifo.v", "oclhls_pipe_fifo_plain.v"] {
        files.push(sys.join(f));
    }
    // The kernels' other support modules (write combining of bursting ports, ...).
    for e in std::fs::read_dir(dir.path().join("rtl")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("oclhls_") && name.ends_with(".v") && name != "oclhls_fifo.v" {
            files.push(p);
        }
    }
    for k in ["source", "scale", "sink"] {
        files.push(dir.path().join(format!("rtl/{k}.v")));
    }
    let opts = board_support::flow::SynthOptions::new(dir.path().join("synth"));
    let r = board_support::flow::synth(&tc, &files, &module, &opts)
        .unwrap_or_else(|e| panic!("synth_ecp5 of {module}: {e}"));
    assert!(
        r.luts() > 0 && r.ffs() > 0,
        "{module} synthesised to nothing"
    );
}

#[test]
fn fan_out_and_fan_in() {
    sim("tests/pipes/fan.cl", &[]);
}

#[test]
fn queries_and_retried_reservations() {
    sim("tests/pipes/queries.cl", &[]);
}

#[test]
fn blocking_xilinx_forms() {
    sim("tests/emu/pipes_block.cl", &[]);
}

#[test]
fn xilinx_program_scope_pipe() {
    sim("tests/emu/xilinx_pipes.cl", &[]);
}

#[test]
fn work_group_reservations_and_retry_loops() {
    sim("tests/emu/pipes_concurrent.cl", &[]);
}

#[test]
fn ambiguous_topology_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(
        dir.path(),
        "two.cl",
        "kernel void a(write_only pipe int p) { int v = 1; write_pipe_block(p, &v); }\n\
         kernel void b(write_only pipe int p) { int v = 2; write_pipe_block(p, &v); }\n\
         kernel void c(read_only pipe int p, global int *d) { int v; read_pipe_block(p, &v); d[0] = v; }\n",
    );
    let out = dir.path().join("out");
    let o = oclhls(&[&src, "-o", out.to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("2 writer(s)") && o.stderr.contains("--system TEST_NAME"),
        "{}",
        o.stderr
    );
    assert!(!out.join("two_system.v").exists());
}

#[test]
fn inferred_system_top() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(
        dir.path(),
        "pair.cl",
        "kernel void a(write_only pipe int p) { int v = 1; write_pipe_block(p, &v); }\n\
         kernel void c(read_only pipe int p, global int *d) { int v; read_pipe_block(p, &v); d[0] = v; }\n",
    );
    let out = dir.path().join("out");
    let o = oclhls(&[&src, "-o", out.to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("pipe a_p_to_c_p: a -> c, 16 packets of 32 bits"),
        "{}",
        o.stdout
    );
    let top = std::fs::read_to_string(out.join("pair_system.v")).unwrap();
    assert!(top.contains("oclhls_pipe_fifo_plain #(.WIDTH(32), .DEPTH(16)) fifo_a_p_to_c_p"));
    assert!(top.contains("u_a (") && top.contains("u_c ("));
}

#[test]
fn pipes_tutorial_with_int_packets() {
    // Per-work-item reservations, and one reservation per work-group shared through a
    // `local reserve_id_t` after a barrier, every work-item committing it (the tutorial's code).
    sim("tests/pipes/tutorial_int.cl", &[]);
}

#[test]
fn three_kernels_and_blocking_arguments() {
    // Its struct-packet test is a skip until struct packets are built, so only the filter.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rtl");
    for filter in ["generate, square", "blocking pipe arguments"] {
        let o = oclhls(
            &[
                "sim",
                "tests/emu/pipeline3.cl",
                "-o",
                out.to_str().unwrap(),
                "--filter",
                filter,
            ],
            &root(),
        );
        assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("1 passed, 0 failed"), "{}", o.stdout);
    }
    lint_systems(&out.join("systems"));
}

#[test]
fn struct_and_vector_packets() {
    sim("tests/pipes/packets.cl", &[]);
}

#[test]
fn seed_example_16384_floats() {
    // The pipes tutorial's host code: 16384 floats, groups of 128, per-work-item and
    // per-work-group reservations, the consumer after the producer.
    sim("tests/pipes/seed_tutorial.cl", &[]);
}

#[test]
fn deadlock_is_reported_with_pipe_fill_and_waiting_kernels() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(dir.path(), "dead.cl", DEADLOCK);
    let out = dir.path().join("rtl");
    let o = oclhls(
        &[
            "sim",
            &src,
            "-o",
            out.to_str().unwrap(),
            "--deadlock-cycles",
            "500",
        ],
        &root(),
    );
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    for want in [
        "nothing progressed for 500 cycles",
        "`prod`: running since cycle 0; waiting to write pipe `p` (full, 4 of 4 packets)",
        "`cons`: not started, waiting for `prod` to finish",
        "emulator: error: deadlock: every running kernel is blocked",
    ] {
        assert!(
            o.stdout.contains(want),
            "missing `{want}` in:\n{}",
            o.stdout
        );
    }
}

/// A producer of 10 packets into a pipe of 4, and a consumer that starts only after it.
const DEADLOCK: &str = r#"/*!
[config]
name: deadlock

[test]
name: consumer waits for a producer that cannot finish
launch: prod 1
launch: cons 1 after prod
pipe:   p int 4
buffer: dst int[10] repeat 0
arg: prod 0 p
arg: cons 0 p
arg: cons 1 dst
expect: dst int[10] iota 0 1
!*/
kernel void prod(write_only pipe int p)
{
    for (int i = 0; i < 10; i++)
        write_pipe_block(p, &i);
}
kernel void cons(read_only pipe int p, global int *dst)
{
    for (int i = 0; i < 10; i++)
        read_pipe_block(p, &dst[i]);
}
"#;

#[test]
fn blocking_reservation_with_plain_access_is_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(
        dir.path(),
        "mix.cl",
        "kernel void k(write_only pipe int p __attribute__((blocking)))\n\
         {\n    reserve_id_t r = reserve_write_pipe(p, 1);\n    int v = 1;\n\
         \x20   write_pipe(p, &v);\n    commit_write_pipe(p, r);\n}\n",
    );
    let out = dir.path().join("out");
    let o = oclhls(&[&src, "-o", out.to_str().unwrap()], &root());
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("mix.cl:5:") && o.stderr.contains("a blocking reservation and a plain"),
        "{}",
        o.stderr
    );
}

#[test]
fn reservation_table_size_is_an_option_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(
        dir.path(),
        "res.cl",
        "kernel void k(write_only pipe int p, global const int *s)\n{\n\
         \x20   reserve_id_t r = reserve_write_pipe(p, 1);\n    int v = s[get_global_id(0)];\n\
         \x20   if (is_valid_reserve_id(r)) {\n        write_pipe(p, r, 0, &v);\n\
         \x20       commit_write_pipe(p, r);\n    }\n}\n",
    );
    let out = dir.path().join("out");
    let o = oclhls(
        &[
            &src,
            "-o",
            out.to_str().unwrap(),
            "--pipe-reservations",
            "8",
        ],
        &root(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["pipe_max_active_reservations"], 8);
    assert_eq!(
        report["kernels"][0]["interface"]["pipes"][0]["max_reservations"],
        8
    );
    // Eight table entries: 3-bit reservation ids on the kernel's ports.
    let v = std::fs::read_to_string(out.join("k.v")).unwrap();
    assert!(v.contains("output wire [2:0] p_wr_slot_id"), "{v}");
    let bad = oclhls(
        &[
            &src,
            "-o",
            out.to_str().unwrap(),
            "--pipe-reservations",
            "0",
        ],
        &root(),
    );
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}

#[test]
fn reservation_table_help_states_the_contract() {
    // The `--pipe-reservations` help is a doc comment; it must say the contract's numbers.
    let o = oclhls(&["--help"], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    let help = o.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    let range = hwcontract::pipe::MAX_RESERVATIONS_RANGE;
    let want = format!(
        "{} to {}; default {}",
        range.start(),
        range.end(),
        hwcontract::pipe::DEFAULT_MAX_RESERVATIONS
    );
    assert!(help.contains(&want), "`{want}` not in:\n{}", o.stdout);
}

/// `xcl_reqd_pipe_depth(1)`: the FIFO holds `hwcontract::pipe::effective_depth(Some(1))` = 2
/// packets, and the emulator's pipe as many (`oclhls sim` checks both against the expected
/// values): non-blocking writes succeed twice, `get_pipe_max_packets` says 2, the reader finds
/// 2 packets.
#[test]
fn program_scope_pipe_depth_is_the_same_in_emulator_and_hardware() {
    let depth = hwcontract::pipe::effective_depth(Some(1));
    assert_eq!(depth, 2);
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(
        dir.path(),
        "depth1.cl",
        &format!(
            "/*!\n[config]\nname: a program-scope pipe of depth 1\n\n[test]\n\
             name: it holds {depth} packets\nlaunch: fill 1\nlaunch: drain 1 after fill\n\
             buffer: out int[3] repeat -1\narg: fill 0 out\narg: drain 0 out\n\
             expect: out int[3] {depth} {depth} {depth}\n!*/\n\
             pipe int gp __attribute__((xcl_reqd_pipe_depth(1)));\n\
             kernel void fill(global int *out) {{\n\
             \x20   int n = 0;\n\
             \x20   for (int i = 0; i < 5; i++) {{ int v = i; if (write_pipe(gp, &v) == 0) n++; }}\n\
             \x20   out[0] = n;\n\
             }}\n\
             kernel void drain(global int *out) {{\n\
             \x20   out[1] = (int)get_pipe_max_packets(gp);\n\
             \x20   int v, n = 0;\n\
             \x20   while (read_pipe(gp, &v) == 0) n++;\n\
             \x20   out[2] = n;\n\
             }}\n"
        ),
    );
    sim(&src, &[]);
}
