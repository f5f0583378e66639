//! The float math functions (`sin`, `pow`, `fma`, `ldexp`...): one `f64` function per
//! [`MathFn`], evaluated in double precision and rounded once to the result type, and the
//! double-precision functions `std` does not offer (`logb`, IEEE `remainder`, `remquo`,
//! `erf`/`erfc`, `tgamma`/`lgamma` by Lanczos' approximation, `rootn`).

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
        // Lanczos, about 1e-15 relative (lgamma: 1e-15 absolute near its zeros at 1 and 2)
        M::Tgamma if ak != ScalarKind::Double => |x, _, _| tgamma(x),
        M::Lgamma if ak != ScalarKind::Double => |x, _, _| lgamma_r(x).0,
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

/// The Lanczos coefficients for `g = 7`, nine terms (Numerical Recipes; Godfrey).
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// `(ln A, t)` of Lanczos' `Gamma(x) = sqrt(2 pi) t^(x - 1/2) e^-t A` with `t = x + 6.5`,
/// for `x >= 1/2`.
fn lanczos(x: f64) -> (f64, f64) {
    let x = x - 1.0;
    let a = LANCZOS[1..]
        .iter()
        .enumerate()
        .fold(LANCZOS[0], |s, (i, c)| s + c / (x + (i + 1) as f64));
    (a.ln(), x + 7.5)
}

/// `sin(pi x)` for a finite `x`, reduced exactly (`x % 2` is exact), so that a tiny `x` keeps
/// its digits (`x - 2 floor(x / 2)` would give `2 - |x|`, rounded to 2, for a tiny negative `x`).
fn sin_pi(x: f64) -> f64 {
    (std::f64::consts::PI * (x % 2.0)).sin()
}

/// `tgamma`: Lanczos for `x >= 1/2`, the reflection `pi / (sin(pi x) Gamma(1 - x))` below;
/// ±inf at ±0, NaN at the negative integers and -inf (C99 Annex F).
fn tgamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x > 172.0 {
        return f64::INFINITY;
    }
    if x < 0.5 {
        let s = sin_pi(x);
        return std::f64::consts::PI / (s * tgamma(1.0 - x));
    }
    let (la, t) = lanczos(x);
    // t^(x - 1/2) e^-t with the power in two halves, so that none overflows before the product
    let p = t.powf((x - 0.5) / 2.0);
    (2.0 * std::f64::consts::PI).sqrt() * p * (-t).exp() * p * la.exp()
}

/// `lgamma_r`: `(ln |Gamma(x)|, the sign of Gamma(x))`; +inf at the poles (the non-positive
/// integers, sign 0 there but ±1 at ±0) and at ±inf (sign 1 at +inf, 0 at -inf); NaN with
/// sign 0 for NaN.
pub(super) fn lgamma_r(x: f64) -> (f64, i32) {
    if x.is_nan() {
        return (x, 0);
    }
    if x.is_infinite() {
        return (f64::INFINITY, if x > 0.0 { 1 } else { 0 });
    }
    if x == 0.0 {
        return (f64::INFINITY, if x.is_sign_negative() { -1 } else { 1 });
    }
    if x < 0.0 && x == x.floor() {
        return (f64::INFINITY, 0);
    }
    if x == 1.0 || x == 2.0 {
        return (0.0, 1);
    }
    if x < 0.5 {
        // Gamma(x) Gamma(1 - x) = pi / sin(pi x); Gamma(1 - x) > 0 here.
        let s = sin_pi(x);
        let (l, _) = lgamma_r(1.0 - x);
        let sign = if s < 0.0 { -1 } else { 1 };
        return ((std::f64::consts::PI / s.abs()).ln() - l, sign);
    }
    let (la, t) = lanczos(x);
    let l = 0.5 * (2.0 * std::f64::consts::PI).ln() + (x - 0.5) * t.ln() - t + la;
    (l, 1)
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
    fn gamma_functions_match_python() {
        // (x, math.gamma(x), math.lgamma(x)) from python3
        let table = [
            (0.5, 1.772_453_850_905_516, 0.572_364_942_924_700_4),
            (2.5, 1.329_340_388_179_137_2, 0.284_682_870_472_919_6),
            (5.0, 24.0, 3.178_053_830_347_945),
            (-0.5, -3.544_907_701_811_032, 1.265_512_123_484_645),
            (-2.5, -0.945_308_720_482_941_7, -0.056_243_716_497_674_57),
            (10.3, 716_430.689_062_376_5, 13.482_036_786_138_36),
            (30.0, 8.841_761_993_739_703e30, 71.257_038_967_168),
            (1e-3, 999.423_772_484_595_4, 6.907_178_885_383_854),
            (-1e-3, -1_000.578_205_629_358_5, 6.908_333_317_515_027),
            (35.5, 1.740_394_199_580_561e39, 90.354_930_265_818_38),
            (-10.7, -2.016_385_504_788_362_5e-7, -15.416_789_096_416_638),
            // A tiny negative x: the reduction of sin(pi x) must keep its digits.
            (-1e-30, -1e30, 69.077_552_789_821_37),
        ];
        for (x, g, l) in table {
            let (lg, sign) = lgamma_r(x);
            assert!(
                ((tgamma(x) - g) / g).abs() < 1e-13,
                "tgamma({x}) = {}",
                tgamma(x)
            );
            assert!(
                (lg - l).abs() < 1e-13 * l.abs().max(1.0),
                "lgamma({x}) = {lg}"
            );
            assert_eq!(sign, if g < 0.0 { -1 } else { 1 }, "sign at {x}");
        }
        assert_eq!(tgamma(0.0), f64::INFINITY);
        assert_eq!(tgamma(-0.0), f64::NEG_INFINITY);
        assert!(tgamma(-3.0).is_nan() && tgamma(f64::NEG_INFINITY).is_nan());
        assert_eq!(tgamma(f64::INFINITY), f64::INFINITY);
        assert_eq!(lgamma_r(1.0), (0.0, 1));
        assert_eq!(lgamma_r(-2.0), (f64::INFINITY, 0));
        assert_eq!(lgamma_r(-0.0), (f64::INFINITY, -1));
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
