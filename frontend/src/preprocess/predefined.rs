//! The predefined macros: what every OpenCL C 2.0 compiler defines, the limits of OpenCL C
//! 6.15.3 and the math constants of 6.15.2, and the double-precision ones with `cl_khr_fp64`.

/// Macros every OpenCL C 2.0 compiler predefines, plus the limits of OpenCL C 6.15.3 and the
/// math constants of 6.15.2 that kernels use without any include.
pub(super) const PREDEFINED: &str = r#"
#define __OPENCL_VERSION__ 200
#define __OPENCL_C_VERSION__ 200
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define CL_VERSION_2_0 200
#define CL_VERSION_3_0 300
#define __ENDIAN_LITTLE__ 1
#define __EMBEDDED_PROFILE__ 0
#define __OPENCL_FPGA__ 1
#define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))
#define kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define CLK_IMAGE_MEM_FENCE 4
#define ATOMIC_VAR_INIT(x) (x)
#define ATOMIC_FLAG_INIT 0
#define CLK_NULL_RESERVE_ID __oclhls_null_reserve_id
#define __opencl_c_pipes 1
#define __opencl_c_int64 1
#define __opencl_c_generic_address_space 1
#define __opencl_c_program_scope_global_variables 1
#define cl_ext_atomic_counters_32 1
#define cl_ext_atomic_counters_64 1
#define cl_khr_global_int32_base_atomics 1
#define cl_khr_global_int32_extended_atomics 1
#define cl_khr_local_int32_base_atomics 1
#define cl_khr_local_int32_extended_atomics 1
#define cl_khr_int64_base_atomics 1
#define cl_khr_int64_extended_atomics 1
#define cl_khr_byte_addressable_store 1
#define NULL ((void*)0)
#define CHAR_BIT 8
#define CHAR_MAX 127
#define CHAR_MIN (-127-1)
#define SCHAR_MAX 127
#define SCHAR_MIN (-127-1)
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767-1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647-1)
#define UINT_MAX 0xffffffffU
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL-1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP 38
#define FLT_MAX_EXP 128
#define FLT_MIN_10_EXP (-37)
#define FLT_MIN_EXP (-125)
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define MAXFLOAT 0x1.fffffep127f
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN 2147483647
#define HUGE_VALF __oclhls_inff
#define INFINITY __oclhls_inff
#define NAN __oclhls_nanf
#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f
"#;

/// Double-precision constants, only with `cl_khr_fp64`.
pub(super) const PREDEFINED_FP64: &str = r#"
#define cl_khr_fp64 1
#define __opencl_c_fp64 1
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#define HUGE_VAL __oclhls_inf
#define M_E 2.71828182845904523536
#define M_LOG2E 1.44269504088896340736
#define M_LOG10E 0.434294481903251827651
#define M_LN2 0.693147180559945309417
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.785398163397448309616
#define M_1_PI 0.318309886183790671538
#define M_2_PI 0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.707106781186547524401
"#;
