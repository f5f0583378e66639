//! `partition`: complete partitioning of small on-chip arrays (scalar replacement). An array
//! whose every access has a constant index once `#pragma unroll` loops are unrolled and
//! constants folded (or, for a private array of up to [`MAX_DYNAMIC_ELEMENTS`] elements, any
//! index) stops being a
//! memory: each element becomes a value of the dataflow graph, a register where it lives across
//! cycles, and a value carried from one iteration to the next where a loop changes it. Without a
//! memory there is no port to share and, for private arrays, no single copy that would make the
//! work-items run one at a time.
//!
//! Which arrays: private arrays (per work-item), and `local` arrays where the compiler sees
//! the whole work-group: kernels with barriers (the work-items of a group run as iterations of
//! the phase loops, so an element is one value carried through them) and kernels whose
//! work-group has one work-item (`reqd_work_group_size(1, 1, 1)`). In any other kernel the
//! work-items of a group share `local` memory while they run as separate iterations of the
//! work-item loop, and the array stays a memory. Local pointer arguments (sized at launch) and
//! arrays copied by `async_work_group_copy` are left alone.
//!
//! A variable index is taken for private arrays only: there a memory costs more than its
//! multiplexers (one copy for all work-items makes the work-item loop run them one at a time,
//! and a read-modify-write through it is a loop-carried dependence through memory), while a
//! small `local` memory with a variable index costs no II.
//!
//! How: the accesses are visited in program order (a topological order of each region, which
//! keeps the order edges lowering put between accesses of one memory), keeping the current
//! value of every element. A load becomes that value; a store makes a new one (the stored data,
//! merged byte by byte with the old value for a masked store, behind a select on the store's
//! predicate); a nested loop that stores an element gets a `Carried` value for it (initial: the
//! value before the loop) and a `LoopResult` after it. The iterations of the region the array
//! lives in (the work-item loop, or for a private array in a kernel with barriers the phase
//! loop, one work-item per iteration; for `local` memory the work-group) start afresh. An
//! element read before any store reads 0, as the IR interpreter's fresh memories do (OpenCL
//! leaves it undefined). A variable index reads the element its low bits select (a tree of
//! selects) and writes every element behind a compare; an index outside the array is undefined
//! behaviour in OpenCL and selects some element.
//!
//! Requires: a verified kernel whose constant addresses are folded (after `const-fold`).
//! Guarantees: a verified kernel computing the same values; the replaced memories have no
//! accesses left (they stay in `Kernel::mems`, unused), and `Kernel::partitions` says what
//! happened to each on-chip memory this pass looked at. Dead carried values are removed by
//! `dce`.

use crate::ids::{LoopId, MemId, OpId};
use crate::kernel::{Dep, Kernel, LoopKind, MemKind, MemPartition, Op, Partition};
use crate::ops::{BinOp, ByteMask, CmpOp, OpKind};
use crate::types::Ty;
use frontend::span::Span;
use std::collections::BTreeSet;

/// The most elements an array with only constant indices becomes registers for.
pub const MAX_ELEMENTS: u32 = 64;
/// The most bits (elements × element width) an array becomes registers for.
pub const MAX_BITS: u32 = 2048;
/// The most elements an array with a variable index becomes registers for: each such load is a
/// multiplexer over all elements and each store a compare per element (Vitis HLS completely
/// partitions arrays up to 4 elements by default for the same reason).
pub const MAX_DYNAMIC_ELEMENTS: u32 = 4;

/// Where an access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Index {
    Const(u32),
    Variable,
}

struct Plan {
    /// The region whose iterations start with a fresh array.
    root: LoopId,
    dynamic: bool,
}

pub fn run(k: &mut Kernel) {
    let excluded = not_arrays(k);
    for i in 0..k.mems.len() {
        let m = MemId::from_index(i);
        if k.mem(m).onchip_len().is_none() || excluded.contains(&m) {
            continue;
        }
        let acc = accesses(k, m);
        // Nothing loads it: `dce` removes its stores.
        if !acc
            .iter()
            .any(|&a| matches!(k.op(a).kind, OpKind::Load { .. }))
        {
            continue;
        }
        let outcome = match plan(k, m, &acc) {
            Ok(p) => {
                let elements = k.mem(m).onchip_len().unwrap_or(0);
                Replace::new(k, m).run(p.root);
                k.mem_deps
                    .retain(|d| !acc.contains(&d.from) && !acc.contains(&d.to));
                Partition::Registers {
                    elements,
                    dynamic: p.dynamic,
                }
            }
            Err((reason, at)) => Partition::Whole {
                reason,
                at,
                loops: Vec::new(),
            },
        };
        k.partitions.push(MemPartition { mem: m, outcome });
    }
}

/// On-chip memories that are not plain arrays: local pointer arguments (their size is the
/// launch's), memories an async copy reads or writes as a block, and memories with atomics
/// (their read-modify-write forwards through the memory's ports).
pub(crate) fn not_arrays(k: &Kernel) -> BTreeSet<MemId> {
    let mut out: BTreeSet<MemId> = k
        .args
        .iter()
        .filter_map(|a| match a.kind {
            crate::kernel::ArgKind::LocalPtr(m) => Some(m),
            _ => None,
        })
        .collect();
    for o in k.op_ids() {
        let in_copy = matches!(
            k.loops[k.op(o).region].kind,
            crate::kernel::LoopKind::Copy { .. }
        );
        match k.op(o).kind {
            OpKind::AsyncCopy { local, .. } => {
                out.insert(local);
            }
            // A copy loop's on-chip side (the copy may run beside other code).
            OpKind::Load { mem } | OpKind::Store { mem, .. }
                if in_copy && !matches!(k.mem(mem).kind, crate::kernel::MemKind::Global { .. }) =>
            {
                out.insert(mem);
            }
            OpKind::Atomic { mem, .. } => {
                out.insert(mem);
            }
            _ => {}
        }
    }
    out
}

/// The loads and stores of memory `m`, in id order.
pub(crate) fn accesses(k: &Kernel, m: MemId) -> Vec<OpId> {
    k.op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, OpKind::Load { mem } | OpKind::Store { mem, .. } if mem == m))
        .collect()
}

fn index_of(k: &Kernel, m: MemId, access: OpId) -> Option<Index> {
    let mem = k.mem(m);
    let addr = k.operands(access)[0];
    match k.op(addr).kind {
        OpKind::Const(a) => {
            let eb = u64::from(mem.elem_bytes);
            let len = u64::from(mem.onchip_len()?);
            (a % eb == 0 && a / eb < len).then(|| Index::Const((a / eb) as u32))
        }
        _ => Some(Index::Variable),
    }
}

type Reason = (String, Option<Span>);

fn plan(k: &Kernel, m: MemId, acc: &[OpId]) -> Result<Plan, Reason> {
    let mem = k.mem(m);
    let len = mem.onchip_len().unwrap_or(0);
    let group_mode = k.work_groups.is_some();
    if matches!(mem.kind, MemKind::Program { .. }) {
        return Err((
            "a program-scope variable is a memory with contents from configuration, kept across launches".into(),
            None,
        ));
    }
    if matches!(mem.kind, MemKind::Local { .. })
        && !group_mode
        && k.reqd_work_group_size != Some([1, 1, 1])
    {
        return Err((
            "`local` memory is shared by the work-items of a group, which run as separate work-item iterations in a kernel without barriers (registers would give each its own copy)".into(),
            None,
        ));
    }
    let bits = u64::from(len) * u64::from(mem.elem.bits());
    if len > MAX_ELEMENTS || bits > u64::from(MAX_BITS) {
        return Err((
            format!(
                "{len} elements of {} bits are more than registers take ({MAX_ELEMENTS} elements, {MAX_BITS} bits)",
                mem.elem.bits()
            ),
            None,
        ));
    }
    let mut dynamic = false;
    for &a in acc {
        let span = k.op(a).span;
        match index_of(k, m, a) {
            None => {
                return Err((
                    "a constant index is outside the array or not a whole element".into(),
                    Some(span),
                ))
            }
            Some(Index::Variable)
                if len > MAX_DYNAMIC_ELEMENTS || !matches!(mem.kind, MemKind::Private { .. }) =>
            {
                return Err((
                    format!("an index is not a constant, and only private arrays of up to {MAX_DYNAMIC_ELEMENTS} elements take variable indices"),
                    Some(span),
                ))
            }
            Some(Index::Variable) => dynamic = true,
            Some(Index::Const(_)) => {}
        }
        if let OpKind::Store { mask: Some(_), .. } = k.op(a).kind {
            if !matches!(mem.elem, Ty::Int(w) if w % 8 == 0) {
                return Err((
                    "a partial store to elements that are not whole bytes".into(),
                    Some(span),
                ));
            }
        }
        if matches!(k.op(a).kind, OpKind::Store { .. }) && k.has_data_uses(a) {
            return Err(("a store whose token is used as a value".into(), Some(span)));
        }
    }
    // The region whose iterations are one instance of the array.
    let regions: Vec<LoopId> = acc.iter().map(|&a| k.op(a).region).collect();
    let root = match mem.kind {
        MemKind::Private { .. } if group_mode => {
            let lca = common_ancestor(k, &regions);
            let mut r = Some(lca);
            while let Some(x) = r {
                if k.loops[x].kind == LoopKind::Phase {
                    break;
                }
                r = k.loops[x].parent;
            }
            match r {
                    Some(p) if regions.iter().all(|&x| k.encloses(p, x)) => p,
                    _ => return Err((
                        "it keeps per-work-item values from one phase to a later one, or is used outside the code between barriers".into(),
                        Some(k.op(acc[0]).span),
                    )),
                }
        }
        _ => Kernel::WORK_ITEM_LOOP,
    };
    Ok(Plan { root, dynamic })
}

/// The innermost region enclosing all of `regions`.
fn common_ancestor(k: &Kernel, regions: &[LoopId]) -> LoopId {
    let chain = |mut r: LoopId| {
        let mut v = vec![r];
        while let Some(p) = k.loops[r].parent {
            v.push(p);
            r = p;
        }
        v
    };
    let first = chain(regions[0]);
    first
        .into_iter()
        .find(|&a| regions.iter().all(|&r| k.encloses(a, r)))
        .unwrap_or(Kernel::WORK_ITEM_LOOP)
}

/// Where new ops go: a region, and the span of the source they stand for.
#[derive(Clone, Copy)]
pub(crate) struct Site {
    pub region: LoopId,
    pub span: Span,
}

impl Site {
    pub fn of(k: &Kernel, o: OpId) -> Site {
        Site {
            region: k.op(o).region,
            span: k.op(o).span,
        }
    }

    /// Adds an op of `kind` and type `ty` here.
    pub fn add(self, k: &mut Kernel, kind: OpKind, ty: Ty, operands: &[OpId]) -> OpId {
        k.add_op(
            Op {
                kind,
                ty,
                region: self.region,
                span: self.span,
                name: None,
            },
            operands,
        )
    }

    /// A constant, kept with the launch-wide values of the work-item loop.
    pub fn constant(self, k: &mut Kernel, v: u64, ty: Ty) -> OpId {
        Site {
            region: Kernel::WORK_ITEM_LOOP,
            ..self
        }
        .add(k, OpKind::Const(v & ty.mask()), ty, &[])
    }
}

/// The value of `leaves[i]` where bits `lo ..` of `index` are `i` (a tree of selects, one level
/// per bit, lowest bit first; patterns past the last leaf take the last leaf).
pub(crate) fn select_by_bits(
    k: &mut Kernel,
    index: OpId,
    lo: u32,
    leaves: &[OpId],
    at: Site,
) -> OpId {
    let mut level: Vec<OpId> = leaves.to_vec();
    let n = leaves.len().next_power_of_two();
    let last = *level.last().expect("at least one leaf");
    level.resize(n, last);
    let ty = k.op(last).ty;
    let mut bit = lo;
    while level.len() > 1 {
        let b = at.add(k, OpKind::Extract { lo: bit }, Ty::BOOL, &[index]);
        level = level
            .chunks(2)
            .map(|p| {
                if p[0] == p[1] {
                    p[0]
                } else {
                    at.add(k, OpKind::Select, ty, &[b, p[1], p[0]])
                }
            })
            .collect();
        bit += 1;
    }
    level[0]
}

/// `pred && bits lo .. lo + n of index == value`, `(lo, n) = bits`.
pub(crate) fn pred_and_bits_equal(
    k: &mut Kernel,
    pred: OpId,
    index: OpId,
    (lo, n): (u32, u32),
    value: u64,
    at: Site,
) -> OpId {
    let t = Ty::Int(n as u16);
    let bits = at.add(k, OpKind::Extract { lo }, t, &[index]);
    let v = at.constant(k, value, t);
    let eq = at.add(k, OpKind::Cmp(CmpOp::Eq), Ty::BOOL, &[bits, v]);
    match k.op(pred).kind {
        OpKind::Const(c) if c & 1 == 1 => eq,
        _ => at.add(k, OpKind::Binary(BinOp::And), Ty::BOOL, &[pred, eq]),
    }
}

/// Bits needed to number `n` things (at least 1).
pub(crate) fn index_bits(n: u32) -> u32 {
    (32 - (n.max(2) - 1).leading_zeros()).max(1)
}

/// The scalar replacement of one memory.
struct Replace<'a> {
    k: &'a mut Kernel,
    m: MemId,
    len: u32,
    elem: Ty,
    /// log2 of the element stride in bytes (the stride is a power of two on chip).
    shift: u32,
    name: String,
    /// Per loop: the elements some store in its subtree may write.
    stored: Vec<Vec<bool>>,
    /// Per loop: some access of the memory is in its subtree.
    touched: Vec<bool>,
    zero: Option<OpId>,
}

type Elements = Vec<Option<OpId>>;

impl<'a> Replace<'a> {
    fn new(k: &'a mut Kernel, m: MemId) -> Replace<'a> {
        let mem = k.mem(m).clone();
        let len = mem.onchip_len().unwrap_or(0);
        let mut stored = vec![vec![false; len as usize]; k.loops.len()];
        let mut touched = vec![false; k.loops.len()];
        for a in accesses(k, m) {
            let written: Vec<usize> = match (&k.op(a).kind, index_of(k, m, a)) {
                (OpKind::Store { .. }, Some(Index::Const(e))) => vec![e as usize],
                (OpKind::Store { .. }, _) => (0..len as usize).collect(),
                _ => Vec::new(),
            };
            let mut r = Some(k.op(a).region);
            while let Some(x) = r {
                touched[x.index()] = true;
                for &e in &written {
                    stored[x.index()][e] = true;
                }
                r = k.loops[x].parent;
            }
        }
        Replace {
            len,
            elem: mem.elem,
            shift: mem.elem_bytes.trailing_zeros(),
            name: mem.name,
            m,
            k,
            stored,
            touched,
            zero: None,
        }
    }

    fn run(mut self, root: LoopId) {
        let fresh = vec![None; self.len as usize];
        self.region(root, fresh);
    }

    fn get(&mut self, cur: &Elements, e: usize, at: Site) -> OpId {
        match cur[e] {
            Some(v) => v,
            None => {
                let elem = self.elem;
                *self
                    .zero
                    .get_or_insert_with(|| at.constant(self.k, 0, elem))
            }
        }
    }

    fn name(&mut self, o: OpId, e: usize) {
        self.k.op_mut(o).name = Some(format!("{}_{e}", self.name));
    }

    fn mine(&self, o: OpId) -> bool {
        matches!(self.k.op(o).kind, OpKind::Load { mem } | OpKind::Store { mem, .. } if mem == self.m)
    }

    /// Replaces the accesses in region `r` (and the loops inside), starting from the element
    /// values `cur`; returns the values at the end of an iteration.
    fn region(&mut self, r: LoopId, mut cur: Elements) -> Elements {
        for o in self.k.region_order(r) {
            let at = Site::of(self.k, o);
            match self.k.op(o).kind.clone() {
                OpKind::Load { .. } if self.mine(o) => {
                    let addr = self.k.operands(o)[0];
                    let v = match index_of(self.k, self.m, o) {
                        Some(Index::Const(e)) => self.get(&cur, e as usize, at),
                        _ => {
                            let leaves: Vec<OpId> = (0..self.len as usize)
                                .map(|e| self.get(&cur, e, at))
                                .collect();
                            select_by_bits(self.k, addr, self.shift, &leaves, at)
                        }
                    };
                    self.k.replace_data_uses(o, v);
                    self.k.remove_op(o);
                }
                OpKind::Store { mask, .. } if self.mine(o) => {
                    let ops = self.k.operands(o);
                    let (addr, data, pred) = (ops[0], ops[1], ops[2]);
                    let targets: Vec<(usize, OpId)> = match index_of(self.k, self.m, o) {
                        Some(Index::Const(e)) => vec![(e as usize, pred)],
                        _ => {
                            let bits = (self.shift, index_bits(self.len));
                            (0..self.len as usize)
                                .map(|e| {
                                    let p =
                                        pred_and_bits_equal(self.k, pred, addr, bits, e as u64, at);
                                    (e, p)
                                })
                                .collect()
                        }
                    };
                    for (e, p) in targets {
                        let old = self.get(&cur, e, at);
                        let new = self.merge(old, data, mask.as_ref(), at);
                        let v = match self.k.op(p).kind {
                            OpKind::Const(c) if c & 1 == 1 => new,
                            _ => at.add(self.k, OpKind::Select, self.elem, &[p, new, old]),
                        };
                        if v != data {
                            self.name(v, e);
                        }
                        cur[e] = Some(v);
                    }
                    self.k.remove_op(o);
                }
                OpKind::Loop(c) if self.touched[c.index()] => {
                    let elems: Vec<usize> = (0..self.len as usize)
                        .filter(|&e| self.stored[c.index()][e])
                        .collect();
                    let mut inner = cur.clone();
                    let mut carried = Vec::new();
                    let inside = Site { region: c, ..at };
                    for &e in &elems {
                        let init = self.get(&cur, e, at);
                        let x = inside.add(self.k, OpKind::Carried, self.elem, &[init]);
                        self.name(x, e);
                        inner[e] = Some(x);
                        carried.push((e, x, init));
                    }
                    let end = self.region(c, inner);
                    for (e, x, init) in carried {
                        let next = end[e].expect("a carried element has a value");
                        if next == x {
                            // Unchanged after all: the value from before the loop.
                            self.k.replace_uses(x, init);
                            self.k.remove_op(x);
                            continue;
                        }
                        self.k.add_dep(
                            next,
                            x,
                            Dep::Data {
                                operand: 1,
                                distance: 1,
                            },
                        );
                        let res = at.add(self.k, OpKind::LoopResult, self.elem, &[o, next, init]);
                        self.name(res, e);
                        cur[e] = Some(res);
                    }
                }
                _ => {}
            }
        }
        cur
    }

    /// The element after a store of `data` (all bytes, or those of `mask`) over `old`.
    fn merge(&mut self, old: OpId, data: OpId, mask: Option<&ByteMask>, at: Site) -> OpId {
        let Some(mask) = mask.filter(|m| !m.all()) else {
            return data;
        };
        let bytes = self.elem.bits() / 8;
        let written = |i: u32| mask.0.get(i as usize).copied().unwrap_or(false);
        let mut parts = Vec::new();
        let mut lo = 0;
        while lo < bytes {
            let mut hi = lo + 1;
            while hi < bytes && written(hi) == written(lo) {
                hi += 1;
            }
            let src = if written(lo) { data } else { old };
            let ty = Ty::Int((8 * (hi - lo)) as u16);
            parts.push(at.add(self.k, OpKind::Extract { lo: 8 * lo }, ty, &[src]));
            lo = hi;
        }
        at.add(self.k, OpKind::Concat, self.elem, &parts)
    }
}
