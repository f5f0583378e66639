//! Atomic counters shared by kernels of a system that run at the same time: one register in
//! the system top (docs/hardware-interface.md, "Shared atomic counters").
//!
//! Each kernel sharing the counter is built with share ports instead of its own register
//! (`crate::kernel::emit_kernel_with`): it says how many of its updates take a value this cycle
//! (`<c>_fired`), and is handed the value to count from (`<c>_base`: the register plus the
//! counts of the kernels before it in this cycle, in launch order), so every update of every
//! kernel gets a distinct old value in the cycle it fires, with no serialisation.
//!
//! The register's life: when a kernel that needs it (`busy`: launched and not quiet) finds it
//! not live, it is read from the buffer through the system's port `counters__<n>_*`; it is
//! `live` until no kernel needs it any more and one of them is quiet (waits to finish), then it
//! is written back. A quiet kernel is released (may finish) at once while another kernel still
//! needs the register, otherwise after the write-back is acknowledged; so the buffer holds the
//! count when the last of them is done, and a kernel started later reads it from there.

use crate::kernel::{Port, PortDir};
use crate::namer::legal;
use crate::writer::VWriter;

/// One kernel's use of a shared counter.
#[derive(Clone, Debug)]
pub struct CounterUser {
    /// The kernel's position in the system.
    pub kernel: usize,
    /// The kernel's port prefix for this counter (`<prefix>_fired` ...).
    pub prefix: String,
    /// Counts up (`atomic_inc`) or down.
    pub inc: bool,
    /// Width of the kernel's `<prefix>_fired`.
    pub count_bits: u32,
}

/// A counter buffer several kernels running at once update.
#[derive(Clone, Debug)]
pub struct SharedCounter {
    /// The buffer's name (the system's port `counters__<name>_*`, address `counters__arg_<name>`).
    pub name: String,
    pub bits: u32,
    /// Its users in the order one cycle hands out values.
    pub users: Vec<CounterUser>,
}

/// The share ports of a kernel (`shared_ports` of the kernel module) without the prefix.
pub const SHARE_SUFFIXES: [&str; 6] = ["base", "live", "release", "fired", "busy", "quiet"];

impl SharedCounter {
    fn n(&self) -> String {
        legal(&self.name)
    }

    /// The system top's ports for this counter: its buffer's address and memory port.
    pub fn ports(&self) -> Vec<(String, PortDir, u32)> {
        let n = self.n();
        let mut v = vec![(format!("counters__arg_{n}"), PortDir::In, 32)];
        v.extend(
            crate::kernel::counter_channel_ports(&format!("counters__{n}"), self.bits)
                .into_iter()
                .map(|Port { name, dir, width }| (name, dir, width)),
        );
        v
    }

    /// The wire the system top connects to share port `<prefix>_<suffix>` of user `u`
    /// (whose module is `module`).
    pub fn wire(&self, u: &CounterUser, suffix: &str, module: &str) -> String {
        format!("sc_{}_{module}_{}_{suffix}", self.n(), u.prefix)
    }
}

/// Declares the wires of every user's share ports (before the kernel instances use them).
pub(crate) fn declare(w: &mut VWriter, c: &SharedCounter, modules: &[String]) {
    let n = c.n();
    w.line("");
    w.comment(format!(
        "---- Shared atomic counter `{}` ({} bits): one register for {}; its buffer through `counters__{n}_*`.",
        c.name,
        c.bits,
        c.users
            .iter()
            .map(|u| format!(
                "`{}` ({})",
                modules[u.kernel],
                if u.inc { "up" } else { "down" }
            ))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    w.reg(&format!("sc_{n}_value"), c.bits);
    for s in ["live", "rd_pend", "rd_wait", "wb", "wr_sent", "wr_done"] {
        w.reg(&format!("sc_{n}_{s}"), 1);
    }
    for u in &c.users {
        for (s, bits) in [
            ("base", c.bits),
            ("live", 1),
            ("release", 1),
            ("fired", u.count_bits),
            ("busy", 1),
            ("quiet", 1),
        ] {
            w.line(format!(
                "wire {}{};",
                crate::writer::range(bits),
                c.wire(u, s, &modules[u.kernel])
            ));
        }
    }
}

/// The register, its load and write-back through the system's port, and every user's
/// `base`, `live` and `release`.
pub(crate) fn emit(w: &mut VWriter, c: &SharedCounter, modules: &[String]) {
    let n = c.n();
    let (v, p) = (format!("sc_{n}_value"), format!("counters__{n}"));
    let wire = |u: &CounterUser, s: &str| c.wire(u, s, &modules[u.kernel]);
    let any = |s: &str| {
        c.users
            .iter()
            .map(|u| wire(u, s))
            .collect::<Vec<_>>()
            .join(" || ")
    };
    w.line("");
    w.comment(format!(
        "---- Shared atomic counter `{}`: register and port.",
        c.name
    ));
    w.wire(&format!("sc_{n}_busy"), 1, &any("busy"));
    w.wire(&format!("sc_{n}_quiet"), 1, &any("quiet"));
    // Bases in user order: each user counts from the register moved by those before it.
    let mut base = v.clone();
    for u in &c.users {
        w.assign(&wire(u, "base"), &base);
        w.assign(&wire(u, "live"), &format!("sc_{n}_live"));
        w.assign(
            &wire(u, "release"),
            &format!(
                "{} && ((sc_{n}_live && sc_{n}_busy) || sc_{n}_wr_done)",
                wire(u, "quiet")
            ),
        );
        let fired = wire(u, "fired");
        let wide = if u.count_bits < c.bits {
            format!("{{{}'d0, {fired}}}", c.bits - u.count_bits)
        } else {
            fired
        };
        base = format!("{base} {} {wide}", if u.inc { "+" } else { "-" });
    }
    w.wire(&format!("sc_{n}_next"), c.bits, &base);
    w.always_ff(|w| {
        w.line(format!("if ({p}_rresp_valid) {v} <= {p}_rresp_data;"));
        w.line(format!("else {v} <= sc_{n}_next;"));
    });
    let s = |x: &str| format!("sc_{n}_{x}");
    w.always_ff(|w| {
        w.block("if (rst)", |w| {
            for x in ["live", "rd_pend", "rd_wait", "wb", "wr_sent", "wr_done"] {
                w.line(format!("{} <= 1'b0;", s(x)));
            }
        });
        w.block("else", |w| {
            w.block(
                &format!(
                    "if (!{} && !{} && !{} && !{} && {})",
                    s("live"),
                    s("rd_wait"),
                    s("wb"),
                    s("wr_done"),
                    s("busy")
                ),
                |w| {
                    w.line(format!("{} <= 1'b1;", s("rd_pend")));
                    w.line(format!("{} <= 1'b1;", s("rd_wait")));
                },
            );
            w.line(format!(
                "if ({p}_rreq_valid && {p}_rreq_ready) {} <= 1'b0;",
                s("rd_pend")
            ));
            w.block(&format!("if ({p}_rresp_valid)"), |w| {
                w.line(format!("{} <= 1'b0;", s("rd_wait")));
                w.line(format!("{} <= 1'b1;", s("live")));
            });
            w.block(
                &format!("if ({} && !{} && {})", s("live"), s("busy"), s("quiet")),
                |w| {
                    w.line(format!("{} <= 1'b0;", s("live")));
                    w.line(format!("{} <= 1'b1;", s("wb")));
                    w.line(format!("{} <= 1'b0;", s("wr_sent")));
                },
            );
            w.line(format!(
                "if ({p}_wreq_valid && {p}_wreq_ready) {} <= 1'b1;",
                s("wr_sent")
            ));
            w.block(&format!("if ({p}_wresp_valid)"), |w| {
                w.line(format!("{} <= 1'b0;", s("wb")));
                w.line(format!("{} <= 1'b1;", s("wr_done")));
            });
            w.line(format!(
                "if ({} && !{}) {} <= 1'b0;",
                s("wr_done"),
                s("quiet"),
                s("wr_done")
            ));
        });
    });
    let arg = format!("counters__arg_{n}");
    w.assign(&format!("{p}_rreq_valid"), &s("rd_pend"));
    w.assign(&format!("{p}_rreq_addr"), &arg);
    w.assign(&format!("{p}_rresp_ready"), "1'b1");
    w.assign(
        &format!("{p}_wreq_valid"),
        &format!("{} && !{}", s("wb"), s("wr_sent")),
    );
    w.assign(&format!("{p}_wreq_addr"), &arg);
    w.assign(&format!("{p}_wreq_data"), &v);
    w.assign(&format!("{p}_wresp_ready"), "1'b1");
}
