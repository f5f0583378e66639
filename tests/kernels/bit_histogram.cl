/*!
[config]
kernel_name: bit_histogram
dimensions: 1

[test]
name: histogram of the low two bits of each row
global_size: 2 1 1
arg_in:  0 buffer int[12] 0 1 1 2 2 2  3 3 3 3 7 4
arg_out: 1 buffer int[2] 321 5001
arg_in:  2 int 6
!*/

// A private array updated read-modify-write in a loop: it becomes an on-chip memory with one
// read and one write port. The load of `hist[x]` in one iteration must see the store of the
// previous iteration, so the loop's II is bounded by that memory recurrence (load 1 cycle,
// add, store). The array belongs to one work-item, so work-items run one at a time.
// Row 0: low bits 0 1 1 2 2 2 -> counts 1 2 3 0 -> 1 + 20 + 300 = 321.
// Row 1: low bits 3 3 3 3 3 0 -> counts 1 0 0 5 -> 1 + 5000 = 5001.
kernel void bit_histogram(global const int *restrict a, global int *restrict out, int n) {
  int i = get_global_id(0);
  int hist[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; j++)
    hist[a[i * n + j] & 3] += 1;
  out[i] = hist[0] + 10 * hist[1] + 100 * hist[2] + 1000 * hist[3];
}
