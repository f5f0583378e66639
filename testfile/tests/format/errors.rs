//! Errors: every message names the problem and what is expected instead, all of a file's
//! errors are reported in line order, and long text is clipped.

use crate::common::*;

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
