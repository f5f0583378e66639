//! Atomics in hardware, measured by `oclhls sim` in Verilator. Prints three Markdown tables
//! (the ones in `docs/benchmarks.md`, section "Atomics"):
//!
//! 1. A 256-bin histogram in local memory: `atomic_inc(&bins[x & 255])` over random elements,
//!    in a loop of one work-item, beside the same loop with a plain `bins[x & 255]++`, and as
//!    NDRange kernels (work-groups of 256 that clear their bins, count, and add them into a
//!    global histogram with `atomic_add`). Cycles per element, ideal memory; goal ≤ 1.05.
//! 2. `atomic_add` to pseudo-random global addresses (a permutation, `(i * 40503 + 17) mod N`)
//!    against the same update as a plain load and store, with memory latencies drawn from
//!    1..=L (no back-pressure): updates per cycle.
//! 3. ECP5 area and Fmax of the two histogram loops of table 1 (Yosys `synth_ecp5` and
//!    nextpnr, out of context, LFE5U-85F-6, target 100 MHz, seed 1), unless `--quick`.
//!
//! ```sh
//! cargo build --release --bin oclhls --example atomic_bench
//! ./target/release/examples/atomic_bench                      # 64 Ki elements, 16 Ki updates
//! ./target/release/examples/atomic_bench --elements 1048576 --quick
//! ```
//!
//! Every run checks its results: the histograms and the updated arrays are computed here
//! (an own SplitMix64 for the test file's `random` data) and `oclhls sim` compares Verilator
//! and the emulator with them. The II of the measured loop comes from `report.json`.

use std::path::{Path, PathBuf};
use std::process::Command;

use board_support::flow::{place_route, synth, PnrOptions, SynthOptions, Target};
use board_support::Device;
use toolchain::Toolchain;

/// The seed of the histogram's `random` data.
const SEED: u64 = 7;

/// SplitMix64 (Steele, Lea, Flood 2014), as `random <seed>` in test files draws values.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `n` values of `uint[n] random seed`.
fn random_u32(seed: u64, n: u32) -> Vec<u32> {
    let mut r = SplitMix64(seed);
    (0..n).map(|_| r.next() as u32).collect()
}

fn join(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// A test file: header (one test named `bench`), then the kernel `k`, whose measured loop (if
/// any) is on the line marked `// measured`.
fn test_file(global: u32, local: u32, args: &str, kernel: &str) -> String {
    format!(
        "/*!\n[config]\nkernel_name: k\n\n[test]\nname: bench\nglobal_size: {global} 1 1\n\
         local_size: {local} 1 1\n{args}!*/\n{kernel}"
    )
}

/// The histogram kernels of table 1: (name, work-items, elements per work-item, source).
fn histogram_kernels(n: u32) -> Vec<(String, u32, u32, String)> {
    let lp = |body: &str| {
        format!(
            "kernel void k(global const uint *restrict data, uint n, global uint *restrict hist) {{\n\
             \x20 local uint bins[256];\n  for (uint b = 0; b < 256; b++)\n    bins[b] = 0;\n\
             \x20 for (uint i = 0; i < n; i++) // measured\n    {body}\n\
             \x20 for (uint b = 0; b < 256; b++)\n    hist[b] = bins[b];\n}}\n"
        )
    };
    let nd = |count: &str| {
        format!(
            "kernel void k(global const uint *restrict data, uint per, global uint *hist) {{\n\
             \x20 local uint bins[256];\n  uint lid = get_local_id(0);\n  bins[lid] = 0;\n\
             \x20 barrier(CLK_LOCAL_MEM_FENCE);\n  size_t base = get_global_id(0) * per;\n\
             {count}  barrier(CLK_LOCAL_MEM_FENCE);\n  atomic_add(&hist[lid], bins[lid]);\n}}\n"
        )
    };
    let mut v = vec![
        (
            "one work-item, `atomic_inc(&bins[x & 255])`".to_string(),
            1,
            n,
            lp("atomic_inc(&bins[data[i] & 255]);"),
        ),
        (
            "one work-item, plain `bins[x & 255]++`".to_string(),
            1,
            n,
            lp("bins[data[i] & 255]++;"),
        ),
        (
            "NDRange, 1 element per work-item".to_string(),
            n,
            1,
            nd("  atomic_inc(&bins[data[base] & 255]); // measured\n"),
        ),
    ];
    for per in [16, 256] {
        if n.is_multiple_of(256 * per) {
            v.push((
                format!("NDRange, {per} elements per work-item"),
                n / per,
                per,
                nd("  for (uint j = 0; j < per; j++) // measured\n    \
                    atomic_inc(&bins[data[base + j] & 255]);\n"),
            ));
        }
    }
    v
}

/// The outcome of one `oclhls sim` run: cycles of the test `bench` if it passed, else why not.
fn simulate(bin: &Path, file: &Path, out: &Path, memory: &[&str]) -> Result<u64, String> {
    let o = Command::new(bin)
        .arg("sim")
        .arg(file)
        .args(memory)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| format!("oclhls: {e} (build it first)"))?;
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("PASS bench") || l.starts_with("FAIL bench"))
        .ok_or_else(|| format!("no result: {}", String::from_utf8_lossy(&o.stderr)))?;
    line.strip_prefix("PASS bench (")
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| line.chars().take(150).collect::<String>().replace('|', "/"))
}

/// The report of a compile in `dir`.
fn report(dir: &Path) -> Option<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).ok()?).ok()
}

/// The II of the loop (or barrier phase) around the line of `src` marked `// measured`: the
/// one that starts last at or before that line.
fn measured_ii(dir: &Path, src: &str) -> String {
    let line = src
        .lines()
        .position(|l| l.contains("// measured"))
        .map_or(0, |i| i as u64 + 1);
    let loops = report(dir)
        .and_then(|r| r["kernels"][0]["loops"].as_array().cloned())
        .unwrap_or_default();
    loops
        .iter()
        .filter(|l| l["line"].as_u64().is_some_and(|s| s <= line))
        .max_by_key(|l| l["line"].as_u64())
        .and_then(|l| l["ii"].as_u64())
        .map_or_else(|| "—".into(), |i| i.to_string())
}

fn histograms(bin: &Path, work: &Path, n: u32) -> Vec<(String, PathBuf)> {
    let data = random_u32(SEED, n);
    let mut hist = [0u32; 256];
    for x in &data {
        hist[(x & 255) as usize] += 1;
    }
    println!("| form | elements | work-items | loop II | cycles | cycles / element |");
    println!("|---|---|---|---|---|---|");
    let mut built = Vec::new();
    for (i, (name, items, per, kernel)) in histogram_kernels(n).into_iter().enumerate() {
        let (by_value, hist_in) = if items == 1 {
            (n, String::new())
        } else {
            (per, "arg_in:  2 buffer uint[256] repeat 0\n".to_string())
        };
        let args = format!(
            "arg_in:  0 buffer uint[{n}] random {SEED}\narg_in:  1 uint {by_value}\n{hist_in}\
             arg_out: 2 buffer uint[256] {}\n",
            join(&hist)
        );
        let local = if items == 1 { 1 } else { 256 };
        let src = test_file(items, local, &args, &kernel);
        let file = work.join(format!("hist{i}.cl"));
        let out = work.join(format!("hist{i}"));
        std::fs::write(&file, &src).expect("write the kernel file");
        eprintln!("{name} ...");
        let r = simulate(bin, &file, &out, &["--ideal-memory"]);
        let ii = measured_ii(&out, &src);
        match r {
            Ok(c) => println!(
                "| {name} | {n} | {items} | {ii} | {c} | {:.3} |",
                c as f64 / f64::from(n)
            ),
            Err(e) => println!("| {name} | {n} | {items} | {ii} | — | {e} |"),
        }
        if items == 1 {
            built.push((name, out));
        }
    }
    built
}

/// Table 2: `atomic_add` against a plain read-modify-write, `ops` updates of `a[j]` by
/// `x = i * 2654435761` (computed, so that the update is the only memory traffic besides the
/// optional store of the old value).
fn updates(bin: &Path, work: &Path, ops: u32) {
    assert!(ops.is_power_of_two(), "--ops must be a power of two");
    let mask = ops - 1;
    let mut a: Vec<u32> = (0..ops).collect();
    for i in 0..ops {
        let j = (i.wrapping_mul(40503).wrapping_add(17) & mask) as usize;
        a[j] = a[j].wrapping_add(i.wrapping_mul(2_654_435_761));
    }
    let ix = format!("(i * 40503u + 17u) & {mask}u");
    let x = "i * 2654435761u";
    let forms = [
        (
            "NDRange, `atomic_add(&a[j], x)`",
            format!("atomic_add(&a[{ix}], {x});"),
        ),
        ("NDRange, plain `a[j] += x`", format!("a[{ix}] += {x};")),
        (
            "NDRange, `old[i] = atomic_add(&a[j], x)`",
            format!("old[i] = atomic_add(&a[{ix}], {x});"),
        ),
        (
            "one work-item, `atomic_add(&a[j], x)`",
            format!("atomic_add(&a[{ix}], {x});"),
        ),
        (
            "one work-item, plain `a[j] += x`",
            format!("a[{ix}] += {x};"),
        ),
    ];
    // The last row builds with the schedule's read latency set to the memory's
    // (`--memory-latency`), so that used responses have room to be in flight.
    let memories: [(&str, Vec<&str>); 4] = [
        ("ideal", vec!["--ideal-memory"]),
        ("1–8", vec!["--stall-prob", "0", "--max-latency", "8"]),
        ("1–40", vec!["--stall-prob", "0", "--max-latency", "40"]),
        (
            "1–40, `--memory-latency 40`",
            vec![
                "--stall-prob",
                "0",
                "--max-latency",
                "40",
                "--memory-latency",
                "40",
            ],
        ),
    ];
    println!("| form | updates | latency (cycles) | loop II | cycles | updates / cycle |");
    println!("|---|---|---|---|---|---|");
    for (f, (name, body)) in forms.iter().enumerate() {
        let single = name.starts_with("one");
        let head = "kernel void k(global uint *a, global uint *restrict old, uint n) {\n";
        let kernel = if single {
            format!("{head}  for (uint i = 0; i < n; i++) // measured\n    {body}\n}}\n")
        } else {
            format!("{head}  uint i = get_global_id(0);\n  {body} // measured\n}}\n")
        };
        // The old values are stored by one form; they are not checked.
        let old = if body.starts_with("old") { ops } else { 1 };
        let args = format!(
            "arg_in:  0 buffer uint[{ops}] iota 0\narg_out: 0 buffer uint[{ops}] {}\n\
             arg_in:  1 buffer uint[{old}] repeat 0\narg_in:  2 uint {ops}\n",
            join(&a)
        );
        let (items, local) = if single { (1, 1) } else { (ops, 256) };
        let src = test_file(items, local, &args, &kernel);
        let file = work.join(format!("update{f}.cl"));
        std::fs::write(&file, &src).expect("write the kernel file");
        for (m, (lat, opts)) in memories.iter().enumerate() {
            eprintln!("{name}, latency {lat} ...");
            let out = work.join(format!("update{f}_{m}"));
            let r = simulate(bin, &file, &out, opts);
            let ii = measured_ii(&out, &src);
            match r {
                Ok(c) => println!(
                    "| {name} | {ops} | {lat} | {ii} | {c} | {:.3} |",
                    f64::from(ops) / c as f64
                ),
                Err(e) => println!("| {name} | {ops} | {lat} | {ii} | — | {e} |"),
            }
        }
    }
}

/// Table 3: synthesis and out-of-context place and route of each compiled kernel.
fn fpga(work: &Path, built: &[(String, PathBuf)]) {
    let tc = Toolchain::new(false);
    println!("| kernel | LUT | FF | EBR | Fmax (MHz) |");
    println!("|---|---|---|---|---|");
    for (i, (name, dir)) in built.iter().enumerate() {
        eprintln!("ECP5: {name} ...");
        let row = (|| -> Result<String, String> {
            let r = report(dir).ok_or("no report.json")?;
            let k = &r["kernels"][0];
            let top = k["interface"]["module"].as_str().ok_or("no module")?;
            let files: Vec<PathBuf> = std::iter::once(&k["verilog"])
                .chain(k["support_files"].as_array().ok_or("no support files")?)
                .filter_map(|f| f.as_str().map(|f| dir.join(f)))
                .collect();
            let device = Device::ecp5("LFE5U-85F", "CABGA381", 6).map_err(|e| e.to_string())?;
            let fdir = work.join(format!("fpga{i}"));
            let mut sopts = SynthOptions::new(fdir.join("synth"));
            sopts.require_clean_check = false;
            let s = synth(&tc, &files, top, &sopts).map_err(|e| e.to_string())?;
            let opts = PnrOptions::out_of_context(fdir.join("pnr"), 100.0).seed(1);
            let p = place_route(&tc, &s.netlist, Target::Device(device), &opts)
                .map_err(|e| e.to_string())?;
            Ok(format!(
                "{} | {} | {} | {:.1}",
                p.luts().used,
                p.ffs().used,
                p.ebr().used,
                p.fmax_mhz().ok_or("nextpnr reported no clock")?
            ))
        })();
        match row {
            Ok(r) => println!("| {name} | {r} |"),
            Err(e) => println!("| {name} | — | — | — | {} |", e.replace('|', "/")),
        }
    }
}

fn main() {
    let mut elements = 65536u32;
    let mut ops = 16384u32;
    let mut quick = false;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut num = || -> u32 {
            it.next()
                .and_then(|n| n.parse().ok())
                .expect("a number after --elements / --ops")
        };
        match a.as_str() {
            "--elements" => elements = num(),
            "--ops" => ops = num(),
            "--quick" => quick = true,
            other => panic!("unknown argument {other}: [--elements N] [--ops N] [--quick]"),
        }
    }
    let exe = std::env::current_exe().expect("own path");
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("oclhls"))
        .expect("target directory");
    let work = PathBuf::from("target/atomic-bench");
    std::fs::create_dir_all(&work).expect("work directory");
    let built = histograms(&bin, &work, elements);
    println!();
    updates(&bin, &work, ops);
    if !quick {
        println!();
        fpga(&work, &built);
    }
}
