#define TILE 4
#define SQUARE(x) ((x) * (x))
#define MAX3(a, b, c) max(max((a), (b)), (c))
#ifdef TILE
#define HAS_TILE 1
#endif
#if defined(HAS_TILE) && TILE > 2
#define USE_FAST 1
#elif TILE == 2
#define USE_FAST 2
#else
#define USE_FAST 0
#endif

static inline int clamp_index(int i, int n);

int clamp_index(int i, int n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

float weight(int k) {
  switch (k) {
    case 0:
    case 1:
      return 0.25f;
    case 2:
      return 0.5f;
    default:
      return 0.0f;
  }
}

__kernel void blur(__global const float *in, __global float *out, const int n) {
  int gid = get_global_id(0);
  float acc = 0.0f;
  #pragma unroll
  for (int k = -1; k <= 1; ++k)
    acc += in[clamp_index(gid + k, n)] * weight(k + 1);
  int j = 0;
  do {
    j += USE_FAST;
  } while (j < SQUARE(TILE));
  out[gid] = acc + (float)MAX3(j, 1, 2);
}
