/*!
[config]
kernel_name: passthrough
dimensions: 1

[test]
name: passthrough float2 swapped, structs copied or replaced by a by-value argument
global_size: 3 1 1
local_size: 3 1 1
arg_in:  0 buffer float2[3] 1.0 2.0   -0.5 inf   nan -3.25
arg_out: 1 buffer float2[3] 2.0 1.0   inf -0.5   -3.25 nan
arg_in:  2 buffer uint4[3] 0x3f800000 0x40000000 7 0x00020001   0xbf000000 0x7f800000 8 0xfffe0003   0 0 9 0x12345678
arg_out: 3 buffer uint4[3] 0x40400000 0x40800000 100 0x00060005   0xbf000000 0x7f800000 8 0xfffe0003   0 0 9 0x12345678
arg_out: 4 buffer uint[3] 0x3f800000 0xbf000000 0
arg_in:  5 uint4 0x40400000 0x40800000 100 0x00060005
!*/

// A float2 is 64 bits: one access per element, lanes swapped by a swizzle. A point is 16
// bytes (x @0, y @4, id @8, w @12, h @14, no padding): given as uint4 (x's and y's bits, id,
// w | h << 16). Work-item 0 stores the by-value argument `extra`, the others copy their
// input; `xs` gets the input point's x bits through as_uint. Expected by hand: out2 = the
// swapped pairs; pout[0] = extra, pout[1..2] = pin[1..2]; xs = 1.0f = 0x3f800000,
// -0.5f = 0xbf000000, 0.0f = 0.
typedef struct {
  float x, y;
  uint id;
  short w, h;
} point;

kernel void passthrough(global const float2 *restrict in2, global float2 *restrict out2,
                        global const point *restrict pin, global point *restrict pout,
                        global uint *restrict xs, point extra) {
  size_t i = get_global_id(0);
  float2 v = in2[i];
  out2[i] = v.yx;
  point q = pin[i];
  pout[i] = i == 0 ? extra : q;
  xs[i] = as_uint(q.x);
}
