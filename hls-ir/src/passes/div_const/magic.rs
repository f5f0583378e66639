//! The arithmetic of division by a constant (Granlund and Montgomery, "Division by invariant
//! integers using multiplication", PLDI 1994; Warren, "Hacker's Delight", chapter 10): which
//! computation replaces `x / d`, and that computation evaluated on numbers, step by step as the
//! pass builds it in the IR, so the tests below check the recipes on every 8-bit pair, on every
//! 16-bit divisor, and on random and boundary 32- and 64-bit operands.
//!
//! **Unsigned** (`x <= n_max`, `d` not a power of two, `2 d <= n_max`): with `d = d' 2^z`
//! (`d'` odd), `x' = x >> z < 2^b`, the smallest `p >= b` for which `m = ceil(2^p / d')`
//! leaves `e = m d' - 2^p` with `e n' < 2^p` (`n' = n_max >> z`) gives
//! `floor(x' m / 2^p) = floor(x / d)` for every `x <= n_max`: `x' m / 2^p = x' / d' + x' e /
//! (d' 2^p)`, and the second term stays below `1 / d'`, the distance from `x' / d'` to the
//! next integer. `m` has at most `b + 1` bits; when it has `b + 1`, the product is taken as
//! `floor((floor(x' (m - 2^b) / 2^b) + x') / 2^(p - b))` (the "add" variant; `p > b` then, and
//! the sum is halved first as `((x' - t) >> 1) + t`, so nothing needs `b + 1` bits).
//!
//! **Signed** (truncating): `x / d = sign * (|x| / |d|)` with `|x| <= 2^(w-1)` divided as an
//! unsigned number with `n_max = 2^(w-1)`, negated when the signs differ; a power of two is
//! `(x + bias) >> k` with `bias = 2^k - 1` for negative `x` (rounding toward zero), negated for
//! a negative divisor. `MIN / -1` wraps to `MIN` like the IR's division.
//!
//! The remainder is `x - q d` at the width (wrapping), for every recipe.

/// Bits needed to write `v` (0 for 0).
fn bits_of(v: u128) -> u32 {
    128 - v.leading_zeros()
}

fn mask(bits: u32) -> u64 {
    crate::integer::mask(bits)
}

/// `floor((x >> pre) * m / 2^p)`, exact for every `x <= n_max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic {
    /// The divisor's trailing zeros, shifted out of the dividend first.
    pub pre: u32,
    /// Bits of the shifted dividend (`b` above).
    pub xbits: u32,
    /// The multiplier, at most `xbits + 1` bits.
    pub m: u128,
    /// The total right shift, at least `xbits`.
    pub p: u32,
}

impl Magic {
    /// The multiplier and shift for `d` (neither 0 nor a power of two, `2 d <= n_max`).
    pub fn new(d: u64, n_max: u64) -> Magic {
        assert!(
            d > 2 && !d.is_power_of_two() && d <= n_max / 2,
            "no magic for {d} ({n_max})"
        );
        let pre = d.trailing_zeros();
        let d1 = u128::from(d >> pre);
        let n1 = u128::from(n_max >> pre);
        let xbits = bits_of(n1);
        // p = xbits + bits(d1) always works (e < d1), and stays below 128 since d1 <= n1 / 2.
        let mut p = xbits;
        loop {
            let m = (1u128 << p).div_ceil(d1);
            let e = m * d1 - (1u128 << p);
            if e * n1 < 1u128 << p {
                return Magic { pre, xbits, m, p };
            }
            p += 1;
        }
    }

    /// The multiplier needs `xbits + 1` bits: the "add" variant.
    pub fn wide(&self) -> bool {
        self.m >> self.xbits != 0
    }

    /// The quotient, computed as the IR does (`x <= n_max`).
    pub fn eval(&self, x: u64) -> u64 {
        let x1 = u128::from(x >> self.pre);
        let b = self.xbits;
        let q = if self.wide() {
            // t = floor(x' (m - 2^b) / 2^b) (b bits), then (t + x') >> (p - b), taken as
            // (((x' - t) >> 1) + t) >> (p - b - 1) so no value needs b + 1 bits (p > b here).
            let t = (x1 * (self.m - (1u128 << b))) >> b;
            (((x1 - t) >> 1) + t) >> (self.p - b - 1)
        } else {
            ((x1 * self.m) >> b) >> (self.p - b)
        };
        q as u64
    }
}

/// How an unsigned `bits`-bit division by a constant is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsigned {
    /// `d = 0`: the quotient is 0 (the IR's value).
    Zero,
    /// `d = 1`.
    Identity,
    /// `d = 2^k`: `x >> k`.
    Shift(u32),
    /// `2 d > 2^bits - 1`: the quotient is `x >= d`.
    AtMostOne(u64),
    Magic(Magic),
}

impl Unsigned {
    pub fn new(d: u64, bits: u32) -> Unsigned {
        let d = d & mask(bits);
        let n_max = mask(bits);
        match d {
            0 => Unsigned::Zero,
            1 => Unsigned::Identity,
            _ if d.is_power_of_two() => Unsigned::Shift(d.trailing_zeros()),
            _ if d > n_max / 2 => Unsigned::AtMostOne(d),
            _ => Unsigned::Magic(Magic::new(d, n_max)),
        }
    }

    /// The quotient of `x` (`bits` bits).
    pub fn eval(&self, x: u64) -> u64 {
        match *self {
            Unsigned::Zero => 0,
            Unsigned::Identity => x,
            Unsigned::Shift(k) => x >> k,
            Unsigned::AtMostOne(d) => u64::from(x >= d),
            Unsigned::Magic(m) => m.eval(x),
        }
    }
}

/// How a signed `bits`-bit division by a constant is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signed {
    /// `d = 0`: the quotient is 0.
    Zero,
    /// `d = 1`.
    Identity,
    /// `d = -1`: `-x` (wrapping: `MIN / -1 = MIN`).
    Negate,
    /// `|d| = 2^k` (`k >= 1`; `d = MIN` included): `(x + bias) >> k`, negated when `d < 0`.
    Pow2 { k: u32, negative: bool },
    /// `2 |d| > 2^(bits-1)`: `|x| >= |d|` (0 or 1), negated when the signs differ.
    AtMostOne { mag: u64, negative: bool },
    /// `|x| / |d|` as an unsigned division of `|x| <= 2^(bits-1)`, negated when the signs
    /// differ.
    Magic { magic: Magic, negative: bool },
}

impl Signed {
    /// `d` is the divisor's `bits`-bit pattern.
    pub fn new(d: u64, bits: u32) -> Signed {
        let d = d & mask(bits);
        let sd = crate::integer::sext(d, bits);
        let negative = sd < 0;
        // |MIN| is 2^(bits-1): a power of two like the others.
        let mag = sd.unsigned_abs();
        let n_max = 1u64 << (bits - 1);
        match (sd, mag) {
            (0, _) => Signed::Zero,
            (1, _) => Signed::Identity,
            (-1, _) => Signed::Negate,
            (_, m) if m.is_power_of_two() => Signed::Pow2 {
                k: m.trailing_zeros(),
                negative,
            },
            (_, m) if m > n_max / 2 => Signed::AtMostOne { mag: m, negative },
            (_, m) => Signed::Magic {
                magic: Magic::new(m, n_max),
                negative,
            },
        }
    }

    /// The quotient's `bits`-bit pattern for the pattern `x`.
    pub fn eval(&self, x: u64, bits: u32) -> u64 {
        let m = mask(bits);
        let x = x & m;
        let sign = x >> (bits - 1) & 1 == 1;
        let neg = |v: u64| v.wrapping_neg() & m;
        match *self {
            Signed::Zero => 0,
            Signed::Identity => x,
            Signed::Negate => neg(x),
            Signed::Pow2 { k, negative } => {
                // bias = (x >>s (bits-1)) >>u (bits-k): 2^k - 1 for negative x
                let bias = if sign { mask(k) } else { 0 };
                let t = x.wrapping_add(bias) & m;
                let q = (crate::integer::sext(t, bits) >> k) as u64 & m;
                if negative {
                    neg(q)
                } else {
                    q
                }
            }
            Signed::AtMostOne { .. } | Signed::Magic { .. } => {
                let ax = if sign { neg(x) } else { x };
                let (uq, negative) = match *self {
                    Signed::AtMostOne { mag, negative } => (u64::from(ax >= mag), negative),
                    Signed::Magic { magic, negative } => (magic.eval(ax), negative),
                    _ => unreachable!(),
                };
                if sign != negative {
                    neg(uq)
                } else {
                    uq
                }
            }
        }
    }
}

/// The remainder `x - q d` at `bits` bits.
pub fn remainder(x: u64, q: u64, d: u64, bits: u32) -> u64 {
    x.wrapping_sub(q.wrapping_mul(d)) & mask(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integer::binary;
    use crate::ops::BinOp;

    /// Checks quotient and remainder of `x` by `d` at `bits` bits against the IR's division.
    fn check(x: u64, d: u64, bits: u32, signed: bool) {
        let q = if signed {
            Signed::new(d, bits).eval(x, bits)
        } else {
            Unsigned::new(d, bits).eval(x)
        };
        let (dop, rop) = if signed {
            (BinOp::DivS, BinOp::RemS)
        } else {
            (BinOp::DivU, BinOp::RemU)
        };
        assert_eq!(
            q,
            binary(dop, bits, x, d).unwrap(),
            "{x:#x} / {d:#x}, {bits} bits, signed {signed}"
        );
        if d != 0 {
            let r = remainder(x, q, d, bits);
            assert_eq!(
                r,
                binary(rop, bits, x, d).unwrap(),
                "{x:#x} % {d:#x}, {bits} bits"
            );
        }
    }

    #[test]
    fn every_8_bit_pair() {
        for d in 0..256 {
            for x in 0..256 {
                check(x, d, 8, false);
                check(x, d, 8, true);
            }
        }
    }

    /// Every 16-bit divisor, with every dividend that starts or ends a run of equal quotients:
    /// the recipes are non-decreasing in the dividend (the unsigned ones in `x`, the signed
    /// ones in `|x|` on each sign), so right at both ends of every run means right everywhere.
    #[test]
    fn every_16_bit_divisor() {
        let bits = 16;
        for d in 1..1u64 << bits {
            let u = Unsigned::new(d, bits);
            let mut q = 0;
            while q * d < 1 << bits {
                for x in [q * d, (q * d + d - 1).min((1 << bits) - 1)] {
                    assert_eq!(u.eval(x), x / d, "{x} / {d}");
                }
                q += 1;
            }
            let ad = crate::integer::sext(d, bits).unsigned_abs();
            let mut q = 0;
            while q * ad <= 1 << (bits - 1) {
                for ax in [q * ad, (q * ad + ad - 1).min(1 << (bits - 1))] {
                    for x in [ax, ax.wrapping_neg() & 0xffff] {
                        check(x, d, bits, true);
                    }
                }
                q += 1;
            }
        }
        // And every dividend for a few divisors.
        for d in [
            3, 7, 10, 641, 0x7fff, 0x8001, 0xfffd, 0xffff, 0x8000, 0xfff9,
        ] {
            for x in 0..1 << bits {
                check(x, d, bits, false);
                check(x, d, bits, true);
            }
        }
    }

    fn boundary_values(bits: u32) -> Vec<u64> {
        let m = mask(bits);
        let top = 1u64 << (bits - 1);
        vec![
            0,
            1,
            2,
            3,
            7,
            10,
            top - 1,
            top,
            top + 1,
            m,
            m - 1,
            m - 2,
            m / 3,
            m / 7 + 1,
        ]
    }

    #[test]
    fn random_and_boundary_32_and_64_bit() {
        let mut r = 0x5eed_u64;
        let mut next = || {
            // SplitMix64
            r = r.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = r;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for bits in [32, 64, 33, 48, 63, 9, 23] {
            let m = mask(bits);
            let mut divisors = boundary_values(bits);
            for _ in 0..300 {
                let n = 1 + next() % u64::from(bits);
                divisors.push(next() & mask(n as u32));
                divisors.push(next() & m);
            }
            for &d in &divisors {
                let mut xs = boundary_values(bits);
                for _ in 0..300 {
                    xs.push(next() & m);
                }
                // Around multiples of the divisor (the quotient steps there).
                if d > 1 {
                    for _ in 0..50 {
                        let q = next() % (m / d + 1);
                        let base = q.wrapping_mul(d);
                        xs.extend(
                            [base, base.wrapping_sub(1), base.wrapping_add(d - 1)].map(|x| x & m),
                        );
                        xs.push(base.wrapping_neg() & m);
                    }
                }
                for &x in &xs {
                    check(x, d, bits, false);
                    check(x, d, bits, true);
                }
            }
        }
    }

    #[test]
    fn known_multipliers() {
        // Hacker's Delight, table 10-2 (unsigned, 32 bits): /3 is 0xAAAAAAAB >> 33, /7 needs
        // the add variant with 0x24924925 (m - 2^32) and a total shift of 35.
        let m3 = Magic::new(3, u64::from(u32::MAX));
        assert_eq!((m3.m, m3.p, m3.wide()), (0xAAAA_AAAB, 33, false));
        let m7 = Magic::new(7, u64::from(u32::MAX));
        assert_eq!((m7.m - (1 << 32), m7.p, m7.wide()), (0x2492_4925, 35, true));
        // /10: the trailing zero is shifted out first, then / 5 on 31 bits: 0x66666667 >> 33.
        let m10 = Magic::new(10, u64::from(u32::MAX));
        assert_eq!((m10.pre, m10.xbits, m10.m, m10.p), (1, 31, 0x6666_6667, 33));
    }
}
