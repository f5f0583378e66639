//! The accuracy harness of the float math built-ins (`tests/float_math.rs`, and
//! `examples/float_math_ulp.rs` at a larger scale): lowers `o[i] = f(a[i] [, b[i]])`, runs it in
//! the IR interpreter and measures the error in ulps against a double-precision reference
//! that follows the OpenCL C special-value rules and the device's flush-to-zero.

#![allow(dead_code)] // each user takes a part

use frontend::span::SourceMap;
use hls_ir::interp::{run, InterpLaunch};
use hls_ir::Kernel;

/// The second argument's type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arity {
    One,
    Two,
    /// A float and an `int` (`pown`, `rootn`).
    FloatInt,
    /// Three floats (`fma`).
    Three,
}

/// A function under test: its name, arity, double reference and the spec's bound in ulps.
pub struct Func {
    pub name: &'static str,
    pub arity: Arity,
    pub reference: fn(f64, f64) -> f64,
    /// The reference of a three-argument function (`reference` is unused then).
    pub reference3: fn(f64, f64, f64) -> f64,
    pub bound: f64,
    /// Errors are counted in ulps of `max(|result|, floor)`: 0 for relative errors; 1 for
    /// `lgamma`, whose results cross zero (the spec gives it no bound: its relative error near
    /// its zeros says nothing, its absolute error does).
    pub floor: f64,
}

/// Every function built, priority order; bounds of the full profile (OpenCL C 1.2 §7.4).
pub fn functions() -> Vec<Func> {
    use std::f64::consts::PI;
    use Arity::*;
    let f = |name, arity, reference, bound| Func {
        name,
        arity,
        reference,
        reference3: |_, _, _| f64::NAN,
        bound,
        floor: 0.0,
    };
    let f3 = |name, reference3, bound| Func {
        name,
        arity: Three,
        reference: |_, _| f64::NAN,
        reference3,
        bound,
        floor: 0.0,
    };
    vec![
        f("exp2", One, |x, _| x.exp2(), 3.0),
        f("log2", One, |x, _| log_ref(x, f64::log2), 3.0),
        f("powr", Two, powr_ref, 16.0),
        f("pow", Two, pow_ref, 16.0),
        f("exp", One, |x, _| x.exp(), 3.0),
        f("log", One, |x, _| log_ref(x, f64::ln), 3.0),
        f("exp10", One, |x, _| 10f64.powf(x), 3.0),
        f("log10", One, |x, _| log_ref(x, f64::log10), 3.0),
        f("rsqrt", One, |x, _| 1.0 / x.sqrt(), 2.0),
        f("pown", FloatInt, pown_ref, 16.0),
        f("rootn", FloatInt, rootn_ref, 16.0),
        f("cbrt", One, |x, _| x.cbrt(), 2.0),
        f("hypot", Two, |x, y| x.hypot(y), 4.0),
        f("expm1", One, |x, _| x.exp_m1(), 3.0),
        f("log1p", One, |x, _| x.ln_1p(), 2.0),
        // Exact and correctly rounded: 0 ulp from the exactly rounded reference.
        f3("fma", fma_ref, 0.0),
        f("fmod", Two, |x, y| x % y, 0.0),
        f("remainder", Two, remainder_ref, 0.0),
        f("sin", One, |x, _| x.sin(), 4.0),
        f("cos", One, |x, _| x.cos(), 4.0),
        f("tan", One, |x, _| x.tan(), 5.0),
        f("sinpi", One, |x, _| sinpi_ref(x), 4.0),
        f("cospi", One, |x, _| cospi_ref(x), 4.0),
        f("tanpi", One, |x, _| tanpi_ref(x), 6.0),
        f("asin", One, |x, _| x.asin(), 4.0),
        f("acos", One, |x, _| x.acos(), 4.0),
        f("atan", One, |x, _| x.atan(), 5.0),
        f("atan2", Two, |y, x| y.atan2(x), 6.0),
        f("sinh", One, |x, _| x.sinh(), 4.0),
        f("cosh", One, |x, _| x.cosh(), 4.0),
        f("tanh", One, |x, _| x.tanh(), 5.0),
        f("asinh", One, |x, _| x.asinh(), 4.0),
        f("acosh", One, |x, _| x.acosh(), 4.0),
        f("atanh", One, |x, _| x.atanh(), 5.0),
        f("asinpi", One, |x, _| x.asin() / PI, 5.0),
        f("acospi", One, |x, _| x.acos() / PI, 5.0),
        f("atanpi", One, |x, _| x.atan() / PI, 5.0),
        f("atan2pi", Two, |y, x| y.atan2(x) / PI, 6.0),
        // The two results of `sincos` and of `remquo` (its quotient as a float, exact).
        f("sincos", One, |x, _| x.sin(), 4.0),
        f("sincos_cos", One, |x, _| x.cos(), 4.0),
        f("remquo", Two, remainder_ref, 0.0),
        f("remquo_quo", Two, remquo_quo_ref, 0.0),
        f("erf", One, |x, _| erf_ref(x), 16.0),
        f("erfc", One, |x, _| erfc_ref(x), 16.0),
        f("tgamma", One, |x, _| tgamma_ref(x), 16.0),
        Func {
            floor: 1.0,
            ..f("lgamma", One, |x, _| lgamma_ref(x).0, f64::INFINITY)
        },
    ]
}

/// `ln Gamma(y)` for `y >= 20` by Stirling's series to `y^-15` (the next term is below
/// 1e-20 there), in double precision.
fn ln_gamma_stirling(y: f64) -> f64 {
    // B_2k / (2k (2k - 1)) for k = 1..8.
    const C: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
        -3617.0 / 122_400.0,
    ];
    let z = 1.0 / y;
    let z2 = z * z;
    let s = C.iter().rev().fold(0.0, |acc, c| acc * z2 + c) * z;
    (y - 0.5) * y.ln() - y + 0.5 * (2.0 * std::f64::consts::PI).ln() + s
}

/// `(ln |Gamma(x)|, the sign of Gamma(x))` in double precision: Stirling's series after
/// moving `x` up to 20 or more (`Gamma(x) = Gamma(x + n) / (x (x + 1) ... (x + n - 1))`),
/// the reflection below 1/2. Checked against python3's `math.lgamma` and `math.gamma` (within
/// 1e-14 relative at 0.5, 1.5, 3.7, 10, 35, -0.5, -2.5, -33.5).
fn lgamma_ref(x: f64) -> (f64, f64) {
    if x.is_nan() {
        return (x, 0.0);
    }
    if x.is_infinite() {
        return (f64::INFINITY, if x > 0.0 { 1.0 } else { 0.0 });
    }
    if x == 0.0 {
        return (f64::INFINITY, if x.is_sign_negative() { -1.0 } else { 1.0 });
    }
    if x < 0.0 && x == x.floor() {
        return (f64::INFINITY, 0.0);
    }
    if x < 0.5 {
        let s = sinpi_ref(x);
        let (l, _) = lgamma_ref(1.0 - x);
        return ((std::f64::consts::PI / s.abs()).ln() - l, s.signum());
    }
    let (mut y, mut p) = (x, 1.0f64);
    while y < 20.0 {
        p *= y;
        y += 1.0;
    }
    (ln_gamma_stirling(y) - p.ln(), 1.0)
}

/// `Gamma(x)` in double precision (C99 Annex F special values: ±inf at ±0, NaN at the
/// negative integers and -inf).
fn tgamma_ref(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x > 180.0 {
        return f64::INFINITY;
    }
    let (l, sign) = lgamma_ref(x);
    sign * l.exp()
}

/// `x * y + z` rounded once to a float (as a double): the product is exact in a double, the
/// sum's rounding error `e` breaks a tie of the float rounding of the double sum.
fn fma_ref(x: f64, y: f64, z: f64) -> f64 {
    let p = x * y;
    let s = p + z;
    if !s.is_finite() || !p.is_finite() {
        return s;
    }
    let bb = s - p;
    let e = (p - (s - bb)) + (z - bb);
    let r = s as f32;
    let rd = r as f64;
    if e != 0.0 && rd != s && r != 0.0 && r.is_finite() {
        let step = |v: f32, up: bool| -> f32 {
            let away = (v > 0.0) == up;
            f32::from_bits(if away {
                v.to_bits() + 1
            } else {
                v.to_bits() - 1
            })
        };
        let (lo, hi) = if rd < s {
            (r, step(r, true))
        } else {
            (step(r, false), r)
        };
        if (lo as f64 + hi as f64) / 2.0 == s {
            return if e > 0.0 { hi as f64 } else { lo as f64 };
        }
    }
    rd
}

/// IEEE `remainder`, exactly (`x - n y`, `n` the nearest integer to `x / y`, ties to even).
fn remainder_ref(x: f64, y: f64) -> f64 {
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

/// `remquo`'s quotient: the low seven bits of `k`, the integer nearest `x / y` (ties to even),
/// with the sign of `x / y`; 0 where the remainder is NaN or `y` infinite. `|x| mod 128|y|`
/// is exact for float operands and has at most 31 significant bits, so its floor quotient by
/// `|y|` in a double is exact.
fn remquo_quo_ref(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 || y.is_infinite() {
        return 0.0;
    }
    let ay = y.abs();
    let r1 = x.abs() % (128.0 * ay);
    let mut n = (r1 / ay).floor();
    let r = r1 - n * ay;
    if 2.0 * r > ay || (2.0 * r == ay && n % 2.0 == 1.0) {
        n += 1.0;
    }
    let k = n % 128.0;
    if (x < 0.0) != (y < 0.0) {
        -k
    } else {
        k
    }
}

/// `erf x` in double precision: its Taylor series below 2.5 (about 14 digits: the terms grow
/// to `e^6.25`), `1 - erfc x` above. Checked against mpmath at 40 digits (within 1e-13
/// relative; `docs/benchmarks.md`).
fn erf_ref(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let r = if a < 2.5 {
        let (mut sum, mut term, mut n) = (0.0f64, a, 0);
        loop {
            let t = term / (2 * n + 1) as f64;
            sum += t;
            if t.abs() <= 1e-18 * sum {
                break;
            }
            term *= -a * a / (n + 1) as f64;
            n += 1;
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        1.0 - erfc_cf_ref(a)
    };
    r.copysign(x)
}

/// `erfc x`: `1 - erf x` below 2.5, the continued fraction beyond, `2 - erfc|x|` below -2.5.
fn erfc_ref(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x >= 2.5 {
        erfc_cf_ref(x)
    } else if x > -2.5 {
        1.0 - erf_ref(x)
    } else {
        2.0 - erfc_cf_ref(-x)
    }
}

/// `erfc x` for `x >= 2.5`: `e^(-x^2) / (sqrt(pi) (x + (1/2) / (x + 1 / (x + (3/2) / ...))))`,
/// 2,000 terms evaluated backwards.
fn erfc_cf_ref(x: f64) -> f64 {
    let mut t = x;
    for k in (1..=2000).rev() {
        t = x + (k as f64 / 2.0) / t;
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * t)
}

/// `sin(pi x)` with `x` reduced exactly modulo 2 first; `±0` at the integers (OpenCL C).
fn sinpi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x % 2.0;
    if r == 0.0 || r.abs() == 1.0 {
        return 0.0f64.copysign(x);
    }
    (std::f64::consts::PI * r).sin()
}

/// `cos(pi x)`; `+0` at the half-integers.
fn cospi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x.abs() % 2.0;
    if r == 0.5 || r == 1.5 {
        return 0.0;
    }
    (std::f64::consts::PI * r).cos()
}

/// `tan(pi x)`; the zeros and infinities of OpenCL C at the integers and half-integers.
fn tanpi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x % 1.0;
    if r == 0.0 {
        let even = x % 2.0 == 0.0;
        return 0.0f64.copysign(if even { x } else { -x });
    }
    if r.abs() == 0.5 {
        let n = x - 0.5;
        return if n % 2.0 == 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    (std::f64::consts::PI * r).tan()
}

fn log_ref(x: f64, g: fn(f64) -> f64) -> f64 {
    if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        g(x)
    }
}

/// IEEE `pow` (Rust's `powf` follows it).
fn pow_ref(x: f64, y: f64) -> f64 {
    x.powf(y)
}

/// `powr`: pow of a non-negative base, NaN for 0^0, inf^0 and 1^inf (OpenCL C §7.4).
fn powr_ref(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if (x == 0.0 || x.is_infinite()) && y == 0.0 || x == 1.0 && y.is_infinite() {
        return f64::NAN;
    }
    // powr(±0, y) is +0 or +inf, whatever the parity of y.
    x.abs().powf(y)
}

fn pown_ref(x: f64, n: f64) -> f64 {
    // n is exact in a double, and powf(x, n) is correctly signed for integer n.
    x.powf(n)
}

fn rootn_ref(x: f64, n: f64) -> f64 {
    if x.is_nan() || n == 0.0 {
        return f64::NAN;
    }
    let odd = n.rem_euclid(2.0) == 1.0;
    if x < 0.0 && !odd {
        return f64::NAN;
    }
    if x == 0.0 {
        let z = if odd { x } else { 0.0 };
        return if n < 0.0 { 1.0 / z } else { z };
    }
    let m = x.abs().powf(1.0 / n);
    if x < 0.0 {
        -m
    } else {
        m
    }
}

/// A denormal float counts as a zero of its sign (the device's float units).
pub fn ftz(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The error of `got` against the exact `want` in ulps of `want` (0 for matching NaNs and
/// infinities, infinite for a mismatch); a result below the normal range may be flushed to a
/// zero, a result beyond the range must be the infinity.
pub fn ulp_error(got: f32, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let min = f32::MIN_POSITIVE as f64;
    if want.abs() < min && got.abs() as f64 <= min {
        return 0.0;
    }
    // Beyond the range: infinity (a finite result just below it may round either way).
    let big = 2f64.powi(128);
    if want.abs() >= big || got.is_infinite() {
        let g = (got as f64).clamp(-big, big);
        let w = want.clamp(-big, big);
        return (g - w).abs() / 2f64.powi(104);
    }
    let e = want.abs().log2().floor().max(-126.0);
    (got as f64 - want).abs() / 2f64.powf(e - 23.0)
}

/// A kernel computing `o[i] = name(a[i] [, b[i]])`.
/// `sincos`, `sincos_cos`: the two results of `sincos`; `remquo`, `remquo_quo`: the two of
/// `remquo`, the quotient converted to a float.
pub fn kernel_of(name: &str, arity: Arity) -> Kernel {
    let call = match (name, arity) {
        ("sincos", _) => "sincos(a[i], &t)".to_string(),
        ("sincos_cos", _) => "(sincos(a[i], &t), t)".to_string(),
        ("remquo", _) => "remquo(a[i], b[i], &q)".to_string(),
        ("remquo_quo", _) => "(remquo(a[i], b[i], &q), (float)q)".to_string(),
        (_, Arity::One) => format!("{name}(a[i])"),
        (_, Arity::Three) => format!("{name}(a[i], b[i], c[i])"),
        _ => format!("{name}(a[i], b[i])"),
    };
    kernel_of_expr(&call, arity)
}

/// A kernel computing `o[i] = expr` of `a[i]` (and `b[i]`).
fn kernel_of_expr(expr: &str, arity: Arity) -> Kernel {
    let b = match arity {
        Arity::One => "",
        Arity::Two => ", global const float *b",
        Arity::FloatInt => ", global const int *b",
        Arity::Three => ", global const float *b, global const float *c",
    };
    let decl = if expr.contains("&t") {
        "float t; "
    } else if expr.contains("&q") {
        "int q; "
    } else {
        ""
    };
    let src = format!(
        "kernel void k(global float *o, global const float *a{b}) {{ size_t i = get_global_id(0); {decl}o[i] = {expr}; }}"
    );
    let mut sm = SourceMap::new();
    let f = sm.add_file("k.cl", &src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p.kernels().next().expect("a kernel");
    hls_ir::lower::lower_kernel(&p, id).unwrap()
}

/// The ops the lowering builds for the function (constants included, before any pass): the
/// kernel's ops less those of the same kernel with one float op (or an `int` conversion and
/// one float op) in its place.
pub fn function_ops(f: &Func) -> usize {
    let (base, base_ops) = match f.arity {
        Arity::One => ("-a[i]", 1),
        Arity::Two => ("a[i] + b[i]", 1),
        Arity::FloatInt => ("a[i] + (float)b[i]", 2),
        Arity::Three => ("a[i] + b[i] + c[i]", 2),
    };
    let k = kernel_of(f.name, f.arity).op_ids().len();
    k + base_ops - kernel_of_expr(base, f.arity).op_ids().len()
}

/// Runs kernel `k` on the inputs (`b` as float or int bits, `c` empty unless three) and
/// returns the outputs.
pub fn run_kernel(k: &Kernel, a: &[u32], b: &[u32], c: &[u32]) -> Vec<u32> {
    let n = a.len();
    let bytes = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (o_addr, a_addr, b_addr, c_addr) =
        (0x10_0000u32, 0x100_0000u32, 0x200_0000u32, 0x300_0000u32);
    let mut buffers = vec![(o_addr, vec![0u8; 4 * n]), (a_addr, bytes(a))];
    let mut args = vec![o_addr as u64, a_addr as u64];
    if !b.is_empty() {
        buffers.push((b_addr, bytes(b)));
        args.push(b_addr as u64);
    }
    if !c.is_empty() {
        buffers.push((c_addr, bytes(c)));
        args.push(c_addr as u64);
    }
    let launch = InterpLaunch {
        args,
        buffers,
        global_size: [n as u32, 1, 1],
        local_size: [1, 1, 1],
        work_dim: 1,
        max_steps: 0,
        ..Default::default()
    };
    let out = run(k, &launch).expect("the interpreter runs the kernel");
    out[0]
        .1
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn bits(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

const SPECIALS: [f32; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1e-40,
    -1e-40,
    f32::MIN_POSITIVE,
    f32::MAX,
    -f32::MAX,
    0.5,
    2.0,
    -2.0,
    3.0,
];

/// The inputs of `f`: special values (and their pairs), random bit patterns over the whole
/// domain, and random values where the result is finite and non-trivial; `n` in all. The
/// third vector is empty unless `f` has three arguments.
pub fn inputs(f: &Func, n: usize, rng: &mut Rng) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    let two = f.arity != Arity::One;
    let three = f.arity == Arity::Three;
    let int_b = f.arity == Arity::FloatInt;
    for &x in &SPECIALS {
        if two {
            for (j, &y) in SPECIALS.iter().enumerate() {
                a.push(x.to_bits());
                b.push(if int_b {
                    (y as i32) as u32
                } else {
                    y.to_bits()
                });
                if three {
                    c.push(SPECIALS[(j * 7 + a.len()) % SPECIALS.len()].to_bits());
                }
            }
        } else {
            a.push(x.to_bits());
        }
    }
    while a.len() < n {
        if three {
            let (x, y, z) = sample3(rng, a.len() % 4);
            a.push(x);
            b.push(y);
            c.push(z);
            continue;
        }
        let (x, y) = sample(f, rng, a.len() % 4 == 0);
        a.push(x);
        if two {
            b.push(y);
        }
    }
    (a, b, c)
}

/// `fma` inputs: raw bits; products cancelled by an addend a few ulp away (the hard case);
/// addends far below or above the product.
fn sample3(rng: &mut Rng, kind: usize) -> (u32, u32, u32) {
    let (x, y) = (rng.bits(), rng.bits());
    if kind == 0 {
        return (x, y, rng.bits());
    }
    // Keep the product in range: exponents near 127 each.
    let near = |r: &mut Rng, v: u32| (v & 0x807f_ffff) | ((100 + r.bits() % 55) << 23);
    let (x, y) = (near(rng, x), near(rng, y));
    let p = f32::from_bits(x) * f32::from_bits(y);
    let z = match kind {
        1 => (-p)
            .to_bits()
            .wrapping_add(rng.bits() % 64)
            .wrapping_sub(32),
        2 => {
            let d = (rng.bits() % 60) as i32 - 30;
            let e = ((p.to_bits() >> 23) & 0xff) as i32 + d;
            (rng.bits() & 0x807f_ffff) | ((e.clamp(1, 254) as u32) << 23)
        }
        _ => (-p).to_bits() ^ (rng.bits() & 0xfff),
    };
    (x, y, z)
}

/// One random input: raw bits when `raw`, else in the function's interesting range.
fn sample(f: &Func, rng: &mut Rng, raw: bool) -> (u32, u32) {
    let pos = |r: &mut Rng| r.bits() & 0x7fff_ffff;
    if raw {
        let y = match f.arity {
            Arity::FloatInt => rng.uniform(-40.0, 40.0) as i32 as u32,
            _ => rng.bits(),
        };
        return (rng.bits(), y);
    }
    let v = |x: f64| (x as f32).to_bits();
    match f.name {
        "exp2" => (v(rng.uniform(-152.0, 130.0)), 0),
        "exp" => (v(rng.uniform(-105.0, 90.0)), 0),
        "exp10" => (v(rng.uniform(-46.0, 39.0)), 0),
        "expm1" => {
            let e = rng.uniform(-30.0, 7.0);
            let s = if rng.bits() & 1 == 0 { 1.0 } else { -1.0 };
            (v(s * e.exp2()), 0)
        }
        "log1p" => {
            let e = rng.uniform(-30.0, 10.0);
            let x = if rng.bits() & 1 == 0 {
                e.exp2()
            } else {
                -(e.min(-0.0001).exp2())
            };
            (v(x), 0)
        }
        "pow" | "powr" => {
            let x = f32::from_bits(pos(rng));
            let t = rng.uniform(-155.0, 130.0);
            let l = (ftz(x) as f64).log2();
            let y = if l == 0.0 || !l.is_finite() { t } else { t / l };
            let neg_int = f.name == "pow" && rng.bits().is_multiple_of(4);
            if neg_int {
                let yi = y.round().clamp(-1e9, 1e9);
                return ((-x).to_bits(), v(yi));
            }
            (x.to_bits(), v(y))
        }
        "pown" => {
            let x = f32::from_bits(rng.bits());
            let t = rng.uniform(-150.0, 127.0);
            let l = (ftz(x) as f64).abs().log2();
            let n = if l == 0.0 || !l.is_finite() { t } else { t / l };
            (x.to_bits(), n.round().clamp(-2e9, 2e9) as i32 as u32)
        }
        "rootn" => {
            let n = match rng.bits() % 4 {
                0 => rng.bits() as i32,
                _ => rng.uniform(-12.0, 12.0) as i32,
            };
            (rng.bits(), n as u32)
        }
        "hypot" => {
            let x = rng.bits();
            let d = (rng.uniform(-30.0, 30.0) as i32) << 23;
            (x, (x & 0x7fff_ffff).wrapping_add(d as u32) & 0x7fff_ffff)
        }
        "sin" | "cos" | "tan" | "sincos" | "sincos_cos" => match rng.bits() % 3 {
            0 => (v(rng.uniform(-10.0, 10.0)), 0),
            // Next to a multiple of pi/2 (the reduction's cancellation).
            1 => {
                let k = (rng.bits() % (1 << 22)) as f64;
                let b = v(k * std::f64::consts::FRAC_PI_2);
                (b.wrapping_add(rng.bits() % 5).wrapping_sub(2), 0)
            }
            _ => (rng.bits(), 0),
        },
        "sinpi" | "cospi" | "tanpi" => match rng.bits() % 3 {
            0 => (v(rng.uniform(-4.0, 4.0)), 0),
            1 => (v((rng.uniform(-1e6, 1e6) * 4.0).round() / 4.0), 0),
            _ => (
                v(rng.uniform(-1.0, 1.0) * rng.uniform(-40.0, 30.0).exp2()),
                0,
            ),
        },
        "asin" | "acos" | "asinpi" | "acospi" => match rng.bits() % 3 {
            0 => (v(rng.uniform(-1.0, 1.0)), 0),
            1 => {
                let x = 1.0 - rng.uniform(-24.0, -1.0).exp2();
                (v(if rng.bits() & 1 == 0 { x } else { -x }), 0)
            }
            _ => (
                v(rng.uniform(-1.0, 1.0) * rng.uniform(-40.0, 0.0).exp2()),
                0,
            ),
        },
        "atan" | "atanpi" | "asinh" | "sinh" | "tanh" | "cosh" | "atanh" => {
            let (lo, hi) = match f.name {
                "atan" | "atanpi" | "asinh" => (-40.0, 60.0),
                "sinh" | "cosh" => (-30.0, 6.5),
                "tanh" => (-30.0, 4.0),
                _ => (-30.0, 0.0),
            };
            let m = rng.uniform(lo, hi).exp2();
            let m = if f.name == "atanh" && rng.bits().is_multiple_of(2) {
                1.0 - m.min(0.5)
            } else {
                m
            };
            (v(if rng.bits() & 1 == 0 { m } else { -m }), 0)
        }
        "acosh" => (v(1.0 + rng.uniform(-24.0, 40.0).exp2()), 0),
        "atan2" | "atan2pi" => {
            let s = |r: &mut Rng| if r.bits() & 1 == 0 { 1.0 } else { -1.0 };
            let y = s(rng) * rng.uniform(-60.0, 60.0).exp2();
            let x = s(rng) * rng.uniform(-60.0, 60.0).exp2();
            (v(y), v(x))
        }
        "erf" | "erfc" => {
            let m = rng.uniform(-20.0, 3.5).exp2();
            (v(if rng.bits() & 1 == 0 { m } else { -m }), 0)
        }
        "tgamma" | "lgamma" => match rng.bits() % 3 {
            // Where tgamma is finite, and its small arguments.
            0 => (v(rng.uniform(-42.0, 36.0)), 0),
            1 => {
                let m = rng.uniform(-30.0, 5.0).exp2();
                (v(if rng.bits() & 1 == 0 { m } else { -m }), 0)
            }
            _ => (v(rng.uniform(-30.0, 120.0).exp2()), 0),
        },
        "fmod" | "remainder" | "remquo" | "remquo_quo" => {
            let x = rng.bits();
            let d = (rng.bits() % 40) << 23;
            (
                x,
                (x & 0x7fff_ffff).wrapping_sub(d) ^ (rng.bits() & 0x807f_ffff),
            )
        }
        _ => (pos(rng), rng.bits()),
    }
}

/// The largest error of `f` in ulps over `inputs`, with the worst input and its result.
pub fn measure(f: &Func, a: &[u32], b: &[u32], c: &[u32]) -> (f64, (u32, u32, u32)) {
    let k = kernel_of(f.name, f.arity);
    let got = run_kernel(&k, a, b, c);
    let mut worst = (0.0, (0, 0, 0));
    for i in 0..a.len() {
        let x = ftz(f32::from_bits(a[i])) as f64;
        let y = match f.arity {
            Arity::One => 0.0,
            Arity::Two | Arity::Three => ftz(f32::from_bits(b[i])) as f64,
            Arity::FloatInt => b[i] as i32 as f64,
        };
        let want = match f.arity {
            Arity::Three => (f.reference3)(x, y, ftz(f32::from_bits(c[i])) as f64),
            _ => (f.reference)(x, y),
        };
        let e = if f.floor > 0.0 && want.abs() < f.floor {
            // In ulps of `floor`: the absolute error.
            let g = f32::from_bits(got[i]) as f64;
            if g.is_nan() || want.is_nan() {
                ulp_error(g as f32, want)
            } else {
                (g - want).abs() / 2f64.powf(f.floor.log2().floor() - 23.0)
            }
        } else {
            ulp_error(f32::from_bits(got[i]), want)
        };
        if e > worst.0 || e.is_nan() {
            worst = (e, (a[i], *b.get(i).unwrap_or(&0), got[i]));
        }
    }
    (worst.0, worst.1)
}
