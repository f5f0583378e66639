/*!
[config]
kernel_name: div_vec
dimensions: 1
global_size: 4 1 1

[test]
name: vector division and remainder, lane by lane
arg_in:  0 buffer int4[4] -2147483648 -7 51147202 1258326099 -1743226477 -844385151 2071004980 1996119480 121896630 -1891713581 -154900306 1470713325 82137440 602548301 -974295 697715439
arg_in:  1 buffer int4[4] -1 2 2130663 -7706309 -1 884 -548 183850767 27 24607 -1197 22646194 -179 -32 -30965631 8
arg_out: 2 buffer int4[4] -2147483648 -3 24 -163 1743226477 -955186 -3779206 10 4514690 -76877 129407 64 -458868 -18829634 0 87214429
arg_out: 3 buffer int4[4] 0 -1 11290 2197732 0 -727 92 157611810 0 -1242 -127 21356909 68 13 -974295 7
arg_in:  4 buffer uint4[4] 3036610734 47051439 2090890118 809109426 2185560420 3305071838 1648201399 1695882304 4252242025 2022542 2545801602 84313279 804478983 2478023641 628605420 1896407074
arg_out: 5 buffer uint4[4] 0 9 6 426 0 8 7 304 1 2 2 279 0 1 12 74
arg_in:  6 buffer char8[4] -128 -128 23 69 -91 -90 -82 -22 -4 -121 60 62 104 -63 119 -59 69 -35 -50 31 -12 -1 -31 -47 -28 70 119 -88 87 -104 -75 -73
arg_in:  7 buffer char8[4] -1 1 -33 -106 -38 119 17 62 36 118 96 9 -53 -32 6 37 -68 12 -18 -126 -85 76 119 61 -90 -124 3 62 94 -41 10 58
arg_out: 8 buffer char8[4] -128 -128 0 0 2 0 -4 0 0 -1 0 6 -1 1 19 -1 -1 -2 2 0 0 0 0 0 0 0 39 -1 0 2 -7 -1
arg_out: 9 buffer char8[4] 42 42 -7 -23 30 30 27 7 1 40 -20 -20 -34 21 -39 19 -23 11 16 -10 4 0 10 15 9 -23 -39 29 -29 34 25 24
!*/

// Vectors divide lane by lane: an int4 quotient and remainder by a variable int4 (one divider
// per lane, quotient and remainder of a lane from the same unit), a uint4 remainder by a
// constant vector (each lane its own recipe: 3, 10, a power of two, 1000), and char8 lanes,
// which OpenCL C divides at 8 bits (vector operands are not promoted): 8-bit signed dividers
// and an 8-bit signed division by -3. Expected values computed with python3 (C semantics;
// CHAR_MIN / -1 wraps to CHAR_MIN in the char8 lanes).
kernel void div_vec(global const int4 *restrict a, global const int4 *restrict b,
                    global int4 *restrict q, global int4 *restrict r,
                    global const uint4 *restrict u, global uint4 *restrict um,
                    global const char8 *restrict c, global const char8 *restrict d,
                    global char8 *restrict cq, global char8 *restrict c3) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  um[i] = u[i] % (uint4)(3, 10, 16, 1000);
  cq[i] = c[i] / d[i];
  c3[i] = c[i] / (char8)(-3);
}

// corpus-sim: --stall-prob 0.5 --max-latency 16 --seed 2
