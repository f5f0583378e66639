/*!
[config]
name: 1-2-1 stencil
kernel_name: stencil121
dimensions: 1

[test]
name: 1-2-1 stencil over 4096 points
global_size: 4096 1 1
local_size: 64 1 1
arg_in:  0 buffer int[4098] iota 0 1
arg_out: 1 buffer int[4096] iota 4 4
!*/

// A 1-D 3-point stencil, out[i] = in[i] + 2 in[i+1] + in[i+2]: three read streams of one
// buffer (one port) and a write stream. Expected values by hand: i + 2 (i + 1) + (i + 2) =
// 4 + 4 i. The bandwidth benchmark of docs/benchmarks.md ("Bursts on the SDRAM model") runs it.
kernel void stencil121(global const int *restrict in, global int *restrict out) {
  int i = get_global_id(0);
  out[i] = in[i] + 2 * in[i + 1] + in[i + 2];
}
