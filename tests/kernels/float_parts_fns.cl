/*!
[config]
dimensions: 1

[test]
name: maxmag, minmag, nextafter and ilogb of special values, bit for bit
kernel_name: mag_next
global_size: 24 1 1
arg_in:  0 buffer uint[24] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x40200000 0xc0200000 0x3f400000 0xbf400000 0x8da24260 0x0da24260 0xc0a00000 0x4affffff \
                                    0xcaffffff 0x00800000 0x80800000 0x7f7fffff 0x3f800000 0xbf800000 0x42f6e979 0xbdcccccd
arg_in:  1 buffer uint[24] 0x3f800000 0xbf800000 0x3f800000 0xbf800000 0x7f800000 0x00000000 0x3f800000 0x40000000 \
                                    0xc0200000 0x40200000 0x3f400000 0x3f000000 0xbf800000 0x00000000 0xc0a00000 0x7149f2ca \
                                    0xf149f2ca 0x00000000 0x00000000 0x7f800000 0xff800000 0x40000000 0x7fc00000 0xbdcccccd
arg_out: 2 buffer uint[24] 0x3f800000 0xbf800000 0x3f800000 0xbf800000 0x7f800000 0xff800000 0x3f800000 0x40000000 \
                                    0x40200000 0x40200000 0x3f400000 0xbf400000 0xbf800000 0x0da24260 0xc0a00000 0x7149f2ca \
                                    0xf149f2ca 0x00800000 0x80800000 0x7f800000 0xff800000 0x40000000 0x42f6e979 0xbdcccccd
arg_out: 3 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0x00000000 0x3f800000 0x40000000 \
                                    0xc0200000 0xc0200000 0x3f400000 0x3f000000 0x8da24260 0x00000000 0xc0a00000 0x4affffff \
                                    0xcaffffff 0x00000000 0x00000000 0x7f7fffff 0x3f800000 0xbf800000 0x42f6e979 0xbdcccccd
arg_out: 4 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff7fffff 0x7fc00000 0x7fc00000 \
                                    0x401fffff 0xc01fffff 0x3f400000 0xbf3fffff 0x8da24261 0x0da2425f 0xc0a00000 0x4b000000 \
                                    0xcb000000 0x00000000 0x80000000 0x7f800000 0x3f7fffff 0xbf7fffff 0x7fc00000 0xbdcccccd
arg_out: 5 buffer int[24] -2147483648 -2147483648 -2147483648 -2147483648 2147483647 2147483647 2147483647 2147483647 \
                                    1 1 -1 -1 -100 -100 2 22 \
                                    22 -126 -126 127 0 0 6 -4

[test]
name: fract, modf and frexp with their second result through private and global pointers
kernel_name: two_results
global_size: 24 1 1
arg_in:  0 buffer uint[24] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x40200000 0xc0200000 0x3f400000 0xbf400000 0x8da24260 0x0da24260 0xc0a00000 0x4affffff \
                                    0xcaffffff 0x00800000 0x80800000 0x7f7fffff 0x3f800000 0xbf800000 0x42f6e979 0xbdcccccd
arg_out: 1 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x00000000 0x80000000 0x7fc00000 0x7fc00000 \
                                    0x3f000000 0x3f000000 0x3f400000 0x3e800000 0x3f7fffff 0x0da24260 0x00000000 0x3f000000 \
                                    0x3f000000 0x00800000 0x3f7fffff 0x00000000 0x00000000 0x00000000 0x3ee97900 0x3f666666
arg_out: 2 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0400000 0x00000000 0xbf800000 0xbf800000 0x00000000 0xc0a00000 0x4afffffe \
                                    0xcb000000 0x00000000 0xbf800000 0x7f7fffff 0x3f800000 0xbf800000 0x42f60000 0xbf800000
arg_out: 3 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x00000000 0x80000000 0x7fc00000 0x7fc00000 \
                                    0x3f000000 0xbf000000 0x3f400000 0xbf400000 0x8da24260 0x0da24260 0x80000000 0x3f000000 \
                                    0xbf000000 0x00800000 0x80800000 0x00000000 0x00000000 0x80000000 0x3ee97900 0xbdcccccd
arg_out: 4 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0000000 0x00000000 0x80000000 0x80000000 0x00000000 0xc0a00000 0x4afffffe \
                                    0xcafffffe 0x00000000 0x80000000 0x7f7fffff 0x3f800000 0xbf800000 0x42f60000 0x80000000
arg_out: 5 buffer uint[24] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x3f200000 0xbf200000 0x3f400000 0xbf400000 0xbf224260 0x3f224260 0xbf200000 0x3f7fffff \
                                    0xbf7fffff 0x3f000000 0xbf000000 0x3f7fffff 0x3f000000 0xbf000000 0x3f76e979 0xbf4ccccd
arg_out: 6 buffer int[24] 0 0 0 0 0 0 0 0 \
                                    2 2 0 0 -99 -99 3 23 \
                                    23 -125 -125 128 1 1 7 -3

[test]
name: fract of float4 lanes, the integral parts through a float4 pointer
kernel_name: fract4
global_size: 6 1 1
arg_in:  0 buffer uint4[6] 0x00000000 0x80000000 0x00000001 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0xff800123 \
                                    0x40200000 0xc0200000 0x3f400000 0xbf400000 0x8da24260 0x0da24260 0xc0a00000 0x4affffff \
                                    0xcaffffff 0x00800000 0x80800000 0x7f7fffff 0x3f800000 0xbf800000 0x42f6e979 0xbdcccccd
arg_out: 1 buffer uint4[6] 0x00000000 0x80000000 0x00000000 0x80000000 0x00000000 0x80000000 0x7fc00000 0x7fc00000 \
                                    0x3f000000 0x3f000000 0x3f400000 0x3e800000 0x3f7fffff 0x0da24260 0x00000000 0x3f000000 \
                                    0x3f000000 0x00800000 0x3f7fffff 0x00000000 0x00000000 0x00000000 0x3ee97900 0x3f666666
arg_out: 2 buffer uint4[6] 0x00000000 0x80000000 0x00000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x7fc00000 \
                                    0x40000000 0xc0400000 0x00000000 0xbf800000 0xbf800000 0x00000000 0xc0a00000 0x4afffffe \
                                    0xcb000000 0x00000000 0xbf800000 0x7f7fffff 0x3f800000 0xbf800000 0x42f60000 0xbf800000
!*/

// maxmag, minmag, nextafter, ilogb, fract, modf and frexp in hardware (hls-ir `float_exact`).
// Expected values from an independent Python program (struct + math: math.frexp, math.modf,
// math.floor, nextafter as the float's bits plus or minus one), with the device's float
// semantics (docs/hardware-interface.md): a denormal argument counts as a zero of its sign, a
// NaN result is 0x7fc00000, a denormal result is flushed (nextafter(0, 1) is the smallest
// denormal, flushed to +0; nextafter(2^-126, 0) too). ilogb(0) is FP_ILOGB0 = INT_MIN,
// ilogb(NaN) FP_ILOGBNAN = INT_MAX. fract(-1e-30) rounds to 1 and is bounded by 0x1.fffffep-1;
// fract(-inf) is -0 with -inf in iptr; modf(-5) is -0.
kernel void mag_next(global const uint *x, global const uint *y, global uint *mx,
                     global uint *mn, global uint *nx, global int *il) {
  size_t i = get_global_id(0);
  float a = as_float(x[i]), b = as_float(y[i]);
  mx[i] = as_uint(maxmag(a, b));
  mn[i] = as_uint(minmag(a, b));
  nx[i] = as_uint(nextafter(a, b));
  il[i] = ilogb(a);
}

kernel void two_results(global const uint *x, global uint *fr, global float *fl,
                        global uint *mf, global uint *tr, global uint *fx, global int *ex) {
  size_t i = get_global_id(0);
  float a = as_float(x[i]);
  float t;
  fr[i] = as_uint(fract(a, fl + i));
  mf[i] = as_uint(modf(a, &t));
  tr[i] = as_uint(t);
  int e;
  fx[i] = as_uint(frexp(a, &e));
  ex[i] = e;
}

kernel void fract4(global const uint4 *x, global uint4 *fr, global uint4 *fl) {
  size_t i = get_global_id(0);
  float4 f;
  fr[i] = as_uint4(fract(as_float4(x[i]), &f));
  fl[i] = as_uint4(f);
}
