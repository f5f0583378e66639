//! Comparing output bytes with expected ones: integers, floats, ulps, half and double,
//! padding lanes of 3-vectors.

use testfile::{compare, Expect, Tolerance, ValueType};

use crate::common::*;

fn expect(ty: &str, values: &str, tolerance: Tolerance) -> (ValueType, Expect) {
    let t = only_test(&one_test(&format!("arg_out: 0 buffer {ty} {values}")));
    let mut e = buffer(&t.args[0]).3.unwrap().clone();
    e.tolerance = tolerance;
    (buffer(&t.args[0]).0, e)
}

#[test]
fn compare_integers() {
    let (t, e) = expect("int[3]", "1 -2 3", Tolerance::Exact);
    let ok: Vec<u8> = [1i32, -2, 3].iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(compare(&t, &e, &ok), Ok(()));
    let bad: Vec<u8> = [1i32, -3, 4].iter().flat_map(|x| x.to_le_bytes()).collect();
    let m = compare(&t, &e, &bad).unwrap_err();
    assert_eq!((m.index, m.lane, m.count, m.total), (1, 0, 2, 3));
    assert_eq!(m.expected, "-2 (0xfffffffe)");
    assert_eq!(m.actual, "-3 (0xfffffffd)");
    assert_eq!(
        m.to_string(),
        "int[1]: expected -2 (0xfffffffe), got -3 (0xfffffffd); 2 of 3 values differ"
    );
    // piglit's integer tolerance: |e - a| <= n.
    let (t, e) = expect("int[3]", "1 -2 3", Tolerance::Abs(1.0));
    assert_eq!(compare(&t, &e, &bad), Ok(()));
    // Unsigned values compare as unsigned.
    let (t, e) = expect("uint[1]", "0", Tolerance::Abs(1.0));
    assert!(compare(&t, &e, &u32::MAX.to_le_bytes()).is_err());
    let (t, e) = expect("ulong[1]", "18446744073709551615", Tolerance::Exact);
    assert_eq!(compare(&t, &e, &u64::MAX.to_le_bytes()), Ok(()));
}

#[test]
fn compare_floats() {
    let (t, e) = expect("float[4]", "1.0 0.0 nan -inf", Tolerance::Exact);
    assert_eq!(
        compare(
            &t,
            &e,
            &f32_bytes(&[1.0, -0.0, -f32::NAN, f32::NEG_INFINITY])
        ),
        Ok(())
    );
    for (i, actual) in [
        [1.0000001, 0.0, f32::NAN, f32::NEG_INFINITY],
        [1.0, 1e-45, f32::NAN, f32::NEG_INFINITY],
        [1.0, 0.0, 0.0, f32::NEG_INFINITY],
        [1.0, 0.0, f32::NAN, f32::MIN],
    ]
    .iter()
    .enumerate()
    {
        let m = compare(&t, &e, &f32_bytes(actual)).unwrap_err();
        assert_eq!(m.index as usize, i);
    }
    // A NaN never matches a number.
    let (t, e) = expect("float[1]", "1.0", Tolerance::Abs(f64::INFINITY));
    assert!(compare(&t, &e, &f32_bytes(&[f32::NAN])).is_err());

    let (t, e) = expect("float[1]", "100.0", Tolerance::Abs(0.5));
    assert_eq!(compare(&t, &e, &f32_bytes(&[100.5])), Ok(()));
    assert_eq!(compare(&t, &e, &f32_bytes(&[99.5])), Ok(()));
    let m = compare(&t, &e, &f32_bytes(&[100.51])).unwrap_err();
    assert_eq!(
        m.to_string(),
        "float[0]: expected 100.0 (0x42c80000) (tolerance 0.5), got 100.51 (0x42c9051f)"
    );
}

#[test]
fn compare_ulp_like_piglit() {
    let up = |x: f32, n: u32| f32::from_bits(x.to_bits() + n);
    let down = |x: f32, n: u32| f32::from_bits(x.to_bits() - n);
    let (t, e) = expect("float[1]", "1.5", Tolerance::Ulp(2));
    assert_eq!(compare(&t, &e, &f32_bytes(&[up(1.5, 2)])), Ok(()));
    assert_eq!(compare(&t, &e, &f32_bytes(&[down(1.5, 2)])), Ok(()));
    let m = compare(&t, &e, &f32_bytes(&[up(1.5, 3)])).unwrap_err();
    assert!(m.to_string().contains("(tolerance 2 ulp)"), "{m}");
    // The ulp is that of the expected value, away from zero: below a power of two the values
    // are twice as dense, so 1 ulp of 1.0 reaches 2 values down.
    let (t, e) = expect("float[1]", "1.0", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &f32_bytes(&[down(1.0, 2)])), Ok(()));
    assert!(compare(&t, &e, &f32_bytes(&[down(1.0, 3)])).is_err());
    // Zero: one ulp is the smallest subnormal.
    let (t, e) = expect("float[1]", "0", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &f32_bytes(&[-1e-45])), Ok(()));
    assert!(compare(&t, &e, &f32_bytes(&[3e-45])).is_err());
    // The largest float: its ulp is measured towards zero.
    let (t, e) = expect("float[1]", "0x1.fffffep127", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &f32_bytes(&[down(f32::MAX, 1)])), Ok(()));
    assert!(compare(&t, &e, &f32_bytes(&[f32::INFINITY])).is_err());
    // piglit: 2^24 ulp or more accepts any number.
    let (t, e) = expect("float[1]", "1", Tolerance::Ulp(1 << 24));
    assert_eq!(compare(&t, &e, &f32_bytes(&[-1e30])), Ok(()));
}

#[test]
fn compare_half_and_double() {
    let (t, e) = expect("half[2]", "1.0 -2.0", Tolerance::Ulp(1));
    assert_eq!(compare(&t, &e, &[0x01, 0x3c, 0x00, 0xc0]), Ok(()));
    let m = compare(&t, &e, &[0x02, 0x3c, 0x00, 0xc0]).unwrap_err();
    assert_eq!(m.expected, "1.0 (0x3c00)");
    assert_eq!(m.actual, "1.0019531 (0x3c02)");
    let (t, e) = expect("double[1]", "0.1", Tolerance::Ulp(1));
    let next = f64::from_bits(0.1f64.to_bits() + 1);
    assert_eq!(compare(&t, &e, &next.to_le_bytes()), Ok(()));
    let far = f64::from_bits(0.1f64.to_bits() + 2);
    assert!(compare(&t, &e, &far.to_le_bytes()).is_err());
}

#[test]
fn compare_vectors_ignores_padding() {
    let (t, e) = expect("float3[2]", "1 2 3 4 5 6", Tolerance::Exact);
    assert_eq!(e.bytes.len(), 32);
    let actual = f32_bytes(&[1.0, 2.0, 3.0, 99.0, 4.0, 5.0, 6.0, f32::NAN]);
    assert_eq!(compare(&t, &e, &actual), Ok(()));
    let actual = f32_bytes(&[1.0, 2.0, 3.0, 0.0, 4.0, 7.0, 6.0, 0.0]);
    let m = compare(&t, &e, &actual).unwrap_err();
    assert_eq!((m.index, m.lane, m.count, m.total), (1, 1, 1, 6));
    assert_eq!(
        m.to_string(),
        "float3[1] lane 1: expected 5.0 (0x40a00000), got 7.0 (0x40e00000)"
    );
}

#[test]
#[should_panic(expected = "read back 4 bytes of a int buffer that has 8 bytes")]
fn compare_panics_on_wrong_length() {
    let (t, e) = expect("int[2]", "1 2", Tolerance::Exact);
    let _ = compare(&t, &e, &[0; 4]);
}
