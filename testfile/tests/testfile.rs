//! Tests of the kernel-file test-vector format (the `testfile` crate, docs/test-format.md).

use testfile::{
    compare, Arg, ArgKind, Expect, ScalarType, TestCase, TestFile, Tolerance, ValueType,
};

// ---------------------------------------------------------------------------------------------
// Helpers

fn parse_ok(src: &str) -> TestFile {
    match testfile::parse("t.cl", src) {
        Ok(Some(f)) => f,
        Ok(None) => panic!("no header found in:\n{src}"),
        Err(errors) => panic!(
            "unexpected errors:\n{}\nin:\n{src}",
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// The rendered errors (`t.cl:<line>: <message>`).
fn errors(src: &str) -> Vec<String> {
    match testfile::parse("t.cl", src) {
        Err(errors) => errors.iter().map(|e| e.to_string()).collect(),
        Ok(f) => panic!("expected errors, parsed {f:#?}\nfrom:\n{src}"),
    }
}

/// Asserts that parsing reports an error at `line` whose message contains every `part`.
#[track_caller]
fn assert_error(src: &str, line: u32, parts: &[&str]) {
    let errs = errors(src);
    let prefix = format!("t.cl:{line}: ");
    assert!(
        errs.iter()
            .any(|e| e.starts_with(&prefix) && parts.iter().all(|p| e.contains(p))),
        "no error at line {line} containing {parts:?}; errors:\n{}\nin:\n{src}",
        errs.join("\n")
    );
}

/// A header with one `[test]` whose body is `test` (config sets kernel `k`).
fn one_test(test: &str) -> String {
    format!("/*!\n[config]\nkernel_name: k\n\n[test]\n{test}\n!*/\nkernel void k() {{}}\n")
}

fn only_test(src: &str) -> TestCase {
    let mut f = parse_ok(src);
    assert_eq!(f.tests.len(), 1);
    f.tests.remove(0)
}

fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn i64s(b: &[u8]) -> Vec<i64> {
    b.chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// (type, len, input bytes, expect) of a buffer argument.
fn buffer(arg: &Arg) -> (ValueType, u32, Option<&Vec<u8>>, Option<&Expect>) {
    match &arg.kind {
        ArgKind::Buffer {
            ty,
            len,
            input,
            expect,
        } => (*ty, *len, input.as_ref(), expect.as_ref()),
        other => panic!("argument {} is not a buffer: {other:?}", arg.index),
    }
}

fn ty(name: &str) -> ValueType {
    ValueType::parse(name).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Real piglit headers. These are the test headers (and kernels) of files in piglit's
// tests/cl/program/execute/, copied unchanged from the freedesktop piglit repository (MIT
// licence), to show that such files parse as piglit's program-tester reads them.

/// piglit tests/cl/program/execute/reference.cl
const PIGLIT_REFERENCE: &str = "/*!
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
const PIGLIT_BITSELECT: &str = "/*!
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
const PIGLIT_ATOMIC_ADD_LOCAL: &str = "/*!
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
const PIGLIT_FLOAT_CONVERT_LONG: &str = "/*!
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
const PIGLIT_ILOGB: &str = "/*!
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
    let doc = include_str!("../../docs/test-format.md");
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

// ---------------------------------------------------------------------------------------------
// Headers and structure

#[test]
fn files_without_header_return_none() {
    for src in [
        "",
        "kernel void k(global int *p) { *p = 1; }",
        "/* [config] */ kernel void k() {}",
        "/*! \\file k.cl Doxygen comment */\nkernel void k() {}",
        "/*!\n  \\brief documented\n  */\nkernel void k() {}",
    ] {
        assert_eq!(testfile::parse("t.cl", src), Ok(None), "{src}");
    }
}

#[test]
fn header_may_follow_code_and_comments() {
    let src = "// SPDX-License-Identifier: MIT\n/*! doc */\n#define N 4\n\
               /*!\n[config]\nkernel_name: k\n[test]\narg_out: 0 buffer int[1] 1\n!*/\n";
    let f = parse_ok(src);
    assert_eq!(f.line, 4);
    assert_eq!(f.tests[0].line, 7);
}

#[test]
fn crlf_line_endings() {
    let src = "/*!\r\n[config]\r\nkernel_name: k\r\n[test]\r\narg_out: 0 buffer int[2] 1 \\\r\n 2\r\n!*/\r\n";
    let t = only_test(src);
    assert_eq!(i32s(&buffer(&t.args[0]).3.unwrap().bytes), [1, 2]);
}

#[test]
fn build_only_file_has_no_tests() {
    let f = parse_ok(
        "/*!\n[config]\nname: builds\nclc_version_min: 12\nclc_version_max: 20\n\
         build_options: -cl-fast-relaxed-math  -DN=4\nrequire_device_extensions: cl_khr_fp64 \
         cl_khr_fp16\n!*/",
    );
    assert!(f.tests.is_empty());
    assert_eq!((f.clc_version_min, f.clc_version_max), (Some(12), Some(20)));
    assert_eq!(f.build_options, ["-cl-fast-relaxed-math", "-DN=4"]);
    assert_eq!(f.require_device_extensions, ["cl_khr_fp64", "cl_khr_fp16"]);
    let f = parse_ok("/*!\n[config]\nexpect_build_fail: true\n!*/");
    assert!(f.expect_build_fail);
}

#[test]
fn config_defaults_apply_to_every_test_and_tests_override_them() {
    let f = parse_ok(
        "/*!
[config]
kernel_name: add
dimensions: 2
global_size: 8 4 0
local_size: 2 2 0
global_offset: 1 2 3
build_options: -DX=1
expect_test_fail: false
tolerance: 0.5

[ test ]
arg_out: 0 buffer float[1] 1.0
arg_out: 1 buffer int[1] 1

[test]
name: second
kernel_name: sub
dimensions: 1
global_size: 16 0 0
local_size: NULL
expect_test_fail: 1
tolerance: 3 ulp
arg_out: 0 buffer float[1] 1.0 tolerance 0.25
arg_out: 1 buffer float[1] 1.0
!*/",
    );
    let [a, b] = &f.tests[..] else {
        panic!("two tests expected")
    };
    assert_eq!((a.name.as_str(), a.kernel_name.as_str()), ("add #1", "add"));
    assert_eq!(a.dimensions, 2);
    assert_eq!(a.global_size, [8, 4, 1]);
    assert_eq!(a.local_size, Some([2, 2, 1]));
    assert_eq!(a.global_offset, [1, 2, 0]);
    assert_eq!(a.build_options, ["-DX=1"]);
    assert!(!a.expect_test_fail);
    // The default tolerance applies to float outputs; integers stay exact.
    assert_eq!(buffer(&a.args[0]).3.unwrap().tolerance, Tolerance::Abs(0.5));
    assert_eq!(buffer(&a.args[1]).3.unwrap().tolerance, Tolerance::Exact);

    assert_eq!((b.name.as_str(), b.kernel_name.as_str()), ("second", "sub"));
    assert_eq!(b.dimensions, 1);
    assert_eq!(b.global_size, [16, 1, 1]);
    assert_eq!(b.local_size, None);
    assert_eq!(b.global_offset, [1, 0, 0]);
    assert!(b.expect_test_fail);
    assert_eq!(
        buffer(&b.args[0]).3.unwrap().tolerance,
        Tolerance::Abs(0.25)
    );
    assert_eq!(buffer(&b.args[1]).3.unwrap().tolerance, Tolerance::Ulp(3));
}

#[test]
fn keys_keep_piglit_spacing_and_comments() {
    let t = only_test(
        "/*!\n  [config]   # the config\n\tkernel_name :k\n[test]\n   arg_in:0   int   7 # seven\n!*/",
    );
    assert_eq!(t.kernel_name, "k");
    assert_eq!(
        t.args[0].kind,
        ArgKind::Scalar {
            ty: ty("int"),
            bytes: 7i32.to_le_bytes().to_vec()
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Values

#[test]
fn literal_integers() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int[6] 1 -2 0x10 -0x10 010 +3\n\
         arg_in: 1 buffer uchar[4] 0 255 0xff -1\n\
         arg_in: 2 buffer char[3] -128 127 0x80\n\
         arg_in: 3 buffer ulong[2] 18446744073709551615 -1\n\
         arg_in: 4 buffer short[1] -32768",
    ));
    assert_eq!(i32s(buffer(&t.args[0]).2.unwrap()), [1, -2, 16, -16, 8, 3]);
    assert_eq!(buffer(&t.args[1]).2.unwrap(), &vec![0, 255, 255, 255]);
    assert_eq!(buffer(&t.args[2]).2.unwrap(), &vec![0x80, 0x7f, 0x80]);
    assert_eq!(
        i64s(buffer(&t.args[3]).2.unwrap()),
        [-1, -1],
        "u64::MAX and -1 are the same bit pattern"
    );
    assert_eq!(buffer(&t.args[4]).2.unwrap(), &vec![0x00, 0x80]);
}

#[test]
fn literal_floats() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer float[10] 1 -2.5 1e3 1.5e-3 0x1p-2 -0x1.8p1 inf -Infinity NAN 0.1\n\
         arg_in: 1 buffer double[2] 0.1 0x1.fffffffffffffp1023\n\
         arg_in: 2 buffer half[3] 1.0 -2 65504",
    ));
    let v = f32s(buffer(&t.args[0]).2.unwrap());
    assert_eq!(
        &v[..8],
        [
            1.0,
            -2.5,
            1000.0,
            1.5e-3,
            0.25,
            -3.0,
            f32::INFINITY,
            f32::NEG_INFINITY
        ]
    );
    assert!(v[8].is_nan());
    assert_eq!(v[9], 0.1f32);
    let d = buffer(&t.args[1]).2.unwrap();
    assert_eq!(f64::from_le_bytes(d[..8].try_into().unwrap()), 0.1);
    assert_eq!(f64::from_le_bytes(d[8..].try_into().unwrap()), f64::MAX);
    assert_eq!(
        buffer(&t.args[2]).2.unwrap(),
        &[0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b].to_vec()
    );
}

#[test]
fn size_t_is_32_bits() {
    let t = only_test(&one_test(
        "arg_in: 0 size_t 4294967295\narg_in: 1 ptrdiff_t -1",
    ));
    assert_eq!(
        t.args[0].kind,
        ArgKind::Scalar {
            ty: ValueType::scalar(ScalarType::UInt),
            bytes: vec![0xff; 4]
        }
    );
    assert_eq!(
        t.args[1].kind,
        ArgKind::Scalar {
            ty: ValueType::scalar(ScalarType::Int),
            bytes: vec![0xff; 4]
        }
    );
}

#[test]
fn vectors_take_one_value_per_lane_and_pad_3_vectors() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int4[2] 1 2 3 4 5 6 7 8\n\
         arg_in: 1 buffer int3[2] 1 2 3 4 5 6\n\
         arg_in: 2 float3 0.5 1.5 2.5\n\
         arg_in: 3 buffer uchar3[3] repeat 1 2",
    ));
    assert_eq!(
        i32s(buffer(&t.args[0]).2.unwrap()),
        [1, 2, 3, 4, 5, 6, 7, 8]
    );
    let (t1, len, input, _) = buffer(&t.args[1]);
    assert_eq!(
        (t1.lanes, t1.storage_lanes(), t1.byte_size(), len),
        (3, 4, 16, 2)
    );
    assert_eq!(i32s(input.unwrap()), [1, 2, 3, 0, 4, 5, 6, 0]);
    let ArgKind::Scalar { ty: t2, bytes } = &t.args[2].kind else {
        panic!()
    };
    assert_eq!(*t2, ty("float3"));
    assert_eq!(f32s(bytes), [0.5, 1.5, 2.5, 0.0]);
    // repeat cycles over the lanes, skipping the padding (as piglit does).
    assert_eq!(
        buffer(&t.args[3]).2.unwrap(),
        &vec![1, 2, 1, 0, 2, 1, 2, 0, 1, 2, 1, 0]
    );
}

#[test]
fn repeat_fills_cyclically() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int[7] repeat 1 2 3\narg_out: 1 buffer float[3] REPEAT 0.5",
    ));
    assert_eq!(i32s(buffer(&t.args[0]).2.unwrap()), [1, 2, 3, 1, 2, 3, 1]);
    assert_eq!(f32s(&buffer(&t.args[1]).3.unwrap().bytes), [0.5; 3]);
}

#[test]
fn iota_counts_lane_by_lane() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int[5] iota 0\n\
         arg_in: 1 buffer int[4] iota 10 -3\n\
         arg_in: 2 buffer float2[2] iota 0.5 0.25\n\
         arg_in: 3 buffer uchar[4] iota 254\n\
         arg_out: 4 buffer uint[3] iota 0x10 0x10",
    ));
    assert_eq!(i32s(buffer(&t.args[0]).2.unwrap()), [0, 1, 2, 3, 4]);
    assert_eq!(i32s(buffer(&t.args[1]).2.unwrap()), [10, 7, 4, 1]);
    assert_eq!(f32s(buffer(&t.args[2]).2.unwrap()), [0.5, 0.75, 1.0, 1.25]);
    assert_eq!(
        buffer(&t.args[3]).2.unwrap(),
        &vec![254, 255, 0, 1],
        "wraps"
    );
    assert_eq!(u32s(&buffer(&t.args[4]).3.unwrap().bytes), [16, 32, 48]);
}

#[test]
fn random_is_deterministic_and_seedable() {
    let src = one_test(
        "arg_in: 0 buffer int[64] random\n\
         arg_in: 1 buffer int[64] random\n\
         arg_in: 2 buffer int[64] random 1000\n\
         arg_in: 3 buffer int[64] RANDOM 1000\n\
         arg_in: 4 buffer float[256] random 5\n\
         arg_in: 5 buffer uint[4] random 1001",
    );
    let t1 = only_test(&src);
    let t2 = only_test(&src);
    assert_eq!(t1, t2, "the same file gives the same values");
    let bytes = |i: usize| buffer(&t1.args[i]).2.unwrap().clone();
    assert_ne!(bytes(0), bytes(1), "each argument has its own stream");
    assert_eq!(bytes(2), bytes(3), "the same seed gives the same values");
    // A bare `random` is `random <1000 * test number + index>`.
    assert_eq!(bytes(1)[..16], bytes(5)[..]);
    let ints = i32s(&bytes(0));
    assert!(ints.iter().any(|&v| v < 0) && ints.iter().any(|&v| v > 1 << 24));
    let floats = f32s(&bytes(4));
    assert!(floats.iter().all(|x| (-1000.0..=1000.0).contains(x)));
    assert!(floats.iter().any(|&x| x < -500.0) && floats.iter().any(|&x| x > 500.0));
    assert!(floats.iter().any(|x| x.fract() != 0.0));
}

#[test]
fn null_and_local_arguments() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer float[16] NULL\n\
         arg_in: 1 local float4[64]\n\
         arg_in: 2 int null",
    ));
    assert_eq!(
        t.args.iter().map(|a| a.kind.clone()).collect::<Vec<_>>(),
        [
            ArgKind::NullBuffer {
                ty: ty("float"),
                len: 16
            },
            ArgKind::Local {
                ty: ty("float4"),
                len: 64
            },
            ArgKind::Local {
                ty: ty("int"),
                len: 1
            },
        ]
    );
}

#[test]
fn in_out_buffers_merge_by_index() {
    let t = only_test(&one_test(
        "arg_out: 1 buffer int[3] 2 4 6 tolerance 1\n\
         arg_in: 0 int 2\n\
         arg_in: 1 buffer int[3] 1 2 3\n\
         arg_in: 2 buffer uint[2] 0x3f800000 0\n\
         arg_out: 2 buffer float[2] 1.0 0.0",
    ));
    assert_eq!(
        t.args.iter().map(|a| a.index).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let (t1, len, input, expect) = buffer(&t.args[1]);
    assert_eq!((t1, len), (ty("int"), 3));
    assert_eq!(i32s(input.unwrap()), [1, 2, 3]);
    let expect = expect.unwrap();
    assert_eq!(i32s(&expect.bytes), [2, 4, 6]);
    assert_eq!((expect.line, expect.tolerance), (6, Tolerance::Abs(1.0)));
    assert_eq!(t.args[1].line, 6, "the first line of the argument");
    // piglit allows different types of one size: the buffer has the arg_out's type.
    let (t2, _, input, expect) = buffer(&t.args[2]);
    assert_eq!(t2, ty("float"));
    assert_eq!(u32s(input.unwrap()), [0x3f80_0000, 0]);
    assert_eq!(f32s(&expect.unwrap().bytes), [1.0, 0.0]);
}

#[test]
fn size_limits() {
    // 64 MiB exactly is allowed.
    let t = only_test(&one_test("arg_in: 0 buffer ulong16[524288] repeat 0"));
    assert_eq!(buffer(&t.args[0]).2.unwrap().len(), 64 << 20);
    assert_eq!(testfile::MAX_BUFFER_BYTES, 64 << 20);
    for line in [
        "arg_in: 0 buffer ulong16[524289] repeat 0",
        "arg_in: 0 buffer int[4000000000] random",
        "arg_out: 0 buffer int16[4294967295] repeat 1",
        "arg_in: 0 local double16[4294967295]",
        "arg_in: 0 buffer float[4294967295] NULL",
    ] {
        assert_error(
            &one_test(line),
            6,
            &["bytes; the limit is 67108864 bytes (64 MiB)"],
        );
    }
    assert_error(
        &one_test("arg_in: 0 buffer int[99999999999999999999] 0"),
        6,
        &["the count 99999999999999999999 is too large"],
    );
}

// ---------------------------------------------------------------------------------------------
// Errors: every message names the problem and what is expected instead.

#[test]
fn error_messages() {
    let cases: &[(&str, u32, &[&str])] = &[
        (
            "arg_out: 2 buffer int[4] 1 2 3\narg_in: 0 int 1\narg_in: 1 int 1",
            6,
            &["t.cl:6: arg_out: 2 buffer int[4] has 3 values; give 4 values, or `repeat 1 2 3`"],
        ),
        (
            "arg_in: 0 buffer int4[2] 1 2 3 4",
            6,
            &["has 4 values; give 8 values (2 elements of 4 lanes)"],
        ),
        ("arg_in: 0 int4 1 2", 6, &["has 2 values; give 4 values (one per lane)"]),
        ("arg_in: 0 buffer int[2] 1 2.5", 6, &["value 2: `2.5` is not an integer (this is a float"]),
        ("arg_in: 0 buffer uchar[1] 256", 6, &["`256` does not fit in uchar: give a value from 0 to 255"]),
        (
            "arg_in: 0 char -129",
            6,
            &["`-129` does not fit in char: give a value from -128 to 127, or a bit pattern up to 255"],
        ),
        ("arg_in: 0 int 09", 6, &["`09` is not a valid octal number"]),
        ("arg_in: 0 buffer float[1] 1.0f", 6, &["`1.0f` is not a number"]),
        ("arg_in: 0 buffer flaot[1] 1", 6, &["unknown type `flaot`", "did you mean `float`?"]),
        ("arg_in: 0 flaot4 1 2 3 4", 6, &["unknown type `flaot4`", "did you mean `float4`?"]),
        ("arg_in: 0 int5 1", 6, &["unknown type `int5`"]),
        (
            "arg_in: 0 sampler normalized_coords 1 addressing_mode none filter_mode nearest",
            6,
            &["sampler arguments are not supported"],
        ),
        ("arg_in: 0 buffer int 1", 6, &["expected `<type>[<count>]`", "found `int`"]),
        ("arg_in: 0 buffer int[0]", 6, &["a buffer holds at least 1 element"]),
        ("arg_in: 0 buffer int[x] 1", 6, &["expected `<type>[<count>]`"]),
        ("arg_in: 0 buffer", 6, &["needs `<type>[<count>]`"]),
        ("arg_in: 0", 6, &["needs a type and values"]),
        ("arg_in: x int 1", 6, &["the argument index `x` must be a number"]),
        ("arg_in: 0 buffer int[2]", 6, &["no values"]),
        ("arg_in: 0 buffer int[2] 1 2 tolerance 1", 6, &["a tolerance belongs on the arg_out line"]),
        ("arg_in: 0 int 1 tolerance 1", 6, &["a tolerance belongs on an arg_out buffer"]),
        ("arg_out: 0 int 1", 6, &["arg_out takes only buffers", "arg_out: 0 buffer int[1] <values>"]),
        ("arg_out: 0 buffer int[2] random", 6, &["an arg_out buffer cannot be random"]),
        ("arg_out: 0 buffer int[2] NULL", 6, &["an arg_out buffer cannot be NULL"]),
        ("arg_out: 0 local int[2]", 6, &["local memory cannot be an arg_out"]),
        ("arg_in: 0 local int[2] 1 2", 6, &["takes no values"]),
        ("arg_out: 0 buffer int[1] 1 tolerance 1 ulp", 6, &["`tolerance 1 ulp` is for float types"]),
        ("arg_out: 0 buffer int[1] 1 tolerance -1", 6, &["a whole number >= 0"]),
        ("arg_out: 0 buffer float[1] 1 tolerance 0.5 ulp", 6, &["give a whole number of ulps"]),
        ("arg_out: 0 buffer float[1] 1 tolerance", 6, &["cannot read `tolerance `"]),
        ("arg_out: 0 buffer float[1] 1 tolerance nan", 6, &["a number >= 0"]),
        ("arg_in: 0 buffer int[2] repeat", 6, &["`repeat` needs at least one value"]),
        ("arg_in: 0 buffer int[2] random 1 2", 6, &["`random` takes at most one seed"]),
        ("arg_in: 0 buffer int[2] random -1", 6, &["the seed must be an integer"]),
        ("arg_in: 0 buffer int[2] iota", 6, &["`iota` takes a start and an optional step"]),
        ("arg_in: 0 buffer int[2] iota 1.5", 6, &["iota start: `1.5` is not an integer"]),
        ("arg_in: 0 buffer uchar[2] iota 300", 6, &["iota start: `300` does not fit in uchar"]),
        ("arg_in: 0 int 1\narg_in: 0 int 2", 7, &["`arg_in` for argument 0 is already given at line 6"]),
        ("arg_in: 0 int 1\narg_in: 2 int 2", 5, &["argument 1 is missing (this test gives arguments 0, 2)"]),
        ("arg_in: 1 int 1", 5, &["argument 0 is missing"]),
        ("arg_in: 0 int 1\narg_out: 0 buffer int[1] 1", 7, &["is a buffer but `arg_in: 0 int` (line 6) is a by-value argument"]),
        (
            "arg_in: 0 buffer int[2] 1 2\narg_out: 0 buffer int[3] 1 2 3",
            7,
            &["`arg_out: 0 buffer int[3]` is 12 bytes but `arg_in: 0 buffer int[2]` (line 6) is 8 bytes"],
        ),
        ("name: a/b\narg_in: 0 int 1", 6, &["test name `a/b` contains `/`"]),
        ("dimensions: 4\narg_in: 0 int 1", 6, &["give the number of work dimensions, 1, 2 or 3"]),
        ("global_size: 4 1\narg_in: 0 int 1", 6, &["give 3 numbers, one per dimension, e.g. `global_size: 64 1 1`"]),
        ("global_size: 4 1 -1\narg_in: 0 int 1", 6, &["`-1` is not a size from 0 to 4294967295"]),
        ("global_size: 4 1 4294967296\narg_in: 0 int 1", 6, &["size_t is 32 bits"]),
        ("dimensions: 2\nlocal_size: 4 0 0\narg_in: 0 int 1", 7, &["local_size is 0 in dimension 1, which is used (dimensions: 2)"]),
        ("expect_test_fail: yes\narg_in: 0 int 1", 6, &["give true or false"]),
        ("kernel_name: NULL\narg_in: 0 int 1", 6, &["only meaningful in [config]"]),
        ("kernel_name: 2k\narg_in: 0 int 1", 6, &["is not a kernel name"]),
        ("kernal_name: k\narg_in: 0 int 1", 6, &["unknown key `kernal_name` in [test] (did you mean `kernel_name`?)"]),
        ("build_options: -O2\narg_in: 0 int 1", 6, &["`build_options` belongs in [config]"]),
        ("name: a\nname: b\narg_in: 0 int 1", 7, &["`name` is already given at line 6 in this [test]"]),
        ("tolerance: 1 ulps\narg_in: 0 int 1", 6, &["write `tolerance <x>` or `tolerance <n> ulp`"]),
        ("arg_in: 0 int 1\nbogus line", 7, &["cannot read `bogus line`: expected `key: value` or a `[section]`"]),
        ("global_size:\narg_in: 0 int 1", 6, &["`global_size:` has no value"]),
        ("[tset]\narg_in: 0 int 1", 6, &["unknown section [tset] (did you mean [test]?)"]),
        ("[test\narg_in: 0 int 1", 6, &["a section header is `[config]` or `[test]`"]),
    ];
    for (body, line, parts) in cases {
        assert_error(&one_test(body), *line, parts);
    }
}

#[test]
fn structural_errors() {
    // Missing kernel_name, reported at the [test] line.
    assert_error(
        "/*!\n[config]\n[test]\nname: t1\narg_in: 0 int 1\n!*/",
        3,
        &["test `t1` has no kernel_name; add `kernel_name: <kernel>` to this [test] or to [config]"],
    );
    assert_error(
        "/*!\n[config]\nkernel_name: NULL\n[test]\narg_in: 0 int 1\n!*/",
        4,
        &["has no kernel_name"],
    );
    // [config] is required, once, before the tests.
    assert_error(
        "/*!\n[test]\nkernel_name: k\n!*/",
        2,
        &["[test] before any [config]"],
    );
    assert_error("/*!\n\n!*/", 1, &["no [config] section"]);
    assert_error(
        "/*!\nname: x\n!*/",
        2,
        &["`name: x` is outside any section"],
    );
    assert_error(
        "/*!\n[config]\n[config]\n!*/",
        3,
        &["second [config] section; the first is at line 2"],
    );
    let src = "/*!\n[test]\nkernel_name: k\n[config]\n!*/";
    assert_error(src, 2, &["[test] before any [config]"]);
    assert_error(
        src,
        4,
        &["[config] must come before the first [test] (line 2)"],
    );
    assert_error(
        "/*!\n[config]\narg_in: 0 int 1\n!*/",
        3,
        &["`arg_in` belongs in a [test] section"],
    );
    assert_error(
        "/*!\n[config]\nprogram_source_file: a.cl\n!*/",
        3,
        &["not supported in a kernel file's header"],
    );
    assert_error(
        "/*!\n[config]\n[program source]\nkernel void k() {}\n!*/",
        3,
        &["[program source] is not supported"],
    );
    assert_error(
        "/*!\n[config]\nexpect_build_fail: true\n[test]\nkernel_name: k\n!*/",
        4,
        &["no [test] section is allowed with `expect_build_fail: true`"],
    );
    assert_error(
        "/*!\n[config]\nclc_version_min: 1.2\n!*/",
        3,
        &["give the OpenCL C version times 10, e.g. 12 for 1.2"],
    );
    assert_error(
        "/*!\n[config]\nnamme: x\n!*/",
        3,
        &["unknown key `namme` in [config] (did you mean `name`?)"],
    );
    // Unterminated and mis-terminated headers.
    assert_error(
        "int x;\n/*!\n[config]\nkernel_name: k\n",
        2,
        &["test header opened with `/*!` is never closed; end it with `!*/`"],
    );
    assert_error(
        "/*!\n[config]\nkernel_name: k\n*/\nkernel void k() {}",
        1,
        &["test header ends with `*/`; close it with `!*/`"],
    );
    assert_error(
        "/*!\n[config]\n!*/\n/*!\n[config]\n!*/",
        4,
        &["second test header"],
    );
}

#[test]
fn all_errors_of_a_file_are_reported_in_line_order() {
    let errs = errors(
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 flaot 1\narg_in: 1 int x\n\
         [test]\nglobal_size: 1\narg_in: 0 int 1\n!*/",
    );
    let lines: Vec<&str> = errs.iter().map(|e| e.split(':').nth(1).unwrap()).collect();
    assert_eq!(lines, ["5", "6", "8"], "{errs:#?}");
    assert!(errs[0].starts_with("t.cl:5: unknown type `flaot`"));
}

#[test]
fn a_bad_argument_line_is_reported_once() {
    let errs = errors(&one_test("arg_in: 0 flaot 1\narg_in: 1 int 2"));
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let errs = errors("/*!\n[config]\n[test]\narg_in: 0 int 1\narg_in: 2 int 1\n!*/");
    assert_eq!(
        errs,
        [
            "t.cl:3: test has no kernel_name; add `kernel_name: <kernel>` to this [test] or to \
             [config]",
            "t.cl:3: argument 1 is missing (this test gives arguments 0, 2); every kernel \
             argument needs an `arg_in:` or `arg_out:` line"
        ]
    );
}

#[test]
fn long_text_is_clipped_in_messages() {
    let values = "1 ".repeat(10_000);
    let errs = errors(&one_test(&format!("arg_in: 0 buffer int[4] {values}")));
    assert!(
        errs[0].ends_with("give 4 values, or `repeat 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1...`"),
        "{}",
        errs[0]
    );
    let token = "x".repeat(100_000);
    for body in [
        format!("arg_in: 0 {token} 1"),
        format!("arg_in: 0 buffer int[{token}] 1"),
        format!("{token}: 1"),
        format!("arg_in: 0 int {token}"),
        format!("global_size: {token} 1 1"),
    ] {
        let errs = errors(&one_test(&body));
        assert!(errs.iter().all(|e| e.len() < 600), "{errs:?}");
    }
}

#[test]
fn error_display_is_file_line_message() {
    let e = testfile::parse("dir/k.cl", "/*!\n[config]\nfoo: 1\n!*/").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].file.as_str(), e[0].line), ("dir/k.cl", 3));
    assert!(e[0]
        .to_string()
        .starts_with("dir/k.cl:3: unknown key `foo` in [config]"));
}

// ---------------------------------------------------------------------------------------------
// Garbage never panics

/// xorshift64*: a fixed generator so the garbage is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses and, when the parse succeeds, checks the invariants a runner relies on.
fn parse_checked(src: &str) {
    let Ok(Some(f)) = testfile::parse("fuzz.cl", src) else {
        return;
    };
    for t in &f.tests {
        assert!((1..=3).contains(&t.dimensions));
        for (i, a) in t.args.iter().enumerate() {
            assert_eq!(a.index as usize, i);
            match &a.kind {
                ArgKind::Scalar { ty, bytes } => assert_eq!(bytes.len(), ty.byte_size()),
                ArgKind::Buffer {
                    ty,
                    len,
                    input,
                    expect,
                } => {
                    let n = *len as usize * ty.byte_size();
                    assert!(input.as_ref().is_none_or(|b| b.len() == n));
                    if let Some(e) = expect {
                        assert_eq!(e.bytes.len(), n);
                        assert_eq!(compare(ty, e, &e.bytes), Ok(()), "values match themselves");
                    }
                    assert!(input.is_some() || expect.is_some());
                }
                ArgKind::Local { .. } | ArgKind::NullBuffer { .. } => {}
            }
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let vocabulary = [
        "[config]",
        "[test]",
        "[",
        "]",
        "[ test ]",
        "[program source]",
        "name:",
        "kernel_name:",
        "kernel_name: k",
        "dimensions:",
        "global_size:",
        "local_size:",
        "global_offset:",
        "tolerance:",
        "arg_in:",
        "arg_out:",
        "expect_test_fail:",
        "expect_build_fail: true",
        "build_options:",
        "clc_version_min:",
        "buffer",
        "local",
        "int",
        "uint4",
        "float3",
        "half",
        "double16",
        "char",
        "size_t",
        "int[4]",
        "float4[2]",
        "uchar3[3]",
        "long[1]",
        "half[2]",
        "int[0]",
        "int[4000000000]",
        "double16[99999999999999999999]",
        "int[",
        "]]",
        "random",
        "random 7",
        "repeat",
        "iota",
        "NULL",
        "null",
        "tolerance",
        "ulp",
        "0",
        "1",
        "2",
        "3",
        "-1",
        "0x7fffffff",
        "0x",
        "-0x80",
        "010",
        "09",
        "1.5",
        "-2.5e-3",
        "0x1.8p3",
        "0x1p99999999999",
        "1e999",
        "nan",
        "-nan",
        "inf",
        "-inf",
        "99999999999999999999999999",
        "\\",
        "#",
        ":",
        "::",
        "/*!",
        "!*/",
        "*/",
        "\t",
        " ",
        "é",
        "\u{0}",
        "\r",
    ];
    for round in 0..4000 {
        let src = match round % 4 {
            // Token soup inside a header.
            0 | 1 => {
                let mut s = String::from("/*!\n");
                for _ in 0..rng.below(60) {
                    s.push_str(vocabulary[rng.below(vocabulary.len())]);
                    s.push(if rng.below(4) == 0 { '\n' } else { ' ' });
                }
                if rng.below(8) != 0 {
                    s.push_str("\n!*/\n");
                }
                s
            }
            // Random bytes, with and without a header around them.
            2 => {
                let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.next() as u8).collect();
                let body = String::from_utf8_lossy(&bytes).into_owned();
                if rng.below(2) == 0 {
                    format!("/*!\n[config]\n{body}\n!*/")
                } else {
                    body
                }
            }
            // Mutations of real headers.
            _ => {
                let base = [
                    PIGLIT_REFERENCE,
                    PIGLIT_BITSELECT,
                    PIGLIT_ATOMIC_ADD_LOCAL,
                    PIGLIT_FLOAT_CONVERT_LONG,
                    PIGLIT_ILOGB,
                ][rng.below(5)];
                let mut chars: Vec<char> = base.chars().collect();
                for _ in 0..1 + rng.below(6) {
                    let at = rng.below(chars.len());
                    match rng.below(3) {
                        0 => {
                            chars.remove(at);
                        }
                        1 => chars
                            .insert(at, "[]:#\\ \n0-x.9NUL".chars().nth(rng.below(15)).unwrap()),
                        _ => {
                            let word = vocabulary[rng.below(vocabulary.len())];
                            for (k, c) in word.chars().enumerate() {
                                chars.insert(at + k, c);
                            }
                        }
                    }
                }
                chars.into_iter().collect()
            }
        };
        parse_checked(&src);
    }
}

#[test]
fn edge_cases_never_panic() {
    for src in [
        "/*!",
        "/*!!*/",
        "/*!*/",
        "/*! !*/",
        "/*![config]!*/",
        "/*![test]",
        "/*!\n[config]\\\n",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 4294967295 int 1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 4294967296 int 1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer int[1] 0x1p99999999999999999\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer float[1] 0x1p-99999999999999999\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer double[1] 0x.p1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer long[2] iota -9223372036854775808 -9223372036854775808\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer ulong[2] iota 18446744073709551615 18446744073709551615\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer half[2] iota 65504 1e308\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer int[1] 1 tolerance tolerance\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_out: 0 buffer float[1] 1 tolerance 1e999 ulp\n!*/",
        "/*!\n[config]\ndimensions: 3\nglobal_size: 0 0 0\nlocal_size: 0 0 0\nkernel_name: k\n[test]\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\n\u{feff}arg_in: 0 int 1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 int ١\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 int 1 \\\n\\\n\\\n!*/",
    ] {
        parse_checked(src);
    }
    let long_line = format!(
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer int[100000] {}\n!*/",
        "7 ".repeat(100_000)
    );
    parse_checked(&long_line);
}

// ---------------------------------------------------------------------------------------------
// compare

fn expect(ty: &str, values: &str, tolerance: Tolerance) -> (ValueType, Expect) {
    let t = only_test(&one_test(&format!("arg_out: 0 buffer {ty} {values}")));
    let mut e = buffer(&t.args[0]).3.unwrap().clone();
    e.tolerance = tolerance;
    (buffer(&t.args[0]).0, e)
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn compare_integers() {
    let (t, e) = expect("int[3]", "1 -2 3", Tolerance::Exact);
    let ok: Vec<u8> = [1i32, -2, 3].iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(compare(&t, &e, &ok), Ok(()));
    let bad: Vec<u8> = [1i32, -3, 4].iter().flat_map(|x| x.to_le_bytes()).collect();
    let m = compare(&t, &e, &bad).unwrap_err();
    assert_eq!((m.index, m.lane, m.count, m.total), (1, 0, 2, 3));
    assert_eq!(m.expected, "-2 (0xfffffffe)");
    assert_eq!(m.actual, "-3 (0xfffffffd)");
    assert_eq!(
        m.to_string(),
        "int[1]: expected -2 (0xfffffffe), got -3 (0xfffffffd); 2 of 3 values differ"
    );
    // piglit's integer tolerance: |e - a| <= n.
    let (t, e) = expect("int[3]", "1 -2 3", Tolerance::Abs(1.0));
    assert_eq!(compare(&t, &e, &bad), Ok(()));
    // Unsigned values compare as unsigned.
    let (t, e) = expect("uint[1]", "0", Tolerance::Abs(1.0));
    assert!(compare(&t, &e, &u32::MAX.to_le_bytes()).is_err());
    let (t, e) = expect("ulong[1]", "18446744073709551615", Tolerance::Exact);
    assert_eq!(compare(&t, &e, &u64::MAX.to_le_bytes()), Ok(()));
}

#[test]
fn compare_floats() {
    let (t, e) = expect("float[4]", "1.0 0.0 nan -inf", Tolerance::Exact);
    assert_eq!(
        compare(
            &t,
            &e,
            &f32_bytes(&[1.0, -0.0, -f32::NAN, f32::NEG_INFINITY])
        ),
        Ok(())
    );
    for (i, actual) in [
        [1.0000001, 0.0, f32::NAN, f32::NEG_INFINITY],
        [1.0, 1e-45, f32::NAN, f32::NEG_INFINITY],
        [1.0, 0.0, 0.0, f32::NEG_INFINITY],
        [1.0, 0.0, f32::NAN, f32::MIN],
    ]
    .iter()
    .enumerate()
    {
        let m = compare(&t, &e, &f32_bytes(actual)).unwrap_err();
        assert_eq!(m.index as usize, i);
    }
    // A NaN never matches a number.
    let (t, e) = expect("float[1]", "1.0", Tolerance::Abs(f64::INFINITY));
    assert!(compare(&t, &e, &f32_bytes(&[f32::NAN])).is_err());

    let (t, e) = expect("float[1]", "100.0", Tolerance::Abs(0.5));
    assert_eq!(compare(&t, &e, &f32_bytes(&[100.5])), Ok(()));
    assert_eq!(compare(&t, &e, &f32_bytes(&[99.5])), Ok(()));
    let m = compare(&t, &e, &f32_bytes(&[100.51])).unwrap_err();
    assert_eq!(
        m.to_string(),
        "float[0]: expected 100.0 (0x42c80000) (tolerance 0.5), got 100.51 (0x42c9051f)"
    );
}

#[test]
fn compare_ulp_like_piglit() {
    let up = |x: f32, n: u32| f32::from_bits(x.to_bits() + n);
    let down = |x: f32, n: u32| f32::from_bits(x.to_bits() - n);
    let (t, e) = expect("float[1]", "1.5", Tolerance::Ulp(2));
    assert_eq!(compare(&t, &e, &f32_bytes(&[up(1.5, 2)])), Ok(()));
    assert_eq!(compare(&t, &e, &f32_bytes(&[down(1.5, 2)])), Ok(()));
    let m = compare(&t, &e, &f32_bytes(&[up(1.5, 3)])).unwrap_err();
    assert!(m.to_string().contains("(tolerance 2 ulp)"), "{m}");
    // The ulp is that of the expected value, away from zero: below a power of two the values
    // are twice as dense, so 1 ulp of 1.0 reaches 2 values down.
    let (t, e) = expect("float[1]", "1.0", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &f32_bytes(&[down(1.0, 2)])), Ok(()));
    assert!(compare(&t, &e, &f32_bytes(&[down(1.0, 3)])).is_err());
    // Zero: one ulp is the smallest subnormal.
    let (t, e) = expect("float[1]", "0", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &f32_bytes(&[-1e-45])), Ok(()));
    assert!(compare(&t, &e, &f32_bytes(&[3e-45])).is_err());
    // The largest float: its ulp is measured towards zero.
    let (t, e) = expect("float[1]", "0x1.fffffep127", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &f32_bytes(&[down(f32::MAX, 1)])), Ok(()));
    assert!(compare(&t, &e, &f32_bytes(&[f32::INFINITY])).is_err());
    // piglit: 2^24 ulp or more accepts any number.
    let (t, e) = expect("float[1]", "1", Tolerance::Ulp(1 << 24));
    assert_eq!(compare(&t, &e, &f32_bytes(&[-1e30])), Ok(()));
}

#[test]
fn compare_half_and_double() {
    let (t, e) = expect("half[2]", "1.0 -2.0", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &[0x01, 0x3c, 0x00, 0xc0]), Ok(()));
    let m = compare(&t, &e, &[0x02, 0x3c, 0x00, 0xc0]).unwrap_err();
    assert_eq!(m.expected, "1.0 (0x3c00)");
    assert_eq!(m.actual, "1.0019531 (0x3c02)");
    let (t, e) = expect("double[1]", "0.1", Tolerance::Ulp(1));
    let next = f64::from_bits(0.1f64.to_bits() + 1);
    assert_eq!(compare(&t, &e, &next.to_le_bytes()), Ok(()));
    let far = f64::from_bits(0.1f64.to_bits() + 2);
    assert!(compare(&t, &e, &far.to_le_bytes()).is_err());
}

#[test]
fn compare_vectors_ignores_padding() {
    let (t, e) = expect("float3[2]", "1 2 3 4 5 6", Tolerance::Exact);
    assert_eq!(e.bytes.len(), 32);
    let actual = f32_bytes(&[1.0, 2.0, 3.0, 99.0, 4.0, 5.0, 6.0, f32::NAN]);
    assert_eq!(compare(&t, &e, &actual), Ok(()));
    let actual = f32_bytes(&[1.0, 2.0, 3.0, 0.0, 4.0, 7.0, 6.0, 0.0]);
    let m = compare(&t, &e, &actual).unwrap_err();
    assert_eq!((m.index, m.lane, m.count, m.total), (1, 1, 1, 6));
    assert_eq!(
        m.to_string(),
        "float3[1] lane 1: expected 5.0 (0x40a00000), got 7.0 (0x40e00000)"
    );
}

#[test]
#[should_panic(expected = "read back 4 bytes of a int buffer that has 8 bytes")]
fn compare_panics_on_wrong_length() {
    let (t, e) = expect("int[2]", "1 2", Tolerance::Exact);
    let _ = compare(&t, &e, &[0; 4]);
}
