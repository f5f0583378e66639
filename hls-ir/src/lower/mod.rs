//! Lowering: checked AST -> IR, one [`Kernel`] per OpenCL kernel.
//!
//! Requires: a `Program` accepted by `frontend::compile` (names resolved, implicit conversions
//! explicit). Guarantees: a kernel that verifies; every op carries the span of the source
//! expression it came from; or diagnostics naming each construct the hardware path cannot build
//! yet (never a silent miscompile).
//!
//! How control flow becomes dataflow: scalar variables are renamed into SSA values as the body
//! is walked (an environment `VarId -> value`). `if`/`?:`/`&&`/`||` are if-converted: both arms
//! are lowered under predicates and the environment is merged with `select`s; side effects
//! (stores) take the predicate under which they run. `return` sets a `returned` flag that masks
//! every later side effect. Helper functions are inlined at each call.
//!
//! Vectors and structs are values made of their lanes and fields (see `aggregate`); in memory
//! and in by-value arguments they are one wide bit vector, their memory image. Floating-point
//! values are bit patterns: they are copied, selected, loaded, stored and reinterpreted
//! (`as_T`), while floating-point arithmetic, comparisons and conversions are diagnostics.

mod aggregate;
mod groups;
mod pipes;

pub use pipes::PIPE_MAX_RESERVATIONS;

use crate::ids::{ArgId, LoopId, MemId, OpId};
use crate::kernel::{ArgKind, Dep, Kernel, KernelArg, MemKind, Memory, Op};
use crate::ops::{BinOp, ByteMask, CmpOp, ConvOp, OpKind, UnOp, WorkItemFn};
use crate::passes::const_fold::{eval_binary, eval_cmp};
use crate::types::Ty;
use aggregate::is_agg_array;
use frontend::ast::{
    self, AddrSpace, Builtin, CastKind, Expr, ExprKind, FuncId, Init, MathClass, MathFn, Program,
    Rounding, ScalarKind, Stmt, StmtKind, Type, VarId,
};
use frontend::diag::Diagnostic;
use frontend::span::Span;
use std::collections::BTreeMap;

/// Bytes a `local` pointer argument may hold without `__attribute__((local_mem_size(N)))`
/// (Intel's default).
pub const DEFAULT_LOCAL_ARG_BYTES: u32 = 16384;

/// Most iterations `#pragma unroll` may copy.
const MAX_UNROLL: u32 = 1024;

/// `#pragma unroll` without a count, or `__attribute__((opencl_unroll_hint))` without one.
fn full_unroll_requested(s: &Stmt) -> bool {
    s.pragmas
        .iter()
        .any(|p| p.name == "unroll" && p.arg.is_none())
        || s.attrs
            .iter()
            .any(|a| a.name == "opencl_unroll_hint" && a.args.is_empty())
}

/// A variable carried around a pipelined loop (`None`: the `returned` flag).
struct Carry {
    var: Option<VarId>,
    shape: Type,
    before: Val,
    leaves: Vec<(OpId, OpId)>,
}

/// Maximum depth of inlined helper calls (the front end rejects recursion; this bounds size).
const MAX_INLINE_DEPTH: usize = 64;

/// The value of an expression during lowering.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Scalar(OpId),
    /// A pointer into memory `mem`: a byte address.
    Ptr {
        addr: OpId,
        mem: MemId,
    },
    /// A variable read before it was written (indeterminate in C).
    Undef,
    /// A vector, struct or array inside a struct: index into `Lower::aggs`.
    Agg(u32),
}

/// State that if-conversion splits and merges.
#[derive(Clone)]
struct Env {
    vars: BTreeMap<VarId, Val>,
    /// i1: this work-item has executed `return` (of the function being lowered).
    returned: OpId,
    /// The value a helper function returns so far.
    ret_val: Option<Val>,
    /// i1: this iteration of the innermost enclosing loop has executed `break`.
    brk: OpId,
    /// i1: this iteration has executed `continue` (reset before the `for` step).
    cont: OpId,
}

struct Lower<'a> {
    p: &'a Program,
    k: Kernel,
    diags: Vec<Diagnostic>,
    env: Env,
    /// i1: the current control predicate (conjunction of enclosing conditions).
    pred: OpId,
    region: LoopId,
    depth: usize,
    /// Stores emitted so far per memory, to order later accesses after them.
    stores: BTreeMap<MemId, Vec<OpId>>,
    /// Enclosing loops, innermost last: `true` for a pipelined loop, `false` for one being
    /// fully unrolled (`break`/`continue` are supported in the former only).
    loops: Vec<bool>,
    /// Accesses to each on-chip memory in program order: `(op, is_store)`.
    onchip: BTreeMap<MemId, Vec<(OpId, bool)>>,
    /// Work-group mode (kernels with barriers).
    groups: groups::Groups,
    /// Pipes and their ops.
    pipes: pipes::Pipes,
    /// `local` scalar variables: their one-element on-chip memory.
    local_scalars: BTreeMap<VarId, MemId>,
    /// Parts of aggregate values (`Val::Agg`); never changed once made.
    aggs: Vec<aggregate::Agg>,
}

/// Lower one kernel. Errors make the result `Err`; warnings (things lowered in a simpler way
/// than the source asked for) go to `warnings`.
pub fn lower_kernel(p: &Program, func: FuncId) -> Result<Kernel, Vec<Diagnostic>> {
    lower_kernel_with_warnings(p, func, &mut Vec::new())
}

/// [`lower_kernel`], also returning its warnings.
pub fn lower_kernel_with_warnings(
    p: &Program,
    func: FuncId,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Kernel, Vec<Diagnostic>> {
    let f = p.func(func);
    let mut k = Kernel::new(f.name.clone(), f.span);
    if let Some(a) = f.attr("reqd_work_group_size") {
        if let Some(v) = a.int_args() {
            if v.len() == 3 {
                k.reqd_work_group_size = Some([v[0] as u32, v[1] as u32, v[2] as u32]);
            }
        }
    }
    let mut l = Lower {
        p,
        k,
        diags: Vec::new(),
        env: Env {
            vars: BTreeMap::new(),
            returned: OpId(0),
            ret_val: None,
            brk: OpId(0),
            cont: OpId(0),
        },
        pred: OpId(0),
        region: Kernel::WORK_ITEM_LOOP,
        depth: 0,
        stores: BTreeMap::new(),
        loops: Vec::new(),
        onchip: BTreeMap::new(),
        groups: groups::Groups::default(),
        pipes: pipes::Pipes::default(),
        local_scalars: BTreeMap::new(),
        aggs: Vec::new(),
    };
    let t = l.konst(1, Ty::BOOL, f.span);
    let fl = l.konst(0, Ty::BOOL, f.span);
    l.pred = t;
    l.env.returned = fl;
    l.env.brk = fl;
    l.env.cont = fl;
    for (i, &v) in f.params.iter().enumerate() {
        l.lower_param(ArgId::from_index(i), v);
    }
    if f.body.stmts.iter().any(|s| groups::stmt_has_barrier(p, s)) {
        let max =
            l.k.reqd_work_group_size
                .map(|r| r.iter().product::<u32>())
                .unwrap_or(groups::DEFAULT_MAX_GROUP);
        l.k.work_groups = Some(max);
        l.groups.max_items = max;
        l.group_block(&f.body.stmts);
    } else {
        l.block(&f.body.stmts);
        // Work-items use a pipe in order (the last op of one before the first of the next).
        l.order_pipes_across_iterations(Kernel::WORK_ITEM_LOOP, &BTreeMap::new());
    }
    let (errors, warns): (Vec<Diagnostic>, Vec<Diagnostic>) =
        l.diags.into_iter().partition(|d| d.is_error());
    warnings.extend(warns);
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Err(e) = crate::verify::verify(&l.k) {
        panic!("lowering produced invalid IR: {e}");
    }
    Ok(l.k)
}

fn scalar_ty(k: ScalarKind) -> Ty {
    match k {
        ScalarKind::Bool => Ty::BOOL,
        ScalarKind::Half => Ty::Float(16),
        ScalarKind::Float => Ty::Float(32),
        ScalarKind::Double => Ty::Float(64),
        k => Ty::Int(k.bits() as u16),
    }
}

impl<'a> Lower<'a> {
    // ---- building ops -------------------------------------------------------------------

    fn op(&mut self, kind: OpKind, ty: Ty, span: Span, operands: &[OpId]) -> OpId {
        // Work-item values belong to the work-item loop; loops inside read them as live-ins.
        let region = if matches!(kind, OpKind::WorkItem(..)) {
            Kernel::WORK_ITEM_LOOP
        } else {
            self.region
        };
        self.k.add_op(
            Op {
                kind,
                ty,
                region,
                span,
                name: None,
            },
            operands,
        )
    }

    fn konst(&mut self, v: u64, ty: Ty, span: Span) -> OpId {
        self.op(OpKind::Const(v & ty.mask()), ty, span, &[])
    }

    fn const_val(&self, id: OpId) -> Option<u64> {
        match self.k.op(id).kind {
            OpKind::Const(v) if !self.k.op(id).ty.is_float() => Some(v),
            _ => None,
        }
    }

    /// A binary op, folded on the spot when both operands are constants (so constant
    /// conditions and indices are visible to lowering itself).
    fn bin(&mut self, b: BinOp, a: OpId, c: OpId, span: Span) -> OpId {
        let ty = self.k.op(a).ty;
        if let (Some(x), Some(y)) = (self.const_val(a), self.const_val(c)) {
            if let Some(v) = eval_binary(b, ty, x, y) {
                return self.konst(v, ty, span);
            }
        }
        self.op(OpKind::Binary(b), ty, span, &[a, c])
    }

    fn cmp(&mut self, c: CmpOp, a: OpId, b: OpId, span: Span) -> OpId {
        if let (Some(x), Some(y)) = (self.const_val(a), self.const_val(b)) {
            if let Some(r) = eval_cmp(c, self.k.op(a).ty.bits(), x, y) {
                return self.konst(r as u64, Ty::BOOL, span);
            }
        }
        self.op(OpKind::Cmp(c), Ty::BOOL, span, &[a, b])
    }

    fn and1(&mut self, a: OpId, b: OpId, span: Span) -> OpId {
        match (self.const_val(a), self.const_val(b)) {
            (Some(1), _) => b,
            (_, Some(1)) => a,
            (Some(0), _) | (_, Some(0)) => self.konst(0, Ty::BOOL, span),
            _ if a == b => a,
            _ => self.op(OpKind::Binary(BinOp::And), Ty::BOOL, span, &[a, b]),
        }
    }

    fn or1(&mut self, a: OpId, b: OpId, span: Span) -> OpId {
        match (self.const_val(a), self.const_val(b)) {
            (Some(0), _) => b,
            (_, Some(0)) => a,
            (Some(1), _) | (_, Some(1)) => self.konst(1, Ty::BOOL, span),
            _ if a == b => a,
            _ => self.op(OpKind::Binary(BinOp::Or), Ty::BOOL, span, &[a, b]),
        }
    }

    fn not1(&mut self, a: OpId, span: Span) -> OpId {
        if let Some(v) = self.const_val(a) {
            return self.konst(v ^ 1, Ty::BOOL, span);
        }
        let one = self.konst(1, Ty::BOOL, span);
        self.op(OpKind::Binary(BinOp::Xor), Ty::BOOL, span, &[a, one])
    }

    fn select(&mut self, c: OpId, t: OpId, e: OpId, span: Span) -> OpId {
        if t == e {
            return t;
        }
        match self.const_val(c) {
            Some(1) => t,
            Some(_) => e,
            None => {
                let ty = self.k.op(t).ty;
                self.op(OpKind::Select, ty, span, &[c, t, e])
            }
        }
    }

    /// Integer resize: truncate, or extend by the signedness of the source.
    fn resize(&mut self, v: OpId, to: Ty, signed: bool, span: Span) -> OpId {
        let from = self.k.op(v).ty;
        if from == to {
            return v;
        }
        let conv = if to.bits() < from.bits() {
            ConvOp::Trunc
        } else if signed && from != Ty::BOOL {
            ConvOp::SExt
        } else {
            ConvOp::ZExt
        };
        if let Some(x) = self.const_val(v) {
            let val = if conv == ConvOp::SExt {
                let s = 64 - from.bits();
                (((x << s) as i64) >> s) as u64
            } else {
                x
            };
            return self.konst(val, to, span);
        }
        self.op(OpKind::Convert(conv), to, span, &[v])
    }

    /// The effective predicate for a side effect: inside the current condition and not after a
    /// `return`.
    fn effect_pred(&mut self, span: Span) -> OpId {
        let dead = self.dead(span);
        let alive = self.not1(dead, span);
        self.and1(self.pred, alive, span)
    }

    /// i1: the rest of this iteration (or function) does not run: after `return`, `break` or
    /// `continue`.
    fn dead(&mut self, span: Span) -> OpId {
        let d = self.or1(self.env.returned, self.env.brk, span);
        self.or1(d, self.env.cont, span)
    }

    fn unsupported(&mut self, span: Span, what: impl Into<String>) {
        self.diags.push(
            Diagnostic::error(span, format!("{} is not yet supported by the hardware path", what.into()))
                .note("`oclhls check` accepts this program; compiling it to hardware needs a later version of oclhls"),
        );
    }

    fn dummy(&mut self, ty: &Type, span: Span) -> Val {
        match ty {
            Type::Scalar(k) => Val::Scalar(self.konst(0, scalar_ty(*k), span)),
            _ => Val::Undef,
        }
    }

    // ---- kernel interface ---------------------------------------------------------------

    fn lower_param(&mut self, arg: ArgId, v: VarId) {
        let info = self.p.var(v);
        let span = info.span;
        let name = info.name.clone();
        match &info.ty {
            Type::Scalar(k) => {
                let ty = scalar_ty(*k);
                self.k.args.push(KernelArg {
                    name: name.clone(),
                    kind: ArgKind::Scalar(ty),
                    span,
                });
                let id = self.op(OpKind::Arg(arg), ty, span, &[]);
                self.k.op_mut(id).name = Some(name);
                self.env.vars.insert(v, Val::Scalar(id));
            }
            Type::Vector(..) | Type::Struct(_) => {
                let ty = info.ty.clone();
                let bits = self.image_ty(&ty);
                let ok = self.check_type(&ty, span);
                self.k.args.push(KernelArg {
                    name: name.clone(),
                    kind: ArgKind::Scalar(bits),
                    span,
                });
                let id = self.op(OpKind::Arg(arg), bits, span, &[]);
                self.k.op_mut(id).name = Some(name);
                let val = if ok {
                    self.unpack(id, &ty, false, span)
                } else {
                    Val::Undef
                };
                self.env.vars.insert(v, val);
            }
            Type::Pointer {
                pointee,
                space: sp @ (AddrSpace::Global | AddrSpace::Constant),
                ..
            } => {
                let mem = MemId::from_index(self.k.mems.len());
                let (elem, bytes) = self.pointer_elem(pointee, "a pointer argument", span);
                self.k.mems.push(Memory {
                    name: name.clone(),
                    kind: MemKind::Global {
                        arg,
                        constant: *sp == AddrSpace::Constant,
                    },
                    elem,
                    elem_bytes: bytes,
                    span,
                });
                self.k.args.push(KernelArg {
                    name: name.clone(),
                    kind: ArgKind::GlobalPtr(mem),
                    span,
                });
                let id = self.op(OpKind::Arg(arg), Ty::I32, span, &[]);
                self.k.op_mut(id).name = Some(name);
                self.env.vars.insert(v, Val::Ptr { addr: id, mem });
            }
            Type::Pipe { packet, access } => {
                let (packet, access) = ((**packet).clone(), *access);
                self.lower_pipe_param(v, &packet, access);
            }
            Type::Pointer {
                pointee,
                space: AddrSpace::Local,
                ..
            } => {
                // The host gives the size at launch; the hardware holds the largest it allows:
                // Intel's `local_mem_size(N)` bytes on the argument, or 16 KiB (Intel's
                // default). `oclhls sim` refuses larger launches.
                let (elem, bytes) = self.pointer_elem(pointee, "a `local` pointer argument", span);
                let cap = info
                    .attrs
                    .iter()
                    .find(|a| a.name == "local_mem_size")
                    .and_then(|a| a.int_args())
                    .and_then(|v| v.first().copied())
                    .map(|n| n as u32)
                    .unwrap_or(DEFAULT_LOCAL_ARG_BYTES);
                let len = (cap / bytes.max(1)).max(1);
                let mem = MemId::from_index(self.k.mems.len());
                self.k.mems.push(Memory {
                    name: name.clone(),
                    kind: MemKind::Local { len },
                    elem: if elem == Ty::BOOL { Ty::Int(8) } else { elem },
                    elem_bytes: bytes,
                    span,
                });
                self.k.args.push(KernelArg {
                    name,
                    kind: ArgKind::LocalPtr(mem),
                    span,
                });
                let base = self.konst(0, Ty::I32, span);
                self.env.vars.insert(v, Val::Ptr { addr: base, mem });
            }
            other => {
                let what = match other {
                    Type::Counter32 | Type::Counter64 => "an atomic counter argument".to_string(),
                    t => format!("an argument of type `{}`", self.p.type_name(t)),
                };
                self.unsupported(span, what);
                self.k.args.push(KernelArg {
                    name,
                    kind: ArgKind::Scalar(Ty::I32),
                    span,
                });
            }
        }
    }

    // ---- statements ---------------------------------------------------------------------

    fn block(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.block(&b.stmts),
            StmtKind::Empty => {}
            StmtKind::Decl { var, init } if matches!(self.p.var(*var).ty, Type::Array(..)) => {
                self.declare_array(*var, init.as_ref(), s.span)
            }
            StmtKind::Decl { var, init: None }
                if self.p.var(*var).space == AddrSpace::Local
                    && matches!(self.p.var(*var).ty, Type::Scalar(_) | Type::ReserveId) =>
            {
                self.declare_local_scalar(*var, s.span)
            }
            StmtKind::Decl { var, init } => {
                let info = self.p.var(*var);
                if info.space != AddrSpace::Private {
                    self.unsupported(
                        s.span,
                        format!(
                            "a `{}` variable of type `{}`",
                            info.space,
                            self.p.type_name(&info.ty)
                        ),
                    );
                    return;
                }
                if !self.check_type(&info.ty, s.span) {
                    return;
                }
                let val = match init {
                    Some(i) => self.init_value(&info.ty, i),
                    None => Val::Undef,
                };
                self.name_value(val, &info.ty, &info.name.clone());
                self.env.vars.insert(*var, val);
            }
            StmtKind::Expr(e) => {
                self.rvalue(e);
            }
            StmtKind::If { cond, then, els } => {
                let c = self.cond(cond);
                self.branch(
                    c,
                    s.span,
                    |l| l.stmt(then),
                    |l| {
                        if let Some(e) = els {
                            l.stmt(e)
                        }
                    },
                );
            }
            StmtKind::Return(v) => {
                let span = s.span;
                if let Some(e) = v {
                    let val = self.rvalue(e);
                    let now = self.effect_pred(span);
                    self.env.ret_val = Some(match self.env.ret_val {
                        Some(old) => self.merge_val(now, val, old, span),
                        None => val,
                    });
                }
                let r = self.or1(self.env.returned, self.pred, span);
                self.env.returned = r;
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } if full_unroll_requested(s) => {
                self.unroll_for(init.as_deref(), cond.as_ref(), step.as_ref(), body, s.span)
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => self.pipelined_loop(
                s,
                init.as_deref(),
                cond.as_ref(),
                step.as_ref(),
                body,
                true,
                false,
            ),
            StmtKind::While { cond, body } => {
                self.pipelined_loop(s, None, Some(cond), None, body, true, false)
            }
            StmtKind::DoWhile { body, cond } => {
                self.pipelined_loop(s, None, Some(cond), None, body, false, false)
            }
            StmtKind::Switch { .. } => self.unsupported(s.span, "`switch`"),
            StmtKind::Break | StmtKind::Continue => {
                let brk = matches!(s.kind, StmtKind::Break);
                match self.loops.last() {
                    Some(true) if brk => self.env.brk = self.or1(self.env.brk, self.pred, s.span),
                    Some(true) => self.env.cont = self.or1(self.env.cont, self.pred, s.span),
                    Some(false) => self
                        .unsupported(s.span, "`break`/`continue` in a loop with `#pragma unroll`"),
                    None => self.unsupported(s.span, "`break` out of a `switch`"),
                }
            }
        }
    }

    /// Full unrolling of `for (init; cond; step) body`: the loop is simulated at compile time,
    /// so its condition must fold to a constant after each step (the loop variable starts
    /// from a constant and steps by constants). Variables declared in the loop are scoped to
    /// it.
    fn unroll_for(
        &mut self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        span: Span,
    ) {
        let outer: Vec<VarId> = self.env.vars.keys().copied().collect();
        if let Some(i) = init {
            self.stmt(i);
        }
        let mut iterations = 0u32;
        self.loops.push(false);
        loop {
            let c = match cond {
                Some(c) => self.cond(c),
                None => self.konst(1, Ty::BOOL, span),
            };
            match self.const_val(c) {
                Some(0) => break,
                Some(_) => {}
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            cond.map_or(span, |c| c.span),
                            "`#pragma unroll` needs a loop whose condition is a compile-time constant in every iteration",
                        )
                        .note("start the loop variable from a constant, step it by a constant, and compare it with a constant or a macro"),
                    );
                    break;
                }
            }
            if iterations == MAX_UNROLL {
                self.diags.push(Diagnostic::error(
                    span,
                    format!("this loop runs more than {MAX_UNROLL} iterations; fully unrolling it would build that many copies of its body"),
                ).note("unroll a smaller loop, or remove `#pragma unroll` (loop pipelining comes in a later version)"));
                break;
            }
            self.stmt(body);
            if let Some(st) = step {
                self.rvalue(st);
            }
            iterations += 1;
            if !self.diags.is_empty() {
                break;
            }
        }
        self.loops.pop();
        self.env.vars.retain(|v, _| outer.contains(v));
    }

    /// A loop that is not fully unrolled becomes a pipelined loop region (see [`OpKind::Loop`]):
    ///
    /// - in the parent: `enter` = the condition on the values before the loop (true for `do`),
    ///   and the `Loop` op taking it;
    /// - in the loop region: a `Carried` op per variable live in the parent (dropped again when
    ///   the body never changes it), the body, the `for` step, the condition evaluated again on
    ///   the new values, and `LoopExit` = !condition | break | return;
    /// - back in the parent: a `LoopResult` per changed variable, its value after the loop.
    ///
    /// So every iteration runs body + step + test, exactly the order C evaluates them in, and
    /// a loop that does not run at all (enter false) leaves every variable at its value before.
    /// With `group`, a loop containing a barrier: its body is work-group code (see `groups`),
    /// one iteration per work-group.
    #[allow(clippy::too_many_arguments)]
    fn pipelined_loop(
        &mut self,
        s: &Stmt,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        test_first: bool,
        group: bool,
    ) {
        let span = s.span;
        let outer: Vec<VarId> = self.env.vars.keys().copied().collect();
        if let Some(i) = init {
            self.stmt(i);
        }
        let enter = match (test_first, cond) {
            (true, Some(c)) => self.cond(c),
            _ => self.konst(1, Ty::BOOL, span),
        };
        let alive = self.effect_pred(span);
        let enter = self.and1(enter, alive, span);
        let unroll = s
            .pragmas
            .iter()
            .find_map(|p| match p.name.as_str() {
                "nounroll" => Some(1),
                "unroll" => p.arg.map(|n| n as u32),
                _ => None,
            })
            .or_else(|| {
                s.attrs
                    .iter()
                    .find(|a| a.name == "opencl_unroll_hint")
                    .and_then(|a| a.int_args())
                    .and_then(|v| v.first().map(|&n| n as u32))
            });
        // `#pragma unroll N`: N copies of body + step + test in one pipelined iteration; a
        // copy whose test fails masks the copies after it like a `break`.
        let copies = match unroll {
            Some(n) if n > 1 && group => {
                self.diags.push(Diagnostic::warning(
                    span,
                    "a loop containing a barrier runs once per work-group step; its unroll count is ignored",
                ));
                1
            }
            Some(n) if n > MAX_UNROLL => {
                self.diags.push(Diagnostic::error(
                    span,
                    format!("unrolling by {n} would build more than {MAX_UNROLL} copies of the loop body"),
                ));
                1
            }
            Some(n) if n > 1 => n,
            _ => 1,
        };
        let lid = LoopId::from_index(self.k.loops.len());
        self.k.loops.push(crate::kernel::Loop {
            kind: crate::kernel::LoopKind::Source,
            parent: Some(self.region),
            name: format!("{}.loop{}", self.k.name, lid.index()),
            span,
            trip_count: None,
            unroll,
        });
        let parent = self.region;
        let saved_pred = self.pred;
        let before = self.env.clone();
        self.region = lid;
        let t = self.konst(1, Ty::BOOL, span);
        let f = self.konst(0, Ty::BOOL, span);
        self.pred = t;
        // A `Carried` op per live variable (and for the `returned` flag); its first operand is
        // the value before the loop, its second (added below) the value for the next iteration.
        // Per variable: its shape, its value before the loop, and (carried, init) per leaf (a
        // scalar, a pointer's address, each part of a vector or struct: see `flatten`).
        let mut carried: Vec<Carry> = Vec::new();
        let vars: Vec<(VarId, Val)> = self.env.vars.iter().map(|(v, x)| (*v, *x)).collect();
        for (var, val) in vars {
            let ty = match &self.p.var(var).ty {
                // A reserve id is an i32 (`CLK_NULL_RESERVE_ID` = 0).
                Type::ReserveId => Type::UINT,
                t => t.clone(),
            };
            let shape = match val {
                Val::Ptr { .. } => Type::UINT,
                Val::Undef
                    if !matches!(ty, Type::Scalar(_) | Type::Vector(..) | Type::Struct(_)) =>
                {
                    continue
                }
                _ => ty,
            };
            // An indeterminate value (C) starts from 0, so the hardware is deterministic.
            let mut inits = Vec::new();
            self.flatten(val, &shape, span, &mut inits);
            let name = self.p.var(var).name.clone();
            let mut pairs = Vec::new();
            for init in inits {
                let t = self.k.op(init).ty;
                let c = self.op(OpKind::Carried, t, span, &[init]);
                self.k.op_mut(c).name = Some(name.clone());
                pairs.push((c, init));
            }
            let inside = self.rebuild(val, &shape, &mut pairs.iter().map(|p| p.0));
            self.env.vars.insert(var, inside);
            carried.push(Carry {
                var: Some(var),
                shape,
                before: val,
                leaves: pairs,
            });
        }
        let ret_c = self.op(OpKind::Carried, Ty::BOOL, span, &[before.returned]);
        carried.push(Carry {
            var: None,
            shape: Type::BOOL,
            before: Val::Undef,
            leaves: vec![(ret_c, before.returned)],
        });
        self.env.returned = ret_c;
        let ret_val_before = self.env.ret_val;
        let onchip_from: BTreeMap<MemId, usize> =
            self.onchip.iter().map(|(m, v)| (*m, v.len())).collect();
        let pipes_from = self.pipe_marks();
        self.env.brk = f;
        self.env.cont = f;
        self.loops.push(true);
        let mut again = t;
        for copy in 0..copies {
            if copy > 0 {
                // The previous copy's test failed: the loop is over, as after a `break`.
                let over = self.not1(again, span);
                self.env.brk = self.or1(self.env.brk, over, span);
            }
            if group {
                self.group_block(std::slice::from_ref(body));
            } else {
                self.stmt(body);
            }
            self.env.cont = f;
            // (The step of a copy that does not run changes nothing: assignments are masked
            // by the `break` flag.)
            if let Some(st) = step {
                self.rvalue(st);
            }
            again = match cond {
                Some(c) => self.cond(c),
                None => t,
            };
        }
        self.loops.pop();
        if self.env.ret_val != ret_val_before {
            self.unsupported(
                span,
                "`return` with a value inside a loop of a helper function",
            );
        }
        let stop = self.not1(again, span);
        let stop = self.or1(stop, self.env.brk, span);
        let stop = self.or1(stop, self.env.returned, span);
        self.op(OpKind::LoopExit, Ty::Token, span, &[stop]);
        // Close the recurrences and leave the loop.
        let after = self.env.clone();
        self.region = parent;
        self.pred = saved_pred;
        self.env = before;
        let loop_op = self.op(OpKind::Loop(lid), Ty::Token, span, &[enter]);
        if group {
            self.sync_in_order(loop_op);
        }
        for c in &carried {
            if let (true, Some(v)) = (group, c.var) {
                if self.groups.ctx.contains_key(&v) {
                    let name = self.p.var(v).name.clone();
                    self.diags.push(
                        Diagnostic::error(
                            span,
                            format!("`{name}` is work-group code's variable here, but a work-item assigns it between the barriers of this loop"),
                        )
                        .note("declare a separate variable for each work-item's value before the loop, or assign it outside the code between barriers"),
                    );
                }
            }
        }
        for cr in carried {
            let nexts: Vec<OpId> = match cr.var {
                Some(v) => match after.vars.get(&v) {
                    Some(val) => {
                        if let Val::Ptr { mem, .. } = val {
                            if !matches!(cr.before, Val::Ptr { mem: m, .. } if m == *mem) {
                                self.unsupported(
                                    span,
                                    "a pointer that may point into different buffers",
                                );
                            }
                        }
                        let mut out = Vec::new();
                        self.flatten(*val, &cr.shape, span, &mut out);
                        out
                    }
                    None => cr.leaves.iter().map(|l| l.0).collect(),
                },
                None => vec![after.returned],
            };
            let mut results = Vec::new();
            for (&(c, init), next) in cr.leaves.iter().zip(nexts) {
                if next == c {
                    // Never changed in the loop: every use is the value from before the loop.
                    self.k.replace_uses(c, init);
                    self.k.remove_op(c);
                    results.push(init);
                    continue;
                }
                self.k.add_dep(
                    next,
                    c,
                    Dep::Data {
                        operand: 1,
                        distance: 1,
                    },
                );
                let ty = self.k.op(c).ty;
                let r = self.op(OpKind::LoopResult, ty, span, &[loop_op, next, init]);
                if let Some(v) = cr.var {
                    let name = self.p.var(v).name.clone();
                    self.k.op_mut(r).name = Some(name);
                }
                results.push(r);
            }
            match cr.var {
                Some(v) => {
                    if results.iter().zip(&cr.leaves).any(|(r, l)| *r != l.1) {
                        let val = self.rebuild(cr.before, &cr.shape, &mut results.into_iter());
                        self.env.vars.insert(v, val);
                    }
                }
                None => self.env.returned = results[0],
            }
        }
        self.env.vars.retain(|v, _| outer.contains(v));
        self.order_onchip_across_iterations(lid, &onchip_from);
        self.order_pipes_across_iterations(lid, &pipes_from);
        if !group {
            // In a loop around barriers, each barrier orders global memory.
            self.check_loop_memory(lid);
        }
    }

    /// Loads of a loop body that may read what an earlier iteration stored: the hardware path
    /// does not order them through global memory yet, so they are rejected (never a silent
    /// reordering).
    fn check_loop_memory(&mut self, lid: LoopId) {
        let in_loop = |k: &Kernel, o: OpId| k.encloses(lid, k.op(o).region);
        let ops = self.k.op_ids();
        let stores: Vec<(OpId, MemId)> = ops
            .iter()
            .filter(|&&o| in_loop(&self.k, o))
            .filter_map(|&o| match self.k.op(o).kind {
                OpKind::Store { mem, .. } => Some((o, mem)),
                _ => None,
            })
            .collect();
        for &o in &ops {
            let OpKind::Load { mem } = self.k.op(o).kind else {
                continue;
            };
            if !in_loop(&self.k, o) || self.is_onchip(mem) {
                continue;
            }
            if let Some(&(st, m)) = stores.iter().find(|(_, m)| self.may_alias(*m, mem)) {
                let other = self.k.mem(m).name.clone();
                self.diags.push(
                    Diagnostic::error(
                        self.k.op(o).span,
                        "a load in a loop that also stores to memory the load may read is not yet supported by the hardware path",
                    )
                    .label(self.k.op(st).span, format!("a store through `{other}` in the same loop"))
                    .note("a later iteration's load could overtake an earlier iteration's store; mark the pointer arguments `restrict` if they never overlap, or accumulate in a variable and store after the loop"),
                );
                return;
            }
        }
    }

    /// A `local` or private array becomes an on-chip memory (one read and one write port,
    /// read latency 1); the variable is a pointer to its element 0. A private array's
    /// initialiser list becomes stores at its declaration.
    fn declare_array(&mut self, var: VarId, init: Option<&Init>, span: Span) {
        let info = self.p.var(var);
        let name = info.name.clone();
        let mut elem_t = &info.ty;
        while let Type::Array(e, _) = elem_t {
            elem_t = e;
        }
        let esize = self.p.size_of(elem_t);
        let supported = matches!(elem_t, Type::Scalar(_) | Type::Vector(..) | Type::Struct(_));
        if !supported || !self.check_type(elem_t, span) {
            if !supported {
                self.unsupported(span, format!("an array of `{}`", self.p.type_name(elem_t)));
            }
            return;
        }
        // On-chip elements are a power of two of bytes apart (a 48-byte struct takes 64), so
        // an index is a bit select of the address; nothing outside the kernel sees the gap.
        let stride = esize.next_power_of_two();
        let len = self.p.size_of(&info.ty) / esize;
        let kind = match info.space {
            AddrSpace::Local => MemKind::Local { len },
            AddrSpace::Private => MemKind::Private { len },
            _ => {
                self.unsupported(span, "an array in this address space");
                return;
            }
        };
        let elem = self.image_ty(elem_t);
        let mem = MemId::from_index(self.k.mems.len());
        self.k.mems.push(Memory {
            name: name.clone(),
            kind,
            elem,
            elem_bytes: stride,
            span,
        });
        let base = self.konst(0, Ty::I32, span);
        self.env.vars.insert(var, Val::Ptr { addr: base, mem });
        match init {
            None => {}
            Some(Init::List(items)) if matches!(info.ty, Type::Array(ref e, _) if !e.is_array()) => {
                let elem_t = elem_t.clone();
                for i in 0..len {
                    // C: elements without an initialiser are zero.
                    let v = match items.get(i as usize) {
                        Some(item) => self.init_value(&elem_t, item),
                        None => Val::Undef,
                    };
                    let off = self.konst(i as u64 * stride as u64, Ty::I32, span);
                    self.store_val(off, mem, v, &elem_t, None, span);
                }
            }
            Some(_) => self.unsupported(span, "this array initialiser"),
        }
    }

    /// A `local` scalar (or `local reserve_id_t`): one element of on-chip memory, shared by
    /// the work-group.
    fn declare_local_scalar(&mut self, var: VarId, span: Span) {
        let ty = self.local_scalar_type(var);
        let (elem, bytes) = (self.image_ty(&ty), self.p.size_of(&ty));
        let mem = MemId::from_index(self.k.mems.len());
        self.k.mems.push(Memory {
            name: self.p.var(var).name.clone(),
            kind: MemKind::Local { len: 1 },
            elem: if elem == Ty::BOOL { Ty::Int(8) } else { elem },
            elem_bytes: bytes,
            span,
        });
        self.local_scalars.insert(var, mem);
    }

    /// The type a `local` scalar is accessed as (a reserve id is an i32).
    fn local_scalar_type(&self, var: VarId) -> Type {
        match &self.p.var(var).ty {
            Type::ReserveId => Type::UINT,
            t => t.clone(),
        }
    }

    fn local_scalar_load(&mut self, var: VarId, span: Span) -> Val {
        let (mem, ty) = (self.local_scalars[&var], self.local_scalar_type(var));
        let addr = self.konst(0, Ty::I32, span);
        self.load(addr, mem, &ty, span)
    }

    fn local_scalar_store(&mut self, var: VarId, v: Val, span: Span) {
        let (mem, ty) = (self.local_scalars[&var], self.local_scalar_type(var));
        let addr = self.konst(0, Ty::I32, span);
        self.store_val(addr, mem, v, &ty, None, span);
    }

    /// The element (IR type, bytes) a pointer argument (`what`) points to.
    fn pointer_elem(&mut self, pointee: &Type, what: &str, span: Span) -> (Ty, u32) {
        match pointee {
            t @ (Type::Scalar(_) | Type::Vector(..) | Type::Struct(_))
                if self.check_type(t, span) =>
            {
                (self.image_ty(t), self.p.size_of(t))
            }
            _ => {
                self.unsupported(span, format!("{what} to `{}`", self.p.type_name(pointee)));
                (Ty::I32, 4)
            }
        }
    }

    /// Names the ops of a variable's value after it (lanes and fields as `v_x`, `s_count`),
    /// for readable RTL.
    fn name_value(&mut self, v: Val, ty: &Type, name: &str) {
        match v {
            Val::Scalar(id) => {
                let op = self.k.op_mut(id);
                if op.name.is_none() && !matches!(op.kind, OpKind::Const(_)) {
                    op.name = Some(name.to_string());
                }
            }
            Val::Agg(_) => {
                let Some(types) = self.parts_of_type(ty) else {
                    return;
                };
                let parts = self.parts_vals(v, ty);
                for (i, ((t, _), p)) in types.iter().zip(parts).enumerate() {
                    let suffix = match ty {
                        Type::Vector(_, n) if *n <= 4 => ["x", "y", "z", "w"][i].to_string(),
                        Type::Vector(..) => format!("s{i:x}"),
                        Type::Struct(id) => self.p.structs.get(*id).fields[i].name.clone(),
                        _ => i.to_string(),
                    };
                    self.name_value(p, t, &format!("{name}_{suffix}"));
                }
            }
            _ => {}
        }
    }

    /// Run `then` under `pred & c` and `els` under `pred & !c`, then merge the environments.
    fn branch(
        &mut self,
        c: OpId,
        span: Span,
        then: impl FnOnce(&mut Self),
        els: impl FnOnce(&mut Self),
    ) {
        let saved_pred = self.pred;
        let before = self.env.clone();
        self.pred = self.and1(saved_pred, c, span);
        then(self);
        let env_then = std::mem::replace(&mut self.env, before);
        let nc = self.not1(c, span);
        self.pred = self.and1(saved_pred, nc, span);
        els(self);
        let env_else = std::mem::replace(&mut self.env, env_then.clone());
        self.pred = saved_pred;
        // Merge: variables declared inside an arm are out of scope afterwards.
        let mut merged = env_then.vars.clone();
        for (v, tv) in &env_then.vars {
            if let Some(ev) = env_else.vars.get(v) {
                merged.insert(*v, self.merge_val(c, *tv, *ev, span));
            }
        }
        merged.retain(|v, _| env_else.vars.contains_key(v));
        self.env.vars = merged;
        self.env.returned = self.select(c, env_then.returned, env_else.returned, span);
        self.env.brk = self.select(c, env_then.brk, env_else.brk, span);
        self.env.cont = self.select(c, env_then.cont, env_else.cont, span);
        self.env.ret_val = match (env_then.ret_val, env_else.ret_val) {
            (Some(a), Some(b)) => Some(self.merge_val(c, a, b, span)),
            (a, b) => a.or(b),
        };
    }

    fn merge_val(&mut self, c: OpId, t: Val, e: Val, span: Span) -> Val {
        match (t, e) {
            (a, b) if a == b => a,
            (Val::Scalar(a), Val::Scalar(b)) => Val::Scalar(self.select(c, a, b, span)),
            (Val::Ptr { addr: a, mem: m1 }, Val::Ptr { addr: b, mem: m2 }) if m1 == m2 => {
                Val::Ptr {
                    addr: self.select(c, a, b, span),
                    mem: m1,
                }
            }
            (Val::Ptr { .. }, Val::Ptr { .. }) => {
                self.unsupported(span, "a pointer that may point into different buffers");
                t
            }
            (Val::Agg(a), Val::Agg(b)) => {
                let (pa, pb) = (
                    self.aggs[a as usize].parts.clone(),
                    self.aggs[b as usize].parts.clone(),
                );
                let parts = pa
                    .into_iter()
                    .zip(pb)
                    .map(|(x, y)| self.merge_val(c, x, y, span))
                    .collect();
                let raw = match (self.aggs[a as usize].raw, self.aggs[b as usize].raw) {
                    (x, y) if x == y => x,
                    (x, y) => {
                        let w = self.k.op(x.or(y).expect("one is set")).ty;
                        let x = x.unwrap_or_else(|| self.konst(0, w, span));
                        let y = y.unwrap_or_else(|| self.konst(0, w, span));
                        Some(self.select(c, x, y, span))
                    }
                };
                self.mk_agg(parts, raw)
            }
            (Val::Undef, v) | (v, Val::Undef) => v,
            _ => t,
        }
    }

    // ---- expressions --------------------------------------------------------------------

    /// Lower a condition (type bool in the AST) to an i1.
    fn cond(&mut self, e: &Expr) -> OpId {
        match self.rvalue(e) {
            Val::Scalar(v) => self.as_predicate(v, e.span),
            Val::Ptr { addr, .. } => {
                let z = self.konst(0, Ty::I32, e.span);
                self.cmp(CmpOp::Ne, addr, z, e.span)
            }
            Val::Undef => self.konst(0, Ty::BOOL, e.span),
            Val::Agg(_) => {
                self.unsupported(e.span, "a vector or struct as a condition");
                self.konst(0, Ty::BOOL, e.span)
            }
        }
    }

    fn as_predicate(&mut self, v: OpId, span: Span) -> OpId {
        let ty = self.k.op(v).ty;
        if ty == Ty::BOOL {
            return v;
        }
        // A comparison widened to int and tested again: use the comparison itself.
        if let OpKind::Convert(ConvOp::ZExt) = self.k.op(v).kind {
            let src = self.k.operands(v)[0];
            if self.k.op(src).ty == Ty::BOOL {
                return src;
            }
        }
        let z = self.konst(0, ty, span);
        if ty.is_float() {
            // `x != 0.0`: true for NaN.
            return self.fcmp(CmpOp::FNe, v, z, span);
        }
        self.cmp(CmpOp::Ne, v, z, span)
    }

    fn scalar(&mut self, e: &Expr) -> OpId {
        match self.rvalue(e) {
            Val::Scalar(v) => v,
            Val::Ptr { addr, .. } => addr,
            Val::Undef => match &e.ty {
                Type::Scalar(k) => self.konst(0, scalar_ty(*k), e.span),
                _ => self.konst(0, Ty::I32, e.span),
            },
            Val::Agg(_) => {
                self.unsupported(e.span, "a vector or struct here");
                self.konst(0, Ty::I32, e.span)
            }
        }
    }

    fn rvalue(&mut self, e: &Expr) -> Val {
        let span = e.span;
        match &e.kind {
            ExprKind::IntLit(v) => match &e.ty {
                Type::Scalar(k) => Val::Scalar(self.konst(*v, scalar_ty(*k), span)),
                // `v++` on a vector adds a vector of ones.
                Type::Vector(k, n) => {
                    let x = self.konst(*v, scalar_ty(*k), span);
                    self.vector(vec![x; *n as usize])
                }
                _ => Val::Scalar(self.konst(*v, Ty::I32, span)),
            },
            ExprKind::SizeOf(v) => Val::Scalar(self.konst(*v, Ty::I32, span)),
            // Only the bit pattern: floating-point values are copied, never computed on.
            ExprKind::FloatLit(f) => match e.ty {
                Type::Scalar(ScalarKind::Double) => {
                    Val::Scalar(self.konst(f.to_bits(), Ty::Float(64), span))
                }
                Type::Scalar(ScalarKind::Float) => {
                    Val::Scalar(self.konst((*f as f32).to_bits() as u64, Ty::Float(32), span))
                }
                // (The device has no cl_khr_fp16: the front end rejects `half` values.)
                _ => {
                    self.unsupported(span, "a `half` constant");
                    Val::Undef
                }
            },
            ExprKind::Var(v) if self.local_scalars.contains_key(v) => {
                self.local_scalar_load(*v, span)
            }
            ExprKind::Var(v) => match self.env.vars.get(v) {
                Some(val) => *val,
                None if self.groups.ctx.contains_key(v) => {
                    let name = self.p.var(*v).name.clone();
                    self.diags.push(
                        Diagnostic::error(span, format!("`{name}` differs between work-items, but this code runs once per work-group"))
                            .note("code around a barrier (the condition of a loop or `if` that contains a barrier) must be the same for every work-item of the group"),
                    );
                    Val::Undef
                }
                None => {
                    let name = self.p.var(*v).name.clone();
                    self.unsupported(span, format!("the variable `{name}` here"));
                    Val::Undef
                }
            },
            ExprKind::Global(_) => {
                self.unsupported(span, "a program-scope variable");
                Val::Undef
            }
            ExprKind::Unary { op, expr } if expr.ty.is_float() && *op != ast::UnOp::Plus => {
                let lanes = self.lanes_of_expr(expr);
                let rt = e.ty.elem_kind().map_or(Ty::I32, scalar_ty);
                let out: Vec<OpId> = lanes
                    .into_iter()
                    .map(|v| match op {
                        ast::UnOp::Neg => self.funary(UnOp::FNeg, v, span),
                        ast::UnOp::Not => {
                            let z = self.konst(0, self.k.op(v).ty, span);
                            let c = self.fcmp(CmpOp::FEq, v, z, span);
                            if expr.ty.is_vector() {
                                self.lane_mask(c, rt, span)
                            } else {
                                self.resize(c, rt, false, span)
                            }
                        }
                        _ => {
                            self.unsupported(span, "this operator on a floating-point value");
                            self.konst(0, rt, span)
                        }
                    })
                    .collect();
                if expr.ty.is_vector() {
                    self.vector(out)
                } else {
                    Val::Scalar(out[0])
                }
            }
            ExprKind::Unary { op, expr } if expr.ty.is_vector() => {
                let lanes = self.lanes_of_expr(expr);
                let rt = e.ty.elem_kind().map_or(Ty::I32, scalar_ty);
                let out = lanes
                    .into_iter()
                    .map(|v| {
                        let ty = self.k.op(v).ty;
                        match op {
                            ast::UnOp::Plus => v,
                            ast::UnOp::Neg => {
                                let z = self.konst(0, ty, span);
                                self.bin(BinOp::Sub, z, v, span)
                            }
                            ast::UnOp::BitNot => self.bit_not(v, span),
                            // -1 (all ones) where the lane is 0.
                            ast::UnOp::Not => {
                                let z = self.konst(0, ty, span);
                                let c = self.cmp(CmpOp::Eq, v, z, span);
                                self.lane_mask(c, rt, span)
                            }
                        }
                    })
                    .collect();
                self.vector(out)
            }
            ExprKind::Unary { op, expr } => {
                let v = self.scalar(expr);
                let ty = self.k.op(v).ty;
                Val::Scalar(match op {
                    ast::UnOp::Plus => v,
                    ast::UnOp::Neg => {
                        let z = self.konst(0, ty, span);
                        self.bin(BinOp::Sub, z, v, span)
                    }
                    ast::UnOp::BitNot => self.bit_not(v, span),
                    ast::UnOp::Not => {
                        let b = self.as_predicate(v, span);
                        let n = self.not1(b, span);
                        self.resize(n, self.ty_of(&e.ty), false, span)
                    }
                })
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, &e.ty, span),
            ExprKind::Assign {
                op,
                lhs,
                rhs,
                op_ty,
            } => {
                let new = match op {
                    None => self.rvalue(rhs),
                    Some(b) => {
                        if let Some((_, new)) = self.update_memory(lhs, span, |l, cur| {
                            l.compound(*b, cur, lhs, rhs, op_ty, span)
                        }) {
                            return new;
                        }
                        let cur = self.rvalue(lhs);
                        self.compound(*b, cur, lhs, rhs, op_ty, span)
                    }
                };
                self.assign(lhs, new, span);
                new
            }
            ExprKind::IncDec { inc, prefix, expr } => {
                let one_ty = match &expr.ty {
                    Type::Pointer { .. } => Type::INT,
                    t => t.clone(),
                };
                let one = Expr::new(ExprKind::IntLit(1), one_ty.clone(), span);
                let b = if *inc {
                    ast::BinOp::Add
                } else {
                    ast::BinOp::Sub
                };
                let ty = expr.ty.clone();
                let (cur, new) = match self.update_memory(expr, span, |l, cur| {
                    l.compound(b, cur, expr, &one, &ty, span)
                }) {
                    Some(pair) => pair,
                    None => {
                        let cur = self.rvalue(expr);
                        let new = self.compound(b, cur, expr, &one, &ty, span);
                        self.assign(expr, new, span);
                        (cur, new)
                    }
                };
                if *prefix {
                    new
                } else {
                    cur
                }
            }
            ExprKind::Cond { cond, then, els } if cond.ty.is_vector() => {
                // Lane-wise on the most significant bit of each lane; both arms evaluated.
                let c = self.lanes_of_expr(cond);
                let t = self.rvalue(then);
                let f = self.rvalue(els);
                let t = self.parts_vals(t, &e.ty);
                let f = self.parts_vals(f, &e.ty);
                let mut out = Vec::new();
                for ((c, t), f) in c.into_iter().zip(t).zip(f) {
                    let msb = self.msb(c, span);
                    out.push(self.merge_val(msb, t, f, span));
                }
                self.mk_agg(out, None)
            }
            ExprKind::Cond { cond, then, els } => {
                let c = self.cond(cond);
                let mut tv = Val::Undef;
                let mut ev = Val::Undef;
                self.branch(c, span, |l| tv = l.rvalue(then), |l| ev = l.rvalue(els));
                self.merge_val(c, tv, ev, span)
            }
            ExprKind::Cast { kind, expr } => self.cast(*kind, expr, &e.ty, span),
            ExprKind::Index { base, index } if is_agg_array(base) => self.agg_index(base, index),
            ExprKind::Index { .. } | ExprKind::Deref(_) => {
                let (addr, mem) = match self.address(e) {
                    Some(a) => a,
                    None => return self.dummy(&e.ty, span),
                };
                // A row of a multi-dimensional array is not loaded: it decays to its address.
                if let Type::Array(..) = e.ty {
                    return Val::Ptr { addr, mem };
                }
                self.load(addr, mem, &e.ty, span)
            }
            ExprKind::AddrOf(inner) => match self.address(inner) {
                Some((addr, mem)) => Val::Ptr { addr, mem },
                None => Val::Undef,
            },
            ExprKind::Comma(a, b) => {
                self.rvalue(a);
                self.rvalue(b)
            }
            ExprKind::Call { func, args } => self.call(*func, args, span),
            ExprKind::Builtin { builtin, args } => self.builtin(*builtin, args, &e.ty, span),
            ExprKind::Member { base, field } => {
                if matches!(&base.ty, Type::Struct(id) if self.p.structs.get(*id).is_union) {
                    self.unsupported(span, "a union");
                    return Val::Undef;
                }
                let v = self.rvalue(base);
                self.part(v, &base.ty, *field)
            }
            ExprKind::Swizzle { base, lanes } => {
                let v = self.rvalue(base);
                self.swizzle(v, &base.ty, lanes)
            }
            ExprKind::VecLit(items) => {
                let parts = items.iter().map(|it| self.rvalue(it)).collect();
                self.mk_agg(parts, None)
            }
        }
    }

    fn ty_of(&self, t: &Type) -> Ty {
        match t {
            Type::Scalar(k) => scalar_ty(*k),
            _ => Ty::I32,
        }
    }

    fn signed(t: &Type) -> bool {
        matches!(t, Type::Scalar(k) if k.is_signed())
    }

    fn binary(&mut self, op: ast::BinOp, lhs: &Expr, rhs: &Expr, ty: &Type, span: Span) -> Val {
        use ast::BinOp as A;
        let float = lhs.ty.is_float();
        if lhs.ty.is_vector() {
            // Lane by lane; comparisons and logical operators give -1/0 lanes.
            let a = self.lanes_of_expr(lhs);
            let b = self.lanes_of_expr(rhs);
            let signed = Self::signed_elem(&lhs.ty);
            let rt = ty.elem_kind().map_or(Ty::I32, scalar_ty);
            let mut out = Vec::new();
            for (x, y) in a.into_iter().zip(b) {
                out.push(if op.is_comparison() {
                    let c = self.compare(op, float, signed, x, y, span);
                    self.lane_mask(c, rt, span)
                } else if op.is_logical() {
                    let (px, py) = (self.as_predicate(x, span), self.as_predicate(y, span));
                    let c = if op == A::LogAnd {
                        self.and1(px, py, span)
                    } else {
                        self.or1(px, py, span)
                    };
                    self.lane_mask(c, rt, span)
                } else {
                    self.arith(op, x, y, signed, span)
                });
            }
            return self.vector(out);
        }
        match op {
            A::LogAnd | A::LogOr => {
                let a = self.cond(lhs);
                let mut b = a;
                let and = op == A::LogAnd;
                // Short circuit: the right side's side effects only run when it is evaluated.
                let saved = self.pred;
                let guard = if and { a } else { self.not1(a, span) };
                let before = self.env.clone();
                self.pred = self.and1(saved, guard, span);
                let rb = self.cond(rhs);
                let after = std::mem::replace(&mut self.env, before.clone());
                self.pred = saved;
                // Merge assignments made by the right side.
                let mut merged = before.vars.clone();
                for (v, val) in &after.vars {
                    let old = before.vars.get(v).copied().unwrap_or(Val::Undef);
                    merged.insert(*v, self.merge_val(guard, *val, old, span));
                }
                self.env.vars = merged;
                b = if and {
                    self.and1(b, rb, span)
                } else {
                    self.or1(b, rb, span)
                };
                let t = self.ty_of(ty);
                Val::Scalar(self.resize(b, t, false, span))
            }
            _ if lhs.ty.is_pointer() => {
                let p = self.rvalue(lhs);
                let Val::Ptr { addr, mem } = p else {
                    self.unsupported(span, "this pointer arithmetic");
                    return Val::Undef;
                };
                match op {
                    A::Add | A::Sub if rhs.ty.is_integer() => {
                        let i = self.scalar(rhs);
                        let off = self.scale(i, mem, Self::signed(&rhs.ty), span);
                        let b = if op == A::Add { BinOp::Add } else { BinOp::Sub };
                        Val::Ptr {
                            addr: self.bin(b, addr, off, span),
                            mem,
                        }
                    }
                    _ if op.is_comparison() => {
                        let q = self.scalar(rhs);
                        let c = self.cmp(cmp_op(op, false), addr, q, span);
                        let t = self.ty_of(ty);
                        Val::Scalar(self.resize(c, t, false, span))
                    }
                    _ => {
                        self.unsupported(span, "this pointer arithmetic");
                        Val::Undef
                    }
                }
            }
            _ => {
                let a = self.scalar(lhs);
                let b = self.scalar(rhs);
                let signed = Self::signed(&lhs.ty);
                if op.is_comparison() {
                    let c = self.compare(op, float, signed, a, b, span);
                    let t = self.ty_of(ty);
                    return Val::Scalar(self.resize(c, t, false, span));
                }
                Val::Scalar(self.arith(op, a, b, signed, span))
            }
        }
    }

    fn arith(&mut self, op: ast::BinOp, a: OpId, b: OpId, signed: bool, span: Span) -> OpId {
        use ast::BinOp as A;
        let ty = self.k.op(a).ty;
        if ty.is_float() {
            let f = match op {
                A::Add => BinOp::FAdd,
                A::Sub => BinOp::FSub,
                A::Mul => BinOp::FMul,
                A::Div => BinOp::FDiv,
                _ => {
                    self.unsupported(span, "this operator on floating-point values");
                    return self.konst(0, ty, span);
                }
            };
            return self.fbin(f, a, b, span);
        }
        // bool arithmetic never reaches here: operands are promoted to int.
        let b = if matches!(op, A::Shl | A::Shr) {
            self.resize(b, ty, false, span)
        } else {
            b
        };
        let bop = match op {
            A::Add => BinOp::Add,
            A::Sub => BinOp::Sub,
            A::Mul => BinOp::Mul,
            A::Div => {
                if signed {
                    BinOp::DivS
                } else {
                    BinOp::DivU
                }
            }
            A::Rem => {
                if signed {
                    BinOp::RemS
                } else {
                    BinOp::RemU
                }
            }
            A::Shl => BinOp::Shl,
            A::Shr => {
                if signed {
                    BinOp::ShrS
                } else {
                    BinOp::ShrU
                }
            }
            A::BitAnd => BinOp::And,
            A::BitOr => BinOp::Or,
            A::BitXor => BinOp::Xor,
            _ => unreachable!("comparison and logical operators are handled by the caller"),
        };
        // Unsigned division by a power of two is a shift (signed needs rounding toward zero).
        if let (BinOp::DivU | BinOp::RemU, Some(d)) = (bop, self.const_val(b)) {
            if d.is_power_of_two() {
                return if bop == BinOp::DivU {
                    let s = self.konst(d.trailing_zeros() as u64, ty, span);
                    self.bin(BinOp::ShrU, a, s, span)
                } else {
                    let m = self.konst(d - 1, ty, span);
                    self.bin(BinOp::And, a, m, span)
                };
            }
        }
        if matches!(bop, BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU)
            && self.const_val(b) == Some(0)
        {
            self.diags.push(
                Diagnostic::warning(span, "division by zero has an undefined result")
                    .note("the hardware returns an unspecified value here"),
            );
        }
        self.bin(bop, a, b, span)
    }

    fn compound(
        &mut self,
        b: ast::BinOp,
        cur: Val,
        lhs: &Expr,
        rhs: &Expr,
        op_ty: &Type,
        span: Span,
    ) -> Val {
        if let Val::Ptr { addr, mem } = cur {
            let i = self.scalar(rhs);
            let off = self.scale(i, mem, Self::signed(&rhs.ty), span);
            let op = if b == ast::BinOp::Add {
                BinOp::Add
            } else {
                BinOp::Sub
            };
            return Val::Ptr {
                addr: self.bin(op, addr, off, span),
                mem,
            };
        }
        if b.is_comparison() || b.is_logical() {
            self.unsupported(span, "this compound assignment");
            return cur;
        }
        // Convert the current value to the operation type, compute, convert back (lane by lane
        // for vectors).
        let cs = self.lanes(cur, &lhs.ty, span);
        let rs = self.lanes_of_expr(rhs);
        let (Some(lk), Some(ok)) = (lhs.ty.elem_kind(), op_ty.elem_kind()) else {
            self.unsupported(span, "this compound assignment");
            return cur;
        };
        let mut out = Vec::new();
        for (i, c) in cs.into_iter().enumerate() {
            let r = rs
                .get(i)
                .or(rs.first())
                .copied()
                .expect("a right-hand side");
            let Some(c) = self.convert(c, lk, ok, span) else {
                return cur;
            };
            let v = self.arith(b, c, r, ok.is_signed(), span);
            let Some(v) = self.convert(v, ok, lk, span) else {
                return cur;
            };
            out.push(v);
        }
        if lhs.ty.is_vector() {
            self.vector(out)
        } else {
            Val::Scalar(out[0])
        }
    }

    /// A compound assignment or increment of an element in memory (`p[i] += x`, `(*p)++`): the
    /// address is computed once, the element loaded, `f` applied, the result stored. Returns
    /// the old and new values, or `None` when `lhs` is not an element in memory (a variable, a
    /// field or lanes: their targets have no side effects to repeat).
    fn update_memory(
        &mut self,
        lhs: &Expr,
        span: Span,
        f: impl FnOnce(&mut Self, Val) -> Val,
    ) -> Option<(Val, Val)> {
        let in_memory = match &lhs.kind {
            ExprKind::Index { base, .. } => !is_agg_array(base),
            ExprKind::Deref(_) => true,
            _ => false,
        };
        if !in_memory {
            return None;
        }
        let Some((addr, mem)) = self.address(lhs) else {
            return Some((Val::Undef, Val::Undef));
        };
        let cur = self.load(addr, mem, &lhs.ty, span);
        let new = f(self, cur);
        self.store_val(addr, mem, new, &lhs.ty, None, span);
        Some((cur, new))
    }

    fn assign(&mut self, lhs: &Expr, v: Val, span: Span) {
        match &lhs.kind {
            ExprKind::Var(var) if self.local_scalars.contains_key(var) => {
                self.local_scalar_store(*var, v, span)
            }
            ExprKind::Var(var) => self.assign_var(*var, v, span),
            ExprKind::Index { base, .. } if is_agg_array(base) => self.assign_part(lhs, v, span),
            ExprKind::Index { .. } | ExprKind::Deref(_) => {
                let Some((addr, mem)) = self.address(lhs) else {
                    return;
                };
                self.store_val(addr, mem, v, &lhs.ty, None, span);
            }
            ExprKind::Member { .. } | ExprKind::Swizzle { .. } => self.assign_part(lhs, v, span),
            _ => self.unsupported(span, "this kind of assignment"),
        }
    }

    fn assign_var(&mut self, var: VarId, v: Val, span: Span) {
        let info = self.p.var(var);
        let (name, ty) = (info.name.clone(), info.ty.clone());
        // After `break`/`continue` the rest of the iteration must not change variables
        // (their values leave the iteration through the loop-carried registers).
        let skip = self.or1(self.env.brk, self.env.cont, span);
        let v = if self.const_val(skip) == Some(0) {
            v
        } else {
            let old = self.env.vars.get(&var).copied().unwrap_or(Val::Undef);
            self.merge_val(skip, old, v, span)
        };
        self.name_value(v, &ty, &name);
        self.env.vars.insert(var, v);
    }

    /// Bytes between consecutive objects of type `t` (an element or a row of elements) in
    /// memory `mem`: their size, with on-chip elements padded to a power of two.
    fn stride_of(&self, t: &Type, mem: MemId) -> u32 {
        match t {
            Type::Array(e, n) => n * self.stride_of(e, mem),
            _ if self.is_onchip(mem) => self.k.mem(mem).elem_bytes,
            _ => self.p.size_of(t),
        }
    }

    /// Byte offset of `i` elements of memory `mem`.
    fn scale(&mut self, i: OpId, mem: MemId, signed: bool, span: Span) -> OpId {
        let bytes = self.k.mem(mem).elem_bytes;
        self.scale_by(i, bytes, signed, span)
    }

    /// Byte offset of `i` elements of `bytes` bytes each.
    fn scale_by(&mut self, i: OpId, bytes: u32, signed: bool, span: Span) -> OpId {
        let i = self.resize(i, Ty::I32, signed, span);
        let bytes = bytes as u64;
        if bytes == 1 {
            return i;
        }
        if bytes.is_power_of_two() {
            let s = self.konst(bytes.trailing_zeros() as u64, Ty::I32, span);
            self.bin(BinOp::Shl, i, s, span)
        } else if bytes.count_ones() == 2 {
            // Structs of 12, 24, 20 ... bytes: two shifts and an add instead of a multiplier.
            let lo = bytes.trailing_zeros();
            let hi = 63 - bytes.leading_zeros();
            let (a, b) = (
                self.konst(lo as u64, Ty::I32, span),
                self.konst(hi as u64, Ty::I32, span),
            );
            let x = self.bin(BinOp::Shl, i, a, span);
            let y = self.bin(BinOp::Shl, i, b, span);
            self.bin(BinOp::Add, x, y, span)
        } else {
            let s = self.konst(bytes, Ty::I32, span);
            self.bin(BinOp::Mul, i, s, span)
        }
    }

    /// The byte address and memory designated by an lvalue `p[i]` or `*p`.
    fn address(&mut self, e: &Expr) -> Option<(OpId, MemId)> {
        match &e.kind {
            ExprKind::Index { base, index } => {
                if !base.ty.is_pointer() && !base.ty.is_array() {
                    self.unsupported(e.span, "indexing this value");
                    return None;
                }
                let Val::Ptr { addr, mem } = self.rvalue(base) else {
                    self.unsupported(base.span, "a pointer whose target buffer is unknown");
                    return None;
                };
                let i = self.scalar(index);
                let off = self.scale_by(
                    i,
                    self.stride_of(&e.ty, mem),
                    Self::signed(&index.ty),
                    e.span,
                );
                Some((self.bin(BinOp::Add, addr, off, e.span), mem))
            }
            ExprKind::Deref(p) => match self.rvalue(p) {
                Val::Ptr { addr, mem } => Some((addr, mem)),
                _ => {
                    self.unsupported(p.span, "a pointer whose target buffer is unknown");
                    None
                }
            },
            _ => {
                self.unsupported(e.span, "taking this address");
                None
            }
        }
    }

    fn check_access(&mut self, mem: MemId, ty: &Type, span: Span) -> bool {
        let m = self.k.mem(mem);
        let want = match ty {
            Type::Scalar(_) | Type::Vector(..) | Type::Struct(_) => self.p.size_of(ty),
            _ => 0,
        };
        if want != m.elem.bits().div_ceil(8) {
            let name = m.name.clone();
            self.unsupported(
                span,
                format!(
                    "an access of type `{}` through `{name}`, whose elements are {} bytes",
                    self.p.type_name(ty),
                    m.elem.bits().div_ceil(8)
                ),
            );
            return false;
        }
        true
    }

    fn load(&mut self, addr: OpId, mem: MemId, ty: &Type, span: Span) -> Val {
        if !self.check_access(mem, ty, span) {
            return self.dummy(ty, span);
        }
        // A load after a store to memory that may alias needs the store to be acknowledged
        // first; the hardware path does not track that yet.
        if let Some((&m, _)) = self
            .stores
            .iter()
            .find(|(m, s)| !s.is_empty() && !self.is_onchip(mem) && self.may_alias(**m, mem))
        {
            let other = self.k.mem(m).name.clone();
            self.diags.push(
                Diagnostic::error(span, "a load after a store to memory it may alias is not yet supported by the hardware path")
                    .note(format!("this work-item stores through `{other}` earlier; mark the pointer arguments `restrict` if they never overlap")),
            );
        }
        let elem = self.k.mem(mem).elem;
        let pred = self.effect_pred(span);
        let id = self.op(OpKind::Load { mem }, elem, span, &[addr, pred]);
        self.order_onchip(id, mem, false);
        self.unpack(id, ty, false, span)
    }

    /// Program order of accesses to an on-chip memory: a load after a store, and a store after
    /// any access (distance 0). Its latency is fixed, so the schedule can keep this order
    /// exactly (no need to reject as for global memory).
    fn order_onchip(&mut self, op: OpId, mem: MemId, is_store: bool) {
        if !self.is_onchip(mem) {
            return;
        }
        self.check_phase_array(op, mem);
        let earlier: Vec<(OpId, bool)> = self.onchip.get(&mem).cloned().unwrap_or_default();
        for (prev, prev_store) in earlier {
            if prev_store || is_store {
                self.k.add_dep(prev, op, Dep::Order { distance: 0 });
            }
        }
        self.onchip.entry(mem).or_default().push((op, is_store));
    }

    /// Accesses to on-chip memories in loop `lid` (recorded since index `from` of each list)
    /// are also ordered from one iteration to a later one: at the distance the affine
    /// analysis finds, not at all when it proves them independent, and at distance 1 when it
    /// cannot tell. Pairs that both sit in one nested loop are ordered by that loop running
    /// to completion.
    fn order_onchip_across_iterations(&mut self, lid: LoopId, from: &BTreeMap<MemId, usize>) {
        let lists: Vec<Vec<(OpId, bool)>> = self
            .onchip
            .iter()
            .map(|(m, v)| v[from.get(m).copied().unwrap_or(0)..].to_vec())
            .collect();
        for v in lists {
            for &(a, sa) in &v {
                for &(b, sb) in &v {
                    if a == b || !(sa || sb) {
                        continue;
                    }
                    let (ra, rb) = (self.k.op(a).region, self.k.op(b).region);
                    if ra != lid && rb != lid && ra == rb {
                        continue;
                    }
                    use crate::analysis::affine::{distance, Distance};
                    let (aa, ab) = (self.k.operands(a)[0], self.k.operands(b)[0]);
                    let (d, exact) = match distance(&self.k, aa, ab, lid) {
                        Distance::Independent => continue,
                        Distance::Exact(d) => (d, true),
                        Distance::Unknown => (1, false),
                    };
                    self.k.add_dep(a, b, Dep::Order { distance: d });
                    self.k.mem_deps.push(crate::kernel::MemDep {
                        lp: lid,
                        from: a,
                        to: b,
                        distance: d,
                        exact,
                    });
                }
            }
        }
    }

    fn is_onchip(&self, m: MemId) -> bool {
        !matches!(self.k.mem(m).kind, MemKind::Global { .. })
    }

    fn may_alias(&self, a: MemId, b: MemId) -> bool {
        if a == b {
            return true;
        }
        if self.is_onchip(a) || self.is_onchip(b) {
            return false;
        }
        let restrict = |m: MemId| match self.k.mem(m).kind {
            MemKind::Global { arg, .. } => {
                let f = &self
                    .p
                    .functions
                    .iter()
                    .find(|f| f.is_kernel && f.name == self.k.name);
                f.and_then(|f| f.params.get(arg.index()))
                    .map(|v| {
                        matches!(
                            self.p.var(*v).ty,
                            Type::Pointer {
                                is_restrict: true,
                                ..
                            }
                        )
                    })
                    .unwrap_or(false)
            }
            _ => false,
        };
        !(restrict(a) || restrict(b))
    }

    /// Stores value `v` of type `ty` into the element at `addr` (only the bytes of `mask`).
    fn store_val(
        &mut self,
        addr: OpId,
        mem: MemId,
        v: Val,
        ty: &Type,
        mask: Option<ByteMask>,
        span: Span,
    ) {
        if !self.check_access(mem, ty, span) {
            return;
        }
        if let MemKind::Global { constant: true, .. } = self.k.mem(mem).kind {
            self.diags
                .push(Diagnostic::error(span, "store to `constant` memory"));
            return;
        }
        let elem = self.k.mem(mem).elem;
        let data = self.pack(v, ty, span);
        let data = self.fit(data, elem, span);
        let pred = self.effect_pred(span);
        let st = self.op(
            OpKind::Store { mem, mask },
            Ty::Token,
            span,
            &[addr, data, pred],
        );
        self.order_onchip(st, mem, true);
        // Stores to one memory keep program order (same-address writes of one work-item).
        if let Some(&prev) = self.stores.get(&mem).and_then(|v| v.last()) {
            self.k.add_dep(prev, st, Dep::Order { distance: 0 });
        }
        self.stores.entry(mem).or_default().push(st);
    }

    fn cast(&mut self, kind: CastKind, inner: &Expr, to: &Type, span: Span) -> Val {
        let _ = kind;
        match (&inner.ty, to) {
            (_, Type::Pointer { .. }) | (Type::Array(..), _) => match self.rvalue(inner) {
                v @ Val::Ptr { .. } => v,
                Val::Undef => Val::Undef,
                Val::Scalar(_) | Val::Agg(_) => {
                    self.unsupported(span, "converting an integer to a pointer");
                    Val::Undef
                }
            },
            (Type::Pointer { .. }, Type::Scalar(k)) => {
                let v = self.scalar(inner);
                if *k == ScalarKind::Bool {
                    let z = self.konst(0, Ty::I32, span);
                    return Val::Scalar(self.cmp(CmpOp::Ne, v, z, span));
                }
                let t = scalar_ty(*k);
                Val::Scalar(self.resize(v, t, false, span))
            }
            (Type::Scalar(from), Type::Scalar(k)) => {
                let v = self.scalar(inner);
                match self.convert(v, *from, *k, span) {
                    Some(x) => Val::Scalar(x),
                    None => Val::Undef,
                }
            }
            // A splat: the operand has the vector's element type.
            (Type::Scalar(from), Type::Vector(k, n)) => {
                let v = self.scalar(inner);
                match self.convert(v, *from, *k, span) {
                    Some(x) => self.vector(vec![x; *n as usize]),
                    None => Val::Undef,
                }
            }
            (Type::Vector(from, n), Type::Vector(k, m)) if n == m => {
                let lanes = self.lanes_of_expr(inner);
                let mut out = Vec::new();
                for x in lanes {
                    match self.convert(x, *from, *k, span) {
                        Some(x) => out.push(x),
                        None => return Val::Undef,
                    }
                }
                self.vector(out)
            }
            (a, b) if a == b => self.rvalue(inner),
            (Type::Void, _) | (_, Type::Void) => {
                self.rvalue(inner);
                Val::Undef
            }
            _ => {
                self.unsupported(span, format!("a conversion to `{}`", self.p.type_name(to)));
                Val::Undef
            }
        }
    }

    /// Converts scalar `v` from `from` to `to` (C conversion rules): integers resize, anything
    /// to `bool` is `!= 0`; conversions involving floating point are diagnostics (`None`).
    fn convert(&mut self, v: OpId, from: ScalarKind, to: ScalarKind, span: Span) -> Option<OpId> {
        if from == to {
            return Some(v);
        }
        if from.is_float() || to.is_float() {
            let single = |k: ScalarKind| !k.is_float() || k == ScalarKind::Float;
            if !single(from) || !single(to) {
                self.unsupported(
                    span,
                    format!("a conversion from `{from}` to `{to}` (only single-precision `float` is built in hardware)"),
                );
                return None;
            }
            if to == ScalarKind::Bool {
                return Some(self.as_predicate(v, span));
            }
            let conv = match (from.is_float(), to.is_float()) {
                (false, _) if from.is_signed() => ConvOp::SIToF,
                (false, _) => ConvOp::UIToF,
                (_, false) if to.is_signed() => ConvOp::FToSI { sat: false },
                _ => ConvOp::FToUI { sat: false },
            };
            return Some(self.op(OpKind::Convert(conv), scalar_ty(to), span, &[v]));
        }
        if to == ScalarKind::Bool {
            return Some(self.as_predicate(v, span));
        }
        Some(self.resize(v, scalar_ty(to), from.is_signed(), span))
    }

    /// Only single precision is built in hardware: `double` and `half` arithmetic is a
    /// diagnostic (the result a dummy).
    fn single_precision(&mut self, ty: Ty, span: Span) -> bool {
        if ty == Ty::Float(32) {
            return true;
        }
        let name = if ty.bits() == 64 { "double" } else { "half" };
        self.unsupported(
            span,
            format!("`{name}` arithmetic (only single-precision `float` is built in hardware)"),
        );
        false
    }

    /// A floating-point binary operation (`FAdd` ... `FMax`).
    fn fbin(&mut self, b: BinOp, a: OpId, c: OpId, span: Span) -> OpId {
        let ty = self.k.op(a).ty;
        if !self.single_precision(ty, span) {
            return self.konst(0, ty, span);
        }
        self.op(OpKind::Binary(b), ty, span, &[a, c])
    }

    /// A floating-point unary operation (`FNeg`, `FAbs`, `FSqrt`).
    fn funary(&mut self, u: UnOp, a: OpId, span: Span) -> OpId {
        let ty = self.k.op(a).ty;
        if !self.single_precision(ty, span) {
            return self.konst(0, ty, span);
        }
        self.op(OpKind::Unary(u), ty, span, &[a])
    }

    /// A floating-point comparison (`FEq` ... `FGe`).
    fn fcmp(&mut self, c: CmpOp, a: OpId, b: OpId, span: Span) -> OpId {
        if !self.single_precision(self.k.op(a).ty, span) {
            return self.konst(0, Ty::BOOL, span);
        }
        self.op(OpKind::Cmp(c), Ty::BOOL, span, &[a, b])
    }

    /// The comparison `op` of two scalars of a float or integer type.
    fn compare(
        &mut self,
        op: ast::BinOp,
        float: bool,
        signed: bool,
        a: OpId,
        b: OpId,
        span: Span,
    ) -> OpId {
        if !float {
            return self.cmp(cmp_op(op, signed), a, b, span);
        }
        use ast::BinOp as A;
        let c = match op {
            A::Eq => CmpOp::FEq,
            A::Ne => CmpOp::FNe,
            A::Lt => CmpOp::FLt,
            A::Le => CmpOp::FLe,
            A::Gt => CmpOp::FGt,
            _ => CmpOp::FGe,
        };
        self.fcmp(c, a, b, span)
    }

    fn bit_not(&mut self, v: OpId, span: Span) -> OpId {
        let ty = self.k.op(v).ty;
        if let Some(x) = self.const_val(v) {
            self.konst(!x, ty, span)
        } else {
            self.op(OpKind::Unary(UnOp::Not), ty, span, &[v])
        }
    }

    /// A vector comparison's lane: -1 (all ones) for true, 0 for false.
    fn lane_mask(&mut self, c: OpId, to: Ty, span: Span) -> OpId {
        if let Some(x) = self.const_val(c) {
            return self.konst(if x & 1 == 1 { u64::MAX } else { 0 }, to, span);
        }
        self.op(OpKind::Convert(ConvOp::SExt), to, span, &[c])
    }

    /// The most significant bit of `v` (a vector lane's truth in `?:` and `select`).
    fn msb(&mut self, v: OpId, span: Span) -> OpId {
        let b = self.k.op(v).ty.bits();
        self.extract(v, b - 1, Ty::BOOL, span)
    }

    /// Signed element type (signed integers; floats count as signed, as in the AST).
    fn signed_elem(t: &Type) -> bool {
        t.elem_kind().is_some_and(|k| k.is_signed())
    }

    fn call(&mut self, func: FuncId, args: &[Expr], span: Span) -> Val {
        if self.depth >= MAX_INLINE_DEPTH {
            self.diags.push(Diagnostic::error(
                span,
                format!("helper calls nested deeper than {MAX_INLINE_DEPTH} levels"),
            ));
            return Val::Undef;
        }
        let f = self.p.func(func);
        let mut vals = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            if !self.bind_pipe_param(*p, a) {
                vals.push((*p, self.rvalue(a)));
            }
        }
        // The callee sees only its parameters; its `return` ends the callee only.
        let fl = self.konst(0, Ty::BOOL, span);
        let caller = std::mem::replace(
            &mut self.env,
            Env {
                vars: BTreeMap::new(),
                returned: fl,
                ret_val: None,
                brk: fl,
                cont: fl,
            },
        );
        for (p, v) in vals {
            self.env.vars.insert(p, v);
        }
        // Side effects in the callee are masked by the caller's state too.
        let saved_pred = self.pred;
        let alive = self.not1(caller.returned, span);
        self.pred = self.and1(self.pred, alive, span);
        self.depth += 1;
        self.block(&f.body.stmts);
        self.depth -= 1;
        self.pred = saved_pred;
        let ret = self.env.ret_val.unwrap_or(Val::Undef);
        self.env = caller;
        ret
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], ty: &Type, span: Span) -> Val {
        if let Some(v) = self.pipe_builtin(b, args, span) {
            return v;
        }
        let wi = match b {
            Builtin::GetGlobalId => Some(WorkItemFn::GlobalId),
            Builtin::GetLocalId => Some(WorkItemFn::LocalId),
            Builtin::GetGroupId => Some(WorkItemFn::GroupId),
            Builtin::GetGlobalSize => Some(WorkItemFn::GlobalSize),
            Builtin::GetLocalSize => Some(WorkItemFn::LocalSize),
            Builtin::GetEnqueuedLocalSize => Some(WorkItemFn::EnqueuedLocalSize),
            Builtin::GetNumGroups => Some(WorkItemFn::NumGroups),
            Builtin::GetGlobalOffset => Some(WorkItemFn::GlobalOffset),
            Builtin::GetWorkDim => Some(WorkItemFn::WorkDim),
            _ => None,
        };
        if let Some(f) = wi {
            let t = self.ty_of(ty);
            if f == WorkItemFn::WorkDim {
                return Val::Scalar(self.op(OpKind::WorkItem(f, 0), t, span, &[]));
            }
            let d = self.scalar(&args[0]);
            let Some(dim) = self.const_val(d) else {
                self.unsupported(
                    args[0].span,
                    "a work-item function with a dimension that is not a constant",
                );
                return Val::Undef;
            };
            if dim > 2 {
                // OpenCL: out-of-range dimensions give 0 for ids and offsets, 1 for sizes.
                let v = match f {
                    WorkItemFn::GlobalSize
                    | WorkItemFn::LocalSize
                    | WorkItemFn::EnqueuedLocalSize
                    | WorkItemFn::NumGroups => 1,
                    _ => 0,
                };
                return Val::Scalar(self.konst(v, t, span));
            }
            if self.k.work_groups.is_some() {
                if let Some(v) = self.group_work_item(f, dim as u8, t, span) {
                    return v;
                }
            }
            return Val::Scalar(self.op(OpKind::WorkItem(f, dim as u8), t, span, &[]));
        }
        let signed = Self::signed_elem(ty);
        let float_args = args.iter().any(|a| a.ty.is_float());
        match b {
            // `min`/`max`/`clamp` on floats: undefined for NaN arguments, so `fmin`/`fmax`.
            Builtin::Min | Builtin::Max if float_args => {
                let op = if b == Builtin::Min {
                    BinOp::FMin
                } else {
                    BinOp::FMax
                };
                self.lane_map(args, ty, span, |l, x| l.fbin(op, x[0], x[1], span))
            }
            // `mad`: "a * b + c, precision implementation-defined": two roundings.
            Builtin::Mad => self.lane_map(args, ty, span, |l, x| {
                let p = l.fbin(BinOp::FMul, x[0], x[1], span);
                l.fbin(BinOp::FAdd, p, x[2], span)
            }),
            Builtin::Clamp if float_args => self.lane_map(args, ty, span, |l, x| {
                let lo = l.fbin(BinOp::FMax, x[0], x[1], span);
                l.fbin(BinOp::FMin, lo, x[2], span)
            }),
            Builtin::Abs if float_args => {
                for a in args {
                    self.rvalue(a);
                }
                self.unsupported(span, "`abs` of a floating-point value (use `fabs`)");
                Val::Undef
            }
            Builtin::Min | Builtin::Max => {
                let op = match (b, signed) {
                    (Builtin::Min, true) => BinOp::MinS,
                    (Builtin::Min, false) => BinOp::MinU,
                    (_, true) => BinOp::MaxS,
                    _ => BinOp::MaxU,
                };
                self.lane_map(args, ty, span, |l, x| l.bin(op, x[0], x[1], span))
            }
            Builtin::Clamp => {
                let (mx, mn) = if signed {
                    (BinOp::MaxS, BinOp::MinS)
                } else {
                    (BinOp::MaxU, BinOp::MinU)
                };
                self.lane_map(args, ty, span, |l, x| {
                    let a = l.bin(mx, x[0], x[1], span);
                    l.bin(mn, a, x[2], span)
                })
            }
            Builtin::Abs => {
                let s = Self::signed_elem(&args[0].ty);
                self.lane_map(args, ty, span, |l, x| {
                    if s {
                        l.op(OpKind::Unary(UnOp::AbsS), l.k.op(x[0]).ty, span, &[x[0]])
                    } else {
                        x[0]
                    }
                })
            }
            // Bit plumbing, also for floating-point lanes: scalars test `c != 0`, vector lanes
            // the most significant bit of `c`.
            Builtin::Select => {
                let vector = ty.is_vector();
                let a = self.rvalue(&args[0]);
                let bb = self.rvalue(&args[1]);
                let cs = self.lanes_of_expr(&args[2]);
                let (pa, pb) = if vector {
                    (self.parts_vals(a, ty), self.parts_vals(bb, ty))
                } else {
                    (vec![a], vec![bb])
                };
                let mut out = Vec::new();
                for ((x, y), c) in pa.into_iter().zip(pb).zip(cs) {
                    let c = if vector {
                        self.msb(c, span)
                    } else {
                        self.as_predicate(c, span)
                    };
                    out.push(self.merge_val(c, y, x, span));
                }
                if vector {
                    self.mk_agg(out, None)
                } else {
                    out[0]
                }
            }
            // `as_T`: the same bits as another type of the same size.
            Builtin::AsType => {
                let v = self.rvalue(&args[0]);
                let bits = self.pack(v, &args[0].ty, span);
                let bits = self.fit_width(bits, self.image_ty(ty), span);
                self.unpack(bits, ty, false, span)
            }
            Builtin::Convert { sat, rounding } => {
                let (Some(from), Some(to)) = (args[0].ty.elem_kind(), ty.elem_kind()) else {
                    return self.dummy(ty, span);
                };
                if from.is_float() || to.is_float() {
                    // The hardware rounds int -> float to nearest even and float -> int toward
                    // zero, saturating (so `_sat` changes nothing).
                    let default = match rounding {
                        Rounding::Default => true,
                        Rounding::Rte => to.is_float(),
                        Rounding::Rtz => !to.is_float(),
                        _ => false,
                    };
                    if !default || (from.is_float() && to.is_float()) {
                        self.rvalue(&args[0]);
                        self.unsupported(
                            span,
                            format!("this floating-point conversion (`{from}` to `{to}` with this rounding mode)"),
                        );
                        return Val::Undef;
                    }
                    return self.lane_map(args, ty, span, |l, x| {
                        l.convert(x[0], from, to, span)
                            .unwrap_or_else(|| l.konst(0, scalar_ty(to), span))
                    });
                }
                // Rounding modes do not change integer conversions.
                self.lane_map(args, ty, span, |l, x| {
                    if sat {
                        l.convert_sat(x[0], from, to, span)
                    } else {
                        l.resize(x[0], scalar_ty(to), from.is_signed(), span)
                    }
                })
            }
            Builtin::VLoad(n) => {
                let off = self.scalar(&args[0]);
                let Val::Ptr { addr, mem } = self.rvalue(&args[1]) else {
                    self.unsupported(args[1].span, "a pointer whose target buffer is unknown");
                    return Val::Undef;
                };
                let Some(k) = ty.elem_kind() else {
                    return Val::Undef;
                };
                let first = self.vload_index(off, n, span);
                let mut lanes = Vec::new();
                for i in 0..n as u64 {
                    let a = self.vload_addr(addr, mem, first, i, span);
                    let v = self.load(a, mem, &Type::Scalar(k), span);
                    lanes.push(v);
                }
                if n == 1 {
                    lanes[0]
                } else {
                    self.mk_agg(lanes, None)
                }
            }
            Builtin::VStore(n) => {
                let data = self.rvalue(&args[0]);
                let off = self.scalar(&args[1]);
                let Val::Ptr { addr, mem } = self.rvalue(&args[2]) else {
                    self.unsupported(args[2].span, "a pointer whose target buffer is unknown");
                    return Val::Undef;
                };
                let Some(k) = args[0].ty.elem_kind() else {
                    return Val::Undef;
                };
                let lanes = if n == 1 {
                    vec![data]
                } else {
                    self.parts_vals(data, &args[0].ty)
                };
                let first = self.vload_index(off, n, span);
                for (i, v) in lanes.into_iter().enumerate() {
                    let a = self.vload_addr(addr, mem, first, i as u64, span);
                    self.store_val(a, mem, v, &Type::Scalar(k), None, span);
                }
                Val::Undef
            }
            Builtin::Math(f) | Builtin::NativeMath(f)
                if matches!(f.class(), MathClass::AnyAll) && !float_args =>
            {
                // 1 if the most significant bit of any (all) lanes is set.
                let lanes = self.lanes_of_expr(&args[0]);
                let mut acc = None;
                for x in lanes {
                    let m = self.msb(x, span);
                    acc = Some(match acc {
                        None => m,
                        Some(a) if f == MathFn::Any => self.or1(a, m, span),
                        Some(a) => self.and1(a, m, span),
                    });
                }
                let r = acc.unwrap_or_else(|| self.konst(0, Ty::BOOL, span));
                Val::Scalar(self.resize(r, self.ty_of(ty), false, span))
            }
            // (a & ~c) | (b & c), bit by bit: plumbing for floating-point lanes too.
            Builtin::Math(f) | Builtin::NativeMath(f) if f == MathFn::Bitselect => {
                self.lane_map(args, ty, span, |l, x| {
                    let t = l.k.op(x[0]).ty;
                    let it = Ty::Int(t.bits() as u16);
                    let (a, b, c) = (
                        l.fit(x[0], it, span),
                        l.fit(x[1], it, span),
                        l.fit(x[2], it, span),
                    );
                    let nc = l.bit_not(c, span);
                    let lo = l.bin(BinOp::And, a, nc, span);
                    let hi = l.bin(BinOp::And, b, c, span);
                    let r = l.bin(BinOp::Or, lo, hi, span);
                    l.fit(r, t, span)
                })
            }
            // Exact operations of the float units (native_ variants may be exact too).
            Builtin::Math(f) | Builtin::NativeMath(f)
                if float_args
                    && matches!(
                        f,
                        MathFn::Fabs | MathFn::Fmin | MathFn::Fmax | MathFn::Sqrt | MathFn::Divide
                    ) =>
            {
                self.lane_map(args, ty, span, |l, x| match f {
                    MathFn::Fabs => l.funary(UnOp::FAbs, x[0], span),
                    MathFn::Sqrt => l.funary(UnOp::FSqrt, x[0], span),
                    MathFn::Fmin => l.fbin(BinOp::FMin, x[0], x[1], span),
                    MathFn::Fmax => l.fbin(BinOp::FMax, x[0], x[1], span),
                    _ => l.fbin(BinOp::FDiv, x[0], x[1], span),
                })
            }
            Builtin::Math(f) | Builtin::NativeMath(f) if float_args || ty.is_float() => {
                for a in args {
                    self.rvalue(a);
                }
                self.unsupported(span, format!("floating-point arithmetic (`{}`)", f.name()));
                self.dummy(ty, span)
            }
            Builtin::Math(f) | Builtin::NativeMath(f) => {
                self.unsupported(span, format!("the built-in `{}`", f.name()));
                self.dummy(ty, span)
            }
            other => {
                self.unsupported(span, format!("the built-in `{other:?}`"));
                self.dummy(ty, span)
            }
        }
    }

    /// Applies `f` lane by lane to the arguments (scalar arguments of a vector built-in are
    /// used for every lane) and builds a value of type `ty`.
    fn lane_map(
        &mut self,
        args: &[Expr],
        ty: &Type,
        _span: Span,
        mut f: impl FnMut(&mut Self, &[OpId]) -> OpId,
    ) -> Val {
        let lanes: Vec<Vec<OpId>> = args.iter().map(|a| self.lanes_of_expr(a)).collect();
        let n = ty.lanes() as usize;
        let mut out = Vec::new();
        for i in 0..n {
            let x: Vec<OpId> = lanes.iter().map(|l| l[i.min(l.len() - 1)]).collect();
            out.push(f(self, &x));
        }
        if ty.is_vector() {
            self.vector(out)
        } else {
            Val::Scalar(out[0])
        }
    }

    /// `offset * n`: the element index of a `vloadn`/`vstoren`'s first lane.
    fn vload_index(&mut self, off: OpId, n: u8, span: Span) -> OpId {
        let off = self.resize(off, Ty::I32, false, span);
        let n = self.konst(n as u64, Ty::I32, span);
        self.bin(BinOp::Mul, off, n, span)
    }

    /// The address of element `first + i` of memory `mem` from `addr`.
    fn vload_addr(&mut self, addr: OpId, mem: MemId, first: OpId, i: u64, span: Span) -> OpId {
        let i = self.konst(i, Ty::I32, span);
        let idx = self.bin(BinOp::Add, first, i, span);
        let off = self.scale(idx, mem, false, span);
        self.bin(BinOp::Add, addr, off, span)
    }

    /// `x` as a value of type `to` when both have the same width (as `fit`); otherwise
    /// (`as_T` between a 3-vector and a 4-vector image, which have the same size) unchanged.
    fn fit_width(&mut self, x: OpId, to: Ty, span: Span) -> OpId {
        if self.k.op(x).ty.bits() == to.bits() {
            self.fit(x, to, span)
        } else {
            x
        }
    }
}

fn cmp_op(op: ast::BinOp, signed: bool) -> CmpOp {
    use ast::BinOp as A;
    match (op, signed) {
        (A::Eq, _) => CmpOp::Eq,
        (A::Ne, _) => CmpOp::Ne,
        (A::Lt, true) => CmpOp::LtS,
        (A::Le, true) => CmpOp::LeS,
        (A::Gt, true) => CmpOp::GtS,
        (A::Ge, true) => CmpOp::GeS,
        (A::Lt, false) => CmpOp::LtU,
        (A::Le, false) => CmpOp::LeU,
        (A::Gt, false) => CmpOp::GtU,
        (A::Ge, false) => CmpOp::GeU,
        _ => CmpOp::Eq,
    }
}
