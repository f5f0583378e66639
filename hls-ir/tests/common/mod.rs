//! Shared by the integration tests: a kernel lowered from OpenCL C source.

use frontend::span::SourceMap;
use hls_ir::Kernel;

/// The first kernel of `src`, checked and lowered (no passes run).
pub fn lower(src: &str) -> Kernel {
    let mut sm = SourceMap::new();
    let f = sm.add_file("k.cl", src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p.kernels().next().unwrap();
    hls_ir::lower::lower_kernel(&p, id).unwrap()
}
