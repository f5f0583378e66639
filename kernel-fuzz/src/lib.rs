//! `kernel-fuzz`: a random-kernel generator and differential fuzzer of the whole oclhls chain
//! (docs/fuzzing.md, "Random-kernel fuzzer").
//!
//! - [`ast`]: the generator's AST of a kernel and its printer to OpenCL C (where undefined
//!   behaviour is excluded by construction).
//! - [`gen`]: random kernels of the language the hardware path builds today.
//! - [`case`]: a kernel with random test inputs; the expected outputs come from the reference
//!   emulator, written as the file's test header.
//! - [`check`]: `oclhls sim` (emulator ⇄ IR ⇄ IR after passes ⇄ Verilator, with random stalls)
//!   and `verilator --lint-only -Wall` on the emitted modules; the verdict.
//! - [`reduce`]: delta debugging over the AST while the same failure persists.
//!
//! The driver is `src/main.rs` (`scripts/kernel-fuzz.sh COUNT SEED`).

pub mod ast;
pub mod case;
pub mod check;
pub mod gen;
pub mod reduce;
