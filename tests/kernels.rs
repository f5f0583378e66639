//! The kernel corpus: every file under tests/kernels/ and examples/ runs its own test vectors
//! in Verilator (`oclhls sim`, memory with random latency and back-pressure), and its Verilog
//! must be lint-clean under `verilator --lint-only -Wall` and pass Yosys `check -assert` after
//! `synth_ecp5`. Expected values in the files are
//! computed by hand (see the comments in each file).

mod common;

use common::{oclhls, root, write};
use std::path::{Path, PathBuf};

/// Files of the corpus; `corpus_is_complete` fails when a file is added without a test here.
const CORPUS: &[&str] = &[
    "examples/vadd.cl",
    "tests/kernels/array_regs.cl",
    "tests/kernels/bit_histogram.cl",
    "tests/kernels/clamp_select.cl",
    "tests/kernels/compound_once.cl",
    "tests/kernels/even_sum.cl",
    "tests/kernels/find_first.cl",
    "tests/kernels/float_arith.cl",
    "tests/kernels/float_select.cl",
    "tests/kernels/fir4.cl",
    "tests/kernels/global_exchange.cl",
    "tests/kernels/group_sum.cl",
    "tests/kernels/ids_2d.cl",
    "tests/kernels/horner.cl",
    "tests/kernels/int4_ops.cl",
    "tests/kernels/ids_3d.cl",
    "tests/kernels/local_arg_sum.cl",
    "tests/kernels/nested_rows.cl",
    "tests/kernels/passthrough.cl",
    "tests/kernels/reverse_local.cl",
    "tests/kernels/rotate_group.cl",
    "tests/kernels/row_prefix.cl",
    "tests/kernels/rowsum.cl",
    "tests/kernels/saxpy_int.cl",
    "tests/kernels/scale_prefix.cl",
    "tests/kernels/struct_local.cl",
    "tests/kernels/struct_update.cl",
    "tests/kernels/sum_pairs.cl",
    "tests/kernels/tile_banks.cl",
    "tests/kernels/transpose_tile.cl",
    "tests/kernels/uchar4_pack.cl",
    "tests/kernels/unroll2_sum.cl",
    "tests/kernels/vec_accumulate.cl",
    "tests/kernels/widths.cl",
];

fn sim(file: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rtl");
    let mut args = vec!["sim", file, "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = oclhls(&args, &root());
    assert_eq!(o.code, 0, "{file}:\n{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains(" 0 failed"), "{}", o.stdout);
    assert!(!o.stdout.contains("0 passed"), "{}", o.stdout);
    lint(&out);
    synth_check(&out);
}

/// Yosys `synth_ecp5` with `check -assert` before and after synthesis, for every kernel.
fn synth_check(dir: &Path) {
    let tc = toolchain::Toolchain::new(false);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    for k in report["kernels"].as_array().unwrap() {
        let module = k["interface"]["module"].as_str().unwrap();
        let files: Vec<PathBuf> = std::iter::once(&k["verilog"])
            .chain(k["support_files"].as_array().unwrap())
            .map(|f| dir.join(f.as_str().unwrap()))
            .collect();
        let opts = board_support::flow::SynthOptions::new(dir.join(format!("synth-{module}")));
        let r = board_support::flow::synth(&tc, &files, module, &opts)
            .unwrap_or_else(|e| panic!("synth_ecp5 of {module}: {e}"));
        assert!(
            r.luts() > 0 && r.ffs() > 0,
            "{module} synthesised to nothing"
        );
    }
}

/// `verilator --lint-only -Wall` on every module a compile wrote, no waivers.
fn lint(dir: &Path) {
    let tc = toolchain::Toolchain::new(false);
    let v = tc
        .locate(toolchain::Tool::Verilator)
        .expect("verilator is available");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    for k in report["kernels"].as_array().unwrap() {
        let module = k["interface"]["module"].as_str().unwrap();
        let out = tc
            .command(&v)
            .current_dir(dir)
            .args(["--lint-only", "-Wall", "--top-module", module])
            .arg(k["verilog"].as_str().unwrap())
            .args(
                k["support_files"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap()),
            )
            .output()
            .expect("verilator runs");
        assert!(
            out.status.success(),
            "lint of {module}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn corpus_is_complete() {
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/kernels"))
        .unwrap()
        .map(|e| format!("tests/kernels/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".cl"))
        .collect();
    files.push("examples/vadd.cl".into());
    files.sort();
    let mut listed: Vec<String> = CORPUS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "add new kernel files to CORPUS and give them a #[test]"
    );
}

#[test]
fn vadd() {
    sim("examples/vadd.cl", &[]);
}

#[test]
fn vadd_hostile_memory() {
    // Long latencies and ready low most of the time: the pipeline must stall, never lose data.
    sim(
        "examples/vadd.cl",
        &["--stall-prob", "0.7", "--max-latency", "40", "--seed", "11"],
    );
}

#[test]
fn vadd_ideal_memory() {
    sim("examples/vadd.cl", &["--ideal-memory"]);
}

#[test]
fn clamp_select() {
    sim("tests/kernels/clamp_select.cl", &[]);
}

#[test]
fn ids_2d() {
    sim("tests/kernels/ids_2d.cl", &["--seed", "3"]);
}

#[test]
fn ids_3d() {
    sim("tests/kernels/ids_3d.cl", &["--seed", "9"]);
}

#[test]
fn saxpy_int() {
    sim("tests/kernels/saxpy_int.cl", &[]);
}

#[test]
fn sum_pairs() {
    sim("tests/kernels/sum_pairs.cl", &["--seed", "5"]);
}

#[test]
fn wrong_expectations_fail_and_name_the_element() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "wrong.cl",
        "/*!\n[config]\n[test]\nname: off by one\nkernel_name: inc\nglobal_size: 4 1 1\nlocal_size: 4 1 1\narg_in: 0 buffer int[4] 1 2 3 4\narg_out: 1 buffer int[4] 2 3 5 5\n!*/\nkernel void inc(global const int *a, global int *b) { size_t i = get_global_id(0); b[i] = a[i] + 1; }\n",
    );
    let o = oclhls(
        &["sim", &src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(o.stdout.contains("FAIL off by one"), "{}", o.stdout);
    assert!(
        o.stdout.contains("int[2]"),
        "names the first differing element: {}",
        o.stdout
    );
    assert!(o.stdout.contains("expected 5"), "{}", o.stdout);
    assert!(o.stdout.contains("got 4"), "{}", o.stdout);
    assert!(o.stdout.contains("0 passed, 1 failed"), "{}", o.stdout);
}

#[test]
fn widths() {
    sim("tests/kernels/widths.cl", &["--seed", "13"]);
}

#[test]
fn fir4() {
    sim("tests/kernels/fir4.cl", &["--seed", "17"]);
}

#[test]
fn expect_test_fail_inverts_only_output_mismatches() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "xfail.cl",
        "/*!\n[config]\n[test]\nname: known difference\nkernel_name: inc\nexpect_test_fail: true\nglobal_size: 4 1 1\nlocal_size: 4 1 1\narg_in: 0 buffer int[4] 1 2 3 4\narg_out: 1 buffer int[4] 2 3 4 6\n!*/\nkernel void inc(global const int *a, global int *b) { size_t i = get_global_id(0); b[i] = a[i] + 1; }\n",
    );
    let o = oclhls(
        &["sim", &src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 0, "{}", o.stdout);
    assert!(
        o.stdout
            .contains("PASS known difference (outputs differ as expected"),
        "{}",
        o.stdout
    );
    // All outputs right although a difference is expected: a failure.
    let src = write(
        dir.path(),
        "xfail2.cl",
        "/*!\n[config]\n[test]\nname: no difference\nkernel_name: inc\nexpect_test_fail: true\nglobal_size: 4 1 1\nlocal_size: 4 1 1\narg_in: 0 buffer int[4] 1 2 3 4\narg_out: 1 buffer int[4] 2 3 4 5\n!*/\nkernel void inc(global const int *a, global int *b) { size_t i = get_global_id(0); b[i] = a[i] + 1; }\n",
    );
    let o = oclhls(
        &["sim", &src, "-o", dir.path().join("o2").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(o.stdout.contains("FAIL no difference"), "{}", o.stdout);
}

#[test]
fn expect_build_fail() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "bf.cl",
        "/*!\n[config]\nname: undeclared\nexpect_build_fail: true\n!*/\nkernel void k(global int *o) { o[0] = nope; }\n",
    );
    let o = oclhls(
        &["sim", &src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("1 passed, 0 failed"), "{}", o.stdout);
}

// ---- loops pipelined inside the work-item loop

#[test]
fn rowsum() {
    sim("tests/kernels/rowsum.cl", &[]);
}

#[test]
fn rowsum_hostile_memory() {
    // Long and random latencies with heavy back-pressure: the loop's pipeline and the
    // work-item pipeline stall independently and must still agree on every result.
    sim(
        "tests/kernels/rowsum.cl",
        &["--stall-prob", "0.6", "--max-latency", "30", "--seed", "7"],
    );
}

#[test]
fn find_first() {
    sim("tests/kernels/find_first.cl", &[]);
}

#[test]
fn nested_rows() {
    sim("tests/kernels/nested_rows.cl", &[]);
}

#[test]
fn even_sum() {
    sim("tests/kernels/even_sum.cl", &[]);
}

#[test]
fn horner() {
    sim("tests/kernels/horner.cl", &[]);
}

#[test]
fn row_prefix_shared_ports() {
    sim("tests/kernels/row_prefix.cl", &[]);
    sim(
        "tests/kernels/row_prefix.cl",
        &["--stall-prob", "0.7", "--max-latency", "40", "--seed", "3"],
    );
}

// ---- on-chip memories (private and local arrays)

#[test]
fn bit_histogram() {
    sim("tests/kernels/bit_histogram.cl", &[]);
}

#[test]
fn reverse_local() {
    sim("tests/kernels/reverse_local.cl", &[]);
}

/// `report.json` of compiling `file`.
fn report_of(file: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let o = oclhls(&[file, "-o", dir.path().to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap()
}

#[test]
fn arrays_in_registers() {
    // Arrays indexed by constants become values: no memory makes the work-items run one at a
    // time, and the window carried by the row loop does not limit its II; a `local` array of
    // a kernel with barriers is carried through the phases.
    sim("tests/kernels/array_regs.cl", &["--seed", "21"]);
    let report = report_of("tests/kernels/array_regs.cl");
    assert_eq!(report["kernels"][2]["memories"][0]["name"], "ends");
    assert_eq!(
        report["kernels"][2]["memories"][0]["partitioned"],
        "registers"
    );
    for (k, arr) in [(0, "v"), (1, "w")] {
        let kernel = &report["kernels"][k];
        let mem = &kernel["memories"][0];
        assert_eq!(mem["name"], arr, "{mem:#}");
        assert_eq!(mem["partitioned"], "registers", "{mem:#}");
        for l in kernel["loops"].as_array().unwrap() {
            assert_eq!(l["ii"], 1, "{l:#}");
        }
    }
}

#[test]
fn local_tile_in_banks() {
    // Four loads and four stores per iteration: src in 2 banks, dst in 4, the loop at II 1;
    // the loops indexing with j reach every bank. Slow memory with back-pressure.
    sim(
        "tests/kernels/tile_banks.cl",
        &["--stall-prob", "0.5", "--max-latency", "9", "--seed", "6"],
    );
    let report = report_of("tests/kernels/tile_banks.cl");
    let kernel = &report["kernels"][0];
    let mems = kernel["memories"].as_array().unwrap();
    let banks = |name: &str| {
        let m = mems.iter().find(|m| m["name"] == name).unwrap();
        assert_eq!(m["partitioned"], "banks", "{m:#}");
        let l = &m["port_limited_loops"][0];
        assert_eq!(l["name"], "tile_banks.loop2", "{m:#}");
        assert_eq!(l["slots_banked"], 1, "{m:#}");
        m["banks"].as_array().unwrap().len()
    };
    assert_eq!((banks("src"), banks("dst")), (2, 4));
    assert_eq!(kernel["loops"][2]["ii"], 1, "{:#}", kernel["loops"][2]);
}

// ---- barriers: work-groups walked one at a time, code between barriers as phases

#[test]
fn group_sum() {
    sim("tests/kernels/group_sum.cl", &[]);
}

#[test]
fn rotate_group() {
    sim("tests/kernels/rotate_group.cl", &[]);
}

#[test]
fn transpose_tile() {
    sim("tests/kernels/transpose_tile.cl", &[]);
}

#[test]
fn work_groups_larger_than_the_hardware_holds_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "big.cl",
        "/*!\n[config]\n[test]\nname: one group of 512\nkernel_name: k\nglobal_size: 512 1 1\nlocal_size: 512 1 1\narg_out: 0 buffer int[512] repeat 0\n\n[test]\nname: wrong reqd size\nkernel_name: r\nglobal_size: 8 1 1\nlocal_size: 8 1 1\narg_out: 0 buffer int[8] repeat 0\n!*/\nkernel void k(global int *o) { local int t[512]; t[get_local_id(0)] = 0; barrier(CLK_LOCAL_MEM_FENCE); o[get_global_id(0)] = t[0]; }\n__attribute__((reqd_work_group_size(4, 1, 1))) kernel void r(global int *o) { o[get_global_id(0)] = 0; }\n",
    );
    let o = oclhls(
        &["sim", &src, "-o", dir.path().join("o").to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("at most 256 work-items"), "{}", o.stdout);
    assert!(
        o.stdout.contains("CL_INVALID_WORK_GROUP_SIZE"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("0 passed, 2 failed"), "{}", o.stdout);
}

#[test]
fn scale_prefix() {
    // Exact dependence distances from the affine analysis: the in-place loop runs at II 1,
    // the running sum at the II its distance-1 recurrence allows.
    sim("tests/kernels/scale_prefix.cl", &[]);
    let report = report_of("tests/kernels/scale_prefix.cl");
    let loops = report["kernels"][0]["loops"].as_array().unwrap();
    assert_eq!(loops[2]["ii"], 1, "{:#}", loops[2]);
    assert_eq!(loops[2]["memory_dependences"].as_array().unwrap().len(), 0);
    let deps = loops[3]["memory_dependences"].as_array().unwrap();
    assert_eq!(deps.len(), 1, "{:#}", loops[3]);
    assert!(
        deps[0].as_str().unwrap().contains("distance 1: exact"),
        "{deps:?}"
    );
}

#[test]
fn unroll2_sum() {
    sim("tests/kernels/unroll2_sum.cl", &[]);
}

#[test]
fn global_exchange() {
    // Phases talk through global memory: the barrier waits for the writes' acknowledgements,
    // here with slow, random memory.
    sim(
        "tests/kernels/global_exchange.cl",
        &["--stall-prob", "0.5", "--max-latency", "20"],
    );
}

// ---- floats, vectors and structs as bit vectors

#[test]
fn compound_once() {
    // `v[k++] += x`: the index expression runs once (it ran twice, writing past the array).
    sim("tests/kernels/compound_once.cl", &[]);
}

#[test]
fn float_arith() {
    // Float units: add/sub/mul/div/sqrt, compares, conversions, fmin/fmax/fabs, a float sum.
    sim("tests/kernels/float_arith.cl", &[]);
}

#[test]
fn float_select() {
    sim("tests/kernels/float_select.cl", &[]);
}

#[test]
fn int4_ops() {
    sim("tests/kernels/int4_ops.cl", &[]);
}

#[test]
fn uchar4_pack() {
    sim("tests/kernels/uchar4_pack.cl", &[]);
}

#[test]
fn struct_update() {
    // A 192-bit port with a byte strobe; slow memory with back-pressure.
    sim(
        "tests/kernels/struct_update.cl",
        &["--stall-prob", "0.5", "--max-latency", "12", "--seed", "4"],
    );
}

#[test]
fn passthrough() {
    sim("tests/kernels/passthrough.cl", &[]);
}

#[test]
fn vec_accumulate() {
    sim("tests/kernels/vec_accumulate.cl", &[]);
}

#[test]
fn struct_local() {
    sim("tests/kernels/struct_local.cl", &["--seed", "8"]);
}

// ---- the benchmark kernels (bench/kernels/) are tests too: Verilator, emulator, lint, synth

#[test]
fn bench_kernels() {
    let mut files: Vec<String> = std::fs::read_dir(root().join("bench/kernels"))
        .unwrap()
        .map(|e| format!("bench/kernels/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for f in &files {
        sim(f, &[]);
    }
}

#[test]
fn local_pointer_argument() {
    sim("tests/kernels/local_arg_sum.cl", &[]);
}

#[test]
fn local_pointer_argument_larger_than_the_hardware_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("tests/kernels/local_arg_sum.cl"))
        .unwrap()
        .replace("arg_in:  2 local int[16]", "arg_in:  2 local int[32]");
    let src = write(dir.path(), "big.cl", &text);
    let out = dir.path().join("rtl");
    let o = oclhls(&["sim", &src, "-o", out.to_str().unwrap()], &root());
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(
        o.stdout.contains(
            "asks for 128 bytes of local memory; the hardware holds 64 (give the argument \
             `__attribute__((local_mem_size(128)))`)"
        ),
        "{}",
        o.stdout
    );
}
