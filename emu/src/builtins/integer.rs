//! The integer functions (`abs_diff`, `add_sat`, `hadd`, `mul_hi`, `mad_sat`, `mul24`,
//! `rotate`, `clz`, `ctz`, `popcount`, `upsample`...): exact in `i128`, then wrapped or
//! saturated to the result kind.

use super::math::MathArgs;
use crate::value::{int_value, Val};
use frontend::ast::MathFn;

/// An integer function of classes `I1`, `I2`, `I3` and `IU2`, lane by lane.
pub(super) fn integer(f: MathFn, m: &MathArgs) -> Val {
    use MathFn as M;
    let (ak, rk) = (m.ak, m.rk);
    let bits = ak.bits();
    let signed = ak.is_signed();
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let iv = |j: usize, i: usize| int_value(ak, m.lane(j, i));
    // a * b exactly, as (high bits >> width, low bits): 64-bit unsigned products
    // need 128 unsigned bits.
    let prod_hi = |x: i128, y: i128| -> i128 {
        if !signed && bits == 64 {
            ((x as u128 * y as u128) >> 64) as i128
        } else {
            (x * y) >> bits
        }
    };
    let mad_sat = |x: i128, y: i128, z: i128| -> u64 {
        if !signed && bits == 64 {
            let r = (x as u128 * y as u128).saturating_add(z as u128);
            r.min(u64::MAX as u128) as u64
        } else {
            rk.truncate((x * y + z).clamp(lo, hi) as u64)
        }
    };
    let raw = |j: usize, i: usize| ak.truncate(m.lane(j, i));
    let wrap = |x: i128| rk.truncate(x as u64);
    let sat = |x: i128| rk.truncate(x.clamp(lo, hi) as u64);
    m.per_lane(&|i| match f {
        M::AbsDiff => wrap((iv(0, i) - iv(1, i)).abs()),
        M::AddSat => sat(iv(0, i) + iv(1, i)),
        M::SubSat => sat(iv(0, i) - iv(1, i)),
        M::Hadd => wrap((iv(0, i) + iv(1, i)) >> 1),
        M::Rhadd => wrap((iv(0, i) + iv(1, i) + 1) >> 1),
        M::MulHi => wrap(prod_hi(iv(0, i), iv(1, i))),
        M::MadHi => wrap(prod_hi(iv(0, i), iv(1, i)) + iv(2, i)),
        M::MadSat => mad_sat(iv(0, i), iv(1, i), iv(2, i)),
        M::Mul24 => wrap(iv(0, i).wrapping_mul(iv(1, i))),
        M::Mad24 => wrap(iv(0, i).wrapping_mul(iv(1, i)) + iv(2, i)),
        M::Rotate => {
            let s = (raw(1, i) % bits as u64) as u32;
            let x = raw(0, i);
            if s == 0 {
                x
            } else {
                ak.truncate((x << s) | (x >> (bits - s)))
            }
        }
        M::Clz => (raw(0, i).leading_zeros() - (64 - bits)) as u64,
        M::Ctz => (raw(0, i).trailing_zeros()).min(bits) as u64,
        M::Popcount => raw(0, i).count_ones() as u64,
        // `(hi << bits) | lo` in the type twice as wide (OpenCL C 6.13.3).
        M::Upsample => rk.truncate((raw(0, i) << bits) | ak.truncate(m.lane(1, i))),
        _ => 0,
    })
}
