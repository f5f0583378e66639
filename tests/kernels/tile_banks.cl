/*!
[config]
kernel_name: tile_banks
dimensions: 1

[test]
name: two rows of 8
global_size: 2 1 1
local_size: 1 1 1
arg_in:  0 buffer int[16] 3 -1 4 1 5 -9 2 6   5 3 -5 8 9 7 9 -3
arg_out: 1 buffer int[16] 2 9 0 9 12 5 -16 13   16 -9 8 13 -6 19 16 21
arg_in:  2 int 8

[test]
name: one row of 12
global_size: 1 1 1
local_size: 1 1 1
arg_in:  0 buffer int[12] 100 200 300 400 -1 -2 -3 -4 7 0 0 7
arg_out: 1 buffer int[12] 800 601 402 203 -8 -5 -2 1 14 1 2 17
arg_in:  2 int 12
!*/

// A row is staged in a local tile, transformed four elements per iteration (an inner loop
// unrolled by `#pragma unroll` inside a loop stepping by 4), and written back. The middle loop
// reads four elements of `src` and writes four of `dst` per iteration: one on-chip memory has
// two read ports and one write port, so II would be 4. Every index there is 4j + a constant,
// so cyclic banking gives each access a fixed bank: `src` in 2 banks (two reads per bank) and
// `dst` in 4 (one write per bank) reach II 1. The first and last loops index with j (any
// bank): their accesses go to every bank. n must be a multiple of 4.
// dst[j + u] = 2 src[j + 3 - u] + u. By hand, row 3 -1 4 1 5 -9 2 6: 2*1+0, 2*4+1, 2*-1+2,
// 2*3+3, 2*6+0, 2*2+1, 2*-9+2, 2*5+3 = 2 9 0 9 12 5 -16 13.
__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void tile_banks(global const int *restrict in, global int *restrict out, int n) {
  local int src[64];
  local int dst[64];
  size_t g = get_global_id(0);
  for (int j = 0; j < n; j++)
    src[j] = in[g * n + j];
  for (int j = 0; j < n; j += 4) {
#pragma unroll
    for (int u = 0; u < 4; u++)
      dst[j + u] = src[j + 3 - u] * 2 + u;
  }
  for (int j = 0; j < n; j++)
    out[g * n + j] = dst[j];
}

// corpus-sim: --stall-prob 0.5 --max-latency 9 --seed 6
