//! `kernel-fuzz COUNT SEED [options]`: generates COUNT random kernels from SEED, runs each
//! through `oclhls sim` and Verilator lint, reduces every failure and saves it under
//! `tests/fuzz-regressions/`. The last line is `N kernels, M mismatches, K crashes`; the exit
//! status is 1 when M or K is not 0 (hangs count as crashes).

use kernel_fuzz::case::Case;
use kernel_fuzz::check::{Checker, Class, Failure, Verdict};
use kernel_fuzz::reduce::{self, Oracle};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: kernel-fuzz COUNT SEED [--oclhls PATH] [--work DIR] [--save DIR] \
                     [--timeout SECS] [--reduce-secs SECS] [--only I] [--from I] [--jobs N] [--print]";

struct Opts {
    count: u32,
    seed: u64,
    oclhls: PathBuf,
    work: PathBuf,
    save: PathBuf,
    timeout: u64,
    reduce_secs: u64,
    print: bool,
    /// Only case `I` (to reproduce one case of a run).
    only: Option<u32>,
    /// The first case to check (to continue a long run where an earlier one stopped).
    from: u32,
    /// Cases checked at the same time (each in its own worker thread and `oclhls` processes).
    jobs: usize,
}

fn parse_args() -> Result<Opts, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut pos = Vec::new();
    let mut o = Opts {
        count: 0,
        seed: 0,
        oclhls: PathBuf::from("target/release/oclhls"),
        work: PathBuf::from("target/kernel-fuzz"),
        save: PathBuf::from("tests/fuzz-regressions"),
        timeout: 600,
        reduce_secs: 600,
        print: false,
        only: None,
        jobs: 1,
        from: 0,
    };
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().ok_or(format!("{a} needs a value\n{USAGE}"));
        match a.as_str() {
            "--oclhls" => o.oclhls = val()?.into(),
            "--work" => o.work = val()?.into(),
            "--save" => o.save = val()?.into(),
            "--timeout" => o.timeout = val()?.parse().map_err(|e| format!("--timeout: {e}"))?,
            "--reduce-secs" => {
                o.reduce_secs = val()?.parse().map_err(|e| format!("--reduce-secs: {e}"))?
            }
            "--print" => o.print = true,
            "--from" => o.from = val()?.parse().map_err(|e| format!("--from: {e}"))?,
            "--jobs" => o.jobs = val()?.parse().map_err(|e| format!("--jobs: {e}"))?,
            "--only" => o.only = Some(val()?.parse().map_err(|e| format!("--only: {e}"))?),
            "-h" | "--help" => return Err(USAGE.into()),
            _ => pos.push(a),
        }
    }
    if pos.len() != 2 {
        return Err(USAGE.into());
    }
    o.count = pos[0].parse().map_err(|e| format!("COUNT: {e}"))?;
    o.seed = pos[1].parse().map_err(|e| format!("SEED: {e}"))?;
    Ok(o)
}

/// The case of index `i` of a run seeded with `seed` (independent of the other cases).
fn case_of(seed: u64, i: u32) -> Case {
    let mut r = StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i as u64);
    let k = kernel_fuzz::gen::generate(&mut r);
    Case::new(k, &mut r)
}

/// Checks `c` as file `dir/name.cl`: the verdict, or the generator's own error (the front end
/// or the emulator rejects the kernel).
fn run_case(
    ck: &Checker,
    c: &Case,
    seed: u64,
    i: u32,
    dir: &Path,
) -> Result<(String, Verdict), String> {
    let text = c.file_text(seed, i)?;
    let file = dir.join("case.cl");
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(&file, &text).map_err(|e| e.to_string())?;
    Ok((text, ck.check(&file, &dir.join("out"))))
}

struct Same<'a> {
    ck: &'a Checker,
    want: &'a Failure,
    seed: u64,
    i: u32,
    dir: PathBuf,
}

impl Oracle for Same<'_> {
    fn still_fails(&mut self, c: &Case) -> bool {
        match run_case(self.ck, c, self.seed, self.i, &self.dir) {
            Ok((_, Verdict::Fail(f))) => f.class == self.want.class && f.key == self.want.key,
            _ => false,
        }
    }
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if o.print {
        for i in 0..o.count {
            match case_of(o.seed, i).file_text(o.seed, i) {
                Ok(t) => println!("// ---- case {i}\n{t}"),
                Err(e) => println!("// ---- case {i}: generator error\n{e}"),
            }
        }
        return ExitCode::SUCCESS;
    }
    let tc = toolchain::Toolchain::new(true);
    let verilator = match tc.locate(toolchain::Tool::Verilator) {
        Ok(v) => Some((tc, v)),
        Err(e) => {
            eprintln!("error: verilator is needed for the lint step: {e}");
            return ExitCode::from(2);
        }
    };
    let ck = Checker {
        oclhls: o.oclhls.clone(),
        timeout: Duration::from_secs(o.timeout),
        verilator,
    };
    let work = o.work.join(format!("seed{}", o.seed));
    let start = Instant::now();
    let cases: Vec<u32> = (o.from..o.count)
        .filter(|i| o.only.is_none_or(|only| only == *i))
        .collect();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    let mut t = Tally::default();
    std::thread::scope(|scope| {
        for _ in 0..o.jobs.max(1) {
            let tx = tx.clone();
            let (o, ck, cases, next, work) = (&o, &ck, &cases, &next, &work);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = cases.get(k) else { break };
                if tx.send((k, check_one(o, ck, work, i))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Printed in case order, whatever order the workers finish in.
        let mut done = BTreeMap::new();
        let mut printed = 0;
        for (k, out) in rx {
            done.insert(k, out);
            while let Some(out) = done.remove(&printed) {
                print!("{}", out.text);
                t.add(&out);
                printed += 1;
            }
        }
    });
    println!(
        "{} skipped (not yet supported by the hardware path), {} generator errors, \
         {} hangs (counted as crashes)",
        t.skips, t.gen_errors, t.hangs
    );
    // The speed counts checking only, not the reductions (spread over the workers).
    let checking = f64::max(
        start.elapsed().as_secs_f64() - t.reduce_secs / o.jobs.max(1) as f64,
        1e-9,
    );
    println!(
        "{} kernels checked in {:.1} min with {} worker(s) ({:.2} kernels/minute), {:.1} min in \
         all with reductions",
        t.ran,
        checking / 60.0,
        o.jobs.max(1),
        t.ran as f64 * 60.0 / checking,
        start.elapsed().as_secs_f64() / 60.0
    );
    println!(
        "{} kernels, {} mismatches, {} crashes",
        t.ran, t.mismatches, t.crashes
    );
    if t.mismatches + t.crashes > 0 || t.gen_errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What became of one case: its report lines and verdict counts.
#[derive(Default)]
struct Outcome {
    text: String,
    mismatch: bool,
    crash: bool,
    hang: bool,
    skip: bool,
    gen_error: bool,
    reduce_secs: f64,
}

#[derive(Default)]
struct Tally {
    ran: u32,
    mismatches: u32,
    crashes: u32,
    hangs: u32,
    skips: u32,
    gen_errors: u32,
    reduce_secs: f64,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.ran += 1;
        self.mismatches += u32::from(o.mismatch);
        self.crashes += u32::from(o.crash);
        self.hangs += u32::from(o.hang);
        self.skips += u32::from(o.skip);
        self.gen_errors += u32::from(o.gen_error);
        self.reduce_secs += o.reduce_secs;
    }
}

/// Generates, checks and (when it fails) reduces case `i`.
fn check_one(o: &Opts, ck: &Checker, work: &Path, i: u32) -> Outcome {
    let t0 = Instant::now();
    let c = case_of(o.seed, i);
    let dir = work.join(format!("case{i}"));
    let mut out = Outcome::default();
    let (text, v) = match run_case(ck, &c, o.seed, i, &dir) {
        Ok(r) => r,
        Err(e) => {
            out.gen_error = true;
            out.text = format!(
                "case {i}: GENERATOR ERROR (the front end or the emulator rejects it)\n{e}\n"
            );
            return out;
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    match v {
        Verdict::Pass => {
            out.text = format!("case {i}: pass ({} tests, {secs:.1} s)\n", c.tests.len())
        }
        Verdict::Skip(why) => {
            out.skip = true;
            out.text = format!("case {i}: skip ({secs:.1} s): {why}\n");
            let _ = std::fs::write(dir.join("skipped.cl"), &text);
        }
        Verdict::Fail(f) => {
            match f.class {
                Class::Mismatch => out.mismatch = true,
                Class::Hang => {
                    out.hang = true;
                    out.crash = true;
                }
                Class::Crash => out.crash = true,
            }
            out.text = format!(
                "case {i}: {} [{}] ({secs:.1} s)\n{}",
                f.class.name().to_uppercase(),
                f.key,
                indent(&f.detail)
            );
            let r0 = Instant::now();
            out.text += &save_reduced(o, ck, &c, i, &f, &dir);
            out.reduce_secs = r0.elapsed().as_secs_f64();
        }
    }
    out
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// Reduces the failing case `c` and writes it to `<save>/seed<S>_case<i>.cl`; returns the lines
/// to report.
fn save_reduced(o: &Opts, ck: &Checker, c: &Case, i: u32, f: &Failure, dir: &Path) -> String {
    let mut oracle = Same {
        ck,
        want: f,
        seed: o.seed,
        i,
        dir: dir.join("reduce"),
    };
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs(o.reduce_secs);
    let (small, st) = reduce::reduce(c, &mut oracle, deadline);
    let text = match small.file_text(o.seed, i) {
        Ok(t) => t,
        Err(e) => return format!("    reduction lost the case: {e}\n"),
    };
    let header = format!(
        "// kernel-fuzz {} {}, case {i}: {} [{}], reduced in {:.0} s ({} of {} candidates kept)\n",
        o.count,
        o.seed,
        f.class.name(),
        f.key,
        t0.elapsed().as_secs_f64(),
        st.kept,
        st.tried
    );
    let _ = std::fs::create_dir_all(&o.save);
    let path = o.save.join(format!("seed{}_case{i}.cl", o.seed));
    match std::fs::write(&path, header + &text) {
        Ok(()) => format!(
            "    reduced ({} -> {} bytes of kernel) and saved to {}\n",
            c.kernel.source().len(),
            small.kernel.source().len(),
            path.display()
        ),
        Err(e) => format!("    cannot save {}: {e}\n", path.display()),
    }
}
