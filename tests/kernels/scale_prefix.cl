/*!
[config]
kernel_name: scale_prefix
dimensions: 1

[test]
name: times three, then running sums
global_size: 1 1 1
arg_in:  0 buffer int[5] 1 2 3 4 5
arg_out: 1 buffer int[5] 3 9 18 30 45
arg_in:  2 int 5
!*/

// Loops over one local array. In the second loop the load and the store of `buf[j]` touch
// different elements in different iterations (the affine analysis proves it), so it runs at
// II 1; in the third, iteration j reads what iteration j - 1 wrote (distance 1).
// 1 2 3 4 5 -> 3 6 9 12 15 -> 3 9 18 30 45.
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void scale_prefix(global const int *restrict a, global int *restrict out, int n) {
  local int buf[64];
  for (int j = 0; j < n; j++)
    buf[j] = a[j];
  for (int j = 0; j < n; j++)
    buf[j] = buf[j] * 3;
  for (int j = 1; j < n; j++)
    buf[j] += buf[j - 1];
  for (int j = 0; j < n; j++)
    out[j] = buf[j];
}
