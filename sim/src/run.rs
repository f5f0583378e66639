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

use std::collections::VecDeque;
use std::fmt;
use std::ops::RangeInclusive;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::memory::Memory;
use crate::model::{Model, PortId};
use crate::{Dir, Outstanding, SimError};

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
    /// Requests accepted but not yet answered, per channel; `ready` stays low at the bound.
    pub max_outstanding: usize,
}

impl MemConfig {
    /// One-cycle latency, never any back-pressure.
    pub fn ideal() -> MemConfig {
        MemConfig {
            read_latency: 1..=1,
            write_latency: 1..=1,
            stall_probability: 0.0,
            max_outstanding: 64,
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
        }
    }

    fn validate(&self, port: &str) -> Result<(), SimError> {
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
    /// kernels that compute that long without touching memory or a pipe. [`KernelRun`] ignores
    /// it (a lone kernel runs into `max_cycles`).
    pub deadlock_cycles: u64,
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

/// Statistics of one pointer port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortStats {
    pub name: String,
    /// Element size `W / 8`.
    pub element_bytes: u32,
    pub reads: u64,
    pub writes: u64,
    /// Cycles where the kernel had a read request valid but `rreq_ready` was low.
    pub read_stall_cycles: u64,
    pub write_stall_cycles: u64,
    /// Cycles where a response was valid but the kernel's `*_resp_ready` was low.
    pub read_response_blocked_cycles: u64,
    pub write_response_blocked_cycles: u64,
    pub max_outstanding_reads: usize,
    pub max_outstanding_writes: usize,
}

/// What a run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Cycles from the start cycle to the cycle in which `done` was high.
    pub cycles: u64,
    /// Per pointer port, in port order.
    pub ports: Vec<PortStats>,
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
        Ok(())
    }
}

/// One launch of a kernel on a model instance:
///
/// ```no_run
/// # fn f(model: &mut sim::Model, mem: &mut sim::Memory, a: u32, b: u32) -> Result<(), sim::SimError> {
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
    pub fn run(self, mem: &mut Memory) -> Result<RunStats, SimError> {
        let KernelRun {
            model,
            args,
            range,
            config,
        } = self;
        let mut c = Checker::new(model);
        c.want("clk", Dir::In, Some(1));
        let rst = c.want("rst", Dir::In, Some(1));
        let iface = Interface::discover(&mut c, "");
        c.finish(|input| input.starts_with("arg_"))?;
        let (Some(rst), Some(iface)) = (rst, iface) else {
            unreachable!("no problems, so every port is present")
        };
        let mut used = vec![false; config.port_memory.len()];
        let mut kernel = Kernel::new(model, iface, &args, range, &config, &mut used)?;
        if let Some(k) = used.iter().position(|u| !u) {
            return Err(SimError::Argument(format!(
                "memory configuration for `{}`, which is not a pointer argument",
                config.port_memory[k].0
            )));
        }
        reset(model, rst, config.reset_cycles)?;
        kernel.set_inputs(model);

        let mut rng = StdRng::seed_from_u64(config.seed);
        let mut scratch = Vec::new();
        let mut cycle: u64 = 0;
        loop {
            model.set(kernel.iface.start, u64::from(cycle == 0));
            kernel.drive(model, &mut rng, cycle);
            model.eval()?;

            let done = model.get(kernel.iface.done) != 0;
            let busy = model.get(kernel.iface.busy) != 0;
            if cycle == 0 {
                kernel.check_idle_at_start(busy, done, cycle)?;
            }
            if done {
                kernel.check_nothing_outstanding(cycle)?;
                return Ok(kernel.into_stats(cycle));
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
            kernel.transfer(model, mem, &mut rng, cycle, &mut scratch)?;
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

/// One launched kernel: its interface, argument values, NDRange and memory servers. The
/// cycle discipline (drive, eval, check, transfer, tick) belongs to the caller, so one model
/// can hold one kernel ([`KernelRun`]) or several ([`crate::SystemRun`]).
pub(crate) struct Kernel {
    pub(crate) iface: Interface,
    args: Vec<(PortId, Vec<u32>)>,
    range: NdRange,
    ports: Vec<MemPort>,
}

impl Kernel {
    /// Checks the arguments and the NDRange and sets up one memory server per pointer port.
    /// Marks the entries of `config.port_memory` it uses in `used`.
    pub(crate) fn new(
        model: &Model,
        iface: Interface,
        args: &[(String, Vec<u32>)],
        range: NdRange,
        config: &RunConfig,
        used: &mut [bool],
    ) -> Result<Kernel, SimError> {
        let ports = iface.memory_ports(model, config, used)?;
        let args = iface.check_args(model, args)?;
        if range.local_size.contains(&0) {
            return Err(SimError::Argument(format!(
                "{}local size {:?} has a zero dimension",
                iface.of_kernel(),
                range.local_size
            )));
        }
        Ok(Kernel {
            iface,
            args,
            range,
            ports,
        })
    }

    /// Drives the argument and NDRange inputs (they stay until the end of the run).
    pub(crate) fn set_inputs(&self, model: &mut Model) {
        let (iface, range) = (&self.iface, &self.range);
        for (port, words) in &self.args {
            model.set_wide(*port, words);
        }
        for d in 0..3 {
            model.set(iface.global_size[d], u64::from(range.global_size[d]));
            if let Some(p) = iface.local_size[d] {
                model.set(p, u64::from(range.local_size[d]));
            }
            if let Some(p) = iface.global_offset[d] {
                model.set(p, u64::from(range.global_offset[d]));
            }
        }
        if let Some(p) = iface.work_dim {
            model.set(p, u64::from(range.work_dim));
        }
    }

    /// Memory's side of every handshake of this cycle (before `eval`).
    pub(crate) fn drive(&mut self, model: &mut Model, rng: &mut StdRng, cycle: u64) {
        for p in &mut self.ports {
            p.drive(model, rng, cycle);
        }
    }

    /// The transfers of the coming edge (after `eval`); whether any request or response moved.
    pub(crate) fn transfer(
        &mut self,
        model: &Model,
        mem: &mut Memory,
        rng: &mut StdRng,
        cycle: u64,
        scratch: &mut Vec<u32>,
    ) -> Result<bool, SimError> {
        let mut moved = false;
        for p in &mut self.ports {
            moved |= p.transfer(model, mem, rng, cycle, scratch)?;
        }
        Ok(moved)
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
                self.iface.kernel(),
                u8::from(busy),
                u8::from(done)
            ),
        })
    }

    /// At `done` every request must have been answered.
    pub(crate) fn check_nothing_outstanding(&self, cycle: u64) -> Result<(), SimError> {
        match self
            .ports
            .iter()
            .find(|p| !p.reads.is_empty() || !p.writes.is_empty())
        {
            None => Ok(()),
            Some(p) => Err(SimError::Protocol {
                cycle,
                message: format!(
                    "`done` while port `{}` still has {} read responses and {} write \
                     acknowledgements outstanding",
                    p.name,
                    p.reads.len(),
                    p.writes.len()
                ),
            }),
        }
    }

    /// The first port on which the kernel holds a request valid in this cycle (after `eval`).
    pub(crate) fn requesting(&self, model: &Model) -> Option<&str> {
        self.ports
            .iter()
            .find(|p| {
                let o = p.outstanding(model);
                o.read_request_waiting || o.write_request_waiting
            })
            .map(|p| p.name.as_str())
    }

    /// The names of its pointer ports, with the kernel prefix.
    pub(crate) fn port_names(&self) -> impl Iterator<Item = &str> {
        self.ports.iter().map(|p| p.name.as_str())
    }

    pub(crate) fn outstanding(&self, model: &Model) -> Vec<Outstanding> {
        self.ports.iter().map(|p| p.outstanding(model)).collect()
    }

    /// Statistics of a run that took `cycles` cycles from its start.
    pub(crate) fn into_stats(self, cycles: u64) -> RunStats {
        RunStats {
            cycles,
            ports: self.ports.into_iter().map(|p| p.stats).collect(),
        }
    }
}

/// The ports of one kernel, all named `<prefix><contract name>`: the prefix is empty for a
/// kernel module on its own and `K__` for kernel `K` in a system top.
pub(crate) struct Interface {
    /// The kernel's name in messages (empty for a kernel on its own).
    name: String,
    prefix: String,
    pub(crate) start: PortId,
    pub(crate) busy: PortId,
    pub(crate) done: PortId,
    global_size: [PortId; 3],
    /// Present only when the kernel observes the work-group structure of that dimension.
    local_size: [Option<PortId>; 3],
    /// Present only when the kernel uses the offset of that dimension (`get_global_id` or
    /// `get_global_offset`).
    global_offset: [Option<PortId>; 3],
    /// `work_dim`, present only when the kernel calls `get_work_dim`.
    work_dim: Option<PortId>,
    /// Pointer arguments: (name, has read channels, has write channels).
    pointers: Vec<(String, bool, bool)>,
}

impl Interface {
    /// Claims and checks the ports of the kernel `name` (empty: a kernel on its own, ports
    /// without prefix; otherwise ports `name__*`), adding every problem to `c`. `None` when
    /// there were problems.
    pub(crate) fn discover(c: &mut Checker, name: &str) -> Option<Interface> {
        let prefix = if name.is_empty() {
            String::new()
        } else {
            format!("{name}__")
        };
        let model = c.model;
        let problems_before = c.problems.len();
        let port = |base: &str| format!("{prefix}{base}");
        let start = c.want(&port("start"), Dir::In, Some(1));
        let busy = c.want(&port("busy"), Dir::Out, Some(1));
        let done = c.want(&port("done"), Dir::Out, Some(1));
        let global_size =
            [0, 1, 2].map(|d| c.want(&port(&format!("global_size_{d}")), Dir::In, Some(32)));
        let local_size = [0, 1, 2]
            .map(|d| c.want_optional(&port(&format!("local_size_{d}")), Dir::In, Some(32)));
        let global_offset = [0, 1, 2]
            .map(|d| c.want_optional(&port(&format!("global_offset_{d}")), Dir::In, Some(32)));
        let work_dim = c.want_optional(&port("work_dim"), Dir::In, Some(32));

        let mut pointers: Vec<(String, bool, bool)> = Vec::new();
        for p in model.ports() {
            let Some(rest) = p.name.strip_prefix(&prefix) else {
                continue;
            };
            for (suffix, read) in [("_rreq_valid", true), ("_wreq_valid", false)] {
                if let Some(name) = rest.strip_suffix(suffix) {
                    if p.dir != Dir::Out || name.is_empty() {
                        continue;
                    }
                    match pointers.iter_mut().find(|(n, _, _)| n == name) {
                        Some(e) if read => e.1 = true,
                        Some(e) => e.2 = true,
                        None => pointers.push((name.to_string(), read, !read)),
                    }
                }
            }
        }
        for (name, read, write) in &pointers {
            let ch = |channel: &str| format!("{prefix}{name}_{channel}");
            c.want(&port(&format!("arg_{name}")), Dir::In, Some(32));
            let mut widths = Vec::new();
            if *read {
                c.want(&ch("rreq_valid"), Dir::Out, Some(1));
                c.want(&ch("rreq_ready"), Dir::In, Some(1));
                c.want(&ch("rreq_addr"), Dir::Out, Some(32));
                c.want(&ch("rresp_valid"), Dir::In, Some(1));
                c.want(&ch("rresp_ready"), Dir::Out, Some(1));
                let id = c.want(&ch("rresp_data"), Dir::In, None);
                widths.extend(id.map(|id| model.spec(id).width));
            }
            if *write {
                c.want(&ch("wreq_valid"), Dir::Out, Some(1));
                c.want(&ch("wreq_ready"), Dir::In, Some(1));
                c.want(&ch("wreq_addr"), Dir::Out, Some(32));
                c.want(&ch("wresp_valid"), Dir::In, Some(1));
                c.want(&ch("wresp_ready"), Dir::Out, Some(1));
                let id = c.want(&ch("wreq_data"), Dir::Out, None);
                widths.extend(id.map(|id| model.spec(id).width));
                if let Some(w) = id.map(|id| model.spec(id).width) {
                    c.want_optional(&format!("{name}_wreq_strb"), Dir::Out, Some(w / 8));
                }
            }
            if let Some(&w) = widths.first() {
                if widths.iter().any(|&x| x != w) {
                    c.problems.push(format!(
                        "`{}` and `{}` differ in width",
                        ch("rresp_data"),
                        ch("wreq_data")
                    ));
                } else if w < 8 || w % 8 != 0 {
                    c.problems.push(format!(
                        "pointer `{prefix}{name}` has element width {w}; it must be a whole number of bytes"
                    ));
                }
            }
        }
        if c.problems.len() > problems_before {
            return None;
        }
        let some = |p: Option<PortId>| p.expect("no problems, so present");
        Some(Interface {
            name: name.to_string(),
            prefix,
            start: some(start),
            busy: some(busy),
            done: some(done),
            global_size: global_size.map(some),
            local_size,
            global_offset,
            work_dim,
            pointers,
        })
    }

    /// "the kernel" or "kernel `K`", for messages.
    pub(crate) fn kernel(&self) -> String {
        if self.name.is_empty() {
            "the kernel".to_string()
        } else {
            format!("kernel `{}`", self.name)
        }
    }

    /// "" or "kernel `K`: ", to begin messages with.
    fn of_kernel(&self) -> String {
        if self.name.is_empty() {
            String::new()
        } else {
            format!("kernel `{}`: ", self.name)
        }
    }

    /// Resolves user arguments to `arg_*` ports; every argument must be given exactly once.
    fn check_args(
        &self,
        model: &Model,
        args: &[(String, Vec<u32>)],
    ) -> Result<Vec<(PortId, Vec<u32>)>, SimError> {
        let arg_prefix = format!("{}arg_", self.prefix);
        let all: Vec<&str> = model
            .ports()
            .iter()
            .filter_map(|p| p.name.strip_prefix(&arg_prefix))
            .collect();
        let of = self.of_kernel();
        let mut out = Vec::new();
        for (name, words) in args {
            let Some(id) = model.port(&format!("{arg_prefix}{name}")) else {
                return Err(SimError::Argument(format!(
                    "{} has no argument `{name}`; its arguments are: {}",
                    self.kernel(),
                    all.join(", ")
                )));
            };
            if out.iter().any(|(p, _)| *p == id) {
                return Err(SimError::Argument(format!(
                    "{of}argument `{name}` is given twice"
                )));
            }
            let width = model.spec(id).width;
            if !fits(words, width) {
                return Err(SimError::Argument(format!(
                    "{of}the value of argument `{name}` does not fit in {width} bits"
                )));
            }
            out.push((id, words.clone()));
        }
        let missing: Vec<&str> = all
            .iter()
            .copied()
            .filter(|a| !args.iter().any(|(n, _)| n == a))
            .collect();
        if !missing.is_empty() {
            return Err(SimError::Argument(format!(
                "{of}arguments not given: {}",
                missing.join(", ")
            )));
        }
        Ok(out)
    }

    /// One memory server per pointer port; `config.port_memory` entries are looked up by
    /// `<prefix><pointer>` and marked in `used`.
    fn memory_ports(
        &self,
        model: &Model,
        config: &RunConfig,
        used: &mut [bool],
    ) -> Result<Vec<MemPort>, SimError> {
        let id = |s: String| model.port(&s).expect("checked by discover");
        let mut out = Vec::new();
        for (local, read, write) in &self.pointers {
            let name = format!("{}{local}", self.prefix);
            let chosen = config.port_memory.iter().rposition(|(n, _)| *n == name);
            if let Some(k) = chosen {
                used[k] = true;
            }
            let cfg = chosen
                .map_or(&config.memory, |k| &config.port_memory[k].1)
                .clone();
            cfg.validate(&name)?;
            let data = if *read {
                format!("{name}_rresp_data")
            } else {
                format!("{name}_wreq_data")
            };
            let bytes = model.spec(id(data)).width / 8;
            out.push(MemPort {
                bytes,
                read: read.then(|| ReadPorts {
                    req_valid: id(format!("{name}_rreq_valid")),
                    req_ready: id(format!("{name}_rreq_ready")),
                    req_addr: id(format!("{name}_rreq_addr")),
                    resp_valid: id(format!("{name}_rresp_valid")),
                    resp_ready: id(format!("{name}_rresp_ready")),
                    resp_data: id(format!("{name}_rresp_data")),
                }),
                write: write.then(|| WritePorts {
                    req_valid: id(format!("{name}_wreq_valid")),
                    req_ready: id(format!("{name}_wreq_ready")),
                    req_addr: id(format!("{name}_wreq_addr")),
                    req_data: id(format!("{name}_wreq_data")),
                    req_strb: model.port(&format!("{name}_wreq_strb")),
                    resp_valid: id(format!("{name}_wresp_valid")),
                    resp_ready: id(format!("{name}_wresp_ready")),
                }),
                cfg,
                reads: VecDeque::new(),
                writes: VecDeque::new(),
                rreq_ready: false,
                wreq_ready: false,
                rresp_valid: false,
                wresp_valid: false,
                stats: PortStats {
                    name: local.clone(),
                    element_bytes: bytes,
                    ..PortStats::default()
                },
                name,
            });
        }
        Ok(out)
    }
}

/// Collects interface problems while claiming the ports the contract names.
pub(crate) struct Checker<'a> {
    pub(crate) model: &'a Model,
    claimed: Vec<bool>,
    pub(crate) problems: Vec<String>,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(model: &'a Model) -> Checker<'a> {
        Checker {
            model,
            claimed: vec![false; model.ports().len()],
            problems: Vec::new(),
        }
    }

    /// A port the contract allows a kernel to omit; checked like `want` when present.
    pub(crate) fn want_optional(
        &mut self,
        name: &str,
        dir: Dir,
        width: Option<u32>,
    ) -> Option<PortId> {
        self.model.port(name)?;
        self.want(name, dir, width)
    }

    /// Port `name` with direction `dir` and, if given, `width`.
    pub(crate) fn want(&mut self, name: &str, dir: Dir, width: Option<u32>) -> Option<PortId> {
        let Some(id) = self.model.port(name) else {
            let w = width.map(|w| format!(" ({w} bit{})", if w == 1 { "" } else { "s" }));
            self.problems.push(format!(
                "missing {} `{name}`{}",
                dir_name(dir),
                w.unwrap_or_default()
            ));
            return None;
        };
        self.claimed[id.index()] = true;
        let spec = self.model.spec(id);
        if spec.dir != dir || width.is_some_and(|w| w != spec.width) {
            self.problems.push(format!(
                "`{name}` must be {} {}, not a {}-bit {}",
                width.map_or("an".to_string(), |w| format!("a {w}-bit")),
                dir_name(dir),
                spec.width,
                dir_name(spec.dir)
            ));
        }
        Some(id)
    }

    pub(crate) fn claimed(&self, id: PortId) -> bool {
        self.claimed[id.index()]
    }

    /// Every input must have been claimed or be an argument (`is_arg`); then all problems
    /// found are one [`SimError::Interface`].
    pub(crate) fn finish(mut self, is_arg: impl Fn(&str) -> bool) -> Result<(), SimError> {
        for (k, p) in self.model.ports().iter().enumerate() {
            if p.dir == Dir::In && !self.claimed[k] && !is_arg(&p.name) {
                self.problems
                    .push(format!("input `{}` is not part of the interface", p.name));
            }
        }
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(SimError::Interface(self.problems.join("; ")))
        }
    }
}

fn dir_name(d: Dir) -> &'static str {
    match d {
        Dir::In => "input",
        Dir::Out => "output",
    }
}

/// Whether `words` is the zero- or sign-extension of a `width`-bit value.
fn fits(words: &[u32], width: u32) -> bool {
    let bit = |i: u32| {
        words
            .get((i / 32) as usize)
            .is_some_and(|w| w >> (i % 32) & 1 != 0)
    };
    let total = 32 * words.len() as u32;
    if total <= width {
        return true;
    }
    let high = width..total;
    high.clone().all(|i| !bit(i)) || (bit(width - 1) && high.clone().all(bit))
}

struct ReadPorts {
    req_valid: PortId,
    req_ready: PortId,
    req_addr: PortId,
    resp_valid: PortId,
    resp_ready: PortId,
    resp_data: PortId,
}

struct WritePorts {
    req_valid: PortId,
    req_ready: PortId,
    req_addr: PortId,
    req_data: PortId,
    /// Byte enables (bit i: byte i of the element), when the kernel writes parts of elements.
    req_strb: Option<PortId>,
    resp_valid: PortId,
    resp_ready: PortId,
}

struct PendingRead {
    ready_at: u64,
    /// Little-endian words of the element (two for elements up to 64 bits).
    data: Box<[u32]>,
}

/// The memory server of one pointer port.
struct MemPort {
    name: String,
    bytes: u32,
    read: Option<ReadPorts>,
    write: Option<WritePorts>,
    cfg: MemConfig,
    reads: VecDeque<PendingRead>,
    /// Cycle at which each write acknowledgement becomes valid.
    writes: VecDeque<u64>,
    // This cycle's decisions, made in `drive` and used in `transfer`.
    rreq_ready: bool,
    wreq_ready: bool,
    rresp_valid: bool,
    wresp_valid: bool,
    stats: PortStats,
}

impl MemPort {
    /// Sets memory's side of the handshakes for this cycle, from memory state only.
    fn drive(&mut self, model: &mut Model, rng: &mut StdRng, cycle: u64) {
        let stall = |rng: &mut StdRng, p: f64| p > 0.0 && rng.random_bool(p);
        if let Some(r) = &self.read {
            self.rreq_ready = self.reads.len() < self.cfg.max_outstanding
                && !stall(rng, self.cfg.stall_probability);
            model.set(r.req_ready, u64::from(self.rreq_ready));
            let head = self.reads.front().filter(|h| h.ready_at <= cycle);
            self.rresp_valid = head.is_some();
            model.set(r.resp_valid, u64::from(self.rresp_valid));
            if let Some(h) = head {
                model.set_wide(r.resp_data, &h.data);
            }
        }
        if let Some(w) = &self.write {
            self.wreq_ready = self.writes.len() < self.cfg.max_outstanding
                && !stall(rng, self.cfg.stall_probability);
            model.set(w.req_ready, u64::from(self.wreq_ready));
            self.wresp_valid = self.writes.front().is_some_and(|&t| t <= cycle);
            model.set(w.resp_valid, u64::from(self.wresp_valid));
        }
    }

    /// Performs the transfers of the coming edge (after the model was evaluated); whether any
    /// request or response moved.
    fn transfer(
        &mut self,
        model: &Model,
        mem: &mut Memory,
        rng: &mut StdRng,
        cycle: u64,
        scratch: &mut Vec<u32>,
    ) -> Result<bool, SimError> {
        let mut moved = false;
        if let Some(r) = &self.read {
            if self.rresp_valid {
                if model.get(r.resp_ready) != 0 {
                    self.reads.pop_front();
                    moved = true;
                } else {
                    self.stats.read_response_blocked_cycles += 1;
                }
            }
            if model.get(r.req_valid) != 0 {
                if self.rreq_ready {
                    let addr = model.get(r.req_addr) as u32;
                    self.check(mem, addr, false, cycle)?;
                    let bytes = mem.slice(addr, self.bytes);
                    let mut data = vec![0u32; (self.bytes as usize).div_ceil(4).max(2)];
                    for (k, b) in bytes.iter().enumerate() {
                        data[k / 4] |= u32::from(*b) << (8 * (k % 4));
                    }
                    let lat = rng.random_range(self.cfg.read_latency.clone());
                    self.reads.push_back(PendingRead {
                        ready_at: cycle + u64::from(lat),
                        data: data.into_boxed_slice(),
                    });
                    self.stats.reads += 1;
                    moved = true;
                    self.stats.max_outstanding_reads =
                        self.stats.max_outstanding_reads.max(self.reads.len());
                } else {
                    self.stats.read_stall_cycles += 1;
                }
            }
        }
        if let Some(w) = &self.write {
            if self.wresp_valid {
                if model.get(w.resp_ready) != 0 {
                    self.writes.pop_front();
                    moved = true;
                } else {
                    self.stats.write_response_blocked_cycles += 1;
                }
            }
            if model.get(w.req_valid) != 0 {
                if self.wreq_ready {
                    let addr = model.get(w.req_addr) as u32;
                    self.check(mem, addr, true, cycle)?;
                    let words = (self.bytes as usize).div_ceil(4).max(2);
                    scratch.resize(2 * words, 0);
                    let (data, strb) = scratch.split_at_mut(words);
                    model.get_wide_into(w.req_data, data);
                    match w.req_strb {
                        Some(p) => model.get_wide_into(p, strb),
                        None => strb.fill(u32::MAX),
                    }
                    for (k, b) in mem.slice_mut(addr, self.bytes).iter_mut().enumerate() {
                        if (strb[k / 32] >> (k % 32)) & 1 == 1 {
                            *b = (data[k / 4] >> (8 * (k % 4))) as u8;
                        }
                    }
                    let lat = rng.random_range(self.cfg.write_latency.clone());
                    self.writes.push_back(cycle + u64::from(lat));
                    self.stats.writes += 1;
                    moved = true;
                    self.stats.max_outstanding_writes =
                        self.stats.max_outstanding_writes.max(self.writes.len());
                } else {
                    self.stats.write_stall_cycles += 1;
                }
            }
        }
        Ok(moved)
    }

    fn check(&self, mem: &Memory, addr: u32, write: bool, cycle: u64) -> Result<(), SimError> {
        let fault = |kind, detail| SimError::MemoryFault {
            port: self.name.clone(),
            addr,
            bytes: self.bytes,
            write,
            cycle,
            kind,
            detail,
        };
        // Elements are aligned to their size, or for sizes that are not a power of two
        // (structs) to the largest power of two dividing it (their alignment divides that).
        let align = self.bytes & self.bytes.wrapping_neg();
        if !addr.is_multiple_of(align) {
            return Err(fault(crate::FaultKind::Misaligned, String::new()));
        }
        mem.check(addr, self.bytes)
            .map_err(|(kind, detail)| fault(kind, detail))
    }

    fn outstanding(&self, model: &Model) -> Outstanding {
        Outstanding {
            port: self.name.clone(),
            reads: self.reads.len(),
            writes: self.writes.len(),
            read_request_waiting: self
                .read
                .as_ref()
                .is_some_and(|r| model.get(r.req_valid) != 0),
            write_request_waiting: self
                .write
                .as_ref()
                .is_some_and(|w| model.get(w.req_valid) != 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fits;

    #[test]
    fn argument_fit() {
        assert!(fits(&[5, 0], 8));
        assert!(!fits(&[300, 0], 8));
        assert!(fits(&[u32::MAX, u32::MAX], 8)); // -1 sign-extended
        assert!(fits(&[0xffff_ff80, u32::MAX], 8)); // -128
        assert!(!fits(&[0x0000_ff80, 0], 8));
        assert!(fits(&[0x80, 0], 8));
        assert!(!fits(&[0x7f, u32::MAX], 8)); // sign bit clear, high bits set
        assert!(fits(&[1, 2], 64));
        assert!(fits(&[1, 2], 40));
        assert!(!fits(&[1, 256], 40));
        assert!(fits(&[1, 2, 3], 96));
    }
}
