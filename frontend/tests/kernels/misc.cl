#include "common.h"

constant float coeffs[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
constant int table[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };

enum mode { MODE_ADD, MODE_MUL = 4, MODE_MAX };

typedef enum mode mode_t;

kernel void misc(global float *out, global const uint *in, int n, mode_t m) {
  int gid = get_global_id(0);
  float acc = 0;
  __attribute__((opencl_unroll_hint(2)))
  for (int i = 0; i < 4; i++) acc += coeffs[i] * table[i & 1][i % 3];
  #pragma nounroll
  while (n-- > 0) { if (n == 3) continue; if (n == 1) break; acc += 1.0f; }
  uint bits = in[gid];
  bits = (bits << 3) | (bits >> 29);
  bits ^= ~bits & 0xffu;
  ulong wide = (ulong)bits * 3ul;
  int sz = sizeof(float4) + sizeof coeffs + vec_step(float3);
  char c = 'a';
  global float *p = out + gid;
  *p = acc + (float)(wide >> 2) + (float)sz + c + SCALE(2.0f) + M_PI_F;
  p[0] += m == MODE_MUL ? 1.0f : 0.0f;
  out[gid] = clamp(out[gid], 0.0f, 1.0f) + mad(acc, 2.0f, 1.0f) + min(gid, 4) + abs(-3);
  int x = INT_MAX, y = (int)fmin(acc, 3.0f);
  x = x > y ? x : y, y = x;
  vstore4(vload4(0, out), 1, out);
}
