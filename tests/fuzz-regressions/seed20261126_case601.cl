// kernel-fuzz 10000 20261126, case 601: mismatch [rtl], reduced in 361 s (34 of 60 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 601
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 9 1 1
local_size: 2 1 1
arg_in: 0 buffer ushort2[9] 32768 58170 62566 57489 32139 32768 0 8893 65535 23 32768 4597 65535 51090 9 8 20972 31787
arg_in: 1 buffer uint[9] 1097859072 3229614080 3058059448 3207976878 637162 4286578688 1 2085877839 2147483648
arg_in: 3 uint 0
arg_out: 2 buffer uchar4[9] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 8
!*/

kernel void fuzz(global const ushort2 *in0, global const float *in1, global uchar4 *out0, uint n) {
  size_t gid = get_global_id(0);
  ushort2 a0 = in0[gid];
  float a1 = in1[gid];
  out0[gid] = ((uchar4)(((uchar4)(((uchar4)(((uchar)0x0U), ((uchar)0x0U), ((uchar)0x0U), ((uchar)(gid)))) >> as_uchar4((as_uchar4(((uchar4)(((uchar)0x7fU), ((uchar)0x80U), ((uchar)0xbU), ((uchar)(gid))))) & (uchar4)(7))))) >> as_uchar4((as_uchar4(((uchar4)(((uchar)0x0U), ((uchar)0x0U), ((uchar)0x0U), ((uchar)(gid))))) & (uchar4)(7)))));
}
