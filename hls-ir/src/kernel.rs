//! The kernel: arguments, memories, pipes, counters, the loop tree and the dataflow graph.

use crate::ids::{ArgId, CounterId, IdVec, LoopId, MemId, OpId, PipeId};
use crate::ops::OpKind;
use crate::types::Ty;
use frontend::span::Span;
use petgraph::stable_graph::{EdgeIndex, NodeIndex, StableDiGraph};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use std::collections::BTreeMap;

/// An operation node.
#[derive(Clone, Debug)]
pub struct Op {
    pub kind: OpKind,
    pub ty: Ty,
    /// The innermost loop whose body contains the op (`loop0` = the work-item loop).
    pub region: LoopId,
    /// The OpenCL source the op came from.
    pub span: Span,
    /// The source variable the value is assigned to, when there is one (for readable RTL).
    pub name: Option<String>,
}

/// An edge of the dataflow graph, from producer to consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dep {
    /// The source's value is operand `operand` of the target, `distance` iterations later.
    Data { operand: u8, distance: u32 },
    /// The target must not start before the source has completed (memory/side-effect order),
    /// `distance` iterations later.
    Order { distance: u32 },
}

impl Dep {
    pub fn distance(self) -> u32 {
        match self {
            Dep::Data { distance, .. } | Dep::Order { distance } => distance,
        }
    }
}

#[derive(Clone, Debug)]
pub enum ArgKind {
    /// A by-value scalar argument of the given type.
    Scalar(Ty),
    /// A `global` or `constant` pointer: its own memory port.
    GlobalPtr(MemId),
    /// A `local` pointer argument: an on-chip memory of `local_mem_size(N)` bytes (default
    /// `lower::DEFAULT_LOCAL_ARG_BYTES`); a launch may use at most that much.
    LocalPtr(MemId),
    Pipe(PipeId),
    Counter(CounterId),
}

#[derive(Clone, Debug)]
pub struct KernelArg {
    pub name: String,
    pub kind: ArgKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    /// Global (or constant) memory reached through the port of pointer argument `arg`.
    Global { arg: ArgId, constant: bool },
    /// An on-chip memory of `len` elements (`local` arrays and local pointer arguments).
    Local { len: u32 },
    /// A private array of `len` elements (registers or on-chip memory).
    Private { len: u32 },
    /// A program-scope variable of `len` elements (`constant int taps[8] = {...}`, or an
    /// OpenCL 2.0 `global` variable): an on-chip memory whose contents are set at configuration
    /// (`Kernel::mem_init`) and never reset, so a writable one keeps its values from one launch
    /// to the next. `constant`: a ROM (read-only `constant` or `const` data).
    Program { len: u32, constant: bool },
}

impl MemKind {
    /// A read-only program-scope memory (a ROM).
    pub fn is_rom(self) -> bool {
        matches!(self, MemKind::Program { constant: true, .. })
    }
}

/// Registered read ports of an on-chip memory (`local` or private array): loads of one loop in
/// the same modulo slot take different ports. A memory that uses the second one is stored
/// twice by Yosys (each copy one write and one read port), which costs area, not time.
pub const ONCHIP_READ_PORTS: u32 = 2;
/// Write ports of an on-chip memory.
pub const ONCHIP_WRITE_PORTS: u32 = 1;

#[derive(Clone, Debug)]
pub struct Memory {
    pub name: String,
    pub kind: MemKind,
    /// Element type (the unit of one access).
    pub elem: Ty,
    /// Size of one element in bytes (addresses are byte addresses).
    pub elem_bytes: u32,
    pub span: Span,
}

impl Memory {
    /// Elements of an on-chip memory (`None` for global memory).
    pub fn onchip_len(&self) -> Option<u32> {
        match self.kind {
            MemKind::Local { len } | MemKind::Private { len } | MemKind::Program { len, .. } => {
                Some(len)
            }
            MemKind::Global { .. } => None,
        }
    }

    /// The address bits an on-chip memory decodes, as `(offset, index)`: the byte offset within
    /// an element (`log2(elem_bytes)`; elements of on-chip memories are padded to a power of two
    /// bytes) and the element index (`ceil(log2(len))`, at least 1), lowest first. The address
    /// bits above them are not wired (an access outside the memory is undefined behaviour in
    /// OpenCL; the emulator reports it). `None` for global memory, whose ports take all 32 bits.
    pub fn onchip_address_bits(&self) -> Option<(u32, u32)> {
        let len = self.onchip_len()?;
        let index = (32 - (len.max(2) - 1).leading_zeros()).max(1);
        Some((self.elem_bytes.trailing_zeros(), index))
    }
}

/// What array partitioning (`passes::partition`, `passes::bank`) did with an on-chip memory,
/// for reports. Memories without an entry were left alone because nothing asked for more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemPartition {
    pub mem: MemId,
    pub outcome: Partition,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Partition {
    /// Complete partitioning: every element is a value of the dataflow graph (a register where
    /// it lives across cycles); the memory has no accesses left. `dynamic`: some index is not a
    /// constant, so those accesses select among the elements.
    Registers { elements: u32, dynamic: bool },
    /// Cyclic banking: element `i` is element `i / B` of `banks[i % B]` (B = `banks.len()`).
    /// `loops`: the loops that needed more ports than one memory has.
    Banks {
        banks: Vec<MemId>,
        loops: Vec<PortNeed>,
    },
    /// Kept as one memory, and why: either not eligible for registers (`loops` empty), or
    /// some loop needs more ports than it has and banking cannot give them (`at`: the access
    /// that prevents it, when one does).
    Whole {
        reason: String,
        at: Option<Span>,
        loops: Vec<PortNeed>,
    },
}

/// How many modulo slots one iteration of loop `lp` needs for its accesses to one memory
/// (`ceil(loads / read ports)`, `stores / write ports`, whichever is larger) against the II
/// the loop could reach otherwise (`goal`), before and after banking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortNeed {
    pub lp: LoopId,
    pub goal: u32,
    pub before: u32,
    pub after: u32,
}

#[derive(Clone, Debug)]
pub struct Pipe {
    pub name: String,
    /// The packet type as the source spells it (for matching writers with readers).
    pub packet_type: String,
    pub packet_bits: u32,
    pub side: crate::ops::PipeSide,
    /// Depth from `xcl_reqd_pipe_depth` or the system description, when known.
    pub depth: Option<u32>,
    pub blocking: bool,
    /// Reservation table entries of the FIFO's side (`MAX_RES`).
    pub max_reservations: u32,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub bits: u32,
    pub arg: ArgId,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// The work-items of an NDRange launch, one entering per II cycles.
    WorkItems,
    /// A loop written in the kernel (`for`, `while`, `do`).
    Source,
    /// The code between two barriers, run for every work-item of the group in turn (kernels
    /// with barriers, see `lower::groups`). It finishes only when its writes are acknowledged.
    Phase,
    /// An async copy (`lower::builtins::async_copy`), one element per iteration, in
    /// work-group code. Like a phase, it finishes only when its writes are acknowledged.
    /// `detached`: the work-group code goes on once the copy has started (the copy runs
    /// beside what follows) and a `WaitEvents` op waits for it; otherwise the copy's `Loop`
    /// op waits for it like any nested loop.
    Copy { detached: bool },
}

#[derive(Clone, Debug)]
pub struct Loop {
    pub kind: LoopKind,
    pub parent: Option<LoopId>,
    pub name: String,
    pub span: Span,
    /// Iterations per entry when known. Passes that change the shape
    /// [`crate::analysis::trip_count`] recognises record it first (`narrow`); otherwise it
    /// is computed from the IR when needed.
    pub trip_count: Option<u64>,
    /// `#pragma unroll N` / `opencl_unroll_hint(N)`: Some(0) = full, Some(1) = no unrolling.
    pub unroll: Option<u32>,
    /// The loops of a perfect nest merged into this one (`lower::flatten`), outermost first
    /// after this loop's own: one pipeline runs every iteration of the nest.
    pub flattened: Vec<Span>,
    /// `#pragma loop_coalesce` asked for the flattening (otherwise the driver may undo it
    /// when it costs II: `lower::LowerOptions::keep_nested`).
    pub coalesce_requested: bool,
    /// A perfect nest kept nested because flattening it gave this II (more than its inner
    /// loop alone reaches; `lower::LowerOptions::keep_nested`).
    pub flatten_declined: Option<u32>,
    /// The II the source asks for (`#pragma ii N`, `xcl_pipeline_loop(N)`,
    /// `#pragma HLS pipeline II=N`): the scheduler searches from it, not from 1.
    pub requested_ii: Option<u32>,
    /// A flattened nest's row: see [`Rows`].
    pub rows: Option<Rows>,
}

/// In a flattened nest, the ops that say whether the innermost loop goes on, so analyses can
/// look at a row (the iterations of one entry of the innermost loop) as a loop of its own.
/// Within a row all are true; a row ends when `next` is false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rows {
    /// The carried i1 flags "this inner level has an iteration to run now", one per level
    /// below the outermost (`lower::flatten`).
    pub flags: Vec<OpId>,
    /// The i1 "the innermost level has another iteration after this one", computed in the
    /// iteration.
    pub next: OpId,
}

impl Rows {
    /// The ops the record names.
    pub fn ops(&self) -> impl Iterator<Item = OpId> + '_ {
        self.flags.iter().copied().chain(std::iter::once(self.next))
    }
}

/// A dependence through memory from one iteration of a loop to a later one, as lowering
/// found it (`exact`: from the affine analysis; otherwise assumed, distance 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemDep {
    pub lp: LoopId,
    pub from: OpId,
    pub to: OpId,
    pub distance: u32,
    pub exact: bool,
}

/// One kernel in IR form.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub span: Span,
    pub args: IdVec<ArgId, KernelArg>,
    pub mems: IdVec<MemId, Memory>,
    pub pipes: IdVec<PipeId, Pipe>,
    pub counters: IdVec<CounterId, Counter>,
    /// Loop regions; `loop0` is the work-item loop.
    pub loops: IdVec<LoopId, Loop>,
    /// `reqd_work_group_size`, when given.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// Kernels with barriers: the work-item loop walks work-groups (one at a time), and this
    /// is the most work-items a group may have (the size of the per-work-item contexts).
    pub work_groups: Option<u32>,
    /// Loop-carried dependences through on-chip memories (for reports; the graph has them
    /// as `Dep::Order` edges).
    pub mem_deps: Vec<MemDep>,
    /// What array partitioning did with on-chip memories (for reports).
    pub partitions: Vec<MemPartition>,
    /// The contents of program-scope memories (`MemKind::Program`) at configuration: the
    /// memory's bytes, element `i` at `i * elem_bytes` (the on-chip layout), little-endian,
    /// `len * elem_bytes` bytes. A memory without an entry starts as zeros.
    pub mem_init: BTreeMap<MemId, Vec<u8>>,
    /// Read runs: a global load → an integer op of its loop whose value, in each iteration,
    /// is how many reads the load is certain to make from its address on, one element apart
    /// and in this order, with no other read of its port in between (at least 1; an async
    /// copy's `n - i`). A hint for the port's read combining (`oclhls_rburst`), which may ask
    /// memory for them in one burst at the first. Passes keep it: the op stays live while
    /// the load is, and an entry goes with either op.
    pub read_runs: BTreeMap<OpId, OpId>,
    graph: StableDiGraph<Op, Dep>,
}

fn node(id: OpId) -> NodeIndex {
    NodeIndex::new(id.index())
}

fn op_id(n: NodeIndex) -> OpId {
    OpId::from_index(n.index())
}

impl Kernel {
    /// A kernel with its work-item loop `loop0` and no ops.
    pub fn new(name: impl Into<String>, span: Span) -> Kernel {
        let name = name.into();
        Kernel {
            loops: IdVec::from(vec![Loop {
                kind: LoopKind::WorkItems,
                parent: None,
                name: format!("{name}.work_items"),
                span,
                trip_count: None,
                unroll: None,
                flattened: Vec::new(),
                coalesce_requested: false,
                flatten_declined: None,
                requested_ii: None,
                rows: None,
            }]),
            name,
            span,
            args: IdVec::new(),
            mems: IdVec::new(),
            pipes: IdVec::new(),
            counters: IdVec::new(),
            reqd_work_group_size: None,
            work_groups: None,
            mem_deps: Vec::new(),
            partitions: Vec::new(),
            mem_init: BTreeMap::new(),
            read_runs: BTreeMap::new(),
            graph: StableDiGraph::new(),
        }
    }

    pub const WORK_ITEM_LOOP: LoopId = LoopId(0);

    pub fn add_op(&mut self, op: Op, operands: &[OpId]) -> OpId {
        let id = op_id(self.graph.add_node(op));
        for (i, &src) in operands.iter().enumerate() {
            let operand = u8::try_from(i).expect("more than 255 operands");
            self.graph.add_edge(
                node(src),
                node(id),
                Dep::Data {
                    operand,
                    distance: 0,
                },
            );
        }
        id
    }

    pub fn add_dep(&mut self, from: OpId, to: OpId, dep: Dep) {
        self.graph.add_edge(node(from), node(to), dep);
    }

    pub fn remove_op(&mut self, id: OpId) {
        self.graph.remove_node(node(id));
        // A flattened nest's row ops are a hint for analyses: without them, the loop is
        // looked at as one loop.
        for l in self.loops.iter_mut() {
            if l.rows.as_ref().is_some_and(|r| r.ops().any(|o| o == id)) {
                l.rows = None;
            }
        }
        self.read_runs.retain(|&l, &mut r| l != id && r != id);
    }

    pub fn contains(&self, id: OpId) -> bool {
        self.graph.contains_node(node(id))
    }

    pub fn op(&self, id: OpId) -> &Op {
        &self.graph[node(id)]
    }

    pub fn op_mut(&mut self, id: OpId) -> &mut Op {
        &mut self.graph[node(id)]
    }

    /// The value of an integer constant (its bits, zero-extended), or `None` for any other op
    /// (float constants included).
    pub fn int_const(&self, id: OpId) -> Option<u64> {
        let op = self.op(id);
        match op.kind {
            OpKind::Const(v) if !op.ty.is_float() => Some(v),
            _ => None,
        }
    }

    /// [`Kernel::int_const`] sign-extended from the constant's width.
    pub fn int_const_signed(&self, id: OpId) -> Option<i64> {
        let v = self.int_const(id)?;
        let bits = self.op(id).ty.bits();
        Some(if bits < 64 && (v >> (bits - 1)) & 1 == 1 {
            (v as i64) - (1i64 << bits)
        } else {
            v as i64
        })
    }

    /// All ops in id order (deterministic).
    pub fn op_ids(&self) -> Vec<OpId> {
        let mut v: Vec<OpId> = self.graph.node_indices().map(op_id).collect();
        v.sort();
        v
    }

    /// One past the largest op id ever allocated (for dense side tables).
    pub fn op_bound(&self) -> usize {
        self.graph
            .node_indices()
            .map(|n| n.index() + 1)
            .max()
            .unwrap_or(0)
    }

    /// Operands of `id` in operand order.
    pub fn operands(&self, id: OpId) -> Vec<OpId> {
        let mut v: Vec<(u8, OpId)> = self
            .graph
            .edges_directed(node(id), Direction::Incoming)
            .filter_map(|e| match e.weight() {
                Dep::Data { operand, .. } => Some((*operand, op_id(e.source()))),
                Dep::Order { .. } => None,
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, o)| o).collect()
    }

    /// All incoming edges `(source, dep)`, sorted for determinism.
    pub fn preds(&self, id: OpId) -> Vec<(OpId, Dep)> {
        let mut v: Vec<(OpId, Dep, EdgeIndex)> = self
            .graph
            .edges_directed(node(id), Direction::Incoming)
            .map(|e| (op_id(e.source()), *e.weight(), e.id()))
            .collect();
        v.sort_by_key(|(s, _, e)| (*s, e.index()));
        v.into_iter().map(|(s, d, _)| (s, d)).collect()
    }

    /// All outgoing edges `(target, dep)`, sorted for determinism.
    pub fn succs(&self, id: OpId) -> Vec<(OpId, Dep)> {
        let mut v: Vec<(OpId, Dep, EdgeIndex)> = self
            .graph
            .edges_directed(node(id), Direction::Outgoing)
            .map(|e| (op_id(e.target()), *e.weight(), e.id()))
            .collect();
        v.sort_by_key(|(t, _, e)| (*t, e.index()));
        v.into_iter().map(|(t, d, _)| (t, d)).collect()
    }

    /// Every edge `(source, target, dep)` in a deterministic order.
    pub fn edges(&self) -> Vec<(OpId, OpId, Dep)> {
        let mut v: Vec<(OpId, OpId, Dep, usize)> = self
            .graph
            .edge_indices()
            .filter_map(|e| {
                let (s, t) = self.graph.edge_endpoints(e)?;
                Some((op_id(s), op_id(t), self.graph[e], e.index()))
            })
            .collect();
        v.sort_by_key(|(s, t, _, e)| (*t, *s, *e));
        v.into_iter().map(|(s, t, d, _)| (s, t, d)).collect()
    }

    /// Replace every use of `old` by `new` (edges keep their kind and operand index).
    pub fn replace_uses(&mut self, old: OpId, new: OpId) {
        let outs: Vec<(EdgeIndex, NodeIndex, Dep)> = self
            .graph
            .edges_directed(node(old), Direction::Outgoing)
            .map(|e| (e.id(), e.target(), *e.weight()))
            .collect();
        for (e, t, d) in outs {
            self.graph.remove_edge(e);
            self.graph.add_edge(node(new), t, d);
        }
        self.rename_in_side_tables(old, new);
    }

    /// Side tables that name ops follow a replaced op. A flattened nest's row record follows
    /// only a replacement of the same kind (a row flag by a carried i1 of its loop, `next` by
    /// an i1); a flag replaced by anything else (`narrow` proved it constant: an inner level
    /// that never runs, fuzz case 5438) drops the record, a hint like in `remove_op`.
    fn rename_in_side_tables(&mut self, old: OpId, new: OpId) {
        self.read_runs = std::mem::take(&mut self.read_runs)
            .into_iter()
            .map(|(l, r)| {
                let f = |o: OpId| if o == old { new } else { o };
                (f(l), f(r))
            })
            .collect();
        let (new_kind, new_ty, new_region) = {
            let op = self.op(new);
            (op.kind.clone(), op.ty, op.region)
        };
        for (i, l) in self.loops.iter_mut().enumerate() {
            let Some(r) = &mut l.rows else {
                continue;
            };
            let flag_ok =
                new_kind == OpKind::Carried && new_ty == Ty::BOOL && new_region.index() == i;
            let renames_flag = r.flags.contains(&old);
            if (renames_flag && !flag_ok) || (r.next == old && new_ty != Ty::BOOL) {
                l.rows = None;
                continue;
            }
            for o in r.flags.iter_mut().chain(std::iter::once(&mut r.next)) {
                if *o == old {
                    *o = new;
                }
            }
        }
    }

    /// Replace every value use (`Dep::Data` edge) of `old` by `new`; order edges stay.
    pub fn replace_data_uses(&mut self, old: OpId, new: OpId) {
        let outs: Vec<(EdgeIndex, NodeIndex, Dep)> = self
            .graph
            .edges_directed(node(old), Direction::Outgoing)
            .filter(|e| matches!(e.weight(), Dep::Data { .. }))
            .map(|e| (e.id(), e.target(), *e.weight()))
            .collect();
        for (e, t, d) in outs {
            self.graph.remove_edge(e);
            self.graph.add_edge(node(new), t, d);
        }
        self.rename_in_side_tables(old, new);
    }

    /// Make `new` operand `operand` of `id` (in place of the value there).
    pub fn set_operand(&mut self, id: OpId, operand: u8, new: OpId) {
        let old: Vec<(EdgeIndex, Dep)> = self
            .graph
            .edges_directed(node(id), Direction::Incoming)
            .filter(|e| matches!(e.weight(), Dep::Data { operand: o, .. } if *o == operand))
            .map(|e| (e.id(), *e.weight()))
            .collect();
        let mut dep = Dep::Data {
            operand,
            distance: 0,
        };
        for (e, d) in old {
            self.graph.remove_edge(e);
            dep = d;
        }
        self.graph.add_edge(node(new), node(id), dep);
    }

    /// Remove every order edge from `from` to `to`.
    pub fn remove_order_edges(&mut self, from: OpId, to: OpId) {
        let es: Vec<EdgeIndex> = self
            .graph
            .edges_connecting(node(from), node(to))
            .filter(|e| matches!(e.weight(), Dep::Order { .. }))
            .map(|e| e.id())
            .collect();
        for e in es {
            self.graph.remove_edge(e);
        }
    }

    pub fn has_uses(&self, id: OpId) -> bool {
        self.graph
            .edges_directed(node(id), Direction::Outgoing)
            .next()
            .is_some()
    }

    /// Some op reads the value of `id` (a `Dep::Data` edge; order edges do not count).
    pub fn has_data_uses(&self, id: OpId) -> bool {
        self.graph
            .edges_directed(node(id), Direction::Outgoing)
            .any(|e| matches!(e.weight(), Dep::Data { .. }))
    }

    pub fn num_ops(&self) -> usize {
        self.graph.node_count()
    }

    /// Ops of one loop region in id order.
    pub fn ops_in(&self, region: crate::ids::LoopId) -> Vec<OpId> {
        self.op_ids()
            .into_iter()
            .filter(|&o| self.op(o).region == region)
            .collect()
    }

    /// True when loop region `outer` is `inner` or encloses it.
    pub fn encloses(&self, outer: LoopId, inner: LoopId) -> bool {
        let mut r = Some(inner);
        while let Some(x) = r {
            if x == outer {
                return true;
            }
            r = self.loops.get(x).and_then(|l| l.parent);
        }
        false
    }

    /// The `Loop` op that starts each nested loop.
    pub fn loop_ops(&self) -> std::collections::BTreeMap<LoopId, OpId> {
        self.op_ids()
            .into_iter()
            .filter_map(|o| match self.op(o).kind {
                OpKind::Loop(l) => Some((l, o)),
                _ => None,
            })
            .collect()
    }

    /// The op that stands for `x` among the ops of `region` (how the scheduler and the
    /// interpreter see nested loops): `x` itself, the `Loop` op of the child loop whose subtree
    /// holds `x`, or `None` for ops outside `region`'s subtree and launch-wide values, which
    /// every region can read at any time. `loop_ops` is [`Kernel::loop_ops`].
    pub fn representative(
        &self,
        x: OpId,
        region: LoopId,
        loop_ops: &std::collections::BTreeMap<LoopId, OpId>,
    ) -> Option<OpId> {
        if self.op(x).kind.is_launch_invariant() {
            return None;
        }
        let mut r = self.op(x).region;
        if r == region {
            return Some(x);
        }
        loop {
            let parent = self.loops[r].parent?;
            if parent == region {
                return loop_ops.get(&r).copied();
            }
            r = parent;
        }
    }

    /// A topological order of region `r`'s ops over distance-0 edges, with a nested loop standing
    /// for its whole subtree (its `Loop` op), as the scheduler sees the region; constants and
    /// launch-wide values are left out (every region reads them at any time). Program order
    /// of side effects and of on-chip memory accesses is kept: lowering orders them by edges.
    pub fn region_order(&self, r: LoopId) -> Vec<OpId> {
        let ops = self.ops_in(r);
        let loop_ops = self.loop_ops();
        let rep = |x: OpId| self.representative(x, r, &loop_ops);
        let ops: Vec<OpId> = ops
            .into_iter()
            .filter(|&o| !self.op(o).kind.is_launch_invariant())
            .collect();
        let mut indeg: std::collections::BTreeMap<OpId, usize> =
            ops.iter().map(|&o| (o, 0)).collect();
        let mut succ: std::collections::BTreeMap<OpId, Vec<OpId>> = Default::default();
        for (s, t, d) in self.edges() {
            if d.distance() != 0 {
                continue;
            }
            // A value leaving a loop reaches its `LoopResult` after the loop has run anyway.
            if matches!(self.op(t).kind, OpKind::LoopResult) && self.op(s).region != r {
                continue;
            }
            let (Some(a), Some(b)) = (rep(s), rep(t)) else {
                continue;
            };
            if a == b {
                continue;
            }
            *indeg.get_mut(&b).expect("an op of the region") += 1;
            succ.entry(a).or_default().push(b);
        }
        let mut ready: Vec<OpId> = indeg
            .iter()
            .filter(|(_, &n)| n == 0)
            .map(|(&o, _)| o)
            .collect();
        ready.reverse();
        let mut out = Vec::new();
        while let Some(o) = ready.pop() {
            out.push(o);
            for &t in succ.get(&o).map(|v| v.as_slice()).unwrap_or(&[]) {
                let n = indeg.get_mut(&t).expect("an op of the region");
                *n -= 1;
                if *n == 0 {
                    ready.push(t);
                }
            }
        }
        assert_eq!(
            out.len(),
            ops.len(),
            "the verifier guarantees an acyclic region"
        );
        out
    }

    pub fn arg(&self, a: ArgId) -> &KernelArg {
        &self.args[a]
    }

    pub fn mem(&self, m: MemId) -> &Memory {
        &self.mems[m]
    }
}
