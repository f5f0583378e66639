/*!
[config]
kernel_name: reduction
dimensions: 1

[test]
name: sum of each group of 8
global_size: 32 1 1
local_size: 8 1 1
arg_in:  0 buffer int[32] 63 -522 311 -398 23 -991 356 -826  -64 341 -431 -167 128 908 720 -830  449 -480 -355 552 -530 50 -409 -940  -857 153 569 -779 -180 -780 733 -405
arg_out: 1 buffer int[4] -1984 605 -1663 -1546
!*/

// A tree reduction per work-group in local memory with barriers between the levels.
// Expected values computed independently (Python).
kernel void reduction(global const int *restrict a, global int *restrict out) {
  local int tmp[8];
  int lid = get_local_id(0);
  tmp[lid] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 4; s > 0; s >>= 1) {
    if (lid < s)
      tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    out[get_group_id(0)] = tmp[0];
}
