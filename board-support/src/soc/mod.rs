//! Board systems: the kernels (a kernel module, or a system top) inside a LiteX SoC with the
//! board's SDRAM (LiteDRAM) and a host bridge (UARTBone), built by the script
//! `board-support/litex/oclhls_soc.py` (docs/hardware-interface.md, "Board system").
//!
//! The split between Rust and Python: everything that depends on the kernels is decided here
//! and written as plain Verilog and a JSON manifest; the script only connects what the
//! manifest lists to LiteX objects (CSRs, LiteDRAM native ports). So:
//! - [`plan()`] reads the port list of the module to put on the board ([`CoreSpec`]) and
//!   decides the control registers of each kernel ([`KernelRegs`], the register map) and one
//!   memory adapter per global-memory port ([`MemPort`]); unsupported ports are a
//!   [`SocError`] naming the kernel and argument;
//! - [`wrapper::core_verilog`] writes `oclhls_board_core`: the module, its control logic
//!   (start/done/idle, cycle counters) and an `oclhls_litedram_port` per memory port
//!   (`board-support/rtl/oclhls_litedram_port.v`);
//! - [`litex`] writes the manifest, runs the script in the provisioned LiteX venv, reads back
//!   the CSR addresses LiteX chose, and runs the open flow on the SoC's Verilog.
//!
//! Invariants: register offsets of a bank are consecutive 32-bit words in map order (the
//! script creates the CSRs in that order; [`litex::check_csr_map`] verifies the generated
//! `csr.csv` against the plan); every input port of the core is driven by a register, an
//! adapter or the clock/reset; every output is read by the control logic, an adapter or
//! listed in [`SocPlan::unconnected`].

pub mod litex;
pub mod wrapper;

use std::collections::BTreeSet;

use hwcontract::PortDir;
use serde::Serialize;

/// The Verilog of the memory adapter (one instance per kernel memory port).
pub const LITEDRAM_PORT_V: &str = include_str!("../../rtl/oclhls_litedram_port.v");

/// The Verilog of the atomic unit (one per system, when a kernel issues global atomics).
pub const ATOMIC_UNIT_V: &str = include_str!("../../rtl/oclhls_atomic_unit.v");

/// Data width of the SDRAM controller's native port on the ULX3S (both chips are x16, the PHY
/// is full rate): narrower elements use part of a native word, wider ones several.
pub const SDRAM_NATIVE_BITS: u32 = 16;

/// Magic value of the `oclhls_magic` register: `OCLH` in ASCII.
pub const MAGIC: u32 = 0x4f43_4c48;

/// One port of the module placed on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorePort {
    pub name: String,
    pub dir: PortDir,
    pub width: u32,
}

/// What goes on the board: a kernel module, or a system top of several kernels.
#[derive(Clone, Debug)]
pub struct CoreSpec {
    /// Module name.
    pub module: String,
    pub ports: Vec<CorePort>,
    /// The kernels in it, in order. In a system top kernel `K`'s ports are `K__<port>`; a
    /// single kernel's ports have no prefix.
    pub kernels: Vec<String>,
    /// A system top (prefixed ports) rather than one kernel module.
    pub system: bool,
}

/// How the host accesses a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// The control word: written bits start, read bits are status (not storage).
    Ctrl,
    /// Read/write storage driving a core input.
    Rw,
    /// Read-only status.
    Ro,
}

/// One 32-bit control register of a kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Register {
    /// CSR name inside the kernel's bank (`global_size_0`, `arg_n`, `arg_x_w1`).
    pub name: String,
    /// Byte offset from the bank's base.
    pub offset: u32,
    pub access: Access,
    /// The core input it drives (`Rw`), with the word of it: bits `32*word+31 : 32*word`.
    pub port: Option<String>,
    pub word: u32,
    /// What it holds, for the register-map table.
    pub doc: String,
}

/// The register bank of one kernel (or of the system's shared counters).
#[derive(Clone, Debug, Serialize)]
pub struct KernelRegs {
    pub kernel: String,
    /// LiteX CSR bank name: `k_<kernel>` (`k_counters` for shared counters' addresses).
    pub bank: String,
    /// Port prefix in the core (`K__` in a system top, empty for one kernel).
    pub prefix: String,
    /// Whether the bank has the control word and the cycle counter (not the counters bank).
    pub launchable: bool,
    pub registers: Vec<Register>,
}

/// One kernel memory port and its LiteDRAM native port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemPort {
    /// Index: the wrapper's ports are `m<index>_cmd_valid`, ...
    pub index: usize,
    /// Channel prefix in the core (`vadd__a`, or `a` for one kernel).
    pub prefix: String,
    /// Element width W of the kernel port.
    pub element_bits: u32,
    /// Data width D of the native port: the controller's own ([`SDRAM_NATIVE_BITS`]); the
    /// adapter splits a wider element into native words itself, one command per cycle
    /// (LiteDRAM's port down-converter spends three cycles on two words).
    pub data_bits: u32,
    pub read: bool,
    pub write: bool,
    /// The kernel drives `<prefix>_wreq_strb` (`<prefix>_wdata_strb` when the writes burst).
    pub strb: bool,
    /// The read channel carries bursts (`<prefix>_rreq_len`, `<prefix>_rresp_last`).
    pub rburst: bool,
    /// The write channel carries bursts (`<prefix>_wreq_len` and the `<prefix>_wdata_*` beats).
    pub wburst: bool,
}

/// A kernel memory port that issues atomics: its read channel (plain reads and atomics) is a
/// client of the atomic unit; its write channel, if any, keeps its [`MemPort`] adapter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtomicClient {
    /// Channel prefix in the core.
    pub prefix: String,
    /// Element width of the port: 32 or 64.
    pub element_bits: u32,
    /// The kernel drives `<prefix>_rreq_compare` (it issues `cmpxchg`).
    pub compare: bool,
}

/// The atomic unit (`board-support/rtl/oclhls_atomic_unit.v`): one for the whole system, in
/// front of a LiteDRAM native port of its own, so that atomics are atomic across every port
/// of every kernel (docs/hardware-interface.md, "Board system").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtomicUnit {
    /// Index of its native port: the wrapper's ports are `m<index>_cmd_valid`, ... (after the
    /// adapters' ones).
    pub index: usize,
    /// Data width of its native port: the controller's ([`SDRAM_NATIVE_BITS`]); the unit
    /// splits its words itself, like the adapters.
    pub data_bits: u32,
    /// The width of the words it reads and writes: the widest client's element (32 or 64).
    pub word_bits: u32,
    pub clients: Vec<AtomicClient>,
}

/// Everything the SoC needs besides the LiteX platform.
#[derive(Clone, Debug, Serialize)]
pub struct SocPlan {
    pub core_module: String,
    pub banks: Vec<KernelRegs>,
    pub mem_ports: Vec<MemPort>,
    /// The atomic unit, when a kernel issues global atomics.
    pub atomic_unit: Option<AtomicUnit>,
    /// Core outputs nothing on the board reads (pipe observation outputs), by name.
    pub unconnected: Vec<String>,
}

/// One LiteDRAM native port of the system: an adapter's or the atomic unit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativePort {
    pub index: usize,
    pub data_bits: u32,
    pub read: bool,
    pub write: bool,
}

impl SocPlan {
    /// The native ports the SoC asks LiteDRAM's crossbar for, in index order.
    pub fn native_ports(&self) -> Vec<NativePort> {
        let mut v: Vec<NativePort> = self
            .mem_ports
            .iter()
            .map(|m| NativePort {
                index: m.index,
                data_bits: m.data_bits,
                read: m.read,
                write: m.write,
            })
            .collect();
        if let Some(u) = &self.atomic_unit {
            v.push(NativePort {
                index: u.index,
                data_bits: u.data_bits,
                read: true,
                write: true,
            });
        }
        v
    }
}

/// Why a module cannot go on the board (yet).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SocError {
    #[error(
        "kernel `{kernel}` issues atomics on `{arg}` (port `{prefix}`) with {bits}-bit \
         elements{bursts}: the board's atomic unit serves 32- and 64-bit elements on ports \
         whose reads do not burst"
    )]
    AtomicPort {
        kernel: String,
        arg: String,
        prefix: String,
        bits: u32,
        bursts: &'static str,
    },
    #[error(
        "kernel `{kernel}`: `{arg}` has {bits}-bit elements; on the board a global pointer's \
         element must be a power of two of whole bytes (8, 16, 32, 64, 128... bits) so that \
         it never straddles a memory word; pass a struct of another size as bytes for now"
    )]
    ElementWidth {
        kernel: String,
        arg: String,
        bits: u32,
    },
    #[error("port `{0}` of the module has no connection on the board (not a kernel's control, argument or memory port)")]
    UnknownPort(String),
}

/// Memory channel suffixes and the direction they have on the kernel.
const MEM_SUFFIXES: [(&str, PortDir); 24] = [
    ("rreq_valid", PortDir::Out),
    ("rreq_ready", PortDir::In),
    ("rreq_addr", PortDir::Out),
    ("rresp_valid", PortDir::In),
    ("rresp_ready", PortDir::Out),
    ("rresp_data", PortDir::In),
    ("wreq_valid", PortDir::Out),
    ("wreq_ready", PortDir::In),
    ("wreq_addr", PortDir::Out),
    ("wreq_data", PortDir::Out),
    ("wreq_strb", PortDir::Out),
    ("wresp_valid", PortDir::In),
    ("wresp_ready", PortDir::Out),
    ("rreq_len", PortDir::Out),
    ("rresp_last", PortDir::In),
    ("wreq_len", PortDir::Out),
    ("wdata_valid", PortDir::Out),
    ("wdata_ready", PortDir::In),
    ("wdata_data", PortDir::Out),
    ("wdata_strb", PortDir::Out),
    ("wdata_last", PortDir::Out),
    ("rreq_op", PortDir::Out),
    ("rreq_operand", PortDir::Out),
    ("rreq_compare", PortDir::Out),
];

/// Who a core port belongs to: `(bank owner, prefix, rest)`.
fn owner<'a>(spec: &'a CoreSpec, port: &'a str) -> Option<(&'a str, &'a str, &'a str)> {
    if !spec.system {
        return spec.kernels.first().map(|k| (k.as_str(), "", port));
    }
    for k in &spec.kernels {
        if let Some(rest) = port
            .strip_prefix(k.as_str())
            .and_then(|r| r.strip_prefix("__"))
        {
            return Some((k.as_str(), &port[..k.len() + 2], rest));
        }
    }
    if let Some(rest) = port.strip_prefix("counters__") {
        return Some(("counters", "counters__", rest));
    }
    None
}

/// The register map and memory ports of `spec` (see the module docs).
pub fn plan(spec: &CoreSpec) -> Result<SocPlan, SocError> {
    let names: BTreeSet<&str> = spec.ports.iter().map(|p| p.name.as_str()).collect();
    let has = |n: &str| names.contains(n);
    // Memory ports: every `<prefix>_rreq_valid` / `_wreq_valid` output.
    let mut mem_prefixes: Vec<String> = Vec::new();
    for p in &spec.ports {
        for s in ["_rreq_valid", "_wreq_valid", "_wdata_valid"] {
            if let Some(pre) = p.name.strip_suffix(s) {
                if !mem_prefixes.iter().any(|m| m == pre) {
                    mem_prefixes.push(pre.to_string());
                }
            }
        }
    }
    let width_of = |n: &str| spec.ports.iter().find(|p| p.name == n).map(|p| p.width);
    let mut mem_ports = Vec::new();
    let mut clients = Vec::new();
    for pre in &mem_prefixes {
        let (kernel, _, arg) = owner(spec, pre).unwrap_or(("?", "", pre));
        let read = has(&format!("{pre}_rreq_valid"));
        let write = has(&format!("{pre}_wreq_valid"));
        let wburst = has(&format!("{pre}_wdata_valid"));
        let rburst = has(&format!("{pre}_rreq_len"));
        let bits = width_of(&format!("{pre}_rresp_data"))
            .or_else(|| width_of(&format!("{pre}_wreq_data")))
            .or_else(|| width_of(&format!("{pre}_wdata_data")))
            .unwrap_or(0);
        if bits < 8 || !bits.is_power_of_two() {
            return Err(SocError::ElementWidth {
                kernel: kernel.to_string(),
                arg: arg.to_string(),
                bits,
            });
        }
        let atomic = has(&format!("{pre}_rreq_op"));
        if atomic {
            if !(bits == 32 || bits == 64) || rburst {
                return Err(SocError::AtomicPort {
                    kernel: kernel.to_string(),
                    arg: arg.to_string(),
                    prefix: pre.clone(),
                    bits,
                    bursts: if rburst { " and read bursts" } else { "" },
                });
            }
            clients.push(AtomicClient {
                prefix: pre.clone(),
                element_bits: bits,
                compare: has(&format!("{pre}_rreq_compare")),
            });
            if !write {
                continue;
            }
        }
        mem_ports.push(MemPort {
            index: mem_ports.len(),
            prefix: pre.clone(),
            element_bits: bits,
            data_bits: SDRAM_NATIVE_BITS,
            read: read && !atomic,
            write,
            strb: has(&format!("{pre}_wreq_strb")) || has(&format!("{pre}_wdata_strb")),
            rburst,
            wburst,
        });
    }
    let atomic_unit = (!clients.is_empty()).then(|| AtomicUnit {
        index: mem_ports.len(),
        data_bits: SDRAM_NATIVE_BITS,
        word_bits: clients.iter().map(|c| c.element_bits).max().unwrap_or(32),
        clients,
    });
    let is_mem = |n: &str| {
        mem_prefixes.iter().any(|pre| {
            n.strip_prefix(pre.as_str())
                .and_then(|r| r.strip_prefix('_'))
                .is_some_and(|s| MEM_SUFFIXES.iter().any(|(m, _)| *m == s))
        })
    };

    let mut banks: Vec<KernelRegs> = Vec::new();
    for k in &spec.kernels {
        let prefix = if spec.system {
            format!("{k}__")
        } else {
            String::new()
        };
        bank_index(&mut banks, spec, k, &prefix);
    }
    let mut unconnected = Vec::new();
    for p in &spec.ports {
        let n = p.name.as_str();
        if n == "clk" || n == "rst" || is_mem(n) {
            continue;
        }
        let Some((kernel, prefix, rest)) = owner(spec, n) else {
            if spec.system && n.starts_with("pipe__") && p.dir == PortDir::Out {
                unconnected.push(n.to_string());
                continue;
            }
            return Err(SocError::UnknownPort(n.to_string()));
        };
        let b = bank_index(&mut banks, spec, kernel, prefix);
        match (p.dir, rest) {
            (PortDir::In, "start") | (PortDir::Out, "busy") | (PortDir::Out, "done")
                if banks[b].launchable => {}
            (PortDir::In, _) => {
                let words = p.width.div_ceil(32);
                for w in 0..words {
                    let name = if words == 1 {
                        rest.to_string()
                    } else {
                        format!("{rest}_w{w}")
                    };
                    let doc = input_doc(rest, w, words, p.width);
                    banks[b]
                        .registers
                        .push(reg(&name, Access::Rw, Some(n), w, &doc));
                }
            }
            (PortDir::Out, _) => unconnected.push(n.to_string()),
        }
    }
    for b in &mut banks {
        for (i, r) in b.registers.iter_mut().enumerate() {
            r.offset = 4 * i as u32;
        }
    }
    Ok(SocPlan {
        core_module: spec.module.clone(),
        banks,
        mem_ports,
        atomic_unit,
        unconnected,
    })
}

/// The bank of `kernel`, made (with the control word and cycle counter of a launchable
/// kernel) if it is not there yet.
fn bank_index(banks: &mut Vec<KernelRegs>, spec: &CoreSpec, kernel: &str, prefix: &str) -> usize {
    if let Some(i) = banks.iter().position(|b| b.kernel == kernel) {
        return i;
    }
    let launchable = spec.kernels.iter().any(|k| k == kernel);
    let mut registers = Vec::new();
    if launchable {
        registers.push(reg("ctrl", Access::Ctrl, None, 0, CTRL_DOC));
        registers.push(reg("cycles_lo", Access::Ro, None, 0, CYCLES_DOC));
        registers.push(reg("cycles_hi", Access::Ro, None, 1, CYCLES_DOC));
    }
    banks.push(KernelRegs {
        kernel: kernel.to_string(),
        bank: format!("k_{kernel}"),
        prefix: prefix.to_string(),
        launchable,
        registers,
    });
    banks.len() - 1
}

const CTRL_DOC: &str = "write 1 to bit 0: start (ignored while busy); read: bit 0 busy, \
                        bit 1 done (since the last start), bit 2 idle";
const CYCLES_DOC: &str = "clock cycles of the last (or current) run, 64 bits";

fn reg(name: &str, access: Access, port: Option<&str>, word: u32, doc: &str) -> Register {
    Register {
        name: name.to_string(),
        offset: 0,
        access,
        port: port.map(str::to_string),
        word,
        doc: doc.to_string(),
    }
}

fn input_doc(rest: &str, word: u32, words: u32, width: u32) -> String {
    let what = if let Some(a) = rest.strip_prefix("arg_") {
        format!("argument `{a}` (a buffer's byte address in SDRAM for a pointer)")
    } else if rest.starts_with("global_size_")
        || rest.starts_with("local_size_")
        || rest.starts_with("global_offset_")
        || rest == "work_dim"
    {
        format!("NDRange `{rest}`")
    } else {
        format!("input `{rest}`")
    };
    if words == 1 {
        format!("{what}, {width} bits")
    } else {
        let hi = (32 * word + 31).min(width - 1);
        format!("{what}, bits {hi}:{}", 32 * word)
    }
}

/// The board's global registers (bank `oclhls`), in map order: `(name, offset, doc)`.
pub const GLOBAL_REGISTERS: [(&str, u32, &str); 4] = [
    ("magic", 0x0, "0x4f434c48 (`OCLH`)"),
    (
        "build_id",
        0x4,
        "FNV-1a hash of the core's Verilog: the host refuses another bitstream",
    ),
    ("kernels", 0x8, "number of kernel banks"),
    ("clock_hz", 0xc, "the kernels' clock in Hz"),
];

/// 32-bit FNV-1a over `parts` (the build id: deterministic, no dependency).
pub fn build_id<I: IntoIterator<Item = B>, B: AsRef<[u8]>>(parts: I) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for p in parts {
        for &b in p.as_ref() {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
        // Separate the parts, so that moving bytes between them changes the id.
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
mod tests;
