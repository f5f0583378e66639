//! Garbage never panics, and what does parse keeps the invariants a runner relies on.

use testfile::{compare, ArgKind};

use crate::piglit::{
    PIGLIT_ATOMIC_ADD_LOCAL, PIGLIT_BITSELECT, PIGLIT_FLOAT_CONVERT_LONG, PIGLIT_ILOGB,
    PIGLIT_REFERENCE,
};

/// xorshift64*: a fixed generator so the garbage is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses and, when the parse succeeds, checks the invariants a runner relies on.
fn parse_checked(src: &str) {
    let Ok(Some(f)) = testfile::parse("fuzz.cl", src) else {
        return;
    };
    for t in &f.tests {
        assert!((1..=3).contains(&t.dimensions));
        for (i, a) in t.args.iter().enumerate() {
            assert_eq!(a.index as usize, i);
            match &a.kind {
                ArgKind::Scalar { ty, bytes } => assert_eq!(bytes.len(), ty.byte_size()),
                ArgKind::Buffer {
                    ty,
                    len,
                    input,
                    expect,
                } => {
                    let n = *len as usize * ty.byte_size();
                    assert!(input.as_ref().is_none_or(|b| b.len() == n));
                    if let Some(e) = expect {
                        assert_eq!(e.bytes.len(), n);
                        assert_eq!(compare(ty, e, &e.bytes), Ok(()), "values match themselves");
                    }
                    assert!(input.is_some() || expect.is_some());
                }
                ArgKind::Local { .. } | ArgKind::NullBuffer { .. } => {}
            }
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let vocabulary = [
        "[config]",
        "[test]",
        "[",
        "]",
        "[ test ]",
        "[program source]",
        "name:",
        "kernel_name:",
        "kernel_name: k",
        "dimensions:",
        "global_size:",
        "local_size:",
        "global_offset:",
        "tolerance:",
        "arg_in:",
        "arg_out:",
        "expect_test_fail:",
        "expect_build_fail: true",
        "build_options:",
        "clc_version_min:",
        "buffer",
        "local",
        "int",
        "uint4",
        "float3",
        "half",
        "double16",
        "char",
        "size_t",
        "int[4]",
        "float4[2]",
        "uchar3[3]",
        "long[1]",
        "half[2]",
        "int[0]",
        "int[4000000000]",
        "double16[99999999999999999999]",
        "int[",
        "]]",
        "random",
        "random 7",
        "repeat",
        "iota",
        "NULL",
        "null",
        "tolerance",
        "ulp",
        "0",
        "1",
        "2",
        "3",
        "-1",
        "0x7fffffff",
        "0x",
        "-0x80",
        "010",
        "09",
        "1.5",
        "-2.5e-3",
        "0x1.8p3",
        "0x1p99999999999",
        "1e999",
        "nan",
        "-nan",
        "inf",
        "-inf",
        "99999999999999999999999999",
        "\\",
        "#",
        ":",
        "::",
        "/*!",
        "!*/",
        "*/",
        "\t",
        " ",
        "é",
        "\u{0}",
        "\r",
    ];
    for round in 0..4000 {
        let src = match round % 4 {
            // Token soup inside a header.
            0 | 1 => {
                let mut s = String::from("/*!\n");
                for _ in 0..rng.below(60) {
                    s.push_str(vocabulary[rng.below(vocabulary.len())]);
                    s.push(if rng.below(4) == 0 { '\n' } else { ' ' });
                }
                if rng.below(8) != 0 {
                    s.push_str("\n!*/\n");
                }
                s
            }
            // Random bytes, with and without a header around them.
            2 => {
                let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.next() as u8).collect();
                let body = String::from_utf8_lossy(&bytes).into_owned();
                if rng.below(2) == 0 {
                    format!("/*!\n[config]\n{body}\n!*/")
                } else {
                    body
                }
            }
            // Mutations of real headers.
            _ => {
                let base = [
                    PIGLIT_REFERENCE,
                    PIGLIT_BITSELECT,
                    PIGLIT_ATOMIC_ADD_LOCAL,
                    PIGLIT_FLOAT_CONVERT_LONG,
                    PIGLIT_ILOGB,
                ][rng.below(5)];
                let mut chars: Vec<char> = base.chars().collect();
                for _ in 0..1 + rng.below(6) {
                    let at = rng.below(chars.len());
                    match rng.below(3) {
                        0 => {
                            chars.remove(at);
                        }
                        1 => chars
                            .insert(at, "[]:#\\ \n0-x.9NUL".chars().nth(rng.below(15)).unwrap()),
                        _ => {
                            let word = vocabulary[rng.below(vocabulary.len())];
                            for (k, c) in word.chars().enumerate() {
                                chars.insert(at + k, c);
                            }
                        }
                    }
                }
                chars.into_iter().collect()
            }
        };
        parse_checked(&src);
    }
}

#[test]
fn edge_cases_never_panic() {
    for src in [
        "/*!",
        "/*!!*/",
        "/*!*/",
        "/*! !*/",
        "/*![config]!*/",
        "/*![test]",
        "/*!\n[config]\\\n",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 4294967295 int 1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 4294967296 int 1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer int[1] 0x1p99999999999999999\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer float[1] 0x1p-99999999999999999\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer double[1] 0x.p1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer long[2] iota -9223372036854775808 -9223372036854775808\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer ulong[2] iota 18446744073709551615 18446744073709551615\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer half[2] iota 65504 1e308\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer int[1] 1 tolerance tolerance\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_out: 0 buffer float[1] 1 tolerance 1e999 ulp\n!*/",
        "/*!\n[config]\ndimensions: 3\nglobal_size: 0 0 0\nlocal_size: 0 0 0\nkernel_name: k\n[test]\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\n\u{feff}arg_in: 0 int 1\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 int ١\n!*/",
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 int 1 \\\n\\\n\\\n!*/",
    ] {
        parse_checked(src);
    }
    let long_line = format!(
        "/*!\n[config]\nkernel_name: k\n[test]\narg_in: 0 buffer int[100000] {}\n!*/",
        "7 ".repeat(100_000)
    );
    parse_checked(&long_line);
}
