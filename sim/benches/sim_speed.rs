//! Simulation speed: `cargo bench -p sim --bench sim_speed`. Prints a table; not a test.
//!
//! Builds the `copy_inc` test kernel into a fresh cache (so the build time is measured too),
//! then reports simulated cycles per second for bare clock ticks and for kernel runs with an
//! ideal and a stalling memory.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use sim::{build_model, BuildOptions, GlobalMemory, KernelRun, MemConfig, NdRange, RunConfig};

fn main() {
    let cache = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        ..Default::default()
    };
    let t = Instant::now();
    let model = build_model(common::toolchain(), &common::copy_inc_source(), &opts).unwrap();
    println!(
        "{:<34} {:>10.2} s",
        "model build (fresh cache)",
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let _again = build_model(common::toolchain(), &common::copy_inc_source(), &opts).unwrap();
    println!(
        "{:<34} {:>10.2} ms",
        "model build (cache hit)",
        t.elapsed().as_secs_f64() * 1e3
    );

    let mut m = model.instantiate().unwrap();
    let n = 2_000_000;
    let t = Instant::now();
    m.ticks(n).unwrap();
    report("ticks(n), no testbench", n, t);
    let t = Instant::now();
    for _ in 0..n {
        m.tick().unwrap();
    }
    report("tick() per cycle", n, t);

    for (name, memory) in [
        ("kernel run, ideal memory", MemConfig::ideal()),
        ("kernel run, random stalls", MemConfig::random_stalls()),
    ] {
        let mut m = model.instantiate().unwrap();
        let mut mem = GlobalMemory::new();
        let len = 100_000u32;
        let a = mem.alloc_init(&(0..len).collect::<Vec<u32>>()).unwrap();
        let b = mem.alloc(4 * len as usize, 4).unwrap();
        let t = Instant::now();
        let stats = KernelRun::new(&mut m)
            .arg("a", a.into())
            .arg("b", b.into())
            .arg("picky", 1)
            .range(NdRange::linear(len, 1))
            .config(RunConfig {
                memory,
                ..RunConfig::default()
            })
            .run(&mut mem)
            .unwrap();
        report(name, stats.cycles, t);
        assert_eq!(mem.read::<u32>(b + 4 * (len - 1), 1).unwrap(), vec![len]);
    }
}

fn report(what: &str, cycles: u64, t: Instant) {
    let s = t.elapsed().as_secs_f64();
    println!(
        "{what:<34} {:>10} cycles {:>8.3} s {:>8.2} Mcycles/s",
        cycles,
        s,
        cycles as f64 / s / 1e6
    );
}
