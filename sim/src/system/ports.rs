//! The ports of a system top: its kernels (each checked like a kernel on its own, with the
//! prefix `K__`) and the monitor outputs of its pipes (`pipe__P__*`), every problem reported at
//! once.

use crate::model::{Model, PortId};
use crate::run::top_memory::TopPorts;
use crate::run::{KernelPorts, PortChecker};
use crate::{Dir, SimError};

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

/// The ports of one pipe of a system top.
pub(super) struct PipePorts {
    pub(super) name: String,
    pub(super) count: PortId,
    pub(super) max: PortId,
    /// `pipe__P__space`: the places the FIFO has (`DEPTH + SLACK`), the most it can hold.
    pub(super) space: PortId,
    pub(super) wr_wait: PortId,
    pub(super) rd_wait: PortId,
    pub(super) active: PortId,
}

/// The checked ports of a system top.
pub(super) struct SystemPorts {
    pub(super) rst: PortId,
    /// (kernel name, its interface), in port order.
    pub(super) kernels: Vec<(String, KernelPorts)>,
    pub(super) pipes: Vec<PipePorts>,
    /// The top's own memory ports (atomic counters it holds).
    pub(super) top: TopPorts,
}

const PIPE_PORTS: [&str; 6] = ["count", "max", "space", "wr_wait", "rd_wait", "active"];

impl SystemPorts {
    pub(super) fn discover(model: &Model) -> Result<SystemPorts, SimError> {
        let mut c = PortChecker::new(model);
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
        let kernels: Vec<(String, Option<KernelPorts>)> = kernel_names
            .iter()
            .map(|k| (k.clone(), KernelPorts::discover(&mut c, k)))
            .collect();
        let mut pipes = Vec::new();
        for q in &pipe_names {
            let port = |s: &str| format!("pipe__{q}__{s}");
            let count = c.want(&port("count"), Dir::Out, None);
            let max = c.want(&port("max"), Dir::Out, None);
            let space = c.want(&port("space"), Dir::Out, None);
            let wr_wait = c.want(&port("wr_wait"), Dir::Out, Some(1));
            let rd_wait = c.want(&port("rd_wait"), Dir::Out, Some(1));
            let active = c.want(&port("active"), Dir::Out, Some(1));
            if let Some(count) = count {
                let cw = model.spec(count).width;
                for (other, name) in [(max, "max"), (space, "space")] {
                    let Some(o) = other else { continue };
                    let ow = model.spec(o).width;
                    if ow != cw {
                        c.problems.push(format!(
                            "`{}` ({cw} bits) and `{}` ({ow} bits) differ in width",
                            port("count"),
                            port(name)
                        ));
                    }
                }
                if cw > 64 {
                    c.problems.push(format!(
                        "`{}` has {cw} bits; a pipe count has at most 64",
                        port("count")
                    ));
                }
            }
            if let (
                Some(count),
                Some(max),
                Some(space),
                Some(wr_wait),
                Some(rd_wait),
                Some(active),
            ) = (count, max, space, wr_wait, rd_wait, active)
            {
                pipes.push(PipePorts {
                    name: q.clone(),
                    count,
                    max,
                    space,
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
        let top = TopPorts::discover(&mut c);
        let arg_prefixes: Vec<String> = kernel_names.iter().map(|k| format!("{k}__arg_")).collect();
        c.finish(|input| arg_prefixes.iter().any(|a| input.starts_with(a.as_str())))?;
        Ok(SystemPorts {
            rst: rst.expect("no problems, so present"),
            kernels: kernels
                .into_iter()
                .map(|(n, i)| (n, i.expect("no problems, so present")))
                .collect(),
            pipes,
            top,
        })
    }
}
