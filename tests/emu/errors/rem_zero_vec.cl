// EXPECT: integer division by zero (`%` of 12)
// EXPECT: work-item global id (1)
// EXPECT: rem_zero_vec.cl:18:3
/*!
[config]
name: a remainder by zero in one lane of a vector compound assignment is reported

[test]
kernel_name: rem
global_size: 2 0 0
arg_in:  0 buffer int4[2] 1 2 3 4  5 6 0 8
arg_out: 1 buffer int4[2] 0 1 0 1  0 5 0 5
!*/
// The hardware gives 12 % 0 = 12 (docs/hardware-interface.md, "Integer division"); OpenCL C
// leaves it undefined, so the emulator, the oracle, stops with an error naming the work-item.
kernel void rem(global const int4 *d, global int4 *q) {
  int4 v = (int4)(10, 11, 12, 13);
  v %= d[get_global_id(0)];
  q[get_global_id(0)] = v;
}
