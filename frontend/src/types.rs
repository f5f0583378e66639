//! OpenCL C types as the checker sees them, and struct layout.
//!
//! The target device has `CL_DEVICE_ADDRESS_BITS = 32`: `size_t`/`uintptr_t` are `uint`,
//! `ptrdiff_t`/`intptr_t` are `int`, and pointers occupy 4 bytes. The spelled typedef name is
//! only kept for messages. Vectors of 3 elements occupy 4; the alignment of a vector is its size.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScalarKind {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl ScalarKind {
    /// `sizeof` in bytes (bool is 1).
    pub fn size_bytes(self) -> u32 {
        use ScalarKind::*;
        match self {
            Bool | Char | UChar => 1,
            Short | UShort | Half => 2,
            Int | UInt | Float => 4,
            Long | ULong | Double => 8,
        }
    }

    /// Width of the value in bits (bool is 1 bit wide as a value, 1 byte in memory).
    pub fn bits(self) -> u32 {
        if self == ScalarKind::Bool {
            1
        } else {
            self.size_bytes() * 8
        }
    }

    /// Signed integer types and floating-point types are signed; `char` is signed.
    pub fn is_signed(self) -> bool {
        use ScalarKind::*;
        matches!(self, Char | Short | Int | Long | Half | Float | Double)
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarKind::Half | ScalarKind::Float | ScalarKind::Double
        )
    }

    /// Integer types including bool.
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    /// C integer conversion rank (bool < char < short < int < long); floats rank above.
    pub fn rank(self) -> u32 {
        use ScalarKind::*;
        match self {
            Bool => 0,
            Char | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            Half => 5,
            Float => 6,
            Double => 7,
        }
    }

    /// The unsigned type of the same size (identity for unsigned and float types).
    pub fn to_unsigned(self) -> ScalarKind {
        use ScalarKind::*;
        match self {
            Char => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            k => k,
        }
    }

    /// The signed integer type of the same size (floats map to the integer of the same size;
    /// used for comparison results and `select` masks).
    pub fn to_signed_int(self) -> ScalarKind {
        use ScalarKind::*;
        match self {
            Bool | Char | UChar => Char,
            Short | UShort | Half => Short,
            Int | UInt | Float => Int,
            Long | ULong | Double => Long,
        }
    }

    /// The unsigned integer type of the same size as this type.
    pub fn to_unsigned_int(self) -> ScalarKind {
        self.to_signed_int().to_unsigned()
    }

    /// OpenCL spelling.
    pub fn name(self) -> &'static str {
        use ScalarKind::*;
        match self {
            Bool => "bool",
            Char => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            Half => "half",
            Float => "float",
            Double => "double",
        }
    }

    /// Truncates a value to this type's width (upper bits zero): the representation used by
    /// `ExprKind::IntLit`. Bool truncates to `v != 0`.
    pub fn truncate(self, v: u64) -> u64 {
        if self == ScalarKind::Bool {
            return (v != 0) as u64;
        }
        let bits = self.bits();
        if bits >= 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        }
    }

    /// The numeric value of a truncated bit pattern: sign-extended for signed types.
    pub fn as_i64(self, v: u64) -> i64 {
        let bits = self.bits();
        let t = self.truncate(v);
        if bits >= 64 || !self.is_signed() || self == ScalarKind::Bool {
            t as i64
        } else if (t >> (bits - 1)) & 1 == 1 {
            (t | !((1u64 << bits) - 1)) as i64
        } else {
            t as i64
        }
    }
}

impl fmt::Display for ScalarKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum AddrSpace {
    #[default]
    Private,
    Global,
    Constant,
    Local,
    Generic,
}

impl AddrSpace {
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "private",
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            AddrSpace::Local => "local",
            AddrSpace::Generic => "generic",
        }
    }
}

impl fmt::Display for AddrSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Access qualifier of a pipe (or image) argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::ReadOnly => "read_only",
            Access::WriteOnly => "write_only",
            Access::ReadWrite => "read_write",
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Index into [`StructTable::structs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StructId(pub u32);

impl fmt::Display for StructId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct{}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(ScalarKind),
    /// Element kind and number of lanes (2, 3, 4, 8 or 16).
    Vector(ScalarKind, u8),
    /// `is_const`/`is_volatile` qualify the pointee; `is_restrict` the pointer itself.
    Pointer {
        pointee: Box<Type>,
        space: AddrSpace,
        is_const: bool,
        is_volatile: bool,
        is_restrict: bool,
    },
    Array(Box<Type>, u32),
    Struct(StructId),
    /// `access` is `ReadOnly`/`WriteOnly` for pipe parameters; `ReadWrite` only for a
    /// program-scope pipe (Xilinx `xcl_reqd_pipe_depth` dialect), which kernels read or write.
    Pipe {
        packet: Box<Type>,
        access: Access,
    },
    ReserveId,
    Event,
    /// `counter32_t` (cl_ext_atomic_counters_32).
    Counter32,
    /// `counter64_t` (cl_ext_atomic_counters_64).
    Counter64,
    /// An OpenCL C 2.0 atomic type (`atomic_int`, ..., `atomic_flag`): the size, alignment and
    /// memory layout of [`AtomicKind::value_kind`]; only the atomic built-ins operate on it.
    Atomic(AtomicKind),
}

/// What an atomic type holds (OpenCL C 2.0 6.13.11.6 and 6.13.11.8). `atomic_intptr_t` and
/// `atomic_ptrdiff_t` are `Int`, `atomic_uintptr_t` and `atomic_size_t` are `UInt` (32-bit
/// addresses); the spelled name is not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AtomicKind {
    Int,
    UInt,
    /// Needs `cl_khr_int64_base_atomics` and `cl_khr_int64_extended_atomics` enabled.
    Long,
    ULong,
    Float,
    /// Needs double precision besides the 64-bit atomics.
    Double,
    /// `atomic_flag`: a 32-bit integer, clear = 0, set = non-zero (test-and-set writes 1).
    Flag,
}

impl AtomicKind {
    /// The corresponding non-atomic type (`C` in the specification); `int` for `atomic_flag`.
    pub fn value_kind(self) -> ScalarKind {
        match self {
            AtomicKind::Int | AtomicKind::Flag => ScalarKind::Int,
            AtomicKind::UInt => ScalarKind::UInt,
            AtomicKind::Long => ScalarKind::Long,
            AtomicKind::ULong => ScalarKind::ULong,
            AtomicKind::Float => ScalarKind::Float,
            AtomicKind::Double => ScalarKind::Double,
        }
    }

    /// The atomic type with value type `k`, if OpenCL C has one (not for `atomic_flag`).
    pub fn of_value(k: ScalarKind) -> Option<AtomicKind> {
        Some(match k {
            ScalarKind::Int => AtomicKind::Int,
            ScalarKind::UInt => AtomicKind::UInt,
            ScalarKind::Long => AtomicKind::Long,
            ScalarKind::ULong => AtomicKind::ULong,
            ScalarKind::Float => AtomicKind::Float,
            ScalarKind::Double => AtomicKind::Double,
            _ => return None,
        })
    }

    /// The atomic integer types, the only ones `atomic_fetch_<key>` accepts.
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            AtomicKind::Int | AtomicKind::UInt | AtomicKind::Long | AtomicKind::ULong
        )
    }

    /// 8-byte atomics, which need the 64-bit atomics extensions.
    pub fn is_64bit(self) -> bool {
        self.value_kind().size_bytes() == 8
    }

    /// OpenCL spelling.
    pub fn name(self) -> &'static str {
        match self {
            AtomicKind::Int => "atomic_int",
            AtomicKind::UInt => "atomic_uint",
            AtomicKind::Long => "atomic_long",
            AtomicKind::ULong => "atomic_ulong",
            AtomicKind::Float => "atomic_float",
            AtomicKind::Double => "atomic_double",
            AtomicKind::Flag => "atomic_flag",
        }
    }
}

impl Type {
    pub const INT: Type = Type::Scalar(ScalarKind::Int);
    pub const UINT: Type = Type::Scalar(ScalarKind::UInt);
    pub const BOOL: Type = Type::Scalar(ScalarKind::Bool);
    pub const FLOAT: Type = Type::Scalar(ScalarKind::Float);
    /// `size_t` on this device.
    pub const SIZE_T: Type = Type::Scalar(ScalarKind::UInt);
    /// `ptrdiff_t` on this device.
    pub const PTRDIFF_T: Type = Type::Scalar(ScalarKind::Int);

    pub fn ptr(pointee: Type, space: AddrSpace) -> Type {
        Type::Pointer {
            pointee: Box::new(pointee),
            space,
            is_const: false,
            is_volatile: false,
            is_restrict: false,
        }
    }

    pub fn is_void(&self) -> bool {
        matches!(self, Type::Void)
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }

    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer { .. })
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Type::Array(..))
    }

    pub fn is_struct(&self) -> bool {
        matches!(self, Type::Struct(_))
    }

    /// Scalar or vector of any element type.
    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..))
    }

    /// Scalar or vector with an integer element type (incl. bool).
    pub fn is_integer(&self) -> bool {
        self.elem_kind().is_some_and(|k| k.is_integer())
    }

    pub fn is_float(&self) -> bool {
        self.elem_kind().is_some_and(|k| k.is_float())
    }

    /// The scalar kind of a scalar, or the element kind of a vector.
    pub fn elem_kind(&self) -> Option<ScalarKind> {
        match self {
            Type::Scalar(k) | Type::Vector(k, _) => Some(*k),
            _ => None,
        }
    }

    /// Number of vector lanes (1 for scalars).
    pub fn lanes(&self) -> u8 {
        match self {
            Type::Vector(_, n) => *n,
            _ => 1,
        }
    }

    /// Pointee of a pointer, element of an array.
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Pointer { pointee, .. } => Some(pointee),
            Type::Array(e, _) => Some(e),
            _ => None,
        }
    }

    /// Same type with element kind `k` (scalar or vector of the same lane count).
    pub fn with_elem(&self, k: ScalarKind) -> Type {
        match self {
            Type::Vector(_, n) => Type::Vector(k, *n),
            _ => Type::Scalar(k),
        }
    }

    /// Whether this is a valid OpenCL vector length.
    pub fn valid_vector_len(n: u32) -> bool {
        matches!(n, 2 | 3 | 4 | 8 | 16)
    }
}

/// Prints the type in OpenCL spelling (`global const int *`, `float4`, `int[16]`).
/// Struct ids print as `struct #N`; use [`StructTable::type_name`] for the declared name.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self, None)
    }
}

fn write_type(f: &mut dyn fmt::Write, t: &Type, st: Option<&StructTable>) -> fmt::Result {
    match t {
        Type::Void => f.write_str("void"),
        Type::Scalar(k) => f.write_str(k.name()),
        Type::Vector(k, n) => write!(f, "{}{}", k.name(), n),
        Type::Pointer {
            pointee,
            space,
            is_const,
            is_volatile,
            is_restrict,
        } => {
            // unqualified pointers are generic (OpenCL C 2.0), so `generic` is not spelled
            if *space != AddrSpace::Generic {
                write!(f, "{} ", space)?;
            }
            if *is_const {
                f.write_str("const ")?;
            }
            if *is_volatile {
                f.write_str("volatile ")?;
            }
            write_type(f, pointee, st)?;
            f.write_str(" *")?;
            if *is_restrict {
                f.write_str(" restrict")?;
            }
            Ok(())
        }
        Type::Array(..) => {
            // `int[2][3]`: element type first, then the dimensions outermost first
            let mut dims = Vec::new();
            let mut t = t;
            while let Type::Array(e, n) = t {
                dims.push(*n);
                t = e;
            }
            write_type(f, t, st)?;
            for n in dims {
                write!(f, "[{}]", n)?;
            }
            Ok(())
        }
        Type::Struct(id) => match st.and_then(|st| st.structs.get(id.0 as usize)) {
            Some(def) => write!(
                f,
                "{} {}",
                if def.is_union { "union" } else { "struct" },
                def.name.as_deref().unwrap_or("<anonymous>")
            ),
            None => write!(f, "struct #{}", id.0),
        },
        Type::Pipe { packet, access } => {
            write!(f, "{} pipe ", access)?;
            write_type(f, packet, st)
        }
        Type::ReserveId => f.write_str("reserve_id_t"),
        Type::Event => f.write_str("event_t"),
        Type::Counter32 => f.write_str("counter32_t"),
        Type::Counter64 => f.write_str("counter64_t"),
        Type::Atomic(a) => f.write_str(a.name()),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    /// Byte offset from the start of the struct (0 for every member of a union).
    pub offset: u32,
    pub span: crate::span::Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    /// The tag (`struct S` -> `S`), or the typedef name for `typedef struct {..} S`.
    pub name: Option<String>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u32,
    pub align: u32,
    /// `false` while only declared (`struct S;`).
    pub complete: bool,
    pub packed: bool,
    pub span: crate::span::Span,
}

impl StructDef {
    pub fn field_index(&self, name: &str) -> Option<u32> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u32)
    }
}

/// All struct and union types of a program, index = [`StructId`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructTable {
    pub structs: Vec<StructDef>,
}

impl StructTable {
    pub fn get(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }

    /// `sizeof(t)` in bytes per OpenCL (3-vectors occupy 4 lanes; pointers 4 bytes).
    /// Types without a size (void, pipes, events...) report 0.
    pub fn size_of(&self, t: &Type) -> u32 {
        match t {
            Type::Void => 0,
            Type::Scalar(k) => k.size_bytes(),
            Type::Vector(k, n) => k.size_bytes() * if *n == 3 { 4 } else { *n as u32 },
            Type::Pointer { .. } => 4,
            Type::Array(e, n) => self.size_of(e).saturating_mul(*n),
            Type::Struct(id) => self.get(*id).size,
            Type::Pipe { .. } | Type::ReserveId | Type::Event => 4,
            Type::Counter32 => 4,
            Type::Counter64 => 8,
            Type::Atomic(a) => a.value_kind().size_bytes(),
        }
    }

    /// Alignment in bytes (a vector's alignment is its size).
    pub fn align_of(&self, t: &Type) -> u32 {
        match t {
            Type::Void => 1,
            Type::Array(e, _) => self.align_of(e),
            Type::Struct(id) => self.get(*id).align.max(1),
            t => self.size_of(t).max(1),
        }
    }

    /// Lays out a struct's fields (computing offsets, size and alignment) and stores it.
    /// `packed` removes padding; `min_align` comes from `__attribute__((aligned(N)))`.
    pub fn layout(&mut self, id: StructId, packed: bool, min_align: u32) {
        let mut fields = std::mem::take(&mut self.structs[id.0 as usize].fields);
        let is_union = self.structs[id.0 as usize].is_union;
        let mut off = 0u32;
        let mut size = 0u32;
        let mut align = 1u32;
        for f in &mut fields {
            let a = if packed { 1 } else { self.align_of(&f.ty) };
            let s = self.size_of(&f.ty);
            align = align.max(a);
            if is_union {
                f.offset = 0;
                size = size.max(s);
            } else {
                off = off.div_ceil(a).saturating_mul(a);
                f.offset = off;
                off = off.saturating_add(s);
                size = off;
            }
        }
        align = align.max(min_align.max(1));
        let size = size.div_ceil(align).saturating_mul(align);
        let def = &mut self.structs[id.0 as usize];
        def.fields = fields;
        def.size = size;
        def.align = align;
        def.packed = packed;
        def.complete = true;
    }

    /// Type spelling with struct names resolved.
    pub fn type_name(&self, t: &Type) -> String {
        let mut s = String::new();
        let _ = write_type(&mut s, t, Some(self));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_sizes() {
        let st = StructTable::default();
        assert_eq!(st.size_of(&Type::Vector(ScalarKind::Float, 3)), 16);
        assert_eq!(st.align_of(&Type::Vector(ScalarKind::Float, 3)), 16);
        assert_eq!(st.size_of(&Type::Vector(ScalarKind::Char, 16)), 16);
        assert_eq!(st.size_of(&Type::ptr(Type::INT, AddrSpace::Global)), 4);
    }

    #[test]
    fn truncation() {
        assert_eq!(ScalarKind::Char.truncate(u64::MAX), 255);
        assert_eq!(ScalarKind::Char.as_i64(255), -1);
        assert_eq!(ScalarKind::UChar.truncate(256 + 7), 7);
        assert_eq!(ScalarKind::Int.as_i64(0x8000_0000), -0x8000_0000);
    }

    #[test]
    fn display() {
        let t = Type::Pointer {
            pointee: Box::new(Type::INT),
            space: AddrSpace::Global,
            is_const: true,
            is_volatile: false,
            is_restrict: false,
        };
        assert_eq!(t.to_string(), "global const int *");
        assert_eq!(Type::Vector(ScalarKind::Float, 4).to_string(), "float4");
        let a = Type::Array(Box::new(Type::Array(Box::new(Type::INT), 3)), 2);
        assert_eq!(a.to_string(), "int[2][3]");
        let p = Type::ptr(Type::Atomic(AtomicKind::ULong), AddrSpace::Local);
        assert_eq!(p.to_string(), "local atomic_ulong *");
    }

    #[test]
    fn atomic_layout() {
        // OpenCL C 6.13.11.6: the size of the corresponding regular type; a flag is 32 bits
        let st = StructTable::default();
        for (a, size) in [
            (AtomicKind::Int, 4),
            (AtomicKind::UInt, 4),
            (AtomicKind::Float, 4),
            (AtomicKind::Flag, 4),
            (AtomicKind::Long, 8),
            (AtomicKind::ULong, 8),
            (AtomicKind::Double, 8),
        ] {
            assert_eq!(st.size_of(&Type::Atomic(a)), size, "{a:?}");
            assert_eq!(st.align_of(&Type::Atomic(a)), size, "{a:?}");
            assert_eq!(a.is_64bit(), size == 8);
            if a != AtomicKind::Flag {
                assert_eq!(AtomicKind::of_value(a.value_kind()), Some(a));
            }
        }
        assert!(AtomicKind::Long.is_integer() && !AtomicKind::Float.is_integer());
        assert!(!AtomicKind::Flag.is_integer());
    }
}
