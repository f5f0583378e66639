/*!
[config]
dimensions: 1
global_size: 8 1 1
local_size: 8 1 1

[test]
name: constant indices fold to constants
kernel_name: rom_fold
arg_in:  0 buffer int[8] iota 0
arg_out: 1 buffer int[8] 6201 6231 6261 6291 6321 6351 6381 6411

[test]
name: float scalar constant
kernel_name: rom_scale
arg_in:  0 buffer float[8] iota 0.5
arg_out: 1 buffer float[8] 1.25 3.75 6.25 8.75 11.25 13.75 16.25 18.75
!*/

// Program-scope `constant` data read only at constant indices (after unrolling) needs no
// memory: every read is the constant itself (report.json lists no ROM). By hand:
//   o[i] = 30 a[i] + k4[3] + origin.x * origin.y + v.z + big[77] + sum_j k4[j] (j + 1)
//        = 30 a[i] + 40 - 21 + 3 + 5879 + 300 = 30 a[i] + 6201   (big[n] = n^2 - 50)
//   of[i] = af[i] * 2.5

constant int k4[4] = {10, 20, 30, 40};
constant struct pt { int x; short y; } origin = {7, -3};
constant int4 v = (int4)(1, 2, 3, 4);
constant int big[100] = {
  -50, -49, -46, -41, -34, -25, -14, -1, 14, 31,
  50, 71, 94, 119, 146, 175, 206, 239, 274, 311,
  350, 391, 434, 479, 526, 575, 626, 679, 734, 791,
  850, 911, 974, 1039, 1106, 1175, 1246, 1319, 1394, 1471,
  1550, 1631, 1714, 1799, 1886, 1975, 2066, 2159, 2254, 2351,
  2450, 2551, 2654, 2759, 2866, 2975, 3086, 3199, 3314, 3431,
  3550, 3671, 3794, 3919, 4046, 4175, 4306, 4439, 4574, 4711,
  4850, 4991, 5134, 5279, 5426, 5575, 5726, 5879, 6034, 6191,
  6350, 6511, 6674, 6839, 7006, 7175, 7346, 7519, 7694, 7871,
  8050, 8231, 8414, 8599, 8786, 8975, 9166, 9359, 9554, 9751,
};

kernel void rom_fold(global const int *a, global int *o) {
  size_t i = get_global_id(0);
  int acc = 0;
  #pragma unroll
  for (int j = 0; j < 4; j++)
    acc += k4[j] * (j + 1);
  o[i] = a[i] * k4[2] + k4[3] + origin.x * origin.y + v.z + big[77] + acc;
}

constant float scale = 2.5f;

kernel void rom_scale(global const float *a, global float *o) {
  size_t i = get_global_id(0);
  o[i] = a[i] * scale;
}
