//! `oclhls sim` for multi-kernel tests: the test's kernels and pipes become a system top
//! (`crate::system`), built as one Verilator model with every kernel live at once, run by
//! `sim::SystemRun`, and checked against the test's expected values (which the emulator must
//! meet too).

use crate::compile::Compiled;
use crate::emulate;
use crate::simulate::{build_model, kernel_shape, memory_config, port_specs, SimArgs, Waveform};
use frontend::ast::Program;
use rtl_templates::namer::legal;
use std::path::{Path, PathBuf};
use testfile::{MultiTest, TestCase};

/// The system top's module name: `system_`, its kernels' names, and 8 hex digits of a hash of
/// its Verilog. Tests that run the same kernels and pipes (most tests of a file) then write
/// the same top and share one Verilator model (the model cache is by content), while two
/// different systems never share a name in the `systems/` directory.
pub(crate) fn module_name(c: &Compiled, m: &MultiTest) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    let probe = crate::system::from_test(c, m, "system")?;
    let mut h = Sha256::new();
    h.update(probe.top(c).verilog.as_bytes());
    for v in probe.modules(c) {
        h.update(v.verilog.as_bytes());
    }
    let digest = h.finalize();
    let mut kernels: Vec<String> = probe
        .kernels
        .iter()
        .map(|&k| legal(&c.kernels[k].ir.name).to_lowercase())
        .collect();
    kernels.dedup();
    let stem: String = format!("system_{}", kernels.join("_"))
        .chars()
        .take(48)
        .collect();
    let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{stem}_{hex}"))
}

/// The start of every run of a multi-kernel test: its buffers in a fresh memory (one
/// allocation each, shared bytes) and each launch's arguments bound to its kernel.
pub(crate) struct BoundSystem {
    pub mem: sim::GlobalMemory,
    /// Each buffer's address and size.
    pub addrs: Vec<(u32, usize)>,
    /// Per launch of the test.
    pub launches: Vec<sim::LaunchBinding>,
}

/// Binds multi-kernel test `m` to the kernels of `plan`: what the Verilator system run, the
/// simulated board and a real board all start from.
pub(crate) fn bind_multi(
    c: &Compiled,
    m: &MultiTest,
    plan: &crate::system::Plan,
) -> Result<BoundSystem, String> {
    let mut mem = sim::GlobalMemory::new();
    let addrs = sim::bind::alloc_buffers(&mut mem, &m.buffers).map_err(|e| e.to_string())?;
    let launches = m
        .launches
        .iter()
        .enumerate()
        .map(|(li, l)| {
            let kc = &c.kernels[plan.kernels[li]];
            sim::bind_launch(l, &kernel_shape(kc), &addrs).map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    Ok(BoundSystem {
        mem,
        addrs,
        launches,
    })
}

/// Runs multi-kernel test `t` (its waveform into `wave`); the summary line, or why it failed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    a: &SimArgs,
    tc: &toolchain::Toolchain,
    c: &Compiled,
    prog: &Program,
    dir: &Path,
    t: &TestCase,
    m: &MultiTest,
    wave: &mut Waveform,
) -> Result<String, String> {
    let module = module_name(c, m)?;
    let plan = crate::system::from_test(c, m, &module)?;
    let top = plan.top(c);
    let sys_dir = dir.join("systems");
    std::fs::create_dir_all(&sys_dir)
        .map_err(|e| format!("cannot create {}: {e}", sys_dir.display()))?;
    let mut files: Vec<PathBuf> = Vec::new();
    for (name, text) in rtl_templates::support_files()
        .into_iter()
        .chain(rtl_templates::system::system_support_files())
    {
        let p = sys_dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        files.push(p);
    }
    for (li, &k) in plan.kernels.iter().enumerate() {
        match &plan.shared.variants[li] {
            // A kernel with a counter the top holds: its variant, beside this system's top.
            Some(v) => {
                let vdir = sys_dir.join(&module);
                std::fs::create_dir_all(&vdir)
                    .map_err(|e| format!("cannot create {}: {e}", vdir.display()))?;
                let p = vdir.join(&v.file_name);
                std::fs::write(&p, &v.verilog)
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                files.push(p);
            }
            None => files.push(dir.join(&c.kernels[k].rtl.file_name)),
        }
    }
    let top_path = sys_dir.join(format!("{module}.v"));
    std::fs::write(&top_path, &top.verilog)
        .map_err(|e| format!("cannot write {}: {e}", top_path.display()))?;
    files.push(top_path);
    let ports = port_specs(&top.ports);
    let src = sim::ModelSource {
        top: module.clone(),
        files,
        ports,
    };
    let built = build_model(a, tc, &src)?;
    let mut model = wave.instantiate(&built)?;
    let BoundSystem {
        mut mem,
        addrs,
        launches,
    } = bind_multi(c, m, &plan)?;
    let mut run = sim::SystemRun::new(&mut model);
    for ((li, l), bound) in m.launches.iter().enumerate().zip(launches) {
        let kc = &c.kernels[plan.kernels[li]];
        let mut launch = bound.apply(sim::SystemLaunch::new(&kc.rtl.interface.module));
        for &d in &l.after {
            launch = launch.after(&c.kernels[plan.kernels[d]].rtl.interface.module);
        }
        run = run.launch(launch);
    }
    for (sc, &b) in plan.shared.counters.iter().zip(&plan.shared.buffers) {
        run = run.shared_counter(&legal(&sc.name), addrs[b].0);
    }
    for p in &plan.pipes {
        if let (Some((w, _)), Some((r, _))) = (&p.writer, &p.reader) {
            run = run.pipe_ends(
                &legal(&p.name),
                &c.kernels[plan.kernels[*w]].rtl.interface.module,
                &c.kernels[plan.kernels[*r]].rtl.interface.module,
            );
        }
    }
    let memory = memory_config(a);
    let config = sim::RunConfig {
        seed: a.seed,
        max_cycles: a.cycle_budget(),
        deadlock_cycles: a.deadlock_cycles,
        memory,
        ..Default::default()
    };
    let stats = run
        .config(config)
        .run(&mut mem)
        .map_err(|e| e.to_string())?;
    // The expected values (the emulator meets them too, or the caller reports it).
    let (_, checks) = emulate::run_spec(prog, t)?;
    let mut buffers = Vec::new();
    for &(addr, size) in &addrs {
        buffers.push(
            mem.read_bytes(addr, size)
                .map_err(|e| e.to_string())?
                .to_vec(),
        );
    }
    emulate::check_outputs(&checks, &buffers).map_err(|m| format!("Verilator: {m}"))?;
    let pipes: Vec<String> = stats
        .pipes
        .iter()
        .map(|p| {
            format!(
                "{}: max {}/{} packets, {} write-wait and {} read-wait cycles",
                p.name, p.max_count, p.depth, p.wr_wait_cycles, p.rd_wait_cycles
            )
        })
        .collect();
    Ok(format!(
        "{} cycles, {} kernels live at once{}",
        stats.cycles,
        m.launches.len(),
        if pipes.is_empty() {
            String::new()
        } else {
            format!("; pipes: {}", pipes.join("; "))
        }
    ))
}
