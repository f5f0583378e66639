//! Running a system top: several kernels and the FIFOs of their pipes in one model
//! (`docs/hardware-interface.md`, "System top").
//!
//! Each kernel `K` of the top has the ports of a kernel on its own with the prefix `K__`, and
//! is driven exactly like [`crate::KernelRun`] drives one kernel (the same `run::Kernel` code):
//! arguments and NDRange, a one-cycle `start` pulse, one memory server per pointer port, all
//! serving one shared [`Memory`]. A launch starts in cycle 0, or with `after`, in the cycle
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

use std::fmt;

use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::memory::Memory;
use crate::model::{Model, PortId};
use crate::run::{reset, Checker, Interface, Kernel, NdRange, RunConfig, RunStats};
use crate::{Dir, Outstanding, SimError};

/// The launch of one kernel of a system: arguments, NDRange, and the kernels it waits for.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    kernel: String,
    args: Vec<(String, Vec<u32>)>,
    range: NdRange,
    after: Vec<String>,
}

impl Launch {
    /// A launch of kernel `kernel` (the instance name: the kernel function's name) over
    /// `NdRange::linear(1, 1)` until [`Launch::range`] says otherwise.
    pub fn new(kernel: &str) -> Launch {
        Launch {
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

/// The kernels and pipes of a system top, in port order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemLayout {
    pub kernels: Vec<String>,
    pub pipes: Vec<String>,
}

impl SystemLayout {
    /// Finds the kernels (`K__start`) and pipes (`pipe__P__count`) of a system top and checks
    /// its ports against the contract, reporting every problem at once.
    pub fn discover(model: &Model) -> Result<SystemLayout, SimError> {
        let ports = SystemPorts::discover(model)?;
        Ok(SystemLayout {
            kernels: ports.kernels.iter().map(|(n, _)| n.clone()).collect(),
            pipes: ports.pipes.iter().map(|p| p.name.clone()).collect(),
        })
    }
}

/// Statistics of one kernel of a system run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelStats {
    pub name: String,
    /// The cycle in which its `start` was high.
    pub start_cycle: u64,
    /// The cycle in which its `done` was seen.
    pub done_cycle: u64,
    /// `cycles` is `done_cycle - start_cycle`; ports are named without the kernel prefix.
    pub run: RunStats,
}

/// Statistics of one pipe over the cycles of a system run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PipeStats {
    pub name: String,
    /// `pipe__P__max`: the depth.
    pub depth: u64,
    /// The largest `pipe__P__count` seen.
    pub max_count: u64,
    /// `pipe__P__count` in the last cycle (packets left in the pipe).
    pub final_count: u64,
    /// Cycles with `pipe__P__wr_wait` high: the write side was refused.
    pub wr_wait_cycles: u64,
    /// Cycles with `pipe__P__rd_wait` high.
    pub rd_wait_cycles: u64,
    /// Cycles with `pipe__P__active` high: some operation took effect.
    pub active_cycles: u64,
}

/// What a system run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemStats {
    /// The cycle in which the last kernel's `done` was seen (cycle 0 follows reset).
    pub cycles: u64,
    /// Per launch, in launch order.
    pub kernels: Vec<KernelStats>,
    /// Per pipe, in port order.
    pub pipes: Vec<PipeStats>,
}

impl SystemStats {
    pub fn kernel(&self, name: &str) -> Option<&KernelStats> {
        self.kernels.iter().find(|k| k.name == name)
    }

    pub fn pipe(&self, name: &str) -> Option<&PipeStats> {
        self.pipes.iter().find(|p| p.name == name)
    }
}

impl fmt::Display for SystemStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} cycles", self.cycles)?;
        writeln!(
            f,
            "{:<24} {:>10} {:>10} {:>10}",
            "kernel", "start", "done", "cycles"
        )?;
        for k in &self.kernels {
            writeln!(
                f,
                "{:<24} {:>10} {:>10} {:>10}",
                k.name, k.start_cycle, k.done_cycle, k.run.cycles
            )?;
        }
        writeln!(
            f,
            "{:<24} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7}",
            "port", "reads", "writes", "rd stalls", "wr stalls", "max rd", "max wr"
        )?;
        for k in &self.kernels {
            for p in &k.run.ports {
                writeln!(
                    f,
                    "{:<24} {:>10} {:>10} {:>10} {:>10} {:>7} {:>7}",
                    format!("{}__{}", k.name, p.name),
                    p.reads,
                    p.writes,
                    p.read_stall_cycles,
                    p.write_stall_cycles,
                    p.max_outstanding_reads,
                    p.max_outstanding_writes
                )?;
            }
        }
        if !self.pipes.is_empty() {
            writeln!(
                f,
                "{:<24} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
                "pipe", "depth", "max count", "final", "wr wait", "rd wait", "active"
            )?;
        }
        for p in &self.pipes {
            writeln!(
                f,
                "{:<24} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
                p.name,
                p.depth,
                p.max_count,
                p.final_count,
                p.wr_wait_cycles,
                p.rd_wait_cycles,
                p.active_cycles
            )?;
        }
        Ok(())
    }
}

/// Where a kernel stands when a run fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelState {
    /// In the top, but the run does not launch it (it never starts).
    NotLaunched,
    /// Launched, not started: these kernels of its `after` list are not done yet.
    Waiting { for_kernels: Vec<String> },
    /// Started in cycle `since`, not done; `busy` as in the last cycle.
    Running { since: u64, busy: bool },
    /// `done` was seen in cycle `at`.
    Done { at: u64 },
}

/// One kernel in a [`SystemReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelReport {
    pub name: String,
    pub state: KernelState,
    /// Its memory ports (names with the kernel prefix); empty for a kernel not launched.
    pub outstanding: Vec<Outstanding>,
}

/// One pipe in a [`SystemReport`], as in the last cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipeReport {
    pub name: String,
    pub count: u64,
    pub max: u64,
    /// The write side's operation was refused in the last cycle.
    pub wr_wait: bool,
    pub rd_wait: bool,
    /// The kernels at its ends, when [`SystemRun::pipe_ends`] named them.
    pub writer: Option<String>,
    pub reader: Option<String>,
}

/// The state of a system when a run failed: for [`SimError::Deadlock`] and
/// [`SimError::SystemTimeout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemReport {
    /// The cycle of the failure.
    pub cycle: u64,
    /// Consecutive cycles without progress, up to and including `cycle`.
    pub idle_cycles: u64,
    /// The launched kernels in launch order, then the others.
    pub kernels: Vec<KernelReport>,
    pub pipes: Vec<PipeReport>,
}

impl fmt::Display for SystemReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "kernels:")?;
        for k in &self.kernels {
            write!(f, "  `{}`: ", k.name)?;
            match &k.state {
                KernelState::NotLaunched => write!(f, "not launched")?,
                KernelState::Waiting { for_kernels } => {
                    let names: Vec<String> = for_kernels.iter().map(|n| format!("`{n}`")).collect();
                    write!(f, "not started, waiting for {} to finish", names.join(", "))?
                }
                KernelState::Running { since, busy } => {
                    write!(f, "running since cycle {since}")?;
                    if !busy {
                        write!(f, " (busy low)")?;
                    }
                    for p in &self.pipes {
                        if p.wr_wait && p.writer.as_deref() == Some(k.name.as_str()) {
                            write!(f, "; waiting to write pipe `{}` ({})", p.name, p.fill())?;
                        }
                        if p.rd_wait && p.reader.as_deref() == Some(k.name.as_str()) {
                            write!(f, "; waiting to read pipe `{}` ({})", p.name, p.fill())?;
                        }
                    }
                }
                KernelState::Done { at } => write!(f, "done in cycle {at}")?,
            }
            let busy_ports: Vec<String> = k
                .outstanding
                .iter()
                .filter(|o| {
                    o.reads + o.writes > 0 || o.read_request_waiting || o.write_request_waiting
                })
                .map(describe_port)
                .collect();
            if !busy_ports.is_empty() {
                write!(f, "; memory: {}", busy_ports.join("; "))?;
            }
            writeln!(f)?;
        }
        if !self.pipes.is_empty() {
            writeln!(f, "pipes:")?;
        }
        for p in &self.pipes {
            let side = |kernel: &Option<String>, role: &str, waiting: bool| {
                let who = match kernel {
                    Some(k) => format!("{role} `{k}`"),
                    None => format!("the {role}"),
                };
                if waiting {
                    format!("{who} waiting (its operation was refused in the last cycle)")
                } else {
                    format!("{who} not waiting")
                }
            };
            writeln!(
                f,
                "  `{}`: {}; {}; {}",
                p.name,
                p.fill(),
                side(&p.writer, "writer", p.wr_wait),
                side(&p.reader, "reader", p.rd_wait)
            )?;
        }
        Ok(())
    }
}

impl PipeReport {
    fn fill(&self) -> String {
        let what = if self.count >= self.max {
            "full, "
        } else if self.count == 0 {
            "empty, "
        } else {
            ""
        };
        format!("{what}{} of {} packets", self.count, self.max)
    }
}

fn describe_port(o: &Outstanding) -> String {
    let mut s = format!("`{}` owes {} reads, {} writes", o.port, o.reads, o.writes);
    if o.read_request_waiting {
        s.push_str(", a read request waiting for ready");
    }
    if o.write_request_waiting {
        s.push_str(", a write request waiting for ready");
    }
    s
}

/// Several kernels of one system top, run together:
///
/// ```no_run
/// # fn f(model: &mut sim::Model, mem: &mut sim::Memory, src: u32, dst: u32) -> Result<(), sim::SimError> {
/// use sim::{Launch, NdRange, RunConfig, SystemRun};
/// let stats = SystemRun::new(model)
///     .launch(Launch::new("producer").arg("src", src.into()).range(NdRange::linear(64, 1)))
///     .launch(
///         Launch::new("consumer")
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
    launches: Vec<Launch>,
    pipe_ends: Vec<(String, String, String)>,
    config: RunConfig,
}

impl<'m> SystemRun<'m> {
    pub fn new(model: &'m mut Model) -> SystemRun<'m> {
        SystemRun {
            model,
            launches: Vec::new(),
            pipe_ends: Vec::new(),
            config: RunConfig::default(),
        }
    }

    /// Adds a launch; each kernel at most once. Kernels of the top without a launch never
    /// start.
    pub fn launch(mut self, launch: Launch) -> Self {
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
    pub fn run(self, mem: &mut Memory) -> Result<SystemStats, SimError> {
        let SystemRun {
            model,
            launches,
            pipe_ends,
            config,
        } = self;
        let ports = SystemPorts::discover(model)?;
        let names: Vec<&str> = ports.kernels.iter().map(|(n, _)| n.as_str()).collect();
        check_launches(&launches, &names)?;
        let pipe_ends = check_pipe_ends(&pipe_ends, &ports, &names)?;
        check_deadlock_limit(&config)?;

        let SystemPorts {
            rst,
            kernels: interfaces,
            pipes,
        } = ports;
        let mut interfaces: Vec<(String, Option<Interface>)> =
            interfaces.into_iter().map(|(n, i)| (n, Some(i))).collect();
        let mut used = vec![false; config.port_memory.len()];
        let mut active = Vec::new();
        for l in &launches {
            let slot = interfaces
                .iter_mut()
                .find(|(n, _)| *n == l.kernel)
                .expect("checked by check_launches");
            let iface = slot.1.take().expect("each kernel launched once");
            let kernel = Kernel::new(model, iface, &l.args, l.range, &config, &mut used)?;
            let after = l
                .after
                .iter()
                .map(|a| launches.iter().position(|x| x.kernel == *a).unwrap())
                .collect();
            active.push(Active {
                name: l.kernel.clone(),
                kernel,
                after,
                state: State::Waiting,
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
        let not_launched: Vec<String> = interfaces
            .into_iter()
            .filter(|(_, i)| i.is_some())
            .map(|(n, _)| n)
            .collect();
        let mut pipes: Vec<PipeRun> = pipes
            .into_iter()
            .zip(pipe_ends)
            .map(|(ports, ends)| PipeRun {
                stats: PipeStats {
                    name: ports.name.clone(),
                    ..PipeStats::default()
                },
                ports,
                ends,
                wr_wait: false,
                rd_wait: false,
            })
            .collect();

        reset(model, rst, config.reset_cycles)?;
        for a in &active {
            a.kernel.set_inputs(model);
        }
        let mut rng = StdRng::seed_from_u64(config.seed);
        let mut scratch = Vec::new();
        let mut cycle: u64 = 0;
        let mut idle: u64 = 0;
        loop {
            // The testbench's side: start pulses and memory, from its own state only.
            let mut progress = false;
            for k in 0..active.len() {
                let start = matches!(active[k].state, State::Waiting)
                    && active[k]
                        .after
                        .iter()
                        .all(|&j| matches!(active[j].state, State::Done { .. }));
                if start {
                    active[k].state = State::Running { since: cycle };
                    progress = true;
                }
                model.set(active[k].kernel.iface.start, u64::from(start));
            }
            for a in &mut active {
                a.kernel.drive(model, &mut rng, cycle);
            }
            model.eval()?;

            for p in &mut pipes {
                progress |= p.sample(model, cycle)?;
            }
            for a in &mut active {
                progress |= a.check(model, cycle)?;
            }
            if active.iter().all(|a| matches!(a.state, State::Done { .. })) {
                return Ok(SystemStats {
                    cycles: cycle,
                    kernels: active.into_iter().map(Active::into_stats).collect(),
                    pipes: pipes.into_iter().map(|p| p.stats).collect(),
                });
            }
            if cycle >= config.max_cycles {
                return Err(SimError::SystemTimeout {
                    report: report(model, cycle, idle, &active, &not_launched, &pipes),
                });
            }
            for a in &mut active {
                progress |= a
                    .kernel
                    .transfer(model, mem, &mut rng, cycle, &mut scratch)?;
            }
            idle = if progress { 0 } else { idle + 1 };
            if idle >= config.deadlock_cycles {
                return Err(SimError::Deadlock {
                    report: report(model, cycle, idle, &active, &not_launched, &pipes),
                });
            }
            model.tick()?;
            cycle += 1;
        }
    }
}

/// The state of every kernel and pipe, for a failed run.
fn report(
    model: &Model,
    cycle: u64,
    idle_cycles: u64,
    active: &[Active],
    not_launched: &[String],
    pipes: &[PipeRun],
) -> Box<SystemReport> {
    Box::new(SystemReport {
        cycle,
        idle_cycles,
        kernels: active
            .iter()
            .map(|a| a.report(model, active))
            .chain(not_launched.iter().map(|n| KernelReport {
                name: n.clone(),
                state: KernelState::NotLaunched,
                outstanding: Vec::new(),
            }))
            .collect(),
        pipes: pipes.iter().map(PipeRun::report).collect(),
    })
}

/// Launch checks: known kernels, each launched once, `after` names launched kernels and
/// forms no cycle.
fn check_launches(launches: &[Launch], kernels: &[&str]) -> Result<(), SimError> {
    let err = |m: String| Err(SimError::Argument(m));
    if launches.is_empty() {
        return err(format!(
            "nothing to run: no kernel is launched (the system's kernels are: {})",
            kernels.join(", ")
        ));
    }
    for (k, l) in launches.iter().enumerate() {
        if !kernels.contains(&l.kernel.as_str()) {
            return err(format!(
                "the system has no kernel `{}`; its kernels are: {}",
                l.kernel,
                kernels.join(", ")
            ));
        }
        if launches[..k].iter().any(|x| x.kernel == l.kernel) {
            return err(format!("kernel `{}` is launched twice", l.kernel));
        }
    }
    for l in launches {
        for a in &l.after {
            if !launches.iter().any(|x| x.kernel == *a) {
                return err(format!(
                    "kernel `{}` waits for `{a}`, which is not launched",
                    l.kernel
                ));
            }
        }
    }
    // Kahn's algorithm: what remains is on or behind a cycle.
    let mut placed = vec![false; launches.len()];
    for _ in 0..launches.len() {
        let next = (0..launches.len()).find(|&k| {
            !placed[k]
                && launches[k].after.iter().all(|a| {
                    let j = launches.iter().position(|x| x.kernel == *a).unwrap();
                    placed[j]
                })
        });
        match next {
            Some(k) => placed[k] = true,
            None => {
                let rest: Vec<String> = (0..launches.len())
                    .filter(|&k| !placed[k])
                    .map(|k| format!("`{}`", launches[k].kernel))
                    .collect();
                return err(format!(
                    "the `after` dependencies form a cycle; none of these can start first: {}",
                    rest.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// The (writer, reader) kernels of a pipe, where known.
type PipeEnds = (Option<String>, Option<String>);

/// Resolves [`SystemRun::pipe_ends`] to (writer, reader) per pipe of the top, in pipe order.
fn check_pipe_ends(
    ends: &[(String, String, String)],
    ports: &SystemPorts,
    kernels: &[&str],
) -> Result<Vec<PipeEnds>, SimError> {
    let pipe_names: Vec<&str> = ports.pipes.iter().map(|p| p.name.as_str()).collect();
    for (k, (pipe, writer, reader)) in ends.iter().enumerate() {
        if !pipe_names.contains(&pipe.as_str()) {
            return Err(SimError::Argument(format!(
                "pipe_ends for `{pipe}`, which is not a pipe of the system (its pipes are: {})",
                if pipe_names.is_empty() {
                    "none".to_string()
                } else {
                    pipe_names.join(", ")
                }
            )));
        }
        if ends[..k].iter().any(|e| e.0 == *pipe) {
            return Err(SimError::Argument(format!(
                "pipe_ends for `{pipe}` is given twice"
            )));
        }
        for kernel in [writer, reader] {
            if !kernels.contains(&kernel.as_str()) {
                return Err(SimError::Argument(format!(
                    "pipe_ends for `{pipe}` names `{kernel}`, which is not a kernel of the \
                     system (its kernels are: {})",
                    kernels.join(", ")
                )));
            }
        }
    }
    Ok(pipe_names
        .iter()
        .map(|p| {
            ends.iter()
                .find(|e| e.0 == *p)
                .map_or((None, None), |e| (Some(e.1.clone()), Some(e.2.clone())))
        })
        .collect())
}

/// The deadlock limit must be at least 1 and longer than any memory latency, or a slow
/// response would look like a deadlock.
fn check_deadlock_limit(config: &RunConfig) -> Result<(), SimError> {
    let longest = std::iter::once(&config.memory)
        .chain(config.port_memory.iter().map(|(_, c)| c))
        .map(|c| (*c.read_latency.end()).max(*c.write_latency.end()))
        .max()
        .unwrap_or(0);
    if config.deadlock_cycles == 0 || config.deadlock_cycles <= u64::from(longest) {
        return Err(SimError::Argument(format!(
            "deadlock_cycles ({}) must exceed the longest memory latency ({longest} cycles), \
             or a response still on its way would count as a deadlock",
            config.deadlock_cycles
        )));
    }
    Ok(())
}

/// The ports of one pipe of a system top.
struct PipePorts {
    name: String,
    count: PortId,
    max: PortId,
    wr_wait: PortId,
    rd_wait: PortId,
    active: PortId,
}

/// The checked ports of a system top.
struct SystemPorts {
    rst: PortId,
    /// (kernel name, its interface), in port order.
    kernels: Vec<(String, Interface)>,
    pipes: Vec<PipePorts>,
}

const PIPE_PORTS: [&str; 5] = ["count", "max", "wr_wait", "rd_wait", "active"];

impl SystemPorts {
    fn discover(model: &Model) -> Result<SystemPorts, SimError> {
        let mut c = Checker::new(model);
        c.want("clk", Dir::In, Some(1));
        let rst = c.want("rst", Dir::In, Some(1));
        let mut kernel_names: Vec<String> = Vec::new();
        let mut pipe_names: Vec<String> = Vec::new();
        for p in model.ports() {
            match p.name.split("__").collect::<Vec<_>>()[..] {
                [k, "start"] if !k.is_empty() => kernel_names.push(k.to_string()),
                ["pipe", q, "count"] if !q.is_empty() => pipe_names.push(q.to_string()),
                _ => {}
            }
        }
        if kernel_names.is_empty() {
            c.problems.push(
                "no kernel: a system top has an input `<kernel>__start` for each kernel (a \
                 kernel module on its own is run with KernelRun)"
                    .to_string(),
            );
        }
        let kernels: Vec<(String, Option<Interface>)> = kernel_names
            .iter()
            .map(|k| (k.clone(), Interface::discover(&mut c, k)))
            .collect();
        let mut pipes = Vec::new();
        for q in &pipe_names {
            let port = |s: &str| format!("pipe__{q}__{s}");
            let count = c.want(&port("count"), Dir::Out, None);
            let max = c.want(&port("max"), Dir::Out, None);
            let wr_wait = c.want(&port("wr_wait"), Dir::Out, Some(1));
            let rd_wait = c.want(&port("rd_wait"), Dir::Out, Some(1));
            let active = c.want(&port("active"), Dir::Out, Some(1));
            if let (Some(count), Some(max)) = (count, max) {
                let (cw, mw) = (model.spec(count).width, model.spec(max).width);
                if cw != mw {
                    c.problems.push(format!(
                        "`{}` ({cw} bits) and `{}` ({mw} bits) differ in width",
                        port("count"),
                        port("max")
                    ));
                } else if cw > 64 {
                    c.problems.push(format!(
                        "`{}` has {cw} bits; a pipe count has at most 64",
                        port("count")
                    ));
                }
            }
            if let (Some(count), Some(max), Some(wr_wait), Some(rd_wait), Some(active)) =
                (count, max, wr_wait, rd_wait, active)
            {
                pipes.push(PipePorts {
                    name: q.clone(),
                    count,
                    max,
                    wr_wait,
                    rd_wait,
                    active,
                });
            }
        }
        // Outputs that look like pipe ports but belong to no pipe, or are no pipe port.
        for (k, p) in model.ports().iter().enumerate() {
            if p.dir != Dir::Out || c.claimed(PortId(k as u32)) {
                continue;
            }
            if let ["pipe", q, what] = p.name.split("__").collect::<Vec<_>>()[..] {
                let problem = if !pipe_names.iter().any(|n| n == q) {
                    format!(
                        "output `{}` belongs to no pipe (there is no `pipe__{q}__count`)",
                        p.name
                    )
                } else {
                    format!(
                        "output `{}` is not a pipe port (`{what}` is none of {})",
                        p.name,
                        PIPE_PORTS.join(", ")
                    )
                };
                c.problems.push(problem);
            }
        }
        let arg_prefixes: Vec<String> = kernel_names.iter().map(|k| format!("{k}__arg_")).collect();
        c.finish(|input| arg_prefixes.iter().any(|a| input.starts_with(a.as_str())))?;
        Ok(SystemPorts {
            rst: rst.expect("no problems, so present"),
            kernels: kernels
                .into_iter()
                .map(|(n, i)| (n, i.expect("no problems, so present")))
                .collect(),
            pipes,
        })
    }
}

enum State {
    Waiting,
    Running { since: u64 },
    Done { since: u64, at: u64 },
}

/// A launched kernel during the run.
struct Active {
    name: String,
    kernel: Kernel,
    /// Indices of the launches it waits for.
    after: Vec<usize>,
    state: State,
}

impl Active {
    /// Protocol checks after `eval`; records `done`. Whether the kernel finished now.
    fn check(&mut self, model: &Model, cycle: u64) -> Result<bool, SimError> {
        let busy = model.get(self.kernel.iface.busy) != 0;
        let done = model.get(self.kernel.iface.done) != 0;
        let fault = |message: String| Err(SimError::Protocol { cycle, message });
        let who = self.kernel.iface.kernel();
        match self.state {
            State::Waiting => {
                if busy || done {
                    return fault(format!(
                        "{who} raised {} before it was started",
                        if busy { "`busy`" } else { "`done`" }
                    ));
                }
                if let Some(port) = self.kernel.requesting(model) {
                    return fault(format!(
                        "{who} requests memory on `{port}` before it was started"
                    ));
                }
            }
            State::Running { since } => {
                if cycle == since {
                    self.kernel.check_idle_at_start(busy, done, cycle)?;
                } else if done {
                    self.kernel.check_nothing_outstanding(cycle)?;
                    self.state = State::Done { since, at: cycle };
                    return Ok(true);
                } else if !busy {
                    return fault(format!(
                        "`busy` of {who} is low between its start and `done`"
                    ));
                }
            }
            State::Done { at, .. } => {
                if done || busy {
                    return fault(format!(
                        "{who} raised {} after its `done` in cycle {at} without a new start",
                        if done { "`done`" } else { "`busy`" }
                    ));
                }
                if let Some(port) = self.kernel.requesting(model) {
                    return fault(format!(
                        "{who} requests memory on `{port}` after its `done` in cycle {at}"
                    ));
                }
            }
        }
        Ok(false)
    }

    fn report(&self, model: &Model, all: &[Active]) -> KernelReport {
        let state = match self.state {
            State::Waiting => KernelState::Waiting {
                for_kernels: self
                    .after
                    .iter()
                    .filter(|&&j| !matches!(all[j].state, State::Done { .. }))
                    .map(|&j| all[j].name.clone())
                    .collect(),
            },
            State::Running { since } => KernelState::Running {
                since,
                busy: model.get(self.kernel.iface.busy) != 0,
            },
            State::Done { at, .. } => KernelState::Done { at },
        };
        KernelReport {
            name: self.name.clone(),
            state,
            outstanding: self.kernel.outstanding(model),
        }
    }

    fn into_stats(self) -> KernelStats {
        let State::Done { since, at } = self.state else {
            unreachable!("stats only of finished runs")
        };
        KernelStats {
            name: self.name,
            start_cycle: since,
            done_cycle: at,
            run: self.kernel.into_stats(at - since),
        }
    }
}

/// A pipe during the run.
struct PipeRun {
    ports: PipePorts,
    ends: PipeEnds,
    stats: PipeStats,
    wr_wait: bool,
    rd_wait: bool,
}

impl PipeRun {
    /// Reads the pipe's outputs after `eval`; whether an operation takes effect this cycle.
    fn sample(&mut self, model: &Model, cycle: u64) -> Result<bool, SimError> {
        let p = &self.ports;
        let count = model.get(p.count);
        let max = model.get(p.max);
        if count > max {
            return Err(SimError::Protocol {
                cycle,
                message: format!(
                    "pipe `{}` holds {count} packets, more than its depth {max}",
                    p.name
                ),
            });
        }
        self.wr_wait = model.get(p.wr_wait) != 0;
        self.rd_wait = model.get(p.rd_wait) != 0;
        let active = model.get(p.active) != 0;
        let s = &mut self.stats;
        s.depth = max;
        s.max_count = s.max_count.max(count);
        s.final_count = count;
        s.wr_wait_cycles += u64::from(self.wr_wait);
        s.rd_wait_cycles += u64::from(self.rd_wait);
        s.active_cycles += u64::from(active);
        Ok(active)
    }

    fn report(&self) -> PipeReport {
        PipeReport {
            name: self.stats.name.clone(),
            count: self.stats.final_count,
            max: self.stats.depth,
            wr_wait: self.wr_wait,
            rd_wait: self.rd_wait,
            writer: self.ends.0.clone(),
            reader: self.ends.1.clone(),
        }
    }
}
