//! Values of the interpreter and the exact OpenCL C arithmetic on them.
//!
//! A scalar or vector value is a list of lanes, each the bit pattern of its element type
//! truncated to the type's width (floats as their IEEE bits: `f32` bits for `float`, binary16
//! for `half`). Pointers, events, reservation ids, pipes and counters are one `uint` lane
//! (the device has 32-bit addresses). Structs and arrays are their bytes in memory layout.

use frontend::ast::{BinOp, Rounding, ScalarKind, StructTable, Type};

#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Void,
    Lanes(ScalarKind, Vec<u64>),
    Bytes(Vec<u8>),
}

impl Val {
    pub fn scalar(k: ScalarKind, bits: u64) -> Val {
        Val::Lanes(k, vec![k.truncate(bits)])
    }

    pub fn uint(v: u32) -> Val {
        Val::Lanes(ScalarKind::UInt, vec![v as u64])
    }

    /// The lanes of a lane value (empty for others).
    pub fn lanes(&self) -> &[u64] {
        match self {
            Val::Lanes(_, l) => l,
            _ => &[],
        }
    }

    /// The first lane (0 when there is none).
    pub fn first(&self) -> u64 {
        self.lanes().first().copied().unwrap_or(0)
    }
}

/// Element kind and lane count of a type held as lanes; `None` for aggregates and void.
pub fn lane_shape(t: &Type) -> Option<(ScalarKind, usize)> {
    match t {
        Type::Scalar(k) => Some((*k, 1)),
        Type::Vector(k, n) => Some((*k, *n as usize)),
        Type::Pointer { .. }
        | Type::Event
        | Type::ReserveId
        | Type::Pipe { .. }
        | Type::Counter32
        | Type::Counter64 => Some((ScalarKind::UInt, 1)),
        // an atomic object as its value type (the front end lets only the atomic built-ins
        // touch one; program-scope initialisers write it)
        Type::Atomic(a) => Some((a.value_kind(), 1)),
        _ => None,
    }
}

/// Memory image of a value of type `t` (`size_of(t)` bytes, little-endian, padding zero).
pub fn to_bytes(v: &Val, t: &Type, st: &StructTable) -> Vec<u8> {
    let size = st.size_of(t) as usize;
    let mut out = vec![0u8; size];
    match v {
        Val::Lanes(k, lanes) => {
            let w = k.size_bytes() as usize;
            for (i, l) in lanes.iter().enumerate() {
                let b = l.to_le_bytes();
                if (i + 1) * w <= size {
                    out[i * w..(i + 1) * w].copy_from_slice(&b[..w]);
                }
            }
        }
        Val::Bytes(b) => {
            let n = b.len().min(size);
            out[..n].copy_from_slice(&b[..n]);
        }
        Val::Void => {}
    }
    out
}

/// Reads a value of type `t` from its memory image.
pub fn from_bytes(bytes: &[u8], t: &Type) -> Val {
    match lane_shape(t) {
        Some((k, n)) => {
            let w = k.size_bytes() as usize;
            let lanes = (0..n)
                .map(|i| {
                    let mut b = [0u8; 8];
                    let s = bytes.get(i * w..(i + 1) * w).unwrap_or(&[]);
                    b[..s.len()].copy_from_slice(s);
                    k.truncate(u64::from_le_bytes(b))
                })
                .collect();
            Val::Lanes(k, lanes)
        }
        None if t.is_void() => Val::Void,
        None => Val::Bytes(bytes.to_vec()),
    }
}

// ---- floating point helpers ----

pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    if e == 0 {
        sign * m * 2f64.powi(-24)
    } else if e == 31 {
        if m == 0.0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        }
    } else {
        sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15)
    }
}

/// Round to nearest even binary16.
pub fn f64_to_f16(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // quantum of the binade of `a` (subnormal quantum 2^-24)
    let exp = if a == 0.0 {
        -25
    } else {
        a.log2().floor() as i32
    };
    let exp = exp.max(-14);
    let q = 2f64.powi(exp - 10);
    let m = (a / q).round_ties_even();
    let val = m * q;
    if val >= 65520.0 || val > 65504.0 {
        return sign | 0x7c00;
    }
    // re-encode
    if val == 0.0 {
        return sign;
    }
    let e = val.log2().floor() as i32;
    if e < -14 {
        sign | (val / 2f64.powi(-24)) as u16
    } else {
        let mant = ((val / 2f64.powi(e) - 1.0) * 1024.0).round() as u16;
        if mant >= 1024 {
            sign | (((e + 16) as u16) << 10)
        } else {
            sign | (((e + 15) as u16) << 10) | mant
        }
    }
}

/// The value of float bits of kind `k` as `f64` (exact).
pub fn to_f64(k: ScalarKind, bits: u64) -> f64 {
    match k {
        // The device flushes single-precision denormals to zero (`fpsem`).
        ScalarKind::Float => f32::from_bits(fpsem::flush(bits as u32)) as f64,
        ScalarKind::Double => f64::from_bits(bits),
        ScalarKind::Half => f16_to_f64(bits as u16),
        _ => unreachable!("to_f64 on integer kind {k}"),
    }
}

/// Rounds `x` to the nearest value of float kind `k` (ties to even) and returns its bits.
pub fn from_f64(k: ScalarKind, x: f64) -> u64 {
    match k {
        ScalarKind::Float => f32_bits(x as f32),
        ScalarKind::Double => x.to_bits(),
        ScalarKind::Half => f64_to_f16(x) as u64,
        _ => unreachable!("from_f64 on integer kind {k}"),
    }
}

/// The bits of a single-precision result as the device delivers it (`fpsem`): a denormal
/// flushed to a zero of its sign, any NaN the canonical one.
pub fn f32_bits(x: f32) -> u64 {
    if x.is_nan() {
        u64::from(fpsem::CANONICAL_NAN)
    } else {
        u64::from(fpsem::flush(x.to_bits()))
    }
}

/// OpenCL `fmin`: `y` if `y < x`, otherwise `x`; with one NaN argument the other one.
pub fn fmin(x: f64, y: f64) -> f64 {
    if x.is_nan() || y < x {
        y
    } else {
        x
    }
}

/// OpenCL `fmax`: `y` if `x < y`, otherwise `x`; with one NaN argument the other one.
pub fn fmax(x: f64, y: f64) -> f64 {
    if x.is_nan() || x < y {
        y
    } else {
        x
    }
}

/// The next representable value of kind `k` towards +inf (`up`) or -inf.
fn step_float(k: ScalarKind, bits: u64, up: bool) -> u64 {
    let w = k.bits();
    let sign = 1u64 << (w - 1);
    let x = to_f64(k, bits);
    if x.is_nan() || (x.is_infinite() && (x > 0.0) == up) {
        return bits;
    }
    if x == 0.0 {
        return if up { 1 } else { sign | 1 };
    }
    if (x > 0.0) == up {
        bits + 1
    } else {
        bits - 1
    }
}

/// Applies rounding mode `r` to `nearest`, the round-to-nearest-even result of converting an
/// exact value to float kind `k`; `cmp(c)` orders a candidate `c` against the exact value.
/// Round-to-nearest is off by at most one step, so one step in the right direction is enough.
fn directed(
    k: ScalarKind,
    nearest: u64,
    r: Rounding,
    cmp: impl Fn(f64) -> std::cmp::Ordering,
) -> u64 {
    use std::cmp::Ordering::*;
    let v = to_f64(k, nearest);
    if v.is_nan() {
        return nearest;
    }
    let o = cmp(v);
    match r {
        Rounding::Default | Rounding::Rte => nearest,
        Rounding::Rtp if o == Less => step_float(k, nearest, true),
        Rounding::Rtn if o == Greater => step_float(k, nearest, false),
        // too large in magnitude (including an overflow to infinity): one step towards zero
        Rounding::Rtz if (v > 0.0 && o == Greater) || (v < 0.0 && o == Less) => {
            step_float(k, nearest, v < 0.0)
        }
        _ => nearest,
    }
}

// ---- conversions ----

/// Signed value of an integer lane (bool is 0/1).
pub fn int_value(k: ScalarKind, bits: u64) -> i128 {
    if k.is_signed() {
        k.as_i64(bits) as i128
    } else {
        k.truncate(bits) as i128
    }
}

fn int_range(k: ScalarKind) -> (i128, i128) {
    if k == ScalarKind::Bool {
        return (0, 1);
    }
    let b = k.bits();
    if k.is_signed() {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

/// Converts one lane from kind `from` to kind `to` (OpenCL `convert_T[_sat][_rounding]`; a
/// plain cast is `sat = false`, `Rounding::Default`).
pub fn convert_lane(from: ScalarKind, bits: u64, to: ScalarKind, sat: bool, r: Rounding) -> u64 {
    if to == ScalarKind::Bool {
        return if from.is_float() {
            (to_f64(from, bits) != 0.0) as u64
        } else {
            (from.truncate(bits) != 0) as u64
        };
    }
    match (from.is_float(), to.is_float()) {
        (false, false) => {
            let v = int_value(from, bits);
            if sat {
                let (lo, hi) = int_range(to);
                to.truncate(v.clamp(lo, hi) as u64)
            } else {
                to.truncate(v as u64)
            }
        }
        (false, true) => {
            let v = int_value(from, bits);
            let nearest = match to {
                ScalarKind::Float => (v as f32).to_bits() as u64,
                ScalarKind::Double => (v as f64).to_bits(),
                _ => from_f64(to, v as f64),
            };
            directed(to, nearest, r, |c| {
                // candidates are integers or infinities here
                if c.is_infinite() {
                    if c > 0.0 {
                        std::cmp::Ordering::Greater
                    } else {
                        std::cmp::Ordering::Less
                    }
                } else {
                    (c as i128).cmp(&v)
                }
            })
        }
        (true, false) => {
            let x = to_f64(from, bits);
            let x = match r {
                Rounding::Default | Rounding::Rtz => x.trunc(),
                Rounding::Rte => x.round_ties_even(),
                Rounding::Rtp => x.ceil(),
                Rounding::Rtn => x.floor(),
            };
            let (lo, hi) = int_range(to);
            let v: i128 = if x.is_nan() {
                0
            } else if x <= lo as f64 {
                lo
            } else if x >= hi as f64 {
                hi
            } else {
                x as i128
            };
            // Out-of-range conversions without _sat are undefined in OpenCL C; we saturate.
            to.truncate(v as u64)
        }
        (true, true) => {
            let x = to_f64(from, bits);
            let nearest = from_f64(to, x);
            directed(to, nearest, r, |c| {
                c.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal)
            })
        }
    }
}

// ---- arithmetic ----

/// Why an operation has no value.
#[derive(Debug, PartialEq, Eq)]
pub enum ArithError {
    DivByZero,
}

/// Integer binary operation on one lane (operands already truncated to `k`). Comparisons
/// return 0/1.
pub fn int_binop(op: BinOp, k: ScalarKind, a: u64, b: u64) -> Result<u64, ArithError> {
    let bits = k.bits();
    let signed = k.is_signed();
    let (sa, sb) = (k.as_i64(a), k.as_i64(b));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Rem => {
            if k.truncate(b) == 0 {
                return Err(ArithError::DivByZero);
            }
            match (op, signed) {
                (BinOp::Div, true) => sa.wrapping_div(sb) as u64,
                (BinOp::Div, false) => a / b,
                (_, true) => sa.wrapping_rem(sb) as u64,
                (_, false) => a % b,
            }
        }
        BinOp::Shl => a.wrapping_shl((b % bits as u64) as u32),
        BinOp::Shr => {
            let s = (b % bits as u64) as u32;
            if signed {
                (sa >> s) as u64
            } else {
                a >> s
            }
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
            let o = if signed { sa.cmp(&sb) } else { a.cmp(&b) };
            return Ok(cmp_holds(op, Some(o)) as u64);
        }
        BinOp::LogAnd => ((a != 0) && (b != 0)) as u64,
        BinOp::LogOr => ((a != 0) || (b != 0)) as u64,
    };
    Ok(k.truncate(r))
}

fn cmp_holds(op: BinOp, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match (op, o) {
        (BinOp::Ne, None) => true,
        (_, None) => false,
        (BinOp::Lt, Some(o)) => o == Less,
        (BinOp::Le, Some(o)) => o != Greater,
        (BinOp::Gt, Some(o)) => o == Greater,
        (BinOp::Ge, Some(o)) => o != Less,
        (BinOp::Eq, Some(o)) => o == Equal,
        (BinOp::Ne, Some(o)) => o != Equal,
        _ => false,
    }
}

/// Float binary operation on one lane, rounded once to `k` (single precision arithmetic for
/// `float`, as IEEE-754 requires for + - * /). Comparisons return 0/1.
pub fn float_binop(op: BinOp, k: ScalarKind, a: u64, b: u64) -> u64 {
    let (x, y) = (to_f64(k, a), to_f64(k, b));
    if op.is_comparison() {
        return cmp_holds(op, x.partial_cmp(&y)) as u64;
    }
    // One rounding per operation: in `f32` for float; double is exact in f64, and half
    // operations on exact f64 values round once correctly in `from_f64`.
    macro_rules! arith {
        ($x:expr, $y:expr, $zero:expr, $one:expr) => {{
            let (x, y) = ($x, $y);
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                BinOp::LogAnd if x != $zero && y != $zero => $one,
                BinOp::LogOr if x != $zero || y != $zero => $one,
                _ => $zero,
            }
        }};
    }
    if k == ScalarKind::Float {
        return f32_bits(arith!(x as f32, y as f32, 0f32, 1f32));
    }
    let r = arith!(x, y, 0f64, 1f64);
    from_f64(k, r)
}

/// All-ones "true" of a vector comparison lane of kind `k`.
pub fn vec_true(k: ScalarKind) -> u64 {
    k.truncate(u64::MAX)
}
