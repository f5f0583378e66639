//! Async copies: which run beside the code after them (`LoopKind::Copy { detached }`).

mod common;

use hls_ir::LoopKind;

/// The `detached` flag of each copy loop of the kernel in `src`, in loop order.
fn detached(src: &str) -> Vec<bool> {
    let k = common::lower(src);
    k.loops
        .iter()
        .filter_map(|l| match l.kind {
            LoopKind::Copy { detached } => Some(detached),
            _ => None,
        })
        .collect()
}

#[test]
fn double_buffering_overlaps_copies_with_computation() {
    let src = "kernel void k(global const int *in, global int *out, uint tiles) {
  local int a[4];
  local int b[4];
  int l = get_local_id(0);
  int acc = 0;
  event_t ea = async_work_group_copy(a, in, 4, 0);
  for (uint k = 0; k < tiles; k += 2) {
    event_t eb = async_work_group_copy(b, in + (k + 1) * 4, 4, 0);
    wait_group_events(1, &ea);
    acc += a[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    ea = async_work_group_copy(a, in + (k + 2) * 4, 4, 0);
    wait_group_events(1, &eb);
    acc += b[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  wait_group_events(1, &ea);
  out[get_global_id(0)] = acc;
}";
    // The first copy is waited for inside the loop, not in its own code: it finishes before
    // the loop starts. The copy of `b` runs beside the computation on `a`, and the copy of
    // `a` beside the computation on `b` (waited for at the next iteration's start).
    assert_eq!(detached(src), [false, true, true]);
}

#[test]
fn a_copy_whose_memory_is_used_before_the_wait_finishes_first() {
    // The phase between the copy and its wait reads `t`: they must not run at once.
    let src = "kernel void k(global const int *in, global int *out) {
  local int t[4];
  event_t e = async_work_group_copy(t, in, 4, 0);
  out[get_global_id(0)] = t[get_local_id(0)];
  wait_group_events(1, &e);
}";
    assert_eq!(detached(src), [false]);
    // Waited for right away, or never: nothing to overlap.
    let src = "kernel void k(global const int *in, global int *out) {
  local int t[4];
  local int u[4];
  event_t e = async_work_group_copy(t, in, 4, 0);
  wait_group_events(1, &e);
  event_t f = async_work_group_copy(u, in + 4, 4, 0);
  out[get_global_id(0)] = t[get_local_id(0)];
}";
    assert_eq!(detached(src), [true, false]);
}

/// The read runs of `k`: (region of the load, memory name of the load).
fn read_runs(k: &hls_ir::Kernel) -> Vec<String> {
    k.read_runs
        .keys()
        .map(|&l| match k.op(l).kind {
            hls_ir::OpKind::Load { mem } => k.mem(mem).name.clone(),
            _ => "not a load".into(),
        })
        .collect()
}

#[test]
fn contiguous_copies_from_global_memory_read_in_runs() {
    // A copy from global memory reads `n - i` consecutive elements from iteration `i` on:
    // its port may ask for them at the first (`Kernel::read_runs`). A strided gather does
    // not read consecutive elements, and a copy out of local memory reads no port.
    let src = "kernel void k(global const int *in, global int *out, uint s) {
  local int a[8];
  local int b[8];
  event_t e = async_work_group_copy(a, in, 8, 0);
  event_t f = async_work_group_strided_copy(b, in + 1, 8, s, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &f);
  event_t g = async_work_group_copy(out, a, 8, 0);
  wait_group_events(1, &g);
  out[get_local_id(0) + 8] = b[get_local_id(0)];
}";
    let mut k = common::lower(src);
    assert_eq!(read_runs(&k), ["in"]);
    // The passes keep the run (its op lives with the load) and the verifier checks it.
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    assert_eq!(read_runs(&k), ["in"]);
    let (&load, &run) = k.read_runs.iter().next().unwrap();
    assert_eq!(k.op(run).region, k.op(load).region);
    // A run that is not an op of the load's loop ordered before it is an IR error.
    let outside = k
        .op_ids()
        .into_iter()
        .find(|&o| k.op(o).region != k.op(load).region && k.op(o).ty == hls_ir::Ty::I32)
        .unwrap();
    k.read_runs.insert(load, outside);
    let e = hls_ir::verify::verify(&k).unwrap_err();
    assert!(format!("{e:?}").contains("read run"), "{e:?}");
}

#[test]
fn local_declarations_before_a_copy_make_no_phase() {
    // `local` arrays belong to the group: declared in work-group code, they leave no phase
    // before the copy (which would walk the group's work-items doing nothing first). A
    // private array stays per work-item, in a phase of its own.
    let kinds = |src: &str| -> Vec<&'static str> {
        common::lower(src)
            .loops
            .iter()
            .map(|l| match l.kind {
                LoopKind::WorkItems => "items",
                LoopKind::Phase => "phase",
                LoopKind::Copy { .. } => "copy",
                LoopKind::Source => "loop",
            })
            .collect()
    };
    let src = "kernel void k(global const int *in, global int *out) {
  local int a[4];
  local int b[4];
  event_t e = async_work_group_copy(a, in, 4, 0);
  wait_group_events(1, &e);
  b[get_local_id(0)] = a[get_local_id(0)];
  out[get_global_id(0)] = b[get_local_id(0)];
}";
    assert_eq!(kinds(src), ["items", "copy", "phase"]);
    let src = "kernel void k(global const int *in, global int *out) {
  local int a[4];
  int p[2];
  p[0] = in[get_global_id(0)];
  out[get_global_id(0) + 4] = p[0];
  event_t e = async_work_group_copy(a, in, 4, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = a[get_local_id(0)];
}";
    assert_eq!(kinds(src), ["items", "phase", "copy", "phase"]);
}
