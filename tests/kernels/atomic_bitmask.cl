/*!
[config]
name: bit masks with atomic_and, atomic_or and atomic_xor
require_device_extensions: cl_khr_int64_extended_atomics

[test]
name: set, clear and toggle bits of 1024-bit masks, 400 work-items
kernel_name: masks
dimensions: 1
global_size: 400 1 1
local_size: 40 1 1
arg_in:  0 buffer uint[400] random 71
arg_in:  1 buffer uint[32] repeat 0
arg_out: 1 buffer uint[32] 1696117248 2521826465 211910839 2919258373 139528209 2154385709 218694132 5244939 \
    605225506 2418023512 2188000316 1176578112 2223014560 300388921 2789278315 657081624 \
    537945419 495984404 604177584 1787187012 1175733248 201429149 1198014990 46597076 \
    3256008874 17829896 1613813892 195469324 677118976 138495236 563501314 4250666260
arg_in:  2 buffer uint[32] repeat 0xffffffff
arg_out: 2 buffer uint[32] 3980205543 1811373822 2809462751 3953322879 3166694687 1943971261 3658973167 2030013727 \
    4083906165 3150958193 3739156432 1739767481 3187655099 2838625407 3990748916 3348545145 \
    4293197695 4285169575 4259772923 3079659519 4286478335 4196030713 1871650701 2138291235 \
    767262630 2237625907 1712846743 4156291964 1338928407 3128832935 887264787 2010992529
arg_in:  3 buffer uint[32] repeat 0
arg_out: 3 buffer uint[32] 1160841427 1077969986 142608392 4110434610 2193576210 3292676272 3225622552 1107300362 \
    1010827294 105098368 3271820808 134489283 93851781 3691284628 553919566 2232470560 \
    3236433924 2323132549 53493900 4739254 1195907329 1550590021 1748135298 1363184943 \
    4218880 2250000424 5540135 2378712579 3020947456 2183792920 17319640 35276972

[test]
name: 64-bit atom_or sets bits above 31
kernel_name: mask64
dimensions: 1
global_size: 400 1 1
local_size: 40 1 1
arg_in:  0 buffer uint[400] random 71
arg_in:  1 buffer ulong[4] repeat 0
arg_out: 1 buffer ulong[4] 11524746621805656043 17269052006362512575 11380551994144837297 18446550421955632127

[test]
name: local masks per work-group, xor-ed into global
kernel_name: group_masks
dimensions: 1
global_size: 400 1 1
local_size: 40 1 1
arg_in:  0 buffer uint[400] random 71
arg_in:  1 buffer uint[8] repeat 0
arg_out: 1 buffer uint[8] 1431118202 1038832404 1171272092 2660784587 1312273242 2614042962 3634933170 1529535319

[test]
name: one work-item, and, or, xor in turn, old values in program order
kernel_name: bits_seq
dimensions: 1
global_size: 1 1 1
arg_in:  0 buffer uint[12] random 72
arg_in:  1 buffer uint[1] 0xf0f0f0f0
arg_out: 1 buffer uint[1] 2972190175
arg_out: 2 buffer uint[12] 4042322160 1345355920 3589522328 1386536326 276874630 2615992198 1583362117 39850052 1584837580 1000718038 595899602 1065678838
!*/

// Bit masks built by many work-items at once: atomic_or sets bit (x & 1023) of a 1024-bit
// mask, atomic_and clears bit (x >> 10 & 1023) of another, atomic_xor toggles bit
// (x >> 20 & 1023) of a third (so it ends set if that bit was hit an odd number of times).
// mask64 sets bit (x & 63) of word (x >> 6 & 3) with 64-bit atom_or. group_masks builds a
// 256-bit mask per work-group in local memory and xors it into the global one. Expected
// values are computed with Python (an independent SplitMix64 for the `random` data).
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void masks(global const uint *restrict v, global uint *orm, global uint *andm,
                  global uint *xorm) {
  uint x = v[get_global_id(0)];
  uint a = x & 1023, b = (x >> 10) & 1023, c = (x >> 20) & 1023;
  atomic_or(&orm[a >> 5], 1u << (a & 31));
  atomic_and(&andm[b >> 5], ~(1u << (b & 31)));
  atomic_xor(&xorm[c >> 5], 1u << (c & 31));
}

kernel void mask64(global const uint *restrict v, global ulong *m) {
  uint x = v[get_global_id(0)];
  atom_or(&m[(x >> 6) & 3], 1ul << (x & 63));
}

kernel void group_masks(global const uint *restrict v, global uint *m) {
  local uint lm[8];
  uint lid = get_local_id(0);
  if (lid < 8)
    lm[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint b = (v[get_global_id(0)] >> 3) & 255;
  atomic_or(&lm[b >> 5], 1u << (b & 31));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 8)
    atomic_xor(&m[lid], lm[lid]);
}

kernel void bits_seq(global const uint *restrict v, global uint *m, global uint *restrict olds) {
  for (int k = 0; k < 12; k += 3) {
    olds[k] = atomic_and(m, v[k]);
    olds[k + 1] = atomic_or(m, v[k + 1]);
    olds[k + 2] = atomic_xor(m, v[k + 2]);
  }
}

// corpus-sim: --stall-prob 0.3 --max-latency 40 --seed 66
