//! Memory ports of a system top's own, not of a kernel: the atomic counters it holds for
//! kernels running at the same time (`counters__<n>_*`, with the buffer's address on
//! `counters__arg_<n>`; docs/hardware-interface.md, "Shared atomic counters"). They are served
//! in every cycle of a run, like a kernel's pointer ports but with no launch: the top reads a
//! counter when a kernel first needs it and writes it back before the last one is `done`.

use crate::memory::GlobalMemory;
use crate::model::{Model, PortId};
use crate::SimError;

use super::config::RunConfig;
use super::mem_env::MemEnv;
use super::mem_server::{drive_all, owing, servers_of, transfer_all, MemoryServer};
use super::ports::{discover_pointers, PointerArg, PortChecker};

/// The prefix of a system top's own memory ports.
pub(crate) const PREFIX: &str = "counters__";

/// The checked memory ports of a system top's own.
pub(crate) struct TopPorts {
    pointers: Vec<PointerArg>,
}

impl TopPorts {
    /// Claims and checks every memory port `counters__<n>_*` of the model.
    pub(crate) fn discover(c: &mut PortChecker) -> TopPorts {
        TopPorts {
            pointers: discover_pointers(c, PREFIX),
        }
    }

    /// The names `<n>` of the ports.
    pub(crate) fn names(&self) -> Vec<String> {
        self.pointers.iter().map(|p| p.name.clone()).collect()
    }
}

/// The servers of a system top's own memory ports, each bound to the address of its buffer.
pub(crate) struct TopMemory {
    args: Vec<(PortId, u32)>,
    servers: Vec<MemoryServer>,
}

impl TopMemory {
    /// Binds every port of `ports` to its address in `addrs` (by name); each port needs one,
    /// and each address a port.
    pub(crate) fn new(
        model: &Model,
        ports: TopPorts,
        addrs: &[(String, u32)],
        config: &RunConfig,
    ) -> Result<TopMemory, SimError> {
        let names = ports.names();
        if let Some((n, _)) = addrs.iter().find(|(n, _)| !names.contains(n)) {
            return Err(SimError::Argument(format!(
                "shared counter `{n}`: the system top has no port `{PREFIX}{n}_rreq_valid` (it has {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        }
        let mut args = Vec::new();
        for n in &names {
            let Some(&(_, addr)) = addrs.iter().find(|(x, _)| x == n) else {
                return Err(SimError::Argument(format!(
                    "the system top's memory port `{PREFIX}{n}` has no buffer (bind it with `SystemRun::shared_counter`)"
                )));
            };
            let port = model
                .port(&format!("{PREFIX}arg_{n}"))
                .expect("checked by discover");
            args.push((port, addr));
        }
        let mut unused = vec![false; config.port_memory.len()];
        let servers = servers_of(PREFIX, &ports.pointers, model, config, &mut unused)?;
        Ok(TopMemory { args, servers })
    }

    /// Drives the address inputs (they stay until the end of the run).
    pub(crate) fn set_inputs(&self, model: &mut Model) {
        for &(port, addr) in &self.args {
            model.set(port, u64::from(addr));
        }
    }

    /// Memory's side of every handshake of this cycle (before `eval`).
    pub(crate) fn drive(&mut self, model: &mut Model, env: &mut MemEnv, cycle: u64) {
        drive_all(&mut self.servers, model, env, cycle);
    }

    /// The transfers of the coming edge (after `eval`); whether any moved.
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

    /// When the run ends every request must have been answered.
    pub(crate) fn check_nothing_outstanding(&self, cycle: u64) -> Result<(), SimError> {
        match owing(&self.servers) {
            None => Ok(()),
            Some(s) => Err(SimError::Protocol {
                cycle,
                message: format!(
                    "the system top still waits for memory on `{}` when the last kernel is done",
                    s.name
                ),
            }),
        }
    }
}
