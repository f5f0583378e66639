//! Async copies: which run beside the code after them (`LoopKind::Copy { detached }`).

mod common;

use hls_ir::LoopKind;

/// The `detached` flag of each copy loop of the kernel in `src`, in loop order.
fn detached(src: &str) -> Vec<bool> {
    let k = common::lower(src);
    k.loops
        .iter()
        .filter_map(|l| match l.kind {
            LoopKind::Copy { detached } => Some(detached),
            _ => None,
        })
        .collect()
}

#[test]
fn double_buffering_overlaps_copies_with_computation() {
    let src = "kernel void k(global const int *in, global int *out, uint tiles) {
  local int a[4];
  local int b[4];
  int l = get_local_id(0);
  int acc = 0;
  event_t ea = async_work_group_copy(a, in, 4, 0);
  for (uint k = 0; k < tiles; k += 2) {
    event_t eb = async_work_group_copy(b, in + (k + 1) * 4, 4, 0);
    wait_group_events(1, &ea);
    acc += a[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    ea = async_work_group_copy(a, in + (k + 2) * 4, 4, 0);
    wait_group_events(1, &eb);
    acc += b[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  wait_group_events(1, &ea);
  out[get_global_id(0)] = acc;
}";
    // The first copy is waited for inside the loop, not in its own code: it finishes before
    // the loop starts. The copy of `b` runs beside the computation on `a`, and the copy of
    // `a` beside the computation on `b` (waited for at the next iteration's start).
    assert_eq!(detached(src), [false, true, true]);
}

#[test]
fn a_copy_whose_memory_is_used_before_the_wait_finishes_first() {
    // The phase between the copy and its wait reads `t`: they must not run at once.
    let src = "kernel void k(global const int *in, global int *out) {
  local int t[4];
  event_t e = async_work_group_copy(t, in, 4, 0);
  out[get_global_id(0)] = t[get_local_id(0)];
  wait_group_events(1, &e);
}";
    assert_eq!(detached(src), [false]);
    // Waited for right away, or never: nothing to overlap.
    let src = "kernel void k(global const int *in, global int *out) {
  local int t[4];
  local int u[4];
  event_t e = async_work_group_copy(t, in, 4, 0);
  wait_group_events(1, &e);
  event_t f = async_work_group_copy(u, in + 4, 4, 0);
  out[get_global_id(0)] = t[get_local_id(0)];
}";
    assert_eq!(detached(src), [true, false]);
}
