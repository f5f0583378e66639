//! Lane arithmetic and conversions of `emu::value`: integer wrap-around and shifts,
//! saturating and rounding conversions, float rounding, 64-bit edges, `half`.

use emu::value::*;
use frontend::ast::{BinOp, Rounding, ScalarKind};
use ScalarKind::*;

#[test]
fn integer_wrap_and_shifts() {
    assert_eq!(
        int_binop(BinOp::Add, Int, 0x7fff_ffff, 1).unwrap(),
        0x8000_0000
    );
    assert_eq!(int_binop(BinOp::Shl, Int, 1, 33).unwrap(), 2);
    assert_eq!(int_binop(BinOp::Shr, Char, 0x80, 9).unwrap(), 0xc0);
    assert_eq!(int_binop(BinOp::Shr, UChar, 0x80, 9).unwrap(), 0x40);
    assert_eq!(
        int_binop(BinOp::Div, Int, 0x8000_0000, 0xffff_ffff).unwrap(),
        0x8000_0000
    );
    assert_eq!(
        int_binop(BinOp::Rem, Int, (-7i32) as u32 as u64, 2).unwrap(),
        0xffff_ffff
    );
    assert_eq!(
        int_binop(BinOp::Div, UInt, 1, 0),
        Err(ArithError::DivByZero)
    );
    assert_eq!(int_binop(BinOp::Lt, Int, 0xffff_ffff, 0).unwrap(), 1);
    assert_eq!(int_binop(BinOp::Lt, UInt, 0xffff_ffff, 0).unwrap(), 0);
}

#[test]
fn saturating_and_rounding_conversions() {
    let f = |x: f32| x.to_bits() as u64;
    assert_eq!(
        convert_lane(Float, f(300.7), UChar, true, Rounding::Default),
        255
    );
    assert_eq!(
        convert_lane(Float, f(-3.5), UChar, true, Rounding::Default),
        0
    );
    assert_eq!(
        convert_lane(Float, f(f32::NAN), Int, true, Rounding::Default),
        0
    );
    assert_eq!(convert_lane(Float, f(2.5), Int, false, Rounding::Rte), 2);
    assert_eq!(
        convert_lane(Float, f(-2.5), Int, false, Rounding::Rtn),
        (-3i64) as u64 & 0xffff_ffff
    );
    assert_eq!(convert_lane(Float, f(2.1), Int, false, Rounding::Rtp), 3);
    assert_eq!(convert_lane(Int, 1000, Char, true, Rounding::Default), 127);
    assert_eq!(
        convert_lane(Int, 1000, Char, false, Rounding::Default),
        0xe8
    );
    // 16777217 is not a float: rte gives 16777216, rtp 16777218
    assert_eq!(
        f32::from_bits(convert_lane(Int, 16_777_217, Float, false, Rounding::Rtp) as u32),
        16_777_218.0
    );
    assert_eq!(
        f32::from_bits(convert_lane(Int, 16_777_217, Float, false, Rounding::Rte) as u32),
        16_777_216.0
    );
    assert_eq!(
        f32::from_bits(
            convert_lane(Int, (-16_777_217i64) as u64, Float, false, Rounding::Rtz) as u32
        ),
        -16_777_216.0
    );
    assert_eq!(
        convert_lane(ULong, u64::MAX, Long, true, Rounding::Default),
        i64::MAX as u64
    );
}

#[test]
fn float_ops_round_in_single_precision() {
    let a = 16_777_216f32.to_bits() as u64;
    let one = 1f32.to_bits() as u64;
    assert_eq!(float_binop(BinOp::Add, Float, a, one), a);
    let nan = f32::NAN.to_bits() as u64;
    assert_eq!(float_binop(BinOp::Ne, Float, nan, nan), 1);
    assert_eq!(float_binop(BinOp::Eq, Float, nan, nan), 0);
}

#[test]
fn directed_rounding_between_float_types() {
    let d = |x: f64| x.to_bits();
    let third = 1.0f64 / 3.0;
    let (lo, hi) = (f32::from_bits(0x3eaa_aaaa), f32::from_bits(0x3eaa_aaab));
    let to_f = |r| f32::from_bits(convert_lane(Double, d(third), Float, false, r) as u32);
    assert_eq!(to_f(Rounding::Rtn), lo);
    assert_eq!(to_f(Rounding::Rtz), lo);
    assert_eq!(to_f(Rounding::Rtp), hi);
    assert_eq!(to_f(Rounding::Rte), hi);
    let neg = |r| f32::from_bits(convert_lane(Double, d(-third), Float, false, r) as u32);
    assert_eq!(neg(Rounding::Rtz), -lo);
    assert_eq!(neg(Rounding::Rtn), -hi);
    // overflow: rtz and rtn stop at the largest finite float, rte goes to infinity
    let big = |r| f32::from_bits(convert_lane(Double, d(1e39), Float, false, r) as u32);
    assert_eq!(big(Rounding::Rtz), f32::MAX);
    assert_eq!(big(Rounding::Rtn), f32::MAX);
    assert_eq!(big(Rounding::Rte), f32::INFINITY);
    // exact values are never moved
    assert_eq!(
        convert_lane(Int, 8, Float, false, Rounding::Rtp),
        8f32.to_bits() as u64
    );
    // double to half
    assert_eq!(
        convert_lane(Double, d(1.0 / 3.0), Half, false, Rounding::Rtp),
        0x3556
    );
    assert_eq!(
        convert_lane(Double, d(1.0 / 3.0), Half, false, Rounding::Rtz),
        0x3555
    );
}

#[test]
fn sixty_four_bit_edges() {
    let min = i64::MIN as u64;
    assert_eq!(int_binop(BinOp::Div, Long, min, u64::MAX).unwrap(), min);
    assert_eq!(int_binop(BinOp::Rem, Long, min, u64::MAX).unwrap(), 0);
    assert_eq!(int_binop(BinOp::Shl, ULong, 1, 65).unwrap(), 2);
    assert_eq!(int_binop(BinOp::Shr, Long, min, 127).unwrap(), u64::MAX);
    assert_eq!(int_binop(BinOp::Mul, ULong, u64::MAX, u64::MAX).unwrap(), 1);
    assert_eq!(convert_lane(Long, min, UInt, true, Rounding::Default), 0);
    assert_eq!(
        convert_lane(ULong, u64::MAX, Int, true, Rounding::Default),
        0x7fff_ffff
    );
    assert_eq!(
        convert_lane(
            Float,
            (-1e20f32).to_bits() as u64,
            Long,
            true,
            Rounding::Default
        ),
        min
    );
    assert_eq!(
        convert_lane(Bool, 1, Float, false, Rounding::Default),
        1f32.to_bits() as u64
    );
    assert_eq!(
        convert_lane(
            Float,
            (-0.0f32).to_bits() as u64,
            Bool,
            false,
            Rounding::Default
        ),
        0
    );
}

#[test]
fn half_round_trip() {
    for x in [0.0, 1.0, -2.5, 65504.0, 6.1035156e-5, 5.9604645e-8, 0.1] {
        let h = f64_to_f16(x);
        assert!((f16_to_f64(h) - x).abs() <= x.abs() / 1024.0 + 1e-8, "{x}");
    }
    assert_eq!(f64_to_f16(1e6), 0x7c00);
    assert_eq!(f64_to_f16(1.0), 0x3c00);
}
