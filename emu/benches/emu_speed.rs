//! Emulator speed: a few kernels, each run once, as a table of steps per second.
//! `cargo bench -p emu` (a plain binary: the numbers are for watching trends, not for gating).

use emu::{ArgValue, BufferSpec, Config, LaunchSpec, PipeSpec, RunSpec};
use std::time::Instant;

const SRC: &str = r#"
kernel void loop1(global uint *o) {
    uint acc = 0;
    for (uint i = 0; i < 1000000; i++) acc += i;
    o[0] = acc;
}
kernel void vadd(global const int *a, global const int *b, global int *c) {
    uint i = get_global_id(0);
    c[i] = a[i] + b[i];
}
kernel void reduce(global const int *in, global int *out) {
    local int t[256];
    uint l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 128; s > 0; s >>= 1) {
        if (l < s) t[l] += t[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = t[0];
}
kernel void vadd_atomic(global const int *a, global const int *b, global int *c,
                        global atomic_uint *n) {
    uint i = get_global_id(0);
    c[i] = a[i] + b[i];
    if (i % 64 == 0) atomic_fetch_add_explicit(n, 1u, memory_order_relaxed);
}
kernel void histogram(global const uint *in, global uint *out) {
    local atomic_uint bins[256];
    uint l = get_local_id(0);
    atomic_init(&bins[l], 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 16; k++)
        atomic_fetch_add_explicit(&bins[(in[get_global_id(0)] * 16 + k) % 256], 1u,
                                  memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = atomic_load(&bins[l]);
}
kernel void produce(write_only pipe int p, int n) {
    for (int i = 0; i < n; i++) while (write_pipe(p, &i) != 0) ;
}
kernel void consume(read_only pipe int p, int n, global int *o) {
    int s = 0, v;
    for (int i = 0; i < n; i++) { while (read_pipe(p, &v) != 0) ; s += v; }
    o[0] = s;
}
"#;

fn buf(n: usize) -> BufferSpec {
    BufferSpec {
        name: "b".into(),
        bytes: vec![1; n],
    }
}

fn launch(kernel: &str, global: u32, local: u32, args: Vec<ArgValue>) -> LaunchSpec {
    LaunchSpec {
        kernel: kernel.into(),
        dims: 1,
        global: [global, 1, 1],
        local: Some([local, 1, 1]),
        offset: [0; 3],
        args,
        after: Vec::new(),
    }
}

fn main() {
    let mut sm = frontend::SourceMap::new();
    let file = sm.add_file("bench.cl", SRC);
    let (prog, _) = frontend::compile(&mut sm, file, &Default::default()).expect("compiles");
    let n = 65536u32;
    let int = |v: i32| ArgValue::Value(v.to_le_bytes().to_vec());
    let cases: Vec<(&str, u32, RunSpec)> = vec![
        (
            "loop1: 1 work-item, 10^6 iterations",
            1,
            RunSpec {
                buffers: vec![buf(4)],
                launches: vec![launch("loop1", 1, 1, vec![ArgValue::Buffer(0)])],
                ..Default::default()
            },
        ),
        (
            "vadd: 65536 work-items in groups of 64",
            n,
            RunSpec {
                buffers: vec![
                    buf(4 * n as usize),
                    buf(4 * n as usize),
                    buf(4 * n as usize),
                ],
                launches: vec![launch(
                    "vadd",
                    n,
                    64,
                    vec![
                        ArgValue::Buffer(0),
                        ArgValue::Buffer(1),
                        ArgValue::Buffer(2),
                    ],
                )],
                ..Default::default()
            },
        ),
        (
            "vadd_atomic: vadd + 1 atomic per 64 (race check on)",
            n,
            RunSpec {
                buffers: vec![
                    buf(4 * n as usize),
                    buf(4 * n as usize),
                    buf(4 * n as usize),
                    buf(4),
                ],
                launches: vec![launch(
                    "vadd_atomic",
                    n,
                    64,
                    vec![
                        ArgValue::Buffer(0),
                        ArgValue::Buffer(1),
                        ArgValue::Buffer(2),
                        ArgValue::Buffer(3),
                    ],
                )],
                ..Default::default()
            },
        ),
        (
            "histogram: 16384 work-items x 16 local atomics",
            16384,
            RunSpec {
                buffers: vec![buf(4 * 16384), buf(4 * 16384)],
                launches: vec![launch(
                    "histogram",
                    16384,
                    256,
                    vec![ArgValue::Buffer(0), ArgValue::Buffer(1)],
                )],
                ..Default::default()
            },
        ),
        (
            "reduce: 16384 work-items in groups of 256, 9 barriers",
            16384,
            RunSpec {
                buffers: vec![buf(4 * 16384), buf(4 * 64)],
                launches: vec![launch(
                    "reduce",
                    16384,
                    256,
                    vec![ArgValue::Buffer(0), ArgValue::Buffer(1)],
                )],
                ..Default::default()
            },
        ),
        (
            "pipe: 20000 packets through a pipe of 16",
            2,
            RunSpec {
                buffers: vec![buf(4)],
                pipes: vec![PipeSpec {
                    name: "p".into(),
                    packet_size: 4,
                    capacity: 16,
                }],
                launches: vec![
                    launch("produce", 1, 1, vec![ArgValue::Pipe(0), int(20000)]),
                    launch(
                        "consume",
                        1,
                        1,
                        vec![ArgValue::Pipe(0), int(20000), ArgValue::Buffer(0)],
                    ),
                ],
            },
        ),
    ];
    println!(
        "{:<55} {:>10} {:>12} {:>9} {:>12}",
        "case", "items", "steps", "seconds", "steps/s"
    );
    for (name, items, spec) in cases {
        let t = Instant::now();
        let o = emu::run(&prog, &sm, &spec, &Config::default()).expect("runs");
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name:<55} {items:>10} {:>12} {secs:>9.3} {:>12.0}",
            o.steps,
            o.steps as f64 / secs
        );
    }
}
