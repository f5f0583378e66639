// kernel-fuzz 10000 20261126, case 5438: crash [panic at src/compile/mod.rs:393:14: IR verification failed: this is a bug in oclhls: VerifyError { kernel: "fuzz", after: "narrow", errors: ["loopN's rows name [OpId(N)] and %N, not carried iNs of the loop and an iN"] }], reduced in 86 s (32 of 70 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 5438
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 8 1 1
local_size: 4 1 1
arg_in: 0 buffer ulong[8] 28 4774673406549784114 14 9223372036854775808 9223372036854775808 18446744073709551615 1 19
arg_in: 2 uint 3
arg_out: 1 buffer int[8] 0 0 0 0 0 0 0 0
!*/

kernel void fuzz(global const ulong *in0, global int *out0, uint n) {
  size_t gid = get_global_id(0);
  ulong a0 = in0[gid];
  uint lid = (uint)get_local_id(0);
  local ushort4 lx[4];
  lx[lid] = ((ushort4)(((ushort)0x0U), ((ushort)0x0U), ((ushort)0x0U), ((ushort)0x0U)));
  barrier(CLK_LOCAL_MEM_FENCE);
  ushort4 xchg = lx[(lid + 1U) & 3U];
  float2 v2 = as_float2(((uint2)(((uint)0x0U), ((uint)0x0U))));
  #pragma loop_coalesce
  for (uint i4 = 0; i4 < n; i4++) {
    #pragma ii 3
    for (uint i5 = 0; i5 < ((uint)0x0U); i5++) {
      v2 = as_float2(((uint2)(((uint)0x41200000U), ((uint)0xeb163250U))));
    }
  }
  out0[gid] = ((int)0x0U);
}
