// The float units' latencies, in a file of their own so that `board-support/examples/op_char.rs`
// (which cannot depend on this crate) includes the same numbers. Included by `fp.rs`.

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
