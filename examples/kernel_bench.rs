//! The kernel benchmark: compile every kernel file of a suite with oclhls, simulate its first
//! test in Verilator with ideal memory, place and route each kernel on an ECP5 next to a
//! 32-bit counter, and print one Markdown row per loop (the table in `docs/benchmarks.md`,
//! section "Kernel benchmark").
//!
//! ```text
//! cargo build --release
//! cargo run --release --example kernel_bench -- [--quick] [--seed N | --seeds N] [--freq MHZ]
//!     [--peer FILE.v:TOP:LABEL]... [--work DIR] [PATH...]
//! ```
//!
//! PATH is a kernel file or a directory of them (default: `tests/kernels/`, `bench/kernels/`
//! and `examples/vadd.cl`). `--quick` leaves out synthesis and place and route. A file that does not
//! compile is a "not yet supported" row with its first diagnostic, never skipped. A benchmark,
//! not a test: nothing here asserts a number.
//!
//! Place and route: out of context at the target `--freq` (default 100 MHz; the kernels are
//! scheduled for 100 MHz whatever the target: a target above what any design reaches keeps
//! nextpnr from stopping at it), with seed `--seed N` (default 1) or seeds 1 to N
//! (`--seeds N`: one synthesis, N placements; the Fmax column is the median and each seed's).
//! A `--peer` design (a Verilog file and its top module, e.g. Amaranth's FIFO from
//! `scripts/fmax_bench.sh`) is placed and routed in the same run, a row of its own at the end.
//!
//! The ideal cycle count of a launch assumes the RTL's sequencing of nested loops (the parent
//! pipeline waits while a nested loop runs) and a memory that answers at once:
//! `ideal = sum over loops L of (iterations(L) * II(L) + entries(L) * depth(L))`, where the
//! work-item loop has `iterations` = work-items and one entry, and a nested loop is entered once
//! per iteration of its parent and runs `trip_count` iterations per entry. A loop whose trip
//! count the compiler does not know takes it from a `// kernel_bench: LOOP iterations N` line in
//! the kernel file (the total iterations of that loop in the file's first test, which follows
//! from the test's inputs); without one the ideal is not given.

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use board_support::flow::{place_route, synth, PnrOptions, SynthOptions, Target};
use board_support::Device;
use serde::{Deserialize, Serialize};
use toolchain::Toolchain;

struct Args {
    quick: bool,
    place: Placement,
    /// Peer designs: Verilog file, top module, label.
    peers: Vec<(PathBuf, String, String)>,
    work: PathBuf,
    paths: Vec<PathBuf>,
}

/// Where designs are placed and routed: the target frequency and the placement seeds.
struct Placement {
    freq: f64,
    seeds: Vec<u64>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        quick: false,
        place: Placement {
            freq: 100.0,
            seeds: vec![1],
        },
        peers: Vec::new(),
        work: PathBuf::from("target/kernel-bench"),
        paths: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--quick" => a.quick = true,
            "--seed" => {
                let n = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?;
                a.place.seeds = vec![n];
            }
            "--seeds" => {
                let n: u64 = value("--seeds")?
                    .parse()
                    .map_err(|e| format!("--seeds: {e}"))?;
                if n == 0 {
                    return Err("--seeds must be at least 1".into());
                }
                a.place.seeds = (1..=n).collect();
            }
            "--freq" => {
                a.place.freq = value("--freq")?
                    .parse()
                    .map_err(|e| format!("--freq: {e}"))?;
                if !(a.place.freq > 0.0 && a.place.freq < 1000.0) {
                    return Err("--freq: a frequency in MHz between 0 and 1000".into());
                }
            }
            "--peer" => {
                let v = value("--peer")?;
                match v.splitn(3, ':').collect::<Vec<_>>()[..] {
                    [f, top, label] => a.peers.push((f.into(), top.into(), label.into())),
                    _ => return Err(format!("--peer {v}: expected FILE.v:TOP:LABEL")),
                }
            }
            "--work" => a.work = value("--work")?.into(),
            f if !f.starts_with("--") => a.paths.push(f.into()),
            other => {
                return Err(format!(
                    "unknown option {other}\nusage: kernel_bench [--quick] [--seed N | --seeds N] \
                     [--freq MHZ] [--peer FILE.v:TOP:LABEL]... [--work DIR] [PATH...]"
                ))
            }
        }
    }
    if a.paths.is_empty() {
        a.paths = vec![
            "tests/kernels".into(),
            "bench/kernels".into(),
            "examples/vadd.cl".into(),
        ];
    }
    Ok(a)
}

/// The fields of `report.json` the bench reads.
#[derive(Deserialize)]
struct Report {
    kernels: Vec<KernelReport>,
}

#[derive(Deserialize)]
struct KernelReport {
    name: String,
    verilog: String,
    support_files: Vec<String>,
    loops: Vec<LoopReport>,
}

#[derive(Deserialize)]
struct LoopReport {
    name: String,
    line: u32,
    parent: Option<String>,
    ii: u32,
    mii: u32,
    depth: u32,
    trip_count: Option<u64>,
    optimal: bool,
    ops: usize,
    solve_ms: f64,
}

/// One placement of a design (cached in its directory by the files' content, the target and
/// the seed).
#[derive(Serialize, Deserialize, Clone, Copy)]
struct Placed {
    hash: u64,
    fmax_mhz: f64,
    luts: u64,
    ffs: u64,
    dsps: u64,
    ebrs: u64,
}

/// A design's placements, one per seed (in seed order).
#[derive(Clone)]
struct Fpga {
    placed: Vec<Placed>,
}

impl Fpga {
    /// The median Fmax over the seeds (the lower middle of an even count).
    fn fmax_mhz(&self) -> f64 {
        let mut f: Vec<f64> = self.placed.iter().map(|p| p.fmax_mhz).collect();
        f.sort_by(f64::total_cmp);
        f[(f.len() - 1) / 2]
    }

    /// The median, and each seed's after it when there are several.
    fn fmax_text(&self) -> String {
        let m = format!("{:.1}", self.fmax_mhz());
        if self.placed.len() < 2 {
            return m;
        }
        let each: Vec<String> = self
            .placed
            .iter()
            .map(|p| format!("{:.1}", p.fmax_mhz))
            .collect();
        format!("{m} ({})", each.join(" / "))
    }

    /// LUT / FF / DSP / EBR of the first seed's placement.
    fn area_text(&self) -> String {
        let p = &self.placed[0];
        format!("{} / {} / {} / {}", p.luts, p.ffs, p.dsps, p.ebrs)
    }
}

fn files_of(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            v.retain(|f| f.extension().is_some_and(|e| e == "cl"));
            v.sort();
            out.extend(v);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            eprintln!("note: {} does not exist", p.display());
        }
    }
    out
}

/// The oclhls binary built next to this example (`target/release/oclhls`).
fn oclhls_bin() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join(format!("oclhls{}", std::env::consts::EXE_SUFFIX)))
        .ok_or("cannot locate the target directory")?;
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!(
            "{} not found: run `cargo build --release` first",
            bin.display()
        ))
    }
}

/// `loop1` for the report's `rowsum.loop1`.
fn short_name(loop_name: &str) -> &str {
    loop_name.rsplit('.').next().unwrap_or(loop_name)
}

/// `// kernel_bench: loop1 iterations 40` lines of a kernel file.
fn declared_iterations(src: &str) -> BTreeMap<String, u64> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("// kernel_bench:"))
        .filter_map(|rest| {
            let w: Vec<&str> = rest.split_whitespace().collect();
            match w.as_slice() {
                [lp, "iterations", n, ..] => n.parse().ok().map(|n| (lp.to_string(), n)),
                _ => None,
            }
        })
        .collect()
}

/// Runs `oclhls sim` with ideal memory; the cycles of the first test, or why there are none.
fn simulate(bin: &Path, file: &Path, out: &Path, test: &str) -> Result<u64, String> {
    let o = Command::new(bin)
        .arg("sim")
        .arg(file)
        .arg("--ideal-memory")
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&o.stdout);
    let prefix = format!("PASS {test} (");
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix(&prefix) {
            return rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or(format!("unexpected sim output: {line}"));
        }
        if line.starts_with(&format!("FAIL {test}")) {
            return Err(line.chars().take(120).collect());
        }
    }
    Err(format!(
        "no result for test `{test}`: {}",
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .next()
            .unwrap_or("")
    ))
}

fn hash_files(files: &[PathBuf], seed: u64, freq: f64) -> u64 {
    let mut h = DefaultHasher::new();
    for f in files {
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    seed.hash(&mut h);
    freq.to_bits().hash(&mut h);
    h.finish()
}

/// Synthesis (once) and out-of-context place and route at the target for each seed, each
/// placement cached by the files' content, the target and the seed.
fn implement(
    tc: &Toolchain,
    files: &[PathBuf],
    top: &str,
    dir: &Path,
    place: &Placement,
) -> Result<Fpga, String> {
    let mut placed = Vec::new();
    let mut netlist: Option<PathBuf> = None;
    for &seed in &place.seeds {
        let hash = hash_files(files, seed, place.freq);
        let cache = dir.join(format!("fpga-{}mhz-s{seed}.json", place.freq));
        let cached = std::fs::read_to_string(&cache)
            .ok()
            .and_then(|t| serde_json::from_str::<Placed>(&t).ok())
            .filter(|p| p.hash == hash);
        if let Some(p) = cached {
            placed.push(p);
            continue;
        }
        let net = match &netlist {
            Some(n) => n.clone(),
            None => {
                let mut sopts = SynthOptions::new(dir.join("synth"));
                sopts.require_clean_check = false;
                let s = synth(tc, files, top, &sopts).map_err(|e| e.to_string())?;
                netlist.insert(s.netlist).clone()
            }
        };
        let device = Device::ecp5("LFE5U-85F", "CABGA381", 6).map_err(|e| e.to_string())?;
        let opts =
            PnrOptions::out_of_context(dir.join(format!("pnr-s{seed}")), place.freq).seed(seed);
        let p = place_route(tc, &net, Target::Device(device), &opts).map_err(|e| e.to_string())?;
        let p = Placed {
            hash,
            fmax_mhz: p.fmax_mhz().ok_or("nextpnr reported no clock")?,
            luts: p.luts().used,
            ffs: p.ffs().used,
            dsps: p.dsp().used,
            ebrs: p.ebr().used,
        };
        let _ = std::fs::write(&cache, serde_json::to_string(&p).unwrap_or_default());
        placed.push(p);
    }
    Ok(Fpga { placed })
}

const COUNTER: &str = "module counter32 (\n  input clk,\n  output reg [31:0] q\n);\n  \
                       always @(posedge clk) q <= q + 32'd1;\nendmodule\n";

/// Iterations and entries of every loop of one kernel for the first test, from the work-item
/// count, the compiler's trip counts and the file's declarations.
fn loop_counts(
    k: &KernelReport,
    items: u64,
    declared: &BTreeMap<String, u64>,
) -> BTreeMap<String, (Option<u64>, Option<u64>)> {
    let mut counts: BTreeMap<String, (Option<u64>, Option<u64>)> = BTreeMap::new();
    // Parents come before their children in the report (regions are numbered outside-in), but
    // do not rely on it: iterate until nothing changes.
    for _ in 0..=k.loops.len() {
        for l in &k.loops {
            let (entries, parent_iters) = match &l.parent {
                None => (Some(1), None),
                Some(p) => {
                    let pi = counts.get(p).and_then(|c| c.0);
                    (pi, pi)
                }
            };
            let iters = if l.parent.is_none() {
                Some(items)
            } else if let Some(&d) = declared.get(short_name(&l.name)) {
                Some(d)
            } else {
                l.trip_count.zip(parent_iters).map(|(t, p)| t * p)
            };
            counts.insert(l.name.clone(), (iters, entries));
        }
    }
    counts
}

fn run(a: Args) -> Result<(), String> {
    let bin = oclhls_bin()?;
    let tc = Toolchain::new(false);
    std::fs::create_dir_all(&a.work).map_err(|e| e.to_string())?;
    let counter = if a.quick {
        None
    } else {
        let dir = a.work.join("counter32");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let f = dir.join("counter32.v");
        std::fs::write(&f, COUNTER).map_err(|e| e.to_string())?;
        eprintln!("counter32 ...");
        Some(implement(&tc, &[f], "counter32", &dir, &a.place)?)
    };
    let mut rows = Vec::new();
    let mut unsupported = Vec::new();
    for file in files_of(&a.paths) {
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        eprintln!("{stem} ...");
        let src = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        let out = a.work.join(&stem);
        let o = Command::new(&bin)
            .arg(&file)
            .arg("-o")
            .arg(&out)
            .output()
            .map_err(|e| e.to_string())?;
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            let first = err
                .lines()
                .find(|l| l.starts_with("error"))
                .or_else(|| err.lines().next())
                .unwrap_or("")
                .to_string();
            unsupported.push((file.display().to_string(), first));
            continue;
        }
        let report: Report = std::fs::read_to_string(out.join("report.json"))
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))?;
        let first_test = match testfile::parse(&file.display().to_string(), &src) {
            Ok(Some(t)) => t
                .tests
                .into_iter()
                .next()
                .ok_or("the file has no test".to_string()),
            Ok(None) => Err("the file has no test header".to_string()),
            Err(e) => Err(e
                .first()
                .map_or(String::new(), |e| format!("line {}: {}", e.line, e.message))),
        };
        let sim_cycles = match &first_test {
            Ok(t) => simulate(&bin, &file, &a.work.join(format!("{stem}-sim")), &t.name),
            Err(e) => Err(e.clone()),
        };
        let declared = declared_iterations(&src);
        for k in &report.kernels {
            let fpga = if a.quick {
                None
            } else {
                let files: Vec<PathBuf> = std::iter::once(&k.verilog)
                    .chain(&k.support_files)
                    .map(|f| out.join(f))
                    .collect();
                Some(implement(
                    &tc,
                    &files,
                    &k.name,
                    &a.work.join(format!("{stem}-{}-fpga", k.name)),
                    &a.place,
                ))
            };
            let ours = first_test.as_ref().ok().filter(|t| t.kernel_name == k.name);
            let items = ours.map(|t| {
                t.global_size
                    .iter()
                    .take(t.dimensions as usize)
                    .map(|&g| g as u64)
                    .product::<u64>()
            });
            let counts = items.map(|n| loop_counts(k, n, &declared));
            let ideal: Option<u64> = counts.as_ref().and_then(|c| {
                k.loops
                    .iter()
                    .map(|l| {
                        let (it, en) = c[&l.name];
                        Some(it? * l.ii as u64 + en? * l.depth as u64)
                    })
                    .sum()
            });
            let cycles = match (&ours, &sim_cycles) {
                (Some(_), Ok(c)) => Ok(*c),
                (_, Err(e)) => Err(e.clone()),
                (None, Ok(_)) => Err("not the kernel of the first test".to_string()),
            };
            for l in &k.loops {
                let iters = counts.as_ref().and_then(|c| c[&l.name].0);
                rows.push(Row {
                    kernel: format!("{stem}/{}", k.name),
                    lp: format!("{} (line {})", short_name(&l.name), l.line),
                    ops: l.ops,
                    mii: l.mii,
                    ii: l.ii,
                    optimal: l.optimal,
                    solve_ms: l.solve_ms,
                    depth: l.depth,
                    trip: l.trip_count,
                    iters,
                    cycles: cycles.clone(),
                    ideal,
                    first: l.parent.is_none(),
                    fpga: fpga.clone(),
                });
            }
        }
    }
    let mut peers = Vec::new();
    for (i, (file, top, label)) in a.peers.iter().enumerate() {
        eprintln!("peer {label} ...");
        let dir = a.work.join(format!("peer{i}-{top}"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        peers.push((
            label.clone(),
            implement(&tc, std::slice::from_ref(file), top, &dir, &a.place),
        ));
    }
    print_table(&a, counter.as_ref(), &rows, &unsupported, &peers);
    Ok(())
}

struct Row {
    kernel: String,
    lp: String,
    ops: usize,
    mii: u32,
    ii: u32,
    optimal: bool,
    solve_ms: f64,
    depth: u32,
    trip: Option<u64>,
    iters: Option<u64>,
    cycles: Result<u64, String>,
    ideal: Option<u64>,
    /// The work-item loop: the row that carries the kernel-wide numbers.
    first: bool,
    fpga: Option<Result<Fpga, String>>,
}

/// The peer designs' rows: a label and its placements (or why there are none).
type PeerRows = [(String, Result<Fpga, String>)];

fn print_table(
    a: &Args,
    counter: Option<&Fpga>,
    rows: &[Row],
    unsupported: &[(String, String)],
    peers: &PeerRows,
) {
    let seeds = match &a.place.seeds[..] {
        [s] => format!("seed {s}"),
        s => format!(
            "seeds 1 to {} (Fmax: the median, then each seed's)",
            s.len()
        ),
    };
    if let Some(c) = counter {
        let p = &c.placed[0];
        println!(
            "LFE5U-85F-6 CABGA381, out of context, target {} MHz, {seeds}: 32-bit counter \
             {} MHz ({} LUT, {} FF)",
            a.place.freq,
            c.fmax_text(),
            p.luts,
            p.ffs
        );
        println!();
    }
    println!(
        "| kernel | loop | ops | MII | II | optimal | solve (ms) | depth | trip count | \
         iterations (1st test) | cycles (Verilator) | ideal | cycles / ideal | cycles / \
         iteration | Fmax (MHz) | Fmax / counter | LUT / FF / DSP / EBR |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let dash = || "—".to_string();
        let (cyc, ratio) = match (&r.cycles, r.ideal) {
            (Ok(c), Some(i)) if r.first => (c.to_string(), format!("{:.3}", *c as f64 / i as f64)),
            (Ok(c), None) if r.first => (c.to_string(), dash()),
            (Err(e), _) if r.first => (format!("({e})"), dash()),
            _ => ("〃".to_string(), dash()),
        };
        let per_iter = match (&r.cycles, r.iters) {
            (Ok(c), Some(n)) if n > 0 => format!("{:.2}", *c as f64 / n as f64),
            _ => dash(),
        };
        let (fmax, rel, area) = match &r.fpga {
            Some(f) if r.first => fpga_cells(f, counter),
            _ => (dash(), dash(), dash()),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            if r.first { &r.kernel } else { "" },
            r.lp,
            r.ops,
            r.mii,
            r.ii,
            if r.optimal { "yes" } else { "no" },
            r.solve_ms,
            r.depth,
            r.trip.map_or(dash(), |t| t.to_string()),
            r.iters.map_or(dash(), |t| t.to_string()),
            cyc,
            if r.first {
                r.ideal.map_or(dash(), |i| i.to_string())
            } else {
                "〃".into()
            },
            ratio,
            per_iter,
            fmax,
            rel,
            area
        );
    }
    for (f, why) in unsupported {
        println!("| {f} | not yet supported: {why} | | | | | | | | | | | | | | | |");
    }
    for (label, f) in peers {
        let (fmax, rel, area) = fpga_cells(f, counter);
        println!("| peer: {label} | | | | | | | | | | | | | | {fmax} | {rel} | {area} |");
    }
}

/// The Fmax, Fmax / counter and area cells of a design's placements.
fn fpga_cells(f: &Result<Fpga, String>, counter: Option<&Fpga>) -> (String, String, String) {
    match f {
        Ok(f) => (
            f.fmax_text(),
            counter.map_or("—".into(), |c| {
                format!("{:.2}", f.fmax_mhz() / c.fmax_mhz())
            }),
            f.area_text(),
        ),
        Err(e) => (format!("({e})"), "—".into(), "—".into()),
    }
}

fn main() -> ExitCode {
    match parse_args() {
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
        Ok(a) => match run(a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
