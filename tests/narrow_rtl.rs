//! What `narrow` buys downstream, and the RTL of narrow operations: narrowed operations take
//! the operator library's smaller delays, so more of them chain in one clock period; the
//! emitter writes operations of widths no C type has (lint-clean, `verilator -Wall`).

use frontend::span::SourceMap;
use hls_ir::passes::{run_pipeline, PIPELINE};
use hls_ir::{BinOp, ConvOp, Kernel, Op, OpKind, Ty};
use scheduler::kernel::{schedule_kernel, KernelSchedule};
use scheduler::oplib::OpLibrary;

fn lower(src: &str) -> Kernel {
    let mut sm = SourceMap::new();
    let f = sm.add_file("k.cl", src);
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    let (id, _) = p.kernels().next().unwrap();
    hls_ir::lower::lower_kernel(&p, id).unwrap()
}

fn schedule(k: &Kernel) -> KernelSchedule {
    schedule_kernel(k, &OpLibrary::default(), &scheduler::Options::default())
        .unwrap_or_else(|d| panic!("{d:?}"))
}

/// A chain of dependent additions on a `uchar`: C computes it in 32 bits and truncates at
/// the store, so after `narrow` every addition is 8 bits wide.
const CHAIN: &str = "kernel void k(global const uchar *restrict a, global uchar *restrict o) {
  int i = get_global_id(0);
  uchar x = a[i];
  uchar v = x;
  v = (v ^ 0x11) + x; v = (v ^ 0x22) + x; v = (v ^ 0x33) + x; v = (v ^ 0x44) + x;
  v = (v ^ 0x55) + x; v = (v ^ 0x66) + x; v = (v ^ 0x77) + x; v = (v ^ 0x18) + x;
  v = (v ^ 0x29) + x; v = (v ^ 0x3a) + x; v = (v ^ 0x4b) + x; v = (v ^ 0x5c) + x;
  o[i] = v;
}";

#[test]
fn narrowed_operations_chain_more_per_cycle() {
    let lowered = lower(CHAIN);
    let mut wide = lowered.clone();
    for p in PIPELINE.iter().filter(|p| p.name != "narrow") {
        (p.run)(&mut wide);
    }
    let mut narrow = lowered;
    run_pipeline(&mut narrow, true, None, &mut |_, _| {}).unwrap();
    // Every addition of the chain (not the address's) is 32 bits before and 8 bits after.
    let adds = |k: &Kernel| -> Vec<hls_ir::OpId> {
        k.op_ids()
            .into_iter()
            .filter(|&o| {
                k.op(o).kind == OpKind::Binary(BinOp::Add)
                    && k.operands(o)
                        .iter()
                        .all(|&x| !k.op(x).kind.is_launch_invariant())
            })
            .collect()
    };
    let widths = |k: &Kernel| -> Vec<u32> { adds(k).iter().map(|&o| k.op(o).ty.bits()).collect() };
    assert_eq!(widths(&wide), vec![32; 12]);
    assert_eq!(widths(&narrow), vec![8; 12]);
    // The library gives them the 8-bit delay...
    let lib = OpLibrary::default();
    let delay = |k: &Kernel| lib.timing(k, adds(k)[0]).unwrap().delay_ns;
    assert!(delay(&narrow) < delay(&wide));
    // ...so the chain takes fewer pipeline stages at the same clock.
    let stages = |k: &Kernel| schedule(k).loops[0].depth;
    let (w, n) = (stages(&wide), stages(&narrow));
    assert!(n < w, "{n} stages narrowed, {w} before");
}

#[test]
fn odd_width_variable_shift_takes_its_count_modulo_the_width() {
    // `a << b` rebuilt as a 12-bit shift: the count is taken modulo 12, which its low bits
    // are not.
    let mut k = lower(
        "kernel void k(global const int *restrict a, global const int *restrict b,
                       global int *restrict o) {
           int i = get_global_id(0);
           o[i] = a[i] << b[i];
         }",
    );
    run_pipeline(&mut k, true, None, &mut |_, _| {}).unwrap();
    let shl = k
        .op_ids()
        .into_iter()
        .find(|&o| {
            k.op(o).kind == OpKind::Binary(BinOp::Shl)
                && !matches!(k.op(k.operands(o)[1]).kind, OpKind::Const(_))
        })
        .unwrap();
    let [x, amount] = k.operands(shl)[..] else {
        panic!("a shift has two operands")
    };
    let like = k.op(shl).clone();
    let add = |k: &mut Kernel, kind: OpKind, ty: Ty, operands: &[hls_ir::OpId]| {
        k.add_op(
            Op {
                kind,
                ty,
                name: None,
                ..like.clone()
            },
            operands,
        )
    };
    let x12 = add(&mut k, OpKind::Extract { lo: 0 }, Ty::Int(12), &[x]);
    let s12 = add(
        &mut k,
        OpKind::Binary(BinOp::Shl),
        Ty::Int(12),
        &[x12, amount],
    );
    let wide = add(&mut k, OpKind::Convert(ConvOp::ZExt), Ty::I32, &[s12]);
    k.replace_uses(shl, wide);
    k.remove_op(shl);
    hls_ir::verify(&k).unwrap();
    let s = schedule(&k);
    let out = rtl_templates::emit_kernel(&k, &s).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(out.verilog.contains("% 32'd12)"), "{}", out.verilog);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.v"), &out.verilog).unwrap();
    for (name, text) in rtl_templates::kernel::support_files() {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let tc = toolchain::Toolchain::new(false);
    let v = tc
        .locate(toolchain::Tool::Verilator)
        .expect("verilator is available");
    let lint = tc
        .command(&v)
        .current_dir(dir.path())
        .args([
            "--lint-only",
            "-Wall",
            "--top-module",
            "k",
            "k.v",
            "oclhls_fifo.v",
        ])
        .output()
        .expect("verilator runs");
    assert!(
        lint.status.success(),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );
}
