//! `bank`: cyclic banking of on-chip memories whose accesses in a loop need more ports than one
//! memory has ([`ONCHIP_READ_PORTS`] reads and [`ONCHIP_WRITE_PORTS`] write per cycle, so more
//! loads or stores per iteration raise the loop's II above what its recurrences and other
//! resources allow).
//!
//! Loops that run one iteration at a time (`analysis::serial`: they share a memory with the
//! loops inside them, or use a private array in the work-item loop) are not counted: their II
//! is their pipeline's depth.
//!
//! Banking by B (a power of two) makes the memory B memories: element `i` is element `i / B` of
//! bank `i % B`, so an access whose index has a known residue modulo B (the `residue`
//! analysis: `4 * j + 3` in a loop stepping `j` by 1, an unrolled copy of a loop body) uses only
//! its bank's ports, at address `i / B` (wiring: a shift by a constant). An access whose bank
//! is not fixed uses every bank: a load reads all of them and selects by the index's low bits, a
//! store writes the bank the low bits name (a compare per bank). B is the smallest power of two
//! (at most [`MAX_BANKS`], at most the array's length) with which every port-limited loop
//! reaches the II it could reach with unlimited ports (its `goal`: recurrences and other
//! resources, computed by the scheduler and passed in), or if none does, the smallest that
//! comes closest; if no B helps at all, the memory stays whole and `Kernel::partitions` says
//! why (the access whose bank is not fixed).
//!
//! Requires: a verified kernel after `dce` (the final accesses). Guarantees: a verified kernel
//! computing the same values; the banks are ordinary on-chip memories of the same kind, named
//! `<array>_b<i>`; order edges and `Kernel::mem_deps` between accesses of different banks are
//! dropped (they never touch the same element); the old memory has no accesses left.

use super::partition::{accesses, not_arrays, pred_and_bits_equal, select_by_bits, Site};
use crate::analysis::residue::Residues;
use crate::analysis::serial::serial_regions;
use crate::ids::{LoopId, MemId, OpId};
use crate::kernel::{
    Dep, Kernel, MemDep, MemKind, MemPartition, Memory, Partition, PortNeed, ONCHIP_READ_PORTS,
    ONCHIP_WRITE_PORTS,
};
use crate::ops::{BinOp, OpKind};
use crate::types::Ty;
use std::collections::BTreeMap;

/// The most banks one memory is split into.
pub const MAX_BANKS: u32 = 16;

/// The II loop `l` of kernel `k` could reach if on-chip memories had every port it needs (the
/// larger of its recurrence bound and the bound of its other resources), or `None` when it is
/// not known. The scheduler computes it; the IR crate does not depend on the scheduler.
pub type IiGoal<'a> = &'a dyn Fn(&Kernel, LoopId) -> Option<u32>;

/// Modulo slots one iteration needs for `reads` loads and `writes` stores of one memory.
fn slots(reads: u32, writes: u32) -> u32 {
    reads
        .div_ceil(ONCHIP_READ_PORTS)
        .max(writes.div_ceil(ONCHIP_WRITE_PORTS))
}

/// One access: its loop, whether it stores, and the known low bits of its element index.
struct Access {
    op: OpId,
    region: LoopId,
    store: bool,
    /// (known low bits of the index, their value).
    index: (u32, u64),
}

impl Access {
    /// The bank of `1 << b` this access always uses, if one.
    fn bank(&self, b: u32) -> Option<u32> {
        (self.index.0 >= b).then(|| (self.index.1 & ((1u64 << b) - 1)) as u32)
    }
}

pub fn run(k: &mut Kernel, goal: IiGoal) {
    let excluded = not_arrays(k);
    // A loop that holds one iteration at a time waits for its pipeline, not for ports. Banks
    // only ever make it less serial (each bank is used by fewer loops than the memory).
    let serial = serial_regions(k);
    for i in 0..k.mems.len() {
        let m = MemId::from_index(i);
        let Some(len) = k.mem(m).onchip_len() else {
            continue;
        };
        if len < 2 || excluded.contains(&m) {
            continue;
        }
        let ops = accesses(k, m);
        if ops.is_empty()
            || ops
                .iter()
                .any(|&o| k.op(o).ty == Ty::Token && k.has_data_uses(o))
        {
            continue;
        }
        // Loops whose accesses to `m` need more slots than the loop's goal.
        let mut per_loop: BTreeMap<LoopId, (u32, u32)> = BTreeMap::new();
        for &o in &ops {
            let e = per_loop.entry(k.op(o).region).or_default();
            match k.op(o).kind {
                OpKind::Store { .. } => e.1 += 1,
                _ => e.0 += 1,
            }
        }
        let hot: Vec<(LoopId, u32, u32)> = per_loop
            .iter()
            .filter(|(&l, &(r, w))| slots(r, w) > 1 && serial[l].is_none())
            .filter_map(|(&l, &(r, w))| {
                let g = goal(k, l)?;
                let need = slots(r, w);
                (need > g).then_some((l, g, need))
            })
            .collect();
        if hot.is_empty() {
            continue;
        }
        let res = Residues::compute(k);
        let shift = k.mem(m).elem_bytes.trailing_zeros();
        let acc: Vec<Access> = ops
            .iter()
            .map(|&o| {
                let a = k.operands(o);
                let pred = *a.last().expect("accesses are predicated");
                let (n, v) = res.given(k, a[0], pred).low();
                Access {
                    op: o,
                    region: k.op(o).region,
                    store: matches!(k.op(o).kind, OpKind::Store { .. }),
                    index: if n > shift {
                        (n - shift, v >> shift)
                    } else {
                        (0, 0)
                    },
                }
            })
            .collect();
        // Slots needed per hot loop with 1 << b banks.
        let need = |b: u32| -> Vec<u32> {
            hot.iter()
                .map(|&(l, _, _)| {
                    let n = 1usize << b;
                    let (mut r, mut w) = (vec![0u32; n], vec![0u32; n]);
                    for a in acc.iter().filter(|a| a.region == l) {
                        let count = if a.store { &mut w } else { &mut r };
                        match a.bank(b) {
                            Some(x) => count[x as usize] += 1,
                            None => count.iter_mut().for_each(|c| *c += 1),
                        }
                    }
                    (0..n).map(|x| slots(r[x], w[x])).max().unwrap_or(0)
                })
                .collect()
        };
        let excess = |v: &[u32]| -> u32 {
            v.iter()
                .zip(&hot)
                .map(|(&n, &(_, g, _))| n.saturating_sub(g))
                .sum()
        };
        let whole = need(0);
        let mut best = (excess(&whole), 0u32, whole.clone());
        let mut b = 1;
        while (1u32 << b) <= len.min(MAX_BANKS) && best.0 > 0 {
            let n = need(b);
            let e = excess(&n);
            if e < best.0 {
                best = (e, b, n);
            }
            b += 1;
        }
        let loops = |after: &[u32]| -> Vec<PortNeed> {
            hot.iter()
                .zip(after)
                .map(|(&(lp, goal, before), &after)| PortNeed {
                    lp,
                    goal,
                    before,
                    after,
                })
                .collect()
        };
        let outcome = if best.1 == 0 {
            // Nothing helps: say which access has no fixed bank, if one.
            let unknown = acc
                .iter()
                .find(|a| hot.iter().any(|h| h.0 == a.region) && a.bank(1).is_none());
            Partition::Whole {
                reason: match unknown {
                    Some(_) => {
                        "this index has no known residue modulo 2, so its bank is not fixed".into()
                    }
                    None => format!(
                        "the loop's accesses fall into the same bank for every bank count up to {}",
                        len.min(MAX_BANKS)
                    ),
                },
                at: unknown.map(|a| k.op(a.op).span),
                loops: loops(&whole),
            }
        } else {
            let banks = split(k, m, &acc, best.1);
            Partition::Banks {
                banks,
                loops: loops(&best.2),
            }
        };
        k.partitions.push(MemPartition { mem: m, outcome });
    }
}

/// Splits memory `m` into `1 << b` banks and moves its accesses there; returns the banks.
fn split(k: &mut Kernel, m: MemId, acc: &[Access], b: u32) -> Vec<MemId> {
    let mem = k.mem(m).clone();
    let len = mem.onchip_len().unwrap_or(0);
    let n = 1u32 << b;
    let shift = mem.elem_bytes.trailing_zeros();
    let banks: Vec<MemId> = (0..n)
        .map(|i| {
            let id = MemId::from_index(k.mems.len());
            let mut name = format!("{}_b{i}", mem.name);
            while k.mems.iter().any(|x| x.name == name) {
                name.push('_');
            }
            let blen = (len - i).div_ceil(n);
            k.mems.push(Memory {
                name,
                kind: match mem.kind {
                    MemKind::Private { .. } => MemKind::Private { len: blen },
                    MemKind::Program { constant, .. } => MemKind::Program {
                        len: blen,
                        constant,
                    },
                    _ => MemKind::Local { len: blen },
                },
                ..mem.clone()
            });
            // A program-scope memory's contents: element j in bank j mod n, at j / n.
            if let Some(init) = k.mem_init.get(&m) {
                let s = mem.elem_bytes as usize;
                let bytes: Vec<u8> = (i..len)
                    .step_by(n as usize)
                    .flat_map(|j| init[j as usize * s..(j as usize + 1) * s].iter().copied())
                    .collect();
                k.mem_init.insert(id, bytes);
            }
            id
        })
        .collect();
    let is_acc = |o: OpId| acc.iter().any(|a| a.op == o);
    // Order edges among the accesses, and between an access and anything else.
    let edges: Vec<(OpId, OpId, Dep)> = k
        .edges()
        .into_iter()
        .filter(|(s, t, d)| matches!(d, Dep::Order { .. }) && (is_acc(*s) || is_acc(*t)))
        .collect();
    let mut copies: BTreeMap<OpId, Vec<(u32, OpId)>> = BTreeMap::new();
    for a in acc {
        let o = a.op;
        let at = Site::of(k, o);
        let ops = k.operands(o);
        let addr = ops[0];
        // Element i / n, at the memory's stride (in the address's own width).
        let aty = k.op(addr).ty;
        let baddr = match k.op(addr).kind {
            OpKind::Const(v) => at.constant(k, (v >> (shift + b)) << shift, aty),
            _ => {
                let s = at.constant(k, u64::from(shift + b), Ty::I32);
                let down = at.add(k, OpKind::Binary(BinOp::ShrU), aty, &[addr, s]);
                if shift == 0 {
                    down
                } else {
                    let s = at.constant(k, u64::from(shift), Ty::I32);
                    at.add(k, OpKind::Binary(BinOp::Shl), aty, &[down, s])
                }
            }
        };
        if let Some(x) = a.bank(b) {
            match &mut k.op_mut(o).kind {
                OpKind::Load { mem } | OpKind::Store { mem, .. } => *mem = banks[x as usize],
                _ => unreachable!("accesses are loads and stores"),
            }
            k.set_operand(o, 0, baddr);
            copies.insert(o, vec![(x, o)]);
            continue;
        }
        let name = k.op(o).name.clone();
        let kind = k.op(o).kind.clone();
        let mut mine = Vec::new();
        for (x, &bank) in banks.iter().enumerate() {
            let c = match &kind {
                OpKind::Store { mask, .. } => {
                    let (data, pred) = (ops[1], ops[2]);
                    let p = pred_and_bits_equal(k, pred, addr, (shift, b), x as u64, at);
                    let kind = OpKind::Store {
                        mem: bank,
                        mask: mask.clone(),
                    };
                    at.add(k, kind, Ty::Token, &[baddr, data, p])
                }
                _ => at.add(k, OpKind::Load { mem: bank }, mem.elem, &[baddr, ops[1]]),
            };
            mine.push((x as u32, c));
        }
        if !a.store {
            let loads: Vec<OpId> = mine.iter().map(|&(_, c)| c).collect();
            let v = select_by_bits(k, addr, shift, &loads, at);
            k.op_mut(v).name = name;
            k.replace_data_uses(o, v);
        }
        copies.insert(o, mine);
    }
    // Order edges again, between copies in the same bank (different banks never touch the
    // same element) and from or to anything else.
    for &(s, t, _) in &edges {
        if k.contains(s) && k.contains(t) {
            k.remove_order_edges(s, t);
        }
    }
    for a in acc {
        if a.bank(b).is_none() {
            k.remove_op(a.op);
        }
    }
    let expand = |o: OpId| -> Vec<(Option<u32>, OpId)> {
        match copies.get(&o) {
            Some(v) => v.iter().map(|&(x, c)| (Some(x), c)).collect(),
            None => vec![(None, o)],
        }
    };
    for (s, t, d) in edges {
        for (bs, cs) in expand(s) {
            for (bt, ct) in expand(t) {
                if bs.is_none() || bt.is_none() || bs == bt {
                    k.add_dep(cs, ct, d);
                }
            }
        }
    }
    let deps = std::mem::take(&mut k.mem_deps);
    for d in deps {
        for (bf, from) in expand(d.from) {
            for (bt, to) in expand(d.to) {
                if bf.is_none() || bt.is_none() || bf == bt {
                    k.mem_deps.push(MemDep { from, to, ..d });
                }
            }
        }
    }
    banks
}
