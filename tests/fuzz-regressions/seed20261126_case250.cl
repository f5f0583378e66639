// kernel-fuzz 10000 20261126, case 250: mismatch [ir-lowering], reduced in 626 s (25 of 40 candidates kept)
// Fixed: a silent miscompile. The warning that `#pragma loop_coalesce` is not honoured on
// the first loop stopped the full unrolling of the second after one iteration (the unroller
// stopped at any diagnostic, not only at errors): v1 became 7 instead of 22 (by hand:
// 3 - (3 ^ 0xffff) = 7 mod 2^16, then 7 - ((7 << 1) ^ 0xffff) = 22 mod 2^16).
/*!
[config]
name: kernel-fuzz seed 20261126 case 250
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 17 1 1
local_size: 1 1 1
arg_in: 0 buffer long[17] 8280236404073551417 0 8398489856697018240 2179032968344352506 969720229923659606 -2802478154830361011 -9223372036854775808 8800522060522541691 1 25 13 -8908740957361984738 -8354072274770631641 6103927822470673301 0 -8845139468675440183 -9223372036854775808
arg_in: 2 uint 3
arg_out: 1 buffer ushort4[17] 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22 22 22 65535 22
!*/

kernel void fuzz(global const long *in0, global ushort4 *out0, uint n) {
  size_t gid = get_global_id(0);
  long a0 = in0[gid];
  ushort v1 = ((ushort)(n));
  #pragma loop_coalesce
  for (uint i2 = 0; i2 < ((uint)(n & ((uint)0x3U))); i2++) {
  }
  #pragma unroll
  for (uint i8 = 0; i8 < ((uint)0x2U); i8++) {
    v1 = ((ushort)((uint)(((ushort)((uint)(((ushort)0x0U)) + (uint)(v1)))) - (uint)(((ushort)(((ushort)((uint)(v1) << (((uint)(((ushort)(i8)))) & 15U))) ^ ((ushort)((uint)(((ushort)0x0U)) - (uint)(((ushort)0x1U)))))))));
  }
  out0[gid] = ((ushort4)(v1, v1, ((ushort)0xffffU), v1));
}
