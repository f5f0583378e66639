//! Transfer functions by op family: the facts of an op's result from those of its operands
//! (additive, multiplicative, bitwise, shifts, min/max, division; unary ops; conversions and
//! bit selects).

use super::facts::{smax, smin, ubits};
use super::Facts;
use crate::integer::{mask, sext};
use crate::ops::{BinOp, ConvOp, UnOp};

/// The facts of binary op `b` on `w`-bit operands; `amount`: the shift count when `y` is a
/// constant, `divisor`: `y` when it is a constant.
pub(super) fn binary(
    b: BinOp,
    w: u32,
    x: &Facts,
    y: &Facts,
    amount: Option<u32>,
    divisor: Option<u64>,
) -> Facts {
    match b {
        BinOp::Add | BinOp::Sub => add_sub(b == BinOp::Sub, w, x, y),
        BinOp::Mul => mul(w, x, y),
        BinOp::And | BinOp::Or | BinOp::Xor => bitwise(b, w, x, y),
        BinOp::Shl | BinOp::ShrU | BinOp::ShrS => shift(b, w, x, amount),
        BinOp::MinS | BinOp::MaxS | BinOp::MinU | BinOp::MaxU => min_max(b, x, y),
        BinOp::DivU | BinOp::RemU => unsigned_division(b, w, x, y, divisor),
        _ => Facts::top(w),
    }
}

/// `x + y` or `x - y` (`sub`): known bits through the carry chain, ranges when they do not
/// wrap.
fn add_sub(sub: bool, w: u32, x: &Facts, y: &Facts) -> Facts {
    let m = mask(w);
    // y's bits inverted for a subtraction (x + !y + 1).
    let (yz, yo) = if sub {
        (y.one, y.zero)
    } else {
        (y.zero, y.one)
    };
    let (zero, one) = add_known(x.zero, x.one, yz, yo, sub, m);
    let (xu, yu) = (
        (x.ulo as i128, x.uhi as i128),
        (y.ulo as i128, y.uhi as i128),
    );
    let (xs, ys) = (
        (x.slo as i128, x.shi as i128),
        (y.slo as i128, y.shi as i128),
    );
    let (u, s) = if sub {
        (
            Facts::urange(xu.0 - yu.1, xu.1 - yu.0, w),
            Facts::srange(xs.0 - ys.1, xs.1 - ys.0, w),
        )
    } else {
        (
            Facts::urange(xu.0 + yu.0, xu.1 + yu.1, w),
            Facts::srange(xs.0 + ys.0, xs.1 + ys.1, w),
        )
    };
    Facts {
        zero,
        one,
        ulo: u.ulo,
        uhi: u.uhi,
        slo: s.slo,
        shi: s.shi,
        bits: w,
    }
}

/// `x * y`: trailing zeros add up; the ranges multiply when they do not wrap.
fn mul(w: u32, x: &Facts, y: &Facts) -> Facts {
    let m = mask(w);
    let top = Facts::top(w);
    let tz = (x.zero.trailing_ones() + y.zero.trailing_ones()).min(w);
    let hi = x.uhi as u128 * y.uhi as u128;
    let u = if hi <= m as u128 {
        Facts::urange((x.ulo as u128 * y.ulo as u128) as i128, hi as i128, w)
    } else {
        top
    };
    let corners = [
        x.slo as i128 * y.slo as i128,
        x.slo as i128 * y.shi as i128,
        x.shi as i128 * y.slo as i128,
        x.shi as i128 * y.shi as i128,
    ];
    let s = Facts::srange(
        *corners.iter().min().expect("four corners"),
        *corners.iter().max().expect("four corners"),
        w,
    );
    Facts {
        zero: mask(tz),
        ulo: u.ulo,
        uhi: u.uhi,
        slo: s.slo,
        shi: s.shi,
        ..top
    }
}

/// `and`, `or`, `xor`.
fn bitwise(b: BinOp, w: u32, x: &Facts, y: &Facts) -> Facts {
    let (zero, one) = match b {
        BinOp::And => (x.zero | y.zero, x.one & y.one),
        BinOp::Or => (x.zero & y.zero, x.one | y.one),
        _ => (
            (x.zero & y.zero) | (x.one & y.one),
            (x.zero & y.one) | (x.one & y.zero),
        ),
    };
    // Bitwise operations keep a common sign extension, and cannot set bits above
    // the highest one of either operand.
    let k = x.signed_bits().max(y.signed_bits());
    let s = Facts::srange(-(1i128 << (k - 1)), (1i128 << (k - 1)) - 1, w);
    let top_bit = ubits(x.uhi.max(y.uhi));
    let (ulo, uhi) = match b {
        BinOp::And => (0, x.uhi.min(y.uhi)),
        BinOp::Or => (x.ulo.max(y.ulo), mask(top_bit)),
        _ => (0, mask(top_bit)),
    };
    Facts {
        zero,
        one,
        ulo,
        uhi,
        slo: s.slo,
        shi: s.shi,
        bits: w,
    }
}

/// `shl`, `lshr`, `ashr` by a constant `amount` (already taken modulo the width) or by any.
fn shift(b: BinOp, w: u32, x: &Facts, amount: Option<u32>) -> Facts {
    let m = mask(w);
    let top = Facts::top(w);
    match (b, amount) {
        (BinOp::Shl, Some(c)) => {
            let u = Facts::urange((x.ulo as i128) << c, (x.uhi as i128) << c, w);
            let s = Facts::srange((x.slo as i128) << c, (x.shi as i128) << c, w);
            Facts {
                zero: ((x.zero << c) | mask(c)) & m,
                one: (x.one << c) & m,
                ulo: u.ulo,
                uhi: u.uhi,
                slo: s.slo,
                shi: s.shi,
                bits: w,
            }
        }
        (BinOp::Shl, None) => top,
        (BinOp::ShrU, Some(c)) => Facts {
            zero: (x.zero >> c) | (m & !(m >> c)),
            one: x.one >> c,
            ulo: x.ulo >> c,
            uhi: x.uhi >> c,
            ..top
        },
        // Any shift keeps the known leading zeros.
        (BinOp::ShrU, None) => Facts {
            zero: m & !mask(ubits(!x.zero & m)),
            uhi: x.uhi,
            ..top
        },
        (_, Some(c)) => Facts {
            zero: ((sext(x.zero, w) >> c) as u64) & m,
            one: ((sext(x.one, w) >> c) as u64) & m,
            slo: x.slo >> c,
            shi: x.shi >> c,
            ..top
        },
        (_, None) => Facts {
            slo: x.slo.min(0),
            shi: x.shi.max(0),
            ..top
        },
    }
}

/// The result is one of the operands, and the order narrows its range.
fn min_max(b: BinOp, x: &Facts, y: &Facts) -> Facts {
    let mut f = x.join(*y);
    match b {
        BinOp::MinS => {
            f.slo = x.slo.min(y.slo);
            f.shi = x.shi.min(y.shi);
        }
        BinOp::MaxS => {
            f.slo = x.slo.max(y.slo);
            f.shi = x.shi.max(y.shi);
        }
        BinOp::MinU => {
            f.ulo = x.ulo.min(y.ulo);
            f.uhi = x.uhi.min(y.uhi);
        }
        _ => {
            f.ulo = x.ulo.max(y.ulo);
            f.uhi = x.uhi.max(y.uhi);
        }
    }
    f
}

/// `udiv`, `urem`. Division by zero gives 0 in the IR (inside every range below), a remainder
/// by zero the dividend (so a remainder is never above its dividend).
fn unsigned_division(b: BinOp, w: u32, x: &Facts, y: &Facts, divisor: Option<u64>) -> Facts {
    let m = mask(w);
    let top = Facts::top(w);
    if b == BinOp::DivU {
        return match divisor {
            Some(d) if d & m != 0 => Facts {
                ulo: x.ulo / (d & m),
                uhi: x.uhi / (d & m),
                ..top
            },
            _ => Facts { uhi: x.uhi, ..top },
        };
    }
    match divisor {
        Some(d) if d & m != 0 && x.uhi < d & m => *x,
        Some(d) if d & m != 0 => Facts {
            uhi: x.uhi.min((d & m) - 1),
            ..top
        },
        _ if y.ulo > 0 => Facts {
            uhi: x.uhi.min(y.uhi - 1),
            ..top
        },
        _ => Facts { uhi: x.uhi, ..top },
    }
}

pub(super) fn unary(u: UnOp, w: u32, x: &Facts) -> Facts {
    match u {
        UnOp::Not => Facts {
            bits: w,
            zero: x.one,
            one: x.zero,
            ulo: mask(w) - x.uhi,
            uhi: mask(w) - x.ulo,
            slo: -1 - x.shi,
            shi: -1 - x.slo,
        },
        UnOp::Neg => binary(BinOp::Sub, w, &Facts::constant(0, w), x, None, None),
        UnOp::AbsS if x.slo > smin(w) => {
            let (lo, hi) = if x.slo >= 0 {
                (x.slo, x.shi)
            } else if x.shi <= 0 {
                (-x.shi, -x.slo)
            } else {
                (0, (-x.slo).max(x.shi))
            };
            Facts::srange(lo as i128, hi as i128, w)
        }
        _ => Facts::top(w),
    }
}

/// Known bits of `x + y + carry` (carry 1 for a subtraction, whose `y` is already inverted):
/// LLVM's `KnownBits::computeForAddCarry`.
fn add_known(xz: u64, xo: u64, yz: u64, yo: u64, carry: bool, m: u64) -> (u64, u64) {
    let (xmax, ymax) = (!xz & m, !yz & m);
    let sum_zero = xmax.wrapping_add(ymax).wrapping_add(carry as u64);
    let sum_one = xo.wrapping_add(yo).wrapping_add(carry as u64);
    let carry_zero = !(sum_zero ^ xz ^ yz);
    let carry_one = sum_one ^ xo ^ yo;
    let known = (xz | xo) & (yz | yo) & (carry_zero | carry_one) & m;
    (!sum_zero & known, sum_one & known)
}

pub(super) fn convert(c: ConvOp, w: u32, x: &Facts) -> Facts {
    let top = Facts::top(w);
    let m = mask(w);
    let s = x.bits;
    match c {
        ConvOp::Trunc => {
            let mut f = Facts {
                zero: x.zero & m,
                one: x.one & m,
                ..top
            };
            if x.uhi <= m {
                f.ulo = x.ulo;
                f.uhi = x.uhi;
            }
            if x.slo >= smin(w) && x.shi <= smax(w) {
                f.slo = x.slo;
                f.shi = x.shi;
            }
            f
        }
        ConvOp::ZExt => Facts {
            zero: x.zero | (m & !mask(s)),
            one: x.one,
            ulo: x.ulo,
            uhi: x.uhi,
            slo: x.ulo as i64,
            shi: x.uhi as i64,
            bits: w,
        },
        ConvOp::SExt => Facts {
            zero: sext(x.zero, s) as u64 & m,
            one: sext(x.one, s) as u64 & m,
            slo: x.slo,
            shi: x.shi,
            ..top
        },
        ConvOp::Bitcast if s == w => *x,
        _ => top,
    }
}

pub(super) fn extract(x: &Facts, lo: u32, w: u32) -> Facts {
    let m = mask(w);
    let mut f = Facts {
        zero: (x.zero >> lo) & m,
        one: (x.one >> lo) & m,
        ..Facts::top(w)
    };
    if lo == 0 {
        f = convert(ConvOp::Trunc, w, x);
    } else if lo + w == x.bits {
        // The top bits: an unsigned shift right.
        f.ulo = x.ulo >> lo;
        f.uhi = x.uhi >> lo;
    }
    f
}
