//! The interface of a kernel module: its ports ([`Port`]), how each kernel argument reaches it
//! ([`ArgPort`]), the pipes it uses ([`PipeIface`]), and the port list at the head of the
//! module. Everything here is decided from the [`Plan`] before the datapath is written; the
//! types serialise into `report.json` (docs/hardware-interface.md).

use super::plan::Plan;
use super::{memory::Mem, pipes};
use crate::namer::legal;
use crate::writer::{range, VWriter};
use hls_ir::{ArgKind, Kernel, MemKind, OpKind, PipeId, PipeSide};
use std::collections::BTreeSet;

pub use hwcontract::PortDir;

/// `in` / `out` in report.json (the contract crate has no serde).
fn serialize_dir<S: serde::Serializer>(d: &PortDir, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(d.name())
}

/// A port of the generated module.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Port {
    pub name: String,
    #[serde(serialize_with = "serialize_dir")]
    pub dir: PortDir,
    pub width: u32,
}

/// How a kernel argument reaches the module (`report.json`: `"scalar"`, `"global"`, `"local"`,
/// `"pipe"` or `"counter"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgPortKind {
    /// A value latched at launch from port `arg_<name>`.
    Scalar,
    /// A `global` pointer: its address port and memory channels (`<mem_prefix>_rreq_valid` ...).
    Global,
    /// A `local` pointer: an on-chip memory inside the module, no port.
    Local,
    /// A pipe: `mem_prefix` is the pipe's port prefix.
    Pipe,
    /// An atomic counter: a register inside the module, loaded from and written back to its
    /// buffer through the address port and memory channels (`<mem_prefix>_rreq_valid` ...).
    Counter,
}

impl std::fmt::Display for ArgPortKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ArgPortKind::Scalar => "scalar",
            ArgPortKind::Global => "global",
            ArgPortKind::Local => "local",
            ArgPortKind::Pipe => "pipe",
            ArgPortKind::Counter => "counter",
        })
    }
}

/// How a kernel argument reaches the module.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ArgPort {
    pub index: u32,
    pub name: String,
    pub kind: ArgPortKind,
    /// The value port (`arg_<name>`), absent when the kernel never uses the argument.
    pub port: Option<String>,
    /// Prefix of the memory channels (`<prefix>_rreq_valid` ...), for pointer arguments; the
    /// pipe's port prefix for pipes.
    pub mem_prefix: Option<String>,
    /// Width of the value (scalars) or of one element (pointers), in bits.
    pub bits: u32,
    pub reads: bool,
    pub writes: bool,
    /// `local` pointer arguments: the bytes the on-chip memory holds (a launch may ask for
    /// at most this many).
    pub local_bytes: Option<u32>,
}

/// The interface of a generated kernel module (see docs/hardware-interface.md).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Interface {
    pub module: String,
    pub ports: Vec<Port>,
    pub args: Vec<ArgPort>,
    /// The pipes the kernel reads or writes, each through ports `<prefix>_<suffix>`.
    pub pipes: Vec<PipeIface>,
}

/// One pipe side used by a kernel (docs/hardware-interface.md, "Pipes in a kernel").
#[derive(Clone, Debug, serde::Serialize)]
pub struct PipeIface {
    /// The pipe argument's name, or the program-scope pipe's name.
    pub name: String,
    pub prefix: String,
    /// The kernel writes the pipe (otherwise it reads it).
    pub write: bool,
    pub packet_type: String,
    pub packet_bits: u32,
    /// A Xilinx program-scope pipe (`xcl_reqd_pipe_depth`), not an argument.
    pub program_scope: bool,
    /// Depth from the source (`xcl_reqd_pipe_depth`).
    pub depth: Option<u32>,
    /// Reservation table entries the kernel's reserve ids can name.
    pub max_reservations: u32,
    /// The most packets one reservation of the kernel on this pipe takes: 0 when it makes
    /// none, `u32::MAX` when a packet count is not a constant (the FIFO's slack,
    /// `system::reservation_slack`).
    pub reserved_at_once: u32,
    /// Port suffixes the kernel has (`wr_valid`, `wr_data`, `wr_ok`, ...).
    pub ports: Vec<String>,
}

/// A register latched at launch from the port of a used scalar (or pointer) argument.
pub(super) struct ArgReg {
    pub port: String,
    pub reg: String,
    pub bits: u32,
}

fn port(name: impl Into<String>, dir: PortDir, width: u32) -> Port {
    Port {
        name: name.into(),
        dir,
        width,
    }
}

/// The module's interface, and the argument registers its launch control latches.
pub(super) fn build_interface(p: &Plan, module: &str) -> (Interface, Vec<ArgReg>) {
    let mut ports = control_ports(p);
    let mut arg_regs = Vec::new();
    let args = arg_ports(p, &mut ports, &mut arg_regs);
    let pipes = pipe_ifaces(p, &mut ports);
    let iface = Interface {
        module: module.to_string(),
        ports,
        args,
        pipes,
    };
    (iface, arg_regs)
}

/// Clock, reset and launch handshake; sizes and offsets per dimension (local sizes and
/// offsets only where used); `work_dim` when read.
fn control_ports(p: &Plan) -> Vec<Port> {
    let mut ports: Vec<Port> = [
        ("clk", PortDir::In),
        ("rst", PortDir::In),
        ("start", PortDir::In),
        ("busy", PortDir::Out),
        ("done", PortDir::Out),
    ]
    .into_iter()
    .map(|(n, dir)| port(n, dir, 1))
    .collect();
    let dims = &p.work_items.dims;
    for (base, needed) in [
        ("global_size", [true; 3]),
        ("local_size", dims.map(|d| d.grouped)),
        ("global_offset", dims.map(|d| d.goff)),
    ] {
        for d in (0..3).filter(|&d| needed[d]) {
            ports.push(port(format!("{base}_{d}"), PortDir::In, 32));
        }
    }
    if p.work_items.work_dim {
        ports.push(port("work_dim", PortDir::In, 32));
    }
    ports
}

/// One [`ArgPort`] per kernel argument, adding the ports of the used ones to `ports`.
fn arg_ports(p: &Plan, ports: &mut Vec<Port>, arg_regs: &mut Vec<ArgReg>) -> Vec<ArgPort> {
    let k = p.k;
    let used_args: BTreeSet<u32> = k
        .op_ids()
        .into_iter()
        .filter_map(|o| match k.op(o).kind {
            hls_ir::OpKind::Arg(a) if k.has_uses(o) => Some(a.0),
            _ => None,
        })
        .collect();
    let mut args = Vec::new();
    for (i, a) in k.args.iter().enumerate() {
        let used = used_args.contains(&(i as u32));
        let name = legal(&a.name);
        let mut value_port = |bits: u32| {
            let port_name = format!("arg_{name}");
            if used {
                ports.push(port(port_name.clone(), PortDir::In, bits));
                arg_regs.push(ArgReg {
                    port: port_name.clone(),
                    reg: format!("arg_{name}_r"),
                    bits,
                });
            }
            used.then_some(port_name)
        };
        let arg = |kind, bits| ArgPort {
            index: i as u32,
            name: a.name.clone(),
            kind,
            port: None,
            mem_prefix: None,
            bits,
            reads: false,
            writes: false,
            local_bytes: None,
        };
        args.push(match &a.kind {
            ArgKind::Scalar(t) => ArgPort {
                port: value_port(t.bits()),
                ..arg(ArgPortKind::Scalar, t.bits())
            },
            ArgKind::GlobalPtr(mem) => {
                let value = value_port(32);
                let m = p.mems.mems.get(mem);
                let (reads, writes) = m
                    .map(|m| (!m.loads.is_empty(), !m.stores.is_empty()))
                    .unwrap_or((false, false));
                let bits = k.mem(*mem).elem.bits().max(8);
                if let Some(m) = m {
                    ports.extend(global_channels(k, m, reads, writes, bits));
                }
                ArgPort {
                    port: value,
                    mem_prefix: m.map(|m| m.prefix.clone()),
                    reads,
                    writes,
                    ..arg(ArgPortKind::Global, bits)
                }
            }
            ArgKind::LocalPtr(mem) => {
                // An on-chip memory inside the module: no port.
                let m = k.mem(*mem);
                let len = match m.kind {
                    MemKind::Local { len } => len,
                    _ => 0,
                };
                ArgPort {
                    local_bytes: Some(len * m.elem_bytes),
                    ..arg(ArgPortKind::Local, m.elem.bits().max(8))
                }
            }
            ArgKind::Pipe(q) => {
                let pipe = &k.pipes[*q];
                ArgPort {
                    mem_prefix: Some(pipes::pipe_prefix(k, *q).trim_end_matches('_').to_string()),
                    reads: pipe.side == PipeSide::Read,
                    writes: pipe.side == PipeSide::Write,
                    ..arg(ArgPortKind::Pipe, pipe.packet_bits)
                }
            }
            ArgKind::Counter(c) => {
                let bits = k.counters[*c].bits;
                let planned = p.counters.iter().find(|x| x.id == *c);
                // The counter's buffer address: the kernel reads and writes the counter there.
                if let Some(x) = planned.filter(|x| x.shared) {
                    // Held by the system top: its share ports, no address or memory port.
                    ports.extend(super::counters::shared_ports(&x.prefix, bits, x.count_bits));
                    ArgPort {
                        mem_prefix: Some(x.prefix.clone()),
                        ..arg(ArgPortKind::Counter, bits)
                    }
                } else {
                    let value = planned.map(|x| {
                        let port_name = format!("arg_{}", x.prefix);
                        ports.push(port(port_name.clone(), PortDir::In, 32));
                        arg_regs.push(ArgReg {
                            port: port_name.clone(),
                            reg: format!("{port_name}_r"),
                            bits: 32,
                        });
                        ports.extend(channel_ports(&x.prefix, true, true, bits));
                        port_name
                    });
                    ArgPort {
                        port: value,
                        mem_prefix: planned.map(|x| x.prefix.clone()),
                        reads: planned.is_some(),
                        writes: planned.is_some(),
                        ..arg(ArgPortKind::Counter, bits)
                    }
                }
            }
        });
    }
    args
}

/// The ports of the channels a global memory `m` uses (reads, writes) with `bits`-bit elements.
fn global_channels(k: &Kernel, m: &Mem, reads: bool, writes: bool, bits: u32) -> Vec<Port> {
    let p = &m.prefix;
    let mut ports = channel_ports(p, reads, writes, bits);
    if reads && m.burst_read > 0 {
        ports.push(port(format!("{p}_rreq_len"), PortDir::Out, 8));
        ports.push(port(format!("{p}_rresp_last"), PortDir::In, 1));
    }
    if writes && m.burst_write {
        // A bursting write channel: AW with a length, data on its own W channel.
        ports.retain(|x| x.name != format!("{p}_wreq_data"));
        let (i, o) = (PortDir::In, PortDir::Out);
        ports.push(port(format!("{p}_wreq_len"), o, 8));
        ports.push(port(format!("{p}_wdata_valid"), o, 1));
        ports.push(port(format!("{p}_wdata_ready"), i, 1));
        ports.push(port(format!("{p}_wdata_data"), o, bits));
        if m.partial {
            ports.push(port(format!("{p}_wdata_strb"), o, bits / 8));
        }
        ports.push(port(format!("{p}_wdata_last"), o, 1));
    } else if writes && m.partial {
        ports.push(port(format!("{p}_wreq_strb"), PortDir::Out, bits / 8));
    }
    if !m.atomics.is_empty() {
        let out = PortDir::Out;
        ports.push(port(
            format!("{p}_rreq_op"),
            out,
            hwcontract::atomic::OP_BITS,
        ));
        ports.push(port(format!("{p}_rreq_operand"), out, bits));
        if m.has_cmpxchg(k) {
            ports.push(port(format!("{p}_rreq_compare"), out, bits));
        }
    }
    ports
}

/// The read and write channels (as asked) of a memory port `p` with `bits`-bit data.
pub(super) fn channel_ports(p: &str, reads: bool, writes: bool, bits: u32) -> Vec<Port> {
    use PortDir::{In, Out};
    // (suffix, direction, width; 0 = the element width) per channel.
    let read: [(&str, PortDir, u32); 6] = [
        ("rreq_valid", Out, 1),
        ("rreq_ready", In, 1),
        ("rreq_addr", Out, 32),
        ("rresp_valid", In, 1),
        ("rresp_ready", Out, 1),
        ("rresp_data", In, 0),
    ];
    let write: [(&str, PortDir, u32); 6] = [
        ("wreq_valid", Out, 1),
        ("wreq_ready", In, 1),
        ("wreq_addr", Out, 32),
        ("wreq_data", Out, 0),
        ("wresp_valid", In, 1),
        ("wresp_ready", Out, 1),
    ];
    let mut ports = Vec::new();
    for (_, channel) in [(reads, &read), (writes, &write)]
        .iter()
        .filter(|(on, _)| *on)
    {
        for &(suffix, dir, width) in channel.iter() {
            let width = if width == 0 { bits } else { width };
            ports.push(port(format!("{p}_{suffix}"), dir, width));
        }
    }
    ports
}

/// Pipes (arguments and program-scope pipes): the ports of the FIFO side each uses.
fn pipe_ifaces(p: &Plan, ports: &mut Vec<Port>) -> Vec<PipeIface> {
    let k = p.k;
    let mut ifaces = Vec::new();
    for (i, pipe) in k.pipes.iter().enumerate() {
        let id = PipeId::from_index(i);
        let pre = pipes::pipe_prefix(k, id);
        let list = pipes::pipe_ports(k, id);
        for q in &list {
            ports.push(port(format!("{pre}{}", q.suffix), q.dir, q.width));
        }
        ifaces.push(PipeIface {
            name: pipe.name.clone(),
            prefix: pre.trim_end_matches('_').to_string(),
            write: pipe.side == PipeSide::Write,
            packet_type: pipe.packet_type.clone(),
            packet_bits: pipe.packet_bits,
            program_scope: !k
                .args
                .iter()
                .any(|a| matches!(a.kind, ArgKind::Pipe(q) if q == id)),
            depth: pipe.depth,
            max_reservations: pipe.max_reservations,
            reserved_at_once: reserved_at_once(k, id),
            ports: list.into_iter().map(|q| q.suffix).collect(),
        });
    }
    ifaces
}

/// The most packets one reservation of `k` on `pipe` takes: 0 when it makes none, `u32::MAX`
/// when a packet count (the first operand) is not a constant.
fn reserved_at_once(k: &Kernel, pipe: PipeId) -> u32 {
    k.op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, OpKind::PipeReserve { pipe: q, .. } if q == pipe))
        .map(|o| match k.op(k.operands(o)[0]).kind {
            OpKind::Const(n) => u32::try_from(n).unwrap_or(u32::MAX),
            _ => u32::MAX,
        })
        .max()
        .unwrap_or(0)
}

/// The head of the module: the generator's note and the port list.
pub(super) fn write_header(w: &mut VWriter, p: &Plan, iface: &Interface, stages: u32) {
    let ii = p.regions[0].ls.slot_ii.max(1);
    w.line(format!(
        "// Kernel `{}`: generated by oclhls {}. Do not edit.",
        p.k.name,
        env!("CARGO_PKG_VERSION")
    ));
    w.line(format!(
        "// Work-item pipeline: II = {ii}, {stages} stages. Interface: docs/hardware-interface.md."
    ));
    w.line("`default_nettype none");
    w.line(format!("module {} (", iface.module));
    let n = iface.ports.len();
    for (i, q) in iface.ports.iter().enumerate() {
        let comma = if i + 1 < n { "," } else { "" };
        w.line(format!(
            "    {} {}{}{comma}",
            q.dir.declaration(),
            range(q.width),
            q.name
        ));
    }
    w.line(");");
}
