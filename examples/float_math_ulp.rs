//! The accuracy of the float math built-ins in hardware (exp/log/pow family), at scale: for
//! every function, millions of inputs (special values, random bit patterns over the whole
//! domain and random values where the result is finite and non-trivial) run through the
//! lowered IR in the IR interpreter, the error measured in ulps against a double-precision
//! reference with the OpenCL C special-value rules and the device's flush-to-zero. Prints the
//! Markdown table of `docs/benchmarks.md`, section "Float math accuracy". The harness is the one
//! of `hls-ir/tests/float_math.rs` (`hls-ir/tests/common/float_ulp.rs`).
//!
//! ```sh
//! cargo run --release --example float_math_ulp -- [--inputs N] [--seed S] [FUNCTION...]
//! ```
//!
//! Exits with 1 if a function exceeds its bound.

#[path = "../hls-ir/tests/common/float_ulp.rs"]
mod float_ulp;

use float_ulp::{function_ops, functions, inputs, measure, Rng};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut n = 1_000_000usize;
    let mut seed = 1u64;
    let mut only = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--inputs" => {
                n = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--inputs N")
            }
            "--seed" => seed = args.next().and_then(|v| v.parse().ok()).expect("--seed S"),
            _ => only.push(a),
        }
    }
    println!("| function | inputs | max error (ulp) | spec bound (ulp) | IR ops | worst input |");
    println!("|---|---:|---:|---:|---:|---|");
    let mut ok = true;
    for (i, f) in functions().iter().enumerate() {
        if !only.is_empty() && !only.iter().any(|o| o == f.name) {
            continue;
        }
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i as u64 + 1));
        let (mut worst, mut at) = (0.0f64, (0, 0, 0));
        // Batches keep the interpreter's buffers small.
        let batch = 1 << 16;
        let mut done = 0;
        while done < n {
            let m = batch.min(n - done);
            let (a, b, c) = inputs(f, m, &mut rng);
            let (e, w) = measure(f, &a, &b, &c);
            if e > worst || e.is_nan() {
                (worst, at) = (e, w);
            }
            done += a.len();
        }
        let x = f32::from_bits(at.0);
        let input = match f.arity {
            float_ulp::Arity::One => format!("{x:e}"),
            float_ulp::Arity::Two => format!("{x:e}, {:e}", f32::from_bits(at.1)),
            float_ulp::Arity::FloatInt => format!("{x:e}, {}", at.1 as i32),
            float_ulp::Arity::Three => format!("{x:e}, {:e}, …", f32::from_bits(at.1)),
        };
        ok &= worst <= f.bound;
        println!(
            "| `{}` | {done} | {worst:.3} | {} | {} | {input} |",
            f.name,
            f.bound,
            function_ops(f)
        );
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
