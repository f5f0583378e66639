//! The fixed cost of a board system: the LiteX SoC (PLL, LiteDRAM, UARTBone, the `oclhls`
//! registers) around an empty core, placed and routed for the ULX3S 85F. Prints the numbers
//! docs/benchmarks.md ("Board flow") records.
//!
//! `cargo run --example soc_alone [WORK_DIR]` (default `target/soc_alone`).

use board_support::soc::{self, litex, CorePort, CoreSpec};
use hwcontract::PortDir;

fn main() {
    let work = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "target/soc_alone".into()),
    );
    std::fs::create_dir_all(&work).expect("work dir");
    let core = work.join("oclhls_empty.v");
    std::fs::write(
        &core,
        "module oclhls_empty (input wire clk, input wire rst);\n  wire unused = &{1'b0, clk, rst, 1'b0};\nendmodule\n",
    )
    .expect("core file");
    let port = |name: &str| CorePort {
        name: name.into(),
        dir: PortDir::In,
        width: 1,
    };
    let spec = CoreSpec {
        module: "oclhls_empty".into(),
        ports: vec![port("clk"), port("rst")],
        kernels: vec![],
        system: false,
    };
    let plan = soc::plan(&spec).expect("plan");
    let tc = toolchain::Toolchain::new(false);
    let board = board_support::find_board("ulx3s").expect("board");
    let started = std::time::Instant::now();
    let opts = litex::SocOptions {
        work_dir: work.clone(),
        sdram: litex::Sdram::Mt48lc16m16a2,
        clock_mhz: 50.0,
        sim: false,
    };
    let gen = litex::generate(&tc, &plan, &spec.ports, &[core], board, &opts)
        .unwrap_or_else(|e| panic!("{e}"));
    let imp = litex::implement(&tc, &gen, board, &work, 1, |s| eprintln!("{s} ..."))
        .unwrap_or_else(|e| panic!("{e}"));
    for c in &imp.pnr.clocks {
        println!(
            "clock {}: Fmax {:.1} MHz (target {:.1})",
            c.name, c.achieved_mhz, c.constraint_mhz
        );
    }
    let u = |x: board_support::flow::Usage| format!("{} / {}", x.used, x.available);
    println!(
        "LUT {}, FF {}, EBR {}, DSP {}; synth {:.1} s, pnr {:.1} s, pack {:.1} s, total {:.1} s",
        u(imp.pnr.luts()),
        u(imp.pnr.ffs()),
        u(imp.pnr.ebr()),
        u(imp.pnr.dsp()),
        imp.synth.elapsed_s,
        imp.pnr.elapsed_s,
        imp.bitstream.elapsed_s,
        started.elapsed().as_secs_f64()
    );
}
