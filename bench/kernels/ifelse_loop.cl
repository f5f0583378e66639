/*!
[config]
kernel_name: ifelse_loop
dimensions: 1

[test]
name: odd elements add 3x, even ones subtract half
global_size: 4 1 1
arg_in:  0 buffer int[32] 20 97 9 17 79 79 56 16  16 0 0 26 99 27 21 21  37 40 25 69 86 80 26 23  88 25 49 38 2 46 53 21
arg_out: 1 buffer int[4] 797 483 346 357
!*/

// An if/else inside a pipelined loop (constant trip count 8, not unrolled): both arms are
// computed and a select picks the new accumulator (if-conversion). Expected values computed
// independently (Python).
kernel void ifelse_loop(global const int *restrict x, global int *restrict out) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < 8; j++) {
    int v = x[i * 8 + j];
    if (v & 1)
      acc += 3 * v;
    else
      acc -= v >> 1;
  }
  out[i] = acc;
}
