//! `oclhls emu FILE.cl`: run every test of a file's header on the reference emulator (`emu`),
//! which executes the checked AST, and compare the buffers with the expected values.

use crate::compile::{self, CompileOptions};
use crate::simulate::build_options;
use anyhow::Result;
use clap::Args;
use frontend::ast::Program;
use frontend::SourceMap;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use testfile::{ArgKind, Expect, LaunchArgValue, TestCase, ValueType};

#[derive(Args, Clone)]
pub struct EmuArgs {
    #[arg(value_name = "FILE.cl")]
    pub file: PathBuf,
    /// Only run tests whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// Seed of the interleaving of work-items and kernels.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Statements and expressions a test may evaluate before it is stopped with an error.
    #[arg(long, value_name = "N", default_value_t = 200_000_000)]
    pub max_steps: u64,
    /// Define a preprocessor macro (NAME or NAME=VALUE), after the file's build_options.
    #[arg(short = 'D', value_name = "NAME[=V]")]
    pub defines: Vec<String>,
    /// Undefine a preprocessor macro.
    #[arg(short = 'U', value_name = "NAME")]
    pub undefines: Vec<String>,
    /// Add a directory to the #include search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
}

/// One buffer to check after a run.
pub struct Check {
    /// Index into the run's buffers.
    pub buffer: usize,
    /// The kernel argument index (single-kernel tests).
    pub arg: Option<u32>,
    /// How to name it in a message: "argument 2 (`c`, line 12)".
    pub label: String,
    pub ty: ValueType,
    pub expect: Expect,
    pub unordered: bool,
}

fn poison(bytes: usize) -> Vec<u8> {
    vec![0xA5; bytes]
}

/// The emulator's description of a test, and the buffers to check afterwards.
pub fn run_spec(prog: &Program, t: &TestCase) -> Result<(emu::RunSpec, Vec<Check>), String> {
    let mut spec = emu::RunSpec::default();
    let mut checks = Vec::new();
    if let Some(m) = &t.multi {
        for b in &m.buffers {
            let size = b.len as usize * b.ty.byte_size();
            spec.buffers.push(emu::BufferSpec {
                name: b.name.clone(),
                bytes: b.bytes.clone().unwrap_or_else(|| poison(size)),
            });
        }
        for p in &m.pipes {
            let packet_size = match p.packet_value_type {
                Some(vt) => vt.byte_size() as u32,
                None => prog
                    .structs
                    .structs
                    .iter()
                    .find(|s| s.name.as_deref() == Some(p.packet_type.as_str()))
                    .map(|s| s.size)
                    .ok_or_else(|| {
                        format!(
                            "line {}: pipe `{}`: the program has no type `{}`",
                            p.line, p.name, p.packet_type
                        )
                    })?,
            };
            // The hardware's FIFO for this pipe holds exactly `max_packets` and cannot hold
            // fewer than two: refuse what `oclhls sim` refuses, so both run the same pipes.
            let capacity = hwcontract::pipe::exact_depth(p.max_packets)
                .map_err(|e| format!("line {}: pipe `{}` {e}", p.line, p.name))?;
            spec.pipes.push(emu::PipeSpec {
                name: p.name.clone(),
                packet_size,
                capacity,
            });
        }
        for l in &m.launches {
            let args = l
                .args
                .iter()
                .map(|a| match &a.value {
                    LaunchArgValue::Buffer(b) => emu::ArgValue::Buffer(*b),
                    LaunchArgValue::Pipe(p) => emu::ArgValue::Pipe(*p),
                    LaunchArgValue::Value { bytes, .. } => emu::ArgValue::Value(bytes.clone()),
                    LaunchArgValue::Local { ty, len } => {
                        emu::ArgValue::Local(*len * ty.byte_size() as u32)
                    }
                })
                .collect();
            spec.launches.push(emu::LaunchSpec {
                kernel: l.kernel.clone(),
                dims: l.dimensions,
                global: l.global_size,
                local: l.local_size,
                offset: l.global_offset,
                args,
                after: l.after.clone(),
            });
        }
        for e in &m.expects {
            let b = &m.buffers[e.buffer];
            checks.push(Check {
                buffer: e.buffer,
                arg: None,
                label: format!("buffer `{}` (line {})", b.name, e.expect.line),
                ty: e.ty,
                expect: e.expect.clone(),
                unordered: e.unordered,
            });
        }
        return Ok((spec, checks));
    }
    let (_, kernel) = prog
        .function_by_name(&t.kernel_name)
        .filter(|(_, f)| f.is_kernel)
        .ok_or_else(|| format!("no kernel named `{}` (line {})", t.kernel_name, t.line))?;
    let mut args = Vec::new();
    for a in &t.args {
        let param = kernel.params.get(a.index as usize).map(|p| prog.var(*p));
        let pname = param.map_or(String::from("?"), |p| p.name.clone());
        let is_local_ptr = param.is_some_and(|p| {
            matches!(
                p.ty,
                frontend::ast::Type::Pointer {
                    space: frontend::ast::AddrSpace::Local,
                    ..
                }
            )
        });
        args.push(match &a.kind {
            ArgKind::Scalar { bytes, .. } => emu::ArgValue::Value(bytes.clone()),
            ArgKind::Buffer {
                ty,
                len,
                input,
                expect,
            } => {
                let size = *len as usize * ty.byte_size();
                let index = spec.buffers.len();
                spec.buffers.push(emu::BufferSpec {
                    name: pname.clone(),
                    bytes: input.clone().unwrap_or_else(|| poison(size)),
                });
                if let Some(e) = expect {
                    checks.push(Check {
                        buffer: index,
                        arg: Some(a.index),
                        label: format!("argument {} (`{pname}`, line {})", a.index, e.line),
                        ty: *ty,
                        expect: e.clone(),
                        unordered: false,
                    });
                }
                emu::ArgValue::Buffer(index)
            }
            ArgKind::Local { ty, len } => emu::ArgValue::Local(*len * ty.byte_size() as u32),
            ArgKind::NullBuffer { ty, len } if is_local_ptr => {
                emu::ArgValue::Local(*len * ty.byte_size() as u32)
            }
            ArgKind::NullBuffer { .. } => emu::ArgValue::Null,
        });
    }
    spec.launches.push(emu::LaunchSpec {
        kernel: t.kernel_name.clone(),
        dims: t.dimensions,
        global: t.global_size,
        local: t.local_size,
        offset: t.global_offset,
        args,
        after: Vec::new(),
    });
    Ok((spec, checks))
}

/// Why a test did not pass.
pub enum Failure {
    /// An output differs from the expected values.
    Mismatch(String),
    /// Anything else (a runtime error of the kernel, a bad test description).
    Other(String),
}

/// The first check that fails, as a message.
pub fn check_outputs(checks: &[Check], buffers: &[Vec<u8>]) -> Result<(), String> {
    for c in checks {
        let got = &buffers[c.buffer];
        let r = if c.unordered {
            testfile::compare_unordered(&c.ty, &c.expect, got)
        } else {
            testfile::compare(&c.ty, &c.expect, got)
        };
        if let Err(m) = r {
            return Err(format!("{}: {m}", c.label));
        }
    }
    Ok(())
}

/// Runs one test on the emulator: the outcome, or why it failed (runtime errors rendered).
pub fn emulate(
    prog: &Program,
    sm: &SourceMap,
    t: &TestCase,
    cfg: &emu::Config,
) -> Result<(emu::Outcome, Vec<Check>), Failure> {
    let (spec, checks) = run_spec(prog, t).map_err(Failure::Other)?;
    match emu::run(prog, sm, &spec, cfg) {
        Ok(o) => Ok((o, checks)),
        Err(e) => Err(Failure::Other(match e.to_diagnostic() {
            Some(d) => frontend::render(sm, &[d], false),
            None => format!("line {}: {e}", t.line),
        })),
    }
}

/// The emulator's side of a differential run (`oclhls sim`): its output bytes per kernel
/// argument, and what is wrong with its own run, if anything.
pub struct Verdict {
    pub outputs: BTreeMap<u32, Vec<u8>>,
    pub problem: Option<String>,
}

/// Runs a single-kernel test on the emulator and judges it against the expected values
/// (honouring `expect_test_fail`).
pub fn verdict(prog: &Program, sm: &SourceMap, t: &TestCase, seed: u64) -> Verdict {
    let cfg = emu::Config {
        seed,
        ..Default::default()
    };
    match emulate(prog, sm, t, &cfg) {
        Err(Failure::Other(w) | Failure::Mismatch(w)) => Verdict {
            outputs: BTreeMap::new(),
            problem: Some(w.trim_end().to_string()),
        },
        Ok((o, checks)) => {
            let outputs = checks
                .iter()
                .filter_map(|c| c.arg.map(|i| (i, o.buffers[c.buffer].clone())))
                .collect();
            let problem = match (check_outputs(&checks, &o.buffers), t.expect_test_fail) {
                (Ok(()), true) => Some(
                    "every output matched, but the test expects a difference (`expect_test_fail`)"
                        .to_string(),
                ),
                (Ok(()), false) | (Err(_), true) => None,
                (Err(m), false) => Some(m),
            };
            Verdict { outputs, problem }
        }
    }
}

pub fn run(a: &EmuArgs) -> Result<ExitCode> {
    let name = a.file.display().to_string();
    let tf = match crate::simulate::read_tests(&a.file, 2) {
        Ok(t) => t,
        Err(code) => return Ok(code),
    };
    let base = CompileOptions {
        defines: crate::compile::parse_defines(&a.defines),
        undefines: a.undefines.clone(),
        include_dirs: a.include_dirs.clone(),
        ..Default::default()
    };
    if tf.expect_build_fail {
        let opts = build_options(&tf.build_options, &base).unwrap_or(base.clone());
        let rejected = compile::front(&a.file, &opts)?.is_err();
        let name = tf.name.clone().unwrap_or_else(|| "build".to_string());
        return Ok(if rejected {
            println!("PASS {name} (the program is rejected, as `expect_build_fail` says)");
            println!("1 passed, 0 failed");
            ExitCode::SUCCESS
        } else {
            println!("FAIL {name}: the program compiles, but `expect_build_fail` says it must not");
            println!("0 passed, 1 failed");
            ExitCode::from(1)
        });
    }
    let cfg = emu::Config {
        seed: a.seed,
        max_steps: a.max_steps,
    };
    let mut builds = BTreeMap::new();
    let (mut passed, mut failed) = (0u32, 0u32);
    for t in tf.tests.iter().filter(|t| {
        a.filter
            .as_ref()
            .is_none_or(|f| t.name.contains(f.as_str()))
    }) {
        let key = t.build_options.clone();
        if !builds.contains_key(&key) {
            let opts = match build_options(&t.build_options, &base) {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("error: {name}:{}: {e}", t.line);
                    return Ok(ExitCode::from(2));
                }
            };
            match compile::front(&a.file, &opts)? {
                Ok((sm, prog, warnings)) => {
                    if !warnings.is_empty() {
                        eprint!("{}", compile::render(&sm, &warnings));
                    }
                    builds.insert(key.clone(), (sm, prog));
                }
                Err(f) => {
                    eprint!("{f}");
                    eprintln!("{name}: {} error(s)", f.errors);
                    return Ok(ExitCode::from(2));
                }
            }
        }
        let (sm, prog) = &builds[&key];
        let outcome = emulate(prog, sm, t, &cfg).and_then(|(o, checks)| {
            for line in o.printf.lines() {
                println!("  printf: {line}");
            }
            check_outputs(&checks, &o.buffers)
                .map(|()| o)
                .map_err(Failure::Mismatch)
        });
        let outcome = match (outcome, t.expect_test_fail) {
            (Err(Failure::Mismatch(why)), true) => Ok(format!("outputs differ as expected: {why}")),
            (Ok(_), true) => Err(
                "every output matched, but the test expects a difference (`expect_test_fail`)"
                    .to_string(),
            ),
            (Ok(o), false) => Ok(format!("{} steps", o.steps)),
            (Err(Failure::Mismatch(w) | Failure::Other(w)), _) => Err(w),
        };
        match outcome {
            Ok(summary) => {
                passed += 1;
                println!("PASS {} ({summary})", t.name);
            }
            Err(why) => {
                failed += 1;
                println!("FAIL {}: {}", t.name, why.trim_end());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
