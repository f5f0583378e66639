//! testfile: the test vectors carried by kernel files (see `docs/test-format.md`).
//!
//! A kernel file carries its own tests in piglit's OpenCL program-test header, a leading
//! comment `/*! [config] ... [test] ... !*/`, so that files from existing OpenCL corpora (piglit's
//! `tests/cl/program/execute`) run unchanged on the emulator and in Verilator. This crate turns
//! such a header into plain data: which kernel to launch, with which NDRange, with which argument
//! bytes, and which output bytes to expect, and compares output bytes with the expected ones. It
//! knows nothing about how a kernel runs, so the emulator, `oclhls emu` and the IR's tests use it
//! without linking the Verilator testbench (`sim`).
//!
//! Invariants of a parsed [`TestFile`]:
//! - `[config]` keys are already folded into every [`TestCase`]; nothing refers back to it.
//! - Every argument index `0..args.len()` appears exactly once, in order (a gap is an error, as it
//!   would make the enqueue fail).
//! - Byte vectors are little-endian and have exactly `len * ty.byte_size()` bytes (a 3-vector
//!   occupies 4 lanes of storage; the padding lane is zero and never compared).
//! - Parsing never panics and never allocates more than [`MAX_BUFFER_BYTES`] per buffer, whatever
//!   the input.
//!
//! The parser is line-oriented with a section state machine (`parser.rs`); the multi-kernel
//! lines (`launch:`, `pipe:`, `buffer:`, `arg:`, `expect:`, `parser/multi.rs`) are further arms
//! of the same key dispatch and fill [`TestCase::multi`].

mod compare;
mod header;
mod parser;
mod types;
mod values;

use std::fmt;

pub use compare::{compare, compare_unordered, Mismatch};
pub use types::{ScalarType, ValueType};
pub use values::MAX_BUFFER_BYTES;

/// The tests of one kernel file.
#[derive(Clone, Debug, PartialEq)]
pub struct TestFile {
    /// 1-based line of the `/*!` that opens the header.
    pub line: u32,
    /// `name:` of `[config]` (piglit's name of the whole program test).
    pub name: Option<String>,
    /// `clc_version_min:` (OpenCL C version times 10, e.g. `12`), kept for the runner to check.
    pub clc_version_min: Option<u32>,
    /// `clc_version_max:`, same encoding.
    pub clc_version_max: Option<u32>,
    /// `build_options:` split on whitespace (also copied into every test).
    pub build_options: Vec<String>,
    /// `expect_build_fail: true`: the program must fail to compile; there are no tests.
    pub expect_build_fail: bool,
    /// `require_device_extensions:` split on whitespace.
    pub require_device_extensions: Vec<String>,
    /// Other piglit `[config]` keys that we accept and keep verbatim (`platform_regex`,
    /// `device_regex`, `require_platform_extensions`, `require_device_features`,
    /// `need_image_support`), in file order.
    pub other_config: Vec<(String, String)>,
    /// The `[test]` sections in file order. Empty for a build-only file.
    pub tests: Vec<TestCase>,
}

/// One `[test]` section, with the `[config]` defaults applied.
#[derive(Clone, Debug, PartialEq)]
pub struct TestCase {
    /// `name:`, or `<kernel_name> #<n>` (n is the 1-based test number) when absent.
    pub name: String,
    /// 1-based line of the `[test]` header.
    pub line: u32,
    pub kernel_name: String,
    /// Work dimensions, 1 to 3.
    pub dimensions: u32,
    /// Global work size. Entries past `dimensions` are 1 (piglit passes all three to
    /// `clEnqueueNDRangeKernel`, which reads only `dimensions` of them, so the file may say 0).
    pub global_size: [u32; 3],
    /// Local work size, entries past `dimensions` are 1. `None` for `local_size: NULL` (the
    /// implementation chooses). Defaults to `Some([1, 1, 1])` as in piglit.
    pub local_size: Option<[u32; 3]>,
    /// Global work offset (`global_offset:`), zeros by default; entries past `dimensions` are 0.
    pub global_offset: [u32; 3],
    /// `build_options:` of `[config]`, split on whitespace.
    pub build_options: Vec<String>,
    /// `expect_test_fail: true`: at least one output is expected to differ.
    pub expect_test_fail: bool,
    /// One entry per kernel argument, sorted by index, indices `0..args.len()`. Empty for a
    /// multi-kernel test.
    pub args: Vec<Arg>,
    /// A multi-kernel test (`launch:` lines). Then `kernel_name`, `dimensions`, `global_size`,
    /// `local_size` and `global_offset` repeat the first launch, and `args` is empty.
    pub multi: Option<MultiTest>,
}

/// Several kernels launched together, connected by pipes and sharing buffers.
///
/// Invariants: names of buffers and pipes are unique; every launch names a different kernel,
/// and its arguments are complete (`0..args.len()`, sorted); `after` and argument references
/// are indices into the vectors of this struct.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiTest {
    pub buffers: Vec<BufferDecl>,
    pub pipes: Vec<PipeDecl>,
    pub launches: Vec<LaunchDecl>,
    pub expects: Vec<BufferExpect>,
}

/// `buffer: <name> <type>[<n>] [<values>]`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferDecl {
    pub line: u32,
    pub name: String,
    pub ty: ValueType,
    pub len: u32,
    /// `None`: unspecified contents (a runner poisons them, as for output-only arguments).
    pub bytes: Option<Vec<u8>>,
}

/// `pipe: <name> <packet type> <max_packets>`.
#[derive(Clone, Debug, PartialEq)]
pub struct PipeDecl {
    pub line: u32,
    pub name: String,
    /// The packet type as written: a scalar or vector type name, or the name of a struct or
    /// typedef of the program (resolved by the runner).
    pub packet_type: String,
    /// `packet_type` when it is a scalar or vector type.
    pub packet_value_type: Option<ValueType>,
    pub max_packets: u32,
}

/// `launch: <kernel> <global> [<local>] [offset <o>] [after <kernel>]...`, with the `arg:` lines
/// of its kernel: one kernel launch a multi-kernel test declares. (A declaration like
/// [`BufferDecl`] and [`PipeDecl`]; a runner turns it into its own launch, such as
/// `sim::SystemLaunch` for the Verilator testbench.)
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchDecl {
    pub line: u32,
    pub kernel: String,
    /// Number of comma-separated sizes in `<global>`.
    pub dimensions: u32,
    /// Entries past `dimensions` are 1.
    pub global_size: [u32; 3],
    /// `None` when not given (or `NULL`): the runner chooses.
    pub local_size: Option<[u32; 3]>,
    pub global_offset: [u32; 3],
    /// Launches (indices) that must finish before this one starts.
    pub after: Vec<usize>,
    pub args: Vec<LaunchArg>,
}

/// `arg: <kernel> <index> <what>`.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchArg {
    pub index: u32,
    pub line: u32,
    pub value: LaunchArgValue,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LaunchArgValue {
    /// Index into [`MultiTest::buffers`].
    Buffer(usize),
    /// Index into [`MultiTest::pipes`].
    Pipe(usize),
    /// A by-value argument.
    Value { ty: ValueType, bytes: Vec<u8> },
    /// `local <type>[<n>]`.
    Local { ty: ValueType, len: u32 },
}

/// `expect: <buffer> <type>[<n>] [unordered] <values> [tolerance ...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferExpect {
    /// Index into [`MultiTest::buffers`].
    pub buffer: usize,
    pub ty: ValueType,
    pub len: u32,
    pub expect: Expect,
    /// Compare as multisets of elements (the order of a pipe's packets is not fixed).
    pub unordered: bool,
}

/// One kernel argument of a test.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub index: u32,
    /// 1-based line of the first `arg_in:`/`arg_out:` line for this index.
    pub line: u32,
    pub kind: ArgKind,
}

/// What is passed for an argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgKind {
    /// A by-value argument (`arg_in: 2 int 5`, `arg_in: 1 float4 1 2 3 4`): `bytes` has
    /// `ty.byte_size()` bytes.
    Scalar { ty: ValueType, bytes: Vec<u8> },
    /// A `global`/`constant` buffer of `len` elements of `ty`.
    ///
    /// `input` is its contents before the launch (`arg_in:`); `None` means the contents are
    /// unspecified (piglit leaves them uninitialised; a runner should poison them). `expect` is
    /// what it must hold afterwards (`arg_out:`). When `arg_in` and `arg_out` of one index name
    /// different types of the same byte size (piglit allows it), `ty` and `len` are the
    /// `arg_out`'s and `input` is the `arg_in`'s bytes.
    Buffer {
        ty: ValueType,
        len: u32,
        input: Option<Vec<u8>>,
        expect: Option<Expect>,
    },
    /// Local memory of `len` elements of `ty`: our `arg_in: <i> local <type>[<n>]`, and piglit's
    /// `arg_in: <i> <type> NULL` (which allocates one element).
    Local { ty: ValueType, len: u32 },
    /// piglit's `arg_in: <i> buffer <type>[<n>] NULL`: a NULL `cl_mem`. For a `local` pointer
    /// parameter that allocates local memory (piglit's tests use it that way; we allocate `len`
    /// elements); for a `global`/`constant` parameter it is a null pointer.
    NullBuffer { ty: ValueType, len: u32 },
}

/// The expected contents of an output buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    /// 1-based line of the `arg_out:` line.
    pub line: u32,
    /// `len * ty.byte_size()` little-endian bytes (padding lanes of 3-vectors are zero).
    pub bytes: Vec<u8>,
    pub tolerance: Tolerance,
}

/// How close an output value must be to the expected one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Equal values (for floats: `==`, so `0.0` matches `-0.0`; a NaN matches any NaN).
    Exact,
    /// `|expected - actual| <= x` (floats, and integers with piglit's `tolerance <n>`).
    Abs(f64),
    /// At most this many units in the last place of the expected value (floats only).
    Ulp(u64),
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tolerance::Exact => f.write_str("exact"),
            Tolerance::Abs(x) => write!(f, "tolerance {x}"),
            Tolerance::Ulp(n) => write!(f, "tolerance {n} ulp"),
        }
    }
}

/// A problem in a test header: `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct TestFileError {
    pub file: String,
    /// 1-based line in the kernel file.
    pub line: u32,
    /// What is wrong and what is expected instead.
    pub message: String,
}

/// Parses the test header of a kernel file.
///
/// Returns `Ok(None)` when the file has no `/*! [section] ... !*/` header (a Doxygen-style
/// `/*! ... */` comment is not a header), and every problem found in the header otherwise.
pub fn parse(file_name: &str, source: &str) -> Result<Option<TestFile>, Vec<TestFileError>> {
    let header = match header::find(source) {
        Ok(Some(h)) => h,
        Ok(None) => return Ok(None),
        Err((line, message)) => {
            return Err(vec![TestFileError {
                file: file_name.to_string(),
                line,
                message,
            }])
        }
    };
    parser::parse_header(file_name, &header).map(Some)
}
