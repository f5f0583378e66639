//! Streaming throughput of pipes: a producer, N stage kernels and a consumer connected by
//! pipes, one packet per work-item, run by `oclhls sim` in Verilator with ideal memory. Prints
//! a table of packets per cycle (goal: >= 0.99 in steady state).
//!
//! ```sh
//! cargo build --bin oclhls --example pipe_chain_bench
//! ./target/debug/examples/pipe_chain_bench              # N = 1, 3, 8; 4096 packets; depth 16
//! ./target/debug/examples/pipe_chain_bench 4 16384 2    # N = 4, 16384 packets, pipes of 2
//! ./target/debug/examples/pipe_chain_bench 3 4096 16 retry   # one form only
//! ```
//!
//! Each stage reads a packet, adds 1 and writes it, so the consumer's buffer must hold
//! `i + N`; `oclhls sim` checks that (and the emulator agrees). The reads and writes are
//! written in one of four forms ([`Form`]): the blocking built-ins, the portable retry loop
//! `while (read_pipe(in, &v) != 0);`, `do { st = read_pipe(in, &v); } while (st != 0);`, or a
//! reservation retried until valid (`do { r = reserve_read_pipe(in, 1); } while
//! (!is_valid_reserve_id(r));`), then `read_pipe(in, r, 0, &v)` and the commit.

use std::path::PathBuf;
use std::process::Command;

/// How the kernels wait for a pipe.
#[derive(Clone, Copy)]
enum Form {
    Blocking,
    Retry,
    DoStatus,
    Reserve,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Blocking => "blocking",
            Form::Retry => "retry",
            Form::DoStatus => "do-status",
            Form::Reserve => "reserve",
        }
    }

    /// A read (`read`) or write of `v` through pipe `p` in this form.
    fn op(self, read: bool, p: &str) -> String {
        let f = if read { "read_pipe" } else { "write_pipe" };
        match self {
            Form::Blocking => format!("{f}_block({p}, &v);"),
            Form::Retry => format!("while ({f}({p}, &v) != 0);"),
            Form::DoStatus => format!("int st;\n    do {{ st = {f}({p}, &v); }} while (st != 0);"),
            Form::Reserve => {
                let side = if read { "read" } else { "write" };
                let r = if read { "rr" } else { "rw" };
                format!(
                    "reserve_id_t {r};\n    do {{ {r} = reserve_{side}_pipe({p}, 1); }} while (!is_valid_reserve_id({r}));\n    {f}({p}, {r}, 0, &v);\n    commit_{side}_pipe({p}, {r});"
                )
            }
        }
    }
}

fn system(stages: usize, packets: u32, depth: u32, form: Form) -> String {
    let mut l = vec![
        "/*!\n[config]\nname: pipe chain\n\n[test]\nname: chain".to_string(),
        format!("launch: producer {packets} 64"),
    ];
    for i in 0..stages {
        l.push(format!("launch: stage{i} {packets} 64"));
    }
    l.push(format!("launch: consumer {packets} 64"));
    for i in 0..=stages {
        l.push(format!("pipe:   p{i} int {depth}"));
    }
    l.push(format!("buffer: src int[{packets}] iota 0 1"));
    l.push(format!("buffer: dst int[{packets}] repeat -1"));
    l.push("arg: producer 0 src\narg: producer 1 p0".into());
    for i in 0..stages {
        l.push(format!("arg: stage{i} 0 p{i}\narg: stage{i} 1 p{}", i + 1));
    }
    l.push(format!("arg: consumer 0 p{stages}\narg: consumer 1 dst"));
    l.push(format!(
        "expect: dst int[{packets}] unordered iota {stages} 1\n!*/\n"
    ));
    let mut s = l.join("\n");
    let (rd, wr) = (form.op(true, "in"), form.op(false, "out"));
    s.push_str(&format!(
        "kernel void producer(global const int *src, write_only pipe int out)\n{{\n    int v = src[get_global_id(0)];\n    {wr}\n}}\n",
    ));
    for i in 0..stages {
        // The stage's write has its own status variable in the do-status form.
        let wr2 = wr.replace("int st;", "int st2;").replace("st ", "st2 ");
        s.push_str(&format!(
            "kernel void stage{i}(read_only pipe int in, write_only pipe int out)\n{{\n    int v;\n    {rd}\n    v += 1;\n    {wr2}\n}}\n"
        ));
    }
    s.push_str(&format!(
        "kernel void consumer(read_only pipe int in, global int *dst)\n{{\n    int v;\n    {rd}\n    dst[get_global_id(0)] = v;\n}}\n",
    ));
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = [Form::Blocking, Form::Retry, Form::DoStatus, Form::Reserve];
    let runs: Vec<(usize, u32, u32, Form)> = if args.is_empty() {
        let mut v = Vec::new();
        for form in all {
            for (n, p, d) in [(1, 4096, 16), (3, 4096, 16), (8, 4096, 16), (3, 4096, 2)] {
                v.push((n, p, d, form));
            }
        }
        v
    } else {
        let n = |i: usize, d: u32| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
        let forms: Vec<Form> = match args.get(3) {
            Some(f) => all.into_iter().filter(|x| x.name() == f).collect(),
            None => all.to_vec(),
        };
        forms
            .into_iter()
            .map(|f| (n(0, 3) as usize, n(1, 4096), n(2, 16), f))
            .collect()
    };
    let exe = std::env::current_exe().expect("own path");
    let bin = exe
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("oclhls"))
        .expect("target directory");
    let dir = tempfile::tempdir().expect("temp dir");
    println!("| form | stages | packets | pipe depth | cycles | packets / cycle | result |");
    println!("|---|---|---|---|---|---|---|");
    for (stages, packets, depth, form) in runs {
        let f = form.name();
        let file: PathBuf = dir
            .path()
            .join(format!("chain{stages}_{packets}_{depth}_{f}.cl"));
        std::fs::write(&file, system(stages, packets, depth, form)).expect("write");
        let out = Command::new(&bin)
            .args(["sim", file.to_str().unwrap(), "--ideal-memory", "-o"])
            .arg(dir.path().join(format!("rtl{stages}_{depth}_{f}")))
            .output()
            .expect("oclhls runs (build it first: cargo build --bin oclhls)");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text
            .lines()
            .find(|l| l.starts_with("PASS") || l.starts_with("FAIL"));
        let cycles: Option<u64> = line.and_then(|l| {
            let i = l.find('(')?;
            l[i + 1..].split_whitespace().next()?.parse().ok()
        });
        match (line, cycles) {
            (Some(l), Some(c)) if l.starts_with("PASS") => println!(
                "| {f} | {stages} | {packets} | {depth} | {c} | {:.4} | pass |",
                packets as f64 / c as f64
            ),
            _ => println!(
                "| {f} | {stages} | {packets} | {depth} | — | — | {} |",
                line.unwrap_or("no result").replace('|', "/")
            ),
        }
    }
}
