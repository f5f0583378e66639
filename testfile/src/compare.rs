//! Checking an output buffer against its expected contents.

use std::fmt;

use super::types::{ScalarType, ValueType};
use super::values::{f16_bits_to_f64, read_bits, sign_extend};
use super::{Expect, Tolerance};

/// The first value of a buffer that is not as expected.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Element index in the buffer.
    pub index: u32,
    /// Lane within the element (0 for scalar types).
    pub lane: u8,
    /// The buffer's type, for the message.
    pub ty: ValueType,
    /// Expected value with its bit pattern, e.g. `1.5 (0x3fc00000)`.
    pub expected: String,
    /// Actual value, same form.
    pub actual: String,
    pub tolerance: Tolerance,
    /// How many lanes of the whole buffer differ (this is the first of them).
    pub count: u64,
    /// Lanes compared in the buffer.
    pub total: u64,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.ty, self.index)?;
        if self.ty.lanes > 1 {
            write!(f, " lane {}", self.lane)?;
        }
        write!(f, ": expected {}", self.expected)?;
        if self.tolerance != Tolerance::Exact {
            write!(f, " ({})", self.tolerance)?;
        }
        write!(f, ", got {}", self.actual)?;
        if self.count > 1 {
            write!(f, "; {} of {} values differ", self.count, self.total)?;
        }
        Ok(())
    }
}

/// Compares the bytes of an output buffer of type `ty` with `expect`.
///
/// Integers compare exactly, or within `|e - a| <= n` for `Tolerance::Abs(n)`. Floats: an
/// expected NaN matches any NaN and nothing else; an infinity matches only itself; otherwise
/// `Abs(x)` allows `|e - a| <= x` and `Ulp(n)` allows `|e - a| <= n * ulp(e)`, where `ulp(e)` is
/// the distance from `e` to the next value of the type away from zero, as in piglit (which also
/// accepts anything for `n >= 2^24` on float, `2^53` on double, `2^11` on half). The padding lane
/// of 3-vectors is not compared.
///
/// # Panics
/// If `actual` and `expect.bytes` differ in length: the runner must read back exactly the
/// buffer it was given.
pub fn compare(ty: &ValueType, expect: &Expect, actual: &[u8]) -> Result<(), Mismatch> {
    assert_eq!(
        actual.len(),
        expect.bytes.len(),
        "testfile::compare: read back {} bytes of a {} buffer that has {} bytes",
        actual.len(),
        ty,
        expect.bytes.len()
    );
    let size = ty.scalar.size();
    let storage = ty.storage_lanes() as usize;
    let elements = expect.bytes.len() / ty.byte_size();
    let mut first: Option<(usize, usize)> = None;
    let mut count = 0u64;
    for i in 0..elements {
        for lane in 0..ty.lanes as usize {
            let at = (i * storage + lane) * size;
            let e = &expect.bytes[at..at + size];
            let a = &actual[at..at + size];
            if !lane_matches(ty.scalar, e, a, expect.tolerance) {
                count += 1;
                first.get_or_insert((i, lane));
            }
        }
    }
    match first {
        None => Ok(()),
        Some((i, lane)) => Err(Mismatch {
            index: i as u32,
            lane: lane as u8,
            ty: *ty,
            expected: ty.format_lane(&expect.bytes, i, lane),
            actual: ty.format_lane(actual, i, lane),
            tolerance: expect.tolerance,
            count,
            total: elements as u64 * ty.lanes as u64,
        }),
    }
}

/// Like [`compare`], but the buffer is compared as a multiset of elements: both sides are sorted
/// by value (lane by lane, NaNs last) before the element-wise comparison, so a mismatch names an
/// index in sorted order.
///
/// # Panics
/// As [`compare`].
pub fn compare_unordered(ty: &ValueType, expect: &Expect, actual: &[u8]) -> Result<(), Mismatch> {
    assert_eq!(
        actual.len(),
        expect.bytes.len(),
        "testfile::compare_unordered: read back {} bytes of a {} buffer that has {} bytes",
        actual.len(),
        ty,
        expect.bytes.len()
    );
    let sorted = |bytes: &[u8]| -> Vec<u8> {
        let el = ty.byte_size();
        let mut elems: Vec<&[u8]> = bytes.chunks(el).collect();
        elems.sort_by(|a, b| {
            let (ka, kb) = (sort_key(ty, a), sort_key(ty, b));
            ka.iter()
                .zip(&kb)
                .map(|(x, y)| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        elems.concat()
    };
    let e = Expect {
        bytes: sorted(&expect.bytes),
        ..expect.clone()
    };
    compare(ty, &e, &sorted(actual)).map_err(|mut m| {
        m.expected.push_str(" (in sorted order)");
        m
    })
}

/// The lanes of one element as numbers, for sorting (integers also exactly, as `i128`).
fn sort_key(ty: &ValueType, el: &[u8]) -> Vec<(f64, i128)> {
    let size = ty.scalar.size();
    (0..ty.lanes as usize)
        .map(|lane| {
            let bits = read_bits(&el[lane * size..(lane + 1) * size]);
            let v = match ty.scalar {
                ScalarType::Half => f16_bits_to_f64(bits as u16),
                ScalarType::Float => f32::from_bits(bits as u32) as f64,
                ScalarType::Double => f64::from_bits(bits),
                s if s.is_signed_int() => {
                    let i = sign_extend(bits, s.bits()) as i128;
                    return (i as f64, i);
                }
                _ => return (bits as f64, bits as i128),
            };
            (if v.is_nan() { f64::INFINITY } else { v }, 0)
        })
        .collect()
}

fn lane_matches(scalar: ScalarType, e: &[u8], a: &[u8], tolerance: Tolerance) -> bool {
    let (eb, ab) = (read_bits(e), read_bits(a));
    if scalar.is_float() {
        let decode = |bits: u64| match scalar {
            ScalarType::Half => f16_bits_to_f64(bits as u16),
            ScalarType::Float => f32::from_bits(bits as u32) as f64,
            _ => f64::from_bits(bits),
        };
        return float_matches(scalar, decode(eb), decode(ab), tolerance);
    }
    let (ev, av) = if scalar.is_signed_int() {
        (
            sign_extend(eb, scalar.bits()) as i128,
            sign_extend(ab, scalar.bits()) as i128,
        )
    } else {
        (eb as i128, ab as i128)
    };
    let diff = (ev - av).unsigned_abs();
    match tolerance {
        Tolerance::Exact => diff == 0,
        Tolerance::Abs(x) => diff as f64 <= x,
        Tolerance::Ulp(n) => diff <= n as u128,
    }
}

fn float_matches(scalar: ScalarType, e: f64, a: f64, tolerance: Tolerance) -> bool {
    if e.is_nan() || a.is_nan() {
        return e.is_nan() && a.is_nan();
    }
    if let Tolerance::Ulp(n) = tolerance {
        let any_value = match scalar {
            ScalarType::Half => 1u64 << 11,
            ScalarType::Float => 1 << 24,
            _ => 1 << 53,
        };
        if n >= any_value {
            return true;
        }
    }
    if e.is_infinite() || a.is_infinite() {
        return e == a;
    }
    match tolerance {
        Tolerance::Exact => e == a,
        Tolerance::Abs(x) => (e - a).abs() <= x,
        Tolerance::Ulp(n) => (e - a).abs() <= n as f64 * one_ulp(scalar, e),
    }
}

/// Distance from finite `e` to the next value of `scalar` away from zero (towards zero for the
/// largest finite value, whose next value is infinity).
fn one_ulp(scalar: ScalarType, e: f64) -> f64 {
    match scalar {
        ScalarType::Half => {
            let mag = super::values::f64_to_f16_bits(e) & 0x7fff;
            let next = if mag >= 0x7bff { mag - 1 } else { mag + 1 };
            (f16_bits_to_f64(next) - f16_bits_to_f64(mag)).abs()
        }
        ScalarType::Float => {
            let mag = (e as f32).to_bits() & 0x7fff_ffff;
            let next = if mag >= 0x7f7f_ffff { mag - 1 } else { mag + 1 };
            (f32::from_bits(next) as f64 - f32::from_bits(mag) as f64).abs()
        }
        _ => {
            let mag = e.to_bits() & 0x7fff_ffff_ffff_ffff;
            let next = if mag >= 0x7fef_ffff_ffff_ffff {
                mag - 1
            } else {
                mag + 1
            };
            (f64::from_bits(next) - f64::from_bits(mag)).abs()
        }
    }
}
