//! Benchmark: schedule the MachSuite loop graphs shipped with HatScheT, verify every
//! schedule independently, print a table and a summary.
//!
//! ```text
//! cargo run --release -p scheduler --example machsuite -- [DIR] [--jsonl FILE] [--limit-ms N]
//!     [--period NS] [--base-only] [--filter SUBSTR] [--heuristic-only] [--form auto|structured|aggregated]
//!     [--objective regs|length|feasibility] [--quiet] [--verbose] [--mii-only] [--max-ii N]
//! ```
//!
//! `--period NS` sets a clock period (chaining constraints derived by the scheduler) on
//! every instance; without it the graphs are scheduled as given (the `.200MHz` variants
//! carry HatScheT's own chaining edges). Exit status 1 if any loop is unscheduled or fails
//! verification.

#[path = "../tests/common/hatschet.rs"]
mod hatschet;

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use scheduler::{DependenceForm, Objective, Options};

struct Row {
    path: String,
    ops: usize,
    res_mii: u32,
    rec_mii: u32,
    mii: u32,
    ii: Option<u32>,
    optimal: bool,
    solve_ms: f64,
    method: String,
    overturned: usize,
    error: Option<String>,
}

fn usage() -> ! {
    eprintln!(
        "usage: machsuite [DIR] [--jsonl FILE] [--limit-ms N] [--period NS] [--base-only] \
         [--filter SUBSTR] [--heuristic-only] [--form auto|structured|aggregated] \
         [--objective regs|length|feasibility] [--quiet] [--verbose] [--mii-only] [--max-ii N]"
    );
    std::process::exit(2)
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[pos]
}

/// The command line.
struct Cli {
    dir: PathBuf,
    jsonl: Option<PathBuf>,
    opts: Options,
    period: Option<f64>,
    base_only: bool,
    filter: Option<String>,
    quiet: bool,
    verbose: bool,
    mii_only: bool,
}

fn parse_args() -> Cli {
    let mut dir = hatschet::default_dir();
    let mut jsonl: Option<PathBuf> = None;
    let mut opts = Options::default();
    let mut period: Option<f64> = None;
    let mut base_only = false;
    let mut filter: Option<String> = None;
    let mut quiet = false;
    let mut verbose = false;
    let mut mii_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--jsonl" => jsonl = Some(args.next().unwrap_or_else(|| usage()).into()),
            "--limit-ms" => {
                let ms: u64 = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| usage());
                opts.time_limit_per_ii = Duration::from_millis(ms);
            }
            "--period" => {
                period = Some(
                    args.next()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or_else(|| usage()),
                )
            }
            "--base-only" => base_only = true,
            "--filter" => filter = Some(args.next().unwrap_or_else(|| usage())),
            "--heuristic-only" => opts.use_ilp = false,
            "--quiet" => quiet = true,
            "--verbose" => verbose = true,
            "--mii-only" => mii_only = true,
            "--max-ii" => {
                opts.max_ii = Some(
                    args.next()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or_else(|| usage()),
                )
            }
            "--form" => {
                opts.dependence_form = match args.next().as_deref() {
                    Some("auto") => DependenceForm::Auto,
                    Some("structured") => DependenceForm::Structured,
                    Some("aggregated") => DependenceForm::Aggregated,
                    _ => usage(),
                }
            }
            "--objective" => {
                opts.objective = match args.next().as_deref() {
                    Some("regs") => Objective::LengthThenRegisters,
                    Some("length") => Objective::Length,
                    Some("feasibility") => Objective::Feasibility,
                    _ => usage(),
                }
            }
            s if s.starts_with('-') => usage(),
            s => dir = PathBuf::from(s),
        }
    }
    Cli {
        dir,
        jsonl,
        opts,
        period,
        base_only,
        filter,
        quiet,
        verbose,
        mii_only,
    }
}

/// The summary after the table; `failed` rows had no valid schedule.
fn print_summary(rows: &[Row]) -> usize {
    let ok: Vec<&Row> = rows.iter().filter(|r| r.error.is_none()).collect();
    let failed = rows.len() - ok.len();
    let at_mii = ok.iter().filter(|r| r.ii == Some(r.mii)).count();
    let ratio: f64 = ok
        .iter()
        .map(|r| f64::from(r.ii.unwrap_or(0)) / f64::from(r.mii.max(1)))
        .sum::<f64>()
        / ok.len().max(1) as f64;
    let mut times: Vec<f64> = ok.iter().map(|r| r.solve_ms).collect();
    times.sort_by(f64::total_cmp);
    let mut small: Vec<f64> = ok
        .iter()
        .filter(|r| r.ops < 100)
        .map(|r| r.solve_ms)
        .collect();
    small.sort_by(f64::total_cmp);
    let not_opt: Vec<&str> = ok
        .iter()
        .filter(|r| !r.optimal)
        .map(|r| r.path.as_str())
        .collect();
    let overturns: usize = ok.iter().map(|r| r.overturned).sum();
    let fallback = ok.iter().filter(|r| r.method == "Fallback").count();
    println!();
    println!("instances:              {}", rows.len());
    println!("unscheduled/invalid:    {failed}");
    println!(
        "II = MII:               {at_mii}/{} ({:.1} %)",
        ok.len(),
        100.0 * at_mii as f64 / ok.len().max(1) as f64
    );
    println!("mean II/MII:            {ratio:.4}");
    println!(
        "solve ms median / p90:  {:.2} / {:.2} (all), {:.2} / {:.2} (< 100 ops, {} loops), max {:.1}",
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&small, 0.5),
        percentile(&small, 0.9),
        small.len(),
        times.last().copied().unwrap_or(0.0)
    );
    println!("not proven optimal:     {} {:?}", not_opt.len(), not_opt);
    println!("re-check overturns:     {overturns}");
    println!("fallback used:          {fallback}");
    failed
}

fn main() {
    let Cli {
        dir,
        jsonl,
        opts,
        period,
        base_only,
        filter,
        quiet,
        verbose,
        mii_only,
    } = parse_args();
    let files = match hatschet::instances(&dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2)
        }
    };
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| !base_only || !f.to_string_lossy().contains(".200MHz."))
        .filter(|f| {
            filter
                .as_ref()
                .is_none_or(|s| f.to_string_lossy().contains(s.as_str()))
        })
        .collect();

    let mut out = jsonl.as_ref().map(|p| {
        std::fs::File::create(p).unwrap_or_else(|e| {
            eprintln!("error: {}: {e}", p.display());
            std::process::exit(2)
        })
    });

    if !quiet {
        println!(
            "{:<40} {:>5} {:>6} {:>6} {:>4} {:>4} {:>4} {:>9} {:>10}",
            "path", "ops", "resMII", "recMII", "MII", "II", "opt", "solve_ms", "method"
        );
    }
    let mut rows = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&dir)
            .unwrap_or(f)
            .to_string_lossy()
            .into_owned();
        let mut row = Row {
            path: rel.clone(),
            ops: 0,
            res_mii: 0,
            rec_mii: 0,
            mii: 0,
            ii: None,
            optimal: false,
            solve_ms: 0.0,
            method: String::new(),
            overturned: 0,
            error: None,
        };
        match hatschet::load(f) {
            Err(e) => row.error = Some(e),
            Ok(mut p) => {
                if period.is_some() {
                    p.clock_period_ns = period;
                }
                row.ops = p.ops.len();
                let mut opts = opts.clone();
                if mii_only {
                    opts.max_ii = Some(scheduler::res_mii(&p).0.max(scheduler::rec_mii(&p).0));
                }
                let t0 = Instant::now();
                let r = scheduler::schedule(&p, &opts);
                row.solve_ms = t0.elapsed().as_secs_f64() * 1e3;
                match r {
                    Err(e) => row.error = Some(e.to_string()),
                    Ok(s) => {
                        row.res_mii = s.res_mii;
                        row.rec_mii = s.rec_mii;
                        row.mii = s.mii;
                        row.ii = Some(s.ii);
                        row.optimal = s.optimal;
                        row.method = format!("{:?}", s.stats.method);
                        row.overturned = s.stats.overturned.len();
                        if verbose {
                            for a in &s.stats.attempts {
                                eprintln!(
                                    "  {rel}: II {} heuristic {} feas {:?} ilp {:?} size {:?} {:.1} ms",
                                    a.ii, a.heuristic, a.feasibility, a.ilp, a.ilp_size, a.ms
                                );
                            }
                        }
                        if let Err(v) = scheduler::verify(&p, &s) {
                            row.error = Some(format!("verification failed: {v:?}"));
                        }
                    }
                }
            }
        }
        if !quiet || row.error.is_some() {
            println!(
                "{:<40} {:>5} {:>6} {:>6} {:>4} {:>4} {:>4} {:>9.2} {:>10}{}",
                row.path,
                row.ops,
                row.res_mii,
                row.rec_mii,
                row.mii,
                row.ii.map_or("-".to_string(), |x| x.to_string()),
                if row.optimal { "yes" } else { "no" },
                row.solve_ms,
                row.method,
                row.error
                    .as_ref()
                    .map_or(String::new(), |e| format!("  ERROR: {e}")),
            );
        }
        if let Some(out) = out.as_mut() {
            let obj = serde_json::json!({
                "path": row.path,
                "ops": row.ops,
                "res_mii": row.res_mii,
                "rec_mii": row.rec_mii,
                "mii": row.mii,
                "ii": row.ii,
                "optimal": row.optimal,
                "solve_ms": row.solve_ms,
            });
            if let Err(e) = writeln!(out, "{obj}") {
                eprintln!("error writing jsonl: {e}");
                std::process::exit(2)
            }
        }
        rows.push(row);
    }

    let failed = print_summary(&rows);
    if failed > 0 {
        std::process::exit(1);
    }
}
