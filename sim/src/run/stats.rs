//! What a kernel run measured: cycles, and per pointer port the transfers, stalls and
//! outstanding requests ([`RunStats`], [`PortStats`]).

use std::fmt;

use super::sdram::SdramStats;

/// Statistics of one pointer port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortStats {
    pub name: String,
    /// Element size `W / 8`.
    pub element_bytes: u32,
    /// Read requests, atomics included.
    pub reads: u64,
    pub writes: u64,
    /// Beats of the read requests (a request without a burst is one beat).
    pub read_beats: u64,
    /// Data beats written.
    pub write_beats: u64,
    /// Atomic requests (read requests with an opcode).
    pub atomics: u64,
    /// Cycles where the kernel had a read request valid but `rreq_ready` was low.
    pub read_stall_cycles: u64,
    pub write_stall_cycles: u64,
    /// Cycles where a response was valid but the kernel's `*_resp_ready` was low.
    pub read_response_blocked_cycles: u64,
    pub write_response_blocked_cycles: u64,
    pub max_outstanding_reads: usize,
    pub max_outstanding_writes: usize,
    /// Cycles in which a request channel without bursts dropped `valid` before `ready` or
    /// changed its payload while waiting (errors with [`crate::RunConfig::strict_handshakes`]),
    /// and the first of them.
    pub handshake_violations: u64,
    pub first_handshake_violation: Option<String>,
}

/// What a run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Cycles from the start cycle to the cycle in which `done` was high.
    pub cycles: u64,
    /// Per pointer port, in port order.
    pub ports: Vec<PortStats>,
    /// What the SDRAM did, in the SDRAM timing mode.
    pub sdram: Option<SdramStats>,
}

impl RunStats {
    pub fn port(&self, name: &str) -> Option<&PortStats> {
        self.ports.iter().find(|p| p.name == name)
    }

    /// Request stall cycles summed over ports and channels.
    pub fn stall_cycles(&self) -> u64 {
        self.ports
            .iter()
            .map(|p| p.read_stall_cycles + p.write_stall_cycles)
            .sum()
    }
}

impl fmt::Display for RunStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} cycles", self.cycles)?;
        writeln!(
            f,
            "{:<16} {:>10} {:>10} {:>12} {:>12} {:>8} {:>8}",
            "port", "reads", "writes", "rd stalls", "wr stalls", "max rd", "max wr"
        )?;
        for p in &self.ports {
            writeln!(
                f,
                "{:<16} {:>10} {:>10} {:>12} {:>12} {:>8} {:>8}",
                p.name,
                p.reads,
                p.writes,
                p.read_stall_cycles,
                p.write_stall_cycles,
                p.max_outstanding_reads,
                p.max_outstanding_writes
            )?;
        }
        if let Some(s) = &self.sdram {
            writeln!(f, "{s}")?;
        }
        Ok(())
    }
}
