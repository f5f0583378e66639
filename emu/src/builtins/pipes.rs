//! Pipe built-ins: `read_pipe`/`write_pipe` (plain and through a reservation), the
//! reservations and commits (per work-item, work-group and sub-group), the queries, and the
//! Xilinx blocking forms. The pipes themselves (FIFO, reservations, publication order) are
//! `crate::pipes`; this module binds the built-ins to them and hands control to the scheduler
//! where a work-item must wait.

use crate::interp::{Item, ToSched, R};
use crate::value::Val;
use frontend::ast::{Builtin, Expr, ScalarKind};
use frontend::Span;

/// The `int` status a pipe access returns (0: done, -1: not possible now).
fn int(v: i32) -> Val {
    Val::scalar(ScalarKind::Int, v as u32 as u64)
}

impl Item<'_> {
    fn pipe_name(&self, p: usize) -> String {
        self.pipe_names
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("#{p}"))
    }

    /// Xilinx's blocking forms: the 2-argument read/write that waits instead of failing.
    pub(super) fn pipe_block(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let plain = if b == Builtin::ReadPipeBlock {
            Builtin::ReadPipe
        } else {
            Builtin::WritePipe
        };
        self.force_blocking = true;
        let r = self.pipe_builtin(plain, args, e);
        self.force_blocking = false;
        r?;
        Ok(Val::Void)
    }

    pub(super) fn pipe_builtin(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        if b == Builtin::IsValidReserveId {
            let id = self.eval(&args[0])?.first();
            return Ok(Val::scalar(ScalarKind::Bool, (id != 0) as u64));
        }
        let p = self.eval(&args[0])?.first() as usize;
        let (packet, cap) = {
            let sh = self.lock();
            match sh.pipes.pipes.get(p) {
                Some(pp) => (pp.packet_size, pp.capacity),
                None => {
                    drop(sh);
                    return Err(self.err(span, "pipe argument is not bound to a pipe"));
                }
            }
        };
        let blocking = self.force_blocking || self.blocking_pipes.contains(&p);
        match b {
            Builtin::GetPipeNumPackets => {
                let n = self.lock().pipes.pipes[p].fifo.len() as u32;
                Ok(Val::uint(n))
            }
            Builtin::GetPipeMaxPackets => Ok(Val::uint(cap)),
            Builtin::ReadPipe | Builtin::WritePipe => {
                let write = b == Builtin::WritePipe;
                if args.len() == 2 {
                    self.pipe_packet(p, packet, write, blocking, args, span)
                } else {
                    self.pipe_reserved_packet(p, packet, write, args, span)
                }
            }
            Builtin::ReserveReadPipe
            | Builtin::ReserveWritePipe
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe => self.pipe_reserve(b, p, blocking, args, span),
            _ => self.pipe_commit(b, args, span),
        }
    }

    /// `read_pipe(p, ptr)` / `write_pipe(p, ptr)`: one packet, now (or, when blocking, as
    /// soon as there is one / room for one).
    fn pipe_packet(
        &mut self,
        p: usize,
        packet: u32,
        write: bool,
        blocking: bool,
        args: &[Expr],
        span: Span,
    ) -> R<Val> {
        let ptr = self.eval(&args[1])?.first() as u32;
        loop {
            let ok = if write {
                let data = self.access(ptr, packet, 1, span, None)?;
                self.lock().pipes.write(p, data)
            } else {
                let got = self.lock().pipes.read(p);
                match got {
                    Some(d) => {
                        if let Err(err) = self.access(ptr, packet, 1, span, Some(&d)) {
                            // put it back so the error does not lose data
                            self.lock().pipes.pipes[p].fifo.push_front(d);
                            return Err(err);
                        }
                        true
                    }
                    None => false,
                }
            };
            if ok {
                self.hand_over(ToSched::Yield(span))?;
                return Ok(int(0));
            }
            if !blocking {
                self.hand_over(ToSched::Yield(span))?;
                return Ok(int(-1));
            }
            self.hand_over(ToSched::Blocked {
                span,
                pipe: p,
                write,
                n: 1,
            })?;
        }
    }

    /// `read_pipe(p, rid, index, ptr)` / `write_pipe(p, rid, index, ptr)`: one packet of a
    /// reservation.
    fn pipe_reserved_packet(
        &mut self,
        p: usize,
        packet: u32,
        write: bool,
        args: &[Expr],
        span: Span,
    ) -> R<Val> {
        let rid = self.eval(&args[1])?.first() as u32;
        let index = self.eval(&args[2])?.first() as u32;
        let ptr = self.eval(&args[3])?.first() as u32;
        let slot_data = if write {
            Some(self.access(ptr, packet, 1, span, None)?)
        } else {
            None
        };
        let mut sh = self.lock();
        let Some(r) = sh.pipes.reservation(rid).filter(|r| r.pipe == p) else {
            drop(sh);
            return Ok(int(-1));
        };
        if r.published {
            drop(sh);
            return Err(self.err(
                span,
                format!(
                    "this reservation on pipe `{}` was already committed and its packets \
                     published",
                    self.pipe_name(p)
                ),
            ));
        }
        let n = r.slots.len();
        if let Some(w) = r.written.get_mut(index as usize) {
            *w |= slot_data.is_some();
        }
        let Some(slot) = r.slots.get_mut(index as usize) else {
            drop(sh);
            return Err(self.err(
                span,
                format!(
                    "packet index {index} is outside the reservation of {n} packets on \
                     pipe `{}`",
                    self.pipe_name(p)
                ),
            ));
        };
        match slot_data {
            Some(d) => {
                *slot = d;
                sh.pipes.publish(p);
                Ok(int(0))
            }
            None => {
                let d = slot.clone();
                drop(sh);
                self.access(ptr, packet, 1, span, Some(&d))?;
                Ok(int(0))
            }
        }
    }

    /// The `reserve_*_pipe` family: a reservation id, or 0 when there is no room (blocking
    /// pipes wait instead).
    fn pipe_reserve(
        &mut self,
        b: Builtin,
        p: usize,
        blocking: bool,
        args: &[Expr],
        span: Span,
    ) -> R<Val> {
        let n = self.eval(&args[1])?.first() as u32;
        let write = matches!(
            b,
            Builtin::ReserveWritePipe
                | Builtin::WorkGroupReserveWritePipe
                | Builtin::SubGroupReserveWritePipe
        );
        let collective = !matches!(b, Builtin::ReserveReadPipe | Builtin::ReserveWritePipe);
        let owner = (self.id.launch, self.id.group_linear);
        loop {
            let id = if collective {
                self.collective(span, |sh| sh.pipes.reserve(p, n, write, owner))?
            } else {
                let id = self.lock().pipes.reserve(p, n, write, owner);
                self.hand_over(ToSched::Yield(span))?;
                id
            };
            if id != 0 || !blocking {
                return Ok(Val::uint(id));
            }
            self.hand_over(ToSched::Blocked {
                span,
                pipe: p,
                write,
                n,
            })?;
        }
    }

    /// The `commit_*_pipe` family.
    fn pipe_commit(&mut self, b: Builtin, args: &[Expr], span: Span) -> R<Val> {
        let rid = self.eval(&args[1])?.first() as u32;
        let collective = !matches!(b, Builtin::CommitReadPipe | Builtin::CommitWritePipe);
        if collective {
            self.collective(span, |sh| {
                sh.pipes.commit(rid);
                0
            })?;
        } else {
            self.lock().pipes.commit(rid);
            self.hand_over(ToSched::Yield(span))?;
        }
        Ok(Val::Void)
    }
}
