//! The float math functions (`sin`, `pow`, `fma`, `ldexp`...): one `f64` function per
//! [`MathFn`], evaluated in double precision and rounded once to the result type, and the
//! double-precision functions `std` does not offer (`logb`, IEEE `remainder`, `erf`/`erfc`,
//! `rootn`).

use super::math::MathArgs;
use crate::value::{self, int_value, Val};
use frontend::ast::{MathFn, ScalarKind};

/// The function of a float math built-in of classes `F1`, `F2`, `F3` and `FInt`, of up to
/// three arguments; `None` for one without a model here (`erf`/`erfc` on `double`).
pub(super) fn function(f: MathFn, ak: ScalarKind) -> Option<fn(f64, f64, f64) -> f64> {
    use MathFn as M;
    let g: fn(f64, f64, f64) -> f64 = match f {
        M::Acos => |x, _, _| x.acos(),
        M::Acosh => |x, _, _| x.acosh(),
        M::Asin => |x, _, _| x.asin(),
        M::Asinh => |x, _, _| x.asinh(),
        M::Atan => |x, _, _| x.atan(),
        M::Atanh => |x, _, _| x.atanh(),
        M::Atan2 => |x, y, _| x.atan2(y),
        M::Asinpi => |x, _, _| x.asin() / std::f64::consts::PI,
        M::Acospi => |x, _, _| x.acos() / std::f64::consts::PI,
        M::Atanpi => |x, _, _| x.atan() / std::f64::consts::PI,
        M::Atan2pi => |x, y, _| x.atan2(y) / std::f64::consts::PI,
        M::Cbrt => |x, _, _| x.cbrt(),
        M::Ceil => |x, _, _| x.ceil(),
        M::Copysign => |x, y, _| x.copysign(y),
        M::Cos => |x, _, _| x.cos(),
        M::Cosh => |x, _, _| x.cosh(),
        M::Cospi => |x, _, _| (x * std::f64::consts::PI).cos(),
        M::Exp => |x, _, _| x.exp(),
        M::Exp2 => |x, _, _| x.exp2(),
        M::Exp10 => |x, _, _| 10f64.powf(x),
        M::Expm1 => |x, _, _| x.exp_m1(),
        M::Fabs => |x, _, _| x.abs(),
        M::Fdim => |x, y, _| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if x > y {
                x - y
            } else {
                0.0
            }
        },
        M::Floor => |x, _, _| x.floor(),
        M::Fma => |x, y, z| x.mul_add(y, z),
        M::Fmax => |x, y, _| value::fmax(x, y),
        M::Fmin => |x, y, _| value::fmin(x, y),
        M::Fmod => |x, y, _| x % y,
        M::Hypot => |x, y, _| x.hypot(y),
        M::Log => |x, _, _| x.ln(),
        M::Log2 => |x, _, _| x.log2(),
        M::Log10 => |x, _, _| x.log10(),
        M::Log1p => |x, _, _| x.ln_1p(),
        M::Logb => |x, _, _| logb(x),
        M::Pow => |x, y, _| x.powf(y),
        M::Powr => |x, y, _| powr(x, y),
        M::Recip => |x, _, _| 1.0 / x,
        M::Remainder => |x, y, _| remainder(x, y),
        M::Rint => |x, _, _| x.round_ties_even(),
        M::Round => |x, _, _| x.round(),
        M::Rsqrt => |x, _, _| 1.0 / x.sqrt(),
        M::Sin => |x, _, _| x.sin(),
        M::Sinh => |x, _, _| x.sinh(),
        M::Sinpi => |x, _, _| (x * std::f64::consts::PI).sin(),
        M::Sqrt => |x, _, _| x.sqrt(),
        M::Tan => |x, _, _| x.tan(),
        M::Tanh => |x, _, _| x.tanh(),
        M::Tanpi => |x, _, _| (x * std::f64::consts::PI).tan(),
        M::Trunc => |x, _, _| x.trunc(),
        M::Divide => |x, y, _| x / y,
        M::Degrees => |x, _, _| x * (180.0 / std::f64::consts::PI),
        M::Radians => |x, _, _| x * (std::f64::consts::PI / 180.0),
        M::Sign => |x, _, _| {
            if x.is_nan() {
                0.0
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        },
        M::Maxmag => |x, y, _| super::float_bits::mag(M::Maxmag, x, y),
        M::Minmag => |x, y, _| super::float_bits::mag(M::Minmag, x, y),
        M::Ldexp => |x, n, _| x * 2f64.powi(n.clamp(-2000.0, 2000.0) as i32),
        M::Pown => |x, n, _| x.powi(n as i32),
        M::Rootn => |x, n, _| rootn(x, n as i64),
        // accurate to ~3e-9 relative: far inside float's 16 ulp, not double's
        M::Erf if ak != ScalarKind::Double => |x, _, _| erf(x),
        M::Erfc if ak != ScalarKind::Double => |x, _, _| erfc(x),
        _ => return None,
    };
    Some(g)
}

/// Applies `g` lane by lane; an `int` argument (ldexp, pown, rootn) is read as an integer.
pub(super) fn apply(g: fn(f64, f64, f64) -> f64, m: &MathArgs) -> Val {
    let arg = |j: usize, i: usize| -> f64 {
        if j >= m.count() {
            0.0
        } else if m.argk(j).is_float() {
            m.fx(j, i)
        } else {
            int_value(m.argk(j), m.lane(j, i)) as f64
        }
    };
    m.per_lane(&|i| m.out(g(arg(0, i), arg(1, i), arg(2, i))))
}

/// Smallest positive normal number of float kind `k`.
pub(super) fn min_normal(k: ScalarKind) -> f64 {
    match k {
        ScalarKind::Half => 6.103_515_625e-5,
        ScalarKind::Double => f64::MIN_POSITIVE,
        _ => f32::MIN_POSITIVE as f64,
    }
}

fn logb(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let (mut a, mut adj) = (x.abs(), 0);
    if a < f64::MIN_POSITIVE {
        a *= 2f64.powi(54);
        adj = 54;
    }
    (((a.to_bits() >> 52) & 0x7ff) as i64 - 1023 - adj) as f64
}

/// IEEE remainder, exact.
fn remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let ay = y.abs();
    let mut r = x.abs() % (2.0 * ay);
    let mut odd = false;
    if r >= ay {
        r -= ay;
        odd = true;
    }
    if 2.0 * r > ay || (2.0 * r == ay && odd) {
        r -= ay;
    }
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// `remquo(x, y)`: the IEEE remainder (exact) and the low seven bits of the integer `k`
/// nearest `x / y` (ties to even), with the sign of `x / y`. NaN and a quotient of 0 for a NaN
/// operand, an infinite `x` or a zero `y` (OpenCL C 7.5.1); `x` and 0 for an infinite `y`.
/// Exact for `float` operands: `|x| mod 128|y|` is exact, below `128|y|`, and of at most 31
/// significant bits, so the quotient's floor by `|y|` in a double is exact too.
pub(super) fn remquo(x: f64, y: f64) -> (f64, i32) {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return (f64::NAN, 0);
    }
    if y.is_infinite() {
        return (x, 0);
    }
    let ay = y.abs();
    let r1 = x.abs() % (128.0 * ay);
    let mut n = (r1 / ay).floor();
    let mut r = r1 - n * ay;
    if 2.0 * r > ay || (2.0 * r == ay && n % 2.0 == 1.0) {
        r -= ay;
        n += 1.0;
    }
    let k = (n as i32) & 127;
    let k = if (x < 0.0) != (y < 0.0) { -k } else { k };
    (if x < 0.0 { -r } else { r }, k)
}

/// erf by its Taylor series for |x| < 3 (at most ~13 digits lost to cancellation), through
/// `erfc` beyond.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 3.0 {
        let (mut sum, mut term) = (0.0f64, a);
        for n in 0..400 {
            let t = term / (2 * n + 1) as f64;
            sum += t;
            if t.abs() < 1e-17 * sum.abs() {
                break;
            }
            term *= -a * a / (n + 1) as f64;
        }
        2.0 / std::f64::consts::PI.sqrt() * sum
    } else {
        1.0 - erfc_cf(a)
    };
    r.copysign(x)
}

fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x >= 3.0 {
        erfc_cf(x)
    } else if x > -3.0 {
        1.0 - erf(x)
    } else {
        2.0 - erfc_cf(-x)
    }
}

/// erfc(x) for x >= 3 by its continued fraction, evaluated backwards.
fn erfc_cf(x: f64) -> f64 {
    let mut t = x;
    for k in (1..=300).rev() {
        t = x + (k as f64 / 2.0) / t;
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * t)
}

/// `powr`: `pow` for `x >= 0` only, with OpenCL C's special values (7.5.1), which differ
/// from `powf`'s: `powr(±0, ±0)`, `powr(+inf, ±0)`, `powr(+1, ±inf)` and a NaN operand give
/// NaN, a negative `x` NaN.
fn powr(x: f64, y: f64) -> f64 {
    let nan = x.is_nan()
        || y.is_nan()
        || x < 0.0
        || (x == 0.0 && y == 0.0)
        || (x.is_infinite() && y == 0.0)
        || (x == 1.0 && y.is_infinite());
    if nan {
        f64::NAN
    } else {
        x.powf(y)
    }
}

/// `rootn(x, n)` with OpenCL C's special values (7.5.1): `rootn(±0, n)` is ±inf for odd
/// `n < 0`, +inf for even `n < 0`, ±0 for odd `n > 0`, +0 for even `n > 0`; NaN for `n = 0`
/// and for `x < 0` with even `n`.
fn rootn(x: f64, n: i64) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    if x == 0.0 {
        let mag = if n < 0 { f64::INFINITY } else { 0.0 };
        return if n % 2 != 0 { mag.copysign(x) } else { mag };
    }
    if x < 0.0 {
        if n % 2 == 0 {
            return f64::NAN;
        }
        return -(-x).powf(1.0 / n as f64);
    }
    x.powf(1.0 / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powr_and_rootn_special_values_follow_the_spec() {
        for (x, y) in [
            (0.0, 0.0),
            (-0.0, 0.0),
            (f64::INFINITY, 0.0),
            (1.0, f64::INFINITY),
        ] {
            assert!(powr(x, y).is_nan(), "powr({x}, {y})");
        }
        assert!(powr(1.0, f64::NEG_INFINITY).is_nan());
        assert!(powr(1.0, f64::NAN).is_nan());
        assert!(powr(-2.0, 2.0).is_nan());
        assert_eq!(powr(0.0, -2.0), f64::INFINITY);
        assert_eq!(powr(-0.0, 3.0), 0.0);
        assert_eq!(powr(2.0, 0.0), 1.0);
        assert_eq!(powr(4.0, 0.5), 2.0);
        assert_eq!(rootn(-0.0, -3), f64::NEG_INFINITY);
        assert_eq!(rootn(0.0, -3), f64::INFINITY);
        assert_eq!(rootn(-0.0, -2), f64::INFINITY);
        assert!(rootn(-0.0, 3).is_sign_negative() && rootn(-0.0, 3) == 0.0);
        assert!(rootn(-0.0, 2).is_sign_positive() && rootn(-0.0, 2) == 0.0);
        assert_eq!(rootn(-8.0, 3), -2.0);
        assert!(rootn(-8.0, 2).is_nan());
    }

    #[test]
    fn remainder_and_logb() {
        assert_eq!(remainder(5.0, 2.0), 1.0);
        assert_eq!(remainder(7.0, 2.0), -1.0);
        assert_eq!(remainder(-7.0, 2.0), 1.0);
        assert_eq!(remainder(1.0, 3.0), 1.0);
        assert_eq!(logb(8.0), 3.0);
        assert_eq!(logb(0.75), -1.0);
        assert_eq!(logb(f64::MIN_POSITIVE / 4.0), -1024.0);
        assert_eq!(rootn(-8.0, 3), -2.0);
        // erf(0.5), erfc(4), erf(-3.5) to 1e-12 relative
        let close = |a: f64, b: f64| ((a - b) / b).abs() < 1e-12;
        assert!(close(erf(0.5), 0.520_499_877_813_046_5));
        assert!(close(erfc(4.0), 1.541_725_790_028_002e-8));
        assert!(close(erf(-3.5), -0.999_999_256_901_627_7));
        assert!(close(erfc(-3.5), 1.999_999_256_901_627_7));
    }

    #[test]
    fn remquo_gives_the_remainder_and_seven_quotient_bits() {
        assert_eq!(remquo(7.0, 2.0), (-1.0, 4));
        assert_eq!(remquo(5.0, 2.0), (1.0, 2));
        assert_eq!(remquo(-7.0, 2.0), (1.0, -4));
        assert_eq!(remquo(7.0, -2.0), (-1.0, -4));
        // 1000 = 7 * 128 + 104
        assert_eq!(remquo(1000.0, 1.0), (0.0, 104));
        assert_eq!(remquo(1.0, 3.0), (1.0, 0));
        assert_eq!(remquo(2.0, 3.0), (-1.0, 1));
        // 1.5 / 1 = 1.5: tie to the even 2; 2.5: to 2
        assert_eq!(remquo(1.5, 1.0), (-0.5, 2));
        assert_eq!(remquo(2.5, 1.0), (0.5, 2));
        let (r, q) = remquo(-4.0, 2.0);
        assert!(r == 0.0 && r.is_sign_negative() && q == -2);
        assert_eq!(remquo(3.0, f64::INFINITY), (3.0, 0));
        for (x, y) in [(f64::INFINITY, 1.0), (1.0, 0.0), (f64::NAN, 1.0)] {
            let (r, q) = remquo(x, y);
            assert!(r.is_nan() && q == 0);
        }
        // 2^100 mod 3 = 1 (2^even), quotient (2^100 - 1) / 3, whose low 7 bits are 85
        let q = ((1u128 << 100) - 1) / 3;
        assert_eq!(remquo(2f64.powi(100), 3.0), (1.0, (q & 127) as i32));
    }
}
