//! The kernel runner and memory model against the hand-written `copy_inc` and `hang` kernels.

mod common;

use common::{build, copy_inc, hang_source, toolchain};
use sim::{
    build_model, BuildOptions, FaultKind, GlobalMemory, KernelRun, MemConfig, NdRange, RunConfig,
    RunStats, SimError,
};

/// Runs copy_inc on `n` elements of `a` starting at work-item `offset`; returns b and stats.
fn run_copy(
    n: u32,
    offset: u32,
    picky: bool,
    config: RunConfig,
) -> Result<(Vec<u32>, Vec<u32>, RunStats), SimError> {
    let mut model = copy_inc().instantiate()?;
    let mut mem = GlobalMemory::new();
    let len = (n + offset) as usize;
    let a_vals: Vec<u32> = (0..len as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let a = mem.alloc_init(&a_vals)?;
    let b = mem.alloc(4 * len, 4)?;
    let mut range = NdRange::linear(n, 1);
    range.global_offset[0] = offset;
    let stats = KernelRun::new(&mut model)
        .arg("a", a.into())
        .arg("b", b.into())
        .arg("picky", u64::from(picky))
        .range(range)
        .config(config)
        .run(&mut mem)?;
    let bad = model.port("bad_response").unwrap();
    assert_eq!(
        model.get(bad),
        0,
        "memory changed or dropped a response the kernel had not taken"
    );
    Ok((a_vals, mem.read::<u32>(b, len)?, stats))
}

fn expect_copied(a: &[u32], b: &[u32], offset: usize) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let want = if i < offset { 0 } else { x.wrapping_add(1) };
        assert_eq!(*y, want, "b[{i}]");
    }
}

#[test]
fn copy_with_ideal_memory() {
    let (a, b, stats) = run_copy(37, 0, false, RunConfig::default()).unwrap();
    expect_copied(&a, &b, 0);
    let pa = stats.port("a").unwrap();
    let pb = stats.port("b").unwrap();
    assert_eq!((pa.reads, pa.writes, pb.reads, pb.writes), (37, 0, 0, 37));
    assert_eq!(stats.stall_cycles(), 0);
    assert_eq!(pa.element_bytes, 4);
    assert_eq!(pa.max_outstanding_reads, 1);
    // Per element: request, response, write, ack, each a few cycles; no stalls.
    assert!(stats.cycles > 37 * 4 && stats.cycles < 37 * 12, "{stats}");
}

#[test]
fn copy_with_random_stalls_and_picky_kernel() {
    for seed in 0..4 {
        let config = RunConfig {
            seed,
            memory: MemConfig::random_stalls(),
            ..RunConfig::default()
        };
        let (a, b, stats) = run_copy(50, 0, true, config).unwrap();
        expect_copied(&a, &b, 0);
        let pa = stats.port("a").unwrap();
        let pb = stats.port("b").unwrap();
        assert_eq!((pa.reads, pb.writes), (50, 50));
        assert!(
            pa.read_stall_cycles > 0 && pb.write_stall_cycles > 0,
            "{stats}"
        );
        // The kernel held rresp_ready low while a response was valid; memory held it.
        assert!(pa.read_response_blocked_cycles > 0, "{stats}");
        assert!(pb.write_response_blocked_cycles > 0, "{stats}");
    }
}

#[test]
fn same_seed_same_run() {
    let config = || RunConfig {
        seed: 7,
        memory: MemConfig::random_stalls(),
        ..RunConfig::default()
    };
    let (_, _, s1) = run_copy(20, 0, true, config()).unwrap();
    let (_, _, s2) = run_copy(20, 0, true, config()).unwrap();
    assert_eq!(s1, s2);
}

#[test]
fn per_port_memory_config() {
    let config = RunConfig {
        port_memory: vec![(
            "b".into(),
            MemConfig {
                write_latency: 30..=30,
                ..MemConfig::ideal()
            },
        )],
        ..RunConfig::default()
    };
    let (_, _, fast) = run_copy(10, 0, false, RunConfig::default()).unwrap();
    let (a, b, slow) = run_copy(10, 0, false, config).unwrap();
    expect_copied(&a, &b, 0);
    assert_eq!(
        slow.cycles,
        fast.cycles + 10 * 29,
        "fast {fast}\nslow {slow}"
    );
    let bad = RunConfig {
        port_memory: vec![("c".into(), MemConfig::ideal())],
        ..RunConfig::default()
    };
    let err = run_copy(1, 0, false, bad).unwrap_err().to_string();
    assert!(
        err.contains("`c`, which is not a pointer argument"),
        "{err}"
    );
}

#[test]
fn global_offset_and_empty_range() {
    let (a, b, _) = run_copy(3, 5, false, RunConfig::default()).unwrap();
    expect_copied(&a, &b, 5);
    let (_, _, stats) = run_copy(0, 0, false, RunConfig::default()).unwrap();
    assert!(stats.cycles <= 3, "{stats}");
    assert_eq!(stats.port("a").unwrap().reads, 0);
}

#[test]
fn parallel_instances_are_independent() {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4u64)
            .map(|seed| {
                s.spawn(move || {
                    let config = RunConfig {
                        seed,
                        memory: MemConfig::random_stalls(),
                        ..RunConfig::default()
                    };
                    let n = 20 + 7 * seed as u32;
                    let (a, b, stats) = run_copy(n, 0, seed % 2 == 0, config).unwrap();
                    expect_copied(&a, &b, 0);
                    stats
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
}

#[test]
fn null_pointer_is_a_fault_naming_port_address_and_cycle() {
    let mut model = copy_inc().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let a = mem.alloc_init(&[1u32, 2, 3]).unwrap();
    let err = KernelRun::new(&mut model)
        .arg("a", a.into())
        .arg("b", 0)
        .arg("picky", 0)
        .range(NdRange::linear(3, 1))
        .run(&mut mem)
        .unwrap_err();
    match &err {
        SimError::MemoryFault {
            port,
            addr,
            write,
            kind,
            cycle,
            ..
        } => {
            assert_eq!(
                (port.as_str(), *addr, *write, *kind),
                ("b", 0, true, FaultKind::Unallocated)
            );
            assert!(*cycle > 0);
        }
        e => panic!("wrong error {e}"),
    }
    let msg = err.to_string();
    for part in [
        "write on port `b`",
        "address 0x00000000",
        "cycle",
        "null pointer",
    ] {
        assert!(msg.contains(part), "{part:?} not in {msg}");
    }
}

#[test]
fn misaligned_and_out_of_bounds_accesses_fault() {
    let mut model = copy_inc().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let a = mem.alloc_init(&[1u32, 2, 3]).unwrap();
    let b = mem.alloc(12, 4).unwrap();
    let err = KernelRun::new(&mut model)
        .arg("a", u64::from(a + 2))
        .arg("b", b.into())
        .arg("picky", 0)
        .range(NdRange::linear(3, 1))
        .run(&mut mem)
        .unwrap_err();
    assert!(
        matches!(
            err,
            SimError::MemoryFault {
                kind: FaultKind::Misaligned,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("not aligned to 4 bytes"), "{err}");

    // Four work-items over three-element buffers: a[3] is past the end.
    let mut model = copy_inc().instantiate().unwrap();
    let err = KernelRun::new(&mut model)
        .arg("a", a.into())
        .arg("b", b.into())
        .arg("picky", 0)
        .range(NdRange::linear(4, 1))
        .run(&mut mem)
        .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("read on port `a`"), "{msg}");
    assert!(msg.contains("0 bytes past the end of buffer"), "{msg}");
    // The first three elements were done before the fault.
    assert_eq!(mem.read::<u32>(b, 3).unwrap(), vec![2, 3, 4]);
}

#[test]
fn argument_errors() {
    let mut model = copy_inc().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let err = KernelRun::new(&mut model)
        .arg("a", 0x1000)
        .run(&mut mem)
        .unwrap_err()
        .to_string();
    assert!(err.contains("arguments not given: b, picky"), "{err}");
    let err = KernelRun::new(&mut model)
        .arg("a", 0x1000)
        .arg("b", 0x1000)
        .arg("picky", 0)
        .arg("c", 1)
        .run(&mut mem)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no argument `c`; its arguments are: a, b, picky"),
        "{err}"
    );
    let err = KernelRun::new(&mut model)
        .arg("a", 1 << 40)
        .arg("b", 0)
        .arg("picky", 0)
        .run(&mut mem)
        .unwrap_err()
        .to_string();
    assert!(err.contains("`a` does not fit in 32 bits"), "{err}");
}

/// Parallel builds of one new model into a fresh cache share one build; the hang kernel then
/// runs into the cycle budget.
#[test]
fn parallel_builds_share_the_cache_and_budget_exhaustion_is_reported() {
    let cache = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..Default::default()
    };
    let src = hang_source();
    let models: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..3)
            .map(|_| s.spawn(|| build_model(toolchain(), &src, &opts)))
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    });
    assert_eq!(
        models.iter().filter(|m| m.build_time().is_some()).count(),
        1
    );
    assert!(models.iter().all(|m| m.hash() == models[0].hash()));
    let entries: Vec<String> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let hash = models[0].hash();
    let runtime: Vec<&String> = entries
        .iter()
        .filter(|e| e.starts_with("runtime-"))
        .collect();
    assert_eq!(
        runtime.len(),
        1,
        "the run-time objects are kept once: {entries:?}"
    );
    assert!(cache.path().join(runtime[0]).join("verilated.o").is_file());
    let mut want = vec![hash.to_string(), format!("{hash}.lock"), runtime[0].clone()];
    let mut got = entries.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want, "no temporary directories may be left");
    assert!(cache.path().join(hash).join("libmodel.so").is_file());

    let mut model = models[0].instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let a = mem.alloc_init(&[5u32]).unwrap();
    let err = KernelRun::new(&mut model)
        .arg("a", a.into())
        .range(NdRange::linear(1, 1))
        .config(RunConfig {
            max_cycles: 1000,
            ..RunConfig::default()
        })
        .run(&mut mem)
        .unwrap_err();
    assert!(
        matches!(err, SimError::Timeout { cycles: 1000, .. }),
        "{err}"
    );
    let msg = err.to_string();
    assert!(msg.contains("no `done` after 1000 cycles"), "{msg}");
    assert!(msg.contains("`a`: 1 reads, 0 writes"), "{msg}");

    // A second call with the same inputs is a cache hit.
    let again = build_model(toolchain(), &src, &opts).unwrap();
    assert_eq!(again.build_time(), None);

    // Another model in the same cache links the kept run-time objects instead of compiling
    // Verilator's run-time library again (3 s of the 4 s a small model took when it did).
    let other = build_model(toolchain(), &common::copy_inc_source(), &opts).unwrap();
    assert!(other.build_time().is_some());
    let log = std::fs::read_to_string(cache.path().join(other.hash()).join("build.log")).unwrap();
    assert!(log.contains("verilated.o"), "{log}");
    assert!(
        !log.contains("verilated.cpp"),
        "the run-time library was compiled again:\n{log}"
    );
}

#[test]
fn test_kernels_are_lint_clean() {
    let tc = toolchain();
    let verilator = tc.locate(toolchain::Tool::Verilator).unwrap();
    for f in ["copy_inc.v", "hang.v", "widths.v", "burst_copy.v"] {
        let out = tc
            .command(&verilator)
            .args(["--lint-only", "-Wall"])
            .arg(common::kernel_file(f))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !text.contains("%Warning"),
            "{f}:\n{text}"
        );
    }
}

#[test]
fn trace_writes_an_fst() {
    let model = build(
        &common::copy_inc_source(),
        &BuildOptions {
            trace: true,
            ..Default::default()
        },
    );
    let dir = tempfile::tempdir().unwrap();
    let fst = dir.path().join("copy.fst");
    let mut inst = model.instantiate().unwrap();
    inst.trace_to(&fst).unwrap();
    let mut mem = GlobalMemory::new();
    let a = mem.alloc_init(&[1u32, 2]).unwrap();
    let b = mem.alloc(8, 4).unwrap();
    KernelRun::new(&mut inst)
        .arg("a", a.into())
        .arg("b", b.into())
        .arg("picky", 0)
        .range(NdRange::linear(2, 1))
        .run(&mut mem)
        .unwrap();
    let cycles = inst.cycles();
    drop(inst); // closes the file
    let bytes = std::fs::read(&fst).unwrap();
    let summary = sim::fst::read(&bytes).unwrap();
    // Time advances 1 per half cycle; the last rising edge is at 2 * cycles - 1.
    assert_eq!((summary.start_time, summary.end_time), (0, 2 * cycles - 1));
    let signals = summary.signals.expect("an LZ4 hierarchy");
    assert!(
        signals.iter().any(|s| s == "TOP.a_rreq_valid")
            && signals
                .iter()
                .any(|s| s.ends_with(".copy_inc.a_rreq_valid")),
        "{signals:?}"
    );

    // Tracing needs a traced build, and must start before the first cycle.
    let mut plain = copy_inc().instantiate().unwrap();
    assert!(plain
        .trace_to(dir.path().join("x.fst"))
        .unwrap_err()
        .to_string()
        .contains("without tracing"));
    let mut late = model.instantiate().unwrap();
    late.tick().unwrap();
    assert!(late.trace_to(dir.path().join("y.fst")).is_err());
}

/// Runs burst_copy on `n` elements in bursts of `blen` beats under `memory`; checks b and
/// returns the stats.
fn run_burst_copy(n: u32, blen: u32, memory: MemConfig, seed: u64) -> RunStats {
    let mut model = common::burst_copy().instantiate().unwrap();
    let mut mem = GlobalMemory::new();
    let a_vals: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let a = mem.alloc(4 * n as usize, 4096).unwrap();
    mem.write(a, &a_vals).unwrap();
    let b = mem.alloc(4 * n as usize, 4096).unwrap();
    let stats = KernelRun::new(&mut model)
        .arg("a", a.into())
        .arg("b", b.into())
        .arg("n", n.into())
        .arg("blen", blen.into())
        .config(RunConfig {
            seed,
            memory,
            ..RunConfig::default()
        })
        .run(&mut mem)
        .unwrap_or_else(|e| panic!("n {n} blen {blen}: {e}"));
    assert_eq!(
        model.get(model.port("bad_last").unwrap()),
        0,
        "rresp_last misplaced"
    );
    let got = mem.read::<u32>(b, n as usize).unwrap();
    for (i, (x, y)) in a_vals.iter().zip(&got).enumerate() {
        assert_eq!(*y, x.wrapping_add(1), "b[{i}] (n {n} blen {blen})");
    }
    let pa = stats.port("a").unwrap();
    let pb = stats.port("b").unwrap();
    assert_eq!(
        (pa.reads, pa.read_beats),
        (u64::from(n.div_ceil(blen)), u64::from(n))
    );
    assert_eq!(
        (pb.writes, pb.write_beats),
        (u64::from(n.div_ceil(blen)), u64::from(n))
    );
    stats
}

/// The burst ports of a Verilated kernel: found by name, served in every timing mode, and
/// checked every cycle by the protocol checker.
#[test]
fn burst_ports_in_verilator() {
    for (n, blen) in [(1, 1), (37, 8), (600, 256), (300, 64)] {
        run_burst_copy(n, blen, MemConfig::ideal(), 0);
        for seed in 0..2 {
            run_burst_copy(n, blen, MemConfig::random_stalls(), seed);
        }
        let s = run_burst_copy(n, blen, MemConfig::sdram(sim::SdramConfig::default()), 0);
        let sd = s.sdram.as_ref().unwrap();
        assert_eq!(sd.bytes_read, 4 * u64::from(n));
        assert_eq!(sd.bytes_written, 4 * u64::from(n));
        assert_eq!(sd.cycles, s.cycles);
    }
    // Long bursts keep the SDRAM busier than single beats (this kernel has one burst in
    // flight at a time, so latency is paid per burst).
    let sdram = || MemConfig::sdram(sim::SdramConfig::default());
    let one = run_burst_copy(1024, 1, sdram(), 0).sdram.unwrap();
    let long = run_burst_copy(1024, 256, sdram(), 0).sdram.unwrap();
    println!("burst_copy of 4 KB, 1-beat bursts: {one}\n256-beat bursts: {long}");
    assert!(long.fraction_of_peak() > 2.0 * one.fraction_of_peak());
}
