//! The front end never panics, hangs or overflows the stack: hostile and random inputs end in
//! diagnostics (or a program), every diagnostic has a valid span.

mod common;

use frontend::{compile, Diagnostic, Options, SourceMap};

/// Compiles raw bytes; checks the invariants every result must satisfy.
fn survive(bytes: &[u8]) -> Result<(), Vec<Diagnostic>> {
    let mut sm = SourceMap::new();
    let f = sm.add_file_bytes("fuzz.cl", bytes);
    let r = compile(&mut sm, f, &common::options());
    let diags = match &r {
        Ok((_, w)) => w.clone(),
        Err(d) => {
            assert!(!d.is_empty(), "Err without diagnostics");
            assert!(d.iter().any(|d| d.is_error()), "Err without an error");
            d.clone()
        }
    };
    for d in &diags {
        let s = d.span();
        assert!((s.file.0 as usize) < sm.len());
        assert!(
            s.start <= s.end && s.end as usize <= sm.text(s.file).len(),
            "{:?}",
            d
        );
    }
    // rendering must not panic either
    let _ = frontend::render(&sm, &diags, false);
    r.map(|_| ())
}

fn errors_of(src: &str) -> Vec<String> {
    match survive(src.as_bytes()) {
        Ok(()) => Vec::new(),
        Err(d) => d
            .into_iter()
            .filter(|d| d.is_error())
            .map(|d| d.message)
            .collect(),
    }
}

fn expect_error(src: &str, fragment: &str) {
    let e = errors_of(src);
    assert!(
        e.iter().any(|m| m.contains(fragment)),
        "expected `{}` in {:?}",
        fragment,
        e
    );
}

/// Iterations of the random tests; raise with `FRONTEND_FUZZ_ITERS` for a longer local run.
fn iters(default: usize) -> usize {
    std::env::var("FRONTEND_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Deterministic pseudo-random numbers (no dependency on `rand`).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn empty_and_trivial_inputs() {
    for src in [
        "", " ", "\n\n", "/* */", "//", ";", "#", "#define", "#if", "#endif", "/*", "\"", "'",
        "#include", "kernel", "}", "{", "(", "\\",
    ] {
        let _ = survive(src.as_bytes());
    }
    assert!(survive(b"").is_ok());
}

#[test]
fn binary_garbage() {
    let mut rng = Lcg(1);
    for len in [1usize, 7, 64, 500, 4096] {
        for _ in 0..20 {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            let _ = survive(&bytes);
        }
    }
}

#[test]
fn invalid_utf8_is_a_diagnostic() {
    expect_error(
        "kernel void k(global int *a) { a[0] = 1; }\u{0}",
        "unexpected character",
    );
    let mut bytes = b"kernel void k(global int *a) { a[0] = 1; } ".to_vec();
    bytes.extend_from_slice(&[0xff, 0xfe, 0x80]);
    let r = survive(&bytes);
    let d = r.expect_err("invalid UTF-8 must be rejected");
    assert!(d.iter().any(|d| d.message.contains("not valid UTF-8")));
}

#[test]
fn load_file_reads_invalid_utf8() {
    let path = std::env::temp_dir().join(format!("oclhls-frontend-{}.cl", std::process::id()));
    std::fs::write(&path, [b'k', 0xc3, 0x28, b'\n']).expect("write temp file");
    let mut sm = SourceMap::new();
    let f = frontend::load_file(&mut sm, &path).expect("load");
    let _ = std::fs::remove_file(&path);
    let d = compile(&mut sm, f, &Options::default()).expect_err("invalid UTF-8");
    assert!(d.iter().any(|d| d.message.contains("not valid UTF-8")));
}

#[test]
fn ten_thousand_nested_parentheses() {
    let src = format!(
        "kernel void k(global int *a) {{ a[0] = {}1{}; }}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    expect_error(&src, "nested too deeply");
    let src = format!(
        "kernel void k(global int *a) {}{}",
        "{".repeat(10_000),
        "}".repeat(10_000)
    );
    expect_error(&src, "nested too deeply");
    let src = format!(
        "kernel void k(global int *a) {{ a{}0{}; }}",
        "[a".repeat(10_000),
        "]".repeat(10_000)
    );
    expect_error(&src, "nested too deeply");
}

#[test]
fn ten_megabytes_of_tokens() {
    // A valid kernel checks: 1 MB here (a debug build checks about 0.2 MB/s); 10 MB with
    // `FRONTEND_BIG_MB=10` (7 s of CPU in a release build: linear, no hang) ...
    let mb: usize = std::env::var("FRONTEND_BIG_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let stmt = "a[0]+=1;";
    let n = (mb << 20) / stmt.len();
    let src = format!("kernel void k(global int *a) {{ {} }}", stmt.repeat(n));
    assert!(src.len() >= mb << 20);
    assert!(survive(src.as_bytes()).is_ok());
    // ... and 10 MB of tokens (5 million identifiers) that form no program end in a diagnostic.
    let src = "x ".repeat(5 << 20);
    assert!(survive(src.as_bytes()).is_err());
}

#[test]
fn huge_initialised_arrays_are_a_diagnostic() {
    // Found while auditing: the zero-filled initialiser of 10^8 elements took 10 GB.
    expect_error(
        "constant int big[100000000] = {1};\nkernel void k(global int *o) { o[0] = big[5]; }",
        "larger than the limit",
    );
    expect_error(
        "kernel void k(global int *o) { int4 x[300000] = {0}; o[0] = x[1].y; }",
        "larger than the limit",
    );
}

#[test]
fn huge_string_literal_is_a_diagnostic() {
    let src = format!(
        "kernel void k(global int *a) {{ printf(\"{}\"); }}",
        "x".repeat(10 << 20)
    );
    expect_error(&src, "longer than the limit");
}

#[test]
fn long_operator_chains() {
    let body = |e: String| format!("kernel void k(global int *a) {{ a[0] = {}; }}", e);
    expect_error(
        &body(format!("1{}", "+1".repeat(100_000))),
        "nested too deeply",
    );
    expect_error(
        &body(format!("{}1", "- ".repeat(100_000))),
        "nested too deeply",
    );
    expect_error(
        &body(format!("{}1", "!".repeat(100_000))),
        "nested too deeply",
    );
    expect_error(
        &body(format!("{}1", "(int)".repeat(50_000))),
        "nested too deeply",
    );
    expect_error(
        &body(format!("{}1", "1 ? 1 : ".repeat(50_000))),
        "nested too deeply",
    );
    expect_error(
        &body(format!("a[0]{}", " = a[0]".repeat(50_000))),
        "nested too deeply",
    );
    // long but shallow: fine
    let (_, w) = common::check_ok(&body(format!("0{}", ", 1".repeat(300))));
    let _ = w;
}

#[test]
fn deep_statements_and_declarators() {
    let src = format!(
        "kernel void k(global int *a) {{ {} a[0] = 1; }}",
        "if (a[0]) ".repeat(50_000)
    );
    expect_error(&src, "nested too deeply");
    let src = format!(
        "kernel void k(global int *a) {{ if (a[0]) a[0] = 1; {} }}",
        "else if (a[0]) a[0] = 1; ".repeat(50_000)
    );
    expect_error(&src, "nested too deeply");
    let src = format!(
        "kernel void k(global int *a) {{ int {}p; }}",
        "*".repeat(50_000)
    );
    expect_error(&src, "nested too deeply");
    let src = format!(
        "kernel void k(global int *a) {{ {} }}",
        "while (1) ".repeat(50_000) + ";"
    );
    expect_error(&src, "nested too deeply");
}

#[test]
fn macro_bombs_terminate() {
    let mut src = String::from("#define A0 x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{} A{} A{}\n", i, i - 1, i - 1));
    }
    src.push_str("kernel void k(global int *a) { A39; }\n");
    expect_error(&src, "too many tokens");
    // self-referential and mutually recursive macros stop expanding
    let e = errors_of("#define x x\n#define a b\n#define b a\nkernel void k(global int *p) { int x = 1; p[0] = x; }");
    assert!(e.is_empty(), "{:?}", e);
    // deeply nested macro arguments
    let src = format!(
        "#define F(x) x\nkernel void k(global int *a) {{ a[0] = {}1{}; }}",
        "F(".repeat(5000),
        ")".repeat(5000)
    );
    expect_error(&src, "nested too deeply");
}

#[test]
fn recursive_include_is_capped() {
    expect_error(
        "#include \"self.h\"\nkernel void k(global int *a) {}",
        "nested too deeply",
    );
}

#[test]
fn random_token_soup() {
    const VOCAB: &[&str] = &[
        "kernel",
        "void",
        "int",
        "float4",
        "global",
        "local",
        "const",
        "*",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ",",
        "=",
        "+=",
        "+",
        "-",
        "<<",
        "?",
        ":",
        "if",
        "else",
        "for",
        "while",
        "do",
        "switch",
        "case",
        "default",
        "break",
        "return",
        "struct",
        "typedef",
        "x",
        "y",
        "a",
        "k",
        "1",
        "2.0f",
        "0x1f",
        "'c'",
        "\"s\"",
        ".",
        "->",
        "&",
        "!",
        "~",
        "sizeof",
        "__attribute__",
        "((",
        "))",
        "#pragma unroll\n",
        "\n#define M(x) x\n",
        "M(",
        "pipe",
        "read_only",
        "get_global_id",
        "barrier",
        "enum",
        "union",
        "&&",
        "||",
        "==",
        "++",
    ];
    let mut rng = Lcg(7);
    for _ in 0..iters(400) {
        let n = 1 + rng.below(120);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(VOCAB[rng.below(VOCAB.len())]);
            s.push(' ');
        }
        let _ = survive(s.as_bytes());
    }
}

#[test]
fn mutated_kernels() {
    let mut rng = Lcg(42);
    let sources: Vec<Vec<u8>> = common::cl_files("kernels")
        .iter()
        .map(|p| std::fs::read(p).expect("read kernel"))
        .collect();
    for i in 0..iters(300) {
        let mut b = sources[i % sources.len()].clone();
        for _ in 0..1 + rng.below(4) {
            if b.is_empty() {
                break;
            }
            let at = rng.below(b.len());
            match rng.below(4) {
                0 => {
                    b.remove(at);
                }
                1 => {
                    let c = b[rng.below(b.len())];
                    b.insert(at, c);
                }
                2 => {
                    let end = (at + rng.below(40)).min(b.len());
                    b.drain(at..end);
                }
                _ => {
                    let other = rng.below(b.len());
                    b.swap(at, other);
                }
            }
        }
        let _ = survive(&b);
    }
}
