//! The `exit-ahead` pass: which loops get their stop condition one iteration ahead (as a
//! carried value), the copies it builds (worked out by hand), and the IR interpreter before
//! and after the pass on every trip count around the edges. (The whole corpus runs before and
//! after it too: `narrow.rs`'s differential test compares the IR without `narrow` and
//! `exit-ahead` with the IR after the whole pipeline.)

mod common;

use hls_ir::interp;
use hls_ir::passes::{exit_ahead, run_pipeline};
use hls_ir::{BinOp, Kernel, LoopId, OpId, OpKind};

/// The kernel after the passes before `exit-ahead` (`PIPELINE`), and after all of them.
fn before_and_after(src: &str) -> (Kernel, Kernel) {
    let mut before = common::lower(src);
    for p in hls_ir::passes::PIPELINE {
        (p.run)(&mut before);
    }
    let mut after = common::lower(src);
    run_pipeline(&mut after, true, None, &mut |_, _| {}).unwrap();
    (before, after)
}

/// The stop condition of loop `l` (the `LoopExit` operand).
fn stop_of(k: &Kernel, l: LoopId) -> OpId {
    let exit = k
        .ops_in(l)
        .into_iter()
        .find(|&o| k.op(o).kind == OpKind::LoopExit)
        .expect("a loop has an exit");
    k.operands(exit)[0]
}

const COUNTED: &str = "kernel void k(global int *out, int n) {
  int acc = 0;
  for (int j = 0; j < n; j++) acc += j * 3;
  out[get_global_id(0)] = acc;
}";

#[test]
fn a_counted_loop_stops_on_a_register_computed_one_iteration_ahead() {
    let (_, k) = before_and_after(COUNTED);
    let l = LoopId::from_index(1);
    let stop = stop_of(&k, l);
    assert_eq!(k.op(stop).kind, OpKind::Carried);
    assert_eq!(k.op(stop).region, l);
    let [first, ahead] = k.operands(stop)[..] else {
        panic!("a carried value has two operands");
    };
    // The first iteration's condition is computed where the loop starts.
    assert_eq!(k.op(first).region, LoopId::from_index(0));
    assert_eq!(k.op(ahead).region, l);
    // Ahead: the counter `j` (stepped by 1) read as `j + 2`, one add and not two.
    let mut adds = Vec::new();
    let mut work = vec![ahead];
    while let Some(o) = work.pop() {
        if k.op(o).region != l || k.op(o).kind == OpKind::Carried {
            continue;
        }
        if k.op(o).kind == OpKind::Binary(BinOp::Add) {
            adds.push(o);
        }
        work.extend(k.operands(o));
    }
    assert_eq!(
        adds.len(),
        1,
        "{}",
        hls_ir::printer::print_kernel(&k, &|_| String::new())
    );
    let [j, two] = k.operands(adds[0])[..] else {
        panic!("an add has two operands");
    };
    assert_eq!(k.op(j).kind, OpKind::Carried);
    assert_eq!(k.int_const(two), Some(2));
}

#[test]
fn a_stop_computed_from_loaded_data_stays() {
    let (_, k) = before_and_after(
        "kernel void k(global const int *a, global int *out) {
  int i = 0;
  while (a[i] != 0) i++;
  out[0] = i;
}",
    );
    let stop = stop_of(&k, LoopId::from_index(1));
    assert_ne!(k.op(stop).kind, OpKind::Carried);
}

/// Runs `k` on one work-item with `out` at 0x1000 (4 ints) and scalar `n`.
fn run(k: &Kernel, n: i32) -> Vec<u8> {
    let launch = common::launch_of(
        vec![0x1000, n as u32 as u64],
        vec![(0x1000, vec![0; 16])],
        1,
    );
    let out = interp::run(k, &launch).unwrap_or_else(|e| panic!("n = {n}: {e:?}"));
    out.into_iter().find(|(a, _)| *a == 0x1000).unwrap().1
}

#[test]
fn the_interpreter_runs_the_same_iterations_before_and_after() {
    // Counted loops of several shapes, and whether the pass takes each: up, a `do` loop with
    // two tests, a nest kept nested (a flattened one's row
    // flags are stepped by selects). Two stay: counters `narrow` stepped through a wider add or subtract
    // of their extension (`extract(zext(j) - 3)`, not `j + c`): a 31-bit counter going down,
    // and a 4-bit one whose bound is at most 15 (a 5-bit compare, short anyway).
    let kernels = [
        (COUNTED, true),
        (
            "kernel void k(global int *out, int n) {
  int acc = 0;
  for (int j = n; j > 0; j -= 3) acc = acc * 5 + j;
  out[0] = acc;
}",
            false,
        ),
        (
            "kernel void k(global int *out, int n) {
  int acc = 1;
  for (uint j = 0; j <= (uint)(n & 15); j += 2) acc += (int)j;
  out[0] = acc;
}",
            false,
        ),
        (
            "kernel void k(global int *out, int n) {
  int acc = 7, j = 0;
  do { acc ^= j << 2; j++; } while (j != n && j < 40);
  out[0] = acc;
}",
            true,
        ),
        (
            "kernel void k(global int *out, int n) {
  int acc = 0;
#pragma loop_flatten off
  for (int i = 0; i < n; i++) {
    for (int j = i; j < n; j++) acc += i * 16 + j;
    acc ^= i;
  }
  out[0] = acc;
  out[1] = n;
}",
            true,
        ),
    ];
    for (src, ahead) in kernels {
        let (before, after) = before_and_after(src);
        for l in after.loops.ids().skip(1) {
            let stop = stop_of(&after, l);
            let carried = after.op(stop).kind == OpKind::Carried;
            let ir = hls_ir::printer::print_kernel(&after, &|_| String::new());
            assert_eq!(carried, ahead, "{l}:\n{src}\n{ir}");
        }
        for n in [-1, 0, 1, 2, 3, 4, 5, 7, 12] {
            assert_eq!(run(&before, n), run(&after, n), "n = {n}:\n{src}");
        }
    }
}

#[test]
fn the_pass_is_idempotent() {
    // A stop that already is a carried value is left alone: running it again changes nothing.
    let (_, mut k) = before_and_after(COUNTED);
    let ops = k.num_ops();
    exit_ahead::run(&mut k);
    assert_eq!(k.num_ops(), ops);
}
