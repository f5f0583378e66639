/*!
[config]
kernel_name: vec_accumulate
dimensions: 1

[test]
name: vec_accumulate int4 running sums and a struct of extremes carried by a loop
global_size: 2 1 1
local_size: 2 1 1
arg_in:  0 buffer int[16] 3 -1 4 1   5 -9 2 6   5 3 -5 8   9 7 9 -3
arg_out: 1 buffer int[8] 7 6 -10 8   5 4 10 14
arg_out: 2 buffer int2[2] -9 6   -5 9
arg_in:  3 int 2
!*/

// Work-item i reads `rows` int4 rows with vload4 (four int accesses each, the pointer's
// elements are ints), sums them in a loop-carried int4 and keeps the smallest and largest
// lane in a loop-carried struct filled by a helper that returns a struct. Expected by hand:
//   item 0: rows (3,-1,4,1) and (5,-9,2,6): sum (8,-10,6,7), stored reversed: 7 6 -10 8;
//           extremes (-9, 6)
//   item 1: rows (5,3,-5,8) and (9,7,9,-3): sum (14,10,4,5), reversed: 5 4 10 14;
//           extremes (-5, 9)
typedef struct {
  int lo;
  int hi;
} range_t;

range_t span_of(int4 v) {
  range_t r;
  r.lo = min(min(v.x, v.y), min(v.z, v.w));
  r.hi = max(max(v.x, v.y), max(v.z, v.w));
  return r;
}

kernel void vec_accumulate(global const int *restrict in, global int *restrict sums,
                           global int2 *restrict spans, int rows) {
  size_t i = get_global_id(0);
  int4 acc = (int4)(0);
  range_t r = {0x7fffffff, -0x7fffffff - 1};
  for (int k = 0; k < rows; k++) {
    int4 v = vload4(i * rows + k, in);
    acc += v;
    range_t s = span_of(v);
    r.lo = min(r.lo, s.lo);
    r.hi = max(r.hi, s.hi);
  }
  vstore4(acc.wzyx, i, sums);
  spans[i] = (int2)(r.lo, r.hi);
}
