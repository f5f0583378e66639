/*!
[config]
dimensions: 1

[test]
name: float to integer conversions in every rounding mode, saturating, NaN to 0
kernel_name: float_to_int_modes
global_size: 36 1 1
arg_in:  0 buffer uint[36] 0x00000000 0x80000000 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0x40200000 0xc0200000 \
                                    0x3f000000 0xbf000000 0x3fc00000 0xbfc00000 0x40600000 0xc1bd5c29 0x41bacccd 0xbf333333 \
                                    0x42ff0000 0x43008000 0xc3008000 0xc3018000 0x437f8000 0x477fff80 0x477ffe80 0x4effffff \
                                    0x4f000000 0xcf000000 0xcf000001 0x4f7fffff 0x5f0ac723 0xdf0ac723 0x5effffff 0x7149f2ca \
                                    0x4affffff 0xcb000001 0x3f7fffff 0x4b7fffff
arg_out: 1 buffer int[36] 0 0 0 2147483647 -2147483648 0 2 -2 \
                                    0 0 2 -2 4 -24 23 -1 \
                                    128 128 -128 -130 256 65536 65534 2147483520 \
                                    2147483647 -2147483648 -2147483648 2147483647 2147483647 -2147483648 2147483647 2147483647 \
                                    8388608 -8388609 1 16777215
arg_out: 2 buffer int[36] 0 0 0 2147483647 -2147483648 0 2 -2 \
                                    0 0 1 -1 3 -23 23 0 \
                                    127 128 -128 -129 255 65535 65534 2147483520 \
                                    2147483647 -2147483648 -2147483648 2147483647 2147483647 -2147483648 2147483647 2147483647 \
                                    8388607 -8388609 0 16777215
arg_out: 3 buffer int[36] 0 0 0 2147483647 -2147483648 0 3 -2 \
                                    1 0 2 -1 4 -23 24 0 \
                                    128 129 -128 -129 256 65536 65535 2147483520 \
                                    2147483647 -2147483648 -2147483648 2147483647 2147483647 -2147483648 2147483647 2147483647 \
                                    8388608 -8388609 1 16777215
arg_out: 4 buffer int[36] 0 0 0 2147483647 -2147483648 0 2 -3 \
                                    0 -1 1 -2 3 -24 23 -1 \
                                    127 128 -129 -130 255 65535 65534 2147483520 \
                                    2147483647 -2147483648 -2147483648 2147483647 2147483647 -2147483648 2147483647 2147483647 \
                                    8388607 -8388609 0 16777215
arg_out: 5 buffer uint[36] 0 0 0 4294967295 0 0 2 0 \
                                    0 0 1 0 3 0 23 0 \
                                    127 128 0 0 255 65535 65534 2147483520 \
                                    2147483648 0 0 4294967040 4294967295 0 4294967295 4294967295 \
                                    8388607 0 0 16777215
arg_out: 6 buffer char[36] 0 0 0 127 -128 0 2 -2 \
                                    0 0 2 -2 4 -24 23 -1 \
                                    127 127 -128 -128 127 127 127 127 \
                                    127 -128 -128 127 127 -128 127 127 \
                                    127 -128 1 127
arg_out: 7 buffer ushort[36] 0 0 0 65535 0 0 3 0 \
                                    1 0 2 0 4 0 24 0 \
                                    128 129 0 0 256 65535 65535 65535 \
                                    65535 0 0 65535 65535 0 65535 65535 \
                                    65535 0 1 65535
arg_out: 8 buffer long[36] 0 0 0 9223372036854775807 -9223372036854775808 0 2 -3 \
                                    0 -1 1 -2 3 -24 23 -1 \
                                    127 128 -129 -130 255 65535 65534 2147483520 \
                                    2147483648 -2147483648 -2147483904 4294967040 9223372036854775807 -9223372036854775808 9223371487098961920 9223372036854775807 \
                                    8388607 -8388609 0 16777215
arg_out: 9 buffer ulong[36] 0 0 0 18446744073709551615 0 0 3 0 \
                                    1 0 2 0 4 0 24 0 \
                                    128 129 0 0 256 65536 65535 2147483520 \
                                    2147483648 0 0 4294967040 9999999980506447872 0 9223371487098961920 18446744073709551615 \
                                    8388608 0 1 16777215

[test]
name: int, uint and long to float in every rounding mode
kernel_name: int_to_float_modes
global_size: 18 1 1
arg_in:  0 buffer int[18] 0 1 -1 2147483647 -2147483648 16777217 -16777217 16777219 \
                                    33554435 -33554435 33554434 -33554434 123456789 -123456789 2147483583 2147483584 \
                                    -2147483585 1073741889
arg_out: 1 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x4f000000 0xcf000000 0x4b800000 0xcb800000 0x4b800002 \
                                    0x4c000001 0xcc000001 0x4c000000 0xcc000000 0x4ceb79a3 0xcceb79a3 0x4effffff 0x4f000000 \
                                    0xcf000000 0x4e800001
arg_out: 2 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x4effffff 0xcf000000 0x4b800000 0xcb800000 0x4b800001 \
                                    0x4c000000 0xcc000000 0x4c000000 0xcc000000 0x4ceb79a2 0xcceb79a2 0x4effffff 0x4effffff \
                                    0xceffffff 0x4e800000
arg_out: 3 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x4f000000 0xcf000000 0x4b800001 0xcb800000 0x4b800002 \
                                    0x4c000001 0xcc000000 0x4c000001 0xcc000000 0x4ceb79a3 0xcceb79a2 0x4f000000 0x4f000000 \
                                    0xceffffff 0x4e800001
arg_out: 4 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x4effffff 0xcf000000 0x4b800000 0xcb800001 0x4b800001 \
                                    0x4c000000 0xcc000001 0x4c000000 0xcc000001 0x4ceb79a2 0xcceb79a3 0x4effffff 0x4effffff \
                                    0xcf000000 0x4e800000
arg_out: 5 buffer uint[18] 0x00000000 0x3f800000 0x4f7fffff 0x4effffff 0x4f000000 0x4b800000 0x4f7effff 0x4b800001 \
                                    0x4c000000 0x4f7dffff 0x4c000000 0x4f7dffff 0x4ceb79a2 0x4f78a432 0x4effffff 0x4effffff \
                                    0x4f000000 0x4e800000
arg_out: 6 buffer uint[18] 0x00000000 0x3f800000 0x4f800000 0x4f000000 0x4f000000 0x4b800001 0x4f7f0000 0x4b800002 \
                                    0x4c000001 0x4f7e0000 0x4c000001 0x4f7e0000 0x4ceb79a3 0x4f78a433 0x4f000000 0x4f000000 \
                                    0x4f000001 0x4e800001
arg_out: 7 buffer uint[18] 0x00000000 0x3f800000 0x4f7fffff 0x4effffff 0x4f000000 0x4b800000 0x4f7effff 0x4b800001 \
                                    0x4c000000 0x4f7dffff 0x4c000000 0x4f7dffff 0x4ceb79a2 0x4f78a432 0x4effffff 0x4effffff \
                                    0x4f000000 0x4e800000
arg_in:  8 buffer long[18] 0 1 -1 9223372036854775807 -9223372036854775808 9007199254740993 -1099511627779 4611686293305294848 \
                                    4611686293305294849 -4611686293305294848 123456789012345678 -123456789012345678 2147483583 16777217 -16777217 16777216 \
                                    9223371487098961920 9223371487098961921
arg_out: 9 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x5f000000 0xdf000000 0x5a000000 0xd3800000 0x5e800000 \
                                    0x5e800001 0xde800000 0x5bdb4da6 0xdbdb4da6 0x4effffff 0x4b800000 0xcb800000 0x4b800000 \
                                    0x5effffff 0x5effffff
arg_out: 10 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x5effffff 0xdf000000 0x5a000000 0xd3800000 0x5e800000 \
                                    0x5e800000 0xde800000 0x5bdb4da5 0xdbdb4da5 0x4effffff 0x4b800000 0xcb800000 0x4b800000 \
                                    0x5effffff 0x5effffff
arg_out: 11 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x5f000000 0xdf000000 0x5a000001 0xd3800000 0x5e800001 \
                                    0x5e800001 0xde800000 0x5bdb4da6 0xdbdb4da5 0x4f000000 0x4b800001 0xcb800000 0x4b800000 \
                                    0x5effffff 0x5f000000
arg_out: 12 buffer uint[18] 0x00000000 0x3f800000 0xbf800000 0x5effffff 0xdf000000 0x5a000000 0xd3800001 0x5e800000 \
                                    0x5e800000 0xde800001 0x5bdb4da5 0xdbdb4da6 0x4effffff 0x4b800000 0xcb800001 0x4b800000 \
                                    0x5effffff 0x5effffff
arg_out: 13 buffer uint[18] 0x00000000 0x3f800000 0x5f800000 0x5f000000 0x5f000000 0x5a000001 0x5f7fffff 0x5e800001 \
                                    0x5e800001 0x5f400000 0x5bdb4da6 0x5f7e4965 0x4f000000 0x4b800001 0x5f800000 0x4b800000 \
                                    0x5effffff 0x5f000000
arg_out: 14 buffer uint[18] 0x00000000 0x3f800000 0x5f7fffff 0x5effffff 0x5f000000 0x5a000000 0x5f7ffffe 0x5e800000 \
                                    0x5e800000 0x5f3fffff 0x5bdb4da5 0x5f7e4964 0x4effffff 0x4b800000 0x5f7fffff 0x4b800000 \
                                    0x5effffff 0x5effffff

[test]
name: vector conversions with rounding modes, and float to float (flush, canonical NaN)
kernel_name: vector_modes
global_size: 8 1 1
arg_in:  0 buffer uint4[8] 0x00000000 0x80000000 0x807fffff 0x7f800000 0xff800000 0x7fc00000 0x40200000 0xc0200000 \
                                    0x3f000000 0xbf000000 0x3fc00000 0xbfc00000 0x40600000 0xc1bd5c29 0x41bacccd 0xbf333333 \
                                    0x42ff0000 0x43008000 0xc3008000 0xc3018000 0x437f8000 0x477fff80 0x477ffe80 0x4effffff \
                                    0x4f000000 0xcf000000 0xcf000001 0x4f7fffff 0x5f0ac723 0xdf0ac723 0x5effffff 0x7149f2ca
arg_out: 1 buffer int4[8] 0 0 0 2147483647 -2147483648 0 3 -2 \
                                    1 0 2 -1 4 -23 24 0 \
                                    128 129 -128 -129 256 65536 65535 2147483520 \
                                    2147483647 -2147483648 -2147483648 2147483647 2147483647 -2147483648 2147483647 2147483647
arg_out: 2 buffer uint4[8] 0x00000000 0x00000000 0x00000000 0x4effffff 0xcf000000 0x00000000 0x40000000 0xc0000000 \
                                    0x00000000 0x00000000 0x3f800000 0xbf800000 0x40400000 0xc1b80000 0x41b80000 0x00000000 \
                                    0x42fe0000 0x43000000 0xc3000000 0xc3010000 0x437f0000 0x477fff00 0x477ffe00 0x4effffff \
                                    0x4effffff 0xcf000000 0xcf000000 0x4effffff 0x4effffff 0xcf000000 0x4effffff 0x4effffff
arg_out: 3 buffer uint4[8] 0x00000000 0x80000000 0x80000000 0x7f800000 0xff800000 0x7fc00000 0x40200000 0xc0200000 \
                                    0x3f000000 0xbf000000 0x3fc00000 0xbfc00000 0x40600000 0xc1bd5c29 0x41bacccd 0xbf333333 \
                                    0x42ff0000 0x43008000 0xc3008000 0xc3018000 0x437f8000 0x477fff80 0x477ffe80 0x4effffff \
                                    0x4f000000 0xcf000000 0xcf000001 0x4f7fffff 0x5f0ac723 0xdf0ac723 0x5effffff 0x7149f2ca
!*/

// Conversions with rounding modes in hardware (hls-ir `float_exact`). Expected values from an
// independent Python program (struct + math): float -> integer rounds the argument (Python's
// round() for rte, math.trunc/ceil/floor), then clamps to the type (NaN -> 0, as `_sat`; the
// hardware saturates without `_sat` too, where OpenCL leaves the result undefined); integer ->
// float keeps the top 24 bits of the magnitude and rounds the rest in Python integers (rte: the
// halfway case to even). Denormal inputs count as zeros, 0x807fffff converts to 0. Floats are
// given and checked as bit patterns (the checker equates 0.0 and -0.0).
kernel void float_to_int_modes(global const uint *x, global int *i_rte, global int *i_rtz,
                               global int *i_rtp, global int *i_rtn, global uint *u_rtn,
                               global char *c_rte, global ushort *us_rtp, global long *l_rtn,
                               global ulong *ul_rtp) {
  size_t i = get_global_id(0);
  float v = as_float(x[i]);
  i_rte[i] = convert_int_rte(v);
  i_rtz[i] = convert_int_rtz(v);
  i_rtp[i] = convert_int_rtp(v);
  i_rtn[i] = convert_int_rtn(v);
  u_rtn[i] = convert_uint_sat_rtn(v);
  c_rte[i] = convert_char_sat_rte(v);
  us_rtp[i] = convert_ushort_sat_rtp(v);
  l_rtn[i] = convert_long_rtn(v);
  ul_rtp[i] = convert_ulong_sat_rtp(v);
}

kernel void int_to_float_modes(global const int *a, global uint *i_rte, global uint *i_rtz,
                               global uint *i_rtp, global uint *i_rtn, global uint *u_rtz,
                               global uint *u_rtp, global uint *u_rtn, global const long *b,
                               global uint *l_rte, global uint *l_rtz, global uint *l_rtp,
                               global uint *l_rtn, global uint *ul_rtp, global uint *ul_rtz) {
  size_t i = get_global_id(0);
  int v = a[i];
  uint u = as_uint(v);
  long w = b[i];
  ulong uw = as_ulong(w);
  i_rte[i] = as_uint(convert_float_rte(v));
  i_rtz[i] = as_uint(convert_float_rtz(v));
  i_rtp[i] = as_uint(convert_float_rtp(v));
  i_rtn[i] = as_uint(convert_float_rtn(v));
  u_rtz[i] = as_uint(convert_float_rtz(u));
  u_rtp[i] = as_uint(convert_float_rtp(u));
  u_rtn[i] = as_uint(convert_float_rtn(u));
  l_rte[i] = as_uint(convert_float_rte(w));
  l_rtz[i] = as_uint(convert_float_rtz(w));
  l_rtp[i] = as_uint(convert_float_rtp(w));
  l_rtn[i] = as_uint(convert_float_rtn(w));
  ul_rtp[i] = as_uint(convert_float_rtp(uw));
  ul_rtz[i] = as_uint(convert_float_rtz(uw));
}

kernel void vector_modes(global const uint4 *x, global int4 *up, global uint4 *back,
                         global uint4 *same) {
  size_t i = get_global_id(0);
  float4 v = as_float4(x[i]);
  up[i] = convert_int4_rtp(v);
  back[i] = as_uint4(convert_float4_rtn(convert_int4(v)));
  same[i] = as_uint4(convert_float4_rtz(v));
}
