//! The value of single-precision float operations on bit patterns, as the hardware computes
//! them: `fpsem` (denormals flush to zero, round to nearest even, canonical NaN). Used by the
//! IR interpreter; the emulator calls `fpsem` too, so both agree with the RTL bit for bit.
//!
//! `FNeg` and `FAbs` are bit operations on the sign (IEEE 754 `negate`/`abs`: no rounding,
//! no flush, NaNs keep their payload), as in the RTL, where they are wiring.

use crate::ops::{BinOp, CmpOp, ConvOp, UnOp};
use crate::types::Ty;

const SIGN: u64 = 0x8000_0000;

/// `op` on two floats of type `ty`, `None` unless both are single precision and `op` a float
/// operation.
pub fn binary(op: BinOp, ty: Ty, x: u64, y: u64) -> Option<u64> {
    if ty != Ty::Float(32) {
        return None;
    }
    let (a, b) = (x as u32, y as u32);
    let r = match op {
        BinOp::FAdd => fpsem::add(a, b),
        BinOp::FSub => fpsem::sub(a, b),
        BinOp::FMul => fpsem::mul(a, b),
        BinOp::FDiv => fpsem::div(a, b),
        BinOp::FMin => fpsem::min(a, b),
        BinOp::FMax => fpsem::max(a, b),
        _ => return None,
    };
    Some(u64::from(r))
}

/// `op` on a float of type `ty`.
pub fn unary(op: UnOp, ty: Ty, x: u64) -> Option<u64> {
    if ty != Ty::Float(32) {
        return None;
    }
    Some(match op {
        UnOp::FNeg => (x ^ SIGN) & 0xffff_ffff,
        UnOp::FAbs => x & !SIGN & 0xffff_ffff,
        UnOp::FSqrt => u64::from(fpsem::sqrt(x as u32)),
        _ => return None,
    })
}

/// A float comparison of two single-precision operands.
pub fn compare(op: CmpOp, x: u64, y: u64) -> Option<bool> {
    let (lt, eq, unordered) = fpsem::cmp(x as u32, y as u32);
    let gt = !lt && !eq && !unordered;
    Some(match op {
        CmpOp::FEq => eq,
        // "Unordered not-equal": true when either is NaN, as C's `!=`.
        CmpOp::FNe => !eq,
        CmpOp::FLt => lt,
        CmpOp::FLe => lt || eq,
        CmpOp::FGt => gt,
        CmpOp::FGe => gt || eq,
        _ => return None,
    })
}

/// A conversion between an integer and single precision (`from`/`to` the operand's and the
/// result's types).
pub fn convert(op: ConvOp, from: Ty, to: Ty, x: u64) -> Option<u64> {
    match op {
        ConvOp::SIToF | ConvOp::UIToF if to == Ty::Float(32) && !from.is_float() => {
            Some(u64::from(fpsem::from_int(
                x,
                from.bits(),
                op == ConvOp::SIToF && from.bits() > 1,
            )))
        }
        ConvOp::FToSI { .. } | ConvOp::FToUI { .. } if from == Ty::Float(32) && !to.is_float() => {
            Some(fpsem::to_int(
                x as u32,
                to.bits(),
                matches!(op, ConvOp::FToSI { .. }),
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn arithmetic_compares_and_conversions() {
        let t = Ty::Float(32);
        assert_eq!(binary(BinOp::FAdd, t, f(1.5), f(2.25)), Some(f(3.75)));
        assert_eq!(binary(BinOp::FMin, t, f(-0.0), f(0.0)), Some(f(-0.0)));
        assert_eq!(binary(BinOp::FMax, t, f(f32::NAN), f(2.0)), Some(f(2.0)));
        assert_eq!(binary(BinOp::Add, t, 1, 2), None);
        assert_eq!(unary(UnOp::FNeg, t, f(2.0)), Some(f(-2.0)));
        assert_eq!(unary(UnOp::FAbs, t, f(-3.0)), Some(f(3.0)));
        assert_eq!(compare(CmpOp::FNe, f(f32::NAN), f(1.0)), Some(true));
        assert_eq!(compare(CmpOp::FGe, f(1.0), f(1.0)), Some(true));
        assert_eq!(compare(CmpOp::FGt, f(f32::NAN), f(1.0)), Some(false));
        let i32t = Ty::Int(32);
        assert_eq!(
            convert(ConvOp::SIToF, i32t, t, (-3i32) as u32 as u64),
            Some(f(-3.0))
        );
        assert_eq!(convert(ConvOp::UIToF, Ty::BOOL, t, 1), Some(f(1.0)));
        assert_eq!(
            convert(ConvOp::FToSI { sat: false }, t, Ty::Int(8), f(-300.7)),
            Some(0x80)
        );
        assert_eq!(
            convert(ConvOp::FToUI { sat: false }, t, i32t, f(-1.0)),
            Some(0)
        );
    }
}
