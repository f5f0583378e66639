//! The exact float built-ins and conversions of `lower::builtins::float_exact`, run by the IR
//! interpreter as lowered and after the pass pipeline, against references written here with
//! Rust's own `f32`/`f64`/`i128` arithmetic (exact: `f32::floor`, `as` casts, ...), wrapped in
//! the device's float semantics (a denormal argument is a zero of its sign, a denormal result
//! is flushed, a NaN result is canonical): special values, halfway cases, values around 2^23
//! and the integer limits, and seeded random bit patterns.

mod common;

use hls_ir::interp::run;
use hls_ir::Kernel;

const CANONICAL_NAN: u32 = 0x7fc0_0000;

/// A denormal as a zero of its sign.
fn flush(b: u32) -> u32 {
    if b & 0x7f80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

/// A float argument as the device reads it.
fn arg(b: u32) -> f32 {
    f32::from_bits(flush(b))
}

/// A float result as the device delivers it.
fn out(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        flush(x.to_bits())
    }
}

/// SplitMix64.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Float arguments: special values, halfway cases, neighbours of powers of two and of the
/// integer limits, random bit patterns and random values of moderate size.
fn float_cases(rng: &mut Rng, random: usize) -> Vec<u32> {
    let mut v: Vec<u32> = vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x807f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0xff8a_bcde,
        0x7f7f_ffff,
        0xff7f_ffff,
    ];
    let specials: [f32; 30] = [
        0.5,
        1.5,
        2.5,
        3.5,
        0.25,
        0.75,
        1.0,
        2.0,
        0.49999997,
        0.50000006,
        0.99999994,
        1.0000001,
        8388607.5,
        8388608.0,
        8388609.0,
        16777215.0,
        16777216.0,
        4194303.5,
        4194304.5,
        23.5,
        23.67,
        123.456,
        2147483520.0,
        2147483648.0,
        4294967040.0,
        4294967296.0,
        127.5,
        128.5,
        255.5,
        1e30,
    ];
    for s in specials {
        for x in [s, -s] {
            v.push(x.to_bits());
            v.push(x.to_bits() + 1);
            v.push(x.to_bits() - 1);
        }
    }
    for e in 0..=255u32 {
        v.push(e << 23);
        v.push((e << 23) | 0x8000_0000 | 0x007f_ffff);
        v.push((e << 23) | 0x0040_0000);
    }
    for i in 0..random {
        let r = rng.next();
        let b = if i % 2 == 0 {
            r as u32
        } else {
            // |x| between 2^-4 and 2^40
            let e = 123 + (r >> 40) as u32 % 44;
            ((r as u32) & 0x807f_ffff) | (e << 23)
        };
        v.push(b);
    }
    v
}

/// Runs the kernel `src` (argument buffers `a`, `b` of 4-byte elements, output `o` of
/// `out_bytes` a work-item) on `n` work-items as lowered and after the passes; returns the
/// output bytes of both.
fn run_both(src: &str, a: &[u8], b: &[u8], out_bytes: usize, n: usize) -> Vec<Vec<u8>> {
    let lowered = common::lower(src);
    let mut passed = lowered.clone();
    hls_ir::passes::run_pipeline(&mut passed, true, None, &mut |_, _| {}).unwrap();
    let base = [0x10_0000u32, 0x40_0000, 0x80_0000];
    let bufs = vec![
        (base[0], a.to_vec()),
        (base[1], b.to_vec()),
        (base[2], vec![0u8; n * out_bytes]),
    ];
    [&lowered, &passed]
        .iter()
        .map(|k| {
            let mut launch = common::launch_of(
                base.iter().map(|&b| u64::from(b)).collect(),
                bufs.clone(),
                n as u32,
            );
            launch.max_steps = 1 << 26;
            let res = run(k as &Kernel, &launch).unwrap();
            res.into_iter().find(|(b, _)| *b == base[2]).unwrap().1
        })
        .collect()
}

fn le32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// `o[i] = f(a[i], b[i])` on floats (`b` a float or an `int`), compared with `reference`.
fn check_float_fn(f: &str, call: &str, b_ty: &str, args: &[(u32, u32)], reference: Reference) {
    let src = format!(
        "kernel void k(global const float *a, global const {b_ty} *b, global float *o) \
         {{ int i = get_global_id(0); o[i] = {call}; }}"
    );
    let a: Vec<u32> = args.iter().map(|p| p.0).collect();
    let b: Vec<u32> = args.iter().map(|p| p.1).collect();
    for (stage, o) in ["lowered", "after the passes"].iter().zip(run_both(
        &src,
        &le32(&a),
        &le32(&b),
        4,
        args.len(),
    )) {
        for (i, &(x, y)) in args.iter().enumerate() {
            let got = u32::from_le_bytes(o[i * 4..i * 4 + 4].try_into().unwrap());
            let want = reference(x, y);
            assert_eq!(
                got, want,
                "{f} ({stage}) of ({x:#010x}, {y:#010x}) = {got:#010x}, want {want:#010x}"
            );
        }
    }
}

/// A reference function of two argument bit patterns.
type Reference = fn(u32, u32) -> u32;

fn unary_cases() -> Vec<(u32, u32)> {
    let mut rng = Rng(0xf1_0a7);
    float_cases(&mut rng, 2500)
        .into_iter()
        .map(|x| (x, 0))
        .collect()
}

#[test]
fn rounding_to_integers() {
    let cases = unary_cases();
    let table: [(&str, Reference); 5] = [
        ("floor", |x, _| out(arg(x).floor())),
        ("ceil", |x, _| out(arg(x).ceil())),
        ("trunc", |x, _| out(arg(x).trunc())),
        ("round", |x, _| out(arg(x).round())),
        ("rint", |x, _| out(arg(x).round_ties_even())),
    ];
    for (f, r) in table {
        check_float_fn(f, &format!("{f}(a[i])"), "float", &cases, r);
    }
}

#[test]
fn sign_difference_and_exponent_functions() {
    let mut rng = Rng(0xb175);
    let xs = float_cases(&mut rng, 1200);
    let ys = float_cases(&mut rng, 1200);
    let pairs: Vec<(u32, u32)> = xs.iter().copied().zip(ys.iter().rev().copied()).collect();
    check_float_fn(
        "copysign",
        "copysign(a[i], b[i])",
        "float",
        &pairs,
        |x, y| out(arg(x).copysign(f32::from_bits(y))),
    );
    // fdim's pairs also compare values close to each other.
    let mut close = pairs.clone();
    close.extend(xs.iter().map(|&x| (x, x ^ 1)));
    close.extend(xs.iter().map(|&x| (x, x)));
    check_float_fn("fdim", "fdim(a[i], b[i])", "float", &close, |x, y| {
        let (x, y) = (arg(x), arg(y));
        if x.is_nan() || y.is_nan() {
            CANONICAL_NAN
        } else if x > y {
            out(x - y)
        } else {
            0
        }
    });
    check_float_fn("logb", "logb(a[i])", "float", &unary_cases(), |x, _| {
        let x = arg(x);
        out(if x.is_nan() {
            x
        } else if x == 0.0 {
            f32::NEG_INFINITY
        } else if x.is_infinite() {
            f32::INFINITY
        } else {
            f64::from(x.abs()).log2().floor() as f32
        })
    });
}

#[test]
fn ldexp_scales_by_powers_of_two() {
    let mut rng = Rng(0x1d_e8);
    let xs = float_cases(&mut rng, 1000);
    let mut ns: Vec<i32> = vec![
        0, 1, -1, 2, -2, 23, -23, 24, 126, -126, 127, -127, 128, -128,
    ];
    ns.extend([
        149, -149, 150, -150, 253, -253, 254, -254, 300, -300, 1000, -1000,
    ]);
    ns.extend([i32::MAX, i32::MIN, i32::MAX - 1, i32::MIN + 1]);
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let n = if i % 3 == 0 {
            ns[i % ns.len()]
        } else {
            (rng.next() % 600) as i32 - 300
        };
        pairs.push((x, n as u32));
    }
    // Results just below 2^-126 (round up to it or flush) and at the top of the range.
    for m in [0x007f_ffffu32, 0x007f_fffe, 0x0040_0000, 0] {
        for (e, n) in [
            (127u32, -126i32),
            (127, -127),
            (100, -99),
            (100, -100),
            (127, 127),
            (127, 128),
            (200, 54),
            (200, 55),
        ] {
            for s in [0, 0x8000_0000] {
                pairs.push((s | (e << 23) | m, n as u32));
            }
        }
    }
    check_float_fn("ldexp", "ldexp(a[i], b[i])", "int", &pairs, |x, n| {
        let x = arg(x);
        let n = (n as i32).clamp(-1000, 1000);
        // exact in f64 (2^n and the product stay inside f64's normal range), rounded once.
        out((f64::from(x) * 2f64.powi(n)) as f32)
    });
}

/// The integer types of OpenCL C: name, bits, signed.
const INTS: [(&str, u32, bool); 8] = [
    ("char", 8, true),
    ("uchar", 8, false),
    ("short", 16, true),
    ("ushort", 16, false),
    ("int", 32, true),
    ("uint", 32, false),
    ("long", 64, true),
    ("ulong", 64, false),
];

fn int_range(bits: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

#[test]
fn float_to_integer_conversions_in_every_mode() {
    let mut rng = Rng(0xc0_4e47);
    let mut xs = float_cases(&mut rng, 300);
    // Around each type's limits.
    for (_, bits, signed) in INTS {
        let (lo, hi) = int_range(bits, signed);
        for v in [lo, hi, lo - 1, hi + 1, hi / 2] {
            let f = v as f32;
            xs.extend([
                f.to_bits(),
                f.to_bits() + 1,
                f.to_bits().wrapping_sub(1),
                (f + 0.5).to_bits(),
            ]);
        }
    }
    let a = le32(&xs);
    for (t, (name, bits, signed)) in INTS.into_iter().enumerate() {
        for (m, mode) in ["", "_rte", "_rtz", "_rtp", "_rtn"].into_iter().enumerate() {
            // `_sat` on every other (type, mode): both forms meet every type and mode.
            for sat in [["", "_sat"][(t + m) % 2]] {
                let src = format!(
                    "kernel void k(global const float *a, global const float *b, global {name} *o) \
                     {{ int i = get_global_id(0); o[i] = convert_{name}{sat}{mode}(a[i]); }}"
                );
                let nb = (bits / 8) as usize;
                for o in run_both(&src, &a, &a, nb, xs.len()) {
                    for (i, &x) in xs.iter().enumerate() {
                        let mut got = [0u8; 8];
                        got[..nb].copy_from_slice(&o[i * nb..(i + 1) * nb]);
                        let got = u64::from_le_bytes(got);
                        let f = f64::from(arg(x));
                        let r = match mode {
                            "_rte" => f.round_ties_even(),
                            "_rtp" => f.ceil(),
                            "_rtn" => f.floor(),
                            _ => f.trunc(),
                        };
                        let (lo, hi) = int_range(bits, signed);
                        // NaN -> 0 (Rust's `as`), saturating (`_sat`; undefined without it, the same here).
                        let v = (r as i128).clamp(lo, hi);
                        let want = (v as u64) & (u64::MAX >> (64 - bits));
                        assert_eq!(got, want, "convert_{name}{sat}{mode}({x:#010x})");
                    }
                }
            }
        }
    }
}

/// `v` (exact) rounded to a float in `mode`: the nearest float, stepped once toward the mode
/// when it lies on the wrong side of `v`.
fn int_to_f32(v: i128, mode: &str) -> u32 {
    let near = v as f32;
    let nv = near as i128; // an integer (2^64 at most)
    let step = |f: f32, up: bool| -> u32 {
        // f is a nonzero float: the next one up (down) in value.
        let b = f.to_bits();
        if (f > 0.0) == up {
            b + 1
        } else {
            b - 1
        }
    };
    match mode {
        "_rtp" if nv < v => step(near, true),
        "_rtn" if nv > v => step(near, false),
        "_rtz" if nv.abs() > v.abs() => step(near, v < 0),
        _ => near.to_bits(),
    }
}

#[test]
fn integer_to_float_conversions_in_every_mode() {
    let mut rng = Rng(0x1_70f);
    for (name, bits, signed) in INTS {
        let (lo, hi) = int_range(bits, signed);
        let mut vs: Vec<i128> = vec![lo, hi, 0, 1, lo + 1, hi - 1, hi / 2, hi / 2 + 1];
        if signed {
            vs.extend([-1, -2, -3]);
        }
        // Around every power of two, and halfway cases above 2^24.
        for k in 0..bits {
            let p = 1i128 << k;
            for d in [-1, 0, 1] {
                vs.push(p + d);
                vs.push(-(p + d));
            }
            if k > 25 {
                let half = p + (1i128 << (k - 24));
                vs.extend([half, half + (1i128 << (k - 23)), -half, half - 1]);
            }
        }
        for _ in 0..400 {
            let r = rng.next() as i128;
            vs.push(r >> (rng.next() % u64::from(bits)));
        }
        let mask = (1u128 << bits) - 1;
        let vs: Vec<i128> = vs
            .into_iter()
            .map(|v| {
                let b = (v as u128) & mask;
                if signed && b >> (bits - 1) == 1 {
                    b as i128 - (1i128 << bits)
                } else {
                    b as i128
                }
            })
            .collect();
        let nb = (bits / 8) as usize;
        let a: Vec<u8> = vs
            .iter()
            .flat_map(|&v| (v as u128).to_le_bytes()[..nb].to_vec())
            .collect();
        for mode in ["", "_rte", "_rtz", "_rtp", "_rtn"] {
            let src = format!(
                "kernel void k(global const {name} *a, global const {name} *b, global float *o) \
                 {{ int i = get_global_id(0); o[i] = convert_float{mode}(a[i]); }}"
            );
            for o in run_both(&src, &a, &a, 4, vs.len()) {
                for (i, &v) in vs.iter().enumerate() {
                    let got = u32::from_le_bytes(o[i * 4..i * 4 + 4].try_into().unwrap());
                    let want = int_to_f32(v, mode);
                    assert_eq!(got, want, "convert_float{mode}(({name}){v})");
                }
            }
        }
    }
}

#[test]
fn vectors_and_float_identity() {
    // float4 lanes through a vector kernel: floor, ldexp by a scalar `int`, convert_int4_rtn
    // and the float -> float conversion (flush, canonical NaN).
    let mut rng = Rng(0x4ec);
    let xs = float_cases(&mut rng, 200);
    let n = xs.len() / 4;
    let xs = &xs[..n * 4];
    let a = le32(xs);
    let src = "kernel void k(global const float4 *a, global const float4 *b, global int4 *o) \
               { int i = get_global_id(0); o[i] = convert_int4_rtn(a[i]) ^ as_int4(floor(a[i])) \
                 ^ as_int4(convert_float4_rtp(a[i])) ^ as_int4(ldexp(a[i], 3)); }";
    for o in run_both(src, &a, &a, 16, n) {
        for (i, &x) in xs.iter().enumerate() {
            let got = u32::from_le_bytes(o[i * 4..i * 4 + 4].try_into().unwrap());
            let f = arg(x);
            let conv = if f.is_nan() {
                0
            } else {
                f64::from(f).floor().clamp(i32::MIN as f64, i32::MAX as f64) as i32 as u32
            };
            let scaled = out((f64::from(f) * 8.0) as f32);
            let want = conv ^ out(f.floor()) ^ out(f) ^ scaled;
            assert_eq!(got, want, "lane {i}: {x:#010x}");
        }
    }
}

/// `double` builds nowhere in hardware: each use is a diagnostic at its line, never a panic.
#[test]
fn double_precision_is_a_diagnostic() {
    use frontend::span::SourceMap;
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
               kernel void k(global double *o, global long *l) {\n\
               o[0] = floor(o[1]);\n\
               l[0] = convert_long_rtp(o[2]);\n\
               o[3] = convert_double_rtz(l[1]);\n}\n";
    let mut sm = SourceMap::new();
    let f = sm.add_file("k.cl", src);
    let opts = frontend::Options {
        fp64: true,
        ..Default::default()
    };
    let (p, _) = frontend::compile(&mut sm, f, &opts).unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    let text = frontend::render(&sm, &d, false);
    assert!(text.contains("`floor` on `double`"), "{text}");
    assert!(
        text.contains("conversion from `double` to `long`"),
        "{text}"
    );
    assert!(
        text.contains("conversion from `long` to `double`"),
        "{text}"
    );
    assert!(text.contains("k.cl:3:"), "{text}");
}

/// OpenCL `fmax`/`fmin` on device-read arguments: the other one when one is NaN, `x` on a tie.
fn fmax_ref(x: f32, y: f32, max: bool) -> f32 {
    let take_y = if max { x < y } else { y < x };
    if x.is_nan() || take_y {
        y
    } else {
        x
    }
}

#[test]
fn magnitudes_neighbours_and_exponents() {
    let mut rng = Rng(0x4a6);
    let xs = float_cases(&mut rng, 1200);
    let ys = float_cases(&mut rng, 1200);
    let mut pairs: Vec<(u32, u32)> = xs.iter().copied().zip(ys.iter().rev().copied()).collect();
    // Equal magnitudes of either sign, and neighbours.
    pairs.extend(xs.iter().map(|&x| (x, x ^ 0x8000_0000)));
    pairs.extend(xs.iter().map(|&x| (x, x)));
    pairs.extend(xs.iter().map(|&x| (x, x.wrapping_add(1))));
    for max in [true, false] {
        let f = if max { "maxmag" } else { "minmag" };
        let r: Reference = if max {
            |x, y| {
                let (x, y) = (arg(x), arg(y));
                out(if x.abs() > y.abs() {
                    x
                } else if y.abs() > x.abs() {
                    y
                } else {
                    fmax_ref(x, y, true)
                })
            }
        } else {
            |x, y| {
                let (x, y) = (arg(x), arg(y));
                out(if x.abs() < y.abs() {
                    x
                } else if y.abs() < x.abs() {
                    y
                } else {
                    fmax_ref(x, y, false)
                })
            }
        };
        check_float_fn(f, &format!("{f}(a[i], b[i])"), "float", &pairs, r);
    }
    check_float_fn(
        "nextafter",
        "nextafter(a[i], b[i])",
        "float",
        &pairs,
        |x, y| {
            let (x, y) = (arg(x), arg(y));
            out(if x.is_nan() || y.is_nan() {
                f32::NAN
            } else if x == y {
                y
            } else if x < y {
                x.next_up()
            } else {
                x.next_down()
            })
        },
    );
    check_float_fn(
        "ilogb",
        "as_float(ilogb(a[i]))",
        "float",
        &unary_cases(),
        |x, _| {
            let x = arg(x);
            let v = if x.is_nan() || x.is_infinite() {
                i32::MAX
            } else if x == 0.0 {
                i32::MIN
            } else {
                f64::from(x.abs()).log2().floor() as i32
            };
            v as u32
        },
    );
}

/// `o[2i] = f(a[i], p)`, `o[2i + 1] = *p` for `fract`, `modf` (float second results) and
/// `frexp` (an `int`), with `p` pointing to a private variable or into global memory.
fn check_two_results(f: &str, second_ty: &str, xs: &[u32], reference: fn(u32) -> (u32, u32)) {
    let a = le32(xs);
    let private = format!(
        "kernel void k(global const float *a, global const float *b, global uint *o) \
         {{ int i = get_global_id(0); {second_ty} s; \
            o[2 * i] = as_uint({f}(a[i], &s)); o[2 * i + 1] = as_uint(s); }}"
    );
    let global = format!(
        "kernel void k(global const float *a, global {second_ty} *b, global uint *o) \
         {{ int i = get_global_id(0); o[2 * i] = as_uint({f}(a[i], b + i)); \
            o[2 * i + 1] = as_uint(b[i]); }}"
    );
    for src in [private, global] {
        for o in run_both(&src, &a, &a, 8, xs.len()) {
            for (i, &x) in xs.iter().enumerate() {
                let word = |j: usize| u32::from_le_bytes(o[j * 4..j * 4 + 4].try_into().unwrap());
                let got = (word(2 * i), word(2 * i + 1));
                let want = reference(x);
                assert_eq!(got, want, "{f}({x:#010x}): got {got:#x?}, want {want:#x?}");
            }
        }
    }
}

#[test]
fn fract_modf_and_frexp_write_their_second_result() {
    let mut rng = Rng(0xf4ac7);
    let xs = float_cases(&mut rng, 1200);
    check_two_results("fract", "float", &xs, |b| {
        let x = arg(b);
        let fl = x.floor();
        let r = if x.is_nan() {
            f32::NAN
        } else if x.is_infinite() || x == 0.0 {
            0f32.copysign(x)
        } else {
            (x - fl).min(f32::from_bits(0x3f7f_ffff))
        };
        (out(r), out(fl))
    });
    check_two_results("modf", "float", &xs, |b| {
        let x = arg(b);
        let t = x.trunc();
        let r = if x.is_infinite() {
            0f32.copysign(x)
        } else {
            (x - t).copysign(x)
        };
        (out(r), out(t))
    });
    check_two_results("frexp", "int", &xs, |b| {
        let x = arg(b);
        if x == 0.0 || !x.is_finite() {
            return (out(x), 0);
        }
        let mut e = f64::from(x.abs()).log2().floor() as i32 + 1;
        while f64::from(x.abs()) * 2f64.powi(-e) >= 1.0 {
            e += 1;
        }
        while f64::from(x.abs()) * 2f64.powi(-e) < 0.5 {
            e -= 1;
        }
        (out((f64::from(x) * 2f64.powi(-e)) as f32), e as u32)
    });
}
