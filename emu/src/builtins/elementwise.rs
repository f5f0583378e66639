//! The element-wise built-ins outside the math table: `min`, `max`, `clamp`, `mad`, `abs`,
//! `select`, `shuffle`, `shuffle2`, `nan`, `convert_*` and `as_type`. Their arguments are evaluated first (left to right);
//! `Math`/`NativeMath` built-ins continue in `math.rs`.

use super::lane;
use crate::interp::{msb, Item, R};
use crate::value::{self, int_value, lane_shape, Val};
use frontend::ast::{Builtin, Expr, ScalarKind};

impl Item<'_> {
    pub(super) fn elementwise(&mut self, b: Builtin, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let rt = &e.ty;
        let (rk, _) = lane_shape(rt).unwrap_or((ScalarKind::Int, 1));
        let at = &args[0].ty;
        let (ak, _) = lane_shape(at).unwrap_or((ScalarKind::Int, 1));
        let lanes_n = vals.iter().map(|v| v.lanes().len()).max().unwrap_or(1);
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
            Builtin::Shuffle | Builtin::Shuffle2 => {
                // The data lanes (x, then y for shuffle2); a mask lane's low bits pick one.
                let data: Vec<u64> = vals[..vals.len() - 1]
                    .iter()
                    .flat_map(|v| v.lanes().to_vec())
                    .collect();
                let mask = vals[vals.len() - 1].lanes();
                let pick = data.len() as u64 - 1;
                Ok(Val::Lanes(
                    rk,
                    mask.iter().map(|&m| data[(m & pick) as usize]).collect(),
                ))
            }
            Builtin::Nan => Ok(Val::Lanes(
                rk,
                vals[0]
                    .lanes()
                    .iter()
                    .map(|&c| 0x7fc0_0000 | (c & 0x003f_ffff))
                    .collect(),
            )),
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
}
