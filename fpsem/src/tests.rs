//! The soft-float reference against the host's IEEE `f32` (x86-64 SSE: round to nearest even,
//! gradual underflow) wrapped in [`flush`] and NaN canonicalisation, which is the definition in
//! the crate docs; and directed cases whose expected bits are worked out by hand in the
//! comments.

use super::vectors::*;
use super::*;

/// The definition: `flush(native(flush(a) op flush(b)))`, NaN canonical.
fn canon(x: u32) -> u32 {
    if f32::from_bits(x).is_nan() {
        CANONICAL_NAN
    } else {
        x
    }
}

fn native2(op: fn(f32, f32) -> f32, a: u32, b: u32) -> u32 {
    let r = op(f32::from_bits(flush(a)), f32::from_bits(flush(b)));
    canon(flush(r.to_bits()))
}

fn native_add(a: u32, b: u32) -> u32 {
    native2(|x, y| x + y, a, b)
}

fn native_mul(a: u32, b: u32) -> u32 {
    native2(|x, y| x * y, a, b)
}

fn native_div(a: u32, b: u32) -> u32 {
    native2(|x, y| x / y, a, b)
}

fn native_sqrt(a: u32) -> u32 {
    canon(flush(f32::from_bits(flush(a)).sqrt().to_bits()))
}

fn native_cmp(a: u32, b: u32) -> (bool, bool, bool) {
    let (x, y) = (f32::from_bits(flush(a)), f32::from_bits(flush(b)));
    (x < y, x == y, x.is_nan() || y.is_nan())
}

fn check2(name: &str, soft: fn(u32, u32) -> u32, native: fn(u32, u32) -> u32, n: usize) {
    let mut r = Rng(0x00f0_5e3d ^ name.len() as u64);
    for &a in &EDGES {
        for &b in &EDGES {
            assert_eq!(soft(a, b), native(a, b), "{name}({a:#010x}, {b:#010x})");
        }
    }
    for _ in 0..n {
        let (a, b) = pair(&mut r);
        assert_eq!(
            soft(a, b),
            native(a, b),
            "{name}({a:#010x}, {b:#010x}): soft-float vs host"
        );
    }
}

#[test]
fn add_matches_the_host() {
    check2("add", add, native_add, 1_000_000);
}

#[test]
fn sub_is_add_with_the_sign_flipped() {
    check2("sub", sub, |a, b| native2(|x, y| x - y, a, b), 100_000);
}

#[test]
fn mul_matches_the_host() {
    check2("mul", mul, native_mul, 1_000_000);
    // Around the round-up-to-the-smallest-normal threshold: both outcomes must occur.
    let mut r = Rng(3);
    let (mut min_normal, mut flushed) = (0, 0);
    for _ in 0..200_000 {
        let (a, b) = near_min_normal_product(&mut r);
        let y = mul(a, b);
        assert_eq!(y, native_mul(a, b), "mul({a:#010x}, {b:#010x})");
        min_normal += usize::from(y & 0x7fff_ffff == 0x0080_0000);
        flushed += usize::from(y & 0x7fff_ffff == 0);
    }
    assert!(
        min_normal > 1000 && flushed > 1000,
        "{min_normal} / {flushed}"
    );
}

#[test]
fn div_matches_the_host() {
    check2("div", div, native_div, 300_000);
}

#[test]
fn sqrt_matches_the_host() {
    let mut r = Rng(7);
    for &a in &EDGES {
        assert_eq!(sqrt(a), native_sqrt(a), "sqrt({a:#010x})");
    }
    for _ in 0..300_000 {
        let (a, _) = pair(&mut r);
        assert_eq!(sqrt(a), native_sqrt(a), "sqrt({a:#010x})");
    }
}

#[test]
fn cmp_matches_the_host() {
    check2(
        "cmp",
        |a, b| {
            let (l, e, u) = cmp(a, b);
            u32::from(l) | u32::from(e) << 1 | u32::from(u) << 2
        },
        |a, b| {
            let (l, e, u) = native_cmp(a, b);
            u32::from(l) | u32::from(e) << 1 | u32::from(u) << 2
        },
        300_000,
    );
}

#[test]
fn from_int_matches_rust_casts() {
    let mut r = Rng(11);
    for _ in 0..200_000 {
        let v = int_value(&mut r);
        let cases: [(u32, bool, f32); 8] = [
            (8, true, v as i8 as f32),
            (8, false, v as u8 as f32),
            (16, true, v as i16 as f32),
            (16, false, v as u16 as f32),
            (32, true, v as i32 as f32),
            (32, false, v as u32 as f32),
            (64, true, v as i64 as f32),
            (64, false, v as f32),
        ];
        for (w, s, want) in cases {
            assert_eq!(
                from_int(v, w, s),
                want.to_bits(),
                "from_int({v:#x}, {w}, {s})"
            );
        }
    }
}

#[test]
fn to_int_matches_rust_casts() {
    let mut r = Rng(13);
    let mut values: Vec<u32> = EDGES.to_vec();
    // Every power of two with its neighbours (the saturation thresholds of every width), and
    // the halves around them.
    for e in 0..=255u32 {
        for m in [0, 1, 0x40_0000, 0x7f_ffff] {
            values.push(e << 23 | m);
            values.push(SIGN | e << 23 | m);
        }
    }
    for _ in 0..200_000 {
        let (a, b) = pair(&mut r);
        values.push(a);
        // Exponents of integers that fit some width.
        values.push((b & 0x807f_ffff) | (120 + r.below(70) as u32) << 23);
    }
    for a in values {
        let x = f32::from_bits(a);
        let cases: [(u32, bool, u64); 8] = [
            (8, true, x as i8 as u8 as u64),
            (8, false, x as u8 as u64),
            (16, true, x as i16 as u16 as u64),
            (16, false, x as u16 as u64),
            (32, true, x as i32 as u32 as u64),
            (32, false, x as u32 as u64),
            (64, true, x as i64 as u64),
            (64, false, x as u64),
        ];
        for (w, s, want) in cases {
            assert_eq!(to_int(a, w, s), want, "to_int({a:#010x}, {w}, {s})");
        }
    }
}

#[test]
fn flush_turns_denormals_into_signed_zeros_only() {
    assert_eq!(flush(0x0000_0001), 0);
    assert_eq!(flush(0x807f_ffff), 0x8000_0000);
    for x in [
        0,
        0x8000_0000,
        0x0080_0000,
        0x8080_0000,
        0x7f80_0000,
        0x7fc0_0001,
        0xffff_ffff,
    ] {
        assert_eq!(flush(x), x);
    }
}

#[test]
fn add_directed() {
    let cases = ADD_DIRECTED;
    for (a, b, y) in cases {
        assert_eq!(add(a, b), y, "add({a:#010x}, {b:#010x})");
    }
    // -denormal + -denormal: both -0, sum -0; inf - inf and NaN payloads: canonical NaN
    assert_eq!(add(0x8000_0001, 0x8000_0003), 0x8000_0000);
    assert_eq!(add(0x7f80_0000, 0xff80_0000), CANONICAL_NAN);
    assert_eq!(add(0xffc1_2345, 0x3f80_0000), CANONICAL_NAN);
    assert_eq!(add(0x7f80_0000, 0x7f80_0000), 0x7f80_0000);
    assert_eq!(sub(0x3f80_0000, 0x3f80_0000), 0);
}

#[test]
fn mul_directed() {
    let cases = MUL_DIRECTED;
    for (a, b, y) in cases {
        assert_eq!(mul(a, b), y, "mul({a:#010x}, {b:#010x})");
    }
    assert_eq!(mul(0x0000_0000, 0xff80_0000), CANONICAL_NAN);
    assert_eq!(mul(0x0000_0001, 0x7f80_0000), CANONICAL_NAN);
    assert_eq!(mul(0x8000_0000, 0x3f80_0000), 0x8000_0000);
    assert_eq!(mul(0x807f_ffff, 0xc000_0000), 0x0000_0000);
}

#[test]
fn div_and_sqrt_directed() {
    for (a, b, y) in DIV_DIRECTED {
        assert_eq!(div(a, b), y, "div({a:#010x}, {b:#010x})");
    }
    for (a, y) in SQRT_DIRECTED {
        assert_eq!(sqrt(a), y, "sqrt({a:#010x})");
    }
    // exact quotients and roots
    let mut r = Rng(5);
    for _ in 0..50_000 {
        let (a, b) = exact_quotient(&mut r);
        assert_eq!(div(a, b), native_div(a, b), "div({a:#010x}, {b:#010x})");
        assert_eq!(
            crate::mul(div(a, b), b),
            a,
            "div({a:#010x}, {b:#010x}) is exact"
        );
        let s = exact_square(&mut r);
        assert_eq!(sqrt(s), native_sqrt(s), "sqrt({s:#010x})");
        assert_eq!(crate::mul(sqrt(s), sqrt(s)), s, "sqrt({s:#010x}) is exact");
    }
}

#[test]
fn cmp_directed() {
    // -0 == +0, denormals equal zeros and each other, NaN unordered
    assert_eq!(cmp(0x8000_0000, 0x0000_0000), (false, true, false));
    assert_eq!(cmp(0x0000_0001, 0x8000_0002), (false, true, false));
    assert_eq!(cmp(0x8000_0001, 0x0080_0000), (true, false, false));
    assert_eq!(cmp(0xbf80_0000, 0xbf80_0001), (false, false, false));
    assert_eq!(cmp(0xbf80_0001, 0xbf80_0000), (true, false, false));
    assert_eq!(cmp(0xff80_0000, 0x7f80_0000), (true, false, false));
    assert_eq!(cmp(0x7fc0_0000, 0x7fc0_0000), (false, false, true));
    assert_eq!(cmp(0x3f80_0000, 0xff80_0001), (false, false, true));
}

#[test]
fn conversions_directed() {
    // 2^24 + 1: a tie between 2^24 (even) and 2^24 + 2: 2^24 = 0x4b800000
    assert_eq!(from_int(16_777_217, 32, true), 0x4b80_0000);
    // 2^24 + 3: a tie between 2^24 + 2 (odd significand) and 2^24 + 4 (even)
    assert_eq!(from_int(16_777_219, 32, true), 0x4b80_0002);
    // u64::MAX rounds to 2^64; i64::MIN is -2^63; -1; i8 0x80 = -128, u8 0x80 = 128
    assert_eq!(from_int(u64::MAX, 64, false), 0x5f80_0000);
    assert_eq!(from_int(1 << 63, 64, true), 0xdf00_0000);
    assert_eq!(from_int(0xffff_ffff, 32, true), 0xbf80_0000);
    assert_eq!(from_int(0x80, 8, true), 0xc300_0000);
    assert_eq!(from_int(0x80, 8, false), 0x4300_0000);
    // bits above the width are ignored
    assert_eq!(from_int(0xffff_ff01, 8, true), 0x3f80_0000);
    assert_eq!(from_int(0, 64, true), 0);
    // 1.5 -> 1, -1.5 -> -1, 2^31 -> i32::MAX, -2^31 -> i32::MIN, 3e9 (0x4f32d05e) as u32
    assert_eq!(to_int(0x3fc0_0000, 32, true), 1);
    assert_eq!(to_int(0xbfc0_0000, 32, true), 0xffff_ffff);
    assert_eq!(to_int(0x4f00_0000, 32, true), 0x7fff_ffff);
    assert_eq!(to_int(0xcf00_0000, 32, true), 0x8000_0000);
    assert_eq!(to_int(0x4f32_d05e, 32, false), 3_000_000_000);
    // 255.5 -> 255 and 256 -> 255 as u8; -1 -> 0 as u8; -0.5 -> 0; NaN -> 0
    assert_eq!(to_int(0x437f_8000, 8, false), 255);
    assert_eq!(to_int(0x4380_0000, 8, false), 255);
    assert_eq!(to_int(0xbf80_0000, 8, false), 0);
    assert_eq!(to_int(0xbf00_0000, 8, true), 0);
    assert_eq!(to_int(0x7fc0_0000, 64, true), 0);
    // -128.5 -> -128 as i8 (0x80); -129 saturates to -128
    assert_eq!(to_int(0xc300_8000, 8, true), 0x80);
    assert_eq!(to_int(0xc301_0000, 8, true), 0x80);
    // ±inf saturate
    assert_eq!(to_int(0xff80_0000, 64, true), 1 << 63);
    assert_eq!(to_int(0x7f80_0000, 64, false), u64::MAX);
    assert_eq!(to_int(0xff80_0000, 16, false), 0);
}
