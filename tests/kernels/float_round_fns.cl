/*!
[config]
dimensions: 1

[test]
name: floor, ceil, trunc, round and rint of special, halfway and large values, bit for bit
kernel_name: round_fns
global_size: 33 1 1
arg_in:  0 buffer uint[33] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x40200000 0xc0200000 0x3f000000 0xbf000000 0x3fc00000 0xbfc00000 0x40600000 0xc0600000 \
                                    0x3effffff 0xbf333333 0x41bd5c29 0xc1bc0000 0x4affffff 0xcaffffff 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x8da24260 0x3f7fffff 0xbf7fffff 0x4a800001 0x42ff0000 0x3f800001 0xbf000001 \
                                    0x00800000
arg_out: 1 buffer uint[33] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0400000 0x00000000 0xbf800000 0x3f800000 0xc0000000 0x40400000 0xc0800000 \
                                    0x00000000 0xbf800000 0x41b80000 0xc1c00000 0x4afffffe 0xcb000000 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0xbf800000 0x00000000 0xbf800000 0x4a800000 0x42fe0000 0x3f800000 0xbf800000 \
                                    0x00000000
arg_out: 2 buffer uint[33] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40400000 0xc0000000 0x3f800000 0x80000000 0x40000000 0xbf800000 0x40800000 0xc0400000 \
                                    0x3f800000 0x80000000 0x41c00000 0xc1b80000 0x4b000000 0xcafffffe 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x80000000 0x3f800000 0x80000000 0x4a800002 0x43000000 0x40000000 0x80000000 \
                                    0x3f800000
arg_out: 3 buffer uint[33] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0000000 0x00000000 0x80000000 0x3f800000 0xbf800000 0x40400000 0xc0400000 \
                                    0x00000000 0x80000000 0x41b80000 0xc1b80000 0x4afffffe 0xcafffffe 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x80000000 0x00000000 0x80000000 0x4a800000 0x42fe0000 0x3f800000 0x80000000 \
                                    0x00000000
arg_out: 4 buffer uint[33] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40400000 0xc0400000 0x3f800000 0xbf800000 0x40000000 0xc0000000 0x40800000 0xc0800000 \
                                    0x00000000 0xbf800000 0x41c00000 0xc1c00000 0x4b000000 0xcb000000 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x80000000 0x3f800000 0xbf800000 0x4a800002 0x43000000 0x3f800000 0xbf800000 \
                                    0x00000000
arg_out: 5 buffer uint[33] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0000000 0x00000000 0x80000000 0x40000000 0xc0000000 0x40800000 0xc0800000 \
                                    0x00000000 0xbf800000 0x41c00000 0xc1c00000 0x4b000000 0xcb000000 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x80000000 0x3f800000 0xbf800000 0x4a800000 0x43000000 0x3f800000 0xbf800000 \
                                    0x00000000

[test]
name: floor and rint of float4 lanes
kernel_name: round_fns4
global_size: 8 1 1
arg_in:  0 buffer uint4[8] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x40200000 0xc0200000 0x3f000000 0xbf000000 0x3fc00000 0xbfc00000 0x40600000 0xc0600000 \
                                    0x3effffff 0xbf333333 0x41bd5c29 0xc1bc0000 0x4affffff 0xcaffffff 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x8da24260 0x3f7fffff 0xbf7fffff 0x4a800001 0x42ff0000 0x3f800001 0xbf000001
arg_out: 1 buffer uint4[8] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0400000 0x00000000 0xbf800000 0x3f800000 0xc0000000 0x40400000 0xc0800000 \
                                    0x00000000 0xbf800000 0x41b80000 0xc1c00000 0x4afffffe 0xcb000000 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0xbf800000 0x00000000 0xbf800000 0x4a800000 0x42fe0000 0x3f800000 0xbf800000
arg_out: 2 buffer uint4[8] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0000000 0x00000000 0x80000000 0x40000000 0xc0000000 0x40800000 0xc0800000 \
                                    0x00000000 0xbf800000 0x41c00000 0xc1c00000 0x4b000000 0xcb000000 0x4b000001 0x4b7fffff \
                                    0x7149f2ca 0x80000000 0x3f800000 0xbf800000 0x4a800000 0x43000000 0x3f800000 0xbf800000
!*/

// Rounding to an integer in hardware (hls-ir `float_exact`: integer operations on the bits).
// Inputs and outputs are bit patterns (the checker equates 0.0 and -0.0; these tests must not).
// Expected values from an independent Python program (struct + math: math.floor/ceil/trunc,
// Python's round() for rint, floor(|x| + 0.5) by parts for round), with the device's float
// semantics (docs/hardware-interface.md): a denormal argument is a zero of its sign (floor of
// 0x807fffff is -0.0), a NaN result is 0x7fc00000 (also for the input 0xff800123), an integral
// result keeps the sign of the argument (ceil(-0.5) = -0.0). Halfway cases: round(+-2.5) =
// +-3, rint(+-2.5) = +-2, rint(0.5) = 0, rint(4194304.5) = 4194304, round(8388607.5) = 2^23.
kernel void round_fns(global const uint *x, global uint *fl, global uint *ce, global uint *tr,
                      global uint *ro, global uint *ri) {
  size_t i = get_global_id(0);
  float v = as_float(x[i]);
  fl[i] = as_uint(floor(v));
  ce[i] = as_uint(ceil(v));
  tr[i] = as_uint(trunc(v));
  ro[i] = as_uint(round(v));
  ri[i] = as_uint(rint(v));
}

kernel void round_fns4(global const uint4 *x, global uint4 *fl, global uint4 *ri) {
  size_t i = get_global_id(0);
  float4 v = as_float4(x[i]);
  fl[i] = as_uint4(floor(v));
  ri[i] = as_uint4(rint(v));
}
