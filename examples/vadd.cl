/*!
[config]
name: vadd
kernel_name: vadd
dimensions: 1

[test]
name: vadd 1024 items in groups of 64
global_size: 1024 1 1
local_size: 64 1 1
arg_in:  0 buffer int[1024] iota 0 1
arg_in:  1 buffer int[1024] iota 1000 3
arg_out: 2 buffer int[1024] iota 1000 4

[test]
name: vadd wraps around like OpenCL int
global_size: 4 1 1
local_size: 4 1 1
arg_in:  0 buffer int[4] 2147483647 -2147483648 -1 0
arg_in:  1 buffer int[4] 1 -1 -1 0
arg_out: 2 buffer int[4] -2147483648 2147483647 -2 0

[test]
name: vadd non-uniform work-groups
global_size: 100 1 1
local_size: 16 1 1
arg_in:  0 buffer int[100] repeat 5
arg_in:  1 buffer int[100] iota 0 1
arg_out: 2 buffer int[100] iota 5 1
!*/

// Element-wise sum of two vectors: one work-item per element.
kernel void vadd(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// corpus-sim hostile_memory: --stall-prob 0.7 --max-latency 40 --seed 11
// corpus-sim ideal_memory: --ideal-memory
