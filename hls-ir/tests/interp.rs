//! The IR interpreter on lowered kernels: loops with carried values, on-chip memories,
//! barriers (work-group mode) — checked against values computed by hand, and sensitive to a
//! changed op (what makes it useful as a link of the differential chain).

mod common;

use hls_ir::interp::{run, InterpLaunch};
use hls_ir::{BinOp, Kernel, OpKind};

/// Lowered and run through the pass pipeline (what is scheduled).
fn lower(src: &str) -> Kernel {
    let mut k = common::lower(src);
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    k
}

fn words(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn ints(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const ROWSUM: &str = "kernel void k(global const int *restrict a, global int *restrict o, int n) {
  int i = get_global_id(0); int acc = 0;
  for (int j = 0; j < n; j++) acc += a[i * n + j];
  o[i] = acc; }";

fn rowsum_launch() -> InterpLaunch {
    InterpLaunch {
        args: vec![0x1000, 0x2000, 3],
        buffers: vec![
            (0x1000, words(&[1, 2, 3, 4, 5, 6])),
            (0x2000, words(&[0, 0])),
        ],
        global_size: [2, 1, 1],
        local_size: [2, 1, 1],
        work_dim: 1,
        max_steps: 1_000_000,
        ..Default::default()
    }
}

#[test]
fn loops_with_carried_values() {
    let k = lower(ROWSUM);
    let out = run(&k, &rowsum_launch()).unwrap();
    assert_eq!(ints(&out[1].1), vec![6, 15]);
}

#[test]
fn a_changed_op_changes_the_result() {
    let mut k = lower(ROWSUM);
    let add = k
        .op_ids()
        .into_iter()
        .find(|&o| {
            k.op(o).kind == OpKind::Binary(BinOp::Add) && k.op(o).name.as_deref() == Some("acc")
        })
        .expect("the accumulation");
    k.op_mut(add).kind = OpKind::Binary(BinOp::Sub);
    let out = run(&k, &rowsum_launch()).unwrap();
    assert_eq!(ints(&out[1].1), vec![-6, -15]);
}

#[test]
fn barriers_and_local_memory() {
    // Each work-item of a group of 4 reads its right neighbour's value after a barrier.
    let k = lower(
        "__attribute__((reqd_work_group_size(4,1,1))) kernel void k(global const int *restrict a, global int *restrict o) {
  local int t[4]; int l = get_local_id(0);
  t[l] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = t[(l + 1) & 3]; }",
    );
    let launch = InterpLaunch {
        args: vec![0x1000, 0x2000],
        buffers: vec![
            (0x1000, words(&[10, 11, 12, 13, 20, 21, 22, 23])),
            (0x2000, words(&[0; 8])),
        ],
        global_size: [8, 1, 1],
        local_size: [4, 1, 1],
        work_dim: 1,
        max_steps: 1_000_000,
        ..Default::default()
    };
    let out = run(&k, &launch).unwrap();
    assert_eq!(ints(&out[1].1), vec![11, 12, 13, 10, 21, 22, 23, 20]);
}

#[test]
fn out_of_bounds_and_step_limits_are_errors() {
    let k = lower(ROWSUM);
    let mut l = rowsum_launch();
    l.args[2] = 100; // reads past `a`
    assert!(run(&k, &l)
        .unwrap_err()
        .to_string()
        .contains("outside every buffer"));
    let k = lower("kernel void k(global int *o) { int x = 0; while (1) x++; o[0] = x; }");
    let l = InterpLaunch {
        args: vec![0x1000],
        buffers: vec![(0x1000, words(&[0]))],
        global_size: [1, 1, 1],
        local_size: [1, 1, 1],
        work_dim: 1,
        max_steps: 1000,
        ..Default::default()
    };
    assert!(run(&k, &l).unwrap_err().to_string().contains("steps"));
}

use common::launch_of;

#[test]
fn vectors_and_structs_move_as_images() {
    // Each int4 is one 128-bit access; lanes are bit selects and the result a concatenation,
    // before and after the passes. Expected by hand: (a.wzyx + (1,2,3,4)) per element.
    let src = "kernel void k(global const int4 *restrict a, global int4 *restrict o) {
  int i = get_global_id(0); o[i] = a[i].wzyx + (int4)(1, 2, 3, 4); }";
    let l = launch_of(
        vec![0x1000, 0x2000],
        vec![
            (0x1000, words(&[10, 20, 30, 40, -1, -2, -3, -4])),
            (0x2000, words(&[0; 8])),
        ],
        2,
    );
    for k in [common::lower(src), lower(src)] {
        let out = run(&k, &l).unwrap();
        assert_eq!(ints(&out[1].1), vec![41, 32, 23, 14, -3, -1, 1, 3]);
    }
    // A struct with padding (a @0, b @4, c @8 as a char, 3 bytes padding): a field store is
    // a masked store (only byte 8), a whole-struct copy keeps the padding bytes.
    let src = "typedef struct { int a; int b; char c; } s3;
kernel void k(global s3 *restrict p, global s3 *restrict q) {
  int i = get_global_id(0); s3 t = p[i]; q[i] = t; p[i].c = (char)(t.a + t.b); }";
    let l = launch_of(
        vec![0x1000, 0x2000],
        vec![
            (0x1000, words(&[5, 6, 0x7f7f7f01])),
            (0x2000, words(&[0, 0, 0])),
        ],
        1,
    );
    for k in [common::lower(src), lower(src)] {
        let out = run(&k, &l).unwrap();
        assert_eq!(ints(&out[0].1), vec![5, 6, 0x7f7f7f0b]);
        assert_eq!(ints(&out[1].1), vec![5, 6, 0x7f7f7f01]);
    }
}

#[test]
fn wide_arguments_by_value() {
    // A by-value int4 is a 128-bit argument: its image from `wide_args`.
    let k = lower("kernel void k(global int *o, int4 v) { o[get_global_id(0)] = v.y * 10 + v.w; }");
    let mut l = launch_of(vec![0x1000, 0], vec![(0x1000, words(&[0]))], 1);
    l.wide_args.insert(1, words(&[1, 2, 3, 4]));
    assert_eq!(ints(&run(&k, &l).unwrap()[0].1), vec![24]);
}

#[test]
fn copying_an_aggregate_needs_no_wiring_after_the_passes() {
    // Unpacked into fields and packed again, a copied struct folds back to the loaded image.
    let k = lower(
        "typedef struct { char c; int x; short s; } t;
kernel void k(global const t *restrict a, global t *restrict b) { int i = get_global_id(0); b[i] = a[i]; }",
    );
    let wiring = k
        .op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, OpKind::Extract { .. } | OpKind::Concat))
        .count();
    assert_eq!(
        wiring,
        0,
        "{}",
        hls_ir::printer::print_kernel(&k, &|_| String::new())
    );
}

#[test]
fn unions_are_diagnostics() {
    // A union behind a pointer, read and written through a member: reported, never packed as
    // if it were a struct.
    let mut sm = frontend::span::SourceMap::new();
    let f = sm.add_file(
        "u.cl",
        "typedef union { int i; float f; } U;
kernel void k(global U *u, global int *o) { u->f = 1.0f; o[0] = u[1].i; }",
    );
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default()).unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    let text = frontend::render(&sm, &d, false);
    assert!(text.contains("a union is not yet supported"), "{text}");
}
