// C99 and OpenCL C language constructs: operators, declarations, vectors, swizzles, layout.
typedef struct { char c; int i; float4 v; } S;
typedef union { int i; float f; } U;
enum E { A, B = 5, C };
struct __attribute__((packed)) P { char c; int i; };
struct __attribute__((aligned(16))) Q { int i; };
constant int table[4] = {1, 2, 3, 4};
constant float4 ctab[2] = {(float4)(1.0f), (float4)(1.0f, 2.0f, 3.0f, 4.0f)};
static int helper(int x) { return x * 2; }
inline int h2(const int *restrict p) { return p[0]; }
kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((work_group_size_hint(64,1,1))) __attribute__((vec_type_hint(float4)))
void k(global int *restrict a, global float4 *f, constant int *c, local int *l, global S *s, global U *u, size_t n, ptrdiff_t pd, intptr_t ip, uintptr_t up, uchar uc, ushort us, char ch, short sh, uint ui, long lo, ulong ul) {
  local int tile[64];
  private int pv = 1;
  volatile int vv = 2;
  int arr[3] = {1, 2};
  int x = 0, y = 1;
  x += y; x -= y; x *= y; x /= 1; x %= 3; x <<= 1; x >>= 1; x &= 7; x |= 1; x ^= 2;
  x++; ++x; x--; --x;
  x = y ? x : y;
  x = (x, y);
  x = !x + ~x + -x + +x;
  x = x < y && x > y || x <= y && x >= y || x == y || x != y;
  size_t sz = sizeof(S) + sizeof x + __alignof__(S) + alignof(float4);
  float4 v = (float4)(1.0f, (float2)(2.0f, 3.0f), 4.0f);
  float4 w = v.wzyx + v.s3210 + v.rgba;
  float2 lo2 = v.lo + v.hi + v.even + v.odd;
  float8 v8 = (float8)(v, w);
  float16 v16 = (float16)(v8, v8);
  v16.sF = v16.s0 + v16.SA;
  v.xy = (float2)(1.0f);
  v.lo = lo2;
  w.s01 = v.zw;
  int3 i3 = (int3)(1, 2, 3);
  i3.xz = (int2)(4);
  float3 f3 = (float3)(1.0f);
  f3 = f3.zyx;
  int4 m = v > w;
  float4 sel = select(v, w, m);
  int4 iv = convert_int4_sat_rte(v);
  uint4 bits = as_uint4(v);
  float4 ld = vload4(0, (global float *)f);
  vstore4(ld, 1, (global float *)f);
  char4 c4 = convert_char4_sat(iv);
  ulong u2 = (ulong)x * ul;
  
  a[0] = x + arr[1] + table[2] + c[0] + l[0] + tile[0] + pv + vv + (int)sz + c4.x + (int)u2 + (int)lo;
  s->i = s[1].c + (int)s->v.x;
  u->f = 1.0f;
  enum E e = C;
  a[1] = e + B + helper(2) + h2(a);
  switch (x) { case A: break; case B: { x = 2; break; } default: x = 3; }
  do { x--; } while (x > 0);
  while (x < 10) { if (x == 5) continue; x++; }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_LOCAL_MEM_FENCE);
  atomic_add(a, 1); atomic_inc(a); atomic_cmpxchg(a, 1, 2); atom_add(a, 1); atomic_xchg(a, 2);
  f[0] = v + w + sel + (float4)(lo2, lo2) + convert_float4(iv) + as_float4(bits) + v16.lo.lo;
}
