//! The geometric functions: `dot`, `length`, `distance`, `normalize` (and their `fast_`
//! forms) and `cross`, computed in double precision and rounded once per result.

use super::math::MathArgs;
use crate::value::Val;
use frontend::ast::MathFn;

/// Classes `Geom1`, `Geom2` and `GeomV1`: `dot`, `length`, `distance`, `normalize`.
pub(super) fn geometric(f: MathFn, m: &MathArgs) -> Val {
    use MathFn as M;
    let (an, rk) = (m.an, m.rk);
    let x: Vec<f64> = (0..an).map(|i| m.fx(0, i)).collect();
    let y: Vec<f64> = if m.count() > 1 {
        (0..an).map(|i| m.fx(1, i)).collect()
    } else {
        x.clone()
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
    match f {
        M::Dot => Val::scalar(rk, m.out(dot(&x, &y))),
        M::Length | M::FastLength => Val::scalar(rk, m.out(dot(&x, &x).sqrt())),
        M::Distance | M::FastDistance => {
            let d: Vec<f64> = x.iter().zip(&y).map(|(p, q)| p - q).collect();
            Val::scalar(rk, m.out(dot(&d, &d).sqrt()))
        }
        _ => {
            // With an infinite lane, the lanes become copysign(1, x) (infinite) or 0 * x (the
            // others) first (OpenCL C 6.13.5).
            let x: Vec<f64> = if x.iter().any(|p| p.is_infinite()) {
                x.iter()
                    .map(|p| if p.is_infinite() { p.signum() } else { 0.0 * p })
                    .collect()
            } else {
                x
            };
            let l = dot(&x, &x).sqrt();
            Val::Lanes(
                rk,
                x.iter()
                    .map(|p| m.out(if l == 0.0 { *p } else { p / l }))
                    .collect(),
            )
        }
    }
}

/// `cross` of 3- or 4-lane vectors (the fourth lane of the result is 0).
pub(super) fn cross(m: &MathArgs) -> Val {
    let (an, rk) = (m.an, m.rk);
    let a: Vec<f64> = (0..3).map(|i| m.fx(0, i)).collect();
    let b: Vec<f64> = (0..3).map(|i| m.fx(1, i)).collect();
    let mut r = vec![
        m.out(a[1] * b[2] - a[2] * b[1]),
        m.out(a[2] * b[0] - a[0] * b[2]),
        m.out(a[0] * b[1] - a[1] * b[0]),
    ];
    if an == 4 {
        r.push(0);
    }
    Val::Lanes(rk, r)
}
