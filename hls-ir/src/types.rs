//! IR types: signless bit vectors (signedness lives in the operation, as in LLVM),
//! IEEE floats, and tokens for values that only order side effects.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Ty {
    /// A bit vector of 1..=64 bits. `i1` is a predicate.
    Int(u16),
    /// IEEE-754 binary16/32/64.
    Float(u16),
    /// No data: the result of a store, barrier or commit, used only for ordering.
    Token,
}

impl Ty {
    pub const BOOL: Ty = Ty::Int(1);
    pub const I32: Ty = Ty::Int(32);
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
