//! A timing path through a kernel of the board core, told in kernel terms: the cells nextpnr
//! reports carry the generator's names (values `<name>_v<op>`, loop control `l<i>_...`, port
//! logic `<prefix>_r...`), which `oclhls::timing_terms` maps back to source lines.

use oclhls::compile::{self, CompileOptions};
use std::path::Path;

/// The first word of `verilog` that starts with `prefix` and continues with `[A-Za-z0-9_]`.
fn word(verilog: &str, prefix: &str, then: &str) -> String {
    let at = verilog
        .match_indices(prefix)
        .map(|(i, _)| i)
        .find(|&i| verilog[i + prefix.len()..].starts_with(then) || then.is_empty())
        .unwrap_or_else(|| panic!("no `{prefix}` in the Verilog"));
    verilog[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

#[test]
fn a_path_of_the_atomics_kernel_in_kernel_terms() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu/atomics.cl");
    let c = compile::compile(&path, &CompileOptions::default())
        .unwrap()
        .unwrap_or_else(|f| panic!("{}", f.rendered));
    let k = &c.kernels[0];
    let v = &k.rtl.verilog;
    // A compare on an atomic's old value, a loop's control and the read port of `stats`,
    // as Yosys and nextpnr name the cells they make from them.
    let cmp = word(v, "cmp_eq_v", "");
    let run = word(v, "l3_run", "");
    let cells: Vec<String> = [
        "oclhls_board_core.u_core.stats_r3_rfifo.mem.0.3$DPRAM_COMB1".to_string(),
        format!("oclhls_board_core.u_core.{cmp}_c1_LUT4_A_Z_LUT4_Z_2"),
        format!("oclhls_board_core.u_core.{run}_LUT4_C_Z_LUT4_C"),
        "oclhls_board_core.u_core.adapter_outside_the_kernel".to_string(),
        "oclhls_board_core.u_mem0.u_cmd.mem_LUT4_Z".to_string(),
    ]
    .into();
    let d = oclhls::timing_terms::describe(&c, &["atomics".to_string()], &cells).unwrap();
    let op: usize = cmp.trim_start_matches("cmp_eq_v").parse().unwrap();
    let line = c.sm.line_col(k.ir.op(hls_ir::OpId::from_index(op)).span).0;
    let lp = &k.ir.loops[hls_ir::LoopId::from_index(3)];
    let want = format!(
        "in kernel `atomics`: the read port of `stats` -> `cmp_eq` (line {line}) -> the control \
         of loop `{}` (line {})",
        lp.name,
        c.sm.line_col(lp.span).0
    );
    assert_eq!(d, want);
    // Cells outside every kernel say nothing.
    let outside = ["oclhls_board_core.u_mem0.u_cmd.mem_LUT4_Z".to_string()];
    assert_eq!(
        oclhls::timing_terms::describe(&c, &["atomics".to_string()], &outside),
        None
    );
}
