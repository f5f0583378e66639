/*!
[config]
kernel_name: saxpy_int
dimensions: 1

[test]
name: saxpy_int partial range
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] iota 0 1
arg_in:  1 buffer int[8] repeat 7
arg_out: 1 buffer int[8] 7 10 13 16 19 7 7 7
arg_in:  2 int 3
arg_in:  3 int 5

[test]
name: saxpy_int full range
global_size: 256 1 1
local_size: 32 1 1
arg_in:  0 buffer int[256] iota 0 1
arg_in:  1 buffer int[256] repeat 7
arg_out: 1 buffer int[256] iota 7 3
arg_in:  2 int 3
arg_in:  3 int 256
!*/

// y = alpha * x + y on integers, guarded by n (the guard becomes a store predicate).
kernel void saxpy_int(global const int *x, global int *y, int alpha, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = alpha * x[i] + y[i];
}
// corpus-sim sdram: --memory sdram
