//! Running a system top: several kernels and the FIFOs of their pipes in one model
//! (`docs/hardware-interface.md`, "System top").
//!
//! Each kernel `K` of the top has the ports of a kernel on its own with the prefix `K__`, and
//! is driven exactly like [`crate::KernelRun`] drives one kernel (the same `run::KernelDriver`):
//! arguments and NDRange, a one-cycle `start` pulse, one memory server per pointer port, all
//! serving one shared [`GlobalMemory`]. A launch starts in cycle 0, or with `after`, in the cycle
//! after the `done` of the last kernel it waits for. Each pipe `P` exposes its fill level and
//! whether its sides wait (`pipe__P__*`), which the run samples every cycle for statistics and
//! for deadlock reports.
//!
//! Cycle numbering: cycle 0 is the first cycle after reset (kernels without `after` have
//! `start` high in it); [`SystemStats::cycles`] is the cycle in which the last kernel's `done`
//! is seen. Pipes are sampled in every cycle from 0 to that one.
//!
//! A run ends with an error when nothing progresses for [`RunConfig::deadlock_cycles`] cycles
//! ([`SimError::Deadlock`]) or the cycle budget runs out ([`SimError::SystemTimeout`]); both
//! carry a [`SystemReport`]: each kernel's state and outstanding memory requests, each pipe's
//! fill and waiting sides.
//!
//! The submodules own one concern each: `ports` (the ports of a system top), `checks` (the
//! run's settings), `launched` (kernels and pipes during the run) and `report` (statistics and
//! failure reports). This module owns [`SystemLaunch`] and the cycle loop of [`SystemRun`].

mod checks;
mod launched;
mod ports;
mod report;

use crate::memory::GlobalMemory;
use crate::model::Model;
use crate::run::top_memory::TopMemory;
use crate::run::{reset, KernelDriver, KernelPorts, MemEnv, NdRange, RunConfig};
use crate::SimError;

use checks::{check_deadlock_limit, check_launches, check_pipe_ends};
use launched::{failure_report, LaunchState, LaunchedKernel, PipeMonitor};
pub use ports::SystemLayout;
use ports::SystemPorts;
pub use report::{
    KernelReport, KernelState, KernelStats, PipeReport, PipeStats, SystemReport, SystemStats,
};

/// The launch of one kernel of a system: arguments, NDRange, and the kernels it waits for.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemLaunch {
    kernel: String,
    args: Vec<(String, Vec<u32>)>,
    range: NdRange,
    after: Vec<String>,
}

impl SystemLaunch {
    /// A launch of kernel `kernel` (the instance name: the kernel function's name) over
    /// `NdRange::linear(1, 1)` until [`SystemLaunch::range`] says otherwise.
    pub fn new(kernel: &str) -> SystemLaunch {
        SystemLaunch {
            kernel: kernel.to_string(),
            args: Vec::new(),
            range: NdRange::linear(1, 1),
            after: Vec::new(),
        }
    }

    /// Sets argument `name` (port `<kernel>__arg_<name>`), as [`crate::KernelRun::arg`].
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

    /// Starts this launch only once the launch of `kernel` is done (an event dependency).
    pub fn after(mut self, kernel: &str) -> Self {
        self.after.push(kernel.to_string());
        self
    }
}

/// Several kernels of one system top, run together:
///
/// ```no_run
/// # fn f(model: &mut sim::Model, mem: &mut sim::GlobalMemory, src: u32, dst: u32) -> Result<(), sim::SimError> {
/// use sim::{SystemLaunch, NdRange, RunConfig, SystemRun};
/// let stats = SystemRun::new(model)
///     .launch(SystemLaunch::new("producer").arg("src", src.into()).range(NdRange::linear(64, 1)))
///     .launch(
///         SystemLaunch::new("consumer")
///             .arg("dst", dst.into())
///             .range(NdRange::linear(64, 1))
///             .after("producer"),
///     )
///     .pipe_ends("p", "producer", "consumer")
///     .config(RunConfig::default())
///     .run(mem)?;
/// println!("{stats}");
/// # Ok(()) }
/// ```
pub struct SystemRun<'m> {
    model: &'m mut Model,
    launches: Vec<SystemLaunch>,
    pipe_ends: Vec<(String, String, String)>,
    shared_counters: Vec<(String, u32)>,
    config: RunConfig,
}

impl<'m> SystemRun<'m> {
    pub fn new(model: &'m mut Model) -> SystemRun<'m> {
        SystemRun {
            model,
            launches: Vec::new(),
            pipe_ends: Vec::new(),
            shared_counters: Vec::new(),
            config: RunConfig::default(),
        }
    }

    /// Binds the top's memory port of shared atomic counter `name` (`counters__<name>_*`) to
    /// its buffer at `addr`; every such port of the top needs one.
    pub fn shared_counter(mut self, name: &str, addr: u32) -> Self {
        self.shared_counters.push((name.to_string(), addr));
        self
    }

    /// Adds a launch; each kernel at most once. Kernels of the top without a launch never
    /// start.
    pub fn launch(mut self, launch: SystemLaunch) -> Self {
        self.launches.push(launch);
        self
    }

    /// Names the kernel writing and the kernel reading `pipe`, for deadlock reports (the
    /// ports of a system top do not say). Optional.
    pub fn pipe_ends(mut self, pipe: &str, writer: &str, reader: &str) -> Self {
        self.pipe_ends
            .push((pipe.to_string(), writer.to_string(), reader.to_string()));
        self
    }

    /// Seed, reset, cycle budget, deadlock limit and memory behaviour;
    /// [`RunConfig::port_memory`] names are `<kernel>__<pointer>`.
    pub fn config(mut self, config: RunConfig) -> Self {
        self.config = config;
        self
    }

    /// Resets the model, starts each launch when its `after` kernels are done, serves memory
    /// until every launched kernel is done.
    pub fn run(self, mem: &mut GlobalMemory) -> Result<SystemStats, SimError> {
        let SystemRun {
            model,
            launches,
            pipe_ends,
            shared_counters,
            config,
        } = self;
        let ports = SystemPorts::discover(model)?;
        let names: Vec<&str> = ports.kernels.iter().map(|(n, _)| n.as_str()).collect();
        check_launches(&launches, &names)?;
        let pipe_ends = check_pipe_ends(&pipe_ends, &ports, &names)?;
        check_deadlock_limit(&config)?;

        let SystemPorts {
            rst,
            kernels,
            pipes,
            top,
        } = ports;
        let mut top = TopMemory::new(model, top, &shared_counters, &config)?;
        let (active, not_launched) = launch_drivers(model, kernels, &launches, &config)?;
        let pipes: Vec<PipeMonitor> = pipes
            .into_iter()
            .zip(pipe_ends)
            .map(|(ports, ends)| PipeMonitor::new(ports, ends))
            .collect();

        reset(model, rst, config.reset_cycles)?;
        for a in &active {
            a.kernel.set_inputs(model);
        }
        top.set_inputs(model);
        run_cycles(model, mem, &config, active, &not_launched, pipes, &mut top)
    }
}

/// A driver for each launch (in launch order), and the names of the kernels not launched.
/// Every entry of [`RunConfig::port_memory`] must name a pointer port of a launched kernel.
fn launch_drivers(
    model: &Model,
    kernels: Vec<(String, KernelPorts)>,
    launches: &[SystemLaunch],
    config: &RunConfig,
) -> Result<(Vec<LaunchedKernel>, Vec<String>), SimError> {
    let mut unlaunched: Vec<(String, Option<KernelPorts>)> =
        kernels.into_iter().map(|(n, p)| (n, Some(p))).collect();
    let mut used = vec![false; config.port_memory.len()];
    let mut active = Vec::new();
    for l in launches {
        let slot = unlaunched
            .iter_mut()
            .find(|(n, _)| *n == l.kernel)
            .expect("checked by check_launches");
        let ports = slot.1.take().expect("each kernel launched once");
        let kernel = KernelDriver::new(model, ports, &l.args, l.range, config, &mut used)?;
        let after = l
            .after
            .iter()
            .map(|a| launches.iter().position(|x| x.kernel == *a).unwrap())
            .collect();
        active.push(LaunchedKernel {
            name: l.kernel.clone(),
            kernel,
            after,
            state: LaunchState::Waiting,
        });
    }
    if let Some(k) = used.iter().position(|u| !u) {
        let all: Vec<String> = active
            .iter()
            .flat_map(|a| a.kernel.port_names())
            .map(|n| format!("`{n}`"))
            .collect();
        return Err(SimError::Argument(format!(
            "memory configuration for `{}`, which is not a pointer port of a launched \
             kernel (they are: {})",
            config.port_memory[k].0,
            if all.is_empty() {
                "none".to_string()
            } else {
                all.join(", ")
            }
        )));
    }
    let not_launched: Vec<String> = unlaunched
        .into_iter()
        .filter(|(_, p)| p.is_some())
        .map(|(n, _)| n)
        .collect();
    Ok((active, not_launched))
}

/// The cycle loop, from the first cycle after reset until every launched kernel is done, the
/// budget runs out or nothing progresses for [`RunConfig::deadlock_cycles`] cycles.
fn run_cycles(
    model: &mut Model,
    mem: &mut GlobalMemory,
    config: &RunConfig,
    mut active: Vec<LaunchedKernel>,
    not_launched: &[String],
    mut pipes: Vec<PipeMonitor>,
    top: &mut TopMemory,
) -> Result<SystemStats, SimError> {
    let mut rng = MemEnv::new(config)?;
    let mut scratch = Vec::new();
    let mut cycle: u64 = 0;
    let mut idle: u64 = 0;
    loop {
        // The testbench's side: start pulses and memory, from its own state only.
        let mut progress = false;
        for k in 0..active.len() {
            let start = matches!(active[k].state, LaunchState::Waiting)
                && active[k]
                    .after
                    .iter()
                    .all(|&j| matches!(active[j].state, LaunchState::Done { .. }));
            if start {
                active[k].state = LaunchState::Running { since: cycle };
                progress = true;
            }
            model.set(active[k].kernel.ports.start, u64::from(start));
        }
        for a in &mut active {
            a.kernel.drive(model, &mut rng, cycle);
        }
        top.drive(model, &mut rng, cycle);
        model.eval()?;

        for p in &mut pipes {
            progress |= p.sample(model, cycle)?;
        }
        for a in &mut active {
            progress |= a.check(model, cycle)?;
        }
        if active
            .iter()
            .all(|a| matches!(a.state, LaunchState::Done { .. }))
        {
            top.check_nothing_outstanding(cycle)?;
            return Ok(SystemStats {
                cycles: cycle,
                kernels: active.into_iter().map(LaunchedKernel::into_stats).collect(),
                pipes: pipes.into_iter().map(|p| p.stats).collect(),
            });
        }
        if cycle >= config.max_cycles {
            return Err(SimError::SystemTimeout {
                report: failure_report(model, cycle, idle, &active, not_launched, &pipes),
            });
        }
        for a in &mut active {
            progress |= a
                .kernel
                .transfer(model, mem, &mut rng, cycle, &mut scratch)?;
        }
        progress |= top.transfer(model, mem, &mut rng, cycle, &mut scratch)?;
        idle = if progress { 0 } else { idle + 1 };
        if idle >= config.deadlock_cycles {
            return Err(SimError::Deadlock {
                report: failure_report(model, cycle, idle, &active, not_launched, &pipes),
            });
        }
        model.tick()?;
        cycle += 1;
    }
}
