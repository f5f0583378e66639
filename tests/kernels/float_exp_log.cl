/*!
[config]
dimensions: 1

[test]
name: exp, exp2, exp10, expm1, log, log2, log10 and log1p of special values, overflow and underflow, and ordinary values
kernel_name: float_exp_log
global_size: 16 1 1
arg_in:  0 buffer float[16] 0.0 -0.0 1.0 -1.0 inf -inf nan 0.5 10.0 -3.5 88.0 100.0 -110.0 1e-06 3e+05 1.2345678
arg_out: 1 buffer float[16] 1.0 1.0 2.7182817 0.36787945 inf 0.0 nan 1.6487212 22026.465 0.030197384 1.6516363e+38 inf 0.0 1.000001 inf 3.4368927 tolerance 3 ulp
arg_out: 2 buffer float[16] 1.0 1.0 2.0 0.5 inf 0.0 nan 1.4142135 1024.0 0.088388346 3.0948501e+26 1.2676506e+30 7.70372e-34 1.0000007 inf 2.3531084 tolerance 3 ulp
arg_out: 3 buffer float[16] 1.0 1.0 10.0 0.1 inf 0.0 nan 3.1622777 1e+10 0.00031622776 inf inf 0.0 1.0000023 inf 17.161995 tolerance 3 ulp
arg_out: 4 buffer float[16] 0.0 -0.0 1.7182819 -0.63212055 inf -1.0 nan 0.6487213 22025.465 -0.9698026 1.6516363e+38 inf -1.0 1.0000005e-06 inf 2.4368927 tolerance 3 ulp
arg_out: 5 buffer float[16] -inf -inf 0.0 nan inf nan nan -0.6931472 2.3025851 nan 4.477337 4.6051702 nan -13.815511 12.611538 0.21072091 tolerance 3 ulp
arg_out: 6 buffer float[16] -inf -inf 0.0 nan inf nan nan -1.0 3.321928 nan 6.4594316 6.643856 nan -19.931568 18.194603 0.304006 tolerance 3 ulp
arg_out: 7 buffer float[16] -inf -inf 0.0 nan inf nan nan -0.30103 1.0 nan 1.9444827 2.0 nan -6.0 5.4771214 0.09151493 tolerance 3 ulp
arg_out: 8 buffer float[16] 0.0 -0.0 0.6931472 -inf inf nan nan 0.4054651 2.3978953 nan 4.4886365 4.6151204 nan 9.999995e-07 12.611541 0.8040478 tolerance 2 ulp

[test]
name: vector forms: native_exp2 and log of float4, half_exp of float2
kernel_name: float_exp_log_vec
global_size: 2 1 1
arg_in:  0 buffer float4[2] 0.25 3.0 -2.0 7.5 1.0 0.1 20.0 0.001
arg_out: 1 buffer float4[2] 1.1892071 8.0 0.25 181.01933 2.0 1.0717734 1048576.0 1.0006934 tolerance 3 ulp
arg_out: 2 buffer float4[2] -1.3862944 1.0986123 nan 2.014903 0.0 -2.3025851 2.9957323 -6.9077554 tolerance 3 ulp
arg_out: 3 buffer float2[2] 1.2840254 20.085537 2.7182817 1.105171 tolerance 3 ulp
!*/

// corpus-synth: skip (dozens of float units: Yosys takes many minutes; the kernel benchmark synthesises them)

// The exponentials and logarithms built from the float units (hls-ir
// `lower/builtins/float_math`). Expected values: Python 3's `math` module in double precision
// (exp, 2.0**x, 10.0**x, expm1, log, log2, log10, log1p), rounded to the nearest float; the
// special values by the OpenCL C rules (log of a negative number is NaN, of ±0 is -inf,
// expm1(-inf) = -1, log1p(-1) = -inf); results below 2^-126 are flushed to 0 as the device does
// (exp(-110), 10^-110). Tolerances are the full profile's bounds (3 ulp, log1p 2 ulp).
kernel void float_exp_log(global const float *x, global float *e, global float *e2,
                          global float *e10, global float *em1, global float *l,
                          global float *l2, global float *l10, global float *l1p) {
  size_t i = get_global_id(0);
  float v = x[i];
  e[i] = exp(v);
  e2[i] = exp2(v);
  e10[i] = exp10(v);
  em1[i] = expm1(v);
  l[i] = log(v);
  l2[i] = log2(v);
  l10[i] = log10(v);
  l1p[i] = log1p(v);
}

kernel void float_exp_log_vec(global const float4 *x, global float4 *a, global float4 *b,
                              global float2 *c) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  a[i] = native_exp2(v);
  b[i] = log(v);
  c[i] = half_exp(v.xy);
}
