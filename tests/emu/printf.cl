/*!
[config]
name: printf

[test]
name: formatted output of two work-items
kernel_name: show
dimensions: 1
global_size: 2 1 1
local_size: 2 1 1
arg_in:  0 buffer int[2] -7 255
arg_out: 1 buffer int[2] 0 0
!*/

// The output is captured and shown by `oclhls emu` (tests/emu.rs checks the lines); printf
// returns 0 on success.
kernel void show(global const int *a, global int *ret) {
  int i = get_global_id(0);
  float4 v = (float4)(0.5f, -1.25f, 100.0f, 3.0f);
  ret[i] = printf("item %d: %5d %#x %s %.2f %v4g\n", i, a[i], a[i], "ok", 2.5f * i, v);
}
