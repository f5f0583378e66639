//! Conversion built-ins: `convert_T[_sat][_rounding]` and `as_T`.

use super::word_type;
use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

/// `convert_float4_sat_rte` -> (float4, sat, rounding).
pub(super) fn parse_convert(name: &str) -> Option<(Type, bool, Rounding)> {
    let rest = name.strip_prefix("convert_")?;
    let mut parts = rest.split('_');
    let ty = word_type(parts.next()?)?;
    let mut sat = false;
    let mut rounding = Rounding::Default;
    let mut p = parts.next();
    if p == Some("sat") {
        sat = true;
        p = parts.next();
    }
    if let Some(r) = p {
        rounding = match r {
            "rte" => Rounding::Rte,
            "rtz" => Rounding::Rtz,
            "rtp" => Rounding::Rtp,
            "rtn" => Rounding::Rtn,
            _ => return None,
        };
    }
    if parts.next().is_some() {
        return None;
    }
    Some((ty, sat, rounding))
}

impl Checker<'_> {
    pub(super) fn convert_builtin(
        &mut self,
        name: &str,
        ty: Type,
        sat: bool,
        rounding: Rounding,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[1], span) {
            return Some(None);
        }
        let a = self.decay(args.into_iter().next().expect("arity"));
        if !a.ty.is_arithmetic() {
            let tn = self.type_name(&a.ty);
            self.err(
                a.span,
                format!("`{}` needs a scalar or vector argument, not `{}`", name, tn),
            );
            return Some(None);
        }
        if a.ty.lanes() != ty.lanes() || a.ty.is_vector() != ty.is_vector() {
            let (x, y) = (self.type_name(&a.ty), self.type_name(&ty));
            self.error(
                Diagnostic::error(span, format!("`{}` converts between types with the same number of components; `{}` and `{}` differ", name, x, y))
                    .note("use a swizzle or a vector literal to change the number of components"),
            );
            return Some(None);
        }
        if sat && ty.is_float() {
            self.err(
                span,
                format!(
                    "`{}`: saturation applies only to integer destination types",
                    name
                ),
            );
            return Some(None);
        }
        if !ty.is_float() && !a.ty.is_float() && rounding != Rounding::Default {
            // rounding modes are meaningless between integers but allowed
        }
        if !sat && rounding == Rounding::Default {
            return Some(Some(self.cast(a, &ty, CastKind::Explicit)));
        }
        self.bi(Builtin::Convert { sat, rounding }, vec![a], ty, span)
    }

    /// `as_T(x)`: reinterprets the bits of a scalar or vector of the same size.
    pub(super) fn as_type(
        &mut self,
        name: &str,
        t: Type,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[1], span) {
            return Some(None);
        }
        let a = self.decay(args.into_iter().next().expect("arity"));
        if !a.ty.is_arithmetic() {
            let tn = self.type_name(&a.ty);
            self.err(
                a.span,
                format!("`{}` needs a scalar or vector argument, not `{}`", name, tn),
            );
            return Some(None);
        }
        let (sa, st) = (self.structs.size_of(&a.ty), self.structs.size_of(&t));
        if sa != st {
            let (x, y) = (self.type_name(&a.ty), self.type_name(&t));
            self.error(
                Diagnostic::error(span, format!("`{}` reinterprets bits: `{}` ({} bytes) and `{}` ({} bytes) differ in size", name, x, sa, y, st))
                    .note("the source and destination types of `as_T` must have the same size"),
            );
            return Some(None);
        }
        if a.ty == t {
            return Some(Some(a));
        }
        self.bi(Builtin::AsType, vec![a], t, span)
    }
}
