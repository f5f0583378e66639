//! The single-precision float units' timing: cycles from operands to the registered result
//! of each pipelined unit (`oclhls_fp_*` in `rtl-templates/templates/`, every register
//! enabled by `ce`), and the combinational delay of the compare.
//!
//! The RTL generator passes the latencies to the templates (`{{ latency }}`) and its RTL
//! tests check the modules against them; the scheduler's operator library places a float op's
//! result this many cycles after its operands; `board-support/examples/op_char.rs` measures
//! the units with these latencies.

/// Cycles from `a`/`b` of `oclhls_fp_add` to its registered `y`.
pub const FP_ADD_LATENCY: u32 = 7;
/// Cycles from `a`/`b` of `oclhls_fp_mul` to its registered `y`.
pub const FP_MUL_LATENCY: u32 = 6;
/// Cycles from `a` of `oclhls_fp_from_int` to its registered `y`, for every `WIDTH`.
pub const FP_FROM_INT_LATENCY: u32 = 5;
/// Cycles from `a` of `oclhls_fp_to_int` to its registered `y`, for every `WIDTH`.
pub const FP_TO_INT_LATENCY: u32 = 4;
/// Cycles from `a`/`b` of `oclhls_fp_div` to its registered `y`.
pub const FP_DIV_LATENCY: u32 = 26;
/// Cycles from `a` of `oclhls_fp_sqrt` to its registered `y`.
pub const FP_SQRT_LATENCY: u32 = 26;

/// Combinational delay of `oclhls_fp_cmp` (ns, ECP5 -6), inputs to `lt`/`eq`/`unordered`:
/// the path of the registered unit minus the register overhead, like the operator library's
/// other delays (docs/benchmarks.md, "ECP5 operator library: measurements").
pub const FP_CMP_DELAY_NS: f64 = 5.15;
