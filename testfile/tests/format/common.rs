//! Helpers shared by the test modules: parsing that must succeed or fail, and byte decoders.

use testfile::{Arg, ArgKind, Expect, TestCase, TestFile, ValueType};

pub fn parse_ok(src: &str) -> TestFile {
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
pub fn errors(src: &str) -> Vec<String> {
    match testfile::parse("t.cl", src) {
        Err(errors) => errors.iter().map(|e| e.to_string()).collect(),
        Ok(f) => panic!("expected errors, parsed {f:#?}\nfrom:\n{src}"),
    }
}

/// Asserts that parsing reports an error at `line` whose message contains every `part`.
#[track_caller]
pub fn assert_error(src: &str, line: u32, parts: &[&str]) {
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
pub fn one_test(test: &str) -> String {
    format!("/*!\n[config]\nkernel_name: k\n\n[test]\n{test}\n!*/\nkernel void k() {{}}\n")
}

pub fn only_test(src: &str) -> TestCase {
    let mut f = parse_ok(src);
    assert_eq!(f.tests.len(), 1);
    f.tests.remove(0)
}

pub fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn i64s(b: &[u8]) -> Vec<i64> {
    b.chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// (type, len, input bytes, expect) of a buffer argument.
pub fn buffer(arg: &Arg) -> (ValueType, u32, Option<&Vec<u8>>, Option<&Expect>) {
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

pub fn ty(name: &str) -> ValueType {
    ValueType::parse(name).unwrap()
}

pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
