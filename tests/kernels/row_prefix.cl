/*!
[config]
kernel_name: row_prefix
dimensions: 1

[test]
name: running sums after the first element of each row
global_size: 3 1 1
arg_in:  0 buffer int[9] iota 0 1
arg_out: 1 buffer int[12] 0 0 1 3  3 0 4 9  6 0 7 15
arg_in:  2 int 3
!*/

// The work-item pipeline and the loop's pipeline both read `a` and both write `out`, so the
// two memory ports are shared: requests are arbitrated and read responses are sent back to
// the pipeline that asked. Row i of `a` is 3i, 3i+1, 3i+2; its output row is the first
// element, then the running sums minus it: 3i, 0, 3i+1, 6i+3.
kernel void row_prefix(global const int *restrict a, global int *restrict out, int n) {
  int i = get_global_id(0);
  int first = a[i * n];
  out[i * (n + 1)] = first;
  int s = 0;
  for (int j = 0; j < n; j++) {
    s += a[i * n + j];
    out[i * (n + 1) + 1 + j] = s - first;
  }
}
// kernel_bench: loop1 iterations 9

// corpus-sim hostile_memory: --stall-prob 0.7 --max-latency 40 --seed 3
