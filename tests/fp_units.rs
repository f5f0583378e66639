//! The float units (`rtl-templates/templates/oclhls_fp_*.v`) against their reference `fpsem`,
//! bit for bit, in Verilator. Every unit gets directed cases first (edge patterns against each
//! other, the hand-worked cases of `fpsem::vectors`, integer extremes, the saturation thresholds
//! of every conversion), then random operands from a mix of distributions (`fpsem::vectors`:
//! uniform bits, close exponents, equal magnitudes, exponents near both limits, products near
//! the round-up-to-the-smallest-normal threshold, exact quotients and roots). `ce` is toggled at random in phases (always
//! on, mostly on, half, mostly off), and the inputs carry garbage while it is off, so a held
//! pipeline is tested too; every output is compared after every clock edge with the value the
//! inputs of `latency` enabled edges ago must give (the compare: in every cycle). The first
//! difference fails with the unit, its inputs and both values; each run must also reach the
//! situations it is meant to test (NaN, infinity and zero results, the rounding up to the
//! smallest normal, saturation, ...).
//!
//! One testbench top instantiates every unit and every WIDTH × SIGNED of the conversions, so one
//! Verilator model serves them all; a second one simulates the multiplier's synthesis branch
//! (its MULT18X18D instances) with a test-only model of the primitive (`tests/fp/MULT18X18D.v`).
//! Lint (`verilator --lint-only -Wall`, every module and parameter set) and Yosys `synth_ecp5`
//! with `check` are tests here too. The long run is `#[ignore]`d:
//!
//! ```text
//! OCLHLS_FP_VECTORS=10000000 cargo test --release --test fp_units -- --ignored --nocapture
//! ```

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fpsem::vectors::{
    exact_quotient, exact_square, int_value, near_min_normal_product, pair, Rng, ADD_DIRECTED,
    DIV_DIRECTED, EDGES, MUL_DIRECTED, SQRT_DIRECTED,
};
use rtl_templates::fp::{fp_files, FpUnit};
use sim::{build_model, BuildOptions, BuiltModel, Model, ModelSource, PortId, PortSpec};
use toolchain::Tool;

mod common;
use common::toolchain;

/// Every WIDTH × SIGNED of the conversions.
const CONVERSIONS: [(u32, bool); 8] = [
    (8, true),
    (8, false),
    (16, true),
    (16, false),
    (32, true),
    (32, false),
    (64, true),
    (64, false),
];

/// One unit instance of the testbench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Add,
    Mul,
    Cmp,
    Div,
    Sqrt,
    FromInt(u32, bool),
    ToInt(u32, bool),
}

fn all_units() -> Vec<Unit> {
    let mut v = vec![Unit::Add, Unit::Mul, Unit::Cmp, Unit::Div, Unit::Sqrt];
    v.extend(CONVERSIONS.iter().map(|&(w, s)| Unit::FromInt(w, s)));
    v.extend(CONVERSIONS.iter().map(|&(w, s)| Unit::ToInt(w, s)));
    v
}

fn int_name(w: u32, s: bool) -> String {
    format!("{}{w}", if s { "i" } else { "u" })
}

fn mask(w: u32) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1 << w) - 1
    }
}

/// What a run must have seen, per unit (counted from the reference's answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    NanOut,
    InfOut,
    ZeroOut,
    MinNormalOut,
    NormalOut,
    /// Both operands nonzero, result zero (cancellation or underflow).
    ZeroFromNonzero,
    /// A product below 2^-126 rounded up to 2^-126.
    RoundedUpToMinNormal,
    /// int -> float not exact.
    Inexact,
    /// float -> int saturated (|a| beyond the type, infinities).
    Saturated,
    NanIn,
    /// float -> int dropped a fraction.
    Truncated,
    /// A normal quotient or root without rounding (no remainder).
    Exact,
    Less,
    Equal,
    Unordered,
    Greater,
}

const SEEN: usize = 16;

impl Unit {
    fn name(self) -> String {
        match self {
            Unit::Add => "add".into(),
            Unit::Mul => "mul".into(),
            Unit::Div => "div".into(),
            Unit::Sqrt => "sqrt".into(),
            Unit::Cmp => "cmp".into(),
            Unit::FromInt(w, s) => format!("from_int_{}", int_name(w, s)),
            Unit::ToInt(w, s) => format!("to_int_{}", int_name(w, s)),
        }
    }

    fn fp(self) -> FpUnit {
        match self {
            Unit::Add => FpUnit::Add,
            Unit::Mul => FpUnit::Mul,
            Unit::Div => FpUnit::Div,
            Unit::Sqrt => FpUnit::Sqrt,
            Unit::Cmp => FpUnit::Cmp,
            Unit::FromInt(..) => FpUnit::FromInt,
            Unit::ToInt(..) => FpUnit::ToInt,
        }
    }

    fn params(self) -> Option<(u32, bool)> {
        match self {
            Unit::FromInt(w, s) | Unit::ToInt(w, s) => Some((w, s)),
            _ => None,
        }
    }

    /// Inputs (name, width).
    fn inputs(self) -> Vec<(&'static str, u32)> {
        match self {
            Unit::Add | Unit::Mul | Unit::Div | Unit::Cmp => vec![("a", 32), ("b", 32)],
            Unit::Sqrt => vec![("a", 32)],
            Unit::FromInt(w, _) => vec![("a", w)],
            Unit::ToInt(..) => vec![("a", 32)],
        }
    }

    /// Outputs (name, width).
    fn outputs(self) -> Vec<(&'static str, u32)> {
        match self {
            Unit::Cmp => vec![("lt", 1), ("eq", 1), ("unordered", 1)],
            Unit::ToInt(w, _) => vec![("y", w)],
            _ => vec![("y", 32)],
        }
    }

    fn reference(self, x: &[u64]) -> Vec<u64> {
        let f = |i: usize| x[i] as u32;
        match self {
            Unit::Add => vec![u64::from(fpsem::add(f(0), f(1)))],
            Unit::Mul => vec![u64::from(fpsem::mul(f(0), f(1)))],
            Unit::Div => vec![u64::from(fpsem::div(f(0), f(1)))],
            Unit::Sqrt => vec![u64::from(fpsem::sqrt(f(0)))],
            Unit::Cmp => {
                let (lt, eq, un) = fpsem::cmp(f(0), f(1));
                vec![u64::from(lt), u64::from(eq), u64::from(un)]
            }
            Unit::FromInt(w, s) => vec![u64::from(fpsem::from_int(x[0], w, s))],
            Unit::ToInt(w, s) => vec![fpsem::to_int(f(0), w, s)],
        }
    }

    /// The situations the inputs `x` with reference outputs `y` stand for.
    fn seen(self, x: &[u64], y: &[u64]) -> Vec<Seen> {
        let mut v = Vec::new();
        let is_nan = |b: u32| b & 0x7f80_0000 == 0x7f80_0000 && b & 0x7f_ffff != 0;
        let nonzero = |b: u32| b & 0x7f80_0000 != 0;
        match self {
            Unit::Add | Unit::Mul | Unit::Div | Unit::Sqrt | Unit::FromInt(..) => {
                let r = y[0] as u32;
                v.push(match r & 0x7fff_ffff {
                    0x7fc0_0000 => Seen::NanOut,
                    0x7f80_0000 => Seen::InfOut,
                    0 => Seen::ZeroOut,
                    0x0080_0000 => Seen::MinNormalOut,
                    _ => Seen::NormalOut,
                });
                if let Some((w, s)) = self.params() {
                    if fpsem::to_int(r, w, s) != x[0] & mask(w) {
                        v.push(Seen::Inexact);
                    }
                    return v;
                }
                let f = |b: u32| f64::from(f32::from_bits(b));
                let (a, b) = (x[0] as u32, x.get(1).map_or(0x3f80_0000, |&b| b as u32));
                if nonzero(a) && nonzero(b) && !is_nan(a) && !is_nan(b) && r & 0x7fff_ffff == 0 {
                    v.push(Seen::ZeroFromNonzero);
                }
                // The exact result, where f64 has it (products and squares of f32 are exact in
                // f64; a quotient only as close as f64 rounds it).
                let exact = match self {
                    Unit::Mul => Some(f(a) * f(b)),
                    Unit::Div => Some(f(a) / f(b)),
                    _ => None,
                };
                if let Some(e) = exact {
                    if r & 0x7fff_ffff == 0x0080_0000 && e.abs() < f64::from(f32::MIN_POSITIVE) {
                        v.push(Seen::RoundedUpToMinNormal);
                    }
                }
                let normal = r & 0x7f80_0000 != 0 && r & 0x7f80_0000 != 0x7f80_0000;
                let is_exact = match self {
                    Unit::Div => f(r) * f(b) == f(a),
                    Unit::Sqrt => f(r) * f(r) == f(a),
                    _ => false,
                };
                if normal && is_exact {
                    v.push(Seen::Exact);
                }
            }
            Unit::Cmp => {
                v.push(match (y[0], y[1], y[2]) {
                    (1, _, _) => Seen::Less,
                    (_, 1, _) => Seen::Equal,
                    (_, _, 1) => Seen::Unordered,
                    _ => Seen::Greater,
                });
            }
            Unit::ToInt(w, s) => {
                let a = x[0] as u32;
                if is_nan(a) {
                    v.push(Seen::NanIn);
                    return v;
                }
                let t = f64::from(f32::from_bits(a)).trunc();
                let (min, max) = if s {
                    (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0)
                } else {
                    (0.0, 2f64.powi(w as i32) - 1.0)
                };
                if t < min || t > max {
                    v.push(Seen::Saturated);
                } else if t != f64::from(f32::from_bits(a)) {
                    v.push(Seen::Truncated);
                }
            }
        }
        v
    }

    /// What a CI run must have seen.
    fn must_see(self) -> Vec<Seen> {
        use Seen::*;
        match self {
            Unit::Add => vec![
                NanOut,
                InfOut,
                ZeroOut,
                MinNormalOut,
                NormalOut,
                ZeroFromNonzero,
            ],
            Unit::Mul => [Unit::Add.must_see(), vec![RoundedUpToMinNormal]].concat(),
            Unit::Div => [Unit::Mul.must_see(), vec![Exact]].concat(),
            Unit::Sqrt => vec![NanOut, InfOut, ZeroOut, NormalOut, Exact],
            Unit::Cmp => vec![Less, Equal, Unordered, Greater],
            Unit::FromInt(w, _) if w > 24 => vec![ZeroOut, NormalOut, Inexact],
            Unit::FromInt(..) => vec![ZeroOut, NormalOut],
            Unit::ToInt(..) => vec![Saturated, NanIn, Truncated],
        }
    }

    fn random(self, r: &mut Rng) -> Vec<u64> {
        match self {
            Unit::Add | Unit::Cmp => {
                let (a, b) = pair(r);
                vec![a.into(), b.into()]
            }
            Unit::Div => {
                let (a, b) = if r.below(4) == 0 {
                    exact_quotient(r)
                } else {
                    pair(r)
                };
                vec![a.into(), b.into()]
            }
            Unit::Sqrt => {
                let a = match r.below(4) {
                    0 => exact_square(r),
                    1 => pair(r).0,
                    _ => pair(r).0 & 0x7fff_ffff,
                };
                vec![a.into()]
            }
            Unit::Mul => {
                let (a, b) = if r.below(8) == 0 {
                    near_min_normal_product(r)
                } else {
                    pair(r)
                };
                vec![a.into(), b.into()]
            }
            Unit::FromInt(w, _) => vec![int_value(r) & mask(w)],
            Unit::ToInt(w, _) => {
                let a = if r.below(2) == 0 {
                    pair(r).0
                } else {
                    // Around the integer range of the type: exponents 2^-2 .. 2^(w+2).
                    let e = 125 + r.below(u64::from(w) + 5) as u32;
                    (r.next_u64() as u32 & 0x807f_ffff) | e << 23
                };
                vec![a.into()]
            }
        }
    }

    fn directed(self) -> Vec<Vec<u64>> {
        let pairs = || -> Vec<Vec<u64>> {
            EDGES
                .iter()
                .flat_map(|&a| EDGES.iter().map(move |&b| vec![a.into(), b.into()]))
                .collect()
        };
        let cases = |c: &[(u32, u32, u32)]| -> Vec<Vec<u64>> {
            c.iter()
                .map(|&(a, b, _)| vec![a.into(), b.into()])
                .collect()
        };
        match self {
            Unit::Add => [cases(&ADD_DIRECTED), pairs()].concat(),
            Unit::Mul => [cases(&MUL_DIRECTED), pairs()].concat(),
            Unit::Div => [cases(&DIV_DIRECTED), pairs()].concat(),
            Unit::Sqrt => SQRT_DIRECTED
                .iter()
                .map(|&(a, _)| a)
                .chain(EDGES)
                .map(|a| vec![a.into()])
                .collect(),
            Unit::Cmp => pairs(),
            Unit::FromInt(w, _) => {
                let p24 = 1u64 << 24;
                [
                    0,
                    1,
                    2,
                    3,
                    u64::MAX,
                    1 << (w - 1),
                    (1 << (w - 1)) + 1,
                    (1 << (w - 1)) - 1,
                    p24 - 1,
                    p24,
                    p24 + 1,
                    p24 + 2,
                    p24 + 3,
                    (1 << 25) + 3,
                    (1 << 53) + 1,
                    1 << 63,
                    (1 << 63) - 1,
                    u64::MAX - 1,
                ]
                .iter()
                .map(|&v| vec![v & mask(w)])
                .collect()
            }
            Unit::ToInt(..) => {
                let mut v: Vec<Vec<u64>> = EDGES.iter().map(|&a| vec![a.into()]).collect();
                for e in 118..=200u32 {
                    for m in [0, 1, 0x40_0000, 0x7f_ffff] {
                        for s in [0, 0x8000_0000u32] {
                            v.push(vec![u64::from(s | e << 23 | m)]);
                        }
                    }
                }
                v
            }
        }
    }

    fn port(self, p: &str) -> String {
        format!("{}_{p}", self.name())
    }

    /// The instance in the testbench.
    fn instance(self) -> String {
        let params = self
            .params()
            .map(|(w, s)| format!(" #(.WIDTH({w}), .SIGNED({}))", u32::from(s)))
            .unwrap_or_default();
        let clocked = if self == Unit::Cmp {
            String::new()
        } else {
            ".clk(clk), .ce(ce), ".into()
        };
        let conns: Vec<String> = self
            .inputs()
            .iter()
            .chain(&self.outputs())
            .map(|(p, _)| format!(".{p}({})", self.port(p)))
            .collect();
        format!(
            "    {}{params} u_{} ({clocked}{});\n",
            self.fp().module(),
            self.name(),
            conns.join(", ")
        )
    }
}

const TB: &str = "fp_units_tb";

fn tb_ports(units: &[Unit]) -> Vec<PortSpec> {
    let mut p = vec![PortSpec::input("clk", 1), PortSpec::input("ce", 1)];
    for u in units {
        p.extend(
            u.inputs()
                .iter()
                .map(|&(n, w)| PortSpec::input(u.port(n), w)),
        );
        p.extend(
            u.outputs()
                .iter()
                .map(|&(n, w)| PortSpec::output(u.port(n), w)),
        );
    }
    p
}

/// The testbench top: every unit of `units` with its ports under `<unit>_`.
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

/// Writes the float unit files and the testbench into `dir`; returns their paths.
fn render(dir: &Path, units: &[Unit]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fp_files()
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

fn build(units: &[Unit], dsp_model: bool) -> BuiltModel {
    let dir = tempfile::tempdir().unwrap();
    let mut files = render(dir.path(), units);
    let mut opts = BuildOptions::default();
    if dsp_model {
        files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fp/MULT18X18D.v"));
        opts.extra_args.push("-DSYNTHESIS".into());
    }
    let src = ModelSource {
        top: TB.into(),
        files,
        ports: tb_ports(units),
    };
    build_model(toolchain(), &src, &opts).unwrap_or_else(|e| panic!("{e}"))
}

/// Every unit, behavioural Verilog (what Verilator sees in every flow).
fn all_units_model() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build(&all_units(), false))
}

/// The multiplier with its MULT18X18D instances (the branch Yosys synthesises).
fn dsp_mul_model() -> &'static BuiltModel {
    static M: OnceLock<BuiltModel> = OnceLock::new();
    M.get_or_init(|| build(&[Unit::Mul], true))
}

/// One unit's driver and checker.
struct Lane {
    unit: Unit,
    latency: usize,
    ins: Vec<PortId>,
    outs: Vec<PortId>,
    directed: VecDeque<Vec<u64>>,
    /// (inputs, reference outputs) of the last `latency` enabled edges, oldest first.
    pending: VecDeque<(Vec<u64>, Vec<u64>)>,
    checked: u64,
    seen: [u64; SEEN],
}

impl Lane {
    fn new(m: &Model, unit: Unit) -> Lane {
        let port = |n: &str| {
            m.port(&unit.port(n))
                .unwrap_or_else(|| panic!("no port {}", unit.port(n)))
        };
        Lane {
            unit,
            latency: unit.fp().latency() as usize,
            ins: unit.inputs().iter().map(|(n, _)| port(n)).collect(),
            outs: unit.outputs().iter().map(|(n, _)| port(n)).collect(),
            directed: unit.directed().into(),
            pending: VecDeque::new(),
            checked: 0,
            seen: [0; SEEN],
        }
    }

    fn next_vector(&mut self, r: &mut Rng) -> Vec<u64> {
        self.directed
            .pop_front()
            .unwrap_or_else(|| self.unit.random(r))
    }

    /// Compares the outputs with the reference `want` for inputs `x`.
    fn check(&mut self, m: &Model, x: &[u64], want: &[u64], cycle: u64) -> Result<(), String> {
        for (k, (&p, &w)) in self.outs.iter().zip(want).enumerate() {
            let got = m.get(p);
            if got != w {
                let names: Vec<String> = self
                    .unit
                    .inputs()
                    .iter()
                    .zip(x)
                    .map(|((n, _), v)| format!("{n} = {v:#x}"))
                    .collect();
                return Err(format!(
                    "{} ({}): `{}` is {got:#x} in the RTL but {w:#x} in fpsem (cycle {cycle})",
                    self.unit.name(),
                    names.join(", "),
                    self.unit.outputs()[k].0,
                ));
            }
        }
        Ok(())
    }

    fn count(&mut self, x: &[u64], want: &[u64]) {
        self.checked += 1;
        for s in self.unit.seen(x, want) {
            self.seen[s as usize] += 1;
        }
    }
}

/// Runs `units` on a fresh instance of `model` until each has checked `vectors` results (after
/// all its directed cases). Returns the lanes for their counts.
fn run(model: &BuiltModel, units: &[Unit], vectors: u64, seed: u64) -> Result<Vec<Lane>, String> {
    let mut m = model.instantiate().map_err(|e| e.to_string())?;
    let ce = m.port("ce").unwrap();
    let mut lanes: Vec<Lane> = units.iter().map(|&u| Lane::new(&m, u)).collect();
    let mut r = Rng(seed);
    // ce probability (per mille) of the current phase, and the phase's remaining cycles.
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
        let mut now: Vec<Option<(Vec<u64>, Vec<u64>)>> = Vec::with_capacity(lanes.len());
        for l in &mut lanes {
            let comb = l.latency == 0;
            let x = if comb || enabled {
                l.next_vector(&mut r)
            } else {
                // garbage the held pipeline must ignore
                l.unit
                    .inputs()
                    .iter()
                    .map(|&(_, w)| r.next_u64() & mask(w))
                    .collect()
            };
            for (&p, &v) in l.ins.iter().zip(&x) {
                m.set(p, v);
            }
            now.push((comb || enabled).then(|| {
                let y = l.unit.reference(&x);
                (x, y)
            }));
        }
        m.eval().map_err(|e| e.to_string())?;
        for (l, v) in lanes.iter_mut().zip(&now) {
            if let (0, Some((x, y))) = (l.latency, v) {
                l.check(&m, x, y, cycle)?;
                l.count(x, y);
            }
        }
        m.tick().map_err(|e| e.to_string())?;
        for (l, v) in lanes.iter_mut().zip(now) {
            if l.latency == 0 {
                continue;
            }
            let fresh = v.is_some();
            if let Some(xy) = v {
                l.pending.push_back(xy);
                if l.pending.len() > l.latency {
                    l.pending.pop_front();
                }
            }
            if l.pending.len() == l.latency {
                let (x, y) = l.pending.front().unwrap().clone();
                l.check(&m, &x, &y, cycle)?;
                if fresh {
                    l.count(&x, &y);
                }
            }
        }
        cycle += 1;
    }
    Ok(lanes)
}

fn run_and_check(model: &BuiltModel, units: &[Unit], vectors: u64, seed: u64, coverage: bool) {
    let started = std::time::Instant::now();
    let lanes = run(model, units, vectors, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    for l in &lanes {
        eprintln!(
            "{}: {} results checked; seen {:?}",
            l.unit.name(),
            l.checked,
            l.seen
        );
        if coverage {
            for s in l.unit.must_see() {
                assert!(
                    l.seen[s as usize] > 0,
                    "{}: the run never reached {s:?}",
                    l.unit.name()
                );
            }
        }
    }
    eprintln!("{:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn units_match_the_reference() {
    run_and_check(all_units_model(), &all_units(), 60_000, 0xf00d, true);
}

#[test]
fn multiplier_dsp_instances_match_the_reference() {
    run_and_check(dsp_mul_model(), &[Unit::Mul], 60_000, 0xd5b, true);
}

/// The long run: `OCLHLS_FP_VECTORS` random results per unit (default 10^7) on every unit, and
/// on the multiplier's DSP instances.
#[test]
#[ignore]
fn units_match_the_reference_long_run() {
    let vectors: u64 = std::env::var("OCLHLS_FP_VECTORS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    run_and_check(all_units_model(), &all_units(), vectors, 0x1_0000, true);
    run_and_check(dsp_mul_model(), &[Unit::Mul], vectors, 0x1_0001, true);
}

/// `verilator --lint-only -Wall`, no waivers, for every unit and parameter set, each with the
/// helper modules it instantiates.
#[test]
fn lint_clean_for_every_module_and_parameter_set() {
    let v = toolchain().locate(Tool::Verilator).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for u in all_units() {
        let files: Vec<PathBuf> = u
            .fp()
            .files()
            .into_iter()
            .map(|(name, text)| {
                let path = dir.path().join(name);
                std::fs::write(&path, text).unwrap();
                path
            })
            .collect();
        let params: Vec<String> = u
            .params()
            .map(|(w, s)| vec![format!("-GWIDTH={w}"), format!("-GSIGNED={}", u32::from(s))])
            .unwrap_or_default();
        let out = toolchain()
            .command(&v)
            .args(["--lint-only", "-Wall", "--top-module", u.fp().module()])
            .args(&params)
            .args(&files)
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

/// Yosys `check` on the elaborated RTL and on the `synth_ecp5` netlist of the testbench (every
/// unit and parameter set) must be clean; the multiplier's three DSPs are MULT18X18D with their
/// input and output registers (its 6 x 6 product of the top bits is in fabric: Yosys must not
/// map it to a fourth), and nothing else uses a DSP.
#[test]
fn yosys_synth_ecp5_and_check_are_clean() {
    use board_support::flow::{synth, SynthOptions};
    let dir = tempfile::tempdir().unwrap();
    let files = render(dir.path(), &all_units());
    let opts = SynthOptions::new(dir.path().join("synth"));
    let report = synth(toolchain(), &files, TB, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report.cells.keys().all(|t| !t.starts_with('$')),
        "unmapped cells: {:?}",
        report.cells
    );
    assert_eq!(report.cells_of("MULT18X18D"), 3, "{:?}", report.cells);
    let netlist: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report.netlist).unwrap()).unwrap();
    let mut dsps = 0;
    for module in netlist["modules"].as_object().unwrap().values() {
        for cell in module["cells"].as_object().unwrap().values() {
            if cell["type"] == "MULT18X18D" {
                dsps += 1;
                for reg in ["REG_INPUTA_CLK", "REG_INPUTB_CLK", "REG_OUTPUT_CLK"] {
                    // Yosys writes string parameters as their text (with a trailing space
                    // when it could be mistaken for a bit pattern).
                    let v = cell["parameters"][reg].as_str().unwrap_or("");
                    assert_eq!(v.trim_end(), "CLK0", "{reg}: {cell}");
                }
            }
        }
    }
    assert_eq!(dsps, 3);
}
