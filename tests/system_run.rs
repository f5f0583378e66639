//! `sim::SystemRun` against hand-written system tops (`tests/system/`) that follow the
//! "System top" contract of docs/hardware-interface.md: kernels `producer` (src → pipe `p`) and
//! `consumer` (pipe `p` → dst) around the real `oclhls_pipe_fifo_plain`, rendered from
//! `rtl_templates`. The tests live in the root crate because only it has both `sim` and
//! `rtl_templates`. Each model is built once per test binary (and cached by content hash).

use std::path::PathBuf;
use std::sync::OnceLock;

use sim::{
    build_model, BuildOptions, BuiltModel, GlobalMemory, KernelState, MemConfig, ModelSource,
    NdRange, PortSpec, RunConfig, SimError, SystemLaunch, SystemLayout, SystemRun, SystemStats,
};
use toolchain::Tool;

mod common;
use common::toolchain;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/system")
        .join(name)
}

/// The plain pipe FIFO, rendered once per test binary.
fn fifo_file() -> &'static PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let (name, text) = rtl_templates::pipe_fifo_files(false)
            .into_iter()
            .next()
            .unwrap();
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&path, text).unwrap();
        path
    })
}

fn system_files() -> Vec<PathBuf> {
    vec![
        fixture("pipe_system.v"),
        fixture("sys_producer.v"),
        fixture("sys_consumer.v"),
        fifo_file().clone(),
    ]
}

fn kernel_ports(k: &str) -> Vec<PortSpec> {
    let mut p = vec![
        PortSpec::input(format!("{k}__start"), 1),
        PortSpec::output(format!("{k}__busy"), 1),
        PortSpec::output(format!("{k}__done"), 1),
    ];
    for d in 0..3 {
        p.push(PortSpec::input(format!("{k}__global_size_{d}"), 32));
    }
    p
}

/// The ports of `pipe_system` with `DEPTH = depth`.
fn system_source(depth: u32) -> ModelSource {
    let cw = 32 - depth.leading_zeros(); // $clog2(depth + 1)
    let mut ports = vec![PortSpec::input("clk", 1), PortSpec::input("rst", 1)];
    ports.extend(kernel_ports("producer"));
    ports.push(PortSpec::input("producer__arg_src", 32));
    ports.extend([
        PortSpec::output("producer__src_rreq_valid", 1),
        PortSpec::input("producer__src_rreq_ready", 1),
        PortSpec::output("producer__src_rreq_addr", 32),
        PortSpec::input("producer__src_rresp_valid", 1),
        PortSpec::output("producer__src_rresp_ready", 1),
        PortSpec::input("producer__src_rresp_data", 32),
    ]);
    ports.extend(kernel_ports("consumer"));
    ports.push(PortSpec::input("consumer__arg_dst", 32));
    ports.extend([
        PortSpec::output("consumer__dst_wreq_valid", 1),
        PortSpec::input("consumer__dst_wreq_ready", 1),
        PortSpec::output("consumer__dst_wreq_addr", 32),
        PortSpec::output("consumer__dst_wreq_data", 32),
        PortSpec::input("consumer__dst_wresp_valid", 1),
        PortSpec::output("consumer__dst_wresp_ready", 1),
    ]);
    ports.extend([
        PortSpec::output("pipe__p__count", cw),
        PortSpec::output("pipe__p__max", cw),
        PortSpec::output("pipe__p__space", cw),
        PortSpec::output("pipe__p__wr_wait", 1),
        PortSpec::output("pipe__p__rd_wait", 1),
        PortSpec::output("pipe__p__active", 1),
    ]);
    ModelSource {
        top: "pipe_system".into(),
        files: system_files(),
        ports,
    }
}

fn build_system(depth: u32) -> BuiltModel {
    let opts = BuildOptions {
        extra_args: vec![format!("-GDEPTH={depth}")],
        ..BuildOptions::default()
    };
    build_model(toolchain(), &system_source(depth), &opts).unwrap_or_else(|e| panic!("{e}"))
}

/// The system with a 4-packet pipe.
fn small() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build_system(4))
}

/// The system with a 64-packet pipe.
fn large() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build_system(64))
}

fn values(n: u32) -> Vec<u32> {
    (0..n)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ 0x5a5a)
        .collect()
}

/// Runs producer and consumer over `n` elements; returns the values, dst, and the result.
fn run_pipe(
    model: &BuiltModel,
    n: u32,
    consumer_after_producer: bool,
    config: RunConfig,
) -> (Vec<u32>, Vec<u32>, Result<SystemStats, SimError>) {
    let mut m = model.instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let src_vals = values(n);
    let src = mem.alloc_init(&src_vals).unwrap();
    let dst = mem.alloc_init(&vec![0u32; n as usize]).unwrap();
    let mut consumer = SystemLaunch::new("consumer")
        .arg("dst", dst.into())
        .range(NdRange::linear(n, 1));
    if consumer_after_producer {
        consumer = consumer.after("producer");
    }
    let result = SystemRun::new(&mut m)
        .launch(
            SystemLaunch::new("producer")
                .arg("src", src.into())
                .range(NdRange::linear(n, 1)),
        )
        .launch(consumer)
        .pipe_ends("p", "producer", "consumer")
        .config(config)
        .run(&mut mem);
    let out = mem.read::<u32>(dst, n as usize).unwrap();
    (src_vals, out, result)
}

#[test]
fn fixtures_are_lint_clean() {
    let tc = toolchain();
    let verilator = tc.locate(Tool::Verilator).unwrap();
    let system: Vec<PathBuf> = system_files();
    for (top, files, param) in [
        ("pipe_system", system.clone(), "-GDEPTH=4"),
        ("pipe_system", system, "-GDEPTH=64"),
        ("sys_bad", vec![fixture("sys_bad.v")], "-Wall"),
    ] {
        let out = tc
            .command(&verilator)
            .args(["--lint-only", "-Wall", param, "--top-module", top])
            .args(&files)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !text.contains("%Warning"),
            "{top} {param}:\n{text}"
        );
    }
}

#[test]
fn layout_is_discovered_from_the_ports() {
    let m = small().instantiate().unwrap();
    assert_eq!(
        SystemLayout::discover(&m).unwrap(),
        SystemLayout {
            kernels: vec!["producer".into(), "consumer".into()],
            pipes: vec!["p".into()],
        }
    );
}

#[test]
fn concurrent_kernels_with_ideal_memory() {
    let (src, dst, r) = run_pipe(small(), 50, false, RunConfig::default());
    let stats = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dst, src);
    let (p, c) = (
        stats.kernel("producer").unwrap(),
        stats.kernel("consumer").unwrap(),
    );
    assert_eq!((p.start_cycle, c.start_cycle), (0, 0), "{stats}");
    assert_eq!(p.run.port("src").unwrap().reads, 50);
    assert_eq!(c.run.port("dst").unwrap().writes, 50);
    assert_eq!(stats.cycles, p.done_cycle.max(c.done_cycle));
    assert_eq!(c.run.cycles, c.done_cycle - c.start_cycle);
    let pipe = stats.pipe("p").unwrap();
    assert_eq!((pipe.depth, pipe.final_count), (4, 0), "{stats}");
    assert!(pipe.max_count >= 1 && pipe.max_count <= 4, "{stats}");
    // 50 writes and 50 reads, some of them in the same cycle.
    assert!(
        pipe.active_cycles >= 50 && pipe.active_cycles <= 100,
        "{stats}"
    );
    // The consumer asks for a packet in the cycle after its start; the first one comes
    // only after the producer's first memory read.
    assert!(pipe.rd_wait_cycles > 0, "{stats}");
    let table = stats.to_string();
    eprintln!("{table}");
    for part in ["kernel", "producer__src", "consumer__dst", "max count"] {
        assert!(table.contains(part), "{part:?} not in\n{table}");
    }
}

#[test]
fn concurrent_kernels_with_hostile_memory() {
    for seed in 0..3 {
        let config = || RunConfig {
            seed,
            memory: MemConfig::random_stalls(),
            ..RunConfig::default()
        };
        let (src, dst, r) = run_pipe(small(), 60, false, config());
        let stats = r.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(dst, src, "seed {seed}");
        let p = stats.kernel("producer").unwrap();
        let c = stats.kernel("consumer").unwrap();
        assert!(
            p.run.stall_cycles() > 0 && c.run.stall_cycles() > 0,
            "{stats}"
        );
        assert!(stats.pipe("p").unwrap().max_count <= 4, "{stats}");
        // Same seed, same run.
        let (_, _, again) = run_pipe(small(), 60, false, config());
        assert_eq!(again.unwrap(), stats);
    }
}

/// The consumer's writes are acknowledged after 30 cycles, the producer needs a few cycles per
/// element: the pipe fills up and the producer's writes are refused.
#[test]
fn slow_consumer_fills_the_pipe() {
    let config = RunConfig {
        port_memory: vec![(
            "consumer__dst".into(),
            MemConfig {
                write_latency: 30..=30,
                ..MemConfig::ideal()
            },
        )],
        ..RunConfig::default()
    };
    let (src, dst, r) = run_pipe(small(), 20, false, config);
    let stats = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dst, src);
    let pipe = stats.pipe("p").unwrap();
    assert_eq!(pipe.max_count, 4, "{stats}");
    assert!(pipe.wr_wait_cycles > 20 * 20, "{stats}");
    let c = stats.kernel("consumer").unwrap();
    assert!(c.run.cycles >= 20 * 30, "{stats}");
    assert!(
        stats.kernel("producer").unwrap().done_cycle < c.done_cycle,
        "{stats}"
    );
}

/// With `after`, the consumer starts in the cycle after the producer's `done`, so every packet
/// is in the pipe before the first read: the fill peaks at n, no side ever waits, and each of
/// the n writes and n reads has a cycle of its own.
#[test]
fn after_orders_the_launches() {
    let n = 40;
    let (src, dst, r) = run_pipe(large(), n, true, RunConfig::default());
    let stats = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dst, src);
    let p = stats.kernel("producer").unwrap();
    let c = stats.kernel("consumer").unwrap();
    assert_eq!(p.start_cycle, 0);
    assert_eq!(c.start_cycle, p.done_cycle + 1, "{stats}");
    assert_eq!(stats.cycles, c.done_cycle);
    let pipe = stats.pipe("p").unwrap();
    assert_eq!(
        (
            pipe.depth,
            pipe.max_count,
            pipe.final_count,
            pipe.wr_wait_cycles,
            pipe.rd_wait_cycles,
            pipe.active_cycles
        ),
        (64, u64::from(n), 0, 0, 0, 2 * u64::from(n)),
        "{stats}"
    );
}

/// A kernel of the top that the run does not launch never starts; the packets stay in the pipe.
#[test]
fn kernel_not_launched_never_starts() {
    let mut m = large().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let src = mem.alloc_init(&values(10)).unwrap();
    let stats = SystemRun::new(&mut m)
        .launch(
            SystemLaunch::new("producer")
                .arg("src", src.into())
                .range(NdRange::linear(10, 1)),
        )
        .run(&mut mem)
        .unwrap();
    assert_eq!(stats.kernels.len(), 1);
    let pipe = stats.pipe("p").unwrap();
    assert_eq!(
        (pipe.max_count, pipe.final_count, pipe.rd_wait_cycles),
        (10, 10, 0)
    );
    assert_eq!(pipe.active_cycles, 10);
}

/// The consumer waits for the producer, which waits for room in a pipe of 4 packets: a
/// deadlock, reported with the full pipe, the waiting writer and the waiting launch.
#[test]
fn deadlock_is_detected_and_explained() {
    let config = RunConfig {
        deadlock_cycles: 500,
        ..RunConfig::default()
    };
    let (src, dst, r) = run_pipe(small(), 10, true, config.clone());
    let err = r.unwrap_err();
    let SimError::Deadlock { report } = &err else {
        panic!("not a deadlock: {err}")
    };
    assert_eq!(report.idle_cycles, 500);
    // Four elements of a few cycles each, then 500 cycles without progress.
    assert!(report.cycle > 500 && report.cycle < 600, "{err}");
    assert_eq!(
        report.kernels[0].state,
        KernelState::Running {
            since: 0,
            busy: true
        }
    );
    assert_eq!(
        report.kernels[1].state,
        KernelState::Waiting {
            for_kernels: vec!["producer".into()]
        }
    );
    let pipe = &report.pipes[0];
    assert_eq!(
        (pipe.count, pipe.max, pipe.wr_wait, pipe.rd_wait),
        (4, 4, true, false)
    );
    let msg = err.to_string();
    eprintln!("{msg}");
    for part in [
        &format!("deadlock at cycle {}", report.cycle),
        "nothing progressed for 500 cycles",
        "`producer`: running since cycle 0; waiting to write pipe `p` (full, 4 of 4 packets)\n",
        "`consumer`: not started, waiting for `producer` to finish\n",
        "`p`: full, 4 of 4 packets; writer `producer` waiting (its operation was refused in \
         the last cycle); reader `consumer` not waiting",
    ] {
        assert!(msg.contains(part), "{part:?} not in:\n{msg}");
    }
    // The four elements that fit went nowhere: the consumer never ran.
    assert_eq!(dst, vec![0; 10]);
    assert_ne!(src, dst);

    // Without pipe_ends the report still shows the pipe's sides.
    let mut m = small().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let s = mem.alloc_init(&values(10)).unwrap();
    let d = mem.alloc(40, 4).unwrap();
    let msg = SystemRun::new(&mut m)
        .launch(
            SystemLaunch::new("producer")
                .arg("src", s.into())
                .range(NdRange::linear(10, 1)),
        )
        .launch(
            SystemLaunch::new("consumer")
                .arg("dst", d.into())
                .range(NdRange::linear(10, 1))
                .after("producer"),
        )
        .config(config)
        .run(&mut mem)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains(
            "`p`: full, 4 of 4 packets; the writer waiting (its operation was refused in the \
             last cycle); the reader not waiting"
        ),
        "{msg}"
    );
    assert!(msg.contains("`producer`: running since cycle 0\n"), "{msg}");
}

#[test]
fn cycle_budget_is_a_timeout_with_a_report() {
    let config = RunConfig {
        max_cycles: 20,
        ..RunConfig::default()
    };
    let (_, _, r) = run_pipe(small(), 50, false, config);
    let err = r.unwrap_err();
    assert!(
        matches!(&err, SimError::SystemTimeout { report } if report.cycle == 20),
        "{err}"
    );
    let msg = err.to_string();
    assert!(msg.contains("did not finish within 20 cycles"), "{msg}");
    assert!(msg.contains("`producer`: running since cycle 0"), "{msg}");
    assert!(msg.contains("`consumer`: running since cycle 0"), "{msg}");
}

#[test]
fn memory_faults_name_the_kernel_port() {
    let mut m = small().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let d = mem.alloc(8, 4).unwrap();
    let err = SystemRun::new(&mut m)
        .launch(
            SystemLaunch::new("producer")
                .arg("src", 0)
                .range(NdRange::linear(2, 1)),
        )
        .launch(
            SystemLaunch::new("consumer")
                .arg("dst", d.into())
                .range(NdRange::linear(2, 1)),
        )
        .run(&mut mem)
        .unwrap_err();
    assert!(
        matches!(&err, SimError::MemoryFault { port, write: false, .. } if port == "producer__src"),
        "{err}"
    );
}

#[test]
fn launch_and_configuration_errors() {
    let mut m = small().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let src = mem.alloc_init(&values(4)).unwrap();
    let dst = mem.alloc(16, 4).unwrap();
    let producer = move || SystemLaunch::new("producer").arg("src", src.into());
    let consumer = move || SystemLaunch::new("consumer").arg("dst", dst.into());
    type Setup = Box<dyn for<'a> Fn(SystemRun<'a>) -> SystemRun<'a>>;
    let cases: Vec<(Setup, &str)> = vec![
        (
            Box::new(|r| r),
            "no kernel is launched (the system's kernels are: producer, consumer)",
        ),
        (
            Box::new(|r| r.launch(SystemLaunch::new("other"))),
            "no kernel `other`; its kernels are: producer, consumer",
        ),
        (
            Box::new(move |r| r.launch(producer()).launch(producer())),
            "kernel `producer` is launched twice",
        ),
        (
            Box::new(move |r| r.launch(consumer().after("producer"))),
            "kernel `consumer` waits for `producer`, which is not launched",
        ),
        (
            Box::new(move |r| {
                r.launch(producer().after("consumer"))
                    .launch(consumer().after("producer"))
            }),
            "the `after` dependencies form a cycle; none of these can start first: \
             `producer`, `consumer`",
        ),
        (
            Box::new(move |r| r.launch(producer().after("producer"))),
            "form a cycle; none of these can start first: `producer`",
        ),
        (
            Box::new(|r| r.launch(SystemLaunch::new("consumer"))),
            "kernel `consumer`: arguments not given: dst",
        ),
        (
            Box::new(move |r| r.launch(producer().arg("dst", 0))),
            "kernel `producer` has no argument `dst`; its arguments are: src",
        ),
        (
            Box::new(move |r| {
                r.launch(producer()).config(RunConfig {
                    port_memory: vec![("consumer__dst".into(), MemConfig::ideal())],
                    ..RunConfig::default()
                })
            }),
            "memory configuration for `consumer__dst`, which is not a pointer port of a \
             launched kernel (they are: `producer__src`)",
        ),
        (
            Box::new(move |r| r.launch(producer()).pipe_ends("q", "producer", "consumer")),
            "pipe_ends for `q`, which is not a pipe of the system (its pipes are: p)",
        ),
        (
            Box::new(move |r| r.launch(producer()).pipe_ends("p", "producer", "sink")),
            "pipe_ends for `p` names `sink`, which is not a kernel of the system",
        ),
        (
            Box::new(move |r| {
                r.launch(producer()).config(RunConfig {
                    memory: MemConfig::random_stalls(),
                    deadlock_cycles: 20,
                    ..RunConfig::default()
                })
            }),
            "deadlock_cycles (20) must exceed the longest memory latency (20 cycles)",
        ),
        (
            Box::new(move |r| r.launch(producer().range(NdRange::linear(4, 0)))),
            "kernel `producer`: local size [0, 1, 1] has a zero dimension",
        ),
    ];
    for (setup, want) in cases {
        let msg = setup(SystemRun::new(&mut m))
            .run(&mut mem)
            .unwrap_err()
            .to_string();
        assert!(msg.contains(want), "{want:?} not in {msg:?}");
    }
}

/// Every problem of a top that breaks the contract, in one error.
#[test]
fn interface_problems_are_reported_at_once() {
    let src = ModelSource {
        top: "sys_bad".into(),
        files: vec![fixture("sys_bad.v")],
        ports: vec![
            PortSpec::input("clk", 1),
            PortSpec::input("rst", 1),
            PortSpec::input("k__start", 1),
            PortSpec::output("k__done", 1),
            PortSpec::input("k__global_size_0", 32),
            PortSpec::input("k__global_size_1", 32),
            PortSpec::input("k__global_size_2", 32),
            PortSpec::input("k__arg_y", 32),
            PortSpec::output("k__x_rreq_valid", 1),
            PortSpec::output("pipe__q__count", 3),
            PortSpec::output("pipe__q__max", 2),
            PortSpec::output("pipe__q__wr_wait", 1),
            PortSpec::output("pipe__q__rd_wait", 1),
            PortSpec::output("pipe__q__full", 1),
            PortSpec::output("pipe__r__max", 3),
            PortSpec::input("stray", 1),
        ],
    };
    let built =
        build_model(toolchain(), &src, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut m = built.instantiate().unwrap();
    let err = SystemLayout::discover(&m).unwrap_err();
    assert!(matches!(err, SimError::Interface(_)), "{err}");
    let msg = err.to_string();
    for part in [
        "missing output `k__busy` (1 bit)",
        "missing input `k__arg_x` (32 bits)",
        "missing input `k__x_rreq_ready` (1 bit)",
        "missing input `k__x_rresp_data`",
        "`pipe__q__count` (3 bits) and `pipe__q__max` (2 bits) differ in width",
        "missing output `pipe__q__active` (1 bit)",
        "output `pipe__q__full` is not a pipe port",
        "output `pipe__r__max` belongs to no pipe (there is no `pipe__r__count`)",
        "input `stray` is not part of the interface",
    ] {
        assert!(msg.contains(part), "{part:?} not in {msg}");
    }
    assert!(!msg.contains("k__arg_y"), "{msg}");
    let mut mem = GlobalMemory::new();
    let run_msg = SystemRun::new(&mut m)
        .launch(SystemLaunch::new("k"))
        .run(&mut mem)
        .unwrap_err()
        .to_string();
    assert_eq!(run_msg, msg);
}
