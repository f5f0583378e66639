//! `known-bits`: what is known about every integer value of up to 64 bits, in every execution:
//! bits known to be 0 or 1, an unsigned range and a signed range (LLVM's `KnownBits` and
//! `ConstantRange`, kept side by side and refining each other).
//!
//! Forward over the dataflow graph in a topological order of its distance-0 edges. Sources of
//! facts: constants, extensions (`zext` clears the high bits, `sext` copies the sign),
//! truncations and bit selects, `and`/`or`/`xor` with constants, shifts and `udiv`/`urem` by
//! constants, additions and multiplications whose interval does not wrap, min/max, selects
//! (each arm refined by its condition: in `c ? x : K`, `x` satisfies `!c` where `c` compares `x`),
//! and comparisons whose outcome the ranges decide.
//!
//! Loop-carried values are the one cycle: a `Carried` value is its `init` (refined by the
//! loop's `enter` condition) or a previous iteration's `next` (refined by the facts that hold
//! whenever the loop continues, i.e. whenever its exit condition is false). They start from
//! `init` alone and grow until nothing changes; a value still growing after a few rounds is
//! widened to "anything the continue condition allows", so `for (i = 0; i < 16; i++)` gives
//! `i` in `[0, 15]` and `i + 1` in `[1, 16]` without unrolling anything. If the rounds do not
//! settle within a hard limit, every carried value is taken as unknown (always sound).
//!
//! Work-item ids, arguments, loads and everything else the analysis does not model (including
//! operations added to the IR later) are unknown: any value of their width. Floating-point and
//! wider-than-64-bit values have no facts.
//!
//! Guarantees: for every op with facts, every value it takes in any execution of the kernel
//! lies in its ranges and agrees with its known bits (the facts describe the IR as analysed;
//! a pass that changes the IR must run the analysis again).

use crate::ids::{LoopId, OpId};
use crate::kernel::{Dep, Kernel};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use std::collections::BTreeMap;

/// What is known about one integer value of `bits` (1 to 64) bits.
///
/// Invariants: `zero & one == 0`, both within the width; `ulo <= uhi` within the width;
/// `slo <= shi` within the signed range of the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub bits: u32,
    /// Bits known to be 0.
    pub zero: u64,
    /// Bits known to be 1.
    pub one: u64,
    /// Unsigned range (inclusive).
    pub ulo: u64,
    pub uhi: u64,
    /// Signed range (inclusive) of the value read as a `bits`-bit two's complement number.
    pub slo: i64,
    pub shi: i64,
}

/// Mask of the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `v` (low `bits` bits) read as a signed number.
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

fn smin(bits: u32) -> i64 {
    -(1i128 << (bits - 1)) as i64
}

fn smax(bits: u32) -> i64 {
    ((1i128 << (bits - 1)) - 1) as i64
}

/// Bits needed to hold unsigned `v` (0 for 0).
fn ubits(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Bits needed to hold signed `v` in two's complement (1 for 0 and -1).
fn sbits(v: i64) -> u32 {
    if v < 0 {
        65 - (!v).leading_zeros()
    } else {
        65 - v.leading_zeros()
    }
}

impl Facts {
    /// Nothing known.
    pub fn top(bits: u32) -> Facts {
        Facts {
            bits,
            zero: 0,
            one: 0,
            ulo: 0,
            uhi: mask(bits),
            slo: smin(bits),
            shi: smax(bits),
        }
    }

    pub fn constant(v: u64, bits: u32) -> Facts {
        let v = v & mask(bits);
        let s = sext(v, bits);
        Facts {
            bits,
            zero: !v & mask(bits),
            one: v,
            ulo: v,
            uhi: v,
            slo: s,
            shi: s,
        }
    }

    /// The value, when the facts leave only one.
    pub fn value(&self) -> Option<u64> {
        (self.ulo == self.uhi).then_some(self.ulo)
    }

    /// The fewest low bits the value is the zero extension of (0 for a value that is always 0).
    pub fn unsigned_bits(&self) -> u32 {
        ubits(self.uhi)
    }

    /// The fewest low bits the value is the sign extension of (at least 1).
    pub fn signed_bits(&self) -> u32 {
        sbits(self.slo).max(sbits(self.shi))
    }

    /// Facts from an unsigned range computed exactly (i128), or nothing if it leaves the width.
    fn urange(lo: i128, hi: i128, bits: u32) -> Facts {
        let mut f = Facts::top(bits);
        if lo >= 0 && hi <= mask(bits) as i128 && lo <= hi {
            f.ulo = lo as u64;
            f.uhi = hi as u64;
        }
        f
    }

    /// Facts from a signed range computed exactly (i128), or nothing if it leaves the width.
    fn srange(lo: i128, hi: i128, bits: u32) -> Facts {
        let mut f = Facts::top(bits);
        if lo >= smin(bits) as i128 && hi <= smax(bits) as i128 && lo <= hi {
            f.slo = lo as i64;
            f.shi = hi as i64;
        }
        f
    }

    /// Both `self` and `o` hold (same width); `None` when they contradict each other.
    pub fn meet(self, o: Facts) -> Option<Facts> {
        debug_assert_eq!(self.bits, o.bits);
        Facts {
            bits: self.bits,
            zero: self.zero | o.zero,
            one: self.one | o.one,
            ulo: self.ulo.max(o.ulo),
            uhi: self.uhi.min(o.uhi),
            slo: self.slo.max(o.slo),
            shi: self.shi.min(o.shi),
        }
        .normalize()
    }

    /// `self` or `o` holds (same width).
    pub fn join(self, o: Facts) -> Facts {
        debug_assert_eq!(self.bits, o.bits);
        let f = Facts {
            bits: self.bits,
            zero: self.zero & o.zero,
            one: self.one & o.one,
            ulo: self.ulo.min(o.ulo),
            uhi: self.uhi.max(o.uhi),
            slo: self.slo.min(o.slo),
            shi: self.shi.max(o.shi),
        };
        f.normalize().unwrap_or(f)
    }

    /// Lets known bits, the unsigned range and the signed range refine each other; `None` when
    /// no value satisfies all three.
    pub fn normalize(mut self) -> Option<Facts> {
        let w = self.bits;
        let m = mask(w);
        let sign = 1u64 << (w - 1);
        for _ in 0..3 {
            let before = self;
            if self.zero & self.one != 0 {
                return None;
            }
            // Known bits bound both ranges.
            let umax_k = !self.zero & m;
            self.ulo = self.ulo.max(self.one);
            self.uhi = self.uhi.min(umax_k);
            let smin_k = if self.zero & sign != 0 {
                self.one as i64
            } else {
                sext(self.one | sign, w)
            };
            let smax_k = if self.one & sign != 0 {
                sext(umax_k, w)
            } else {
                sext(umax_k & !sign, w)
            };
            self.slo = self.slo.max(smin_k);
            self.shi = self.shi.min(smax_k);
            if self.ulo > self.uhi || self.slo > self.shi {
                return None;
            }
            // The two ranges agree where the sign is known.
            if self.uhi <= smax(w) as u64 {
                self.slo = self.slo.max(self.ulo as i64);
                self.shi = self.shi.min(self.uhi as i64);
            } else if self.ulo > smax(w) as u64 {
                self.slo = self.slo.max(sext(self.ulo, w));
                self.shi = self.shi.min(sext(self.uhi, w));
            }
            if self.slo >= 0 {
                self.ulo = self.ulo.max(self.slo as u64);
                self.uhi = self.uhi.min(self.shi as u64);
            } else if self.shi < 0 {
                self.ulo = self.ulo.max(self.slo as u64 & m);
                self.uhi = self.uhi.min(self.shi as u64 & m);
            }
            if self.ulo > self.uhi || self.slo > self.shi {
                return None;
            }
            // The bits above the highest one where the range's ends differ are known.
            let d = self.ulo ^ self.uhi;
            let fixed = if d == 0 { m } else { m & !mask(ubits(d)) };
            self.one |= self.ulo & fixed;
            self.zero |= !self.ulo & fixed;
            if self == before {
                break;
            }
        }
        (self.zero & self.one == 0 && self.ulo <= self.uhi && self.slo <= self.shi).then_some(self)
    }

    /// The facts implied by `self cmp other` (same width) holding.
    pub fn refine_by_cmp(self, c: CmpOp, other: &Facts) -> Option<Facts> {
        let mut f = self;
        match c {
            CmpOp::Eq => return self.meet(*other),
            CmpOp::Ne => {
                if let Some(v) = other.value() {
                    let s = sext(v, f.bits);
                    if (f.ulo == v && f.uhi == v) || (f.slo == s && f.shi == s) {
                        return None;
                    }
                    if f.ulo == v {
                        f.ulo += 1;
                    } else if f.uhi == v {
                        f.uhi -= 1;
                    }
                    if f.slo == s {
                        f.slo += 1;
                    } else if f.shi == s {
                        f.shi -= 1;
                    }
                }
            }
            CmpOp::LtS => f.shi = f.shi.min(other.shi.checked_sub(1)?),
            CmpOp::LeS => f.shi = f.shi.min(other.shi),
            CmpOp::GtS => f.slo = f.slo.max(other.slo.checked_add(1)?),
            CmpOp::GeS => f.slo = f.slo.max(other.slo),
            CmpOp::LtU => f.uhi = f.uhi.min(other.uhi.checked_sub(1)?),
            CmpOp::LeU => f.uhi = f.uhi.min(other.uhi),
            CmpOp::GtU => f.ulo = f.ulo.max(other.ulo.checked_add(1)?),
            CmpOp::GeU => f.ulo = f.ulo.max(other.ulo),
            _ => return Some(self),
        }
        if f.ulo > f.uhi || f.slo > f.shi {
            return None;
        }
        if f.bits < 64 && (f.slo < smin(f.bits) || f.shi > smax(f.bits)) {
            return None;
        }
        f.normalize()
    }
}

/// The comparison with its operands swapped (`a < b` is `b > a`).
pub fn swap_cmp(c: CmpOp) -> CmpOp {
    match c {
        CmpOp::LtS => CmpOp::GtS,
        CmpOp::LeS => CmpOp::GeS,
        CmpOp::GtS => CmpOp::LtS,
        CmpOp::GeS => CmpOp::LeS,
        CmpOp::LtU => CmpOp::GtU,
        CmpOp::LeU => CmpOp::GeU,
        CmpOp::GtU => CmpOp::LtU,
        CmpOp::GeU => CmpOp::LeU,
        other => other,
    }
}

/// The integer comparison that holds exactly when `c` does not, if there is one.
pub fn negate_cmp(c: CmpOp) -> Option<CmpOp> {
    Some(match c {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::LtS => CmpOp::GeS,
        CmpOp::LeS => CmpOp::GtS,
        CmpOp::GtS => CmpOp::LeS,
        CmpOp::GeS => CmpOp::LtS,
        CmpOp::LtU => CmpOp::GeU,
        CmpOp::LeU => CmpOp::GtU,
        CmpOp::GtU => CmpOp::LeU,
        CmpOp::GeU => CmpOp::LtU,
        _ => return None,
    })
}

/// `a cmp b` decided by the facts, if they decide it.
pub fn decide_cmp(c: CmpOp, a: &Facts, b: &Facts) -> Option<bool> {
    let differ = (a.one & b.zero) | (a.zero & b.one) != 0
        || a.uhi < b.ulo
        || b.uhi < a.ulo
        || a.shi < b.slo
        || b.shi < a.slo;
    let same = a.value().is_some() && a.value() == b.value();
    match c {
        CmpOp::Eq | CmpOp::Ne => {
            let eq = if same {
                true
            } else if differ {
                false
            } else {
                return None;
            };
            Some(eq == (c == CmpOp::Eq))
        }
        CmpOp::LtS if a.shi < b.slo => Some(true),
        CmpOp::LtS if a.slo >= b.shi => Some(false),
        CmpOp::LeS if a.shi <= b.slo => Some(true),
        CmpOp::LeS if a.slo > b.shi => Some(false),
        CmpOp::LtU if a.uhi < b.ulo => Some(true),
        CmpOp::LtU if a.ulo >= b.uhi => Some(false),
        CmpOp::LeU if a.uhi <= b.ulo => Some(true),
        CmpOp::LeU if a.ulo > b.uhi => Some(false),
        CmpOp::GtS | CmpOp::GeS | CmpOp::GtU | CmpOp::GeU => decide_cmp(swap_cmp(c), b, a),
        _ => None,
    }
}

/// A comparison `lhs cmp rhs` known to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    pub cmp: CmpOp,
    pub lhs: OpId,
    pub rhs: OpId,
}

fn konst(k: &Kernel, o: OpId) -> Option<u64> {
    match k.op(o).kind {
        OpKind::Const(v) if !k.op(o).ty.is_float() => Some(v),
        _ => None,
    }
}

/// Integer comparisons that hold whenever the `i1` value `v` equals `value`, looking through
/// the logic lowering builds conditions from: negation (`xor` with 1), `and`/`or` (and their
/// select forms `c ? x : 0`, `c ? 1 : x`).
pub fn facts_when(k: &Kernel, v: OpId, value: bool, out: &mut Vec<Fact>) {
    facts_when_depth(k, v, value, out, 0)
}

fn facts_when_depth(k: &Kernel, v: OpId, value: bool, out: &mut Vec<Fact>, depth: u32) {
    if depth > 16 || k.op(v).ty != crate::types::Ty::BOOL {
        return;
    }
    let a = k.operands(v);
    match k.op(v).kind {
        OpKind::Cmp(c) if !k.op(a[0]).ty.is_float() => {
            let cmp = if value { Some(c) } else { negate_cmp(c) };
            if let Some(cmp) = cmp {
                out.push(Fact {
                    cmp,
                    lhs: a[0],
                    rhs: a[1],
                });
            }
        }
        OpKind::Binary(BinOp::Xor) => {
            for (x, y) in [(a[0], a[1]), (a[1], a[0])] {
                match konst(k, y) {
                    Some(1) => return facts_when_depth(k, x, !value, out, depth + 1),
                    Some(0) => return facts_when_depth(k, x, value, out, depth + 1),
                    _ => {}
                }
            }
        }
        OpKind::Unary(UnOp::Not) => facts_when_depth(k, a[0], !value, out, depth + 1),
        OpKind::Binary(BinOp::And) if value => {
            facts_when_depth(k, a[0], true, out, depth + 1);
            facts_when_depth(k, a[1], true, out, depth + 1);
        }
        OpKind::Binary(BinOp::Or) if !value => {
            facts_when_depth(k, a[0], false, out, depth + 1);
            facts_when_depth(k, a[1], false, out, depth + 1);
        }
        // c ? x : 0 is c && x; c ? 1 : x is c || x.
        OpKind::Select if value && konst(k, a[2]) == Some(0) => {
            facts_when_depth(k, a[0], true, out, depth + 1);
            facts_when_depth(k, a[1], true, out, depth + 1);
        }
        OpKind::Select if !value && konst(k, a[1]) == Some(1) => {
            facts_when_depth(k, a[0], false, out, depth + 1);
            facts_when_depth(k, a[2], false, out, depth + 1);
        }
        _ => {}
    }
}

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
const MAX_REFINE_DEPTH: u32 = 3;
/// Rounds of growth a carried value may take before it is widened.
const WIDEN_AFTER: u32 = 6;
/// Rounds after which the analysis gives up on loops (every carried value unknown).
const MAX_ROUNDS: u32 = 200;

/// Per loop: the facts that hold whenever it continues, and per `Loop` op those of `enter`.
struct LoopFacts {
    /// Per region: facts of its iterations that continue (its `LoopExit`'s stop is false).
    continues: BTreeMap<LoopId, Vec<Fact>>,
    /// Per region: facts that hold when it is entered (its `Loop` op's enter is true).
    enters: BTreeMap<LoopId, Vec<Fact>>,
}

fn loop_facts(k: &Kernel) -> LoopFacts {
    let mut lf = LoopFacts {
        continues: BTreeMap::new(),
        enters: BTreeMap::new(),
    };
    for o in k.op_ids() {
        match k.op(o).kind {
            OpKind::LoopExit => {
                let mut v = Vec::new();
                facts_when(k, k.operands(o)[0], false, &mut v);
                lf.continues.insert(k.op(o).region, v);
            }
            OpKind::Loop(l) => {
                let mut v = Vec::new();
                facts_when(k, k.operands(o)[0], true, &mut v);
                lf.enters.insert(l, v);
            }
            _ => {}
        }
    }
    lf
}

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

struct Analysis<'a> {
    k: &'a Kernel,
    lf: LoopFacts,
    /// Current facts; `None` for an integer value means "no value seen yet" (bottom).
    cur: Vec<Option<Facts>>,
    /// Carried values: the facts their `next` had in the previous round (bottom before).
    next_seen: BTreeMap<OpId, Option<Facts>>,
    grew: BTreeMap<OpId, u32>,
    /// Give up on loops: every carried value is unknown.
    give_up: bool,
}

impl Analysis<'_> {
    fn facts(&self, o: OpId) -> Option<Facts> {
        if has_facts(self.k, o) {
            self.cur[o.index()]
        } else {
            None
        }
    }

    /// Facts of integer operand `o`: `Err(())` while it is bottom (no value seen yet).
    fn operand(&self, o: OpId) -> Result<Facts, ()> {
        if has_facts(self.k, o) {
            self.cur[o.index()].ok_or(())
        } else {
            // Not described (a float or a wide value): anything of its width.
            Ok(Facts::top(self.k.op(o).ty.bits().clamp(1, 64)))
        }
    }

    /// The facts of select `sel`: its arms that can be taken, each refined by its condition
    /// and by `extra` (facts known where the select's value is used). `None` when no arm can.
    fn select_facts(&self, sel: OpId, extra: &[Fact], depth: u32) -> Option<Facts> {
        let k = self.k;
        let a = k.operands(sel);
        let c = self.operand(a[0]).ok()?;
        let mut f = None;
        for (arm, when) in [(a[1], true), (a[2], false)] {
            if c.value() == Some(u64::from(!when)) {
                continue;
            }
            let mut facts = extra.to_vec();
            facts_when(k, a[0], when, &mut facts);
            let r = self
                .operand(arm)
                .ok()
                .and_then(|x| self.refine_depth(arm, x, &facts, depth));
            f = either(f, r);
        }
        f
    }

    /// `subject`'s facts refined by the comparisons in `facts` that mention it; a select is
    /// refined through its arms (each under its own condition too), so in
    /// `s > 100 ? 100 : (s < -100 ? -100 : s)` the inner select is known to be in
    /// `[-100, 100]` where the outer one takes it.
    fn refine(&self, subject: OpId, f: Facts, facts: &[Fact]) -> Option<Facts> {
        self.refine_depth(subject, f, facts, 0)
    }

    fn refine_depth(&self, subject: OpId, f: Facts, facts: &[Fact], depth: u32) -> Option<Facts> {
        if facts.is_empty() {
            return Some(f);
        }
        let k = self.k;
        let mut f = f;
        let a = k.operands(subject);
        match k.op(subject).kind {
            OpKind::Select if depth < MAX_REFINE_DEPTH && self.facts(a[0]).is_some() => {
                f = f.meet(self.select_facts(subject, facts, depth + 1)?)?;
            }
            // A value computed from refined operands: `x + 1` where `x < 200` holds.
            OpKind::Binary(_) | OpKind::Unary(_) | OpKind::Convert(_) | OpKind::Extract { .. }
                if depth < MAX_REFINE_DEPTH =>
            {
                let mut args = Vec::with_capacity(a.len());
                let mut changed = false;
                for &x in &a {
                    if !has_facts(k, x) {
                        args.push(Facts::top(k.op(x).ty.bits().clamp(1, 64)));
                        continue;
                    }
                    let Some(xf) = self.facts(x) else {
                        return self.refine_direct(subject, f, facts);
                    };
                    let r = self.refine_depth(x, xf, facts, depth + 1)?;
                    changed |= r != xf;
                    args.push(r);
                }
                if changed {
                    f = f.meet(self.eval(subject, &args).normalize()?)?;
                }
            }
            _ => {}
        }
        self.refine_direct(subject, f, facts)
    }

    /// `subject` refined by the comparisons of `facts` on it, or on its zero or sign
    /// extension (C compares a `char` counter as an `int`).
    fn refine_direct(&self, subject: OpId, f: Facts, facts: &[Fact]) -> Option<Facts> {
        let mut f = f;
        for fact in facts {
            for (x, other, cmp) in [
                (fact.lhs, fact.rhs, fact.cmp),
                (fact.rhs, fact.lhs, swap_cmp(fact.cmp)),
            ] {
                if !has_facts(self.k, other) {
                    continue;
                }
                let Some(of) = self.facts(other) else {
                    continue;
                };
                if x == subject {
                    if of.bits == f.bits {
                        f = f.refine_by_cmp(cmp, &of)?;
                    }
                    continue;
                }
                let OpKind::Convert(c @ (ConvOp::ZExt | ConvOp::SExt)) = self.k.op(x).kind else {
                    continue;
                };
                if self.k.operands(x)[0] != subject || self.k.op(x).ty.bits() != of.bits {
                    continue;
                }
                let wide = convert(c, of.bits, &f)
                    .normalize()?
                    .refine_by_cmp(cmp, &of)?;
                let back = if c == ConvOp::SExt {
                    Facts::srange(wide.slo as i128, wide.shi as i128, f.bits)
                } else {
                    Facts::urange(wide.ulo as i128, wide.uhi as i128, f.bits)
                };
                f = f.meet(back)?;
            }
        }
        Some(f)
    }

    fn eval(&self, o: OpId, args: &[Facts]) -> Facts {
        let k = self.k;
        let op = k.op(o);
        let w = op.ty.bits();
        let a = k.operands(o);
        let top = Facts::top(w);
        match &op.kind {
            OpKind::Binary(b) => {
                let amount = konst(k, a[1]).map(|c| (c % w as u64) as u32);
                binary(*b, w, &args[0], &args[1], amount, konst(k, a[1]))
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
fn either(a: Option<Facts>, b: Option<Facts>) -> Option<Facts> {
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

fn binary(
    b: BinOp,
    w: u32,
    x: &Facts,
    y: &Facts,
    amount: Option<u32>,
    divisor: Option<u64>,
) -> Facts {
    let m = mask(w);
    let top = Facts::top(w);
    match b {
        BinOp::Add | BinOp::Sub => {
            let sub = b == BinOp::Sub;
            // y's bits inverted for a subtraction (x + !y + 1).
            let (yz, yo) = if sub {
                (y.one, y.zero)
            } else {
                (y.zero, y.one)
            };
            let (zero, one) = add_known(x.zero, x.one, yz, yo, sub, m);
            let (xu, yu) = (
                (x.ulo as i128, x.uhi as i128),
                (y.ulo as i128, y.uhi as i128),
            );
            let (xs, ys) = (
                (x.slo as i128, x.shi as i128),
                (y.slo as i128, y.shi as i128),
            );
            let (u, s) = if sub {
                (
                    Facts::urange(xu.0 - yu.1, xu.1 - yu.0, w),
                    Facts::srange(xs.0 - ys.1, xs.1 - ys.0, w),
                )
            } else {
                (
                    Facts::urange(xu.0 + yu.0, xu.1 + yu.1, w),
                    Facts::srange(xs.0 + ys.0, xs.1 + ys.1, w),
                )
            };
            Facts {
                zero,
                one,
                ulo: u.ulo,
                uhi: u.uhi,
                slo: s.slo,
                shi: s.shi,
                bits: w,
            }
        }
        BinOp::Mul => {
            // Trailing zeros add up; the ranges multiply when they do not wrap.
            let tz = (x.zero.trailing_ones() + y.zero.trailing_ones()).min(w);
            let hi = x.uhi as u128 * y.uhi as u128;
            let u = if hi <= m as u128 {
                Facts::urange((x.ulo as u128 * y.ulo as u128) as i128, hi as i128, w)
            } else {
                top
            };
            let corners = [
                x.slo as i128 * y.slo as i128,
                x.slo as i128 * y.shi as i128,
                x.shi as i128 * y.slo as i128,
                x.shi as i128 * y.shi as i128,
            ];
            let s = Facts::srange(
                *corners.iter().min().expect("four corners"),
                *corners.iter().max().expect("four corners"),
                w,
            );
            Facts {
                zero: mask(tz),
                ulo: u.ulo,
                uhi: u.uhi,
                slo: s.slo,
                shi: s.shi,
                ..top
            }
        }
        BinOp::And | BinOp::Or | BinOp::Xor => {
            let (zero, one) = match b {
                BinOp::And => (x.zero | y.zero, x.one & y.one),
                BinOp::Or => (x.zero & y.zero, x.one | y.one),
                _ => (
                    (x.zero & y.zero) | (x.one & y.one),
                    (x.zero & y.one) | (x.one & y.zero),
                ),
            };
            // Bitwise operations keep a common sign extension, and cannot set bits above
            // the highest one of either operand.
            let k = x.signed_bits().max(y.signed_bits());
            let s = Facts::srange(-(1i128 << (k - 1)), (1i128 << (k - 1)) - 1, w);
            let top_bit = ubits(x.uhi.max(y.uhi));
            let (ulo, uhi) = match b {
                BinOp::And => (0, x.uhi.min(y.uhi)),
                BinOp::Or => (x.ulo.max(y.ulo), mask(top_bit)),
                _ => (0, mask(top_bit)),
            };
            Facts {
                zero,
                one,
                ulo,
                uhi,
                slo: s.slo,
                shi: s.shi,
                bits: w,
            }
        }
        BinOp::Shl => match amount {
            Some(c) => {
                let u = Facts::urange((x.ulo as i128) << c, (x.uhi as i128) << c, w);
                let s = Facts::srange((x.slo as i128) << c, (x.shi as i128) << c, w);
                Facts {
                    zero: ((x.zero << c) | mask(c)) & m,
                    one: (x.one << c) & m,
                    ulo: u.ulo,
                    uhi: u.uhi,
                    slo: s.slo,
                    shi: s.shi,
                    bits: w,
                }
            }
            None => top,
        },
        BinOp::ShrU => match amount {
            Some(c) => Facts {
                zero: (x.zero >> c) | (m & !(m >> c)),
                one: x.one >> c,
                ulo: x.ulo >> c,
                uhi: x.uhi >> c,
                ..top
            },
            // Any shift keeps the known leading zeros.
            None => Facts {
                zero: m & !mask(ubits(!x.zero & m)),
                uhi: x.uhi,
                ..top
            },
        },
        BinOp::ShrS => match amount {
            Some(c) => Facts {
                zero: ((sext(x.zero, w) >> c) as u64) & m,
                one: ((sext(x.one, w) >> c) as u64) & m,
                slo: x.slo >> c,
                shi: x.shi >> c,
                ..top
            },
            None => Facts {
                slo: x.slo.min(0),
                shi: x.shi.max(0),
                ..top
            },
        },
        BinOp::MinS | BinOp::MaxS | BinOp::MinU | BinOp::MaxU => {
            // The result is one of the operands, and the order narrows its range.
            let mut f = x.join(*y);
            match b {
                BinOp::MinS => {
                    f.slo = x.slo.min(y.slo);
                    f.shi = x.shi.min(y.shi);
                }
                BinOp::MaxS => {
                    f.slo = x.slo.max(y.slo);
                    f.shi = x.shi.max(y.shi);
                }
                BinOp::MinU => {
                    f.ulo = x.ulo.min(y.ulo);
                    f.uhi = x.uhi.min(y.uhi);
                }
                _ => {
                    f.ulo = x.ulo.max(y.ulo);
                    f.uhi = x.uhi.max(y.uhi);
                }
            }
            f
        }
        // Division by zero gives 0 in the IR, inside every range below.
        BinOp::DivU => match divisor {
            Some(d) if d & m != 0 => Facts {
                ulo: x.ulo / (d & m),
                uhi: x.uhi / (d & m),
                ..top
            },
            _ => Facts { uhi: x.uhi, ..top },
        },
        BinOp::RemU => match divisor {
            Some(d) if d & m != 0 && x.uhi < d & m => *x,
            Some(d) if d & m != 0 => Facts {
                uhi: x.uhi.min((d & m) - 1),
                ..top
            },
            _ => Facts {
                uhi: x.uhi.min(y.uhi.saturating_sub(1)),
                ..top
            },
        },
        _ => top,
    }
}

fn unary(u: UnOp, w: u32, x: &Facts) -> Facts {
    match u {
        UnOp::Not => Facts {
            bits: w,
            zero: x.one,
            one: x.zero,
            ulo: mask(w) - x.uhi,
            uhi: mask(w) - x.ulo,
            slo: -1 - x.shi,
            shi: -1 - x.slo,
        },
        UnOp::Neg => binary(BinOp::Sub, w, &Facts::constant(0, w), x, None, None),
        UnOp::AbsS if x.slo > smin(w) => {
            let (lo, hi) = if x.slo >= 0 {
                (x.slo, x.shi)
            } else if x.shi <= 0 {
                (-x.shi, -x.slo)
            } else {
                (0, (-x.slo).max(x.shi))
            };
            Facts::srange(lo as i128, hi as i128, w)
        }
        _ => Facts::top(w),
    }
}

/// Known bits of `x + y + carry` (carry 1 for a subtraction, whose `y` is already inverted):
/// LLVM's `KnownBits::computeForAddCarry`.
fn add_known(xz: u64, xo: u64, yz: u64, yo: u64, carry: bool, m: u64) -> (u64, u64) {
    let (xmax, ymax) = (!xz & m, !yz & m);
    let sum_zero = xmax.wrapping_add(ymax).wrapping_add(carry as u64);
    let sum_one = xo.wrapping_add(yo).wrapping_add(carry as u64);
    let carry_zero = !(sum_zero ^ xz ^ yz);
    let carry_one = sum_one ^ xo ^ yo;
    let known = (xz | xo) & (yz | yo) & (carry_zero | carry_one) & m;
    (!sum_zero & known, sum_one & known)
}

fn convert(c: ConvOp, w: u32, x: &Facts) -> Facts {
    let top = Facts::top(w);
    let m = mask(w);
    let s = x.bits;
    match c {
        ConvOp::Trunc => {
            let mut f = Facts {
                zero: x.zero & m,
                one: x.one & m,
                ..top
            };
            if x.uhi <= m {
                f.ulo = x.ulo;
                f.uhi = x.uhi;
            }
            if x.slo >= smin(w) && x.shi <= smax(w) {
                f.slo = x.slo;
                f.shi = x.shi;
            }
            f
        }
        ConvOp::ZExt => Facts {
            zero: x.zero | (m & !mask(s)),
            one: x.one,
            ulo: x.ulo,
            uhi: x.uhi,
            slo: x.ulo as i64,
            shi: x.uhi as i64,
            bits: w,
        },
        ConvOp::SExt => Facts {
            zero: sext(x.zero, s) as u64 & m,
            one: sext(x.one, s) as u64 & m,
            slo: x.slo,
            shi: x.shi,
            ..top
        },
        ConvOp::Bitcast if s == w => *x,
        _ => top,
    }
}

fn extract(x: &Facts, lo: u32, w: u32) -> Facts {
    let m = mask(w);
    let mut f = Facts {
        zero: (x.zero >> lo) & m,
        one: (x.one >> lo) & m,
        ..Facts::top(w)
    };
    if lo == 0 {
        f = convert(ConvOp::Trunc, w, x);
    } else if lo + w == x.bits {
        // The top bits: an unsigned shift right.
        f.ulo = x.ulo >> lo;
        f.uhi = x.uhi >> lo;
    }
    f
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

#[cfg(test)]
mod tests {
    use super::*;

    fn exhaustive_check(bits: u32, pick: impl Fn(u64) -> bool, f: &Facts) {
        for v in 0..=mask(bits) {
            if pick(v) {
                assert!(v & f.zero == 0 && v & f.one == f.one, "{v} vs {f:?}");
                assert!(v >= f.ulo && v <= f.uhi, "{v} vs {f:?}");
                let s = sext(v, bits);
                assert!(s >= f.slo && s <= f.shi, "{v} vs {f:?}");
            }
        }
    }

    /// The transfer functions on 4-bit values are sound: for random facts (from random sets of
    /// values), every result of every member (pair of members) lies in the result's facts;
    /// decided comparisons hold for all members, refinements keep every member that passes.
    #[test]
    fn transfer_functions_are_sound_on_small_widths() {
        let w = 4;
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Shl,
            BinOp::ShrU,
            BinOp::ShrS,
            BinOp::MinS,
            BinOp::MaxS,
            BinOp::MinU,
            BinOp::MaxU,
            BinOp::DivU,
            BinOp::RemU,
        ];
        for _ in 0..3000 {
            let set = |r: u64| -> Vec<u64> { (0..16).filter(|i| r >> i & 1 == 1).collect() };
            let (sx, sy) = (
                set(rnd() | 1 << (rnd() % 16)),
                set(rnd() | 1 << (rnd() % 16)),
            );
            let facts_of = |s: &[u64]| {
                s.iter()
                    .map(|&v| Facts::constant(v, w))
                    .reduce(|a, b| a.join(b))
                    .unwrap()
            };
            let (fx, fy) = (facts_of(&sx), facts_of(&sy));
            for b in ops {
                let konst = (sy.len() == 1).then(|| sy[0]);
                let amount = konst.map(|c| (c % w as u64) as u32);
                let f = binary(b, w, &fx, &fy, amount, konst);
                let f = f.normalize().expect("not empty");
                for &x in &sx {
                    for &y in &sy {
                        let v = crate::passes::const_fold::eval_binary(
                            b,
                            crate::Ty::Int(w as u16),
                            x,
                            y,
                        )
                        .unwrap_or(0);
                        exhaustive_check(w, |u| u == v, &f);
                    }
                }
            }
            for u in [UnOp::Not, UnOp::Neg, UnOp::AbsS] {
                let f = unary(u, w, &fx).normalize().expect("not empty");
                for &x in &sx {
                    let v = match u {
                        UnOp::Not => !x,
                        UnOp::Neg => x.wrapping_neg(),
                        _ => sext(x, w).unsigned_abs(),
                    } & mask(w);
                    exhaustive_check(w, |u| u == v, &f);
                }
            }
            for (c, to) in [
                (ConvOp::Trunc, 2),
                (ConvOp::Trunc, 3),
                (ConvOp::ZExt, 6),
                (ConvOp::SExt, 6),
            ] {
                let f = convert(c, to, &fx).normalize().expect("not empty");
                for &x in &sx {
                    let v = match c {
                        ConvOp::SExt => sext(x, w) as u64,
                        _ => x,
                    } & mask(to);
                    exhaustive_check(to, |u| u == v, &f);
                }
            }
            for (lo, to) in [(1, 2), (2, 2), (1, 3), (3, 1)] {
                let f = extract(&fx, lo, to).normalize().expect("not empty");
                for &x in &sx {
                    exhaustive_check(to, |u| u == (x >> lo) & mask(to), &f);
                }
            }
            for c in [
                CmpOp::Eq,
                CmpOp::Ne,
                CmpOp::LtS,
                CmpOp::LeS,
                CmpOp::GtS,
                CmpOp::GeS,
                CmpOp::LtU,
                CmpOp::LeU,
                CmpOp::GtU,
                CmpOp::GeU,
            ] {
                if let Some(d) = decide_cmp(c, &fx, &fy) {
                    for &x in &sx {
                        for &y in &sy {
                            let v = crate::passes::const_fold::eval_cmp(c, w, x, y).unwrap();
                            assert_eq!(v, d, "{c:?} {x} {y} {fx:?} {fy:?}");
                        }
                    }
                }
                if let Some(r) = fx.refine_by_cmp(c, &fy) {
                    for &x in &sx {
                        if sy
                            .iter()
                            .any(|&y| crate::passes::const_fold::eval_cmp(c, w, x, y).unwrap())
                        {
                            exhaustive_check(w, |u| u == x, &r);
                        }
                    }
                } else {
                    for &x in &sx {
                        for &y in &sy {
                            assert!(!crate::passes::const_fold::eval_cmp(c, w, x, y).unwrap());
                        }
                    }
                }
            }
        }
    }
}
