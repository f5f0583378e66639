/*!
[config]
kernel_name: local_arg_sum
dimensions: 1

[test]
name: the scratch space of the tree reduction as a local pointer argument
global_size: 48 1 1
local_size: 16 1 1
arg_in:  0 buffer int[48] iota 0 1
arg_out: 1 buffer int[3] 120 376 632
arg_in:  2 local int[16]

!*/

// `local int *scratch` is sized by the host at launch (OpenCL); in hardware it is an on-chip
// memory of `local_mem_size` bytes (here 64: 16 ints), and `oclhls sim` refuses a launch
// that asks for more. Group g sums 16g .. 16g + 15: 256 g + 120.
kernel void local_arg_sum(global const int *restrict in, global int *restrict out,
                          local int *scratch __attribute__((local_mem_size(64)))) {
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
