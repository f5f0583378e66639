//! The lattice: [`Facts`] about one integer value (known bits, unsigned and signed ranges),
//! their meet and join, and the normalisation that lets the three refine each other.

use crate::integer::{mask, sext};

/// What is known about one integer value of `bits` (1 to 64) bits.
///
/// Invariants: `zero & one == 0`, both within the width; `ulo <= uhi` within the width;
/// `slo <= shi` within the signed range of the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub bits: u32,
    /// Bits known to be 0.
    pub zero: u64,
    /// Bits known to be 1.
    pub one: u64,
    /// Unsigned range (inclusive).
    pub ulo: u64,
    pub uhi: u64,
    /// Signed range (inclusive) of the value read as a `bits`-bit two's complement number.
    pub slo: i64,
    pub shi: i64,
}

pub(super) fn smin(bits: u32) -> i64 {
    -(1i128 << (bits - 1)) as i64
}

pub(super) fn smax(bits: u32) -> i64 {
    ((1i128 << (bits - 1)) - 1) as i64
}

/// Bits needed to hold unsigned `v` (0 for 0).
pub(super) fn ubits(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Bits needed to hold signed `v` in two's complement (1 for 0 and -1).
fn sbits(v: i64) -> u32 {
    if v < 0 {
        65 - (!v).leading_zeros()
    } else {
        65 - v.leading_zeros()
    }
}

impl Facts {
    /// Nothing known.
    pub fn top(bits: u32) -> Facts {
        Facts {
            bits,
            zero: 0,
            one: 0,
            ulo: 0,
            uhi: mask(bits),
            slo: smin(bits),
            shi: smax(bits),
        }
    }

    pub fn constant(v: u64, bits: u32) -> Facts {
        let v = v & mask(bits);
        let s = sext(v, bits);
        Facts {
            bits,
            zero: !v & mask(bits),
            one: v,
            ulo: v,
            uhi: v,
            slo: s,
            shi: s,
        }
    }

    /// The value, when the facts leave only one.
    pub fn value(&self) -> Option<u64> {
        (self.ulo == self.uhi).then_some(self.ulo)
    }

    /// The fewest low bits the value is the zero extension of (0 for a value that is always 0).
    pub fn unsigned_bits(&self) -> u32 {
        ubits(self.uhi)
    }

    /// The fewest low bits the value is the sign extension of (at least 1).
    pub fn signed_bits(&self) -> u32 {
        sbits(self.slo).max(sbits(self.shi))
    }

    /// Facts from an unsigned range computed exactly (i128), or nothing if it leaves the width.
    pub(super) fn urange(lo: i128, hi: i128, bits: u32) -> Facts {
        let mut f = Facts::top(bits);
        if lo >= 0 && hi <= mask(bits) as i128 && lo <= hi {
            f.ulo = lo as u64;
            f.uhi = hi as u64;
        }
        f
    }

    /// Facts from a signed range computed exactly (i128), or nothing if it leaves the width.
    pub(super) fn srange(lo: i128, hi: i128, bits: u32) -> Facts {
        let mut f = Facts::top(bits);
        if lo >= smin(bits) as i128 && hi <= smax(bits) as i128 && lo <= hi {
            f.slo = lo as i64;
            f.shi = hi as i64;
        }
        f
    }

    /// Both `self` and `o` hold (same width); `None` when they contradict each other.
    pub fn meet(self, o: Facts) -> Option<Facts> {
        debug_assert_eq!(self.bits, o.bits);
        Facts {
            bits: self.bits,
            zero: self.zero | o.zero,
            one: self.one | o.one,
            ulo: self.ulo.max(o.ulo),
            uhi: self.uhi.min(o.uhi),
            slo: self.slo.max(o.slo),
            shi: self.shi.min(o.shi),
        }
        .normalize()
    }

    /// `self` or `o` holds (same width).
    pub fn join(self, o: Facts) -> Facts {
        debug_assert_eq!(self.bits, o.bits);
        let f = Facts {
            bits: self.bits,
            zero: self.zero & o.zero,
            one: self.one & o.one,
            ulo: self.ulo.min(o.ulo),
            uhi: self.uhi.max(o.uhi),
            slo: self.slo.min(o.slo),
            shi: self.shi.max(o.shi),
        };
        f.normalize().unwrap_or(f)
    }

    /// Lets known bits, the unsigned range and the signed range refine each other; `None` when
    /// no value satisfies all three.
    pub fn normalize(mut self) -> Option<Facts> {
        let w = self.bits;
        let m = mask(w);
        let sign = 1u64 << (w - 1);
        for _ in 0..3 {
            let before = self;
            if self.zero & self.one != 0 {
                return None;
            }
            // Known bits bound both ranges.
            let umax_k = !self.zero & m;
            self.ulo = self.ulo.max(self.one);
            self.uhi = self.uhi.min(umax_k);
            let smin_k = if self.zero & sign != 0 {
                self.one as i64
            } else {
                sext(self.one | sign, w)
            };
            let smax_k = if self.one & sign != 0 {
                sext(umax_k, w)
            } else {
                sext(umax_k & !sign, w)
            };
            self.slo = self.slo.max(smin_k);
            self.shi = self.shi.min(smax_k);
            if self.ulo > self.uhi || self.slo > self.shi {
                return None;
            }
            // The two ranges agree where the sign is known.
            if self.uhi <= smax(w) as u64 {
                self.slo = self.slo.max(self.ulo as i64);
                self.shi = self.shi.min(self.uhi as i64);
            } else if self.ulo > smax(w) as u64 {
                self.slo = self.slo.max(sext(self.ulo, w));
                self.shi = self.shi.min(sext(self.uhi, w));
            }
            if self.slo >= 0 {
                self.ulo = self.ulo.max(self.slo as u64);
                self.uhi = self.uhi.min(self.shi as u64);
            } else if self.shi < 0 {
                self.ulo = self.ulo.max(self.slo as u64 & m);
                self.uhi = self.uhi.min(self.shi as u64 & m);
            }
            if self.ulo > self.uhi || self.slo > self.shi {
                return None;
            }
            // The bits above the highest one where the range's ends differ are known.
            let d = self.ulo ^ self.uhi;
            let fixed = if d == 0 { m } else { m & !mask(ubits(d)) };
            self.one |= self.ulo & fixed;
            self.zero |= !self.ulo & fixed;
            if self == before {
                break;
            }
        }
        (self.zero & self.one == 0 && self.ulo <= self.uhi && self.slo <= self.shi).then_some(self)
    }
}
