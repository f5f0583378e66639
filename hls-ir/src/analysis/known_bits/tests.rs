//! Soundness of the transfer functions, checked exhaustively on small widths.

use super::compare::decide_cmp;
use super::transfer::{binary, convert, extract, unary};
use super::Facts;
use crate::integer::{self, mask, sext};
use crate::ops::{BinOp, CmpOp, ConvOp, UnOp};

fn exhaustive_check(bits: u32, pick: impl Fn(u64) -> bool, f: &Facts) {
    for v in 0..=mask(bits) {
        if pick(v) {
            assert!(v & f.zero == 0 && v & f.one == f.one, "{v} vs {f:?}");
            assert!(v >= f.ulo && v <= f.uhi, "{v} vs {f:?}");
            let s = sext(v, bits);
            assert!(s >= f.slo && s <= f.shi, "{v} vs {f:?}");
        }
    }
}

/// The transfer functions on 4-bit values are sound: for random facts (from random sets of
/// values), every result of every member (pair of members) lies in the result's facts;
/// decided comparisons hold for all members, refinements keep every member that passes.
#[test]
fn transfer_functions_are_sound_on_small_widths() {
    let w = 4;
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let ops = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::ShrU,
        BinOp::ShrS,
        BinOp::MinS,
        BinOp::MaxS,
        BinOp::MinU,
        BinOp::MaxU,
        BinOp::DivU,
        BinOp::RemU,
    ];
    for _ in 0..3000 {
        let set = |r: u64| -> Vec<u64> { (0..16).filter(|i| r >> i & 1 == 1).collect() };
        let (sx, sy) = (
            set(rnd() | 1 << (rnd() % 16)),
            set(rnd() | 1 << (rnd() % 16)),
        );
        let facts_of = |s: &[u64]| {
            s.iter()
                .map(|&v| Facts::constant(v, w))
                .reduce(|a, b| a.join(b))
                .unwrap()
        };
        let (fx, fy) = (facts_of(&sx), facts_of(&sy));
        for b in ops {
            let konst = (sy.len() == 1).then(|| sy[0]);
            let amount = konst.map(|c| (c % w as u64) as u32);
            let f = binary(b, w, &fx, &fy, amount, konst);
            let f = f.normalize().expect("not empty");
            for &x in &sx {
                for &y in &sy {
                    // Division by zero gives 0 in the IR (the interpreter's value).
                    let v = integer::binary(b, w, x, y).unwrap_or(0);
                    exhaustive_check(w, |u| u == v, &f);
                }
            }
        }
        for u in [UnOp::Not, UnOp::Neg, UnOp::AbsS] {
            let f = unary(u, w, &fx).normalize().expect("not empty");
            for &x in &sx {
                let v = match u {
                    UnOp::Not => !x,
                    UnOp::Neg => x.wrapping_neg(),
                    _ => sext(x, w).unsigned_abs(),
                } & mask(w);
                exhaustive_check(w, |u| u == v, &f);
            }
        }
        for (c, to) in [
            (ConvOp::Trunc, 2),
            (ConvOp::Trunc, 3),
            (ConvOp::ZExt, 6),
            (ConvOp::SExt, 6),
        ] {
            let f = convert(c, to, &fx).normalize().expect("not empty");
            for &x in &sx {
                let v = match c {
                    ConvOp::SExt => sext(x, w) as u64,
                    _ => x,
                } & mask(to);
                exhaustive_check(to, |u| u == v, &f);
            }
        }
        for (lo, to) in [(1, 2), (2, 2), (1, 3), (3, 1)] {
            let f = extract(&fx, lo, to).normalize().expect("not empty");
            for &x in &sx {
                exhaustive_check(to, |u| u == (x >> lo) & mask(to), &f);
            }
        }
        for c in [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::LtS,
            CmpOp::LeS,
            CmpOp::GtS,
            CmpOp::GeS,
            CmpOp::LtU,
            CmpOp::LeU,
            CmpOp::GtU,
            CmpOp::GeU,
        ] {
            if let Some(d) = decide_cmp(c, &fx, &fy) {
                for &x in &sx {
                    for &y in &sy {
                        let v = integer::compare(c, w, x, y).unwrap();
                        assert_eq!(v, d, "{c:?} {x} {y} {fx:?} {fy:?}");
                    }
                }
            }
            if let Some(r) = fx.refine_by_cmp(c, &fy) {
                for &x in &sx {
                    if sy.iter().any(|&y| integer::compare(c, w, x, y).unwrap()) {
                        exhaustive_check(w, |u| u == x, &r);
                    }
                }
            } else {
                for &x in &sx {
                    for &y in &sy {
                        assert!(!integer::compare(c, w, x, y).unwrap());
                    }
                }
            }
        }
    }
}
