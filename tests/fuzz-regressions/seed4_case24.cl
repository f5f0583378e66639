// kernel-fuzz 30 4, case 24: crash [panic at rtl-templates/src/kernel/datapath/mod.rs:91:17: %N used in cycle N before it is available in cycle N], reduced in 173 s (26 of 59 candidates kept)
/*!
[config]
name: kernel-fuzz seed 4 case 24
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 5 1 1
local_size: 3 1 1
arg_in: 0 buffer short[5] 32327 -20376 -7886 -32768 0
arg_in: 2 uint 1
arg_out: 1 buffer uint[5] 1 1 1 1 1
!*/

kernel void fuzz(global const short *in0, global uint *out0, uint n) {
  size_t gid = get_global_id(0);
  short a0 = in0[gid];
  uint v1 = gid;
  for (uint i2 = 0; i2 < ((uint)0x4U); i2++) {
    v1 = ((uint)(((ushort)(n))));
  }
  out0[gid] = v1;
}
