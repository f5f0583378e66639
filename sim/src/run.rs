//! Running a kernel: the host and global memory side of `docs/hardware-interface.md`.
//!
//! Every cycle the testbench (1) decides its side of each handshake from its own state only
//! (request `ready`: random back-pressure and the outstanding-request bound; response
//! `valid`/`data`: the oldest pending response once its latency has passed), (2) evaluates the
//! model so the kernel's outputs settle, (3) performs the transfers where `valid && ready`,
//! exactly those that happen at the coming rising edge, and (4) ticks the clock. Memory thus
//! answers only at clock edges, and a response the kernel does not take (`*_resp_ready` low)
//! stays on the port unchanged.
//!
//! Reads take their data when the request is accepted, and writes update memory when accepted;
//! the acknowledgement follows after the latency. Ports are independent: as the contract says,
//! there is no ordering between them.
//!
//! Cycle numbering: cycle 0 is the cycle in which `start` is high (accepted at its closing
//! edge); [`RunStats::cycles`] is the number of the cycle in which `done` is seen high.
//!
//! The submodules own one concern each: `config` (memory behaviour, budget, NDRange), `stats`
//! (what a run measured), `ports` (discovering and checking a kernel's ports), `args` (binding
//! argument values to ports), `mem_server` (the memory server of one pointer port, bursts
//! included), `protocol_check` (the port protocol's rules, checked every cycle), `sdram` (the
//! SDRAM timing model), `mem_env` (what the servers of a run share: the random generator and
//! the SDRAM), `port_io` (port access, faked in unit tests) and `driver` (one launched kernel,
//! shared with [`crate::SystemRun`]). This module owns [`KernelRun`], the cycle loop of a
//! kernel on its own, and the reset sequence.

mod args;
mod config;
mod driver;
mod mem_env;
mod mem_server;
mod port_io;
mod ports;
pub mod protocol_check;
pub mod sdram;
mod stats;
pub(crate) mod top_memory;

use crate::memory::GlobalMemory;
use crate::model::{Model, PortId};
use crate::{Dir, SimError};

pub use config::{MemConfig, NdRange, RunConfig};
pub(crate) use driver::KernelDriver;
pub(crate) use mem_env::MemEnv;
pub(crate) use ports::{KernelPorts, PortChecker};
pub use sdram::{SdramConfig, SdramStats};
pub use stats::{PortStats, RunStats};

/// One launch of a kernel on a model instance:
///
/// ```no_run
/// # fn f(model: &mut sim::Model, mem: &mut sim::GlobalMemory, a: u32, b: u32) -> Result<(), sim::SimError> {
/// use sim::{KernelRun, NdRange, RunConfig};
/// let stats = KernelRun::new(model)
///     .arg("a", a.into())
///     .arg("b", b.into())
///     .range(NdRange::linear(64, 64))
///     .config(RunConfig::default())
///     .run(mem)?;
/// println!("{stats}");
/// # Ok(()) }
/// ```
pub struct KernelRun<'m> {
    model: &'m mut Model,
    args: Vec<(String, Vec<u32>)>,
    range: NdRange,
    config: RunConfig,
}

impl<'m> KernelRun<'m> {
    pub fn new(model: &'m mut Model) -> KernelRun<'m> {
        KernelRun {
            model,
            args: Vec::new(),
            range: NdRange::linear(1, 1),
            config: RunConfig::default(),
        }
    }

    /// Sets argument `name` (port `arg_<name>`): a scalar, or a pointer's base address.
    /// Negative values may be passed sign-extended (`-1i32 as u64`).
    pub fn arg(mut self, name: &str, value: u64) -> Self {
        self.args
            .push((name.to_string(), vec![value as u32, (value >> 32) as u32]));
        self
    }

    /// Sets an argument wider than 64 bits from little-endian 32-bit words.
    pub fn arg_wide(mut self, name: &str, words: &[u32]) -> Self {
        self.args.push((name.to_string(), words.to_vec()));
        self
    }

    pub fn range(mut self, range: NdRange) -> Self {
        self.range = range;
        self
    }

    pub fn config(mut self, config: RunConfig) -> Self {
        self.config = config;
        self
    }

    /// Resets the model, starts the kernel and serves memory until `done`.
    pub fn run(self, mem: &mut GlobalMemory) -> Result<RunStats, SimError> {
        let KernelRun {
            model,
            args,
            range,
            config,
        } = self;
        let mut c = PortChecker::new(model);
        c.want("clk", Dir::In, Some(1));
        let rst = c.want("rst", Dir::In, Some(1));
        let ports = KernelPorts::discover(&mut c, "");
        c.finish(|input| input.starts_with("arg_"))?;
        let (Some(rst), Some(ports)) = (rst, ports) else {
            unreachable!("no problems, so every port is present")
        };
        let mut used = vec![false; config.port_memory.len()];
        let mut kernel = KernelDriver::new(model, ports, &args, range, &config, &mut used)?;
        if let Some(k) = used.iter().position(|u| !u) {
            return Err(SimError::Argument(format!(
                "memory configuration for `{}`, which is not a pointer argument",
                config.port_memory[k].0
            )));
        }
        reset(model, rst, config.reset_cycles)?;
        kernel.set_inputs(model);

        let mut env = MemEnv::new(&config)?;
        let mut scratch = Vec::new();
        let mut cycle: u64 = 0;
        loop {
            model.set(kernel.ports.start, u64::from(cycle == 0));
            kernel.drive(model, &mut env, cycle);
            model.eval()?;

            let done = model.get(kernel.ports.done) != 0;
            let busy = model.get(kernel.ports.busy) != 0;
            if cycle == 0 {
                kernel.check_idle_at_start(busy, done, cycle)?;
            }
            if done {
                kernel.check_nothing_outstanding(cycle)?;
                let mut stats = kernel.into_stats(cycle);
                stats.sdram = env.sdram_stats(cycle);
                return Ok(stats);
            }
            if cycle >= 1 && !busy {
                return Err(SimError::Protocol {
                    cycle,
                    message: "`busy` is low between the start and `done`".into(),
                });
            }
            if cycle >= config.max_cycles {
                return Err(SimError::Timeout {
                    cycles: cycle,
                    outstanding: kernel.outstanding(model),
                });
            }
            kernel.transfer(model, mem, &mut env, cycle, &mut scratch)?;
            model.tick()?;
            cycle += 1;
        }
    }
}

/// Resets the model: every input low, `rst` high for `cycles` cycles, then low.
pub(crate) fn reset(model: &mut Model, rst: PortId, cycles: u32) -> Result<(), SimError> {
    if cycles == 0 {
        return Err(SimError::Argument("reset_cycles must be at least 1".into()));
    }
    for k in 0..model.ports().len() {
        if model.ports()[k].dir == Dir::In {
            model.set_wide(PortId(k as u32), &[]);
        }
    }
    model.set(rst, 1);
    model.ticks(u64::from(cycles))?;
    model.set(rst, 0);
    Ok(())
}
