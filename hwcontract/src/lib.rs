//! hwcontract: the facts about oclhls' hardware that more than one stage relies on, each
//! defined once.
//!
//! Owns:
//! - [`fp`]: the float units' latencies and the float compare's delay, which the scheduler's
//!   operator library plans with, the RTL generator builds (`rtl_templates::fp`) and the
//!   operator characterisation (`board-support/examples/op_char.rs`) measures;
//! - [`pipe`]: the pipe FIFO's Verilog module names, parameters (defaults, minimums, the
//!   derived widths) and ports, which the system top (`rtl_templates::system`) wires, the FIFO
//!   testbench (`sim::pipe_fifo`) drives, and the emulator models (the depth of every pipe,
//!   [`pipe::effective_depth`]);
//! - [`atomic`]: the opcodes of atomic requests on a global memory port and what memory does
//!   with the element (the emitter writes them, the testbench memory and the IR interpreter
//!   execute them);
//! - [`read_port`]: the depth of a global read port's response buffer, which the RTL
//!   generator builds and the scheduler's operator library times;
//! - [`div`]: the integer dividers' latencies and busy cycles as functions of their
//!   parameters, which the scheduler plans with and the RTL generator inverts to build a unit;
//! - [`clog2`], the width arithmetic the Verilog templates write as `$clog2`.
//!
//! Invariants: no dependencies (it sits below every stage that uses it); every number here is
//! the one the templates in `rtl-templates/templates/` implement, and tests of those templates
//! (`rtl-templates`'s `pipe_fifo_contract` test, the float unit RTL tests) check them against
//! it. Changing a number here changes the hardware: the templates must change with it.

pub mod atomic;
pub mod div;
pub mod fp;
pub mod pipe;
pub mod read_port;

/// The direction of a module's port, as seen from the module that has it (a kernel, the pipe
/// FIFO, a system top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortDir {
    In,
    Out,
}

impl PortDir {
    /// The Verilog declaration of a port of this direction (aligned: `input  wire`).
    pub fn declaration(self) -> &'static str {
        match self {
            PortDir::In => "input  wire",
            PortDir::Out => "output wire",
        }
    }

    /// `in` or `out` (as `report.json` spells it).
    pub fn name(self) -> &'static str {
        match self {
            PortDir::In => "in",
            PortDir::Out => "out",
        }
    }
}

/// `$clog2(n)` as Verilog computes it: the bits needed to index `n` things; 0 for `n <= 1`.
pub const fn clog2(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::clog2;

    #[test]
    fn clog2_is_verilogs() {
        let cases = [
            (0, 0),
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (16, 4),
            (17, 5),
        ];
        for (n, want) in cases {
            assert_eq!(clog2(n), want, "clog2({n})");
        }
        assert_eq!(clog2(u32::MAX), 32);
    }
}
