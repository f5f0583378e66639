//! frontend: OpenCL C source -> checked, typed AST with spans, or diagnostics.
//!
//! Stages, each in its own module, in the order data flows:
//! `lexer` (bytes -> preprocessing tokens with spans) -> `preprocess` (directives, macros,
//! includes; pragmas become tokens) -> `parser` (lalrpop grammar -> syntax tree, `syntax`) ->
//! `check` (names, types, implicit conversions -> [`ast::Program`]).
//!
//! Invariants of the output are documented in [`ast`]. A user error is always a
//! [`Diagnostic`], never a panic; every diagnostic has a span into a file of the `SourceMap`
//! (tokens from macro expansion carry the span of the macro use). All errors of a file are
//! reported, except that errors in preprocessing directives stop before parsing, and after
//! syntax errors only the type errors of items that parsed cleanly are kept (the others would
//! mostly be consequences of the syntax errors).
//!
//! Entry points: [`load_file`] + [`compile`] with [`Options`]; [`render`] for diagnostics;
//! [`ast::Program::dump`] prints a checked program (used by the snapshot tests and by
//! `cargo run -p frontend --example dump -- file.cl`).
//!
//! Supported: OpenCL C 2.0 as used by FPGA kernels — C99 expressions and statements, structs,
//! unions, enums, typedefs, vectors and swizzles, address spaces, kernel/helper functions,
//! attributes, pipes, async copies, atomics (OpenCL 1.x, the 64-bit `atom_*`, and the OpenCL
//! C 2.0 atomic types and functions) and atomic counters, the preprocessor. Rejected
//! with "not supported on FPGAs": images, samplers, function pointers, recursion, device-side
//! enqueue, goto, work-group collectives, bit-fields, `static` locals;
//! `double` and `half` arithmetic need extensions this device does not have.

pub mod ast;
pub mod builtins;
mod check;
pub mod diag;
pub mod lexer;
pub mod literal;
pub mod parser;
pub mod preprocess;
mod print;
pub mod span;
pub mod syntax;
pub mod types;
pub mod visit;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused)]
    grammar
);

pub use diag::{render, Diagnostic, Severity};
pub use span::{FileId, SourceMap, Span};

use std::path::{Path, PathBuf};

/// What [`compile`] returns: the program and its warnings, or every diagnostic (errors first).
pub type CompileResult = Result<(ast::Program, Vec<Diagnostic>), Vec<Diagnostic>>;

/// Compiler options that affect the front end.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-D NAME` (None) or `-D NAME=VALUE`.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U NAME`, applied after the predefined macros and `defines`.
    pub undefines: Vec<String>,
    /// Searched for `#include "..."` after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// Enable double precision (`cl_khr_fp64`). Without it `double` is rejected and unsuffixed
    /// floating literals are `float` (as clang does for devices without fp64).
    pub fp64: bool,
}

/// Compiles one file: `Ok((program, warnings))` or `Err(all diagnostics, errors first)`.
///
/// Runs on a dedicated thread with a large stack: nesting is bounded by diagnostics (256
/// brackets, 500 levels of expressions and statements), but hostile input such as a chain of
/// 100,000 `+` still builds a deep syntax tree whose traversal and destruction recurse. If the
/// thread cannot be created, compilation runs on the caller's thread.
pub fn compile(sm: &mut SourceMap, file: FileId, opts: &Options) -> CompileResult {
    compile_with_stack(sm, file, opts, 256 << 20)
}

/// [`compile`] on a thread with a stack of `stack` bytes. The fuzz target uses a smaller stack
/// than `compile` (its inputs are at most a few KiB): under AddressSanitizer every thread start
/// clears the shadow of its whole stack, which made 256 MiB stacks the fuzzer's bottleneck.
pub fn compile_with_stack(
    sm: &mut SourceMap,
    file: FileId,
    opts: &Options,
    stack: usize,
) -> CompileResult {
    let mut slot = Some(sm);
    let res = std::thread::scope(|s| {
        let slot_ref = &mut slot;
        std::thread::Builder::new()
            .name("oclhls-frontend".into())
            .stack_size(stack)
            .spawn_scoped(s, move || {
                let sm = slot_ref
                    .take()
                    .expect("source map moved into the thread once");
                compile_inner(sm, file, opts)
            })
            .ok()
            .map(|h| h.join())
    });
    match res {
        Some(Ok(r)) => r,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        None => compile_inner(slot.take().expect("thread was not started"), file, opts),
    }
}

fn compile_inner(sm: &mut SourceMap, file: FileId, opts: &Options) -> CompileResult {
    let pp = preprocess::Preprocessor::new(sm, opts, file);
    let (pre, mut diags) = pp.run(file);
    // Errors in directives (a missing include, a bad macro call) make the token stream
    // unreliable; parsing it would mostly report consequences of the same mistake.
    if diags.iter().any(|d| d.is_error()) {
        return Err(sort_diags(diags));
    }
    let eof = Span::new(file, sm.text(file).len() as u32, sm.text(file).len() as u32);
    let (tu, pdiags) = parser::parse(pre.tokens, eof);
    let syntax_errors: Vec<Span> = pdiags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.span())
        .collect();
    diags.extend(pdiags);
    let (prog, cdiags) = check::check(sm, opts, &pre.extensions, &tu, file);
    if !syntax_errors.is_empty() {
        // Still report the type errors of the functions and declarations that parsed
        // cleanly. Errors inside a damaged item, errors about undeclared names (the
        // declaration may be the damaged part) and warnings would mostly be consequences of
        // the syntax errors.
        let damaged: Vec<Span> = tu
            .items
            .iter()
            .filter_map(|it| match it {
                syntax::ExternalDecl::Func(f) => Some(f.span),
                syntax::ExternalDecl::Decl(d) => Some(d.span),
                _ => None,
            })
            .filter(|s| syntax_errors.iter().any(|e| overlaps(*s, *e)))
            .collect();
        diags.extend(cdiags.into_iter().filter(|d| {
            d.is_error()
                && !d.message.contains("undeclared")
                && !damaged.iter().any(|s| overlaps(*s, d.span()))
        }));
        return Err(sort_diags(diags));
    }
    diags.extend(cdiags);
    match prog {
        Some(p) if !diags.iter().any(|d| d.is_error()) => Ok((p, sort_diags(diags))),
        _ => Err(sort_diags(diags)),
    }
}

/// Reads a file into the source map. Invalid UTF-8 is replaced (U+FFFD) here and reported
/// by [`compile`] as a diagnostic at the first bad byte.
pub fn load_file(sm: &mut SourceMap, path: &Path) -> Result<FileId, std::io::Error> {
    let bytes = std::fs::read(path)?;
    Ok(sm.add_file_bytes(path.display().to_string(), &bytes))
}

/// `a` and `b` share a byte (or `b` is an empty span inside `a`) in the same file.
fn overlaps(a: Span, b: Span) -> bool {
    a.file == b.file && b.start <= a.end && a.start <= b.end
}

/// Errors first (in source order), then warnings.
fn sort_diags(mut d: Vec<Diagnostic>) -> Vec<Diagnostic> {
    d.sort_by_key(|d| (d.severity, d.span().file, d.span().start));
    d
}
