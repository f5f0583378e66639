/*!
[config]
dimensions: 2

[test]
name: get_global_linear_id and get_local_linear_id in two dimensions
kernel_name: ids
global_size: 4 3 1
local_size: 2 3 1
arg_out: 0 buffer int[12] 0 1 2 3 4 5 6 7 8 9 10 11
arg_out: 1 buffer int[12] 0 1 0 1 2 3 2 3 4 5 4 5
!*/

// OpenCL C 6.13.1: the global linear id is (y - oy) * gx + (x - ox), the local one
// ly * lx_size + lx. Expected values by hand for a 4 x 3 range in groups of 2 x 3 (no offset):
// the element at (x, y) is y * 4 + x; its local linear id is y * 2 + x % 2.
kernel void ids(global int *g, global int *l) {
  size_t x = get_global_id(0), y = get_global_id(1);
  g[y * 4 + x] = (int)get_global_linear_id();
  l[y * 4 + x] = (int)get_local_linear_id();
}
