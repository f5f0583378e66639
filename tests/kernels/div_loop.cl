/*!
[config]
dimensions: 1
global_size: 8 1 1

[test]
name: signed division on a loop's recurrence
kernel_name: div_loop
arg_in:  0 buffer int[13] -2147483648 242858 141331 2147483647 -224148 920875 266512 -5838 312230 218135 -862577 270034 -972385
arg_out: 1 buffer int[8] 697935681 239601649 -79600619 17690708 307838 111119 -898187 570184
arg_in:  2 int -3
arg_in:  3 int 5

[test]
name: unsigned remainder on a loop's recurrence (a hash modulo a prime)
kernel_name: hash_mod
arg_in:  0 buffer uchar[48] 240 132 119 98 240 243 203 77 118 77 199 7 32 81 21 154 15 137 242 198 218 202 227 68 187 49 18 69 253 111 132 223 154 215 197 179 208 118 172 14 143 83 167 53 108 136 145 63
arg_out: 1 buffer uint[8] 44327 923939 226580 303327 15383 299176 480017 870329
arg_in:  2 uint 17
arg_in:  3 uint 1000003
arg_in:  4 int 6
!*/

// Divisions on the recurrence of a loop: the next iteration needs the quotient (remainder),
// so the loop's II is at least the divider's latency, and the scheduler builds an iterative
// divider (one unit, 16 cycles of two quotient bits each at 100 MHz) instead of a pipelined
// one: the II leaves it the time, and it is a fraction of the size (report.json, `dividers`).
// Expected values computed with python3 by running the loops (C semantics).
kernel void div_loop(global const int *restrict c, global int *restrict out, int d, int n) {
  size_t i = get_global_id(0);
  int acc = c[i];
  for (int j = 0; j < n; j++)
    acc = acc / d + c[i + j];
  out[i] = acc;
}

kernel void hash_mod(global const uchar *restrict s, global uint *restrict out, uint seed,
                     uint m, int len) {
  size_t i = get_global_id(0);
  uint h = seed;
  for (int j = 0; j < len; j++)
    h = (h * 31 + s[i * len + j]) % m;
  out[i] = h;
}

// corpus-sim: --stall-prob 0.4 --max-latency 10 --seed 12
