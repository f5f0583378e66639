//! Checks of a system run's settings before it starts: the launches and their `after`
//! dependencies, the named pipe ends, and the deadlock limit.

use crate::run::RunConfig;
use crate::SimError;

use super::ports::SystemPorts;
use super::SystemLaunch;

/// Launch checks: known kernels, each launched once, `after` names launched kernels and
/// forms no cycle.
pub(super) fn check_launches(launches: &[SystemLaunch], kernels: &[&str]) -> Result<(), SimError> {
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

/// The kernels at the ends of a pipe, where [`crate::SystemRun::pipe_ends`] named them.
#[derive(Clone, Debug, Default)]
pub(super) struct PipeEnds {
    pub(super) writer: Option<String>,
    pub(super) reader: Option<String>,
}

/// Resolves [`crate::SystemRun::pipe_ends`] to the ends of each pipe of the top, in pipe order.
pub(super) fn check_pipe_ends(
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
                .map_or(PipeEnds::default(), |e| PipeEnds {
                    writer: Some(e.1.clone()),
                    reader: Some(e.2.clone()),
                })
        })
        .collect())
}

/// The deadlock limit must be at least 1 and longer than any memory latency, or a slow
/// response would look like a deadlock.
pub(super) fn check_deadlock_limit(config: &RunConfig) -> Result<(), SimError> {
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
