//! `residue`: bits of integer values that are the same in every execution (known zeros and
//! ones), so that the low bits of an index, its residue modulo a power of two, can be known
//! although the index itself is not: `4 * j + 3` is 3 modulo 4 for any `j`, and a counter
//! stepped by 4 from 0 is 0 modulo 4 in every iteration.
//!
//! A forward dataflow analysis over the whole kernel (the known-bits lattice of LLVM's
//! `computeKnownBits`, limited to what index arithmetic needs): constants, add/sub/mul (low
//! bits from low bits, trailing zeros), shifts by constants, and/or/xor/not, selects, width
//! changes, bit selects and concatenations; everything else (loads, arguments, work-item ids)
//! is unknown. Loop-carried values are solved by iteration from the optimistic start (a
//! `Carried` is first its initial value only), so a counter keeps the bits its step preserves.
//!
//! Two refinements make partially unrolled loops analysable: the value a `Carried` takes in the
//! next iteration is its `next` operand *in iterations that do not stop the loop* (a copy that
//! ended the loop early masks the rest of the iteration by selects on conditions that are then
//! false), and an access's address matters only when its predicate is true
//! ([`Residues::given`]). Both resolve selects whose condition follows from the assumption.

use crate::ids::LoopId;
use crate::ids::OpId;
use crate::kernel::Kernel;
use crate::ops::{BinOp, ConvOp, OpKind, UnOp};
use std::collections::BTreeMap;

/// Known bits of a value: bit `i` is 0 in every execution when bit `i` of `zero` is set, 1
/// when bit `i` of `one` is set (never both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Bits {
    pub zero: u64,
    pub one: u64,
}

fn width_mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

impl Bits {
    pub const UNKNOWN: Bits = Bits { zero: 0, one: 0 };

    pub fn constant(v: u64, w: u32) -> Bits {
        let m = width_mask(w);
        Bits {
            zero: !v & m,
            one: v & m,
        }
    }

    /// How many low bits are known, and their value.
    pub fn low(self) -> (u32, u64) {
        let n = (self.zero | self.one).trailing_ones();
        (n, self.one & width_mask(n))
    }

    /// The bits known in both (the value is one or the other).
    pub fn meet(self, o: Bits) -> Bits {
        Bits {
            zero: self.zero & o.zero,
            one: self.one & o.one,
        }
    }

    fn trailing_zeros(self) -> u32 {
        self.zero.trailing_ones()
    }

    fn mask(self, w: u32) -> Bits {
        let m = width_mask(w);
        Bits {
            zero: self.zero & m,
            one: self.one & m,
        }
    }
}

/// Low bits of `a op b` for add and sub: bit `i` of the result depends only on bits `0..=i`
/// of the operands.
fn add_sub(a: Bits, b: Bits, sub: bool, w: u32) -> Bits {
    let (na, va) = a.low();
    let (nb, vb) = b.low();
    let n = na.min(nb).min(w);
    let v = if sub {
        va.wrapping_sub(vb)
    } else {
        va.wrapping_add(vb)
    };
    Bits::constant(v & width_mask(n), n)
}

fn mul(a: Bits, b: Bits, w: u32) -> Bits {
    let (na, va) = a.low();
    let (nb, vb) = b.low();
    let n = na.min(nb).min(w);
    let tz = (a.trailing_zeros() + b.trailing_zeros()).min(w);
    if tz >= n {
        Bits::constant(0, tz)
    } else {
        Bits::constant(va.wrapping_mul(vb) & width_mask(n), n)
    }
}

/// The known bits of every value of a kernel (integers of at most 64 bits; wider values and
/// floats are unknown).
pub struct Residues {
    bits: Vec<Bits>,
    /// The stop condition of each loop (its `LoopExit` operand).
    stops: BTreeMap<LoopId, OpId>,
}

/// Facts assumed about `i1` values: `true` or `false`.
type Facts = BTreeMap<OpId, bool>;

impl Residues {
    pub fn compute(k: &Kernel) -> Residues {
        let order = topological(k);
        let stops = k
            .op_ids()
            .into_iter()
            .filter(|&x| k.op(x).kind == OpKind::LoopExit)
            .map(|x| (k.op(x).region, k.operands(x)[0]))
            .collect();
        let mut r = Residues {
            bits: vec![Bits::UNKNOWN; k.op_bound()],
            stops,
        };
        // Not reached yet: optimistic, a carried value is its init until its next operand has
        // been seen.
        let mut seen = vec![false; k.op_bound()];
        // Each round can only forget bits, so this ends; the cap is a guard against a slow
        // crawl, after which every loop-carried value is taken as unknown (always sound).
        for round in 0..256 {
            let mut changed = false;
            for &o in &order {
                let new = if round == 255 && k.op(o).kind == OpKind::Carried {
                    Bits::UNKNOWN
                } else {
                    r.transfer(k, o, &seen)
                };
                if !seen[o.index()] || new != r.bits[o.index()] {
                    r.bits[o.index()] = new;
                    seen[o.index()] = true;
                    changed = true;
                }
            }
            // The first round only sets the optimistic start.
            if !changed {
                break;
            }
        }
        r
    }

    /// Known bits of `x` in every execution.
    pub fn of(&self, x: OpId) -> Bits {
        self.bits.get(x.index()).copied().unwrap_or_default()
    }

    /// Known bits of `x` in the executions where `pred` (an `i1`) is true: selects whose
    /// condition follows from it take the arm it picks.
    pub fn given(&self, k: &Kernel, x: OpId, pred: OpId) -> Bits {
        let mut facts = Facts::new();
        assume(k, pred, true, &mut facts, 0);
        self.under(k, x, &facts)
    }

    fn under(&self, k: &Kernel, x: OpId, facts: &Facts) -> Bits {
        if facts.is_empty() {
            return self.of(x);
        }
        let mut memo = BTreeMap::new();
        self.eval_under(k, x, facts, &mut memo, 0)
    }

    fn eval_under(
        &self,
        k: &Kernel,
        x: OpId,
        facts: &Facts,
        memo: &mut BTreeMap<OpId, Bits>,
        depth: u32,
    ) -> Bits {
        if let Some(&b) = memo.get(&x) {
            return b;
        }
        let ops = k.operands(x);
        let b = match k.op(x).kind {
            _ if depth > 64 => self.of(x),
            OpKind::Select => match facts.get(&ops[0]) {
                Some(&c) => self.eval_under(k, ops[if c { 1 } else { 2 }], facts, memo, depth + 1),
                None => {
                    let t = self.eval_under(k, ops[1], facts, memo, depth + 1);
                    let e = self.eval_under(k, ops[2], facts, memo, depth + 1);
                    t.meet(e)
                }
            },
            // Values whose bits do not depend on a select: the analysis as is.
            OpKind::Carried
            | OpKind::LoopResult
            | OpKind::Const(_)
            | OpKind::Arg(_)
            | OpKind::WorkItem(..)
            | OpKind::Load { .. }
            | OpKind::Atomic { .. } => self.of(x),
            _ => {
                let args: Vec<Bits> = ops
                    .iter()
                    .map(|&o| self.eval_under(k, o, facts, memo, depth + 1))
                    .collect();
                combine(k, x, &args).unwrap_or_else(|| self.of(x))
            }
        };
        // Assumptions only add knowledge to what holds in every execution.
        let all = self.of(x);
        let b = Bits {
            zero: b.zero | all.zero,
            one: b.one | all.one,
        };
        let b = if b.zero & b.one != 0 { all } else { b };
        memo.insert(x, b);
        b
    }

    fn transfer(&self, k: &Kernel, o: OpId, seen: &[bool]) -> Bits {
        let ops = k.operands(o);
        match k.op(o).kind {
            OpKind::Carried => {
                let init = self.of(ops[0]);
                let Some(next) = ops.get(1) else { return init };
                if !seen[next.index()] {
                    return init;
                }
                // The next iteration starts only when this one did not stop the loop.
                let mut facts = Facts::new();
                if let Some(&s) = self.stops.get(&k.op(o).region) {
                    assume(k, s, false, &mut facts, 0);
                }
                init.meet(self.under(k, *next, &facts))
            }
            OpKind::LoopResult => {
                let (next, init) = (ops[1], ops[2]);
                if !seen[next.index()] {
                    return self.of(init);
                }
                self.of(next).meet(self.of(init))
            }
            _ => {
                let args: Vec<Bits> = ops.iter().map(|&x| self.of(x)).collect();
                combine(k, o, &args).unwrap_or(Bits::UNKNOWN)
            }
        }
    }
}

/// Record what `v == value` implies about the `i1` values it is built from (and, or, not).
fn assume(k: &Kernel, v: OpId, value: bool, facts: &mut Facts, depth: u32) {
    if depth > 64 || k.op(v).ty.bits() != 1 {
        return;
    }
    if facts.insert(v, value).is_some() {
        return;
    }
    let ops = k.operands(v);
    let konst = |x: OpId| match k.op(x).kind {
        OpKind::Const(c) => Some(c & 1 == 1),
        _ => None,
    };
    match k.op(v).kind {
        // Every operand of a true `and` is true, of a false `or` false.
        OpKind::Binary(BinOp::And) if value => {
            for o in ops {
                assume(k, o, true, facts, depth + 1);
            }
        }
        OpKind::Binary(BinOp::Or) if !value => {
            for o in ops {
                assume(k, o, false, facts, depth + 1);
            }
        }
        // `x ^ 1` is `!x` (how lowering negates).
        OpKind::Binary(BinOp::Xor) => {
            if let Some(c) = konst(ops[1]) {
                assume(k, ops[0], value ^ c, facts, depth + 1);
            } else if let Some(c) = konst(ops[0]) {
                assume(k, ops[1], value ^ c, facts, depth + 1);
            }
        }
        OpKind::Unary(UnOp::Not) => assume(k, ops[0], !value, facts, depth + 1),
        _ => {}
    }
}

/// Known bits of op `o` from its operands' (`None` for ops the analysis does not model).
fn combine(k: &Kernel, o: OpId, a: &[Bits]) -> Option<Bits> {
    let op = k.op(o);
    if op.ty.is_float() || op.ty.bits() > 64 || op.ty.bits() == 0 {
        return None;
    }
    let w = op.ty.bits();
    let ops = k.operands(o);
    let konst = |i: usize| match k.op(ops[i]).kind {
        OpKind::Const(c) => Some(c),
        _ => None,
    };
    let r = match &op.kind {
        OpKind::Const(v) => Bits::constant(*v, w),
        OpKind::Binary(b) => {
            let (x, y) = (a[0], a[1]);
            match b {
                BinOp::Add => add_sub(x, y, false, w),
                BinOp::Sub => add_sub(x, y, true, w),
                BinOp::Mul => mul(x, y, w),
                BinOp::And => Bits {
                    zero: x.zero | y.zero,
                    one: x.one & y.one,
                },
                BinOp::Or => Bits {
                    zero: x.zero & y.zero,
                    one: x.one | y.one,
                },
                BinOp::Xor => {
                    let known = (x.zero | x.one) & (y.zero | y.one);
                    let one = ((x.one & y.zero) | (x.zero & y.one)) & known;
                    Bits {
                        zero: known & !one,
                        one,
                    }
                }
                BinOp::Shl | BinOp::ShrU | BinOp::ShrS => {
                    // Shift counts are taken modulo the width (OpenCL).
                    let s = (konst(1)? % w as u64) as u32;
                    if s == 0 {
                        return Some(x.mask(w));
                    }
                    match b {
                        BinOp::Shl => Bits {
                            zero: (x.zero << s) | width_mask(s),
                            one: x.one << s,
                        },
                        BinOp::ShrU => Bits {
                            zero: (x.zero >> s) | (width_mask(s) << (w - s)),
                            one: x.one >> s,
                        },
                        _ => {
                            let top = 1u64 << (w - 1);
                            let fill = width_mask(s) << (w - s);
                            Bits {
                                zero: (x.zero >> s) | if x.zero & top != 0 { fill } else { 0 },
                                one: (x.one >> s) | if x.one & top != 0 { fill } else { 0 },
                            }
                        }
                    }
                }
                _ => return None,
            }
        }
        OpKind::Unary(UnOp::Not) => Bits {
            zero: a[0].one,
            one: a[0].zero,
        },
        OpKind::Unary(UnOp::Neg) => add_sub(Bits::constant(0, w), a[0], true, w),
        OpKind::Select => match konst(0) {
            Some(c) => a[if c & 1 == 1 { 1 } else { 2 }],
            None => a[1].meet(a[2]),
        },
        OpKind::Convert(c) => {
            let from = k.op(ops[0]).ty;
            if from.is_float() || from.bits() > 64 {
                return None;
            }
            let fw = from.bits();
            match c {
                ConvOp::Trunc | ConvOp::Bitcast => a[0],
                ConvOp::ZExt => Bits {
                    zero: a[0].zero | (width_mask(w) & !width_mask(fw)),
                    one: a[0].one,
                },
                ConvOp::SExt => {
                    let top = 1u64 << (fw - 1);
                    let high = width_mask(w) & !width_mask(fw);
                    Bits {
                        zero: a[0].zero | if a[0].zero & top != 0 { high } else { 0 },
                        one: a[0].one | if a[0].one & top != 0 { high } else { 0 },
                    }
                }
                _ => return None,
            }
        }
        OpKind::Extract { lo } => {
            if k.op(ops[0]).ty.bits() > 64 {
                return None;
            }
            Bits {
                zero: a[0].zero >> lo,
                one: a[0].one >> lo,
            }
        }
        OpKind::Concat => {
            let mut r = Bits::UNKNOWN;
            let mut at = 0;
            for (i, &x) in ops.iter().enumerate() {
                r.zero |= a[i].zero << at;
                r.one |= a[i].one << at;
                at += k.op(x).ty.bits();
            }
            r
        }
        _ => return None,
    };
    Some(r.mask(w))
}

/// All ops in a topological order of the distance-0 edges (the verifier guarantees one).
fn topological(k: &Kernel) -> Vec<OpId> {
    let ids = k.op_ids();
    let mut indeg = vec![0usize; k.op_bound()];
    let mut succ: Vec<Vec<OpId>> = vec![Vec::new(); k.op_bound()];
    for (s, t, d) in k.edges() {
        if d.distance() == 0 {
            indeg[t.index()] += 1;
            succ[s.index()].push(t);
        }
    }
    let mut ready: Vec<OpId> = ids
        .iter()
        .copied()
        .filter(|o| indeg[o.index()] == 0)
        .rev()
        .collect();
    let mut out = Vec::with_capacity(ids.len());
    while let Some(o) = ready.pop() {
        out.push(o);
        for &t in &succ[o.index()] {
            indeg[t.index()] -= 1;
            if indeg[t.index()] == 0 {
                ready.push(t);
            }
        }
    }
    out
}
