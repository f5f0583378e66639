//! Dispatch of the `Math`/`NativeMath` built-ins by [`MathClass`] to the family modules
//! (float, integer, relational, geometric), the per-lane view of their arguments they share,
//! and the common functions `mix`, `step` and `smoothstep`.

use super::{float, float_bits, geometric, integer, lane, relational};
use crate::interp::{Item, R};
use crate::value::{self, lane_shape, Val};
use frontend::ast::{Expr, MathClass, MathFn, ScalarKind, Type};
use frontend::Span;

use MathFn as M;

/// The evaluated arguments of a math built-in, lane by lane (a scalar argument broadcasts).
pub(super) struct MathArgs<'a> {
    vals: &'a [Val],
    args: &'a [Expr],
    /// Element kind and lane count of the first argument.
    pub ak: ScalarKind,
    pub an: usize,
    /// Element kind of the result.
    pub rk: ScalarKind,
    /// Lanes of the widest argument.
    n: usize,
    /// Whether the first argument is a vector (a relational `true` is then all ones).
    vector: bool,
}

impl MathArgs<'_> {
    /// Number of arguments.
    pub fn count(&self) -> usize {
        self.vals.len()
    }

    /// Lane `i` of argument `j`.
    pub fn lane(&self, j: usize, i: usize) -> u64 {
        lane(&self.vals[j], i)
    }

    /// Every lane of argument `j`.
    pub fn lanes(&self, j: usize) -> &[u64] {
        self.vals[j].lanes()
    }

    /// Element kind of argument `j`.
    pub fn argk(&self, j: usize) -> ScalarKind {
        self.args[j].ty.elem_kind().unwrap_or(self.ak)
    }

    /// Lane `i` of float argument `j`, as `f64`.
    pub fn fx(&self, j: usize, i: usize) -> f64 {
        value::to_f64(self.argk(j), self.lane(j, i))
    }

    /// `x` rounded to the result kind.
    pub fn out(&self, x: f64) -> u64 {
        value::from_f64(self.rk, x)
    }

    /// A result of the widest argument's lanes, lane `i` being `g(i)`.
    pub fn per_lane(&self, g: &dyn Fn(usize) -> u64) -> Val {
        Val::Lanes(self.rk, (0..self.n).map(g).collect())
    }

    /// A relational result: 1 for a scalar, all ones for a vector lane.
    pub fn rel(&self, b: bool) -> u64 {
        match (b, self.vector) {
            (true, true) => value::vec_true(self.rk),
            (b, _) => b as u64,
        }
    }
}

impl Item<'_> {
    pub(super) fn math(
        &mut self,
        f: MathFn,
        vals: &[Val],
        args: &[Expr],
        rt: &Type,
        span: Span,
    ) -> R<Val> {
        let at = &args[0].ty;
        let (ak, an) = lane_shape(at).unwrap_or((ScalarKind::Float, 1));
        let (rk, _) = lane_shape(rt).unwrap_or((ak, 1));
        let m = MathArgs {
            vals,
            args,
            ak,
            an,
            rk,
            n: vals.iter().map(|v| v.lanes().len()).max().unwrap_or(1),
            vector: at.is_vector(),
        };
        if f == M::Fabs && ak.is_float() {
            // IEEE `abs`: the sign bit cleared, nothing else (as the hardware's wiring).
            let sign = 1u64 << (ak.bits() - 1);
            return Ok(m.per_lane(&|i| m.lane(0, i) & !sign));
        }
        if f == M::Nextafter {
            return Ok(float_bits::nextafter(&m));
        }
        Ok(match f.class() {
            MathClass::IntOfF => float_bits::ilogb(&m),
            MathClass::PtrOut | MathClass::PtrOut2 => {
                let (r, second) = float_bits::ptr_out(f, &m);
                let p = args.len() - 1;
                let Type::Pointer { pointee, .. } = &args[p].ty else {
                    return Err(
                        self.unsupported(span, &format!("`{}` without a pointer", f.name()))
                    );
                };
                self.store(vals[p].first() as u32, pointee, &second, span)?;
                r
            }
            MathClass::F1 | MathClass::F2 | MathClass::F3 | MathClass::FInt => {
                let Some(g) = float::function(f, ak) else {
                    return Err(self.unsupported(span, &format!("`{}`", f.name())));
                };
                float::apply(g, &m)
            }
            MathClass::I1
            | MathClass::I2
            | MathClass::I3
            | MathClass::IU2
            | MathClass::Upsample => integer::integer(f, &m),
            MathClass::FRel1 => relational::unary(f, &m),
            MathClass::FRel2 => relational::binary(f, &m),
            MathClass::AnyAll => relational::any_all(f, &m),
            MathClass::Bitsel => relational::bitselect(&m),
            MathClass::Geom2 | MathClass::Geom1 | MathClass::GeomV1 => geometric::geometric(f, &m),
            MathClass::Cross => geometric::cross(&m),
            MathClass::Mix | MathClass::Step | MathClass::SmoothStep => common(f, &m),
        })
    }
}

/// The common functions `mix`, `step` and `smoothstep`, in the arithmetic of the result type.
fn common(f: MathFn, m: &MathArgs) -> Val {
    use frontend::ast::BinOp::*;
    let rk = m.rk;
    let op = |o, a: u64, b: u64| value::float_binop(o, rk, a, b);
    let one = value::from_f64(rk, 1.0);
    let zero = value::from_f64(rk, 0.0);
    m.per_lane(&|i| {
        let (a, b) = (m.lane(0, i), m.lane(1, i));
        match f {
            M::Mix => {
                let c = m.lane(2, i);
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
                let x = m.lane(2, i);
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
