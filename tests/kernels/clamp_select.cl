/*!
[config]
kernel_name: clamp_select
dimensions: 1

[test]
name: clamp_select all items
global_size: 8 1 1
local_size: 8 1 1
arg_in:  0 buffer int[8] -80 -30 0 3 7 40 60 200
arg_in:  1 buffer int[8] repeat 9
arg_out: 1 buffer int[8] -50 -50 0 -6 986 50 50 50
arg_in:  2 int 8

[test]
name: clamp_select early return past n
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] -80 -30 0 3 7 40 60 200
arg_in:  1 buffer int[8] repeat 9
arg_out: 1 buffer int[8] -50 -50 0 -6 986 9 9 9
arg_in:  2 int 5
!*/

// Helper functions are inlined; `return`, `?:` and `&&` become predicates and selects.
int sat_add(int a, int b) {
  int s = a + b;
  return s > 100 ? 100 : (s < -100 ? -100 : s);
}

kernel void clamp_select(global const int *a, global int *out, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int v = a[i];
  int r = sat_add(v, v);
  if (v > 0 && (v & 1)) r = -r;
  out[i] = max(min(r, 50), -50) + select(0, 1000, v == 7);
}
