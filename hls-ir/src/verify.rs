//! The IR verifier. Runs after every pass in debug and test builds.
//!
//! Checks, in order: ids and edges (every edge's ends exist, operand indices are dense),
//! arity, widths (operand and result types agree with the op; arithmetic at most 64 bits,
//! wider values only through bit plumbing), a single driver per operand, the
//! loop structure (values flow into loops, and out only through `LoopResult`; one `Loop` and
//! one `LoopExit` per loop), and acyclicity of the graph once loop-carried edges
//! (distance > 0) are removed.

use crate::ids::{LoopId, OpId};
use crate::kernel::{Dep, Kernel};
use crate::ops::{BinOp, ConvOp, OpKind, PipeSide, UnOp};
use crate::types::Ty;

#[derive(Debug, thiserror::Error)]
#[error("IR verification failed for kernel `{kernel}`{}:\n{}", if .after.is_empty() { String::new() } else { format!(" after pass `{}`", .after) }, .errors.join("\n"))]
pub struct VerifyError {
    pub kernel: String,
    pub after: String,
    pub errors: Vec<String>,
}

pub fn verify(k: &Kernel) -> Result<(), VerifyError> {
    let mut errors = Vec::new();
    let ids = k.op_ids();
    for &id in &ids {
        let op = k.op(id);
        if op.region.index() >= k.loops.len() {
            errors.push(format!("{id}: region {} does not exist", op.region));
        }
        // Operand indices: dense and single-driven.
        let mut seen: Vec<u8> = k
            .preds(id)
            .iter()
            .filter_map(|(_, d)| match d {
                Dep::Data { operand, .. } => Some(*operand),
                _ => None,
            })
            .collect();
        seen.sort();
        for (i, o) in seen.iter().enumerate() {
            if *o as usize != i {
                errors.push(format!(
                    "{id}: operand {i} missing or driven twice ({seen:?})"
                ));
                break;
            }
        }
        let operands = k.operands(id);
        if let Some(n) = op.kind.arity() {
            if operands.len() != n {
                errors.push(format!(
                    "{id}: `{}` takes {n} operands, has {}",
                    op.kind,
                    operands.len()
                ));
                continue;
            }
        }
        let ty = |o: OpId| k.op(o).ty;
        let mut check = |cond: bool, what: &str| {
            if !cond {
                errors.push(format!("{id}: {} {what}", op.kind));
            }
        };
        let arith = matches!(
            op.kind,
            OpKind::Binary(_) | OpKind::Unary(_) | OpKind::Cmp(_)
        ) || matches!(op.kind, OpKind::Convert(c) if c != ConvOp::Bitcast);
        if arith
            && (op.ty.bits() > Ty::MAX_ARITH_BITS
                || operands.iter().any(|&o| ty(o).bits() > Ty::MAX_ARITH_BITS))
        {
            check(false, "computes on a value wider than 64 bits");
        }
        if op.ty.bits() > Ty::MAX_BITS {
            check(false, "has a type wider than the widest value");
        }
        match &op.kind {
            OpKind::Extract { lo } => check(
                op.ty != Ty::Token
                    && ty(operands[0]) != Ty::Token
                    && lo + op.ty.bits() <= ty(operands[0]).bits(),
                "selects bits outside its operand",
            ),
            OpKind::Concat => check(
                !operands.is_empty()
                    && operands.iter().all(|&o| ty(o) != Ty::Token)
                    && matches!(op.ty, Ty::Int(_))
                    && operands.iter().map(|&o| ty(o).bits()).sum::<u32>() == op.ty.bits(),
                "result is not an integer as wide as its parts together",
            ),
            OpKind::Const(v) => check(
                op.ty.bits() >= 64 || v & !op.ty.mask() == 0,
                "constant wider than its type",
            ),
            OpKind::Binary(b) => {
                let float = matches!(
                    b,
                    BinOp::FAdd
                        | BinOp::FSub
                        | BinOp::FMul
                        | BinOp::FDiv
                        | BinOp::FMin
                        | BinOp::FMax
                );
                check(
                    op.ty.is_float() == float,
                    "result type does not match the operation",
                );
                match b {
                    // Shift amounts may have any width.
                    BinOp::Shl | BinOp::ShrU | BinOp::ShrS => {
                        check(ty(operands[0]) == op.ty, "operand type differs from result")
                    }
                    _ => check(
                        ty(operands[0]) == op.ty && ty(operands[1]) == op.ty,
                        "operand types differ from result",
                    ),
                }
            }
            OpKind::Unary(u) => {
                let float = matches!(u, UnOp::FNeg | UnOp::FAbs | UnOp::FSqrt);
                check(
                    op.ty.is_float() == float && ty(operands[0]) == op.ty,
                    "operand/result type mismatch",
                );
            }
            OpKind::Cmp(_) => check(
                op.ty == Ty::BOOL && ty(operands[0]) == ty(operands[1]),
                "compares different types or does not yield i1",
            ),
            OpKind::Select => check(
                ty(operands[0]) == Ty::BOOL && ty(operands[1]) == op.ty && ty(operands[2]) == op.ty,
                "condition not i1 or arms differ from result",
            ),
            OpKind::Convert(c) => {
                let (from, to) = (ty(operands[0]), op.ty);
                let ok = match c {
                    ConvOp::Trunc => !from.is_float() && !to.is_float() && to.bits() < from.bits(),
                    ConvOp::ZExt | ConvOp::SExt => {
                        !from.is_float() && !to.is_float() && to.bits() > from.bits()
                    }
                    ConvOp::Bitcast => from.bits() == to.bits(),
                    ConvOp::SIToF | ConvOp::UIToF => !from.is_float() && to.is_float(),
                    ConvOp::FToSI { .. } | ConvOp::FToUI { .. } => {
                        from.is_float() && !to.is_float()
                    }
                    ConvOp::FExt => from.is_float() && to.is_float() && to.bits() > from.bits(),
                    ConvOp::FTrunc => from.is_float() && to.is_float() && to.bits() < from.bits(),
                };
                check(ok, &format!("cannot convert {from} to {to}"));
            }
            OpKind::Load { mem } => {
                check(
                    mem.index() < k.mems.len(),
                    "names a memory that does not exist",
                );
                if mem.index() < k.mems.len() {
                    check(
                        op.ty == k.mem(*mem).elem,
                        "type differs from the memory's element type",
                    );
                }
                check(ty(operands[0]) == Ty::I32, "address is not i32");
            }
            OpKind::Store { mem, mask } => {
                check(
                    mem.index() < k.mems.len(),
                    "names a memory that does not exist",
                );
                if mem.index() < k.mems.len() {
                    let elem = k.mem(*mem).elem;
                    check(
                        ty(operands[1]) == elem,
                        "data type differs from the memory's element type",
                    );
                    if let Some(m) = mask {
                        check(
                            m.0.len() as u32 == elem.bits().div_ceil(8) && m.0.iter().any(|&b| b),
                            "byte mask does not fit the element or writes nothing",
                        );
                    }
                }
                check(ty(operands[0]) == Ty::I32, "address is not i32");
                check(op.ty == Ty::Token, "store must yield a token");
            }
            OpKind::Arg(a) => check(
                a.index() < k.args.len(),
                "names an argument that does not exist",
            ),
            OpKind::PipeRead { pipe, reserved, .. } | OpKind::PipeWrite { pipe, reserved, .. } => {
                let read = matches!(op.kind, OpKind::PipeRead { .. });
                check(
                    pipe.index() < k.pipes.len(),
                    "names a pipe that does not exist",
                );
                if pipe.index() < k.pipes.len() {
                    let p = &k.pipes[pipe.index()];
                    let w = p.packet_bits as u16;
                    let side = if read {
                        PipeSide::Read
                    } else {
                        PipeSide::Write
                    };
                    check(p.side == side, "accesses the pipe on its other side");
                    if read {
                        check(op.ty == Ty::Int(w + 1), "is not status + packet wide");
                    } else {
                        check(op.ty == Ty::BOOL, "status is not i1");
                        let d = operands.len().saturating_sub(2);
                        check(
                            ty(operands[d]) == Ty::Int(w),
                            "packet is not the pipe's width",
                        );
                    }
                }
                if *reserved {
                    check(ty(operands[0]) == Ty::I32, "reserve id is not i32");
                    check(ty(operands[1]) == Ty::I32, "slot index is not i32");
                }
            }
            OpKind::PipeReserve { pipe, side, .. } | OpKind::PipeCommit { pipe, side, .. } => {
                check(
                    pipe.index() < k.pipes.len(),
                    "names a pipe that does not exist",
                );
                if pipe.index() < k.pipes.len() {
                    check(
                        k.pipes[pipe.index()].side == *side,
                        "names the pipe's other side",
                    );
                }
                check(ty(operands[0]) == Ty::I32, "count or reserve id is not i32");
                let want = if matches!(op.kind, OpKind::PipeReserve { .. }) {
                    Ty::I32
                } else {
                    Ty::Token
                };
                check(op.ty == want, "has the wrong result type");
            }
            OpKind::PipeQuery { pipe, .. } => {
                check(
                    pipe.index() < k.pipes.len(),
                    "names a pipe that does not exist",
                );
                check(op.ty == Ty::I32, "is not i32");
            }
            _ => {}
        }
        if op.kind.is_predicated() {
            if let Some(p) = operands.last() {
                if ty(*p) != Ty::BOOL {
                    errors.push(format!("{id}: predicate operand {p} is {} not i1", ty(*p)));
                }
            }
        }
    }
    check_loops(k, &ids, &mut errors);
    // Acyclic once loop-carried edges are removed (Kahn's algorithm over distance-0 edges).
    let bound = k.op_bound();
    let mut indeg = vec![0usize; bound];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); bound];
    for (s, t, d) in k.edges() {
        if d.distance() == 0 {
            indeg[t.index()] += 1;
            succ[s.index()].push(t.index());
        }
    }
    let mut stack: Vec<usize> = ids
        .iter()
        .map(|i| i.index())
        .filter(|&i| indeg[i] == 0)
        .collect();
    let mut visited = 0;
    while let Some(n) = stack.pop() {
        visited += 1;
        for &t in &succ[n] {
            indeg[t] -= 1;
            if indeg[t] == 0 {
                stack.push(t);
            }
        }
    }
    if visited != ids.len() {
        errors.push(format!(
            "the graph has a cycle of distance 0 through {} ops",
            ids.len() - visited
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyError {
            kernel: k.name.clone(),
            after: String::new(),
            errors,
        })
    }
}

fn check_loops(k: &Kernel, ids: &[OpId], errors: &mut Vec<String>) {
    let mut loop_ops = vec![0u32; k.loops.len()];
    let mut exits = vec![0u32; k.loops.len()];
    for &id in ids {
        let op = k.op(id);
        let region = op.region;
        if region.index() >= k.loops.len() {
            continue;
        }
        for (src, dep) in k.preds(id) {
            let from = k.op(src).region;
            if from.index() >= k.loops.len() {
                continue;
            }
            let ok = match (&op.kind, dep) {
                // The next value of a carried variable: same loop, one iteration later.
                (
                    OpKind::Carried,
                    Dep::Data {
                        operand: 1,
                        distance,
                    },
                ) => distance == 1 && k.encloses(from, region),
                // The value leaving a loop: from the loop (or anything it can see).
                (OpKind::LoopResult, Dep::Data { operand: 1, .. }) => {
                    k.loops.iter().enumerate().any(|(l, lp)| {
                        lp.parent == Some(region) && k.encloses(from, LoopId::from_index(l))
                    })
                }
                // Constants and launch-wide values are the same everywhere.
                _ if k.op(src).kind.is_launch_invariant() => dep.distance() == 0,
                // Order (memory, side effects) may link any two regions: the scheduler keeps
                // it between the ops, or the loops, that stand for them in a common region.
                (_, Dep::Order { .. }) => true,
                // Loop-carried order within one region (e.g. side effects kept in order from one
                // iteration to the next); values only flow inwards.
                _ => (dep.distance() == 0 || from == region) && k.encloses(from, region),
            };
            if !ok {
                errors.push(format!(
                    "{id}: operand {src} comes from {from}, which {id} in {region} cannot see"
                ));
            }
        }
        match &op.kind {
            OpKind::Carried => {
                if region == Kernel::WORK_ITEM_LOOP {
                    errors.push(format!("{id}: carried value in the work-item loop"));
                }
                if k.operands(id).iter().any(|&o| k.op(o).ty != op.ty) {
                    errors.push(format!("{id}: carried value's init/next types differ"));
                }
            }
            OpKind::Loop(l) => {
                if l.index() >= k.loops.len() || k.loops[l.index()].parent != Some(region) {
                    errors.push(format!("{id}: {l} is not a child of {region}"));
                } else {
                    loop_ops[l.index()] += 1;
                }
            }
            OpKind::LoopExit => exits[region.index()] += 1,
            OpKind::LoopResult => {
                let ops = k.operands(id);
                if ops.len() == 3 {
                    if !matches!(k.op(ops[0]).kind, OpKind::Loop(_)) {
                        errors.push(format!("{id}: first operand is not a loop"));
                    }
                    if k.op(ops[1]).ty != op.ty || k.op(ops[2]).ty != op.ty {
                        errors.push(format!("{id}: next/init types differ from the result"));
                    }
                }
            }
            _ => {}
        }
    }
    for (i, l) in k.loops.iter().enumerate().skip(1) {
        if l.parent.is_none() {
            errors.push(format!("loop{i} has no parent"));
        }
        if loop_ops[i] != 1 || exits[i] != 1 {
            errors.push(format!(
                "loop{i} has {} loop ops and {} exits (one each expected)",
                loop_ops[i], exits[i]
            ));
        }
    }
}
