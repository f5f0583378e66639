/*!
[config]
dimensions: 1

[test]
name: copy a tile in, compute, copy it out
kernel_name: copy_in_out
global_size: 8 1 1
local_size: 4 1 1
arg_in: 0 buffer int[8] 1 2 3 4 5 6 7 8
arg_out: 1 buffer int[8] 12 13 14 11 16 17 18 15

[test]
name: one tile per iteration of a loop around a barrier
kernel_name: tile_loop
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[16] 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
arg_in: 2 uint 4
arg_out: 1 buffer int[4] 28 32 36 40

[test]
name: two buffers and two events (double buffering)
kernel_name: double_buffer
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[20] 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
arg_in: 2 uint 4
arg_out: 1 buffer int[4] 90 100 110 120

[test]
name: a run-time element count, three elements
kernel_name: runtime_count
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[4] 5 6 7 8
arg_in: 1 buffer int[4] -1 -1 -1 -1
arg_in: 2 uint 3
arg_out: 1 buffer int[4] 5 6 7 -1

[test]
name: a run-time element count of zero copies nothing
kernel_name: runtime_count
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[4] 5 6 7 8
arg_in: 1 buffer int[4] -1 -1 -1 -1
arg_in: 2 uint 0
arg_out: 1 buffer int[4] -1 -1 -1 -1
!*/

// Async copies as work-group code: each copy is a pipelined loop between the phases
// (`lower::builtins::async_copy`). Expected values by hand (and a Python transcription):
//   copy_in_out: group g copies in[4g..4g+3] into t, u[l] = t[(l+1) & 3] + 10, copies u out:
//     group 0: (2,3,4,1)+10, group 1: (6,7,8,5)+10.
//   tile_loop: acc = sum over tiles k of in[4k + l]: l=0: 1+5+9+13 = 28, then +4 per lane.
//   double_buffer: tile j (j = 0..3) is weighted j+1: acc(l) = sum_j in[4j + l] * (j + 1),
//     l=0: 1*1 + 5*2 + 9*3 + 13*4 = 90, then +10 per lane (the fifth tile is copied, never
//     used: the loop's last prefetch).
//   runtime_count: n elements of in copied to t, t[l] written out where l < n (others keep
//     their -1); n = 0 copies nothing and writes nothing.

kernel void copy_in_out(global const int *in, global int *out) {
  local int t[4];
  local int u[4];
  int base = get_group_id(0) * 4;
  event_t e = async_work_group_copy(t, in + base, 4, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  u[l] = t[(l + 1) & 3] + 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + base, u, 4, 0);
  wait_group_events(1, &e);
}

kernel void tile_loop(global const int *in, global int *out, uint tiles) {
  local int t[4];
  int acc = 0;
  int l = get_local_id(0);
  for (uint k = 0; k < tiles; k++) {
    event_t e = async_work_group_copy(t, in + k * 4, 4, 0);
    wait_group_events(1, &e);
    acc += t[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

kernel void double_buffer(global const int *in, global int *out, uint tiles) {
  local int a[4];
  local int b[4];
  int l = get_local_id(0);
  int acc = 0;
  event_t ea = async_work_group_copy(a, in, 4, 0);
  for (uint k = 0; k < tiles; k += 2) {
    event_t eb = async_work_group_copy(b, in + (k + 1) * 4, 4, 0);
    wait_group_events(1, &ea);
    acc += a[l] * (int)(k + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    ea = async_work_group_copy(a, in + (k + 2) * 4, 4, 0);
    wait_group_events(1, &eb);
    acc += b[l] * (int)(k + 2);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  wait_group_events(1, &ea);
  out[get_global_id(0)] = acc;
}

kernel void runtime_count(global const int *in, global int *out, uint n) {
  local int t[4];
  event_t e = async_work_group_copy(t, in, n, 0);
  wait_group_events(1, &e);
  uint l = get_local_id(0);
  if (l < n)
    out[l] = t[l];
}
