/*!
[config]
kernel_name: fir4
dimensions: 1

[test]
name: fir4 fully unrolled taps
global_size: 64 1 1
local_size: 16 1 1
arg_in:  0 buffer int[67] iota 0 1
arg_out: 1 buffer int[64] iota 20 10
!*/

// A 4-tap FIR with taps 1, 2, 3, 4, its loop fully unrolled by `#pragma unroll`. With
// x[j] = j: y[i] = sum_k (i + k) * (k + 1) = 10 i + 20 (by hand). The four reads of x share
// one read port, so the modulo schedule needs II = 4.
#define TAPS 4
kernel void fir4(global const int *x, global int *y) {
  size_t i = get_global_id(0);
  int acc = 0;
  #pragma unroll
  for (int k = 0; k < TAPS; k++)
    acc += x[i + k] * (k + 1);
  y[i] = acc;
}

// corpus-sim: --seed 17
