/*!
[config]
kernel_name: compound_once
dimensions: 1

[test]
name: compound assignments through a post-incremented index evaluate it once
global_size: 2 1 1
arg_in:  0 buffer int[8] 1 2 3 4 6 7 8 9
arg_out: 1 buffer int[8] 1 12 0 8 16 4 16 9
arg_out: 2 buffer int[2] 3 2
!*/

// `v[k++] op= x` evaluates `k++` once: the element it names is loaded, updated and stored, and
// k advances by one. Work-item 0: v = 1 2 3 4, k starts at 1: v[1] = 12, v[2] = 0, v[3] = 8,
// k ends at 3. Work-item 1: v = 6 7 8 9, k starts at 0: v[0] = 16, v[1] = 4, v[2] = 16, k = 2.
kernel void compound_once(global const int *restrict in, global int *restrict out,
                          global int *restrict ks) {
  size_t i = get_global_id(0);
  int v[4];
  for (int j = 0; j < 4; j++)
    v[j] = in[4 * i + j];
  int k = in[4 * i] & 1;
  v[k++] += 10;
  v[k++] -= 3;
  v[k] *= 2;
  for (int j = 0; j < 4; j++)
    out[4 * i + j] = v[j];
  ks[i] = k;
}
