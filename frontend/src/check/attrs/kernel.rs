//! Kernel attributes: the work-group size a kernel requires, hints about its launches and its
//! computation, and the vendor limits on work-group size and dimensions -> `KernelAttrs`.

use super::Place;
use crate::ast::*;
use crate::check::Checker;
use crate::diag::Diagnostic;
use crate::span::Span;

impl Checker<'_> {
    /// Validates the attributes of a function definition. Kernel attributes on a helper
    /// function are errors (the work-group sizes) or ignored with a warning.
    pub(crate) fn kernel_attrs(&mut self, attrs: &[Attribute], is_kernel: bool) -> KernelAttrs {
        let mut reqd: Option<([u32; 3], Span)> = None;
        let mut hint: Option<([u32; 3], Span)> = None;
        let mut vec_hint: Option<(Type, Span)> = None;
        let mut max_size: Option<(u64, Span)> = None;
        let mut max_dim: Option<(u32, Span)> = None;
        for a in attrs {
            match Place::of(&a.name) {
                Some(Place::Kernel) => {}
                Some(p) => {
                    self.misplaced(a, p);
                    continue;
                }
                None => continue,
            }
            match a.name.as_str() {
                "reqd_work_group_size"
                | "work_group_size_hint"
                | "max_work_group_size"
                | "xcl_max_work_group_size" => {
                    let sizes = self.work_group_size(a);
                    if !is_kernel {
                        self.error(Diagnostic::error(
                            a.span,
                            format!("`{}` only applies to kernel functions", a.name),
                        ));
                        continue;
                    }
                    let Some(v) = sizes else { continue };
                    match a.name.as_str() {
                        "reqd_work_group_size" => self.set_once(&mut reqd, [v[0], v[1], v[2]], a),
                        "work_group_size_hint" => self.set_once(&mut hint, [v[0], v[1], v[2]], a),
                        _ => {
                            let total = v.iter().map(|&x| x as u64).product();
                            self.set_once(&mut max_size, total, a)
                        }
                    }
                }
                "vec_type_hint" => {
                    let t = match a.args.as_slice() {
                        [AttrArg::Type(t)] if t.is_arithmetic() => Some(t.clone()),
                        _ if self.is_broken(a) => None,
                        _ => {
                            self.error(
                                Diagnostic::error(
                                    a.span,
                                    "`vec_type_hint` needs a scalar or vector type",
                                )
                                .note("write `__attribute__((vec_type_hint(float4)))`"),
                            );
                            None
                        }
                    };
                    match t {
                        Some(_) if !is_kernel => self.misplaced(a, Place::Kernel),
                        Some(t) => self.set_once(&mut vec_hint, t, a),
                        None => {}
                    }
                }
                "max_global_work_dim" => {
                    let v = self.attr_ints(a, &[1], 0, 3, "max_global_work_dim(0)");
                    match v {
                        Some(_) if !is_kernel => self.misplaced(a, Place::Kernel),
                        Some(v) => self.set_once(&mut max_dim, v[0], a),
                        None => {}
                    }
                }
                other => unreachable!("`{other}` is not a kernel attribute"),
            }
        }
        KernelAttrs {
            reqd_work_group_size: reqd.map(|x| x.0),
            work_group_size_hint: hint.map(|x| x.0),
            vec_type_hint: vec_hint.map(|x| x.0),
            max_work_group_size: max_size.map(|x| x.0),
            max_global_work_dim: max_dim.map(|x| x.0),
        }
    }

    /// The sizes of `reqd_work_group_size(X, Y, Z)` and `work_group_size_hint(X, Y, Z)`, or of
    /// `max_work_group_size` / `xcl_max_work_group_size` (one size or three): positive 32-bit
    /// integer constants.
    fn work_group_size(&mut self, a: &Attribute) -> Option<Vec<u32>> {
        if self.is_broken(a) {
            return None;
        }
        let one_allowed = matches!(
            a.name.as_str(),
            "max_work_group_size" | "xcl_max_work_group_size"
        );
        let v = a.int_args().filter(|v| {
            (one_allowed && v.len() == 1 || v.len() == 3)
                && v.iter().all(|x| *x > 0 && *x <= u32::MAX as u64)
        });
        if v.is_none() {
            self.error(
                Diagnostic::error(
                    a.span,
                    format!("`{}` needs three positive integer constants", a.name),
                )
                .note(format!("write `__attribute__(({}(64, 1, 1)))`", a.name)),
            );
        }
        v.map(|v| v.into_iter().map(|x| x as u32).collect())
    }
}
