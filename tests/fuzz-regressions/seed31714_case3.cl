// kernel-fuzz 4 31714 (a CI run's short fuzz), case 3: crash [panic at rtl-templates/src/kernel/mod.rs:250:13: the schedule's serial II N is not the pipeline's N stages] in debug builds, reduced in 40 s (3499 -> 864 bytes)
// kernel-fuzz 4 31714, case 3: crash [panic at rtl-templates/src/kernel/mod.rs:250:13: fuzz.phaseN: the schedule's serial II N is not the pipeline's N stages], reduced in 39 s (68 of 132 candidates kept)
/*!
[config]
name: kernel-fuzz seed 31714 case 3
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 6 1 1
local_size: 2 1 1
arg_in: 0 buffer char[6] -1 -110 29 18 -64 27
arg_in: 1 buffer ulong2[6] 13178212814064253579 17662557288215335644 18446744073709551615 18446744073709551615 18446744073709551615 9223372036854775808 27 0 9594269245408883243 16534395107941344368 12324482554994147721 26
arg_in: 4 buffer uint[1] 2147483648
arg_in: 5 uint 4
arg_out: 2 buffer int4[6] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 3 buffer uint[6] 0 0 0 0 0 0
arg_out: 4 buffer uint[1] 2147483648
!*/

kernel void fuzz(global const char *in0, global const ulong2 *in1, global int4 *out0, global uint *lhout, global uint *acc, uint n) {
  size_t gid = get_global_id(0);
  char a0 = in0[gid];
  ulong2 a1 = in1[gid];
  uint lid = (uint)get_local_id(0);
  local float lx[2];
  local uint lh[2];
  lh[lid] = 0U;
  lx[lid] = as_float(0x0U);
  barrier(CLK_LOCAL_MEM_FENCE);
  float xchg = lx[(lid + 1U) & 1U];
  atomic_and(&lh[((uint)(((short)0x0U))) & 1U], (uint)(((short)0x0U)));
  uint v8 = as_uint(as_int(xchg));
  atomic_xor(&acc[((uint)(((ulong)0x0UL))) & 0U], (uint)(((long)(v8))));
  #pragma loop_coalesce
  for (uint i9 = 0; i9 < ((uint)0x5U); i9++) {
    atomic_and(&lh[((uint)(((char)0x0U))) & 1U], (uint)(((uchar)0x0U)));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  lhout[gid] = lh[lid];
  out0[gid] = ((int4)(((int)0x0U), ((int)0x0U), ((int)0x0U), ((int)0x0U)));
}
