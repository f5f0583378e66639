//! The exponential, logarithm and power built-ins of `float` in hardware: the lowered IR, run
//! by the IR interpreter on special values and random inputs over the whole domain, is within
//! the OpenCL C full profile's bound in ulps of a double-precision reference
//! (`common/float_ulp.rs`). `examples/float_math_ulp.rs` runs millions of inputs.

#[path = "common/float_ulp.rs"]
mod float_ulp;

use float_ulp::{function_ops, functions, inputs, measure, Rng};

#[test]
fn every_function_is_within_its_ulp_bound() {
    let mut failures = Vec::new();
    for (i, f) in functions().iter().enumerate() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1));
        let (a, b, c) = inputs(f, 1500, &mut rng);
        let (err, (x, y, got)) = measure(f, &a, &b, &c);
        let ops = function_ops(f);
        println!(
            "{:6} max {err:.3} ulp (bound {}), {ops} ops",
            f.name, f.bound
        );
        if err.is_nan() || err > f.bound {
            failures.push(format!(
                "{}: {err} ulp at {:e} ({x:#x}), {y:#x}: got {:e}",
                f.name,
                f32::from_bits(x),
                f32::from_bits(got)
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
