//! Conditions: the integer comparisons known to hold where an `i1` value is true (or false),
//! looking through the logic lowering builds conditions from, and those of every loop (when it
//! is entered, and whenever it continues).

use super::compare::negate_cmp;
use crate::ids::{LoopId, OpId};
use crate::kernel::Kernel;
use crate::ops::{BinOp, CmpOp, OpKind, UnOp};
use std::collections::BTreeMap;

/// A comparison `lhs cmp rhs` known to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    pub cmp: CmpOp,
    pub lhs: OpId,
    pub rhs: OpId,
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
                match k.int_const(y) {
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
        OpKind::Select if value && k.int_const(a[2]) == Some(0) => {
            facts_when_depth(k, a[0], true, out, depth + 1);
            facts_when_depth(k, a[1], true, out, depth + 1);
        }
        OpKind::Select if !value && k.int_const(a[1]) == Some(1) => {
            facts_when_depth(k, a[0], false, out, depth + 1);
            facts_when_depth(k, a[2], false, out, depth + 1);
        }
        _ => {}
    }
}

/// Per loop: the facts that hold whenever it continues, and per `Loop` op those of `enter`.
pub(super) struct LoopFacts {
    /// Per region: facts of its iterations that continue (its `LoopExit`'s stop is false).
    pub(super) continues: BTreeMap<LoopId, Vec<Fact>>,
    /// Per region: facts that hold when it is entered (its `Loop` op's enter is true).
    pub(super) enters: BTreeMap<LoopId, Vec<Fact>>,
}

pub(super) fn loop_facts(k: &Kernel) -> LoopFacts {
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
