//! Accesses into aggregates: subscripts of arrays, pointers and vectors, struct and union
//! fields, and vector swizzles (`v.xy`, `v.s01`, `v.lo`).

use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax as syn;

/// Parses a vector component selector (`xy`, `s01`, `lo`, `rgba`) for a vector of `n` lanes.
pub(crate) fn parse_swizzle(name: &str, n: u8) -> Result<Vec<u8>, String> {
    let count = |v: Vec<u8>| -> Result<Vec<u8>, String> { Ok(v) };
    let half = |which: u8| -> Vec<u8> {
        // 3-vectors behave like 4-vectors here; the missing 4th lane is undefined, we use lane 2.
        let m = if n == 3 { 4 } else { n };
        let lanes: Vec<u8> = match which {
            0 => (0..m / 2).collect(),
            1 => (m / 2..m).collect(),
            2 => (0..m).step_by(2).collect(),
            _ => (1..m).step_by(2).collect(),
        };
        lanes.into_iter().map(|l| l.min(n - 1)).collect()
    };
    match name {
        "lo" => return count(half(0)),
        "hi" => return count(half(1)),
        "even" => return count(half(2)),
        "odd" => return count(half(3)),
        _ => {}
    }
    let mut lanes = Vec::new();
    if let Some(rest) = name.strip_prefix(['s', 'S']) {
        if rest.is_empty() {
            return Err("`.s` needs lane numbers, e.g. `.s0` or `.s01`".into());
        }
        for c in rest.chars() {
            let Some(d) = c.to_digit(16) else {
                return Err(format!("`{}` is not a lane number (0-9, a-f)", c));
            };
            if d as u8 >= n {
                return Err(format!(
                    "lane {} is out of range for a vector of {} elements",
                    c, n
                ));
            }
            lanes.push(d as u8);
        }
    } else {
        let xyzw = name.chars().all(|c| "xyzw".contains(c));
        let rgba = name.chars().all(|c| "rgba".contains(c));
        if !xyzw && !rgba {
            return Err(format!(
                "`{}` is not a vector component; use `.x .y .z .w`, `.s0`-`.sF`, `.lo .hi .even .odd`",
                name
            ));
        }
        if n > 4 {
            return Err(format!(
                "`.{}` only works on vectors of up to 4 elements; use `.s0`-`.sF`",
                name
            ));
        }
        for c in name.chars() {
            let d = "xyzw".find(c).or_else(|| "rgba".find(c)).unwrap_or(0) as u8;
            if d >= n {
                return Err(format!(
                    "component `{}` is out of range for a vector of {} elements",
                    c, n
                ));
            }
            lanes.push(d);
        }
    }
    if !Type::valid_vector_len(lanes.len() as u32) && lanes.len() != 1 {
        return Err(format!(
            "a swizzle must select 1, 2, 3, 4, 8 or 16 components, not {}",
            lanes.len()
        ));
    }
    Ok(lanes)
}

/// `base.lanes`, composing with a swizzle `base` (`v.xy.y` is `v.y`).
pub(crate) fn swizzle(base: Expr, lanes: Vec<u8>, ty: Type, span: Span) -> Expr {
    if let ExprKind::Swizzle {
        base: inner,
        lanes: inner_lanes,
    } = base.kind
    {
        let composed = lanes.iter().map(|l| inner_lanes[*l as usize]).collect();
        return swizzle(*inner, composed, ty, span);
    }
    let lvalue = base.lvalue;
    Expr {
        kind: ExprKind::Swizzle {
            base: Box::new(base),
            lanes,
        },
        ty,
        span,
        lvalue,
    }
}

impl Checker<'_> {
    pub(super) fn index(&mut self, b: &syn::Expr, i: &syn::Expr, span: Span) -> Option<Expr> {
        let base = self.expr(b);
        let idx = self.rvalue(i);
        let (mut base, mut idx) = (base?, idx?);
        // `i[p]` is `p[i]`
        if base.ty.is_integer() && base.ty.is_scalar() && (idx.ty.is_pointer() || idx.ty.is_array())
        {
            std::mem::swap(&mut base, &mut idx);
        }
        if let Type::Vector(k, n) = base.ty {
            let Some(v) = self.const_value(&idx).filter(|_| idx.ty.is_integer()) else {
                self.error(
                    Diagnostic::error(idx.span, "a vector can only be indexed with a constant")
                        .note("use a swizzle (`v.s3`) or store the vector in an array to index it dynamically"),
                );
                return None;
            };
            if v >= n as u64 {
                self.err(
                    idx.span,
                    format!("index {} is out of range for a vector of {} elements", v, n),
                );
                return None;
            }
            return Some(swizzle(base, vec![v as u8], Type::Scalar(k), span));
        }
        let elem = match &base.ty {
            Type::Pointer { pointee, .. } => (**pointee).clone(),
            Type::Array(e, _) => (**e).clone(),
            t => {
                let t = self.type_name(t);
                self.err(span, format!("cannot index a value of type `{}`", t));
                return None;
            }
        };
        if elem.is_void() {
            self.err(span, "cannot index a `void` pointer");
            return None;
        }
        self.check_loadable(&elem, span)?;
        if !(idx.ty.is_integer() && idx.ty.is_scalar()) {
            let t = self.type_name(&idx.ty);
            self.err(
                idx.span,
                format!("array index must be an integer, not `{}`", t),
            );
            return None;
        }
        if let (Type::Array(_, n), Some(v)) = (&base.ty, self.const_value(&idx)) {
            let k = idx.ty.elem_kind().unwrap_or(ScalarKind::Int);
            let sv = k.as_i64(v);
            if sv < 0 || sv >= *n as i64 {
                self.warn(Diagnostic::warning(
                    idx.span,
                    format!("index {} is past the end of an array of {} elements", sv, n),
                ));
            }
        }
        let idx = self.promote(idx);
        let it = if idx.ty.elem_kind().is_some_and(|k| k.is_signed()) {
            Type::INT
        } else {
            Type::UINT
        };
        let idx = self.cast(idx, &it, CastKind::Implicit);
        Some(Expr {
            kind: ExprKind::Index {
                base: Box::new(base),
                index: Box::new(idx),
            },
            ty: elem,
            span,
            lvalue: true,
        })
    }

    pub(super) fn member(&mut self, base: Expr, name: &str, nsp: Span, span: Span) -> Option<Expr> {
        match &base.ty {
            Type::Struct(id) => {
                let def = self.structs.get(*id);
                let Some(fi) = def.field_index(name) else {
                    let t = self.type_name(&base.ty);
                    let fields: Vec<String> = self
                        .structs
                        .get(*id)
                        .fields
                        .iter()
                        .map(|f| format!("`{}`", f.name))
                        .collect();
                    self.error(
                        Diagnostic::error(nsp, format!("`{}` has no field `{}`", t, name)).note(
                            format!(
                                "its fields are {}",
                                if fields.is_empty() {
                                    "none".to_string()
                                } else {
                                    fields.join(", ")
                                }
                            ),
                        ),
                    );
                    return None;
                };
                let ty = def.fields[fi as usize].ty.clone();
                let lv = base.lvalue;
                Some(Expr {
                    kind: ExprKind::Member {
                        base: Box::new(base),
                        field: fi,
                    },
                    ty,
                    span,
                    lvalue: lv,
                })
            }
            Type::Vector(k, n) => {
                let (k, n) = (*k, *n);
                let lanes = match parse_swizzle(name, n) {
                    Ok(l) => l,
                    Err(m) => {
                        let t = self.type_name(&base.ty);
                        self.error(
                            Diagnostic::error(
                                nsp,
                                format!("invalid component `.{}` of `{}`", name, t),
                            )
                            .note(m),
                        );
                        return None;
                    }
                };
                let ty = if lanes.len() == 1 {
                    Type::Scalar(k)
                } else {
                    Type::Vector(k, lanes.len() as u8)
                };
                Some(swizzle(base, lanes, ty, span))
            }
            Type::Pointer { pointee, .. } if pointee.is_struct() => {
                self.error(
                    Diagnostic::error(span, format!("`.{}` on a pointer", name))
                        .note("use `->` to access a field through a pointer"),
                );
                None
            }
            t => {
                let t = self.type_name(t);
                self.err(
                    span,
                    format!(
                        "`.{}` on a value of type `{}`, which has no fields",
                        name, t
                    ),
                );
                None
            }
        }
    }
}
