//! Division in the IR passes. `div-const`: kernels dividing by many constants (signed and
//! unsigned, 8 to 64 bits; powers of two, negative divisors, `MIN`, divisors near the top of
//! the range), run through every pass and the IR interpreter on every 8-bit dividend and on
//! boundary and random wider ones, against Rust's own division (truncating; `MIN / -1`
//! wraps). After the passes no division by a constant is left. The recipes themselves are
//! checked exhaustively in `passes::div_const::magic`. `narrow`: the widths it gives divisions
//! of promoted narrow values (its randomized differential test covers their values).

mod common;

use hls_ir::interp;
use hls_ir::passes::run_pipeline;
use hls_ir::{BinOp, OpKind};

/// A C integer type of the test.
#[derive(Clone, Copy)]
struct CType {
    name: &'static str,
    bits: u32,
    signed: bool,
}

const TYPES: [CType; 8] = [
    CType {
        name: "uchar",
        bits: 8,
        signed: false,
    },
    CType {
        name: "char",
        bits: 8,
        signed: true,
    },
    CType {
        name: "ushort",
        bits: 16,
        signed: false,
    },
    CType {
        name: "short",
        bits: 16,
        signed: true,
    },
    CType {
        name: "uint",
        bits: 32,
        signed: false,
    },
    CType {
        name: "int",
        bits: 32,
        signed: true,
    },
    CType {
        name: "ulong",
        bits: 64,
        signed: false,
    },
    CType {
        name: "long",
        bits: 64,
        signed: true,
    },
];

impl CType {
    fn mask(self) -> u64 {
        hls_ir::integer::mask(self.bits)
    }

    /// The divisors (as values of the type, written in C) of the test.
    fn divisors(self) -> Vec<i128> {
        let max = if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        };
        let mut v: Vec<i128> = vec![1, 2, 3, 5, 6, 7, 10, 16, 25, 100, 125, 641, 1000];
        v.extend([max, max - 1, max / 2, max / 2 + 1, max / 3, max / 7 + 3]);
        if self.signed {
            let min = -max - 1;
            v.extend([-1, -2, -3, -7, -8, -10, -641, min, min + 1, -(max / 2) - 1]);
        }
        v.retain(|&d| -d <= max + 1 && d <= max);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// `x` (bits of the type) divided by `d`: quotient and remainder (bits of the type).
    fn divide(self, x: u64, d: i128) -> (u64, u64) {
        let m = self.mask();
        if self.signed {
            let x = hls_ir::integer::sext(x, self.bits) as i128;
            let q = x / d;
            let r = x % d;
            ((q as u64) & m, (r as u64) & m)
        } else {
            let d = d as u64;
            (x / d, x % d)
        }
    }

    /// The dividends: every value for 8 bits, else boundaries and random values.
    fn dividends(self) -> Vec<u64> {
        let m = self.mask();
        if self.bits == 8 {
            return (0..=m).collect();
        }
        let top = 1u64 << (self.bits - 1);
        let mut v = vec![
            0,
            1,
            2,
            3,
            6,
            7,
            99,
            100,
            101,
            top - 1,
            top,
            top + 1,
            m,
            m - 1,
            m - 6,
        ];
        let mut r = 0x1234_5678_9abc_def0u64 ^ u64::from(self.bits);
        while v.len() < 600 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            // all magnitudes
            let n = 1 + (r >> 58) as u32 % self.bits;
            v.push((r >> 3) & hls_ir::integer::mask(n));
            v.push(r & m);
        }
        v
    }
}

fn source(t: CType, divisors: &[i128]) -> String {
    let mut body = String::new();
    for (j, d) in divisors.iter().enumerate() {
        // A literal the type takes as it is (the most negative value is written as an
        // expression, as in C's limits.h).
        let lit = if t.signed && *d == -(1i128 << (t.bits - 1)) {
            format!("(({}){} - 1)", t.name, d + 1)
        } else {
            let suffix = match (t.signed, t.bits) {
                (true, 64) => "L",
                (false, 64) => "UL",
                (false, _) => "U",
                _ => "",
            };
            format!("(({}){d}{suffix})", t.name)
        };
        body.push_str(&format!(
            "  q[i * {n} + {j}] = ({ty})(v / {lit});\n  r[i * {n} + {j}] = ({ty})(v % {lit});\n",
            n = divisors.len(),
            ty = t.name
        ));
    }
    format!(
        "kernel void k(global const {ty} *x, global {ty} *q, global {ty} *r) {{\n  size_t i = \
         get_global_id(0);\n  {ty} v = x[i];\n{body}}}\n",
        ty = t.name
    )
}

fn bytes(v: u64, n: usize) -> Vec<u8> {
    v.to_le_bytes()[..n].to_vec()
}

#[test]
fn division_by_constants_matches_rust() {
    for t in TYPES {
        let divisors = t.divisors();
        let src = source(t, &divisors);
        let mut k = common::lower(&src);
        run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
        let left = divisions(&k);
        assert!(left.is_empty(), "{}: divisions left: {left:?}", t.name);

        let xs = t.dividends();
        let size = (t.bits / 8) as usize;
        let input: Vec<u8> = xs.iter().flat_map(|&x| bytes(x, size)).collect();
        let out_len = xs.len() * divisors.len() * size;
        let (xa, qa, ra) = (0x1000u32, 0x10_0000u32, 0x80_0000u32);
        let launch = common::launch_of(
            vec![xa.into(), qa.into(), ra.into()],
            vec![(xa, input), (qa, vec![0; out_len]), (ra, vec![0; out_len])],
            xs.len() as u32,
        );
        let launch = interp::InterpLaunch {
            max_steps: 100_000_000,
            ..launch
        };
        let out = interp::run(&k, &launch).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let buf = |a: u32| &out.iter().find(|(b, _)| *b == a).unwrap().1;
        let (qs, rs) = (buf(qa), buf(ra));
        for (i, &x) in xs.iter().enumerate() {
            for (j, &d) in divisors.iter().enumerate() {
                let at = (i * divisors.len() + j) * size;
                let mut w = [0u8; 8];
                w[..size].copy_from_slice(&qs[at..at + size]);
                let q = u64::from_le_bytes(w);
                w[..size].copy_from_slice(&rs[at..at + size]);
                let r = u64::from_le_bytes(w);
                assert_eq!(
                    (q, r),
                    t.divide(x, d),
                    "{}: {x:#x} / {d} (quotient, remainder)",
                    t.name
                );
            }
        }
    }
}

/// The divisions left in `k` after the passes: (kind, width).
fn divisions(k: &hls_ir::Kernel) -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = k
        .op_ids()
        .into_iter()
        .filter(|&o| {
            matches!(
                k.op(o).kind,
                OpKind::Binary(BinOp::DivU | BinOp::DivS | BinOp::RemU | BinOp::RemS)
            )
        })
        .map(|o| (k.op(o).kind.to_string(), k.op(o).ty.bits()))
        .collect();
    v.sort();
    v
}

#[test]
fn promoted_divisions_are_narrowed() {
    // char / char: a signed int division of 8-bit values, at 9 bits (-128 / -1 = 128); short
    // % short: a signed remainder at 16 bits; uchar / uchar and ushort % ushort: unsigned at 8
    // and 16 bits (C promotes them to a signed int division, but both operands are
    // non-negative); int / int stays.
    let mut k = common::lower(
        "kernel void k(global const char *c, global const short *s, global const uchar *u,
                       global const ushort *w, global const int *x, global int *o) {
  size_t i = get_global_id(0);
  o[5 * i] = c[i] / c[i + 1];
  o[5 * i + 1] = s[i] % s[i + 1];
  o[5 * i + 2] = u[i] / u[i + 1];
  o[5 * i + 3] = w[i] % w[i + 1];
  o[5 * i + 4] = x[i] / x[i + 1];
}",
    );
    run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    let want: Vec<(String, u32)> = [
        ("divs", 9),
        ("divs", 32),
        ("divu", 8),
        ("rems", 16),
        ("remu", 16),
    ]
    .iter()
    .map(|(n, b)| (n.to_string(), *b))
    .collect();
    assert_eq!(divisions(&k), want);
}
