/*!
[config]
kernel_name: uchar4_pack
dimensions: 1

[test]
name: uchar4_pack bytes of a word, reversed and incremented
global_size: 3 1 1
local_size: 3 1 1
arg_in:  0 buffer uint[3] 0x04030201 0xff00807f 0x00000000
arg_out: 1 buffer uchar4[3] 5 4 3 2   0 1 129 128   1 1 1 1
arg_out: 2 buffer uint[3] 0x02030405 0x80810100 0x01010101
arg_out: 3 buffer uchar[3] 1 0 0
!*/

// `as_uchar4` splits a word into its bytes (lane 0 is the lowest byte, little-endian);
// uchar4 arithmetic wraps per lane (vectors are not promoted). Expected by hand:
//   0x04030201: c = (1,2,3,4), c.wzyx + 1 = (5,4,3,2), as_uint = 0x02030405
//   0xff00807f: c = (0x7f,0x80,0x00,0xff), reversed (0xff,0x00,0x80,0x7f), + 1 wraps:
//               (0x00,0x01,0x81,0x80) = (0,1,129,128), as_uint = 0x80810100
//   0:          (0,0,0,0) + 1 = (1,1,1,1), 0x01010101
//   first = any(d == (uchar4)(5,4,3,2)) as a byte: only item 0 matches (any lane is enough).
kernel void uchar4_pack(global const uint *in, global uchar4 *out, global uint *packed,
                        global uchar *first) {
  size_t i = get_global_id(0);
  uchar4 c = as_uchar4(in[i]);
  uchar4 d = c.wzyx + (uchar4)(1);
  out[i] = d;
  packed[i] = as_uint(d);
  first[i] = any(d == (uchar4)(5, 4, 3, 2));
}
