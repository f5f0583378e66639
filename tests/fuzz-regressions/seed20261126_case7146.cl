// kernel-fuzz 10000 20261126, case 7146: crash [panic at rtl-templates/src/kernel/datapath/mod.rs:96:17: %N used in cycle N before it is available in cycle N], reduced in 76 s (31 of 75 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 7146
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 11 1 1
local_size: 6 1 1
arg_in: 0 buffer uint[11] 1655517138 822919276 3643765983 0 4029623542 3167257848 7 0 2147483648 4294967295 1064518656
arg_in: 1 buffer uint2[11] 4294967295 3882112311 1420058831 2984246593 3 1667773650 4294967295 4294967295 591974709 3010531868 0 2147483648 0 0 4294967295 29 0 2147483648 19 1 2642946777 103099521
arg_in: 2 buffer ushort[11] 10042 0 22229 0 65535 0 32768 65535 17835 38667 28
arg_in: 4 buffer uint[4] 0 350874771 0 0
arg_in: 5 uint 4
arg_out: 3 buffer int[11] 0 0 0 0 0 0 0 0 0 0 0
arg_out: 4 buffer uint[4] 15 350874771 0 0
!*/

kernel void fuzz(global const uint *in0, global const uint2 *in1, global const ushort *in2, global int *out0, global uint *acc, uint n) {
  size_t gid = get_global_id(0);
  uint a0 = in0[gid];
  uint2 a1 = in1[gid];
  ushort a2 = in2[gid];
  int v1 = ((int)0x0U);
  #pragma ii 1
  for (uint i8 = 0; i8 < n; i8++) {
    atomic_max(&acc[((uint)(((uint)(v1)))) & 3U], (uint)(((uint)0xfU)));
    v1 = ((int)(convert_ushort_sat(as_float(0x0U))));
  }
  out0[gid] = ((int)0x0U);
}
