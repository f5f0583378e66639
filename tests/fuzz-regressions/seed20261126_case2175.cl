// kernel-fuzz 10000 20261126, case 2175 (fixed: narrow kept the bits of a float as its own integer operand): crash [panic at src/compile/mod.rs:393:14: IR verification failed: this is a bug in oclhls: VerifyError { kernel: "fuzz", after: "narrow", errors: ["%N: or operand types differ from result"] }], reduced in 35 s (26 of 61 candidates kept)
/*!
[config]
name: kernel-fuzz seed 20261126 case 2175
kernel_name: fuzz
dimensions: 1

[test]
name: test 0
global_size: 19 1 1
local_size: 2 1 1
arg_in: 0 buffer uchar4[19] 128 222 63 32 2 26 11 83 31 26 128 30 0 138 60 56 0 2 30 193 7 255 128 9 255 195 31 0 187 20 128 128 0 104 92 191 0 57 128 5 128 9 0 255 128 128 1 5 128 0 0 56 0 128 94 0 202 8 255 30 161 0 128 23 176 117 23 0 10 163 0 255 255 172 254 0
arg_in: 1 buffer uint2[19] 1065353216 1 3493282210 3238002688 1 3128379144 2139095039 1101004800 2147483648 2016459799 1 3231711232 4286578688 2689545393 3245342720 1093664768 3242196992 1099956224 2143289344 1077936128 2693778155 1065353216 3238002688 1 3680819319 3952290518 1096810496 1098907648 3246391296 8388608 2147483648 1056964608 4286578688 3453660594 8388608 1086324736 1997953261 0
arg_in: 2 buffer long[19] -9223372036854775808 -1 21 1054077249955004318 -1 -1 -1 -1946161190401015501 1 3177948496400069067 6131139338044305202 -2484651353921474451 0 -9223372036854775808 13 4522610271869684998 -1 -1 -9223372036854775808
arg_in: 4 uint 1
arg_out: 3 buffer long[19] 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
!*/

kernel void fuzz(global const uchar4 *in0, global const float2 *in1, global const long *in2, global long *out0, uint n) {
  size_t gid = get_global_id(0);
  uchar4 a0 = in0[gid];
  float2 a1 = in1[gid];
  long a2 = in2[gid];
  short v1 = ((short)0x0U);
  uint v5 = (as_uint4(((float4)(as_float(0x0U), as_float(0x0U), ((float)(v1)), as_float(0x0U))))).s2;
  out0[gid] = (((long4)(((long4)(((long)0x0UL), ((long)(v5)), ((long)0x0UL), ((long)0x0UL))) | ((long4)(((long)0x0UL), ((long)(n)), ((long)0x0UL), ((long)0x0UL)))))).s1;
}
