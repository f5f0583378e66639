// kernel-fuzz 60 3, case 39: crash [panic at rtl-templates/src/kernel/datapath/mod.rs:91:17: %N used in cycle N before it is available in cycle N], reduced in 211 s (16 of 54 candidates kept)
// (Generated before `break` and `#pragma unroll` joined the generator, which changed the cases.)
// Fixed (the scheduler now makes a loop result's operands ready at the loop's start): `oclhls` panicked in rtl-templates/src/kernel/datapath/mod.rs:91 ("%N used in
// cycle 0 before it is available in cycle 1", from emit_pipeline_control). Reduced by hand:
//   kernel void k(global int *o, uint n) { size_t g = get_global_id(0); char v = (char)g;
//     for (uint i = 0; i < n; i++) v = 3; o[g] = v; }
// The loop's `loop_result` selects between the constant 3 and the narrowed initial value
// (`extract 0 %gid`, scheduled in cycle 1), and the pipeline control reads it in cycle 0; with
// `int v` (no `extract`) it compiles.
/*!
[config]
name: kernel-fuzz seed 3 case 39
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 5 1 1
local_size: 2 1 1
arg_in: 0 buffer ulong[5] 9552173392996918172 18446744073709551615 9622108230402787182 4956984483740470957 9068233234319013389
arg_in: 1 buffer ushort2[5] 0 25 49880 1 32768 0 13 0 0 32768
arg_in: 3 uint 5
arg_out: 2 buffer int[5] 0 1 2 3 4
!*/

kernel void fuzz(global const ulong *in0, global const ushort2 *in1, global int *out0, uint n) {
  size_t gid = get_global_id(0);
  ulong a0 = in0[gid];
  ushort2 a1 = in1[gid];
  char v1 = ((char)(gid));
  for (uint i2 = 0; i2 < n; i2++) {
    v1 = ((char)0x0U);
  }
  uint v4 = ((uint)(v1 ? n : gid));
  out0[gid] = ((int)((((long4)(((long)0x0UL), ((long)(v4)), ((long)0x0UL), ((long)0x0UL)))).s1));
}
