//! The pipe FIFO's contract (`docs/hardware-interface.md`, "Pipe FIFOs"): its Verilog module
//! names, its parameters with their defaults and limits, the widths derived from them, its
//! ports, and the depth every pipe gets.
//!
//! The Verilog is the askama template `rtl-templates/templates/oclhls_pipe_fifo.v` (rendered
//! with or without reservation logic); a test of `rtl-templates` (`pipe_fifo_contract`) reads
//! the rendered port and parameter lists back and compares them with [`PORTS`] and the
//! defaults here. The system top (`rtl_templates::system`) wires the ports from [`PORTS`], the
//! FIFO testbench (`sim::pipe_fifo`) drives them from the same list, and the emulator gives
//! every pipe the capacity [`effective_depth`] gives the hardware.

use crate::{clog2, PortDir};
use std::fmt;
use std::ops::RangeInclusive;

/// Module name of the FIFO with reservation logic.
pub const MODULE: &str = "oclhls_pipe_fifo";
/// Module name of the FIFO without reservation logic (plain non-blocking reads and writes).
pub const MODULE_PLAIN: &str = "oclhls_pipe_fifo_plain";
/// Module name of one side (reserve/commit pointers, reservation table) of [`MODULE`].
pub const MODULE_SIDE: &str = "oclhls_pipe_side";

/// The fewest packets a FIFO holds: the template addresses its storage with `$clog2(DEPTH)`
/// bits, which must be at least one.
pub const MIN_DEPTH: u32 = 2;

/// Packets of a pipe whose depth nobody gave (pipe arguments matched by packet type, a
/// program-scope pipe without a usable `xcl_reqd_pipe_depth`); also the template's `DEPTH`
/// default.
pub const DEFAULT_DEPTH: u32 = 16;

/// The capacity, in packets, of a pipe for which `requested` packets were asked
/// (`xcl_reqd_pipe_depth(N)`, or nothing): [`DEFAULT_DEPTH`] when nothing was asked, never
/// below [`MIN_DEPTH`]. The hardware's `DEPTH` (and `get_pipe_max_packets`) and the
/// emulator's capacity are both this number.
pub const fn effective_depth(requested: Option<u32>) -> u32 {
    let d = match requested {
        Some(d) => d,
        None => DEFAULT_DEPTH,
    };
    if d < MIN_DEPTH {
        MIN_DEPTH
    } else {
        d
    }
}

/// A pipe declared with an explicit packet count below [`MIN_DEPTH`] (a test's `pipe:` line,
/// as `clCreatePipe`'s `pipe_max_packets`): the hardware cannot build it, and the emulator
/// refuses it too, so that both run the same pipes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooShallow {
    /// The packets asked for.
    pub requested: u32,
}

impl fmt::Display for TooShallow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "holds {} packet(s); the hardware FIFO needs at least {MIN_DEPTH}",
            self.requested
        )
    }
}

impl std::error::Error for TooShallow {}

/// The capacity of a pipe created with exactly `max_packets` packets: `max_packets` itself,
/// or [`TooShallow`] below [`MIN_DEPTH`].
pub fn exact_depth(max_packets: u32) -> Result<u32, TooShallow> {
    if max_packets < MIN_DEPTH {
        Err(TooShallow {
            requested: max_packets,
        })
    } else {
        Ok(max_packets)
    }
}

/// Reservation table entries per side (`MAX_RES`, `CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`)
/// unless `--pipe-reservations` says otherwise; also the template's `MAX_RES` default.
pub const DEFAULT_MAX_RESERVATIONS: u32 = 4;

/// The table sizes the FIFO supports: at least one entry, and at most 256, because a kernel's
/// `reserve_id_t` keeps the table index (`IDW` bits) below its valid bit, bit 8
/// (`hls_ir::ops::RESERVE_ID_VALID_BIT`).
pub const MAX_RESERVATIONS_RANGE: RangeInclusive<u32> = 1..=256;

/// Width of a reservation id (table index) for a table of `max_res` entries: the template's
/// `IDW`, `max(1, clog2(MAX_RES))`.
pub const fn id_width(max_res: u32) -> u32 {
    let w = clog2(max_res);
    if w == 0 {
        1
    } else {
        w
    }
}

/// Width of the packet counts (`num_packets`, `max_packets`) of a FIFO of `depth` packets of
/// storage: the template's `CW`, `clog2(DEPTH + SLACK + 1)`.
pub const fn count_width(depth: u32) -> u32 {
    clog2(depth + 1)
}

/// The storage a FIFO of `depth` packets needs beyond `depth` so that reservations cannot
/// deadlock it: `max_res` entries per side, each holding at most `reserved_at_once` packets of
/// that side (0: the side makes no reservations; at most `depth`, since a larger reservation
/// never succeeds in the emulator).
///
/// Why: a pipelined kernel keeps several work-items between a reservation and its commit.
/// When the next work-item's blocking reservation waits, the pipeline stalls and those
/// work-items cannot commit, so the packets they hold stay claimed. Were they counted against
/// `DEPTH`, a pipe holding `DEPTH` packets would deadlock where the emulator, which finishes
/// each work-item before the next, does not (the kernel fuzzer's case: a reader reserving
/// one packet at a time from a pipe of two). With this slack the other side always finds the
/// `DEPTH` packets (or free places) the emulator's order would give it.
pub fn reservation_slack(depth: u32, max_res: u32, reserved_at_once: [u32; 2]) -> u32 {
    reserved_at_once
        .iter()
        .map(|&n| max_res.saturating_mul(n.min(depth)))
        .fold(0, u32::saturating_add)
}

/// Width of a port, fixed or given by the FIFO's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// This many bits whatever the parameters.
    Fixed(u32),
    /// `WIDTH`: one packet.
    Packet,
    /// `IDW`: a reservation id ([`id_width`]).
    ResId,
    /// `CW`: a packet count ([`count_width`]).
    Count,
}

/// One port of the FIFO module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FifoPort {
    pub name: &'static str,
    pub dir: PortDir,
    pub width: Width,
    /// The port exists in [`MODULE_PLAIN`] too (not only with reservation logic).
    pub in_plain: bool,
}

const fn port(name: &'static str, dir: PortDir, width: Width, in_plain: bool) -> FifoPort {
    FifoPort {
        name,
        dir,
        width,
        in_plain,
    }
}

const ONE: Width = Width::Fixed(1);
const WORD: Width = Width::Fixed(32);

/// The clock and the synchronous reset, the first two ports of both modules.
pub const CLK_RST: [FifoPort; 2] = [
    port("clk", PortDir::In, ONE, true),
    port("rst", PortDir::In, ONE, true),
];

/// The operation and query ports, in the module's order (after [`CLK_RST`]); those without
/// [`FifoPort::in_plain`] exist only in [`MODULE`].
pub const PORTS: [FifoPort; 26] = [
    // Write side.
    port("wr_valid", PortDir::In, ONE, true),
    port("wr_slot", PortDir::In, ONE, false),
    port("wr_slot_id", PortDir::In, Width::ResId, false),
    port("wr_slot_idx", PortDir::In, WORD, false),
    port("wr_data", PortDir::In, Width::Packet, true),
    port("wr_ok", PortDir::Out, ONE, true),
    port("wr_res_req", PortDir::In, ONE, false),
    port("wr_res_n", PortDir::In, WORD, false),
    port("wr_res_ok", PortDir::Out, ONE, false),
    port("wr_res_id", PortDir::Out, Width::ResId, false),
    port("wr_commit", PortDir::In, ONE, false),
    port("wr_commit_id", PortDir::In, Width::ResId, false),
    // Read side.
    port("rd_valid", PortDir::In, ONE, true),
    port("rd_slot", PortDir::In, ONE, false),
    port("rd_slot_id", PortDir::In, Width::ResId, false),
    port("rd_slot_idx", PortDir::In, WORD, false),
    port("rd_ok", PortDir::Out, ONE, true),
    port("rd_data", PortDir::Out, Width::Packet, true),
    port("rd_res_req", PortDir::In, ONE, false),
    port("rd_res_n", PortDir::In, WORD, false),
    port("rd_res_ok", PortDir::Out, ONE, false),
    port("rd_res_id", PortDir::Out, Width::ResId, false),
    port("rd_commit", PortDir::In, ONE, false),
    port("rd_commit_id", PortDir::In, Width::ResId, false),
    // Queries.
    port("num_packets", PortDir::Out, Width::Count, true),
    port("max_packets", PortDir::Out, Width::Count, true),
];

/// The parameters of one FIFO instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FifoParams {
    /// `WIDTH`: packet width in bits (`8*sizeof` of the packet type).
    pub width: u32,
    /// `DEPTH`: capacity in packets, at least [`MIN_DEPTH`].
    pub depth: u32,
    /// `MAX_RES`: reservation table entries per side, in [`MAX_RESERVATIONS_RANGE`]; `None`
    /// for the FIFO without reservation logic ([`MODULE_PLAIN`]).
    pub max_res: Option<u32>,
    /// `SLACK` (with reservation logic only, else 0): storage beyond `DEPTH` for the packets
    /// that reservations of work-items in flight hold ([`reservation_slack`]).
    pub slack: u32,
}

impl FifoParams {
    /// The Verilog module of this instance.
    pub fn module(&self) -> &'static str {
        if self.max_res.is_some() {
            MODULE
        } else {
            MODULE_PLAIN
        }
    }

    /// The parameter values an instance sets, as `(Verilog name, value)`, in the module's
    /// order.
    pub fn overrides(&self) -> Vec<(&'static str, u32)> {
        let mut v = vec![("WIDTH", self.width), ("DEPTH", self.depth)];
        if let Some(n) = self.max_res {
            v.push(("MAX_RES", n));
            v.push(("SLACK", self.slack));
        }
        v
    }

    /// Bits of a port of width `w` in this instance.
    pub fn bits(&self, w: Width) -> u32 {
        match w {
            Width::Fixed(n) => n,
            Width::Packet => self.width,
            Width::ResId => id_width(self.max_res.unwrap_or(1)),
            Width::Count => count_width(self.depth + self.slack),
        }
    }

    /// The operation and query ports this instance has ([`PORTS`] without the reservation
    /// ports for [`MODULE_PLAIN`]).
    pub fn ports(&self) -> impl Iterator<Item = &'static FifoPort> {
        let res = self.max_res.is_some();
        PORTS.iter().filter(move |p| res || p.in_plain)
    }

    /// Every port of the module, [`CLK_RST`] first.
    pub fn module_ports(&self) -> impl Iterator<Item = &'static FifoPort> {
        CLK_RST.iter().chain(self.ports())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_rule() {
        assert_eq!(effective_depth(None), DEFAULT_DEPTH);
        assert_eq!(effective_depth(Some(0)), MIN_DEPTH);
        assert_eq!(effective_depth(Some(1)), MIN_DEPTH);
        assert_eq!(effective_depth(Some(2)), 2);
        assert_eq!(effective_depth(Some(1000)), 1000);
        assert_eq!(exact_depth(2), Ok(2));
        let e = exact_depth(1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "holds 1 packet(s); the hardware FIFO needs at least 2"
        );
    }

    #[test]
    fn derived_widths() {
        // IDW = max(1, clog2(MAX_RES)); CW = clog2(DEPTH + 1).
        let idw: Vec<u32> = [1, 2, 3, 4, 5, 256].map(id_width).to_vec();
        assert_eq!(idw, [1, 1, 2, 2, 3, 8]);
        assert!(id_width(*MAX_RESERVATIONS_RANGE.end()) <= 8);
        let cw: Vec<u32> = [2, 3, 4, 15, 16, 17].map(count_width).to_vec();
        assert_eq!(cw, [2, 2, 3, 4, 5, 5]);
    }

    #[test]
    fn plain_fifo_has_no_reservation_ports() {
        let plain = FifoParams {
            width: 8,
            depth: 4,
            max_res: None,
            slack: 0,
        };
        let names: Vec<&str> = plain.module_ports().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "clk",
                "rst",
                "wr_valid",
                "wr_data",
                "wr_ok",
                "rd_valid",
                "rd_ok",
                "rd_data",
                "num_packets",
                "max_packets"
            ]
        );
        assert_eq!(plain.module(), MODULE_PLAIN);
        assert_eq!(plain.overrides(), [("WIDTH", 8), ("DEPTH", 4)]);
        let res = FifoParams {
            max_res: Some(4),
            ..plain
        };
        assert_eq!(res.module_ports().count(), CLK_RST.len() + PORTS.len());
        assert_eq!(res.bits(Width::ResId), 2);
        assert_eq!(res.bits(Width::Count), 3);
        assert_eq!(res.bits(Width::Packet), 8);
        let slack = FifoParams { slack: 4, ..res };
        assert_eq!(slack.bits(Width::Count), 4);
        assert_eq!(
            slack.overrides(),
            [("WIDTH", 8), ("DEPTH", 4), ("MAX_RES", 4), ("SLACK", 4)]
        );
    }

    #[test]
    fn slack_covers_the_reservations_in_flight() {
        // Nobody reserves: no slack. One packet per reservation, four entries: 4.
        assert_eq!(reservation_slack(2, 4, [0, 0]), 0);
        assert_eq!(reservation_slack(2, 4, [0, 1]), 4);
        // Both sides; an unknown count (u32::MAX) is bounded by the depth.
        assert_eq!(reservation_slack(16, 4, [2, 3]), 20);
        assert_eq!(reservation_slack(16, 4, [u32::MAX, 0]), 64);
        assert_eq!(
            reservation_slack(u32::MAX, u32::MAX, [u32::MAX, 1]),
            u32::MAX
        );
    }
}
