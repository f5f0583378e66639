/*!
[config]
dimensions: 1

[test]
name: tgamma and lgamma_r with the special values, the poles and the reflection
kernel_name: gamma_k
global_size: 26 1 1
arg_in:  0 buffer float[26] 0x1.0000000000000p-1 0x1.0000000000000p+0 0x1.8000000000000p+0 0x1.0000000000000p+1 0x1.d9999a0000000p+1 0x1.4000000000000p+2 0x1.4000000000000p+3 0x1.4400000000000p+4 0x1.1400000000000p+5 0x1.1c00000000000p+5 0x1.4484c00000000p-100 -0x1.0000000000000p-1 -0x1.8000000000000p+0 -0x1.4000000000000p+1 -0x1.e400000000000p+4 0.0 -0.0 -0x1.0000000000000p+0 -0x1.8000000000000p+1 -inf inf nan -0x1.4484c00000000p-100 0x1.ff5c280000000p+2 0x1.0000000000000p+3 0x1.0000000000000p-3
arg_out: 1 buffer float[26] 0x1.c5bf8a0000000p+0 0x1.0000000000000p+0 0x1.c5bf8a0000000p-1 0x1.0000000000000p+0 0x1.0aebf60000000p+2 0x1.8000000000000p+4 0x1.6260000000000p+18 0x1.c6d1920000000p+57 0x1.2f9cb00000000p+125 inf 0x1.93e5940000000p+99 -0x1.c5bf8a0000000p+1 0x1.2e7fb00000000p+1 -0x1.e3ff820000000p-1 -0x1.27c10c0000000p-107 inf -inf nan nan nan inf nan -0x1.93e5940000000p+99 0x1.34b75a0000000p+12 0x1.3b00000000000p+12 0x1.e22c1a0000000p+2 tolerance 16 ulp
arg_out: 2 buffer float[26] 0x1.250d040000000p-1 0.0 -0x1.eeb95c0000000p-4 0.0 0x1.6d96260000000p+0 0x1.96ca780000000p+1 0x1.99a8920000000p+3 0x1.40ac420000000p+5 0x1.5b41820000000p+6 0x1.696b720000000p+6 0x1.144f6a0000000p+6 0x1.43f89a0000000p+0 0x1.b858160000000p-1 -0x1.ccbfa00000000p-5 -0x1.2816f00000000p+6 inf inf inf inf inf inf nan 0x1.144f6a0000000p+6 0x1.10290e0000000p+3 0x1.10ce200000000p+3 0x1.027c4c0000000p+1 tolerance 0.0001
arg_out: 3 buffer int[26] 1 1 1 1 1 1 1 1 1 1 1 -1 1 -1 -1 1 -1 0 0 0 1 0 -1 1 1 1

!*/

// corpus-synth: skip (hundreds of float operations per function: Yosys takes many minutes; the kernel benchmark synthesises them)

// `tgamma`, `lgamma` and `lgamma_r` (hls-ir `lower/builtins/float_math/gamma.rs`). Expected
// values: python3 `math.gamma` and `math.lgamma` in double precision, rounded to the nearest
// float with `struct`; C99's special values (tgamma: ±inf at ±0, NaN at the negative integers
// and -inf; lgamma: +inf at the poles and infinities); lgamma_r's sign as the emulator gives it
// (0 at the poles, -inf and NaN). lgamma has no ulp bound in the spec: its values are checked
// to 1e-4 (under 5 ulp at 88).
//
// `lgamma` is `lgamma_r` without the sign (the same lowering): the IR interpreter checks it on
// a million inputs (`examples/float_math_ulp.rs`), and one kernel keeps the model's build time
// (about three minutes) within the corpus's budget.
kernel void gamma_k(global const float *x, global float *t, global float *lr, global int *s) {
  size_t i = get_global_id(0);
  int sg;
  t[i] = tgamma(x[i]);
  lr[i] = lgamma_r(x[i], &sg);
  s[i] = sg;
}
