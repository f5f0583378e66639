//! The `residue` analysis: low bits of indices known in every execution.

mod common;

use hls_ir::analysis::residue::Residues;
use hls_ir::{Kernel, OpKind};

fn lowered(src: &str) -> Kernel {
    let mut k = common::lower(src);
    // The addresses as folded constants and shifts.
    hls_ir::passes::const_fold::run(&mut k);
    hls_ir::passes::dce::run(&mut k);
    k
}

/// Known low bits of the element index of every store to memory `name`, in id order.
fn store_residues(k: &Kernel, name: &str) -> Vec<(u32, u64)> {
    let r = Residues::compute(k);
    k.op_ids()
        .into_iter()
        .filter_map(|o| match k.op(o).kind {
            OpKind::Store { mem, .. } if k.mem(mem).name == name => Some((o, mem)),
            _ => None,
        })
        .map(|(o, mem)| {
            let a = k.operands(o);
            let (n, v) = r.given(k, a[0], a[2]).low();
            let sh = k.mem(mem).elem_bytes.trailing_zeros();
            (n.saturating_sub(sh).min(8), (v >> sh) & 0xff)
        })
        .collect()
}

#[test]
fn counters_keep_the_bits_their_step_keeps() {
    // j from 0 by 4: 0 mod 4 (bit 2 and up unknown); j + 3: 3 mod 4; j from 0 by 1: nothing.
    let k = lowered(
        "kernel void k(global int *restrict o, int n) { local int t[64]; local int u[64];
  for (int j = 0; j < n; j += 4) { t[j] = 1; t[j + 3] = 2; }
  for (int j = 0; j < n; j++) u[j] = 3;
  o[0] = t[5] + u[1]; }",
    );
    assert_eq!(store_residues(&k, "t"), [(2, 0), (2, 3)]);
    assert_eq!(store_residues(&k, "u"), [(0, 0)]);
}

#[test]
fn constants_scales_and_masks() {
    // 8 * x has three known zero bits; (x & ~7) | 5 has its low three bits known; a constant
    // index is known entirely.
    let k = lowered(
        "kernel void k(global const int *restrict a, global int *restrict o) { local int t[64];
  int x = a[0];
  t[8 * x] = 1; t[(x & ~7) | 5] = 2; t[6] = 3;
  o[0] = t[a[1]]; }",
    );
    assert_eq!(store_residues(&k, "t"), [(3, 0), (3, 5), (8, 6)]);
}

#[test]
fn a_loop_that_ends_early_masks_the_copies_after_the_end() {
    // `#pragma unroll 2` with a run-time trip count: the second copy runs only when the first
    // did not end the loop, and the next iteration only when neither did, so j is even at the
    // start of every iteration and j + 1 odd where the second copy stores.
    let k = lowered(
        "kernel void k(global int *restrict o, int n) { local int t[64];
  #pragma unroll 2
  for (int j = 0; j < n; j++) t[j] = j;
  o[0] = t[3]; }",
    );
    assert_eq!(store_residues(&k, "t"), [(1, 0), (1, 1)]);
}

#[test]
fn a_counter_that_may_step_by_different_amounts_is_unknown() {
    // j steps by 1 or by 2: nothing is known of its low bit.
    let k = lowered(
        "kernel void k(global const int *restrict a, global int *restrict o, int n) { local int t[64];
  for (int j = 0; j < n; j += (a[j] & 1) + 1) t[2 * j] = j;
  o[0] = t[3]; }",
    );
    assert_eq!(store_residues(&k, "t"), [(1, 0)]);
}
