// kernel-fuzz 10000 20261126, case 4585 (fixed: a loop-carried value whose next value is a constant, `v2 = (short)0xa;` in the loop, has no pipeline register, and the RTL plan looked one up): crash [panic at rtl-templates/src/kernel/plan.rs:522:23: no entry found for key], reduced in 659 s (11 of 30 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 4585
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 12 1 1
local_size: 4 1 1
arg_in: 0 buffer uint[12] 0 4294967295 4294967295 0 11 0 3931632375 17 4294967295 0 6 1
arg_in: 3 buffer uint[2] 623636308 21
arg_in: 4 uint 5
arg_out: 1 buffer long[12] 1 1 1 1 1 1 1 1 1 1 1 1
arg_out: 2 buffer uint[12] 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 3 buffer uint[2] 623636308 21
!*/

kernel void fuzz(global const uint *in0, global long *out0, global uint *lhout, global uint *acc, uint n) {
  size_t gid = get_global_id(0);
  uint a0 = in0[gid];
  uint lid = (uint)get_local_id(0);
  local float lx[4];
  local uint lh[4];
  lh[lid] = 0U;
  lx[lid] = ((float)(a0));
  barrier(CLK_LOCAL_MEM_FENCE);
  float xchg = lx[(lid + 2U) & 3U];
  long v1 = ((long)(hadd((convert_long4(((uchar4)(((uchar)(n)), ((uchar)(n)), ((uchar)(n)), ((uchar)(n)))))).s2, convert_long_sat(xchg))));
  short v2 = ((short)((uint)(((short)0x0U)) * (uint)(((short)((uint)(((short)(a0))) + (uint)(((short)((((short)(v1))) >> (((uint)(((short)(gid)))) & 15U)))))))));
  for (uint i3 = 0; i3 < n; i3++) {
    atomic_sub(&acc[((uint)(((ulong)(((ulong)0xdUL) ^ ((ulong)(convert_ulong_sat(xchg) | ((ulong)(v2)))))))) & 1U], (uint)(((char)0x0U)));
    v2 = ((short)0xaU);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  lhout[gid] = lh[lid];
  out0[gid] = ((long)0x1UL);
}
