//! Retry loops on non-blocking pipe operations are lowered as the blocking operation (no
//! nested loop); loops that do more than retry stay loops.

mod common;

use hls_ir::OpKind;

/// (nested loops, blocking pipe ops, non-blocking pipe ops) of the kernel in `src`.
fn shape(src: &str) -> (usize, usize, usize) {
    let k = common::lower(src);
    let mut blocking = 0;
    let mut plain = 0;
    for id in k.op_ids() {
        match k.op(id).kind {
            OpKind::PipeRead { blocking: b, .. } | OpKind::PipeWrite { blocking: b, .. } => {
                if b {
                    blocking += 1;
                } else {
                    plain += 1;
                }
            }
            _ => {}
        }
    }
    (k.loops.len() - 1, blocking, plain)
}

fn kernel(body: &str) -> String {
    format!(
        "kernel void k(read_only pipe int in, write_only pipe int out, global int *o) {{\n  int v = 0;\n  int st = 0;\n  {body}\n  o[get_global_id(0)] = v + st;\n}}\n"
    )
}

#[test]
fn retry_forms_become_blocking_operations() {
    for body in [
        "while (read_pipe(in, &v) != 0);",
        "while (read_pipe(in, &v) != 0) {}",
        "while (0 != read_pipe(in, &v));",
        "while (read_pipe(in, &v) < 0);",
        "while (read_pipe(in, &v) == -1);",
        "while (read_pipe(in, &v));",
        "for (; read_pipe(in, &v) != 0;);",
        "do {} while (read_pipe(in, &v) != 0);",
        "do { st = read_pipe(in, &v); } while (st != 0);",
        "do { st = read_pipe(in, &v); } while (st < 0);",
        "while (1) { if (read_pipe(in, &v) == 0) break; }",
        "for (;;) { if (!read_pipe(in, &v)) break; }",
        "while (true) { if (read_pipe(in, &v) >= 0) { break; } }",
        "while (write_pipe(out, &v) != 0);",
        // Counts of the retries that nothing reads.
        "int tries = 0; while (read_pipe(in, &v) != 0) tries++;",
        "int tries = 0, n2 = 0; while (read_pipe(in, &v) != 0) { ++tries; n2 += 2; }",
        "uint tries = 0; for (; write_pipe(out, &v) < 0;) { tries--; }",
    ] {
        assert_eq!(shape(&kernel(body)), (0, 1, 0), "{body}");
    }
}

#[test]
fn loops_that_do_more_than_retry_stay_loops() {
    for body in [
        // Work besides the retry: a count that is read afterwards.
        "while (read_pipe(in, &v) != 0) { st++; }",
        "int tries = 0; while (read_pipe(in, &v) != 0) tries++; v += tries;",
        // A count that is also changed elsewhere.
        "int tries = 0; while (read_pipe(in, &v) != 0) tries++; tries = v;",
        // Retries until failure, not success.
        "while (read_pipe(in, &v) == 0);",
        // The status is tested against something else.
        "do { st = read_pipe(in, &v); } while (st != 1);",
        // Another variable is tested.
        "int t = 0; do { st = read_pipe(in, &v); } while (t != 0);",
        // A break on failure.
        "while (1) { if (read_pipe(in, &v) != 0) break; }",
        // A reservation's slot read (always succeeds with a valid id): not a retry form.
        "reserve_id_t r = reserve_read_pipe(in, 1); while (read_pipe(in, r, 0, &v) != 0);",
    ] {
        let (loops, _, plain) = shape(&kernel(body));
        assert_eq!((loops, plain > 0), (1, true), "{body}");
    }
}

/// (nested loops, blocking reservations, non-blocking reservations) of the kernel in `src`.
fn reservations(src: &str) -> (usize, usize, usize) {
    let k = common::lower(src);
    let (mut blocking, mut plain) = (0, 0);
    for id in k.op_ids() {
        if let OpKind::PipeReserve { blocking: b, .. } = k.op(id).kind {
            if b {
                blocking += 1;
            } else {
                plain += 1;
            }
        }
    }
    (k.loops.len() - 1, blocking, plain)
}

fn reserving(body: &str) -> String {
    format!(
        "kernel void k(read_only pipe int in, global int *o) {{\n  int v = 0;\n  reserve_id_t r;\n  {body}\n  read_pipe(in, r, 0, &v);\n  commit_read_pipe(in, r);\n  o[get_global_id(0)] = v;\n}}\n"
    )
}

#[test]
fn reservations_retried_until_valid_block() {
    for body in [
        "do { r = reserve_read_pipe(in, 1); } while (!is_valid_reserve_id(r));",
        "do { r = reserve_read_pipe(in, 2); } while (is_valid_reserve_id(r) == 0);",
        "while (!is_valid_reserve_id(r = reserve_read_pipe(in, 1)));",
        "for (;;) { r = reserve_read_pipe(in, 1); if (is_valid_reserve_id(r)) break; }",
        "while (1) { r = reserve_read_pipe(in, 1); if (is_valid_reserve_id(r)) { break; } }",
    ] {
        assert_eq!(reservations(&reserving(body)), (0, 1, 0), "{body}");
    }
    for body in [
        // Retries while valid: not a retry until success.
        "do { r = reserve_read_pipe(in, 1); } while (is_valid_reserve_id(r));",
        // Work beside the reservation.
        "do { r = reserve_read_pipe(in, 1); v++; } while (!is_valid_reserve_id(r));",
        // Another id is tested.
        "reserve_id_t q = r; do { r = reserve_read_pipe(in, 1); } while (!is_valid_reserve_id(q));",
    ] {
        let (loops, _, plain) = reservations(&reserving(body));
        assert_eq!((loops, plain), (1, 1), "{body}");
    }
    // A plain read of the same pipe elsewhere in the kernel: the loop stays (the FIFO side
    // takes blocking reservations or plain reads, not both).
    let src = "kernel void k(read_only pipe int in, global int *o) {\n  int v = 0, w = 0;\n  reserve_id_t r;\n  do { r = reserve_read_pipe(in, 1); } while (!is_valid_reserve_id(r));\n  read_pipe(in, r, 0, &v);\n  commit_read_pipe(in, r);\n  while (read_pipe(in, &w) != 0);\n  o[0] = v + w;\n}\n";
    let (loops, blocking, _) = reservations(src);
    assert_eq!((loops, blocking), (1, 0));
}
