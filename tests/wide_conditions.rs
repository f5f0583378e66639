//! The chaining model's term for a condition that drives wide selects
//! (`scheduler::oplib::WIDE_CONDITION_NS`): a compare-and-swap's compare drives two 32-bit
//! selects and ends its chain after them; a compare with one select keeps the table's delay.

use frontend::span::SourceMap;
use hls_ir::passes::run_pipeline;
use hls_ir::{CmpOp, Kernel, OpId, OpKind};
use scheduler::kernel::schedule_kernel;
use scheduler::oplib::{OpLibrary, WIDE_CONDITION_NS};

fn compile(src: &str) -> Kernel {
    let mut sm = SourceMap::new();
    let f = sm.add_file("k.cl", src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p.kernels().next().unwrap();
    let mut k = hls_ir::lower::lower_kernel(&p, id).unwrap();
    run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    k
}

/// The signed ordered compares of `k`.
fn compares(k: &Kernel) -> Vec<OpId> {
    k.op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, OpKind::Cmp(CmpOp::LtS | CmpOp::GtS)))
        .collect()
}

/// Compare-and-swap steps in series, each comparing the previous one's selects (the largest
/// value moves right: one pass of a bubble sort over seven values). The operands are products,
/// so they come from registers (a multiply's result is registered).
const SWAPS: &str = "kernel void k(global const int8 *restrict in, global int8 *restrict out) {
  int i = get_global_id(0);
  int8 x = in[i] * 3;
  int v0 = x.s0, v1 = x.s1, v2 = x.s2, v3 = x.s3, v4 = x.s4, v5 = x.s5, v6 = x.s6;
  if (v0 > v1) { int t = v0; v0 = v1; v1 = t; }
  if (v1 > v2) { int t = v1; v1 = v2; v2 = t; }
  if (v2 > v3) { int t = v2; v2 = v3; v3 = t; }
  if (v3 > v4) { int t = v3; v3 = v4; v4 = t; }
  if (v4 > v5) { int t = v4; v4 = v5; v5 = t; }
  if (v5 > v6) { int t = v5; v5 = v6; v6 = t; }
  out[i] = (int8)(v0, v1, v2, v3, v4, v5, v6, 0);
}";

/// One select per compare: a clamp.
const CLAMP: &str = "kernel void k(global const int *restrict in, global int *restrict out) {
  int i = get_global_id(0);
  int v = in[i];
  out[i] = v > 100 ? 100 : v;
}";

#[test]
fn a_compare_driving_two_selects_takes_the_wide_condition_term() {
    let lib = OpLibrary::default();
    let swaps = compile(SWAPS);
    let cmps = compares(&swaps);
    assert_eq!(cmps.len(), 6, "six compare-and-swaps");
    let clamp = compile(CLAMP);
    let one = compares(&clamp);
    assert_eq!(one.len(), 1);
    // Both are 32-bit ordered compares: the table gives them the same delay.
    let table = lib.timing(&clamp, one[0]).unwrap().delay_ns;
    for &c in &cmps {
        let d = lib.timing(&swaps, c).unwrap().delay_ns;
        assert!(
            (d - table - WIDE_CONDITION_NS).abs() < 1e-9,
            "{d} ns for a compare of two selects, {table} ns with one"
        );
    }
}

#[test]
fn compare_select_compare_no_longer_fits_one_cycle_at_100_mhz() {
    // Compare (3.73 ns) + select (0.89) + compare (3.73) fit the 8.5 ns chain budget of the
    // table alone (without the term the shortest schedule puts two steps of the chain in one
    // cycle, twice); with the term each compare starts a cycle after the one before it.
    let k = compile(SWAPS);
    let s = schedule_kernel(&k, &OpLibrary::default(), &scheduler::Options::default())
        .unwrap_or_else(|d| panic!("{d:?}"));
    let start = |o: OpId| s.loops[0].start[&o];
    let starts: Vec<u32> = compares(&k).into_iter().map(start).collect();
    assert!(
        starts.windows(2).all(|w| w[1] > w[0]),
        "compares start in cycles {starts:?}"
    );
}
