// kernel-fuzz 10000 20261126, case 672: crash [lint %Warning-UNUSEDSIGNAL], reduced in 557 s (54 of 93 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 672
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 6 1 1
local_size: 2 1 1
arg_in: 0 buffer uint4[6] 3235905536 4081594452 4286578688 3247439872 2139095040 2139095040 4286578688 2147483648 1473109517 2718305376 209555783 3212836864 2143289344 2139095039 519961387 2139095039 2143289344 1096810496 3238002688 3242196992 1056964608 4095204451 905466153 0
arg_in: 1 buffer uint[6] 1073741824 1082130432 3245342720 1084227584 1090519040 2143289344
arg_in: 2 buffer long4[6] 25 22 22 -1 -1 -9223372036854775808 24 8033276178599232923 7 3596153856686650600 11 -6025092730522166493 0 -4990289038199583424 4 -9223372036854775808 0 0 9 0 2574391326201279090 0 4154112996966660430 -2948043400353300752
arg_in: 4 uint 0
arg_out: 3 buffer int[6] 0 0 0 0 0 0
!*/

kernel void fuzz(global const float4 *in0, global const float *in1, global const long4 *in2, global int *out0, uint n) {
  size_t gid = get_global_id(0);
  float4 a0 = in0[gid];
  float a1 = in1[gid];
  long4 a2 = in2[gid];
  uint lid = (uint)get_local_id(0);
  local long lx[2];
  lx[lid] = ((long)0x0UL);
  barrier(CLK_LOCAL_MEM_FENCE);
  long xchg = lx[(lid + 1U) & 1U];
  ushort p1[8] = {((ushort)0x0U), ((ushort)0x0U), ((ushort)0x37bbU), ((ushort)0x0U), ((ushort)0x0U), ((ushort)0x0U), ((ushort)0x0U), ((ushort)0x0U)};
  p1[((uint)(((ushort)(n)))) & 7U] = ((ushort)0x0U);
  p1[((uint)(((long)0x0UL))) & 7U] = p1[((uint)(((uint)0x0U))) & 7U];
  out0[gid] = ((int)0x0U);
}
