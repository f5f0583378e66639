//! Tests of the multi-kernel lines of the test-vector format (`launch:`, `pipe:`, `buffer:`,
//! `arg:`, `expect:`; docs/test-format.md).

use testfile::{compare_unordered, Expect, LaunchArgValue, TestCase, Tolerance};

fn parse_test(test: &str) -> TestCase {
    let src = format!("/*!\n[config]\nkernel_name: k\n\n[test]\n{test}\n!*/\n");
    match testfile::parse("t.cl", &src) {
        Ok(Some(mut f)) => {
            assert_eq!(f.tests.len(), 1);
            f.tests.remove(0)
        }
        Ok(None) => panic!("no header"),
        Err(e) => panic!(
            "{}",
            e.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// Errors of a one-test header; lines count from 1 at `/*!`, the test body starts at line 6.
fn errors(test: &str) -> Vec<String> {
    let src = format!("/*!\n[config]\nkernel_name: k\n\n[test]\n{test}\n!*/\n");
    match testfile::parse("t.cl", &src) {
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
        Ok(f) => panic!("expected errors, parsed {f:#?}"),
    }
}

#[track_caller]
fn assert_error(test: &str, line: u32, parts: &[&str]) {
    let errs = errors(test);
    let prefix = format!("t.cl:{line}: ");
    assert!(
        errs.iter()
            .any(|e| e.starts_with(&prefix) && parts.iter().all(|p| e.contains(p))),
        "no error at line {line} with {parts:?}:\n{}",
        errs.join("\n")
    );
}

const PRODUCER_CONSUMER: &str = "\
name: producer and consumer through a pipe
launch: pipe_producer 4096 128
launch: pipe_consumer 4096 128 after pipe_producer
pipe:   p float 4096
buffer: src float[4096] iota 0 1
buffer: dst float[4096] repeat 0
arg: pipe_producer 0 src
arg: pipe_producer 1 p
arg: pipe_consumer 0 dst
arg: pipe_consumer 1 p
arg: pipe_consumer 2 int 7
expect: dst float[4096] unordered iota 0 1 tolerance 1 ulp";

#[test]
fn the_issue_example_parses() {
    let t = parse_test(PRODUCER_CONSUMER);
    let m = t.multi.as_ref().expect("a multi-kernel test");
    assert_eq!(t.name, "producer and consumer through a pipe");
    assert_eq!(t.kernel_name, "pipe_producer");
    assert!(t.args.is_empty());
    assert_eq!(m.launches.len(), 2);
    assert_eq!(m.launches[0].global_size, [4096, 1, 1]);
    assert_eq!(m.launches[0].local_size, Some([128, 1, 1]));
    assert_eq!(m.launches[1].after, vec![0]);
    assert_eq!(m.pipes[0].name, "p");
    assert_eq!(m.pipes[0].max_packets, 4096);
    assert_eq!(m.pipes[0].packet_value_type.unwrap().byte_size(), 4);
    assert_eq!(m.buffers.len(), 2);
    let src = m.buffers[0].bytes.as_ref().unwrap();
    assert_eq!(f32::from_le_bytes(src[8..12].try_into().unwrap()), 2.0);
    assert_eq!(m.launches[0].args[0].value, LaunchArgValue::Buffer(0));
    assert_eq!(m.launches[0].args[1].value, LaunchArgValue::Pipe(0));
    match &m.launches[1].args[2].value {
        LaunchArgValue::Value { bytes, .. } => assert_eq!(bytes, &7i32.to_le_bytes()),
        v => panic!("{v:?}"),
    }
    let e = &m.expects[0];
    assert!(e.unordered);
    assert_eq!(e.buffer, 1);
    assert_eq!(e.expect.tolerance, Tolerance::Ulp(1));
    assert_eq!(e.expect.line, 17);
}

#[test]
fn dimensions_offsets_locals_and_defaults() {
    let t = parse_test(
        "launch: a 16,8 4,2 offset 1,2\nlaunch: b 5 NULL after a\nlaunch: c 3\n\
         buffer: out uint[2]\narg: a 0 local int[16]\narg: b 0 out\narg: c 0 uint random 5",
    );
    let m = t.multi.unwrap();
    assert_eq!(m.launches[0].dimensions, 2);
    assert_eq!(m.launches[0].global_size, [16, 8, 1]);
    assert_eq!(m.launches[0].local_size, Some([4, 2, 1]));
    assert_eq!(m.launches[0].global_offset, [1, 2, 0]);
    assert_eq!(m.launches[1].local_size, None);
    assert_eq!(m.launches[2].local_size, None);
    assert!(
        m.buffers[0].bytes.is_none(),
        "no values: unspecified contents"
    );
    assert!(matches!(
        m.launches[0].args[0].value,
        LaunchArgValue::Local { len: 16, .. }
    ));
    assert_eq!(
        t.dimensions, 2,
        "the test's NDRange repeats the first launch"
    );
}

#[test]
fn names_are_resolved_and_checked() {
    assert_error(
        "launch: k 4\narg: k 0 nowhere",
        7,
        &["`nowhere` is not a buffer or pipe"],
    );
    assert_error(
        "launch: k 4\nlaunch: j 4 after q",
        7,
        &["`after q`: no `launch:` line of this test runs `q`"],
    );
    assert_error(
        "launch: k 4\narg: j 0 int 1",
        7,
        &["no `launch:` line of this test runs `j`"],
    );
    assert_error(
        "launch: k 4\nlaunch: k 8",
        7,
        &["already launched at line 6"],
    );
    assert_error(
        "launch: k 4\nbuffer: b int[2] 1 2\npipe: b int 4",
        8,
        &["`b` is already declared at line 7"],
    );
    assert_error(
        "launch: k 4\narg: k 1 int 1",
        6,
        &["argument 0 of `k` is missing"],
    );
    assert_error(
        "launch: k 4\nbuffer: b int[2] 1 2\nexpect: b int[3] 1 2 3",
        8,
        &["is 12 bytes but the buffer (line 7) is 8 bytes"],
    );
    assert_error("buffer: b int[2] 1 2", 6, &["launches nothing"]);
}

#[test]
fn single_kernel_keys_do_not_mix_with_launches() {
    assert_error(
        "launch: k 4\nglobal_size: 4 1 1",
        7,
        &["`global_size` belongs to single-kernel tests"],
    );
    assert_error(
        "launch: k 4\narg_in: 0 int 1",
        6,
        &["`arg_in:`/`arg_out:` belong to single-kernel"],
    );
}

#[test]
fn malformed_lines_name_file_and_line() {
    assert_error(
        "launch: k",
        6,
        &["`launch: k`", "launch: <kernel> <global size>"],
    );
    assert_error(
        "launch: k 4,4 2",
        6,
        &["has 1 dimension(s), the global size 2"],
    );
    assert_error("launch: k 4 0", 6, &["a local size of 0"]);
    assert_error(
        "launch: k 4\npipe: p float",
        7,
        &["pipe: <name> <packet type> <max_packets>"],
    );
    assert_error("launch: k 4\npipe: p float 0", 7, &["max_packets `0`"]);
    assert_error(
        "launch: k 4\nbuffer: b int[2] 1 2 3",
        7,
        &["has 3 values; give 2"],
    );
    assert_error(
        "launch: k 4\nbuffer: b int[2]\nexpect: b int[2] random",
        8,
        &["not NULL or random"],
    );
    assert_error(
        "launch: k 4\narg: k x b",
        7,
        &["`x` is not an argument index"],
    );
}

#[test]
fn a_config_default_kernel_name_is_ignored_by_launch_tests() {
    let t = parse_test("launch: other 2\nbuffer: b int[1] 0\narg: other 0 b\nexpect: b int[1] 5");
    assert_eq!(t.kernel_name, "other");
}

#[test]
fn unordered_comparison_is_a_multiset_comparison() {
    let ty = testfile::ValueType::parse("int2").unwrap();
    let bytes = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let expect = Expect {
        line: 1,
        bytes: bytes(&[1, 2, 3, 4, -5, 6]),
        tolerance: Tolerance::Exact,
    };
    assert!(compare_unordered(&ty, &expect, &bytes(&[-5, 6, 1, 2, 3, 4])).is_ok());
    // lanes stay together: (1,4) is not an element of the expected multiset
    let m = compare_unordered(&ty, &expect, &bytes(&[1, 4, 3, 2, -5, 6])).unwrap_err();
    assert!(m.expected.contains("sorted order"), "{m}");
}
