//! The kernel corpus: every file under `tests/kernels/`, `bench/kernels/` and `examples/` is
//! found by glob and runs its own test vectors in Verilator (`oclhls sim`, memory with random
//! latency and back-pressure; the emulator and the IR interpreter judge the same tests), and
//! its Verilog must be lint-clean under `verilator --lint-only -Wall` and pass Yosys
//! `check -assert` after `synth_ecp5`. Expected values in the files are computed by hand (see
//! the comments in each file). Adding a kernel to the corpus is adding a file.
//!
//! A file runs once with the default memory model, or as its `// corpus-sim: ARGS` line says;
//! each `// corpus-sim NAME: ARGS` line adds a run (trial `<dir>/<stem>_NAME`), e.g. with hostile
//! memory. The trials after the corpus check what the files alone cannot (reports, failures).
//! A `// corpus-synth: skip (REASON)` line leaves out the Yosys run for a file whose synthesis
//! takes minutes (the float math built-ins: dozens of float units per kernel); it is still
//! linted. Their synthesis is measured by the kernel benchmark instead.
//!
//! A libtest-mimic harness (`harness = false`) so that every file is a test of its own, run
//! in parallel and selected by name like any `#[test]`.

mod common;

use common::{oclhls, root, write};
use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};

/// The folders whose `.cl` files make the corpus.
const CORPUS_DIRS: &[&str] = &[
    "examples",
    "tests/kernels",
    "bench/kernels",
    "tests/fuzz-regressions",
];

fn main() {
    let args = Arguments::from_args();
    let mut trials = corpus_trials();
    let named: [(&str, fn()); 11] = [
        (
            "wrong_expectations_fail_and_name_the_element",
            wrong_expectations_fail_and_name_the_element,
        ),
        (
            "expect_test_fail_inverts_only_output_mismatches",
            expect_test_fail_inverts_only_output_mismatches,
        ),
        ("expect_build_fail", expect_build_fail),
        (
            "work_groups_larger_than_the_hardware_holds_are_refused",
            work_groups_larger_than_the_hardware_holds_are_refused,
        ),
        (
            "local_pointer_argument_larger_than_the_hardware_is_refused",
            local_pointer_argument_larger_than_the_hardware_is_refused,
        ),
        ("arrays_in_registers", arrays_in_registers),
        ("local_tile_in_banks", local_tile_in_banks),
        ("scale_prefix_distances", scale_prefix_distances),
        ("counter_unroll_at_ii_1", counter_unroll_at_ii_1),
        ("local_histogram_at_ii_1", local_histogram_at_ii_1),
        (
            "counter_shared_by_kernels_running_at_once",
            counter_shared_by_kernels_running_at_once,
        ),
    ];
    trials.extend(named.into_iter().map(|(name, f)| {
        Trial::test(name, move || {
            f();
            Ok(())
        })
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// One trial per run of every corpus file (see the crate doc for `corpus-sim` lines).
fn corpus_trials() -> Vec<Trial> {
    let mut files: Vec<String> = CORPUS_DIRS
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root().join(d))
                .unwrap_or_else(|e| panic!("{d}: {e}"))
                .map(move |e| format!("{d}/{}", e.unwrap().file_name().to_string_lossy()))
        })
        .filter(|f| f.ends_with(".cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "the corpus lost files: {files:?}");
    let mut trials = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        let stem = file.trim_end_matches(".cl");
        let synth = !text
            .lines()
            .any(|l| l.trim().starts_with("// corpus-synth: skip"));
        for (name, args) in runs(&text) {
            let trial = match name {
                Some(n) => format!("{stem}_{n}"),
                None => stem.to_string(),
            };
            let file = file.clone();
            trials.push(Trial::test(trial, move || {
                let args: Vec<&str> = args.split_whitespace().collect();
                sim(&file, &args, synth);
                Ok(())
            }));
        }
    }
    trials
}

/// The runs a corpus file asks for: `(None, args)` first (default arguments unless a
/// `// corpus-sim: ARGS` line gives them), then one per `// corpus-sim NAME: ARGS` line.
fn runs(text: &str) -> Vec<(Option<String>, String)> {
    let mut main = (None, String::new());
    let mut named = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("// corpus-sim") else {
            continue;
        };
        let (name, args) = rest.split_once(':').expect("`// corpus-sim[ NAME]: ARGS`");
        match name.trim() {
            "" => main.1 = args.trim().to_string(),
            n => named.push((Some(n.to_string()), args.trim().to_string())),
        }
    }
    std::iter::once(main).chain(named).collect()
}

fn sim(file: &str, extra: &[&str], synth: bool) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rtl");
    let mut args = vec!["sim", file, "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = oclhls(&args, &root());
    assert_eq!(o.code, 0, "{file}:\n{}\n{}", o.stdout, o.stderr);
    assert!(o.stdout.contains(" 0 failed"), "{}", o.stdout);
    assert!(!o.stdout.contains("0 passed"), "{}", o.stdout);
    lint(&out);
    if synth {
        synth_check(&out);
    }
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
    lint_systems(&tc, &v, dir);
}

/// The same for every system top `oclhls sim` wrote under `dir` (`systems/system_*.v`, also in
/// per-option directories), its modules found by name: the kernels beside `systems/`, the
/// support modules in it, a kernel's `__shared` variant in `systems/<top>/`.
fn lint_systems(tc: &toolchain::Toolchain, v: &toolchain::ToolInfo, dir: &Path) {
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            let (Some(stem), Some(parent)) = (p.file_stem(), p.parent()) else {
                continue;
            };
            let stem = stem.to_str().unwrap();
            if !stem.starts_with("system_") || !parent.ends_with("systems") {
                continue;
            }
            let search = [
                parent.parent().unwrap().to_path_buf(),
                parent.to_path_buf(),
                parent.join(stem),
            ];
            let out = tc
                .command(v)
                .args(["--lint-only", "-Wall", "--top-module", stem])
                .args(
                    search
                        .iter()
                        .flat_map(|s| ["-y".into(), s.display().to_string()]),
                )
                .arg(&p)
                .output()
                .expect("verilator runs");
            assert!(
                out.status.success(),
                "lint of system top {stem}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

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

/// `report.json` of compiling `file`.
fn report_of(file: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let o = oclhls(&[file, "-o", dir.path().to_str().unwrap()], &root());
    assert_eq!(o.code, 0, "{}", o.stderr);
    serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap()
}

fn arrays_in_registers() {
    // Arrays indexed by constants become values: no memory makes the work-items run one at a
    // time, and the window carried by the row loop does not limit its II; a `local` array of
    // a kernel with barriers is carried through the phases.
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

fn local_tile_in_banks() {
    // Four loads and four stores per iteration: src in 2 banks, dst in 4, the loop at II 1;
    // the loops indexing with j reach every bank.
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

fn scale_prefix_distances() {
    // Exact dependence distances from the affine analysis: the in-place loop runs at II 1,
    // the running sum at the II its distance-1 recurrence allows.
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

fn counter_unroll_at_ii_1() {
    // Four updates of one counter in every iteration: they share a cycle (a prefix sum hands
    // out four values), so the loop runs at II 1; the report names the atomic register.
    let report = report_of("tests/kernels/counter_unroll4.cl");
    assert_eq!(report["max_atomic_counters"], 8);
    let quad = report["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "quad")
        .unwrap();
    let lp = &quad["loops"][1];
    assert_eq!(lp["ii"], 1, "{lp:#}");
    let c = &quad["counters"][0];
    assert_eq!(c["name"], "c", "{c:#}");
    assert_eq!(c["bits"], 32, "{c:#}");
    assert_eq!(c["register"], "c_value", "{c:#}");
    assert_eq!(c["counts"], "up", "{c:#}");
    assert_eq!(c["updates"], 4, "{c:#}");
    assert_eq!(c["ports"][0], "arg_c", "{c:#}");
    assert_eq!(quad["interface"]["args"][2]["kind"], "counter");
    assert_eq!(quad["interface"]["args"][2]["mem_prefix"], "c");
}

fn local_histogram_at_ii_1() {
    // `rank[i] = atomic_inc(&bins[data[i] & 255])` on local memory, data-dependent bins:
    // the read-modify-write forwards the updates still in flight, so nothing carried through
    // `bins` limits the loop (one work-item, and the per-work-item loop of the NDRange form).
    let report = report_of("tests/kernels/atomic_hist_local.cl");
    let kernel = |name: &str| {
        report["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == name)
            .unwrap_or_else(|| panic!("no kernel {name}"))
            .clone()
    };
    for (k, lp) in [
        ("loop_hist", "loop_hist.loop2"),
        ("group_hist", "group_hist.loop4"),
    ] {
        let kernel = kernel(k);
        let l = kernel["loops"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == lp)
            .unwrap_or_else(|| panic!("no loop {lp}: {kernel:#}"));
        assert_eq!(l["ii"], 1, "{l:#}");
        assert_eq!(l["limited_by"], "nothing (II = 1)", "{l:#}");
        assert_eq!(
            l["memory_dependences"].as_array().unwrap().len(),
            0,
            "{l:#}"
        );
    }
}

fn counter_shared_by_kernels_running_at_once() {
    // Two kernels launched together on one counter buffer: the system top holds the register
    // and instantiates both kernels' `__shared` variants (`counter_shared.cl` runs them).
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "shared.cl",
        "/*!\n[config]\n[test]\nname: two counting kernels at once\nlaunch: a 4 4\nlaunch: b 4 4\nbuffer: ctr uint[1] 0\narg: a 0 ctr\narg: b 0 ctr\nexpect: ctr uint[1] 8\n!*/\n\
         kernel void a(counter32_t c) { atomic_inc(c); }\nkernel void b(counter32_t c) { atomic_dec(c); }\n",
    );
    let out = dir.path().join("o");
    let o = oclhls(
        &[
            &src,
            "-o",
            out.to_str().unwrap(),
            "--system",
            "two counting kernels at once",
        ],
        dir.path(),
    );
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains(
            "shared counter ctr: 32-bit register in the system top for `a` (up), `b` (down)"
        ),
        "{}",
        o.stdout
    );
    let top = std::fs::read_to_string(out.join("shared_system.v")).unwrap();
    assert!(top.contains("a__shared u_a ("), "{top}");
    assert!(top.contains("reg [31:0] sc_ctr_value;"), "{top}");
    assert!(
        top.contains("assign sc_ctr_b_c_base = sc_ctr_value + {31'd0, sc_ctr_a_c_fired};"),
        "{top}"
    );
    for f in ["a__shared.v", "b__shared.v", "a.v", "b.v"] {
        assert!(out.join(f).exists(), "{f} was not written");
    }
}
