//! Which global accesses step through consecutive elements (`analysis::stream`): the burst
//! candidates of the memory ports.

mod common;

use hls_ir::analysis::stream::{consecutive, NoBurst};
use hls_ir::{Kernel, OpKind};

/// The kernel of `src` after the passes (as the RTL emitter sees it).
fn optimised(src: &str) -> Kernel {
    let mut k = common::lower(src);
    hls_ir::passes::run_pipeline(&mut k, true, None, &mut |_, _| {}).expect("passes");
    k
}

/// The decision for every global store and load, by the memory's name, in op order.
fn decisions(src: &str) -> Vec<(String, bool, Result<(), NoBurst>)> {
    let k = optimised(src);
    let mut v = Vec::new();
    for o in k.op_ids() {
        let store = match k.op(o).kind {
            OpKind::Store { .. } => true,
            OpKind::Load { .. } => false,
            _ => continue,
        };
        let mem = k.op(o).kind.memory().expect("an access");
        if !matches!(k.mem(mem).kind, hls_ir::MemKind::Global { .. }) {
            continue;
        }
        v.push((k.mem(mem).name.clone(), store, consecutive(&k, o)));
    }
    v.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    v
}

fn of<'a>(
    d: &'a [(String, bool, Result<(), NoBurst>)],
    name: &str,
    store: bool,
) -> &'a Result<(), NoBurst> {
    &d.iter()
        .find(|(n, s, _)| n == name && *s == store)
        .unwrap_or_else(|| panic!("no access of {name}"))
        .2
}

#[test]
fn ndrange_streams_by_global_id() {
    let d = decisions(
        "kernel void k(global const int *a, global const int *b, global int *c) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}",
    );
    assert_eq!(*of(&d, "a", false), Ok(()));
    assert_eq!(*of(&d, "b", false), Ok(()));
    assert_eq!(*of(&d, "c", true), Ok(()));
}

#[test]
fn strided_indirect_and_fixed_addresses_do_not_stream() {
    let d = decisions(
        "kernel void k(global const int *a, global const int *idx, global int *c,
                       global int *d) {
  int i = get_global_id(0);
  c[2 * i] = a[idx[i]];
  d[0] = i;
}",
    );
    assert_eq!(*of(&d, "idx", false), Ok(()));
    assert_eq!(*of(&d, "a", false), Err(NoBurst::StrideUnknown));
    assert_eq!(*of(&d, "c", true), Err(NoBurst::Stride(8)));
    assert_eq!(*of(&d, "d", true), Err(NoBurst::Stride(0)));
}

#[test]
fn a_single_work_item_loop_streams_by_its_counter() {
    let d = decisions(
        "kernel void k(global const float4 *a, global float4 *c, global int *e, uint n) {
  for (uint i = 0; i < n; i++) {
    c[i] = a[i] * 2.0f;
    e[3 * i + 1] = 0;
  }
}",
    );
    assert_eq!(*of(&d, "a", false), Ok(()));
    assert_eq!(*of(&d, "c", true), Ok(()));
    assert_eq!(*of(&d, "e", true), Err(NoBurst::Stride(12)));
}

#[test]
fn group_and_local_ids_stream_as_the_global_id() {
    let d = decisions(
        "kernel void k(global int *c) {
  c[get_group_id(0) * get_local_size(0) + get_local_id(0)] = 1;
}",
    );
    // `get_local_size(0)` is not a constant: the product is not affine.
    assert_eq!(*of(&d, "c", true), Err(NoBurst::StrideUnknown));
    let d = decisions(
        "__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void k(global int *c) {
  c[get_group_id(0) * 64 + get_local_id(0)] = 1;
}",
    );
    assert_eq!(*of(&d, "c", true), Ok(()));
}

#[test]
fn async_copies_and_phases_stream() {
    let d = decisions(
        "kernel void k(global const int *in, global int *out) {
  local int t[64];
  event_t e = async_work_group_copy(t, in + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = t[get_local_id(0)] + 1;
}",
    );
    assert_eq!(*of(&d, "in", false), Ok(()));
    assert_eq!(*of(&d, "out", true), Ok(()));
}

/// Whether the access of memory `name` (a load, or a store with `store`) streams when its
/// run-time stride is one element.
fn at_unit_stride(src: &str, name: &str, store: bool) -> bool {
    let k = optimised(src);
    let o = k
        .op_ids()
        .into_iter()
        .find(|&o| {
            let is_store = matches!(k.op(o).kind, OpKind::Store { .. });
            let is_load = matches!(k.op(o).kind, OpKind::Load { .. });
            (is_store && store || is_load && !store)
                && k.op(o).kind.memory().map(|m| k.mem(m).name.as_str()) == Some(name)
        })
        .unwrap_or_else(|| panic!("no access of {name}"));
    hls_ir::analysis::stream::consecutive_at_unit_stride(&k, o)
}

#[test]
fn run_time_strides_stream_when_they_are_one() {
    // A strided async copy (the DMA engine steps its address by `s` elements) and a loop over
    // `a[i * s]`: not consecutive in general, consecutive when `s` is 1 at run time.
    let copy = "kernel void k(global const int *in, global int *out, uint s) {
  local int t[64];
  event_t e = async_work_group_strided_copy(t, in, 64, s, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = t[get_local_id(0)];
}";
    assert_eq!(
        *of(&decisions(copy), "in", false),
        Err(NoBurst::StrideUnknown)
    );
    assert!(at_unit_stride(copy, "in", false));
    let scaled = "kernel void k(global const int *a, global int *o, uint n, uint s) {
  int acc = 0;
  for (uint i = 0; i < n; i++) acc += a[i * s];
  o[0] = acc;
}";
    assert_eq!(
        *of(&decisions(scaled), "a", false),
        Err(NoBurst::StrideUnknown)
    );
    assert!(at_unit_stride(scaled, "a", false));
    // Data-dependent addresses and a stride of 2 at `s` = 1 do not.
    let indirect =
        "kernel void k(global const int *a, global const int *idx, global int *o, uint n) {
  int acc = 0;
  for (uint i = 0; i < n; i++) acc += a[idx[i]];
  o[0] = acc;
}";
    assert!(!at_unit_stride(indirect, "a", false));
    let doubled = "kernel void k(global const int *a, global int *o, uint n, uint s) {
  int acc = 0;
  for (uint i = 0; i < n; i++) acc += a[2 * i * s];
  o[0] = acc;
}";
    assert!(!at_unit_stride(doubled, "a", false));
}
