//! The integer semantics (`hls_ir::integer`) at its edges, and how each caller treats what
//! OpenCL C leaves undefined: constant folding leaves division by zero (and `mul_hi`) alone,
//! the IR interpreter takes 0 for a division by zero.

mod common;

use hls_ir::integer::{
    binary, compare, convert, decided_compare, decided_min_max, is_division, mask, sext,
    shift_amount, unary,
};
use hls_ir::passes::const_fold::{eval_binary, eval_cmp};
use hls_ir::{BinOp, CmpOp, ConvOp, Ty, UnOp};

#[test]
fn masks_and_sign_extension() {
    assert_eq!(mask(0), 0);
    assert_eq!(mask(1), 1);
    assert_eq!(mask(32), 0xffff_ffff);
    assert_eq!(mask(64), u64::MAX);
    assert_eq!(mask(128), u64::MAX);
    assert_eq!(sext(1, 1), -1);
    assert_eq!(sext(0x80, 8), -128);
    assert_eq!(sext(0x7f, 8), 127);
    assert_eq!(sext(u64::MAX, 64), -1);
    assert_eq!(sext(0x8000_0000, 32), i32::MIN as i64);
}

#[test]
fn shift_counts_are_taken_modulo_the_width() {
    assert_eq!(shift_amount(33, 32), 1);
    assert_eq!(shift_amount(32, 32), 0);
    assert_eq!(shift_amount(9, 8), 1);
    assert_eq!(binary(BinOp::Shl, 32, 1, 33), Some(2));
    assert_eq!(binary(BinOp::Shl, 32, 1, 32), Some(1));
    assert_eq!(binary(BinOp::ShrU, 8, 0x80, 15), Some(0x01));
    // Arithmetic shift right keeps the sign at the width, not at 64 bits.
    assert_eq!(binary(BinOp::ShrS, 8, 0x80, 7), Some(0xff));
    assert_eq!(binary(BinOp::ShrS, 8, 0x80, 8), Some(0x80));
    // Bits shifted out of the width are dropped.
    assert_eq!(binary(BinOp::Shl, 8, 0xff, 4), Some(0xf0));
}

#[test]
fn division_by_zero_has_the_hardware_value() {
    // docs/hardware-interface.md, "Integer division": x / 0 = 0, x % 0 = x, at every width.
    for op in [BinOp::DivU, BinOp::DivS, BinOp::RemU, BinOp::RemS] {
        assert!(is_division(op));
        let want = |x: u64| {
            if matches!(op, BinOp::DivU | BinOp::DivS) {
                0
            } else {
                x
            }
        };
        for (bits, x) in [
            (32, 7),
            (32, 0xffff_fff9),
            (8, 0x80),
            (64, u64::MAX),
            (5, 0x1f),
        ] {
            assert_eq!(
                binary(op, bits, x, 0),
                Some(want(x)),
                "{op:?} {bits} {x:#x}"
            );
        }
        // Constant folding folds it to the same value.
        assert_eq!(eval_binary(op, Ty::I32, 7, 0), Some(want(7)), "{op:?}");
    }
    assert!(!is_division(BinOp::Mul));
}

#[test]
fn signed_division_wraps_and_truncates_toward_zero() {
    let min = 0x8000_0000;
    let minus_one = 0xffff_ffff;
    assert_eq!(binary(BinOp::DivS, 32, min, minus_one), Some(min));
    assert_eq!(binary(BinOp::RemS, 32, min, minus_one), Some(0));
    // -7 / 2 = -3, -7 % 2 = -1.
    assert_eq!(
        binary(BinOp::DivS, 32, (-7i32) as u32 as u64, 2),
        Some((-3i32) as u32 as u64)
    );
    assert_eq!(
        binary(BinOp::RemS, 32, (-7i32) as u32 as u64, 2),
        Some(minus_one)
    );
    assert_eq!(binary(BinOp::DivU, 32, minus_one, 2), Some(0x7fff_ffff));
}

#[test]
fn arithmetic_wraps_at_the_width() {
    assert_eq!(binary(BinOp::Add, 8, 0xff, 1), Some(0));
    assert_eq!(binary(BinOp::Sub, 8, 0, 1), Some(0xff));
    assert_eq!(binary(BinOp::Mul, 8, 0x10, 0x10), Some(0));
    assert_eq!(binary(BinOp::Add, 64, u64::MAX, 1), Some(0));
    assert_eq!(binary(BinOp::MinS, 8, 0x80, 0x7f), Some(0x80));
    assert_eq!(binary(BinOp::MinU, 8, 0x80, 0x7f), Some(0x7f));
    assert_eq!(binary(BinOp::MaxS, 8, 0x80, 0x7f), Some(0x7f));
    assert_eq!(binary(BinOp::MaxU, 8, 0x80, 0x7f), Some(0x80));
    // Floating-point ops are not integer ops.
    assert_eq!(binary(BinOp::FAdd, 32, 0, 0), None);
}

#[test]
fn mul_hi_is_computed_but_not_folded() {
    assert_eq!(
        binary(BinOp::MulHiU, 32, 0xffff_ffff, 0xffff_ffff),
        Some(0xffff_fffe)
    );
    // -1 * -1 = 1: high half 0.
    assert_eq!(binary(BinOp::MulHiS, 32, 0xffff_ffff, 0xffff_ffff), Some(0));
    // -2^31 * 2 = -2^32: high half -1.
    assert_eq!(binary(BinOp::MulHiS, 32, 0x8000_0000, 2), Some(0xffff_ffff));
    assert_eq!(eval_binary(BinOp::MulHiU, Ty::I32, 3, 3), None);
    assert_eq!(eval_binary(BinOp::MulHiS, Ty::I32, 3, 3), None);
}

#[test]
fn unary_operations() {
    assert_eq!(unary(UnOp::Not, 8, 0x0f), Some(0xf0));
    assert_eq!(unary(UnOp::Neg, 8, 1), Some(0xff));
    assert_eq!(unary(UnOp::AbsS, 8, 0xff), Some(1));
    // |INT_MIN| wraps to INT_MIN.
    assert_eq!(unary(UnOp::AbsS, 8, 0x80), Some(0x80));
    assert_eq!(unary(UnOp::FNeg, 32, 0), None);
}

#[test]
fn comparisons_read_operands_at_the_width() {
    assert_eq!(compare(CmpOp::LtS, 8, 0x80, 0x7f), Some(true));
    assert_eq!(compare(CmpOp::LtU, 8, 0x80, 0x7f), Some(false));
    assert_eq!(compare(CmpOp::GeS, 1, 1, 0), Some(false));
    // Bits above the width do not take part.
    assert_eq!(compare(CmpOp::Eq, 8, 0x1ff, 0xff), Some(true));
    assert_eq!(compare(CmpOp::FEq, 32, 0, 0), None);
    assert_eq!(eval_cmp(CmpOp::GtS, 32, 0xffff_ffff, 0), Some(false));
}

#[test]
fn conversions() {
    assert_eq!(convert(ConvOp::SExt, 8, 32, 0x80), Some(0xffff_ff80));
    assert_eq!(convert(ConvOp::ZExt, 8, 32, 0x80), Some(0x80));
    assert_eq!(convert(ConvOp::Trunc, 32, 8, 0x1234), Some(0x34));
    assert_eq!(convert(ConvOp::SExt, 1, 8, 1), Some(0xff));
    assert_eq!(convert(ConvOp::Bitcast, 32, 32, 0x1234), Some(0x1234));
    assert_eq!(convert(ConvOp::SIToF, 32, 32, 1), None);
}

/// The interpreter's value for a division by zero is the hardware's: `x / 0 = 0`, `x % 0 = x`
/// (undefined in OpenCL C; lowering warns about a constant zero divisor).
#[test]
fn the_interpreter_divides_by_zero_like_the_hardware() {
    let k = common::lower(
        "kernel void k(global int *o, uint d) { o[0] = 7 / d; o[1] = 7 % d; o[2] = -5 % (int)d; }",
    );
    let launch = common::launch_of(vec![0x1000, 0], vec![(0x1000, vec![0xaa; 12])], 1);
    let out = hls_ir::interp::run(&k, &launch).unwrap();
    assert_eq!(out[0].1, [0, 0, 0, 0, 7, 0, 0, 0, 0xfb, 0xff, 0xff, 0xff]);
}

/// A comparison (or min/max) is decided by one constant exactly when it has one value over
/// the whole range of the other operand; checked against every 4-bit value.
#[test]
fn one_constant_decides_exactly_the_constant_compares() {
    use CmpOp::*;
    for cmp in [LtS, LeS, GtS, GeS, LtU, LeU, GtU, GeU] {
        for c in 0..16u64 {
            let left: Vec<bool> = (0..16).map(|v| compare(cmp, 4, c, v).unwrap()).collect();
            let right: Vec<bool> = (0..16).map(|v| compare(cmp, 4, v, c).unwrap()).collect();
            let one = |r: &[bool]| r.iter().all(|&b| b == r[0]).then_some(r[0]);
            assert_eq!(
                decided_compare(cmp, 4, Some(c), None),
                one(&left),
                "{cmp:?} {c} _"
            );
            assert_eq!(
                decided_compare(cmp, 4, None, Some(c)),
                one(&right),
                "{cmp:?} _ {c}"
            );
        }
    }
    assert_eq!(decided_compare(GeU, 32, None, Some(0)), Some(true));
    assert_eq!(
        decided_compare(LtS, 32, None, Some(0x8000_0000)),
        Some(false)
    );
    assert_eq!(decided_compare(Eq, 32, None, Some(0)), None);
    for op in [BinOp::MinS, BinOp::MaxS, BinOp::MinU, BinOp::MaxU] {
        for c in 0..16u64 {
            if let Some(i) = decided_min_max(op, 4, Some(c), None) {
                assert!((0..16).all(|v| binary(op, 4, c, v) == Some([c, v][i])));
            }
            if let Some(i) = decided_min_max(op, 4, None, Some(c)) {
                assert!((0..16).all(|v| binary(op, 4, v, c) == Some([v, c][i])));
            }
        }
    }
    assert_eq!(decided_min_max(BinOp::MaxU, 16, Some(0), None), Some(1));
    assert_eq!(decided_min_max(BinOp::MinU, 16, Some(0), None), Some(0));
    assert_eq!(
        decided_min_max(BinOp::MaxS, 32, None, Some(0x8000_0000)),
        Some(0)
    );
    assert_eq!(decided_min_max(BinOp::MinU, 16, None, Some(7)), None);
}

/// An operation on the same value twice folds: `x ^ x`, `x - x` to 0, `x & x`, `x | x`,
/// `max(x, x)` to `x`, `x < x` and the other integer compares to their value on equal
/// operands. Verilator folds `x ^ x` itself and then warns that a compare with it is
/// constant; the kernel fuzzer found it (`tests/fuzz-regressions/seed20261126_case1711.cl`).
#[test]
fn the_same_operand_twice_folds() {
    let mut k = common::lower(
        "kernel void k(global const uint *in, global uint *out) {
            uint x = in[get_global_id(0)];
            out[0] = x ^ x;
            out[1] = x - x;
            out[2] = x & x;
            out[3] = x | x;
            out[4] = max(x, x);
            out[5] = (x < x) + (x <= x) * 2 + (x == x) * 4 + (x != x) * 8;
            out[6] = max(x ^ x, in[1]);
        }",
    );
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    for o in k.op_ids() {
        let ops = k.operands(o);
        let same = ops.len() == 2 && ops[0] == ops[1];
        let kind = &k.op(o).kind;
        assert!(
            !(same && matches!(kind, hls_ir::OpKind::Binary(_) | hls_ir::OpKind::Cmp(_))),
            "{o}: {kind} of one value twice is left"
        );
    }
    // The stored values: 0, 0, x, x, x, 2 + 4 = 6, in[1].
    let consts: Vec<u64> = k
        .op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, hls_ir::OpKind::Store { .. }))
        .filter_map(|o| k.int_const(k.operands(o)[1]))
        .collect();
    assert_eq!(consts, vec![0, 0, 6]);
}
