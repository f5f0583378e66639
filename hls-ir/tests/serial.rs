//! `analysis::serial`: which loops hold one iteration at a time. Both cases were silent
//! miscompiles in Verilator found by the random-kernel fuzzer (cases 4045 and 3898 of seed
//! 20261126, `tests/fuzz-regressions/`).

mod common;

use hls_ir::analysis::serial::{serial_regions, SerialReason};
use hls_ir::{Kernel, LoopId, LoopKind};

fn compiled(src: &str) -> Kernel {
    let mut k = common::lower(src);
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    k
}

/// The phase loops of `k`, in order.
fn phases(k: &Kernel) -> Vec<LoopId> {
    (0..k.loops.len())
        .map(LoopId::from_index)
        .filter(|&l| k.loops[l].kind == LoopKind::Phase)
        .collect()
}

fn mem_name(k: &Kernel, r: Option<SerialReason>) -> Option<String> {
    r.and_then(|r| r.mem()).map(|m| k.mem(m).name.clone())
}

#[test]
fn two_loops_with_local_atomics_in_one_phase_do_not_overlap() {
    // The phase pipelines its work-items: without holding one at a time, the next
    // work-item's first loop would update `lh` beside this one's second loop (two pipelines
    // on one memory, no arbitration: updates were lost).
    let k = compiled(
        "kernel void k(global uint *out, uint n) {
  uint lid = get_local_id(0);
  local uint lh[8];
  lh[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = 0; i < n; i++) atomic_dec(&lh[0]);
  for (uint i = 0; i < n; i++) atomic_inc(&lh[1]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = lh[lid];
}",
    );
    let serial = serial_regions(&k);
    // The outermost region enclosing every use is the work-item loop (serial anyway); the
    // phase of the two loops is their innermost common region.
    let with_loops: Vec<LoopId> = phases(&k)
        .into_iter()
        .filter(|&p| k.loops.iter().filter(|l| l.parent == Some(p)).count() == 2)
        .collect();
    assert_eq!(with_loops.len(), 1, "{serial:?}");
    let p = with_loops[0];
    assert!(
        matches!(serial[p], Some(SerialReason::SharedOnChip(_))),
        "{serial:?}"
    );
    assert_eq!(mem_name(&k, serial[p]).as_deref(), Some("lh"));
}

#[test]
fn a_phase_using_a_private_array_holds_one_work_item() {
    // A private array has one copy: a phase that pipelines its work-items would let the next
    // one overwrite it while this one still reads it.
    let k = compiled(
        "kernel void k(global const uint *in, global uint *out) {
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  local uint lx[8];
  lx[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint p[8] = {1, 2, 3, 4, (uint)gid, 6, 7, 8};
  out[gid] = p[lx[(lid + 1) & 7] & 7];
}",
    );
    let serial = serial_regions(&k);
    let p = (0..k.mems.len())
        .map(hls_ir::MemId::from_index)
        .find(|&m| k.mem(m).name == "p")
        .expect("`p` stays a memory (its index is not constant)");
    let using: Vec<LoopId> = phases(&k)
        .into_iter()
        .filter(|&l| {
            k.op_ids()
                .into_iter()
                .any(|o| k.op(o).region == l && k.op(o).kind.memory() == Some(p))
        })
        .collect();
    assert!(!using.is_empty(), "no phase uses `p`");
    for l in using {
        assert_eq!(serial[l], Some(SerialReason::PrivateArray(p)), "{serial:?}");
    }
}
