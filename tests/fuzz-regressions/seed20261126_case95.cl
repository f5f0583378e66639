// kernel-fuzz 10000 20261126, case 95: crash [lint %Warning-UNUSEDSIGNAL], reduced in 610 s (28 of 44 candidates kept)
// Fixed: the load of `p1` (an on-chip memory) under `and` of two conditions kept a pipeline
// copy of its predicate for the cycle its data arrives, which only a global port's response
// uses; nothing read the copy (`and_v64_c11`), and lint failed. The plan now keeps it only for
// global loads (rtl-templates kernel/plan.rs).
/*!
[config]
name: kernel-fuzz seed 20261126 case 95
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 15 1 1
local_size: 1 1 1
arg_in: 0 buffer long[15] 0 -7944721069903508576 -1053985482525925311 -146208810925316945 -9223372036854775808 2552174085536601826 -9223372036854775808 -9223372036854775808 0 28 4234681745340282580 -9223372036854775808 -1 -5167609777121377490 5122647944059706990
arg_in: 1 buffer uchar4[15] 24 150 31 4 31 255 15 167 255 0 125 190 9 184 22 160 196 255 22 131 0 197 0 128 255 0 12 78 97 255 2 198 19 255 0 0 37 2 0 255 223 70 255 188 28 128 0 12 128 185 21 128 23 255 46 30 255 11 7 28
arg_in: 3 uint 0
arg_out: 2 buffer short[15] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
!*/

kernel void fuzz(global const long *in0, global const uchar4 *in1, global short *out0, uint n) {
  size_t gid = get_global_id(0);
  long a0 = in0[gid];
  uchar4 a1 = in1[gid];
  ulong p1[8] = {as_ulong(((long)0x7fffffffffffffffUL)), ((ulong)(((ulong)(a0)) | ((ulong)(a0)))), ((ulong)(((ulong)0xe1a5d79e86309a81UL) ^ ((ulong)0x0UL))), ((ulong)0x0UL), ((ulong)0x0UL), ((ulong)0x0UL), ((ulong)0x4UL), ((ulong)0x0UL)};
  if (as_float(0x0U)) {
    p1[((uint)(((int)(n)))) & 7U] = ((ulong)(((uchar)(n)) ? p1[((uint)(((ushort)0x0U))) & 7U] : ((ulong)0x0UL)));
  }
  out0[gid] = ((short)0x0U);
}
