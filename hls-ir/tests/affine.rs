//! The affine index analysis on kernels lowered from source: exact distances, independence,
//! and "unknown" for indices it does not understand.

mod common;

use common::lower;
use hls_ir::analysis::affine::{distance, Distance};
use hls_ir::{Kernel, LoopId, OpKind};

/// Distance from the loop's (first) store to its (first) load, through their addresses.
fn store_to_load(k: &Kernel) -> Distance {
    let l = LoopId::from_index(1);
    let ops = k.ops_in(l);
    let addr = |want_store: bool| {
        ops.iter()
            .copied()
            .find(|&o| match k.op(o).kind {
                OpKind::Store { .. } => want_store,
                OpKind::Load { .. } => !want_store,
                _ => false,
            })
            .map(|o| k.operands(o)[0])
            .unwrap()
    };
    distance(k, addr(true), addr(false), l)
}

fn kernel(body: &str) -> String {
    format!(
        "__attribute__((reqd_work_group_size(1,1,1))) kernel void k(global int *restrict o, int n) {{ local int b[64]; {body} o[0] = b[1]; }}"
    )
}

#[test]
fn same_element_in_place_is_independent_across_iterations() {
    let k = lower(&kernel("for (int j = 0; j < n; j++) b[j] = b[j] * 3;"));
    assert_eq!(store_to_load(&k), Distance::Independent);
}

#[test]
fn reading_the_previous_element_is_distance_one() {
    let k = lower(&kernel("for (int j = 1; j < n; j++) b[j] = b[j - 1] + 1;"));
    assert_eq!(store_to_load(&k), Distance::Exact(1));
}

#[test]
fn stride_and_offset_give_the_exact_distance() {
    // Store b[2j + 6], load b[2j]: the load of iteration j + 3 reads the store of iteration j.
    let k = lower(&kernel(
        "for (int j = 0; j < n; j++) b[2 * j + 6] = b[2 * j] + 1;",
    ));
    assert_eq!(store_to_load(&k), Distance::Exact(3));
}

#[test]
fn odd_and_even_elements_never_meet() {
    let k = lower(&kernel(
        "for (int j = 0; j < n; j++) b[2 * j + 1] = b[2 * j] + 1;",
    ));
    assert_eq!(store_to_load(&k), Distance::Independent);
}

#[test]
fn data_dependent_index_is_unknown() {
    let k = lower(&kernel("for (int j = 0; j < n; j++) b[b[j] & 63] = j;"));
    let l = LoopId::from_index(1);
    let st = k
        .ops_in(l)
        .into_iter()
        .find(|&o| matches!(k.op(o).kind, OpKind::Store { .. }))
        .unwrap();
    let ld = k
        .ops_in(l)
        .into_iter()
        .find(|&o| matches!(k.op(o).kind, OpKind::Load { .. }))
        .unwrap();
    assert_eq!(
        distance(&k, k.operands(st)[0], k.operands(ld)[0], l),
        Distance::Unknown
    );
}
