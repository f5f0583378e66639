//! The float built-ins defined on the representation rather than as a rounded real function:
//! `maxmag`, `minmag`, `nextafter`, `ilogb`, and the two-result `fract`, `modf`, `frexp`,
//! `sincos`, `remquo` and `lgamma_r` (their second result written through the pointer argument). Arguments are read as the
//! device reads them (a `float` denormal is a zero of its sign) and results rounded and
//! delivered as the device delivers them ([`MathArgs::out`]: canonical NaN, flushed denormals).

use super::math::MathArgs;
use crate::value::{self, Val};
use frontend::ast::{MathFn, ScalarKind};

/// `maxmag(x, y)`: the argument of larger magnitude, `fmax` when they tie; `minmag` alike.
pub(super) fn mag(f: MathFn, x: f64, y: f64) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    let (first, second) = if f == MathFn::Maxmag {
        (ax > ay, ay > ax)
    } else {
        (ax < ay, ay < ax)
    };
    if first {
        x
    } else if second {
        y
    } else if f == MathFn::Maxmag {
        value::fmax(x, y)
    } else {
        value::fmin(x, y)
    }
}

/// `nextafter(x, y)` lane by lane: the next representable value after `x` towards `y`, on the
/// bits of the argument kind (`y` itself when they are equal, NaN when either is).
pub(super) fn nextafter(m: &MathArgs) -> Val {
    let k = m.ak;
    let w = k.bits();
    let sign = 1u64 << (w - 1);
    m.per_lane(&|i| {
        let (x, y) = (m.fx(0, i), m.fx(1, i));
        if x.is_nan() || y.is_nan() {
            return m.out(f64::NAN);
        }
        if x == y {
            return m.out(y);
        }
        let bits = value::from_f64(k, x);
        let r = if x == 0.0 {
            // the smallest denormal with the sign of the direction (flushed on the device)
            if y > 0.0 {
                1
            } else {
                sign | 1
            }
        } else if (y > x) == (x > 0.0) {
            bits + 1
        } else {
            bits - 1
        };
        m.out(value::to_f64(k, r))
    })
}

/// `ilogb(x)`: the unbiased exponent; `FP_ILOGB0` (`INT_MIN`) for zero, `FP_ILOGBNAN`
/// (`INT_MAX`) for NaN, `INT_MAX` for an infinity.
pub(super) fn ilogb(m: &MathArgs) -> Val {
    m.per_lane(&|i| {
        let x = m.fx(0, i);
        let v: i32 = if x.is_nan() || x.is_infinite() {
            i32::MAX
        } else if x == 0.0 {
            i32::MIN
        } else {
            // exact: frexp's exponent of a normal or denormal f64
            let (mut a, mut adj) = (x.abs(), 0);
            if a < f64::MIN_POSITIVE {
                a *= 2f64.powi(64);
                adj = 64;
            }
            ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023 - adj
        };
        u64::from(v as u32)
    })
}

/// `fract`, `modf`, `frexp`, `sincos`, `remquo` and `lgamma_r`: (the result, the value written through
/// the pointer).
pub(super) fn ptr_out(f: MathFn, m: &MathArgs) -> (Val, Val) {
    let n = m.an;
    let mut first = Vec::with_capacity(n);
    let mut second = Vec::with_capacity(n);
    for i in 0..n {
        let x = m.fx(0, i);
        let (r, s): (u64, u64) = match f {
            // fmin(x - floor(x), 0x1.fffffep-1f); ±0 -> ±0, ±inf -> ±0, NaN -> NaN
            MathFn::Fract => {
                let fl = x.floor();
                let r = if x.is_nan() {
                    m.out(x)
                } else if x.is_infinite() || x == 0.0 {
                    m.out(0f64.copysign(x))
                } else {
                    // rounded once to the kind; never 1 (the largest value below it instead)
                    let r = m.out(x - fl);
                    let one = m.out(1.0);
                    if value::to_f64(m.rk, r) >= 1.0 {
                        one - 1
                    } else {
                        r
                    }
                };
                (r, m.out(fl))
            }
            // the fraction with the sign of x (±inf -> ±0), the integral part trunc(x)
            MathFn::Modf => {
                let t = x.trunc();
                let r = if x.is_infinite() {
                    0f64.copysign(x)
                } else {
                    (x - t).copysign(x)
                };
                (m.out(r), m.out(t))
            }
            MathFn::Sincos => (m.out(x.sin()), m.out(x.cos())),
            MathFn::LgammaR => {
                let (r, sign) = super::float::lgamma_r(x);
                (m.out(r), u64::from(sign as u32))
            }
            MathFn::Remquo => {
                let (r, q) = super::float::remquo(x, m.fx(1, i));
                (m.out(r), u64::from(q as u32))
            }
            // x = r * 2^e with 0.5 <= |r| < 1; 0, inf and NaN keep x with e = 0
            _ => {
                if x == 0.0 || !x.is_finite() {
                    (m.out(x), 0)
                } else {
                    let mut e = x.abs().log2().floor() as i32 + 1;
                    // log2 may round at the edges of a binade
                    while x.abs() * 2f64.powi(-e) >= 1.0 {
                        e += 1;
                    }
                    while x.abs() * 2f64.powi(-e) < 0.5 {
                        e -= 1;
                    }
                    (m.out(x * 2f64.powi(-e)), u64::from(e as u32))
                }
            }
        };
        first.push(r);
        second.push(s);
    }
    let sk = if matches!(f, MathFn::Frexp | MathFn::Remquo | MathFn::LgammaR) {
        ScalarKind::Int
    } else {
        m.rk
    };
    (Val::Lanes(m.rk, first), Val::Lanes(sk, second))
}
