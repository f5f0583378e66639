//! Tests of the kernel-file test-vector format (the `testfile` crate, docs/test-format.md).
//!
//! One test binary, one module per concern: real piglit headers, the header's structure,
//! values, error messages, robustness against garbage, output comparison, and the
//! multi-kernel lines.

mod common;
mod compare;
mod errors;
mod multi;
mod piglit;
mod robustness;
mod structure;
mod values;
