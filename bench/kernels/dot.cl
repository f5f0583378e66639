/*!
[config]
kernel_name: dot
dimensions: 1

[test]
name: dot product of 16 ints
global_size: 1 1 1
arg_in:  0 buffer int[16] 29 -18 44 -5 38 44 33 17 -47 9 49 -19 33 -44 -30 -36
arg_in:  1 buffer int[16] -3 10 -19 -2 19 -37 23 -19 -49 43 -23 2 -15 -27 48 -1
arg_out: 2 buffer int[1] -749
arg_in:  3 int 16
!*/

// A dot product as one work-item with a pipelined loop over n elements: the accumulator is
// a loop-carried register and the multiply is outside the recurrence, so II = 1 (the two
// loads come from different buffers, each with its own port, so memory does not limit II).
// Expected value computed independently (Python).
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void dot(global const int *restrict a, global const int *restrict b,
                global int *restrict out, int n) {
  int acc = 0;
  for (int j = 0; j < n; j++)
    acc += a[j] * b[j];
  out[0] = acc;
}
// kernel_bench: loop1 iterations 16
