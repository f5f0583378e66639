//! A system run in progress: each launched kernel's state and protocol checks
//! ([`LaunchedKernel`]), each pipe's sampled monitor outputs ([`PipeMonitor`]), and the
//! [`SystemReport`] built from them when the run fails.

use crate::model::Model;
use crate::run::KernelDriver;
use crate::SimError;

use super::checks::PipeEnds;
use super::ports::PipePorts;
use super::report::{KernelReport, KernelState, KernelStats, PipeReport, PipeStats, SystemReport};

/// The state of every kernel and pipe, for a failed run.
pub(super) fn failure_report(
    model: &Model,
    cycle: u64,
    idle_cycles: u64,
    active: &[LaunchedKernel],
    not_launched: &[String],
    pipes: &[PipeMonitor],
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
        pipes: pipes.iter().map(PipeMonitor::report).collect(),
    })
}

/// Where a launched kernel stands.
pub(super) enum LaunchState {
    Waiting,
    Running { since: u64 },
    Done { since: u64, at: u64 },
}

/// A launched kernel during the run.
pub(super) struct LaunchedKernel {
    pub(super) name: String,
    pub(super) kernel: KernelDriver,
    /// Indices of the launches it waits for.
    pub(super) after: Vec<usize>,
    pub(super) state: LaunchState,
}

impl LaunchedKernel {
    /// Protocol checks after `eval`; records `done`. Whether the kernel finished now.
    pub(super) fn check(&mut self, model: &Model, cycle: u64) -> Result<bool, SimError> {
        let busy = model.get(self.kernel.ports.busy) != 0;
        let done = model.get(self.kernel.ports.done) != 0;
        let fault = |message: String| Err(SimError::Protocol { cycle, message });
        let who = self.kernel.ports.kernel();
        match self.state {
            LaunchState::Waiting => {
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
            LaunchState::Running { since } => {
                if cycle == since {
                    self.kernel.check_idle_at_start(busy, done, cycle)?;
                } else if done {
                    self.kernel.check_nothing_outstanding(cycle)?;
                    self.state = LaunchState::Done { since, at: cycle };
                    return Ok(true);
                } else if !busy {
                    return fault(format!(
                        "`busy` of {who} is low between its start and `done`"
                    ));
                }
            }
            LaunchState::Done { at, .. } => {
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

    pub(super) fn report(&self, model: &Model, all: &[LaunchedKernel]) -> KernelReport {
        let state = match self.state {
            LaunchState::Waiting => KernelState::Waiting {
                for_kernels: self
                    .after
                    .iter()
                    .filter(|&&j| !matches!(all[j].state, LaunchState::Done { .. }))
                    .map(|&j| all[j].name.clone())
                    .collect(),
            },
            LaunchState::Running { since } => KernelState::Running {
                since,
                busy: model.get(self.kernel.ports.busy) != 0,
            },
            LaunchState::Done { at, .. } => KernelState::Done { at },
        };
        KernelReport {
            name: self.name.clone(),
            state,
            outstanding: self.kernel.outstanding(model),
        }
    }

    pub(super) fn into_stats(self) -> KernelStats {
        let LaunchState::Done { since, at } = self.state else {
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

/// A pipe during the run: its monitor outputs sampled every cycle.
pub(super) struct PipeMonitor {
    pub(super) ports: PipePorts,
    pub(super) ends: PipeEnds,
    pub(super) stats: PipeStats,
    /// `wr_wait` and `rd_wait` in the last cycle sampled.
    pub(super) wr_wait: bool,
    pub(super) rd_wait: bool,
}

impl PipeMonitor {
    pub(super) fn new(ports: PipePorts, ends: PipeEnds) -> PipeMonitor {
        PipeMonitor {
            stats: PipeStats {
                name: ports.name.clone(),
                ..PipeStats::default()
            },
            ports,
            ends,
            wr_wait: false,
            rd_wait: false,
        }
    }

    /// Reads the pipe's outputs after `eval`; whether an operation takes effect this cycle.
    pub(super) fn sample(&mut self, model: &Model, cycle: u64) -> Result<bool, SimError> {
        let p = &self.ports;
        let count = model.get(p.count);
        let max = model.get(p.max);
        let space = model.get(p.space);
        if count > space || space < max {
            return Err(SimError::Protocol {
                cycle,
                message: format!(
                    "pipe `{}` holds {count} packets, more than its {space} places (depth \
                     {max} and slack for reservations)",
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

    pub(super) fn report(&self) -> PipeReport {
        PipeReport {
            name: self.stats.name.clone(),
            count: self.stats.final_count,
            max: self.stats.depth,
            wr_wait: self.wr_wait,
            rd_wait: self.rd_wait,
            writer: self.ends.writer.clone(),
            reader: self.ends.reader.clone(),
        }
    }
}
