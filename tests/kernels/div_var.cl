/*!
[config]
dimensions: 1
global_size: 16 1 1

[test]
name: int and uint division and remainder by a variable
kernel_name: div_var
arg_in:  0 buffer int[16] -2147483648 -2147483648 7 -7 7 -7 0 2147483647 100 -100 3 2147483647 -2147483648 1891299130 1005277327 -443783326
arg_in:  1 buffer int[16] -1 1 2 2 -2 -2 5 -1 7 7 100 2147483647 2147483647 -377 -1886353 -30498402
arg_out: 2 buffer int[16] -2147483648 -2147483648 3 -3 -3 3 0 -2147483647 14 -14 0 1 -1 -5016708 -532 14
arg_out: 3 buffer int[16] 0 0 1 -1 1 -1 0 0 2 -2 3 0 -1 214 1737531 -16805698
arg_in:  4 buffer uint[16] 0 1 4294967295 4294967295 2147483648 12345 7 100 3871754471 1118419489 2851854231 2799022858 1447688425 4200476003 2609326710 2721846936
arg_in:  5 buffer uint[16] 1 3 1 4294967295 2147483649 10 7 4294967295 6776744 165 22 153 18 39143615 149 3543
arg_out: 6 buffer uint[16] 0 0 4294967295 1 0 1234 1 0 571 6778299 129629737 18294267 80427134 107 17512259 768232
arg_out: 7 buffer uint[16] 0 1 0 0 2147483648 5 0 100 2233647 154 17 7 13 12109198 119 960
[test]
name: long and ulong division and remainder by a variable
kernel_name: div_long
arg_in:  0 buffer long[16] -9223372036854775808 -9223372036854775808 9223372036854775807 -1 1000000000000000000 -1000000000000000000 5 0 -4227425932255729181 -4526455139067791571 -4045947199810148774 -7508125537001249085 -2090232783914142234 -4494024078981046793 8098493596137205399 -1418363621859405569
arg_in:  1 buffer long[16] -1 3 -7 2 1000000007 999999999937 -5 -9 533513054595 210 1 2091163297 -508425 -15855364 -19 5953600
arg_out: 2 buffer long[16] -9223372036854775808 -3074457345618258602 -1317624576693539401 0 999999993 -1000000 -1 0 -7923753 -21554548281275197 -4045947199810148774 -3590406137 4111191982916 283438720106 -426236505059852915 -238236297678
arg_out: 3 buffer long[16] 0 -2 0 -1 49 -63000000 0 0 -265369434146 -201 0 -1983295396 -74934 -6298209 14 -3664769
arg_in:  4 buffer ulong[16] 18446744073709551615 18446744073709551615 9223372036854775808 10000000000000000000 3 1099511627781 8689224988557522609 1759082970474220291 5763664155768814762 18258485939153663314 32861804953876967 3364717014780825587 16918228635471358265 6801976020175074104 15521039047664568183 17708430945946685217
arg_in:  5 buffer ulong[16] 1 18446744073709551615 9223372036854775807 8589934593 4 1048576 37298794303470 285 1 1152 8044391971 81057644 209256881047 1065670 54058563958854 2012140477308
arg_out: 6 buffer ulong[16] 18446744073709551615 1 1 1164153218 0 1048576 232962 6172220949032351 5763664155768814762 15849380155515332 4085057 41510175336 80849091 6382816463046 287115 8800792
arg_out: 7 buffer ulong[16] 0 0 1 1149529726 3 5 23270032544469 256 0 850 5221999620 17757203 17326279988 843284 14456618201973 1130378257281
[test]
name: char, short and uchar division (promoted to int, narrowed)
kernel_name: div_narrow
arg_in:  0 buffer char[16] -128 -128 127 -1 5 -5 0 100 -112 112 -76 -56 -64 -74 89 -82
arg_in:  1 buffer char[16] -1 1 -128 2 -3 3 9 7 3 -44 -1 -2 -29 -6 -3 -3
arg_in:  2 buffer short[16] -32768 32767 -1 1000 -1000 7 9 -9 -30518 13562 -26701 28817 15136 -23777 -26023 -23839
arg_in:  3 buffer short[16] -1 2 5 -7 7 9 -32768 32767 -1861 19512 -417 -60 1 108 10575 -1
arg_in:  4 buffer uchar[16] 255 255 0 17 200 194 230 253 41 144 3 57 195 177 129 159
arg_in:  5 buffer uchar[16] 1 255 3 4 201 1 201 1 8 1 58 2 76 2 3 9
arg_out: 6 buffer int[16] 128 -128 0 0 -1 -1 0 14 -37 -2 76 28 2 12 -29 27
arg_out: 7 buffer short[16] 0 1 -1 6 -6 7 9 -9 -742 13562 -13 17 0 -17 -4873 0
arg_out: 8 buffer int[16] 255 1 0 5 200 194 30 253 6 144 3 29 45 89 43 23
!*/


// Division and remainder by values only known at run time: pipelined dividers (the work-item
// loop runs at II = 1), signed and unsigned, 8 to 64 bits. Expected values computed with
// python3 (C semantics: the quotient truncated toward zero, the remainder with the dividend's
// sign; INT_MIN / -1 wraps to INT_MIN and INT_MIN % -1 is 0, which the emulator, the IR and
// the hardware all give). No divisor is zero: the emulator reports that as an error.
kernel void div_var(global const int *restrict a, global const int *restrict b,
                    global int *restrict q, global int *restrict r,
                    global const uint *restrict ua, global const uint *restrict ub,
                    global uint *restrict uq, global uint *restrict ur) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  uint u = ua[i], v = ub[i];
  uq[i] = u / v;
  ur[i] = u % v;
}

kernel void div_long(global const long *restrict a, global const long *restrict b,
                     global long *restrict q, global long *restrict r,
                     global const ulong *restrict ua, global const ulong *restrict ub,
                     global ulong *restrict uq, global ulong *restrict ur) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
  ulong u = ua[i], v = ub[i];
  uq[i] = u / v;
  ur[i] = u % v;
}

// `c / d` of chars is a signed int division of 8-bit values, which `narrow` computes at 9
// bits (CHAR_MIN / -1 = 128 needs the ninth); `s % t` of shorts a signed remainder at 16 bits;
// `u / v` of uchars is signed in C (promoted to int) but both operands are non-negative, so
// an 8-bit unsigned division.
kernel void div_narrow(global const char *restrict c, global const char *restrict d,
                       global const short *restrict s, global const short *restrict t,
                       global const uchar *restrict u, global const uchar *restrict v,
                       global int *restrict q, global short *restrict r,
                       global int *restrict uq) {
  size_t i = get_global_id(0);
  q[i] = c[i] / d[i];
  r[i] = s[i] % t[i];
  uq[i] = u[i] / v[i] + u[i] % v[i];
}

// corpus-sim: --stall-prob 0.5 --max-latency 12 --seed 31
