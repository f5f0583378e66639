/*!
[config]
kernel_name: collatz
dimensions: 1

[test]
name: Collatz steps to reach 1
global_size: 10 1 1
arg_in:  0 buffer uint[10] 1 2 3 4 5 6 7 8 27 9
arg_out: 1 buffer uint[10] 0 1 7 2 5 8 16 3 111 19
!*/

// A `while` loop whose trip count depends on the data (0 to 111 iterations per work-item).
// Expected values computed independently (Python).
kernel void collatz(global const uint *restrict x, global uint *restrict steps) {
  int i = get_global_id(0);
  uint v = x[i];
  uint s = 0;
  while (v != 1) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    s++;
  }
  steps[i] = s;
}
// kernel_bench: loop1 iterations 172
