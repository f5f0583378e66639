//! The checked AST: the artefact this crate hands to lowering.
//!
//! Invariants of a `Program` returned by [`crate::compile`]:
//! - every name is resolved (`Var(VarId)`, `Global(u32)`, `Call { func }`, `Builtin`);
//! - every `Expr` has its type in `ty`; `lvalue` says whether it designates an object;
//! - every implicit conversion is an explicit `Cast { kind: Implicit }` node (including integer
//!   promotions, usual arithmetic conversions, scalar-to-vector splats, argument and return
//!   conversions, array-to-pointer decay and conditions converted to `bool`);
//!   reading an lvalue as a value (load) stays implicit;
//! - initialiser lists are matched to the aggregate's shape with missing elements zeroed;
//! - there is no recursion among functions, and every called function has a body;
//! - the attributes with a meaning here are validated into typed fields ([`KernelAttrs`],
//!   [`ParamAttrs`], [`PipeAttrs`], [`LoopAttrs`]; `packed`/`aligned` into struct layouts);
//!   the `attrs` lists keep every attribute as written.
//!
//! Operator conventions the lowering relies on are documented on each `ExprKind` variant.

pub use crate::builtins::{AtomicOp, Builtin, MathClass, MathFn, MemOrder, MemScope, Rounding};
use crate::span::Span;
pub use crate::types::{Access, AddrSpace, AtomicKind, ScalarKind, StructId, StructTable, Type};
use std::fmt;

/// Index into [`Program::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub u32);

/// Index into [`Program::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FuncId(pub u32);

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl fmt::Display for FuncId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fn{}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Every function with a body, in source order; index = `FuncId`.
    pub functions: Vec<Function>,
    /// Every variable of the program, including parameters; index = `VarId`.
    pub vars: Vec<VarInfo>,
    pub structs: StructTable,
    /// Program-scope variables (`constant` arrays and the like); index = `ExprKind::Global`.
    pub globals: Vec<GlobalVar>,
    /// The memory order of every OpenCL 2.0 (C11-style) atomic call, by the span of the call
    /// (`memory_order_seq_cst` when the call does not name one; a compare-exchange's success
    /// order). The checked call has the shape of the OpenCL 1.x atomics (whose order is
    /// relaxed), so this side table is how later stages tell them apart.
    pub atomic_orders: std::collections::BTreeMap<crate::span::Span, MemOrder>,
}

impl Program {
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.is_kernel)
            .map(|(i, f)| (FuncId(i as u32), f))
    }

    pub fn var(&self, id: VarId) -> &VarInfo {
        &self.vars[id.0 as usize]
    }

    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }

    pub fn global(&self, index: u32) -> &GlobalVar {
        &self.globals[index as usize]
    }

    pub fn function_by_name(&self, name: &str) -> Option<(FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .find(|(_, f)| f.name == name)
            .map(|(i, f)| (FuncId(i as u32), f))
    }

    /// `sizeof` per OpenCL.
    pub fn size_of(&self, t: &Type) -> u32 {
        self.structs.size_of(t)
    }

    /// Type spelling with struct names.
    pub fn type_name(&self, t: &Type) -> String {
        self.structs.type_name(t)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    /// Span of the function's name in its definition.
    pub span: Span,
    pub is_kernel: bool,
    pub ret: Type,
    pub params: Vec<VarId>,
    pub body: Block,
    /// Every attribute as written (`reqd_work_group_size`, `xcl_*`, ...), for printing and
    /// for readers not yet switched to `kernel_attrs`.
    pub attrs: Vec<Attribute>,
    /// The validated kernel attributes (all `None` for helper functions).
    pub kernel_attrs: KernelAttrs,
}

impl Function {
    pub fn attr(&self, name: &str) -> Option<&Attribute> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    pub name: String,
    pub ty: Type,
    /// Where the variable itself lives: `Private` for parameters and ordinary locals, `Local`
    /// for `local` variables declared in a kernel.
    pub space: AddrSpace,
    pub span: Span,
    pub is_param: bool,
    /// Declared `const` (the variable itself, not a pointee).
    pub is_const: bool,
    pub is_volatile: bool,
    /// Access qualifier of pipe parameters.
    pub access: Option<Access>,
    /// Every attribute as written.
    pub attrs: Vec<Attribute>,
    /// The validated attributes of a parameter (default for other variables).
    pub param_attrs: ParamAttrs,
    /// The function the variable belongs to.
    pub func: Option<FuncId>,
}

/// A program-scope variable (OpenCL allows them in the `constant` address space; `global`
/// program-scope variables are an OpenCL 2.0 feature). String literals are `constant char[n]`
/// globals named `.strN` (a name no user variable can have); a program-scope pipe (Xilinx
/// `xcl_reqd_pipe_depth` dialect) is a `Type::Pipe` global with `access` `ReadWrite`.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVar {
    pub name: String,
    pub ty: Type,
    pub space: AddrSpace,
    pub span: Span,
    pub is_const: bool,
    /// Shaped like the type; `None` means zero-initialised.
    pub init: Option<Init>,
    /// Every attribute as written.
    pub attrs: Vec<Attribute>,
    /// The validated pipe attributes of a program-scope pipe: its `depth` is always set
    /// (`xcl_reqd_pipe_depth` is required there). Default for other globals.
    pub pipe_attrs: PipeAttrs,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    /// Statement attributes as written (`__attribute__((opencl_unroll_hint(N)))`,
    /// `xcl_pipeline_loop`).
    pub attrs: Vec<Attribute>,
    /// The validated loop attributes (default unless the statement is a loop).
    pub loop_attrs: LoopAttrs,
    /// `#pragma unroll [N]` / `#pragma nounroll` written just before this statement.
    pub pragmas: Vec<Pragma>,
}

impl Stmt {
    pub fn new(kind: StmtKind, span: Span) -> Stmt {
        Stmt {
            kind,
            span,
            attrs: Vec::new(),
            loop_attrs: LoopAttrs::default(),
            pragmas: Vec::new(),
        }
    }

    pub fn is_loop(&self) -> bool {
        matches!(
            self.kind,
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Block(Block),
    /// One declarator: `int a = 1, b;` becomes two `Decl`s. Variables without an initialiser
    /// have an indeterminate value (except `local` ones, which also never have one).
    Decl {
        var: VarId,
        init: Option<Init>,
    },
    Expr(Expr),
    /// `cond` has type `bool`.
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    /// `init` is a `Decl`, a `Block` of `Decl`s (several declarators) or an `Expr` statement;
    /// `cond` has type `bool` (absent = true).
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// `cond` is an integer after promotion; the cases appear in source order and fall
    /// through into the next one unless they end in `break`. At most one case is the default.
    /// `Break` inside a switch (and not inside a nested loop) leaves the switch.
    Switch {
        cond: Expr,
        cases: Vec<SwitchCase>,
    },
    /// Leaves the innermost enclosing loop or switch.
    Break,
    /// Continues the innermost enclosing loop.
    Continue,
    /// The value is already converted to the function's return type. (`return f();` with a
    /// void `f` becomes a `Block` of the call and a plain `Return(None)`.)
    Return(Option<Expr>),
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// Case values, already converted to the type of the switch condition (bit patterns as in
    /// `IntLit`). Several labels in a row (`case 1: case 2:`) share one `SwitchCase`.
    pub values: Vec<u64>,
    pub is_default: bool,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// Already converted to the type of the object it initialises (for an object of an atomic
    /// type, to its value type `AtomicKind::value_kind`: the initialisation is not atomic).
    Expr(Expr),
    /// One entry per array element or struct field (a union: one entry, the first member),
    /// missing elements filled with zero initialisers (`Init::Expr` of a zero literal or nested
    /// lists of them).
    List(Vec<Init>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
    /// The expression designates an object (can be assigned / have its address taken).
    pub lvalue: bool,
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr {
            kind,
            ty,
            span,
            lvalue: false,
        }
    }

    /// Integer constant of a scalar type; the value is truncated to the type.
    pub fn int(v: u64, k: ScalarKind, span: Span) -> Expr {
        Expr::new(ExprKind::IntLit(k.truncate(v)), Type::Scalar(k), span)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Logical not: scalar operand converted to `bool`, result `int` 0/1; on a vector operand
    /// the result is the signed integer vector of the same element size with -1/0 lanes.
    Not,
    /// Bitwise complement (integer types).
    BitNot,
    /// Unary plus (operand already promoted).
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// OpenCL semantics: the shift amount is taken modulo the bit width of the (element) type
    /// of the left operand. Both operands have the result type.
    Shl,
    /// Arithmetic for signed, logical for unsigned left operands; amount as in `Shl`.
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// Short-circuit. Scalars: both operands converted to `bool`, result `int` 0/1.
    /// Vectors (no short circuit): operands of the same integer vector type, result -1/0 lanes.
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::LogAnd | BinOp::LogOr)
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
            UnOp::BitNot => "~",
            UnOp::Plus => "+",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    /// Inserted by the checker. From `Array(T, n)` to `Pointer(T)` it is array-to-pointer decay
    /// (the address of element 0); from a scalar to a vector it is a splat.
    Implicit,
    /// Written in the source: `(T)x` or `convert_T(x)` (default rounding).
    Explicit,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer constant of the scalar type `ty`; the bit pattern truncated to the width of
    /// `ty` (upper bits zero; use `ScalarKind::as_i64` for the signed value).
    IntLit(u64),
    /// A floating constant of type `ty` (for `float`, already rounded to single precision).
    FloatLit(f64),
    Var(VarId),
    /// A program-scope variable, index into `Program::globals`.
    Global(u32),
    Unary {
        op: UnOp,
        expr: Box<Expr>,
    },
    /// Arithmetic and bitwise operators: both operands have the result type (scalar or vector).
    /// Comparisons: both operands have the common type; result `int` for scalars, the signed
    /// integer vector of the same element size (-1 true / 0 false lanes) for vectors.
    /// Pointer arithmetic: `Add`/`Sub` of a pointer (always `lhs`) and an integer converted to
    /// `int`, in units of the pointee; `Sub` of two pointers gives `int` (ptrdiff_t) elements;
    /// comparisons of pointers compare addresses.
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `lhs = rhs` (`op` = None, rhs converted to lhs's type), or `lhs op= rhs`: the lowering
    /// converts the value of `lhs` to `op_ty`, computes `lhs op rhs` in `op_ty` (rhs already
    /// has type `op_ty`, or `int` for pointer `+=`/`-=`), then converts back to `lhs.ty`.
    /// The value of the expression is the new value of lhs, of type `lhs.ty`.
    Assign {
        op: Option<BinOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        op_ty: Type,
    },
    /// `++`/`--` on an arithmetic scalar or vector (add/subtract 1 in its own type, per lane)
    /// or a pointer (one element). The value is the old (postfix) or new (prefix) value.
    IncDec {
        inc: bool,
        prefix: bool,
        expr: Box<Expr>,
    },
    /// Scalar `cond` (type `bool`): ordinary C conditional, only one arm evaluated (both arms
    /// may be `void`, then the expression is `void`).
    /// Vector `cond` (signed integer vector): lane-wise select on the MSB, both arms evaluated;
    /// `then`/`els` have the result type.
    Cond {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    /// Converts `expr` to `self.ty`: arithmetic conversions (float<->int truncate toward zero,
    /// int->int wraps, anything->bool is `!= 0`), scalar->vector splat (the operand then always
    /// has the vector's element type: `int` -> `float4` is `int` -> `float` -> `float4`),
    /// vector->vector lane-wise (only from `convert_T`), pointer<->pointer (including a named
    /// address space to `generic`) and pointer<->integer, array decay, integer 0 -> `event_t`,
    /// integer 0 -> `reserve_id_t` (`CLK_NULL_RESERVE_ID`, the invalid reservation).
    /// Implicit casts of literals are folded into the literal.
    Cast {
        kind: CastKind,
        expr: Box<Expr>,
    },
    /// `base[index]`: `base` is a pointer or an array; `index` is an `int` or `uint`.
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `*p` (the operand is a pointer).
    Deref(Box<Expr>),
    /// `&lvalue`; the type is a pointer into the object's address space.
    AddrOf(Box<Expr>),
    /// `base.field` on a struct/union value or lvalue; `p->f` is `Member { base: Deref(p) }`.
    Member {
        base: Box<Expr>,
        field: u32,
    },
    /// `v.xy`, `v.s012`, `v.lo`, `v[2]` with a constant index: lanes of `base`. A single lane
    /// gives a scalar. An lvalue when `base` is one and no lane repeats.
    Swizzle {
        base: Box<Expr>,
        lanes: Vec<u8>,
    },
    /// `(float4)(a, b, c, d)`: exactly `lanes` scalars of the element type (vector components
    /// in the source are split into their lanes).
    VecLit(Vec<Expr>),
    /// A C99 compound literal `(struct S){...}` of a struct or union type: the value an object
    /// of type `ty` initialised with this (shaped, `Init::List`) initialiser has, padding
    /// bytes zero. Compound literals of scalar and vector types are their initialiser's
    /// expression instead (`(int2){5, 5}` is a `VecLit`); array types are refused. Not an
    /// lvalue (C99 makes it one: its address cannot be taken here).
    CompoundLit(Box<Init>),
    /// Call of a user function; args converted to the parameter types.
    Call {
        func: FuncId,
        args: Vec<Expr>,
    },
    Builtin {
        builtin: Builtin,
        args: Vec<Expr>,
    },
    /// `a, b`: evaluates `a`, then `b`; the type is `b`'s.
    Comma(Box<Expr>, Box<Expr>),
    /// `sizeof` / `vec_step`, folded; type `size_t` (`uint`) for sizeof, `int` for vec_step.
    SizeOf(u64),
}

/// The attributes of a kernel, validated by the checker: sizes are positive and fit in 32 bits,
/// an attribute given twice has the same value both times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelAttrs {
    /// `reqd_work_group_size(X, Y, Z)`: every launch uses work-groups of exactly this size.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `work_group_size_hint(X, Y, Z)`: the work-group size launches will most likely use.
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `vec_type_hint(T)`: the scalar or vector type the kernel's computation is written for.
    pub vec_type_hint: Option<Type>,
    /// The most work-items a work-group may have: Intel `max_work_group_size(N)` or
    /// `max_work_group_size(X, Y, Z)` (X * Y * Z), Xilinx `xcl_max_work_group_size(...)`.
    pub max_work_group_size: Option<u64>,
    /// Intel `max_global_work_dim(N)`, N in 0..=3 (0: a single work-item kernel).
    pub max_global_work_dim: Option<u32>,
}

/// The attributes of a parameter, validated by the checker.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamAttrs {
    /// Intel `local_mem_size(N)` on a `local` pointer parameter of a kernel: the bytes the
    /// hardware provides for it (positive).
    pub local_mem_size: Option<u32>,
    /// Attributes of a pipe parameter.
    pub pipe: PipeAttrs,
}

/// The attributes of a pipe (a parameter or a program-scope pipe), validated by the checker.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PipeAttrs {
    /// The depth in packets the source asks for: Xilinx `xcl_reqd_pipe_depth(N)` or Intel
    /// `depth(N)`; a positive integer constant. Which depth the pipe gets (minimums, defaults)
    /// is decided by later stages.
    pub depth: Option<u32>,
    /// Intel `blocking` on a pipe parameter: reads and writes wait instead of failing.
    pub blocking: bool,
}

/// The attributes of a loop statement, validated by the checker (`#pragma unroll` stays in
/// [`Stmt::pragmas`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoopAttrs {
    /// `opencl_unroll_hint` / `opencl_unroll_hint(N)`.
    pub unroll_hint: Option<Unroll>,
    /// Xilinx `xcl_pipeline_loop(II)`: pipeline the loop at this initiation interval (1
    /// without an argument).
    pub pipeline_ii: Option<u32>,
    /// Xilinx `xcl_loop_tripcount(min, max[, avg])`: expected iteration counts.
    pub tripcount: Option<TripCount>,
}

/// How far a loop should be unrolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unroll {
    /// Completely (no count given).
    Full,
    /// This many copies of the body per iteration (positive; 1 = no unrolling).
    Count(u32),
}

/// Xilinx `xcl_loop_tripcount(min, max[, avg])`, with `min <= max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TripCount {
    pub min: u32,
    pub max: u32,
    pub avg: Option<u32>,
}

/// An attribute as written, its arguments converted (what the checker could not convert is
/// reported and left out).
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// Name without surrounding underscores (`__packed__` -> `packed`).
    pub name: String,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

impl Attribute {
    /// The integer arguments, if all arguments are integers.
    pub fn int_args(&self) -> Option<Vec<u64>> {
        self.args
            .iter()
            .map(|a| match a {
                AttrArg::Int(v) => Some(*v),
                _ => None,
            })
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    /// An integer constant expression, folded.
    Int(u64),
    /// A bare identifier (`endian(host)`).
    Ident(String),
    /// A type (`vec_type_hint(float4)`).
    Type(Type),
    /// A string literal.
    Str(String),
}

/// The pragmas that apply to the loop after them: `unroll [N]`, `nounroll`, and the loop
/// nest and pipelining pragmas (`loop_coalesce [N]`, `loop_flatten [off]` as arg `Some(0)`,
/// `ii N`, `speculated_iterations N`; `#pragma HLS pipeline II=N` arrives as `ii`).
pub const LOOP_PRAGMAS: &[&str] = &[
    "unroll",
    "nounroll",
    "loop_coalesce",
    "loop_flatten",
    "ii",
    "speculated_iterations",
];

#[derive(Clone, Debug, PartialEq)]
pub struct Pragma {
    /// One of [`LOOP_PRAGMAS`], or another name for pragmas that are kept but not interpreted.
    pub name: String,
    /// `#pragma unroll 4` -> `Some(4)`; `#pragma unroll` -> `None` (fully unroll).
    pub arg: Option<u64>,
    pub span: Span,
}
