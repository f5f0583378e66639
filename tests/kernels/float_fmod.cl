/*!
[config]
dimensions: 1

[test]
name: fmod and remainder, exact, with ties to even, zeros, infinities, NaN and the largest float
kernel_name: fmod_k
global_size: 14 1 1
arg_in:  0 buffer float[14] 0x1.6000000000000p+2 -0x1.6000000000000p+2 0x1.c000000000000p+2 0x1.93e5940000000p+99 0x1.8000000000000p+1 0x1.4000000000000p+1 -0.0 0x1.0000000000000p+0 inf 0x1.0000000000000p+2 0x1.4484c00000000p-100 0x1.4000000000000p+3 0x1.fffffe0000000p+127 0x1.c000000000000p+1
arg_in:  1 buffer float[14] 0x1.0000000000000p+1 0x1.0000000000000p+1 -0x1.8000000000000p+1 0x1.8000000000000p+1 0.0 0x1.0000000000000p+0 0x1.0000000000000p+0 inf 0x1.0000000000000p+1 nan 0x1.856c1a0000000p-102 0x1.0000000000000p+2 0x1.8000000000000p+0 0x1.0000000000000p+0
arg_out: 2 buffer float[14] 0x1.8000000000000p+0 -0x1.8000000000000p+0 0x1.0000000000000p+0 0.0 nan 0x1.0000000000000p-1 -0.0 0x1.0000000000000p+0 nan nan 0x1.039d640000000p-103 0x1.0000000000000p+1 0.0 0x1.0000000000000p-1
arg_out: 3 buffer float[14] -0x1.0000000000000p-1 0x1.0000000000000p-1 0x1.0000000000000p+0 0.0 nan 0x1.0000000000000p-1 -0.0 0x1.0000000000000p+0 nan nan 0x1.039d640000000p-103 0x1.0000000000000p+1 0.0 -0x1.0000000000000p-1
!*/

// corpus-synth: skip (a restoring division of 253 steps per function: Yosys takes many minutes; the kernel benchmark synthesises them)

// `fmod` and `remainder` (hls-ir `lower/builtins/float_math/exact.rs`): exact, so compared bit
// for bit. Expected values: python3's `math.fmod` and `math.remainder` (exact in double
// precision on float operands), and C99's special values: NaN for a zero divisor, an infinite
// dividend or a NaN; `x` itself for an infinite divisor. `remainder(2.5, 1)` and
// `remainder(3.5, 1)` are ties: the quotient is the even one (2, 4), so 0.5 and -0.5.
kernel void fmod_k(global const float *x, global const float *y, global float *f,
                   global float *r) {
  size_t i = get_global_id(0);
  f[i] = fmod(x[i], y[i]);
  r[i] = remainder(x[i], y[i]);
}
