//! The flow against the real tools (provisioned into the oclhls cache on first use; the first
//! Yosys run of a fresh cache also compiles its WebAssembly, about half a minute). Each test
//! here takes a few seconds once the tools are there.

use std::path::PathBuf;

use board_support::flow::{
    self, place_route, synth, FlowError, ImplementOptions, PnrOptions, SynthOptions, Target,
};
use board_support::{board, Device};
use toolchain::{Tool, Toolchain};

fn hdl(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hdl")
        .join(name)
}

fn toolchain() -> Toolchain {
    Toolchain::new(false)
}

#[test]
fn counter_synthesises_cleanly_and_places_out_of_context_on_85k() {
    let tc = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let s = synth(
        &tc,
        &[hdl("counter.v")],
        "counter",
        &SynthOptions::new(tmp.path().join("synth")),
    )
    .unwrap();
    assert!(s.check.passed(), "{:?}", s.check);
    assert!(s.netlist.is_file());
    assert!(tmp.path().join("synth/synth.ys").is_file());
    // 32 flip-flops; the +1 on the carry chain: 16 CCU2C of two bits each.
    assert_eq!(s.ffs(), 32, "{:?}", s.cells);
    assert!((16..=17).contains(&s.carries()), "{:?}", s.cells);
    assert!(s.luts() <= 8, "{:?}", s.cells);
    assert!(!s.cells.keys().any(|t| t.starts_with('$')), "{:?}", s.cells);

    let d = board("ulx3s-85f").unwrap().device();
    let p = place_route(
        &tc,
        &s.netlist,
        Target::Device(d),
        &PnrOptions::out_of_context(tmp.path().join("pnr"), 100.0),
    )
    .unwrap();
    assert_eq!(p.device.part, "LFE5U-85F");
    assert!(p.out_of_context && p.textcfg.is_none());
    let fmax = p.fmax_mhz().unwrap();
    assert!(fmax > 100.0 && fmax < 1000.0, "{fmax}");
    assert!(p.timing_met());
    assert_eq!(p.clocks.len(), 1);
    assert_eq!(p.clocks[0].name, "clk");
    assert_eq!(p.clocks[0].constraint_mhz, 100.0);
    assert_eq!(p.ffs().used, 32);
    assert_eq!(p.ffs().available, 83640);
    let luts = p.luts().used;
    assert!((32..=64).contains(&luts), "{luts}");
    assert_eq!(p.io().used, 0);
    let path = &p.critical_paths[0];
    assert!(path.delay_ns > 0.0 && path.delay_ns <= 1000.0 / fmax + 1e-3);
    assert!(
        path.sources.iter().any(|s| s.contains("counter.v")),
        "{path:?}"
    );
}

#[test]
fn adder_places_on_25k() {
    let tc = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let s = synth(
        &tc,
        &[hdl("adder.v")],
        "adder",
        &SynthOptions::new(tmp.path()),
    )
    .unwrap();
    assert_eq!(s.ffs(), 16 + 16 + 17, "{:?}", s.cells);
    let d = Device::ecp5("LFE5U-25F", "CABGA381", 6).unwrap();
    let p = place_route(
        &tc,
        &s.netlist,
        d.into(),
        &PnrOptions::out_of_context(tmp.path(), 150.0).seed(7),
    )
    .unwrap();
    assert_eq!(p.seed, 7);
    assert_eq!(p.ffs().used, 49);
    assert!(p.ffs().available < 83640);
    assert!(p.fmax_mhz().unwrap() > 0.0);
}

#[test]
fn check_problems_fail_synthesis_with_yosys_wording() {
    let tc = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let opts = SynthOptions::new(tmp.path());
    let err = synth(&tc, &[hdl("broken.v")], "broken", &opts).unwrap_err();
    let FlowError::CheckFailed { top, problems, log } = &err else {
        panic!("expected a check failure, got {err}");
    };
    assert_eq!(top, "broken");
    assert!(log.ends_with("yosys.log"));
    let all = problems.join("\n");
    for needle in [
        "before synthesis: Warning: multiple conflicting drivers for broken.\\b:\n    port y[0] of cell i0 (inv)",
        "before synthesis: Warning: Wire broken.\\undriven is used but has no driver.",
        "before synthesis: Warning: found logic loop in module broken",
    ] {
        assert!(all.contains(needle), "{needle:?} missing from:\n{all}");
    }
    let msg = err.to_string();
    assert!(msg.contains("problem(s) in `broken`"), "{msg}");

    // Asked for, the report comes back with the problems listed.
    let mut opts = SynthOptions::new(tmp.path());
    opts.require_clean_check = false;
    let s = synth(&tc, &[hdl("broken.v")], "broken", &opts).unwrap();
    assert!(!s.check.passed());
    assert_eq!(s.check.rtl.len(), 3, "{:?}", s.check);
    assert!(s.warnings.iter().any(|w| w.contains("logic loop")));
}

#[test]
fn yosys_errors_carry_the_error_line() {
    let tc = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let err = synth(
        &tc,
        &[hdl("syntax_error.v")],
        "bad_syntax",
        &SynthOptions::new(tmp.path()),
    )
    .unwrap_err();
    let FlowError::ToolFailed { tool, excerpt, .. } = &err else {
        panic!("expected a tool failure, got {err}");
    };
    assert_eq!(*tool, Tool::Yosys);
    assert!(
        excerpt
            .iter()
            .any(|l| l.contains("syntax_error.v:2: ERROR: syntax error")),
        "{excerpt:?}"
    );
    assert!(excerpt.len() < 10, "{excerpt:?}");

    let err = synth(
        &tc,
        &[hdl("counter.v")],
        "no_such_top",
        &SynthOptions::new(tmp.path()),
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("`yosys` failed"), "{msg}");
    assert!(msg.contains("no_such_top' not found"), "{msg}");
}

#[test]
fn blinky_builds_a_ulx3s_bitstream() {
    let tc = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let b = board("ulx3s").unwrap();
    let imp = flow::implement(
        &tc,
        &[hdl("blinky.v"), hdl("counter.v")],
        "blinky",
        b,
        &[("clk_25mhz", "clk_25mhz"), ("btn", "btn"), ("led", "led")],
        &ImplementOptions::new(tmp.path()),
    )
    .unwrap();
    assert!(imp.synth.check.passed());
    let p = &imp.pnr;
    assert!(!p.out_of_context);
    assert!(p.timing_met(), "{:?}", p.clocks);
    // The LPF's FREQUENCY constraint is the target: the board's 25 MHz.
    assert_eq!(p.clocks.len(), 1);
    assert_eq!(p.clocks[0].constraint_mhz, 25.0);
    assert_eq!(p.io().used, 1 + 7 + 8);
    let lpf = std::fs::read_to_string(tmp.path().join("pnr/constraints.lpf")).unwrap();
    assert!(lpf.contains("LOCATE COMP \"led[7]\" SITE \"H3\";"));
    assert!(p.textcfg.as_ref().unwrap().is_file());
    let bit = &imp.bitstream;
    assert_eq!(
        bit.bit,
        tmp.path().canonicalize().unwrap().join("blinky.bit")
    );
    // An uncompressed LFE5U-85F bitstream is about 1.9 MB.
    assert!(bit.bytes > 1_000_000, "{}", bit.bytes);

    // A port left out of the pin map is nextpnr's error, reported with its line.
    let err = flow::implement(
        &tc,
        &[hdl("blinky.v"), hdl("counter.v")],
        "blinky",
        b,
        &[("clk_25mhz", "clk_25mhz"), ("led", "led")],
        &ImplementOptions::new(tmp.path().join("unconstrained")),
    )
    .unwrap_err();
    let FlowError::ToolFailed { tool, excerpt, .. } = &err else {
        panic!("expected a nextpnr failure, got {err}");
    };
    assert_eq!(*tool, Tool::NextpnrEcp5);
    assert!(
        excerpt
            .iter()
            .any(|l| l.contains("ERROR: IO 'btn[") && l.contains("unconstrained in LPF")),
        "{excerpt:?}"
    );
}

/// A chain of 1000 gates without a register: YoWASP Yosys' ABC9 runs out of its WebAssembly
/// stack on it, and the error says what to do; a native Yosys synthesises it.
#[test]
fn a_stack_exhausting_logic_chain_fails_with_advice_on_yowasp() {
    let tc = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let n = 1000;
    let v = tmp.path().join("chain.v");
    std::fs::write(
        &v,
        format!(
            "module chain(input clk, input [{m}:0] a, input [{m}:0] b, output reg y);\n\
             wire [{n}:0] x;\n\
             assign x[0] = 1'b0;\n\
             genvar i;\n\
             generate for (i = 0; i < {n}; i = i + 1) begin : g\n\
             assign x[i+1] = (x[i] & a[i]) ^ b[i];\n\
             end endgenerate\n\
             always @(posedge clk) y <= x[{n}];\n\
             endmodule\n",
            m = n - 1
        ),
    )
    .unwrap();
    let yowasp = tc
        .locate(Tool::Yosys)
        .unwrap()
        .path
        .to_string_lossy()
        .contains("yowasp");
    let r = synth(&tc, &[v], "chain", &SynthOptions::new(tmp.path().join("s")));
    if !yowasp {
        r.unwrap();
        return;
    }
    let err = r.unwrap_err();
    let FlowError::ToolFailed { excerpt, .. } = &err else {
        panic!("expected a tool failure, got {err}");
    };
    let last = excerpt.last().unwrap();
    assert!(last.contains("ran out of stack"), "{excerpt:?}");
    assert!(last.contains("native build on PATH"), "{excerpt:?}");
}
