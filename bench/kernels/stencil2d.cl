/*!
[config]
kernel_name: stencil2d
dimensions: 2

[test]
name: 5-point Laplacian of a 6x6 grid
global_size: 4 4 1
local_size: 4 4 1
arg_in:  0 buffer int[36] 39 50 11 6 28 19  9 5 34 44 40 2  38 25 28 41 47 39  41 10 39 0 33 4  3 2 12 15 38 1  49 29 20 28 37 12
arg_out: 1 buffer int[16] -98 48 55 39  19 -27 45 35  -67 106 -128 43  -46 -28 -18 66
!*/

// A 2-D 5-point stencil over the interior of a 6x6 grid, one work-item per output point:
// out = 4 c - n - s - e - w. The five reads of `g` share its read port, so II = 5 (limited
// by memory ports; a version that keeps rows in local memory would reach II = 1). Expected
// values computed independently (Python).
kernel void stencil2d(global const int *restrict g, global int *restrict out) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  int c = (y + 1) * 6 + x + 1;
  out[y * 4 + x] = 4 * g[c] - g[c - 6] - g[c + 6] - g[c - 1] - g[c + 1];
}
