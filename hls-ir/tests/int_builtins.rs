//! The lowering of the integer built-ins (OpenCL C 6.13.3), run by the IR interpreter as
//! lowered and after the pass pipeline (`narrow` included), against the spec's definitions
//! written here in `i128`: exhaustively on 8-bit operand pairs, on corner cases and seeded
//! random operands at 16, 32 and 64 bits.

mod common;

use hls_ir::interp::run;
use hls_ir::Kernel;

#[derive(Clone, Copy, Debug)]
struct IntTy {
    name: &'static str,
    bits: u32,
    signed: bool,
}

const TYPES: [IntTy; 8] = [
    IntTy {
        name: "char",
        bits: 8,
        signed: true,
    },
    IntTy {
        name: "uchar",
        bits: 8,
        signed: false,
    },
    IntTy {
        name: "short",
        bits: 16,
        signed: true,
    },
    IntTy {
        name: "ushort",
        bits: 16,
        signed: false,
    },
    IntTy {
        name: "int",
        bits: 32,
        signed: true,
    },
    IntTy {
        name: "uint",
        bits: 32,
        signed: false,
    },
    IntTy {
        name: "long",
        bits: 64,
        signed: true,
    },
    IntTy {
        name: "ulong",
        bits: 64,
        signed: false,
    },
];

impl IntTy {
    fn range(self) -> (i128, i128) {
        if self.signed {
            (-(1i128 << (self.bits - 1)), (1i128 << (self.bits - 1)) - 1)
        } else {
            (0, (1i128 << self.bits) - 1)
        }
    }
    fn mask(self) -> u128 {
        (1u128 << self.bits) - 1
    }
    /// The exact value `v` wrapped to the type, as its bit pattern.
    fn bits_of(self, v: i128) -> u128 {
        (v as u128) & self.mask()
    }
    /// A bit pattern read in the type.
    fn value(self, b: u128) -> i128 {
        let b = b & self.mask();
        if self.signed && b >> (self.bits - 1) == 1 {
            b as i128 - (1i128 << self.bits)
        } else {
            b as i128
        }
    }
    fn unsigned_name(self) -> String {
        if self.signed {
            format!("u{}", self.name)
        } else {
            self.name.to_string()
        }
    }
}

/// The spec's definition of `f` on exact values, as the result's bit pattern.
fn reference(f: &str, t: IntTy, a: i128, b: i128, c: i128) -> u128 {
    let (lo, hi) = t.range();
    let sat = |v: i128| t.bits_of(v.clamp(lo, hi));
    let raw = |v: i128| t.bits_of(v);
    match f {
        "add_sat" => sat(a + b),
        "sub_sat" => sat(a - b),
        "hadd" => raw((a + b) >> 1),
        "rhadd" => raw((a + b + 1) >> 1),
        "abs_diff" => raw((a - b).abs()),
        // The exact product of two 64-bit values needs 128 bits: the high half by halves.
        "mul_hi" => raw(mul_hi(t, a, b)),
        "mad_hi" => raw(mul_hi(t, a, b) + c),
        // Signed products fit `i128`; an unsigned 64-bit one may not (then it saturates).
        "mad_sat" => match a.checked_mul(b).and_then(|p| p.checked_add(c)) {
            Some(v) => sat(v),
            None => t.mask(),
        },
        "mul24" => raw(a.wrapping_mul(b)),
        "mad24" => raw(a.wrapping_mul(b) + c),
        "clz" => (t.bits - (128 - raw(a).leading_zeros())) as u128,
        "ctz" => (raw(a).trailing_zeros().min(t.bits)) as u128,
        "popcount" => raw(a).count_ones() as u128,
        "rotate" => {
            let s = (raw(b) % t.bits as u128) as u32;
            let x = raw(a);
            raw(((x << s) | (x >> (t.bits - s))) as i128)
        }
        _ => unreachable!("{f}"),
    }
}

/// `floor(a * b / 2^bits)` in `i128` (a 64-bit product of two 64-bit values overflows only
/// for unsigned operands near 2^64: then in `u128`).
fn mul_hi(t: IntTy, a: i128, b: i128) -> i128 {
    if !t.signed && t.bits == 64 {
        (((a as u128) * (b as u128)) >> 64) as i128
    } else {
        (a * b) >> t.bits
    }
}

/// SplitMix64: seeded operands.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn value(&mut self, t: IntTy) -> i128 {
        t.value(self.next() as u128)
    }
}

/// Operand triples: every 8-bit pair (the third operand random), or the corner cases
/// crossed with each other and random operands.
fn cases(t: IntTy, rng: &mut Rng) -> Vec<(i128, i128, i128)> {
    let (lo, hi) = t.range();
    if t.bits == 8 {
        let mut v = Vec::new();
        for a in lo..=hi {
            for b in lo..=hi {
                v.push((a, b, rng.value(t)));
            }
        }
        return v;
    }
    let mut corners = vec![lo, hi, 0, 1, lo + 1, hi - 1, hi / 2, hi / 2 + 1];
    if t.signed {
        corners.extend([-1, -2]);
    }
    corners.extend((0..t.bits).step_by(7).map(|k| t.value(1u128 << k)));
    let mut v = Vec::new();
    for &a in &corners {
        for &b in &corners {
            let c = corners[(v.len() * 7) % corners.len()];
            v.push((a, b, c));
        }
    }
    for _ in 0..600 {
        v.push((rng.value(t), rng.value(t), rng.value(t)));
    }
    // Rotations by amounts beyond the width.
    for k in 0..3 * t.bits as i128 {
        v.push((rng.value(t), t.value(k as u128), 0));
    }
    v
}

fn bytes(t: IntTy, vals: impl Iterator<Item = i128>) -> Vec<u8> {
    let n = (t.bits / 8) as usize;
    vals.flat_map(|v| t.bits_of(v).to_le_bytes()[..n].to_vec())
        .collect()
}

/// Runs `o[i] = f(a[i], b[i], c[i])` (`arity` operands) on the IR as lowered and after the
/// passes, and compares every result with [`reference`].
fn check(f: &str, arity: usize, t: IntTy, cs: &[(i128, i128, i128)]) {
    let ops = ["a[i]", "b[i]", "c[i]"][..arity].join(", ");
    let out = if f == "abs_diff" {
        t.unsigned_name()
    } else {
        t.name.to_string()
    };
    let src = format!(
        "kernel void k(global const {T} *a, global const {T} *b, global const {T} *c, \
         global {out} *o) {{ int i = get_global_id(0); o[i] = {f}({ops}); }}",
        T = t.name
    );
    let lowered = common::lower(&src);
    let mut passed = lowered.clone();
    hls_ir::passes::run_pipeline(&mut passed, true, None, &mut |_, _| {}).unwrap();
    let n = (t.bits / 8) as usize;
    let len = (cs.len() * n) as u32;
    let base = [
        0x10_0000u32,
        0x20_0000 + len,
        0x30_0000 + 2 * len,
        0x40_0000 + 3 * len,
    ];
    let bufs = vec![
        (base[0], bytes(t, cs.iter().map(|c| c.0))),
        (base[1], bytes(t, cs.iter().map(|c| c.1))),
        (base[2], bytes(t, cs.iter().map(|c| c.2))),
        (base[3], vec![0u8; cs.len() * n]),
    ];
    for (stage, k) in [("lowered", &lowered), ("after the passes", &passed)] {
        let mut launch = common::launch_of(
            base.iter().map(|&b| b as u64).collect(),
            bufs.clone(),
            cs.len() as u32,
        );
        launch.max_steps = 1 << 24;
        let res = run(k as &Kernel, &launch).unwrap();
        let o = &res.iter().find(|(b, _)| *b == base[3]).unwrap().1;
        for (i, &(a, b, c)) in cs.iter().enumerate() {
            let mut got = [0u8; 16];
            got[..n].copy_from_slice(&o[i * n..(i + 1) * n]);
            let got = u128::from_le_bytes(got);
            let want = reference(f, t, a, b, c);
            assert_eq!(
                got, want,
                "{f} on {} ({stage}): ({a}, {b}, {c}) gives {got:#x}, the spec {want:#x}",
                t.name
            );
        }
    }
}

fn check_all(f: &str, arity: usize) {
    let mut rng = Rng(0x5eed ^ f.len() as u64);
    for t in TYPES {
        let cs = cases(t, &mut rng);
        check(f, arity, t, &cs);
    }
}

#[test]
fn saturating_add_and_sub() {
    check_all("add_sat", 2);
    check_all("sub_sat", 2);
}

#[test]
fn halving_adds() {
    check_all("hadd", 2);
    check_all("rhadd", 2);
}

#[test]
fn abs_diff() {
    check_all("abs_diff", 2);
}

#[test]
fn high_half_of_products() {
    check_all("mul_hi", 2);
    check_all("mad_hi", 3);
}

#[test]
fn saturating_multiply_add() {
    check_all("mad_sat", 3);
}

#[test]
fn bit_counts() {
    check_all("clz", 1);
    check_all("ctz", 1);
    check_all("popcount", 1);
}

#[test]
fn rotate() {
    check_all("rotate", 2);
}

#[test]
fn mul24_and_mad24_are_full_products() {
    let mut rng = Rng(24);
    for t in [TYPES[4], TYPES[5]] {
        let cs = cases(t, &mut rng);
        check("mul24", 2, t, &cs);
        check("mad24", 3, t, &cs);
    }
}

/// `upsample(hi, lo)` = `hi << bits | lo` in the type twice as wide, `hi`'s signedness.
#[test]
fn upsample() {
    let mut rng = Rng(7);
    for (h, w) in [
        ("char", "short"),
        ("uchar", "ushort"),
        ("short", "int"),
        ("ushort", "uint"),
        ("int", "long"),
        ("uint", "ulong"),
    ] {
        let t = *TYPES.iter().find(|t| t.name == h).unwrap();
        let u = IntTy { signed: false, ..t };
        let wt = *TYPES.iter().find(|t| t.name == w).unwrap();
        let src = format!(
            "kernel void k(global const {h} *a, global const {} *b, global {w} *o) {{ \
             int i = get_global_id(0); o[i] = upsample(a[i], b[i]); }}",
            t.unsigned_name()
        );
        let mut k = common::lower(&src);
        hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
        let cs: Vec<(i128, i128)> = (0..64).map(|_| (rng.value(t), rng.value(u))).collect();
        let n = (t.bits / 8) as usize;
        let bufs = vec![
            (0x1000, bytes(t, cs.iter().map(|c| c.0))),
            (0x8000, bytes(u, cs.iter().map(|c| c.1))),
            (0x10000, vec![0u8; cs.len() * 2 * n]),
        ];
        let launch = common::launch_of(vec![0x1000, 0x8000, 0x10000], bufs, cs.len() as u32);
        let res = run(&k, &launch).unwrap();
        let o = &res.iter().find(|(b, _)| *b == 0x10000).unwrap().1;
        for (i, &(a, b)) in cs.iter().enumerate() {
            let mut got = [0u8; 16];
            got[..2 * n].copy_from_slice(&o[i * 2 * n..(i + 1) * 2 * n]);
            let want = wt.bits_of(a * (1i128 << t.bits) + b);
            assert_eq!(u128::from_le_bytes(got), want, "upsample({a}, {b}) as {w}");
        }
    }
}
