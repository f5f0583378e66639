//! Decoding values: literals, vectors, `repeat`, `iota`, `random`, NULL and local arguments,
//! in/out buffers and size limits.

use testfile::{ArgKind, ScalarType, Tolerance, ValueType};

use crate::common::*;

#[test]
fn literal_integers() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int[6] 1 -2 0x10 -0x10 010 +3\n\
         arg_in: 1 buffer uchar[4] 0 255 0xff -1\n\
         arg_in: 2 buffer char[3] -128 127 0x80\n\
         arg_in: 3 buffer ulong[2] 18446744073709551615 -1\n\
         arg_in: 4 buffer short[1] -32768",
    ));
    assert_eq!(i32s(buffer(&t.args[0]).2.unwrap()), [1, -2, 16, -16, 8, 3]);
    assert_eq!(buffer(&t.args[1]).2.unwrap(), &vec![0, 255, 255, 255]);
    assert_eq!(buffer(&t.args[2]).2.unwrap(), &vec![0x80, 0x7f, 0x80]);
    assert_eq!(
        i64s(buffer(&t.args[3]).2.unwrap()),
        [-1, -1],
        "u64::MAX and -1 are the same bit pattern"
    );
    assert_eq!(buffer(&t.args[4]).2.unwrap(), &vec![0x00, 0x80]);
}

#[test]
fn literal_floats() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer float[10] 1 -2.5 1e3 1.5e-3 0x1p-2 -0x1.8p1 inf -Infinity NAN 0.1\n\
         arg_in: 1 buffer double[2] 0.1 0x1.fffffffffffffp1023\n\
         arg_in: 2 buffer half[3] 1.0 -2 65504",
    ));
    let v = f32s(buffer(&t.args[0]).2.unwrap());
    assert_eq!(
        &v[..8],
        [
            1.0,
            -2.5,
            1000.0,
            1.5e-3,
            0.25,
            -3.0,
            f32::INFINITY,
            f32::NEG_INFINITY
        ]
    );
    assert!(v[8].is_nan());
    assert_eq!(v[9], 0.1f32);
    let d = buffer(&t.args[1]).2.unwrap();
    assert_eq!(f64::from_le_bytes(d[..8].try_into().unwrap()), 0.1);
    assert_eq!(f64::from_le_bytes(d[8..].try_into().unwrap()), f64::MAX);
    assert_eq!(
        buffer(&t.args[2]).2.unwrap(),
        &[0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b].to_vec()
    );
}

#[test]
fn size_t_is_32_bits() {
    let t = only_test(&one_test(
        "arg_in: 0 size_t 4294967295\narg_in: 1 ptrdiff_t -1",
    ));
    assert_eq!(
        t.args[0].kind,
        ArgKind::Scalar {
            ty: ValueType::scalar(ScalarType::UInt),
            bytes: vec![0xff; 4]
        }
    );
    assert_eq!(
        t.args[1].kind,
        ArgKind::Scalar {
            ty: ValueType::scalar(ScalarType::Int),
            bytes: vec![0xff; 4]
        }
    );
}

#[test]
fn vectors_take_one_value_per_lane_and_pad_3_vectors() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int4[2] 1 2 3 4 5 6 7 8\n\
         arg_in: 1 buffer int3[2] 1 2 3 4 5 6\n\
         arg_in: 2 float3 0.5 1.5 2.5\n\
         arg_in: 3 buffer uchar3[3] repeat 1 2",
    ));
    assert_eq!(
        i32s(buffer(&t.args[0]).2.unwrap()),
        [1, 2, 3, 4, 5, 6, 7, 8]
    );
    let (t1, len, input, _) = buffer(&t.args[1]);
    assert_eq!(
        (t1.lanes, t1.storage_lanes(), t1.byte_size(), len),
        (3, 4, 16, 2)
    );
    assert_eq!(i32s(input.unwrap()), [1, 2, 3, 0, 4, 5, 6, 0]);
    let ArgKind::Scalar { ty: t2, bytes } = &t.args[2].kind else {
        panic!()
    };
    assert_eq!(*t2, ty("float3"));
    assert_eq!(f32s(bytes), [0.5, 1.5, 2.5, 0.0]);
    // repeat cycles over the lanes, skipping the padding (as piglit does).
    assert_eq!(
        buffer(&t.args[3]).2.unwrap(),
        &vec![1, 2, 1, 0, 2, 1, 2, 0, 1, 2, 1, 0]
    );
}

#[test]
fn repeat_fills_cyclically() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int[7] repeat 1 2 3\narg_out: 1 buffer float[3] REPEAT 0.5",
    ));
    assert_eq!(i32s(buffer(&t.args[0]).2.unwrap()), [1, 2, 3, 1, 2, 3, 1]);
    assert_eq!(f32s(&buffer(&t.args[1]).3.unwrap().bytes), [0.5; 3]);
}

#[test]
fn iota_counts_lane_by_lane() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer int[5] iota 0\n\
         arg_in: 1 buffer int[4] iota 10 -3\n\
         arg_in: 2 buffer float2[2] iota 0.5 0.25\n\
         arg_in: 3 buffer uchar[4] iota 254\n\
         arg_out: 4 buffer uint[3] iota 0x10 0x10",
    ));
    assert_eq!(i32s(buffer(&t.args[0]).2.unwrap()), [0, 1, 2, 3, 4]);
    assert_eq!(i32s(buffer(&t.args[1]).2.unwrap()), [10, 7, 4, 1]);
    assert_eq!(f32s(buffer(&t.args[2]).2.unwrap()), [0.5, 0.75, 1.0, 1.25]);
    assert_eq!(
        buffer(&t.args[3]).2.unwrap(),
        &vec![254, 255, 0, 1],
        "wraps"
    );
    assert_eq!(u32s(&buffer(&t.args[4]).3.unwrap().bytes), [16, 32, 48]);
}

#[test]
fn random_is_deterministic_and_seedable() {
    let src = one_test(
        "arg_in: 0 buffer int[64] random\n\
         arg_in: 1 buffer int[64] random\n\
         arg_in: 2 buffer int[64] random 1000\n\
         arg_in: 3 buffer int[64] RANDOM 1000\n\
         arg_in: 4 buffer float[256] random 5\n\
         arg_in: 5 buffer uint[4] random 1001",
    );
    let t1 = only_test(&src);
    let t2 = only_test(&src);
    assert_eq!(t1, t2, "the same file gives the same values");
    let bytes = |i: usize| buffer(&t1.args[i]).2.unwrap().clone();
    assert_ne!(bytes(0), bytes(1), "each argument has its own stream");
    assert_eq!(bytes(2), bytes(3), "the same seed gives the same values");
    // A bare `random` is `random <1000 * test number + index>`.
    assert_eq!(bytes(1)[..16], bytes(5)[..]);
    let ints = i32s(&bytes(0));
    assert!(ints.iter().any(|&v| v < 0) && ints.iter().any(|&v| v > 1 << 24));
    let floats = f32s(&bytes(4));
    assert!(floats.iter().all(|x| (-1000.0..=1000.0).contains(x)));
    assert!(floats.iter().any(|&x| x < -500.0) && floats.iter().any(|&x| x > 500.0));
    assert!(floats.iter().any(|x| x.fract() != 0.0));
}

#[test]
fn null_and_local_arguments() {
    let t = only_test(&one_test(
        "arg_in: 0 buffer float[16] NULL\n\
         arg_in: 1 local float4[64]\n\
         arg_in: 2 int null",
    ));
    assert_eq!(
        t.args.iter().map(|a| a.kind.clone()).collect::<Vec<_>>(),
        [
            ArgKind::NullBuffer {
                ty: ty("float"),
                len: 16
            },
            ArgKind::Local {
                ty: ty("float4"),
                len: 64
            },
            ArgKind::Local {
                ty: ty("int"),
                len: 1
            },
        ]
    );
}

#[test]
fn in_out_buffers_merge_by_index() {
    let t = only_test(&one_test(
        "arg_out: 1 buffer int[3] 2 4 6 tolerance 1\n\
         arg_in: 0 int 2\n\
         arg_in: 1 buffer int[3] 1 2 3\n\
         arg_in: 2 buffer uint[2] 0x3f800000 0\n\
         arg_out: 2 buffer float[2] 1.0 0.0",
    ));
    assert_eq!(
        t.args.iter().map(|a| a.index).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let (t1, len, input, expect) = buffer(&t.args[1]);
    assert_eq!((t1, len), (ty("int"), 3));
    assert_eq!(i32s(input.unwrap()), [1, 2, 3]);
    let expect = expect.unwrap();
    assert_eq!(i32s(&expect.bytes), [2, 4, 6]);
    assert_eq!((expect.line, expect.tolerance), (6, Tolerance::Abs(1.0)));
    assert_eq!(t.args[1].line, 6, "the first line of the argument");
    // piglit allows different types of one size: the buffer has the arg_out's type.
    let (t2, _, input, expect) = buffer(&t.args[2]);
    assert_eq!(t2, ty("float"));
    assert_eq!(u32s(input.unwrap()), [0x3f80_0000, 0]);
    assert_eq!(f32s(&expect.unwrap().bytes), [1.0, 0.0]);
}

#[test]
fn size_limits() {
    // 64 MiB exactly is allowed.
    let t = only_test(&one_test("arg_in: 0 buffer ulong16[524288] repeat 0"));
    assert_eq!(buffer(&t.args[0]).2.unwrap().len(), 64 << 20);
    assert_eq!(testfile::MAX_BUFFER_BYTES, 64 << 20);
    for line in [
        "arg_in: 0 buffer ulong16[524289] repeat 0",
        "arg_in: 0 buffer int[4000000000] random",
        "arg_out: 0 buffer int16[4294967295] repeat 1",
        "arg_in: 0 local double16[4294967295]",
        "arg_in: 0 buffer float[4294967295] NULL",
    ] {
        assert_error(
            &one_test(line),
            6,
            &["bytes; the limit is 67108864 bytes (64 MiB)"],
        );
    }
    assert_error(
        &one_test("arg_in: 0 buffer int[99999999999999999999] 0"),
        6,
        &["the count 99999999999999999999 is too large"],
    );
}
