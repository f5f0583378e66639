//! The integer dividers (`rtl-templates/templates/oclhls_int_div*.v`) against the IR's integer
//! semantics (`hls_ir::integer::binary`: `x / 0 = 0`, `x % 0 = x`, `MIN / -1 = MIN`), in
//! Verilator, for widths 2 to 64 (8, 16, 32 and 64 among them), signed and unsigned, with the
//! stage counts and steps the operator library chooses at 100 MHz and the extremes (one stage,
//! one step per stage or cycle, steps that do not divide the width).
//!
//! Every unit gets directed operands first (every pair of 0, 1, 2, 3, 5, 7, the largest and
//! smallest values and their neighbours, -1, -2), then random ones from a mix (uniform bits,
//! small divisors, exact multiples, zero divisors). `ce` is toggled at random in phases, and
//! the inputs (and an iterative unit's `start`) carry garbage while it is off. A pipelined
//! unit gets an operation on every enabled edge and its outputs are compared after every clock
//! edge with the operation `latency` enabled edges back; an iterative unit gets a `start` when
//! it is free (at random, at least `busy` enabled edges apart) and its outputs are compared
//! from `latency` enabled edges after the start until the next start.
//!
//! One testbench top instantiates every unit; lint (`verilator --lint-only -Wall`, every
//! parameter set) and Yosys `synth_ecp5` with `check` are tests here too. The long run is
//! `#[ignore]`d:
//!
//! ```text
//! OCLHLS_DIV_VECTORS=2000000 cargo test --release --test int_div -- --ignored --nocapture
//! ```

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fpsem::vectors::Rng;
use hls_ir::integer::binary;
use hls_ir::BinOp;
use hwcontract::div;
use rtl_templates::divide::{div_files, DivUnit};
use scheduler::oplib::OpLibrary;
use sim::{build_model, BuildOptions, BuiltModel, Model, ModelSource, PortId, PortSpec};
use toolchain::Tool;

mod common;
use common::toolchain;

/// One divider instance of the testbench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    kind: DivUnit,
    width: u32,
    signed: bool,
    /// `STAGES` (pipelined) or `STEP` (iterative).
    param: u32,
}

/// The operator library's steps per stage (cycle) at 100 MHz.
fn lib_steps(width: u32, kind: DivUnit) -> u32 {
    scheduler::divide::steps(&OpLibrary::default(), width, kind == DivUnit::Iterative)
}

fn all_units() -> Vec<Unit> {
    let mut v = Vec::new();
    for width in [2u32, 3, 5, 8, 13, 16, 32, 33, 64] {
        for signed in [false, true] {
            let mut stages = vec![width.div_ceil(lib_steps(width, DivUnit::Pipelined))];
            let mut steps = vec![lib_steps(width, DivUnit::Iterative)];
            if [3, 8, 13, 32].contains(&width) {
                stages.extend([1, width]);
                steps.extend([1, 3, width]);
            }
            stages.sort_unstable();
            stages.dedup();
            steps.sort_unstable();
            steps.dedup();
            for param in stages {
                v.push(Unit {
                    kind: DivUnit::Pipelined,
                    width,
                    signed,
                    param,
                });
            }
            for param in steps {
                v.push(Unit {
                    kind: DivUnit::Iterative,
                    width,
                    signed,
                    param,
                });
            }
        }
    }
    v
}

fn mask(w: u32) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

impl Unit {
    fn name(self) -> String {
        let k = match self.kind {
            DivUnit::Pipelined => "pipe",
            DivUnit::Iterative => "iter",
        };
        let s = if self.signed { "s" } else { "u" };
        format!("{k}_{s}{}_{}", self.width, self.param)
    }

    fn param_name(self) -> &'static str {
        match self.kind {
            DivUnit::Pipelined => "STAGES",
            DivUnit::Iterative => "STEP",
        }
    }

    fn latency(self) -> u32 {
        match self.kind {
            DivUnit::Pipelined => div::pipelined_latency(self.signed, self.param),
            DivUnit::Iterative => div::iterative_latency(self.width, self.signed, self.param),
        }
    }

    /// Enabled edges from one start to the next (1 for the pipelined unit).
    fn busy(self) -> u32 {
        match self.kind {
            DivUnit::Pipelined => 1,
            DivUnit::Iterative => div::iterative_busy(self.width, self.param),
        }
    }

    fn reference(self, a: u64, b: u64) -> [u64; 2] {
        let (d, r) = if self.signed {
            (BinOp::DivS, BinOp::RemS)
        } else {
            (BinOp::DivU, BinOp::RemU)
        };
        [d, r].map(|op| binary(op, self.width, a, b).expect("an integer op"))
    }

    fn port(self, p: &str) -> String {
        format!("{}_{p}", self.name())
    }

    fn inputs(self) -> Vec<(&'static str, u32)> {
        let mut v = vec![("a", self.width), ("b", self.width)];
        if self.kind == DivUnit::Iterative {
            v.push(("start", 1));
        }
        v
    }

    fn instance(self) -> String {
        let conns: Vec<String> = self
            .inputs()
            .iter()
            .map(|(p, _)| *p)
            .chain(["q", "r"])
            .map(|p| format!(".{p}({})", self.port(p)))
            .collect();
        format!(
            "    {} #(.WIDTH({}), .SIGNED({}), .{}({})) u_{} (.clk(clk), .ce(ce), {});\n",
            self.kind.module(),
            self.width,
            u8::from(self.signed),
            self.param_name(),
            self.param,
            self.name(),
            conns.join(", ")
        )
    }

    /// Interesting operands: every pair of small values and the extremes.
    fn directed(self) -> Vec<(u64, u64)> {
        let w = self.width;
        let m = mask(w);
        let top = 1u64 << (w - 1);
        let mut vals = vec![0, 1, 2, 3, 5, 7, top - 1, top, top + 1, m, m - 1];
        vals.iter_mut().for_each(|v| *v &= m);
        vals.sort_unstable();
        vals.dedup();
        vals.iter()
            .flat_map(|&a| vals.iter().map(move |&b| (a, b)))
            .collect()
    }

    fn random(self, r: &mut Rng) -> (u64, u64) {
        let w = self.width;
        let m = mask(w);
        let bits = |r: &mut Rng| {
            let n = 1 + r.below(u64::from(w)) as u32;
            r.next_u64() & mask(n)
        };
        match r.below(8) {
            // uniform bits
            0 | 1 => (r.next_u64() & m, r.next_u64() & m),
            // small divisors, any dividend
            2 | 3 => (r.next_u64() & m, bits(r)),
            // exact multiples (and their neighbours), signs at random
            4 | 5 => {
                let b = bits(r).max(1);
                let q = bits(r);
                let a = b.wrapping_mul(q).wrapping_add(r.below(3)).wrapping_sub(1);
                let neg = |v: u64, r: &mut Rng| {
                    if self.signed && r.below(2) == 0 {
                        v.wrapping_neg()
                    } else {
                        v
                    }
                };
                (neg(a, r) & m, neg(b, r) & m)
            }
            // zero divisors
            6 => (r.next_u64() & m, 0),
            // divisor above the dividend
            _ => {
                let a = bits(r);
                (a, (a | bits(r)) & m)
            }
        }
    }
}

const TB: &str = "int_div_tb";

fn tb_ports(units: &[Unit]) -> Vec<PortSpec> {
    let mut p = vec![PortSpec::input("clk", 1), PortSpec::input("ce", 1)];
    for u in units {
        for (n, w) in u.inputs() {
            p.push(PortSpec::input(u.port(n), w));
        }
        for n in ["q", "r"] {
            p.push(PortSpec::output(u.port(n), u.width));
        }
    }
    p
}

fn tb_verilog(units: &[Unit]) -> String {
    let decls: Vec<String> = tb_ports(units)
        .iter()
        .map(|p| {
            let dir = if p.dir == sim::Dir::In {
                "input "
            } else {
                "output"
            };
            format!("    {dir} wire [{}:0] {}", p.width - 1, p.name)
        })
        .collect();
    let mut v = format!(
        "`default_nettype none\nmodule {TB} (\n{}\n);\n",
        decls.join(",\n")
    );
    for u in units {
        v.push_str(&u.instance());
    }
    v.push_str("endmodule\n`default_nettype wire\n");
    v
}

fn render(dir: &Path, units: &[Unit]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = div_files()
        .into_iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let tb = dir.join(format!("{TB}.v"));
    std::fs::write(&tb, tb_verilog(units)).unwrap();
    files.push(tb);
    files
}

fn model() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| {
        let units = all_units();
        let dir = tempfile::tempdir().unwrap();
        let src = ModelSource {
            top: TB.into(),
            files: render(dir.path(), &units),
            ports: tb_ports(&units),
        };
        // A model this large is compiled file by file with a precompiled header (see
        // `sim::build`'s flags).
        build_model(toolchain(), &src, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// One operation in flight: its operands, the reference, enabled edges until it is due.
#[derive(Clone, Debug)]
struct InFlight {
    a: u64,
    b: u64,
    want: [u64; 2],
    due_in: u32,
}

/// One unit's driver and checker.
struct Lane {
    unit: Unit,
    a: PortId,
    b: PortId,
    start: Option<PortId>,
    q: PortId,
    r: PortId,
    directed: VecDeque<(u64, u64)>,
    /// Operations not yet due, oldest first, and the last one due (checked until the next
    /// start of an iterative unit, until the next due one of a pipelined unit).
    flight: VecDeque<InFlight>,
    due: Option<InFlight>,
    /// Enabled edges since the last start.
    since_start: u32,
    checked: u64,
    by_zero: u64,
    overflow: u64,
}

impl Lane {
    fn new(m: &Model, unit: Unit) -> Lane {
        let port = |n: &str| {
            m.port(&unit.port(n))
                .unwrap_or_else(|| panic!("no port {}", unit.port(n)))
        };
        Lane {
            unit,
            a: port("a"),
            b: port("b"),
            start: (unit.kind == DivUnit::Iterative).then(|| port("start")),
            q: port("q"),
            r: port("r"),
            directed: unit.directed().into(),
            flight: VecDeque::new(),
            due: None,
            since_start: u32::MAX,
            checked: 0,
            by_zero: 0,
            overflow: 0,
        }
    }

    /// Sets the inputs for the next edge; returns whether an operation starts on it.
    fn drive(&mut self, m: &mut Model, r: &mut Rng, enabled: bool) -> bool {
        let u = self.unit;
        let free = self.since_start >= u.busy();
        let issue = enabled && free && (u.kind == DivUnit::Pipelined || r.below(4) != 0);
        let (a, b) = if issue {
            self.directed.pop_front().unwrap_or_else(|| u.random(r))
        } else {
            (r.next_u64() & mask(u.width), r.next_u64() & mask(u.width))
        };
        m.set(self.a, a);
        m.set(self.b, b);
        if let Some(s) = self.start {
            // garbage while ce is off (the unit must ignore it)
            let garbage = !enabled && r.below(2) == 0;
            m.set(s, u64::from(issue || garbage));
        }
        if issue {
            self.flight.push_back(InFlight {
                a,
                b,
                want: u.reference(a, b),
                due_in: u.latency(),
            });
            if u.kind == DivUnit::Iterative {
                // the previous result may change from this edge on
                self.due = None;
            }
        }
        issue
    }

    /// After an edge (`enabled`: with ce): operations become due, and the last due one must be
    /// on the outputs.
    fn after_edge(
        &mut self,
        m: &Model,
        enabled: bool,
        issued: bool,
        cycle: u64,
    ) -> Result<(), String> {
        if enabled {
            self.since_start = if issued {
                1
            } else {
                self.since_start.saturating_add(1)
            };
            for f in &mut self.flight {
                f.due_in -= 1;
            }
            while self.flight.front().is_some_and(|f| f.due_in == 0) {
                let f = self.flight.pop_front().unwrap();
                self.checked += 1;
                self.by_zero += u64::from(f.b == 0);
                let min = 1u64 << (self.unit.width - 1);
                self.overflow +=
                    u64::from(self.unit.signed && f.a == min && f.b == mask(self.unit.width));
                self.due = Some(f);
            }
        }
        if let Some(f) = &self.due {
            let got = [m.get(self.q), m.get(self.r)];
            if got != f.want {
                return Err(format!(
                    "{}: a = {:#x}, b = {:#x}: (q, r) = ({:#x}, {:#x}) in the RTL but ({:#x}, \
                     {:#x}) in hls_ir::integer (cycle {cycle})",
                    self.unit.name(),
                    f.a,
                    f.b,
                    got[0],
                    got[1],
                    f.want[0],
                    f.want[1]
                ));
            }
        }
        Ok(())
    }
}

/// Runs every unit until each has checked `vectors` results (after its directed cases).
fn run(vectors: u64, seed: u64) -> Result<Vec<Lane>, String> {
    let units = all_units();
    let mut m = model().instantiate().map_err(|e| e.to_string())?;
    let ce = m.port("ce").unwrap();
    let mut lanes: Vec<Lane> = units.iter().map(|&u| Lane::new(&m, u)).collect();
    let mut r = Rng(seed);
    let (mut p_ce, mut phase_left) = (1000, 0);
    let mut cycle = 0u64;
    while lanes
        .iter()
        .any(|l| l.checked < vectors || !l.directed.is_empty())
    {
        if phase_left == 0 {
            p_ce = [1000, 900, 500, 100][r.below(4) as usize];
            phase_left = 16 + r.below(500);
        }
        phase_left -= 1;
        let enabled = r.below(1000) < p_ce;
        m.set(ce, u64::from(enabled));
        let issued: Vec<bool> = lanes
            .iter_mut()
            .map(|l| l.drive(&mut m, &mut r, enabled))
            .collect();
        m.tick().map_err(|e| e.to_string())?;
        for (l, &i) in lanes.iter_mut().zip(&issued) {
            l.after_edge(&m, enabled, i, cycle)?;
        }
        cycle += 1;
    }
    Ok(lanes)
}

fn run_and_check(vectors: u64, seed: u64) {
    let started = std::time::Instant::now();
    let lanes = run(vectors, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    for l in &lanes {
        eprintln!(
            "{}: {} results checked ({} by zero, {} MIN / -1)",
            l.unit.name(),
            l.checked,
            l.by_zero,
            l.overflow
        );
        assert!(l.by_zero > 0, "{}: no division by zero", l.unit.name());
        assert!(
            !l.unit.signed || l.overflow > 0,
            "{}: no MIN / -1",
            l.unit.name()
        );
    }
    eprintln!("{:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn dividers_match_the_reference() {
    run_and_check(4_000, 0xd1d);
}

/// The long run: `OCLHLS_DIV_VECTORS` random results per unit (default 10^6).
#[test]
#[ignore]
fn dividers_match_the_reference_long_run() {
    let vectors: u64 = std::env::var("OCLHLS_DIV_VECTORS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    run_and_check(vectors, 0x2_0000);
}

/// `verilator --lint-only -Wall`, no waivers, for every parameter set of the testbench.
#[test]
fn lint_clean_for_every_parameter_set() {
    let v = toolchain().locate(Tool::Verilator).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = div_files()
        .into_iter()
        .map(|(name, text)| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    for u in all_units() {
        let file = files
            .iter()
            .find(|f| f.file_stem().unwrap() == u.kind.module())
            .unwrap();
        let out = toolchain()
            .command(&v)
            .args(["--lint-only", "-Wall", "--top-module", u.kind.module()])
            .arg(format!("-GWIDTH={}", u.width))
            .arg(format!("-GSIGNED={}", u8::from(u.signed)))
            .arg(format!("-G{}={}", u.param_name(), u.param))
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "lint of {}:\n{}",
            u.name(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Yosys `check` on the elaborated RTL and on the `synth_ecp5` netlist of a testbench with
/// both dividers at 13 and 32 bits, signed and unsigned, must be clean, and the dividers use no
/// DSP and no memory.
#[test]
fn yosys_synth_ecp5_and_check_are_clean() {
    use board_support::flow::{synth, SynthOptions};
    let units: Vec<Unit> = all_units()
        .into_iter()
        .filter(|u| {
            let lib = match u.kind {
                DivUnit::Pipelined => u.width.div_ceil(lib_steps(u.width, u.kind)),
                DivUnit::Iterative => lib_steps(u.width, u.kind),
            };
            [13, 32].contains(&u.width) && u.param == lib
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let files = render(dir.path(), &units);
    let opts = SynthOptions::new(dir.path().join("synth"));
    let report = synth(toolchain(), &files, TB, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report.cells.keys().all(|t| !t.starts_with('$')),
        "unmapped cells: {:?}",
        report.cells
    );
    assert_eq!(report.cells_of("MULT18X18D"), 0, "{:?}", report.cells);
    assert_eq!(report.cells_of("DP16KD"), 0, "{:?}", report.cells);
}
