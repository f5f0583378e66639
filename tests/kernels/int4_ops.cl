/*!
[config]
kernel_name: int4_ops
dimensions: 1

[test]
name: int4_ops element-wise arithmetic, compares, swizzles, saturation
global_size: 2 1 1
local_size: 2 1 1
arg_in:  0 buffer int4[2] 1 2 3 4   -5 100 7 -8
arg_in:  1 buffer int4[2] 10 20 30 40   5 -3 7 2
arg_out: 2 buffer int4[2] 33 65 98 130   3 241 39 -14
arg_out: 3 buffer int4[2] -1 -1 -1 -1   -1 0 0 -1
arg_out: 4 buffer int4[2] 3 4 20 11   7 -8 -3 0
arg_out: 5 buffer int4[2] 10 20 30 40   5 100 7 2
arg_out: 6 buffer uchar4[2] 50 100 150 200   0 255 255 0
arg_in:  7 int 3
!*/

// Vectors are values of four lanes; a pointer to int4 has a 128-bit port, one access per
// element. Expected values by hand, lane by lane (x = a[i], y = b[i], k = 3):
//   out = (x + y) * k - (x >> 1):
//     item 0: (11,22,33,44)*3 = (33,66,99,132) - (0,1,1,2)   = (33,65,98,130)
//     item 1: (0,97,14,-6)*3  = (0,291,42,-18) - (-3,50,3,-4) = (3,241,39,-14)
//       (>> on a negative int floors: -5 >> 1 = -3, -8 >> 1 = -4)
//   cmp = x < y, -1 where true: item 0 all true; item 1 (-5<5, 100<-3, 7<7, -8<2)
//   sw: s = y.wzyx, then s.xy = x.zw, then s.w += x.s0:
//     item 0: (40,30,20,10) -> (3,4,20,10) -> (3,4,20,11)
//     item 1: (2,7,-3,5)    -> (7,-8,-3,5) -> (7,-8,-3,0)
//   mx = x > y ? x : y lane-wise (the larger lane): (10,20,30,40), (5,100,7,2)
//   sat = convert_uchar4_sat(x * 50): (50,100,150,200); (-250,5000,350,-400) -> (0,255,255,0)
kernel void int4_ops(global const int4 *a, global const int4 *b, global int4 *out,
                     global int4 *cmp, global int4 *sw, global int4 *mx, global uchar4 *sat,
                     int k) {
  size_t i = get_global_id(0);
  int4 x = a[i];
  int4 y = b[i];
  out[i] = (x + y) * k - (x >> 1);
  cmp[i] = x < y;
  int4 s = y.wzyx;
  s.xy = x.zw;
  s.w += x.s0;
  sw[i] = s;
  mx[i] = x > y ? x : y;
  sat[i] = convert_uchar4_sat(x * 50);
}
