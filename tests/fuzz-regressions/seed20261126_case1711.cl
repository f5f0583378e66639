// kernel-fuzz 10000 20261126, case 1711: crash [lint %Warning-UNSIGNED], reduced in 143 s (52 of 151 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 1711
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 32 1 1
local_size: 21 1 1
arg_in: 0 buffer uint2[32] 16 2147483648 2165987027 4294967295 0 1057412146 29 22 2941317512 851285458 0 1188910430 56602124 1906771940 4294967295 9 24 2767777525 3606662280 354169443 4294967295 2147483648 4200753796 4063063490 129569052 31 4294967295 2607720859 1 4294967295 4294967295 4294967295 2147483648 4294967295 2147483648 0 432652642 4290486769 4294967295 4294967295 3081205280 2147483648 1816000237 2504190839 6 2784987873 21 3098451868 5 3161680399 13 2740827872 335546607 1741636869 2147483648 15 4294967295 4294967295 0 4163503429 2954278649 2090604882 21 2791133327
arg_in: 2 uint 2
arg_out: 1 buffer int[32] 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2
!*/

kernel void fuzz(global const uint2 *in0, global int *out0, uint n) {
  size_t gid = get_global_id(0);
  uint2 a0 = in0[gid];
  ulong v1 = (((ulong4)(((ulong)0x0UL), ((ulong)0x0UL), ((ulong)(n)), ((ulong)0x0UL)))).s2;
  v1 = ((ulong)((ulong)(v1) * (ulong)(v1)));
  v1 = ((ulong)(v1 ^ v1));
  v1 = ((ulong)(max(v1, (((ulong4)(((ulong)0x0UL), ((ulong)0x0UL), ((ulong)(n)), ((ulong)0x0UL)))).s2)));
  ushort v2 = ((ushort)(v1));
  out0[gid] = ((int)(((char)(v2))));
}
