/*!
[config]
kernel_name: mac64
dimensions: 1

[test]
name: 64-bit multiply, shift, xor and add
global_size: 8 1 1
arg_in:  0 buffer ulong[8] 1943389462010095399 1034203002833626778 17243522688037146943 4105107980984328415 17083900187201843794 114034740618042611 9223372036854775807 9223372036854775808
arg_in:  1 buffer ulong[8] 1985682483604263169 2846223535893519674 3114312851643774886 2331030468536714249 3741410264295339541 16030599802598145665 3 18446744073709551615
arg_out: 2 buffer ulong[8] 4625731357207061966 13599221816395803774 16376193064920234521 16722430846422386742 5436577370356721036 12114958185315355878 18446744073709551228 18446744073709551488
!*/

// Integer 64-bit arithmetic: a 64x64 multiply (low 64 bits, built from 16x16 partial
// products over four stages), a shift, an xor and a 64-bit add. Expected values computed
// independently (Python, modulo 2^64).
kernel void mac64(global const ulong *restrict a, global const ulong *restrict b,
                  global ulong *restrict out) {
  int i = get_global_id(0);
  ulong x = a[i];
  ulong y = b[i];
  out[i] = x * y + (x ^ (y << 7));
}
