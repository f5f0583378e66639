/*!
[config]
kernel_name: rowsum
dimensions: 1

[test]
name: five columns
global_size: 8 1 1
arg_in:  0 buffer int[40] iota 0 1
arg_out: 1 buffer int[8] iota 10 25
arg_in:  2 int 5

[test]
name: zero columns leaves the sum at 0
global_size: 4 1 1
arg_in:  0 buffer int[4] iota 0 1
arg_out: 1 buffer int[4] repeat 0
arg_in:  2 int 0

[test]
name: one column
global_size: 4 1 1
arg_in:  0 buffer int[4] iota 3 2
arg_out: 1 buffer int[4] iota 3 2
arg_in:  2 int 1
!*/
// out[i] = a[i*n] + ... + a[i*n + n-1]: with a = 0, 1, 2, ... that is 25 i + 10 for n = 5.
// The loop is pipelined at II 1: the accumulator is a loop-carried register.
kernel void rowsum(global const int *restrict a, global int *restrict out, int n) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; j++) {
    acc += a[i * n + j];
  }
  out[i] = acc;
}
// kernel_bench: loop1 iterations 40

// corpus-sim hostile_memory: --stall-prob 0.6 --max-latency 30 --seed 7
