//! The `const-fold` pass's rewrites that are not folding: a signed compare with 0 (or -1)
//! becomes a test of the sign bit (no carry chain after the one that computes the value).

mod common;

use hls_ir::interp::run;
use hls_ir::{BinOp, CmpOp, Kernel, OpKind};

const SIGNS: &str = "kernel void k(global const int *restrict a, global int *restrict o) {
  int i = get_global_id(0);
  int x = a[i];
  char c = (char)x;
  o[8 * i + 0] = x < 0;
  o[8 * i + 1] = x >= 0;
  o[8 * i + 2] = 0 <= x;
  o[8 * i + 3] = x > -1;
  o[8 * i + 4] = x <= -1;
  o[8 * i + 5] = 0 > c;
  o[8 * i + 6] = x < 1;
  o[8 * i + 7] = (uint)x < 1u;
}";

/// The signed ordered compares of `k`.
fn signed_compares(k: &Kernel) -> usize {
    k.op_ids()
        .into_iter()
        .filter(|&o| {
            matches!(
                k.op(o).kind,
                OpKind::Cmp(CmpOp::LtS | CmpOp::LeS | CmpOp::GtS | CmpOp::GeS)
            )
        })
        .count()
}

#[test]
fn signed_compares_with_zero_are_sign_bit_tests() {
    let before = common::lower(SIGNS);
    let mut after = before.clone();
    hls_ir::passes::const_fold::run(&mut after);
    hls_ir::passes::dce::run(&mut after);
    hls_ir::verify(&after).unwrap_or_else(|e| panic!("{e}"));
    // Six of the seven signed compares test a sign; `x < 1` keeps its compare.
    assert_eq!(signed_compares(&before), 7);
    assert_eq!(signed_compares(&after), 1);
    let signs = after
        .op_ids()
        .into_iter()
        .filter(|&o| matches!(after.op(o).kind, OpKind::Extract { lo: 31 | 7 }))
        .count();
    assert!(signs >= 6, "{signs} sign-bit extracts");
    // The same results before and after, at the values where a sign test could go wrong.
    let xs: [i32; 6] = [0, -1, 1, i32::MIN, i32::MAX, -128];
    let input: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut launch = common::launch_of(
        vec![0x1000, 0x2000],
        vec![(0x1000, input), (0x2000, vec![0; 4 * 8 * xs.len()])],
        xs.len() as u32,
    );
    launch.local_size = [1, 1, 1];
    let want: Vec<i32> = xs
        .iter()
        .flat_map(|&x| {
            let c = x as i8;
            [
                x < 0,
                x >= 0,
                x >= 0,
                x > -1,
                x <= -1,
                c < 0,
                x < 1,
                (x as u32) < 1,
            ]
            .map(i32::from)
        })
        .collect();
    for k in [&before, &after] {
        let out = run(k, &launch).unwrap();
        let got: Vec<i32> = out[1]
            .1
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got, want);
    }
}

/// Values that are different ops until `cse` merges them fold after it: `(uint)v - (uint)v`
/// is two extensions of `v` until then, and the pipeline's `const-fold` after `cse` makes it
/// 0, so nothing compares with it (the kernel fuzzer's case 7550 left a compare with a value
/// that is always 0, which the lint refuses).
#[test]
fn differences_of_merged_values_fold_after_cse() {
    let mut k = common::lower(
        "kernel void k(global const uchar *restrict a, global ushort *restrict o) {
  int i = get_global_id(0);
  ushort v = a[i];
  v = (ushort)((uint)v - (uint)v);
  o[i] = min(v, (ushort)(v ^ v));
}",
    );
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    let left: Vec<String> = k
        .op_ids()
        .into_iter()
        .filter(|&o| {
            matches!(
                k.op(o).kind,
                OpKind::Binary(BinOp::Sub | BinOp::Xor | BinOp::MinU) | OpKind::Cmp(_)
            )
        })
        .map(|o| format!("{:?}", k.op(o).kind))
        .collect();
    assert!(left.is_empty(), "not folded: {left:?}");
}
