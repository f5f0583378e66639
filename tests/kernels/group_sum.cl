/*!
[config]
kernel_name: group_sum
dimensions: 1

[test]
name: one sum per work-group of 8
global_size: 32 1 1
local_size: 8 1 1
arg_in:  0 buffer int[32] iota 0 1
arg_out: 1 buffer int[4] 28 92 156 220
!*/

// The classic tree reduction in local memory: a barrier after the loads and one in every
// step of a loop. The loop's condition depends only on the group size, so it runs once per
// work-group, and each step runs the `if` for every work-item of the group. `lid` is written
// before the first barrier and read after it: it is kept per work-item in a context memory.
// Group g sums 8g .. 8g + 7: 64 g + 28.
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void group_sum(global const int *restrict in, global int *restrict out) {
  local int scratch[8];
  int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = scratch[0];
}
