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
}

/// A function under test: its name, arity, double reference and the spec's bound in ulps.
pub struct Func {
    pub name: &'static str,
    pub arity: Arity,
    pub reference: fn(f64, f64) -> f64,
    pub bound: f64,
}

/// Every function built, priority order; bounds of the full profile (OpenCL C 1.2 §7.4).
pub fn functions() -> Vec<Func> {
    use Arity::*;
    let f = |name, arity, reference, bound| Func {
        name,
        arity,
        reference,
        bound,
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
    ]
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
pub fn kernel_of(name: &str, arity: Arity) -> Kernel {
    let call = match arity {
        Arity::One => format!("{name}(a[i])"),
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
    };
    let src = format!(
        "kernel void k(global float *o, global const float *a{b}) {{ size_t i = get_global_id(0); o[i] = {expr}; }}"
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
    };
    let k = kernel_of(f.name, f.arity).op_ids().len();
    k + base_ops - kernel_of_expr(base, f.arity).op_ids().len()
}

/// Runs kernel `k` on the inputs (`b` as float or int bits) and returns the outputs.
pub fn run_kernel(k: &Kernel, a: &[u32], b: &[u32]) -> Vec<u32> {
    let n = a.len();
    let bytes = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (o_addr, a_addr, b_addr) = (0x10_0000u32, 0x100_0000u32, 0x200_0000u32);
    let mut buffers = vec![(o_addr, vec![0u8; 4 * n]), (a_addr, bytes(a))];
    let mut args = vec![o_addr as u64, a_addr as u64];
    if !b.is_empty() {
        buffers.push((b_addr, bytes(b)));
        args.push(b_addr as u64);
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
/// domain, and random values where the result is finite and non-trivial; `n` in all.
pub fn inputs(f: &Func, n: usize, rng: &mut Rng) -> (Vec<u32>, Vec<u32>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let two = f.arity != Arity::One;
    let int_b = f.arity == Arity::FloatInt;
    for &x in &SPECIALS {
        if two {
            for &y in &SPECIALS {
                a.push(x.to_bits());
                b.push(if int_b {
                    (y as i32) as u32
                } else {
                    y.to_bits()
                });
            }
        } else {
            a.push(x.to_bits());
        }
    }
    while a.len() < n {
        let (x, y) = sample(f, rng, a.len() % 4 == 0);
        a.push(x);
        if two {
            b.push(y);
        }
    }
    (a, b)
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
        _ => (pos(rng), rng.bits()),
    }
}

/// The largest error of `f` in ulps over `inputs`, with the worst input and its result.
pub fn measure(f: &Func, a: &[u32], b: &[u32]) -> (f64, (u32, u32, u32)) {
    let k = kernel_of(f.name, f.arity);
    let got = run_kernel(&k, a, b);
    let mut worst = (0.0, (0, 0, 0));
    for i in 0..a.len() {
        let x = ftz(f32::from_bits(a[i])) as f64;
        let y = match f.arity {
            Arity::One => 0.0,
            Arity::Two => ftz(f32::from_bits(b[i])) as f64,
            Arity::FloatInt => b[i] as i32 as f64,
        };
        let want = (f.reference)(x, y);
        let e = ulp_error(f32::from_bits(got[i]), want);
        if e > worst.0 || e.is_nan() {
            worst = (e, (a[i], *b.get(i).unwrap_or(&0), got[i]));
        }
    }
    (worst.0, worst.1)
}
