//! Built-in functions: work-item functions, synchronisation, math/integer/relational/geometric
//! functions, conversions, vector loads and stores, atomics, pipes and async copies.
//!
//! Float math is evaluated in double precision and rounded once to the argument type, which is
//! within every accuracy bound of OpenCL C 7.4 for `float`. Built-ins without a model here
//! (`erf` and `erfc` on `double`) are a spanned "not yet supported by the emulator" error.

use crate::interp::{index_value, msb, Item, ToSched, R};
use crate::value::{self, int_value, lane_shape, Val};
use frontend::ast::{AddrSpace, AtomicOp, Builtin, Expr, MathClass, MathFn, ScalarKind, Type};
use frontend::Span;

/// `get_global_id` and the other work-item functions.
pub fn is_work_item_query(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::GetWorkDim
            | Builtin::GetGlobalSize
            | Builtin::GetGlobalId
            | Builtin::GetLocalSize
            | Builtin::GetEnqueuedLocalSize
            | Builtin::GetLocalId
            | Builtin::GetNumGroups
            | Builtin::GetGroupId
            | Builtin::GetGlobalOffset
            | Builtin::GetGlobalLinearId
            | Builtin::GetLocalLinearId
    )
}

impl Item<'_> {
    pub fn builtin(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let uint = |v: u32| Val::uint(v);
        match b {
            Builtin::GetWorkDim => return Ok(uint(self.geom.dims)),
            Builtin::GetGlobalSize
            | Builtin::GetGlobalId
            | Builtin::GetLocalSize
            | Builtin::GetEnqueuedLocalSize
            | Builtin::GetLocalId
            | Builtin::GetNumGroups
            | Builtin::GetGroupId
            | Builtin::GetGlobalOffset => {
                let d = self.eval(&args[0])?.first() as usize;
                let inside = d < self.geom.dims as usize;
                let v = if !inside {
                    match b {
                        Builtin::GetGlobalSize
                        | Builtin::GetLocalSize
                        | Builtin::GetEnqueuedLocalSize
                        | Builtin::GetNumGroups => 1,
                        _ => 0,
                    }
                } else {
                    match b {
                        Builtin::GetGlobalSize => self.geom.global[d],
                        Builtin::GetGlobalId => self.global_id(d),
                        Builtin::GetLocalSize => self.id.local_size[d],
                        Builtin::GetEnqueuedLocalSize => self.geom.local[d],
                        Builtin::GetLocalId => self.id.local[d],
                        Builtin::GetNumGroups => self.geom.groups[d],
                        Builtin::GetGroupId => self.id.group[d],
                        _ => self.geom.offset[d],
                    }
                };
                return Ok(uint(v));
            }
            Builtin::GetGlobalLinearId => {
                let g = &self.geom;
                let id = |d: usize| self.global_id(d).wrapping_sub(g.offset[d]);
                return Ok(uint(
                    (id(2) * g.global[1] + id(1))
                        .wrapping_mul(g.global[0])
                        .wrapping_add(id(0)),
                ));
            }
            Builtin::GetLocalLinearId => {
                let (l, s) = (self.id.local, self.id.local_size);
                return Ok(uint((l[2] * s[1] + l[1]) * s[0] + l[0]));
            }
            Builtin::Barrier => {
                self.eval(&args[0])?;
                self.barrier(span)?;
                return Ok(Val::Void);
            }
            Builtin::MemFence | Builtin::ReadMemFence | Builtin::WriteMemFence => {
                // Work-items run one at a time: memory is always consistent.
                self.eval(&args[0])?;
                return Ok(Val::Void);
            }
            Builtin::Atomic(op) => return self.atomic(op, args, e),
            Builtin::ReadPipe
            | Builtin::WritePipe
            | Builtin::ReserveReadPipe
            | Builtin::ReserveWritePipe
            | Builtin::CommitReadPipe
            | Builtin::CommitWritePipe
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::WorkGroupCommitReadPipe
            | Builtin::WorkGroupCommitWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe
            | Builtin::SubGroupCommitReadPipe
            | Builtin::SubGroupCommitWritePipe
            | Builtin::IsValidReserveId
            | Builtin::GetPipeNumPackets
            | Builtin::GetPipeMaxPackets => return self.pipe_builtin(b, args, e),
            // Xilinx's blocking forms: the 2-argument read/write that waits instead of failing.
            Builtin::ReadPipeBlock | Builtin::WritePipeBlock => {
                let plain = if b == Builtin::ReadPipeBlock {
                    Builtin::ReadPipe
                } else {
                    Builtin::WritePipe
                };
                self.force_blocking = true;
                let r = self.pipe_builtin(plain, args, e);
                self.force_blocking = false;
                r?;
                return Ok(Val::Void);
            }
            Builtin::AsyncWorkGroupCopy | Builtin::AsyncWorkGroupStridedCopy => {
                return self.async_copy(b, args, e)
            }
            Builtin::WaitGroupEvents => return self.wait_events(args, span),
            Builtin::Printf => return self.printf(args, e),
            Builtin::Prefetch => {
                for a in args {
                    self.eval(a)?;
                }
                return Ok(Val::Void);
            }
            Builtin::VLoad(n) | Builtin::VLoadHalf(n) => {
                let (addr, ek, len) = self.vector_address(n, &args[0], &args[1], span)?;
                let es = ek.size_bytes();
                let bytes = self.access(addr, len, es, span, None)?;
                let (rk, _) = lane_shape(&e.ty).unwrap_or((ek, 1));
                let lanes = bytes
                    .chunks(es as usize)
                    .map(|c| {
                        let mut buf = [0u8; 8];
                        buf[..c.len()].copy_from_slice(c);
                        let bits = u64::from_le_bytes(buf);
                        if matches!(b, Builtin::VLoadHalf(_)) {
                            value::from_f64(rk, value::f16_to_f64(bits as u16))
                        } else {
                            bits
                        }
                    })
                    .collect();
                return Ok(Val::Lanes(rk, lanes));
            }
            Builtin::VStore(n) | Builtin::VStoreHalf(n) => {
                let data = self.eval(&args[0])?;
                let (addr, ek, len) = self.vector_address(n, &args[1], &args[2], span)?;
                let es = ek.size_bytes() as usize;
                let dk = args[0].ty.elem_kind().unwrap_or(ek);
                let mut bytes = Vec::new();
                for &l in data.lanes() {
                    let bits = if matches!(b, Builtin::VStoreHalf(_)) {
                        value::f64_to_f16(value::to_f64(dk, l)) as u64
                    } else {
                        l
                    };
                    bytes.extend_from_slice(&bits.to_le_bytes()[..es]);
                }
                self.access(addr, len, es as u32, span, Some(&bytes))?;
                return Ok(Val::Void);
            }
            _ => {}
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let rt = &e.ty;
        let (rk, _) = lane_shape(rt).unwrap_or((ScalarKind::Int, 1));
        let at = &args[0].ty;
        let (ak, _) = lane_shape(at).unwrap_or((ScalarKind::Int, 1));
        let lanes_n = vals.iter().map(|v| v.lanes().len()).max().unwrap_or(1);
        let lane = |v: &Val, i: usize| -> u64 {
            let l = v.lanes();
            l[i.min(l.len().saturating_sub(1))]
        };
        let map = |f: &dyn Fn(&[u64]) -> u64| -> Val {
            let out = (0..lanes_n)
                .map(|i| {
                    let xs: Vec<u64> = vals.iter().map(|v| lane(v, i)).collect();
                    f(&xs)
                })
                .collect();
            Val::Lanes(rk, out)
        };
        let fl = |x: u64| value::to_f64(ak, x);
        let fr = |x: f64| value::from_f64(rk, x);
        match b {
            Builtin::Min | Builtin::Max | Builtin::Clamp => {
                let min = |x: u64, y: u64| -> u64 {
                    if ak.is_float() {
                        fr(value::fmin(fl(x), fl(y)))
                    } else if int_value(ak, y) < int_value(ak, x) {
                        y
                    } else {
                        x
                    }
                };
                let max = |x: u64, y: u64| -> u64 {
                    if ak.is_float() {
                        fr(value::fmax(fl(x), fl(y)))
                    } else if int_value(ak, x) < int_value(ak, y) {
                        y
                    } else {
                        x
                    }
                };
                Ok(match b {
                    Builtin::Min => map(&|x| min(x[0], x[1])),
                    Builtin::Max => map(&|x| max(x[0], x[1])),
                    _ => map(&|x| min(max(x[0], x[1]), x[2])),
                })
            }
            Builtin::Mad => Ok(map(&|x| {
                let m = value::float_binop(frontend::ast::BinOp::Mul, ak, x[0], x[1]);
                value::float_binop(frontend::ast::BinOp::Add, ak, m, x[2])
            })),
            Builtin::Abs => Ok(map(&|x| {
                rk.truncate(int_value(ak, x[0]).unsigned_abs() as u64)
            })),
            Builtin::Select => {
                let ck = args[2].ty.elem_kind().unwrap_or(ScalarKind::Int);
                let vector = args[2].ty.is_vector();
                Ok(map(&|x| {
                    let c = if vector { msb(ck, x[2]) } else { x[2] != 0 };
                    if c {
                        x[1]
                    } else {
                        x[0]
                    }
                }))
            }
            Builtin::Convert { sat, rounding } => {
                Ok(self.convert(vals[0].clone(), at, rt, sat, rounding))
            }
            Builtin::AsType => {
                let bytes = value::to_bytes(&vals[0], at, &self.prog.structs);
                Ok(value::from_bytes(&bytes, rt))
            }
            Builtin::Math(f) | Builtin::NativeMath(f) => self.math(f, &vals, args, rt, span),
            _ => Err(self.unsupported(span, &format!("built-in {b:?}"))),
        }
    }

    /// `vloadN`/`vstoreN` addressing: `p + offset * N` elements of the pointee; the address,
    /// the element kind and the byte length of the access.
    fn vector_address(
        &mut self,
        n: u8,
        offset: &Expr,
        ptr: &Expr,
        span: Span,
    ) -> R<(u32, ScalarKind, u32)> {
        let off = self.eval(offset)?.first() as u32;
        let p = self.eval(ptr)?.first() as u32;
        let Type::Pointer { pointee, .. } = &ptr.ty else {
            return Err(self.unsupported(span, "vload/vstore through a non-pointer"));
        };
        let ek = pointee.elem_kind().unwrap_or(ScalarKind::Float);
        let len = (n as u32).max(1) * ek.size_bytes();
        Ok((p.wrapping_add(off.wrapping_mul(len)), ek, len))
    }

    fn math(&mut self, f: MathFn, vals: &[Val], args: &[Expr], rt: &Type, span: Span) -> R<Val> {
        let at = &args[0].ty;
        let (ak, an) = lane_shape(at).unwrap_or((ScalarKind::Float, 1));
        let (rk, _) = lane_shape(rt).unwrap_or((ak, 1));
        let n = vals.iter().map(|v| v.lanes().len()).max().unwrap_or(1);
        let lane = |v: &Val, i: usize| -> u64 {
            let l = v.lanes();
            l[i.min(l.len().saturating_sub(1))]
        };
        let argk = |j: usize| args[j].ty.elem_kind().unwrap_or(ak);
        let fx = |j: usize, i: usize| value::to_f64(argk(j), lane(&vals[j], i));
        let out = |x: f64| value::from_f64(rk, x);
        let per_lane = |g: &dyn Fn(usize) -> u64| Val::Lanes(rk, (0..n).map(g).collect());
        let vector = at.is_vector();
        let rel = |b: bool| -> u64 {
            match (b, vector) {
                (true, true) => value::vec_true(rk),
                (b, _) => b as u64,
            }
        };
        use MathFn as M;
        if f == M::Fabs && ak.is_float() {
            // IEEE `abs`: the sign bit cleared, nothing else (as the hardware's wiring).
            let sign = 1u64 << (ak.bits() - 1);
            return Ok(per_lane(&|i| lane(&vals[0], i) & !sign));
        }
        let v = match f.class() {
            MathClass::F1 | MathClass::F2 | MathClass::F3 | MathClass::FInt => {
                let g: fn(f64, f64, f64) -> f64 = match f {
                    M::Acos => |x, _, _| x.acos(),
                    M::Acosh => |x, _, _| x.acosh(),
                    M::Asin => |x, _, _| x.asin(),
                    M::Asinh => |x, _, _| x.asinh(),
                    M::Atan => |x, _, _| x.atan(),
                    M::Atanh => |x, _, _| x.atanh(),
                    M::Atan2 => |x, y, _| x.atan2(y),
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
                    M::Powr => |x, y, _| if x < 0.0 { f64::NAN } else { x.powf(y) },
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
                    M::Ldexp => |x, n, _| x * 2f64.powi(n.clamp(-2000.0, 2000.0) as i32),
                    M::Pown => |x, n, _| x.powi(n as i32),
                    M::Rootn => |x, n, _| rootn(x, n as i64),
                    // accurate to ~3e-9 relative: far inside float's 16 ulp, not double's
                    M::Erf if ak != ScalarKind::Double => |x, _, _| erf(x),
                    M::Erfc if ak != ScalarKind::Double => |x, _, _| erfc(x),
                    _ => return Err(self.unsupported(span, &format!("`{}`", f.name()))),
                };
                // An `int` argument (ldexp, pown, rootn) is read as an integer.
                let arg = |j: usize, i: usize| -> f64 {
                    if j >= vals.len() {
                        0.0
                    } else if argk(j).is_float() {
                        fx(j, i)
                    } else {
                        int_value(argk(j), lane(&vals[j], i)) as f64
                    }
                };
                per_lane(&|i| out(g(arg(0, i), arg(1, i), arg(2, i))))
            }
            MathClass::I1 | MathClass::I2 | MathClass::I3 | MathClass::IU2 => {
                let bits = ak.bits();
                let signed = ak.is_signed();
                let (lo, hi) = if signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                let iv = |j: usize, i: usize| int_value(ak, lane(&vals[j], i));
                // a * b exactly, as (high bits >> width, low bits): 64-bit unsigned products
                // need 128 unsigned bits.
                let prod_hi = |x: i128, y: i128| -> i128 {
                    if !signed && bits == 64 {
                        ((x as u128 * y as u128) >> 64) as i128
                    } else {
                        (x * y) >> bits
                    }
                };
                let mad_sat = |x: i128, y: i128, z: i128| -> u64 {
                    if !signed && bits == 64 {
                        let r = (x as u128 * y as u128).saturating_add(z as u128);
                        r.min(u64::MAX as u128) as u64
                    } else {
                        rk.truncate((x * y + z).clamp(lo, hi) as u64)
                    }
                };
                let raw = |j: usize, i: usize| ak.truncate(lane(&vals[j], i));
                let wrap = |x: i128| rk.truncate(x as u64);
                let sat = |x: i128| rk.truncate(x.clamp(lo, hi) as u64);
                per_lane(&|i| match f {
                    M::AbsDiff => wrap((iv(0, i) - iv(1, i)).abs()),
                    M::AddSat => sat(iv(0, i) + iv(1, i)),
                    M::SubSat => sat(iv(0, i) - iv(1, i)),
                    M::Hadd => wrap((iv(0, i) + iv(1, i)) >> 1),
                    M::Rhadd => wrap((iv(0, i) + iv(1, i) + 1) >> 1),
                    M::MulHi => wrap(prod_hi(iv(0, i), iv(1, i))),
                    M::MadHi => wrap(prod_hi(iv(0, i), iv(1, i)) + iv(2, i)),
                    M::MadSat => mad_sat(iv(0, i), iv(1, i), iv(2, i)),
                    M::Mul24 => wrap(iv(0, i).wrapping_mul(iv(1, i))),
                    M::Mad24 => wrap(iv(0, i).wrapping_mul(iv(1, i)) + iv(2, i)),
                    M::Rotate => {
                        let s = (raw(1, i) % bits as u64) as u32;
                        let x = raw(0, i);
                        if s == 0 {
                            x
                        } else {
                            ak.truncate((x << s) | (x >> (bits - s)))
                        }
                    }
                    M::Clz => (raw(0, i).leading_zeros() - (64 - bits)) as u64,
                    M::Ctz => (raw(0, i).trailing_zeros()).min(bits) as u64,
                    M::Popcount => raw(0, i).count_ones() as u64,
                    _ => 0,
                })
            }
            MathClass::FRel1 => per_lane(&|i| {
                let x = fx(0, i);
                rel(match f {
                    M::Isnan => x.is_nan(),
                    M::Isinf => x.is_infinite(),
                    M::Isfinite => x.is_finite(),
                    M::Isnormal => x.is_finite() && x != 0.0 && x.abs() >= min_normal(ak),
                    _ => x.is_sign_negative(),
                })
            }),
            MathClass::FRel2 => per_lane(&|i| {
                let (x, y) = (fx(0, i), fx(1, i));
                rel(match f {
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
            }),
            MathClass::AnyAll => {
                let ls = vals[0].lanes();
                let r = if f == M::Any {
                    ls.iter().any(|&x| msb(ak, x))
                } else {
                    ls.iter().all(|&x| msb(ak, x))
                };
                Val::scalar(rk, r as u64)
            }
            MathClass::Bitsel => per_lane(&|i| {
                let (a, b, c) = (lane(&vals[0], i), lane(&vals[1], i), lane(&vals[2], i));
                (a & !c) | (b & c)
            }),
            MathClass::Geom2 | MathClass::Geom1 | MathClass::GeomV1 => {
                let x: Vec<f64> = (0..an).map(|i| fx(0, i)).collect();
                let y: Vec<f64> = if vals.len() > 1 {
                    (0..an).map(|i| fx(1, i)).collect()
                } else {
                    x.clone()
                };
                let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
                match f {
                    M::Dot => Val::scalar(rk, out(dot(&x, &y))),
                    M::Length | M::FastLength => Val::scalar(rk, out(dot(&x, &x).sqrt())),
                    M::Distance | M::FastDistance => {
                        let d: Vec<f64> = x.iter().zip(&y).map(|(p, q)| p - q).collect();
                        Val::scalar(rk, out(dot(&d, &d).sqrt()))
                    }
                    _ => {
                        let l = dot(&x, &x).sqrt();
                        Val::Lanes(
                            rk,
                            x.iter()
                                .map(|p| out(if l == 0.0 { *p } else { p / l }))
                                .collect(),
                        )
                    }
                }
            }
            MathClass::Cross => {
                let a: Vec<f64> = (0..3).map(|i| fx(0, i)).collect();
                let b: Vec<f64> = (0..3).map(|i| fx(1, i)).collect();
                let mut r = vec![
                    out(a[1] * b[2] - a[2] * b[1]),
                    out(a[2] * b[0] - a[0] * b[2]),
                    out(a[0] * b[1] - a[1] * b[0]),
                ];
                if an == 4 {
                    r.push(0);
                }
                Val::Lanes(rk, r)
            }
            MathClass::Mix | MathClass::Step | MathClass::SmoothStep => {
                use frontend::ast::BinOp::*;
                let op = |o, a: u64, b: u64| value::float_binop(o, rk, a, b);
                let one = value::from_f64(rk, 1.0);
                let zero = value::from_f64(rk, 0.0);
                per_lane(&|i| {
                    let (a, b) = (lane(&vals[0], i), lane(&vals[1], i));
                    match f {
                        M::Mix => {
                            let c = lane(&vals[2], i);
                            op(Add, a, op(Mul, op(Sub, b, a), c))
                        }
                        M::Step => {
                            if value::to_f64(rk, b) < value::to_f64(rk, a) {
                                zero
                            } else {
                                one
                            }
                        }
                        _ => {
                            let x = lane(&vals[2], i);
                            let t = op(Div, op(Sub, x, a), op(Sub, b, a));
                            let tv = value::to_f64(rk, t).clamp(0.0, 1.0);
                            let t = value::from_f64(rk, tv);
                            let three = value::from_f64(rk, 3.0);
                            let two = value::from_f64(rk, 2.0);
                            op(Mul, op(Mul, t, t), op(Sub, three, op(Mul, two, t)))
                        }
                    }
                })
            }
        };
        Ok(v)
    }

    // ---- atomics ----

    fn atomic(&mut self, op: AtomicOp, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let p = self.eval(&args[0])?.first() as u32;
        let t = match &args[0].ty {
            Type::Pointer { pointee, .. } => (**pointee).clone(),
            Type::Counter32 => Type::UINT,
            Type::Counter64 => Type::Scalar(ScalarKind::ULong),
            _ => return Err(self.unsupported(span, "an atomic on this type")),
        };
        let mut rest = Vec::new();
        for a in &args[1..] {
            rest.push(self.eval(a)?.first());
        }
        let k = t.elem_kind().unwrap_or(ScalarKind::UInt);
        let old = self.load(p, &t, span)?.first();
        let arg = |i: usize| rest.get(i).copied().unwrap_or(0);
        let (a, b) = (int_value(k, old), int_value(k, arg(0)));
        let new = match op {
            AtomicOp::Add => old.wrapping_add(arg(0)),
            AtomicOp::Sub => old.wrapping_sub(arg(0)),
            AtomicOp::Xchg => arg(0),
            AtomicOp::Min => {
                if b < a {
                    arg(0)
                } else {
                    old
                }
            }
            AtomicOp::Max => {
                if b > a {
                    arg(0)
                } else {
                    old
                }
            }
            AtomicOp::And => old & arg(0),
            AtomicOp::Or => old | arg(0),
            AtomicOp::Xor => old ^ arg(0),
            AtomicOp::Inc => old.wrapping_add(1),
            AtomicOp::Dec => old.wrapping_sub(1),
            AtomicOp::CmpXchg => {
                if k.truncate(old) == k.truncate(arg(0)) {
                    arg(1)
                } else {
                    old
                }
            }
        };
        self.store(p, &t, &Val::scalar(k, new), span)?;
        let (rk, _) = lane_shape(&e.ty).unwrap_or((k, 1));
        Ok(Val::scalar(rk, old))
    }

    // ---- pipes ----

    fn pipe_name(&self, p: usize) -> String {
        self.pipe_names
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("#{p}"))
    }

    /// A NUL-terminated string in memory (at most 64 KiB).
    fn c_string(&mut self, addr: u32, span: frontend::span::Span) -> R<String> {
        let mut bytes = Vec::new();
        for i in 0..65_536u32 {
            let b = self.access(addr.wrapping_add(i), 1, 1, span, None)?[0];
            if b == 0 {
                return Ok(String::from_utf8_lossy(&bytes).into_owned());
            }
            bytes.push(b);
        }
        Err(self.err(
            span,
            "a string of more than 64 KiB without its terminating NUL",
        ))
    }

    fn printf(&mut self, args: &[Expr], e: &Expr) -> R<Val> {
        use crate::printf::{format_lane, format_str, parse, Piece};
        let span = e.span;
        let addr = self.eval(&args[0])?.first() as u32;
        let fmt = self.c_string(addr, args[0].span)?;
        let pieces = parse(&fmt).map_err(|m| self.err(args[0].span, format!("printf: {m}")))?;
        let mut out = String::new();
        let mut next = 1;
        for p in pieces {
            let s = match p {
                Piece::Text(t) => {
                    out.push_str(&t);
                    continue;
                }
                Piece::Conv(s) => s,
            };
            let Some(a) = args.get(next) else {
                return Err(self.err(
                    span,
                    "printf: the format has more conversions than arguments",
                ));
            };
            next += 1;
            if s.conv == 's' {
                let ptr = self.eval(a)?.first() as u32;
                let text = self.c_string(ptr, a.span)?;
                out.push_str(&format_str(&s, &text));
                continue;
            }
            let Val::Lanes(k, lanes) = self.eval(a)? else {
                return Err(self.err(a.span, "printf: this argument is not a scalar or a vector"));
            };
            match s.vector {
                Some(n) if n == lanes.len() => {
                    let parts: Vec<String> = lanes.iter().map(|&l| format_lane(&s, k, l)).collect();
                    out.push_str(&parts.join(","));
                }
                None if lanes.len() == 1 => out.push_str(&format_lane(&s, k, lanes[0])),
                _ => {
                    return Err(self.err(
                        a.span,
                        format!(
                            "printf: a {}-lane argument for a conversion of {} lanes (vectors need `%vN`)",
                            lanes.len(),
                            s.vector.unwrap_or(1)
                        ),
                    ))
                }
            }
        }
        if next < args.len() {
            return Err(self.err(span, "printf: more arguments than the format's conversions"));
        }
        self.lock().printf.push_str(&out);
        Ok(Val::scalar(ScalarKind::Int, 0))
    }

    fn pipe_builtin(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        if b == Builtin::IsValidReserveId {
            let id = self.eval(&args[0])?.first();
            return Ok(Val::scalar(ScalarKind::Bool, (id != 0) as u64));
        }
        let p = self.eval(&args[0])?.first() as usize;
        let (packet, cap) = {
            let sh = self.lock();
            match sh.pipes.pipes.get(p) {
                Some(pp) => (pp.packet_size, pp.capacity),
                None => {
                    drop(sh);
                    return Err(self.err(span, "pipe argument is not bound to a pipe"));
                }
            }
        };
        let int = |v: i32| Val::scalar(ScalarKind::Int, v as u32 as u64);
        let blocking = self.force_blocking || self.blocking_pipes.contains(&p);
        match b {
            Builtin::GetPipeNumPackets => {
                let n = self.lock().pipes.pipes[p].fifo.len() as u32;
                Ok(Val::uint(n))
            }
            Builtin::GetPipeMaxPackets => Ok(Val::uint(cap)),
            Builtin::ReadPipe | Builtin::WritePipe => {
                let write = b == Builtin::WritePipe;
                if args.len() == 2 {
                    let ptr = self.eval(&args[1])?.first() as u32;
                    loop {
                        let ok = if write {
                            let data = self.access(ptr, packet, 1, span, None)?;
                            self.lock().pipes.write(p, data)
                        } else {
                            let got = self.lock().pipes.read(p);
                            match got {
                                Some(d) => {
                                    if let Err(err) = self.access(ptr, packet, 1, span, Some(&d)) {
                                        // put it back so the error does not lose data
                                        self.lock().pipes.pipes[p].fifo.push_front(d);
                                        return Err(err);
                                    }
                                    true
                                }
                                None => false,
                            }
                        };
                        if ok {
                            self.hand_over(ToSched::Yield(span))?;
                            return Ok(int(0));
                        }
                        if !blocking {
                            self.hand_over(ToSched::Yield(span))?;
                            return Ok(int(-1));
                        }
                        self.hand_over(ToSched::Blocked {
                            span,
                            pipe: p,
                            write,
                            n: 1,
                        })?;
                    }
                }
                // read_pipe(p, rid, index, ptr)
                let rid = self.eval(&args[1])?.first() as u32;
                let index = self.eval(&args[2])?.first() as u32;
                let ptr = self.eval(&args[3])?.first() as u32;
                let slot_data = if write {
                    Some(self.access(ptr, packet, 1, span, None)?)
                } else {
                    None
                };
                let mut sh = self.lock();
                let Some(r) = sh.pipes.reservation(rid).filter(|r| r.pipe == p) else {
                    drop(sh);
                    return Ok(int(-1));
                };
                if r.published {
                    drop(sh);
                    return Err(self.err(
                        span,
                        format!(
                            "this reservation on pipe `{}` was already committed and its packets \
                             published",
                            self.pipe_name(p)
                        ),
                    ));
                }
                let n = r.slots.len();
                if let Some(w) = r.written.get_mut(index as usize) {
                    *w |= slot_data.is_some();
                }
                let Some(slot) = r.slots.get_mut(index as usize) else {
                    drop(sh);
                    return Err(self.err(
                        span,
                        format!(
                            "packet index {index} is outside the reservation of {n} packets on \
                             pipe `{}`",
                            self.pipe_name(p)
                        ),
                    ));
                };
                match slot_data {
                    Some(d) => {
                        *slot = d;
                        sh.pipes.publish(p);
                        Ok(int(0))
                    }
                    None => {
                        let d = slot.clone();
                        drop(sh);
                        self.access(ptr, packet, 1, span, Some(&d))?;
                        Ok(int(0))
                    }
                }
            }
            Builtin::ReserveReadPipe
            | Builtin::ReserveWritePipe
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe => {
                let n = self.eval(&args[1])?.first() as u32;
                let write = matches!(
                    b,
                    Builtin::ReserveWritePipe
                        | Builtin::WorkGroupReserveWritePipe
                        | Builtin::SubGroupReserveWritePipe
                );
                let collective = !matches!(b, Builtin::ReserveReadPipe | Builtin::ReserveWritePipe);
                let owner = (self.id.launch, self.id.group_linear);
                loop {
                    let id = if collective {
                        self.collective(span, |sh| sh.pipes.reserve(p, n, write, owner))?
                    } else {
                        let id = self.lock().pipes.reserve(p, n, write, owner);
                        self.hand_over(ToSched::Yield(span))?;
                        id
                    };
                    if id != 0 || !blocking {
                        return Ok(Val::uint(id));
                    }
                    self.hand_over(ToSched::Blocked {
                        span,
                        pipe: p,
                        write,
                        n,
                    })?;
                }
            }
            _ => {
                // commits
                let rid = self.eval(&args[1])?.first() as u32;
                let collective = !matches!(b, Builtin::CommitReadPipe | Builtin::CommitWritePipe);
                if collective {
                    self.collective(span, |sh| {
                        sh.pipes.commit(rid);
                        0
                    })?;
                } else {
                    self.lock().pipes.commit(rid);
                    self.hand_over(ToSched::Yield(span))?;
                }
                Ok(Val::Void)
            }
        }
    }

    /// A work-group function: every work-item of the group arrives (as at a barrier), then
    /// `action` runs once for the group and every work-item gets its result.
    fn collective(
        &mut self,
        span: Span,
        action: impl FnOnce(&mut crate::interp::Shared) -> u32,
    ) -> R<u32> {
        self.barrier(span)?;
        let key = (self.id.launch, self.id.group_linear);
        let gen = self.bar_gen;
        let mut sh = self.lock();
        if let Some(r) = sh.groups.get(&key).and_then(|g| g.collective.get(&gen)) {
            return Ok(*r);
        }
        let r = action(&mut sh);
        sh.groups.entry(key).or_default().collective.insert(gen, r);
        Ok(r)
    }

    // ---- async copies ----

    fn async_copy(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let dst = self.eval(&args[0])?.first() as u32;
        let src = self.eval(&args[1])?.first() as u32;
        let n = self.eval(&args[2])?.first() as u32;
        let (stride, ev) = if b == Builtin::AsyncWorkGroupStridedCopy {
            (
                self.eval(&args[3])?.first() as u32,
                self.eval(&args[4])?.first() as u32,
            )
        } else {
            (1, self.eval(&args[3])?.first() as u32)
        };
        let Type::Pointer {
            pointee,
            space: dspace,
            ..
        } = &args[0].ty
        else {
            return Err(self.unsupported(span, "an async copy to a non-pointer"));
        };
        let size = self.size_of(pointee);
        let align = self.align_of(pointee);
        let to_local = *dspace == AddrSpace::Local;
        // Every work-item arrives with the same arguments; the copy is done once, after
        // all have arrived (so it sees every earlier write of the group).
        self.barrier(span)?;
        let key = (self.id.launch, self.id.group_linear);
        let gen = self.bar_gen;
        let done = self
            .lock()
            .groups
            .get(&key)
            .and_then(|g| g.collective.get(&gen).copied());
        if let Some(id) = done {
            return Ok(Val::uint(id));
        }
        for i in 0..n {
            let (s, d) = if to_local {
                (i.wrapping_mul(stride), i)
            } else {
                (i, i.wrapping_mul(stride))
            };
            let data = self.access(
                src.wrapping_add(s.wrapping_mul(size)),
                size,
                align,
                span,
                None,
            )?;
            self.access(
                dst.wrapping_add(d.wrapping_mul(size)),
                size,
                align,
                span,
                Some(&data),
            )?;
        }
        let mut sh = self.lock();
        let g = sh.groups.entry(key).or_default();
        let id = if ev != 0 {
            ev
        } else {
            g.next_event += 1;
            g.next_event
        };
        g.events.entry(id).or_insert(span);
        g.collective.insert(gen, id);
        Ok(Val::uint(id))
    }

    fn wait_events(&mut self, args: &[Expr], span: Span) -> R<Val> {
        let n = self.eval(&args[0])?.first();
        let n = index_value(&args[0].ty, n).max(0) as u32;
        let list = self.eval(&args[1])?.first() as u32;
        let mut ids = Vec::new();
        for i in 0..n {
            ids.push(
                self.load(list.wrapping_add(4 * i), &Type::Event, span)?
                    .first() as u32,
            );
        }
        self.barrier(span)?;
        let key = (self.id.launch, self.id.group_linear);
        let mut sh = self.lock();
        let g = sh.groups.entry(key).or_default();
        for id in ids {
            g.events.remove(&id);
        }
        Ok(Val::Void)
    }
}

fn min_normal(k: ScalarKind) -> f64 {
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

fn rootn(x: f64, n: i64) -> f64 {
    if n == 0 {
        return f64::NAN;
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
}
