//! What a system run reports: its statistics when it finishes ([`SystemStats`], per kernel and
//! per pipe), and the state of every kernel and pipe when it fails ([`SystemReport`]).

use std::fmt;

use crate::run::RunStats;
use crate::Outstanding;

#[cfg(doc)]
use crate::SimError;

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
    /// The kernels at its ends, when [`crate::SystemRun::pipe_ends`] named them.
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
