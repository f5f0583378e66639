//! Integer division and remainder in the schedule: the two dividers' timing (their structure
//! is `hwcontract::div`'s), which one each division gets, and a quotient and a remainder of
//! the same operands taken from one unit.
//!
//! - **Timing.** A divider step (one quotient bit) is a subtraction and the select its borrow
//!   drives across the remainder, so a stage or cycle holds as many steps as fit in the clock
//!   period ([`steps`], from the step delays measured in the dividers themselves). The
//!   pipelined divider takes a new operation every cycle, with latency `ceil(W / steps)` (+ 2
//!   when signed); the iterative one does `steps` bits a cycle with one unit and is busy
//!   `1 + ceil(W / steps)` cycles per operation (the scheduler's blocking time).
//! - **Choice** (`kernel::schedule_region`): every division is first scheduled pipelined;
//!   where the loop's II then leaves an iterative unit its busy cycles, the loop is scheduled
//!   again with those divisions iterative (each its own unit: a resource of one unit with that
//!   blocking time), and the second schedule is kept if its II is no larger. So a loop whose
//!   recurrence or serial pipeline already spaces its iterations gets the small unit, and a
//!   loop at II = 1 the pipelined one.
//! - **Sharing.** A quotient and a remainder of the same operands and signedness in one region
//!   start in the same cycle (two edges tie them), and the RTL computes both with one unit;
//!   only the first holds the unit's resource.

use crate::kernel::LoopSchedule;
use crate::oplib::{measured, OpLibrary, OpTiming, ADD_SUB_NS, REG_TO_REG_NS, SELECT_NS};
use hls_ir::{BinOp, Kernel, OpId, OpKind};
use hwcontract::div;
use std::collections::{BTreeMap, BTreeSet};

/// The division an op is, if it is one: `(signed, remainder)`.
pub fn division(k: &Kernel, o: OpId) -> Option<(bool, bool)> {
    match k.op(o).kind {
        OpKind::Binary(BinOp::DivU) => Some((false, false)),
        OpKind::Binary(BinOp::DivS) => Some((true, false)),
        OpKind::Binary(BinOp::RemU) => Some((false, true)),
        OpKind::Binary(BinOp::RemS) => Some((true, true)),
        _ => None,
    }
}

/// One step of the pipelined divider at 8/16/32/64 bits (ns): the register-to-register path
/// of a stage minus the register overhead, divided by its steps (`idiv_pipe_N` in
/// docs/benchmarks.md: 3, 2, 2 and 1 steps a stage). About 1.3 times an add and a select: the
/// borrow fans out to a select per remainder bit. Early steps are narrower (the remainder
/// grows a bit a step), so the 8-bit unit's are the shortest.
const PIPELINED_STEP_NS: [f64; 4] = [2.74, 3.53, 4.33, 6.87];
/// One step of the iterative divider (`idiv_iter_N`: 2, 2, 2 and 1 steps a cycle): full width,
/// after the select between a new operation and the running one.
const ITERATIVE_STEP_NS: [f64; 4] = [3.17, 3.55, 4.21, 6.31];

/// Quotient bits per stage of the pipelined divider (per cycle of the iterative one) for
/// `bits`-bit operands: the steps that fit in the clock period less the register overhead, at
/// least one. The stages are the unit's own (registered inputs and outputs, short routes),
/// like the float units' stages, so the routing margin of chained operators does not apply.
pub fn steps(lib: &OpLibrary, bits: u32, iterative: bool) -> u32 {
    let w = div::unit_width(bits);
    let table = if iterative {
        &ITERATIVE_STEP_NS
    } else {
        &PIPELINED_STEP_NS
    };
    let budget = 1000.0 / lib.clock_mhz - REG_TO_REG_NS;
    ((budget / measured(table, w)).floor() as u32).clamp(1, w)
}

/// Logic before the first register: the operands' magnitudes (a negation and a select) for a
/// signed unit, else `unsigned_ns`.
fn input_ns(bits: u32, signed: bool, unsigned_ns: f64) -> f64 {
    if signed {
        measured(&ADD_SUB_NS, bits) + measured(&SELECT_NS, bits)
    } else {
        unsigned_ns
    }
}

/// The pipelined divider of division `o` (`oclhls_int_div`).
pub fn pipelined_timing(lib: &OpLibrary, k: &Kernel, o: OpId) -> OpTiming {
    let (signed, _) = division(k, o).expect("a division");
    let w = div::unit_width(k.op(o).ty.bits());
    let s = steps(lib, w, false);
    let stages = w.div_ceil(s);
    // Unsigned: the first stage's steps read the operands.
    let first_ns = f64::from(s) * measured(&PIPELINED_STEP_NS, w);
    OpTiming::new(
        div::pipelined_latency(signed, stages),
        input_ns(w, signed, first_ns),
    )
}

/// The iterative divider of division `o` (`oclhls_int_div_iter`) and its busy cycles per
/// operation.
pub fn iterative_timing(lib: &OpLibrary, k: &Kernel, o: OpId) -> (OpTiming, u32) {
    let (signed, _) = division(k, o).expect("a division");
    let w = div::unit_width(k.op(o).ty.bits());
    let s = steps(lib, w, true);
    // Unsigned: `start` selects the operands into the unit's registers.
    let t = OpTiming::new(
        div::iterative_latency(w, signed, s),
        input_ns(w, signed, measured(&SELECT_NS, w)),
    );
    (t, div::iterative_busy(w, s))
}

/// Divisions among `ops` that another one computes too: each remainder whose quotient (same
/// operands, signedness, width and region) is among them, mapped to that quotient.
pub fn partners(k: &Kernel, ops: &[OpId]) -> BTreeMap<OpId, OpId> {
    let key = |o: OpId| {
        division(k, o).map(|(signed, rem)| {
            (
                k.operands(o),
                signed,
                k.op(o).ty.bits(),
                k.op(o).region,
                rem,
            )
        })
    };
    let mut quotients = BTreeMap::new();
    for &o in ops {
        if let Some((args, signed, ty, region, false)) = key(o) {
            quotients.entry((args, signed, ty, region)).or_insert(o);
        }
    }
    ops.iter()
        .filter_map(|&o| match key(o) {
            Some((args, signed, ty, region, true)) => {
                quotients.get(&(args, signed, ty, region)).map(|&q| (o, q))
            }
            _ => None,
        })
        .collect()
}

/// The divisions of loop schedule `s` (made with pipelined dividers) that iterative dividers
/// could serve without raising its II: those whose unit is busy for at most II cycles per
/// operation (a remainder goes with its quotient).
pub fn iterative_candidates(k: &Kernel, lib: &OpLibrary, s: &LoopSchedule) -> BTreeSet<OpId> {
    let ops: Vec<OpId> = s
        .start
        .keys()
        .copied()
        .filter(|&o| division(k, o).is_some())
        .collect();
    let partners = partners(k, &ops);
    ops.iter()
        .copied()
        .filter(|o| {
            let unit = partners.get(o).copied().unwrap_or(*o);
            iterative_timing(lib, k, unit).1 <= s.ii
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::schedule_kernel;
    use hls_ir::LoopId;

    fn scheduled(src: &str) -> (Kernel, crate::kernel::KernelSchedule) {
        let mut sm = frontend::span::SourceMap::new();
        let f = sm.add_file("k.cl", src);
        let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
            .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
        let (id, _) = p.kernels().next().unwrap();
        let mut k = hls_ir::lower::lower_kernel(&p, id).unwrap();
        hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
        let s = schedule_kernel(&k, &OpLibrary::default(), &crate::Options::default()).unwrap();
        (k, s)
    }

    fn divisions(k: &Kernel, region: LoopId) -> Vec<OpId> {
        k.ops_in(region)
            .into_iter()
            .filter(|&o| division(k, o).is_some())
            .collect()
    }

    #[test]
    fn work_items_at_ii_1_get_pipelined_dividers_sharing_quotient_and_remainder() {
        let (k, s) = scheduled(
            "kernel void k(global const int *restrict a, global const int *restrict b,
                global int *restrict q, global int *restrict r) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
}",
        );
        let l = s.for_loop(LoopId::from_index(0)).unwrap();
        assert_eq!(l.ii, 1);
        assert!(l.iterative.is_empty());
        let d = divisions(&k, LoopId::from_index(0));
        assert_eq!(d.len(), 2);
        // 32-bit signed: 16 stages of 2 bits, the magnitudes and the signs: 18 cycles; the
        // remainder starts with its quotient.
        assert_eq!(l.latency[&d[0]], 18);
        assert_eq!(l.start[&d[0]], l.start[&d[1]]);
        assert_eq!(partners(&k, &d).len(), 1);
    }

    #[test]
    fn a_division_on_a_recurrence_gets_an_iterative_divider() {
        let (k, s) = scheduled(
            "kernel void k(global const int *c, global int *out, int d, int n) {
  size_t i = get_global_id(0);
  int acc = c[i];
  for (int j = 0; j < n; j++) acc = acc / d + c[i + j];
  out[i] = acc;
}",
        );
        let lp = LoopId::from_index(1);
        let l = s.for_loop(lp).unwrap();
        let d = divisions(&k, lp);
        assert_eq!(d.len(), 1);
        assert!(l.iterative.contains(&d[0]), "{:?}", l.iterative);
        // 17 busy cycles per division fit in the recurrence's II (its latency 18 and the add).
        assert_eq!(l.latency[&d[0]], 18);
        assert_eq!(l.ii, 19);
    }

    #[test]
    fn steps_fit_the_clock() {
        let lib = OpLibrary::default();
        // 100 MHz: 8.95 ns between registers. Pipelined: 3 steps at 8 bits (2.74 ns each), 2 at
        // 16 (3.53) and 32 (4.33), 1 at 64 (6.87); iterative 2, 2, 2, 1. `op_char` measures
        // the dividers with these (docs/benchmarks.md).
        let p: Vec<u32> = [8, 16, 32, 64].map(|w| steps(&lib, w, false)).into();
        let i: Vec<u32> = [8, 16, 32, 64].map(|w| steps(&lib, w, true)).into();
        assert_eq!(p, [3, 2, 2, 1]);
        assert_eq!(i, [2, 2, 2, 1]);
        assert_eq!(steps(&lib, 1, false), 2);
        assert_eq!(steps(&OpLibrary::with_clock(200.0), 32, false), 1);
    }
}
