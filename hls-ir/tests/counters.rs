//! Atomic counters in the IR: lowering (one `Counter` per counter argument, `CounterUpdate`
//! ops in program order, helpers bound to the kernel's counter, the device's limit), the
//! verifier, and the IR interpreter (loaded from the buffer, written back), with expected values
//! computed by hand.

mod common;

use hls_ir::interp::run;
use hls_ir::{Dep, OpKind};

fn counter_updates(k: &hls_ir::Kernel) -> Vec<hls_ir::OpId> {
    k.op_ids()
        .into_iter()
        .filter(|&o| matches!(k.op(o).kind, OpKind::CounterUpdate { .. }))
        .collect()
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

const FILTER: &str = "kernel void k(global const int *a, global ulong *o, counter64_t c) {
  size_t i = get_global_id(0);
  if (a[i] > 0) o[i] = atomic_inc(c);
}";

#[test]
fn a_counter_argument_is_a_counter_of_the_kernel() {
    let k = common::lower(FILTER);
    assert_eq!(k.counters.len(), 1);
    let c = &k.counters[hls_ir::CounterId::from_index(0)];
    assert_eq!((c.name.as_str(), c.bits, c.arg.index()), ("c", 64, 2));
    assert!(matches!(k.args[c.arg].kind, hls_ir::ArgKind::Counter(_)));
    let ups = counter_updates(&k);
    assert_eq!(ups.len(), 1);
    assert_eq!(k.op(ups[0]).ty, hls_ir::Ty::Int(64));
    let text = hls_ir::printer::print_kernel(&k, &|_| String::new());
    assert!(text.contains("ctr0 c: counter64 of arg2"), "{text}");
    assert!(text.contains("counter_inc ctr0"), "{text}");
}

#[test]
fn the_interpreter_loads_updates_and_writes_back() {
    let k = common::lower(FILTER);
    // Inputs 5, -1, 2, 0 with the counter at 2^32 - 1: work-items 0 and 2 take 2^32 - 1 and
    // 2^32 (the interpreter runs work-items in order); the counter ends at 2^32 + 1.
    let a: Vec<u8> = [5i32, -1, 2, 0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let launch = common::launch_of(
        vec![0x1000, 0x2000, 0x3000],
        vec![
            (0x1000, a),
            (0x2000, vec![0; 32]),
            (0x3000, 0xffff_ffffu64.to_le_bytes().to_vec()),
        ],
        4,
    );
    let out = run(&k, &launch).unwrap();
    let o: Vec<u64> = out[1]
        .1
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(o, vec![0xffff_ffff, 0, 0x1_0000_0000, 0]);
    assert_eq!(out[2].1, 0x1_0000_0001u64.to_le_bytes());
}

#[test]
fn updates_keep_program_order_and_helpers_use_the_kernels_counter() {
    let k = common::lower(
        "void take(counter32_t from, global uint *o, int at) { o[at] = atomic_dec(from); }
kernel void k(global uint *o, counter32_t c, counter32_t unused) {
  int n = get_global_id(0);
  take(c, o, 2 * n);
  o[2 * n + 1] = atomic_dec(c);
  for (int j = 0; j < n; j++) atomic_dec(c);
}",
    );
    assert_eq!(k.counters.len(), 2);
    let ups = counter_updates(&k);
    assert_eq!(ups.len(), 3);
    for &u in &ups {
        assert!(matches!(
            k.op(u).kind,
            OpKind::CounterUpdate { counter, inc: false } if counter.index() == 0
        ));
    }
    let order = |a: hls_ir::OpId, b: hls_ir::OpId, distance: u32| {
        k.succs(a).contains(&(b, Dep::Order { distance }))
    };
    assert!(order(ups[0], ups[1], 0));
    assert!(order(ups[1], ups[2], 0));
    // The loop's only update follows itself in the next iteration by its position alone.
    assert!(!order(ups[2], ups[2], 1));
    // Work-item 0 takes 10, 9; work-item 1 takes 8, 7 and 6 in its loop; the counter ends at 5
    // and the unused counter's buffer is never touched (it is not even a buffer here).
    let launch = common::launch_of(
        vec![0x1000, 0x2000, 0],
        vec![
            (0x1000, vec![0; 16]),
            (0x2000, 10u32.to_le_bytes().to_vec()),
        ],
        2,
    );
    let out = run(&k, &launch).unwrap();
    let o: Vec<u32> = out[0]
        .1
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(o, vec![10, 9, 8, 7]);
    assert_eq!(out[1].1, 5u32.to_le_bytes());
}

#[test]
fn updates_in_a_loop_are_ordered_across_iterations() {
    let k = common::lower(
        "kernel void k(global const int *n, counter32_t c) {
  for (int j = 0; j < n[0]; j++) { atomic_inc(c); atomic_inc(c); }
}",
    );
    let ups = counter_updates(&k);
    assert_eq!(ups.len(), 2);
    assert!(k
        .succs(ups[1])
        .contains(&(ups[0], Dep::Order { distance: 1 })));
}

#[test]
fn more_counters_than_the_device_has_are_an_error() {
    let params: Vec<String> = (0..9).map(|i| format!("counter32_t c{i}")).collect();
    let src = format!(
        "kernel void many({}) {{ atomic_inc(c0); }}",
        params.join(",\n  ")
    );
    let text = lower_errors(&src);
    assert!(
        text.contains("kernel `many` has more than 8 atomic counter arguments"),
        "{text}"
    );
    assert!(
        text.contains("CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT is 8"),
        "{text}"
    );
    // At the ninth counter, on its line.
    assert!(text.contains("k.cl:9:"), "{text}");
    assert_eq!(hls_ir::lower::MAX_ATOMIC_COUNTERS, 8);
    // Eight are fine.
    let eight = format!(
        "kernel void many({}) {{ atomic_inc(c0); }}",
        params[..8].join(", ")
    );
    assert_eq!(common::lower(&eight).counters.len(), 8);
}

#[test]
fn the_verifier_checks_counter_updates() {
    let mut k = common::lower(FILTER);
    let u = counter_updates(&k)[0];
    k.op_mut(u).ty = hls_ir::Ty::Int(32);
    let e = hls_ir::verify::verify(&k).unwrap_err().to_string();
    assert!(e.contains("is not an update of an existing counter"), "{e}");
}
