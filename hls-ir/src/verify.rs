//! The IR verifier. Runs after every pass in debug and test builds.
//!
//! Checks, in order: ids and edges (every edge's ends exist, operand indices are dense),
//! arity, widths (operand and result types agree with the op; arithmetic at most 64 bits,
//! wider values only through bit plumbing), a single driver per operand, the
//! loop structure (values flow into loops, and out only through `LoopResult`; one `Loop` and
//! one `LoopExit` per loop), and acyclicity of the graph once loop-carried edges
//! (distance > 0) are removed.

use crate::ids::{LoopId, OpId};
use crate::kernel::{Dep, Kernel, Op};
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
        check_op(k, id, &mut errors);
    }
    check_loops(k, &ids, &mut errors);
    check_acyclic(k, &ids, &mut errors);
    check_read_runs(k, &mut errors);
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

/// `Kernel::read_runs`: a global load and an integer op of its loop, ordered before it (the
/// read's request carries the value).
fn check_read_runs(k: &Kernel, errors: &mut Vec<String>) {
    for (&l, &r) in &k.read_runs {
        let global = |o: OpId| {
            k.contains(o)
                && matches!(k.op(o).kind, OpKind::Load { mem }
                    if matches!(k.mem(mem).kind, crate::kernel::MemKind::Global { .. }))
        };
        let ok = global(l)
            && k.contains(r)
            && k.op(r).region == k.op(l).region
            && matches!(k.op(r).ty, crate::types::Ty::Int(2..=64))
            && k.preds(l).iter().any(|&(p, _)| p == r);
        if !ok {
            errors.push(format!(
                "read run {l} -> {r}: not a global load and an integer op of its loop before it"
            ));
        }
    }
}

/// The checks of one op: its region, operand indices (dense and single-driven), arity, widths
/// and types, and its predicate.
fn check_op(k: &Kernel, id: OpId, errors: &mut Vec<String>) {
    let op = k.op(id);
    if op.region.index() >= k.loops.len() {
        errors.push(format!("{id}: region {} does not exist", op.region));
    }
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
            return;
        }
    }
    let mut c = OpCheck {
        k,
        id,
        op,
        operands: &operands,
        errors,
    };
    c.widths();
    match &op.kind {
        OpKind::Load { .. } | OpKind::Store { .. } | OpKind::Atomic { .. } | OpKind::Arg(_) => {
            c.memory()
        }
        OpKind::PipeRead { .. }
        | OpKind::PipeWrite { .. }
        | OpKind::PipeReserve { .. }
        | OpKind::PipeCommit { .. }
        | OpKind::PipeQuery { .. } => c.pipe(),
        OpKind::CounterUpdate { counter, .. } => {
            let ok = k
                .counters
                .get(*counter)
                .is_some_and(|ctr| op.ty == Ty::Int(ctr.bits as u16));
            c.check(ok, "is not an update of an existing counter, as wide as it");
        }
        _ => c.types(),
    }
    if op.kind.is_predicated() {
        if let Some(p) = operands.last() {
            if k.op(*p).ty != Ty::BOOL {
                errors.push(format!(
                    "{id}: predicate operand {p} is {} not i1",
                    k.op(*p).ty
                ));
            }
        }
    }
}

/// One op under check, collecting what is wrong with it.
struct OpCheck<'a> {
    k: &'a Kernel,
    id: OpId,
    op: &'a Op,
    operands: &'a [OpId],
    errors: &'a mut Vec<String>,
}

impl OpCheck<'_> {
    fn check(&mut self, cond: bool, what: &str) {
        if !cond {
            self.errors
                .push(format!("{}: {} {what}", self.id, self.op.kind));
        }
    }

    fn ty(&self, o: OpId) -> Ty {
        self.k.op(o).ty
    }

    /// Arithmetic at most 64 bits wide; no value wider than the widest.
    fn widths(&mut self) {
        let op = self.op;
        let arith = matches!(
            op.kind,
            OpKind::Binary(_) | OpKind::Unary(_) | OpKind::Cmp(_)
        ) || matches!(op.kind, OpKind::Convert(c) if c != ConvOp::Bitcast);
        if arith
            && (op.ty.bits() > Ty::MAX_ARITH_BITS
                || self
                    .operands
                    .iter()
                    .any(|&o| self.ty(o).bits() > Ty::MAX_ARITH_BITS))
        {
            self.check(false, "computes on a value wider than 64 bits");
        }
        if op.ty.bits() > Ty::MAX_BITS {
            self.check(false, "has a type wider than the widest value");
        }
    }

    /// Operand and result types of computing ops and bit plumbing.
    fn types(&mut self) {
        let (op, operands) = (self.op, self.operands);
        let me = self;
        match &op.kind {
            OpKind::Extract { lo } => me.check(
                op.ty != Ty::Token
                    && me.ty(operands[0]) != Ty::Token
                    && lo + op.ty.bits() <= me.ty(operands[0]).bits(),
                "selects bits outside its operand",
            ),
            OpKind::Concat => me.check(
                !operands.is_empty()
                    && operands.iter().all(|&o| me.ty(o) != Ty::Token)
                    && matches!(op.ty, Ty::Int(_))
                    && operands.iter().map(|&o| me.ty(o).bits()).sum::<u32>() == op.ty.bits(),
                "result is not an integer as wide as its parts together",
            ),
            OpKind::Const(v) => me.check(
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
                me.check(
                    op.ty.is_float() == float,
                    "result type does not match the operation",
                );
                match b {
                    // Shift amounts may have any width.
                    BinOp::Shl | BinOp::ShrU | BinOp::ShrS => me.check(
                        me.ty(operands[0]) == op.ty,
                        "operand type differs from result",
                    ),
                    _ => me.check(
                        me.ty(operands[0]) == op.ty && me.ty(operands[1]) == op.ty,
                        "operand types differ from result",
                    ),
                }
            }
            OpKind::Unary(u) => {
                let float = matches!(u, UnOp::FNeg | UnOp::FAbs | UnOp::FSqrt);
                me.check(
                    op.ty.is_float() == float && me.ty(operands[0]) == op.ty,
                    "operand/result type mismatch",
                );
            }
            OpKind::Cmp(_) => me.check(
                op.ty == Ty::BOOL && me.ty(operands[0]) == me.ty(operands[1]),
                "compares different types or does not yield i1",
            ),
            OpKind::Select => me.check(
                me.ty(operands[0]) == Ty::BOOL
                    && me.ty(operands[1]) == op.ty
                    && me.ty(operands[2]) == op.ty,
                "condition not i1 or arms differ from result",
            ),
            OpKind::Convert(c) => {
                let (from, to) = (me.ty(operands[0]), op.ty);
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
                me.check(ok, &format!("cannot convert {from} to {to}"));
            }
            _ => {}
        }
    }

    /// Loads, stores and arguments: the memory or argument they name exists and matches.
    fn memory(&mut self) {
        let (op, operands, k) = (self.op, self.operands, self.k);
        let me = self;
        match &op.kind {
            OpKind::Load { mem } => {
                me.check(
                    mem.index() < k.mems.len(),
                    "names a memory that does not exist",
                );
                if mem.index() < k.mems.len() {
                    me.check(
                        op.ty == k.mem(*mem).elem,
                        "type differs from the memory's element type",
                    );
                }
                me.check(me.ty(operands[0]) == Ty::I32, "address is not i32");
            }
            OpKind::Store { mem, mask } => {
                me.check(
                    mem.index() < k.mems.len(),
                    "names a memory that does not exist",
                );
                if mem.index() < k.mems.len() {
                    let elem = k.mem(*mem).elem;
                    me.check(
                        me.ty(operands[1]) == elem,
                        "data type differs from the memory's element type",
                    );
                    if let Some(m) = mask {
                        me.check(
                            m.0.len() as u32 == elem.bits().div_ceil(8) && m.0.iter().any(|&b| b),
                            "byte mask does not fit the element or writes nothing",
                        );
                    }
                }
                me.check(me.ty(operands[0]) == Ty::I32, "address is not i32");
                me.check(op.ty == Ty::Token, "store must yield a token");
            }
            OpKind::Atomic { mem, op: aop } => {
                me.check(
                    mem.index() < k.mems.len(),
                    "names a memory that does not exist",
                );
                if mem.index() < k.mems.len() {
                    let elem = k.mem(*mem).elem;
                    me.check(op.ty == elem, "type differs from the memory's element type");
                    me.check(
                        matches!(elem.bits(), 32 | 64),
                        "atomics are on 32- or 64-bit elements",
                    );
                    let values = if *aop == crate::ops::AtomicOp::CmpXchg {
                        2
                    } else {
                        1
                    };
                    for &v in &operands[1..=values] {
                        me.check(
                            me.ty(v) == elem,
                            "operand type differs from the memory's element type",
                        );
                    }
                }
                me.check(me.ty(operands[0]) == Ty::I32, "address is not i32");
            }
            OpKind::Arg(a) => me.check(
                a.index() < k.args.len(),
                "names an argument that does not exist",
            ),
            _ => {}
        }
    }

    /// Pipe ops: the pipe exists, is used on its side, and the widths match its packets.
    fn pipe(&mut self) {
        let (op, operands, k) = (self.op, self.operands, self.k);
        let me = self;
        match &op.kind {
            OpKind::PipeRead { pipe, reserved, .. } | OpKind::PipeWrite { pipe, reserved, .. } => {
                let read = matches!(op.kind, OpKind::PipeRead { .. });
                me.check(
                    pipe.index() < k.pipes.len(),
                    "names a pipe that does not exist",
                );
                if pipe.index() < k.pipes.len() {
                    let p = &k.pipes[*pipe];
                    let w = p.packet_bits as u16;
                    let side = if read {
                        PipeSide::Read
                    } else {
                        PipeSide::Write
                    };
                    me.check(p.side == side, "accesses the pipe on its other side");
                    if read {
                        me.check(op.ty == Ty::Int(w + 1), "is not status + packet wide");
                    } else {
                        me.check(op.ty == Ty::BOOL, "status is not i1");
                        let d = operands.len().saturating_sub(2);
                        me.check(
                            me.ty(operands[d]) == Ty::Int(w),
                            "packet is not the pipe's width",
                        );
                    }
                }
                if *reserved {
                    me.check(me.ty(operands[0]) == Ty::I32, "reserve id is not i32");
                    me.check(me.ty(operands[1]) == Ty::I32, "slot index is not i32");
                }
            }
            OpKind::PipeReserve { pipe, side, .. } | OpKind::PipeCommit { pipe, side, .. } => {
                me.check(
                    pipe.index() < k.pipes.len(),
                    "names a pipe that does not exist",
                );
                if pipe.index() < k.pipes.len() {
                    me.check(k.pipes[*pipe].side == *side, "names the pipe's other side");
                }
                me.check(
                    me.ty(operands[0]) == Ty::I32,
                    "count or reserve id is not i32",
                );
                let want = if matches!(op.kind, OpKind::PipeReserve { .. }) {
                    Ty::I32
                } else {
                    Ty::Token
                };
                me.check(op.ty == want, "has the wrong result type");
            }
            OpKind::PipeQuery { pipe, .. } => {
                me.check(
                    pipe.index() < k.pipes.len(),
                    "names a pipe that does not exist",
                );
                me.check(op.ty == Ty::I32, "is not i32");
            }
            _ => {}
        }
    }
}

/// Acyclic once loop-carried edges are removed (Kahn's algorithm over distance-0 edges).
fn check_acyclic(k: &Kernel, ids: &[OpId], errors: &mut Vec<String>) {
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
                // The initial value is read by the parent when the loop starts.
                if let Some(&init) = k.operands(id).first() {
                    let init_op = k.op(init);
                    if init_op.region == region && !init_op.kind.is_launch_invariant() {
                        errors.push(format!(
                            "{id}: initial value {init} is computed inside the loop {region}"
                        ));
                    }
                }
            }
            OpKind::Loop(l) => {
                if l.index() >= k.loops.len() || k.loops[*l].parent != Some(region) {
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
        if let Some(r) = &l.rows {
            let in_loop = |o: crate::ids::OpId| {
                k.contains(o)
                    && k.op(o).region.index() == i
                    && k.op(o).ty == crate::types::Ty::BOOL
                    && k.op(o).kind == crate::ops::OpKind::Carried
            };
            let bool_op =
                |o: crate::ids::OpId| k.contains(o) && k.op(o).ty == crate::types::Ty::BOOL;
            if !r.flags.iter().all(|&f| in_loop(f)) || !bool_op(r.next) {
                errors.push(format!(
                    "loop{i}'s rows name {:?} and {}, not carried i1s of the loop and an i1",
                    r.flags, r.next
                ));
            }
        }
    }
}
