//! Random kernels ([`generate`]): the language the hardware path builds today — integer
//! scalars and 2/4-vectors, wrapping arithmetic, masked shifts, guarded division, comparisons,
//! `?:`, `if`/`else`, casts and `convert_`/`as_` conversions, integer built-ins, bounded `for`
//! loops (nested at most twice), private arrays with masked indices, a local exchange across a
//! barrier, order-independent atomics on global and local `uint` arrays, an atomic counter;
//! `float` scalars and vectors with `+ - * /`, comparisons, `fmin`/`fmax`/`fabs`/`sqrt`,
//! conversions to and from the integers and `as_` reinterpretation (special values
//! included: NaNs, infinities, signed zeros, denormals).
//!
//! Some NDRange kernels also write each work-item's `out0` value into a pipe read by a second
//! kernel, `sink` (blocking built-ins, the portable retry loops or reservations retried until
//! valid, on both sides; a capacity of 2 to 8 packets, the fewest a hardware FIFO holds being
//! 2), run together as a multi-kernel test.

use crate::ast::*;
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};

/// A variable in scope.
#[derive(Clone)]
struct Var {
    name: String,
    ty: Ty,
    /// Loop counters and the loaded inputs are never assigned.
    mutable: bool,
}

struct Gen<'r> {
    r: &'r mut StdRng,
    scopes: Vec<Vec<Var>>,
    /// Private arrays in scope: (name, element type, length).
    arrays: Vec<Vec<(String, Ty, u32)>>,
    next: u32,
    loops: u32,
    /// Whether `break` is allowed, per enclosing loop (not in `#pragma unroll` loops).
    breakable: Vec<bool>,
    acc: Option<u32>,
    counter: bool,
    /// A counter is only incremented or only decremented in a kernel (the front end's rule).
    counter_inc: bool,
    hist: Option<u32>,
    /// The family of atomic functions used on `acc` and on `lh`: only operations of one family
    /// commute, so only then is the final value independent of the order of the work-items.
    families: [&'static [AtomicOp]; 2],
    /// Statements still to generate (bounds the kernel's size).
    budget: i32,
}

/// A random element type: an integer, or (one time in eight) `float`.
pub fn random_ty(r: &mut StdRng) -> Ty {
    let s = if r.random_range(0..8) == 0 {
        Scalar::Float
    } else {
        SCALARS[r.random_range(0..SCALARS.len())]
    };
    let lanes = match r.random_range(0..10) {
        0..=5 => 1,
        6..=7 => 2,
        _ => 4,
    };
    Ty { s, lanes }
}

/// A random integer scalar type (indices, atomics' operands).
fn random_int(r: &mut StdRng) -> Ty {
    Ty::scalar(SCALARS[r.random_range(0..SCALARS.len())])
}

/// Interesting `float` bit patterns: ±0, ±1, 0.5, 3, ±inf, NaN, the largest value, the
/// smallest normal and a denormal (the device flushes denormal operands and results).
pub const FLOAT_SPECIALS: [u64; 12] = [
    0,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0x4040_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f7f_ffff,
    0x0080_0000,
    0x0000_0001,
];

/// A `float` lane: a special value, a small integer, or a random bit pattern.
pub fn float_bits(r: &mut StdRng) -> u64 {
    match r.random_range(0..10) {
        0..=3 => FLOAT_SPECIALS[r.random_range(0..FLOAT_SPECIALS.len())],
        4..=6 => u64::from((r.random_range(-20i32..=20) as f32).to_bits()),
        _ => u64::from(r.next_u32()),
    }
}

/// An interesting bit pattern for a lane of `s`.
fn lit_bits(r: &mut StdRng, s: Scalar) -> u64 {
    if s.is_float() {
        return float_bits(r);
    }
    let top = 1u64 << (s.bits() - 1);
    match r.random_range(0..10) {
        0 => 0,
        1 => 1,
        2 => u64::MAX,
        3 => top,
        4 => top - 1,
        5..=7 => r.random_range(0..16),
        _ => r.next_u64(),
    }
}

pub fn generate(r: &mut StdRng) -> Kernel {
    let ninputs = r.random_range(1..=3);
    let inputs: Vec<Ty> = (0..ninputs).map(|_| random_ty(r)).collect();
    let acc = r.random_bool(0.3).then(|| 1 << r.random_range(0..=3));
    let counter = r.random_bool(0.2);
    let wg = r.random_bool(0.3);
    let size = 1 << r.random_range(1..=4);
    let hist = wg && r.random_bool(0.5);
    let counter_inc = r.random_bool(0.7);
    let mut g = Gen {
        r,
        scopes: vec![Vec::new()],
        arrays: vec![Vec::new()],
        next: 0,
        loops: 0,
        breakable: Vec::new(),
        acc,
        counter,
        counter_inc,
        hist: hist.then_some(size),
        families: [FAMILIES[0], FAMILIES[0]],
        budget: 0,
    };
    g.budget = g.r.random_range(4..=18);
    for f in &mut g.families {
        *f = FAMILIES[g.r.random_range(0..FAMILIES.len())];
    }
    for (i, t) in inputs.iter().enumerate() {
        g.scopes[0].push(Var {
            name: format!("a{i}"),
            ty: *t,
            mutable: false,
        });
    }
    g.scopes[0].push(Var {
        name: "n".into(),
        ty: Ty::scalar(Scalar::UInt),
        mutable: false,
    });
    g.scopes[0].push(Var {
        name: "gid".into(),
        ty: Ty::scalar(Scalar::UInt),
        mutable: false,
    });
    let group = if wg {
        let t = random_ty(g.r);
        let x = g.expr(t, 2);
        let off = g.r.random_range(1..size.max(2));
        g.scopes[0].push(Var {
            name: "lid".into(),
            ty: Ty::scalar(Scalar::UInt),
            mutable: false,
        });
        g.scopes[0].push(Var {
            name: "xchg".into(),
            ty: t,
            mutable: false,
        });
        let copy = g.r.random_bool(0.4).then(|| g.r.random_range(0..size));
        if copy.is_some() {
            g.scopes[0].push(Var {
                name: "cin".into(),
                ty: inputs[0],
                mutable: false,
            });
        }
        Some(Group {
            size,
            x,
            off,
            hist,
            copy,
        })
    } else {
        None
    };
    let mut body = Vec::new();
    while g.budget > 0 {
        let s = g.stmt(0);
        body.push(s);
    }
    // Outputs read scalars and vectors only: with local atomics they run after the second
    // barrier, where private arrays may not be used.
    g.arrays = vec![Vec::new()];
    let nout = g.r.random_range(1..=2);
    let outputs = (0..nout)
        .map(|_| {
            let t = random_ty(g.r);
            (t, g.expr(t, 3))
        })
        .collect();
    // Drawn from a generator of its own, so that the kernels and test inputs of earlier
    // generator versions stay as they were (only a pipe is added to some).
    let mut pr = StdRng::seed_from_u64(g.r.clone().next_u64() ^ 0x9e37_79b9_7f4a_7c15);
    let pipe = (group.is_none() && pr.random_bool(0.2)).then(|| {
        let mut form =
            || [PipeForm::Block, PipeForm::Retry, PipeForm::Reserve][pr.random_range(0..3)];
        let (write, read) = (form(), form());
        PipeOut {
            write,
            read,
            capacity: pr.random_range(2..=8),
        }
    });
    Kernel {
        inputs,
        outputs,
        acc,
        counter,
        group,
        pipe,
        body,
    }
}

impl Gen<'_> {
    fn fresh(&mut self, p: &str) -> String {
        self.next += 1;
        format!("{p}{}", self.next)
    }

    fn vars(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    fn pick_var(&mut self, f: impl Fn(&Var) -> bool) -> Option<Var> {
        let v: Vec<Var> = self.vars().filter(|v| f(v)).cloned().collect();
        (!v.is_empty()).then(|| v[self.r.random_range(0..v.len())].clone())
    }

    fn lit(&mut self, t: Ty) -> Expr {
        let lanes = (0..t.lanes).map(|_| lit_bits(self.r, t.s)).collect();
        Expr::Lit(t, lanes)
    }

    /// A variable or literal of type `t` (converting a variable of another type if needed).
    fn leaf(&mut self, t: Ty) -> Expr {
        if self.r.random_bool(0.25) {
            return self.lit(t);
        }
        if let Some(v) = self.pick_var(|v| v.ty == t) {
            if self.r.random_bool(0.7) {
                return Expr::Var(v.name, t);
            }
        }
        let lanes = t.lanes;
        match self.pick_var(|v| v.ty.lanes == lanes || v.ty.lanes == 1) {
            Some(v) if v.ty.lanes == lanes => Expr::Conv {
                e: Box::new(Expr::Var(v.name, v.ty)),
                to: t,
                sat: t.is_vec() && !t.s.is_float() && self.r.random_bool(0.3),
            },
            Some(v) if !t.is_vec() => Expr::Conv {
                e: Box::new(Expr::Var(v.name, v.ty)),
                to: t,
                sat: false,
            },
            Some(v) => {
                let s = Expr::Conv {
                    e: Box::new(Expr::Var(v.name, v.ty)),
                    to: Ty::scalar(t.s),
                    sat: false,
                };
                Expr::Build(vec![s; lanes as usize], t)
            }
            None => self.lit(t),
        }
    }

    /// A scalar leaf (for divisions, which print their operands twice).
    fn expr(&mut self, t: Ty, depth: u32) -> Expr {
        if depth == 0 || self.r.random_bool(0.2) {
            return self.leaf(t);
        }
        let d = depth - 1;
        let scalar = !t.is_vec();
        if t.s.is_float() {
            return self.float_expr(t, d);
        }
        match self.r.random_range(0..14) {
            0..=3 => {
                let op = [Bin::Add, Bin::Sub, Bin::Mul, Bin::And, Bin::Or, Bin::Xor]
                    [self.r.random_range(0..6)];
                Expr::Bin(op, Box::new(self.expr(t, d)), Box::new(self.expr(t, d)), t)
            }
            4 => {
                let left = self.r.random_bool(0.5);
                let masked =
                    t.is_vec() || t.s.bits() < 32 || t.s.signed() || self.r.random_bool(0.6);
                Expr::Shift {
                    left,
                    masked,
                    a: Box::new(self.expr(t, d)),
                    b: Box::new(self.expr(t, d)),
                    ty: t,
                }
            }
            5 if scalar => Expr::Div {
                rem: self.r.random_bool(0.5),
                a: Box::new(self.leaf(t)),
                b: Box::new(self.leaf(t)),
                ty: t,
            },
            6 if scalar && t.s == Scalar::Int => {
                let ct = random_ty(self.r);
                let ct = Ty::scalar(ct.s);
                let op = [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne]
                    [self.r.random_range(0..6)];
                Expr::Cmp(op, Box::new(self.expr(ct, d)), Box::new(self.expr(ct, d)))
            }
            6 | 7 => {
                let ct = Ty::scalar(random_ty(self.r).s);
                Expr::Cond(
                    Box::new(self.expr(ct, d)),
                    Box::new(self.expr(t, d)),
                    Box::new(self.expr(t, d)),
                    t,
                )
            }
            8 => {
                let mut from = random_ty(self.r);
                from.lanes = t.lanes;
                Expr::Conv {
                    e: Box::new(self.expr(from, d)),
                    to: t,
                    sat: t.is_vec() && self.r.random_bool(0.3),
                }
            }
            9 if t.s.bits() == 32 && self.r.random_bool(0.3) => {
                Expr::AsType(Box::new(self.expr(t.with(Scalar::Float), d)), t)
            }
            9 => {
                // as_T from the other signedness, or between scalar and vector of one size.
                let from = if t.s.signed() {
                    Ty {
                        s: t.s.unsigned(),
                        lanes: t.lanes,
                    }
                } else {
                    Ty {
                        s: signed_of(t.s),
                        lanes: t.lanes,
                    }
                };
                Expr::AsType(Box::new(self.expr(from, d)), t)
            }
            10 | 11 => self.call(t, d),
            12 if scalar => {
                let lanes = if self.r.random_bool(0.5) { 2 } else { 4 };
                let v = self.expr(Ty { s: t.s, lanes }, d);
                Expr::Lane(Box::new(v), self.r.random_range(0..lanes))
            }
            12 => {
                let parts = (0..t.lanes)
                    .map(|_| self.expr(Ty::scalar(t.s), d))
                    .collect();
                Expr::Build(parts, t)
            }
            _ => self.array_read(t, d).unwrap_or_else(|| self.leaf(t)),
        }
    }

    /// An expression of `float` type `t` (operands at depth `d`).
    fn float_expr(&mut self, t: Ty, d: u32) -> Expr {
        match self.r.random_range(0..12) {
            0..=3 => {
                let op = [Bin::Add, Bin::Sub, Bin::Mul][self.r.random_range(0..3)];
                Expr::Bin(op, Box::new(self.expr(t, d)), Box::new(self.expr(t, d)), t)
            }
            4 if !t.is_vec() => Expr::Div {
                rem: false,
                a: Box::new(self.leaf(t)),
                b: Box::new(self.leaf(t)),
                ty: t,
            },
            4 | 5 => {
                let fs = [
                    Func::Fmin,
                    Func::Fmax,
                    Func::Fabs,
                    Func::Sqrt,
                    Func::Sign,
                    Func::Step,
                ];
                let f = fs[self.r.random_range(0..fs.len())];
                let n = if f.unary() { 1 } else { 2 };
                let args = (0..n).map(|_| self.expr(t, d)).collect();
                Expr::Call(f, args, t)
            }
            6 => {
                let ct = Ty::scalar(random_ty(self.r).s);
                Expr::Cond(
                    Box::new(self.expr(ct, d)),
                    Box::new(self.expr(t, d)),
                    Box::new(self.expr(t, d)),
                    t,
                )
            }
            7 => {
                // From an integer (rounded to nearest even).
                let from = t.with(random_int(self.r).s);
                Expr::Conv {
                    e: Box::new(self.expr(from, d)),
                    to: t,
                    sat: false,
                }
            }
            8 => {
                let s = if self.r.random_bool(0.5) {
                    Scalar::UInt
                } else {
                    Scalar::Int
                };
                Expr::AsType(Box::new(self.expr(t.with(s), d)), t)
            }
            9 if !t.is_vec() => {
                let lanes = if self.r.random_bool(0.5) { 2 } else { 4 };
                let v = self.expr(Ty { s: t.s, lanes }, d);
                Expr::Lane(Box::new(v), self.r.random_range(0..lanes))
            }
            9 => {
                let parts = (0..t.lanes)
                    .map(|_| self.expr(Ty::scalar(t.s), d))
                    .collect();
                Expr::Build(parts, t)
            }
            _ => self.array_read(t, d).unwrap_or_else(|| self.leaf(t)),
        }
    }

    fn call(&mut self, t: Ty, d: u32) -> Expr {
        let fs = [
            Func::Min,
            Func::Max,
            Func::AddSat,
            Func::SubSat,
            Func::Hadd,
            Func::Rhadd,
            Func::MulHi,
            Func::Rotate,
            Func::Popcount,
            Func::Clz,
            Func::AbsDiff,
            Func::Abs,
        ];
        let f = fs[self.r.random_range(0..fs.len())];
        // abs and abs_diff return the unsigned type: call them on the signed type of t's width.
        let arg_t = match f {
            Func::Abs | Func::AbsDiff if !t.s.signed() => Ty {
                s: if self.r.random_bool(0.5) {
                    signed_of(t.s)
                } else {
                    t.s
                },
                lanes: t.lanes,
            },
            Func::Abs | Func::AbsDiff => return self.leaf(t),
            _ => t,
        };
        let n = if f.unary() { 1 } else { 2 };
        let args = (0..n).map(|_| self.expr(arg_t, d)).collect();
        Expr::Call(f, args, t)
    }

    fn array_read(&mut self, t: Ty, d: u32) -> Option<Expr> {
        if t.is_vec() {
            return None;
        }
        let arrs: Vec<_> = self
            .arrays
            .iter()
            .flatten()
            .filter(|a| a.1 == t)
            .cloned()
            .collect();
        if arrs.is_empty() {
            return None;
        }
        let (arr, ty, len) = arrs[self.r.random_range(0..arrs.len())].clone();
        let it = random_int(self.r);
        Some(Expr::Index {
            arr,
            len,
            idx: Box::new(self.expr(it, d)),
            ty,
        })
    }

    fn block(&mut self, depth: u32, extra: Option<Var>) -> Vec<Stmt> {
        self.scopes.push(extra.into_iter().collect());
        self.arrays.push(Vec::new());
        let n = self.r.random_range(1..=3);
        let mut b = Vec::new();
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            b.push(self.stmt(depth + 1));
        }
        self.scopes.pop();
        self.arrays.pop();
        b
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        self.budget -= 1;
        loop {
            match self.r.random_range(0..20) {
                0..=4 => {
                    let t = random_ty(self.r);
                    let e = self.expr(t, 3);
                    let name = self.fresh("v");
                    self.scopes.last_mut().unwrap().push(Var {
                        name: name.clone(),
                        ty: t,
                        mutable: true,
                    });
                    return Stmt::Decl(name, e);
                }
                5..=8 => {
                    if let Some(v) = self.pick_var(|v| v.mutable) {
                        let e = if self.r.random_bool(0.5) {
                            let ops: &[Bin] = if v.ty.s.is_float() {
                                &[Bin::Add, Bin::Sub, Bin::Mul]
                            } else {
                                &[Bin::Add, Bin::Sub, Bin::Mul, Bin::Xor]
                            };
                            let op = ops[self.r.random_range(0..ops.len())];
                            let rhs = self.expr(v.ty, 2);
                            Expr::Bin(
                                op,
                                Box::new(Expr::Var(v.name.clone(), v.ty)),
                                Box::new(rhs),
                                v.ty,
                            )
                        } else {
                            self.expr(v.ty, 3)
                        };
                        return Stmt::Assign(v.name, e);
                    }
                }
                9..=10 if depth < 3 => {
                    let ct = Ty::scalar(random_ty(self.r).s);
                    let c = self.expr(ct, 2);
                    let t = self.block(depth, None);
                    let e = if self.r.random_bool(0.5) {
                        self.block(depth, None)
                    } else {
                        Vec::new()
                    };
                    return Stmt::If(c, t, e);
                }
                11..=12 if self.loops < 2 => {
                    let uint = Ty::scalar(Scalar::UInt);
                    let n = Expr::Var("n".into(), uint);
                    let bound = match self.r.random_range(0..3) {
                        0 => Expr::Lit(uint, vec![self.r.random_range(0..=5)]),
                        1 => n,
                        _ => Expr::Bin(
                            Bin::And,
                            Box::new(n),
                            Box::new(Expr::Lit(uint, vec![3])),
                            uint,
                        ),
                    };
                    let v = self.fresh("i");
                    let unroll = matches!(bound, Expr::Lit(..)) && self.r.random_bool(0.4);
                    let hint = match self.r.random_range(0..20) {
                        _ if unroll => LoopHint::Unroll,
                        0..=2 => LoopHint::Coalesce,
                        3..=4 => LoopHint::FlattenOff,
                        5..=6 => LoopHint::Ii(self.r.random_range(1..=3)),
                        _ => LoopHint::None,
                    };
                    self.breakable.push(!unroll);
                    self.loops += 1;
                    let body = self.block(
                        depth,
                        Some(Var {
                            name: v.clone(),
                            ty: uint,
                            mutable: false,
                        }),
                    );
                    self.loops -= 1;
                    self.breakable.pop();
                    let step = if unroll {
                        1
                    } else {
                        [1, 1, 1, 2, 3][self.r.random_range(0..5)]
                    };
                    return Stmt::For(v, bound, body, hint, step);
                }
                13 => {
                    let t = Ty::scalar(random_ty(self.r).s);
                    let len = 1 << self.r.random_range(1..=3);
                    let init = (0..len).map(|_| self.expr(t, 1)).collect();
                    let name = self.fresh("p");
                    self.arrays.last_mut().unwrap().push((name.clone(), t, len));
                    return Stmt::ArrDecl(name, t, init);
                }
                14..=15 => {
                    let arrs: Vec<_> = self.arrays.iter().flatten().cloned().collect();
                    if !arrs.is_empty() {
                        let (arr, t, len) = arrs[self.r.random_range(0..arrs.len())].clone();
                        let it = random_int(self.r);
                        return Stmt::ArrStore {
                            arr,
                            len,
                            idx: self.expr(it, 2),
                            e: self.expr(t, 2),
                        };
                    }
                }
                16..=18 => {
                    let target = match (self.acc, self.hist) {
                        (Some(a), Some(h)) => Some(if self.r.random_bool(0.5) {
                            ("acc", a, 0)
                        } else {
                            ("lh", h, 1)
                        }),
                        (Some(a), None) => Some(("acc", a, 0)),
                        (None, Some(h)) => Some(("lh", h, 1)),
                        (None, None) => None,
                    };
                    if let Some((buf, len, fam)) = target {
                        let ops = self.families[fam];
                        let it = random_int(self.r);
                        let vt = random_int(self.r);
                        return Stmt::Atomic {
                            op: ops[self.r.random_range(0..ops.len())],
                            buf: buf.into(),
                            len,
                            idx: self.expr(it, 2),
                            val: self.expr(vt, 2),
                        };
                    }
                }
                19 if self.counter => return Stmt::Counter(self.counter_inc),
                19 if self.breakable.last() == Some(&true) && depth >= 2 => return Stmt::Break,
                _ => {}
            }
        }
    }
}

/// Atomic functions that commute with each other (the returned old values are never used).
const FAMILIES: [&[AtomicOp]; 6] = [
    &[AtomicOp::Add, AtomicOp::Sub, AtomicOp::Inc, AtomicOp::Dec],
    &[AtomicOp::Min],
    &[AtomicOp::Max],
    &[AtomicOp::And],
    &[AtomicOp::Or],
    &[AtomicOp::Xor],
];

fn signed_of(s: Scalar) -> Scalar {
    match s.unsigned() {
        Scalar::UChar => Scalar::Char,
        Scalar::UShort => Scalar::Short,
        Scalar::UInt => Scalar::Int,
        _ => Scalar::Long,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn kernels_pass_the_front_end_and_the_emulator() {
        for seed in 0..40 {
            let mut r = StdRng::seed_from_u64(seed);
            let k = generate(&mut r);
            let case = crate::case::Case::new(k, &mut r);
            if let Err(e) = case.file_text(seed, 0) {
                panic!("seed {seed}: {e}\n{}", case.kernel.source());
            }
        }
    }

    #[test]
    fn pipe_cases_are_multi_kernel_tests_with_every_form() {
        let mut forms = std::collections::BTreeSet::new();
        let mut cases = 0;
        for seed in 0..400 {
            let mut r = StdRng::seed_from_u64(seed);
            let k = generate(&mut r);
            let Some(p) = k.pipe else { continue };
            let case = crate::case::Case::new(k, &mut r);
            let text = case
                .file_text(seed, 0)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", case.kernel.source()));
            assert!(
                text.contains("launch: sink ") && text.contains("unordered"),
                "{text}"
            );
            assert!(!text.contains("arg_in:"), "{text}");
            forms.insert(format!("{:?} {:?}", p.write, p.read));
            cases += 1;
        }
        assert!(cases >= 20, "{cases} pipe cases in 400");
        assert_eq!(
            forms.len(),
            9,
            "every write and read form together: {forms:?}"
        );
    }
}
