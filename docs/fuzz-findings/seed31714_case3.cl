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
arg_out: 2 buffer int4[6] 4 4 4 2 22 22 22 22 26 26 26 26 22 22 22 22 68 68 68 68 24 24 24 24
arg_out: 3 buffer uint[6] 0 0 0 0 0 0
arg_out: 4 buffer uint[1] 2147483648

[test]
name: test 1
global_size: 2 1 1
local_size: 2 1 1
arg_in: 0 buffer char[2] 30 63
arg_in: 1 buffer ulong2[2] 18446744073709551615 9223372036854775808 15 9223372036854775808
arg_in: 4 buffer uint[1] 2147483648
arg_in: 5 uint 2
arg_out: 2 buffer int4[2] 28 28 28 28 66 66 66 66
arg_out: 3 buffer uint[2] 0 0
arg_out: 4 buffer uint[1] 2147483648

[test]
name: test 2
global_size: 4 1 1
local_size: 2 1 1
arg_in: 0 buffer char[4] 0 28 24 -1
arg_in: 1 buffer ulong2[4] 31 26 12802418863859725297 17721874143719337819 9376293276271603838 18446744073709551615 10661735393451285341 18446744073709551615
arg_in: 4 buffer uint[1] 14
arg_in: 5 uint 3
arg_out: 2 buffer int4[4] 3 3 3 2 27 27 27 27 27 27 27 27 3 3 3 2
arg_out: 3 buffer uint[4] 0 0 0 0
arg_out: 4 buffer uint[1] 14
!*/

kernel void fuzz(global const char *in0, global const ulong2 *in1, global int4 *out0, global uint *lhout, global uint *acc, uint n) {
  size_t gid = get_global_id(0);
  char a0 = in0[gid];
  ulong2 a1 = in1[gid];
  uint lid = (uint)get_local_id(0);
  local float lx[2];
  local uint lh[2];
  lh[lid] = 0U;
  lx[lid] = ((float)(((float)(((int)(n)))) + ((float)(((float)(gid)) - ((float)(gid))))));
  barrier(CLK_LOCAL_MEM_FENCE);
  float xchg = lx[(lid + 1U) & 1U];
  atomic_and(&lh[((uint)(((short)((uint)(((short)(lid))) * (uint)(((short)((uint)(((short)0x4U)) - (uint)(((short)(a0)))))))))) & 1U], (uint)(((short)((uint)(((short)(hadd(((short)(n)), ((short)(n)))))) << (((uint)(((short)(min(((short)(lid)), ((short)(gid))))))) & 15U)))));
  atomic_xor(&acc[((uint)(((uint)(lid & ((uint)(((char)(gid)) ? lid : lid)))))) & 0U], (uint)(as_long(((ulong)0x1UL))));
  for (uint i1 = 0; i1 < ((uint)(n & ((uint)0x3U))); i1++) {
    for (uint i2 = 0; i2 < ((uint)0x4U); i2++) {
      char v3 = a0;
      int4 v4 = ((int4)(((uint)(((int)((uint)(((int)(lid))) * (uint)(((int)0x80000000U)))))) ? ((int4)(max(convert_int4_sat(((float4)(((float)(n)), ((float)(n)), ((float)(n)), ((float)(n))))), ((int4)(((int)(gid)), ((int)0x1U), ((int)0xffffffffU), ((int)(i2))))))) : ((int4)(((int)0x7fffffffU), ((int)0x1U), ((int)0x0U), ((int)0x63cbe72U)))));
      atomic_xor(&acc[((uint)(((long)(lid)))) & 0U], (uint)(((uchar)(((uchar)0xffU) == (uchar)0 ? ((uchar)0x7U) : ((uchar)0x7U) / ((uchar)0xffU)))));
    }
  }
  for (uint i5 = 0; i5 < ((uint)(n & ((uint)0x3U))); i5++) {
    short4 v6 = ((short4)(((short)(lid)), ((short)(lid)), ((short)(lid)), ((short)(lid))));
    uint v7 = ((uint)(((short)((((short)(gid))) >> (((uint)(((short)(((short)(n)) ? ((short)(a0)) : ((short)(n)))))) & 15U)))));
  }
  uint v8 = as_uint(as_int(((float)(as_float(0x40c00000U) - xchg))));
  atomic_xor(&acc[((uint)((as_ulong2(as_ulong2(((ulong2)(((ulong)0x0UL), ((ulong)0xc9c857866d9a0006UL)))) * as_ulong2(a1))).s0)) & 0U], (uint)(((long)((ulong)(((long)(((long)0xffffffffffffffffUL) & ((long)(n))))) + (ulong)(((long)(((short)(n)) ? ((long)(v8)) : ((long)(lid)))))))));
  #pragma loop_coalesce
  for (uint i9 = 0; i9 < ((uint)0x5U); i9++) {
    for (uint i10 = 0; i10 < n; i10++) {
      atomic_and(&lh[((uint)(((char)(n)))) & 1U], (uint)(((uchar)(sub_sat(((uchar)(convert_uchar_sat(xchg) | convert_uchar_sat(xchg))), ((uchar)((uint)(((uchar)(i9))) - (uint)(convert_uchar_sat(xchg)))))))));
      v8 = ((uint)(rhadd(((uint)(sub_sat(((uint)(gid & gid)), ((uint)(convert_uint_sat(xchg) ^ ((uint)0xdU)))))), ((uint)(((char)(v8)) ? (((uint4)(((uint)(a0)), ((uint)(a0)), ((uint)(a0)), ((uint)(a0))))).s0 : ((uint)(max(i10, i9))))))));
      v8 = ((uint)((uint)(v8) + (uint)(((uint)(((uint)(max(v8, lid))) ^ ((uint)(((uchar)(v8)) ? n : convert_uint_sat(xchg))))))));
    }
    long4 v11 = ((long4)(xchg ? ((long4)(((long)(i9)), ((long)(i9)), ((long)(i9)), ((long)(i9)))) : ((long4)(((long)(lid)), ((long)(lid)), ((long)(lid)), ((long)(lid))))));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  lhout[gid] = lh[lid];
  out0[gid] = ((int4)(hadd(((int4)(((ulong)((ulong)(((ulong)(n))) - (ulong)(((ulong)(v8))))) ? ((int4)(((int)(v8)), ((int)(v8)), ((int)(v8)), ((int)(v8)))) : ((int4)(((int)(v8)), ((int)(n)), ((int)(v8)), ((int)0x1U))))), ((int4)(((uint)(gid == (uint)0 ? gid : gid % gid)) ? ((int4)(((int)(v8)), ((int)(v8)), ((int)(v8)), ((int)(v8)))) : convert_int4_sat(((uchar4)(((uchar)(v8)), ((uchar)(v8)), ((uchar)(v8)), ((uchar)(v8))))))))));
}
