//! Atomic counter throughput: a loop that increments a `counter32_t` U times per iteration,
//! run by `oclhls sim` in Verilator with ideal memory. Prints a table of increments per cycle
//! (goal: U at II = 1) for U = 1, 4, 8, in two forms: an inner loop of U increments fully
//! unrolled (`#pragma unroll`), and the loop itself unrolled U times (`#pragma unroll U`).
//!
//! ```sh
//! cargo build --bin oclhls --example counter_bench
//! ./target/debug/examples/counter_bench              # 65536 increments, U = 1, 4, 8
//! ./target/debug/examples/counter_bench 8192 2 16    # 8192 increments, U = 2 and 16
//! ```
//!
//! One work-item makes all the increments, so the counter must end at 1 + the increments;
//! `oclhls sim` checks that (and the emulator agrees). The loop's II comes from `report.json`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How the U increments of an iteration are written.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// `for (j < n) { #pragma unroll for (k < U) atomic_inc(c); }`
    Inner,
    /// `#pragma unroll U for (j < n * U) atomic_inc(c);`
    Pragma,
}

fn kernel_file(form: Form, unroll: u32, total: u32) -> String {
    let iterations = total / unroll;
    let body = match form {
        Form::Inner => format!(
            "  for (uint j = 0; j < n; j++) {{\n#pragma unroll\n    for (uint k = 0; k < {unroll}; k++)\n      atomic_inc(c);\n  }}\n"
        ),
        Form::Pragma => format!(
            "#pragma unroll {unroll}\n  for (uint j = 0; j < n * {unroll}; j++)\n    atomic_inc(c);\n"
        ),
    };
    format!(
        "/*!\n[config]\nkernel_name: count\n\n[test]\nname: bench\nglobal_size: 1 1 1\n\
         arg_in:  0 uint {iterations}\narg_in:  1 buffer uint[1] 1\n\
         arg_out: 1 buffer uint[1] {}\n!*/\n\
         #pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable\n\
         kernel void count(uint n, counter32_t c) {{\n{body}}}\n",
        1 + iterations * unroll
    )
}

/// The II of the kernel's loop from `report.json` in `dir`.
fn loop_ii(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("report.json")).ok()?;
    let report: serde_json::Value = serde_json::from_str(&text).ok()?;
    report["kernels"][0]["loops"][1]["ii"].as_u64()
}

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: increments, then unroll factors"))
        .collect();
    let total = args.first().copied().unwrap_or(65536);
    let unrolls: Vec<u32> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec![1, 4, 8]
    };
    let exe = std::env::current_exe().expect("own path");
    let bin = exe
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("oclhls"))
        .expect("target directory");
    let dir = tempfile::tempdir().expect("temp dir");
    println!("| form | U | increments | loop II | cycles | increments / cycle | result |");
    println!("|---|---|---|---|---|---|---|");
    for form in [Form::Inner, Form::Pragma] {
        for &u in &unrolls {
            if form == Form::Pragma && u == 1 {
                continue; // the same loop as the inner form's
            }
            let incs = total / u * u;
            let name = match form {
                Form::Inner => format!("inner loop of {u}, `#pragma unroll`"),
                Form::Pragma => format!("`#pragma unroll {u}`"),
            };
            let tag = if form == Form::Inner {
                "inner"
            } else {
                "pragma"
            };
            let file: PathBuf = dir.path().join(format!("count_{tag}{u}.cl"));
            std::fs::write(&file, kernel_file(form, u, total)).expect("write");
            let out_dir = dir.path().join(format!("rtl_{tag}{u}"));
            let out = Command::new(&bin)
                .args(["sim", file.to_str().unwrap(), "--ideal-memory", "-o"])
                .arg(&out_dir)
                .output()
                .expect("oclhls runs (build it first: cargo build --bin oclhls)");
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let line = text
                .lines()
                .find(|l| l.starts_with("PASS") || l.starts_with("FAIL"));
            let cycles: Option<u64> = line.and_then(|l| {
                let i = l.find('(')?;
                l[i + 1..].split_whitespace().next()?.parse().ok()
            });
            let ii = loop_ii(&out_dir).map_or("—".to_string(), |i| i.to_string());
            match (line, cycles) {
                (Some(l), Some(c)) if l.starts_with("PASS") => println!(
                    "| {name} | {u} | {incs} | {ii} | {c} | {:.3} | pass |",
                    incs as f64 / c as f64
                ),
                _ => println!(
                    "| {name} | {u} | {incs} | {ii} | — | — | {} |",
                    line.unwrap_or("no result").replace('|', "/")
                ),
            }
        }
    }
}
