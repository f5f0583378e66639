//! `oclhls sim` for multi-kernel tests: the test's kernels and pipes become a system top
//! (`crate::system`), built as one Verilator model with every kernel live at once, run by
//! `sim::SystemRun`, and checked against the test's expected values (which the emulator must
//! meet too).

use crate::compile::Compiled;
use crate::emulate;
use crate::simulate::{check_local_size, memory_config, port_specs, scalar_value, SimArgs};
use frontend::ast::Program;
use rtl_templates::namer::legal;
use rtl_templates::ArgPortKind;
use std::path::{Path, PathBuf};
use testfile::{LaunchArgValue, MultiTest, TestCase};

/// Runs multi-kernel test `t`; the summary line, or why it failed.
pub fn run(
    a: &SimArgs,
    tc: &toolchain::Toolchain,
    c: &Compiled,
    prog: &Program,
    dir: &Path,
    t: &TestCase,
    m: &MultiTest,
) -> Result<String, String> {
    let module = format!("system_{}", legal(&t.name).to_lowercase());
    let module: String = module.chars().take(60).collect();
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
    for &k in &plan.kernels {
        files.push(dir.join(&c.kernels[k].rtl.file_name));
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
    let built =
        sim::build_model(tc, &src, &sim::BuildOptions::default()).map_err(|e| e.to_string())?;
    let mut model = built.instantiate().map_err(|e| e.to_string())?;
    let mut mem = sim::GlobalMemory::new();
    // Buffers: shared bytes, one allocation each.
    let mut addrs = Vec::new();
    for b in &m.buffers {
        let elem = b.ty.byte_size();
        let size = (b.len as usize * elem).max(1);
        let addr = mem
            .alloc(size, elem.max(4) as u32)
            .map_err(|e| e.to_string())?;
        let init = b.bytes.clone().unwrap_or_else(|| vec![0xA5; size]);
        mem.write_bytes(addr, &init).map_err(|e| e.to_string())?;
        addrs.push((addr, size));
    }
    let mut run = sim::SystemRun::new(&mut model);
    for (li, l) in m.launches.iter().enumerate() {
        let kc = &c.kernels[plan.kernels[li]];
        let iface = &kc.rtl.interface;
        let mut launch = sim::SystemLaunch::new(&iface.module);
        for arg in &l.args {
            let ap = iface.args.get(arg.index as usize).ok_or_else(|| {
                format!(
                    "line {}: kernel `{}` has no argument {}",
                    arg.line, l.kernel, arg.index
                )
            })?;
            let port = ap
                .port
                .as_ref()
                .map(|p| p.trim_start_matches("arg_").to_string());
            match (&arg.value, ap.kind) {
                (LaunchArgValue::Pipe(_), ArgPortKind::Pipe) => {}
                (LaunchArgValue::Buffer(b), ArgPortKind::Global) => {
                    if let Some(p) = &port {
                        launch = launch.arg(p, addrs[*b].0 as u64);
                    }
                }
                (LaunchArgValue::Value { bytes, .. }, ArgPortKind::Scalar) => {
                    if let Some(p) = &port {
                        launch = launch.arg(p, scalar_value(bytes));
                    }
                }
                (LaunchArgValue::Local { ty, len }, ArgPortKind::Local) => {
                    let what = format!(
                        "line {}: argument {} of `{}`",
                        arg.line, arg.index, l.kernel
                    );
                    check_local_size(ty, *len, ap, &what)?;
                }
                (_, want) => {
                    return Err(format!(
                        "line {}: argument {} of `{}` (`{}`) is a {want} argument",
                        arg.line, arg.index, l.kernel, ap.name
                    ))
                }
            }
        }
        let mut global = l.global_size;
        let mut local = l.local_size.unwrap_or(global).map(|x| x.max(1));
        for d in (l.dimensions as usize).min(3)..3 {
            global[d] = 1;
            local[d] = 1;
        }
        if let Some(max) = kc.ir.work_groups {
            let items: u64 = (0..3).map(|d| local[d].min(global[d]) as u64).product();
            if items > max as u64 {
                return Err(format!(
                    "line {}: `{}` has barriers and its hardware holds work-groups of at most {max} work-items, but the launch has groups of {items}",
                    l.line, l.kernel
                ));
            }
        }
        launch = launch.range(sim::NdRange {
            global_size: global,
            local_size: local,
            global_offset: l.global_offset,
            work_dim: l.dimensions,
        });
        for &d in &l.after {
            launch = launch.after(&c.kernels[plan.kernels[d]].rtl.interface.module);
        }
        run = run.launch(launch);
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
        max_cycles: a.max_cycles,
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
