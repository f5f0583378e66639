//! Values in test headers: literals, `repeat`, `random`, `iota`, `NULL`, and their encoding into
//! little-endian bytes.
//!
//! Every function here returns an error message instead of panicking, and nothing allocates
//! before the size has been checked against [`MAX_BUFFER_BYTES`].

use super::types::{ScalarType, ValueType};

/// Largest buffer (or by-value argument) one header line may describe, in bytes. A count such as
/// `int[4000000000]` is reported instead of allocated.
pub const MAX_BUFFER_BYTES: u64 = 64 << 20;

/// Range of the floats `random` draws (uniformly): wide enough to exercise signs, magnitudes and
/// fractions, small enough that sums and products of a few values stay finite in `half`.
pub(crate) const RANDOM_FLOAT_RANGE: (f64, f64) = (-1000.0, 1000.0);

/// Text from the file quoted in a message, shortened if it is long (a value list can have
/// thousands of entries).
pub(crate) fn clip(s: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 60;
    if s.len() <= MAX {
        return s.into();
    }
    let mut end = MAX - 3;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end]).into()
}

/// How the values of an argument are given.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Values<'a> {
    /// `1 2 3 4`: exactly one literal per lane.
    List(Vec<&'a str>),
    /// `repeat 1 2`: the literals cycled to fill (piglit).
    Repeat(Vec<&'a str>),
    /// `random` / `random <seed>`: deterministic pseudo-random values.
    Random(Option<u64>),
    /// `iota <start> [<step>]`: start, start+step, ... lane by lane (our extension).
    Iota(&'a str, Option<&'a str>),
    /// `NULL` (piglit): no data.
    Null,
}

impl<'a> Values<'a> {
    /// Classifies the value tokens of an argument line.
    pub(crate) fn classify(tokens: &[&'a str]) -> Result<Values<'a>, String> {
        let Some((first, rest)) = tokens.split_first() else {
            return Err(
                "no values: give one value per lane, or `repeat <values>`, `random`, \
                        `iota <start> [<step>]` or `NULL`"
                    .to_string(),
            );
        };
        let word = first.to_ascii_lowercase();
        match word.as_str() {
            "random" => match rest {
                [] => Ok(Values::Random(None)),
                [seed] => match parse_int(seed) {
                    Ok(s) if (0..=u64::MAX as i128).contains(&s) => {
                        Ok(Values::Random(Some(s as u64)))
                    }
                    _ => Err(format!(
                        "`random {}`: the seed must be an integer from 0 to {}",
                        clip(seed),
                        u64::MAX
                    )),
                },
                _ => Err(format!(
                    "`random` takes at most one seed, found `{}`",
                    clip(&tokens.join(" "))
                )),
            },
            "repeat" if rest.is_empty() => {
                Err("`repeat` needs at least one value, e.g. `repeat 0`".to_string())
            }
            "repeat" => Ok(Values::Repeat(rest.to_vec())),
            "iota" => match rest {
                [start] => Ok(Values::Iota(start, None)),
                [start, step] => Ok(Values::Iota(start, Some(step))),
                _ => Err(format!(
                    "`iota` takes a start and an optional step, e.g. `iota 0` or `iota 1.0 0.5`; \
                     found `{}`",
                    clip(&tokens.join(" "))
                )),
            },
            "null" if rest.is_empty() => Ok(Values::Null),
            _ => Ok(Values::List(tokens.to_vec())),
        }
    }
}

/// Encodes `len` elements of `ty` given by `values` into little-endian bytes.
///
/// `what` names the argument for messages (`arg_out: 2 buffer int[4]`); `default_seed` seeds a
/// bare `random`. `Values::Null` is the caller's business.
pub(crate) fn fill(
    ty: ValueType,
    len: u32,
    values: &Values<'_>,
    what: &str,
    default_seed: u64,
) -> Result<Vec<u8>, String> {
    let bytes = check_size(ty, len, what)?;
    let lanes = ty.lanes as u64;
    let count = len as u64 * lanes;
    let scalar = ty.scalar;
    let mut out = vec![0u8; bytes as usize];
    let mut put = |k: u64, bits: u64| {
        let (element, lane) = (k / lanes, k % lanes);
        let at = ((element * ty.storage_lanes() as u64 + lane) as usize) * scalar.size();
        write_bits(&mut out[at..at + scalar.size()], bits);
    };
    match values {
        Values::List(tokens) => {
            if tokens.len() as u64 != count {
                let shape = match (ty.lanes, len) {
                    (1, _) => String::new(),
                    (_, 1) => " (one per lane)".to_string(),
                    (lanes, _) => format!(" ({len} elements of {lanes} lanes)"),
                };
                return Err(format!(
                    "{what} has {} value{}; give {count} values{shape}, or `repeat {}`",
                    tokens.len(),
                    if tokens.len() == 1 { "" } else { "s" },
                    clip(&tokens.join(" "))
                ));
            }
            for (k, tok) in tokens.iter().enumerate() {
                let bits = literal_bits(scalar, tok).map_err(|e| {
                    if count == 1 {
                        format!("{what}: {e}")
                    } else {
                        format!("{what}, value {}: {e}", k + 1)
                    }
                })?;
                put(k as u64, bits);
            }
        }
        Values::Repeat(tokens) => {
            let mut pattern = Vec::with_capacity(tokens.len());
            for (k, tok) in tokens.iter().enumerate() {
                pattern.push(
                    literal_bits(scalar, tok)
                        .map_err(|e| format!("{what}, repeated value {}: {e}", k + 1))?,
                );
            }
            for k in 0..count {
                put(k, pattern[(k % pattern.len() as u64) as usize]);
            }
        }
        Values::Random(seed) => {
            let mut rng = SplitMix64(seed.unwrap_or(default_seed));
            for k in 0..count {
                put(k, random_bits(scalar, &mut rng));
            }
        }
        Values::Iota(start, step) => {
            if scalar.is_float() {
                let s0 = parse_float(start).map_err(|e| format!("{what}, iota start: {e}"))?;
                let d = match step {
                    Some(t) => parse_float(t).map_err(|e| format!("{what}, iota step: {e}"))?,
                    None => 1.0,
                };
                for k in 0..count {
                    put(k, float_bits(scalar, s0 + k as f64 * d));
                }
            } else {
                let s0 = parse_int(start)
                    .and_then(|v| int_bits(scalar, v, start).map(|_| v))
                    .map_err(|e| format!("{what}, iota start: {e}"))?;
                let d = match step {
                    Some(t) => parse_int(t)
                        .and_then(|v| {
                            if v.unsigned_abs() < 1u128 << 64 {
                                Ok(v)
                            } else {
                                Err(format!("step `{t}` is too large"))
                            }
                        })
                        .map_err(|e| format!("{what}, iota step: {e}"))?,
                    None => 1,
                };
                // Wraps modulo 2^bits like unsigned arithmetic in the kernel would.
                for k in 0..count {
                    let v = s0.wrapping_add((k as i128).wrapping_mul(d));
                    put(k, v as u128 as u64 & mask(scalar));
                }
            }
        }
        Values::Null => return Err(format!("{what}: NULL has no values")),
    }
    Ok(out)
}

/// Bytes of `len` elements of `ty`, or why that is too big.
pub(crate) fn check_size(ty: ValueType, len: u32, what: &str) -> Result<u64, String> {
    let bytes = len as u64 * ty.byte_size() as u64;
    if bytes > MAX_BUFFER_BYTES {
        return Err(format!(
            "{what} is {bytes} bytes; the limit is {MAX_BUFFER_BYTES} bytes ({} MiB) per argument",
            MAX_BUFFER_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// The bit pattern (low `scalar.bits()` bits) of one literal for a lane of type `scalar`.
pub(crate) fn literal_bits(scalar: ScalarType, tok: &str) -> Result<u64, String> {
    match scalar {
        ScalarType::Float => parse_f32(tok).map(|x| x.to_bits() as u64),
        ScalarType::Double => parse_float(tok).map(f64::to_bits),
        ScalarType::Half => parse_float(tok).map(|x| f64_to_f16_bits(x) as u64),
        _ => parse_int(tok).and_then(|v| int_bits(scalar, v, tok)),
    }
}

fn mask(scalar: ScalarType) -> u64 {
    u64::MAX >> (64 - scalar.bits())
}

/// Checks that `v` fits `scalar` as a value or as a bit pattern, and returns the pattern.
fn int_bits(scalar: ScalarType, v: i128, tok: &str) -> Result<u64, String> {
    let quoted = clip(tok);
    let w = scalar.bits();
    let smin = -(1i128 << (w - 1));
    let smax = (1i128 << (w - 1)) - 1;
    let umax = (1i128 << w) - 1;
    if v < smin || v > umax {
        return Err(if scalar.is_signed_int() {
            format!(
                "`{quoted}` does not fit in {scalar}: give a value from {smin} to {smax}, or a bit \
                 pattern up to {umax} ({umax:#x})"
            )
        } else {
            format!(
                "`{quoted}` does not fit in {scalar}: give a value from 0 to {umax} ({umax:#x}); \
                 negative values down to {smin} are taken as two's complement"
            )
        });
    }
    Ok(v as u128 as u64 & mask(scalar))
}

/// The bit pattern of `x` rounded to `scalar` (a float type).
pub(crate) fn float_bits(scalar: ScalarType, x: f64) -> u64 {
    match scalar {
        ScalarType::Half => f64_to_f16_bits(x) as u64,
        ScalarType::Double => x.to_bits(),
        _ => (x as f32).to_bits() as u64,
    }
}

fn random_bits(scalar: ScalarType, rng: &mut SplitMix64) -> u64 {
    let r = rng.next_u64();
    if scalar.is_float() {
        let (lo, hi) = RANDOM_FLOAT_RANGE;
        let unit = (r >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        float_bits(scalar, lo + (hi - lo) * unit)
    } else {
        r & mask(scalar)
    }
}

/// An integer literal as piglit reads it (`strtoll(s, NULL, 0)`, i.e. C syntax): decimal,
/// `0x` hexadecimal, or octal with a leading `0`; optional sign.
pub(crate) fn parse_int(tok: &str) -> Result<i128, String> {
    let quoted = clip(tok);
    let (negative, body) = match tok.as_bytes().first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    let (radix, digits) =
        if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (16, hex)
        } else if body.len() > 1 && body.starts_with('0') {
            (8, &body[1..])
        } else {
            (10, body)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        if radix == 8 && digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "`{quoted}` is not a valid octal number: a leading 0 means octal, as in C (piglit \
                 reads values with strtoll); write it without the leading 0"
            ));
        }
        let hint = if parse_float(tok).is_ok() {
            " (this is a float; the type is an integer type)"
        } else {
            ""
        };
        return Err(format!(
            "`{quoted}` is not an integer{hint}; write decimal, hexadecimal (0x1f) or octal (017)"
        ));
    }
    let magnitude = u128::from_str_radix(digits, radix)
        .ok()
        .filter(|m| *m <= i128::MAX as u128)
        .ok_or_else(|| format!("`{quoted}` is too large for any OpenCL integer type"))?;
    let v = magnitude as i128;
    Ok(if negative { -v } else { v })
}

/// A float literal: decimal (`1`, `-2.5`, `1e-3`, `.5`), C99 hexadecimal (`0x1.8p3`), `nan`,
/// `inf`, `infinity`, each with an optional sign (case-insensitive). This accepts everything
/// piglit's float syntax does.
pub(crate) fn parse_float(tok: &str) -> Result<f64, String> {
    let (negative, body) = match tok.as_bytes().first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    let lower = body.to_ascii_lowercase();
    let magnitude = match lower.as_str() {
        "nan" => Some(f64::NAN),
        "inf" | "infinity" => Some(f64::INFINITY),
        _ if lower.starts_with("0x") => parse_hex_float(&lower[2..]),
        _ if is_decimal_float(&lower) => lower.parse::<f64>().ok(),
        _ => None,
    };
    match magnitude {
        Some(m) => Ok(if negative { -m } else { m }),
        None => Err(float_error(tok)),
    }
}

/// Like [`parse_float`], rounding decimal literals once, straight to `f32`.
fn parse_f32(tok: &str) -> Result<f32, String> {
    let body = tok
        .strip_prefix(['-', '+'])
        .unwrap_or(tok)
        .to_ascii_lowercase();
    if is_decimal_float(&body) {
        return tok.parse::<f32>().map_err(|_| float_error(tok));
    }
    parse_float(tok).map(|x| x as f32)
}

fn float_error(tok: &str) -> String {
    let quoted = clip(tok);
    format!(
        "`{quoted}` is not a number; write a decimal (-1.5e3), a hexadecimal float (0x1.8p3), nan \
         or inf"
    )
}

fn is_decimal_float(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && s.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
}

/// `hex` is the text after `0x`, lower-case: `1.8p3`, `10`, `.8p-1`.
fn parse_hex_float(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = match hex.find('p') {
        Some(i) => (&hex[..i], Some(&hex[i + 1..])),
        None => (hex, None),
    };
    // Keep up to 60 significant bits and a sticky bit for the rest: more than f64's 53, so
    // the single rounding in `as f64` is correct.
    let mut m: u64 = 0;
    let mut e: i64 = 0;
    let mut sticky = false;
    let mut seen_dot = false;
    let mut digits = 0usize;
    for c in mantissa.chars() {
        if c == '.' {
            if seen_dot {
                return None;
            }
            seen_dot = true;
            continue;
        }
        let d = c.to_digit(16)? as u64;
        digits += 1;
        if m >> 56 == 0 {
            m = m << 4 | d;
            if seen_dot {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if !seen_dot {
                e = e.saturating_add(4);
            }
        }
    }
    if digits == 0 {
        return None;
    }
    if let Some(exp) = exponent {
        let (negative, body) = match exp.as_bytes().first() {
            Some(b'-') => (true, &exp[1..]),
            Some(b'+') => (false, &exp[1..]),
            _ => (false, exp),
        };
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Saturate: anything beyond ±100000 is 0 or infinity anyway.
        let mut v: i64 = 0;
        for b in body.bytes() {
            v = (v * 10 + (b - b'0') as i64).min(100_000);
        }
        e = e.saturating_add(if negative { -v } else { v });
    }
    if sticky {
        m |= 1;
    }
    Some(ldexp(m as f64, e))
}

/// `x * 2^e` without intermediate overflow.
fn ldexp(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 && x.is_finite() && x != 0.0 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 && x != 0.0 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e.clamp(-1100, 1100) as i32)
}

/// Reads up to 8 little-endian bytes.
pub(crate) fn read_bits(bytes: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    let n = bytes.len().min(8);
    a[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(a)
}

/// Writes the low `out.len()` bytes of `bits`, little-endian.
pub(crate) fn write_bits(out: &mut [u8], bits: u64) {
    let n = out.len().min(8);
    out[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
}

/// Sign-extends the low `width` bits.
pub(crate) fn sign_extend(bits: u64, width: u32) -> i64 {
    let shift = 64 - width.clamp(1, 64);
    ((bits << shift) as i64) >> shift
}

/// IEEE binary16 to f64 (exact).
pub(crate) fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let man = (h & 0x3ff) as f64;
    sign * match exp {
        0 => man * 2f64.powi(-24),
        0x1f if man == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        e => (1.0 + man / 1024.0) * 2f64.powi(e as i32 - 15),
    }
}

/// f64 to IEEE binary16, rounding to nearest even (subnormals, overflow to infinity, NaN kept).
pub(crate) fn f64_to_f16_bits(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 63) as u16) << 15;
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        return sign; // zero, or an f64 subnormal: far below half's smallest subnormal
    }
    let e = biased - 1023;
    if e > 15 {
        return sign | 0x7c00;
    }
    // x = m * 2^(e-52). Normal halves keep 11 significant bits; subnormals are multiples of
    // 2^-24. `shift` drops the bits below that.
    let m = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let shift = if e >= -14 { 42 } else { (28 - e) as u32 };
    if shift >= 54 {
        return sign; // below half of the smallest subnormal
    }
    let rem = m & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let mut q = m >> shift;
    if rem > half || (rem == half && q & 1 == 1) {
        q += 1;
    }
    if e >= -14 {
        let mut e = e;
        if q == 2048 {
            q = 1024;
            e += 1;
        }
        if e > 15 {
            return sign | 0x7c00;
        }
        sign | (((e + 15) as u16) << 10) | (q as u16 - 1024)
    } else {
        // q == 1024 is the smallest normal: exponent field 1, mantissa 0.
        sign | q as u16
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fully specified, so `random <seed>` gives the
/// same values in every build and in any other tool that implements it.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_follow_c_syntax() {
        assert_eq!(parse_int("42"), Ok(42));
        assert_eq!(parse_int("-0x10"), Ok(-16));
        assert_eq!(parse_int("+0XfF"), Ok(255));
        assert_eq!(parse_int("010"), Ok(8));
        assert_eq!(parse_int("0"), Ok(0));
        assert_eq!(parse_int("18446744073709551615"), Ok(u64::MAX as i128));
        assert!(parse_int("09").unwrap_err().contains("octal"));
        assert!(parse_int("1.5").unwrap_err().contains("this is a float"));
        assert!(parse_int("-").is_err());
        assert!(parse_int("0x").is_err());
        assert!(parse_int("99999999999999999999999999999999999999999").is_err());
    }

    #[test]
    fn integer_ranges_accept_values_and_bit_patterns() {
        assert_eq!(literal_bits(ScalarType::Char, "-128"), Ok(0x80));
        assert_eq!(literal_bits(ScalarType::Char, "0xff"), Ok(0xff));
        assert_eq!(literal_bits(ScalarType::UInt, "-1"), Ok(0xffff_ffff));
        assert_eq!(literal_bits(ScalarType::Long, "-1"), Ok(u64::MAX));
        let e = literal_bits(ScalarType::Char, "256").unwrap_err();
        assert!(
            e.contains("does not fit in char") && e.contains("-128 to 127"),
            "{e}"
        );
        let e = literal_bits(ScalarType::UChar, "-129").unwrap_err();
        assert!(e.contains("0 to 255"), "{e}");
    }

    #[test]
    fn floats_follow_piglit_and_c99() {
        assert_eq!(parse_float("1"), Ok(1.0));
        assert_eq!(parse_float("-2.5e1"), Ok(-25.0));
        assert_eq!(parse_float("1e-05"), Ok(1e-5));
        assert_eq!(parse_float("0x1.8p3"), Ok(12.0));
        assert_eq!(parse_float("-0x1.2p-5"), Ok(-0.03515625));
        assert_eq!(parse_float("0x10"), Ok(16.0));
        assert_eq!(parse_float("0x.8"), Ok(0.5));
        assert_eq!(parse_float("0x1p-1074"), Ok(f64::from_bits(1)));
        assert_eq!(parse_float("0x1p99999999"), Ok(f64::INFINITY));
        assert_eq!(parse_float("Infinity"), Ok(f64::INFINITY));
        assert_eq!(parse_float("-INF"), Ok(f64::NEG_INFINITY));
        assert!(parse_float("NaN").unwrap().is_nan());
        let neg_nan = parse_float("-nan").unwrap();
        assert!(neg_nan.is_nan() && neg_nan.is_sign_negative());
        for bad in [
            "", "1.2.3x", "e5", "0x", "0x1p", "0xg", "1,5", "nanx", "--1",
        ] {
            assert!(parse_float(bad).is_err(), "{bad}");
        }
        // Decimal literals round once, straight to float.
        assert_eq!(
            literal_bits(ScalarType::Float, "0.1"),
            Ok(0.1f32.to_bits() as u64)
        );
        assert_eq!(
            literal_bits(ScalarType::Float, "16777217"),
            Ok(16777216f32.to_bits() as u64)
        );
    }

    #[test]
    fn half_conversion_rounds_to_nearest_even() {
        for (x, h) in [
            (1.0, 0x3c00u16),
            (-2.0, 0xc000),
            (0.1, 0x2e66),
            (65504.0, 0x7bff),
            (65519.0, 0x7bff),
            (65520.0, 0x7c00),
            (1e9, 0x7c00),
            (f64::NEG_INFINITY, 0xfc00),
            (2f64.powi(-24), 0x0001),
            (2f64.powi(-25), 0x0000),
            (1.5 * 2f64.powi(-25), 0x0001),
            (2f64.powi(-14) - 2f64.powi(-26), 0x0400),
            (1.0 + 2f64.powi(-11), 0x3c00),
            (1.0 + 3.0 * 2f64.powi(-11), 0x3c02),
            (-0.0, 0x8000),
            (1e-300, 0x0000),
        ] {
            assert_eq!(f64_to_f16_bits(x), h, "{x}");
        }
        for h in 0..=0xffffu16 {
            let x = f16_bits_to_f64(h);
            if !x.is_nan() {
                assert_eq!(f64_to_f16_bits(x), h, "{h:#x}");
            }
        }
        assert_eq!(f64_to_f16_bits(f64::NAN) & 0x7e00, 0x7e00);
    }

    #[test]
    fn splitmix_matches_reference_values() {
        // First outputs for seed 0 of the reference C implementation.
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn fill_forms() {
        let int = ValueType::parse("int").unwrap();
        let words = |b: Vec<u8>| -> Vec<i32> {
            b.chunks(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
        let v = fill(int, 5, &Values::Repeat(vec!["1", "2"]), "x", 0).unwrap();
        assert_eq!(words(v), [1, 2, 1, 2, 1]);
        let v = fill(int, 4, &Values::Iota("-1", Some("3")), "x", 0).unwrap();
        assert_eq!(words(v), [-1, 2, 5, 8]);
        let int3 = ValueType::parse("int3").unwrap();
        let v = fill(int3, 2, &Values::Iota("1", None), "x", 0).unwrap();
        assert_eq!(words(v), [1, 2, 3, 0, 4, 5, 6, 0]);
        let uchar = ValueType::parse("uchar").unwrap();
        let v = fill(uchar, 3, &Values::Iota("254", None), "x", 0).unwrap();
        assert_eq!(v, [254, 255, 0]);
        let f = ValueType::parse("float2").unwrap();
        let v = fill(f, 2, &Values::Iota("0.5", Some("0.25")), "x", 0).unwrap();
        let fl: Vec<f32> = v
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(fl, [0.5, 0.75, 1.0, 1.25]);
        let a = fill(f, 64, &Values::Random(Some(7)), "x", 0).unwrap();
        let b = fill(f, 64, &Values::Random(None), "x", 7).unwrap();
        assert_eq!(a, b);
        for c in a.chunks(4) {
            let x = f32::from_le_bytes(c.try_into().unwrap());
            assert!((-1000.0..=1000.0).contains(&x), "{x}");
        }
        let e = fill(
            int,
            4,
            &Values::List(vec!["1", "2", "3"]),
            "arg_out: 2 buffer int[4]",
            0,
        )
        .unwrap_err();
        assert_eq!(
            e,
            "arg_out: 2 buffer int[4] has 3 values; give 4 values, or `repeat 1 2 3`"
        );
        let e = fill(
            int,
            u32::MAX,
            &Values::Random(None),
            "buffer int[4294967295]",
            0,
        )
        .unwrap_err();
        assert!(e.contains("the limit is"), "{e}");
    }
}
