/*!
[config]
kernel_name: rotate_group
dimensions: 1

[test]
name: each work-item reads its right neighbour in the group
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] iota 0 1
arg_out: 1 buffer int[8] 10 21 32 3  50 61 72 43
!*/

// Work-items exchange values through local memory across a barrier: out = 10 * (the
// next work-item's input, wrapping within the group of 4) + local id.
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void rotate_group(global const int *restrict in, global int *restrict out) {
  local int tile[4];
  int lid = get_local_id(0);
  tile[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(lid + 1) & 3] * 10 + lid;
}
