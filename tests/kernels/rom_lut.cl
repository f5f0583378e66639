/*!
[config]
dimensions: 1

[test]
name: 8-tap FIR, taps from a ROM in a pipelined loop
kernel_name: rom_fir
global_size: 16 1 1
local_size: 16 1 1
arg_in:  0 buffer int[23] -8 -1 6 -10 -3 4 11 -5 2 9 -7 0 7 -9 -2 5 -11 -4 3 10 -6 1 8
arg_out: 1 buffer int[16] 94 5 -130 103 83 -167 158 69 -181 144 55 -195 -8 87 -2 -137

[test]
name: nibble table indexed by data
kernel_name: rom_nibbles
global_size: 32 1 1
local_size: 32 1 1
arg_in:  0 buffer uchar[32] 7 20 33 46 59 72 85 98 111 124 137 150 163 176 189 202 215 228 241 254 11 24 37 50 63 76 89 102 115 128 141 154
arg_out: 1 buffer ushort[32] 67 94 121 97 23 151 178 104 80 107 134 60 87 13 90 117 144 70 97 73 13 141 168 94 70 97 124 50 77 104 181 107
!*/

// Program-scope `constant` data read at indices that are not constants: small ROMs (LUT ROMs,
// `rom_style = "logic"`) read in one cycle like an on-chip memory. Expected values by python3:
//   taps = [3, -1, 4, 1, -5, 9, 2, -6]; x[j] = (7 j + 3) mod 23 - 11; y[i] = sum_k taps[k] x[i + k]
//   nib[i] = (37 i + 5) mod 101; in[i] = (13 i + 7) mod 256; out[i] = nib[in & 15] + nib[in >> 4]
// The tap loop runs at II 1 (one ROM read and one global read per iteration) and the
// work-item loop reads the nibble table twice in one cycle (its two read ports): II 1.

constant int taps[8] = {3, -1, 4, 1, -5, 9, 2, -6};

kernel void rom_fir(global const int *x, global int *y) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < 8; k++)
    acc += taps[k] * x[i + k];
  y[i] = acc;
}

constant uchar nib[16] = {5, 42, 79, 15, 52, 89, 25, 62, 99, 35, 72, 8, 45, 82, 18, 55};

kernel void rom_nibbles(global const uchar *in, global ushort *out) {
  size_t i = get_global_id(0);
  uchar v = in[i];
  out[i] = nib[v & 15] + nib[v >> 4];
}

// corpus-sim: --seed 41
