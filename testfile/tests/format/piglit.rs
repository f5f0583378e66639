//! Real piglit headers (copied unchanged from piglit's `tests/cl/program/execute/`) and the
//! documentation's example parse as piglit's program tester reads them.

use testfile::{compare, ArgKind, Tolerance};

use crate::common::*;

// Real piglit headers. These are the test headers (and kernels) of files in piglit's
// tests/cl/program/execute/, copied unchanged from the freedesktop piglit repository (MIT
// licence), to show that such files parse as piglit's program-tester reads them.

/// piglit tests/cl/program/execute/reference.cl
pub const PIGLIT_REFERENCE: &str = "/*!
[config]
name: Reference and dereference operators
clc_version_min: 10

[test]
name: ref
kernel_name: ref
dimensions: 1
global_size: 1 0 0
arg_out: 0 buffer int[3] repeat 5
!*/

kernel void ref(global int* out) {
\tint a = 5;
\tint* b = &a;

\tout[0] = *(&a);
\tout[1] = *b;
\tout[2] = *out;
}
";

/// piglit tests/cl/program/execute/bitselect.cl
pub const PIGLIT_BITSELECT: &str = "/*!
[config]
dimensions: 1
global_size: 1 0 0
kernel_name: test_bitselect

[test]
# x = 01010101
# y = 01100110
# z = 00111100
#out= 01100101
name: bitselect int1
arg_out: 0 buffer int[1] 0x65
arg_in:  1 int 0x55
arg_in:  2 int 0x66
arg_in:  3 int 0x3c

!*/

kernel void test_bitselect(global int *out, int x, int y, int z)
{
\t*out = bitselect(x,y,z);
}
";

/// piglit tests/cl/program/execute/builtin/atomic/atomic_add-local.cl (header and kernel
/// signatures): `buffer T[1] NULL` passes local memory to a `local T *` parameter.
pub const PIGLIT_ATOMIC_ADD_LOCAL: &str = "/*!
[config]
name: atomic_add local
clc_version_min: 11

[test]
name: simple int
kernel_name: simple_int
dimensions: 1
global_size: 1 0 0
local_size:  1 0 0
arg_out: 0 buffer int[2] -4 1
arg_in:  1 buffer int[1] NULL
arg_in:  2 int           -4
arg_in:  3 int           5

[test]
name: simple uint
kernel_name: simple_uint
dimensions: 1
global_size: 1 0 0
local_size:  1 0 0
arg_out: 0 buffer uint[2] 4 9
arg_in:  1 buffer uint[1] NULL
arg_in:  2 uint           4
arg_in:  3 uint           5

[test]
name: threads
kernel_name: threads_int
dimensions: 1
global_size: 8 0 0
local_size:  8 0 0
arg_out: 0 buffer int[1] 28
arg_in:  1 buffer int[1] NULL

!*/

kernel void simple_int(global int *out, local int *mem, int initial, int value);
kernel void simple_uint(global uint *out, local uint *mem, uint initial, uint value);
kernel void threads_int(global int *out, local int *mem);
";

/// piglit tests/cl/program/execute/builtin/convert/float-convert_long.cl: continuation lines
/// with comments after the backslash, hexadecimal floats, 64-bit values.
pub const PIGLIT_FLOAT_CONVERT_LONG: &str = "/*!
[config]
name: convert_long(float)
dimensions: 1
global_size: 1 1 1
local_size: 1 1 1
kernel_name: test

[test]
arg_out: 0 buffer long[8] 0 36864 -47104 41943040 -35651584 131 5000000000 -6000000000
# These values were choosen to exercise all code paths in the generic
# implementation of __fixsfdi in compiler-rt:
# https://github.com/llvm-mirror/compiler-rt/blob/master/lib/builtins/fixsfdi.c
arg_in:  1 buffer float[8] 0x1.2p-5      \\ # exp < 0
                           0x1.2p+15     \\ # pos exp <= 23
                           -0x1.7p+15    \\ # neg exp <= 23
                           0x1.4p25      \\ # pos exp > 23
                           -0x1.1p25     \\ # neg exp > 23
                           131.35        \\ # Random non-integer value
                           5000000000.0  \\ # Positive value requiring more than 32-bits
                           -6000000000.0   # Negative value requiring more than 32-bits

!*/

kernel void test(global long *out, global float *in) {
\tunsigned i;
\tfor (i = 0; i < 8; i++) {
\t\tout[i] = convert_long(in[i]);
\t}
}
";

/// piglit tests/cl/program/execute/builtin/math/ilogb.cl (header): `nan` literals.
pub const PIGLIT_ILOGB: &str = "/*!
[config]
name: ilogb
clc_version_min: 10
dimensions: 1

[test]
name: float scalar ilogb(0.0)
kernel_name: ilogb_macro_ilogb0
global_size: 1 0 0
arg_out: 0 buffer int[1] 0
arg_in: 1 buffer float[1] 0.0

[test]
name: float scalar ilogb(nan)
kernel_name: ilogb_macro_ilogbnan
global_size: 1 0 0
arg_out: 0 buffer int[1] 0
arg_in: 1 buffer float[1] nan

!*/
";

#[test]
fn piglit_reference_cl() {
    let f = parse_ok(PIGLIT_REFERENCE);
    assert_eq!(f.line, 1);
    assert_eq!(
        f.name.as_deref(),
        Some("Reference and dereference operators")
    );
    assert_eq!(f.clc_version_min, Some(10));
    let t = &f.tests[0];
    assert_eq!((t.name.as_str(), t.line), ("ref", 6));
    assert_eq!(t.kernel_name, "ref");
    assert_eq!(t.dimensions, 1);
    // The 0s past `dimensions` become 1; piglit's default local size is 1.
    assert_eq!(t.global_size, [1, 1, 1]);
    assert_eq!(t.local_size, Some([1, 1, 1]));
    assert_eq!(t.global_offset, [0, 0, 0]);
    assert_eq!(t.args.len(), 1);
    let (ty0, len, input, expect) = buffer(&t.args[0]);
    assert_eq!((ty0, len, input), (ty("int"), 3, None));
    let expect = expect.unwrap();
    assert_eq!(i32s(&expect.bytes), [5, 5, 5]);
    assert_eq!((expect.line, expect.tolerance), (11, Tolerance::Exact));
}

#[test]
fn piglit_bitselect_cl_uses_config_defaults() {
    let f = parse_ok(PIGLIT_BITSELECT);
    assert_eq!(f.name, None);
    let t = &f.tests[0];
    assert_eq!(t.name, "bitselect int1");
    assert_eq!(t.kernel_name, "test_bitselect");
    assert_eq!(t.args.len(), 4);
    assert_eq!(i32s(buffer(&t.args[0]).3.unwrap().bytes.as_slice()), [0x65]);
    for (arg, v) in t.args[1..].iter().zip([0x55i32, 0x66, 0x3c]) {
        assert_eq!(
            arg.kind,
            ArgKind::Scalar {
                ty: ty("int"),
                bytes: v.to_le_bytes().to_vec()
            }
        );
    }
    assert_eq!(
        t.args.iter().map(|a| a.line).collect::<Vec<_>>(),
        [13, 14, 15, 16]
    );
}

#[test]
fn piglit_atomic_add_local_cl() {
    let f = parse_ok(PIGLIT_ATOMIC_ADD_LOCAL);
    let names: Vec<&str> = f.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["simple int", "simple uint", "threads"]);
    let t = &f.tests[0];
    assert_eq!(i32s(&buffer(&t.args[0]).3.unwrap().bytes), [-4, 1]);
    assert_eq!(
        t.args[1].kind,
        ArgKind::NullBuffer {
            ty: ty("int"),
            len: 1
        }
    );
    assert_eq!(
        t.args[2].kind,
        ArgKind::Scalar {
            ty: ty("int"),
            bytes: (-4i32).to_le_bytes().to_vec()
        }
    );
    let t = &f.tests[2];
    assert_eq!((t.global_size, t.local_size), ([8, 1, 1], Some([8, 1, 1])));
    assert_eq!(t.args.len(), 2);
}

#[test]
fn piglit_float_convert_long_cl_joins_continuation_lines() {
    let f = parse_ok(PIGLIT_FLOAT_CONVERT_LONG);
    let t = &f.tests[0];
    assert_eq!(t.name, "test #1");
    let out = buffer(&t.args[0]).3.unwrap();
    assert_eq!(
        i64s(&out.bytes),
        [
            0,
            36864,
            -47104,
            41943040,
            -35651584,
            131,
            5000000000,
            -6000000000
        ]
    );
    assert_eq!(t.args[1].line, 14);
    let input = buffer(&t.args[1]).2.unwrap();
    assert_eq!(
        f32s(input),
        [
            0.03515625,
            36864.0,
            -47104.0,
            41943040.0,
            -35651584.0,
            131.35,
            5e9,
            -6e9
        ]
    );
}

#[test]
fn piglit_ilogb_cl_reads_nan() {
    let f = parse_ok(PIGLIT_ILOGB);
    assert_eq!(f.tests.len(), 2);
    let nan = buffer(&f.tests[1].args[1]).2.unwrap();
    assert!(f32s(nan)[0].is_nan());
    assert_eq!(f.tests[1].kernel_name, "ilogb_macro_ilogbnan");
}

/// The line shape that piglit's generator (generated_tests/genclbuiltins.py) writes: integer
/// outputs with `tolerance 0`, float outputs with `tolerance <n> ulp`, a space before the
/// newline, and values repeated per lane.
#[test]
fn piglit_generated_builtin_lines() {
    let f = parse_ok(
        "/*!\n[config]\nname: Test float fmax built-in on CL 1.1\nclc_version_min: 10\n\
         dimensions: 1\nrequire_device_features: int64\n\n\
         [test]\nname: fmax float2\nkernel_name: test_2_fmax_float\nglobal_size: 2 0 0\n\n\
         arg_out: 0 buffer float[4] 1.0 1.0 -nan -nan  tolerance 2 ulp\n\
         arg_in: 1 buffer float[4] 1.0 1.0 nan nan \n\
         arg_in: 2 buffer float[4] 0.5 0.5 -inf -inf \n\n\
         [test]\nname: abs int1\nkernel_name: test_1_abs_int\nglobal_size: 2 0 0\n\n\
         arg_out: 0 buffer uint[2] 2147483648 4294967295  tolerance 0 \n\
         arg_in: 1 buffer int[2] -2147483648 0xffffffff \n\
         !*/\n",
    );
    assert_eq!(
        f.other_config,
        [("require_device_features".to_string(), "int64".to_string())]
    );
    let out = buffer(&f.tests[0].args[0]).3.unwrap();
    assert_eq!(out.tolerance, Tolerance::Ulp(2));
    let v = f32s(&out.bytes);
    assert!(v[2].is_nan() && v[2].is_sign_negative());
    let out = buffer(&f.tests[1].args[0]).3.unwrap();
    assert_eq!(out.tolerance, Tolerance::Abs(0.0));
    assert_eq!(u32s(&out.bytes), [0x8000_0000, u32::MAX]);
    assert_eq!(i32s(buffer(&f.tests[1].args[1]).2.unwrap()), [i32::MIN, -1]);
}

/// The example at the top of docs/test-format.md parses and means what the text says.
#[test]
fn documentation_example() {
    let doc = include_str!("../../../docs/test-format.md");
    let start = doc.find("```c\n").expect("a ```c block") + 5;
    let end = start + doc[start..].find("```").unwrap();
    let f = parse_ok(&doc[start..end]);
    let [ints, floats] = &f.tests[..] else {
        panic!("two tests expected")
    };
    assert_eq!(ints.global_size, [8, 1, 1]);
    assert_eq!(
        i32s(buffer(&ints.args[0]).2.unwrap()),
        [0, 1, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(
        i32s(buffer(&ints.args[1]).2.unwrap()),
        [10, 20, 10, 20, 10, 20, 10, 20]
    );
    let sum: Vec<i32> = (0..8).map(|i| i + [10, 20][i as usize % 2]).collect();
    assert_eq!(i32s(&buffer(&ints.args[2]).3.unwrap().bytes), sum);
    assert_eq!(floats.global_size, [4, 1, 1]);
    let a = f32s(buffer(&floats.args[0]).2.unwrap());
    let b = f32s(buffer(&floats.args[1]).2.unwrap());
    let out = buffer(&floats.args[2]).3.unwrap();
    let sum: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(compare(&ty("float"), out, &f32_bytes(&sum)), Ok(()));
}
