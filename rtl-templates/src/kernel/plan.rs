//! The plan of a kernel module: everything decided before any Verilog is written. Per loop
//! region its schedule, prefix, live-ins and whether it runs serially; per value its name, the
//! cycle it is available in and every cycle it is read in (so the pipeline registers carrying
//! it are known); which work-item functions the kernel observes; where each memory lives and
//! which read port each on-chip load takes ([`MemPlan`]); the atomic counters ([`CounterPlan`]).
//!
//! The plan is read-only once built: emission (the other modules of `kernel`) only reads it.

use super::counters::{plan_counters, CounterPlan};
use super::memory::{plan_memories, MemPlan};
use crate::namer::value_name;
use frontend::diag::Diagnostic;
use hls_ir::analysis::serial::SerialReason;
use hls_ir::{Kernel, LoopId, LoopKind, OpId, OpKind, WorkItemFn};
use scheduler::kernel::{KernelSchedule, LoopSchedule};
use std::collections::{BTreeMap, BTreeSet};

/// One loop region: the work-item pipeline (`loop0`, no prefix) or a loop written in the
/// kernel (`lN_` prefix), a pipeline of its own started by a `Loop` op of its parent.
pub(super) struct RegionPlan<'a> {
    pub ls: &'a LoopSchedule,
    pub pre: String,
    /// The enclosing region (an index like the region's own, see [`Plan::regions`]).
    pub parent: Option<usize>,
    /// The parent's `Loop` op that starts this loop.
    pub loop_op: Option<OpId>,
    /// Values of enclosing regions read inside: latched when the loop starts.
    pub live_ins: BTreeSet<OpId>,
    /// Why this pipeline runs one iteration at a time, when it must: an on-chip memory used
    /// here and in a loop inside (one port, no arbitration), or a private array (one copy).
    pub serial: Option<SerialReason>,
    /// The cycles of this region in which each live-in is read.
    pub live_in_reads: BTreeMap<OpId, BTreeSet<u32>>,
    /// The loop's next entry may start while the previous one drains (`overlap.rs`).
    pub overlap: bool,
    /// The pipeline's stall is a register predicted a cycle ahead (`stall.rs`).
    pub registered_stall: bool,
}

/// What the kernel observes of one dimension of the launch (it decides the work-item
/// generator's logic and the size ports).
#[derive(Clone, Copy, Default)]
pub(super) struct DimUse {
    pub dim: u8,
    pub gid: bool,
    pub lid: bool,
    pub grp: bool,
    pub lsize: bool,
    pub goff: bool,
    /// `get_enqueued_local_size` is read (`lsz_N`).
    pub lsz: bool,
    /// `get_num_groups` is read: `ngrp_N`, computed by an iterative divider while the
    /// generator starts (`workitems.v`).
    pub ngrp: bool,
    /// The kernel observes the work-group structure of this dimension (local id, group id or
    /// local size); otherwise the dimension is walked as one group, which needs far less logic.
    pub grouped: bool,
}

/// The work-item functions the kernel uses.
pub(super) struct WorkItemUse {
    pub dims: [DimUse; 3],
    /// `get_work_dim` is read (a `work_dim` port and register).
    pub work_dim: bool,
}

/// The side tables of one kernel module, keyed by op id or region index.
pub(super) struct Plan<'a> {
    pub k: &'a Kernel,
    /// Per loop region, indexed by `LoopId::index()` (`[0]` is the work-item pipeline); every
    /// region index in the plan and in emission (`usize`) means such an index.
    pub regions: Vec<RegionPlan<'a>>,
    /// The Verilog name of every value (`<source name>_v<op id>`).
    pub names: BTreeMap<OpId, String>,
    /// The cycle (of its own region) in which each value is first there.
    pub avail: BTreeMap<OpId, u32>,
    /// The last cycle (of its own region) in which each value is read.
    pub last_use: BTreeMap<OpId, u32>,
    /// Every cycle (of its own region) in which each value is read.
    pub use_cycles: BTreeMap<OpId, BTreeSet<u32>>,
    /// Concatenations rebuilt as wires in each later stage that needs them (from their
    /// pipelined parts) instead of being pipelined whole.
    pub remat: BTreeSet<OpId>,
    pub work_items: WorkItemUse,
    /// The memories the loads and stores use (planned last, once the values are timed).
    pub mems: MemPlan,
    /// The atomic counters the kernel updates, with the order of their updates in a cycle.
    pub counters: Vec<CounterPlan>,
}

/// Ops whose pipeline hands off to, or waits for, a unit other than a memory port: loops it
/// starts, barriers, pipes, async copies and their events, atomic counters. Overlapped loops
/// (`overlap.rs`) and registered stalls (`stall.rs`) are built only without them.
pub(super) fn waits_on_other_units(kind: &OpKind) -> bool {
    matches!(
        kind,
        OpKind::Loop(_)
            | OpKind::Barrier { .. }
            | OpKind::PipeRead { .. }
            | OpKind::PipeWrite { .. }
            | OpKind::PipeReserve { .. }
            | OpKind::PipeCommit { .. }
            | OpKind::PipeQuery { .. }
            | OpKind::ReserveIdValid
            | OpKind::AsyncCopy { .. }
            | OpKind::WaitEvents
            | OpKind::CounterUpdate { .. }
    )
}

/// A per-work-item value of the generator (`get_global_id` ...): there in every stage.
pub(super) fn is_per_item(kind: &OpKind) -> bool {
    matches!(kind, OpKind::WorkItem(f, _) if !f.is_launch_invariant())
}

/// The generator's register of per-work-item value `f` of dimension `d` (`gid_0` ...); the
/// datapath reads its copy at the head of the item queue, `item_<register>`.
pub(super) fn item_register(f: WorkItemFn, d: u8) -> String {
    let v = match f {
        WorkItemFn::GlobalId => "gid",
        WorkItemFn::LocalId => "lid",
        WorkItemFn::GroupId => "grp",
        WorkItemFn::LocalSize => "cur",
        _ => unreachable!("`{}` is launch-invariant, not per work-item", f.name()),
    };
    format!("{v}_{d}")
}

impl<'a> Plan<'a> {
    /// Plans kernel `k` scheduled by `s`; the diagnostics say what the hardware path does not
    /// support.
    pub fn build(k: &'a Kernel, s: &'a KernelSchedule) -> Result<Self, Vec<Diagnostic>> {
        let mut p = Plan {
            k,
            regions: plan_regions(k, s),
            names: BTreeMap::new(),
            avail: BTreeMap::new(),
            last_use: BTreeMap::new(),
            use_cycles: BTreeMap::new(),
            remat: BTreeSet::new(),
            work_items: WorkItemUse {
                dims: [0u8, 1, 2].map(|d| DimUse {
                    dim: d,
                    ..Default::default()
                }),
                work_dim: false,
            },
            mems: MemPlan::default(),
            counters: Vec::new(),
        };
        p.find_serial_regions();
        let diags = p.name_and_time_values();
        p.hoist_bit_selects();
        p.note_operand_uses();
        p.note_loop_exit_uses();
        p.rebuild_concats();
        let dims = &mut p.work_items.dims;
        if k.work_groups.is_some() {
            // The walk visits every work-item; the group's first (all local ids 0) leads it.
            for d in dims.iter_mut() {
                d.lid = true;
            }
        }
        for d in dims.iter_mut() {
            d.grouped = d.lid || d.grp || d.lsize || d.lsz || d.ngrp;
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        p.mems = plan_memories(&p);
        p.counters = plan_counters(&p);
        for r in 1..p.regions.len() {
            p.regions[r].overlap = p.overlappable(r);
        }
        for r in 0..p.regions.len() {
            p.regions[r].registered_stall = super::stall::registered_stall_ok(&p, r);
        }
        p.note_prediction_uses();
        Ok(p)
    }

    /// Regions that must run one iteration at a time (`hls_ir::analysis::serial`, as the
    /// scheduler recorded it).
    fn find_serial_regions(&mut self) {
        for r in &mut self.regions {
            if let Some(why) = r.ls.serial {
                r.serial.get_or_insert(why);
            }
        }
    }

    /// Names every value, notes the work-item functions used, and the cycle in which each
    /// value is there (its start plus latency).
    fn name_and_time_values(&mut self) -> Vec<Diagnostic> {
        let diags = Vec::new();
        for o in self.k.op_ids() {
            let op = self.k.op(o);
            let base = op.name.clone().unwrap_or_else(|| op.kind.mnemonic());
            self.names.insert(o, value_name(&base, o.0));
            match &op.kind {
                OpKind::WorkItem(f, d) => {
                    let du = &mut self.work_items.dims[*d as usize];
                    match f {
                        WorkItemFn::GlobalId => {
                            du.gid = true;
                            du.goff = true;
                        }
                        WorkItemFn::LocalId => du.lid = true,
                        WorkItemFn::GroupId => du.grp = true,
                        WorkItemFn::LocalSize => du.lsize = true,
                        WorkItemFn::GlobalOffset => du.goff = true,
                        WorkItemFn::WorkDim => self.work_items.work_dim = true,
                        WorkItemFn::GlobalSize => {}
                        WorkItemFn::EnqueuedLocalSize => du.lsz = true,
                        WorkItemFn::NumGroups => du.ngrp = true,
                    }
                    if is_per_item(&op.kind) {
                        self.avail.insert(o, 0);
                    }
                }
                k if k.is_launch_invariant() => {}
                // A loop's results are there in the cycle after it was started (the parent
                // waits in that stage until the loop has finished).
                OpKind::LoopResult => {
                    let l = self.k.operands(o)[0];
                    let c = self.start(l) + 1;
                    self.avail.insert(o, c);
                }
                _ => {
                    let ls = self.ls_of(o);
                    if !ls.start.contains_key(&o) {
                        panic!("op {o} of {} has no schedule", op.region);
                    }
                    // Tokens (stores) carry no value: nothing waits for them in the datapath.
                    if op.ty != hls_ir::Ty::Token {
                        self.avail.insert(o, ls.start[&o] + ls.latency[&o]);
                    }
                }
            }
        }
        diags
    }

    /// Bit selects are wiring: each is taken as soon as its source is there, so the narrow
    /// field travels down the pipeline rather than the wide image it comes from.
    fn hoist_bit_selects(&mut self) {
        let all = self.k.op_ids();
        loop {
            let mut changed = false;
            for &o in &all {
                if !matches!(self.k.op(o).kind, OpKind::Extract { .. }) {
                    continue;
                }
                let src = self.k.operands(o)[0];
                if self.region_of(src) != self.region_of(o) || is_per_item(&self.k.op(src).kind) {
                    continue;
                }
                if let (Some(&a), Some(&b)) = (self.avail.get(&src), self.avail.get(&o)) {
                    if a < b {
                        self.avail.insert(o, a);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Every operand is read in the cycle its op starts, with the exceptions of loop results
    /// and carried values (see the comments) and a load's predicate (read again when the
    /// response is popped).
    fn note_operand_uses(&mut self) {
        for o in self.k.op_ids() {
            let kind = self.k.op(o).kind.clone();
            if kind.is_launch_invariant() || is_per_item(&kind) {
                continue;
            }
            let r = self.region_of(o);
            let operands = self.k.operands(o);
            let start = match kind {
                OpKind::LoopResult | OpKind::Extract { .. } => self.avail[&o],
                _ => self.start(o),
            };
            for (i, &x) in operands.iter().enumerate() {
                match (&kind, i) {
                    // The value leaving the loop is captured inside the loop.
                    (OpKind::LoopResult, 1) => continue,
                    // The init value is latched when the loop starts.
                    (OpKind::LoopResult, 2) => {
                        let l = operands[0];
                        self.use_in(x, r, self.start(l));
                        continue;
                    }
                    // The next value: the previous iteration's, II stages further on.
                    // A carried value in a register of its own takes its initial value from
                    // the parent when the loop starts.
                    (OpKind::Carried, 0) if self.carried_holds(o) => {
                        let parent = self.regions[r].parent.expect("a source loop has a parent");
                        let (_, s) = self.loop_start(r);
                        self.use_in(x, parent, s);
                        continue;
                    }
                    (OpKind::Carried, 1) => {
                        // Serial, or in a register of its own: the next value is stored as it
                        // is computed. Otherwise the previous iteration is exactly II stages
                        // ahead.
                        let c = if self.regions[r].serial.is_some() || self.carried_holds(o) {
                            self.avail.get(&x).copied().unwrap_or(start)
                        } else {
                            start + self.ls_of(o).slot_ii.max(1)
                        };
                        self.use_in(x, r, c);
                        continue;
                    }
                    _ => {}
                }
                self.use_in(x, r, start);
            }
            // A read run's count goes with the read's request (`Kernel::read_runs`).
            if let Some(&run) = self.k.read_runs.get(&o) {
                self.use_in(run, r, start);
            }
            // A global port pops the response under the predicate; an on-chip read uses it
            // only in its read enable, at the start (on-chip atomics: below).
            if let OpKind::Load { mem } | OpKind::Atomic { mem, .. } = kind {
                let global = self.k.mem(mem).onchip_len().is_none();
                if global && !super::memory::drops_response(self.k, o) {
                    let pred = *operands.last().expect("loads have a predicate");
                    self.use_in(pred, r, start + self.load_latency(o));
                }
            }
            // An on-chip atomic computes its new value one cycle after its read, from the
            // operands of then, and writes it one cycle later, to the address of then
            // (`onchip_atomic`).
            if let OpKind::Atomic { mem, .. } = kind {
                if !matches!(self.k.mem(mem).kind, hls_ir::MemKind::Global { .. }) {
                    let (last, lat) = (operands.len() - 1, self.load_latency(o));
                    for (i, &x) in operands.iter().enumerate() {
                        let c = if i == 0 || i == last { lat + 1 } else { lat };
                        self.use_in(x, r, start + c);
                    }
                }
            }
        }
    }

    /// A registered stall predicts a load's response wait from the stage before it: the
    /// load's predicate is read there too (`stall.rs`).
    fn note_prediction_uses(&mut self) {
        for o in self.k.op_ids() {
            let r = self.region_of(o);
            if !self.regions[r].registered_stall {
                continue;
            }
            if let OpKind::Load { mem } = self.k.op(o).kind {
                if self.k.mem(mem).onchip_len().is_none() {
                    let pred = *self.k.operands(o).last().expect("loads have a predicate");
                    let c = self.start(o) + self.load_latency(o) - 1;
                    self.use_in(pred, r, c);
                }
            }
        }
    }

    /// Values leaving each loop and its exit condition are read at the capture stage.
    fn note_loop_exit_uses(&mut self) {
        for r in 1..self.regions.len() {
            let c = self.capture_stage(r);
            for (_, next) in self.loop_results(r) {
                self.use_in(next, r, c);
            }
            if let Some(e) = self.exit_of(r) {
                let stop = self.k.operands(e)[0];
                self.use_in(stop, r, c);
            }
        }
    }

    /// A concatenation needed in a later stage is rebuilt there from its parts, so only its
    /// non-constant parts travel down the pipeline.
    fn rebuild_concats(&mut self) {
        let all = self.k.op_ids();
        loop {
            let mut changed = false;
            for &o in &all {
                if !matches!(self.k.op(o).kind, OpKind::Concat) {
                    continue;
                }
                let (Some(&a), Some(&u)) = (self.avail.get(&o), self.last_use.get(&o)) else {
                    continue;
                };
                if u <= a {
                    continue;
                }
                self.remat.insert(o);
                let r = self.region_of(o);
                // Rebuilt in every later stage that reads it (`emit_value_registers`), so each
                // part is read in each of them, not only in the last: a part crossing to the
                // last in a delay line has no copy in the stages between (the kernel fuzzer
                // found it, `tests/fuzz-regressions/seed2525_case71.cl`).
                let cycles: Vec<u32> = self.use_cycles[&o].range(a + 1..).copied().collect();
                for x in self.k.operands(o) {
                    let before = self.use_cycles.get(&x).cloned();
                    for &c in &cycles {
                        self.use_in(x, r, c);
                    }
                    changed |= self.use_cycles.get(&x) != before.as_ref();
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Value `x` is used in cycle `c` of region `r`: in its own region it must be kept in the
    /// pipeline until then; from an enclosing region it is a live-in of `r` (and of every region
    /// in between), read by the parent when it starts the loop.
    fn use_in(&mut self, x: OpId, r: usize, c: u32) {
        if self.k.op(x).kind.is_launch_invariant() || !self.avail.contains_key(&x) {
            return;
        }
        let home = self.region_of(x);
        let mut r = r;
        let mut c = c;
        while r != home {
            self.regions[r].live_ins.insert(x);
            self.regions[r]
                .live_in_reads
                .entry(x)
                .or_default()
                .insert(c);
            let (_, s) = self.loop_start(r);
            c = s;
            r = self.regions[r]
                .parent
                .expect("a value's region encloses the regions that use it");
        }
        self.note_use(x, c);
    }

    fn note_use(&mut self, x: OpId, cycle: u32) {
        if self.avail.contains_key(&x) {
            self.use_cycles.entry(x).or_default().insert(cycle);
            let e = self.last_use.entry(x).or_insert(cycle);
            *e = (*e).max(cycle);
        }
    }

    /// Ops of region `r`.
    pub fn ops(&self, r: usize) -> Vec<OpId> {
        self.k.ops_in(LoopId::from_index(r))
    }

    pub fn region_of(&self, o: OpId) -> usize {
        self.k.op(o).region.index()
    }

    /// The schedule of the region `o` belongs to.
    pub fn ls_of(&self, o: OpId) -> &'a LoopSchedule {
        self.regions[self.region_of(o)].ls
    }

    pub fn start(&self, o: OpId) -> u32 {
        self.ls_of(o).start[&o]
    }

    pub fn load_latency(&self, o: OpId) -> u32 {
        self.ls_of(o).latency[&o]
    }

    pub fn bits(&self, o: OpId) -> u32 {
        self.k.op(o).ty.bits()
    }

    /// The `Loop` op that starts region `r`, and its start cycle in the parent.
    pub fn loop_start(&self, r: usize) -> (OpId, u32) {
        let l = self.regions[r]
            .loop_op
            .expect("a source loop has a loop op");
        (l, self.start(l))
    }

    /// The region index of `LoopResult` `o`'s loop.
    pub fn result_loop(&self, o: OpId) -> usize {
        match self.k.op(self.k.operands(o)[0]).kind {
            OpKind::Loop(l) => l.index(),
            _ => unreachable!("the verifier checks that a loop result names a loop"),
        }
    }

    /// The stage of loop `r` in which its last iteration's results are captured: every value
    /// leaving the loop and the exit condition are available there.
    pub fn capture_stage(&self, r: usize) -> u32 {
        let mut c = 0;
        for o in self.ops(r) {
            if let OpKind::LoopExit = self.k.op(o).kind {
                let stop = self.k.operands(o)[0];
                c = c.max(self.avail.get(&stop).copied().unwrap_or(0));
            }
        }
        for (_, next) in self.loop_results(r) {
            if self.region_of(next) == r {
                c = c.max(self.avail.get(&next).copied().unwrap_or(0));
            }
        }
        c
    }

    /// `(loop result, value in the loop)` for every value leaving loop `r`.
    pub fn loop_results(&self, r: usize) -> Vec<(OpId, OpId)> {
        self.k
            .op_ids()
            .into_iter()
            .filter(|&o| {
                matches!(self.k.op(o).kind, OpKind::LoopResult) && self.result_loop(o) == r
            })
            .map(|o| (o, self.k.operands(o)[1]))
            .collect()
    }

    pub fn exit_of(&self, r: usize) -> Option<OpId> {
        self.ops(r)
            .into_iter()
            .find(|&o| matches!(self.k.op(o).kind, OpKind::LoopExit))
    }

    /// Stages of the pipeline of region `r`.
    pub fn stages(&self, r: usize) -> u32 {
        let mut d = 1;
        for o in self.ops(r) {
            if let Some(&s) = self.regions[r].ls.start.get(&o) {
                // A work-item that started a loop waits for it in the next stage.
                let wait = u32::from(matches!(self.k.op(o).kind, OpKind::Loop(_)));
                d = d.max(s + 1 + wait);
                // An on-chip atomic writes one stage after its result (`onchip_atomic`).
                if let OpKind::Atomic { mem, .. } = self.k.op(o).kind {
                    if !matches!(self.k.mem(mem).kind, hls_ir::MemKind::Global { .. }) {
                        d = d.max(s + self.load_latency(o) + 2);
                    }
                }
            }
            if is_per_item(&self.k.op(o).kind) {
                continue;
            }
            if let Some(&a) = self.avail.get(&o) {
                d = d.max(a + 1);
            }
            if let Some(&u) = self.last_use.get(&o) {
                d = d.max(u + 1);
            }
        }
        d
    }

    /// Whether loop-carried value `o` is kept in a register of its own (see
    /// `datapath::loops`): in a pipelined source loop, when its next value is computed in the
    /// stage that reads the carried value or in one of the `ii - 1` after it
    /// (`c <= a < c + ii`). Then an iteration reads the register before it overwrites it, and
    /// after the previous iteration has written it.
    pub fn carried_holds(&self, o: OpId) -> bool {
        let r = self.region_of(o);
        if !matches!(self.k.op(o).kind, OpKind::Carried)
            || r == 0
            || self.regions[r].serial.is_some()
        {
            return false;
        }
        let next = self.k.operands(o)[1];
        if self.region_of(next) != r {
            return false;
        }
        // A constant next value (`v = 10;` in the loop) is no register: the first-iteration
        // mux selects it.
        let Some(&a) = self.avail.get(&next) else {
            return false;
        };
        let (c, ii) = (self.start(o), self.regions[r].ls.slot_ii.max(1));
        c <= a && a < c + ii
    }

    /// Whether loop-carried value `o` selects its value with the first-iteration flag.
    pub fn carried_mux(&self, o: OpId) -> bool {
        matches!(self.k.op(o).kind, OpKind::Carried) && !self.carried_holds(o)
    }
}

/// Every loop region with its schedule, prefix, parent and the op that starts it.
fn plan_regions<'a>(k: &'a Kernel, s: &'a KernelSchedule) -> Vec<RegionPlan<'a>> {
    let mut regions = Vec::new();
    for (i, l) in k.loops.iter().enumerate() {
        let id = LoopId::from_index(i);
        let ls = s
            .for_loop(id)
            .expect("every loop region is scheduled before emission");
        let loop_op = k
            .op_ids()
            .into_iter()
            .find(|&o| k.op(o).kind == OpKind::Loop(id));
        if l.kind != LoopKind::WorkItems && loop_op.is_none() {
            panic!("loop{i} has no `loop` op in its parent");
        }
        regions.push(RegionPlan {
            ls,
            pre: if i == 0 {
                String::new()
            } else {
                format!("l{i}_")
            },
            parent: l.parent.map(|p| p.index()),
            loop_op,
            live_ins: Default::default(),
            serial: None,
            live_in_reads: Default::default(),
            overlap: false,
            registered_stall: false,
        });
    }
    regions
}
