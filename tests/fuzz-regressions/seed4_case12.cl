// kernel-fuzz 30 4, case 12: mismatch [rtl], reduced in 248 s (18 of 29 candidates kept)
/*!
[config]
name: kernel-fuzz seed 4 case 12
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer uchar[4] 30 128 87 255
arg_in: 3 buffer uint[2] 4248975590 543093851
arg_in: 4 uint 1
arg_out: 1 buffer long4[4] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 2 buffer uint[4] 0 0 0 0
arg_out: 3 buffer uint[2] 4248975590 543093851
!*/

kernel void fuzz(global const uchar *in0, global long4 *out0, global uint *lhout, global uint *acc, uint n) {
  size_t gid = get_global_id(0);
  uchar a0 = in0[gid];
  uint lid = (uint)get_local_id(0);
  local char lx[4];
  local uint lh[4];
  lh[lid] = 0U;
  lx[lid] = ((char)(((ushort)((uint)(((ushort)(n))) + (uint)(((ushort)(a0))))) ? ((char)((((char)0x8U) == (char)0 || (((char)0x8U) == (char)-1 && ((char)0x63U) == ((char)0x80U))) ? ((char)0x63U) : ((char)0x63U) % ((char)0x8U))) : ((char)(n))));
  barrier(CLK_LOCAL_MEM_FENCE);
  char xchg = lx[(lid + 2U) & 3U];
  atomic_xor(&lh[((uint)(n)) & 3U], (uint)(as_short(((ushort)(((long)(a0)) ? ((ushort)(gid)) : ((ushort)(a0)))))));
  for (uint i2 = 0; i2 < n; i2++) {
    atomic_xor(&lh[((uint)(((char)(((uint)(clz(((uint)(i2))))) ? ((char)((uint)(((char)0x7aU)) << (((uint)(((char)(lid)))) & 7U))) : ((char)(i2)))))) & 3U], (uint)(((ushort)(((uint)(n & ((uint)0x3U))) ? ((ushort)(((short)0xfb61U) ? ((ushort)0x0U) : ((ushort)(i2)))) : ((ushort)(((ushort)0x812fU) | ((ushort)0x2U)))))));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  lhout[gid] = lh[lid];
  out0[gid] = as_long4(as_ulong4(as_long4(as_ulong4(((long4)(((long)0xdUL), ((long)0xdUL), ((long)0xffffffffffffffffUL), ((long)0x921b4e6cd5152cbeUL)))) + as_ulong4(((long4)(((long4)(((long)0x6aad5187cf4583a6UL), ((long)0xdUL), ((long)0x1a4a027060bdf5c7UL), ((long)0x7f2783ca75184b84UL))) >> as_long4((as_ulong4(((long4)(((long)(xchg)), ((long)0x0UL), ((long)0x0UL), ((long)0x0UL)))) & (ulong4)(63)))))))) * as_ulong4(((long4)(((long)0x0UL), ((long)0x0UL), ((long)0x0UL), ((long)0x0UL)))));
}
