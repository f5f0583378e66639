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
fn vadd_ast_debug() {
    // The full Debug form, spans included: documents the exact data the lowering receives.
    let (_, r) = common::compile_path(&common::dir("kernels").join("vadd.cl"));
    let (prog, _) = r.expect("vadd checks");
    insta::assert_debug_snapshot!(prog.functions[0].body);
}

#[test]
fn rendered_type_errors() {
    let (sm, r) = common::compile_path(&common::dir("errors").join("types.cl"));
    let diags = r.expect_err("errors");
    let text = render(&sm, &diags, false);
    // file names are absolute paths; keep the snapshot machine-independent
    let text = text.replace(&common::dir("errors").display().to_string(), "tests/errors");
    insta::assert_snapshot!(text);
}
