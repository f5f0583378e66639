//! Golden outputs: the checked AST of vadd and the rendered diagnostics of an error file.
//! Bless changes with `INSTA_UPDATE=always cargo test -p frontend --test snapshots` (or
//! `cargo insta review`), and review every snapshot diff like code.

mod common;

use frontend::render;

#[test]
fn vadd_ast() {
    let (sm, r) = common::compile_path(&common::dir("kernels").join("vadd.cl"));
    let (prog, warnings) = r.unwrap_or_else(|d| panic!("{}", render(&sm, &d, false)));
    assert!(warnings.is_empty());
    insta::assert_snapshot!(prog.dump());
}

#[test]
fn brief_examples_ast() {
    let (sm, r) = common::compile_path(&common::dir("kernels").join("brief_examples.cl"));
    let (prog, _) = r.unwrap_or_else(|d| panic!("{}", render(&sm, &d, false)));
    insta::assert_snapshot!(prog.dump());
}

#[test]
fn pipes_all_ast() {
    // Every pipe built-in, Xilinx program-scope pipes, counters, async copies and printf: the
    // shapes the emulator and the lowering receive.
    let (sm, r) = common::compile_path(&common::dir("kernels").join("pipes_all.cl"));
    let (prog, warnings) = r.unwrap_or_else(|d| panic!("{}", render(&sm, &d, false)));
    assert!(warnings.is_empty());
    insta::assert_snapshot!(prog.dump());
}

#[test]
fn vadd_ast_debug() {
    // The full Debug form, spans included: documents the exact data the lowering receives.
    let (_, r) = common::compile_path(&common::dir("kernels").join("vadd.cl"));
    let (prog, _) = r.expect("vadd checks");
    insta::assert_debug_snapshot!(prog.functions[0].body);
}

/// The rendered diagnostics of an error-suite file, with machine-independent paths.
fn rendered(file: &str) -> String {
    let (sm, r) = common::compile_path(&common::dir("errors").join(file));
    let diags = match r {
        Ok((_, warnings)) => warnings,
        Err(d) => d,
    };
    assert!(!diags.is_empty(), "{} produced no diagnostics", file);
    let text = render(&sm, &diags, false);
    // file names are absolute paths; keep the snapshot machine-independent
    text.replace(&common::dir("errors").display().to_string(), "tests/errors")
}

#[test]
fn rendered_type_errors() {
    insta::assert_snapshot!(rendered("types.cl"));
}

#[test]
fn rendered_pipe_errors() {
    insta::assert_snapshot!(rendered("pipes_rules.cl"));
}

#[test]
fn rendered_counter_errors() {
    insta::assert_snapshot!(rendered("counters.cl"));
}

#[test]
fn rendered_pipe_and_async_warnings() {
    insta::assert_snapshot!(rendered("pipe_async_warnings.cl"));
}

#[test]
fn rendered_c11_atomic_errors() {
    insta::assert_snapshot!(rendered("c11_atomics.cl"));
}

#[test]
fn c11_atomics_ast() {
    // The shapes of the OpenCL C 2.0 atomics the emulator and the lowering receive: object
    // pointers cast to the value type, orders and scopes dropped except by the fence.
    let (sm, r) = common::compile_path(&common::dir("kernels").join("c11_atomics.cl"));
    let (prog, warnings) = r.unwrap_or_else(|d| panic!("{}", render(&sm, &d, false)));
    assert!(warnings.is_empty());
    insta::assert_snapshot!(prog.dump());
}

#[test]
fn rendered_typedef_scope_errors() {
    insta::assert_snapshot!(rendered("typedef_scope.cl"));
}
