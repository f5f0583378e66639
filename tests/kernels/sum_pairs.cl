/*!
[config]
kernel_name: sum_pairs
dimensions: 1

[test]
name: sum_pairs shares one read port between two loads (II 2)
global_size: 128 1 1
local_size: 16 1 1
arg_in:  0 buffer int[256] iota 0 1
arg_out: 1 buffer int[128] iota 1 4
!*/

// Two reads through one pointer share its read port: the modulo schedule needs II = 2.
kernel void sum_pairs(global const int *a, global int *out) {
  size_t i = get_global_id(0);
  out[i] = a[2 * i] + a[2 * i + 1];
}

// corpus-sim: --seed 5
