//! Shared by the sim integration tests: the toolchain (PATH or provisioned into the default
//! cache) and the hand-written test kernels in `tests/kernels/`, each built once per test
//! binary (and cached across runs by content hash).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use sim::{build_model, BuildOptions, BuiltModel, ModelSource, PortSpec};
use toolchain::Toolchain;

pub fn toolchain() -> &'static Toolchain {
    static TC: OnceLock<Toolchain> = OnceLock::new();
    TC.get_or_init(|| Toolchain::new(false))
}

pub fn kernel_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kernels")
        .join(name)
}

/// The control and NDRange ports every kernel has.
pub fn control_ports() -> Vec<PortSpec> {
    let mut p = vec![
        PortSpec::input("clk", 1),
        PortSpec::input("rst", 1),
        PortSpec::input("start", 1),
        PortSpec::output("busy", 1),
        PortSpec::output("done", 1),
    ];
    for base in ["global_size", "local_size", "global_offset"] {
        for d in 0..3 {
            p.push(PortSpec::input(format!("{base}_{d}"), 32));
        }
    }
    p
}

pub fn read_port(name: &str, width: u32) -> Vec<PortSpec> {
    vec![
        PortSpec::output(format!("{name}_rreq_valid"), 1),
        PortSpec::input(format!("{name}_rreq_ready"), 1),
        PortSpec::output(format!("{name}_rreq_addr"), 32),
        PortSpec::input(format!("{name}_rresp_valid"), 1),
        PortSpec::output(format!("{name}_rresp_ready"), 1),
        PortSpec::input(format!("{name}_rresp_data"), width),
    ]
}

pub fn write_port(name: &str, width: u32) -> Vec<PortSpec> {
    vec![
        PortSpec::output(format!("{name}_wreq_valid"), 1),
        PortSpec::input(format!("{name}_wreq_ready"), 1),
        PortSpec::output(format!("{name}_wreq_addr"), 32),
        PortSpec::output(format!("{name}_wreq_data"), width),
        PortSpec::input(format!("{name}_wresp_valid"), 1),
        PortSpec::output(format!("{name}_wresp_ready"), 1),
    ]
}

pub fn copy_inc_source() -> ModelSource {
    let mut ports = control_ports();
    ports.extend(["arg_a", "arg_b", "arg_picky"].map(|a| PortSpec::input(a, 32)));
    ports.extend(read_port("a", 32));
    ports.extend(write_port("b", 32));
    ports.push(PortSpec::output("bad_response", 1));
    ModelSource {
        top: "copy_inc".into(),
        files: vec![kernel_file("copy_inc.v")],
        ports,
    }
}

/// `burst_copy.v`: a bursting read port `a` and a bursting write port `b` (32 bits).
pub fn burst_copy_source() -> ModelSource {
    let mut ports = control_ports();
    ports.extend(["arg_a", "arg_b", "arg_n", "arg_blen"].map(|a| PortSpec::input(a, 32)));
    ports.extend(read_port("a", 32));
    ports.push(PortSpec::output("a_rreq_len", 8));
    ports.push(PortSpec::input("a_rresp_last", 1));
    ports.extend([
        PortSpec::output("b_wreq_valid", 1),
        PortSpec::input("b_wreq_ready", 1),
        PortSpec::output("b_wreq_addr", 32),
        PortSpec::output("b_wreq_len", 8),
        PortSpec::output("b_wdata_valid", 1),
        PortSpec::input("b_wdata_ready", 1),
        PortSpec::output("b_wdata_data", 32),
        PortSpec::output("b_wdata_last", 1),
        PortSpec::input("b_wresp_valid", 1),
        PortSpec::output("b_wresp_ready", 1),
        PortSpec::output("bad_last", 1),
    ]);
    ModelSource {
        top: "burst_copy".into(),
        files: vec![kernel_file("burst_copy.v")],
        ports,
    }
}

pub fn hang_source() -> ModelSource {
    let mut ports = control_ports();
    ports.push(PortSpec::input("arg_a", 32));
    ports.extend(read_port("a", 32));
    ModelSource {
        top: "hang".into(),
        files: vec![kernel_file("hang.v")],
        ports,
    }
}

pub fn widths_source() -> ModelSource {
    let mut ports = vec![
        PortSpec::input("clk", 1),
        PortSpec::input("rst", 1),
        PortSpec::input("stop", 1),
        PortSpec::input("dump", 1),
    ];
    for w in [5, 16, 33, 64, 100] {
        ports.push(PortSpec::input(format!("in{w}"), w));
        ports.push(PortSpec::output(format!("out{w}"), w));
    }
    ports.push(PortSpec::output("count", 32));
    ModelSource {
        top: "widths".into(),
        files: vec![kernel_file("widths.v")],
        ports,
    }
}

pub fn build(src: &ModelSource, opts: &BuildOptions) -> BuiltModel {
    build_model(toolchain(), src, opts).unwrap_or_else(|e| panic!("{e}"))
}

pub fn burst_copy() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build(&burst_copy_source(), &BuildOptions::default()))
}

pub fn copy_inc() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build(&copy_inc_source(), &BuildOptions::default()))
}
