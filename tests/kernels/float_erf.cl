/*!
[config]
dimensions: 1

[test]
name: erf and erfc with the special values and the tail of erfc
kernel_name: erf_k
global_size: 16 1 1
arg_in:  0 buffer float[16] 0.0 -0.0 0x1.0000000000000p-1 -0x1.0000000000000p-1 0x1.0000000000000p+0 -0x1.0000000000000p+0 0x1.3333340000000p-2 -0x1.19999a0000000p+1 0x1.d9999a0000000p+1 -0x1.2000000000000p+2 0x1.2000000000000p+3 0x1.79ca100000000p-67 inf -inf nan 0x1.8000000000000p+3
arg_out: 1 buffer float[16] 0.0 -0.0 0x1.0a7ef60000000p-1 -0x1.0a7ef60000000p-1 0x1.af767a0000000p-1 -0x1.af767a0000000p-1 0x1.50838a0000000p-2 -0x1.ff0bd60000000p-1 0x1.fffffa0000000p-1 -0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.aa4a220000000p-67 0x1.0000000000000p+0 -0x1.0000000000000p+0 nan 0x1.0000000000000p+0 tolerance 16 ulp
arg_out: 2 buffer float[16] 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.eb02140000000p-2 0x1.853f7a0000000p+0 0x1.4226160000000p-3 0x1.d7bb3e0000000p+0 0x1.57be3c0000000p-1 0x1.ff85ea0000000p+0 0x1.66f43c0000000p-23 0x1.0000000000000p+1 0x1.198d420000000p-121 0x1.0000000000000p+0 0.0 0x1.0000000000000p+1 nan 0.0 tolerance 16 ulp

[test]
name: erf and erfc of float4
kernel_name: erf_v
global_size: 4 1 1
arg_in:  0 buffer float4[4] 0.0 -0.0 0x1.0000000000000p-1 -0x1.0000000000000p-1 0x1.0000000000000p+0 -0x1.0000000000000p+0 0x1.3333340000000p-2 -0x1.19999a0000000p+1 0x1.d9999a0000000p+1 -0x1.2000000000000p+2 0x1.2000000000000p+3 0x1.79ca100000000p-67 inf -inf nan 0x1.8000000000000p+3
arg_out: 1 buffer float4[4] 0.0 -0.0 0x1.0a7ef60000000p-1 -0x1.0a7ef60000000p-1 0x1.af767a0000000p-1 -0x1.af767a0000000p-1 0x1.50838a0000000p-2 -0x1.ff0bd60000000p-1 0x1.fffffa0000000p-1 -0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.aa4a220000000p-67 0x1.0000000000000p+0 -0x1.0000000000000p+0 nan 0x1.0000000000000p+0 tolerance 16 ulp
arg_out: 2 buffer float4[4] 0x1.0000000000000p+0 0x1.0000000000000p+0 0x1.eb02140000000p-2 0x1.853f7a0000000p+0 0x1.4226160000000p-3 0x1.d7bb3e0000000p+0 0x1.57be3c0000000p-1 0x1.ff85ea0000000p+0 0x1.66f43c0000000p-23 0x1.0000000000000p+1 0x1.198d420000000p-121 0x1.0000000000000p+0 0.0 0x1.0000000000000p+1 nan 0.0 tolerance 16 ulp
!*/

// corpus-synth: skip (dozens of float units per function: Yosys takes many minutes; the kernel benchmark synthesises them)

// `erf` and `erfc` (hls-ir `lower/builtins/float_math/erf.rs`). Expected values: python3
// `math.erf` and `math.erfc` in double precision, rounded to the nearest float with `struct`.
kernel void erf_k(global const float *x, global float *e, global float *c) {
  size_t i = get_global_id(0);
  e[i] = erf(x[i]);
  c[i] = erfc(x[i]);
}

kernel void erf_v(global const float4 *x, global float4 *e, global float4 *c) {
  size_t i = get_global_id(0);
  e[i] = erf(x[i]);
  c[i] = erfc(x[i]);
}
