/*!
[config]
kernel_name: widths
dimensions: 1

[test]
name: widths char, ushort and long arithmetic
global_size: 4 1 1
local_size: 2 1 1
arg_in:  0 buffer char[4] -1 2 -128 127
arg_in:  1 buffer ushort[4] 65535 0 1 2
arg_out: 2 buffer long[4] -124991809 250000000 -16000000000 15875000000
!*/

// 8-, 16- and 64-bit memories and arithmetic: char sign-extends, ushort zero-extends, the
// product needs 64 bits, and >> on a signed long is arithmetic (floors).
// Expected: ((long)c * 1000000000 + s) >> 3, computed by hand (Python's >> floors too).
kernel void widths(global const char *c, global const ushort *s, global long *out) {
  size_t i = get_global_id(0);
  long v = (long)c[i] * 1000000000L + s[i];
  out[i] = v >> 3;
}

// corpus-sim: --seed 13
