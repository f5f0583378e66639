//! The fixpoint driver: rounds over the kernel in a topological order of its distance-0 edges
//! until no fact changes, loop-carried values growing from their initial value (widened after
//! a few rounds, given up after many), and the resulting [`KnownBits`].

use super::compare::decide_cmp;
use super::conditions::{loop_facts, LoopFacts};
use super::facts::{smax, smin};
use super::transfer::{binary, convert, extract, unary};
use super::Facts;
use crate::ids::OpId;
use crate::integer::{mask, shift_amount};
use crate::kernel::{Dep, Kernel};
use crate::ops::OpKind;
use std::collections::BTreeMap;

/// The facts of every op (`None` for ops without integer facts: tokens, floats, values over 64
/// bits), indexed by op id.
#[derive(Clone, Debug, Default)]
pub struct KnownBits {
    facts: Vec<Option<Facts>>,
}

impl KnownBits {
    pub fn get(&self, o: OpId) -> Option<&Facts> {
        self.facts.get(o.index()).and_then(|f| f.as_ref())
    }
}

/// True for values the analysis describes: integers of 1 to 64 bits.
pub fn has_facts(k: &Kernel, o: OpId) -> bool {
    matches!(k.op(o).ty, crate::types::Ty::Int(b) if (1..=64).contains(&b))
}

/// How deep refinement looks through selects and arithmetic for the compared value.
pub(super) const MAX_REFINE_DEPTH: u32 = 3;
/// Rounds of growth a carried value may take before it is widened.
const WIDEN_AFTER: u32 = 6;
/// Rounds after which the analysis gives up on loops (every carried value unknown).
const MAX_ROUNDS: u32 = 200;

/// A topological order of all ops over distance-0 edges (the verifier guarantees one exists).
pub fn topo_order(k: &Kernel) -> Vec<OpId> {
    let ids = k.op_ids();
    let bound = k.op_bound();
    let mut indeg = vec![0usize; bound];
    let mut succ: Vec<Vec<OpId>> = vec![Vec::new(); bound];
    for (s, t, d) in k.edges() {
        if d.distance() == 0 {
            indeg[t.index()] += 1;
            succ[s.index()].push(t);
        }
    }
    let mut ready: std::collections::BTreeSet<OpId> = ids
        .iter()
        .copied()
        .filter(|o| indeg[o.index()] == 0)
        .collect();
    let mut order = Vec::with_capacity(ids.len());
    while let Some(o) = ready.pop_first() {
        order.push(o);
        for &t in &succ[o.index()] {
            indeg[t.index()] -= 1;
            if indeg[t.index()] == 0 {
                ready.insert(t);
            }
        }
    }
    assert_eq!(
        order.len(),
        ids.len(),
        "the IR of `{}` has a cycle without a loop-carried edge",
        k.name
    );
    order
}

pub(super) struct Analysis<'a> {
    pub(super) k: &'a Kernel,
    pub(super) lf: LoopFacts,
    /// Current facts; `None` for an integer value means "no value seen yet" (bottom).
    pub(super) cur: Vec<Option<Facts>>,
    /// Carried values: the facts their `next` had in the previous round (bottom before).
    pub(super) next_seen: BTreeMap<OpId, Option<Facts>>,
    pub(super) grew: BTreeMap<OpId, u32>,
    /// Give up on loops: every carried value is unknown.
    pub(super) give_up: bool,
}

impl Analysis<'_> {
    pub(super) fn facts(&self, o: OpId) -> Option<Facts> {
        if has_facts(self.k, o) {
            self.cur[o.index()]
        } else {
            None
        }
    }

    /// Facts of integer operand `o`: `Err(())` while it is bottom (no value seen yet).
    pub(super) fn operand(&self, o: OpId) -> Result<Facts, ()> {
        if has_facts(self.k, o) {
            self.cur[o.index()].ok_or(())
        } else {
            // Not described (a float or a wide value): anything of its width.
            Ok(Facts::top(self.k.op(o).ty.bits().clamp(1, 64)))
        }
    }

    pub(super) fn eval(&self, o: OpId, args: &[Facts]) -> Facts {
        let k = self.k;
        let op = k.op(o);
        let w = op.ty.bits();
        let a = k.operands(o);
        let top = Facts::top(w);
        match &op.kind {
            OpKind::Binary(b) => {
                let amount = k.int_const(a[1]).map(|c| shift_amount(c, w));
                binary(*b, w, &args[0], &args[1], amount, k.int_const(a[1]))
            }
            OpKind::Unary(u) => unary(*u, w, &args[0]),
            OpKind::Cmp(c) => {
                let (x, y) = (&args[0], &args[1]);
                if k.op(a[0]).ty.is_float() || x.bits != y.bits {
                    top
                } else {
                    match decide_cmp(*c, x, y) {
                        Some(v) => Facts::constant(v as u64, 1),
                        None => top,
                    }
                }
            }
            OpKind::Convert(c) if !k.op(a[0]).ty.is_float() => convert(*c, w, &args[0]),
            OpKind::Extract { lo } if k.op(a[0]).ty.bits() <= 64 => extract(&args[0], *lo, w),
            OpKind::Concat => {
                let mut f = top;
                let mut at = 0;
                for (x, &p) in args.iter().zip(&a) {
                    let pw = k.op(p).ty.bits();
                    f.zero |= (x.zero & mask(pw)) << at;
                    f.one |= (x.one & mask(pw)) << at;
                    at += pw;
                }
                f
            }
            _ => top,
        }
    }

    fn transfer(&mut self, o: OpId) -> Option<Facts> {
        let k = self.k;
        let op = k.op(o);
        let w = op.ty.bits();
        let a = k.operands(o);
        let top = Facts::top(w);
        let f = match &op.kind {
            OpKind::Const(v) => Facts::constant(*v, w),
            OpKind::Binary(_)
            | OpKind::Unary(_)
            | OpKind::Cmp(_)
            | OpKind::Convert(_)
            | OpKind::Extract { .. }
            | OpKind::Concat => {
                let args: Vec<Facts> = a
                    .iter()
                    .map(|&x| self.operand(x))
                    .collect::<Result<_, ()>>()
                    .ok()?;
                self.eval(o, &args)
            }
            OpKind::Select => self.select_facts(o, &[], 0)?,
            OpKind::Carried => return self.carried(o, &a),
            OpKind::LoopResult => either(self.operand(a[1]).ok(), self.operand(a[2]).ok())?,
            _ => top,
        };
        // Sound transfer functions of values that exist never contradict themselves.
        let n = f.normalize();
        debug_assert!(n.is_some(), "contradictory facts for {o}: {f:?}");
        Some(n.unwrap_or(top))
    }

    fn carried(&mut self, o: OpId, a: &[OpId]) -> Option<Facts> {
        let k = self.k;
        let w = k.op(o).ty.bits();
        if self.give_up {
            return Some(Facts::top(w));
        }
        let region = k.op(o).region;
        let no_facts = Vec::new();
        let enter = self.lf.enters.get(&region).unwrap_or(&no_facts);
        let cont = self.lf.continues.get(&region).unwrap_or(&no_facts);
        let next_op = a[1];
        let first = self
            .operand(a[0])
            .ok()
            .and_then(|f| self.refine(a[0], f, enter));
        // Only the comparisons on `next` itself (or its extension): `next` and the values it is
        // computed from are those of the previous round here, so refining through them would
        // undo the accumulation (and the widening) of `next_seen`.
        let next = self.next_seen.get(&o).copied().flatten();
        let later = next.and_then(|f| self.refine_direct(next_op, f, cont));
        either(first, later)
    }
}

/// `a` or `b` holds, where `None` is a value never taken.
pub(super) fn either(a: Option<Facts>, b: Option<Facts>) -> Option<Facts> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.join(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// `new` (which contains `old`) with every bound that moved pushed to its extreme, so a value
/// that keeps growing settles.
fn widen(old: Facts, new: Facts) -> Facts {
    let w = new.bits;
    let f = Facts {
        ulo: if new.ulo < old.ulo { 0 } else { new.ulo },
        uhi: if new.uhi > old.uhi { mask(w) } else { new.uhi },
        slo: if new.slo < old.slo { smin(w) } else { new.slo },
        shi: if new.shi > old.shi { smax(w) } else { new.shi },
        ..new
    };
    f.normalize().unwrap_or(f)
}

/// Runs the analysis on `k`.
pub fn analyse(k: &Kernel) -> KnownBits {
    let order = topo_order(k);
    let mut an = Analysis {
        k,
        lf: loop_facts(k),
        cur: vec![None; k.op_bound()],
        next_seen: BTreeMap::new(),
        grew: BTreeMap::new(),
        give_up: false,
    };
    let carried: Vec<(OpId, OpId)> = order
        .iter()
        .copied()
        .filter(|&o| k.op(o).kind == OpKind::Carried && has_facts(k, o))
        .map(|o| {
            let next = k
                .preds(o)
                .into_iter()
                .find_map(|(s, d)| match d {
                    Dep::Data { operand: 1, .. } => Some(s),
                    _ => None,
                })
                .expect("the verifier checks that carried values have a next value");
            (o, next)
        })
        .collect();
    let mut round = 0;
    loop {
        // A round reads facts of the previous one where the order cannot give this round's
        // (a loop's `enter` condition, a comparison's other operand): stop only when nothing
        // changes, so the facts are a fixed point of every transfer function.
        let before = an.cur.clone();
        for &o in &order {
            if has_facts(k, o) {
                an.cur[o.index()] = an.transfer(o);
            }
        }
        if an.give_up {
            break;
        }
        let mut changed = an.cur != before;
        for &(c, next) in &carried {
            let seen = an.cur[next.index()];
            let old = an.next_seen.get(&c).copied().flatten();
            let grown = an.grew.get(&c).copied().unwrap_or(0);
            let new = match (old, seen) {
                (Some(a), Some(b)) if grown >= WIDEN_AFTER => Some(widen(a, a.join(b))),
                _ => either(old, seen),
            };
            if new != old {
                an.next_seen.insert(c, new);
                *an.grew.entry(c).or_insert(0) += 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        round += 1;
        if round >= MAX_ROUNDS {
            an.give_up = true;
        }
    }
    // Values never reached (code that cannot run) get no facts rather than contradictions.
    let facts = (0..k.op_bound())
        .map(|i| {
            let o = OpId::from_index(i);
            if !k.contains(o) || !has_facts(k, o) {
                return None;
            }
            Some(an.cur[i].unwrap_or_else(|| Facts::top(k.op(o).ty.bits())))
        })
        .collect();
    KnownBits { facts }
}
