//! Helpers shared by the integration tests.
#![allow(dead_code)]

use frontend::{
    ast::Program, compile, load_file, render, CompileResult, Diagnostic, Options, SourceMap,
};
use std::path::{Path, PathBuf};

pub fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(sub)
}

pub fn options() -> Options {
    Options {
        include_dirs: vec![dir("include")],
        ..Options::default()
    }
}

/// Compiles a file on disk; returns the source map for rendering.
pub fn compile_path(path: &Path) -> (SourceMap, CompileResult) {
    let mut sm = SourceMap::new();
    let f = load_file(&mut sm, path).expect("test file readable");
    let r = compile(&mut sm, f, &options());
    (sm, r)
}

/// Compiles source text.
pub fn compile_str(src: &str) -> (SourceMap, CompileResult) {
    let mut sm = SourceMap::new();
    let f = sm.add_file("input.cl", src);
    let r = compile(&mut sm, f, &options());
    (sm, r)
}

/// Compiles source text that must check; returns the program and warnings.
pub fn check_ok(src: &str) -> (Program, Vec<Diagnostic>) {
    let (sm, r) = compile_str(src);
    match r {
        Ok(x) => x,
        Err(d) => panic!("expected the program to check:\n{}", render(&sm, &d, false)),
    }
}

/// Compiles source text that must fail; returns the rendered diagnostics.
pub fn check_err(src: &str) -> Vec<Diagnostic> {
    let (_, r) = compile_str(src);
    match r {
        Ok(_) => panic!("expected errors for:\n{}", src),
        Err(d) => d,
    }
}

/// All `.cl` files of a test directory, sorted.
pub fn cl_files(sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir(sub))
        .expect("test dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    v.sort();
    v
}
