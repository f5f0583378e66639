//! sim: Verilator simulation of emitted RTL, driven from Rust.
//!
//! This crate owns three artefacts: a *built model* (a shared library made by Verilator from
//! Verilog sources), a *model instance* (one simulation, with its own state), and the
//! *testbench* (memory model and kernel runner) that plays the host and global memory for a
//! generated kernel following `docs/hardware-interface.md`.
//!
//! # Why a generated C++ shim and `libloading`
//! The `verilated` crate does not build against Verilator 5, and Verilator's own C++ API
//! (a class per model, named after the top module, with one public member per port) cannot
//! be called from Rust directly. So [`build_model`] generates a small C++ file with a C ABI
//! (see `shim.rs`: create/delete an instance, `eval`, `tick`, open an FST trace, and return a
//! pointer to each port's storage), and runs
//!
//! ```text
//! verilator --cc --prefix Vmodel --no-timing --x-assign unique -Wno-fatal
//!     -CFLAGS '-fPIC -fvisibility=hidden -DVL_USER_FATAL -DVL_TIME_CONTEXT'
//!     -j <jobs> --top-module <top> --Mdir <tmp>/obj
//!     -LDFLAGS '-shared -Wl,--version-script=<tmp>/exports.map'
//!     [--trace-fst] [BuildOptions::extra_args] --exe <tmp>/shim.cpp -o libmodel.so <files...>
//! make -C <tmp>/obj -f Vmodel.mk -j <jobs> CFG_CXXFLAGS_PCH_I=-include
//! ```
//!
//! which compiles the model, the Verilator runtime and the shim into one shared library with
//! only the shim's `oclhls_*` functions exported. The runtime's objects are compiled once per
//! Verilator, compiler and flags and copied into later builds before `make` (`runtime.rs`):
//! that halves the build of a small model. It is loaded with `libloading`; all testbench
//! logic (memory, stalls, handshakes, checks) is Rust.
//!
//! Invariants:
//! - **Instances are independent.** Each [`Model`] owns its own `VerilatedContext` and model
//!   object, so one built model can be instantiated many times, in parallel threads, in one
//!   process. Because the runtime is linked into each library with hidden visibility, different
//!   models loaded into one process do not share symbols either.
//! - **Cheap port access.** Port names are resolved once ([`Model::port`]); [`Model::get`] and
//!   [`Model::set`] then read and write the Verilated port storage through a raw pointer, with
//!   no FFI call. Only [`Model::eval`] and [`Model::tick`] cross into C++.
//! - **Host process survives the model.** `$stop`, `$fatal`, failed assertions and internal
//!   Verilator fatal errors become [`SimError::ModelStopped`], never an exit of the process.
//! - **Inputs start at 0.** Registers the Verilog does not initialise start random (seeded,
//!   [`InitValues`]) until reset, as in hardware, so a missing reset shows up in simulation.
//! - **Content-addressed cache.** A built model lives in `<cache>/models/<hash>/` (`<cache>` is
//!   the `toolchain` cache dir; [`BuildOptions::cache_dir`] replaces `<cache>/models`) holding
//!   `libmodel.so`, `shim.cpp`, `exports.map` and `build.log`, where the hash is SHA-256 of the
//!   Verilog sources, the top name, the port list (via the generated shim), the build options,
//!   the shim ABI and the Verilator version. It is built in a private temporary directory under
//!   an exclusive lock on `models/<hash>.lock` and then renamed into place, so parallel tests
//!   share one build and nobody ever loads a half-built library. A cache directory is never
//!   modified after the rename.
//!
//!   A failed build leaves only `models/failed-<hash>.log`. Verilator's run-time objects are
//!   kept beside the models in `models/runtime-<key>/` (see `runtime.rs`).
//!
//! [`pipe_fifo`] checks the pipe FIFO RTL against a reference model under random operations.
//!
//! The kernel testbench ([`memory`], [`run`]) follows the hardware interface exactly: one
//! memory server per pointer port with random latency, in-order responses, random
//! back-pressure on request `ready`, a bound on outstanding requests, and checks of the
//! protocol: the port list matches the contract, every argument is given, the kernel is idle
//! when started, `busy` stays high until `done`, nothing is outstanding at `done`, and every
//! access is aligned and inside an allocated buffer (faults name port, address and cycle).
//!
//! The system testbench ([`system`]) runs a system top (several kernels with their ports under
//! `K__`, and the FIFOs of their pipes) with the same per-kernel driver, launches ordered by
//! `after`, one shared memory, per-pipe statistics, and deadlock detection with a report.
//!
//! [`bind`] binds a test file's arguments (`testfile`) to a kernel's: buffers allocated and
//! filled (or poisoned) in the [`GlobalMemory`], argument port values, the outputs to check and
//! the NDRange, checked against what the hardware was built for.
//!
//! Names, chosen not to collide with the stages' types: [`GlobalMemory`] is the testbench's
//! model of the device's global memory (not `hls_ir::Memory`, an on-chip memory of the IR);
//! [`KernelRun`] runs a kernel module on its own and [`SystemRun`] a system top, whose kernels
//! are each started by a [`SystemLaunch`] (not `testfile::LaunchDecl`, a launch a test file
//! declares, nor `hls_ir::interp::Launch`, the IR interpreter's). Inside `run`, a kernel's
//! checked ports are a `KernelPorts` and the state of one launched kernel a `KernelDriver`
//! (neither is the IR's kernel nor the emitter's interface).
//!
//! The test vectors carried by kernel files are not here but in the `testfile` crate, so that
//! the emulator and the IR's tests read them without linking this testbench.

pub mod bind;
mod build;
pub mod fst;
pub mod memory;
mod model;
pub mod pipe_fifo;
pub mod run;
mod runtime;
mod shim;
pub mod system;

use std::path::PathBuf;

pub use bind::{
    bind, bind_launch, BindError, Binding, KernelArg, KernelShape, LaunchBinding, OutputCheck,
    PortValue,
};
pub use build::{build_model, BuildOptions};
pub use memory::{Element, GlobalMemory};
pub use model::{BuiltModel, InitValues, InstanceOptions, Model, PortId};
pub use run::{
    KernelRun, MemConfig, NdRange, PortStats, RunConfig, RunStats, SdramConfig, SdramStats,
};
pub use system::{
    KernelReport, KernelState, KernelStats, PipeReport, PipeStats, SystemLaunch, SystemLayout,
    SystemReport, SystemRun, SystemStats,
};

/// Direction of a port, seen from the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    In,
    Out,
}

/// One port of the top module.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PortSpec {
    pub name: String,
    pub dir: Dir,
    pub width: u32,
}

impl PortSpec {
    pub fn input(name: impl Into<String>, width: u32) -> PortSpec {
        PortSpec {
            name: name.into(),
            dir: Dir::In,
            width,
        }
    }

    pub fn output(name: impl Into<String>, width: u32) -> PortSpec {
        PortSpec {
            name: name.into(),
            dir: Dir::Out,
            width,
        }
    }
}

/// What to build: the Verilog files (all of them; includes are not followed for the cache
/// hash), the top module and its ports.
#[derive(Clone, Debug)]
pub struct ModelSource {
    pub top: String,
    pub files: Vec<PathBuf>,
    pub ports: Vec<PortSpec>,
}

/// How a memory access by the kernel went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The address is not naturally aligned for the element size.
    Misaligned,
    /// No allocation contains the address (null pointers land here: page 0 is never used).
    Unallocated,
    /// The access starts inside an allocation but runs past its end.
    OutOfBounds,
    /// The request breaks the port protocol (a reserved atomic opcode, an atomic on an
    /// element that is not 4 or 8 bytes).
    Protocol,
}

/// Requests a port's memory still owes the kernel, for timeout reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outstanding {
    pub port: String,
    /// Read requests accepted whose response the kernel has not taken yet.
    pub reads: usize,
    /// Write requests accepted whose acknowledgement the kernel has not taken yet.
    pub writes: usize,
    /// The kernel holds a request valid that memory has not accepted yet.
    pub read_request_waiting: bool,
    pub write_request_waiting: bool,
}

/// Errors of building, loading and simulating models.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Tool(#[from] toolchain::ToolError),
    #[error("{0}")]
    UnsupportedTool(String),
    #[error("invalid model source: {0}")]
    InvalidSource(String),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error("verilator failed to build `{top}` (log: {}):\n{output}", log.display())]
    BuildFailed {
        top: String,
        log: PathBuf,
        output: String,
    },
    #[error("cannot load model library {}: {detail}", path.display())]
    Load { path: PathBuf, detail: String },
    #[error("the model stopped at cycle {cycle}: {message}")]
    ModelStopped { cycle: u64, message: String },
    #[error("tracing: {0}")]
    Trace(String),
    #[error(
        "kernel {} on port `{port}` at cycle {cycle}: address {addr:#010x} ({bytes} bytes) \
         {}{detail}",
        if *.write { "write" } else { "read" },
        describe_fault(*kind, *bytes)
    )]
    MemoryFault {
        port: String,
        addr: u32,
        bytes: u32,
        write: bool,
        cycle: u64,
        kind: FaultKind,
        /// Where the address lies relative to the nearest allocation (` (...)` or empty).
        detail: String,
    },
    #[error("host access to memory at {addr:#010x} ({len} bytes): {detail}")]
    HostAccess {
        addr: u64,
        len: usize,
        detail: String,
    },
    #[error("the kernel does not follow the hardware interface: {0}")]
    Interface(String),
    #[error("kernel argument error: {0}")]
    Argument(String),
    #[error("protocol violation at cycle {cycle}: {message}")]
    Protocol { cycle: u64, message: String },
    #[error(
        "no `done` after {cycles} cycles (the cycle budget; raise RunConfig::max_cycles if the \
         kernel is just slow); outstanding requests: {}",
        describe_outstanding(outstanding)
    )]
    Timeout {
        cycles: u64,
        outstanding: Vec<Outstanding>,
    },
    #[error(
        "deadlock at cycle {}: nothing progressed for {} cycles (no memory request or response \
         transferred, no pipe operation, no kernel started or done; the limit is \
         RunConfig::deadlock_cycles)\n{report}",
        report.cycle,
        report.idle_cycles
    )]
    Deadlock { report: Box<system::SystemReport> },
    #[error(
        "the system did not finish within {} cycles (the cycle budget; raise \
         RunConfig::max_cycles if it is just slow)\n{report}",
        report.cycle
    )]
    SystemTimeout { report: Box<system::SystemReport> },
}

fn describe_fault(kind: FaultKind, bytes: u32) -> String {
    match kind {
        FaultKind::Misaligned => format!("is not aligned to {bytes} bytes"),
        FaultKind::Unallocated => "is not in any allocated buffer".to_string(),
        FaultKind::OutOfBounds => "runs past the end of its buffer".to_string(),
        FaultKind::Protocol => "breaks the port protocol".to_string(),
    }
}

fn describe_outstanding(o: &[Outstanding]) -> String {
    if o.is_empty() {
        return "none (the kernel has no memory ports)".to_string();
    }
    let parts: Vec<String> = o
        .iter()
        .map(|p| {
            let mut s = format!("`{}`: {} reads, {} writes", p.port, p.reads, p.writes);
            if p.read_request_waiting {
                s.push_str(", a read request waiting for ready");
            }
            if p.write_request_waiting {
                s.push_str(", a write request waiting for ready");
            }
            s
        })
        .collect();
    parts.join("; ")
}

pub(crate) fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> SimError {
    let context = context.into();
    move |source| SimError::Io { context, source }
}
