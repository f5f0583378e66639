/*!
[config]
dimensions: 1

[test]
name: shuffle and shuffle2 with masks from memory, a constant mask, and nan's bits
kernel_name: shuf
global_size: 2 1 1
arg_in:  0 buffer int4[2] 10 11 12 13 20 21 22 23
arg_in:  1 buffer uint4[2] 3 2 1 0 4 5 6 7
arg_in:  2 buffer float4[2] 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0
arg_in:  3 buffer uint8[2] 0 7 1 6 2 5 3 4 8 9 10 11 12 13 14 15
arg_in:  4 buffer uint[2] 0 4194305
arg_out: 5 buffer int4[2] 13 12 11 10 20 21 22 23
arg_out: 6 buffer float8[2] 1.0 5.0 2.0 6.0 3.0 7.0 4.0 8.0 5.0 6.0 7.0 8.0 12.0 11.0 10.0 9.0
arg_out: 7 buffer int2[2] 12 11 22 21
arg_out: 8 buffer uint[2] 0x7fc00000 0x7fc00001
!*/

// `shuffle`, `shuffle2` (OpenCL C 6.13.12) and `nan` (6.13.2). Expected values by hand:
// - `shuffle(x, m)`: lane i is x[m[i] % 4]; the second mask 4 5 6 7 is 0 1 2 3 modulo 4.
// - `shuffle2(v, g, m)` with g = v.wzyx + 4: the data lanes are v then g, (1 2 3 4 8 7 6 5)
//   for the first work-item, whose mask 0 7 1 6 2 5 3 4 gives 1 5 2 6 3 7 4 8; (5 6 7 8 12 11
//   10 9) for the second, whose mask 8 ... 15 is 0 ... 7 modulo 8.
// - the constant mask (2, 1) of `shuffle(x, (uint2)(2, 1))`: x.z, x.y.
// - `nan(c)`: the quiet NaN 0x7fc00000 with c's low 22 bits: 0 -> 0x7fc00000,
//   4194305 = 0x400001 -> 0x7fc00001 (bit 22 is dropped).
kernel void shuf(global const int4 *x, global const uint4 *m, global const float4 *f,
                 global const uint8 *m2, global const uint *c, global int4 *o,
                 global float8 *o2, global int2 *o3, global uint *o4) {
  size_t i = get_global_id(0);
  o[i] = shuffle(x[i], m[i]);
  float4 v = f[i];
  o2[i] = shuffle2(v, (float4)(v.w + 4.0f, v.z + 4.0f, v.y + 4.0f, v.x + 4.0f), m2[i]);
  o3[i] = shuffle(x[i], (uint2)(2, 1));
  o4[i] = as_uint(nan(c[i]));
}
