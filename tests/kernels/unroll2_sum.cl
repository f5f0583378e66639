/*!
[config]
kernel_name: unroll2_sum
dimensions: 1

[test]
name: sums of 5 and 4 elements (odd and even trip counts)
global_size: 2 1 1
arg_in:  0 buffer int[10] 1 2 3 4 5  10 20 30 40 0
arg_in:  1 buffer int[2] 5 4
arg_out: 2 buffer int[2] 15 100

[test]
name: no elements
global_size: 1 1 1
arg_in:  0 buffer int[1] 7
arg_in:  1 buffer int[1] 0
arg_out: 2 buffer int[1] 0
!*/

// `#pragma unroll 2` on a loop with a run-time trip count: two iterations per pipelined
// iteration, the second one masked when the first ended the loop (odd counts).
kernel void unroll2_sum(global const int *restrict a, global const int *restrict len,
                        global int *restrict out) {
  int i = get_global_id(0);
  int n = len[i];
  int acc = 0;
#pragma unroll 2
  for (int j = 0; j < n; j++)
    acc += a[i * 5 + j];
  out[i] = acc;
}
