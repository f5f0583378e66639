//! Settings of a run: the behaviour of the memory behind each pointer port ([`MemConfig`]), the
//! run's budget, seed and reset ([`RunConfig`]), and the launch's [`NdRange`].

use std::ops::RangeInclusive;

use crate::SimError;

use super::sdram::SdramConfig;

/// Behaviour of the memory behind one pointer port.
#[derive(Clone, Debug, PartialEq)]
pub struct MemConfig {
    /// Cycles from an accepted read request to its response becoming valid, drawn uniformly
    /// per request (at least 1). Responses still come back in request order.
    pub read_latency: RangeInclusive<u32>,
    /// Same for write acknowledgements.
    pub write_latency: RangeInclusive<u32>,
    /// Probability that `*_rreq_ready` (and, drawn separately, `*_wreq_ready`) is low in a
    /// cycle; below 1.
    pub stall_probability: f64,
    /// Requests (bursts) accepted but not yet answered, per channel; `ready` stays low at the
    /// bound.
    pub max_outstanding: usize,
    /// Timing of an SDRAM instead of the random latencies and stalls above: every port whose
    /// memory has `Some` shares one SDRAM (their configurations must be equal); responses
    /// come when the SDRAM model delivers them (`run::sdram`). `max_outstanding` still bounds
    /// each channel's accepted bursts.
    pub sdram: Option<SdramConfig>,
}

impl MemConfig {
    /// One-cycle latency, never any back-pressure.
    pub fn ideal() -> MemConfig {
        MemConfig {
            read_latency: 1..=1,
            write_latency: 1..=1,
            stall_probability: 0.0,
            max_outstanding: 64,
            sdram: None,
        }
    }

    /// The SDRAM timing model `cfg` (shared by every port with this memory), at most 8 bursts
    /// outstanding per channel.
    pub fn sdram(cfg: SdramConfig) -> MemConfig {
        MemConfig {
            max_outstanding: 8,
            sdram: Some(cfg),
            ..MemConfig::ideal()
        }
    }

    /// A hostile memory: latency 1 to 20 cycles, `ready` low half of the time, at most 4
    /// outstanding requests.
    pub fn random_stalls() -> MemConfig {
        MemConfig {
            read_latency: 1..=20,
            write_latency: 1..=20,
            stall_probability: 0.5,
            max_outstanding: 4,
            sdram: None,
        }
    }

    pub(super) fn validate(&self, port: &str) -> Result<(), SimError> {
        let ok = |r: &RangeInclusive<u32>| *r.start() >= 1 && r.start() <= r.end();
        if !ok(&self.read_latency) || !ok(&self.write_latency) {
            return Err(SimError::Argument(format!(
                "memory latency for `{port}` must be a non-empty range of at least 1 cycle"
            )));
        }
        if !(0.0..1.0).contains(&self.stall_probability) || self.max_outstanding == 0 {
            return Err(SimError::Argument(format!(
                "memory for `{port}`: stall probability must be in [0, 1) and max_outstanding \
                 at least 1"
            )));
        }
        if let Some(s) = &self.sdram {
            s.validate()
                .map_err(|e| SimError::Argument(format!("memory for `{port}`: {e}")))?;
        }
        Ok(())
    }
}

impl Default for MemConfig {
    fn default() -> Self {
        MemConfig::ideal()
    }
}

/// Settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// Cycles with `rst` high before the start (at least 1).
    pub reset_cycles: u32,
    /// The cycle budget: a run with no `done` after this many cycles is a
    /// [`SimError::Timeout`].
    pub max_cycles: u64,
    /// Seed of the memory's latencies and stalls.
    pub seed: u64,
    /// Memory behaviour of every pointer port...
    pub memory: MemConfig,
    /// ...except these (pointer argument name, config). In a [`crate::SystemRun`] the name is
    /// prefixed with the kernel: `producer__src`.
    pub port_memory: Vec<(String, MemConfig)>,
    /// [`crate::SystemRun`] only: this many consecutive cycles without progress (no memory
    /// request or response transferred, no pipe operation taking effect, no kernel started or
    /// done) are a [`SimError::Deadlock`]. Must exceed the longest memory latency; raise it for
    /// kernels that compute that long without touching memory or a pipe. [`crate::KernelRun`] ignores
    /// it (a lone kernel runs into `max_cycles`).
    pub deadlock_cycles: u64,
    /// Fail the run when a request channel without bursts (revision 1: a read channel without
    /// `rreq_len`, a write channel with its data on `wreq_data`) drops its `valid` before
    /// `ready` or changes its payload while waiting. On by default (generated kernels keep
    /// their requests until accepted: `rtl_templates`, `emit_request`, and the arbiters'
    /// locks); off, such violations are only counted in
    /// [`crate::PortStats::handshake_violations`] (for hand-written models under test).
    /// Bursting channels are always checked strictly, and every other rule always fails the
    /// run.
    pub strict_handshakes: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            reset_cycles: 4,
            max_cycles: 10_000_000,
            seed: 0,
            memory: MemConfig::ideal(),
            port_memory: Vec::new(),
            deadlock_cycles: 100_000,
            strict_handshakes: true,
        }
    }
}

/// `global_size`, `local_size` and `global_offset` per dimension, and the `work_dim` of the
/// launch (what `get_work_dim` returns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub global_size: [u32; 3],
    pub local_size: [u32; 3],
    pub global_offset: [u32; 3],
    pub work_dim: u32,
}

impl NdRange {
    /// One dimension; the others are 1.
    pub fn linear(global: u32, local: u32) -> NdRange {
        NdRange {
            work_dim: 1,
            ..NdRange::new([global, 1, 1], [local, 1, 1])
        }
    }

    /// Three dimensions.
    pub fn new(global_size: [u32; 3], local_size: [u32; 3]) -> NdRange {
        NdRange {
            global_size,
            local_size,
            global_offset: [0; 3],
            work_dim: 3,
        }
    }
}
