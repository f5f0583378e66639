//! hls-ir: the dataflow IR of oclhls, its printer and verifier, lowering from the checked AST,
//! analyses and transform passes.
//!
//! A [`Kernel`] is a tree of loop regions (`loop0` is always the work-item loop of the NDRange)
//! and one dataflow graph (petgraph `StableDiGraph`, wrapped: the API speaks [`OpId`]) whose
//! nodes are operations, each tagged with the innermost region it belongs to, its IR type and
//! its source span. Edges carry operand indices and iteration distances: a `Dep::Data` edge of
//! distance 1 is a loop-carried value, a `Dep::Order` edge orders side effects.
//!
//! Invariants (checked by [`verify()`] after lowering and after every pass in debug/test builds):
//! every edge joins existing ops; operand indices are dense and single-driven; operand and
//! result widths agree with the op; side-effecting ops end with an `i1` predicate; the graph
//! is acyclic once loop-carried edges are removed.
//!
//! Results of analyses and of the scheduler are side tables keyed by id, never fields of the
//! IR: rescheduling at another II must not change the IR.

pub mod analysis;
pub mod float;
pub mod ids;
pub mod integer;
pub mod interp;
pub mod kernel;
pub mod lower;
pub mod ops;
pub mod passes;
pub mod printer;
pub mod types;
pub mod verify;

pub use ids::{ArgId, CounterId, EntityId, IdVec, LoopId, MemId, OpId, PipeId};
pub use kernel::{
    ArgKind, Dep, Kernel, KernelArg, Loop, LoopKind, MemDep, MemKind, MemPartition, Memory, Op,
    Partition, PortNeed, Rows,
};
pub use ops::{
    AtomicOp, BinOp, ByteMask, CmpOp, ConvOp, OpKind, PipeQuery, PipeSide, ReserveScope, UnOp,
    WorkItemFn, RESERVE_ID_VALID_BIT,
};
pub use types::Ty;
pub use verify::{verify, VerifyError};
