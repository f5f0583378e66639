//! Synthesise a Verilog design and place it out of context on an ECP5, then print the numbers:
//! the reference measurement for kernel Fmax and area.
//!
//! ```text
//! cargo run -p board-support --example ecp5_flow -- --top vadd [--part LFE5U-85F]
//!     [--freq 100] [--seed 1] [--work DIR] FILE.v...
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use board_support::flow::{place_route, synth, PnrOptions, SynthOptions, Target};
use board_support::Device;
use toolchain::Toolchain;

struct Args {
    top: String,
    part: String,
    freq: f64,
    seed: u64,
    work: Option<PathBuf>,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        top: String::new(),
        part: "LFE5U-85F".into(),
        freq: 100.0,
        seed: 1,
        work: None,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--top" => a.top = value("--top")?,
            "--part" => a.part = value("--part")?,
            "--freq" => {
                a.freq = value("--freq")?
                    .parse()
                    .map_err(|e| format!("--freq: {e}"))?
            }
            "--seed" => {
                a.seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?
            }
            "--work" => a.work = Some(value("--work")?.into()),
            f if !f.starts_with("--") => a.files.push(f.into()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.top.is_empty() || a.files.is_empty() {
        return Err(
            "usage: ecp5_flow --top TOP [--part P] [--freq MHZ] [--seed N] \
                    [--work DIR] FILE.v..."
                .into(),
        );
    }
    Ok(a)
}

fn run(a: Args) -> Result<(), Box<dyn std::error::Error>> {
    let device = Device::ecp5(&a.part, "CABGA381", 6)?;
    let tmp;
    let work = match a.work {
        Some(w) => w,
        None => {
            tmp = std::env::temp_dir().join(format!("oclhls-ecp5-flow-{}", std::process::id()));
            tmp
        }
    };
    let tc = Toolchain::new(false);
    let mut sopts = SynthOptions::new(work.join("synth"));
    sopts.require_clean_check = false;
    let s = synth(&tc, &a.files, &a.top, &sopts)?;
    println!(
        "synthesis of `{}` (yosys {}): {:.1} s",
        s.top, s.yosys_version, s.elapsed_s
    );
    println!(
        "  check -assert: {}",
        if s.check.passed() { "pass" } else { "FAIL" }
    );
    for p in s.check.problems() {
        println!("    {}", p.replace('\n', "\n    "));
    }
    for (ty, n) in &s.cells {
        println!("  {ty:<16} {n:>7}");
    }
    let opts = PnrOptions::out_of_context(work.join("pnr"), a.freq).seed(a.seed);
    let p = place_route(&tc, &s.netlist, Target::Device(device), &opts)?;
    println!(
        "place and route on {device}, out of context, seed {} (nextpnr {}): {:.1} s",
        p.seed, p.nextpnr_version, p.elapsed_s
    );
    for c in &p.clocks {
        println!("  {c}");
    }
    for (bel, u) in p.utilisation.iter().filter(|(_, u)| u.used > 0) {
        println!("  {bel:<16} {:>7} / {}", u.used, u.available);
    }
    if let Some(cp) = p.critical_paths.first() {
        println!(
            "  critical path {} -> {}: {:.2} ns ({:.2} logic, {:.2} routing), {} -> {}",
            cp.from, cp.to, cp.delay_ns, cp.logic_ns, cp.routing_ns, cp.start, cp.end
        );
        for src in cp.sources.iter().filter(|s| !s.contains("/share/")) {
            println!("    through {src}");
        }
    }
    println!("  work dir: {}", work.display());
    Ok(())
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
