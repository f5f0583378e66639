//! The value of integer operations on bit patterns: the one definition of the IR's integer
//! semantics, used by the IR interpreter, by constant folding (`const-fold`, and lowering, which
//! folds as it builds) and by the known-bits analysis. [`crate::float`] is its single-precision
//! counterpart.
//!
//! A value of `bits` bits is a `u64` whose bits from `bits` on are zero; a signed operation
//! reads it as two's complement of that width ([`sext`]). Results are truncated to the width.
//! Values of 64 bits or more (aggregate images) are only ever moved, never computed on.
//!
//! Where OpenCL C leaves the result undefined, the callers differ on purpose:
//! - division and remainder by zero have no value here (`None`): the interpreter takes 0, and
//!   constant folding leaves the op for the hardware (lowering warns about it);
//! - shift counts are taken modulo the width (OpenCL's rule, so no count is out of range);
//! - `mul_hi` (`MulHiU`/`MulHiS`) is computed here for the interpreter, but constant folding does
//!   not fold it (it never did; see `passes::const_fold::eval_binary`).

use crate::ops::{BinOp, CmpOp, ConvOp, UnOp};

/// Mask of the low `bits` bits (all ones from 64 bits on).
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `v` truncated to its low `bits` bits.
pub fn truncate(v: u64, bits: u32) -> u64 {
    v & mask(bits)
}

/// `v` (low `bits` bits) read as a signed number.
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

/// The shift count OpenCL C uses for a shift of a `bits`-bit value by `y`: `y` modulo the width.
pub fn shift_amount(y: u64, bits: u32) -> u32 {
    (y % bits as u64) as u32
}

/// True for division and remainder (whose value by a zero divisor is defined here, not by
/// OpenCL C).
pub fn is_division(op: BinOp) -> bool {
    matches!(op, BinOp::DivU | BinOp::DivS | BinOp::RemU | BinOp::RemS)
}

/// `op` on two `bits`-bit integers, truncated to `bits`. `None` when `op` is not an integer
/// operation.
pub fn binary(op: BinOp, bits: u32, x: u64, y: u64) -> Option<u64> {
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    let sh = shift_amount(y, bits);
    let r = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::MulHiU => ((x as u128 * y as u128) >> bits) as u64,
        BinOp::MulHiS => ((sx as i128 * sy as i128) >> bits) as u64,
        BinOp::DivU | BinOp::DivS if y == 0 => 0,
        BinOp::RemU | BinOp::RemS if y == 0 => x,
        BinOp::DivU => x / y,
        BinOp::RemU => x % y,
        BinOp::DivS => sx.wrapping_div(sy) as u64,
        BinOp::RemS => sx.wrapping_rem(sy) as u64,
        BinOp::Shl => x << sh,
        BinOp::ShrU => x >> sh,
        BinOp::ShrS => (sx >> sh) as u64,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::MinS => sx.min(sy) as u64,
        BinOp::MaxS => sx.max(sy) as u64,
        BinOp::MinU => x.min(y),
        BinOp::MaxU => x.max(y),
        _ => return None,
    };
    Some(truncate(r, bits))
}

/// `op` on a `bits`-bit integer, truncated to `bits`; `None` when `op` is not an integer
/// operation.
pub fn unary(op: UnOp, bits: u32, x: u64) -> Option<u64> {
    let r = match op {
        UnOp::Not => !x,
        UnOp::Neg => x.wrapping_neg(),
        UnOp::AbsS => sext(x, bits).unsigned_abs(),
        _ => return None,
    };
    Some(truncate(r, bits))
}

/// The integer comparison `op` of two `bits`-bit operands (truncated to `bits` first); `None`
/// when `op` is a floating-point comparison.
pub fn compare(op: CmpOp, bits: u32, x: u64, y: u64) -> Option<bool> {
    let (x, y) = (truncate(x, bits), truncate(y, bits));
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    Some(match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::LtS => sx < sy,
        CmpOp::LeS => sx <= sy,
        CmpOp::GtS => sx > sy,
        CmpOp::GeS => sx >= sy,
        CmpOp::LtU => x < y,
        CmpOp::LeU => x <= y,
        CmpOp::GtU => x > y,
        CmpOp::GeU => x >= y,
        _ => return None,
    })
}

/// The value of the ordering comparison `op` (`<`, `<=`, `>`, `>=`, signed or unsigned) of two
/// `bits`-bit operands of which `x` or `y` is a known constant, when that constant alone decides
/// it: `u < 0`, `u >= 0`, `u > 0xff..`, `s < INT_MIN`, ... The comparison is monotone in the
/// unknown operand, so it is decided when it has one value at both ends of that operand's range.
/// `None` for equality, float comparisons, and comparisons that depend on the unknown operand.
/// Constant folding folds these, and the RTL emitter writes their value (Verilator's
/// `UNSIGNED`/`CMPCONST` lint warnings are exactly these comparisons).
pub fn decided_compare(op: CmpOp, bits: u32, x: Option<u64>, y: Option<u64>) -> Option<bool> {
    let signed = match op {
        CmpOp::LtS | CmpOp::LeS | CmpOp::GtS | CmpOp::GeS => true,
        CmpOp::LtU | CmpOp::LeU | CmpOp::GtU | CmpOp::GeU => false,
        _ => return None,
    };
    let (lo, hi) = if signed {
        (1u64 << (bits.clamp(1, 64) - 1), mask(bits) >> 1)
    } else {
        (0, mask(bits))
    };
    let (at_lo, at_hi) = match (x, y) {
        (Some(x), Some(y)) => {
            let r = compare(op, bits, x, y)?;
            return Some(r);
        }
        (Some(x), None) => (compare(op, bits, x, lo)?, compare(op, bits, x, hi)?),
        (None, Some(y)) => (compare(op, bits, lo, y)?, compare(op, bits, hi, y)?),
        (None, None) => return None,
    };
    (at_lo == at_hi).then_some(at_lo)
}

/// For `min`/`max` (`op`) of two `bits`-bit operands of which one may be a known constant
/// (`x`, `y`): the operand (0 or 1) that is the result whatever the other's value, when the
/// constant alone decides it (`max(u, 0)` is `u`, `min(u, 0)` is 0, ...). `None` otherwise.
pub fn decided_min_max(op: BinOp, bits: u32, x: Option<u64>, y: Option<u64>) -> Option<usize> {
    let (ge, le) = match op {
        BinOp::MinS | BinOp::MaxS => (CmpOp::GeS, CmpOp::LeS),
        BinOp::MinU | BinOp::MaxU => (CmpOp::GeU, CmpOp::LeU),
        _ => return None,
    };
    let always = |c| decided_compare(c, bits, x, y) == Some(true);
    // x >= y everywhere: max is x, min is y; x <= y everywhere: the other way round. (This
    // covers every case where the emitted `(x > y) ? x : y` compares to a constant result.)
    let max = matches!(op, BinOp::MaxS | BinOp::MaxU);
    if always(ge) {
        Some(if max { 0 } else { 1 })
    } else if always(le) {
        Some(if max { 1 } else { 0 })
    } else {
        None
    }
}

/// The integer conversion `op` of a `from`-bit value to `to` bits (truncation, zero or sign
/// extension, or a same-width bitcast); `None` for conversions involving floating point.
pub fn convert(op: ConvOp, from: u32, to: u32, x: u64) -> Option<u64> {
    let r = match op {
        ConvOp::Trunc | ConvOp::ZExt | ConvOp::Bitcast => truncate(x, from),
        ConvOp::SExt => sext(x, from) as u64,
        _ => return None,
    };
    Some(truncate(r, to))
}
