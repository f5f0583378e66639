//! The generator's own AST of a random kernel, and its printer to OpenCL C.
//!
//! Every expression node has an exact OpenCL C type ([`Ty`]) and prints wrapped in a cast to
//! it, so C's integer promotions never change the type the generator meant. The printer is
//! where undefined behaviour is excluded by construction: signed `+ - *` and left shifts are
//! computed on the unsigned type of the same width and converted back, shift amounts are
//! masked, divisions are guarded against zero and `MIN / -1`, array indices are masked to the
//! array's (power-of-two) length, a `float` becomes an integer only through `convert_T_sat`
//! (a C cast of an out-of-range float is undefined), and `float` literals are written as
//! their bit patterns (`as_float(0x3f800000U)`), so every value is exact. The reducer
//! (`reduce`) edits this AST, never text.

use std::fmt::Write;

/// An element type: the integers, and `float`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Float,
}

/// The integer element types.
pub const SCALARS: [Scalar; 8] = [
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
];

impl Scalar {
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Float => "float",
        }
    }
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Char | Scalar::UChar => 8,
            Scalar::Short | Scalar::UShort => 16,
            Scalar::Int | Scalar::UInt | Scalar::Float => 32,
            Scalar::Long | Scalar::ULong => 64,
        }
    }
    pub fn signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }
    pub fn is_float(self) -> bool {
        self == Scalar::Float
    }
    /// The unsigned type of the same width (`uint` for `float`: its bit pattern).
    pub fn unsigned(self) -> Scalar {
        match self {
            Scalar::Char | Scalar::UChar => Scalar::UChar,
            Scalar::Short | Scalar::UShort => Scalar::UShort,
            Scalar::Int | Scalar::UInt | Scalar::Float => Scalar::UInt,
            Scalar::Long | Scalar::ULong => Scalar::ULong,
        }
    }
    /// The unsigned type a scalar operation is computed in (no promotion to signed `int`).
    pub fn wide_unsigned(self) -> Scalar {
        if self.bits() == 64 {
            Scalar::ULong
        } else {
            Scalar::UInt
        }
    }
    pub fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
    /// The value's bit pattern `bits` as a C literal of this type.
    pub fn literal(self, bits: u64) -> String {
        let b = bits & self.mask();
        match self {
            Scalar::Long | Scalar::ULong => format!("(({})0x{b:x}UL)", self.name()),
            Scalar::Float => format!("as_float(0x{b:x}U)"),
            _ => format!("(({})0x{b:x}U)", self.name()),
        }
    }
    /// One lane's bit pattern as a header value (signed types in decimal with sign; a `float`
    /// as its bit pattern, in a buffer the header declares as `uint`: see [`Ty::header_name`]).
    pub fn value_text(self, bits: u64) -> String {
        let b = bits & self.mask();
        if self.signed() {
            let sh = 64 - self.bits();
            (((b << sh) as i64) >> sh).to_string()
        } else {
            b.to_string()
        }
    }
}

/// A scalar (`lanes == 1`) or vector type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ty {
    pub s: Scalar,
    pub lanes: u8,
}

impl Ty {
    pub fn scalar(s: Scalar) -> Ty {
        Ty { s, lanes: 1 }
    }
    pub fn is_vec(self) -> bool {
        self.lanes > 1
    }
    pub fn name(self) -> String {
        if self.lanes == 1 {
            self.s.name().to_string()
        } else {
            format!("{}{}", self.s.name(), self.lanes)
        }
    }
    /// The type of the buffer in the test header: `float` lanes as `uint` bit patterns, so
    /// the comparison is exact (NaNs, signed zeros and denormals included).
    pub fn header_name(self) -> String {
        if self.s.is_float() {
            self.with(Scalar::UInt).name()
        } else {
            self.name()
        }
    }
    pub fn bytes(self) -> usize {
        self.s.bits() as usize / 8 * self.lanes as usize
    }
    pub fn with(self, s: Scalar) -> Ty {
        Ty {
            s,
            lanes: self.lanes,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// Built-ins defined for every input (no `clamp`, whose bounds could cross).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Min,
    Max,
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    MulHi,
    Rotate,
    Popcount,
    Clz,
    AbsDiff,
    Abs,
    /// `float` only:
    Fmin,
    Fmax,
    Fabs,
    Sqrt,
    /// `sign(x)` and `step(edge, x)`: exact, so the emulator and the hardware agree bit for
    /// bit.
    Sign,
    Step,
}

impl Func {
    pub fn name(self) -> &'static str {
        match self {
            Func::Min => "min",
            Func::Max => "max",
            Func::AddSat => "add_sat",
            Func::SubSat => "sub_sat",
            Func::Hadd => "hadd",
            Func::Rhadd => "rhadd",
            Func::MulHi => "mul_hi",
            Func::Rotate => "rotate",
            Func::Popcount => "popcount",
            Func::Clz => "clz",
            Func::AbsDiff => "abs_diff",
            Func::Abs => "abs",
            Func::Fmin => "fmin",
            Func::Fmax => "fmax",
            Func::Fabs => "fabs",
            Func::Sqrt => "sqrt",
            Func::Sign => "sign",
            Func::Step => "step",
        }
    }
    pub fn unary(self) -> bool {
        matches!(
            self,
            Func::Popcount | Func::Clz | Func::Abs | Func::Fabs | Func::Sqrt | Func::Sign
        )
    }
}

/// An expression of type `ty()`.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Var(String, Ty),
    /// One bit pattern per lane.
    Lit(Ty, Vec<u64>),
    Bin(Bin, Box<Expr>, Box<Expr>, Ty),
    /// `<<` (`left`) or `>>`; `masked`: the amount is masked to the lane width (otherwise
    /// only for 32/64-bit unsigned scalars, where OpenCL takes it modulo the width).
    Shift {
        left: bool,
        masked: bool,
        a: Box<Expr>,
        b: Box<Expr>,
        ty: Ty,
    },
    /// Scalar `/` (`rem == false`) or `%` of two leaves (printed twice by the guard).
    Div {
        rem: bool,
        a: Box<Expr>,
        b: Box<Expr>,
        ty: Ty,
    },
    /// Scalar comparison, an `int` 0 or 1.
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    /// `c ? a : b` with a scalar condition.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>, Ty),
    /// Conversion: a C cast between scalars, `convert_T[_sat]` between vectors.
    Conv {
        e: Box<Expr>,
        to: Ty,
        sat: bool,
    },
    /// `as_T`: reinterpretation between types of the same size.
    AsType(Box<Expr>, Ty),
    Call(Func, Vec<Expr>, Ty),
    /// Lane `i` of a vector.
    Lane(Box<Expr>, u8),
    /// `(T4)(a, b, c, d)` from scalars of the element type.
    Build(Vec<Expr>, Ty),
    /// `arr[(uint)idx & (len-1)]` of a private or local array (`len` a power of two).
    Index {
        arr: String,
        len: u32,
        idx: Box<Expr>,
        ty: Ty,
    },
}

impl Expr {
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Var(_, t) | Expr::Lit(t, _) | Expr::Bin(_, _, _, t) => *t,
            Expr::Shift { ty, .. } | Expr::Div { ty, .. } | Expr::Index { ty, .. } => *ty,
            Expr::Cmp(..) => Ty::scalar(Scalar::Int),
            Expr::Cond(_, _, _, t) | Expr::Call(_, _, t) | Expr::Build(_, t) => *t,
            Expr::Conv { to, .. } => *to,
            Expr::AsType(_, t) => *t,
            Expr::Lane(e, _) => Ty::scalar(e.ty().s),
        }
    }

    /// The direct subexpressions.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Var(..) | Expr::Lit(..) => vec![],
            Expr::Bin(_, a, b, _) | Expr::Cmp(_, a, b) => vec![a, b],
            Expr::Shift { a, b, .. } | Expr::Div { a, b, .. } => vec![a, b],
            Expr::Cond(c, a, b, _) => vec![c, a, b],
            Expr::Conv { e, .. } | Expr::AsType(e, _) | Expr::Lane(e, _) => vec![e],
            Expr::Index { idx, .. } => vec![idx],
            Expr::Call(_, v, _) | Expr::Build(v, _) => v.iter_mut().collect(),
        }
    }

    pub fn print(&self, o: &mut String) {
        match self {
            Expr::Var(n, _) => o.push_str(n),
            Expr::Lit(t, lanes) if t.s.is_float() && t.is_vec() => {
                let u = t.with(Scalar::UInt);
                let _ = write!(o, "as_{}(", t.name());
                Expr::Lit(u, lanes.clone()).print(o);
                o.push(')');
            }
            Expr::Lit(t, lanes) => {
                if t.is_vec() {
                    let _ = write!(o, "(({})(", t.name());
                    for (i, l) in lanes.iter().enumerate() {
                        if i > 0 {
                            o.push_str(", ");
                        }
                        o.push_str(&t.s.literal(*l));
                    }
                    o.push_str("))");
                } else {
                    o.push_str(&t.s.literal(lanes[0]));
                }
            }
            Expr::Bin(op, a, b, t) => print_bin(o, *op, a, b, *t),
            Expr::Shift {
                left,
                masked,
                a,
                b,
                ty,
            } => print_shift(o, *left, *masked, a, b, *ty),
            Expr::Div { rem, a, b, ty } => print_div(o, *rem, a, b, *ty),
            Expr::Cmp(op, a, b) => {
                let s = match op {
                    Cmp::Lt => "<",
                    Cmp::Le => "<=",
                    Cmp::Gt => ">",
                    Cmp::Ge => ">=",
                    Cmp::Eq => "==",
                    Cmp::Ne => "!=",
                };
                o.push_str("((int)(");
                a.print(o);
                let _ = write!(o, " {s} ");
                b.print(o);
                o.push_str("))");
            }
            Expr::Cond(c, a, b, t) => {
                let _ = write!(o, "(({})(", t.name());
                c.print(o);
                o.push_str(" ? ");
                a.print(o);
                o.push_str(" : ");
                b.print(o);
                o.push_str("))");
            }
            // (A conversion to its own type is the value: `float` -> `float` has no cast.)
            Expr::Conv { e, to, .. } if e.ty() == *to => e.print(o),
            Expr::Conv { e, to, .. } if e.ty().s.is_float() && !to.s.is_float() => {
                // A C cast of an out-of-range float is undefined: the saturating conversion.
                let _ = write!(o, "convert_{}_sat(", to.name());
                e.print(o);
                o.push(')');
            }
            Expr::Conv { e, to, sat } => {
                if to.is_vec() {
                    let s = if *sat { "_sat" } else { "" };
                    let _ = write!(o, "convert_{}{s}(", to.name());
                } else {
                    let _ = write!(o, "(({})(", to.name());
                }
                e.print(o);
                o.push_str(if to.is_vec() { ")" } else { "))" });
            }
            Expr::AsType(e, t) => {
                let _ = write!(o, "as_{}(", t.name());
                e.print(o);
                o.push(')');
            }
            Expr::Call(f, args, t) => {
                let _ = write!(o, "(({})({}(", t.name(), f.name());
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    a.print(o);
                }
                o.push_str(")))");
            }
            Expr::Lane(e, i) => {
                o.push('(');
                e.print(o);
                let _ = write!(o, ").s{i}");
            }
            Expr::Build(v, t) => {
                let _ = write!(o, "(({})(", t.name());
                for (i, a) in v.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    a.print(o);
                }
                o.push_str("))");
            }
            Expr::Index { arr, len, idx, .. } => {
                let _ = write!(o, "{arr}[((uint)(");
                idx.print(o);
                let _ = write!(o, ")) & {}U]", len - 1);
            }
        }
    }
}

fn print_bin(o: &mut String, op: Bin, a: &Expr, b: &Expr, t: Ty) {
    let sym = match op {
        Bin::Add => "+",
        Bin::Sub => "-",
        Bin::Mul => "*",
        Bin::And => "&",
        Bin::Or => "|",
        Bin::Xor => "^",
    };
    let wraps = matches!(op, Bin::Add | Bin::Sub | Bin::Mul) && !t.s.is_float();
    if !wraps {
        let _ = write!(o, "(({})(", t.name());
        a.print(o);
        let _ = write!(o, " {sym} ");
        b.print(o);
        o.push_str("))");
    } else if t.is_vec() {
        // Vector lanes are not promoted: compute on the unsigned lanes of the same width.
        let u = t.with(t.s.unsigned()).name();
        let _ = write!(o, "as_{}(as_{u}(", t.name());
        a.print(o);
        let _ = write!(o, ") {sym} as_{u}(");
        b.print(o);
        o.push_str("))");
    } else {
        let w = t.s.wide_unsigned().name();
        let _ = write!(o, "(({})(({w})(", t.name());
        a.print(o);
        let _ = write!(o, ") {sym} ({w})(");
        b.print(o);
        o.push_str(")))");
    }
}

fn print_shift(o: &mut String, left: bool, masked: bool, a: &Expr, b: &Expr, t: Ty) {
    let sym = if left { "<<" } else { ">>" };
    let mask = t.s.bits() - 1;
    let amount = |o: &mut String| {
        if t.is_vec() {
            let u = t.with(t.s.unsigned());
            let _ = write!(o, "(as_{}(", u.name());
            b.print(o);
            let _ = write!(o, ") & ({})({mask}))", u.name());
        } else if masked {
            o.push_str("(((uint)(");
            b.print(o);
            let _ = write!(o, ")) & {mask}U)");
        } else {
            o.push_str("((uint)(");
            b.print(o);
            o.push_str("))");
        }
    };
    if t.is_vec() {
        // Left shifts of signed lanes go through the unsigned lanes (no negative shifts).
        let u = t.with(t.s.unsigned()).name();
        if left {
            let _ = write!(o, "as_{}(as_{u}(", t.name());
            a.print(o);
            let _ = write!(o, ") {sym} ");
            amount(o);
            o.push(')');
        } else {
            let _ = write!(o, "(({})(", t.name());
            a.print(o);
            let _ = write!(o, " {sym} as_{}(", t.name());
            amount(o);
            o.push_str(")))");
        }
    } else if left {
        let w = t.s.wide_unsigned().name();
        let _ = write!(o, "(({})(({w})(", t.name());
        a.print(o);
        let _ = write!(o, ") {sym} ");
        amount(o);
        o.push_str("))");
    } else {
        let _ = write!(o, "(({})((", t.name());
        a.print(o);
        let _ = write!(o, ") {sym} ");
        amount(o);
        o.push_str("))");
    }
}

fn print_div(o: &mut String, rem: bool, a: &Expr, b: &Expr, t: Ty) {
    let sym = if rem { "%" } else { "/" };
    let (mut sa, mut sb) = (String::new(), String::new());
    a.print(&mut sa);
    b.print(&mut sb);
    let n = t.name();
    if t.s.is_float() {
        // IEEE division: no guard (x / 0 is an infinity or a NaN).
        let _ = write!(o, "(({n})({sa} / {sb}))");
    } else if t.s.signed() {
        let min = t.s.literal(1u64 << (t.s.bits() - 1));
        let _ = write!(
            o,
            "(({n})(({sb} == ({n})0 || ({sb} == ({n})-1 && {sa} == {min})) ? {sa} : {sa} {sym} {sb}))"
        );
    } else {
        let _ = write!(o, "(({n})({sb} == ({n})0 ? {sa} : {sa} {sym} {sb}))");
    }
}

/// Atomic functions whose final memory value does not depend on the order of the work-items
/// (their returned old values are never used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Inc,
    Dec,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl AtomicOp {
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "atomic_add",
            AtomicOp::Sub => "atomic_sub",
            AtomicOp::Inc => "atomic_inc",
            AtomicOp::Dec => "atomic_dec",
            AtomicOp::Min => "atomic_min",
            AtomicOp::Max => "atomic_max",
            AtomicOp::And => "atomic_and",
            AtomicOp::Or => "atomic_or",
            AtomicOp::Xor => "atomic_xor",
        }
    }
    pub fn has_operand(self) -> bool {
        !matches!(self, AtomicOp::Inc | AtomicOp::Dec)
    }
}

/// The pragma before a generated loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LoopHint {
    None,
    /// `#pragma unroll` (constant bounds only; no `break` inside).
    Unroll,
    /// `#pragma loop_coalesce`: flatten the nest it starts even where that costs II.
    Coalesce,
    /// `#pragma loop_flatten off`: keep the loop inside apart.
    FlattenOff,
    /// `#pragma ii N`.
    Ii(u8),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Decl(String, Expr),
    Assign(String, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `for (uint v = 0; v < bound; v += step)`; `bound` is a `uint` expression; with a loop
    /// pragma before it. A step above 1 gives counters `exit-ahead` reads ahead by more
    /// than one.
    For(String, Expr, Vec<Stmt>, LoopHint, u32),
    /// `break;` (inside a loop without `#pragma unroll`).
    Break,
    /// `T name[len] = {..}`, a private array of scalars.
    ArrDecl(String, Ty, Vec<Expr>),
    /// `arr[(uint)idx & (len-1)] = e`.
    ArrStore {
        arr: String,
        len: u32,
        idx: Expr,
        e: Expr,
    },
    /// An atomic on `buf[(uint)idx & (len-1)]` (a global or local `uint` array).
    Atomic {
        op: AtomicOp,
        buf: String,
        len: u32,
        idx: Expr,
        val: Expr,
    },
    /// `atomic_inc(ctr)` / `atomic_dec(ctr)` on the counter argument.
    Counter(bool),
}

impl Stmt {
    pub fn print(&self, o: &mut String, ind: usize) {
        let pad = "  ".repeat(ind);
        o.push_str(&pad);
        match self {
            Stmt::Decl(n, e) => {
                let _ = write!(o, "{} {n} = ", e.ty().name());
                e.print(o);
                o.push_str(";\n");
            }
            Stmt::Assign(n, e) => {
                let _ = write!(o, "{n} = ");
                e.print(o);
                o.push_str(";\n");
            }
            Stmt::If(c, t, e) => {
                o.push_str("if (");
                c.print(o);
                o.push_str(") {\n");
                print_block(o, t, ind + 1);
                if !e.is_empty() {
                    let _ = writeln!(o, "{pad}}} else {{");
                    print_block(o, e, ind + 1);
                }
                let _ = writeln!(o, "{pad}}}");
            }
            Stmt::For(v, bound, body, hint, step) => {
                match hint {
                    LoopHint::None => {}
                    LoopHint::Unroll => {
                        let _ = write!(o, "#pragma unroll\n{pad}");
                    }
                    LoopHint::Coalesce => {
                        let _ = write!(o, "#pragma loop_coalesce\n{pad}");
                    }
                    LoopHint::FlattenOff => {
                        let _ = write!(o, "#pragma loop_flatten off\n{pad}");
                    }
                    LoopHint::Ii(n) => {
                        let _ = write!(o, "#pragma ii {n}\n{pad}");
                    }
                }
                let _ = write!(o, "for (uint {v} = 0; {v} < ");
                bound.print(o);
                if *step == 1 {
                    let _ = writeln!(o, "; {v}++) {{");
                } else {
                    let _ = writeln!(o, "; {v} += {step}U) {{");
                }
                print_block(o, body, ind + 1);
                let _ = writeln!(o, "{pad}}}");
            }
            Stmt::ArrDecl(n, t, init) => {
                let _ = write!(o, "{} {n}[{}] = {{", t.name(), init.len());
                for (i, e) in init.iter().enumerate() {
                    if i > 0 {
                        o.push_str(", ");
                    }
                    e.print(o);
                }
                o.push_str("};\n");
            }
            Stmt::ArrStore { arr, len, idx, e } => {
                let _ = write!(o, "{arr}[((uint)(");
                idx.print(o);
                let _ = write!(o, ")) & {}U] = ", len - 1);
                e.print(o);
                o.push_str(";\n");
            }
            Stmt::Atomic {
                op,
                buf,
                len,
                idx,
                val,
            } => {
                let _ = write!(o, "{}(&{buf}[((uint)(", op.name());
                idx.print(o);
                let _ = write!(o, ")) & {}U]", len - 1);
                if op.has_operand() {
                    o.push_str(", (uint)(");
                    val.print(o);
                    o.push(')');
                }
                o.push_str(");\n");
            }
            Stmt::Break => o.push_str("break;\n"),
            Stmt::Counter(inc) => {
                let f = if *inc { "atomic_inc" } else { "atomic_dec" };
                let _ = writeln!(o, "{f}(ctr);");
            }
        }
    }

    /// The expressions directly in this statement (not in nested blocks).
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Stmt::Decl(_, e)
            | Stmt::Assign(_, e)
            | Stmt::If(e, _, _)
            | Stmt::For(_, e, _, _, _) => {
                vec![e]
            }
            Stmt::ArrDecl(_, _, v) => v.iter_mut().collect(),
            Stmt::ArrStore { idx, e, .. } => vec![idx, e],
            Stmt::Atomic { idx, val, .. } => vec![idx, val],
            Stmt::Counter(_) | Stmt::Break => vec![],
        }
    }

    /// The nested blocks.
    pub fn blocks_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match self {
            Stmt::If(_, t, e) => vec![t, e],
            Stmt::For(_, _, b, _, _) => vec![b],
            _ => vec![],
        }
    }
}

pub fn print_block(o: &mut String, b: &[Stmt], ind: usize) {
    for s in b {
        s.print(o, ind);
    }
}

/// The work-group part of a kernel: a local exchange through `lx` across a barrier, and
/// optionally a local `uint` array `lh` of atomics read back after a second barrier.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Work-group size (a power of two); also the length of the local arrays.
    pub size: u32,
    /// The exchanged value (`lx[lid] = x` before the barrier, `T xchg = lx[(lid+off) & ..]`).
    pub x: Expr,
    pub off: u32,
    /// Local atomics into `lh`, read back into the output `lhout`.
    pub hist: bool,
    /// An async copy of the group's elements of `in0` into `lc`, waited on, and
    /// `cin = lc[(lid + off) & (size - 1)]`: the offset.
    pub copy: Option<u32>,
}

/// How a kernel writes or reads its pipe's packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipeForm {
    /// `write_pipe_block` / `read_pipe_block`.
    Block,
    /// The portable retry loop: `while (write_pipe(p, &v) != 0);`.
    Retry,
    /// A reservation of one packet retried until valid, then the access and the commit.
    Reserve,
}

/// A pipe from `fuzz` to a second kernel, `sink`: each work-item of `fuzz` writes its `out0`
/// value as a packet (`pout`), each work-item of `sink` reads one into `dst[gid]`. The order
/// of the packets is not defined, so the test compares `dst` as a multiset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipeOut {
    pub write: PipeForm,
    pub read: PipeForm,
    /// The pipe's `max_packets` (small: the writer often waits for the reader).
    pub capacity: u32,
}

/// The name of the kernel reading the pipe of a [`PipeOut`] case.
pub const SINK_NAME: &str = "sink";

/// A generated kernel: parameters `in0.. (global const)`, `out0.. (global)`, then `acc`
/// (`global uint *`, atomics), `ctr` (`counter32_t`), `pout` (a pipe), `n` (`uint`, small)
/// as present.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub inputs: Vec<Ty>,
    pub outputs: Vec<(Ty, Expr)>,
    /// Length of `acc` (a power of two), if the kernel has global atomics.
    pub acc: Option<u32>,
    pub counter: bool,
    pub group: Option<Group>,
    /// A pipe to the kernel `sink` (only without a work-group part).
    pub pipe: Option<PipeOut>,
    /// The statements after the loads (and the exchange, for work-group kernels).
    pub body: Vec<Stmt>,
}

pub const KERNEL_NAME: &str = "fuzz";

impl Kernel {
    /// Parameters in order: (C declaration, kind).
    pub fn params(&self) -> Vec<(String, Param)> {
        let mut p = Vec::new();
        for (i, t) in self.inputs.iter().enumerate() {
            p.push((format!("global const {} *in{i}", t.name()), Param::In(*t)));
        }
        for (i, (t, _)) in self.outputs.iter().enumerate() {
            p.push((format!("global {} *out{i}", t.name()), Param::Out(*t)));
        }
        if self.group.as_ref().is_some_and(|g| g.hist) {
            p.push((
                "global uint *lhout".into(),
                Param::Out(Ty::scalar(Scalar::UInt)),
            ));
        }
        if let Some(n) = self.acc {
            p.push(("global uint *acc".into(), Param::Acc(n)));
        }
        if self.counter {
            p.push(("counter32_t ctr".into(), Param::Counter));
        }
        if let Some(t) = self.pipe_ty() {
            p.push((format!("write_only pipe {} pout", t.name()), Param::Pipe(t)));
        }
        p.push(("uint n".into(), Param::N));
        p
    }

    /// The packet type of the pipe: `out0`'s type.
    pub fn pipe_ty(&self) -> Option<Ty> {
        self.pipe
            .and_then(|_| self.outputs.first())
            .map(|(t, _)| *t)
    }

    pub fn source(&self) -> String {
        let mut o = String::new();
        let params: Vec<String> = self.params().into_iter().map(|(d, _)| d).collect();
        let _ = writeln!(o, "kernel void {KERNEL_NAME}({}) {{", params.join(", "));
        o.push_str("  size_t gid = get_global_id(0);\n");
        for (i, t) in self.inputs.iter().enumerate() {
            let _ = writeln!(o, "  {} a{i} = in{i}[gid];", t.name());
        }
        if let Some(g) = &self.group {
            let t = g.x.ty().name();
            let _ = writeln!(o, "  uint lid = (uint)get_local_id(0);");
            let _ = writeln!(o, "  local {t} lx[{}];", g.size);
            if g.hist {
                let _ = writeln!(o, "  local uint lh[{}];", g.size);
                o.push_str("  lh[lid] = 0U;\n");
            }
            o.push_str("  lx[lid] = ");
            g.x.print(&mut o);
            o.push_str(";\n  barrier(CLK_LOCAL_MEM_FENCE);\n");
            let _ = writeln!(o, "  {t} xchg = lx[(lid + {}U) & {}U];", g.off, g.size - 1);
            if let Some(off) = g.copy {
                let ct = self.inputs[0].name();
                let _ = writeln!(o, "  local {ct} lc[{}];", g.size);
                let _ = writeln!(
                    o,
                    "  event_t ce = async_work_group_copy(lc, in0 + get_group_id(0) * {}U, {}U, 0);",
                    g.size, g.size
                );
                o.push_str("  wait_group_events(1, &ce);\n");
                let _ = writeln!(o, "  {ct} cin = lc[(lid + {off}U) & {}U];", g.size - 1);
            }
        }
        print_block(&mut o, &self.body, 1);
        if self.group.as_ref().is_some_and(|g| g.hist) {
            o.push_str("  barrier(CLK_LOCAL_MEM_FENCE);\n  lhout[gid] = lh[lid];\n");
        }
        for (i, (t, e)) in self.outputs.iter().enumerate() {
            match self.pipe {
                Some(p) if i == 0 => {
                    let _ = write!(o, "  {} pv = ", t.name());
                    e.print(&mut o);
                    o.push_str(";\n  out0[gid] = pv;\n");
                    pipe_access(&mut o, p.write, "pout", "write", "pv");
                }
                _ => {
                    let _ = write!(o, "  out{i}[gid] = ");
                    e.print(&mut o);
                    o.push_str(";\n");
                }
            }
        }
        o.push_str("}\n");
        if let (Some(p), Some(t)) = (self.pipe, self.pipe_ty()) {
            let t = t.name();
            let _ = writeln!(
                o,
                "\nkernel void {SINK_NAME}(read_only pipe {t} pin, global {t} *dst) {{\n  {t} v;"
            );
            pipe_access(&mut o, p.read, "pin", "read", "v");
            o.push_str("  dst[get_global_id(0)] = v;\n}\n");
        }
        o
    }
}

/// One packet written or read (`dir`) through pipe `pipe` from or into variable `v`.
fn pipe_access(o: &mut String, form: PipeForm, pipe: &str, dir: &str, v: &str) {
    let _ = match form {
        PipeForm::Block => writeln!(o, "  {dir}_pipe_block({pipe}, &{v});"),
        PipeForm::Retry => writeln!(o, "  while ({dir}_pipe({pipe}, &{v}) != 0);"),
        PipeForm::Reserve => writeln!(
            o,
            "  reserve_id_t rid;\n  do {{\n    rid = reserve_{dir}_pipe({pipe}, 1U);\n  }} while \
             (!is_valid_reserve_id(rid));\n  {dir}_pipe({pipe}, rid, 0U, &{v});\n  \
             commit_{dir}_pipe({pipe}, rid);"
        ),
    };
}

/// What a kernel parameter is, for the test vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    In(Ty),
    Out(Ty),
    Acc(u32),
    Counter,
    /// The pipe to `sink`, of this packet type.
    Pipe(Ty),
    N,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_arithmetic_goes_through_unsigned() {
        let t = Ty::scalar(Scalar::Int);
        let e = Expr::Bin(
            Bin::Add,
            Box::new(Expr::Var("a".into(), t)),
            Box::new(Expr::Lit(t, vec![0xffff_ffff])),
            t,
        );
        let mut s = String::new();
        e.print(&mut s);
        assert_eq!(s, "((int)((uint)(a) + (uint)(((int)0xffffffffU))))");
    }

    #[test]
    fn signed_division_is_guarded() {
        let t = Ty::scalar(Scalar::Char);
        let e = Expr::Div {
            rem: false,
            a: Box::new(Expr::Var("a".into(), t)),
            b: Box::new(Expr::Var("b".into(), t)),
            ty: t,
        };
        let mut s = String::new();
        e.print(&mut s);
        assert_eq!(
            s,
            "((char)((b == (char)0 || (b == (char)-1 && a == ((char)0x80U))) ? a : a / b))"
        );
    }

    #[test]
    fn header_values_are_signed_where_the_type_is() {
        assert_eq!(Scalar::Char.value_text(0xff), "-1");
        assert_eq!(Scalar::UShort.value_text(0xffff), "65535");
        assert_eq!(Scalar::Long.value_text(1 << 63), "-9223372036854775808");
    }
}
