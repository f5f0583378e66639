/*!
[config]
kernel_name: unroll4
dimensions: 1

[test]
name: 10 increments, two of them in a masked copy
global_size: 1 1 1
arg_in:  0 buffer uint[1] 10
arg_out: 1 buffer uint[1] 3196
arg_in:  2 buffer uint[1] 5
arg_out: 2 buffer uint[1] 15

[test]
name: 4 increments, one pipelined iteration
global_size: 1 1 1
arg_in:  0 buffer uint[1] 4
arg_out: 1 buffer uint[1] 5339
arg_in:  2 buffer uint[1] 1000
arg_out: 2 buffer uint[1] 1004

[test]
name: no increments
global_size: 1 1 1
arg_in:  0 buffer uint[1] 0
arg_out: 1 buffer uint[1] 0
arg_in:  2 buffer uint[1] 42
arg_out: 2 buffer uint[1] 42

[test]
name: 13 increments
global_size: 1 1 1
arg_in:  0 buffer uint[1] 13
arg_out: 1 buffer uint[1] 482325
arg_in:  2 buffer uint[1] 77
arg_out: 2 buffer uint[1] 90

[test]
name: 5 work-items, 37 increments
global_size: 5 1 1
local_size: 5 1 1
arg_in:  0 buffer uint[5] 9 0 13 7 8
arg_in:  1 buffer uint[5] repeat 0
arg_in:  2 buffer uint[1] 3
arg_out: 2 buffer uint[1] 40

[test]
name: four increments a cycle, 6 iterations
kernel_name: quad
global_size: 1 1 1
arg_in:  0 buffer uint[1] 6
arg_out: 1 buffer uint[1] 130529496
arg_in:  2 buffer uint[1] 11
arg_out: 2 buffer uint[1] 35

[test]
name: four increments a cycle, 25 iterations
kernel_name: quad
global_size: 1 1 1
arg_in:  0 buffer uint[1] 25
arg_out: 1 buffer uint[1] 1887057900
arg_in:  2 buffer uint[1] 123456
arg_out: 2 buffer uint[1] 123556

[test]
name: four increments a cycle, several work-items
kernel_name: quad
global_size: 6 1 1
local_size: 3 1 1
arg_in:  0 buffer uint[6] 1 0 5 2 9 3
arg_in:  1 buffer uint[6] repeat 0
arg_in:  2 buffer uint[1] 0
arg_out: 2 buffer uint[1] 80
!*/

// `#pragma unroll 4` on a loop with a run-time trip count: four counter increments per
// pipelined iteration, the copies past the end masked. One work-item's increments are ordered,
// so with one work-item the old values are start, start + 1, ... in program order: the
// order-sensitive hash h = rotl(h, 1) ^ old over them is computed with Python (start 5, n 10:
// 3196; 1000, 4: 5339; 77, 13: 482325). With several work-items only the counter's final value
// is defined (3 + 37 = 40). The loop's II is limited by its exit condition (each copy tests the
// counter the copy before it stepped), not by the counter.
//
// `quad` increments four times in every iteration of its pipelined loop (an inner loop of four,
// fully unrolled): the loop runs at II 1 (the `counter_unroll_at_ii_1` trial checks the
// report), the four updates share a cycle and take consecutive values, four a cycle. Hashes
// (Python): start 11, 6 iterations: 130529496; 123456, 25: 1887057900; and 4 x 20 = 80
// increments from 0 with six work-items.
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable

kernel void unroll4(global const uint *restrict len, global uint *restrict hash, counter32_t c) {
  size_t i = get_global_id(0);
  uint n = len[i];
  uint h = 0;
#pragma unroll 4
  for (uint j = 0; j < n; j++) {
    uint old = atomic_inc(c);
    h = ((h << 1) | (h >> 31)) ^ old;
  }
  hash[i] = h;
}

kernel void quad(global const uint *restrict len, global uint *restrict hash, counter32_t c) {
  size_t i = get_global_id(0);
  uint n = len[i];
  uint h = 0;
  for (uint j = 0; j < n; j++) {
#pragma unroll
    for (uint k = 0; k < 4; k++) {
      uint old = atomic_inc(c);
      h = ((h << 1) | (h >> 31)) ^ old;
    }
  }
  hash[i] = h;
}

// corpus-sim: --stall-prob 0.5 --max-latency 10 --seed 41
