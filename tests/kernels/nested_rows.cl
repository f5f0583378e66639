/*!
[config]
kernel_name: nested_rows
dimensions: 1

[test]
name: row sums of a 3x4 block per work-item
global_size: 2 1 1
arg_in:  0 buffer int[24] iota 0 1
arg_out: 1 buffer int[6] 6 22 38 54 70 86
arg_in:  2 int 3
arg_in:  3 int 4

[test]
name: no rows
global_size: 2 1 1
arg_in:  0 buffer int[4] iota 0 1
arg_in:  1 buffer int[2] repeat 9
arg_out: 1 buffer int[2] repeat 9
arg_in:  2 int 0
arg_in:  3 int 4
!*/

// Two nested loops inside the work-item loop: the inner loop is pipelined, the outer loop
// starts it once per row and stores the row's sum. Row m (= i * rows + r) holds
// 4m .. 4m + 3, whose sum is 16 m + 6. The "no rows" test never runs the outer loop, so the
// output keeps its initial contents.
kernel void nested_rows(global const int *restrict a, global int *restrict out, int rows, int cols) {
  int i = get_global_id(0);
  for (int r = 0; r < rows; r++) {
    int s = 0;
    for (int c = 0; c < cols; c++)
      s += a[(i * rows + r) * cols + c];
    out[i * rows + r] = s;
  }
}
// kernel_bench: loop1 iterations 6
// kernel_bench: loop2 iterations 24
