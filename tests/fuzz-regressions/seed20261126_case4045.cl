// kernel-fuzz 10000 20261126, case 4045 (fixed: the same cause as case 3859, four loops of local atomic_dec in one phase): mismatch [rtl], reduced in 102 s (30 of 48 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 4045
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 8 1 1
local_size: 8 1 1
arg_in: 0 buffer long[8] 8047570523279598316 -8883890779594110123 -1 0 -1 26 775182444250819230 3373207659637398671
arg_in: 1 buffer uint4[8] 2308284722 0 1695592404 20 2045592203 2147483648 593051798 2147483648 4294967295 8 1010967258 2147483648 2365948443 2863120963 2199852012 15 2147483648 2 0 2 11 52464200 2414448942 2898939407 26 5 2147483648 2 4294967295 3965420902 2147483648 2147483648
arg_in: 4 uint 1
arg_out: 2 buffer uint4[8] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 3 buffer uint[8] 4294967168 0 0 0 0 0 0 0
!*/

kernel void fuzz(global const long *in0, global const uint4 *in1, global uint4 *out0, global uint *lhout, uint n) {
  size_t gid = get_global_id(0);
  long a0 = in0[gid];
  uint4 a1 = in1[gid];
  uint lid = (uint)get_local_id(0);
  local int4 lx[8];
  local uint lh[8];
  lh[lid] = 0U;
  lx[lid] = ((int4)(((int)0x0U), ((int)0x0U), ((int)0x0U), ((int)0x0U)));
  barrier(CLK_LOCAL_MEM_FENCE);
  int4 xchg = lx[(lid + 5U) & 7U];
  #pragma unroll
  for (uint i1 = 0; i1 < ((uint)0x4U); i1++) {
    #pragma loop_coalesce
    for (uint i3 = 0; i3 < ((uint)0x4U); i3++) {
      atomic_dec(&lh[((uint)(((int)0x0U))) & 7U]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  lhout[gid] = lh[lid];
  out0[gid] = ((uint4)(((uint)0x0U), ((uint)0x0U), ((uint)0x0U), ((uint)0x0U)));
}
