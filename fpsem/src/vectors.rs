//! Test vectors for float units and their reference: a small generator, bit patterns on the
//! edges, mixed distributions of operand pairs and integers, and directed cases whose results
//! are worked out by hand (in the comments). Used by this crate's tests and by the RTL tests of
//! the float units (`tests/fp_units.rs`).

/// SplitMix64, small and dependency-free; good enough for test vectors.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform enough in `0..n` for `n` far below 2^64.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Bit patterns that sit on the edges: zeros, denormals, the smallest and largest normals,
/// infinities, NaNs, one and its neighbours, powers of two near the limits.
pub const EDGES: [u32; 24] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x807f_ffff,
    0x0080_0000,
    0x8080_0000,
    0x0080_0001,
    0x00ff_ffff,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f00_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0x3f80_0000,
    0xbf80_0000,
    0x3f7f_ffff,
    0x3f80_0001,
    0x3400_0000,
    0x4b80_0000,
];

/// Pairs from a mix of distributions: uniform bits, edge patterns against anything, close
/// exponents (cancellation, ties), equal magnitudes of opposite sign, exponents near both
/// limits.
pub fn pair(r: &mut Rng) -> (u32, u32) {
    let bits = |r: &mut Rng| r.next_u64() as u32;
    match r.below(6) {
        0 => (bits(r), bits(r)),
        1 => {
            let e = EDGES[r.below(EDGES.len() as u64) as usize];
            if r.below(2) == 0 {
                (e, bits(r))
            } else {
                (bits(r), e)
            }
        }
        2 => {
            let a = bits(r);
            let e = ((a >> 23) & 0xff) as i64 + r.below(7) as i64 - 3;
            let e = e.clamp(0, 255) as u32;
            let b = (bits(r) & 0x807f_ffff) | e << 23;
            (a, b)
        }
        3 => {
            // The same value up to a few low bits, signs random.
            let a = bits(r);
            (a, a ^ (r.next_u64() as u32 & 0x8000_000f))
        }
        4 => {
            // Both near the bottom (exponents 0..8) or one near each end.
            let low = |r: &mut Rng| (bits(r) & 0x807f_ffff) | (r.below(8) as u32) << 23;
            let high = |r: &mut Rng| (bits(r) & 0x807f_ffff) | (247 + r.below(9) as u32) << 23;
            match r.below(3) {
                0 => (low(r), low(r)),
                1 => (high(r), high(r)),
                _ => (low(r), high(r)),
            }
        }
        _ => {
            // Products near the underflow and overflow thresholds: biased exponents summing
            // to about 127 (product near 2^-126) or 381 (near 2^127).
            let ea = r.below(254) as u32 + 1;
            let target = if r.below(2) == 0 { 0 } else { 254 } as i64 + 127;
            let eb = (target - ea as i64 + r.below(5) as i64 - 2).clamp(1, 254) as u32;
            (
                (bits(r) & 0x807f_ffff) | ea << 23,
                (bits(r) & 0x807f_ffff) | eb << 23,
            )
        }
    }
}

/// Integers with every magnitude: uniform bits, short values, values near powers of two
/// (ties and carries in rounding), the extremes.
pub fn int_value(r: &mut Rng) -> u64 {
    match r.below(5) {
        0 => r.next_u64(),
        1 => r.next_u64() >> r.below(64),
        2 => {
            let p = 1u64 << r.below(64);
            p.wrapping_add(r.below(9)).wrapping_sub(4)
        }
        3 => !(r.next_u64() >> r.below(64)),
        _ => [
            0,
            1,
            u64::MAX,
            1 << 63,
            (1 << 63) - 1,
            1 << 24,
            (1 << 24) + 1,
        ][r.below(7) as usize],
    }
}

/// Normal operands whose product lies within a few units of the last place of
/// (2^24 - 1) × 2^-150, the threshold above which a product below 2^-126 rounds up to 2^-126 at
/// the denormal quantum (see [`crate::mul`]): significands with a product near
/// (2^24 - 1) × 2^23, exponents summing to 127 (biased), random signs.
pub fn near_min_normal_product(r: &mut Rng) -> (u32, u32) {
    let target = ((1u64 << 24) - 1) << 23;
    loop {
        let sa = (1u64 << 23) | (r.next_u64() & 0x7f_ffff);
        let sb = (target / sa + r.below(5)).wrapping_sub(2);
        if !(1 << 23..1 << 24).contains(&sb) {
            continue;
        }
        let ea = r.below(126) as u32 + 1;
        let eb = 127 - ea;
        let sign = |r: &mut Rng| (r.below(2) as u32) << 31;
        return (
            sign(r) | ea << 23 | (sa as u32 & 0x7f_ffff),
            sign(r) | eb << 23 | (sb as u32 & 0x7f_ffff),
        );
    }
}

/// `a + b` cases: `(a, b, a + b)`.
pub const ADD_DIRECTED: [(u32, u32, u32); 14] = [
    // 1 + 1 = 2
    (0x3f80_0000, 0x3f80_0000, 0x4000_0000),
    // 1 + 2^-24: exactly half an ulp above 1 (even): stays 1
    (0x3f80_0000, 0x3380_0000, 0x3f80_0000),
    // (1 + 2^-23) + 2^-24: half an ulp above an odd significand: rounds up to 1 + 2^-22
    (0x3f80_0001, 0x3380_0000, 0x3f80_0002),
    // (2 - 2^-23) + 2^-23 = 2: the rounding carry moves the exponent
    (0x3fff_ffff, 0x3400_0000, 0x4000_0000),
    // max + max overflows
    (0x7f7f_ffff, 0x7f7f_ffff, 0x7f80_0000),
    // max + 2^103 (half an ulp of max, odd significand): rounds up, overflows
    (0x7f7f_ffff, 0x7300_0000, 0x7f80_0000),
    // max + 2^102: below half an ulp, stays max
    (0x7f7f_ffff, 0x7280_0000, 0x7f7f_ffff),
    // (1 + 2^-23) - 1 = 2^-23: massive cancellation
    (0x3f80_0001, 0xbf80_0000, 0x3400_0000),
    // (2^-126 + 2^-149) - 2^-126 = 2^-149, a denormal: flushed to +0
    (0x0080_0001, 0x8080_0000, 0x0000_0000),
    // the same the other way round: -2^-149 flushed to -0
    (0x0080_0000, 0x8080_0001, 0x8000_0000),
    // x + (-x) = +0, (-0) + (-0) = -0, (-0) + (+0) = +0
    (0xc120_0000, 0x4120_0000, 0x0000_0000),
    (0x8000_0000, 0x8000_0000, 0x8000_0000),
    (0x8000_0000, 0x0000_0000, 0x0000_0000),
    // 2^-126 + (-denormal): the denormal is -0
    (0x0080_0000, 0x8000_0001, 0x0080_0000),
];

/// `a × b` cases: `(a, b, a × b)`.
pub const MUL_DIRECTED: [(u32, u32, u32); 9] = [
    // (1 - 2^-24) × 2^-126 = (2^24 - 1) × 2^-150 = 8388607.5 × 2^-149: a tie at denormal
    // precision between 8388607 (odd) and 8388608 (even) × 2^-149; the even one is
    // 2^-126, the smallest normal, so the result is that and not a flushed denormal.
    (0x3f7f_ffff, 0x0080_0000, 0x0080_0000),
    (0xbf7f_ffff, 0x0080_0000, 0x8080_0000),
    // (1 - 2^-23) × 2^-126 = (2^23 - 1) × 2^-149: an exact denormal, flushed
    (0x3f7f_fffe, 0x0080_0000, 0x0000_0000),
    // 0.5 × 2^-126 = 2^-127: denormal, flushed with the product's sign
    (0xbf00_0000, 0x0080_0000, 0x8000_0000),
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounds down to 1 + 2^-22
    (0x3f80_0001, 0x3f80_0001, 0x3f80_0002),
    // (1 + 2^-23)(1 + 3×2^-23) = 1 + 2^-21 + 3×2^-46: rounds down to 1 + 2^-21
    (0x3f80_0001, 0x3f80_0003, 0x3f80_0004),
    // 2^127 × 2 overflows
    (0x7f00_0000, 0x4000_0000, 0x7f80_0000),
    // -3 × 0.5 = -1.5
    (0xc040_0000, 0x3f00_0000, 0xbfc0_0000),
    // 2^-126 × 0.5 = 2^-127: flushed
    (0x0080_0000, 0x3f00_0000, 0x0000_0000),
];

/// `a / b` cases: `(a, b, a / b)`.
pub const DIV_DIRECTED: [(u32, u32, u32); 9] = [
    // 1/3 = 0x3eaaaaab (0.333333343)
    (0x3f80_0000, 0x4040_0000, 0x3eaa_aaab),
    // 1/-0 = -inf; 1/denormal = 1/0 = inf; 0/-denormal = 0/0 = NaN; inf/inf = NaN
    (0x3f80_0000, 0x8000_0000, 0xff80_0000),
    (0x3f80_0000, 0x0000_0001, 0x7f80_0000),
    (0x0000_0000, 0x8000_0001, 0x7fc0_0000),
    (0x7f80_0000, 0x7f80_0000, 0x7fc0_0000),
    // 2^-126 / 2 = 2^-127: flushed
    (0x0080_0000, 0x4000_0000, 0x0000_0000),
    // (2 - 2^-23) × 2^-126 / 2 = (2^24 - 1) × 2^-150: a tie at the denormal quantum between
    // (2^23 - 1) × 2^-149 (odd) and 2^-126 (even): 2^-126 (the only way a quotient rounds up
    // to the smallest normal: the divisor a power of two)
    (0x00ff_ffff, 0x4000_0000, 0x0080_0000),
    // (2 - 2^-22) × 2^-126 / 2 = (2^23 - 1) × 2^-149: an exact denormal, flushed
    (0x00ff_fffe, 0x4000_0000, 0x0000_0000),
    // 2^127 / 0.5 overflows
    (0x7f00_0000, 0x3f00_0000, 0x7f80_0000),
];

/// `sqrt(a)` cases: `(a, sqrt(a))`.
pub const SQRT_DIRECTED: [(u32, u32); 8] = [
    // sqrt(2) = 0x3fb504f3, sqrt(4) = 2
    (0x4000_0000, 0x3fb5_04f3),
    (0x4080_0000, 0x4000_0000),
    // sqrt(-0) = -0, sqrt(-denormal) = sqrt(-0) = -0, sqrt(-1) = NaN
    (0x8000_0000, 0x8000_0000),
    (0x8000_0005, 0x8000_0000),
    (0xbf80_0000, 0x7fc0_0000),
    // sqrt(+inf) = +inf, sqrt(-inf) = NaN
    (0x7f80_0000, 0x7f80_0000),
    (0xff80_0000, 0x7fc0_0000),
    // sqrt(2^-126) = 2^-63, the smallest normal's root
    (0x0080_0000, 0x2000_0000),
];

/// Operands with a quotient of at most 12 significant bits, exactly: the division's remainder
/// is zero (no sticky bit). Normal, random signs and moderate exponents.
pub fn exact_quotient(r: &mut Rng) -> (u32, u32) {
    loop {
        let q = few_bits(r);
        let b = few_bits(r);
        let a = crate::mul(q, b);
        if a & 0x7f80_0000 != 0 && a & 0x7f80_0000 != 0x7f80_0000 {
            return (a, b);
        }
    }
}

/// The square of a float with at most 12 significant bits: an exact square root.
pub fn exact_square(r: &mut Rng) -> u32 {
    loop {
        let q = few_bits(r) & 0x7fff_ffff;
        let a = crate::mul(q, q);
        if a & 0x7f80_0000 != 0 && a & 0x7f80_0000 != 0x7f80_0000 {
            return a;
        }
    }
}

/// A normal float with at most 12 significant bits, a random sign and an exponent within
/// 2^-60 .. 2^60.
fn few_bits(r: &mut Rng) -> u32 {
    let sign = (r.below(2) as u32) << 31;
    let exp = 67 + r.below(120) as u32;
    let frac = (r.next_u64() as u32 & 0x7ff) << 12;
    sign | exp << 23 | frac
}
