//! Finding the header, `[config]` defaults and `[test]` overrides, spacing and comments.

use testfile::{ArgKind, Tolerance};

use crate::common::*;

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
