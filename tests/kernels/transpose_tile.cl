/*!
[config]
kernel_name: transpose_tile
dimensions: 2

[test]
name: 8x8 transpose through 4x4 tiles of local memory
global_size: 8 8 1
local_size: 4 4 1
arg_in:  0 buffer int[64] iota 0 1
arg_out: 1 buffer int[64] 0 8 16 24 32 40 48 56 1 9 17 25 33 41 49 57 2 10 18 26 34 42 50 58 3 11 19 27 35 43 51 59 4 12 20 28 36 44 52 60 5 13 21 29 37 45 53 61 6 14 22 30 38 46 54 62 7 15 23 31 39 47 55 63
arg_in:  2 int 8
!*/

// A 2-D work-group stages its tile in local memory; after the barrier each work-item writes
// the element at its transposed position, so both the reads and the writes of global
// memory are row-wise. With in[i] = i, out[r][c] = in[c][r] = 8c + r.
__attribute__((reqd_work_group_size(4, 4, 1)))
kernel void transpose_tile(global const int *restrict in, global int *restrict out, int width) {
  local int tile[4][4];
  int x = get_local_id(0);
  int y = get_local_id(1);
  tile[y][x] = in[get_global_id(1) * width + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * 4 + x;
  int oy = get_group_id(0) * 4 + y;
  out[oy * width + ox] = tile[x][y];
}
