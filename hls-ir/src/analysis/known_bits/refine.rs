//! Refinement: a value's facts narrowed by the comparisons known to hold where it is used,
//! through selects (each arm under its own condition), through arithmetic on refined
//! operands, and through zero and sign extensions.

use super::compare::swap_cmp;
use super::conditions::{facts_when, Fact};
use super::fixpoint::{either, has_facts, Analysis, MAX_REFINE_DEPTH};
use super::transfer::convert;
use super::Facts;
use crate::ids::OpId;
use crate::ops::{ConvOp, OpKind};

impl Analysis<'_> {
    /// The facts of select `sel`: its arms that can be taken, each refined by its condition
    /// and by `extra` (facts known where the select's value is used). `None` when no arm can.
    pub(super) fn select_facts(&self, sel: OpId, extra: &[Fact], depth: u32) -> Option<Facts> {
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
    pub(super) fn refine(&self, subject: OpId, f: Facts, facts: &[Fact]) -> Option<Facts> {
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
    pub(super) fn refine_direct(&self, subject: OpId, f: Facts, facts: &[Fact]) -> Option<Facts> {
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
}
