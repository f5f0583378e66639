/*!
[config]
name: OpenCL C 2.0 atomics in hardware
require_device_extensions: cl_khr_int64_base_atomics cl_khr_int64_extended_atomics

[test]
name: histograms with atomic_fetch_add, global and local
kernel_name: hist
dimensions: 1
global_size: 256 1 1
local_size: 64 1 1
arg_in:  0 buffer uint[256] random 91
arg_in:  1 buffer uint[32] repeat 0
arg_out: 1 buffer uint[32] 8 14 5 7 3 10 12 10 5 10 7 7 11 8 9 8 \
    4 10 11 10 6 6 8 4 6 15 5 10 10 6 4 7
arg_in:  2 buffer uint[64] repeat 0
arg_out: 2 buffer uint[64] 4 3 9 6 4 3 5 2 5 3 4 3 2 2 5 6 \
    5 5 5 6 4 5 3 3 4 2 4 4 6 2 2 6 \
    3 3 3 6 2 5 6 3 5 5 2 1 5 6 8 3 \
    5 2 3 6 4 6 5 2 3 1 3 2 5 1 6 4

[test]
name: sum by atomic_compare_exchange_strong retry loops
kernel_name: cas_sum
dimensions: 1
global_size: 256 1 1
local_size: 32 1 1
arg_in:  0 buffer uint[256] random 91
arg_in:  1 buffer uint[1] 5
arg_out: 1 buffer uint[1] 504115

[test]
name: lock-free stack push with compare_exchange_strong, then a walk
launch: push 128 32
launch: walk 1 1 after push
buffer: cells int[129] repeat -1
buffer: reached uint[1] 0
arg: push 0 cells
arg: walk 0 cells
arg: walk 1 reached
expect: cells uint[129] unordered 4294967295 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 \
    15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 \
    31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 \
    47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 \
    63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 \
    79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 \
    95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 \
    111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 \
    127
expect: reached uint[1] 128

[test]
name: distinct values counted with atomic_flag_test_and_set
kernel_name: distinct
dimensions: 1
global_size: 256 1 1
local_size: 64 1 1
arg_in:  0 buffer uint[256] random 91
arg_in:  1 buffer uint[128] repeat 0
arg_out: 1 buffer uint[128] 1 1 1 1 1 1 1 1 0 1 0 1 1 1 1 1 0 1 1 1 1 1 1 0 1 1 1 1 1 1 0 1 \
    1 1 1 1 0 1 1 1 1 1 0 1 1 1 1 1 1 1 1 1 0 1 0 1 1 1 1 0 1 1 0 1 \
    1 1 1 1 1 1 1 1 1 1 1 0 1 0 1 1 1 1 1 1 1 0 1 1 1 1 1 1 1 1 1 1 \
    1 1 1 1 0 1 1 1 0 1 1 1 1 1 1 1 1 1 1 1 1 1 0 1 1 1 1 1 0 1 1 1
arg_in:  2 buffer uint[1] 0
arg_out: 2 buffer uint[1] 110

[test]
name: fetch min, max, or, xor, and, sub and 64-bit add
kernel_name: reduce
dimensions: 1
global_size: 256 1 1
local_size: 64 1 1
arg_in:  0 buffer uint[256] random 91
arg_in:  1 buffer int[2] 0 0
arg_out: 1 buffer int[2] -2142181226 2144188935
arg_in:  2 buffer uint[4] 0 0 0xffffffff 1000000
arg_out: 2 buffer uint[4] 61680 3702005920 1 966930
arg_in:  3 buffer ulong[1] 0xfffffff0
arg_out: 3 buffer ulong[1] 2791239972310

[test]
name: one work-item, store, load, exchange, compare-exchange, fetch ops in order
kernel_name: seq
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[1] 7
arg_out: 1 buffer uint[10] 42 42 1 99 0 100 100 84 84 3

[test]
name: atomic_exchange on atomic_float, the old values kept
launch: fswap 64 16
buffer: v float[64] random 92
buffer: cells float[65] repeat -0.0
arg: fswap 0 v
arg: fswap 1 cells
expect: cells uint[65] unordered 1115903870 1116950545 1117981642 1118687382 1126442337 1127055304 1130709990 1131648241 1133262708 1133666067 1134180359 1134205150 1138598304 1143556743 1145487439 1145699954 \
    1146035005 1146364173 1146470120 1146589912 1147160224 1148002920 2147483648 3254891796 3257253805 3258367298 3259103669 3263214700 3263455959 3264243050 3265564464 3273544975 \
    3274883889 3276537305 3280367862 3282954251 3284948252 3285207126 3285525052 3287509989 3287625182 3287696184 3288104830 3288353197 3288571873 3289522477 3290014954 3290375259 \
    3290494826 3290591932 3291684114 3292208878 3292673109 3292843506 3292911665 3293178785 3293489193 3293621342 3293627463 3293906747 3294096006 3294238699 3295517715 3295731172 \
    3296152190

[test]
name: one work-item, flag test-and-set and clear
kernel_name: flag_seq
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[2] 0 1
arg_out: 0 buffer uint[2] 0 1
arg_out: 1 buffer uint[6] 0 1 1 0 1 1
!*/

// OpenCL C 2.0 atomics (atomic_int, atomic_uint, atomic_ulong, atomic_flag; the plain and
// `_explicit` forms) on global and local memory. Expected values are computed with Python
// (an independent SplitMix64 for the `random` data).
// - hist: atomic_fetch_add_explicit (relaxed, device scope) of bin x & 31 of a global
//   histogram, and of bin x >> 5 & 63 of a local one per work-group, added into global memory
//   with atomic_fetch_add after a barrier.
// - cas_sum: a compare_exchange_strong loop adds x & 0xfff; a failure writes the value it saw
//   into `expected`, which the retry uses.
// - push/walk: a stack whose head is cells[0]; node i links to cells[1 + i]; afterwards the
//   cells hold -1 and every node once, and the walk counts 128 nodes.
// - distinct: flag (x & 127) is tested and set; the work-items that found it clear count the
//   distinct values, and the flags end set exactly for the values that occur.
// - reduce: fetch_min/max on int (signed), fetch_or/xor/and/sub on uint, fetch_add on ulong
//   crossing 2^32.
// - fswap: 64 work-items exchange their float into cells[0] (which starts as -0.0) and store
//   the old value in cells[1 + i]: the cells end as the 64 inputs and -0.0, bit-exact.
// - flag_seq: flag 0 starts clear, flag 1 set: test-and-set gives 0 then 1; after a clear of
//   flag 0 it gives 0 again, flag 1 gives 1 twice; flag 0 is cleared again at the end.
// - seq: one work-item, so each result is defined: load after store, exchange, a strong
//   compare-exchange that succeeds (expected unchanged) and one that fails (expected becomes
//   the stored value), fetch_add, fetch_min.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void hist(global const uint *restrict v, global atomic_uint *gh,
                 global atomic_uint *out) {
  local atomic_uint lh[64];
  uint lid = get_local_id(0);
  if (lid < 64)
    atomic_store_explicit(&lh[lid], 0u, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint x = v[get_global_id(0)];
  atomic_fetch_add_explicit(&gh[x & 31], 1u, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit(&lh[(x >> 5) & 63], 1u, memory_order_relaxed);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 64)
    atomic_fetch_add(&out[lid], atomic_load_explicit(&lh[lid], memory_order_relaxed));
}

kernel void cas_sum(global const uint *restrict v, global atomic_uint *sum) {
  uint x = v[get_global_id(0)] & 0xfff;
  uint expected = 0;
  while (!atomic_compare_exchange_strong(sum, &expected, expected + x))
    ;
}

kernel void push(global atomic_int *cells) {
  int i = get_global_id(0);
  int head = -1;
  do {
    atomic_store_explicit(&cells[1 + i], head, memory_order_relaxed);
  } while (!atomic_compare_exchange_strong_explicit(&cells[0], &head, i, memory_order_release,
                                                    memory_order_relaxed));
}

kernel void walk(global atomic_int *cells, global uint *reached) {
  uint n = 0;
  for (int p = atomic_load(&cells[0]); p != -1 && n < 1000; p = atomic_load(&cells[1 + p]))
    n++;
  reached[0] = n;
}

kernel void distinct(global const uint *restrict v, global atomic_flag *flags,
                     global atomic_uint *count) {
  uint x = v[get_global_id(0)] & 127;
  if (!atomic_flag_test_and_set(&flags[x]))
    atomic_fetch_add(count, 1u);
}

kernel void reduce(global const uint *restrict v, global atomic_int *s, global atomic_uint *u,
                   global atomic_ulong *l) {
  uint x = v[get_global_id(0)];
  atomic_fetch_min(&s[0], (int)x);
  atomic_fetch_max(&s[1], (int)x);
  atomic_fetch_or(&u[0], x & 0xf0f0);
  atomic_fetch_xor(&u[1], x);
  atomic_fetch_and(&u[2], x | 1);
  atomic_fetch_sub_explicit(&u[3], x & 0xff, memory_order_relaxed);
  atomic_fetch_add(l, (ulong)x * 5);
}

kernel void seq(global atomic_uint *a, global uint *restrict out) {
  atomic_store(a, 42u);
  out[0] = atomic_load(a);
  out[1] = atomic_exchange(a, 99u);
  uint expected = 99;
  out[2] = atomic_compare_exchange_strong(a, &expected, 100u);
  out[3] = expected;
  expected = 5;
  out[4] = atomic_compare_exchange_strong(a, &expected, 0u);
  out[5] = expected;
  out[6] = atomic_fetch_add(a, 0xfffffff0u);
  out[7] = atomic_load(a);
  out[8] = atomic_fetch_min(a, 3u);
  out[9] = atomic_load(a);
}

kernel void fswap(global const float *restrict v, global atomic_float *cells) {
  size_t i = get_global_id(0);
  float old = atomic_exchange(&cells[0], v[i]);
  atomic_store_explicit(&cells[1 + i], old, memory_order_relaxed);
}

kernel void flag_seq(global atomic_flag *f, global uint *restrict out) {
  out[0] = atomic_flag_test_and_set(&f[0]);
  out[1] = atomic_flag_test_and_set(&f[0]);
  out[2] = atomic_flag_test_and_set_explicit(&f[1], memory_order_acq_rel);
  atomic_flag_clear(&f[0]);
  out[3] = atomic_flag_test_and_set(&f[0]);
  out[4] = atomic_flag_test_and_set(&f[0]);
  out[5] = atomic_flag_test_and_set(&f[1]);
  atomic_flag_clear_explicit(&f[0], memory_order_release);
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 69
