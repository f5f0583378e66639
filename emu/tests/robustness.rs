//! No input makes the emulator panic or hang: every kernel of the front end's corpus
//! (frontend/tests/kernels, valid kernels without test vectors) and of tests/emu runs alone
//! with synthesised arguments (zeroed buffers, empty pipes, zero scalars) under a small step
//! limit, and ends either normally or with a spanned `EmuError` (a kernel may well deadlock on
//! an empty pipe or index out of bounds with zero inputs; that is a report, not a failure of
//! the emulator).

use emu::{ArgValue, BufferSpec, Config, EmuError, LaunchSpec, PipeSpec, RunSpec};
use frontend::ast::{AddrSpace, Type};
use std::path::{Path, PathBuf};

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in [
        "frontend/tests/kernels",
        "tests/emu",
        "tests/emu/errors",
        "tests/kernels",
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_corpus_kernel_runs_or_reports() {
    let files = corpus();
    assert!(files.len() > 20);
    let mut ran = 0;
    for path in files {
        let mut sm = frontend::SourceMap::new();
        let file = frontend::load_file(&mut sm, &path).unwrap();
        let opts = frontend::Options {
            include_dirs: vec![path.parent().unwrap().join("../include")],
            ..Default::default()
        };
        let Ok((prog, _)) = frontend::compile(&mut sm, file, &opts) else {
            continue; // not this test's business
        };
        for (_, k) in prog.kernels() {
            let mut spec = RunSpec::default();
            let mut args = Vec::new();
            for p in &k.params {
                let ty = &prog.var(*p).ty;
                args.push(match ty {
                    Type::Pointer { space, .. } if *space == AddrSpace::Local => {
                        ArgValue::Local(4096)
                    }
                    Type::Pointer { .. } | Type::Counter32 | Type::Counter64 => {
                        spec.buffers.push(BufferSpec {
                            name: prog.var(*p).name.clone(),
                            bytes: vec![0; 1 << 16],
                        });
                        ArgValue::Buffer(spec.buffers.len() - 1)
                    }
                    Type::Pipe { packet, .. } => {
                        spec.pipes.push(PipeSpec {
                            name: prog.var(*p).name.clone(),
                            packet_size: prog.size_of(packet),
                            capacity: 16,
                        });
                        ArgValue::Pipe(spec.pipes.len() - 1)
                    }
                    t => ArgValue::Value(vec![0; prog.size_of(t) as usize]),
                });
            }
            let reqd = k.kernel_attrs.reqd_work_group_size;
            let local = reqd.unwrap_or([4, 1, 1]);
            spec.launches.push(LaunchSpec {
                kernel: k.name.clone(),
                dims: 1,
                global: [local[0] * 4, 1, 1],
                local: Some(local),
                offset: [0; 3],
                args,
                after: Vec::new(),
            });
            let cfg = Config {
                seed: 3,
                max_steps: 200_000,
            };
            match emu::run(&prog, &sm, &spec, &cfg) {
                Ok(o) => assert!(o.steps > 0),
                Err(e @ EmuError::Runtime { .. }) => {
                    let d = e.to_diagnostic().expect("runtime errors have spans");
                    let text = frontend::render(&sm, &[d], false);
                    eprintln!("{}", text.lines().next().unwrap_or(""));
                    assert!(text.contains("-->") || text.contains("┌─"), "{text}");
                }
                Err(EmuError::Setup(m)) => panic!("{}: kernel `{}`: {m}", path.display(), k.name),
            }
            ran += 1;
        }
    }
    assert!(ran >= 25, "only {ran} kernels ran");
}

/// A chain of `m` helper functions, each adding 399 to the one below inside a 400-level
/// expression, and a kernel `k` writing `f<m>(1)` to `o[0]`.
fn call_chain(m: usize) -> (frontend::SourceMap, frontend::ast::Program, RunSpec) {
    let mut src = String::from("int f0(int x) { return x; }\n");
    for i in 1..=m {
        src.push_str(&format!(
            "int f{i}(int x) {{ return f{}(x){}; }}\n",
            i - 1,
            "+x".repeat(399)
        ));
    }
    src.push_str(&format!(
        "kernel void k(global int *o) {{ o[0] = f{m}(1); }}\n"
    ));
    let mut sm = frontend::SourceMap::new();
    let file = sm.add_file("deep.cl", src);
    let (prog, _) = frontend::compile(&mut sm, file, &Default::default()).expect("compiles");
    let spec = RunSpec {
        buffers: vec![BufferSpec {
            name: "o".into(),
            bytes: vec![0; 4],
        }],
        launches: vec![LaunchSpec {
            kernel: "k".into(),
            dims: 1,
            global: [1, 1, 1],
            local: Some([1, 1, 1]),
            offset: [0; 3],
            args: vec![ArgValue::Buffer(0)],
            after: Vec::new(),
        }],
        ..Default::default()
    };
    (sm, prog, spec)
}

/// Calls stack the front end's per-expression nesting bound: past `MAX_DEPTH` levels the
/// emulator reports an error at the span instead of overflowing its stack.
#[test]
fn deep_nesting_through_calls_is_reported_not_a_crash() {
    let (sm, prog, spec) = call_chain(25);
    match emu::run(&prog, &sm, &spec, &Config::default()) {
        Err(e @ EmuError::Runtime { .. }) => {
            assert!(e.to_string().contains("deeper than"), "{e}");
        }
        other => panic!("expected a nesting error, got {other:?}"),
    }
}

#[test]
fn four_thousand_levels_of_recursion_run() {
    let (sm, prog, spec) = call_chain(10);
    let o = emu::run(&prog, &sm, &spec, &Config::default()).expect("runs");
    // f10(1) = 1 + 10 * 399
    assert_eq!(o.buffers[0], 3991i32.to_le_bytes());
}
