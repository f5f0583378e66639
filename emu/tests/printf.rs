//! `printf` formatting of `emu::printf` against C's: integers, floats, bad formats.

use emu::printf::*;
use frontend::ast::ScalarKind;

fn one(fmt: &str, k: ScalarKind, bits: u64) -> String {
    match &parse(fmt).unwrap()[0] {
        Piece::Conv(s) => format_lane(s, k, bits),
        p => panic!("{p:?}"),
    }
}

#[test]
fn integers_like_c() {
    assert_eq!(one("%d", ScalarKind::Int, (-42i32) as u32 as u64), "-42");
    assert_eq!(one("%5d", ScalarKind::Int, 42), "   42");
    assert_eq!(one("%-5d|", ScalarKind::Int, 42), "42   ");
    assert_eq!(
        one("%05d", ScalarKind::Int, (-42i32) as u32 as u64),
        "-0042"
    );
    assert_eq!(one("%+d", ScalarKind::Int, 7), "+7");
    assert_eq!(one("%u", ScalarKind::UInt, 0xffff_ffff), "4294967295");
    assert_eq!(one("%#x", ScalarKind::UInt, 255), "0xff");
    assert_eq!(one("%08X", ScalarKind::UInt, 0xbeef), "0000BEEF");
    assert_eq!(one("%.3d", ScalarKind::Int, 5), "005");
    assert_eq!(one("%c", ScalarKind::Char, b'A' as u64), "A");
}

#[test]
fn floats_like_c() {
    let f = |v: f32| v.to_bits() as u64;
    assert_eq!(one("%f", ScalarKind::Float, f(1.5)), "1.500000");
    assert_eq!(one("%.2f", ScalarKind::Float, f(-2.25)), "-2.25");
    assert_eq!(one("%e", ScalarKind::Float, f(1234.5)), "1.234500e+03");
    assert_eq!(one("%g", ScalarKind::Float, f(0.0001)), "0.0001");
    assert_eq!(one("%g", ScalarKind::Float, f(123456789.0)), "1.23457e+08");
    assert_eq!(one("%g", ScalarKind::Float, f(100.0)), "100");
    assert_eq!(one("%8.3f", ScalarKind::Float, f(1.23456)), "   1.235");
}

#[test]
fn bad_formats_are_errors() {
    assert!(parse("%a").is_err());
    assert!(parse("%v5d").is_err());
    assert!(parse("50%").is_err());
    assert_eq!(
        parse("x=%v4d!").unwrap()[1],
        Piece::Conv(Spec {
            vector: Some(4),
            conv: 'd',
            ..Default::default()
        })
    );
}
