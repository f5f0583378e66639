//! The IR verifier. Runs after every pass in debug and test builds.
//!
//! Checks, in order: ids and edges (every edge's ends exist, operand indices are dense),
//! arity, widths (operand and result types agree with the op), a single driver per operand, and
//! acyclicity of the graph once loop-carried edges (distance > 0) are removed.

use crate::ids::OpId;
use crate::kernel::{Dep, Kernel};
use crate::ops::{BinOp, ConvOp, OpKind, UnOp};
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
        match &op.kind {
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
            OpKind::Store { mem } => {
                check(
                    mem.index() < k.mems.len(),
                    "names a memory that does not exist",
                );
                if mem.index() < k.mems.len() {
                    check(
                        ty(operands[1]) == k.mem(*mem).elem,
                        "data type differs from the memory's element type",
                    );
                }
                check(ty(operands[0]) == Ty::I32, "address is not i32");
                check(op.ty == Ty::Token, "store must yield a token");
            }
            OpKind::Arg(a) => check(
                a.index() < k.args.len(),
                "names an argument that does not exist",
            ),
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
