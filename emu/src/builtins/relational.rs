//! The relational functions on floats (`isnan`, `isequal`, `signbit`...), `any`/`all` and
//! `bitselect`. A relational result is 1 per scalar and all ones per vector lane.

use super::float::min_normal;
use super::math::MathArgs;
use crate::interp::msb;
use crate::value::Val;
use frontend::ast::MathFn;

use MathFn as M;

/// Class `FRel1`: a property of one float.
pub(super) fn unary(f: MathFn, m: &MathArgs) -> Val {
    let ak = m.ak;
    m.per_lane(&|i| {
        let x = m.fx(0, i);
        m.rel(match f {
            M::Isnan => x.is_nan(),
            M::Isinf => x.is_infinite(),
            M::Isfinite => x.is_finite(),
            M::Isnormal => x.is_finite() && x != 0.0 && x.abs() >= min_normal(ak),
            _ => x.is_sign_negative(),
        })
    })
}

/// Class `FRel2`: a comparison of two floats.
pub(super) fn binary(f: MathFn, m: &MathArgs) -> Val {
    m.per_lane(&|i| {
        let (x, y) = (m.fx(0, i), m.fx(1, i));
        m.rel(match f {
            M::Isequal => x == y,
            M::Isnotequal => x != y,
            M::Isgreater => x > y,
            M::Isgreaterequal => x >= y,
            M::Isless => x < y,
            M::Islessequal => x <= y,
            M::Islessgreater => x.partial_cmp(&y).is_some_and(|o| o.is_ne()),
            M::Isordered => !x.is_nan() && !y.is_nan(),
            _ => x.is_nan() || y.is_nan(),
        })
    })
}

/// `any` and `all`: the most significant bit of any / every lane.
pub(super) fn any_all(f: MathFn, m: &MathArgs) -> Val {
    let (ak, rk) = (m.ak, m.rk);
    let ls = m.lanes(0);
    let r = if f == M::Any {
        ls.iter().any(|&x| msb(ak, x))
    } else {
        ls.iter().all(|&x| msb(ak, x))
    };
    Val::scalar(rk, r as u64)
}

/// `bitselect(a, b, c)`: the bits of `b` where `c` is set, of `a` elsewhere.
pub(super) fn bitselect(m: &MathArgs) -> Val {
    m.per_lane(&|i| {
        let (a, b, c) = (m.lane(0, i), m.lane(1, i), m.lane(2, i));
        (a & !c) | (b & c)
    })
}
