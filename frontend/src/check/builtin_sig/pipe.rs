//! Pipe built-ins: `read_pipe`/`write_pipe` (with and without reservations), reservations and
//! commits (per work-item, work-group and sub-group), the Xilinx blocking forms, and the pipe
//! queries.

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

pub(super) const PIPE_FNS: &[(&str, Builtin)] = &[
    ("read_pipe", Builtin::ReadPipe),
    ("write_pipe", Builtin::WritePipe),
    ("reserve_read_pipe", Builtin::ReserveReadPipe),
    ("reserve_write_pipe", Builtin::ReserveWritePipe),
    ("commit_read_pipe", Builtin::CommitReadPipe),
    ("commit_write_pipe", Builtin::CommitWritePipe),
    (
        "work_group_reserve_read_pipe",
        Builtin::WorkGroupReserveReadPipe,
    ),
    (
        "work_group_reserve_write_pipe",
        Builtin::WorkGroupReserveWritePipe,
    ),
    (
        "work_group_commit_read_pipe",
        Builtin::WorkGroupCommitReadPipe,
    ),
    (
        "work_group_commit_write_pipe",
        Builtin::WorkGroupCommitWritePipe,
    ),
    (
        "sub_group_reserve_read_pipe",
        Builtin::SubGroupReserveReadPipe,
    ),
    (
        "sub_group_reserve_write_pipe",
        Builtin::SubGroupReserveWritePipe,
    ),
    (
        "sub_group_commit_read_pipe",
        Builtin::SubGroupCommitReadPipe,
    ),
    (
        "sub_group_commit_write_pipe",
        Builtin::SubGroupCommitWritePipe,
    ),
    ("read_pipe_block", Builtin::ReadPipeBlock),
    ("write_pipe_block", Builtin::WritePipeBlock),
    ("get_pipe_num_packets", Builtin::GetPipeNumPackets),
    ("get_pipe_max_packets", Builtin::GetPipeMaxPackets),
    ("is_valid_reserve_id", Builtin::IsValidReserveId),
];

impl Checker<'_> {
    pub(super) fn pipe_arg(&mut self, name: &str, e: Expr, b: Builtin) -> Option<(Expr, Type)> {
        let Type::Pipe { packet, access } = &e.ty else {
            let tn = self.type_name(&e.ty);
            self.err(
                e.span,
                format!(
                    "the first argument of `{}` must be a pipe, not `{}`",
                    name, tn
                ),
            );
            return None;
        };
        let reads = matches!(
            b,
            Builtin::ReadPipe
                | Builtin::ReadPipeBlock
                | Builtin::ReserveReadPipe
                | Builtin::CommitReadPipe
                | Builtin::WorkGroupReserveReadPipe
                | Builtin::WorkGroupCommitReadPipe
                | Builtin::SubGroupReserveReadPipe
                | Builtin::SubGroupCommitReadPipe
        );
        let writes = matches!(
            b,
            Builtin::WritePipe
                | Builtin::WritePipeBlock
                | Builtin::ReserveWritePipe
                | Builtin::CommitWritePipe
                | Builtin::WorkGroupReserveWritePipe
                | Builtin::WorkGroupCommitWritePipe
                | Builtin::SubGroupReserveWritePipe
                | Builtin::SubGroupCommitWritePipe
        );
        // `read_write` only comes from program-scope pipes, which kernels read or write.
        if reads && *access == Access::WriteOnly {
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "`{}` needs a `read_only` pipe, but this pipe is `{}`",
                        name, access
                    ),
                )
                .note("a kernel reads from `read_only` pipes and writes to `write_only` pipes"),
            );
            return None;
        }
        if writes && *access == Access::ReadOnly {
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "`{}` needs a `write_only` pipe, but this pipe is `{}`",
                        name, access
                    ),
                )
                .note("a kernel reads from `read_only` pipes and writes to `write_only` pipes"),
            );
            return None;
        }
        let pt = (**packet).clone();
        Some((e, pt))
    }

    pub(super) fn packet_ptr(
        &mut self,
        name: &str,
        e: Expr,
        packet: &Type,
        write: bool,
    ) -> Option<Expr> {
        let e = self.decay(e);
        let ok = matches!(&e.ty, Type::Pointer { pointee, .. } if **pointee == *packet);
        if !ok {
            let (x, y) = (self.type_name(&e.ty), self.type_name(packet));
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "`{}` needs a pointer to the packet type `{}`, not `{}`",
                        name, y, x
                    ),
                )
                .note("pass the address of a variable of the packet type, e.g. `&value`"),
            );
            return None;
        }
        if !write {
            if let Type::Pointer {
                is_const, space, ..
            } = &e.ty
            {
                if *is_const || *space == AddrSpace::Constant {
                    self.err(e.span, format!("`{}` writes the packet, so its pointer cannot point to read-only memory", name));
                    return None;
                }
            }
        }
        Some(e)
    }

    pub(super) fn pipe_builtin(
        &mut self,
        name: &str,
        b: Builtin,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        match b {
            Builtin::ReadPipe | Builtin::WritePipe => {
                if !self.arity(name, &args, &[2, 4], span) {
                    return Some(None);
                }
                let write = b == Builtin::WritePipe;
                let n = args.len();
                let mut it = args.into_iter();
                let (p, packet) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let mut xs = vec![p];
                if n == 4 {
                    let rid = self.decay(it.next().expect("arity"));
                    if rid.ty != Type::ReserveId {
                        let tn = self.type_name(&rid.ty);
                        self.err(rid.span, format!("the second argument of the 4-argument `{}` must be a `reserve_id_t`, not `{}`", name, tn));
                        return Some(None);
                    }
                    xs.push(rid);
                    xs.push(self.int_arg(it.next().expect("arity"), name, &Type::UINT)?);
                }
                xs.push(self.packet_ptr(name, it.next().expect("arity"), &packet, write)?);
                self.bi(b, xs, Type::INT, span)
            }
            Builtin::ReadPipeBlock | Builtin::WritePipeBlock => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let write = b == Builtin::WritePipeBlock;
                let mut it = args.into_iter();
                let (p, packet) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let ptr = self.packet_ptr(name, it.next().expect("arity"), &packet, write)?;
                self.bi(b, vec![p, ptr], Type::Void, span)
            }
            Builtin::ReserveReadPipe
            | Builtin::ReserveWritePipe
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let mut it = args.into_iter();
                let (p, _) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let n = self.int_arg(it.next().expect("arity"), name, &Type::UINT)?;
                self.bi(b, vec![p, n], Type::ReserveId, span)
            }
            Builtin::CommitReadPipe
            | Builtin::CommitWritePipe
            | Builtin::WorkGroupCommitReadPipe
            | Builtin::WorkGroupCommitWritePipe
            | Builtin::SubGroupCommitReadPipe
            | Builtin::SubGroupCommitWritePipe => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let mut it = args.into_iter();
                let (p, _) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let rid = self.decay(it.next().expect("arity"));
                if rid.ty != Type::ReserveId {
                    let tn = self.type_name(&rid.ty);
                    self.err(
                        rid.span,
                        format!("`{}` needs a `reserve_id_t`, not `{}`", name, tn),
                    );
                    return Some(None);
                }
                self.bi(b, vec![p, rid], Type::Void, span)
            }
            Builtin::IsValidReserveId => {
                if !self.arity(name, &args, &[1], span) {
                    return Some(None);
                }
                let rid = self.decay(args.into_iter().next().expect("arity"));
                if rid.ty != Type::ReserveId {
                    let tn = self.type_name(&rid.ty);
                    self.err(
                        rid.span,
                        format!("`{}` needs a `reserve_id_t`, not `{}`", name, tn),
                    );
                    return Some(None);
                }
                self.bi(b, vec![rid], Type::BOOL, span)
            }
            _ => {
                // get_pipe_num_packets / get_pipe_max_packets
                if !self.arity(name, &args, &[1], span) {
                    return Some(None);
                }
                let (p, _) = self.pipe_arg(name, args.into_iter().next().expect("arity"), b)?;
                self.bi(b, vec![p], Type::UINT, span)
            }
        }
    }
}
