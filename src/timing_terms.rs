//! A timing path of the board system in kernel terms: the kernel, the operations (with their
//! source lines), the loops' control and the memory ports it runs through, read from the
//! hierarchical cell names nextpnr reports. The kernel generator names every value after its
//! OpenCL name and op id (`cmp_eq_v151`, `rtl_templates::namer`), the control of loop `i`
//! `l<i>_...` (the work-item loop's has no prefix), and a global port's logic after the
//! port's prefix (`stats_r3_rfifo`, `stats_rlocked`); Yosys and nextpnr keep those names as
//! prefixes of the cells they make (`cmp_eq_v151_c1_LUT4_A_Z`).

use crate::compile::{Compiled, CompiledKernel};
use hls_ir::{LoopId, OpId};

/// One place of a path inside a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    /// A value: its name in the Verilog (before `_v<id>`) and its op.
    Op(String, OpId),
    /// The control (valid bits, stall, start/exit) of a loop.
    Control(LoopId),
    /// The request or response logic of a global argument's read or write channel.
    Port { arg: String, write: bool },
}

/// Where `segment` (a cell's name inside kernel `k`'s module) is, if the names say.
fn place(k: &CompiledKernel, segment: &str) -> Option<Place> {
    for a in &k.rtl.interface.args {
        let Some(p) = &a.mem_prefix else { continue };
        if let Some(rest) = segment.strip_prefix(p.as_str()) {
            if rest.starts_with("_r") || rest.starts_with("_w") {
                return Some(Place::Port {
                    arg: a.name.clone(),
                    write: rest.starts_with("_w"),
                });
            }
        }
    }
    if let Some((i, _)) = segment
        .strip_prefix('l')
        .and_then(|r| r.split_once('_'))
        .and_then(|(n, rest)| Some((n.parse::<usize>().ok()?, rest)))
    {
        if i > 0 && i < k.ir.loops.len() {
            return Some(Place::Control(LoopId::from_index(i)));
        }
    }
    // `<name>_v<id>` followed by the end or `_`: the first such id.
    let mut from = 0;
    while let Some(at) = segment[from..].find("_v").map(|x| x + from) {
        let digits: String = segment[at + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let after = segment[at + 2 + digits.len()..].chars().next();
        if !digits.is_empty() && after.is_none_or(|c| c == '_') {
            let id = digits.parse::<usize>().ok()?;
            let op = OpId::from_index(id);
            if k.ir.op_ids().contains(&op) {
                return Some(Place::Op(segment[..at].to_string(), op));
            }
        }
        from = at + 2;
    }
    ["stall", "run", "v_c"]
        .iter()
        .any(|s| segment.starts_with(s))
        .then(|| Place::Control(LoopId::from_index(0)))
}

/// The kernel of the board core a cell is in, and its name inside the kernel's module:
/// `oclhls_board_core.u_core.<name>...` for a core of one kernel,
/// `oclhls_board_core.u_core.u_<module>.<name>...` in a system top.
fn locate<'c>(
    c: &'c Compiled,
    core_kernels: &[String],
    cell: &'c str,
) -> Option<(&'c CompiledKernel, &'c str)> {
    let rest = cell.split_once("u_core.")?.1;
    let first = |r: &'c str| r.split('.').next().unwrap_or(r);
    let kernels = || {
        c.kernels
            .iter()
            .filter(|k| core_kernels.contains(&k.ir.name))
    };
    for k in kernels() {
        if let Some(r) = rest.strip_prefix(&format!("u_{}.", k.rtl.interface.module)) {
            return Some((k, first(r)));
        }
    }
    match kernels().collect::<Vec<_>>().as_slice() {
        [k] => Some((k, first(rest))),
        _ => None,
    }
}

/// The path through `cells` (in path order) in kernel terms, when it runs inside a kernel of
/// the core (`core_kernels`, by name): "in kernel `k`: the read port of `stats` → `cmp_eq`
/// (line 45) → the control of loop `k.phase3` (line 42)".
pub fn describe(c: &Compiled, core_kernels: &[String], cells: &[String]) -> Option<String> {
    let mut kernel: Option<&CompiledKernel> = None;
    let mut places: Vec<Place> = Vec::new();
    for cell in cells {
        let Some((k, segment)) = locate(c, core_kernels, cell) else {
            continue;
        };
        if kernel.is_some_and(|kk| kk.ir.name != k.ir.name) {
            continue;
        }
        kernel = Some(k);
        if let Some(p) = place(k, segment) {
            if places.last() != Some(&p) && !places.contains(&p) {
                places.push(p);
            }
        }
    }
    let k = kernel?;
    if places.is_empty() {
        return None;
    }
    let line = |span| c.sm.line_col(span).0;
    let words: Vec<String> = places
        .iter()
        .map(|p| match p {
            Place::Op(name, op) => format!("`{name}` (line {})", line(k.ir.op(*op).span)),
            Place::Control(l) => {
                let lp = &k.ir.loops[*l];
                format!("the control of loop `{}` (line {})", lp.name, line(lp.span))
            }
            Place::Port { arg, write } => format!(
                "the {} port of `{arg}`",
                if *write { "write" } else { "read" }
            ),
        })
        .collect();
    Some(format!("in kernel `{}`: {}", k.ir.name, words.join(" -> ")))
}
