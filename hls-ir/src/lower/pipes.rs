//! Lowering of OpenCL pipes: pipe arguments (and Xilinx program-scope pipes) become the
//! kernel's [`Pipe`]s, and the pipe built-ins become `PipeRead`/`PipeWrite`/`PipeReserve`/
//! `PipeCommit`/`PipeQuery` ops (see `docs/hardware-interface.md`, "Pipes in a kernel").
//!
//! Packets: `read_pipe(p, ptr)` returns `Int(W + 1)` (status bit on top of the packet); the
//! packet goes to `*ptr` only when the read succeeded, so a failed read leaves the variable as
//! it was, exactly as the spec says. `ptr` may be `&variable` (a private scalar) or point into
//! memory (`&buf[i]`). Statuses become the spec's `int`: 0 on success, -1 on failure.
//!
//! Order: the ops of one pipe keep program order (an `Order` edge from each to the next), and
//! in a loop the last of an iteration precedes the first of the next (distance 1).

use super::{Lower, Val};
use crate::ids::{OpId, PipeId};
use crate::kernel::{ArgKind, KernelArg, Pipe};
use crate::ops::{BinOp, ConvOp, OpKind, PipeQuery, PipeSide, ReserveScope, RESERVE_ID_VALID_BIT};
use crate::types::Ty;
use crate::{Dep, LoopId};
use frontend::ast::{Access, Builtin, Expr, ExprKind, Type, VarId};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use std::collections::BTreeMap;

/// Reservation table entries per pipe side (`CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`; the
/// FIFO's `MAX_RES`) unless [`super::LowerOptions::max_reservations`] says otherwise.
pub use hwcontract::pipe::DEFAULT_MAX_RESERVATIONS as PIPE_MAX_RESERVATIONS;

/// How a pipe is named in the source: a parameter (of the kernel, or of an inlined helper
/// bound to the kernel's pipe) or a program-scope pipe, used for reading or writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum PipeKey {
    Var(VarId),
    /// A program-scope pipe (index into `Program::globals`), with the side: true = write.
    Global(u32, bool),
}

/// Per-kernel pipe state of the lowering.
#[derive(Default)]
pub(super) struct Pipes {
    pub(super) ids: BTreeMap<PipeKey, PipeId>,
    /// Pipe ops in program order, per pipe.
    pub(super) ops: BTreeMap<PipeId, Vec<OpId>>,
    /// The reservation being lowered is a retry loop's (`retry`): it blocks.
    pub(super) block_reserve: bool,
}

impl Lower<'_> {
    /// A pipe parameter of the kernel.
    pub(super) fn lower_pipe_param(&mut self, v: VarId, packet: &Type, access: Access) {
        let info = self.p.var(v);
        let (name, span) = (info.name.clone(), info.span);
        let side = match access {
            Access::WriteOnly => PipeSide::Write,
            _ => PipeSide::Read,
        };
        let blocking = info.param_attrs.pipe.blocking;
        let id = self.new_pipe(name.clone(), packet, side, None, blocking, span);
        self.k.args.push(KernelArg {
            name,
            kind: ArgKind::Pipe(id),
            span,
        });
        self.pipes.ids.insert(PipeKey::Var(v), id);
    }

    fn new_pipe(
        &mut self,
        name: String,
        packet: &Type,
        side: PipeSide,
        depth: Option<u32>,
        blocking: bool,
        span: Span,
    ) -> PipeId {
        // Any packet type travels as its memory image (scalars, vectors, structs).
        let bits = match packet {
            Type::Scalar(_) | Type::Vector(..) | Type::Struct(_) => self.image_ty(packet).bits(),
            _ => {
                self.unsupported(
                    span,
                    format!("a pipe of `{}` packets", self.p.type_name(packet)),
                );
                32
            }
        };
        let id = PipeId::from_index(self.k.pipes.len());
        let packet_type = self.p.type_name(packet);
        self.k.pipes.push(Pipe {
            name,
            packet_type,
            packet_bits: bits,
            side,
            depth,
            blocking,
            max_reservations: self.opts.max_reservations,
            span,
        });
        id
    }

    /// Binds the pipe parameters of an inlined helper to the caller's pipes. Returns true for
    /// an argument that is a pipe (it has no value).
    pub(super) fn bind_pipe_param(&mut self, param: VarId, arg: &Expr) -> bool {
        if !matches!(arg.ty, Type::Pipe { .. }) {
            return false;
        }
        if let ExprKind::Var(v) = strip(arg).kind {
            if let Some(&id) = self.pipes.ids.get(&PipeKey::Var(v)) {
                self.pipes.ids.insert(PipeKey::Var(param), id);
                return true;
            }
        }
        self.unsupported(arg.span, "passing this pipe to a helper function");
        true
    }

    /// The pipe a built-in's first argument names, for an operation on `side`.
    fn pipe_of(&mut self, e: &Expr, side: PipeSide) -> Option<PipeId> {
        let e = strip(e);
        match &e.kind {
            ExprKind::Var(v) => {
                if let Some(&id) = self.pipes.ids.get(&PipeKey::Var(*v)) {
                    if self.k.pipes[id].side != side {
                        self.unsupported(e.span, "this access to a pipe against its qualifier");
                        return None;
                    }
                    return Some(id);
                }
                self.unsupported(e.span, "this pipe");
                None
            }
            ExprKind::Global(g) => {
                if let Some(&id) = self
                    .pipes
                    .ids
                    .get(&PipeKey::Global(*g, side == PipeSide::Write))
                {
                    return Some(id);
                }
                let gv = &self.p.globals[*g as usize];
                let Type::Pipe { packet, .. } = &gv.ty else {
                    self.unsupported(e.span, "this pipe");
                    return None;
                };
                let depth = gv.pipe_attrs.depth;
                let (name, packet, span) = (gv.name.clone(), packet.as_ref().clone(), gv.span);
                let id = self.new_pipe(name, &packet, side, depth, false, span);
                self.pipes
                    .ids
                    .insert(PipeKey::Global(*g, side == PipeSide::Write), id);
                Some(id)
            }
            _ => {
                self.unsupported(
                    e.span,
                    "a pipe that is not a parameter or a program-scope pipe",
                );
                None
            }
        }
    }

    fn packet_ty(&self, p: PipeId) -> Ty {
        Ty::Int(self.k.pipes[p].packet_bits as u16)
    }

    /// Adds a pipe op after the earlier ones of its pipe.
    fn pipe_op(&mut self, p: PipeId, kind: OpKind, ty: Ty, span: Span, operands: &[OpId]) -> OpId {
        // The FIFO's reservation status depends on the same side's plain data operation of the
        // cycle, so a pipeline cannot stall on one while it issues the other.
        let plain = |k: &OpKind| {
            matches!(
                k,
                OpKind::PipeRead {
                    reserved: false,
                    ..
                } | OpKind::PipeWrite {
                    reserved: false,
                    ..
                }
            )
        };
        let blocking_res = |k: &OpKind| matches!(k, OpKind::PipeReserve { blocking: true, .. });
        let clash = self.pipes.ops.get(&p).into_iter().flatten().any(|&o| {
            let other = &self.k.op(o).kind;
            (plain(other) && blocking_res(&kind)) || (blocking_res(other) && plain(&kind))
        });
        if clash {
            self.diags.push(
                Diagnostic::error(
                    span,
                    "a blocking reservation and a plain `read_pipe`/`write_pipe` on the same pipe in one kernel are not yet supported by the hardware path",
                )
                .note("use the 4-argument forms with the reservation, or a pipe argument without `__attribute__((blocking))` and a retry loop around the reservation"),
            );
        }
        let id = self.op(kind, ty, span, operands);
        if let Some(&prev) = self.pipes.ops.get(&p).and_then(|v| v.last()) {
            self.k.add_dep(prev, id, Dep::Order { distance: 0 });
        }
        self.pipes.ops.entry(p).or_default().push(id);
        id
    }

    /// Pipe ops of loop `lid` (recorded since `from`): the last of one iteration comes before
    /// the first of the next. Iterations of a source loop run in program order, so their pipe
    /// operations do too. Work-items are unordered in OpenCL; their ops are ordered only when
    /// a loop inside also uses the pipe (the loop must not overwrite a read result or
    /// reservation id a frozen work-item has yet to take, see `rtl_templates` kernel pipes).
    pub(super) fn order_pipes_across_iterations(
        &mut self,
        lid: LoopId,
        from: &BTreeMap<PipeId, usize>,
    ) {
        let work_items = !matches!(self.k.loops[lid].kind, crate::LoopKind::Source);
        let lists: Vec<Vec<OpId>> = self
            .pipes
            .ops
            .iter()
            .map(|(p, v)| v[from.get(p).copied().unwrap_or(0)..].to_vec())
            .collect();
        for v in lists {
            if let (Some(&first), Some(&last)) = (v.first(), v.last()) {
                let nested = v.iter().any(|&o| self.k.op(o).region != lid);
                if first != last && (!work_items || nested) {
                    self.k.add_dep(last, first, Dep::Order { distance: 1 });
                }
            }
        }
    }

    pub(super) fn pipe_marks(&self) -> BTreeMap<PipeId, usize> {
        self.pipes.ops.iter().map(|(p, v)| (*p, v.len())).collect()
    }

    /// The spec's status: 0 on success, -1 on failure.
    fn status(&mut self, ok: OpId, span: Span) -> Val {
        let zero = self.konst(0, Ty::I32, span);
        let neg = self.konst(u32::MAX as u64, Ty::I32, span);
        Val::Scalar(self.select(ok, zero, neg, span))
    }

    /// The packet `*ptr` for a write: the memory image of the pointed-to value.
    fn packet_from(&mut self, ptr: &Expr, p: PipeId, span: Span) -> OpId {
        let t = self.packet_ty(p);
        let v = self.value_at(ptr, span);
        let image = self.pack(v, &pointee(&ptr.ty), span);
        self.fit(image, t, span)
    }

    /// Stores a read packet (an image) to `*ptr` when `ok`.
    fn packet_to(&mut self, ptr: &Expr, packet: OpId, ok: OpId, span: Span) {
        let pt = pointee(&ptr.ty);
        let image = self.fit(packet, self.image_ty(&pt), span);
        let v = self.unpack(image, &pt, false, span);
        self.store_at_if(ptr, v, ok, span);
    }

    /// The status bit and the packet of a `PipeRead` result.
    fn split_read(&mut self, r: OpId, p: PipeId, span: Span) -> (OpId, OpId) {
        let w = self.k.pipes[p].packet_bits;
        let t = self.packet_ty(p);
        let ok = self.extract(r, w, Ty::BOOL, span);
        let packet = self.extract(r, 0, t, span);
        (ok, packet)
    }

    /// Lowers a pipe built-in; `None` when `b` is not one.
    pub(super) fn pipe_builtin(&mut self, b: Builtin, args: &[Expr], span: Span) -> Option<Val> {
        match b {
            Builtin::IsValidReserveId => Some(self.is_valid_reserve_id(args, span)),
            Builtin::GetPipeNumPackets | Builtin::GetPipeMaxPackets => {
                self.pipe_query(b, args, span)
            }
            _ if is_pipe_access(b) => Some(self.pipe_access(b, args, span)),
            _ => None,
        }
    }

    /// `is_valid_reserve_id(r)`: the valid bit of the reserve id.
    fn is_valid_reserve_id(&mut self, args: &[Expr], span: Span) -> Val {
        let rid = self.scalar(&args[0]);
        let rid = self.resize(rid, Ty::I32, false, span);
        let sh = self.konst(u64::from(RESERVE_ID_VALID_BIT), Ty::I32, span);
        let top = self.bin(BinOp::ShrU, rid, sh, span);
        let v = self.op(OpKind::Convert(ConvOp::Trunc), Ty::BOOL, span, &[top]);
        Val::Scalar(v)
    }

    /// `get_pipe_num_packets`, `get_pipe_max_packets`: either side may ask; the FIFO answers
    /// both.
    fn pipe_query(&mut self, b: Builtin, args: &[Expr], span: Span) -> Option<Val> {
        let e = strip(&args[0]);
        let p = match &e.kind {
            ExprKind::Var(v) => self.pipes.ids.get(&PipeKey::Var(*v)).copied(),
            _ => None,
        };
        let p = match p {
            Some(p) => p,
            None => {
                let side = match &args[0].ty {
                    Type::Pipe {
                        access: Access::WriteOnly,
                        ..
                    } => PipeSide::Write,
                    _ => PipeSide::Read,
                };
                self.pipe_of(&args[0], side)?
            }
        };
        let query = if b == Builtin::GetPipeNumPackets {
            PipeQuery::NumPackets
        } else {
            PipeQuery::MaxPackets
        };
        let pred = self.effect_pred(span);
        let v = self.op(OpKind::PipeQuery { pipe: p, query }, Ty::I32, span, &[pred]);
        // The work-item's own pipe operations before the query are visible to it.
        if let Some(&prev) = self.pipes.ops.get(&p).and_then(|v| v.last()) {
            self.k.add_dep(prev, v, Dep::Order { distance: 0 });
        }
        self.pipes.ops.entry(p).or_default().push(v);
        Some(Val::Scalar(v))
    }

    /// A packet read or write, a reservation or a commit.
    fn pipe_access(&mut self, b: Builtin, args: &[Expr], span: Span) -> Val {
        use Builtin as B;
        let side = pipe_side(b);
        let scope = reserve_scope(b);
        let Some(p) = self.pipe_of(&args[0], side) else {
            return Val::Undef;
        };
        // Work-group (and sub-group) forms run in work-group code, once per group (see
        // `groups`): there they are the group's one reservation or commit.
        if scope != ReserveScope::WorkItem
            && (self.k.work_groups.is_none() || self.groups.phase.is_some())
        {
            self.diags.push(
                Diagnostic::error(
                    span,
                    "this work-group pipe function is not yet supported by the hardware path here",
                )
                .note("write it as a statement of its own in the kernel body (`r = work_group_reserve_write_pipe(p, n);`, `work_group_commit_write_pipe(p, r);`), not inside an expression, a loop or a helper function"),
            );
            return Val::Undef;
        }
        let blocking_pipe = self.k.pipes[p].blocking;
        let pred = self.effect_pred(span);
        match b {
            B::ReadPipe | B::ReadPipeBlock | B::WritePipe | B::WritePipeBlock => {
                self.pipe_packet(b, args, p, pred, span)
            }
            B::ReserveReadPipe
            | B::ReserveWritePipe
            | B::WorkGroupReserveReadPipe
            | B::WorkGroupReserveWritePipe
            | B::SubGroupReserveReadPipe
            | B::SubGroupReserveWritePipe => {
                let n = self.scalar(&args[1]);
                let n = self.resize(n, Ty::I32, false, span);
                let kind = OpKind::PipeReserve {
                    pipe: p,
                    side,
                    scope,
                    blocking: blocking_pipe || self.pipes.block_reserve,
                };
                Val::Scalar(self.pipe_op(p, kind, Ty::I32, span, &[n, pred]))
            }
            _ => {
                let rid = self.scalar(&args[1]);
                let rid = self.resize(rid, Ty::I32, false, span);
                let kind = OpKind::PipeCommit {
                    pipe: p,
                    side,
                    scope,
                };
                self.pipe_op(p, kind, Ty::Token, span, &[rid, pred]);
                Val::Undef
            }
        }
    }

    /// `read_pipe`/`write_pipe` (and the `_block` forms), of the next packet or of a slot of a
    /// reservation; `pred`: the predicate of a read.
    fn pipe_packet(&mut self, b: Builtin, args: &[Expr], p: PipeId, pred: OpId, span: Span) -> Val {
        use Builtin as B;
        let write = pipe_side(b) == PipeSide::Write;
        let block = matches!(b, B::ReadPipeBlock | B::WritePipeBlock);
        let blocking_pipe = self.k.pipes[p].blocking;
        let (reserved, blocking) = (args.len() == 4, blocking_pipe || block);
        let ptr = args.last().expect("the checker requires a packet pointer");
        // A slot access: the reserve id and the slot index.
        let mut ops = Vec::new();
        if reserved {
            for a in &args[1..3] {
                let x = self.scalar(a);
                ops.push(self.resize(x, Ty::I32, false, span));
            }
        }
        let ok = if write {
            ops.push(self.packet_from(ptr, p, span));
            // The packet is read under the caller's predicate; the write after it.
            let pred = self.effect_pred(span);
            ops.push(pred);
            let kind = OpKind::PipeWrite {
                pipe: p,
                reserved,
                blocking,
            };
            self.pipe_op(p, kind, Ty::BOOL, span, &ops)
        } else {
            ops.push(pred);
            let kind = OpKind::PipeRead {
                pipe: p,
                reserved,
                blocking,
            };
            let t = Ty::Int(self.k.pipes[p].packet_bits as u16 + 1);
            let r = self.pipe_op(p, kind, t, span, &ops);
            let (ok, packet) = self.split_read(r, p, span);
            self.packet_to(ptr, packet, ok, span);
            ok
        };
        if block {
            Val::Undef
        } else {
            self.status(ok, span)
        }
    }
}

/// The pipe built-ins that read, write, reserve or commit (not the queries).
fn is_pipe_access(b: Builtin) -> bool {
    use Builtin as B;
    matches!(
        b,
        B::ReadPipe
            | B::WritePipe
            | B::ReadPipeBlock
            | B::WritePipeBlock
            | B::ReserveReadPipe
            | B::ReserveWritePipe
            | B::CommitReadPipe
            | B::CommitWritePipe
            | B::WorkGroupReserveReadPipe
            | B::WorkGroupReserveWritePipe
            | B::WorkGroupCommitReadPipe
            | B::WorkGroupCommitWritePipe
            | B::SubGroupReserveReadPipe
            | B::SubGroupReserveWritePipe
            | B::SubGroupCommitReadPipe
            | B::SubGroupCommitWritePipe
    )
}

/// The side of the pipe a built-in uses.
fn pipe_side(b: Builtin) -> PipeSide {
    use Builtin as B;
    let write = matches!(
        b,
        B::WritePipe
            | B::WritePipeBlock
            | B::ReserveWritePipe
            | B::CommitWritePipe
            | B::WorkGroupReserveWritePipe
            | B::WorkGroupCommitWritePipe
            | B::SubGroupReserveWritePipe
            | B::SubGroupCommitWritePipe
    );
    if write {
        PipeSide::Write
    } else {
        PipeSide::Read
    }
}

/// Who a reservation or commit is for: the work-item, its work-group or its sub-group.
fn reserve_scope(b: Builtin) -> ReserveScope {
    use Builtin as B;
    match b {
        B::WorkGroupReserveReadPipe
        | B::WorkGroupReserveWritePipe
        | B::WorkGroupCommitReadPipe
        | B::WorkGroupCommitWritePipe => ReserveScope::WorkGroup,
        B::SubGroupReserveReadPipe
        | B::SubGroupReserveWritePipe
        | B::SubGroupCommitReadPipe
        | B::SubGroupCommitWritePipe => ReserveScope::SubGroup,
        _ => ReserveScope::WorkItem,
    }
}

/// The expression without implicit conversions around it.
pub(super) fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast { expr, .. } => strip(expr),
        _ => e,
    }
}

pub(super) fn pointee(t: &Type) -> Type {
    match t {
        Type::Pointer { pointee, .. } => (**pointee).clone(),
        other => other.clone(),
    }
}
