/*!
[config]
kernel_name: nested
dimensions: 1

[test]
name: one counter in the work-item pipeline and in a loop
global_size: 24 1 1
local_size: 8 1 1
arg_in:  0 buffer uint[24] 4 2 5 2 6 5 6 5 5 4 0 6 3 6 1 5 0 1 0 2 3 6 1 3
arg_in:  1 buffer uint[200] repeat 0
arg_out: 1 buffer uint[200] 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
    0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_in:  2 buffer uint[1] 0
arg_out: 2 buffer uint[1] 105
arg_in:  3 buffer ulong[1] 5
arg_out: 3 buffer ulong[1] 29

[test]
name: a counter after a barrier
kernel_name: after_barrier
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] 1 -2 3 4 -5 6 -7 8
arg_in:  1 buffer uint[8] repeat 0
arg_out: 1 buffer uint[8] 1 1 1 1 1 0 0 0
arg_in:  2 buffer uint[1] 0
arg_out: 2 buffer uint[1] 5

[test]
name: two launches, one after the other, take from one counter
launch: after_barrier 8 4
launch: nested 3 3 after after_barrier
buffer: in int[8] 1 -2 3 4 -5 6 -7 8
buffer: len uint[3] 2 0 1
buffer: seen uint[16] repeat 0
buffer: ctr uint[1] 0
buffer: items ulong[1] 0
arg: after_barrier 0 in
arg: after_barrier 1 seen
arg: after_barrier 2 ctr
arg: nested 0 len
arg: nested 1 seen
arg: nested 2 ctr
arg: nested 3 items
expect: seen uint[16] 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0
expect: ctr uint[1] 11
expect: items ulong[1] 3
!*/

// Counter `c` is updated by the work-item pipeline (once per work-item, through a helper
// function) and by the pipeline of the loop inside (len[i] times per work-item), so both
// pipelines share one register; `items` is updated after the loop. Every value of `c` below
// its final count is taken exactly once (Python: 24 work-items + 81 loop iterations = 105),
// and `items` ends at 5 + 24.
//
// `after_barrier` updates its counter in the phase after a barrier: work-item l looks at its
// neighbour's input, and the positive ones (5 of 8: 1, 3, 4, 6, 8) take a value. The last test
// gives one buffer as the counter of two launches that run one after the other: the second
// starts from the 5 the first wrote back and takes 3 + 2 + 0 + 1 = 6 more (11).
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
#pragma OPENCL EXTENSION cl_ext_atomic_counters_64 : enable

uint take(counter32_t from, global uint *seen) {
  uint s = atomic_inc(from);
  seen[s] = 1;
  return s;
}

kernel void nested(global const uint *restrict len, global uint *restrict seen, counter32_t c,
                   counter64_t items) {
  size_t i = get_global_id(0);
  uint n = len[i];
  take(c, seen);
  for (uint j = 0; j < n; j++) {
    uint t = atomic_inc(c);
    seen[t] = 1;
  }
  atomic_inc(items);
}

__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void after_barrier(global const int *restrict in, global uint *restrict seen,
                          counter32_t c) {
  local int t[4];
  int l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t[(l + 1) & 3] > 0)
    seen[atomic_inc(c)] = 1;
}

// corpus-sim: --stall-prob 0.5 --max-latency 20 --seed 47
