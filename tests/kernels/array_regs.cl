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

[test]
name: group_ends a local array written by two work-items, read by all after a barrier
kernel_name: group_ends
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] 1 2 3 4   5 6 7 8
arg_out: 1 buffer int[8] 4000 4001 4002 4003   8000 8001 8002 8003
!*/

// Arrays whose every index is a constant once the `#pragma unroll` loops are unrolled: the
// array-partitioning pass turns their elements into plain values (registers), so no on-chip
// memory serialises the work-items.
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

// group_ends: in a kernel with barriers the work-items of a group run in turn through each
// phase, so a `local` array with constant indices becomes values carried from one work-item
// to the next and handed to the next phase. The first and the last work-item of the group
// publish their value; after the barrier every work-item computes x - first + 1000 * last.
// By hand, group 1 2 3 4: first 1, last 4 -> 4000 4001 4002 4003; group 5 6 7 8 -> 8000 ...
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void group_ends(global const int *restrict in, global int *restrict out) {
  local int ends[2];
  int l = get_local_id(0);
  int g = get_global_id(0);
  int x = in[g];
  if (l == 0)
    ends[0] = x;
  if (l == 3)
    ends[1] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = x - ends[0] + 1000 * ends[1];
}

// corpus-sim: --seed 21
