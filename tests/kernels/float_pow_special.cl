/*!
[config]
kernel_name: pow_special
dimensions: 1

[test]
name: powr and rootn special values of the OpenCL C specification
global_size: 8 1 1
arg_in:  0 buffer float[8] 0.0 -0.0 inf 1.0 1.0 -0.0 0.0 4.0
arg_in:  1 buffer float[8] 0.0 -0.0 0.0 inf nan 3.0 -2.0 0.5
arg_in:  2 buffer int[8]   -3 -3 2 3 -2 3 -2 2
arg_out: 3 buffer float[8] nan nan nan nan nan 0.0 inf 2.0 tolerance 16 ulp
arg_out: 4 buffer float[8] inf -inf inf 1.0 1.0 -0.0 inf 2.0 tolerance 16 ulp
!*/

// corpus-synth: skip (dozens of float units: Yosys takes many minutes; the kernel benchmark synthesises them)

// The special values of powr and rootn from the OpenCL C specification's tables (7.5.1),
// where C's pow differs: powr(±0, ±0), powr(+inf, ±0), powr(+1, ±inf) and powr(x, NaN) are
// NaN; powr(±0, y < 0) is +inf, powr(±0, y > 0) +0; rootn(±0, n) is ±inf for odd n < 0,
// +inf for even n < 0, ±0 for odd n > 0; rootn(+inf, n > 0) is +inf; powr(4, 0.5) and
// rootn(4, 2) are 2. The emulator followed C's pow here before session 8.
kernel void pow_special(global const float *x, global const float *y, global const int *n,
                        global float *pr, global float *rn) {
  size_t i = get_global_id(0);
  pr[i] = powr(x[i], y[i]);
  rn[i] = rootn(x[i], n[i]);
}
