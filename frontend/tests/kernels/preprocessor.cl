// Preprocessor features and predefined macros (OpenCL C 2.0).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if __OPENCL_VERSION__ != 200 || __OPENCL_C_VERSION__ != 200
#error bad version
#endif
#if !defined(CL_VERSION_1_0) || !defined(CL_VERSION_1_1) || !defined(CL_VERSION_1_2) || !defined(CL_VERSION_2_0)
#error versions
#endif
#ifndef __ENDIAN_LITTLE__
#error endian
#endif
#ifndef __kernel_exec
#error kexec
#endif
#ifndef __opencl_c_pipes
#error pipes
#endif
#ifndef __opencl_c_int64
#error int64
#endif
#ifndef cl_ext_atomic_counters_64
#error c64
#endif
#ifndef cl_ext_atomic_counters_32
#error c32
#endif
#if CLK_LOCAL_MEM_FENCE != 1 || CLK_GLOBAL_MEM_FENCE != 2
#error fences
#endif
#define STR(x) #x
#define CAT(a, b) a ## b
#define VA(fmt, ...) foo(fmt, __VA_ARGS__)
#define SUM(...) sum3(__VA_ARGS__)
#line 100
int sum3(int a, int b, int c) { return a + b + c; }
__kernel_exec(1, float4) void kx(global float *a) { a[0] = FLT_MAX + FLT_MIN + FLT_EPSILON + INT_MAX + UINT_MAX + CHAR_BIT + SHRT_MAX + M_PI_F + MAXFLOAT + HUGE_VALF + INFINITY; }
kernel void k(global int *a) {
  int CAT(x, 1) = SUM(1, 2, 3);
  a[0] = x1 + LONG_MAX + ULONG_MAX - INT_MIN + SCHAR_MIN + UCHAR_MAX + USHRT_MAX;
  a[1] = __LINE__;
  #pragma unroll 4
  for (int i = 0; i < 8; i++) a[i] += i;
  #pragma nounroll
  for (int i = 0; i < 8; i++) a[i] -= i;
  #pragma unroll
  for (int i = 0; i < 8; i++) a[i] ^= i;
  __attribute__((opencl_unroll_hint(2)))
  for (int i = 0; i < 8; i++) a[i] |= i;
  a[2] = __LINE__;
  reserve_id_t r = CLK_NULL_RESERVE_ID;
  
}
