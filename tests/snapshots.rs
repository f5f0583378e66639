//! Golden outputs: the IR after the pass pipeline, the emitted Verilog, and rendered
//! diagnostics, for the kernel corpus. Bless changes with `INSTA_UPDATE=always cargo test
//! --test snapshots` (or `cargo insta review`) and review every diff like code.

use frontend::span::SourceMap;
use std::path::Path;

fn compile(path: &str) -> (SourceMap, frontend::FileId, frontend::ast::Program) {
    let mut sm = SourceMap::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = frontend::load_file(&mut sm, &root.join(path)).unwrap();
    let (p, _) = frontend::compile(&mut sm, file, &frontend::Options::default())
        .unwrap_or_else(|d| panic!("{}", frontend::render(&sm, &d, false)));
    (sm, file, p)
}

/// IR (after passes) and Verilog of every kernel in `path`, from the driver's flow.
fn golden(path: &str) -> (String, String) {
    let (sm, file, p) = compile(path);
    let c = oclhls::compile::compile_program(sm, file, &p, Vec::new(), &Default::default())
        .unwrap_or_else(|f| panic!("{f}"));
    let mut ir = String::new();
    let mut rtl = String::new();
    for k in &c.kernels {
        // Spans as line:col only, so snapshots do not depend on the checkout path.
        ir += &hls_ir::printer::print_kernel(&k.ir, &|s| {
            let (l, c) = c.sm.line_col(s);
            format!("{l}:{c}")
        });
        rtl += &k.rtl.verilog;
    }
    (ir, rtl)
}

macro_rules! golden_test {
    ($name:ident, $path:literal) => {
        #[test]
        fn $name() {
            let (ir, rtl) = golden($path);
            insta::assert_snapshot!(concat!(stringify!($name), "_ir"), ir);
            insta::assert_snapshot!(concat!(stringify!($name), "_verilog"), rtl);
        }
    };
}

golden_test!(vadd, "examples/vadd.cl");
golden_test!(clamp_select, "tests/kernels/clamp_select.cl");
golden_test!(sum_pairs, "tests/kernels/sum_pairs.cl");
golden_test!(rowsum, "tests/kernels/rowsum.cl");
golden_test!(find_first, "tests/kernels/find_first.cl");
golden_test!(struct_update, "tests/kernels/struct_update.cl");
// Two decrements of one atomic counter in one stage: a register and a prefix sum.
golden_test!(counter_down, "tests/kernels/counter_down.cl");

/// A loop whose loads may read what an earlier iteration stored (no `restrict`): built, with
/// the previous iteration's store ordered before the load (distance 1, listed as a memory
/// dependence of the loop) and the load waiting for the store port's acknowledgements.
#[test]
fn loop_load_after_store_is_ordered() {
    let mut sm = SourceMap::new();
    let f = sm.add_file(
        "loop.cl",
        "kernel void acc(global const int *a, global int *o, int n) {\n  for (int k = 0; k < n; k++)\n    o[k] = a[k] + 1;\n}\n",
    );
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default()).unwrap();
    let c = oclhls::compile::compile_program(sm, f, &p, Vec::new(), &Default::default())
        .unwrap_or_else(|f| panic!("{f}"));
    let k = &c.kernels[0];
    let d = &k.ir.mem_deps;
    assert!(
        d.iter().any(|d| d.distance == 1 && !d.exact),
        "the carried dependence through memory is listed: {d:?}"
    );
    let v = &k.rtl.verilog;
    assert!(
        v.contains("o_wcnt == 16'd0"),
        "the load of `a` waits for the writes of `o`"
    );
}

/// Single-precision arithmetic builds on the float units; what the hardware path does not
/// build yet (here unions: every float built-in is built) is a spanned diagnostic, each one,
/// not only the first.
#[test]
fn unsupported_union_diagnostics() {
    let mut sm = SourceMap::new();
    let f = sm.add_file(
        "float.cl",
        "kernel void f(global const float *restrict a, global float *restrict o) {\n  size_t i = get_global_id(0);\n  float x = a[i];\n  o[i] = x + 1.0f;\n  union { float f; uint u; } w;\n  w.f = x;\n  o[i + 1] = (float)w.u;\n  union { int n; float g; } z = { 3 };\n  o[i + 2] = z.g;\n}\n",
    );
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default()).unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    insta::assert_snapshot!(frontend::render(&sm, &d, false));
}

/// A private array is one memory for all work-items of a kernel with barriers: using it on
/// both sides of a barrier would read the last work-item's elements, so it is refused.
#[test]
fn private_array_across_barrier_diagnostic() {
    let mut sm = SourceMap::new();
    let f = sm.add_file(
        "bar.cl",
        "kernel void k(global const int *restrict in, global int *restrict out) {\n  int t[2];\n  size_t g = get_global_id(0);\n  t[0] = in[g];\n  t[1] = t[0] * 2;\n  barrier(CLK_GLOBAL_MEM_FENCE);\n  out[g] = t[0] + t[1];\n}\n",
    );
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default()).unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    insta::assert_snapshot!(frontend::render(&sm, &d, false));
}

/// An async copy is work-group code: an argument that depends on the work-item (or a copy
/// inside an expression) is an error on its line, with the rule it breaks.
#[test]
fn async_copy_argument_diagnostics() {
    let mut sm = SourceMap::new();
    let f = sm.add_file(
        "copy.cl",
        "kernel void k(global const int *in, global int *out) {\n  local int t[8];\n  event_t e = async_work_group_copy(t, in + get_local_id(0), 4, 0);\n  wait_group_events(1, &e);\n  out[get_global_id(0)] = t[0];\n}\n",
    );
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default()).unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    insta::assert_snapshot!(frontend::render(&sm, &d, false));
}

/// `CL_DEVICE_MAX_ATOMIC_COUNTERS_EXT` is 8: a ninth counter argument is an error on its line.
#[test]
fn too_many_counters_diagnostic() {
    let mut sm = SourceMap::new();
    let params: Vec<String> = (0..9).map(|i| format!("  counter32_t c{i}")).collect();
    let f = sm.add_file(
        "many.cl",
        format!(
            "kernel void many(\n{}) {{\n  atomic_inc(c8);\n}}\n",
            params.join(",\n")
        ),
    );
    let (p, _) = frontend::compile(&mut sm, f, &frontend::Options::default()).unwrap();
    let (id, _) = p.kernels().next().unwrap();
    let d = hls_ir::lower::lower_kernel(&p, id).unwrap_err();
    insta::assert_snapshot!(frontend::render(&sm, &d, false));
}

/// A counter buffer two kernels update at the same time: the system top holds one register,
/// hands each kernel its base in the cycle, and the kernels are their `__shared` variants.
#[test]
fn shared_counter_system() {
    let path = "tests/kernels/counter_shared.cl";
    let (sm, file, p) = compile(path);
    let c = oclhls::compile::compile_program(sm, file, &p, Vec::new(), &Default::default())
        .unwrap_or_else(|f| panic!("{f}"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    let tf = testfile::parse(path, &text).unwrap().unwrap();
    let t = tf
        .tests
        .iter()
        .find(|t| t.name == "64-bit counter shared across the 2^32 carry")
        .unwrap();
    let plan = oclhls::system::from_test(&c, t.multi.as_ref().unwrap(), "counters_system").unwrap();
    let mut rtl = String::new();
    for m in plan.modules(&c) {
        rtl += &m.verilog;
    }
    rtl += &plan.top(&c).verilog;
    insta::assert_snapshot!("shared_counter_system_verilog", rtl);
}
