//! host-runtime: the host side of an oclhls board system (docs/host-runtime.md), in the style
//! of XRT / Intel's MMD: open a device over a transport, initialise its memory, allocate and
//! move buffers, set a kernel's arguments, launch it, wait with a timeout, read its counters.
//!
//! Layers, each usable on its own:
//! - [`Transport`]: bytes to and from the board, with timeouts. Implementations: [`SerialPort`]
//!   (a real board's FTDI serial port, termios through `libc`) and [`SimBoard`] (the board
//!   simulation: the Verilator model of the whole SoC, in this process, whose timeouts and
//!   pauses are in simulated time). A later Ethernet or PCIe link is another implementation.
//! - [`Bridge`]: LiteX's UARTBone protocol over a transport (Wishbone reads and writes of
//!   32-bit words; `litex/soc/cores/uart.py`, `Stream2Wishbone`), so `litex_server` and this
//!   runtime speak the same frames.
//! - [`BoardInfo`]: what the host must know about a bitstream, read from the files its build
//!   wrote: LiteX's `csr.csv` (register addresses, the SDRAM window, the clock) and
//!   `sdram_init.json` (LiteDRAM's SDRAM init sequence), plus the expected build id.
//! - [`Device`]: the API a program uses (`open`, `init_memory`, `alloc`, `write`, `read`,
//!   `kernel`, `set_input`, `start`, `wait`, `cycles`).
//! - [`pty`]: a [`SimBoard`] served on a pseudo-terminal, so the serial path (`SerialPort`,
//!   `oclhls run --port`, `litex_server --uart`) runs end to end against the simulation.
//!
//! Invariants: every wait on the board has a timeout and its error names what was being
//! waited for; a board answering with the wrong magic or build id is refused before anything
//! is written to it; buffer accesses outside the SDRAM are errors, never wrapped addresses.

mod board_info;
mod device;
pub mod pty;
mod serial;
mod sim_board;
mod transport;
mod uartbone;

#[cfg(test)]
mod fake;

pub use board_info::{BoardInfo, SdramInit, SdramInitStep};
pub use device::{Device, Kernel, RunInfo};
pub use serial::SerialPort;
pub use sim_board::{board_sim_ports, SimBoard, SimBoardOptions};
pub use transport::Transport;
pub use uartbone::{Bridge, BridgeStats, MAX_BURST_WORDS};

use std::time::Duration;

/// Value of the `oclhls_magic` register (`OCLH`), as `board_support::soc::MAGIC`.
pub const MAGIC: u32 = 0x4f43_4c48;

/// Errors of the host runtime. The messages say which step failed and what to check.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "no answer from the board over {link} within {timeout:?} while {what} (got {got} of \
         {want} bytes): check that the board is programmed with this build's bitstream, that \
         the port and baud rate are right, and that nothing else holds the port"
    )]
    Timeout {
        link: String,
        what: String,
        timeout: Duration,
        got: usize,
        want: usize,
    },
    #[error("board description: {0}")]
    BoardInfo(String),
    #[error("the board has no register `{0}` (not in its csr.csv: another build?)")]
    NoRegister(String),
    #[error(
        "the board does not run an oclhls system: register oclhls_magic reads {got:#010x}, \
         expected {MAGIC:#010x}"
    )]
    NotOclhls { got: u32 },
    #[error(
        "the board runs another bitstream: its build id is {got:#010x}, this build's is \
         {want:#010x}; program the board with this build's bitstream"
    )]
    WrongBitstream { got: u32, want: u32 },
    #[error(
        "SDRAM check after initialisation failed at {addr:#010x}: wrote {wrote:#010x}, read \
         {read:#010x}"
    )]
    MemoryCheck { addr: u32, wrote: u32, read: u32 },
    #[error("{len} bytes at SDRAM offset {offset:#x} do not fit in the {size} bytes of SDRAM")]
    OutOfRange { offset: u64, len: usize, size: u32 },
    #[error("out of SDRAM: {len} more bytes asked, {free} free")]
    OutOfMemory { len: usize, free: u32 },
    #[error("no kernel `{0}` on the board (no register bank `k_{0}`)")]
    NoKernel(String),
    #[error(
        "kernel `{kernel}` did not finish within {timeout:?}: its control word reads \
         {ctrl:#x} (busy {}, done {}), {cycles} cycles so far",
        ctrl & 1, (ctrl >> 1) & 1
    )]
    KernelTimeout {
        kernel: String,
        timeout: Duration,
        ctrl: u32,
        cycles: u64,
    },
    #[error("kernel `{0}` is still busy: it cannot be started again")]
    Busy(String),
    #[error("board simulation: {0}")]
    Sim(#[from] sim::SimError),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

pub(crate) fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
    let context = context.into();
    move |source| Error::Io { context, source }
}
