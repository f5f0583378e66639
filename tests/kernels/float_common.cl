/*!
[config]
dimensions: 1

[test]
name: relational functions of scalars, one bit each (NaN, infinities, signed zeros, a denormal)
kernel_name: rel_s
global_size: 8 1 1
arg_in:  0 buffer float[8] 0x1.8000000000000p+0 nan inf -inf 0.0 -0.0 0x1.5c73000000000p-130 0x1.c363cc0000000p+127
arg_in:  1 buffer float[8] 0x1.8000000000000p+0 0x1.0000000000000p+1 inf 0x1.0000000000000p+0 -0.0 0.0 0x1.5c73000000000p-130 nan
arg_out: 2 buffer int[8] 5420 8257 5410 7762 5412 5428 5412 8268

[test]
name: relational functions of float4 give -1 for true
kernel_name: rel_v
global_size: 2 1 1
arg_in:  0 buffer float4[2] 0x1.8000000000000p+0 nan inf -inf 0.0 -0.0 0x1.5c73000000000p-130 0x1.c363cc0000000p+127
arg_in:  1 buffer float4[2] 0x1.8000000000000p+0 0x1.0000000000000p+1 inf 0x1.0000000000000p+0 -0.0 0.0 0x1.5c73000000000p-130 nan
arg_out: 2 buffer int4[2] -1 0 -1 0 -1 -1 -1 0
arg_out: 3 buffer int4[2] 0 0 0 -1 0 0 0 0
arg_out: 4 buffer int4[2] 0 -1 0 0 0 0 0 0

[test]
name: mix, step and smoothstep of float4 (scalar edges broadcast)
kernel_name: common_v
global_size: 1 1 1
arg_in:  0 buffer float4[1] 0.0 0x1.0000000000000p+0 -0x1.4000000000000p+1 0x1.4000000000000p+3
arg_in:  1 buffer float4[1] 0x1.0000000000000p+2 0x1.8000000000000p+1 0x1.d000000000000p+2 0x1.5000000000000p+3
arg_in:  2 buffer float4[1] 0x1.0000000000000p-2 0x1.0000000000000p-1 0x1.0000000000000p-3 0x1.8000000000000p-1
arg_in:  3 buffer float4[1] -0x1.0000000000000p+0 0x1.0000000000000p-1 0x1.0000000000000p+1 0x1.8000000000000p+1
arg_in:  4 buffer float4[1] -0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.4000000000000p+1 0x1.4000000000000p+2
arg_out: 5 buffer float4[1] 0x1.0000000000000p+0 0x1.0000000000000p+1 -0x1.4800000000000p+0 0x1.4c00000000000p+3
arg_out: 6 buffer float4[1] 0.0 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+0
arg_out: 7 buffer float4[1] 0.0 0x1.4000000000000p-3 0x1.5e00000000000p-1 0x1.0000000000000p+0

[test]
name: degrees, radians, sign and recip
kernel_name: common_s
global_size: 4 1 1
arg_in:  0 buffer float[4] 0x1.0000000000000p+0 -0x1.0000000000000p-1 0x1.921fb60000000p+1 0.0
arg_in:  1 buffer float[4] 0x1.6800000000000p+7 -0x1.6800000000000p+6 0x1.0000000000000p+0 0x1.93e5940000000p+99
arg_in:  2 buffer float[4] 0x1.4000000000000p+1 -0x1.0624de0000000p-10 0.0 -0.0
arg_in:  3 buffer float[4] 0x1.8000000000000p+1 -0x1.99999a0000000p-4 0x1.4f8b580000000p-17 0.0
arg_out: 4 buffer float[4] 0x1.ca5dc20000000p+5 -0x1.ca5dc20000000p+4 0x1.6800000000000p+7 0.0 tolerance 2 ulp
arg_out: 5 buffer float[4] 0x1.921fb60000000p+1 -0x1.921fb60000000p+0 0x1.1df46a0000000p-6 0x1.c328340000000p+93 tolerance 2 ulp
arg_out: 6 buffer float[4] 0x1.0000000000000p+0 -0x1.0000000000000p+0 0.0 -0.0
arg_out: 7 buffer float[4] 0x1.5555560000000p-2 -0x1.4000000000000p+3 0x1.86a0000000000p+16 inf

[test]
name: dot, length, distance, normalize and cross of float4 (overflow-safe length, a zero vector, infinite lanes)
kernel_name: geo
global_size: 4 1 1
arg_in:  0 buffer float4[4] 0x1.0000000000000p+0 0x1.0000000000000p+1 0x1.8000000000000p+1 0x1.0000000000000p+2 0x1.2eec2e0000000p+101 0x1.93e5940000000p+101 0.0 0.0 0.0 0.0 0.0 0.0 inf 0x1.0000000000000p+0 -inf 0x1.4000000000000p+2
arg_in:  1 buffer float4[4] 0x1.0000000000000p-1 -0x1.0000000000000p+0 0x1.0000000000000p+1 0x1.0000000000000p-2 0x1.4484c00000000p-100 0.0 -0x1.4484c00000000p-100 0.0 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000020000000p+0 0x1.0000000000000p+0 0x1.fffffc0000000p-1 0x1.0000000000000p+1
arg_out: 2 buffer float[4] 0x1.6000000000000p+2 0x1.8000000000000p+1 0.0 nan tolerance 4 ulp
arg_out: 3 buffer float[4] 0x1.5e8ade0000000p+2 0x1.f8def80000000p+101 0.0 inf tolerance 4 ulp
arg_out: 4 buffer float[4] 0x1.3b91c00000000p+2 0x1.f8def80000000p+101 0x1.0000000000000p+1 inf tolerance 4 ulp
arg_out: 5 buffer float4[4] 0x1.75e9740000000p-3 0x1.75e9740000000p-2 0x1.186f180000000p-1 0x1.75e9740000000p-1 0x1.3333320000000p-1 0x1.99999a0000000p-1 0.0 0.0 0.0 0.0 0.0 0.0 0x1.6a09e60000000p-1 0.0 -0x1.6a09e60000000p-1 0.0 tolerance 6 ulp
arg_out: 6 buffer float4[4] 0x1.c000000000000p+2 -0x1.0000000000000p-1 -0x1.0000000000000p+1 0.0 -0x1.0000000000000p+2 0x1.8000000000000p+1 -0x1.0000000000000p+2 0.0 0.0 0.0 0.0 0.0 inf -inf inf 0.0 tolerance 2 ulp
!*/

// The common, geometric and relational built-ins of `float` in hardware (hls-ir
// `lower/builtins/float_math/common.rs`). Expected values: python3 in double precision,
// rounded to float with `struct` (`mix` and `smoothstep` operation by operation in float, as
// the specification writes them); the relational bits with the device's flush-to-zero for the
// comparisons. `length((3e30, 4e30, 0, 0))` is 5e30: the squares would overflow without the
// scaling. `normalize` of a vector with infinite lanes is that of (1, 0, -1, 0), as OpenCL C
// 6.13.5 says; of a zero vector, the zero vector.

kernel void rel_s(global const float *a, global const float *b, global int *o) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  o[i] = isnan(x) | isinf(x) << 1 | isfinite(x) << 2 | isnormal(x) << 3 | signbit(x) << 4 |
         isequal(x, y) << 5 | isnotequal(x, y) << 6 | isgreater(x, y) << 7 |
         isgreaterequal(x, y) << 8 | isless(x, y) << 9 | islessequal(x, y) << 10 |
         islessgreater(x, y) << 11 | isordered(x, y) << 12 | isunordered(x, y) << 13;
}

kernel void rel_v(global const float4 *a, global const float4 *b, global int4 *eq,
                  global int4 *lt, global int4 *nan) {
  size_t i = get_global_id(0);
  eq[i] = isequal(a[i], b[i]);
  lt[i] = isless(a[i], b[i]);
  nan[i] = isnan(a[i]);
}

kernel void common_v(global const float4 *a, global const float4 *b, global const float4 *c,
                     global const float4 *x, global const float4 *sx, global float4 *m,
                     global float4 *st, global float4 *sm) {
  size_t i = get_global_id(0);
  m[i] = mix(a[i], b[i], c[i]);
  st[i] = step(c[i], x[i]);
  sm[i] = smoothstep(0.0f, 4.0f, sx[i]);
}

kernel void common_s(global const float *d, global const float *r, global const float *s,
                     global const float *q, global float *dg, global float *rd, global float *sg,
                     global float *rc) {
  size_t i = get_global_id(0);
  dg[i] = degrees(d[i]);
  rd[i] = radians(r[i]);
  sg[i] = sign(s[i]);
  rc[i] = native_recip(q[i]);
}

kernel void geo(global const float4 *v, global const float4 *w, global float *dt,
                global float *ln, global float *ds, global float4 *nm, global float4 *cr) {
  size_t i = get_global_id(0);
  dt[i] = dot(v[i], w[i]);
  ln[i] = length(v[i]);
  ds[i] = fast_distance(v[i], w[i]);
  nm[i] = normalize(v[i]);
  cr[i] = cross(v[i], w[i]);
}
