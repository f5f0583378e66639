//! `exit-ahead`: each loop decides whether an iteration is its last one iteration ahead, so
//! the decision comes out of a register.
//!
//! A loop's stop condition (the `LoopExit` operand) is usually computed in the iteration from
//! the carried counter: `j + 1 < n` is a carry chain and a compare after the counter's
//! register. In hardware that result is control: it ends the loop's issue, frees the entry's
//! registers and, in an overlapped loop, starts the next entry in the same cycle
//! (`rtl_templates::kernel::overlap`), so the chain continues into the enables of every
//! register the start loads, and on ECP5 it became the critical path of the kernels with
//! nested loops (`rowsum` 75 MHz, `row_prefix` 69 MHz, issue 17).
//!
//! The pass computes the condition of the *next* iteration in this one, from the values the
//! carried inputs take next, and carries it as a new i1 value; the condition of the first
//! iteration is computed from the initial values where the loop starts. The stop then reads
//! that carried value: a register. For the counted loops people write the two copies are as
//! short as the original: a counter `j` stepped by a constant `s` whose test reads `j + c`
//! tests `j + (c + s)` ahead (one add, not two).
//!
//! Which conditions: computed in the loop from counters (carried values stepped by a
//! constant, read as `x + c` or `x - c`), values from outside the loop and constants, with integer
//! operations whose delay is that of an add at most (adds, logic, shifts, compares, selects,
//! width changes); at most [`MAX_SLICE`] of them. Then the copy ahead is as deep as the
//! condition, so no II grows (`stepped_reads`). Anything else (a load, a multiply, a float
//! compare, a counter read directly or stepped by a variable, a condition that already is a
//! carried value or a constant) keeps its loop as it was.
//!
//! Runs after `bank`: the residue analysis `bank` uses reads the loops' stop conditions as
//! the source wrote them. The copies are folded where their operands are constants (the first
//! iteration's test of a loop counted to a constant is a constant).
//!
//! Requires: a verified kernel. Guarantees: a verified kernel computing the same values; every
//! loop runs the same iterations (the carried value is, in each iteration, the old condition).

use crate::ids::{LoopId, OpId};
use crate::kernel::{Dep, Kernel, LoopKind, Op};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind};
use std::collections::BTreeMap;

/// The most ops a condition may have for the pass to copy it (two copies are built).
pub const MAX_SLICE: usize = 16;

pub fn run(k: &mut Kernel) {
    for l in k.loops.ids() {
        if k.loops[l].kind == LoopKind::WorkItems {
            continue;
        }
        if let Some(plan) = plan(k, l) {
            rewrite(k, l, &plan);
        }
    }
}

/// What one loop's rewrite needs: its exit op, the condition's ops in operand-before-user
/// order, and the loop's parent (where the first iteration's copy goes).
struct Plan {
    exit: OpId,
    slice: Vec<OpId>,
    parent: LoopId,
}

/// Integer ops no slower than an add, safe to compute twice.
fn cheap(kind: &OpKind) -> bool {
    match kind {
        OpKind::Const(_) | OpKind::Select | OpKind::Extract { .. } | OpKind::Concat => true,
        OpKind::Binary(b) => matches!(
            b,
            BinOp::Add
                | BinOp::Sub
                | BinOp::Shl
                | BinOp::ShrU
                | BinOp::ShrS
                | BinOp::And
                | BinOp::Or
                | BinOp::Xor
                | BinOp::MinS
                | BinOp::MinU
                | BinOp::MaxS
                | BinOp::MaxU
        ),
        OpKind::Unary(u) => matches!(u, crate::ops::UnOp::Not),
        OpKind::Cmp(c) => !matches!(
            c,
            CmpOp::FEq | CmpOp::FNe | CmpOp::FLt | CmpOp::FLe | CmpOp::FGt | CmpOp::FGe
        ),
        OpKind::Convert(c) => matches!(c, ConvOp::Trunc | ConvOp::ZExt | ConvOp::SExt),
        _ => false,
    }
}

fn plan(k: &Kernel, l: LoopId) -> Option<Plan> {
    let parent = k.loops[l].parent?;
    let exit = k
        .ops_in(l)
        .into_iter()
        .find(|&o| matches!(k.op(o).kind, OpKind::LoopExit))?;
    let stop = k.operands(exit)[0];
    if k.op(stop).region != l || matches!(k.op(stop).kind, OpKind::Carried | OpKind::Const(_)) {
        return None;
    }
    // Depth-first from the stop, operands before users; carried values and values from
    // outside the loop end the walk.
    let mut slice = Vec::new();
    let mut state: BTreeMap<OpId, bool> = BTreeMap::new();
    let mut stack = vec![(stop, false)];
    while let Some((o, done)) = stack.pop() {
        if done {
            slice.push(o);
            continue;
        }
        if state.contains_key(&o) {
            continue;
        }
        state.insert(o, true);
        let op = k.op(o);
        if op.region != l {
            continue;
        }
        if op.kind == OpKind::Carried {
            // A counter stepped by a constant (`stepped_reads` checks how the slice reads it).
            let next = k.preds(o).into_iter().any(|(_, d)| {
                matches!(
                    d,
                    Dep::Data {
                        operand: 1,
                        distance: 1
                    }
                )
            });
            if !next || constant_step(k, o).is_none() {
                return None;
            }
            continue;
        }
        if !cheap(&op.kind) || op.ty.is_float() {
            return None;
        }
        stack.push((o, true));
        for (src, dep) in k.preds(o) {
            match dep {
                Dep::Data { distance: 0, .. } => stack.push((src, false)),
                Dep::Data { .. } => return None,
                Dep::Order { .. } => {}
            }
        }
        if stack.len() + slice.len() > 4 * MAX_SLICE {
            return None;
        }
    }
    if slice.len() > MAX_SLICE || !stepped_reads(k, l, &slice) {
        return None;
    }
    Some(Plan {
        exit,
        slice,
        parent,
    })
}

/// Whether the slice reads each carried value only as `x + c` (a constant `c`), which reads
/// ahead as `x + (c + s)`: then the copy ahead is as deep as the condition itself, and the
/// loop's II cannot grow (its exit must be decided within the II, from the same registers).
/// A condition that reads a counter directly, or a value carried with another step (a
/// flattened nest's row counters, a phase's work-item counter), would read its next value
/// and add that value's logic to the chain: it stays as it is.
fn stepped_reads(k: &Kernel, l: LoopId, slice: &[OpId]) -> bool {
    slice.iter().all(|&o| {
        let carried: Vec<usize> = k
            .operands(o)
            .iter()
            .enumerate()
            .filter(|(_, &x)| k.op(x).region == l && k.op(x).kind == OpKind::Carried)
            .map(|(i, _)| i)
            .collect();
        carried.is_empty() || ahead_constant(k, l, o).is_some()
    })
}

/// For `x + c` or `x - c` (`c + x` too) of a carried `x` of loop `l` stepped by the constant
/// `s`, and a constant `c`: `(x, c')`, the op the copy ahead makes, `x + (c + s)` or
/// `x - (c - s)` (the same kind, the constant `c'` where `c` was).
fn ahead_constant(k: &Kernel, l: LoopId, o: OpId) -> Option<(OpId, u64)> {
    let sub = match k.op(o).kind {
        OpKind::Binary(BinOp::Add) => false,
        OpKind::Binary(BinOp::Sub) => true,
        _ => return None,
    };
    let [a, b] = k.operands(o)[..] else {
        return None;
    };
    let is_counter = |x: OpId| k.op(x).region == l && k.op(x).kind == OpKind::Carried;
    let (x, c) = if is_counter(a) || sub { (a, b) } else { (b, a) };
    if !is_counter(x) {
        return None;
    }
    let (step, c) = (constant_step(k, x)?, k.int_const(c)?);
    let mask = k.op(o).ty.mask();
    Some(if sub {
        (x, c.wrapping_sub(step) & mask)
    } else {
        (x, c.wrapping_add(step) & mask)
    })
}

/// The next value of carried `x` (its operand 1, one iteration later).
fn next_of(k: &Kernel, x: OpId) -> OpId {
    k.operands(x)[1]
}

/// `Some(s)` when carried `x` steps by the constant `s`: its next value is `x + s` (or
/// `x - t`, `s = -t` in its width).
fn constant_step(k: &Kernel, x: OpId) -> Option<u64> {
    let next = next_of(k, x);
    let mask = k.op(next).ty.mask();
    match (&k.op(next).kind, &k.operands(next)[..]) {
        (OpKind::Binary(BinOp::Add), &[a, s]) if a == x => k.int_const(s),
        (OpKind::Binary(BinOp::Add), &[s, a]) if a == x => k.int_const(s),
        (OpKind::Binary(BinOp::Sub), &[a, t]) if a == x => {
            k.int_const(t).map(|t| t.wrapping_neg() & mask)
        }
        _ => None,
    }
}

/// Which copy of the condition is being built.
#[derive(Clone, Copy, PartialEq)]
enum Copy {
    /// For the first iteration, in the parent: carried values read their initial values.
    First,
    /// For the next iteration, in the loop: carried values read their next values.
    Ahead,
}

fn rewrite(k: &mut Kernel, l: LoopId, p: &Plan) {
    let first = copy_slice(k, l, p, Copy::First);
    let ahead = copy_slice(k, l, p, Copy::Ahead);
    let stop = k.operands(p.exit)[0];
    let span = k.op(stop).span;
    let last = k.add_op(
        Op {
            kind: OpKind::Carried,
            ty: crate::types::Ty::BOOL,
            region: l,
            span,
            name: Some("stop_ahead".into()),
        },
        &[first],
    );
    k.add_dep(
        ahead,
        last,
        Dep::Data {
            operand: 1,
            distance: 1,
        },
    );
    k.set_operand(p.exit, 0, last);
}

/// Copies the condition's ops for `which` iteration; returns the copy of the stop.
fn copy_slice(k: &mut Kernel, l: LoopId, p: &Plan, which: Copy) -> OpId {
    let region = match which {
        Copy::First => p.parent,
        Copy::Ahead => l,
    };
    let mut map: BTreeMap<OpId, OpId> = BTreeMap::new();
    for &o in &p.slice {
        let op = k.op(o).clone();
        let operands = k.operands(o);
        // `x + c` of a counter `x` stepped by `s` reads ahead as `x + (c + s)`.
        if which == Copy::Ahead {
            if let Some((x, sum)) = ahead_constant(k, l, o) {
                let sum = Op {
                    kind: OpKind::Const(sum),
                    ty: op.ty,
                    region,
                    span: op.span,
                    name: None,
                };
                let sum = k.add_op(sum, &[]);
                let new = k.add_op(Op { region, ..op }, &[x, sum]);
                map.insert(o, new);
                continue;
            }
        }
        let srcs: Vec<OpId> = operands
            .iter()
            .map(|&s| {
                if let Some(&m) = map.get(&s) {
                    return m;
                }
                let src = k.op(s);
                if src.region != l {
                    return s;
                }
                // In the slice every operand from the loop is a copied op or a carried value.
                debug_assert_eq!(src.kind, OpKind::Carried, "{s} is not in the slice");
                match which {
                    Copy::First => k.operands(s)[0],
                    Copy::Ahead => next_of(k, s),
                }
            })
            .collect();
        let new = k.add_op(
            Op {
                region,
                name: None,
                ..op
            },
            &srcs,
        );
        map.insert(o, folded(k, new));
    }
    map[p.slice.last().expect("the stop is in its slice")]
}

/// `o`, or what `const-fold` makes of it: the first iteration's copy of a counted loop's test
/// (`0 + 1 < 10`) is a constant, not logic in front of the loop's start. (`o` is left
/// unused then, for the `dce` after this pass.)
fn folded(k: &mut Kernel, o: OpId) -> OpId {
    match super::const_fold::fold(k, o) {
        Some(Ok(v)) => {
            let op = k.op(o).clone();
            let c = Op {
                kind: OpKind::Const(v & op.ty.mask()),
                ..op
            };
            k.add_op(c, &[])
        }
        Some(Err(x)) => x,
        None => o,
    }
}
