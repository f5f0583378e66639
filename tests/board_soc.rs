//! Board systems (`--board ulx3s`): the LiteX SoC is generated for a kernel and for a pipe
//! system, its register map checked against LiteX's `csr.csv` (inside `litex::generate`), the
//! core linted by Verilator (`-Wall`) and the SoC's hierarchy checked by Yosys (every port of
//! the core instance exists with its width). Needs the LiteX venv: when it cannot be
//! provisioned (no PyPI), the test says why and passes. Place and route is not run here
//! (about a minute; it is in docs/benchmarks.md, "Board flow").

use board_support::soc::{self, litex};
use oclhls::compile::{self, CompileOptions};
use std::path::Path;
use toolchain::{Tool, Toolchain};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `file`, generates its board SoC in a temporary directory and lints it.
fn soc_for(file: &str, banks: &[&str], mem_ports: usize) {
    let tc = Toolchain::new(false);
    if let Err(e) = tc.locate(Tool::Litex) {
        eprintln!("skipping the board SoC test of {file}: LiteX cannot be provisioned: {e}");
        return;
    }
    let path = root().join(file);
    // As `--board` builds: bursts through the board's memory adapter, the board's clock and
    // read latency.
    let mut opts = CompileOptions {
        bursts: true,
        ..Default::default()
    };
    oclhls::board::apply_defaults(&mut opts, false);
    let c = compile::compile(&path, &opts)
        .unwrap()
        .unwrap_or_else(|f| panic!("{}", f.rendered));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let report = compile::report(&c, &path, 50.0);
    compile::write_outputs(&c, dir, &report).unwrap();
    let module = format!("{}_system", path.file_stem().unwrap().to_string_lossy());
    let plan = oclhls::system::from_source(&c, &module).unwrap();
    if let Some(p) = &plan {
        oclhls::system::write(&c, p, dir).unwrap();
    }
    let (spec, files) = oclhls::board::core_spec(&c, plan.as_ref(), dir).unwrap();
    let soc_plan = soc::plan(&spec).unwrap();
    let got: Vec<&str> = soc_plan.banks.iter().map(|b| b.bank.as_str()).collect();
    assert_eq!(got, banks);
    assert_eq!(soc_plan.mem_ports.len(), mem_ports);
    let board = board_support::find_board("ulx3s").unwrap();
    let sopts = litex::SocOptions {
        work_dir: dir.join("ulx3s"),
        sdram: litex::Sdram::Mt48lc16m16a2,
        clock_mhz: 50.0,
        sim: false,
    };
    let gen = litex::generate(&tc, &soc_plan, &spec.ports, &files, board, &sopts)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(gen.soc_verilog.is_file() && gen.lpf.is_file());
    let lpf = std::fs::read_to_string(&gen.lpf).unwrap();
    assert!(lpf.contains("FREQUENCY PORT \"clk25\" 25.0 MHz;"), "{lpf}");
    assert!(lpf.contains("\"serial_tx\""), "{lpf}");
    let soc_v = std::fs::read_to_string(&gen.soc_verilog).unwrap();
    assert!(
        soc_v.contains("oclhls_board_core"),
        "the SoC instantiates the core"
    );
    let mut bank_names: Vec<&str> = gen.banks.iter().map(|b| b.bank.as_str()).collect();
    bank_names.sort_unstable();
    let mut want: Vec<&str> = banks.iter().copied().chain(["oclhls"]).collect();
    want.sort_unstable();
    assert_eq!(bank_names, want);

    // Verilator: the core (wrapper, adapters, kernels, support modules), warnings as errors.
    let v = tc.locate(Tool::Verilator).unwrap();
    let out = tc
        .command(&v)
        .args(["--lint-only", "-Wall", "--top-module", "oclhls_board_core"])
        .args(&gen.core_files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "verilator lint of the board core:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Yosys: the SoC and the core elaborate together (ports of the instance match). Paths
    // relative to the working directory: a YoWASP Yosys does not see the host's /tmp.
    let y = tc.locate(Tool::Yosys).unwrap();
    let base = std::fs::canonicalize(dir).unwrap();
    let mut script =
        String::from("read_verilog -lib +/ecp5/cells_sim.v +/ecp5/cells_bb.v; read_verilog");
    for f in std::iter::once(&gen.soc_verilog).chain(&gen.core_files) {
        let f = std::fs::canonicalize(f).unwrap();
        script.push_str(&format!(" {}", f.strip_prefix(&base).unwrap().display()));
    }
    script.push_str(&format!("; hierarchy -check -top {}", litex::SOC_NAME));
    let out = tc
        .command(&y)
        .current_dir(&base)
        .args(["-q", "-p", &script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "yosys hierarchy -check of the SoC:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn vadd_soc_generates_and_lints() {
    soc_for("examples/vadd.cl", &["k_vadd"], 3);
}

#[test]
fn pipe_system_soc_generates_and_lints() {
    soc_for("tests/emu/xilinx_pipes.cl", &["k_prod", "k_cons"], 2);
}

/// Global atomics (32- and 64-bit, cmpxchg) go through the atomic unit: the SoC generates,
/// and the core with the unit lints and elaborates.
#[test]
fn global_atomics_soc_generates_and_lints() {
    soc_for("tests/emu/atomics.cl", &["k_atomics"], 1);
}

/// `oclhls FILE --board ulx3s` to a bitstream for the 85F, timing met at the board's clock
/// (about a minute of Yosys and nextpnr per design): `report.json` says so per clock and
/// names the `.bit` and `.svf` it wrote.
fn bitstream_for(file: &str) {
    let tc = Toolchain::new(false);
    if let Err(e) = tc.locate(Tool::Litex) {
        eprintln!("skipping the bitstream of {file}: LiteX cannot be provisioned: {e}");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oclhls"))
        .current_dir(root())
        .args([file, "--board", "ulx3s", "-o"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("report.json")).unwrap())
            .unwrap();
    let b = &report["board"];
    assert_eq!(b["timing_met"], true, "{b}");
    let clocks = b["clocks"].as_array().unwrap();
    assert!(!clocks.is_empty(), "{b}");
    for c in clocks {
        assert_eq!(c["timing_met"], true, "{c}");
        assert!(c["fmax_mhz"].as_f64().unwrap() >= c["target_mhz"].as_f64().unwrap());
    }
    for f in ["bit", "svf"] {
        let p = b["files"][f].as_str().unwrap();
        assert!(std::fs::metadata(p).unwrap().len() > 100_000, "{f}: {p}");
    }
    assert!(text.contains(": met"), "{text}");
}

#[test]
fn vadd_builds_a_bitstream_with_timing_met() {
    bitstream_for("examples/vadd.cl");
}

#[test]
fn pipe_system_builds_a_bitstream_with_timing_met() {
    bitstream_for("tests/emu/xilinx_pipes.cl");
}
