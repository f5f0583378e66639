//! Bursts end to end: kernels whose ports combine consecutive accesses run on the SDRAM model
//! and on random memory (whose protocol checker checks every burst rule), and the report says
//! which accesses burst. Expected values come from the test files' headers (vadd: hand
//! computed; the copy kernel below: the input itself).

mod common;

use common::{oclhls, root, write};

fn stdout(o: &common::Output) -> String {
    o.stdout.clone()
}

/// "in N bursts" of every PASS line (the SDRAM model's count).
fn bursts(out: &str) -> Vec<u64> {
    out.lines()
        .filter_map(|l| l.split(" written in ").nth(1))
        .filter_map(|r| r.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn vadd_bursts_on_sdram_with_a_long_read_latency() {
    let dir = tempfile::tempdir().unwrap();
    let vadd = root().join("examples/vadd.cl");
    let vadd = vadd.to_str().unwrap();
    let args = [
        "sim",
        vadd,
        "--memory",
        "sdram",
        "--memory-latency",
        "32",
        "--filter",
        "1024",
    ];
    let o = oclhls(&args, dir.path());
    let out = stdout(&o);
    assert_eq!(o.code, 0, "{out}{}", o.stderr);
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    // 1024 work-items read a and b and write c: 3072 single transfers without bursts.
    let n = bursts(&out);
    assert_eq!(n.len(), 1, "{out}");
    assert!(n[0] < 3072 / 4, "expected bursts of several beats: {out}");
}

#[test]
fn reports_say_which_accesses_burst_and_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let src = "kernel void k(global const int *a, global const int *idx, global int *c) {
  int i = get_global_id(0);
  c[i] = a[idx[i]];
}
";
    let f = write(dir.path(), "k.cl", src);
    let o = oclhls(&[&f, "-o", "out"], dir.path());
    let out = stdout(&o);
    assert_eq!(o.code, 0, "{out}{}", o.stderr);
    assert!(
        out.contains("store to `c` (line 3): burst of up to 32 beats"),
        "{out}"
    );
    assert!(
        out.contains("load from `a` (line 3): no burst, because its address does not step"),
        "{out}"
    );
    assert!(
        out.contains(
            "load from `idx` (line 3): no burst, because the schedule's read latency (3 cycles)"
        ),
        "{out}"
    );
    let report = std::fs::read_to_string(dir.path().join("out/report.json")).unwrap();
    let r: serde_json::Value = serde_json::from_str(&report).unwrap();
    let b = &r["kernels"][0]["bursts"];
    assert_eq!(b.as_array().map(Vec::len), Some(3), "{b}");
    let store = b
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["access"] == "store to `c`")
        .unwrap();
    assert_eq!(store["max_beats"], 32);
    assert_eq!(store["loop"], "k.work_items");
    // With a read latency that leaves time, the index load bursts too (16 beats: half of it).
    let o = oclhls(&[&f, "-o", "out2", "--memory-latency", "32"], dir.path());
    let out = stdout(&o);
    assert!(
        out.contains("load from `idx` (line 3): burst of up to 16 beats"),
        "{out}"
    );
    // An async copy's reads are planned bursts of up to 1 KB (one SDRAM row), whatever the
    // element's size: 256 beats of `uint` (AXI4's limit), 16 of `ulong8`.
    let src = "kernel void k(global const uint *a, global const ulong8 *b, global uint *c) {
  local uint t[256];
  local ulong8 u[16];
  event_t e = async_work_group_copy(t, a, 256, 0);
  event_t f = async_work_group_copy(u, b, 16, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &f);
  c[get_local_id(0)] = t[get_local_id(0)] + (uint)u[get_local_id(0) % 16].s0;
}
";
    let f = write(dir.path(), "copy.cl", src);
    let o = oclhls(&[&f, "-o", "out3"], dir.path());
    let out = stdout(&o);
    assert_eq!(o.code, 0, "{out}{}", o.stderr);
    for (name, line, beats) in [("a", 4, 256), ("b", 5, 16)] {
        let want = format!(
            "load from `{name}` (line {line}): burst of up to {beats} beats, each asked for at \
             its first read"
        );
        assert!(out.contains(&want), "{want}\n{out}");
    }
}

#[test]
fn streaming_copy_bursts_under_random_timing() {
    // A single work-item copy loop: reads and writes burst; random latency and back-pressure
    // with the per-cycle protocol checker (burst length, 4 KB, last).
    let dir = tempfile::tempdir().unwrap();
    let n = 1500;
    let values: Vec<String> = (0..n).map(|i| ((i * 7919) % 65536).to_string()).collect();
    let header = format!(
        "/*!\n[config]\nkernel_name: copy\n\n[test]\nname: copy {n}\nglobal_size: 1 1 1\nlocal_size: 1 1 1\narg_in: 0 buffer uint[{n}] {v}\narg_out: 1 buffer uint[{n}] {v}\narg_in: 2 uint {n}\n!*/\n",
        v = values.join(" ")
    );
    let src = format!(
        "{header}kernel void copy(global const uint *a, global uint *b, uint n) {{\n  for (uint i = 0; i < n; i++)\n    b[i] = a[i];\n}}\n"
    );
    let f = write(dir.path(), "copy.cl", &src);
    for extra in [&[][..], &["--memory-latency", "32"][..]] {
        let mut args = vec!["sim", &f, "--seed", "3"];
        args.extend_from_slice(extra);
        let o = oclhls(&args, dir.path());
        let out = stdout(&o);
        assert_eq!(o.code, 0, "{out}{}", o.stderr);
        assert!(out.contains("1 passed, 0 failed"), "{out}");
    }
}

#[test]
fn copies_sharing_a_port_keep_their_planned_bursts_apart() {
    // Two async copies from one buffer in flight together: each asks for its bursts at its
    // first read (read runs), and the port takes reads from the copy whose burst is open
    // only. On the SDRAM model the bus is slower than the copies, so their pipelines stall
    // and take turns; without the lock the second copy's reads joined the first's burst and
    // the results were wrong (checked by breaking the lock).
    let dir = tempfile::tempdir().unwrap();
    let f = root().join("tests/kernels/async_copy_shared_port.cl");
    // The compile summary says how the copies' reads burst.
    let o = oclhls(&[f.to_str().unwrap()], dir.path());
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let planned = o.stdout.matches("each asked for at its first read").count();
    assert_eq!(planned, 4, "{}", o.stdout);
    for memory in ["sdram", "random"] {
        let args = ["sim", f.to_str().unwrap(), "--memory", memory];
        let o = oclhls(&args, dir.path());
        let out = stdout(&o);
        assert_eq!(o.code, 0, "{out}{}", o.stderr);
        assert!(out.contains("2 passed, 0 failed"), "{out}");
    }
}
