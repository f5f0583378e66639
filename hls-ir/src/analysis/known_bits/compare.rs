//! Comparisons and facts: the facts a comparison that holds implies, and the comparisons the
//! facts decide.

use super::facts::{smax, smin};
use super::Facts;
use crate::integer::sext;
use crate::ops::CmpOp;

impl Facts {
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
