//! Area and Fmax of the pipe FIFO on an ECP5-85F (Yosys `synth_ecp5` + nextpnr-ecp5, out of
//! context, placement seeds 1 to N: the median Fmax, and each seed's), for depths 16, 512, 4096 and widths 32, 128, with reservation logic
//! (`oclhls_pipe_fifo`, MAX_RES entries per side) and without (`oclhls_pipe_fifo_plain`),
//! against a 32-bit counter placed and routed in the same run. A benchmark, not a test:
//!
//! ```text
//! cargo run --release --example pipe_fifo_bench -- [--max-res N] [--freq MHZ] [--work DIR]
//!     [--seeds N]        # placement seeds 1 to N (default 1)
//!     [--only plain|res] # only the FIFO without (or with) reservations
//!     [--depth N]...     # only these depths (default 16, 512, 4096)
//!     [--width N]...     # only these widths (default 32, 128)
//!     [--peer FILE.v:TOP:LABEL]...  # a peer design placed and routed in the same run
//! ```
//!
//! `scripts/peer_fifo_bench.sh` generates Amaranth's `SyncFIFOBuffered` as a peer and runs
//! both at one target (docs/benchmarks.md, "Pipe FIFO against Amaranth's FIFO").

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use board_support::flow::{place_route, synth, PnrOptions, SynthOptions, Target};
use board_support::Device;
use toolchain::Toolchain;

const COUNTER: &str = "`default_nettype none
module bench_counter32 (
    input  wire        clk,
    input  wire        rst,
    output reg  [31:0] q
);
    always @(posedge clk) begin
        if (rst) q <= 32'd0;
        else q <= q + 32'd1;
    end
endmodule
`default_nettype wire
";

struct Row {
    comb: u64,
    ff: u64,
    ebr: u64,
    lutram: u64,
    /// The median over the seeds.
    fmax: f64,
    /// Each seed's, in seed order.
    fmax_seeds: Vec<f64>,
}

/// What every design of the run is built with.
struct Flow {
    tc: Toolchain,
    device: Device,
    freq: f64,
    seeds: u64,
}

fn measure(
    flow: &Flow,
    work: &Path,
    files: &[PathBuf],
    top: &str,
    parameters: Vec<(String, i64)>,
) -> Result<Row, Box<dyn std::error::Error>> {
    let Flow {
        tc,
        device,
        freq,
        seeds,
    } = flow;
    let (freq, seeds) = (*freq, *seeds);
    let mut sopts = SynthOptions::new(work.join("synth"));
    sopts.parameters = parameters;
    let s = synth(tc, files, top, &sopts)?;
    let mut row = None;
    let mut fmax_seeds = Vec::new();
    for seed in 1..=seeds {
        // Seed 1 keeps the directory name of the single-seed runs.
        let dir = if seed == 1 {
            work.join("pnr")
        } else {
            work.join(format!("pnr_seed{seed}"))
        };
        let popts = PnrOptions::out_of_context(dir, freq).seed(seed);
        let p = place_route(tc, &s.netlist, Target::Device(*device), &popts)?;
        fmax_seeds.push(p.fmax_mhz().unwrap_or(0.0));
        let used = |bel: &str| p.utilisation.get(bel).map_or(0, |u| u.used);
        row.get_or_insert(Row {
            comb: used("TRELLIS_COMB"),
            ff: used("TRELLIS_FF"),
            ebr: used("DP16KD"),
            lutram: used("TRELLIS_RAMW"),
            fmax: 0.0,
            fmax_seeds: Vec::new(),
        });
    }
    let mut row = row.ok_or("--seeds must be at least 1")?;
    let mut sorted = fmax_seeds.clone();
    sorted.sort_by(f64::total_cmp);
    row.fmax = sorted[sorted.len() / 2];
    row.fmax_seeds = fmax_seeds;
    Ok(row)
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut max_res = 4i64;
    let mut freq = 100.0;
    let mut seeds = 1u64;
    let mut variants = vec![false, true];
    let mut work = std::env::temp_dir().join(format!("oclhls-pipe-bench-{}", std::process::id()));
    let mut depths: Vec<i64> = Vec::new();
    let mut widths: Vec<i64> = Vec::new();
    let mut peers: Vec<(PathBuf, String, String)> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--max-res" => max_res = value()?.parse()?,
            "--freq" => freq = value()?.parse()?,
            "--seeds" => seeds = value()?.parse()?,
            "--only" => {
                variants = match value()?.as_str() {
                    "plain" => vec![false],
                    "res" => vec![true],
                    v => return Err(format!("--only {v}: expected plain or res").into()),
                }
            }
            "--work" => work = value()?.into(),
            "--depth" => depths.push(value()?.parse()?),
            "--width" => widths.push(value()?.parse()?),
            "--peer" => {
                let v = value()?;
                let mut it = v.splitn(3, ':');
                match (it.next(), it.next(), it.next()) {
                    (Some(f), Some(top), Some(label)) => {
                        peers.push((f.into(), top.to_string(), label.to_string()))
                    }
                    _ => return Err(format!("--peer {v}: expected FILE.v:TOP:LABEL").into()),
                }
            }
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    if depths.is_empty() {
        depths = vec![16, 512, 4096];
    }
    if widths.is_empty() {
        widths = vec![32, 128];
    }
    std::fs::create_dir_all(&work)?;
    let flow = Flow {
        tc: Toolchain::new(false),
        device: Device::ecp5("LFE5U-85F", "CABGA381", 6)?,
        freq,
        seeds,
    };

    let counter_v = work.join("bench_counter32.v");
    std::fs::write(&counter_v, COUNTER)?;
    let counter = measure(
        &flow,
        &work.join("counter"),
        &[counter_v],
        "bench_counter32",
        Vec::new(),
    )?;
    println!(
        "reference: 32-bit counter {:.1} MHz (per seed: {}), {} LUT (COMB), {} FF",
        counter.fmax,
        per_seed(&counter),
        counter.comb,
        counter.ff
    );

    let files_for = |res: bool| -> Result<Vec<PathBuf>, std::io::Error> {
        let dir = work.join(if res { "rtl_res" } else { "rtl_plain" });
        std::fs::create_dir_all(&dir)?;
        rtl_templates::pipe_fifo_files(res)
            .into_iter()
            .map(|(name, text)| {
                let p = dir.join(name);
                std::fs::write(&p, text).map(|()| p)
            })
            .collect()
    };
    let plain_files = files_for(false)?;
    let res_files = files_for(true)?;

    println!(
        "| depth | width | reservations | LUT (COMB) | FF | EBR (DP16KD) | LUTRAM | Fmax (MHz) | \
         Fmax / counter | LUT / counter | Fmax per seed |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for &depth in &depths {
        for &width in &widths {
            for &res in &variants {
                let mut params = vec![("WIDTH".to_string(), width), ("DEPTH".to_string(), depth)];
                let (top, files, label) = if res {
                    params.push(("MAX_RES".to_string(), max_res));
                    (
                        "oclhls_pipe_fifo",
                        &res_files,
                        format!("{max_res} per side"),
                    )
                } else {
                    ("oclhls_pipe_fifo_plain", &plain_files, "none".to_string())
                };
                let dir = work.join(format!(
                    "d{depth}_w{width}_{}",
                    if res { "res" } else { "plain" }
                ));
                let r = measure(&flow, &dir, files, top, params)?;
                print_row(&format!("{depth} | {width} | {label}"), &r, &counter);
            }
        }
    }
    for (i, (file, top, label)) in peers.iter().enumerate() {
        let dir = work.join(format!("peer{i}"));
        let r = measure(&flow, &dir, std::slice::from_ref(file), top, Vec::new())?;
        print_row(&format!("{label} | | "), &r, &counter);
    }
    println!("work dir: {}", work.display());
    Ok(())
}

/// One table row: `first` (the leading cells), then the measures of `r`, and against the counter.
fn print_row(first: &str, r: &Row, counter: &Row) {
    println!(
        "| {first} | {} | {} | {} | {} | {:.1} | {:.2} | {:.1} | {} |",
        r.comb,
        r.ff,
        r.ebr,
        r.lutram,
        r.fmax,
        r.fmax / counter.fmax,
        r.comb as f64 / counter.comb as f64,
        per_seed(r)
    );
}

/// Each seed's Fmax, `a / b / c`.
fn per_seed(r: &Row) -> String {
    r.fmax_seeds
        .iter()
        .map(|f| format!("{f:.1}"))
        .collect::<Vec<_>>()
        .join(" / ")
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
