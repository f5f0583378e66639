/*!
[config]
kernel_name: reverse_local
dimensions: 1

[test]
name: reverse five values through a local array
global_size: 1 1 1
arg_in:  0 buffer int[5] 10 20 30 40 50
arg_out: 1 buffer int[5] 50 40 30 20 10
arg_in:  2 int 5
!*/

// A single-work-item kernel (the FPGA style): a `local` array filled by one pipelined loop
// and read backwards by the next. The second loop starts only after the first has finished,
// because its loads must see the first loop's stores.
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void reverse_local(global const int *restrict a, global int *restrict out, int n) {
  local int buf[64];
  for (int j = 0; j < n; j++)
    buf[j] = a[j];
  for (int j = 0; j < n; j++)
    out[j] = buf[n - 1 - j];
}
