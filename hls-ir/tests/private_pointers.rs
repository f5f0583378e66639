//! Pointers to private variables and run-time indices into arrays inside structs, in lowering:
//! a constant offset is the part of the variable (no hardware), a run-time one a select tree
//! over the candidates; what cannot be built is a spanned diagnostic. The behaviour of these
//! constructs is checked end to end by `tests/kernels/private_pointers*.cl`.

mod common;

use hls_ir::OpKind;

fn count(k: &hls_ir::Kernel, f: impl Fn(&OpKind) -> bool) -> usize {
    k.op_ids().into_iter().filter(|&o| f(&k.op(o).kind)).count()
}

/// The errors of lowering the first kernel of `src`, rendered.
fn lower_errors(src: &str) -> String {
    let mut sm = frontend::span::SourceMap::new();
    let f = sm.add_file("k.cl", src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    frontend::render(&sm, &d, false)
}

#[test]
fn constant_offsets_are_the_variable_itself() {
    let k = common::lower(
        "void inc(int *p) { *p += 1; }
kernel void k(global const int *a, global int *o) {
  size_t i = get_global_id(0);
  int x = a[i];
  int4 v = (int4)(x);
  inc(&x);
  int *q = (int *)&v;
  q[2] = x;
  o[i] = x + v.z;
}",
    );
    // Only the two buffers; no selects: every access resolves to a part at compile time.
    assert_eq!(k.mems.len(), 2);
    assert_eq!(count(&k, |o| matches!(o, OpKind::Select)), 0);
}

#[test]
fn run_time_index_into_struct_array_is_a_select_tree() {
    let k = common::lower(
        "typedef struct { int v[8]; } s8;
kernel void k(global const s8 *a, global const int *j, global int *o) {
  size_t i = get_global_id(0);
  s8 s = a[i];
  o[i] = s.v[j[i]];
}",
    );
    // Eight candidates: a tree of 7 two-way selects (not a chain of compares).
    assert_eq!(count(&k, |o| matches!(o, OpKind::Select)), 7);
}

#[test]
fn run_time_write_into_struct_array_is_a_select_per_element() {
    let k = common::lower(
        "typedef struct { int v[4]; } s4;
kernel void k(global s4 *a, global const int *j) {
  size_t i = get_global_id(0);
  s4 s = a[i];
  s.v[j[i]] = 5;
  a[i] = s;
}",
    );
    assert_eq!(count(&k, |o| matches!(o, OpKind::Select)), 4);
}

#[test]
fn pointer_to_a_helper_local_after_it_returns_is_an_error() {
    let e = lower_errors(
        "int *leak(int x) { int y = x; return &y; }
kernel void k(global int *o) {
  int *p = leak(3);
  o[0] = *p;
}",
    );
    assert!(e.contains("which does not exist here"), "{e}");
    assert!(e.contains("k.cl:4:"), "{e}");
}

#[test]
fn constant_access_outside_the_variable_is_an_error() {
    let e = lower_errors(
        "kernel void k(global int *o) {
  int x = 1;
  int *p = &x;
  p[1] = 2;
  o[0] = x;
}",
    );
    assert!(
        e.contains("at byte offset 4 of `x` is outside the variable (4 bytes)"),
        "{e}"
    );
    assert!(e.contains("k.cl:4:"), "{e}");
}

#[test]
fn pointer_changing_object_in_a_loop_is_refused() {
    let e = lower_errors(
        "kernel void k(global const int *a, global int *o) {
  int x = 1, y = 2;
  int *p = &x;
  for (int i = 0; i < a[0]; i++)
    p = &y;
  o[0] = *p;
}",
    );
    assert!(
        e.contains("a pointer that may point into different buffers or variables"),
        "{e}"
    );
    assert!(e.contains("k.cl:4:"), "{e}");
}

#[test]
fn too_many_candidates_is_refused() {
    let e = lower_errors(
        "typedef struct { char c[300]; } big;
kernel void k(global const int *a, global char *o) {
  big b;
  for (int i = 0; i < 300; i++) b.c[i] = (char)i;
  char *p = b.c;
  o[0] = p[a[0]];
}",
    );
    assert!(e.contains("300 places to choose from; at most 256"), "{e}");
    assert!(e.contains("k.cl:6:"), "{e}");
}
