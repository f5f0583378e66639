/*!
[config]
kernel_name: ids_3d
dimensions: 3

[test]
name: ids_3d non-uniform groups with a global offset
global_size: 3 2 2
local_size: 2 2 1
global_offset: 10 20 30
arg_out: 0 buffer int[12] 2000 2000 1100 2001 2001 1101 2010 2010 1110 2011 2011 1111

[test]
name: ids_3d implementation-chosen local size
global_size: 3 2 2
local_size: NULL
arg_out: 0 buffer int[12] 3000 3000 3000 3001 3001 3001 3000 3000 3000 3001 3001 3001
!*/

// Three dimensions: offsets, the real size of the last (smaller) group, group and local ids.
// Expected values by hand: value = local_size(0)*1000 + group_id(0)*100 + group_id(2)*10
// + local_id(1), stored at ((z * 2) + y) * 3 + x with x, y, z counted from the offset.
kernel void ids_3d(global int *out) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t idx = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[idx] = (int)(get_local_size(0) * 1000 + get_group_id(0) * 100 + get_group_id(2) * 10
                   + get_local_id(1));
}

// corpus-sim: --seed 9
