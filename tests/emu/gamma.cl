/*!
[config]
name: tgamma, lgamma and lgamma_r on the emulator (not built in hardware yet)
dimensions: 1

[test]
name: tgamma, lgamma, lgamma_r with poles, overflow and the sign through a private pointer
kernel_name: gamma
global_size: 16 1 1
arg_in:  0 buffer float[16] 0x1.0000000000000p-1 0x1.4000000000000p+2 -0x1.4000000000000p+1 0.0 -0.0 -0x1.8000000000000p+1 0x1.0000000000000p+0 0x1.49999a0000000p+3 0x1.1800000000000p+5 0x1.2000000000000p+5 0x1.0624de0000000p-10 -0x1.5666660000000p+3 inf -inf nan 0x1.0000000000000p+1
arg_out: 1 buffer float[16] 0x1.c5bf8a0000000p+0 0x1.8000000000000p+4 -0x1.e3ff820000000p-1 inf -inf nan 0x1.0000000000000p+0 0x1.5dd1e00000000p+19 0x1.bc378a0000000p+127 inf 0x1.f3b63c0000000p+9 -0x1.b103f80000000p-23 inf nan nan 0x1.0000000000000p+0 tolerance 16 ulp
arg_out: 2 buffer float[16] 0x1.250d040000000p-1 0x1.96ca780000000p+1 -0x1.ccbfa00000000p-5 inf inf inf 0.0 0x1.af6cda0000000p+3 0x1.6252c40000000p+6 0x1.708b720000000p+6 0x1.ba0f380000000p+2 -0x1.ed56560000000p+3 inf inf nan 0.0 tolerance 4 ulp
arg_out: 3 buffer int[16] 1 1 -1 1 -1 0 1 1 1 1 1 -1 1 0 0 1
arg_out: 4 buffer float[16] 0x1.250d040000000p-1 0x1.96ca780000000p+1 -0x1.ccbfa00000000p-5 inf inf inf 0.0 0x1.af6cda0000000p+3 0x1.6252c40000000p+6 0x1.708b720000000p+6 0x1.ba0f380000000p+2 -0x1.ed56560000000p+3 inf inf nan 0.0 tolerance 4 ulp
!*/

// Expected values: python3 `math.gamma` and `math.lgamma` in double precision, rounded to the
// nearest float with `struct`; the special values of C99 Annex F (tgamma: ±inf at ±0, NaN at
// the negative integers and -inf; lgamma: +inf at the poles and infinities), the sign of
// Gamma(x) for lgamma_r (1 at +0 and +inf, -1 at -0, 0 at the poles, -inf and NaN).
kernel void gamma(global const float *x, global float *t, global float *l, global int *s,
                  global float *l2) {
  size_t i = get_global_id(0);
  t[i] = tgamma(x[i]);
  int sv;
  l[i] = lgamma_r(x[i], &sv);
  s[i] = sv;
  l2[i] = lgamma(x[i]);
}
