/*!
[config]
dimensions: 1

[test]
name: float add, sub, mul, div, sqrt, compares, conversions, fmin, fmax and fabs, element by element
kernel_name: float_arith
global_size: 6 1 1
arg_in:  0 buffer float[6] 1.5 -2.25 3.0 0.0 1e20 -7.75
arg_in:  1 buffer float[6] 2.5 0.25 3.0 -0.0 1e20 nan
arg_in:  2 buffer int[6]   3 -5 16777217 0 7 -1
arg_in:  3 buffer float[6] 1.75 -2.5 1e9 -0.9 2147483520.0 -7.0
arg_out: 4 buffer float[6] 4.0 -2.0 6.0 0.0 2e20 nan
arg_out: 5 buffer float[6] -1.0 -2.5 0.0 0.0 0.0 nan
arg_out: 6 buffer float[6] 3.75 -0.5625 9.0 -0.0 inf nan
arg_out: 7 buffer int[6]   9 9 6 6 6 8
arg_out: 8 buffer int[6]   1 -2 1000000000 0 2147483520 -7
arg_out: 9 buffer float[6] 1.5 -2.5 8388608.0 0.0 3.5 -0.5
arg_out: 10 buffer float[6] 1.5 -2.25 3.0 0.0 1e20 -7.75
arg_out: 11 buffer float[6] 1.5 0.25 3.0 0.0 1e20 7.75
arg_out: 12 buffer float[6] 0.6 -9.0 1.0 nan 1.0 nan
arg_out: 13 buffer float[6] 1.2247449 nan 1.7320508 0.0 1e10 nan

[test]
name: a float dot product per work-item, the sum carried through the adder
kernel_name: float_dot
global_size: 2 1 1
arg_in:  0 buffer float[8] iota 1 1
arg_in:  1 buffer float[8] repeat 0.5
arg_out: 2 buffer float[2] 5.0 13.0
arg_in:  3 int 4
!*/

// Single-precision arithmetic on the float units. Expected values by hand, all exactly
// representable (no rounding questions): 1e20 + 1e20 is the float nearest 2e20, 1e20 * 1e20
// overflows to inf, (float)16777217 rounds to even (16777216), 0 + -0 = 0, 0 * -0 = -0, NaN
// compares unordered (only != holds: flags = 8), fmin/fmax return the non-NaN operand.
// flags = (x < y) | (x == y) << 1 | (x >= y) << 2 | (x != y) << 3; (int) truncates toward zero.
// quot = x / y (correctly rounded: 1.5 / 2.5 is the float nearest 0.6, 0 / -0 is NaN), root =
// sqrt(x) (nearest floats to sqrt(1.5) and sqrt(3); sqrt(-2.25) is NaN; sqrt(1e20) = 1e10).
kernel void float_arith(global const float *restrict a, global const float *restrict b,
                        global const int *restrict n,
                        global const float *restrict c, global float *sum, global float *diff,
                        global float *prod, global int *flags, global int *trunc,
                        global float *conv, global float *lo, global float *hi,
                        global float *quot, global float *root) {
  size_t i = get_global_id(0);
  float x = a[i], y = b[i];
  sum[i] = x + y;
  diff[i] = x - y;
  prod[i] = x * y;
  flags[i] = (x < y) | ((x == y) << 1) | ((x >= y) << 2) | ((x != y) << 3);
  trunc[i] = (int)c[i];
  conv[i] = (float)n[i] * 0.5f;
  lo[i] = fmin(x, y);
  hi[i] = fabs(fmax(x, -y));
  quot[i] = x / y;
  root[i] = sqrt(x);
}

// out[i] = sum over j < n of a[i n + j] * b[i n + j]: 0.5 (1 + 2 + 3 + 4) = 5 and
// 0.5 (5 + 6 + 7 + 8) = 13. The accumulation is a loop-carried dependence through the float
// adder, so the loop's II is the adder's latency.
kernel void float_dot(global const float *a, global const float *b, global float *out, int n) {
  size_t i = get_global_id(0);
  float acc = 0.0f;
  for (int j = 0; j < n; j++)
    acc += a[i * n + j] * b[i * n + j];
  out[i] = acc;
}
