//! `kernel-fuzz COUNT SEED [options]`: generates COUNT random kernels from SEED, runs each
//! through `oclhls sim` and Verilator lint, reduces every failure and saves it under
//! `tests/fuzz-regressions/`. The last line is `N kernels, M mismatches, K crashes`; the exit
//! status is 1 when M or K is not 0 (hangs count as crashes).

use kernel_fuzz::case::Case;
use kernel_fuzz::check::{Checker, Class, Failure, Verdict};
use kernel_fuzz::reduce::{self, Oracle};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: kernel-fuzz COUNT SEED [--oclhls PATH] [--work DIR] [--save DIR] \
                     [--timeout SECS] [--reduce-secs SECS] [--only I] [--print]";

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
        timeout: 300,
        reduce_secs: 600,
        print: false,
        only: None,
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
    let (mut mismatches, mut crashes, mut hangs, mut skips, mut gen_errors) = (0, 0, 0, 0, 0);
    let (mut ran, mut secs_total) = (0u32, 0.0);
    for i in 0..o.count {
        if o.only.is_some_and(|only| only != i) {
            continue;
        }
        ran += 1;
        let t0 = Instant::now();
        let c = case_of(o.seed, i);
        let dir = work.join(format!("case{i}"));
        let (text, v) = match run_case(&ck, &c, o.seed, i, &dir) {
            Ok(r) => r,
            Err(e) => {
                gen_errors += 1;
                println!(
                    "case {i}: GENERATOR ERROR (the front end or the emulator rejects it)\n{e}"
                );
                continue;
            }
        };
        let secs = t0.elapsed().as_secs_f64();
        secs_total += secs;
        match v {
            Verdict::Pass => println!("case {i}: pass ({} tests, {secs:.1} s)", c.tests.len()),
            Verdict::Skip(why) => {
                skips += 1;
                println!("case {i}: skip ({secs:.1} s): {why}");
                let _ = std::fs::write(dir.join("skipped.cl"), &text);
            }
            Verdict::Fail(f) => {
                match f.class {
                    Class::Mismatch => mismatches += 1,
                    Class::Hang => {
                        hangs += 1;
                        crashes += 1
                    }
                    Class::Crash => crashes += 1,
                }
                println!(
                    "case {i}: {} [{}] ({secs:.1} s)\n{}",
                    f.class.name().to_uppercase(),
                    f.key,
                    indent(&f.detail)
                );
                save_reduced(&o, &ck, &c, i, &f, &dir);
            }
        }
    }
    println!(
        "{skips} skipped (not yet supported by the hardware path), {gen_errors} generator errors, \
         {hangs} hangs (counted as crashes)"
    );
    // The speed counts checking only, not the reductions.
    println!(
        "{ran} kernels checked in {:.1} min ({:.2} kernels/minute), {:.1} min in all with reductions",
        secs_total / 60.0,
        ran as f64 * 60.0 / f64::max(secs_total, 1e-9),
        start.elapsed().as_secs_f64() / 60.0
    );
    println!("{ran} kernels, {mismatches} mismatches, {crashes} crashes");
    if mismatches + crashes > 0 || gen_errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// Reduces the failing case `c` and writes it to `<save>/seed<S>_case<i>.cl`.
fn save_reduced(o: &Opts, ck: &Checker, c: &Case, i: u32, f: &Failure, dir: &Path) {
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
        Err(e) => {
            println!("    reduction lost the case: {e}");
            return;
        }
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
        Ok(()) => println!(
            "    reduced ({} -> {} bytes of kernel) and saved to {}",
            c.kernel.source().len(),
            small.kernel.source().len(),
            path.display()
        ),
        Err(e) => println!("    cannot save {}: {e}", path.display()),
    }
}
