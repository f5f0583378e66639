//! IR types: signless bit vectors (signedness lives in the operation, as in LLVM),
//! IEEE floats, and tokens for values that only order side effects.
//!
//! Vectors, structs and other aggregates have no type of their own: in memory, in kernel
//! arguments (and pipe packets) they are one wide bit vector holding their memory image (the
//! OpenCL C layout, little-endian: lane 0 / the first byte in the lowest bits), and
//! lowering splits them into per-lane and per-field values with `Extract` and builds images
//! with `Concat`. Arithmetic is at most 64 bits wide; only bit plumbing (see
//! [`Ty::MAX_ARITH_BITS`]) handles wider values.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Ty {
    /// A bit vector. `i1` is a predicate. Arithmetic, comparisons and conversions take at
    /// most 64 bits; wider values (aggregate images) only flow through constants (zero-extended
    /// 64-bit patterns), arguments, loads and stores, `Extract`/`Concat`, `Select`, bitcasts
    /// and loop-carried values.
    Int(u16),
    /// IEEE-754 binary16/32/64.
    Float(u16),
    /// No data: the result of a store, barrier or commit, used only for ordering.
    Token,
}

impl Ty {
    pub const BOOL: Ty = Ty::Int(1);
    pub const I32: Ty = Ty::Int(32);
    /// Widest value of arithmetic, comparisons and width conversions.
    pub const MAX_ARITH_BITS: u32 = 64;
    /// Widest value of any kind (aggregate images of up to 8 KiB).
    pub const MAX_BITS: u32 = u16::MAX as u32;
    /// Width in bits of the value in hardware (0 for tokens).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Int(b) | Ty::Float(b) => b as u32,
            Ty::Token => 0,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::Float(_))
    }
    /// Wider than 64 bits: an aggregate image, only for bit plumbing.
    pub fn is_wide(self) -> bool {
        self.bits() > 64
    }
    /// Mask selecting the low `bits()` bits of a u64.
    pub fn mask(self) -> u64 {
        match self.bits() {
            0 => 0,
            64.. => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int(b) => write!(f, "i{b}"),
            Ty::Float(b) => write!(f, "f{b}"),
            Ty::Token => write!(f, "token"),
        }
    }
}
