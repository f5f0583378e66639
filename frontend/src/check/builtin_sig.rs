//! Overload resolution of built-in functions: argument checks, implicit conversions and result
//! types. Resolution is deliberately a little more lenient than clang's exact overload sets
//! for mixed scalar arguments (`min(x, 0)` with `uint x` converts `0` to `uint` as the usual
//! arithmetic conversions would, where clang reports an ambiguity).

use super::{Checker, CounterOp, CounterUse};
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

const PIPE_FNS: &[(&str, Builtin)] = &[
    ("read_pipe", Builtin::ReadPipe),
    ("write_pipe", Builtin::WritePipe),
    ("reserve_read_pipe", Builtin::ReserveReadPipe),
    ("reserve_write_pipe", Builtin::ReserveWritePipe),
    ("commit_read_pipe", Builtin::CommitReadPipe),
    ("commit_write_pipe", Builtin::CommitWritePipe),
    (
        "work_group_reserve_read_pipe",
        Builtin::WorkGroupReserveReadPipe,
    ),
    (
        "work_group_reserve_write_pipe",
        Builtin::WorkGroupReserveWritePipe,
    ),
    (
        "work_group_commit_read_pipe",
        Builtin::WorkGroupCommitReadPipe,
    ),
    (
        "work_group_commit_write_pipe",
        Builtin::WorkGroupCommitWritePipe,
    ),
    (
        "sub_group_reserve_read_pipe",
        Builtin::SubGroupReserveReadPipe,
    ),
    (
        "sub_group_reserve_write_pipe",
        Builtin::SubGroupReserveWritePipe,
    ),
    (
        "sub_group_commit_read_pipe",
        Builtin::SubGroupCommitReadPipe,
    ),
    (
        "sub_group_commit_write_pipe",
        Builtin::SubGroupCommitWritePipe,
    ),
    ("read_pipe_block", Builtin::ReadPipeBlock),
    ("write_pipe_block", Builtin::WritePipeBlock),
    ("get_pipe_num_packets", Builtin::GetPipeNumPackets),
    ("get_pipe_max_packets", Builtin::GetPipeMaxPackets),
    ("is_valid_reserve_id", Builtin::IsValidReserveId),
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
    "async_work_group_copy",
    "async_work_group_strided_copy",
    "wait_group_events",
    "prefetch",
    "vload_half",
    "vstore_half",
];

const ATOMICS: &[(&str, AtomicOp)] = &[
    ("add", AtomicOp::Add),
    ("sub", AtomicOp::Sub),
    ("xchg", AtomicOp::Xchg),
    ("min", AtomicOp::Min),
    ("max", AtomicOp::Max),
    ("and", AtomicOp::And),
    ("or", AtomicOp::Or),
    ("xor", AtomicOp::Xor),
    ("inc", AtomicOp::Inc),
    ("dec", AtomicOp::Dec),
    ("cmpxchg", AtomicOp::CmpXchg),
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
    if matches!(
        name,
        "atomic_init"
            | "atomic_load"
            | "atomic_store"
            | "atomic_exchange"
            | "atomic_work_item_fence"
            | "atomic_flag_test_and_set"
            | "atomic_flag_clear"
    ) || name.starts_with("atomic_fetch_")
        || name.starts_with("atomic_compare_exchange")
        || name.ends_with("_explicit") && name.starts_with("atomic_")
    {
        return Some(("C11-style atomics are", "use the OpenCL 1.x atomics `atomic_add(p, v)`, `atomic_inc(p)`, `atomic_cmpxchg(p, c, v)`"));
    }
    if matches!(name, "to_global" | "to_local" | "to_private" | "get_fence") {
        return Some((
            "explicit generic address space conversions are",
            "use a pointer of the right address space directly",
        ));
    }
    None
}

/// Whether `name` is (reserved for) a built-in function.
pub(crate) fn is_builtin_name(name: &str) -> bool {
    let base = name
        .strip_prefix("native_")
        .or_else(|| name.strip_prefix("half_"))
        .unwrap_or(name);
    WORK_ITEM.iter().any(|w| w.0 == name)
        || PIPE_FNS.iter().any(|w| w.0 == name)
        || OTHER_NAMES.contains(&name)
        || MathFn::from_name(base).is_some()
        || parse_convert(name).is_some()
        || name.strip_prefix("as_").is_some_and(type_word)
        || vload_store(name).is_some()
        || atomic_op(name).is_some()
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

/// `convert_float4_sat_rte` -> (float4, sat, rounding).
fn parse_convert(name: &str) -> Option<(Type, bool, Rounding)> {
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

/// `vload4` -> (load, half, 4); `vstore_half2` -> (store, half, 2); `vload_half` -> n = 1.
fn vload_store(name: &str) -> Option<(bool, bool, u8)> {
    let (load, rest) = if let Some(r) = name.strip_prefix("vload") {
        (true, r)
    } else if let Some(r) = name.strip_prefix("vstore") {
        (false, r)
    } else {
        return None;
    };
    let (half, digits) = match rest.strip_prefix("_half") {
        Some(d) => (true, d),
        None => (false, rest),
    };
    let n: u8 = match digits {
        "" if half => 1,
        "2" => 2,
        "3" => 3,
        "4" => 4,
        "8" => 8,
        "16" => 16,
        _ => return None,
    };
    Some((load, half, n))
}

fn atomic_op(name: &str) -> Option<(AtomicOp, bool)> {
    let (rest, is64) = if let Some(r) = name.strip_prefix("atomic_") {
        (r, false)
    } else if let Some(r) = name.strip_prefix("atom_") {
        (r, true)
    } else {
        return None;
    };
    ATOMICS.iter().find(|a| a.0 == rest).map(|a| (a.1, is64))
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

    /// Resolves a gentype overload: all arguments converted to one scalar or vector type.
    fn gentype(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        float_only: bool,
        int_only: bool,
        span: Span,
    ) -> Option<(Vec<Expr>, Type)> {
        let args: Vec<Expr> = args.into_iter().map(|a| self.decay(a)).collect();
        for a in &args {
            if !a.ty.is_arithmetic() {
                let t = self.type_name(&a.ty);
                self.err(
                    a.span,
                    format!("`{}` needs scalar or vector arguments, not `{}`", name, t),
                );
                return None;
            }
        }
        let mut t: Option<Type> = args.iter().find(|a| a.ty.is_vector()).map(|a| a.ty.clone());
        if let Some(vt) = &t {
            for a in &args {
                if a.ty.is_vector() && a.ty != *vt {
                    let (x, y) = (self.type_name(vt), self.type_name(&a.ty));
                    self.error(
                        Diagnostic::error(
                            a.span,
                            format!(
                                "arguments of `{}` have different vector types `{}` and `{}`",
                                name, x, y
                            ),
                        )
                        .note(format!("convert explicitly, e.g. `convert_{}(...)`", x)),
                    );
                    return None;
                }
            }
        } else {
            let mut k: Option<ScalarKind> = None;
            // literals adapt to the other arguments (`min(x, 0)`, `pow(x, 2)`)
            let non_lit: Vec<&Expr> = args
                .iter()
                .filter(|a| !matches!(a.kind, ExprKind::IntLit(_) | ExprKind::FloatLit(_)))
                .collect();
            let basis: Vec<&Expr> = if non_lit.is_empty() {
                args.iter().collect()
            } else {
                non_lit
            };
            // arguments of one type select that overload (`min(char, char)` is `char`);
            // mixed types follow the usual arithmetic conversions
            let same = basis.windows(2).all(|w| w[0].ty == w[1].ty);
            for a in basis {
                let ak = a.ty.elem_kind().expect("arithmetic");
                k = Some(match k {
                    None => ak,
                    Some(p) if same => p,
                    Some(p) => super::expr::usual_scalar(p, ak),
                });
            }
            let mut k = k.expect("at least one argument");
            if args.iter().any(|a| a.ty.is_float()) && k.is_integer() {
                k = ScalarKind::Float;
            }
            t = Some(Type::Scalar(k));
        }
        let t = t.expect("set above");
        if float_only && !t.is_float() {
            if args.iter().all(|a| matches!(a.kind, ExprKind::IntLit(_))) && t.is_scalar() {
                let ft = Type::FLOAT;
                let args = args.into_iter().map(|a| self.arith_to(a, &ft)).collect();
                return Some((args, ft));
            }
            let tn = self.type_name(&t);
            self.error(
                Diagnostic::error(
                    span,
                    format!("`{}` needs floating-point arguments, found `{}`", name, tn),
                )
                .note(format!("convert the argument, e.g. `{}((float)x)`", name)),
            );
            return None;
        }
        if int_only && !t.is_integer() {
            let tn = self.type_name(&t);
            let mut d = Diagnostic::error(
                span,
                format!("`{}` needs integer arguments, found `{}`", name, tn),
            );
            if name == "abs" {
                d = d.note("use `fabs` for floating-point values");
            }
            self.error(d);
            return None;
        }
        let args = args
            .into_iter()
            .map(|a| {
                if a.ty.is_scalar() && t.is_vector() {
                    self.splat(a, &t, CastKind::Implicit)
                } else {
                    self.arith_to(a, &t)
                }
            })
            .collect();
        Some((args, t))
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
            if !self.arity(name, &args, &[1], span) {
                return Some(None);
            }
            let a = self.int_arg(args.into_iter().next().expect("arity"), name, &Type::UINT)?;
            return self.bi(*b, vec![a], Type::SIZE_T, span);
        }
        if let Some((_, b)) = PIPE_FNS.iter().find(|w| w.0 == name) {
            return self.pipe_builtin(name, *b, args, span);
        }
        if name == "printf" {
            return self.printf(args, span);
        }
        match name {
            "get_work_dim" | "get_global_linear_id" | "get_local_linear_id" => {
                if !self.arity(name, &args, &[0], span) {
                    return Some(None);
                }
                let b = match name {
                    "get_work_dim" => Builtin::GetWorkDim,
                    "get_global_linear_id" => Builtin::GetGlobalLinearId,
                    _ => Builtin::GetLocalLinearId,
                };
                let t = if b == Builtin::GetWorkDim {
                    Type::UINT
                } else {
                    Type::SIZE_T
                };
                return self.bi(b, vec![], t, span);
            }
            "barrier" | "work_group_barrier" | "mem_fence" | "read_mem_fence"
            | "write_mem_fence" => {
                let n: &[usize] = if name == "work_group_barrier" {
                    &[1, 2]
                } else {
                    &[1]
                };
                if !self.arity(name, &args, n, span) {
                    return Some(None);
                }
                let mut xs = Vec::new();
                for a in args {
                    xs.push(self.int_arg(a, name, &Type::UINT)?);
                }
                if let Some(v) = self.const_value(&xs[0]) {
                    if v & !7 != 0 {
                        self.warn(
                            Diagnostic::warning(xs[0].span, "unknown memory fence flags")
                                .note("use CLK_LOCAL_MEM_FENCE and/or CLK_GLOBAL_MEM_FENCE"),
                        );
                    }
                }
                if name != "work_group_barrier" {
                    xs.truncate(1);
                }
                let b = match name {
                    "barrier" | "work_group_barrier" => Builtin::Barrier,
                    "mem_fence" => Builtin::MemFence,
                    "read_mem_fence" => Builtin::ReadMemFence,
                    _ => Builtin::WriteMemFence,
                };
                return self.bi(b, xs, Type::Void, span);
            }
            "min" | "max" => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, false, false, span)?;
                let b = if name == "min" {
                    Builtin::Min
                } else {
                    Builtin::Max
                };
                return self.bi(b, xs, t, span);
            }
            "clamp" => {
                if !self.arity(name, &args, &[3], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, false, false, span)?;
                return self.bi(Builtin::Clamp, xs, t, span);
            }
            "mad" => {
                if !self.arity(name, &args, &[3], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                return self.bi(Builtin::Mad, xs, t, span);
            }
            "abs" => {
                if !self.arity(name, &args, &[1], span) {
                    return Some(None);
                }
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                let k = t.elem_kind().expect("int").to_unsigned();
                return self.bi(Builtin::Abs, xs, t.with_elem(k), span);
            }
            "select" => return self.select(args, span),
            "async_work_group_copy" | "async_work_group_strided_copy" => {
                return self.async_copy(name, args, span)
            }
            "wait_group_events" => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let mut it = args.into_iter();
                let n = self.int_arg(it.next().expect("arity"), name, &Type::INT)?;
                let ev = self.decay(it.next().expect("arity"));
                if !matches!(&ev.ty, Type::Pointer { pointee, .. } if **pointee == Type::Event) {
                    let t = self.type_name(&ev.ty);
                    self.error(
                        Diagnostic::error(
                            ev.span,
                            format!("`wait_group_events` needs an `event_t *` list, not `{}`", t),
                        )
                        .note("write `wait_group_events(1, &ev)`"),
                    );
                    return Some(None);
                }
                return self.bi(Builtin::WaitGroupEvents, vec![n, ev], Type::Void, span);
            }
            "prefetch" => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let mut it = args.into_iter();
                let p = self.decay(it.next().expect("arity"));
                if !matches!(
                    &p.ty,
                    Type::Pointer {
                        space: AddrSpace::Global,
                        ..
                    }
                ) {
                    self.err(p.span, "`prefetch` needs a `global` pointer");
                    return Some(None);
                }
                let n = self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?;
                return self.bi(Builtin::Prefetch, vec![p, n], Type::Void, span);
            }
            _ => {}
        }
        if let Some((ty, sat, rounding)) = parse_convert(name) {
            return self.convert_builtin(name, ty, sat, rounding, args, span);
        }
        if let Some(t) = name.strip_prefix("as_").and_then(word_type) {
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
            return self.bi(Builtin::AsType, vec![a], t, span);
        }
        if let Some((load, half, n)) = vload_store(name) {
            return self.vload_store(name, load, half, n, args, span);
        }
        if let Some((op, is64)) = atomic_op(name) {
            return self.atomic(name, op, is64, args, span);
        }
        let (native, base) = if let Some(b) = name.strip_prefix("native_") {
            (true, b)
        } else if let Some(b) = name.strip_prefix("half_") {
            (true, b)
        } else {
            (false, name)
        };
        if let Some(m) = MathFn::from_name(base) {
            return self.math(name, m, native, args, span);
        }
        let _ = nsp;
        None
    }

    fn math(
        &mut self,
        name: &str,
        m: MathFn,
        native: bool,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let b = if native {
            Builtin::NativeMath(m)
        } else {
            Builtin::Math(m)
        };
        let n = match m.class() {
            MathClass::F1
            | MathClass::I1
            | MathClass::FRel1
            | MathClass::AnyAll
            | MathClass::Geom1
            | MathClass::GeomV1 => 1,
            MathClass::F2
            | MathClass::I2
            | MathClass::IU2
            | MathClass::FRel2
            | MathClass::Geom2
            | MathClass::Cross
            | MathClass::Step
            | MathClass::FInt => 2,
            MathClass::F3
            | MathClass::I3
            | MathClass::Bitsel
            | MathClass::Mix
            | MathClass::SmoothStep => 3,
        };
        if !self.arity(name, &args, &[n], span) {
            return Some(None);
        }
        match m.class() {
            MathClass::F1
            | MathClass::F2
            | MathClass::F3
            | MathClass::Mix
            | MathClass::Step
            | MathClass::SmoothStep => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                self.bi(b, xs, t, span)
            }
            MathClass::I1 | MathClass::I2 | MathClass::I3 => {
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                self.bi(b, xs, t, span)
            }
            MathClass::IU2 => {
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                let k = t.elem_kind().expect("int").to_unsigned();
                self.bi(b, xs, t.with_elem(k), span)
            }
            MathClass::FRel1 | MathClass::FRel2 => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                let r = match t {
                    Type::Vector(k, n) => Type::Vector(k.to_signed_int(), n),
                    _ => Type::INT,
                };
                self.bi(b, xs, r, span)
            }
            MathClass::AnyAll => {
                let (xs, t) = self.gentype(name, args, false, true, span)?;
                if !t.elem_kind().is_some_and(|k| k.is_signed()) {
                    let tn = self.type_name(&t);
                    self.error(
                        Diagnostic::error(span, format!("`{}` needs a signed integer argument, not `{}`", name, tn))
                            .note("it tests the most significant bit of each component (e.g. a comparison result)"),
                    );
                    return Some(None);
                }
                self.bi(b, xs, Type::INT, span)
            }
            MathClass::Bitsel => {
                let (xs, t) = self.gentype(name, args, false, false, span)?;
                self.bi(b, xs, t, span)
            }
            MathClass::Geom1 | MathClass::Geom2 | MathClass::GeomV1 | MathClass::Cross => {
                let (xs, t) = self.gentype(name, args, true, false, span)?;
                if t.lanes() > 4 || (m.class() == MathClass::Cross && !matches!(t.lanes(), 3 | 4)) {
                    let tn = self.type_name(&t);
                    self.err(span, format!("`{}` is not defined for `{}`", name, tn));
                    return Some(None);
                }
                let r = match m.class() {
                    MathClass::Geom1 | MathClass::Geom2 => {
                        Type::Scalar(t.elem_kind().expect("float"))
                    }
                    _ => t,
                };
                self.bi(b, xs, r, span)
            }
            MathClass::FInt => {
                let mut it = args.into_iter();
                let x = it.next().expect("arity");
                let (xs, t) = self.gentype(name, vec![x], true, false, span)?;
                let it_ty = t.with_elem(ScalarKind::Int);
                let y = self.decay(it.next().expect("arity"));
                if !y.ty.is_integer() || (y.ty.is_vector() && y.ty.lanes() != t.lanes()) {
                    let (tn, yn) = (self.type_name(&it_ty), self.type_name(&y.ty));
                    self.err(
                        y.span,
                        format!(
                            "the second argument of `{}` must be `{}` (or `int`), not `{}`",
                            name, tn, yn
                        ),
                    );
                    return Some(None);
                }
                let y = if y.ty.is_vector() {
                    if y.ty != it_ty {
                        let yn = self.type_name(&y.ty);
                        self.err(y.span, format!("the second argument of `{}` must have element type `int`, not `{}`", name, yn));
                        return Some(None);
                    }
                    y
                } else {
                    let y = self.cast(y, &Type::INT, CastKind::Implicit);
                    self.arith_to(y, &it_ty)
                };
                let mut xs = xs;
                xs.push(y);
                self.bi(b, xs, t, span)
            }
        }
    }

    fn select(&mut self, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        if !self.arity("select", &args, &[3], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let (a, b) = (it.next().expect("arity"), it.next().expect("arity"));
        let c = self.decay(it.next().expect("arity"));
        let (mut xs, t) = self.gentype("select", vec![a, b], false, false, span)?;
        if !c.ty.is_integer() {
            let tn = self.type_name(&c.ty);
            self.err(
                c.span,
                format!(
                    "the condition of `select` must be an integer type, not `{}`",
                    tn
                ),
            );
            return Some(None);
        }
        let c = match (&t, &c.ty) {
            (Type::Vector(k, n), Type::Vector(ck, cn)) => {
                if n != cn || k.size_bytes() != ck.size_bytes() {
                    let (x, y) = (self.type_name(&t), self.type_name(&c.ty));
                    self.error(
                        Diagnostic::error(c.span, format!("the condition `{}` of `select` does not match `{}`", y, x))
                            .note("it needs the same number of components, each of the same size (e.g. `int4` for `float4`)"),
                    );
                    return Some(None);
                }
                c
            }
            (Type::Vector(..), Type::Scalar(_)) => {
                self.error(
                    Diagnostic::error(c.span, "a vector `select` needs a vector condition")
                        .note("for a scalar condition use `c ? b : a`"),
                );
                return Some(None);
            }
            (Type::Scalar(k), Type::Scalar(_)) => {
                let ct = Type::Scalar(k.to_signed_int());
                let c = self.promote(c);
                self.cast(c, &ct, CastKind::Implicit)
            }
            _ => {
                self.err(c.span, "a scalar `select` needs a scalar condition");
                return Some(None);
            }
        };
        xs.push(c);
        self.bi(Builtin::Select, xs, t, span)
    }

    fn convert_builtin(
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

    fn vload_store(
        &mut self,
        name: &str,
        load: bool,
        half: bool,
        n: u8,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        if !self.arity(name, &args, &[if load { 2 } else { 3 }], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let data = if load {
            None
        } else {
            Some(self.decay(it.next().expect("arity")))
        };
        let off = self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?;
        let p = self.decay(it.next().expect("arity"));
        let Type::Pointer {
            pointee,
            is_const,
            space,
            ..
        } = &p.ty
        else {
            let tn = self.type_name(&p.ty);
            self.err(
                p.span,
                format!(
                    "the last argument of `{}` must be a pointer, not `{}`",
                    name, tn
                ),
            );
            return Some(None);
        };
        let Type::Scalar(pk) = **pointee else {
            let tn = self.type_name(&p.ty);
            self.err(
                p.span,
                format!("`{}` needs a pointer to a scalar type, not `{}`", name, tn),
            );
            return Some(None);
        };
        if half != (pk == ScalarKind::Half) {
            let tn = self.type_name(&p.ty);
            let hint = if half {
                "needs a `half *` pointer"
            } else {
                "does not take `half` pointers; use vload_half/vstore_half"
            };
            self.err(p.span, format!("`{}` {} (got `{}`)", name, hint, tn));
            return Some(None);
        }
        if !load && (*is_const || *space == AddrSpace::Constant) {
            self.err(
                p.span,
                format!(
                    "`{}` cannot store through a pointer to read-only memory",
                    name
                ),
            );
            return Some(None);
        }
        let vk = if half { ScalarKind::Float } else { pk };
        let vt = if n == 1 {
            Type::Scalar(vk)
        } else {
            Type::Vector(vk, n)
        };
        let b = match (load, half) {
            (true, false) => Builtin::VLoad(n),
            (false, false) => Builtin::VStore(n),
            (true, true) => Builtin::VLoadHalf(n),
            (false, true) => Builtin::VStoreHalf(n),
        };
        match data {
            None => self.bi(b, vec![off, p], vt, span),
            Some(d) => {
                if d.ty != vt && !(half && d.ty.is_scalar() && n == 1) {
                    let (x, y) = (self.type_name(&d.ty), self.type_name(&vt));
                    self.err(
                        d.span,
                        format!("`{}` stores a `{}`, but the value is `{}`", name, y, x),
                    );
                    return Some(None);
                }
                let d = self.arith_to(d, &vt);
                self.bi(b, vec![d, off, p], Type::Void, span)
            }
        }
    }

    fn atomic(
        &mut self,
        name: &str,
        op: AtomicOp,
        is64: bool,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        let n = match op {
            AtomicOp::Inc | AtomicOp::Dec => 1,
            AtomicOp::CmpXchg => 3,
            _ => 2,
        };
        if !self.arity(name, &args, &[n], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let p = self.decay(it.next().expect("arity"));
        // counters (cl_ext_atomic_counters_32/64)
        if matches!(p.ty, Type::Counter32 | Type::Counter64) {
            if !matches!(op, AtomicOp::Inc | AtomicOp::Dec) {
                self.error(
                    Diagnostic::error(
                        span,
                        format!("`{}` is not defined for atomic counters", name),
                    )
                    .note("counters support only `atomic_inc` and `atomic_dec`"),
                );
                return Some(None);
            }
            if let (ExprKind::Var(v), Some(cur)) = (&p.kind, &self.cur) {
                let inc = op == AtomicOp::Inc;
                self.counter_uses.push(CounterUse {
                    func: cur.id,
                    var: *v,
                    what: if inc { CounterOp::Inc } else { CounterOp::Dec },
                    span,
                });
            }
            let t = if p.ty == Type::Counter32 {
                Type::UINT
            } else {
                Type::Scalar(ScalarKind::ULong)
            };
            return self.bi(Builtin::Atomic(op), vec![p], t, span);
        }
        let Type::Pointer {
            pointee,
            space,
            is_const,
            ..
        } = &p.ty
        else {
            let tn = self.type_name(&p.ty);
            self.error(
                Diagnostic::error(
                    p.span,
                    format!(
                        "the first argument of `{}` must be a pointer, not `{}`",
                        name, tn
                    ),
                )
                .note("pass the address of the value, e.g. `&counts[i]`"),
            );
            return Some(None);
        };
        let et = (**pointee).clone();
        let ok_type = match et {
            Type::Scalar(ScalarKind::Int | ScalarKind::UInt) => true,
            Type::Scalar(ScalarKind::Long | ScalarKind::ULong) => is64,
            Type::Scalar(ScalarKind::Float) => op == AtomicOp::Xchg,
            _ => false,
        };
        if !ok_type {
            let tn = self.type_name(&et);
            let want = if is64 {
                "`long` or `ulong`"
            } else {
                "`int` or `uint`"
            };
            self.err(
                p.span,
                format!("`{}` operates on {}, not `{}`", name, want, tn),
            );
            return Some(None);
        }
        if !matches!(
            space,
            AddrSpace::Global | AddrSpace::Local | AddrSpace::Generic
        ) {
            self.error(
                Diagnostic::error(
                    p.span,
                    format!("`{}` needs a pointer to `global` or `local` memory", name),
                )
                .note("atomics on private or constant memory are not allowed"),
            );
            return Some(None);
        }
        if *is_const {
            self.err(
                p.span,
                format!("`{}` cannot modify read-only (`const`) memory", name),
            );
            return Some(None);
        }
        let mut xs = vec![p];
        for a in it {
            xs.push(self.convert_arg(a, &et, &format!("an argument of `{}`", name))?);
        }
        self.bi(Builtin::Atomic(op), xs, et, span)
    }

    fn pipe_arg(&mut self, name: &str, e: Expr, b: Builtin) -> Option<(Expr, Type)> {
        let Type::Pipe { packet, access } = &e.ty else {
            let tn = self.type_name(&e.ty);
            self.err(
                e.span,
                format!(
                    "the first argument of `{}` must be a pipe, not `{}`",
                    name, tn
                ),
            );
            return None;
        };
        let reads = matches!(
            b,
            Builtin::ReadPipe
                | Builtin::ReadPipeBlock
                | Builtin::ReserveReadPipe
                | Builtin::CommitReadPipe
                | Builtin::WorkGroupReserveReadPipe
                | Builtin::WorkGroupCommitReadPipe
                | Builtin::SubGroupReserveReadPipe
                | Builtin::SubGroupCommitReadPipe
        );
        let writes = matches!(
            b,
            Builtin::WritePipe
                | Builtin::WritePipeBlock
                | Builtin::ReserveWritePipe
                | Builtin::CommitWritePipe
                | Builtin::WorkGroupReserveWritePipe
                | Builtin::WorkGroupCommitWritePipe
                | Builtin::SubGroupReserveWritePipe
                | Builtin::SubGroupCommitWritePipe
        );
        // `read_write` only comes from program-scope pipes, which kernels read or write.
        if reads && *access == Access::WriteOnly {
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "`{}` needs a `read_only` pipe, but this pipe is `{}`",
                        name, access
                    ),
                )
                .note("a kernel reads from `read_only` pipes and writes to `write_only` pipes"),
            );
            return None;
        }
        if writes && *access == Access::ReadOnly {
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "`{}` needs a `write_only` pipe, but this pipe is `{}`",
                        name, access
                    ),
                )
                .note("a kernel reads from `read_only` pipes and writes to `write_only` pipes"),
            );
            return None;
        }
        let pt = (**packet).clone();
        Some((e, pt))
    }

    fn packet_ptr(&mut self, name: &str, e: Expr, packet: &Type, write: bool) -> Option<Expr> {
        let e = self.decay(e);
        let ok = matches!(&e.ty, Type::Pointer { pointee, .. } if **pointee == *packet);
        if !ok {
            let (x, y) = (self.type_name(&e.ty), self.type_name(packet));
            self.error(
                Diagnostic::error(
                    e.span,
                    format!(
                        "`{}` needs a pointer to the packet type `{}`, not `{}`",
                        name, y, x
                    ),
                )
                .note("pass the address of a variable of the packet type, e.g. `&value`"),
            );
            return None;
        }
        if !write {
            if let Type::Pointer {
                is_const, space, ..
            } = &e.ty
            {
                if *is_const || *space == AddrSpace::Constant {
                    self.err(e.span, format!("`{}` writes the packet, so its pointer cannot point to read-only memory", name));
                    return None;
                }
            }
        }
        Some(e)
    }

    fn pipe_builtin(
        &mut self,
        name: &str,
        b: Builtin,
        args: Vec<Expr>,
        span: Span,
    ) -> Option<Option<Expr>> {
        match b {
            Builtin::ReadPipe | Builtin::WritePipe => {
                if !self.arity(name, &args, &[2, 4], span) {
                    return Some(None);
                }
                let write = b == Builtin::WritePipe;
                let n = args.len();
                let mut it = args.into_iter();
                let (p, packet) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let mut xs = vec![p];
                if n == 4 {
                    let rid = self.decay(it.next().expect("arity"));
                    if rid.ty != Type::ReserveId {
                        let tn = self.type_name(&rid.ty);
                        self.err(rid.span, format!("the second argument of the 4-argument `{}` must be a `reserve_id_t`, not `{}`", name, tn));
                        return Some(None);
                    }
                    xs.push(rid);
                    xs.push(self.int_arg(it.next().expect("arity"), name, &Type::UINT)?);
                }
                xs.push(self.packet_ptr(name, it.next().expect("arity"), &packet, write)?);
                self.bi(b, xs, Type::INT, span)
            }
            Builtin::ReadPipeBlock | Builtin::WritePipeBlock => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let write = b == Builtin::WritePipeBlock;
                let mut it = args.into_iter();
                let (p, packet) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let ptr = self.packet_ptr(name, it.next().expect("arity"), &packet, write)?;
                self.bi(b, vec![p, ptr], Type::Void, span)
            }
            Builtin::ReserveReadPipe
            | Builtin::ReserveWritePipe
            | Builtin::WorkGroupReserveReadPipe
            | Builtin::WorkGroupReserveWritePipe
            | Builtin::SubGroupReserveReadPipe
            | Builtin::SubGroupReserveWritePipe => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let mut it = args.into_iter();
                let (p, _) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let n = self.int_arg(it.next().expect("arity"), name, &Type::UINT)?;
                self.bi(b, vec![p, n], Type::ReserveId, span)
            }
            Builtin::CommitReadPipe
            | Builtin::CommitWritePipe
            | Builtin::WorkGroupCommitReadPipe
            | Builtin::WorkGroupCommitWritePipe
            | Builtin::SubGroupCommitReadPipe
            | Builtin::SubGroupCommitWritePipe => {
                if !self.arity(name, &args, &[2], span) {
                    return Some(None);
                }
                let mut it = args.into_iter();
                let (p, _) = self.pipe_arg(name, it.next().expect("arity"), b)?;
                let rid = self.decay(it.next().expect("arity"));
                if rid.ty != Type::ReserveId {
                    let tn = self.type_name(&rid.ty);
                    self.err(
                        rid.span,
                        format!("`{}` needs a `reserve_id_t`, not `{}`", name, tn),
                    );
                    return Some(None);
                }
                self.bi(b, vec![p, rid], Type::Void, span)
            }
            Builtin::IsValidReserveId => {
                if !self.arity(name, &args, &[1], span) {
                    return Some(None);
                }
                let rid = self.decay(args.into_iter().next().expect("arity"));
                if rid.ty != Type::ReserveId {
                    let tn = self.type_name(&rid.ty);
                    self.err(
                        rid.span,
                        format!("`{}` needs a `reserve_id_t`, not `{}`", name, tn),
                    );
                    return Some(None);
                }
                self.bi(b, vec![rid], Type::BOOL, span)
            }
            _ => {
                // get_pipe_num_packets / get_pipe_max_packets
                if !self.arity(name, &args, &[1], span) {
                    return Some(None);
                }
                let (p, _) = self.pipe_arg(name, args.into_iter().next().expect("arity"), b)?;
                self.bi(b, vec![p], Type::UINT, span)
            }
        }
    }

    fn async_copy(&mut self, name: &str, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        let strided = name == "async_work_group_strided_copy";
        if !self.arity(name, &args, &[if strided { 5 } else { 4 }], span) {
            return Some(None);
        }
        let mut it = args.into_iter();
        let dst = self.decay(it.next().expect("arity"));
        let src = self.decay(it.next().expect("arity"));
        let (
            Type::Pointer {
                pointee: dt,
                space: ds,
                is_const: dc,
                ..
            },
            Type::Pointer {
                pointee: st,
                space: ss,
                ..
            },
        ) = (&dst.ty, &src.ty)
        else {
            self.err(
                span,
                format!(
                    "`{}` needs pointer arguments for the destination and source",
                    name
                ),
            );
            return Some(None);
        };
        let dirs_ok = matches!(
            (ds, ss),
            (AddrSpace::Local, AddrSpace::Global | AddrSpace::Constant)
                | (AddrSpace::Global, AddrSpace::Local)
        );
        if !dirs_ok {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "`{}` copies between `local` and `global` memory, not from `{}` to `{}`",
                        name, ss, ds
                    ),
                )
                .note("the destination is `local` and the source `global`, or the reverse"),
            );
            return Some(None);
        }
        if dt != st {
            let (x, y) = (self.type_name(&dst.ty), self.type_name(&src.ty));
            self.err(
                span,
                format!(
                    "`{}`: destination `{}` and source `{}` have different element types",
                    name, x, y
                ),
            );
            return Some(None);
        }
        if *dc {
            self.err(
                dst.span,
                format!("`{}` cannot write through a pointer to `const`", name),
            );
            return Some(None);
        }
        let n = self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?;
        let mut xs = vec![dst, src, n];
        if strided {
            xs.push(self.int_arg(it.next().expect("arity"), name, &Type::SIZE_T)?);
        }
        let ev = self.decay(it.next().expect("arity"));
        let ev = if ev.ty == Type::Event {
            ev
        } else if self.is_null_const(&ev) {
            self.cast(ev, &Type::Event, CastKind::Implicit)
        } else {
            let tn = self.type_name(&ev.ty);
            self.err(
                ev.span,
                format!(
                    "the last argument of `{}` must be an `event_t` (or 0), not `{}`",
                    name, tn
                ),
            );
            return Some(None);
        };
        xs.push(ev);
        let b = if strided {
            Builtin::AsyncWorkGroupStridedCopy
        } else {
            Builtin::AsyncWorkGroupCopy
        };
        self.bi(b, xs, Type::Event, span)
    }

    /// `int printf(constant char *restrict format, ...)`: the format must be a string literal
    /// (so that the emulator and any hardware implementation know it at compile time); the
    /// other arguments are scalars, vectors or pointers, integers promoted.
    fn printf(&mut self, args: Vec<Expr>, span: Span) -> Option<Option<Expr>> {
        let mut it = args.into_iter();
        let Some(fmt) = it.next() else {
            self.error(
                Diagnostic::error(span, "`printf` needs a format string")
                    .note(r#"write `printf("x = %d\n", x)`"#),
            );
            return Some(None);
        };
        let is_literal = matches!(fmt.kind, ExprKind::Global(g)
            if self.globals.get(g as usize).is_some_and(|v| v.name.starts_with(".str")));
        if !is_literal {
            self.error(
                Diagnostic::error(fmt.span, "the format of `printf` must be a string literal")
                    .note(r#"write the format in place: `printf("%d\n", x)`"#),
            );
            return Some(None);
        }
        let mut xs = vec![self.decay(fmt)];
        for a in it {
            let a = self.decay(a);
            match &a.ty {
                Type::Scalar(k) if k.is_integer() => xs.push(self.promote(a)),
                Type::Scalar(_) | Type::Vector(..) | Type::Pointer { .. } => xs.push(a),
                t => {
                    let tn = self.type_name(t);
                    self.err(
                        a.span,
                        format!("`printf` cannot print a value of type `{}`", tn),
                    );
                    return Some(None);
                }
            }
        }
        self.bi(Builtin::Printf, xs, Type::INT, span)
    }
}
