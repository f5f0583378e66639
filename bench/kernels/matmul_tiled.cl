/*!
[config]
kernel_name: matmul_tiled
dimensions: 2

[test]
name: 4x4 product in 2x2 tiles
global_size: 4 4 1
local_size: 2 2 1
arg_in:  0 buffer int[16] -1 9 0 -9  -3 -4 3 9  -6 -8 -5 -3  5 -1 -9 1
arg_in:  1 buffer int[16] 0 3 -7 -7  -7 -3 9 -2  -9 2 2 5  -5 9 6 9
arg_out: 2 buffer int[16] -18 -111 34 -92  -44 90 45 125  116 -31 -58 6  83 9 -56 -69
!*/

// C = A B for 4x4 matrices with 2x2 tiles of A and B staged in local memory, with barriers
// around each tile step. Expected values computed independently (Python).
#define N 4
#define T 2
kernel void matmul_tiled(global const int *restrict a, global const int *restrict b,
                         global int *restrict c) {
  local int ta[T][T];
  local int tb[T][T];
  int col = get_global_id(0);
  int row = get_global_id(1);
  int lx = get_local_id(0);
  int ly = get_local_id(1);
  int acc = 0;
  for (int t = 0; t < N / T; t++) {
    ta[ly][lx] = a[row * N + t * T + lx];
    tb[ly][lx] = b[(t * T + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; k++)
      acc += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * N + col] = acc;
}
