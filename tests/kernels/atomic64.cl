/*!
[config]
name: 64-bit atomics, values beyond 2^32
require_device_extensions: cl_khr_int64_base_atomics cl_khr_int64_extended_atomics

[test]
name: sums of 400 work-items, ulong crossing 2^32 and long going negative
kernel_name: sum64
dimensions: 1
global_size: 400 1 1
local_size: 40 1 1
arg_in:  0 buffer uint[400] random 41
arg_in:  1 buffer ulong[1] 0xfffffff0
arg_out: 1 buffer ulong[1] 2749403198895
arg_in:  2 buffer long[1] -5
arg_out: 2 buffer long[1] -64216466288

[test]
name: 8 bins of 64-bit sums
kernel_name: bins64
dimensions: 1
global_size: 400 1 1
local_size: 40 1 1
arg_in:  0 buffer uint[400] random 41
arg_in:  1 buffer ulong[8] 1099511627776 1099511627775 1099511627774 1099511627773 1099511627772 1099511627771 1099511627770 1099511627769
arg_out: 1 buffer ulong[8] 103017542443859968 138586817385463807 125447949659406334 103348365020889085 144813193066184700 106774180724211707 142962994018516986 94542623465799673

[test]
name: local 64-bit sums per work-group, then global
kernel_name: group_sum64
dimensions: 1
global_size: 400 1 1
local_size: 40 1 1
arg_in:  0 buffer uint[400] random 41
arg_out: 1 buffer ulong[10] 6449516187621280 6369615470529135 5773707955052703 4988481956724242 5621915453831311 \
    6348085136011795 5949326839084569 6346711204318877 6113670916028149 6007688272582024
arg_in:  2 buffer ulong[1] 0xffffffffff
arg_out: 2 buffer ulong[1] 59969818903411860

[test]
name: one work-item, atom_add old values with carries into the high word
kernel_name: add_seq64
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer ulong[8] 0xfffffff0 0x10 0x1 0xffffffff 0xffffffff00000001 0x7fffffff 0x80000001 0x3
arg_in:  1 uint 8
arg_in:  2 buffer ulong[1] 0xfffffffe
arg_out: 2 buffer ulong[1] 12884901890
arg_out: 3 buffer ulong[8] 4294967294 8589934574 8589934590 8589934591 12884901886 8589934591 10737418238 12884901887

[test]
name: one work-item, inc, dec and sub across 2^32
kernel_name: inc_dec64
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer ulong[2] 0xfffffffe 0x100000002
arg_out: 0 buffer ulong[2] 4294967292 18446744073709551613
arg_out: 1 buffer ulong[10] 4294967294 4294967295 4294967296 4294967297 4294967298 4294967297 4294967296 4294967295 4294967294 4294967293
arg_out: 2 buffer ulong[4] 4294967298 4294967297 4294967295 4294967292

[test]
name: one work-item, long min and max compare all 64 bits, signed
kernel_name: minmax_seq64
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer long[8] 4294967296 4294967295 -1 -4294967296 9223372032559808512 -9223372036854775808 5 8589934591
arg_in:  1 buffer long[2] 0 0
arg_out: 1 buffer long[2] -9223372036854775808 9223372032559808512
arg_out: 2 buffer long[16] 0 0 0 4294967296 0 4294967296 -1 4294967296 \
    -4294967296 4294967296 -4294967296 9223372032559808512 -9223372036854775808 9223372032559808512 -9223372036854775808 9223372032559808512

[test]
name: one work-item, ulong min and max compare all 64 bits, unsigned
kernel_name: uminmax_seq64
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer ulong[8] 4294967296 4294967295 18446744073709551615 18446744069414584320 9223372032559808512 9223372036854775808 5 8589934591
arg_in:  1 buffer ulong[2] 0x8000000000000000 0x8000000000000000
arg_out: 1 buffer ulong[2] 5 18446744073709551615
arg_out: 2 buffer ulong[16] 9223372036854775808 9223372036854775808 4294967296 9223372036854775808 4294967295 9223372036854775808 4294967295 18446744073709551615 \
    4294967295 18446744073709551615 4294967295 18446744073709551615 4294967295 18446744073709551615 5 18446744073709551615
!*/

// 64-bit atom_* (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics) on global and
// local memory, with values whose sums carry from the low 32 bits into the high ones and
// whose order depends on the high word. Expected values are computed with Python (an
// independent SplitMix64 for the `random` data). The `seq` kernels run in one work-item, so
// each old value is defined.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void sum64(global const uint *restrict v, global ulong *acc, global long *lacc) {
  uint x = v[get_global_id(0)];
  atom_add(acc, (ulong)x * 3);
  atom_add(lacc, (long)(int)x);
}

kernel void bins64(global const uint *restrict v, global ulong *bins) {
  uint x = v[get_global_id(0)];
  atom_add(&bins[x & 7], (ulong)x << 20);
}

kernel void group_sum64(global const uint *restrict v, global ulong *restrict grp,
                        global ulong *all) {
  local ulong s[1];
  if (get_local_id(0) == 0)
    s[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(s, (ulong)v[get_global_id(0)] * 0x10001);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    grp[get_group_id(0)] = s[0];
    atom_add(all, s[0]);
  }
}

kernel void add_seq64(global const ulong *restrict steps, uint n, global ulong *acc,
                      global ulong *restrict olds) {
  for (uint i = 0; i < n; i++)
    olds[i] = atom_add(acc, steps[i]);
}

kernel void inc_dec64(global ulong *c, global ulong *restrict io, global ulong *restrict so) {
  for (int k = 0; k < 4; k++)
    io[k] = atom_inc(&c[0]);
  for (int k = 4; k < 10; k++)
    io[k] = atom_dec(&c[0]);
  ulong d[4] = {1, 2, 3, 0xffffffff};
  for (int k = 0; k < 4; k++)
    so[k] = atom_sub(&c[1], d[k]);
}

kernel void minmax_seq64(global const long *restrict v, global long *m,
                         global long *restrict olds) {
  for (int i = 0; i < 8; i++) {
    olds[2 * i] = atom_min(&m[0], v[i]);
    olds[2 * i + 1] = atom_max(&m[1], v[i]);
  }
}

kernel void uminmax_seq64(global const ulong *restrict v, global ulong *m,
                          global ulong *restrict olds) {
  for (int i = 0; i < 8; i++) {
    olds[2 * i] = atom_min(&m[0], v[i]);
    olds[2 * i + 1] = atom_max(&m[1], v[i]);
  }
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 64
