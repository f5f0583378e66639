//! `cse`: common-subexpression elimination of pure operations.
//! Requires: a verified kernel. Guarantees: no two pure ops (constants, arguments, work-item
//! values, arithmetic, comparisons, selects, conversions) of one region have the same kind,
//! type and operand edges (bit selects and concatenations included). Loads are not merged: a
//! store may lie between them.

use crate::ids::OpId;
use crate::kernel::{Dep, Kernel};
use crate::ops::OpKind;
use std::collections::HashMap;

type Key = (
    OpKind,
    crate::types::Ty,
    crate::ids::LoopId,
    Vec<(OpId, Dep)>,
);

pub fn run(k: &mut Kernel) {
    loop {
        let mut seen: HashMap<Key, OpId> = HashMap::new();
        let mut changed = false;
        for id in k.op_ids() {
            let op = k.op(id);
            if !op.kind.is_pure() {
                continue;
            }
            let key = (op.kind.clone(), op.ty, op.region, k.preds(id));
            match seen.get(&key) {
                Some(&first) => {
                    if k.op(first).name.is_none() {
                        let name = k.op(id).name.clone();
                        k.op_mut(first).name = name;
                    }
                    k.replace_uses(id, first);
                    k.remove_op(id);
                    changed = true;
                }
                None => {
                    seen.insert(key, id);
                }
            }
        }
        if !changed {
            break;
        }
    }
}
