//! `clz`, `ctz`, `popcount` and `rotate` as logarithmic trees of the IR's wiring, compares,
//! selects and adds (an `n`-bit lane costs `O(log n)` ops, never `O(n)`):
//! - `clz`/`ctz` search by halves: is the upper (lower) half zero? That bit of the count is
//!   the answer, and the search goes on in the half that holds the first one. The halves
//!   shrink, so the selects add up to `n` bits, the compares to `n` bits, and the count is the
//!   concatenation of the answers (`n` when the lane is zero).
//! - `popcount` sums bit fields: pairs, nibbles, bytes at full width (the masks keep the
//!   fields from carrying into each other), then the upper and lower halves of the byte sums
//!   until one byte is left.
//! - `rotate` by a variable amount is `log2 n` selects, stage `k` rotating by `2^k` (wiring)
//!   when bit `k` of the amount is set: one barrel rotator. A constant amount folds to
//!   wiring.

use crate::ids::OpId;
use crate::lower::Lower;
use crate::ops::{BinOp, CmpOp};
use crate::types::Ty;
use frontend::span::Span;

/// `pattern` (a byte) repeated over `n` bits.
fn repeat_byte(pattern: u8, n: u32) -> u64 {
    let v = u64::from_le_bytes([pattern; 8]);
    if n >= 64 {
        v
    } else {
        v & ((1u64 << n) - 1)
    }
}

impl Lower<'_> {
    /// `clz`: leading zero bits of `x` (its width for 0).
    pub(super) fn leading_zeros(&mut self, x: OpId, span: Span) -> OpId {
        self.zero_search(x, true, span)
    }

    /// `ctz`: trailing zero bits of `x` (its width for 0).
    pub(super) fn trailing_zeros(&mut self, x: OpId, span: Span) -> OpId {
        self.zero_search(x, false, span)
    }

    /// The search by halves of `clz` (`leading`) or `ctz`.
    fn zero_search(&mut self, x: OpId, leading: bool, span: Span) -> OpId {
        let t = self.k.op(x).ty;
        let n = t.bits();
        if n == 1 {
            // One bit (no OpenCL type; kept total): 1 for 0, else 0.
            let one = self.konst(1, t, span);
            return self.bin(BinOp::Xor, x, one, span);
        }
        let mut v = x;
        let mut w = n;
        // Answers from the heaviest (weight n/2) down to weight 1.
        let mut answers = Vec::new();
        while w > 1 {
            let h = w / 2;
            let ht = Ty::Int(h as u16);
            let (lo, hi) = (
                self.extract(v, 0, ht, span),
                self.extract(v, w - h, ht, span),
            );
            // `w` is a power of two: the halves cover `v`.
            let (first, rest) = if leading { (hi, lo) } else { (lo, hi) };
            let zero = self.konst(0, ht, span);
            let z = self.cmp(CmpOp::Eq, first, zero, span);
            v = self.select(z, rest, first, span);
            answers.push(z);
            w = h;
        }
        // `v` is the first one bit, or 0 when `x` is 0.
        answers.reverse();
        let count = self.concat(answers, span);
        let count = self.resize(count, t, false, span);
        let all = self.konst(u64::from(n), t, span);
        self.select(v, count, all, span)
    }

    /// `popcount`: the number of one bits of `x`.
    pub(super) fn popcount(&mut self, x: OpId, span: Span) -> OpId {
        let t = self.k.op(x).ty;
        let n = t.bits();
        let k = |l: &mut Self, v: u64| l.konst(v, t, span);
        let (m1, m2, m4) = (
            k(self, repeat_byte(0x55, n)),
            k(self, repeat_byte(0x33, n)),
            k(self, repeat_byte(0x0f, n)),
        );
        let (s1, s2, s4) = (k(self, 1), k(self, 2), k(self, 4));
        // Pairs: x - ((x >> 1) & 0x55..) counts each 2-bit field.
        let a = self.bin(BinOp::ShrU, x, s1, span);
        let a = self.bin(BinOp::And, a, m1, span);
        let x2 = self.bin(BinOp::Sub, x, a, span);
        // Nibbles (0..4).
        let lo = self.bin(BinOp::And, x2, m2, span);
        let hi = self.bin(BinOp::ShrU, x2, s2, span);
        let hi = self.bin(BinOp::And, hi, m2, span);
        let x4 = self.bin(BinOp::Add, lo, hi, span);
        // Bytes (0..8, the upper nibble cleared).
        let sh = self.bin(BinOp::ShrU, x4, s4, span);
        let x8 = self.bin(BinOp::Add, x4, sh, span);
        let mut v = self.bin(BinOp::And, x8, m4, span);
        // Halves of the byte sums: no byte exceeds 64, so none carries into the next.
        let mut w = n;
        while w > 8 {
            let ht = Ty::Int((w / 2) as u16);
            let (a, b) = (
                self.extract(v, 0, ht, span),
                self.extract(v, w / 2, ht, span),
            );
            v = self.bin(BinOp::Add, a, b, span);
            w /= 2;
        }
        self.resize(v, t, false, span)
    }

    /// `rotate(x, s)`: `x` rotated left by `s` modulo its width.
    pub(super) fn rotate(&mut self, x: OpId, s: OpId, span: Span) -> OpId {
        let t = self.k.op(x).ty;
        let n = t.bits();
        let mut v = x;
        let mut k = 0;
        while (1u32 << k) < n {
            let c = 1u32 << k;
            // v rotated left by c: its top c bits come round to the bottom.
            let top = self.extract(v, n - c, Ty::Int(c as u16), span);
            let rest = self.extract(v, 0, Ty::Int((n - c) as u16), span);
            let r = self.concat(vec![top, rest], span);
            let bit = self.extract(s, k, Ty::BOOL, span);
            v = self.select(bit, r, v, span);
            k += 1;
        }
        v
    }
}
