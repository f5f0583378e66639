//! Operations of the dataflow IR.
//!
//! Operands are not stored in the op: they are the incoming `Dep::Data` edges of the graph,
//! numbered by operand index (see [`crate::Kernel::operands`]). Every op that has a side
//! effect (store, pipe access, counter update, barrier, copy) takes a predicate as its last
//! operand, an `i1` value produced by if-conversion (a constant 1 when unconditional), so control
//! flow inside pipelined regions never needs a branch.

use crate::ids::{ArgId, CounterId, LoopId, MemId, PipeId};
pub use hwcontract::atomic::AtomicOp;
use std::fmt;

/// Work-item functions of OpenCL C 6.15.1 (the dimension is a compile-time constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum WorkItemFn {
    GlobalId,
    LocalId,
    GroupId,
    GlobalSize,
    /// `get_local_size`: the size of this work-item's group (smaller for the last group of a
    /// non-uniform launch), so it is a per-work-item value.
    LocalSize,
    /// `get_enqueued_local_size`: the local size given at launch.
    EnqueuedLocalSize,
    NumGroups,
    GlobalOffset,
    WorkDim,
}

impl WorkItemFn {
    /// True for values that are the same for every work-item of a launch (latched at start).
    pub fn is_launch_invariant(self) -> bool {
        matches!(
            self,
            WorkItemFn::GlobalSize
                | WorkItemFn::EnqueuedLocalSize
                | WorkItemFn::NumGroups
                | WorkItemFn::GlobalOffset
                | WorkItemFn::WorkDim
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            WorkItemFn::GlobalId => "global_id",
            WorkItemFn::LocalId => "local_id",
            WorkItemFn::GroupId => "group_id",
            WorkItemFn::GlobalSize => "global_size",
            WorkItemFn::LocalSize => "local_size",
            WorkItemFn::EnqueuedLocalSize => "enqueued_local_size",
            WorkItemFn::NumGroups => "num_groups",
            WorkItemFn::GlobalOffset => "global_offset",
            WorkItemFn::WorkDim => "work_dim",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// High half of a widening multiply (`mul_hi`), signed or unsigned.
    MulHiS,
    MulHiU,
    DivS,
    DivU,
    RemS,
    RemU,
    Shl,
    ShrU,
    ShrS,
    And,
    Or,
    Xor,
    MinS,
    MinU,
    MaxS,
    MaxU,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FMin,
    FMax,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum UnOp {
    /// Bitwise not.
    Not,
    Neg,
    FNeg,
    AbsS,
    FAbs,
    FSqrt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum CmpOp {
    Eq,
    Ne,
    LtS,
    LeS,
    GtS,
    GeS,
    LtU,
    LeU,
    GtU,
    GeU,
    /// Ordered float comparisons (false when either operand is NaN), and unordered not-equal.
    FEq,
    FNe,
    FLt,
    FLe,
    FGt,
    FGe,
}

/// Conversions between IR types; the result type is the op's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ConvOp {
    Trunc,
    ZExt,
    SExt,
    /// Reinterpret bits (`as_T`).
    Bitcast,
    SIToF,
    UIToF,
    /// Float to integer, round toward zero; `sat` clamps to the destination range (NaN -> 0).
    FToSI {
        sat: bool,
    },
    FToUI {
        sat: bool,
    },
    FExt,
    FTrunc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PipeSide {
    Read,
    Write,
}

/// The bit of a reserve id (an i32 in the IR) that says it is valid; the reservation table
/// index of the pipe's FIFO sits below it.
pub const RESERVE_ID_VALID_BIT: u32 = 8;

/// Who shares one pipe reservation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ReserveScope {
    WorkItem,
    SubGroup,
    WorkGroup,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PipeQuery {
    NumPackets,
    MaxPackets,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum CopyDir {
    GlobalToLocal,
    LocalToGlobal,
}

/// Which bytes of a memory element a partial store writes (one flag per byte, byte 0 first).
/// Field and lane assignments through a pointer (`p[i].a = x`, `q[i].y = 0`) write only their
/// bytes: in hardware the write strobe of the port (`wreq_strb`), so work-items writing
/// different fields of one element never overwrite each other.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ByteMask(pub Vec<bool>);

impl ByteMask {
    /// The written bytes as half-open ranges, in order.
    pub fn ranges(&self) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for (i, &on) in self.0.iter().enumerate() {
            let i = i as u32;
            match out.last_mut() {
                Some(r) if on && r.1 == i => r.1 = i + 1,
                _ if on => out.push((i, i + 1)),
                _ => {}
            }
        }
        out
    }

    pub fn all(&self) -> bool {
        self.0.iter().all(|&b| b)
    }
}

impl fmt::Display for ByteMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r: Vec<String> = self
            .ranges()
            .into_iter()
            .map(|(a, b)| format!("{a}..{b}"))
            .collect();
        write!(f, "bytes {}", r.join(","))
    }
}

/// What an operation does. Operand lists are given as `(name: type)` in each doc comment.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum OpKind {
    /// A constant; the value's low `ty.bits()` bits (floats as their IEEE bit pattern).
    Const(u64),
    /// The value of a scalar argument or the base address of a pointer argument.
    /// Launch-invariant.
    Arg(ArgId),
    /// A work-item function for a constant dimension.
    WorkItem(WorkItemFn, u8),
    /// (a, b)
    Binary(BinOp),
    /// (a)
    Unary(UnOp),
    /// (a, b) -> i1
    Cmp(CmpOp),
    /// (cond: i1, if_true, if_false)
    Select,
    /// (a)
    Convert(ConvOp),
    /// (addr: i32, pred: i1) -> element. A naturally aligned element of memory `mem`.
    Load { mem: MemId },
    /// (addr: i32, data, pred: i1) -> token. Writes the element at `addr`; with a `mask`, only
    /// the bytes it names (the other bytes of `data` are ignored).
    Store { mem: MemId, mask: Option<ByteMask> },
    /// (a) -> bits `lo .. lo + ty.bits()` of `a` (a field or lane of an aggregate image):
    /// wiring.
    Extract { lo: u32 },
    /// (parts...) -> the parts side by side, operand 0 in the lowest bits (an aggregate image
    /// from its fields or lanes): wiring. The result is an `iN`, N the sum of the widths.
    Concat,
    /// A loop-carried value of the enclosing loop: (init from the parent region, next: the value
    /// for the following iteration, reached by a `Dep::Data` edge of distance 1). In the first
    /// iteration it is `init`, in every later one the previous iteration's `next`.
    Carried,
    /// A nested loop, seen from its parent region as one operation: (enter: i1) -> token. When
    /// `enter` is false the loop runs no iteration. Ops of the loop read values of enclosing
    /// regions directly (edges across regions): they are constant while the loop runs.
    Loop(LoopId),
    /// (loop token, next: a value in the loop, init: a value in the parent) -> the value `next`
    /// had in the last iteration, or `init` when the loop ran no iteration.
    LoopResult,
    /// (stop: i1) -> token: no further iteration starts after one whose `stop` is true. One
    /// per loop region.
    LoopExit,
    /// `barrier`/`work_group_barrier`: (pred) -> token. Splits the work-item loop.
    Barrier { local: bool, global: bool },
    /// A packet read from a pipe: 2-argument `read_pipe` (`reserved` false: operands `(pred)`)
    /// or a slot of a read reservation (`reserved`: `(rid: i32, index: i32, pred)`).
    /// Result `Int(packet_bits + 1)`: bit `packet_bits` is the status (1 = a packet was read),
    /// the low bits the packet. Latency 1 (the FIFO's registered read data). With `blocking`
    /// the pipeline stalls until the read succeeds, so the status is always 1.
    PipeRead {
        pipe: PipeId,
        reserved: bool,
        blocking: bool,
    },
    /// A packet written to a pipe: `(packet, pred)` or, `reserved`, `(rid, index, packet, pred)`
    /// -> i1 status (1 = written), combinational. With `blocking` the pipeline stalls until the
    /// write succeeds.
    PipeWrite {
        pipe: PipeId,
        reserved: bool,
        blocking: bool,
    },
    /// `reserve_*_pipe` and the work-group/sub-group forms: `(n: i32, pred)` -> reserve id
    /// (i32: bit [`RESERVE_ID_VALID_BIT`] set for a valid reservation, the FIFO's table index
    /// below it; `CLK_NULL_RESERVE_ID` is 0). Latency 1 (registered).
    PipeReserve {
        pipe: PipeId,
        side: PipeSide,
        scope: ReserveScope,
        blocking: bool,
    },
    /// `commit_*_pipe`: `(rid, pred)` -> token. Ignored for an invalid id.
    PipeCommit {
        pipe: PipeId,
        side: PipeSide,
        scope: ReserveScope,
    },
    /// `is_valid_reserve_id`: (rid) -> i1.
    ReserveIdValid,
    /// `get_pipe_num_packets` / `get_pipe_max_packets`: (pred) -> i32.
    PipeQuery { pipe: PipeId, query: PipeQuery },
    /// `async_work_group_copy` / strided: (dst, src, n, stride, event_in, pred) -> event.
    AsyncCopy {
        dir: CopyDir,
        global: MemId,
        local: MemId,
    },
    /// `wait_group_events`: (events..., pred) -> token.
    WaitEvents,
    /// `atomic_inc`/`atomic_dec` on a counter: (pred) -> old value.
    CounterUpdate { counter: CounterId, inc: bool },
    /// An atomic read-modify-write of the element at `addr` of memory `mem` (`atomic_add`,
    /// `atom_cmpxchg`, ...): `(addr: i32, operand, pred)`, or for `CmpXchg`
    /// `(addr, operand, compare, pred)` -> the old element. The new element is
    /// `op.apply(old, operand, compare)` (`hwcontract::atomic`). On global memory an atomic
    /// request on the port's read channel (`docs/hardware-interface.md`, "Revision 2"),
    /// executed by memory; on-chip a read and a write of the memory, the in-flight result
    /// forwarded to the next atomic.
    Atomic {
        mem: MemId,
        #[serde(serialize_with = "serialize_atomic_op")]
        op: AtomicOp,
    },
}

fn serialize_atomic_op<S: serde::Serializer>(op: &AtomicOp, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(op.name())
}

impl OpKind {
    /// Ops whose value is the same for the whole launch: no pipeline registers are needed.
    pub fn is_launch_invariant(&self) -> bool {
        match self {
            OpKind::Const(_) | OpKind::Arg(_) => true,
            OpKind::WorkItem(f, _) => f.is_launch_invariant(),
            _ => false,
        }
    }

    /// Ops whose result is all they do, computed from their operands alone (no memory, no
    /// loop structure): the ops `cse` may merge.
    pub fn is_pure(&self) -> bool {
        matches!(
            self,
            OpKind::Const(_)
                | OpKind::Arg(_)
                | OpKind::WorkItem(..)
                | OpKind::Binary(_)
                | OpKind::Unary(_)
                | OpKind::Cmp(_)
                | OpKind::Select
                | OpKind::Convert(_)
                | OpKind::Extract { .. }
                | OpKind::Concat
        )
    }

    /// Ops with an effect besides their value; they keep their relative order per resource and
    /// carry a predicate as their last operand.
    pub fn has_side_effect(&self) -> bool {
        matches!(
            self,
            OpKind::Store { .. }
                | OpKind::Barrier { .. }
                | OpKind::PipeRead { .. }
                | OpKind::PipeWrite { .. }
                | OpKind::PipeReserve { .. }
                | OpKind::PipeCommit { .. }
                | OpKind::AsyncCopy { .. }
                | OpKind::WaitEvents
                | OpKind::CounterUpdate { .. }
                | OpKind::Atomic { .. }
        )
    }

    /// The memory a load, store or atomic accesses.
    pub fn memory(&self) -> Option<MemId> {
        match self {
            OpKind::Load { mem } | OpKind::Store { mem, .. } | OpKind::Atomic { mem, .. } => {
                Some(*mem)
            }
            _ => None,
        }
    }

    /// Ops that take a trailing predicate operand.
    pub fn is_predicated(&self) -> bool {
        self.has_side_effect() || matches!(self, OpKind::Load { .. } | OpKind::PipeQuery { .. })
    }

    /// Expected operand count, or `None` when variadic.
    pub fn arity(&self) -> Option<usize> {
        Some(match self {
            OpKind::Const(_) | OpKind::Arg(_) | OpKind::WorkItem(..) => 0,
            OpKind::Binary(_) | OpKind::Cmp(_) => 2,
            OpKind::Unary(_) | OpKind::Convert(_) | OpKind::Extract { .. } => 1,
            OpKind::Select => 3,
            OpKind::Load { .. } => 2,
            OpKind::Store { .. } => 3,
            OpKind::Carried => 2,
            OpKind::WaitEvents | OpKind::Concat => return None,
            OpKind::Loop(_) => 1,
            OpKind::LoopResult => 3,
            OpKind::LoopExit => 1,
            OpKind::Barrier { .. } => 1,
            OpKind::PipeRead { reserved, .. } => {
                if *reserved {
                    3
                } else {
                    1
                }
            }
            OpKind::PipeWrite { reserved, .. } => {
                if *reserved {
                    4
                } else {
                    2
                }
            }
            OpKind::PipeReserve { .. } => 2,
            OpKind::PipeCommit { .. } => 2,
            OpKind::ReserveIdValid => 1,
            OpKind::PipeQuery { .. } => 1,
            OpKind::AsyncCopy { .. } => 6,
            OpKind::CounterUpdate { .. } => 1,
            OpKind::Atomic { op, .. } => {
                if *op == AtomicOp::CmpXchg {
                    4
                } else {
                    3
                }
            }
        })
    }

    /// A short lowercase mnemonic, used by the printer and for readable Verilog names.
    pub fn mnemonic(&self) -> String {
        match self {
            OpKind::Const(_) => "const".into(),
            OpKind::Arg(_) => "arg".into(),
            OpKind::WorkItem(f, _) => f.name().into(),
            OpKind::Binary(b) => format!("{b:?}").to_lowercase(),
            OpKind::Unary(u) => format!("{u:?}").to_lowercase(),
            OpKind::Cmp(c) => format!("cmp_{}", format!("{c:?}").to_lowercase()),
            OpKind::Select => "select".into(),
            OpKind::Convert(c) => match c {
                ConvOp::FToSI { sat: true } => "ftosi_sat".into(),
                ConvOp::FToSI { sat: false } => "ftosi".into(),
                ConvOp::FToUI { sat: true } => "ftoui_sat".into(),
                ConvOp::FToUI { sat: false } => "ftoui".into(),
                _ => format!("{c:?}").to_lowercase(),
            },
            OpKind::Load { .. } => "load".into(),
            OpKind::Store { .. } => "store".into(),
            OpKind::Extract { .. } => "extract".into(),
            OpKind::Concat => "concat".into(),
            OpKind::Carried => "carried".into(),
            OpKind::Loop(_) => "loop".into(),
            OpKind::LoopResult => "loop_result".into(),
            OpKind::LoopExit => "loop_exit".into(),
            OpKind::Barrier { .. } => "barrier".into(),
            OpKind::PipeRead { .. } => "pipe_read".into(),
            OpKind::PipeWrite { .. } => "pipe_write".into(),
            OpKind::PipeReserve { .. } => "pipe_reserve".into(),
            OpKind::PipeCommit { .. } => "pipe_commit".into(),
            OpKind::ReserveIdValid => "reserve_id_valid".into(),
            OpKind::PipeQuery { .. } => "pipe_query".into(),
            OpKind::AsyncCopy { .. } => "async_copy".into(),
            OpKind::WaitEvents => "wait_events".into(),
            OpKind::CounterUpdate { inc, .. } => {
                if *inc {
                    "counter_inc".into()
                } else {
                    "counter_dec".into()
                }
            }
            OpKind::Atomic { op, .. } => format!("atomic_{}", op.name()),
        }
    }
}

impl fmt::Display for OpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpKind::Const(v) => write!(f, "const {v:#x}"),
            OpKind::Arg(a) => write!(f, "arg {a}"),
            OpKind::WorkItem(w, d) => write!(f, "{}({d})", w.name()),
            OpKind::Load { mem } => write!(f, "load {mem}"),
            OpKind::Store { mem, mask: None } => write!(f, "store {mem}"),
            OpKind::Store { mem, mask: Some(m) } => write!(f, "store {mem} [{m}]"),
            OpKind::Extract { lo } => write!(f, "extract {lo}"),
            OpKind::Loop(l) => write!(f, "loop {l}"),
            OpKind::Barrier { local, global } => write!(
                f,
                "barrier{}{}",
                if *local { " local" } else { "" },
                if *global { " global" } else { "" }
            ),
            OpKind::PipeRead {
                pipe,
                reserved,
                blocking,
            }
            | OpKind::PipeWrite {
                pipe,
                reserved,
                blocking,
            } => write!(
                f,
                "{} {pipe}{}{}",
                self.mnemonic(),
                if *reserved { " reserved" } else { "" },
                if *blocking { " blocking" } else { "" }
            ),
            OpKind::PipeReserve {
                pipe,
                side,
                scope,
                blocking,
            } => write!(
                f,
                "{} {pipe} {side:?} {scope:?}{}",
                self.mnemonic(),
                if *blocking { " blocking" } else { "" }
            ),
            OpKind::PipeCommit { pipe, side, scope } => {
                write!(f, "{} {pipe} {side:?} {scope:?}", self.mnemonic())
            }
            OpKind::PipeQuery { pipe, query } => write!(f, "pipe_query {pipe} {query:?}"),
            OpKind::AsyncCopy { dir, global, local } => {
                write!(f, "async_copy {dir:?} {global} {local}")
            }
            OpKind::CounterUpdate { counter, .. } => write!(f, "{} {counter}", self.mnemonic()),
            OpKind::Atomic { mem, .. } => write!(f, "{} {mem}", self.mnemonic()),
            _ => write!(f, "{}", self.mnemonic()),
        }
    }
}
