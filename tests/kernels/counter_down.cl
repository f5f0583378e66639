/*!
[config]
name: an atomic counter counting down, one or two decrements per work-item

[test]
name: 64 work-items take 57 values from 500 down
kernel_name: take
dimensions: 1
global_size: 64 1 1
local_size: 16 1 1
arg_in:  0 buffer uint[64] 2 1 3 0 0 0 2 0 1 0 0 3 3 0 1 0 \
    3 0 0 1 0 3 0 1 0 1 2 3 1 0 2 1 \
    0 1 2 0 0 0 1 3 3 2 3 3 2 2 1 1 \
    1 0 2 3 2 3 2 0 0 3 1 2 1 3 3 0
arg_in:  1 buffer uint[128] repeat 0
arg_out: 1 buffer uint[128] 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 2 buffer uint[64] 2 2 1 2 2 2 2 2 2 2 2 1 1 2 2 2 \
    1 2 2 2 2 1 2 2 2 2 2 1 2 2 2 2 \
    2 2 2 2 2 2 2 1 1 2 1 1 2 2 2 2 \
    2 2 2 1 2 1 2 2 2 1 2 2 2 1 1 2
arg_in:  3 buffer uint[1] 500
arg_out: 3 buffer uint[1] 443
arg_in:  4 uint 500
!*/

// Work-item i takes one value of counter `left` when bit 0 of want[i] is set and another when
// bit 1 is: old values 500, 499, ... in some order, each taken once, so `taken[start - old]`
// marks the first `takes` entries (Python: 57 decrements for these inputs) and the
// counter ends at 500 - 57. A work-item's own updates are ordered: its second old value
// is below its first (ordered[i] = 1 for the work-items that take two, 2 for the others).
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable

kernel void take(global const uint *restrict want, global uint *restrict taken,
                 global uint *restrict ordered, counter32_t left, uint start) {
  size_t i = get_global_id(0);
  uint w = want[i];
  uint first = 0, second = 0;
  if (w & 1) {
    first = atomic_dec(left);
    taken[start - first] = 1;
  }
  if (w & 2) {
    second = atomic_dec(left);
    taken[start - second] = 1;
  }
  ordered[i] = (w == 3) ? (second < first ? 1 : 0) : 2;
}

// corpus-sim: --stall-prob 0.4 --max-latency 12 --seed 31
