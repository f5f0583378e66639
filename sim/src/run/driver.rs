//! The per-kernel driver: one launched kernel with its ports, argument values, NDRange and
//! memory servers, and the protocol checks of its `start`/`busy`/`done` handshake. The cycle
//! discipline belongs to the caller, so one model holds one kernel ([`crate::KernelRun`]) or
//! several ([`crate::SystemRun`]).

use crate::memory::GlobalMemory;
use crate::model::{Model, PortId};
use crate::{Outstanding, SimError};

use super::config::{NdRange, RunConfig};
use super::mem_env::MemEnv;
use super::mem_server::{drive_all, memory_servers, owing, transfer_all, MemoryServer};
use super::ports::KernelPorts;
use super::stats::RunStats;

/// One launched kernel: its ports, argument values, NDRange and memory servers. The cycle
/// discipline (drive, eval, check, transfer, tick) belongs to the caller, so one model can
/// hold one kernel ([`crate::KernelRun`]) or several ([`crate::SystemRun`]).
pub(crate) struct KernelDriver {
    pub(crate) ports: KernelPorts,
    args: Vec<(PortId, Vec<u32>)>,
    range: NdRange,
    /// One per pointer argument, in port order.
    servers: Vec<MemoryServer>,
}

impl KernelDriver {
    /// Checks the arguments and the NDRange and sets up one memory server per pointer port.
    /// Marks the entries of `config.port_memory` it uses in `used`.
    pub(crate) fn new(
        model: &Model,
        ports: KernelPorts,
        args: &[(String, Vec<u32>)],
        range: NdRange,
        config: &RunConfig,
        used: &mut [bool],
    ) -> Result<KernelDriver, SimError> {
        let servers = memory_servers(&ports, model, config, used)?;
        let args = ports.check_args(model, args)?;
        if range.local_size.contains(&0) {
            return Err(SimError::Argument(format!(
                "{}local size {:?} has a zero dimension",
                ports.of_kernel(),
                range.local_size
            )));
        }
        Ok(KernelDriver {
            ports,
            args,
            range,
            servers,
        })
    }

    /// Drives the argument and NDRange inputs (they stay until the end of the run).
    pub(crate) fn set_inputs(&self, model: &mut Model) {
        let (ports, range) = (&self.ports, &self.range);
        for (port, words) in &self.args {
            model.set_wide(*port, words);
        }
        for d in 0..3 {
            model.set(ports.global_size[d], u64::from(range.global_size[d]));
            if let Some(p) = ports.local_size[d] {
                model.set(p, u64::from(range.local_size[d]));
            }
            if let Some(p) = ports.global_offset[d] {
                model.set(p, u64::from(range.global_offset[d]));
            }
        }
        if let Some(p) = ports.work_dim {
            model.set(p, u64::from(range.work_dim));
        }
    }

    /// Memory's side of every handshake of this cycle (before `eval`).
    pub(crate) fn drive(&mut self, model: &mut Model, env: &mut MemEnv, cycle: u64) {
        drive_all(&mut self.servers, model, env, cycle);
    }

    /// The transfers of the coming edge (after `eval`); whether any request or response moved.
    pub(crate) fn transfer(
        &mut self,
        model: &Model,
        mem: &mut GlobalMemory,
        env: &mut MemEnv,
        cycle: u64,
        scratch: &mut Vec<u32>,
    ) -> Result<bool, SimError> {
        transfer_all(&mut self.servers, model, mem, env, cycle, scratch)
    }

    /// A kernel must be idle when `start` is raised.
    pub(crate) fn check_idle_at_start(
        &self,
        busy: bool,
        done: bool,
        cycle: u64,
    ) -> Result<(), SimError> {
        if !busy && !done {
            return Ok(());
        }
        Err(SimError::Protocol {
            cycle,
            message: format!(
                "{} must be idle when `start` is raised, but busy={} done={}",
                self.ports.kernel(),
                u8::from(busy),
                u8::from(done)
            ),
        })
    }

    /// At `done` every request must have been answered.
    pub(crate) fn check_nothing_outstanding(&self, cycle: u64) -> Result<(), SimError> {
        match owing(&self.servers) {
            None => Ok(()),
            Some(p) => Err(SimError::Protocol {
                cycle,
                message: format!(
                    "`done` while port `{}` still has {} read responses and {} write \
                     acknowledgements outstanding",
                    p.name,
                    p.owed().0,
                    p.owed().1
                ),
            }),
        }
    }

    /// The first port on which the kernel holds a request valid in this cycle (after `eval`).
    pub(crate) fn requesting(&self, model: &Model) -> Option<&str> {
        self.servers
            .iter()
            .find(|p| {
                let o = p.outstanding(model);
                o.read_request_waiting || o.write_request_waiting
            })
            .map(|p| p.name.as_str())
    }

    /// The names of its pointer ports, with the kernel prefix.
    pub(crate) fn port_names(&self) -> impl Iterator<Item = &str> {
        self.servers.iter().map(|p| p.name.as_str())
    }

    pub(crate) fn outstanding(&self, model: &Model) -> Vec<Outstanding> {
        self.servers.iter().map(|p| p.outstanding(model)).collect()
    }

    /// Statistics of a run that took `cycles` cycles from its start.
    pub(crate) fn into_stats(self, cycles: u64) -> RunStats {
        RunStats {
            cycles,
            ports: self.servers.into_iter().map(|p| p.stats).collect(),
            sdram: None,
        }
    }
}
