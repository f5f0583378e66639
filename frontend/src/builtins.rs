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
    /// `shuffle(x, mask)`: lane `i` of the result is lane `mask[i] % n` of `x` (`n`, `m` in
    /// 2, 4, 8, 16; `mask` an unsigned vector of `m` lanes of `x`'s element size; only the
    /// low `log2 n` bits of a mask lane count). The result has `m` lanes of `x`'s type.
    Shuffle,
    /// `shuffle2(x, y, mask)`: as `Shuffle` over the `2n` lanes of `x` then `y`.
    Shuffle2,
    /// `nan(code)`: a quiet NaN of the `float` shape of the `uint` (vector) `code`, its low 22
    /// bits in the significand.
    Nan,
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
    // ---- atomics. The object argument (`args[0]`) is a pointer to `int`, `uint`, `long`,
    // `ulong`, `float` (or `double` with fp64) in `global`, `local` or `generic` memory (never
    // `private` or `constant`), or a `counter32_t`/`counter64_t` for `AtomicOp::Inc`/`Dec`.
    //
    // OpenCL C 2.0 atomics (6.13.11) on `atomic_*` objects have the same shapes: the checker
    // casts the object pointer to a pointer to the value type (`global atomic_int *` ->
    // `global int *`, `atomic_flag *` -> `int *`; an implicit pointer `Cast`), so the lowering
    // sees the 1.x forms. The memory order and scope arguments of the `_explicit` forms are
    // checked (integer constants, allowed for the function: 6.13.11.7 and 6.13.11.8) and
    // dropped: this device executes every atomic operation as sequentially consistent at device
    // scope (the emulator does, and the hardware must: stronger than any order and scope a
    // kernel can ask for, so always correct). Only `atomic_work_item_fence` keeps its order and
    // scope ([`Builtin::WorkItemFence`]).
    /// Read-modify-write, returns the old value: `atomic_<op>`/`atom_<op>` (args as written:
    /// `[p, v]`, `[p]` for inc/dec, `[p, cmp, val]` for cmpxchg), and the C11
    /// `atomic_fetch_<key>(obj, operand)` (integer atomics: `Add`, `Sub`, `Or`, `Xor`, `And`,
    /// `Min`, `Max`) and `atomic_exchange(obj, desired)` (`Xchg`, also `atomic_float`): args
    /// `[obj, operand]`, result the value type. Arithmetic wraps (two's complement); min/max
    /// compare as the value type's signedness.
    Atomic(AtomicOp),
    /// `atomic_init(obj, value) -> void`: args `[obj, value]`. Writes `value` to `*obj`
    /// *non-atomically* (a plain store: another work-item's access to `*obj` not separated from
    /// it by a barrier is a data race).
    AtomicInit,
    /// `atomic_load[_explicit](obj[, order[, scope]]) -> C`: args `[obj]`. Atomically reads
    /// `*obj` (`atomic_float` and `atomic_double` read the bits).
    AtomicLoad,
    /// `atomic_store[_explicit](obj, desired[, order[, scope]]) -> void`: args `[obj, desired]`.
    /// Atomically writes `desired` to `*obj`.
    AtomicStore,
    /// `atomic_compare_exchange_{strong,weak}[_explicit](obj, expected, desired[, success,
    /// failure[, scope]]) -> bool`: args `[obj, expected, desired]`, `expected` a pointer to the
    /// value type in any address space (private included). Atomically: if the bits of `*obj`
    /// equal the bits of `*expected` (`memcmp`: `-0.0f` differs from `0.0f`, a NaN equals the
    /// same NaN), writes `desired` to `*obj` and returns true; otherwise writes the value of
    /// `*obj` to `*expected` (a plain store of the work-item) and returns false. `weak` may fail
    /// spuriously in OpenCL; on this device it never does, so it behaves like strong.
    AtomicCompareExchange {
        weak: bool,
    },
    /// `atomic_flag_test_and_set[_explicit](obj[, order[, scope]]) -> bool`: args `[obj]`
    /// (`atomic_flag *` cast to `int *`). Atomically writes 1 to `*obj` and returns whether the
    /// old value was non-zero (set).
    AtomicFlagTestAndSet,
    /// `atomic_flag_clear[_explicit](obj[, order[, scope]]) -> void`: args `[obj]`. Atomically
    /// writes 0 to `*obj`.
    AtomicFlagClear,
    /// `atomic_work_item_fence(flags, order, scope) -> void`: args `[flags]` (`uint`,
    /// `CLK_*_MEM_FENCE` bits as for `mem_fence`). Orders this work-item's memory accesses to
    /// the memories named by `flags` around the fence according to `order` (`Relaxed`: no
    /// effect); `mem_fence(f)` is this fence with `AcqRel` and `WorkGroup`, `read_mem_fence`
    /// with `Acquire`, `write_mem_fence` with `Release`.
    WorkItemFence {
        order: MemOrder,
        scope: MemScope,
    },
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

/// `atomic_<op>` / `atom_<op>` (and `atomic_inc`/`atomic_dec` on counters), and the C11
/// `atomic_fetch_<key>` / `atomic_exchange` (see [`Builtin::Atomic`]).
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

/// `memory_order` (OpenCL C 2.0 6.13.11.3); the enumerator values are clang's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemOrder {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl MemOrder {
    pub const ALL: [MemOrder; 5] = [
        MemOrder::Relaxed,
        MemOrder::Acquire,
        MemOrder::Release,
        MemOrder::AcqRel,
        MemOrder::SeqCst,
    ];

    /// The enumeration constant's name.
    pub fn name(self) -> &'static str {
        match self {
            MemOrder::Relaxed => "memory_order_relaxed",
            MemOrder::Acquire => "memory_order_acquire",
            MemOrder::Release => "memory_order_release",
            MemOrder::AcqRel => "memory_order_acq_rel",
            MemOrder::SeqCst => "memory_order_seq_cst",
        }
    }

    /// The enumeration constant's value (`memory_order_consume`, 1, is not in OpenCL C).
    pub fn value(self) -> u64 {
        match self {
            MemOrder::Relaxed => 0,
            MemOrder::Acquire => 2,
            MemOrder::Release => 3,
            MemOrder::AcqRel => 4,
            MemOrder::SeqCst => 5,
        }
    }

    pub fn from_value(v: u64) -> Option<MemOrder> {
        MemOrder::ALL.into_iter().find(|o| o.value() == v)
    }

    /// Whether a compare-exchange may use `self` as its failure order after `success`: the
    /// failure order is neither release nor acq_rel, and no stronger than success (C11
    /// 7.17.7.4: relaxed < acquire < seq_cst; release gives no acquire, acq_rel gives acquire).
    pub fn valid_failure_for(self, success: MemOrder) -> bool {
        use MemOrder::*;
        match self {
            Release | AcqRel => false,
            Relaxed => true,
            Acquire => matches!(success, Acquire | AcqRel | SeqCst),
            SeqCst => success == SeqCst,
        }
    }
}

/// `memory_scope` (OpenCL C 2.0 6.13.11.4); the enumerator values are clang's.
/// (`memory_scope_sub_group` needs sub-groups, which this device does not have.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemScope {
    /// Only with `atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, ...)`.
    WorkItem,
    WorkGroup,
    Device,
    AllSvmDevices,
}

impl MemScope {
    pub const ALL: [MemScope; 4] = [
        MemScope::WorkItem,
        MemScope::WorkGroup,
        MemScope::Device,
        MemScope::AllSvmDevices,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MemScope::WorkItem => "memory_scope_work_item",
            MemScope::WorkGroup => "memory_scope_work_group",
            MemScope::Device => "memory_scope_device",
            MemScope::AllSvmDevices => "memory_scope_all_svm_devices",
        }
    }

    pub fn value(self) -> u64 {
        match self {
            MemScope::WorkItem => 0,
            MemScope::WorkGroup => 1,
            MemScope::Device => 2,
            MemScope::AllSvmDevices => 3,
        }
    }

    pub fn from_value(v: u64) -> Option<MemScope> {
        MemScope::ALL.into_iter().find(|o| o.value() == v)
    }
}

/// The value of a `memory_order_*` or `memory_scope_*` enumeration constant (type `int`).
pub fn memory_enum_value(name: &str) -> Option<u64> {
    let order = MemOrder::ALL.into_iter().find(|o| o.name() == name);
    let scope = MemScope::ALL.into_iter().find(|s| s.name() == name);
    order
        .map(MemOrder::value)
        .or_else(|| scope.map(MemScope::value))
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
    /// `W f(I hi, U lo)` with `I` of 8, 16 or 32 bits and `W` the integer of twice its width
    /// and its signedness (upsample)
    Upsample,
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
    /// `intN f(F)`: the integer of the float type's shape (ilogb)
    IntOfF,
    /// `F f(F, P *)`: a second result written through the pointer, `P` being `F` (fract,
    /// modf, sincos) or the `int` type of `F`'s shape (frexp, lgamma_r)
    PtrOut,
    /// `F f(F, F, intN *)`: a second result written through the pointer to the `int` type of
    /// `F`'s shape (remquo)
    PtrOut2,
}

math_fns! {
    Acos = "acos": F1, Acosh = "acosh": F1, Asin = "asin": F1, Asinh = "asinh": F1,
    Acospi = "acospi": F1, Asinpi = "asinpi": F1, Atanpi = "atanpi": F1, Atan2pi = "atan2pi": F2,
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
    Maxmag = "maxmag": F2, Minmag = "minmag": F2, Nextafter = "nextafter": F2,
    Ilogb = "ilogb": IntOfF, Fract = "fract": PtrOut, Modf = "modf": PtrOut, Frexp = "frexp": PtrOut,
    Sincos = "sincos": PtrOut, Remquo = "remquo": PtrOut2,
    Tgamma = "tgamma": F1, Lgamma = "lgamma": F1, LgammaR = "lgamma_r": PtrOut,
    Mix = "mix": Mix, Step = "step": Step, Smoothstep = "smoothstep": SmoothStep,
    AbsDiff = "abs_diff": IU2, AddSat = "add_sat": I2, SubSat = "sub_sat": I2,
    Hadd = "hadd": I2, Rhadd = "rhadd": I2, MulHi = "mul_hi": I2, Rotate = "rotate": I2,
    Mul24 = "mul24": I2, MadHi = "mad_hi": I3, MadSat = "mad_sat": I3, Mad24 = "mad24": I3,
    Clz = "clz": I1, Ctz = "ctz": I1, Popcount = "popcount": I1, Upsample = "upsample": Upsample,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_order_values_round_trip() {
        for o in MemOrder::ALL {
            assert_eq!(MemOrder::from_value(o.value()), Some(o));
            assert_eq!(memory_enum_value(o.name()), Some(o.value()));
        }
        for s in MemScope::ALL {
            assert_eq!(MemScope::from_value(s.value()), Some(s));
            assert_eq!(memory_enum_value(s.name()), Some(s.value()));
        }
        // `memory_order_consume` (1) is not part of OpenCL C
        assert_eq!(MemOrder::from_value(1), None);
        assert_eq!(memory_enum_value("memory_order_consume"), None);
        assert_eq!(memory_enum_value("memory_scope_sub_group"), None);
    }

    #[test]
    fn compare_exchange_failure_orders() {
        use MemOrder::*;
        // (success, the failure orders C11 7.17.7.4 allows for it)
        let table = [
            (Relaxed, vec![Relaxed]),
            (Acquire, vec![Relaxed, Acquire]),
            (Release, vec![Relaxed]),
            (AcqRel, vec![Relaxed, Acquire]),
            (SeqCst, vec![Relaxed, Acquire, SeqCst]),
        ];
        for (success, ok) in table {
            for failure in MemOrder::ALL {
                assert_eq!(
                    failure.valid_failure_for(success),
                    ok.contains(&failure),
                    "success {success:?}, failure {failure:?}"
                );
            }
        }
    }
}
