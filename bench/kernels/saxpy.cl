/*!
[config]
name: saxpy
kernel_name: saxpy
dimensions: 1

[test]
name: saxpy over 4096 ints
global_size: 4096 1 1
local_size: 64 1 1
arg_in:  0 int 3
arg_in:  1 buffer int[4096] iota 0 1
arg_in:  2 buffer int[4096] iota 5 2
arg_out: 2 buffer int[4096] iota 5 5
!*/

// y = a * x + y on ints, one work-item per element: two read streams and one write stream
// (y is read and written). Expected values by hand: 3 * i + (5 + 2 i) = 5 + 5 i. The
// bandwidth benchmark of docs/benchmarks.md ("Bursts on the SDRAM model") runs it.
kernel void saxpy(int a, global const int *restrict x, global int *restrict y) {
  int i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
