/*!
[config]
dimensions: 1

[test]
name: copysign, fdim, ldexp and logb of special values, bit for bit
kernel_name: bits_fns
global_size: 24 1 1
arg_in:  0 buffer uint[24] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x3fc00000 0xbfc00000 0x40200000 0xc0400000 0x7149f2ca 0x8da24260 0x3f800000 0x3f400000 \
                                    0x00ffffff 0x80ffffff 0x00800000 0x7f7fffff 0x3f7fffff 0x40c00000 0xc0c00000 0x006ce3ee
arg_in:  1 buffer uint[24] 0xc0000000 0x40400000 0x80000000 0x00000000 0xbf800000 0x7fc00000 0x3f800000 0x80000000 \
                                    0xbfc00000 0xff800000 0x40200000 0xc0000000 0xf149f2ca 0x0da24260 0x7f800000 0x3f400002 \
                                    0x807fffff 0x00000001 0x3f800000 0xff7fffff 0x3f000000 0x40c00000 0xc0e00000 0x00000000
arg_in:  2 buffer int[24] 3 -3 100 -1 5 7 -1000 2 \
                                    -150 0 1 127 100 200 2147483647 -2147483648 \
                                    -1 1 -1 1 -126 -127 21 -3
arg_out: 3 buffer uint[24] 0x80000000 0x00000000 0x80000000 0x00000000 0xff800000 0x7f800000 0x7fc00000 0x7fc00000 \
                                    0xbfc00000 0xbfc00000 0x40200000 0xc0400000 0xf149f2ca 0x0da24260 0x3f800000 0x3f400000 \
                                    0x80ffffff 0x00ffffff 0x00800000 0xff7fffff 0x3f7fffff 0x40c00000 0xc0c00000 0x00000000
arg_out: 4 buffer uint[24] 0x40000000 0x00000000 0x00000000 0x00000000 0x7f800000 0x7fc00000 0x7fc00000 0x7fc00000 \
                                    0x40400000 0x7f800000 0x00000000 0x00000000 0x71c9f2ca 0x00000000 0x00000000 0x00000000 \
                                    0x00ffffff 0x00000000 0x00000000 0x7f800000 0x3efffffe 0x00000000 0x3f800000 0x00000000
arg_out: 5 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x00000000 0xbfc00000 0x40a00000 0xff800000 0x7f800000 0xf1a24260 0x7f800000 0x00000000 \
                                    0x00800000 0x817fffff 0x00000000 0x7f800000 0x00800000 0x01400000 0xcb400000 0x00000000
arg_out: 6 buffer uint[24] 0xff800000 0xff800000 0xff800000 0xff800000 0x7f800000 0x7f800000 0x7fc00000 0x7fc00000 \
                                    0x00000000 0x00000000 0x3f800000 0x3f800000 0x42c60000 0xc2c80000 0x00000000 0xbf800000 \
                                    0xc2fc0000 0xc2fc0000 0xc2fc0000 0x42fe0000 0xbf800000 0x40000000 0x40000000 0xff800000

[test]
name: ldexp of float4 lanes by a scalar int and by an int4, copysign of float4
kernel_name: bits_fns4
global_size: 6 1 1
arg_in:  0 buffer uint4[6] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x3fc00000 0xbfc00000 0x40200000 0xc0400000 0x7149f2ca 0x8da24260 0x3f800000 0x3f400000 \
                                    0x00ffffff 0x80ffffff 0x00800000 0x7f7fffff 0x3f7fffff 0x40c00000 0xc0c00000 0x006ce3ee
arg_in:  1 buffer int4[6] 3 -3 100 -1 5 7 -1000 2 \
                                    -150 0 1 127 100 200 2147483647 -2147483648 \
                                    -1 1 -1 1 -126 -127 21 -3
arg_in:  2 int -126
arg_out: 3 buffer uint4[6] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x00c00000 0x80c00000 0x01200000 0x81400000 0x3249f2ca 0x80000000 0x00800000 0x00000000 \
                                    0x00000000 0x80000000 0x00000000 0x407fffff 0x00800000 0x01c00000 0x81c00000 0x00000000
arg_out: 4 buffer uint4[6] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x00000000 0xbfc00000 0x40a00000 0xff800000 0x7f800000 0xf1a24260 0x7f800000 0x00000000 \
                                    0x00800000 0x817fffff 0x00000000 0x7f800000 0x00800000 0x01400000 0xcb400000 0x00000000
arg_out: 5 buffer uint4[6] 0x00000000 0x00000000 0x80000000 0x00000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x3fc00000 0xbfc00000 0x40200000 0x40400000 0x7149f2ca 0x8da24260 0x3f800000 0xbf400000 \
                                    0x00ffffff 0x80ffffff 0x00800000 0xff7fffff 0x3f7fffff 0xc0c00000 0x40c00000 0x80000000
!*/

// copysign, fdim, ldexp and logb in hardware (hls-ir `float_exact`). Expected values from an
// independent Python program (struct + math: math.copysign, x - y rounded to float by
// struct.pack, math.ldexp then struct.pack (round to nearest even, gradual underflow) and a
// flush of the denormal result, math.frexp for logb), with the device's float semantics
// (docs/hardware-interface.md): a denormal argument counts as a zero of its sign (logb of
// 0x00000001 is -inf, copysign of it a signed zero), a NaN result is 0x7fc00000 (copysign of a
// NaN too), a denormal result is flushed after rounding: ldexp(0x00ffffff, -1) is
// 0x1.fffffep-127 rounded up to 2^-126, ldexp(1.5, -127) is flushed to 0, ldexp(1e30, 100) is
// inf, ldexp(x, INT_MIN) is a zero. Floats are given and checked as bit patterns.
kernel void bits_fns(global const uint *x, global const uint *y, global const int *n,
                     global uint *cs, global uint *dim, global uint *ld, global uint *lb) {
  size_t i = get_global_id(0);
  float a = as_float(x[i]), b = as_float(y[i]);
  cs[i] = as_uint(copysign(a, b));
  dim[i] = as_uint(fdim(a, b));
  ld[i] = as_uint(ldexp(a, n[i]));
  lb[i] = as_uint(logb(a));
}

kernel void bits_fns4(global const uint4 *x, global const int4 *n, int k, global uint4 *by_k,
                      global uint4 *by_n, global uint4 *cs) {
  size_t i = get_global_id(0);
  float4 a = as_float4(x[i]);
  by_k[i] = as_uint4(ldexp(a, k));
  by_n[i] = as_uint4(ldexp(a, n[i]));
  cs[i] = as_uint4(copysign(a, as_float4(x[5 - i])));
}
