//! `oclhls`: OpenCL C to Verilog high-level synthesis, as a library over the stage crates
//! (`frontend` → `hls-ir` → `scheduler` → `rtl-templates`; `sim` and `emu` check the result).
//! The binary (`main.rs`) parses the command line and calls one function of this crate per
//! command; the tests call the same functions.
//!
//! - [`compile`]: the stage order (`compile::Flow::compile_kernel`, the only place it is
//!   written) and `report.json`.
//! - [`build`]: `oclhls FILE.cl` (outputs, summary, system top).
//! - [`simulate`], [`simulate_system`]: `oclhls sim` (Verilator against the emulator).
//! - [`emulate`]: `oclhls emu` (the reference emulator alone).
//! - [`system`]: the system top's topology (which kernel feeds which pipe).
//! - [`board`]: `oclhls FILE.cl --board ulx3s` (the LiteX system and its bitstream), with
//!   [`progress`] for its long steps; [`board_sim`]: `oclhls sim FILE.cl --board ulx3s` (the
//!   whole board system in Verilator, driven by the `host-runtime` crate).
//! - [`doctor`]: `oclhls doctor`.

pub mod board;
pub mod board_run;
pub mod board_sim;
pub mod build;
pub mod compile;
pub mod doctor;
pub mod emulate;
pub mod progress;
pub mod shared_counters;
mod sim_report;
pub mod simulate;
pub mod simulate_system;
pub mod system;
pub mod timing_terms;
