//! `div-const`: division and remainder by a constant as multiply and shift, so they need no
//! divider (which is large: one stage and a subtractor per quotient bit). The recipes and
//! why they are exact are in [`magic`]: an unsigned division is a multiply by the rounded-up
//! reciprocal and a shift (Granlund–Montgomery), a signed one the same on the dividend's
//! magnitude with the sign put back, a power of two a shift (signed: with a rounding bias),
//! a divisor above half the range a compare; the remainder is `x - q d`. A quotient and a
//! remainder of the same operands share the quotient.
//!
//! The high half of a product of `b <= 32`-bit operands is one multiply of `2b` bits at most
//! (the RTL's 18-, 32- or 64-bit multiplier structures); of wider operands, four 32 × 32-bit
//! products summed by 32-bit columns (the upper bits as a bit select of their concatenation).
//! A division by zero becomes 0 and a remainder by zero the dividend (the IR's value).
//!
//! Requires: a verified kernel (after `narrow`: divisions at any width up to 64 bits).
//! Guarantees: a verified kernel without division or remainder by a constant, every value
//! the same as before.

pub mod magic;

use crate::ids::{LoopId, OpId};
use crate::kernel::{Kernel, Op};
use crate::ops::{BinOp, CmpOp, ConvOp, OpKind, UnOp};
use crate::types::Ty;
use magic::{Magic, Signed, Unsigned};
use std::collections::HashMap;

pub fn run(k: &mut Kernel) {
    // Quotients built so far, by (dividend, divisor pattern, signed, width).
    let mut quotients: HashMap<(OpId, u64, bool, u32), OpId> = HashMap::new();
    for o in k.op_ids() {
        let OpKind::Binary(b @ (BinOp::DivU | BinOp::DivS | BinOp::RemU | BinOp::RemS)) =
            k.op(o).kind
        else {
            continue;
        };
        let args = k.operands(o);
        let OpKind::Const(d) = k.op(args[1]).kind else {
            continue;
        };
        let x = args[0];
        let bits = k.op(o).ty.bits();
        let signed = matches!(b, BinOp::DivS | BinOp::RemS);
        let region = k.op(o).region;
        let mut e = Emit { k, region, like: o };
        let key = (x, d, signed, bits);
        let q = match quotients.get(&key) {
            Some(&q) => q,
            None => {
                let q = if signed {
                    e.signed(x, d, bits)
                } else {
                    e.unsigned(x, d, bits)
                };
                quotients.insert(key, q);
                q
            }
        };
        let value = if matches!(b, BinOp::RemU | BinOp::RemS) {
            e.remainder(x, q, d, bits, signed)
        } else {
            q
        };
        let name = e.k.op(o).name.clone();
        if value != x && e.k.op(value).name.is_none() {
            e.k.op_mut(value).name = name;
        }
        e.k.replace_uses(o, value);
        e.k.remove_op(o);
    }
}

/// Builds ops in the region of the division being replaced, with its span.
struct Emit<'k> {
    k: &'k mut Kernel,
    region: LoopId,
    like: OpId,
}

impl Emit<'_> {
    fn op(&mut self, kind: OpKind, bits: u32, operands: &[OpId]) -> OpId {
        let span = self.k.op(self.like).span;
        self.k.add_op(
            Op {
                kind,
                ty: Ty::Int(bits as u16),
                region: self.region,
                span,
                name: None,
            },
            operands,
        )
    }

    fn konst(&mut self, v: u64, bits: u32) -> OpId {
        self.op(OpKind::Const(v & crate::integer::mask(bits)), bits, &[])
    }

    fn bin(&mut self, b: BinOp, x: OpId, y: OpId) -> OpId {
        let bits = self.bits(x);
        self.op(OpKind::Binary(b), bits, &[x, y])
    }

    fn bits(&self, x: OpId) -> u32 {
        self.k.op(x).ty.bits()
    }

    /// Bits `lo .. lo + n` of `x`.
    fn extract(&mut self, x: OpId, lo: u32, n: u32) -> OpId {
        if lo == 0 && n == self.bits(x) {
            return x;
        }
        self.op(OpKind::Extract { lo }, n, &[x])
    }

    /// `x` zero-extended or truncated to `bits`.
    fn resize(&mut self, x: OpId, bits: u32) -> OpId {
        let from = self.bits(x);
        if from < bits {
            self.op(OpKind::Convert(ConvOp::ZExt), bits, &[x])
        } else {
            self.extract(x, 0, bits)
        }
    }

    /// The quotient of an unsigned division of `x` by `d` at `bits` bits.
    fn unsigned(&mut self, x: OpId, d: u64, bits: u32) -> OpId {
        match Unsigned::new(d, bits) {
            Unsigned::Zero => self.konst(0, bits),
            Unsigned::Identity => x,
            Unsigned::Shift(k) => {
                let q = self.extract(x, k, bits - k);
                self.resize(q, bits)
            }
            Unsigned::AtMostOne(d) => self.at_least(x, d, bits),
            Unsigned::Magic(m) => {
                let q = self.magic(x, &m);
                self.resize(q, bits)
            }
        }
    }

    /// `x >= d` as a `bits`-bit 0 or 1.
    fn at_least(&mut self, x: OpId, d: u64, bits: u32) -> OpId {
        let c = self.konst(d, self.bits(x));
        let ge = self.op(OpKind::Cmp(CmpOp::GeU), 1, &[x, c]);
        self.resize(ge, bits)
    }

    /// `floor((x >> pre) m / 2^p)` (`magic`), at `m.xbits + 1` bits at most.
    fn magic(&mut self, x: OpId, m: &Magic) -> OpId {
        let b = m.xbits;
        let x1 = self.extract(x, m.pre, b);
        let s = m.p - b;
        if m.wide() {
            // ((x' - t) >> 1) + t is (x' + t) >> 1 without a carry out of b bits (t <= x').
            let t = self.mul_high(x1, (m.m - (1u128 << b)) as u64, b);
            let diff = self.bin(BinOp::Sub, x1, t);
            let half = if b == 1 {
                self.konst(0, 1)
            } else {
                let h = self.extract(diff, 1, b - 1);
                self.resize(h, b)
            };
            let sum = self.bin(BinOp::Add, half, t);
            self.extract(sum, s - 1, b - (s - 1))
        } else {
            let hi = self.mul_high(x1, m.m as u64, b);
            self.extract(hi, s, b - s)
        }
    }

    /// The full product of `x` and the constant `c` (0 for `c = 0`, `x` for 1), at the bits it
    /// needs (at most 64).
    fn mul_const(&mut self, x: OpId, c: u64) -> Option<OpId> {
        let xb = self.bits(x);
        let cb = 64 - c.leading_zeros();
        match c {
            0 => None,
            1 => Some(x),
            _ => {
                let p = mul_width(xb + cb);
                let xw = self.resize(x, p);
                let cw = self.konst(c, p);
                Some(self.bin(BinOp::Mul, xw, cw))
            }
        }
    }

    /// `floor(x c / 2^b)` for `b`-bit `x` and `c < 2^b`, as `b` bits.
    fn mul_high(&mut self, x: OpId, c: u64, b: u32) -> OpId {
        if b <= 32 {
            return match self.mul_const(x, c) {
                Some(p) if self.bits(p) > b => {
                    let n = self.bits(p) - b;
                    let hi = self.extract(p, b, n);
                    self.resize(hi, b)
                }
                // the product is below 2^b
                _ => self.konst(0, b),
            };
        }
        // 32-bit limbs: x = x1 2^32 + x0, c = c1 2^32 + c0; the product's 32-bit limbs L1 ..
        // L3 from column sums (each below 2^35), the result its bits b .. 2b.
        let x0 = self.extract(x, 0, 32);
        let x1 = self.extract(x, 32, b - 32);
        let (c0, c1) = (c & 0xffff_ffff, c >> 32);
        let p00 = self.mul_const(x0, c0);
        let p01 = self.mul_const(x0, c1);
        let p10 = self.mul_const(x1, c0);
        let p11 = self.mul_const(x1, c1);
        let lo = |e: &mut Self, p: Option<OpId>| p.map(|p| e.half(p, false));
        let hi = |e: &mut Self, p: Option<OpId>| p.map(|p| e.half(p, true));
        let terms1 = [hi(self, p00), lo(self, p01), lo(self, p10)];
        let (l1, carry1) = self.column(&terms1, None);
        let terms2 = [hi(self, p01), hi(self, p10), lo(self, p11)];
        let (l2, carry2) = self.column(&terms2, Some(carry1));
        let terms3 = [hi(self, p11)];
        let (l3, _) = self.column(&terms3, Some(carry2));
        let limbs = self.op(OpKind::Concat, 96, &[l1, l2, l3]);
        self.extract(limbs, b - 32, b)
    }

    /// The low (`high` false) or high 32 bits of a product, as 32 bits.
    fn half(&mut self, p: OpId, high: bool) -> OpId {
        let pb = self.bits(p);
        if high {
            if pb > 32 {
                let h = self.extract(p, 32, pb - 32);
                self.resize(h, 32)
            } else {
                self.konst(0, 32)
            }
        } else {
            self.resize(p, 32)
        }
    }

    /// The sum of a column of 32-bit terms and the carry into it: its low 32 bits and its
    /// carry out (3 bits), on 35 bits.
    fn column(&mut self, terms: &[Option<OpId>], carry: Option<OpId>) -> (OpId, OpId) {
        let mut acc: Option<OpId> = None;
        for &t in terms.iter().flatten().chain(carry.iter()) {
            let t = self.resize(t, 35);
            acc = Some(match acc {
                None => t,
                Some(a) => self.bin(BinOp::Add, a, t),
            });
        }
        let acc = acc.unwrap_or_else(|| self.konst(0, 35));
        (self.extract(acc, 0, 32), self.extract(acc, 32, 3))
    }

    /// The quotient of a signed division of `x` by the `bits`-bit pattern `d`.
    fn signed(&mut self, x: OpId, d: u64, bits: u32) -> OpId {
        let recipe = Signed::new(d, bits);
        match recipe {
            Signed::Zero => self.konst(0, bits),
            Signed::Identity => x,
            Signed::Negate => self.op(OpKind::Unary(UnOp::Neg), bits, &[x]),
            Signed::Pow2 { k, negative } => {
                // (x + ((x >>s (bits-1)) >>u (bits-k))) >>s k
                let t = self.biased(x, k, bits);
                let q = self.extract(t, k, bits - k);
                let q = self.op(OpKind::Convert(ConvOp::SExt), bits, &[q]);
                if negative {
                    self.op(OpKind::Unary(UnOp::Neg), bits, &[q])
                } else {
                    q
                }
            }
            Signed::AtMostOne { negative, .. } | Signed::Magic { negative, .. } => {
                let ax = self.op(OpKind::Unary(UnOp::AbsS), bits, &[x]);
                let uq = match recipe {
                    Signed::AtMostOne { mag, .. } => self.at_least(ax, mag, bits),
                    Signed::Magic { magic, .. } => {
                        let q = self.magic(ax, &magic);
                        self.resize(q, bits)
                    }
                    _ => unreachable!("matched above"),
                };
                let nq = self.op(OpKind::Unary(UnOp::Neg), bits, &[uq]);
                // negated when the dividend's sign differs from the divisor's
                let sign = self.extract(x, bits - 1, 1);
                let (when_neg_x, otherwise) = if negative { (uq, nq) } else { (nq, uq) };
                self.op(OpKind::Select, bits, &[sign, when_neg_x, otherwise])
            }
        }
    }

    /// `x + bias`, `bias = 2^k - 1` for negative `x` (rounding a shift toward zero).
    fn biased(&mut self, x: OpId, k: u32, bits: u32) -> OpId {
        let sign = self.extract(x, bits - 1, 1);
        let ones = if k == 1 {
            sign
        } else {
            self.op(OpKind::Convert(ConvOp::SExt), k, &[sign])
        };
        let bias = self.resize(ones, bits);
        self.bin(BinOp::Add, x, bias)
    }

    /// The remainder of `x` by `d` with quotient `q`: `x - q d` at `bits` bits; a mask for an
    /// unsigned power of two, `x - ((x + bias) & -2^k)` for a signed one.
    fn remainder(&mut self, x: OpId, q: OpId, d: u64, bits: u32, signed: bool) -> OpId {
        let d = d & crate::integer::mask(bits);
        let sd = crate::integer::sext(d, bits);
        let pow2 = |m: u64| m.is_power_of_two().then(|| m.trailing_zeros());
        match (signed, d) {
            (_, 0) => return x,
            (false, _) if pow2(d).is_some() => {
                let low = self.konst(d - 1, bits);
                return self.bin(BinOp::And, x, low);
            }
            (true, _) if sd.unsigned_abs() > 1 => {
                if let Some(k) = pow2(sd.unsigned_abs()) {
                    let t = self.biased(x, k, bits);
                    let high = self.konst(!crate::integer::mask(k), bits);
                    let multiple = self.bin(BinOp::And, t, high);
                    return self.bin(BinOp::Sub, x, multiple);
                }
            }
            _ => {}
        }
        let p = mul_width(bits);
        let qw = self.resize(q, p);
        let dc = self.konst(d, p);
        let qd = self.bin(BinOp::Mul, qw, dc);
        let qd = self.extract(qd, 0, bits);
        self.bin(BinOp::Sub, x, qd)
    }
}

/// The width of a multiply of a `p`-bit product: the structures the RTL builds (one DSP stage
/// up to 18 bits, else the 32- or 64-bit ones; `narrow` rounds likewise).
fn mul_width(p: u32) -> u32 {
    match p {
        0..=18 => p.max(1),
        19..=32 => 32,
        _ => 64,
    }
}
