//! The built-in functions the checker knows, as a closed `Copy` enum the lowering matches on.
//!
//! Overload resolution (which argument types a builtin accepts, what it returns and which
//! implicit conversions the checker inserts) lives in `check/builtin_sig/`; this file only names
//! them. See the doc of each variant for the argument convention the checked AST follows.

/// A built-in function. In a checked `ExprKind::Builtin { builtin, args }` the arguments are
/// already converted to the parameter types of the selected overload and the expression's `ty`
/// is the overload's return type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Builtin {
    // ---- work-item functions (OpenCL C 6.15.1); `dim` argument is `uint`, result `size_t`
    // (= `uint` on this device) except `get_work_dim` (`uint`).
    GetWorkDim,
    GetGlobalSize,
    GetGlobalId,
    GetLocalSize,
    GetEnqueuedLocalSize,
    GetLocalId,
    GetNumGroups,
    GetGroupId,
    GetGlobalOffset,
    GetGlobalLinearId,
    GetLocalLinearId,
    // ---- synchronisation: `barrier(flags)` and `work_group_barrier(flags)`; flags `uint`
    // (`CLK_LOCAL_MEM_FENCE` = 1, `CLK_GLOBAL_MEM_FENCE` = 2, `CLK_IMAGE_MEM_FENCE` = 4).
    Barrier,
    MemFence,
    ReadMemFence,
    WriteMemFence,
    // ---- common / integer functions with both integer and float overloads
    /// `min(x, y)`: both args have the result type (a scalar `y` of a vector `min` is splatted).
    Min,
    /// `max(x, y)`: as `Min`.
    Max,
    /// `clamp(x, lo, hi)`: all three args have the result type.
    Clamp,
    /// `mad(a, b, c)` = a * b + c, float types only.
    Mad,
    /// `abs(x)` on integers: result is the unsigned type of the same size.
    Abs,
    /// `select(a, b, c)`: `c ? b : a` per lane (scalar: c != 0; vector: MSB of each lane of c).
    /// `a`, `b` have the result type; `c` is an integer type of the same element size.
    Select,
    /// Other math / integer / relational / geometric functions by name.
    Math(MathFn),
    /// `native_*` and `half_*` variants: same signatures, precision is implementation-defined.
    NativeMath(MathFn),
    // ---- conversions
    /// `convert_<T>[_sat][_<rounding>](x)` with a saturation or rounding modifier. A plain
    /// `convert_<T>(x)` is an explicit `Cast` instead.
    Convert {
        sat: bool,
        rounding: Rounding,
    },
    /// `as_<T>(x)`: bit reinterpretation; `x` has the same size as the result type.
    AsType,
    // ---- vector data load / store: `vloadN(size_t offset, const T *p)` returns `TN`;
    // `vstoreN(TN data, size_t offset, T *p)`. `vload_halfN` / `vstore_halfN` convert float<->half.
    VLoad(u8),
    VStore(u8),
    VLoadHalf(u8),
    VStoreHalf(u8),
    // ---- atomics: first arg a pointer to a 32-bit (or 64-bit for `atom_*`) integer in global or
    // local memory, or a `counter32_t`/`counter64_t` for `AtomicOp::Inc`/`Dec`. Returns the old value.
    Atomic(AtomicOp),
    // ---- pipes (OpenCL C 2.0 6.13.16). `read_pipe(p, T *ptr)` / `read_pipe(p, rid, uint index,
    // T *ptr)` return int (0 on success); the packet pointer is a generic pointer to the packet type.
    ReadPipe,
    WritePipe,
    /// Xilinx `read_pipe_block(p, T *ptr) -> void`: waits until a packet is available.
    ReadPipeBlock,
    /// Xilinx `write_pipe_block(p, const T *ptr) -> void`: waits until there is room.
    WritePipeBlock,
    /// `reserve_read_pipe(p, uint n) -> reserve_id_t`
    ReserveReadPipe,
    ReserveWritePipe,
    /// `commit_read_pipe(p, reserve_id_t) -> void`
    CommitReadPipe,
    CommitWritePipe,
    WorkGroupReserveReadPipe,
    WorkGroupReserveWritePipe,
    WorkGroupCommitReadPipe,
    WorkGroupCommitWritePipe,
    SubGroupReserveReadPipe,
    SubGroupReserveWritePipe,
    SubGroupCommitReadPipe,
    SubGroupCommitWritePipe,
    /// `is_valid_reserve_id(reserve_id_t) -> bool`
    IsValidReserveId,
    /// `get_pipe_num_packets(p) -> uint`
    GetPipeNumPackets,
    /// `get_pipe_max_packets(p) -> uint`
    GetPipeMaxPackets,
    // ---- async copies (OpenCL C 6.15.10)
    /// `async_work_group_copy(dst, src, size_t num_elements, event_t) -> event_t`; one of dst/src
    /// is local, the other global. A literal `0` event argument ("no event to join") appears as
    /// an implicit cast of the integer 0 to `event_t`.
    AsyncWorkGroupCopy,
    /// `async_work_group_strided_copy(dst, src, size_t n, size_t stride, event_t) -> event_t`.
    AsyncWorkGroupStridedCopy,
    /// `wait_group_events(int num_events, event_t *event_list) -> void`.
    WaitGroupEvents,
    /// `prefetch(const global T *p, size_t num_elements) -> void`.
    Prefetch,
    // ---- output
    /// `printf(format, ...) -> int`: `args[0]` is the decayed string literal (an
    /// `ExprKind::Global` of a `constant char[]` whose name starts with `.str`, cast to
    /// `constant char *`); the other arguments are scalars (integers promoted), vectors or
    /// pointers, unconverted otherwise.
    Printf,
}

/// Rounding modifier of `convert_T_<mode>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rounding {
    /// No suffix: round to nearest even for float results, toward zero for integer results.
    Default,
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// `atomic_<op>` / `atom_<op>` (and `atomic_inc`/`atomic_dec` on counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AtomicOp {
    /// `(p, v)`
    Add,
    Sub,
    Xchg,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// `(p)`
    Inc,
    Dec,
    /// `(p, cmp, val)`
    CmpXchg,
}

macro_rules! math_fns {
    ($($variant:ident = $name:literal : $class:ident,)*) => {
        /// Math, integer, relational and geometric built-ins called by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum MathFn { $($variant,)* }

        impl MathFn {
            pub const ALL: &'static [MathFn] = &[$(MathFn::$variant,)*];

            /// The OpenCL name (without any `native_`/`half_` prefix).
            pub fn name(self) -> &'static str {
                match self { $(MathFn::$variant => $name,)* }
            }

            /// The signature class (see [`MathClass`]).
            pub fn class(self) -> MathClass {
                match self { $(MathFn::$variant => MathClass::$class,)* }
            }

            pub fn from_name(name: &str) -> Option<MathFn> {
                match name { $($name => Some(MathFn::$variant),)* _ => None }
            }
        }
    };
}

/// How a [`MathFn`]'s signature is formed; `F` = float scalar/vector type (gentype),
/// `I` = integer gentype, `U` = unsigned of the same size as `I`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathClass {
    /// `F f(F)`
    F1,
    /// `F f(F, F)`
    F2,
    /// `F f(F, F, F)`
    F3,
    /// `I f(I)`
    I1,
    /// `I f(I, I)`
    I2,
    /// `I f(I, I, I)`
    I3,
    /// `U f(I, I)` (abs_diff)
    IU2,
    /// `int f(F)` for scalars, `intN`-like signed mask vector for vectors (isnan, ...)
    FRel1,
    /// `int f(F, F)` relational comparison (isequal, ...)
    FRel2,
    /// `int f(I)`: any/all on the MSB of each lane of an integer vector or scalar
    AnyAll,
    /// `T f(T, T, T)` on any integer or float type (bitselect)
    Bitsel,
    /// `scalar f(F, F)` where F is a float scalar or vector of up to 4 lanes (dot, distance)
    Geom2,
    /// `scalar f(F)` (length)
    Geom1,
    /// `F f(F)` on float vectors of up to 4 lanes (normalize)
    GeomV1,
    /// `F f(F, F)` on float3/float4 (cross)
    Cross,
    /// `F mix(F, F, F)` where the third arg may be a scalar float
    Mix,
    /// `F step(F edge, F x)` where edge may be scalar
    Step,
    /// `F smoothstep(F e0, F e1, F x)` where the edges may be scalar
    SmoothStep,
    /// `F ldexp(F, int)`-style: second argument `int` (or `intN`)
    FInt,
}

math_fns! {
    Acos = "acos": F1, Acosh = "acosh": F1, Asin = "asin": F1, Asinh = "asinh": F1,
    Atan = "atan": F1, Atanh = "atanh": F1, Atan2 = "atan2": F2, Cbrt = "cbrt": F1,
    Ceil = "ceil": F1, Copysign = "copysign": F2, Cos = "cos": F1, Cosh = "cosh": F1,
    Cospi = "cospi": F1, Erf = "erf": F1, Erfc = "erfc": F1, Exp = "exp": F1,
    Exp2 = "exp2": F1, Exp10 = "exp10": F1, Expm1 = "expm1": F1, Fabs = "fabs": F1,
    Fdim = "fdim": F2, Floor = "floor": F1, Fma = "fma": F3, Fmax = "fmax": F2,
    Fmin = "fmin": F2, Fmod = "fmod": F2, Hypot = "hypot": F2, Log = "log": F1,
    Log2 = "log2": F1, Log10 = "log10": F1, Log1p = "log1p": F1, Logb = "logb": F1,
    Pow = "pow": F2, Powr = "powr": F2, Recip = "recip": F1, Remainder = "remainder": F2,
    Rint = "rint": F1, Round = "round": F1, Rsqrt = "rsqrt": F1, Sin = "sin": F1,
    Sinh = "sinh": F1, Sinpi = "sinpi": F1, Sqrt = "sqrt": F1, Tan = "tan": F1,
    Tanh = "tanh": F1, Tanpi = "tanpi": F1, Trunc = "trunc": F1, Divide = "divide": F2,
    Ldexp = "ldexp": FInt, Pown = "pown": FInt, Rootn = "rootn": FInt,
    Degrees = "degrees": F1, Radians = "radians": F1, Sign = "sign": F1,
    Mix = "mix": Mix, Step = "step": Step, Smoothstep = "smoothstep": SmoothStep,
    AbsDiff = "abs_diff": IU2, AddSat = "add_sat": I2, SubSat = "sub_sat": I2,
    Hadd = "hadd": I2, Rhadd = "rhadd": I2, MulHi = "mul_hi": I2, Rotate = "rotate": I2,
    Mul24 = "mul24": I2, MadHi = "mad_hi": I3, MadSat = "mad_sat": I3, Mad24 = "mad24": I3,
    Clz = "clz": I1, Ctz = "ctz": I1, Popcount = "popcount": I1,
    Isnan = "isnan": FRel1, Isinf = "isinf": FRel1, Isfinite = "isfinite": FRel1,
    Isnormal = "isnormal": FRel1, Signbit = "signbit": FRel1,
    Isequal = "isequal": FRel2, Isnotequal = "isnotequal": FRel2,
    Isgreater = "isgreater": FRel2, Isgreaterequal = "isgreaterequal": FRel2,
    Isless = "isless": FRel2, Islessequal = "islessequal": FRel2,
    Islessgreater = "islessgreater": FRel2, Isordered = "isordered": FRel2,
    Isunordered = "isunordered": FRel2,
    Any = "any": AnyAll, All = "all": AnyAll, Bitselect = "bitselect": Bitsel,
    Dot = "dot": Geom2, Distance = "distance": Geom2, Length = "length": Geom1,
    Normalize = "normalize": GeomV1, Cross = "cross": Cross,
    FastDistance = "fast_distance": Geom2, FastLength = "fast_length": Geom1,
    FastNormalize = "fast_normalize": GeomV1,
}
