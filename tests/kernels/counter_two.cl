/*!
[config]
kernel_name: split
dimensions: 1

[test]
name: positives count up, negatives count down
global_size: 96 1 1
local_size: 32 1 1
arg_in:  0 buffer int[96] 3 3 -3 -4 -2 -2 -5 -7 -1 3 7 8 -7 6 -3 4 \
    9 -3 2 3 -3 -5 5 -4 9 1 -7 7 -7 6 1 3 \
    -8 -1 8 -9 4 -3 2 8 -7 5 7 -3 5 -8 2 -5 \
    -3 -4 5 -4 7 -4 -8 -6 -9 -4 6 4 -7 4 -7 -5 \
    0 -9 3 1 -5 7 3 -3 -8 -3 5 -1 8 3 -5 2 \
    6 -8 -5 -5 4 -6 -6 -6 -5 0 -4 -4 4 -5 -3 8
arg_in:  1 buffer uint[96] repeat 0
arg_out: 1 buffer uint[96] 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_in:  2 buffer uint[96] repeat 0
arg_out: 2 buffer uint[96] 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_in:  3 buffer uint[1] 0
arg_out: 3 buffer uint[1] 42
arg_in:  4 buffer ulong[1] 0x7fffffff00000010
arg_out: 4 buffer ulong[1] 0x7ffffffeffffffdc
arg_in:  5 ulong 0x7fffffff00000010
!*/

// Two counters in one kernel, two registers: a 32-bit one counting the positive inputs up
// from 0 and a 64-bit one counting the negative ones down from 0x7fffffff00000010 (Python:
// 42 positive, 52 negative, 2 zero among the 96 inputs). Each work-item marks the position of
// its old value, so every position below the count is marked exactly once.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
#pragma OPENCL EXTENSION cl_ext_atomic_counters_64 : enable

kernel void split(global const int *restrict in, global uint *restrict pos_seen,
                  global uint *restrict neg_seen, counter32_t pos, counter64_t neg,
                  ulong neg_start) {
  int v = in[get_global_id(0)];
  if (v > 0) {
    uint s = atomic_inc(pos);
    pos_seen[s] = 1;
  } else if (v < 0) {
    ulong t = atomic_dec(neg);
    neg_seen[(uint)(neg_start - t)] = 1;
  }
}

// corpus-sim: --stall-prob 0.6 --max-latency 24 --seed 43
