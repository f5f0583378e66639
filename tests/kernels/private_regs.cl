/*!
[config]
dimensions: 1

[test]
name: sort4 a private array sorted by compare-and-swap with constant indices
kernel_name: sort4
global_size: 3 1 1
local_size: 3 1 1
arg_in:  0 buffer int4[3] 5 -2 9 0   1 1 -7 3   8 6 4 2
arg_out: 1 buffer int4[3] -2 0 5 9   -7 1 1 3   2 4 6 8

[test]
name: window4 a private shift register carried by a loop
kernel_name: window4
global_size: 2 1 1
local_size: 2 1 1
arg_in:  0 buffer int[10] 1 2 3 4 5   10 -1 0 7 2
arg_out: 1 buffer int[10] 1 4 10 20 30   10 19 28 44 12
arg_in:  2 int 5
!*/

// Private arrays whose every index is a constant once the `#pragma unroll` loops are unrolled:
// the array-partitioning pass turns their elements into plain values (registers), so no
// on-chip memory serialises the work-items.
//
// sort4: each work-item sorts its four values with a bubble sort (compare and swap of
// neighbours, three passes). By hand: (5,-2,9,0) -> (-2,0,5,9); (1,1,-7,3) -> (-7,1,1,3);
// (8,6,4,2) -> (2,4,6,8).
kernel void sort4(global const int4 *restrict in, global int4 *restrict out) {
  size_t i = get_global_id(0);
  int4 x = in[i];
  int v[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
  for (int p = 0; p < 3; p++) {
#pragma unroll
    for (int k = 0; k < 3 - p; k++) {
      if (v[k] > v[k + 1]) {
        int t = v[k];
        v[k] = v[k + 1];
        v[k + 1] = t;
      }
    }
  }
  out[i] = (int4)(v[0], v[1], v[2], v[3]);
}

// window4: a 4-tap filter over each work-item's row of n samples; the window w (newest
// sample in w[0]) lives across the iterations of the row loop, so its elements become values
// carried from one iteration to the next. y = w0 + 2 w1 + 3 w2 + 4 w3, the window starting
// at zeros. By hand, row 1 2 3 4 5: 1, 1+2*... = 1 4 10 20 30; row 10 -1 0 7 2:
// 10, -1+20 = 19, 0-2+30 = 28, 7+0-3+40 = 44, 2+14+0-4 = 12.
kernel void window4(global const int *restrict x, global int *restrict y, int n) {
  size_t r = get_global_id(0);
  int w[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; j++) {
#pragma unroll
    for (int k = 3; k > 0; k--)
      w[k] = w[k - 1];
    w[0] = x[r * n + j];
    y[r * n + j] = w[0] + 2 * w[1] + 3 * w[2] + 4 * w[3];
  }
}
