//! board-support: boards, pin constraints and the open ECP5 synthesis flow.
//!
//! What this crate owns:
//! - **Boards and devices** ([`Board`], [`Device`], [`boards()`], [`board()`]): the ULX3S in
//!   its four ECP5 variants (`ulx3s-12f` ... `ulx3s-85f`, `ulx3s` = 85F). Pin facts come from
//!   `boards/ulx3s_v20_pins.csv`, embedded in the binary and parsed at run time.
//! - **Constraints** ([`lpf()`]): LPF text for nextpnr-ecp5 that places design ports on board
//!   pins with their I/O standard, pull, drive and clock frequency.
//! - **The synthesis flow** ([`flow`]): Yosys `synth_ecp5` with `check`, nextpnr-ecp5 (out of
//!   context for a kernel alone, or a full design with an LPF) and ecppack, each returning a
//!   report of numbers read from the tools' JSON output.
//!
//! - **Board systems** ([`soc`]): the kernels in a LiteX SoC with the board's SDRAM (LiteDRAM)
//!   and a UART host bridge, their control registers and memory adapters, built by the script
//!   `litex/oclhls_soc.py` and implemented with the flow above.
//!
//! Invariants:
//! - a [`Board`] has unique pin names and sites and a clock that is one of its pins; the
//!   embedded pin files parse (checked by the tests, so [`boards()`] cannot fail in a release);
//! - [`lpf()`] output only names pins the board has, each site at most once, and only signal
//!   names the LPF parser reads back unchanged;
//! - bad input (pin files, names, options, designs) is an error value, never a panic; flow
//!   errors carry the relevant tool log lines and the path of the full log.

mod board;
pub mod flow;
mod lpf;
mod names;
pub mod soc;

pub use board::{
    board, board_names, boards, find_board, parse_pins, Board, BoardError, Clock, Device, Family,
    Pin, PullMode,
};
pub use flow::FlowError;
pub use lpf::lpf;
