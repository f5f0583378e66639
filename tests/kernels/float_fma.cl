/*!
[config]
dimensions: 1

[test]
name: fma rounds once (the product exact, its overflow cancelled by the addend), mad rounds twice
kernel_name: fma_mad
global_size: 12 1 1
arg_in:  0 buffer float[12] 0x1.0000020000000p+0 0x1.0000020000000p+0 0x1.0000000000000p+64 0x1.0000000000000p+100 0x1.8000000000000p+1 -0x1.8000000000000p+0 0x1.99999a0000000p-4 inf 0x1.79ca100000000p-67 -0.0 0x1.fffffe0000000p+23 0x1.c000000000000p+2
arg_in:  1 buffer float[12] 0x1.0000020000000p+0 0x1.fffffe0000000p-1 0x1.0000000000000p+64 0x1.0000000000000p+100 0x1.4000000000000p+2 0x1.2000000000000p+1 0x1.4000000000000p+3 0.0 0x1.79ca100000000p-67 0x1.4000000000000p+2 0x1.0000020000000p+0 -0x1.8000000000000p+1
arg_in:  2 buffer float[12] -0x1.0000040000000p+0 0.0 -0x1.fffffe0000000p+127 -0x1.fffffe0000000p+127 0x1.c000000000000p+2 0x1.79ca100000000p-67 -0x1.0000000000000p+0 0x1.0000000000000p+0 -0.0 0.0 -0x1.fffffe0000000p+23 0x1.5000000000000p+4
arg_out: 3 buffer float[12] 0x1.0000000000000p-46 0x1.0000000000000p+0 0x1.0000000000000p+104 inf 0x1.6000000000000p+4 -0x1.b000000000000p+1 0x1.0000000000000p-26 nan 0.0 0.0 0x1.fffffe0000000p+0 0.0
arg_out: 4 buffer float[12] 0.0 0x1.0000000000000p+0 inf inf 0x1.6000000000000p+4 -0x1.b000000000000p+1 0.0 nan 0.0 0.0 0x1.0000000000000p+0 0.0

[test]
name: fma of float2 lanes
kernel_name: fma_vec
global_size: 6 1 1
arg_in:  0 buffer float2[6] 0x1.0000020000000p+0 0x1.0000020000000p+0 0x1.0000000000000p+64 0x1.0000000000000p+100 0x1.8000000000000p+1 -0x1.8000000000000p+0 0x1.99999a0000000p-4 inf 0x1.79ca100000000p-67 -0.0 0x1.fffffe0000000p+23 0x1.c000000000000p+2
arg_in:  1 buffer float2[6] 0x1.0000020000000p+0 0x1.fffffe0000000p-1 0x1.0000000000000p+64 0x1.0000000000000p+100 0x1.4000000000000p+2 0x1.2000000000000p+1 0x1.4000000000000p+3 0.0 0x1.79ca100000000p-67 0x1.4000000000000p+2 0x1.0000020000000p+0 -0x1.8000000000000p+1
arg_in:  2 buffer float2[6] -0x1.0000040000000p+0 0.0 -0x1.fffffe0000000p+127 -0x1.fffffe0000000p+127 0x1.c000000000000p+2 0x1.79ca100000000p-67 -0x1.0000000000000p+0 0x1.0000000000000p+0 -0.0 0.0 -0x1.fffffe0000000p+23 0x1.5000000000000p+4
arg_out: 3 buffer float2[6] 0x1.0000000000000p-46 0x1.0000000000000p+0 0x1.0000000000000p+104 inf 0x1.6000000000000p+4 -0x1.b000000000000p+1 0x1.0000000000000p-26 nan 0.0 0.0 0x1.fffffe0000000p+0 0.0
!*/

// corpus-synth: skip (64-bit multipliers and shifters: Yosys takes minutes; the kernel benchmark synthesises them)

// Expected values: exact rational arithmetic rounded once to float (python3 fractions), and
// for mad the product rounded, then the sum.
kernel void fma_mad(global const float *a, global const float *b, global const float *c,
                    global float *f, global float *m) {
  size_t i = get_global_id(0);
  f[i] = fma(a[i], b[i], c[i]);
  m[i] = mad(a[i], b[i], c[i]);
}

kernel void fma_vec(global const float2 *a, global const float2 *b, global const float2 *c,
                    global float2 *f) {
  size_t i = get_global_id(0);
  f[i] = fma(a[i], b[i], c[i]);
}
