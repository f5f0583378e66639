/*!
[config]
kernel_name: unroll8
dimensions: 1

[test]
name: weighted count of the low 8 bits
global_size: 8 1 1
arg_in:  0 buffer uint[8] 625784932 1133063676 279772928 1425304169 1294327475 14530381 1451255993 283564262
arg_out: 1 buffer uint[8] 16 33 0 18 22 15 24 26
!*/

// A loop fully unrolled by `#pragma unroll`: out = sum over k < 8 of bit k of x times k + 1.
// After unrolling it is one adder tree per work-item, II = 1. Expected values computed
// independently (Python).
kernel void unroll8(global const uint *restrict x, global uint *restrict out) {
  int i = get_global_id(0);
  uint v = x[i];
  uint acc = 0;
  #pragma unroll
  for (uint k = 0; k < 8; k++)
    acc += ((v >> k) & 1) * (k + 1);
  out[i] = acc;
}
