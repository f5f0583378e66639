/*!
[config]
dimensions: 1

[test]
name: strided gather of a struct field into local memory
kernel_name: gather_field
global_size: 8 1 1
local_size: 4 1 1
arg_in: 0 buffer int[16] 10 1 20 2 30 3 40 4 50 5 60 6 70 7 80 8
arg_out: 1 buffer int[8] 6 9 12 3 18 21 24 15

[test]
name: strided scatter from local memory
kernel_name: scatter
global_size: 8 1 1
local_size: 4 1 1
arg_in: 0 buffer int[24] 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
arg_out: 0 buffer int[24] 0 0 0 1 0 0 4 0 0 9 0 0 16 0 0 25 0 0 36 0 0 49 0 0

[test]
name: vector elements
kernel_name: vectors
global_size: 4 1 1
local_size: 2 1 1
arg_in: 0 buffer float4[4] 1.5 2 3 4   5 6 7 8.25   -1 -2 -3 -4   0.5 0.25 0.125 0
arg_out: 1 buffer float4[4] 10 12 14 16.5   3 4 6 8   1 0.5 0.25 0   -2 -4 -6 -8

[test]
name: struct elements
kernel_name: structs
global_size: 4 1 1
local_size: 4 1 1
arg_in: 0 buffer int[8] 7 0x3f000000 9 0x3fc00000 11 0x40000000 13 0
arg_out: 1 buffer int[4] 18 26 29 7
!*/

// Strided copies (the stride applies to the global side) and elements of 4, 8 and 16
// bytes. Expected values by hand (a Python transcription for the sums):
//   gather_field: records (key, val) = (10k, k), k = 1..8; group g gathers the vals of its
//     four records (stride 2 from &recs[4g].val) and item l writes lv[(l+1) & 3] * 3:
//     group 0: (2,3,4,1)*3, group 1: (6,7,8,5)*3.
//   scatter: s[l] = gid * gid, copied to out[12g + 3i] (stride 3); the rest stays 0.
//   vectors: group g copies v[2g], v[2g+1]; item l writes v[(l+1) & 1] * 2.
//   structs: Rec {int key; float w;} (w given as bits: 0.5, 1.5, 2.0, 0.0); item l writes
//     r[3-l].key + (int)(r[l].w * 10): 13+5, 11+15, 9+20, 7+0.

typedef struct {
  int key;
  float w;
} Rec;

kernel void gather_field(global const int *recs, global int *out) {
  local int lv[4];
  int g = get_group_id(0);
  event_t e = async_work_group_strided_copy(lv, recs + g * 8 + 1, 4, 2, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  out[get_global_id(0)] = lv[(l + 1) & 3] * 3;
}

kernel void scatter(global int *out) {
  local int s[4];
  int gid = get_global_id(0);
  s[get_local_id(0)] = gid * gid;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(out + get_group_id(0) * 12, s, 4, 3, 0);
  wait_group_events(1, &e);
}

kernel void vectors(global const float4 *in, global float4 *out) {
  local float4 v[2];
  event_t e = async_work_group_copy(v, in + get_group_id(0) * 2, 2, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  out[get_global_id(0)] = v[(l + 1) & 1] * 2.0f;
}

kernel void structs(global const Rec *in, global int *out) {
  local Rec r[4];
  event_t e = async_work_group_copy(r, in, 4, 0);
  wait_group_events(1, &e);
  int l = get_local_id(0);
  out[l] = r[3 - l].key + (int)(r[l].w * 10.0f);
}
