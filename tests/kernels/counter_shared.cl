/*!
[config]
name: atomic counters shared by kernels that run at the same time (one register in the system top)

[test]
name: a third kernel after the first, while the second may still run
launch: mark_a 100 10
launch: mark_b 50 10
launch: mark_c 64 16 after mark_a
buffer: seen uint[364] repeat 0
buffer: ctr uint[1] 7
arg: mark_a 0 seen
arg: mark_a 1 ctr
arg: mark_a 2 uint 7
arg: mark_b 0 seen
arg: mark_b 1 ctr
arg: mark_b 2 uint 7
arg: mark_c 0 seen
arg: mark_c 1 ctr
arg: mark_c 2 uint 7
expect: seen uint[364] repeat 1
expect: ctr uint[1] 371

[test]
name: 64-bit counter shared across the 2^32 carry
launch: up64 200 8
launch: down64 30 10
buffer: ctr ulong[1] 4294967200
arg: up64 0 ctr
arg: down64 0 ctr
expect: ctr ulong[1] 4294967370

[test]
name: kernels one after the other keep counters of their own
launch: mark_a 100 10
launch: mark_b 50 10 after mark_a
buffer: seen uint[300] repeat 0
buffer: ctr uint[1] 5
arg: mark_a 0 seen
arg: mark_a 1 ctr
arg: mark_a 2 uint 5
arg: mark_b 0 seen
arg: mark_b 1 ctr
arg: mark_b 2 uint 5
expect: seen uint[300] repeat 1
expect: ctr uint[1] 305
!*/

// Every work-item of `mark_a` and `mark_c` takes one value of counter `c`, every work-item of
// `mark_b` four (an unrolled loop: four updates in one cycle), and each marks
// `seen[old - base]`. The kernels run at the same time, so their updates land in the same
// cycles: the values are distinct and all of them are taken exactly when `seen` is all ones
// (a duplicate would leave a hole), and the counter ends at base + the number of updates:
// 100 + 4 * 50 = 300; with `mark_c` 300 + 64 = 364. The 64-bit test, one kernel counting up
// and one down: 4294967200 + 200 - 30 = 4294967370 (crosses 2^32 = 4294967296).
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
#pragma OPENCL EXTENSION cl_ext_atomic_counters_64 : enable

kernel void mark_a(global uint *seen, counter32_t c, uint base) {
  uint old = atomic_inc(c);
  seen[old - base] = 1;
}

kernel void mark_b(global uint *seen, counter32_t c, uint base) {
#pragma unroll
  for (int k = 0; k < 4; k++) {
    uint old = atomic_inc(c);
    seen[old - base] = 1;
  }
}

kernel void mark_c(global uint *seen, counter32_t c, uint base) {
  uint old = atomic_inc(c);
  seen[old - base] = 1;
}

kernel void up64(counter64_t c) { atomic_inc(c); }

kernel void down64(counter64_t c) { atomic_dec(c); }

// corpus-sim: --stall-prob 0.3 --max-latency 6 --seed 5
