//! The IR interpreter: executes a [`Kernel`] for one NDRange launch, op by op, with the
//! semantics the IR documents (SSA values, predicated side effects, loop regions with carried
//! values, on-chip memories). It is the middle link of the differential chain
//! emulator (checked AST) ⇄ IR (after lowering, after the passes) ⇄ Verilator: a disagreement
//! tells whether the front end and lowering, a transform, or the scheduler and RTL are at
//! fault.
//!
//! Order: the ops of a region run in a topological order of its distance-0 edges, with a
//! nested loop standing for its whole subtree (as the scheduler sees it), so every ordering
//! the IR relies on is exercised and nothing else is assumed.
//!
//! Atomic counters are read from the first 4/8 bytes of their buffers (the counter argument's
//! value is the buffer's address) before the first work-item and written back after the last,
//! as the extension specifies; an update returns the old value.

use crate::ids::{CounterId, LoopId, MemId, OpId};
use crate::integer::{self, truncate};
use crate::kernel::{ArgKind, Kernel, MemKind};
use crate::ops::{ConvOp, OpKind, WorkItemFn};
use std::collections::BTreeMap;

/// The launch: argument values (scalars as bits, pointers as the base address of a buffer),
/// the buffers of global memory, and the NDRange.
#[derive(Clone, Debug, Default)]
pub struct InterpLaunch {
    pub args: Vec<u64>,
    /// By-value arguments wider than 64 bits (vectors, structs) as their little-endian memory
    /// image, by argument index; they take precedence over `args`.
    pub wide_args: BTreeMap<usize, Vec<u8>>,
    /// `(base address, bytes)`; addresses of different buffers do not overlap.
    pub buffers: Vec<(u32, Vec<u8>)>,
    pub global_size: [u32; 3],
    pub local_size: [u32; 3],
    pub global_offset: [u32; 3],
    pub work_dim: u32,
    /// Upper bound on loop iterations plus work-items, so no input hangs.
    pub max_steps: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum InterpError {
    #[error("the IR interpreter does not model `{0}`")]
    Unsupported(String),
    #[error("{what} at address {addr:#x} is outside every buffer")]
    OutOfBounds { what: &'static str, addr: u64 },
    #[error("the run took more than {0} steps")]
    StepLimit(u64),
}

struct Item {
    gid: [u32; 3],
    lid: [u32; 3],
    grp: [u32; 3],
    lsize: [u32; 3],
}

struct Interp<'a> {
    k: &'a Kernel,
    l: &'a InterpLaunch,
    /// Values of at most 64 bits.
    vals: Vec<u64>,
    /// Values wider than 64 bits (aggregate images), as little-endian 64-bit words.
    wide: Vec<Vec<u64>>,
    /// Per-region op order.
    order: Vec<Vec<OpId>>,
    onchip: BTreeMap<MemId, Vec<u8>>,
    buffers: Vec<(u32, Vec<u8>)>,
    steps: u64,
    /// Per loop: did its last run execute at least one iteration.
    ran: Vec<bool>,
    /// The value of every counter the kernel updates (`None`: never updated, never read).
    counters: Vec<Option<u64>>,
}

/// Bits `lo .. lo + w` of the little-endian words `src` (missing words are zero).
fn bit_range(src: &[u64], lo: u32, w: u32) -> Vec<u64> {
    let mut out = vec![0u64; (w as usize).div_ceil(64).max(1)];
    for (i, o) in out.iter_mut().enumerate() {
        let at = lo as usize + 64 * i;
        let (q, r) = (at / 64, at % 64);
        let a = src.get(q).copied().unwrap_or(0);
        let b = src.get(q + 1).copied().unwrap_or(0);
        *o = if r == 0 {
            a
        } else {
            (a >> r) | (b << (64 - r))
        };
    }
    mask_words(&mut out, w);
    out
}

/// Clears the bits of `words` from bit `bits` on.
fn mask_words(words: &mut [u64], bits: u32) {
    for (i, w) in words.iter_mut().enumerate() {
        let lo = 64 * i as u32;
        if lo >= bits {
            *w = 0;
        } else if bits - lo < 64 {
            *w &= (1u64 << (bits - lo)) - 1;
        }
    }
}

/// ORs the `w`-bit value `src` into `dst` at bit `lo` (the target bits must be zero).
fn put_range(dst: &mut [u64], lo: u32, w: u32, src: &[u64]) {
    let src = bit_range(src, 0, w);
    for (i, &s) in src.iter().enumerate() {
        let at = lo as usize + 64 * i;
        let (q, r) = (at / 64, at % 64);
        if q < dst.len() {
            dst[q] |= s << r;
        }
        if r != 0 && q + 1 < dst.len() {
            dst[q + 1] |= s >> (64 - r);
        }
    }
}

fn words_to_bytes(words: &[u64], n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (words.get(i / 8).copied().unwrap_or(0) >> (8 * (i % 8))) as u8)
        .collect()
}

fn bytes_to_words(bytes: &[u8]) -> Vec<u64> {
    let mut out = vec![0u64; bytes.len().div_ceil(8).max(1)];
    for (i, &b) in bytes.iter().enumerate() {
        out[i / 8] |= (b as u64) << (8 * (i % 8));
    }
    out
}

/// Run `k` for the launch; returns the global buffers afterwards.
pub fn run(k: &Kernel, launch: &InterpLaunch) -> Result<Vec<(u32, Vec<u8>)>, InterpError> {
    let mut it = Interp {
        k,
        l: launch,
        vals: vec![0; k.op_bound()],
        wide: vec![Vec::new(); k.op_bound()],
        order: (0..k.loops.len())
            .map(|r| k.region_order(LoopId::from_index(r)))
            .collect(),
        onchip: BTreeMap::new(),
        buffers: launch.buffers.clone(),
        steps: 0,
        ran: vec![false; k.loops.len()],
        counters: vec![None; k.counters.len()],
    };
    it.load_counters()?;
    // Constants, arguments and launch-wide values first: any region may read them.
    for o in k.op_ids() {
        if k.op(o).kind.is_launch_invariant() {
            it.eval(o, None)?;
        }
    }
    it.launch()?;
    it.store_counters()?;
    Ok(it.buffers)
}

impl<'a> Interp<'a> {
    fn step(&mut self) -> Result<(), InterpError> {
        self.steps += 1;
        if self.l.max_steps > 0 && self.steps > self.l.max_steps {
            return Err(InterpError::StepLimit(self.l.max_steps));
        }
        Ok(())
    }

    /// Every counter the kernel updates takes its initial value from its buffer.
    fn load_counters(&mut self) -> Result<(), InterpError> {
        for o in self.k.op_ids() {
            if let OpKind::CounterUpdate { counter, .. } = self.k.op(o).kind {
                if self.counters[counter.index()].is_none() {
                    let (addr, n) = self.counter_home(counter);
                    let (b, off) = self.find(addr, n as u32, "a counter's initial value")?;
                    let v = bytes_to_words(&self.buffers[b].1[off..off + n])[0];
                    self.counters[counter.index()] = Some(v);
                }
            }
        }
        Ok(())
    }

    /// Every counter's final value goes back to its buffer.
    fn store_counters(&mut self) -> Result<(), InterpError> {
        for i in 0..self.counters.len() {
            let Some(v) = self.counters[i] else { continue };
            let (addr, n) = self.counter_home(CounterId::from_index(i));
            let (b, off) = self.find(addr, n as u32, "a counter's final value")?;
            self.buffers[b].1[off..off + n].copy_from_slice(&words_to_bytes(&[v], n));
        }
        Ok(())
    }

    /// The address and size in bytes of counter `c` in its buffer.
    fn counter_home(&self, c: CounterId) -> (u64, usize) {
        let ctr = &self.k.counters[c];
        let addr = self.l.args.get(ctr.arg.index()).copied().unwrap_or(0);
        (truncate(addr, 32), (ctr.bits / 8) as usize)
    }

    fn launch(&mut self) -> Result<(), InterpError> {
        let g = self.l.global_size.map(|x| x.max(1));
        let ls: [u32; 3] = std::array::from_fn(|d| self.l.local_size[d].max(1).min(g[d]));
        let ng: [u32; 3] = std::array::from_fn(|d| g[d].div_ceil(ls[d]));
        let groups_mode = self.k.work_groups.is_some();
        for gz in 0..ng[2] {
            for gy in 0..ng[1] {
                for gx in 0..ng[0] {
                    let grp = [gx, gy, gz];
                    let size: [u32; 3] = std::array::from_fn(|d| ls[d].min(g[d] - grp[d] * ls[d]));
                    // Local memory belongs to the group.
                    self.onchip
                        .retain(|m, _| !matches!(self.k.mem(*m).kind, MemKind::Local { .. }));
                    for lz in 0..size[2] {
                        for ly in 0..size[1] {
                            for lx in 0..size[0] {
                                let lid = [lx, ly, lz];
                                if groups_mode && lid != [0, 0, 0] {
                                    continue;
                                }
                                let item = Item {
                                    gid: std::array::from_fn(|d| {
                                        grp[d] * ls[d] + lid[d] + self.l.global_offset[d]
                                    }),
                                    lid,
                                    grp,
                                    lsize: size,
                                };
                                // Private memory (and the per-group contexts) is fresh.
                                self.onchip.retain(|m, _| {
                                    !matches!(self.k.mem(*m).kind, MemKind::Private { .. })
                                });
                                self.step()?;
                                self.work_item(&item)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn work_item(&mut self, item: &Item) -> Result<(), InterpError> {
        let ops = self.order[0].clone();
        for o in ops {
            self.eval(o, Some(item))?;
        }
        Ok(())
    }

    fn v(&self, o: OpId) -> u64 {
        self.vals[o.index()]
    }

    /// The value of `o` as little-endian words (one word for values up to 64 bits).
    fn words(&self, o: OpId) -> Vec<u64> {
        if self.k.op(o).ty.is_wide() {
            let mut w = self.wide[o.index()].clone();
            w.resize((self.k.op(o).ty.bits() as usize).div_ceil(64), 0);
            w
        } else {
            vec![self.vals[o.index()]]
        }
    }

    /// Sets the value of `o` from words (masked to its width).
    fn set_words(&mut self, o: OpId, mut w: Vec<u64>) {
        let bits = self.k.op(o).ty.bits();
        if self.k.op(o).ty.is_wide() {
            w.resize((bits as usize).div_ceil(64), 0);
            mask_words(&mut w, bits);
            self.wide[o.index()] = w;
        } else {
            self.vals[o.index()] = truncate(w.first().copied().unwrap_or(0), bits);
        }
    }

    fn run_loop(&mut self, l: LoopId) -> Result<(), InterpError> {
        let ops = self.order[l.index()].clone();
        let carried: Vec<(OpId, OpId, OpId)> = ops
            .iter()
            .filter(|&&o| self.k.op(o).kind == OpKind::Carried)
            .map(|&o| {
                let a = self.k.operands(o);
                (o, a[0], a[1])
            })
            .collect();
        let mut first = true;
        let mut next: Vec<Vec<u64>> = Vec::new();
        loop {
            self.step()?;
            for (i, &(c, init, _)) in carried.iter().enumerate() {
                let v = if first {
                    self.words(init)
                } else {
                    next[i].clone()
                };
                self.set_words(c, v);
            }
            let mut stop = false;
            for &o in &ops {
                match self.k.op(o).kind {
                    OpKind::Carried => {}
                    OpKind::LoopExit => stop = self.v(self.k.operands(o)[0]) & 1 == 1,
                    _ => self.eval(o, None)?,
                }
            }
            next = carried.iter().map(|&(_, _, n)| self.words(n)).collect();
            first = false;
            if stop {
                return Ok(());
            }
        }
    }

    fn find(
        &mut self,
        addr: u64,
        bytes: u32,
        what: &'static str,
    ) -> Result<(usize, usize), InterpError> {
        for (i, (base, data)) in self.buffers.iter().enumerate() {
            let b = *base as u64;
            if addr >= b && addr + bytes as u64 <= b + data.len() as u64 {
                return Ok((i, (addr - b) as usize));
            }
        }
        Err(InterpError::OutOfBounds { what, addr })
    }

    fn mem_bytes(&mut self, mem: MemId) -> &mut Vec<u8> {
        let m = self.k.mem(mem);
        let len = m.onchip_len().unwrap_or(0) as usize * m.elem_bytes as usize;
        // A program-scope memory starts with its initial contents.
        let init = self.k.mem_init.get(&mem);
        self.onchip
            .entry(mem)
            .or_insert_with(|| init.cloned().unwrap_or_else(|| vec![0; len]))
    }

    fn load(&mut self, mem: MemId, addr: u64) -> Result<Vec<u64>, InterpError> {
        let m = self.k.mem(mem);
        let n = m.elem_bytes as usize;
        let bytes: Vec<u8> = match m.kind {
            MemKind::Global { .. } => {
                let (b, off) = self.find(addr, n as u32, "a load")?;
                self.buffers[b].1[off..off + n].to_vec()
            }
            _ => {
                let data = self.mem_bytes(mem);
                let off = addr as usize;
                if off + n > data.len() {
                    return Err(InterpError::OutOfBounds {
                        what: "an on-chip load",
                        addr,
                    });
                }
                data[off..off + n].to_vec()
            }
        };
        Ok(bytes_to_words(&bytes))
    }

    /// Writes the element at `addr` from `v`; with `mask`, only the bytes it names.
    fn store(
        &mut self,
        mem: MemId,
        addr: u64,
        v: &[u64],
        mask: Option<&crate::ops::ByteMask>,
    ) -> Result<(), InterpError> {
        let m = self.k.mem(mem);
        let n = m.elem_bytes as usize;
        let bytes = words_to_bytes(v, n);
        let write = |dst: &mut [u8]| {
            for (i, d) in dst.iter_mut().enumerate() {
                if mask.is_none_or(|m| m.0.get(i).copied().unwrap_or(false)) {
                    *d = bytes[i];
                }
            }
        };
        match m.kind {
            MemKind::Global { .. } => {
                let (b, off) = self.find(addr, n as u32, "a store")?;
                write(&mut self.buffers[b].1[off..off + n]);
            }
            _ => {
                let data = self.mem_bytes(mem);
                let off = addr as usize;
                if off + n > data.len() {
                    return Err(InterpError::OutOfBounds {
                        what: "an on-chip store",
                        addr,
                    });
                }
                write(&mut data[off..off + n]);
            }
        }
        Ok(())
    }

    /// Ops that move bits without computing on them, at any width: constants, by-value
    /// arguments of aggregates, selects, loads and stores, loop results, bit selects,
    /// concatenations and bitcasts. Returns false for every other op.
    fn eval_bits(&mut self, o: OpId) -> Result<bool, InterpError> {
        let op = self.k.op(o);
        let a = self.k.operands(o);
        let bit = |me: &Self, i: usize| me.vals[a[i].index()] & 1 == 1;
        let r: Vec<u64> = match &op.kind {
            OpKind::Const(v) => vec![*v],
            OpKind::Arg(arg) => match self.l.wide_args.get(&arg.index()) {
                Some(bytes) => bytes_to_words(bytes),
                None => return Ok(false),
            },
            OpKind::Select => {
                if bit(self, 0) {
                    self.words(a[1])
                } else {
                    self.words(a[2])
                }
            }
            OpKind::Convert(ConvOp::Bitcast) => self.words(a[0]),
            OpKind::Extract { lo } => bit_range(&self.words(a[0]), *lo, op.ty.bits()),
            OpKind::Concat => {
                let mut out = vec![0u64; (op.ty.bits() as usize).div_ceil(64).max(1)];
                let mut at = 0;
                for &p in &a {
                    let w = self.k.op(p).ty.bits();
                    put_range(&mut out, at, w, &self.words(p));
                    at += w;
                }
                out
            }
            OpKind::Load { mem } => {
                if !bit(self, 1) {
                    vec![0]
                } else {
                    let (mem, addr) = (*mem, truncate(self.v(a[0]), 32));
                    self.load(mem, addr)?
                }
            }
            OpKind::Store { mem, mask: m } => {
                if bit(self, 2) {
                    let (mem, addr, v) = (*mem, truncate(self.v(a[0]), 32), self.words(a[1]));
                    let m = m.clone();
                    self.store(mem, addr, &v, m.as_ref())?;
                }
                vec![0]
            }
            OpKind::Atomic { mem, op: aop } => {
                let pred = *a.last().expect("atomics are predicated");
                if self.v(pred) & 1 == 0 {
                    vec![0]
                } else {
                    let (mem, addr) = (*mem, truncate(self.v(a[0]), 32));
                    let bits = op.ty.bits();
                    let old = self.load(mem, addr)?;
                    let compare = if a.len() == 4 { self.v(a[2]) } else { 0 };
                    let new = aop.apply(old[0], self.v(a[1]), compare, bits);
                    self.store(mem, addr, &[new], None)?;
                    old
                }
            }
            OpKind::LoopResult => {
                let l = match self.k.op(a[0]).kind {
                    OpKind::Loop(l) => l,
                    _ => unreachable!("the verifier checks loop results"),
                };
                if self.ran[l.index()] {
                    self.words(a[1])
                } else {
                    self.words(a[2])
                }
            }
            _ => return Ok(false),
        };
        self.set_words(o, r);
        Ok(true)
    }

    fn eval(&mut self, o: OpId, item: Option<&Item>) -> Result<(), InterpError> {
        if self.eval_bits(o)? {
            return Ok(());
        }
        let op = self.k.op(o);
        let (bits, op_ty) = (op.ty.bits(), op.ty);
        let a = self.k.operands(o);
        let x = |i: usize| self.vals[a[i].index()];
        let xb = |i: usize| self.k.op(a[i]).ty.bits();
        let r: u64 = match &op.kind {
            OpKind::Arg(arg) => {
                let v = self.l.args.get(arg.index()).copied().unwrap_or(0);
                match self.k.arg(*arg).kind {
                    ArgKind::GlobalPtr(_) | ArgKind::Scalar(_) => v,
                    _ => {
                        return Err(InterpError::Unsupported(
                            "a pipe or counter argument".into(),
                        ))
                    }
                }
            }
            OpKind::WorkItem(f, d) => {
                let d = *d as usize;
                let g = self.l.global_size.map(|x| x.max(1));
                match (f, item) {
                    (WorkItemFn::GlobalSize, _) => g[d] as u64,
                    (WorkItemFn::EnqueuedLocalSize, _) => {
                        self.l.local_size[d].max(1).min(g[d]) as u64
                    }
                    (WorkItemFn::GlobalOffset, _) => self.l.global_offset[d] as u64,
                    (WorkItemFn::WorkDim, _) => self.l.work_dim as u64,
                    // Launch-invariant: evaluated before any work-item.
                    (WorkItemFn::NumGroups, _) => {
                        g[d].div_ceil(self.l.local_size[d].max(1).min(g[d])) as u64
                    }
                    (_, None) => {
                        // Work-item values live in the work-item loop; nested regions read them
                        // as values computed there.
                        return Ok(());
                    }
                    (WorkItemFn::GlobalId, Some(i)) => i.gid[d] as u64,
                    (WorkItemFn::LocalId, Some(i)) => i.lid[d] as u64,
                    (WorkItemFn::GroupId, Some(i)) => i.grp[d] as u64,
                    (WorkItemFn::LocalSize, Some(i)) => i.lsize[d] as u64,
                }
            }
            OpKind::Binary(b) => match integer::binary(*b, bits, x(0), x(1)) {
                Some(r) => r,
                None => crate::float::binary(*b, op_ty, x(0), x(1))
                    .ok_or_else(|| InterpError::Unsupported(format!("{b:?}")))?,
            },
            OpKind::Unary(u) => match integer::unary(*u, bits, x(0)) {
                Some(r) => r,
                None => crate::float::unary(*u, op_ty, x(0))
                    .ok_or_else(|| InterpError::Unsupported(format!("{u:?}")))?,
            },
            OpKind::Cmp(c) => {
                let w = xb(0);
                let (p, q) = (truncate(x(0), w), truncate(x(1), w));
                u64::from(match integer::compare(*c, w, p, q) {
                    Some(r) => r,
                    None => crate::float::compare(*c, p, q)
                        .ok_or_else(|| InterpError::Unsupported(format!("{c:?}")))?,
                })
            }
            OpKind::Convert(c) => match integer::convert(*c, xb(0), bits, x(0)) {
                Some(r) => r,
                None => crate::float::convert(*c, self.k.op(a[0]).ty, op_ty, x(0))
                    .ok_or_else(|| InterpError::Unsupported(format!("{c:?}")))?,
            },
            OpKind::Loop(l) => {
                let l = *l;
                let enter = x(0) & 1 == 1;
                self.ran[l.index()] = enter;
                if enter {
                    self.run_loop(l)?;
                }
                0
            }
            OpKind::Carried | OpKind::LoopExit => return Ok(()),
            // Loops run to completion when started: every copy is complete already.
            OpKind::WaitEvents => 0,
            OpKind::CounterUpdate { counter, inc } => {
                let slot = &mut self.counters[counter.index()];
                let old = slot.expect("every updated counter is loaded at the start");
                if x(0) & 1 == 1 {
                    let new = if *inc {
                        old.wrapping_add(1)
                    } else {
                        old.wrapping_sub(1)
                    };
                    *slot = Some(truncate(new, bits));
                }
                old
            }
            other => return Err(InterpError::Unsupported(other.mnemonic())),
        };
        self.vals[o.index()] = truncate(r, bits);
        Ok(())
    }
}
