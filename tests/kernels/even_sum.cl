/*!
[config]
kernel_name: even_sum
dimensions: 1

[test]
name: 2 + 4 + 6 plus the work-item id
global_size: 4 1 1
arg_out: 0 buffer int[4] 12 13 14 15
arg_in:  1 int 6

[test]
name: a do-while body runs once even when the condition is false
global_size: 4 1 1
arg_out: 0 buffer int[4] 0 1 2 3
arg_in:  1 int 0
!*/

// `do ... while` with `continue`: the body runs at least once; `continue` skips the rest of
// the body but still evaluates the condition. For n = 6, k runs 1..6 and the even values
// 2 + 4 + 6 = 12 are summed; for n = 0 the single iteration has k = 1 (odd).
kernel void even_sum(global int *out, int n) {
  int i = get_global_id(0);
  int k = 0;
  int s = 0;
  do {
    k++;
    if (k & 1)
      continue;
    s += k;
  } while (k < n);
  out[i] = s + i;
}
// kernel_bench: loop1 iterations 24
