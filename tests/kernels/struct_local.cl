/*!
[config]
dimensions: 1

[test]
name: struct_local fields of a local struct array written across barriers
kernel_name: struct_local
global_size: 8 1 1
local_size: 4 1 1
arg_in:  0 buffer int[8] 1 2 3 4 5 6 7 8
arg_out: 1 buffer int[8] 41 32 23 14 85 76 67 58
arg_out: 2 buffer short2[4] 0 -1   2 -3   4 -5   6 -7

[test]
name: tri_swap private array of 12-byte structs
kernel_name: tri_swap
global_size: 2 1 1
local_size: 2 1 1
arg_in:  0 buffer int[12] 1 2 3 4 5 6 7 8 9 10 11 12
arg_out: 1 buffer int[12] 4 8 6 1 2 3 10 20 12 7 8 9
!*/

// struct_local: work-item l of a group writes field a of t[l], then (after a barrier) field
// b of t[3 - l]: on chip, a write enable per byte keeps the other field. The element of
// `marks` holding two shorts is written lane by lane by two work-items (even global ids the
// x lane, odd ones the y lane): each store has a byte strobe, so neither overwrites the other.
// Expected by hand: t[l].a = in[g], t[3 - l].b = in[g] * 10, out = t[l].a + t[l].b:
//   group 0: a = 1 2 3 4, b = 40 30 20 10 -> 41 32 23 14
//   group 1: a = 5 6 7 8, b = 80 70 60 50 -> 85 76 67 58
//   marks[g / 2] = (g even, -(g odd)): (0,-1) (2,-3) (4,-5) (6,-7)
typedef struct {
  int a;
  int b;
} pair_t;

__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void struct_local(global const int *restrict in, global int *restrict out,
                         global short2 *restrict marks) {
  local pair_t t[4];
  size_t l = get_local_id(0);
  size_t g = get_global_id(0);
  t[l].a = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  t[3 - l].b = in[g] * 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[l].a + t[l].b;
  if (g % 2 == 0)
    marks[g / 2].x = (short)g;
  else
    marks[g / 2].y = (short)-g;
}

// tri_swap: a 12-byte struct takes 16 bytes on chip (a power-of-two stride). Expected by
// hand: buf = in[2i], in[2i+1]; buf[1].b += buf[0].c; stored swapped:
//   item 0: (1,2,3) (4,5,6) -> (4,8,6) (1,2,3); item 1: (7,8,9) (10,11,12) -> (10,20,12) (7,8,9)
typedef struct {
  int a, b, c;
} tri;

kernel void tri_swap(global const tri *restrict in, global tri *restrict out) {
  tri buf[2];
  size_t i = get_global_id(0);
  buf[0] = in[2 * i];
  buf[1] = in[2 * i + 1];
  buf[1].b += buf[0].c;
  out[2 * i] = buf[1];
  out[2 * i + 1] = buf[0];
}

// corpus-sim: --seed 8
