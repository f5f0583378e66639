//! Text form of the IR, for `--print-ir` and snapshot tests. Deterministic: ops in id order.
//!
//! ```text
//! kernel vadd(arg0 a: global i32* mem0, arg1 b: global i32* mem1, arg2 c: global i32* mem2)
//! loop0 vadd.work_items (work-items)
//!   %0: i32 = global_id(0)                       ; vadd.cl:2
//!   %3: i32 = load mem0 %2, %1                    ; vadd.cl:3
//! ```
//!
//! On-chip memories follow the kernel line, with what array partitioning made of them:
//!
//! ```text
//! mem3 tile: local [64 x i32], 4 bytes apart -> banks mem5, mem6
//! ```
//!
//! then the atomic counters (`ctr0 hits: counter64 of arg2`).

use crate::kernel::{ArgKind, Dep, Kernel, LoopKind, MemKind, Partition};
use std::fmt::Write;

pub fn print_kernel(k: &Kernel, lines: &dyn Fn(frontend::span::Span) -> String) -> String {
    let mut s = String::new();
    let args: Vec<String> = k
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let kind = match &a.kind {
                ArgKind::Scalar(t) => t.to_string(),
                ArgKind::GlobalPtr(m) | ArgKind::LocalPtr(m) => {
                    let mem = k.mem(*m);
                    let space = match mem.kind {
                        MemKind::Global { constant: true, .. } => "constant",
                        MemKind::Global { .. } => "global",
                        MemKind::Local { .. } => "local",
                        MemKind::Private { .. } => "private",
                        MemKind::Program { .. } => "program",
                    };
                    format!("{space} {}* {m}", mem.elem)
                }
                ArgKind::Pipe(p) => format!("pipe {p}"),
                ArgKind::Counter(c) => format!("counter {c}"),
            };
            format!("arg{i} {}: {kind}", a.name)
        })
        .collect();
    let _ = writeln!(s, "kernel {}({})", k.name, args.join(", "));
    // On-chip memories, and what array partitioning made of them.
    for (i, m) in k.mems.iter().enumerate() {
        let (space, len) = match m.kind {
            MemKind::Local { len } => ("local", len),
            MemKind::Private { len } => ("private", len),
            MemKind::Program {
                len,
                constant: true,
            } => ("rom", len),
            MemKind::Program { len, .. } => ("program-scope", len),
            MemKind::Global { .. } => continue,
        };
        let id = crate::ids::MemId::from_index(i);
        let outcome = match k.partitions.iter().rev().find(|p| p.mem == id) {
            Some(p) => match &p.outcome {
                Partition::Registers { .. } => " -> registers".to_string(),
                Partition::Banks { banks, .. } => {
                    let b: Vec<String> = banks.iter().map(|b| b.to_string()).collect();
                    format!(" -> banks {}", b.join(", "))
                }
                Partition::Whole { loops, .. } if !loops.is_empty() => " (kept whole)".into(),
                Partition::Whole { .. } => String::new(),
            },
            None => String::new(),
        };
        let init = match k.mem_init.get(&id) {
            Some(b) => format!(
                ", initialised ({} non-zero bytes)",
                b.iter().filter(|&&x| x != 0).count()
            ),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{id} {}: {space} [{len} x {}], {} bytes apart{init}{outcome}",
            m.name, m.elem, m.elem_bytes
        );
    }
    // Atomic counters: a register each in hardware.
    for (i, c) in k.counters.iter().enumerate() {
        let id = crate::ids::CounterId::from_index(i);
        let _ = writeln!(
            s,
            "{id} {}: counter{} of arg{}",
            c.name,
            c.bits,
            c.arg.index()
        );
    }
    for (i, l) in k.loops.iter().enumerate() {
        let kind = match l.kind {
            LoopKind::WorkItems => "work-items".to_string(),
            LoopKind::Source => "source".to_string(),
            LoopKind::Phase => "phase: every work-item of the group".to_string(),
            LoopKind::Copy { detached: false } => {
                "async copy: one element per iteration".to_string()
            }
            LoopKind::Copy { detached: true } => {
                "async copy: one element per iteration, beside the code after it".to_string()
            }
        };
        let parent = l.parent.map(|p| format!(" in {p}")).unwrap_or_default();
        let _ = writeln!(s, "loop{i} {} ({kind}){parent}", l.name);
        for id in k.ops_in(crate::ids::LoopId::from_index(i)) {
            let op = k.op(id);
            let mut line = format!("  {id}: {} = {}", op.ty, op.kind);
            let preds = k.preds(id);
            let operands = k.operands(id);
            if !operands.is_empty() {
                let ops: Vec<String> = preds
                    .iter()
                    .filter_map(|(src, d)| match d {
                        Dep::Data { operand, distance } => Some((*operand, *src, *distance)),
                        _ => None,
                    })
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .map(|(_, src, dist)| {
                        if dist > 0 {
                            format!("{src}@-{dist}")
                        } else {
                            src.to_string()
                        }
                    })
                    .collect();
                let _ = write!(line, " {}", ops.join(", "));
            }
            let orders: Vec<String> = preds
                .iter()
                .filter_map(|(src, d)| match d {
                    Dep::Order { distance: 0 } => Some(format!("{src}")),
                    Dep::Order { distance } => Some(format!("{src}@-{distance}")),
                    _ => None,
                })
                .collect();
            if !orders.is_empty() {
                let _ = write!(line, " after {}", orders.join(", "));
            }
            if let Some(n) = &op.name {
                let _ = write!(line, " \"{n}\"");
            }
            let _ = writeln!(s, "{line:<56} ; {}", lines(op.span));
        }
    }
    s
}
