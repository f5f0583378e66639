//! Array partitioning: `partition` (arrays to values) and `bank` (cyclic banks). For each
//! kernel: which memories remain, where each access goes, and the IR interpreter's results on
//! random inputs, identical before and after the passes.

mod common;

use hls_ir::interp::{run, InterpLaunch};
use hls_ir::{Kernel, LoopId, MemId, MemKind, OpKind, Partition};

/// Lowered, then through the pass pipeline with `bank` aiming at II `goal` in every loop.
fn passes(k: &Kernel, goal: Option<u32>) -> Kernel {
    let mut k = k.clone();
    let g = move |_: &Kernel, _: LoopId| goal;
    let goal: Option<hls_ir::passes::IiGoal> = if goal.is_some() { Some(&g) } else { None };
    hls_ir::passes::run_pipeline(&mut k, true, goal, &mut |_, _| {}).unwrap();
    k
}

fn mem(k: &Kernel, name: &str) -> MemId {
    MemId::from_index(
        k.mems
            .iter()
            .position(|m| m.name == name)
            .unwrap_or_else(|| panic!("no memory `{name}`")),
    )
}

/// Loads and stores of memory `m`: (loads, stores).
fn accesses(k: &Kernel, m: MemId) -> (usize, usize) {
    let mut n = (0, 0);
    for o in k.op_ids() {
        match k.op(o).kind {
            OpKind::Load { mem } if mem == m => n.0 += 1,
            OpKind::Store { mem, .. } if mem == m => n.1 += 1,
            _ => {}
        }
    }
    n
}

fn outcome(k: &Kernel, m: MemId) -> &Partition {
    &k.partitions
        .iter()
        .rev()
        .find(|p| p.mem == m)
        .unwrap_or_else(|| panic!("no partition entry for {m}"))
        .outcome
}

fn printed(k: &Kernel) -> String {
    hls_ir::printer::print_kernel(k, &|_| String::new())
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn int(&mut self, lo: i32, hi: i32) -> i32 {
        (i64::from(lo) + (self.next() % (i64::from(hi) - i64::from(lo) + 1) as u64) as i64) as i32
    }
}

fn words(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs `a` and `b` on `runs` random launches made by `make` and requires the same buffers.
fn same_results(a: &Kernel, b: &Kernel, runs: usize, make: impl Fn(&mut Rng) -> InterpLaunch) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..runs {
        let l = make(&mut rng);
        let x = run(a, &l).unwrap_or_else(|e| panic!("run {i} before: {e}"));
        let y = run(b, &l).unwrap_or_else(|e| panic!("run {i} after: {e}"));
        assert_eq!(
            x,
            y,
            "run {i}: the passes changed the result\n{}",
            printed(b)
        );
    }
}

/// `items` work-items (one group), buffers of `ints` random values each at 0x1000, 0x2000 ...,
/// then the scalar arguments `scalars`.
fn launch(rng: &mut Rng, items: u32, ints: &[usize], scalars: &[u64], range: i32) -> InterpLaunch {
    let mut args = Vec::new();
    let mut buffers = Vec::new();
    for (i, &n) in ints.iter().enumerate() {
        let base = 0x1000 * (i as u32 + 1);
        args.push(u64::from(base));
        let v: Vec<i32> = (0..n).map(|_| rng.int(-range, range)).collect();
        buffers.push((base, words(&v)));
    }
    args.extend_from_slice(scalars);
    common::launch_of(args, buffers, items)
}

/// Corpus kernels: private arrays (`sort4`, `window4`) and `tri_swap`.
const ARRAY_REGS: &str = include_str!("../../tests/kernels/array_regs.cl");
const STRUCT_LOCAL: &str = include_str!("../../tests/kernels/struct_local.cl");

#[test]
fn constant_indices_become_values() {
    let before = common::lower_named(ARRAY_REGS, Some("sort4"));
    let v = mem(&before, "v");
    assert_eq!(accesses(&before, v), (28, 16), "{}", printed(&before));
    let after = passes(&before, None);
    assert_eq!(accesses(&after, v), (0, 0), "{}", printed(&after));
    assert_eq!(
        outcome(&after, v),
        &Partition::Registers {
            elements: 4,
            dynamic: false
        }
    );
    // Only the two global accesses are left: no memory, no loop-carried state.
    let left: Vec<_> = after
        .op_ids()
        .into_iter()
        .filter(|&o| matches!(after.op(o).kind, OpKind::Load { .. } | OpKind::Store { .. }))
        .collect();
    assert_eq!(left.len(), 2, "{}", printed(&after));
    assert!(printed(&after).contains("mem2 v: private [4 x i32], 4 bytes apart -> registers"));
    same_results(&before, &after, 20, |r| launch(r, 5, &[20, 20], &[], 1000));
}

#[test]
fn elements_stored_in_a_loop_are_carried() {
    // A shift register across the iterations of the row loop.
    let before = common::lower_named(ARRAY_REGS, Some("window4"));
    let after = passes(&before, None);
    let w = mem(&after, "w");
    assert_eq!(accesses(&after, w), (0, 0), "{}", printed(&after));
    // w[0..3] are carried by the loop; w[3]'s old value is never read (overwritten first), so
    // `dce` removes its carried value.
    let mut carried: Vec<String> = after
        .op_ids()
        .into_iter()
        .filter(|&o| after.op(o).kind == OpKind::Carried)
        .filter_map(|o| after.op(o).name.clone())
        .filter(|n| n.starts_with("w_"))
        .collect();
    carried.sort();
    assert_eq!(carried, ["w_0", "w_1", "w_2"], "{}", printed(&after));
    same_results(&before, &after, 20, |r| {
        let n = r.int(0, 6) as u64;
        launch(r, 3, &[18, 18], &[n], 100)
    });
}

#[test]
fn masked_stores_merge_bytes() {
    // A 12-byte struct element whose field b is updated in place (a masked store), copied out
    // whole: the field's bytes come from the new value, the others from the old one.
    let before = common::lower_named(STRUCT_LOCAL, Some("tri_swap"));
    assert!(
        before
            .op_ids()
            .into_iter()
            .any(|o| matches!(before.op(o).kind, OpKind::Store { mask: Some(_), .. })),
        "the field update is a masked store"
    );
    let after = passes(&before, None);
    assert_eq!(accesses(&after, mem(&after, "buf")), (0, 0));
    same_results(&before, &after, 10, |r| {
        launch(r, 3, &[18, 18], &[], 1 << 30)
    });
}

#[test]
fn small_private_arrays_take_variable_indices() {
    let src = "kernel void k(global const int *restrict a, global int *restrict out, int n) {
  int i = get_global_id(0);
  int hist[4] = {0, 0, 0, 0};
  for (int j = 0; j < n; j++)
    hist[a[i * n + j] & 3] += 1;
  out[i] = hist[0] + 10 * hist[1] + 100 * hist[2] + 1000 * hist[3]; }";
    let before = common::lower(src);
    let after = passes(&before, None);
    let h = mem(&after, "hist");
    assert_eq!(accesses(&after, h), (0, 0), "{}", printed(&after));
    assert_eq!(
        outcome(&after, h),
        &Partition::Registers {
            elements: 4,
            dynamic: true
        }
    );
    same_results(&before, &after, 20, |r| {
        let n = r.int(0, 6) as u64;
        launch(r, 4, &[24, 4], &[n], 1000)
    });
    // Five elements with a variable index stay a memory, and say why.
    let big = common::lower(&src.replace("hist[4] = {0, 0, 0, 0}", "hist[5] = {0}"));
    let after = passes(&big, None);
    let h = mem(&after, "hist");
    assert_ne!(accesses(&after, h), (0, 0));
    match outcome(&after, h) {
        Partition::Whole { reason, at, .. } => {
            assert!(reason.contains("not a constant"), "{reason}");
            assert!(at.is_some());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn local_arrays_only_where_the_group_is_seen_whole() {
    // Without barriers the work-items of a group share `local` memory across iterations of the
    // work-item loop: no registers.
    let src = "kernel void k(global const int *restrict a, global int *restrict o) {
  local int t[2];
  int i = get_global_id(0);
  t[0] = a[i]; t[1] = a[i] * 3;
  o[i] = t[0] + t[1]; }";
    let shared = passes(&common::lower(src), None);
    let t = mem(&shared, "t");
    assert_eq!(accesses(&shared, t), (2, 2));
    assert!(
        matches!(outcome(&shared, t), Partition::Whole { reason, .. } if reason.contains("shared")),
        "{:?}",
        outcome(&shared, t)
    );
    // A group of one work-item: the array is that work-item's.
    let one = common::lower(&format!(
        "__attribute__((reqd_work_group_size(1, 1, 1))) {src}"
    ));
    let after = passes(&one, None);
    assert_eq!(accesses(&after, mem(&after, "t")), (0, 0));
    same_results(&one, &after, 5, |r| {
        let mut l = launch(r, 3, &[3, 3], &[], 1000);
        l.local_size = [1, 1, 1];
        l
    });
}

#[test]
fn local_arrays_in_kernels_with_barriers() {
    // Work-item 0 of each group publishes a value; after the barrier every work-item reads
    // it: the element is carried through the phase loop and read by the next phase.
    let src = "__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void k(global const int *restrict a, global int *restrict o) {
  local int s[2];
  int l = get_local_id(0);
  if (l == 0) { s[0] = a[get_global_id(0)]; s[1] = -1; }
  if (l == 3) s[1] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = s[0] * 100 + s[1] + l; }";
    let before = common::lower(src);
    assert!(before.work_groups.is_some());
    let after = passes(&before, None);
    assert_eq!(
        accesses(&after, mem(&after, "s")),
        (0, 0),
        "{}",
        printed(&after)
    );
    same_results(&before, &after, 10, |r| {
        let mut l = launch(r, 8, &[8, 8], &[], 1000);
        l.local_size = [4, 1, 1];
        l
    });
}

#[test]
fn too_large_arrays_stay_memories() {
    let src = "kernel void k(global const int *restrict a, global int *restrict o) {
  int t[100];
  int i = get_global_id(0);
  #pragma unroll
  for (int j = 0; j < 100; j++) t[j] = a[i] + j;
  o[i] = t[7] + t[99]; }";
    let after = passes(&common::lower(src), None);
    let t = mem(&after, "t");
    assert!(accesses(&after, t).0 > 0);
    assert!(
        matches!(outcome(&after, t), Partition::Whole { reason, .. } if reason.contains("100 elements")),
        "{:?}",
        outcome(&after, t)
    );
}

const TILE: &str = "__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void k(global const int *restrict in, global int *restrict out, int n) {
  local int src[64];
  local int dst[64];
  for (int j = 0; j < n; j++) src[j] = in[j];
  for (int j = 0; j < n; j += 4) {
    #pragma unroll
    for (int u = 0; u < 4; u++) dst[j + u] = src[j + 3 - u] * 2 + u;
  }
  for (int j = 0; j < n; j++) out[j] = dst[j]; }";

fn tile_launch(r: &mut Rng) -> InterpLaunch {
    let n = 4 * r.int(0, 16) as u64;
    let mut l = launch(r, 1, &[64, 64], &[n], 1000);
    l.local_size = [1, 1, 1];
    l
}

#[test]
fn banks_give_a_loop_the_ports_it_needs() {
    let before = common::lower(TILE);
    let after = passes(&before, Some(1));
    let (src, dst) = (mem(&after, "src"), mem(&after, "dst"));
    assert_eq!(accesses(&after, src), (0, 0));
    assert_eq!(accesses(&after, dst), (0, 0));
    // Four loads of src per iteration: two banks of two read ports. Four stores to dst: four
    // banks of one write port.
    let banks = |m: MemId| match outcome(&after, m) {
        Partition::Banks { banks, loops } => {
            assert_eq!(loops.len(), 1);
            (banks.clone(), loops[0])
        }
        other => panic!("{other:?}"),
    };
    let (sb, sl) = banks(src);
    let (db, dl) = banks(dst);
    assert_eq!((sb.len(), sl.before, sl.after, sl.goal), (2, 2, 1, 1));
    assert_eq!((db.len(), dl.before, dl.after, dl.goal), (4, 4, 1, 1));
    for (i, &b) in sb.iter().enumerate() {
        assert_eq!(after.mem(b).name, format!("src_b{i}"));
        assert_eq!(after.mem(b).kind, MemKind::Local { len: 32 });
    }
    // The middle loop: each bank of src read twice, each bank of dst written once. The first
    // loop's store (index j) writes every bank of src behind a compare; the last loop's load
    // reads every bank of dst.
    let middle = LoopId::from_index(2);
    assert_eq!(after.loops[middle].kind, hls_ir::LoopKind::Source);
    for &b in &sb {
        let reads = after
            .ops_in(middle)
            .into_iter()
            .filter(|&o| after.op(o).kind == OpKind::Load { mem: b })
            .count();
        assert_eq!(reads, 2, "{}", printed(&after));
        assert_eq!(
            accesses(&after, b).1,
            1,
            "one store per bank in the first loop"
        );
    }
    for &b in &db {
        assert_eq!(accesses(&after, b), (1, 1), "{}", printed(&after));
    }
    same_results(&before, &after, 30, tile_launch);
}

#[test]
fn no_banks_when_the_ports_suffice_or_the_goal_is_unknown() {
    let before = common::lower(TILE);
    for k in [passes(&before, Some(4)), passes(&before, None)] {
        assert_eq!(accesses(&k, mem(&k, "src")), (4, 1));
        assert!(!k
            .partitions
            .iter()
            .any(|p| matches!(p.outcome, Partition::Banks { .. })));
    }
    // Goal 2: two cycles for four loads on two ports are enough; the four stores need two
    // banks.
    let k = passes(&before, Some(2));
    assert_eq!(accesses(&k, mem(&k, "src")), (4, 1));
    assert!(
        matches!(outcome(&k, mem(&k, "dst")), Partition::Banks { banks, .. } if banks.len() == 2)
    );
    same_results(&before, &k, 10, tile_launch);
}

#[test]
fn an_access_without_a_fixed_bank_keeps_the_memory_whole() {
    // Three loads per iteration at j, j + 1, j + 2 with j stepping by 1: no bank is fixed.
    let src = "__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void k(global const int *restrict in, global int *restrict out, int n) {
  local int t[64];
  for (int j = 0; j < n; j++) t[j] = in[j];
  for (int j = 0; j < n - 2; j++) out[j] = t[j] + t[j + 1] * 2 + t[j + 2] * 3; }";
    let k = passes(&common::lower(src), Some(1));
    let t = mem(&k, "t");
    match outcome(&k, t) {
        Partition::Whole { reason, at, loops } => {
            assert!(reason.contains("not fixed"), "{reason}");
            assert!(at.is_some());
            assert_eq!((loops[0].before, loops[0].goal), (2, 1));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(accesses(&k, t), (3, 1));
}

#[test]
fn partially_unrolled_loops_keep_their_residues() {
    // `#pragma unroll 4` with a run-time trip count: a copy after the one that ended the loop
    // is masked, and the counter's next value when the loop goes on is j + 4.
    let src = "__attribute__((reqd_work_group_size(1, 1, 1)))
kernel void k(global const int *restrict in, global int *restrict out, int n) {
  local int t[64];
  for (int j = 0; j < 64; j++) t[j] = in[j];
  int acc = 0;
  #pragma unroll 4
  for (int j = 0; j < n; j++) acc += t[j] * (j & 3);
  out[0] = acc; }";
    let before = common::lower(src);
    let after = passes(&before, Some(1));
    let t = mem(&after, "t");
    assert!(
        matches!(outcome(&after, t), Partition::Banks { banks, .. } if banks.len() == 2),
        "{:?}\n{}",
        outcome(&after, t),
        printed(&after)
    );
    same_results(&before, &after, 30, |r| {
        let n = r.int(0, 64) as u64;
        let mut l = launch(r, 1, &[64, 1], &[n], 1000);
        l.local_size = [1, 1, 1];
        l
    });
}

#[test]
fn loops_that_run_one_iteration_at_a_time_are_not_banked() {
    // Five elements with a variable index stay a memory, used by the work-item loop (five
    // initial stores, four loads) and the loop inside it: the work-item loop holds one
    // work-item at a time whatever its ports, so banks would only cost area.
    let src = "kernel void k(global const int *restrict a, global int *restrict out, int n) {
  int i = get_global_id(0);
  int hist[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < n; j++)
    hist[a[i * n + j] & 3] += 1;
  out[i] = hist[0] + 10 * hist[1] + 100 * hist[2] + 1000 * hist[3]; }";
    let k = passes(&common::lower(src), Some(1));
    let serial = hls_ir::analysis::serial::serial_regions(&k);
    assert!(
        serial[hls_ir::Kernel::WORK_ITEM_LOOP]
            .unwrap()
            .describe(&k)
            .contains("`hist`"),
        "{serial:?}"
    );
    assert_eq!(accesses(&k, mem(&k, "hist")), (5, 6), "{}", printed(&k));
    assert!(matches!(
        outcome(&k, mem(&k, "hist")),
        Partition::Whole { loops, .. } if loops.is_empty()
    ));
}
