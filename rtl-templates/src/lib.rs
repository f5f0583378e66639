//! rtl-templates: Verilog emission for scheduled kernels.
//!
//! Owns: the Verilog text of each kernel module and of the support modules, and the kernel's
//! [`Interface`] (ports and how arguments map to them) that testbenches and board tops use.
//! Fixed structures (FIFOs, the pipe FIFO with reservations ([`pipe_fifo`]), the work-item
//! generator, the float units ([`fp`]), the integer dividers ([`divide`])) are askama templates
//! under `templates/`;
//! datapaths are written by [`writer::VWriter`] after validation (every op has a schedule and
//! is supported), so emission itself cannot fail half-way.
//!
//! Invariants of the output: plain Verilog-2005, one module per file named like the file,
//! deterministic (ops in id order, maps ordered), names legal and readable
//! (`<source name>_v<op id>`), lint-clean under `verilator --lint-only -Wall`.

pub mod divide;
pub mod fp;
pub mod kernel;
pub mod namer;
pub mod pipe_fifo;
pub mod shared_counter;
pub mod system;
pub mod writer;

pub use fp::{fp_files, FpUnit};
pub use kernel::{
    emit_kernel, emit_kernel_with, support_files, ArgPort, ArgPortKind, AtomicRegister,
    BurstDecision, EmitOptions, EmittedKernel, Interface, PipeIface, Port, PortDir,
};
pub use pipe_fifo::pipe_fifo_files;
