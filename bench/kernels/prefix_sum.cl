/*!
[config]
kernel_name: prefix_sum
dimensions: 1

[test]
name: inclusive prefix sum of 12 ints
global_size: 1 1 1
arg_in:  0 buffer int[12] 15 43 99 19 15 30 50 -52 -53 31 21 61
arg_out: 1 buffer int[12] 15 58 157 176 191 221 271 219 166 197 218 279
arg_in:  2 int 12
!*/

// An inclusive prefix sum as one work-item with a pipelined loop: the running sum is a
// loop-carried register and one element is stored per iteration. (A work-group version with
// local memory and barriers is the other classic form.) Expected values computed independently
// (Python).
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void prefix_sum(global const int *restrict a, global int *restrict out, int n) {
  int s = 0;
  for (int j = 0; j < n; j++) {
    s += a[j];
    out[j] = s;
  }
}
// kernel_bench: loop1 iterations 12
