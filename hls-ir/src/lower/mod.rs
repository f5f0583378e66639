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
//! values are bit patterns: copies, selects, loads, stores and `as_T` move them unchanged, and
//! single-precision arithmetic is built in hardware (`FAdd`/`FSub`/`FMul`/`FDiv`, `FSqrt`,
//! `FAbs`/`FNeg`, `FMin`/`FMax` and `mad` from them, comparisons, and conversions between
//! `float` and integers with the default rounding). `fma`, the transcendental functions,
//! `double` and `half` arithmetic, conversions between floating-point types and other rounding
//! modes are diagnostics.
//!
//! One concern per module: `interface` (kernel parameters), `stmt` (statements, if-conversion,
//! the `return`/`break`/`continue` flags, inlined calls), `loops` (unrolled and pipelined
//! loops), `expr`, `operators`, `assign` and `convert` (expressions), `memory` and `ordering`
//! (pointers, loads and stores, and the order between accesses), `places` (what an lvalue
//! designates; pointers to private variables), `builtins` (built-in functions
//! by family; atomic counters in `builtins::counter`), `aggregate` (vectors and structs), `pipes`,
//! `groups` (kernels with barriers), `program` (program-scope variables and ROMs), and `build` (creating ops, folding constants on the spot).

mod aggregate;
mod assign;
mod build;
mod builtins;
mod convert;
mod expr;
mod flatten;
mod groups;
mod interface;
mod loops;
mod memory;
mod operators;
mod ordering;
mod pipes;
mod places;
mod program;
mod retry;
mod stmt;

pub use builtins::counter::MAX_ATOMIC_COUNTERS;
pub use interface::DEFAULT_LOCAL_ARG_BYTES;
pub use pipes::PIPE_MAX_RESERVATIONS;

use crate::ids::{ArgId, LoopId, MemId, OpId};
use crate::kernel::Kernel;
use crate::types::Ty;
use frontend::ast::{FuncId, Program, ScalarKind, VarId};
use frontend::diag::Diagnostic;
use std::collections::BTreeMap;

/// What lowering builds beyond what the source says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerOptions {
    /// Reservation table entries per pipe side (`CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`): the
    /// `max_reservations` of every pipe of the kernel, its FIFO's `MAX_RES`.
    pub max_reservations: u32,
    /// Outer loops (by span) of perfect nests to keep nested although no pragma asks for
    /// it (`flatten`), with the II flattening gave them: the driver found that it costs II.
    pub keep_nested: Vec<(frontend::span::Span, u32)>,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            max_reservations: PIPE_MAX_RESERVATIONS,
            keep_nested: Vec::new(),
        }
    }
}

/// The value of an expression during lowering.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    Scalar(OpId),
    /// A pointer into memory `mem`: a byte address.
    Ptr {
        addr: OpId,
        mem: MemId,
    },
    /// A pointer to the object at byte offset `off` (i32) of private variable `var`, which
    /// lowering keeps as a value (`places`).
    VarPtr {
        var: VarId,
        off: OpId,
    },
    /// A pointer chosen at run time between two pointers to different objects: index into
    /// `Lower::ptr_sels` (`places`).
    PtrSel(u32),
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
    /// i1 flags of the flattened loop nests being lowered (`flatten`): per inner level,
    /// whether it has an iteration to run. Carried and merged like variables.
    flags: Vec<OpId>,
}

struct Lower<'a> {
    p: &'a Program,
    opts: LowerOptions,
    k: Kernel,
    diags: Vec<Diagnostic>,
    env: Env,
    /// i1: the current control predicate (conjunction of enclosing conditions).
    pred: OpId,
    region: LoopId,
    depth: usize,
    /// The body of the function being lowered (the kernel's, or the innermost helper's being
    /// inlined): `retry` looks for later uses of a retry loop's counter there.
    bodies: Vec<&'a [frontend::ast::Stmt]>,
    /// The return type of the helper function being inlined (`None` in the kernel, or for a
    /// `void` helper): its return value is carried through loops.
    ret_ty: Option<frontend::ast::Type>,
    /// Stores emitted so far per memory, to order later accesses after them.
    stores: BTreeMap<MemId, Vec<OpId>>,
    /// The last read (load or atomic) of each global memory, to order later stores after it.
    global_reads: BTreeMap<MemId, OpId>,
    /// Accesses before the fences so far (`builtins::fence`).
    fenced: builtins::Fenced,
    /// Enclosing loops, innermost last: `true` for a pipelined loop, `false` for one being
    /// fully unrolled (`break`/`continue` are supported in the former only).
    loops: Vec<bool>,
    /// Enclosing `switch` statements, innermost last: how many loops enclosed each (a `break`
    /// leaves the switch when no loop is nested inside it).
    switches: Vec<usize>,
    /// Accesses to each on-chip memory in program order: `(op, is_store)`.
    onchip: BTreeMap<MemId, Vec<(OpId, bool)>>,
    /// Work-group mode (kernels with barriers).
    groups: groups::Groups,
    /// Pipes and their ops.
    pipes: pipes::Pipes,
    /// Atomic counters and their updates.
    counters: builtins::counter::Counters,
    /// `local` scalar variables: their one-element on-chip memory.
    local_scalars: BTreeMap<VarId, MemId>,
    /// Program-scope variables used so far (index into `Program::globals`): their memory.
    program_mems: BTreeMap<u32, MemId>,
    /// Parts of aggregate values (`Val::Agg`); never changed once made.
    aggs: Vec<aggregate::Agg>,
    /// Pointers chosen at run time (`Val::PtrSel`): the condition (i1), then the pointer when
    /// it holds and the pointer when it does not; never changed once made.
    ptr_sels: Vec<(OpId, Val, Val)>,
}

/// Lowers one kernel with the default [`LowerOptions`]. Errors make the result `Err`; warnings
/// are dropped (see [`lower_kernel_with_warnings`]).
pub fn lower_kernel(p: &Program, func: FuncId) -> Result<Kernel, Vec<Diagnostic>> {
    lower_kernel_with_warnings(p, func, &LowerOptions::default(), &mut Vec::new())
}

/// Lowers one kernel. Errors make the result `Err`; warnings (things lowered in a simpler way
/// than the source asked for) go to `warnings`.
pub fn lower_kernel_with_warnings(
    p: &Program,
    func: FuncId,
    opts: &LowerOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Kernel, Vec<Diagnostic>> {
    let f = p.func(func);
    let mut k = Kernel::new(f.name.clone(), f.span);
    k.reqd_work_group_size = f.kernel_attrs.reqd_work_group_size;
    let mut l = Lower {
        p,
        opts: opts.clone(),
        k,
        diags: Vec::new(),
        env: Env {
            vars: BTreeMap::new(),
            returned: OpId(0),
            ret_val: None,
            brk: OpId(0),
            cont: OpId(0),
            flags: Vec::new(),
        },
        pred: OpId(0),
        region: Kernel::WORK_ITEM_LOOP,
        depth: 0,
        ret_ty: None,
        bodies: vec![&p.func(func).body.stmts],
        stores: BTreeMap::new(),
        global_reads: BTreeMap::new(),
        fenced: builtins::Fenced::default(),
        loops: Vec::new(),
        switches: Vec::new(),
        onchip: BTreeMap::new(),
        groups: groups::Groups::default(),
        pipes: pipes::Pipes::default(),
        counters: Default::default(),
        local_scalars: BTreeMap::new(),
        program_mems: BTreeMap::new(),
        aggs: Vec::new(),
        ptr_sels: Vec::new(),
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
        l.detach_copies();
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

pub(super) fn scalar_ty(k: ScalarKind) -> Ty {
    match k {
        ScalarKind::Bool => Ty::BOOL,
        ScalarKind::Half => Ty::Float(16),
        ScalarKind::Float => Ty::Float(32),
        ScalarKind::Double => Ty::Float(64),
        k => Ty::Int(k.bits() as u16),
    }
}
