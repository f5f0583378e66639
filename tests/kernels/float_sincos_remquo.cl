/*!
[config]
dimensions: 1

[test]
name: sincos through a private and a global pointer
kernel_name: sincos_k
global_size: 12 1 1
arg_in:  0 buffer float[12] 0.0 -0.0 0x1.0000000000000p+0 -0x1.4000000000000p+1 0x1.921fb60000000p+0 0x1.921fb60000000p+1 0x1.4484c00000000p-100 -0x1.9300000000000p+6 0x1.93e5940000000p+99 inf -inf nan
arg_out: 1 buffer float[12] 0.0 -0.0 0x1.aed5480000000p-1 -0x1.326af00000000p-1 0x1.0000000000000p+0 -0x1.777a5c0000000p-24 0x1.4484c00000000p-100 -0x1.bd016c0000000p-3 -0x1.9513600000000p-1 nan nan nan tolerance 4 ulp
arg_out: 2 buffer float[12] 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.14a2800000000p-1 -0x1.9a2f7e0000000p-1 -0x1.777a5c0000000p-25 -0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.f3c4600000000p-1 -0x1.3924440000000p-1 nan nan nan tolerance 4 ulp
arg_out: 3 buffer float[12] 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.14a2800000000p-1 -0x1.9a2f7e0000000p-1 -0x1.777a5c0000000p-25 -0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.f3c4600000000p-1 -0x1.3924440000000p-1 nan nan nan tolerance 4 ulp

[test]
name: sincos of float4 through a private float4
kernel_name: sincos_v
global_size: 3 1 1
arg_in:  0 buffer float4[3] 0.0 -0.0 0x1.0000000000000p+0 -0x1.4000000000000p+1 0x1.921fb60000000p+0 0x1.921fb60000000p+1 0x1.4484c00000000p-100 -0x1.9300000000000p+6 0x1.93e5940000000p+99 inf -inf nan
arg_out: 1 buffer float4[3] 0.0 -0.0 0x1.aed5480000000p-1 -0x1.326af00000000p-1 0x1.0000000000000p+0 -0x1.777a5c0000000p-24 0x1.4484c00000000p-100 -0x1.bd016c0000000p-3 -0x1.9513600000000p-1 nan nan nan tolerance 4 ulp
arg_out: 2 buffer float4[3] 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.14a2800000000p-1 -0x1.9a2f7e0000000p-1 -0x1.777a5c0000000p-25 -0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.f3c4600000000p-1 -0x1.3924440000000p-1 nan nan nan tolerance 4 ulp

[test]
name: remquo through a private and a global pointer, with the special values of the spec
kernel_name: remquo_k
global_size: 16 1 1
arg_in:  0 buffer float[16] 0x1.c000000000000p+2 -0x1.c000000000000p+2 0x1.c000000000000p+2 0x1.f400000000000p+9 0x1.8000000000000p+0 0x1.4000000000000p+1 -0x1.0000000000000p+2 0x1.8000000000000p+1 inf 0x1.0000000000000p+0 nan 0x1.93e5940000000p+99 0x1.be36880000000p-98 -0.0 -0x1.b333340000000p+0 0x1.e240ca0000000p+16
arg_in:  1 buffer float[16] 0x1.0000000000000p+1 0x1.0000000000000p+1 -0x1.0000000000000p+1 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+1 inf 0x1.0000000000000p+0 0.0 0x1.0000000000000p+0 0x1.8000000000000p+1 0x1.039d660000000p-103 -0x1.0000000000000p+0 0x1.3333340000000p-2 -0x1.0000000000000p-4
arg_out: 2 buffer float[16] -0x1.0000000000000p+0 0x1.0000000000000p+0 -0x1.0000000000000p+0 0.0 -0x1.0000000000000p-1 0x1.0000000000000p-1 -0.0 0x1.8000000000000p+1 nan nan nan 0.0 0x1.6000000000000p-123 -0.0 0x1.9999a00000000p-4 -0x1.8000000000000p-6
arg_out: 3 buffer int[16] 4 -4 -4 104 2 2 -2 0 0 0 0 0 55 0 -6 -13
arg_out: 4 buffer int[16] 4 -4 -4 104 2 2 -2 0 0 0 0 0 55 0 -6 -13

[test]
name: remquo of float4 through a global int4
kernel_name: remquo_v
global_size: 4 1 1
arg_in:  0 buffer float4[4] 0x1.c000000000000p+2 -0x1.c000000000000p+2 0x1.c000000000000p+2 0x1.f400000000000p+9 0x1.8000000000000p+0 0x1.4000000000000p+1 -0x1.0000000000000p+2 0x1.8000000000000p+1 inf 0x1.0000000000000p+0 nan 0x1.93e5940000000p+99 0x1.be36880000000p-98 -0.0 -0x1.b333340000000p+0 0x1.e240ca0000000p+16
arg_in:  1 buffer float4[4] 0x1.0000000000000p+1 0x1.0000000000000p+1 -0x1.0000000000000p+1 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.0000000000000p+1 inf 0x1.0000000000000p+0 0.0 0x1.0000000000000p+0 0x1.8000000000000p+1 0x1.039d660000000p-103 -0x1.0000000000000p+0 0x1.3333340000000p-2 -0x1.0000000000000p-4
arg_out: 2 buffer float4[4] -0x1.0000000000000p+0 0x1.0000000000000p+0 -0x1.0000000000000p+0 0.0 -0x1.0000000000000p-1 0x1.0000000000000p-1 -0.0 0x1.8000000000000p+1 nan nan nan 0.0 0x1.6000000000000p-123 -0.0 0x1.9999a00000000p-4 -0x1.8000000000000p-6
arg_out: 3 buffer int4[4] 4 -4 -4 104 2 2 -2 0 0 0 0 0 55 0 -6 -13
!*/

// corpus-synth: skip (dozens of float units per function: Yosys takes many minutes; the kernel benchmark synthesises them)

// `sincos` and `remquo`, the math built-ins with a second result written through a pointer
// (hls-ir `lower/builtins/float_math/`). Expected values: python3 `math.sin`/`math.cos` in
// double precision, rounded to the nearest float with `struct`; `remquo` exactly with
// `fractions.Fraction` (`k = round(x / y)`, ties to even; the remainder `x - k y`, the
// quotient `k mod 128` with the sign of `x / y`; NaN and 0 for an infinite `x`, a zero `y` or
// a NaN, `x` and 0 for an infinite `y`).
kernel void sincos_k(global const float *x, global float *s, global float *c, global float *c2) {
  size_t i = get_global_id(0);
  float cv;
  s[i] = sincos(x[i], &cv);
  c[i] = cv;
  (void)sincos(x[i], c2 + i);
}

kernel void sincos_v(global const float4 *x, global float4 *s, global float4 *c) {
  size_t i = get_global_id(0);
  float4 cv;
  s[i] = sincos(x[i], &cv);
  c[i] = cv;
}

kernel void remquo_k(global const float *x, global const float *y, global float *r,
                     global int *q, global int *q2) {
  size_t i = get_global_id(0);
  int qv;
  r[i] = remquo(x[i], y[i], &qv);
  q[i] = qv;
  (void)remquo(x[i], y[i], q2 + i);
}

kernel void remquo_v(global const float4 *x, global const float4 *y, global float4 *r,
                     global int4 *q) {
  size_t i = get_global_id(0);
  r[i] = remquo(x[i], y[i], q + i);
}
