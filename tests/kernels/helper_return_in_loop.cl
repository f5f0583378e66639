/*!
[config]
kernel_name: helper_return_in_loop
dimensions: 1

[test]
name: helpers that return a value from inside loops
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] 3 9 4 9 12 0 7 5
arg_in:  1 buffer int[8] 9 5 6 13 -2 30 0 3
arg_out: 2 buffer int[8] 1 7 -1 -1 -1 -1 5 0
arg_out: 3 buffer int2[8] 1 10   1 9   1 9   -1 0   0 3   -1 0   0 3   0 4
arg_out: 4 buffer int[8] 36 20 24 52 0 100 0 12
!*/

// A `return` with a value inside a loop of a helper: the value returned so far is carried
// through the loop like a variable (and the `returned` flag ends the helper's iterations).
// Expected values computed with a Python transcription of the three helpers:
//   find: the first index of the key in a, else -1;
//   first_above: the first (i, a[i] + j), j = 0, 1, above t, from the inner loop of a nest;
//   clamp_sum: an early return before the loop, then 4 additions that stop at 100.
typedef struct {
  int idx;
  int val;
} Hit;

int find(global const int *a, int n, int key) {
  for (int i = 0; i < n; i++) {
    if (a[i] == key)
      return i;
  }
  return -1;
}

Hit first_above(global const int *a, int n, int t) {
  Hit h = {-1, 0};
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 2; j++) {
      int v = a[i] + j;
      if (v > t) {
        h.idx = i;
        h.val = v;
        return h;
      }
    }
  }
  return h;
}

int clamp_sum(int x) {
  if (x < 0)
    return 0;
  int s = 0;
  for (int i = 0; i < 4; i++) {
    s += x;
    if (s > 100)
      return 100;
  }
  return s;
}

kernel void helper_return_in_loop(global const int *a, global const int *keys, global int *pos,
                                  global int2 *above, global int *cs) {
  int g = get_global_id(0);
  pos[g] = find(a, 8, keys[g]);
  Hit h = first_above(a, 8, keys[g]);
  above[g] = (int2)(h.idx, h.val);
  cs[g] = clamp_sum(keys[g]);
}
