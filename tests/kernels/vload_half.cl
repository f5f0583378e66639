/*!
[config]
dimensions: 1

[test]
name: vload_half and vstore_half: normals, subnormals, zeros, infinities, ties to even
kernel_name: halves
global_size: 1 1 1
arg_in:  0 buffer ushort[10] 15360 49152 1 1023 31743 31744 64512 32768 13653 1024
arg_out: 1 buffer float[10] 0x1.0000000000000p+0 -0x1.0000000000000p+1 0x1.0000000000000p-24 0x1.ff80000000000p-15 0x1.ffc0000000000p+15 inf -inf -0.0 0x1.5540000000000p-2 0x1.0000000000000p-14
arg_in:  2 buffer float[16] 0x1.0000000000000p+0 0x1.ffc0000000000p+15 0x1.ffdffa0000000p+15 0x1.ffe0000000000p+15 0x1.5798ee0000000p-27 0x1.f751040000000p-16 0x1.99999a0000000p-4 0x1.0020000000000p+0 0x1.0060000000000p+0 -0.0 0x1.2a05f20000000p+33 -0x1.2a05f20000000p+33 -0x1.4000000000000p+1 0x1.0000000000000p-14 0x1.ffb4800000000p-15 nan
arg_out: 3 buffer ushort[16] 15360 31743 31743 31744 0 503 11878 15360 15362 32768 31744 64512 49408 1024 1023 32256
!*/

// `vload_half`/`vload_half2` and `vstore_half`/`vstore_half4` (hls-ir `lower/builtins/half.rs`).
// Expected values: python3's `struct` 'e' format (IEEE half, round to nearest even): 1 + 2^-11
// is a tie that rounds to the even 0x3c00, 1 + 3 * 2^-11 one that rounds to 0x3c02; 65520
// rounds to infinity; 3e-5 is the subnormal 503 * 2^-24; a NaN stores the quiet NaN 0x7e00
// (32256), as the emulator does.
kernel void halves(global const ushort *h, global float *f, global const float *x,
                   global ushort *o) {
  global const half *hp = (global const half *)h;
  global half *op = (global half *)o;
  for (int i = 0; i < 10; i += 2) {
    float2 v = vload_half2(i / 2, hp);
    f[i] = v.x;
    f[i + 1] = v.y;
  }
  for (int i = 0; i < 16; i += 4)
    vstore_half4((float4)(x[i], x[i + 1], x[i + 2], x[i + 3]), i / 4, op);
  f[9] = vload_half(9, hp);
  vstore_half(x[15], 15, op);
}
