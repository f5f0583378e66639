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

// A private array updated read-modify-write in a loop with a data-dependent index. Its four
// elements become registers carried by the loop (array partitioning: a private array of up
// to four elements takes a variable index): `hist[x]` reads the element the low bits of x
// select and the store updates the element x names, so there is no memory recurrence and no
// single copy of the array that would make the work-items run one at a time.
// Row 0: low bits 0 1 1 2 2 2 -> counts 1 2 3 0 -> 1 + 20 + 300 = 321.
// Row 1: low bits 3 3 3 3 3 0 -> counts 1 0 0 5 -> 1 + 5000 = 5001.
kernel void bit_histogram(global const int *restrict a, global int *restrict out, int n) {
  int i = get_global_id(0);
  int hist[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; j++)
    hist[a[i * n + j] & 3] += 1;
  out[i] = hist[0] + 10 * hist[1] + 100 * hist[2] + 1000 * hist[3];
}
