// kernel-fuzz 10000 20261126, case 4406 (fixed: the same cause as case 3898, a private array read by a global atomic's operand in a phase): mismatch [rtl], reduced in 788 s (22 of 35 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 4406
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 8 1 1
local_size: 2 1 1
arg_in: 0 buffer ulong[8] 14 18446744073709551615 16 9223372036854775808 9223372036854775808 16452548501445027356 18446744073709551615 8
arg_in: 2 buffer uint[8] 4294967295 2589123016 4294967295 2147483648 290339675 26 0 44866445
arg_in: 3 uint 4
arg_out: 1 buffer long2[8] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 2 buffer uint[8] 4294967291 2589123016 4294967295 2147483648 290339676 26 1 44866442
!*/

kernel void fuzz(global const ulong *in0, global long2 *out0, global uint *acc, uint n) {
  size_t gid = get_global_id(0);
  ulong a0 = in0[gid];
  uint lid = (uint)get_local_id(0);
  local long lx[2];
  lx[lid] = ((long)0x1UL);
  barrier(CLK_LOCAL_MEM_FENCE);
  long xchg = lx[(lid + 1U) & 1U];
  uchar p1[8] = {((uchar)((uint)(((uchar)(lid))) * (uint)(((uchar)(lid))))), ((uchar)(gid)), ((uchar)(n)), (((uchar2)(((uchar)(xchg)), ((uchar)(xchg))))).s1, ((uchar)(((uchar)(gid)) & ((uchar)(a0)))), ((uchar)(((int)(n)) ? ((uchar)(n)) : ((uchar)(xchg)))), ((uchar)(((uchar)(n)) == (uchar)0 ? ((uchar)(a0)) : ((uchar)(a0)) / ((uchar)(n)))), ((uchar)(((uchar)(a0)) & ((uchar)0x1U)))};
  if (xchg) {
    atomic_xor(&acc[((uint)(((long)(((((long2)(((long)(a0)), ((long)(a0))))).s1) >> (((uint)(((long)((((long)(a0)) == (long)0 || (((long)(a0)) == (long)-1 && xchg == ((long)0x8000000000000000UL))) ? xchg : xchg % ((long)(a0)))))) & 63U))))) & 7U], (uint)(p1[((uint)(((uchar)(hadd(((uchar)0xaU), ((uchar)(a0))))))) & 7U]));
  }
  out0[gid] = ((long2)(((long)0x0UL), ((long)0x0UL)));
}
