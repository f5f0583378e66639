//! The pipe FIFO on its own: Verilator lint, Yosys `synth_ecp5` + `check`, and random operations
//! against the reference model (`sim::pipe_fifo`), for several parameter sets. The long run is
//! `#[ignore]`d (see docs/hardware-interface.md, "Pipe FIFOs: verification"):
//!
//! ```text
//! OCLHLS_PIPE_FIFO_CYCLES=1000000 cargo test --test pipe_fifo -- --ignored --nocapture
//! ```

use std::path::{Path, PathBuf};

use sim::pipe_fifo::{run_random, PipeFifoParams, RunCounts};
use sim::{build_model, BuildOptions, BuiltModel};
use toolchain::Tool;

mod common;
use common::toolchain;

/// Renders both variants into `dir` and returns the files the top of `p` needs.
fn render(dir: &Path, p: &PipeFifoParams) -> Vec<PathBuf> {
    rtl_templates::pipe_fifo_files(p.max_res > 0)
        .into_iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

fn build(p: &PipeFifoParams) -> BuiltModel {
    let dir = tempfile::tempdir().unwrap();
    let files = render(dir.path(), p);
    let opts = BuildOptions {
        extra_args: p.verilator_args(),
        ..BuildOptions::default()
    };
    build_model(toolchain(), &p.model_source(files), &opts).unwrap_or_else(|e| panic!("{e}"))
}

const fn params(width: u32, depth: u32, max_res: u32) -> PipeFifoParams {
    slacked(width, depth, max_res, 0)
}

/// With `slack` places of storage beyond `depth` (`hwcontract::pipe::reservation_slack`).
const fn slacked(width: u32, depth: u32, max_res: u32, slack: u32) -> PipeFifoParams {
    PipeFifoParams {
        width,
        depth,
        max_res,
        slack,
    }
}

/// The CI parameter sets: a tiny FIFO with a non-power-of-two depth, a 2-entry table and
/// slack for reservations in flight, the usual 16 x 32 with 4 entries, a block-RAM-sized one
/// (100 > LUTRAM_DEPTH_MAX) with 3 entries and 128-bit packets, the smallest FIFO with a
/// 1-entry table and one place of slack, and the FIFO without reservations (a power-of-two
/// depth and one that is not, whose storage is larger than its depth).
const CI_SETS: [PipeFifoParams; 6] = [
    slacked(8, 5, 2, 3),
    params(32, 16, 4),
    params(128, 100, 3),
    slacked(4, 2, 1, 1),
    params(16, 8, 0),
    params(8, 5, 0),
];

fn run_and_check(p: &PipeFifoParams, cycles: u64, seed: u64) -> RunCounts {
    let model = build(p);
    let c =
        run_random(&model, p, cycles, seed).unwrap_or_else(|e| panic!("{p:?} seed {seed}: {e}"));
    // The run must have reached the situations it is meant to test.
    assert!(c.plain_writes_ok > 0 && c.plain_reads_ok > 0, "{c:?}");
    assert!(c.full_cycles > 0 && c.empty_cycles > 0, "{c:?}");
    assert!(c.data_checked > cycles / 20, "{c:?}");
    if p.max_res > 0 {
        assert!(c.reserves_ok > 0 && c.reserves_ok < c.reserves, "{c:?}");
        assert!(c.slot_writes_ok > 0 && c.slot_reads_ok > 0, "{c:?}");
        assert!(
            c.commits_inactive > 0 && c.commits_back_to_back > 0,
            "{c:?}"
        );
        assert!(c.slot_ops_rejected > 0, "{c:?}");
        // Shared reservations: repeated commits, commits before the accesses that complete
        // the reservation later.
        assert!(
            c.commits_repeated > 0 && c.commits_partial > 0 && c.completed_after_commit > 0,
            "{c:?}"
        );
        if p.max_res > 1 {
            assert!(c.commits_out_of_order > 0 && c.multi_retire > 0, "{c:?}");
        }
    }
    c
}

#[test]
fn random_operations_match_the_reference_model() {
    std::thread::scope(|s| {
        for (k, p) in CI_SETS.iter().enumerate() {
            s.spawn(move || {
                let c = run_and_check(p, 120_000, 0x5eed + k as u64);
                eprintln!("{p:?}: {} cycles, {} ops", c.cycles, c.ops);
            });
        }
    });
}

/// The long run: about 1.6 million operations per parameter set by default (11 million in all).
#[test]
#[ignore]
fn random_operations_long_run() {
    let cycles: u64 = std::env::var("OCLHLS_PIPE_FIFO_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let sets = [
        params(8, 5, 2),
        params(32, 16, 4),
        params(128, 100, 3),
        params(4, 2, 1),
        params(16, 8, 0),
        params(32, 64, 8),
        params(8, 3, 4),
        slacked(8, 3, 4, 12),
    ];
    let started = std::time::Instant::now();
    let mut total = RunCounts::default();
    for (k, p) in sets.iter().enumerate() {
        let t = std::time::Instant::now();
        let c = run_and_check(p, cycles, 0x10_0000 + k as u64);
        println!(
            "{p:?}: {} cycles, {} ops ({} plain wr ok / {}, {} plain rd ok / {}, {} slot wr, {} slot rd, \
             {} reserves ok / {}, {} commits ({} out of order, {} back to back, {} inactive, {} partial, \
             {} repeated), {} completed after commit, {} multi-retire edges, {} full / {} empty cycles, \
             {} data checks) in {:.1} s",
            c.cycles,
            c.ops,
            c.plain_writes_ok,
            c.plain_writes,
            c.plain_reads_ok,
            c.plain_reads,
            c.slot_writes_ok,
            c.slot_reads_ok,
            c.reserves_ok,
            c.reserves,
            c.commits,
            c.commits_out_of_order,
            c.commits_back_to_back,
            c.commits_inactive,
            c.commits_partial,
            c.commits_repeated,
            c.completed_after_commit,
            c.multi_retire,
            c.full_cycles,
            c.empty_cycles,
            c.data_checked,
            t.elapsed().as_secs_f64()
        );
        total.add(&c);
    }
    println!(
        "total: {} cycles, {} ops, {} data checks in {:.1} s",
        total.cycles,
        total.ops,
        total.data_checked,
        started.elapsed().as_secs_f64()
    );
}

/// `verilator --lint-only -Wall`, no waivers, for every CI parameter set and a few more shapes.
#[test]
fn lint_clean_for_every_parameter_set() {
    let v = toolchain().locate(Tool::Verilator).unwrap();
    let extra = [
        params(1, 2, 1),
        params(128, 4096, 8),
        params(32, 512, 5),
        slacked(32, 16, 4, 64),
    ];
    for p in CI_SETS.iter().chain(&extra) {
        let dir = tempfile::tempdir().unwrap();
        let files = render(dir.path(), p);
        let out = toolchain()
            .command(&v)
            .args(["--lint-only", "-Wall", "--top-module", p.top()])
            .args(p.verilator_args())
            .args(&files)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "lint of {p:?}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Yosys `check` on the elaborated RTL and on the `synth_ecp5` netlist must be clean; the small
/// FIFOs are in distributed RAM, the large one in block RAM.
#[test]
fn yosys_synth_ecp5_and_check_are_clean() {
    use board_support::flow::{synth, SynthOptions};
    for (p, ebr) in [
        (params(32, 16, 4), false),
        (params(16, 8, 0), false),
        (params(32, 512, 2), true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let files = render(dir.path(), &p);
        let mut opts = SynthOptions::new(dir.path().join("synth"));
        opts.parameters = vec![
            ("WIDTH".into(), i64::from(p.width)),
            ("DEPTH".into(), i64::from(p.depth)),
        ];
        if p.max_res > 0 {
            opts.parameters
                .push(("MAX_RES".into(), i64::from(p.max_res)));
        }
        let report = synth(toolchain(), &files, p.top(), &opts).unwrap_or_else(|e| panic!("{e}"));
        let ebrs = report.cells.get("DP16KD").copied().unwrap_or(0);
        let lutrams = report.cells.get("TRELLIS_DPR16X4").copied().unwrap_or(0);
        assert_eq!(
            (ebrs > 0, lutrams > 0),
            (ebr, !ebr),
            "{p:?}: {:?}",
            report.cells
        );
    }
}

/// The SymbiYosys proofs of `rtl-templates/formal/pipe_fifo.sby` (CI tasks), with `sby` and the
/// `yices-smt2` solver located or provisioned by the toolchain.
#[test]
fn formal_proofs_pass() {
    let tc = toolchain();
    let sby = tc.locate(Tool::Sby).unwrap_or_else(|e| panic!("{e}"));
    let yices = tc.locate(Tool::YicesSmt2).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    render(dir.path(), &params(4, 4, 2));
    let sby_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl-templates/formal/pipe_fifo.sby");
    std::fs::copy(&sby_file, dir.path().join("pipe_fifo.sby")).unwrap();
    // smtbmc starts the solver by name.
    let solver_dir = yices.path.parent().unwrap().to_path_buf();
    let mut path = vec![solver_dir];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let tasks = ["d4_r2", "d3_r3"];
    let out = tc
        .command(&sby)
        .current_dir(dir.path())
        .env("PATH", std::env::join_paths(path).unwrap())
        .args(["-j", "2", "-f", "pipe_fifo.sby"])
        .args(tasks)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "sby failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for task in tasks {
        let done = format!("[pipe_fifo_{task}] DONE (PASS");
        let proof = format!("[pipe_fifo_{task}] summary: successful proof by k-induction");
        assert!(
            stdout.contains(&done) && stdout.contains(&proof),
            "{task}:\n{stdout}"
        );
    }
}
