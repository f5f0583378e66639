//! Port discovery and checking: the ports of one kernel ([`KernelPorts`]), claimed from a model
//! by a [`PortChecker`] that collects every way the model's ports differ from the contract of
//! `docs/hardware-interface.md`, to report them all at once.

use crate::model::{Model, PortId};
use crate::{Dir, SimError};

/// The ports of one kernel, all named `<prefix><contract name>`: the prefix is empty for a
/// kernel module on its own and `K__` for kernel `K` in a system top. (Not the IR's kernel nor
/// the emitter's interface: the ports a built model has, checked against the contract.)
pub(crate) struct KernelPorts {
    /// The kernel's name in messages (empty for a kernel on its own).
    name: String,
    pub(super) prefix: String,
    pub(crate) start: PortId,
    pub(crate) busy: PortId,
    pub(crate) done: PortId,
    pub(super) global_size: [PortId; 3],
    /// Present only when the kernel observes the work-group structure of that dimension.
    pub(super) local_size: [Option<PortId>; 3],
    /// Present only when the kernel uses the offset of that dimension (`get_global_id` or
    /// `get_global_offset`).
    pub(super) global_offset: [Option<PortId>; 3],
    /// `work_dim`, present only when the kernel calls `get_work_dim`.
    pub(super) work_dim: Option<PortId>,
    /// Pointer arguments, in port order.
    pub(super) pointers: Vec<PointerArg>,
}

/// A pointer argument and the memory channels its ports have.
pub(crate) struct PointerArg {
    /// The name without the kernel prefix (`a` for ports `a_rreq_valid`, `K__a_rreq_valid`).
    pub(super) name: String,
    /// Has the read channels (`<name>_rreq_*`, `<name>_rresp_*`).
    pub(super) reads: bool,
    /// Has the write channels (`<name>_wreq_*`, `<name>_wresp_*`).
    pub(super) writes: bool,
}

impl KernelPorts {
    /// Claims and checks the ports of the kernel `name` (empty: a kernel on its own, ports
    /// without prefix; otherwise ports `name__*`), adding every problem to `c`. `None` when
    /// there were problems.
    pub(crate) fn discover(c: &mut PortChecker, name: &str) -> Option<KernelPorts> {
        let prefix = if name.is_empty() {
            String::new()
        } else {
            format!("{name}__")
        };
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

        let pointers = discover_pointers(c, &prefix);
        if c.problems.len() > problems_before {
            return None;
        }
        let some = |p: Option<PortId>| p.expect("no problems, so present");
        Some(KernelPorts {
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
    pub(super) fn of_kernel(&self) -> String {
        if self.name.is_empty() {
            String::new()
        } else {
            format!("kernel `{}`: ", self.name)
        }
    }
}

/// Claims and checks the memory ports `<prefix><name>_*` (with the address input
/// `<prefix>arg_<name>`) of every pointer found under `prefix`.
pub(crate) fn discover_pointers(c: &mut PortChecker, prefix: &str) -> Vec<PointerArg> {
    let pointers = find_pointers(c.model, prefix);
    for p in &pointers {
        check_pointer(c, prefix, p);
    }
    pointers
}

/// The pointer arguments of the kernel with ports `<prefix>*`: every output
/// `<prefix><name>_rreq_valid` or `<prefix><name>_wreq_valid`, in port order.
fn find_pointers(model: &Model, prefix: &str) -> Vec<PointerArg> {
    let mut pointers: Vec<PointerArg> = Vec::new();
    for p in model.ports() {
        let Some(rest) = p.name.strip_prefix(prefix) else {
            continue;
        };
        for (suffix, read) in [("_rreq_valid", true), ("_wreq_valid", false)] {
            if let Some(name) = rest.strip_suffix(suffix) {
                if p.dir != Dir::Out || name.is_empty() {
                    continue;
                }
                match pointers.iter_mut().find(|e| e.name == name) {
                    Some(e) if read => e.reads = true,
                    Some(e) => e.writes = true,
                    None => pointers.push(PointerArg {
                        name: name.to_string(),
                        reads: read,
                        writes: !read,
                    }),
                }
            }
        }
    }
    pointers
}

/// Claims and checks the argument port and the channel ports of one pointer argument.
fn check_pointer(c: &mut PortChecker, prefix: &str, p: &PointerArg) {
    let model = c.model;
    let name = &p.name;
    let ch = |channel: &str| format!("{prefix}{name}_{channel}");
    c.want(&format!("{prefix}arg_{name}"), Dir::In, Some(32));
    let mut widths = Vec::new();
    if p.reads {
        c.want(&ch("rreq_valid"), Dir::Out, Some(1));
        c.want(&ch("rreq_ready"), Dir::In, Some(1));
        c.want(&ch("rreq_addr"), Dir::Out, Some(32));
        c.want(&ch("rresp_valid"), Dir::In, Some(1));
        c.want(&ch("rresp_ready"), Dir::Out, Some(1));
        let id = c.want(&ch("rresp_data"), Dir::In, None);
        widths.extend(id.map(|id| model.spec(id).width));
        // Bursts (revision 2): the length and the last beat come together.
        let len = c.want_optional(&ch("rreq_len"), Dir::Out, Some(8));
        let last = c.want_optional(&ch("rresp_last"), Dir::In, Some(1));
        if len.is_some() != last.is_some() {
            c.problems.push(format!(
                "`{}` and `{}` come together",
                ch("rreq_len"),
                ch("rresp_last")
            ));
        }
        // Atomic requests (revision 2 of the port): opcode and operands on the read channel.
        let op = c.want_optional(&ch("rreq_op"), Dir::Out, Some(hwcontract::atomic::OP_BITS));
        if let Some(w) = id.map(|id| model.spec(id).width) {
            let operand = c.want_optional(&ch("rreq_operand"), Dir::Out, Some(w));
            let compare = c.want_optional(&ch("rreq_compare"), Dir::Out, Some(w));
            if op.is_some() != operand.is_some() || compare.is_some() && op.is_none() {
                c.problems.push(format!(
                    "`{}` and `{}` come together (and `{}` only with them)",
                    ch("rreq_op"),
                    ch("rreq_operand"),
                    ch("rreq_compare")
                ));
            }
        }
    }
    if p.writes {
        c.want(&ch("wreq_valid"), Dir::Out, Some(1));
        c.want(&ch("wreq_ready"), Dir::In, Some(1));
        c.want(&ch("wreq_addr"), Dir::Out, Some(32));
        c.want(&ch("wresp_valid"), Dir::In, Some(1));
        c.want(&ch("wresp_ready"), Dir::Out, Some(1));
        check_write_data(c, &ch, &mut widths);
    }
    if let Some(&w) = widths.first() {
        if widths.iter().any(|&x| x != w) {
            c.problems.push(format!(
                "the read and write data of pointer `{prefix}{name}` differ in width"
            ));
        } else if w < 8 || w % 8 != 0 {
            c.problems.push(format!(
                "pointer `{prefix}{name}` has element width {w}; it must be a whole number of bytes"
            ));
        }
    }
}

/// The write data of a pointer's write channel: with the address (`wreq_data`, revision 1),
/// or on a bursting port's own channel (`wdata_*`, with `wreq_len`; revision 2).
fn check_write_data(c: &mut PortChecker, ch: &dyn Fn(&str) -> String, widths: &mut Vec<u32>) {
    let model = c.model;
    let width = |id: Option<PortId>| id.map(|id| model.spec(id).width);
    let len = c.want_optional(&ch("wreq_len"), Dir::Out, Some(8));
    if model.port(&ch("wdata_valid")).is_none() {
        if len.is_some() {
            c.problems.push(format!(
                "`{}` needs the write data channel `{}`",
                ch("wreq_len"),
                ch("wdata_*")
            ));
        }
        let id = c.want(&ch("wreq_data"), Dir::Out, None);
        widths.extend(width(id));
        if let Some(w) = width(id) {
            c.want_optional(&ch("wreq_strb"), Dir::Out, Some(w / 8));
        }
        return;
    }
    c.want(&ch("wdata_valid"), Dir::Out, Some(1));
    c.want(&ch("wdata_ready"), Dir::In, Some(1));
    c.want(&ch("wdata_last"), Dir::Out, Some(1));
    let id = c.want(&ch("wdata_data"), Dir::Out, None);
    widths.extend(width(id));
    if let Some(w) = width(id) {
        c.want_optional(&ch("wdata_strb"), Dir::Out, Some(w / 8));
    }
    if len.is_none() {
        c.problems
            .push(format!("a bursting write port needs `{}`", ch("wreq_len")));
    }
    for old in ["wreq_data", "wreq_strb"] {
        if model.port(&ch(old)).is_some() {
            c.problems.push(format!(
                "`{}` is not part of a bursting write port (its data is on `{}`)",
                ch(old),
                ch("wdata_data")
            ));
        }
    }
}

/// Collects interface problems while claiming the ports the contract names.
pub(crate) struct PortChecker<'a> {
    pub(crate) model: &'a Model,
    claimed: Vec<bool>,
    pub(crate) problems: Vec<String>,
}

impl<'a> PortChecker<'a> {
    pub(crate) fn new(model: &'a Model) -> PortChecker<'a> {
        PortChecker {
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
