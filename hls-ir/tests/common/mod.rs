//! Shared by the integration tests: a kernel lowered from OpenCL C source.

use frontend::span::SourceMap;
use hls_ir::interp::InterpLaunch;
use hls_ir::Kernel;

/// The first kernel of `src`, checked and lowered (no passes run).
pub fn lower(src: &str) -> Kernel {
    lower_named(src, None)
}

/// The kernel `name` of `src` (the first one when `None`), checked and lowered.
pub fn lower_named(src: &str, name: Option<&str>) -> Kernel {
    let mut sm = SourceMap::new();
    let f = sm.add_file("k.cl", src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p
        .kernels()
        .find(|(_, k)| name.is_none_or(|n| k.name == n))
        .unwrap_or_else(|| panic!("no kernel {name:?}"));
    hls_ir::lower::lower_kernel(&p, id).unwrap()
}

/// A 1-D launch of `items` work-items in one group.
#[allow(dead_code)] // not every test file launches
pub fn launch_of(args: Vec<u64>, buffers: Vec<(u32, Vec<u8>)>, items: u32) -> InterpLaunch {
    InterpLaunch {
        args,
        buffers,
        global_size: [items, 1, 1],
        local_size: [items, 1, 1],
        work_dim: 1,
        max_steps: 1_000_000,
        ..Default::default()
    }
}
