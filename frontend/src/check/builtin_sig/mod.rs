//! Overload resolution of built-in functions: argument checks, implicit conversions and result
//! types. Resolution is deliberately a little more lenient than clang's exact overload sets
//! for mixed scalar arguments (`min(x, 0)` with `uint x` converts `0` to `uint` as the usual
//! arithmetic conversions would, where clang reports an ambiguity).
//!
//! This module knows the names (which are built-ins, which are unsupported on FPGAs) and
//! dispatches a call to the signature rules of its family, one submodule each.

mod atomic;
mod c11_atomic;
mod convert;
mod math;
mod memory;
mod pipe;
mod work_item;

use self::atomic::atomic_op;
use self::c11_atomic::c11_atomic;
use self::convert::parse_convert;
use self::memory::vload_store;
use self::pipe::PIPE_FNS;
use super::Checker;
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::parser::{scalar_word, vector_type};
use crate::span::Span;

const WORK_ITEM: &[(&str, Builtin)] = &[
    ("get_global_size", Builtin::GetGlobalSize),
    ("get_global_id", Builtin::GetGlobalId),
    ("get_local_size", Builtin::GetLocalSize),
    ("get_enqueued_local_size", Builtin::GetEnqueuedLocalSize),
    ("get_local_id", Builtin::GetLocalId),
    ("get_num_groups", Builtin::GetNumGroups),
    ("get_group_id", Builtin::GetGroupId),
    ("get_global_offset", Builtin::GetGlobalOffset),
];

const OTHER_NAMES: &[&str] = &[
    "printf",
    "get_work_dim",
    "get_global_linear_id",
    "get_local_linear_id",
    "barrier",
    "work_group_barrier",
    "mem_fence",
    "read_mem_fence",
    "write_mem_fence",
    "min",
    "max",
    "clamp",
    "mad",
    "abs",
    "select",
    "shuffle",
    "shuffle2",
    "nan",
    "async_work_group_copy",
    "async_work_group_strided_copy",
    "wait_group_events",
    "prefetch",
    "vload_half",
    "vstore_half",
];

/// The call forms of built-ins whose arity users get wrong, for the arity error's note.
fn signature_hint(name: &str) -> Option<&'static str> {
    Some(match name {
        "read_pipe" => "`read_pipe(p, &packet)` or `read_pipe(p, reserve_id, index, &packet)`",
        "write_pipe" => "`write_pipe(p, &packet)` or `write_pipe(p, reserve_id, index, &packet)`",
        "read_pipe_block" => "`read_pipe_block(p, &packet)`",
        "write_pipe_block" => "`write_pipe_block(p, &packet)`",
        "async_work_group_copy" => {
            "`async_work_group_copy(dst, src, num_elements, event)` (event 0 starts a new one)"
        }
        "async_work_group_strided_copy" => {
            "`async_work_group_strided_copy(dst, src, num_elements, stride, event)`"
        }
        "wait_group_events" => {
            "`wait_group_events(num_events, event_list)`, e.g. `wait_group_events(1, &e)`"
        }
        "prefetch" => "`prefetch(global_pointer, num_elements)`",
        n if n.starts_with("get_") && n.ends_with("_id")
            || n.ends_with("_size")
            || n == "get_num_groups"
            || n == "get_global_offset" =>
        {
            "`get_...(dimension)` with a dimension 0, 1 or 2"
        }
        n if n.contains("reserve_") && n.ends_with("_pipe") => "`reserve_..._pipe(p, num_packets)`",
        n if n.contains("commit_") && n.ends_with("_pipe") => "`commit_..._pipe(p, reserve_id)`",
        _ => return None,
    })
}

/// Built-ins that exist in OpenCL C but have no FPGA implementation here.
pub(crate) fn unsupported_builtin(name: &str) -> Option<(&'static str, &'static str)> {
    if PIPE_FNS.iter().any(|p| p.0 == name) || OTHER_NAMES.contains(&name) {
        return None;
    }
    if name.starts_with("enqueue_")
        || name.starts_with("get_kernel_")
        || name == "ndrange_1D"
        || name == "ndrange_2D"
        || name == "ndrange_3D"
        || name == "get_default_queue"
        || name == "create_user_event"
        || name == "retain_event"
        || name == "release_event"
        || name == "set_user_event_status"
        || name == "capture_event_profiling_info"
        || name == "mark_event"
    {
        return Some(("device-side enqueue is", "launch kernels from the host"));
    }
    if name.starts_with("read_image")
        || name.starts_with("write_image")
        || name.starts_with("get_image_")
    {
        return Some(("images are", "pass image data as a `global` buffer"));
    }
    if name.starts_with("work_group_")
        || name.starts_with("sub_group_")
        || name.starts_with("get_sub_group")
        || name.starts_with("get_max_sub_group")
        || name.starts_with("get_num_sub_groups")
    {
        return Some((
            "work-group and sub-group collective functions are",
            "compute the reduction explicitly with `local` memory and barriers",
        ));
    }
    if matches!(name, "to_global" | "to_local" | "to_private" | "get_fence") {
        return Some((
            "explicit generic address space conversions are",
            "use a pointer of the right address space directly",
        ));
    }
    None
}

/// The functions that have `native_` and `half_` forms (OpenCL C 6.13.2, tables "half_ and
/// native_ functions"); other names with those prefixes are not built-ins.
const NATIVE_FNS: [&str; 14] = [
    "cos", "divide", "exp", "exp2", "exp10", "log", "log2", "log10", "powr", "recip", "rsqrt",
    "sin", "sqrt", "tan",
];

/// `name` without a `native_`/`half_` prefix, when it is one of [`NATIVE_FNS`] with it.
fn native_base(name: &str) -> Option<&str> {
    name.strip_prefix("native_")
        .or_else(|| name.strip_prefix("half_"))
        .filter(|b| NATIVE_FNS.contains(b))
}

/// Whether `name` is (reserved for) a built-in function.
pub(crate) fn is_builtin_name(name: &str) -> bool {
    let base = native_base(name).unwrap_or(name);
    WORK_ITEM.iter().any(|w| w.0 == name)
        || PIPE_FNS.iter().any(|w| w.0 == name)
        || OTHER_NAMES.contains(&name)
        || MathFn::from_name(base).is_some()
        || parse_convert(name).is_some()
        || name.strip_prefix("as_").is_some_and(type_word)
        || vload_store(name).is_some()
        || atomic_op(name).is_some()
        || c11_atomic(name).is_some()
        || unsupported_builtin(name).is_some()
}

/// Names offered as "did you mean" suggestions.
pub(crate) fn builtin_names() -> impl Iterator<Item = &'static str> {
    WORK_ITEM
        .iter()
        .map(|w| w.0)
        .chain(PIPE_FNS.iter().map(|w| w.0))
        .chain(OTHER_NAMES.iter().copied())
        .chain(MathFn::ALL.iter().map(|m| m.name()))
}

fn type_word(s: &str) -> bool {
    scalar_word(s).is_some_and(|k| k != ScalarKind::Bool) || vector_type(s).is_some()
}

fn word_type(s: &str) -> Option<Type> {
    if let Some(k) = scalar_word(s).filter(|k| *k != ScalarKind::Bool) {
        return Some(Type::Scalar(k));
    }
    vector_type(s).map(|(k, n)| Type::Vector(k, n))
}

impl Checker<'_> {
    fn bi(&self, builtin: Builtin, args: Vec<Expr>, ty: Type, span: Span) -> Option<Option<Expr>> {
        Some(Some(self.mk(ExprKind::Builtin { builtin, args }, ty, span)))
    }

    fn arity(&mut self, name: &str, args: &[Expr], n: &[usize], span: Span) -> bool {
        if n.contains(&args.len()) {
            return true;
        }
        let want = n
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" or ");
        let mut d = Diagnostic::error(
            span,
            format!(
                "`{}` takes {} argument{} but {} {} given",
                name,
                want,
                if n == [1] { "" } else { "s" },
                args.len(),
                if args.len() == 1 { "was" } else { "were" }
            ),
        );
        if let Some(sig) = signature_hint(name) {
            d = d.note(format!(
                "the form{}: {}",
                if sig.contains(" or ") { "s are" } else { " is" },
                sig
            ));
        }
        self.error(d);
        false
    }

    fn convert_arg(&mut self, e: Expr, t: &Type, what: &str) -> Option<Expr> {
        let e = self.decay(e);
        self.convert(e, t, what)
    }

    fn int_arg(&mut self, e: Expr, name: &str, t: &Type) -> Option<Expr> {
        let e = self.decay(e);
        if !(e.ty.is_scalar() && e.ty.is_integer()) {
            let tn = self.type_name(&e.ty);
            self.err(
                e.span,
                format!(
                    "this argument of `{}` must be an integer, not `{}`",
                    name, tn
                ),
            );
            return None;
        }
        Some(self.cast(e, t, CastKind::Implicit))
    }

    /// Returns `None` if `name` is not a built-in; `Some(None)` after reporting an error.
    pub(crate) fn builtin_call(
        &mut self,
        name: &str,
        nsp: Span,
        args: Vec<Expr>,
        span: Span,
        args_ok: bool,
    ) -> Option<Option<Expr>> {
        if let Some((what, note)) = unsupported_builtin(name) {
            self.unsupported(nsp, what, note);
            return Some(None);
        }
        if !is_builtin_name(name) {
            return None;
        }
        if !args_ok {
            return Some(None);
        }
        Some(self.builtin_inner(name, nsp, args, span).and_then(|x| x))
    }

    fn builtin_inner(
        &mut self,
        name: &str,
        nsp: Span,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if let Some((_, b)) = WORK_ITEM.iter().find(|w| w.0 == name) {
            return self.work_item_query(name, *b, args, span);
        }
        if let Some((_, b)) = PIPE_FNS.iter().find(|w| w.0 == name) {
            return self.pipe_builtin(name, *b, args, span);
        }
        match name {
            "printf" => return self.printf(args, span),
            "get_work_dim" | "get_global_linear_id" | "get_local_linear_id" => {
                return self.linear_query(name, args, span)
            }
            "barrier" | "work_group_barrier" | "mem_fence" | "read_mem_fence"
            | "write_mem_fence" => return self.fence(name, args, span),
            "min" | "max" | "clamp" | "mad" | "abs" => return self.common_fn(name, args, span),
            "select" => return self.select(args, span),
            "shuffle" | "shuffle2" => return self.shuffle(name, args, span),
            "nan" => return self.nan_fn(args, span),
            "async_work_group_copy" | "async_work_group_strided_copy" => {
                return self.async_copy(name, args, span)
            }
            "wait_group_events" => return self.wait_group_events(name, args, span),
            "prefetch" => return self.prefetch(name, args, span),
            _ => {}
        }
        if let Some((ty, sat, rounding)) = parse_convert(name) {
            return self.convert_builtin(name, ty, sat, rounding, args, span);
        }
        if let Some(t) = name.strip_prefix("as_").and_then(word_type) {
            return self.as_type(name, t, args, span);
        }
        if let Some((load, half, n)) = vload_store(name) {
            return self.vload_store(name, load, half, n, args, span);
        }
        if let Some((op, is64)) = atomic_op(name) {
            return self.atomic(name, op, is64, args, span);
        }
        if let Some((f, explicit)) = c11_atomic(name) {
            return self.c11_atomic_call(name, f, explicit, args, span);
        }
        let (native, base) = match native_base(name) {
            Some(b) => (true, b),
            None => (false, name),
        };
        if let Some(m) = MathFn::from_name(base) {
            return self.math(name, m, native, args, span);
        }
        let _ = nsp;
        None
    }
}
