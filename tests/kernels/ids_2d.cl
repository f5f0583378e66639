/*!
[config]
kernel_name: ids_2d
dimensions: 2

[test]
name: ids_2d uniform 4x4 in 2x2 groups
global_size: 4 4 1
local_size: 2 2 1
arg_out: 0 buffer int[16] 0 10 1000 1010 1 11 1001 1011 100 110 1100 1110 101 111 1101 1111

[test]
name: ids_2d non-uniform 3x3 in 2x2 groups
global_size: 3 3 1
local_size: 2 2 1
arg_out: 0 buffer int[9] 0 10 1000 1 11 1001 100 110 1100
!*/

// Work-item functions in two dimensions, including the smaller last groups of a
// non-uniform launch.
kernel void ids_2d(global int *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0);
  out[y * w + x] = (int)(get_group_id(0) * 1000 + get_group_id(1) * 100
                         + get_local_id(0) * 10 + get_local_id(1));
}

// corpus-sim: --seed 3
