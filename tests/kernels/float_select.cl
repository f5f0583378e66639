/*!
[config]
kernel_name: float_select
dimensions: 1

[test]
name: float_select picks a or b per element, bit-exact
global_size: 6 1 1
local_size: 3 1 1
arg_in:  0 buffer int[6]   1 0 7 0 -1 0
arg_in:  1 buffer float[6] 1.5 -2.25 inf 0.1 -0.0 3e38
arg_in:  2 buffer float[6] -7 8.5 -inf nan 1e-45 -3.5
arg_out: 3 buffer float[6] 1.5 8.5 inf nan -0.0 -3.5
arg_out: 4 buffer uint[6] 0x3fc00000 0x41080000 0x7f800000 0x7fc00000 0x80000000 0xc0600000
!*/

// Floating-point values are bit patterns in hardware: loads, stores, `?:` and `as_uint`
// move them without computing. Expected: c[i] != 0 ? a[i] : b[i] (by hand); the second
// output is the same value's bits (IEEE-754 single: 1.5 = 0x3fc00000, 8.5 = 0x41080000,
// inf = 0x7f800000, the default NaN of the test format = 0x7fc00000, -0.0 = 0x80000000,
// -3.5 = 0xc0600000).
kernel void float_select(global const int *c, global const float *a, global const float *b,
                         global float *out, global uint *bits) {
  size_t i = get_global_id(0);
  float x = c[i] ? a[i] : b[i];
  out[i] = x;
  bits[i] = as_uint(x);
}
