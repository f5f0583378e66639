//! What the memory servers of one run share: the random generator of the random mode and the
//! one SDRAM of the SDRAM timing mode ([`MemEnv`]).

use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::SimError;

use super::config::RunConfig;
use super::sdram::{Sdram, SdramStats};

/// The memory state shared by every memory server of a run.
pub(crate) struct MemEnv {
    pub(super) rng: StdRng,
    sdram: Option<Sdram>,
    /// The last cycle the SDRAM made its decisions for.
    advanced: Option<u64>,
}

impl MemEnv {
    /// The run's generator (seeded with `config.seed`) and, when a port's memory is an SDRAM,
    /// the SDRAM every such port shares.
    pub(crate) fn new(config: &RunConfig) -> Result<MemEnv, SimError> {
        let all = std::iter::once(&config.memory).chain(config.port_memory.iter().map(|(_, m)| m));
        let mut chosen = None;
        for s in all.filter_map(|m| m.sdram.as_ref()) {
            match chosen {
                None => chosen = Some(s),
                Some(c) if c != s => return Err(SimError::Argument(
                    "the ports of a run share one SDRAM: their SDRAM configurations must be equal"
                        .into(),
                )),
                Some(_) => {}
            }
        }
        let sdram = chosen
            .map(|c| Sdram::new(c.clone()).map_err(SimError::Argument))
            .transpose()?;
        Ok(MemEnv {
            rng: StdRng::seed_from_u64(config.seed),
            sdram,
            advanced: None,
        })
    }

    /// The SDRAM, with its decisions for cycle `cycle` made. Panics if the run has none (a
    /// server asks only when its memory selects it, and `new` then made one).
    pub(super) fn sdram_at(&mut self, cycle: u64) -> &mut Sdram {
        let s = self.sdram.as_mut().expect("a port with SDRAM timing");
        if self.advanced.is_none_or(|c| c < cycle) {
            s.advance(cycle);
            self.advanced = Some(cycle);
        }
        s
    }

    /// The SDRAM without advancing it (to queue requests after the cycle's decisions).
    pub(super) fn sdram(&mut self) -> &mut Sdram {
        self.sdram.as_mut().expect("a port with SDRAM timing")
    }

    /// The SDRAM's data bus width in bytes, when there is one.
    pub(super) fn sdram_bus_bytes(&self) -> Option<u32> {
        self.sdram.as_ref().map(|s| s.config().bus_bits / 8)
    }

    /// What the SDRAM did in a run of `cycles` cycles, when there is one.
    pub(crate) fn sdram_stats(&self, cycles: u64) -> Option<SdramStats> {
        self.sdram.as_ref().map(|s| s.stats(cycles))
    }
}
