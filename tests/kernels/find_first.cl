/*!
[config]
kernel_name: find_first
dimensions: 1

[test]
name: first index of the key in each row, or n
global_size: 6 1 1
arg_in:  0 buffer int[24] 5 7 9 7  1 2 3 4  7 0 0 0  0 0 0 7  7 7 7 7  3 3 3 3
arg_out: 1 buffer int[6]  1 4 0 3 0 4
arg_in:  2 int 4
arg_in:  3 int 7
!*/

// A `while` loop with an unknown trip count and a data-dependent `break`: whether another
// iteration starts depends on a load, so the loop's II is bounded by that recurrence
// (load latency + compare), and the report says so.
kernel void find_first(global const int *restrict a, global int *restrict out, int n, int key) {
  int i = get_global_id(0);
  int j = 0;
  while (j < n) {
    if (a[i * n + j] == key)
      break;
    j++;
  }
  out[i] = j;
}
// kernel_bench: loop1 iterations 16
