//! fpsem: the bit-exact semantics of single-precision float operations in oclhls hardware.
//!
//! Owns the one definition of what the float units of `rtl-templates` (`oclhls_fp_*.v`) compute,
//! as functions on bit patterns (`u32` for `float`, the low `width` bits of a `u64` for
//! integers). The emulator, the IR interpreter and the RTL tests all call these, so a kernel
//! gives the same bits everywhere.
//!
//! The device does not support denormals (OpenCL full profile allows this: `CL_FP_DENORM`
//! absent from `CL_DEVICE_SINGLE_FP_CONFIG`):
//! - **Inputs**: a denormal input is a zero of the same sign (denormals-are-zero, [`flush`]).
//! - **Arithmetic** ([`add`], [`sub`], [`mul`], [`div`], [`sqrt`]): the IEEE 754
//!   round-to-nearest-even result with gradual underflow, then a denormal result becomes a zero
//!   of the same sign: `flush(ieee(flush(a) op flush(b)))`. Rounding happens before the flush,
//!   so a product just below the smallest normal that rounds up to it at denormal precision is
//!   the smallest normal (`mul(0x3f7fffff, 0x00800000) == 0x00800000`).
//! - **NaN**: every NaN result is the canonical quiet NaN [`CANONICAL_NAN`] (`0x7fc00000`),
//!   whatever the NaN inputs were; invalid operations (inf − inf, 0 × inf, 0 / 0, inf / inf,
//!   sqrt of a negative) give it too. Signed zeros as IEEE: x + (−x) = +0, (−0) + (−0) = −0,
//!   the sign of a product or quotient is the xor of the signs, sqrt(−0) = −0.
//! - **Compares** ([`cmp`]): IEEE on flushed inputs (−0 == +0, a denormal equals zero; NaN is
//!   unordered: neither less nor equal).
//! - **Conversions**: [`from_int`] rounds to nearest even (OpenCL's default for int → float;
//!   exact up to 2^24); [`to_int`] truncates toward zero and saturates at the type's bounds,
//!   NaN → 0 (Rust's `as` semantics). Denormals do not matter to it (they truncate to 0).
//!
//! Why a soft-float implementation and not the host's `f32`: it does not depend on the host's
//! floating-point environment (x87 double rounding, FTZ/DAZ modes), it is the same on every
//! target, and its structure (exact integer significands, one rounding step) is the one the
//! RTL follows. The tests check it against the host's IEEE `f32` wrapped in [`flush`] on edge
//! cases and millions of random inputs.

/// The NaN every operation returns (quiet, positive, zero payload).
pub const CANONICAL_NAN: u32 = 0x7fc0_0000;

const SIGN: u32 = 0x8000_0000;
const EXP_MASK: u32 = 0x7f80_0000;
const MAN_MASK: u32 = 0x007f_ffff;
const HIDDEN: u32 = 0x0080_0000;

/// A float input after [`flush`], classified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Nan,
    Inf(bool),
    Zero(bool),
    /// sign, unbiased exponent (−126..=127), significand with the hidden bit (2^23..2^24):
    /// the value is `sig × 2^(exp − 23)`.
    Num(bool, i32, u32),
}

fn classify(a: u32) -> Class {
    let sign = a & SIGN != 0;
    let exp = (a & EXP_MASK) >> 23;
    let man = a & MAN_MASK;
    match exp {
        0 => Class::Zero(sign),
        255 if man != 0 => Class::Nan,
        255 => Class::Inf(sign),
        _ => Class::Num(sign, exp as i32 - 127, man | HIDDEN),
    }
}

fn zero(sign: bool) -> u32 {
    if sign {
        SIGN
    } else {
        0
    }
}

fn inf(sign: bool) -> u32 {
    zero(sign) | EXP_MASK
}

/// A denormal becomes a zero of the same sign; every other pattern (NaNs included) is
/// returned unchanged.
pub fn flush(a: u32) -> u32 {
    if a & EXP_MASK == 0 {
        a & SIGN
    } else {
        a
    }
}

/// `m >> sh` with the bits shifted out as (round bit, sticky): the first bit below the result
/// and whether any bit below that one is set. Any shift amount.
fn shift_right_round(m: u128, sh: u32) -> (u128, bool, bool) {
    match sh {
        0 => (m, false, false),
        1..=127 => {
            let round = (m >> (sh - 1)) & 1 != 0;
            let sticky = m & ((1u128 << (sh - 1)) - 1) != 0;
            (m >> sh, round, sticky)
        }
        128 => (0, m >> 127 != 0, m & (u128::MAX >> 1) != 0),
        _ => (0, false, m != 0),
    }
}

/// Rounds the exact value `(−1)^sign × (mant + δ) × 2^exp`, where `mant > 0`, `0 ≤ δ < 1` and
/// `δ > 0` exactly when `inexact`, to single precision: IEEE round to nearest even with
/// gradual underflow and overflow to infinity, then a denormal result flushed to zero.
fn round_pack(sign: bool, exp: i32, mant: u128, inexact: bool) -> u32 {
    debug_assert!(mant != 0);
    let msb = 127 - mant.leading_zeros() as i32;
    // Weight of the result's last significand bit: 2^(e − 23) in the normal range, 2^−149
    // (the denormal quantum) below it.
    let lsb = (exp + msb - 23).max(-149);
    let (mut q, round, sticky) = if lsb >= exp {
        shift_right_round(mant, (lsb - exp) as u32)
    } else {
        // Fewer than 24 significant bits: exact.
        (mant << (exp - lsb), false, false)
    };
    let sticky = sticky || inexact;
    if round && (sticky || q & 1 != 0) {
        q += 1;
    }
    // The value is now q × 2^lsb with q ≤ 2^24.
    let (q, lsb) = if q >> 24 != 0 {
        (q >> 1, lsb + 1)
    } else {
        (q, lsb)
    };
    if q < u128::from(HIDDEN) {
        // Zero or denormal (only possible at lsb = −149): flushed.
        return zero(sign);
    }
    let biased = lsb + 150;
    if biased > 254 {
        return inf(sign);
    }
    zero(sign) | (biased as u32) << 23 | (q as u32 & MAN_MASK)
}

/// `a + b`.
pub fn add(a: u32, b: u32) -> u32 {
    use Class::*;
    match (classify(a), classify(b)) {
        (Nan, _) | (_, Nan) => CANONICAL_NAN,
        (Inf(s), Inf(t)) if s != t => CANONICAL_NAN,
        (Inf(s), _) | (_, Inf(s)) => inf(s),
        (Zero(s), Zero(t)) => zero(s && t),
        (Zero(_), Num(..)) => b,
        (Num(..), Zero(_)) => a,
        (Num(sa, ea, ma), Num(sb, eb, mb)) => {
            // Both significands over a common exponent with 64 bits of headroom below the
            // larger one; an operand more than 64 binades below the other only matters as a
            // nonzero amount far below the rounding point, so it is replaced by the least
            // such amount (1).
            let emax = ea.max(eb);
            let scaled = |s: bool, e: i32, m: u32| -> i128 {
                let d = emax - e;
                let v = if d > 64 { 1 } else { i128::from(m) << (64 - d) };
                if s {
                    -v
                } else {
                    v
                }
            };
            let sum = scaled(sa, ea, ma) + scaled(sb, eb, mb);
            if sum == 0 {
                // Exact cancellation: +0 in round to nearest.
                return 0;
            }
            round_pack(sum < 0, emax - 23 - 64, sum.unsigned_abs(), false)
        }
    }
}

/// `a − b`: [`add`] with `b`'s sign flipped (what the hardware does).
pub fn sub(a: u32, b: u32) -> u32 {
    add(a, b ^ SIGN)
}

/// `a × b`.
pub fn mul(a: u32, b: u32) -> u32 {
    use Class::*;
    match (classify(a), classify(b)) {
        (Nan, _) | (_, Nan) | (Inf(_), Zero(_)) | (Zero(_), Inf(_)) => CANONICAL_NAN,
        (Inf(s), Inf(t) | Num(t, ..)) | (Num(s, ..), Inf(t)) => inf(s != t),
        (Zero(s), Zero(t) | Num(t, ..)) | (Num(s, ..), Zero(t)) => zero(s != t),
        (Num(sa, ea, ma), Num(sb, eb, mb)) => round_pack(
            sa != sb,
            ea + eb - 46,
            u128::from(ma) * u128::from(mb),
            false,
        ),
    }
}

/// `a / b` (correctly rounded; `x / ±0` is ±inf for nonzero `x`, a denormal divisor is ±0).
pub fn div(a: u32, b: u32) -> u32 {
    use Class::*;
    match (classify(a), classify(b)) {
        (Nan, _) | (_, Nan) | (Inf(_), Inf(_)) | (Zero(_), Zero(_)) => CANONICAL_NAN,
        (Inf(s), Zero(t) | Num(t, ..)) | (Num(s, ..), Zero(t)) => inf(s != t),
        (Zero(s), Inf(t) | Num(t, ..)) | (Num(s, ..), Inf(t)) => zero(s != t),
        (Num(sa, ea, ma), Num(sb, eb, mb)) => {
            // ma / mb = (q + r / mb) × 2^−62, with q ≥ 2^61: far more bits than rounding needs.
            let n = u128::from(ma) << 62;
            let d = u128::from(mb);
            round_pack(sa != sb, ea - eb - 62, n / d, n % d != 0)
        }
    }
}

/// Integer square root: `(s, r)` with `s = ⌊√n⌋`, `r = n − s²`.
fn isqrt(n: u128) -> (u128, u128) {
    // Digit by digit, two bits of n per result bit.
    let mut rem = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    (root, rem)
}

/// `sqrt(a)` (correctly rounded; sqrt(−0) = −0, sqrt of a negative number is NaN).
pub fn sqrt(a: u32) -> u32 {
    match classify(a) {
        Class::Nan | Class::Inf(true) | Class::Num(true, ..) => CANONICAL_NAN,
        Class::Inf(false) => inf(false),
        Class::Zero(s) => zero(s),
        Class::Num(false, e, m) => {
            // a = m × 2^k; make k even, then √a = √(m × 2^80) × 2^(k/2 − 40).
            let (m, k) = if (e - 23) % 2 != 0 {
                (u128::from(m) << 1, e - 24)
            } else {
                (u128::from(m), e - 23)
            };
            let (s, r) = isqrt(m << 80);
            round_pack(false, k / 2 - 40, s, r != 0)
        }
    }
}

/// Compares `a` and `b` after [`flush`]: `(a < b, a == b, unordered)`. Unordered (either is
/// NaN) makes the first two false.
pub fn cmp(a: u32, b: u32) -> (bool, bool, bool) {
    // Flushed values as integers in the order of the reals: zeros of both signs are 0.
    let key = |x: u32| -> Option<i64> {
        match classify(x) {
            Class::Nan => None,
            Class::Zero(_) => Some(0),
            _ => {
                let mag = i64::from(x & !SIGN);
                Some(if x & SIGN != 0 { -mag } else { mag })
            }
        }
    };
    match (key(a), key(b)) {
        (Some(x), Some(y)) => (x < y, x == y, false),
        _ => (false, false, true),
    }
}

/// OpenCL `fmin(a, b)`: `b` if `b < a`, otherwise `a`; when one argument is a NaN the other,
/// when both are, [`CANONICAL_NAN`]. On flushed inputs, and the result is the flushed operand
/// (so `fmin(-0, +0)` is `-0` and `fmin(+0, -0)` is `+0`).
pub fn min(a: u32, b: u32) -> u32 {
    pick(a, b, |a, b| cmp(b, a).0)
}

/// OpenCL `fmax(a, b)`: `b` if `a < b`, otherwise `a`; NaNs as in [`min`].
pub fn max(a: u32, b: u32) -> u32 {
    pick(a, b, |a, b| cmp(a, b).0)
}

fn pick(a: u32, b: u32, take_b: impl Fn(u32, u32) -> bool) -> u32 {
    let (a, b) = (flush(a), flush(b));
    match (classify(a) == Class::Nan, classify(b) == Class::Nan) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        _ if take_b(a, b) => b,
        _ => a,
    }
}

fn check_width(width: u32) {
    assert!(
        (1..=64).contains(&width),
        "integer width {width} is not 1..=64"
    );
}

fn low_bits(v: u128, width: u32) -> u64 {
    (v & ((1u128 << width) - 1)) as u64
}

/// The integer in the low `width` bits of `v` (other bits ignored), signed (two's complement)
/// or unsigned, converted to float rounding to nearest even. Panics unless `1 <= width <= 64`.
pub fn from_int(v: u64, width: u32, signed: bool) -> u32 {
    check_width(width);
    let v = u128::from(low_bits(u128::from(v), width));
    let negative = signed && v >> (width - 1) != 0;
    let mag = if negative { (1u128 << width) - v } else { v };
    if mag == 0 {
        return 0;
    }
    round_pack(negative, 0, mag, false)
}

/// `a` converted to a `width`-bit signed or unsigned integer: rounded toward zero, saturated
/// at the type's minimum and maximum (±inf included), NaN → 0. Returns the result's low
/// `width` bits (two's complement), the other bits 0. Panics unless `1 <= width <= 64`.
pub fn to_int(a: u32, width: u32, signed: bool) -> u64 {
    check_width(width);
    let (min, max): (i128, i128) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    let v: i128 = match classify(a) {
        Class::Nan | Class::Zero(_) => 0,
        Class::Inf(s) => {
            if s {
                min
            } else {
                max
            }
        }
        Class::Num(s, e, m) => {
            // |a| < 2^128; anything at or above 2^65 saturates like 2^65 does.
            let t = if e < 0 {
                0
            } else if e >= 23 {
                u128::from(m) << (e - 23)
            } else {
                u128::from(m >> (23 - e))
            };
            let t = t.min(1u128 << 65) as i128;
            if s {
                -t
            } else {
                t
            }
        }
    };
    low_bits(v.clamp(min, max) as u128, width)
}

pub mod vectors;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod min_max_tests {
    use super::*;

    #[test]
    fn fmin_and_fmax_follow_the_opencl_rule() {
        let f = |x: f32| x.to_bits();
        assert_eq!(min(f(1.0), f(2.0)), f(1.0));
        assert_eq!(max(f(1.0), f(2.0)), f(2.0));
        assert_eq!(min(f(-0.0), f(0.0)), f(-0.0));
        assert_eq!(min(f(0.0), f(-0.0)), f(0.0));
        assert_eq!(max(f(f32::NAN), f(-3.0)), f(-3.0));
        assert_eq!(min(f(-3.0), 0xffc0_0001), f(-3.0));
        assert_eq!(max(0x7f80_0001, 0xffc0_0000), CANONICAL_NAN);
        // A denormal is a zero of its sign.
        assert_eq!(min(0x0000_0001, f(1.0)), 0);
        assert_eq!(max(0x8000_0001, f(-1.0)), f(-0.0));
    }
}
