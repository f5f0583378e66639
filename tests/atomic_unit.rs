//! The board's atomic unit (`board-support/rtl/oclhls_atomic_unit.v`) in Verilator against a
//! sequential reference, under random timing. Three clients (two 32-bit, one 64-bit) issue
//! random requests (plain reads and every atomic operation) on four 64-bit words, so that
//! requests on the same bytes follow each other closely and the unit's forwarding of writes
//! still in flight decides the results; the native port is a model of a LiteDRAM user port
//! (commands executed in order, after random delays; read data after a random latency, never
//! held back; write data taken when the write executes), with random `cmd_ready`, and the
//! clients take responses at random. The native port is 16 bits wide as on the board (each
//! 64-bit element word is four commands), 32 bits (two halves), and 64 bits (one command per
//! element word: the unit then corrects a read it overtook in its last stage).
//!
//! The unit promises that its requests take effect one at a time in the order it issues them
//! (the testbench reads that order from the unit's `issue`/`pick`): so the reference executes
//! each request at its issue on a byte-addressed memory, and every response (per client, in
//! request order) and the memory at the end must equal the reference's.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::sync::OnceLock;

use fpsem::vectors::Rng;
use hwcontract::atomic::AtomicOp;
use sim::{build_model, BuildOptions, BuiltModel, Model, ModelSource, PortId, PortSpec};
use toolchain::Tool;

mod common;
use common::toolchain;

const N: usize = 3;
/// Client i's element width.
const BITS: [u32; N] = [32, 32, 64];
const WORDS: u64 = 4;
/// The native port widths in bits the unit is tested with (the board's first: the x16
/// SDRAM's).
const NATIVE_BITS: [u32; 3] = [16, 32, 64];

/// The testbench around a unit whose native port is `nd` bits wide (addressing the same 32
/// bytes of memory in `nd`-bit words, with 10 address bits).
fn testbench(nd: u32) -> String {
    TB.replace("NDM1", &(nd - 1).to_string())
        .replace("NBM1", &(nd / 8 - 1).to_string())
        .replace("ND_VALUE", &nd.to_string())
}

const TB: &str = "
`default_nettype none
module tb_atomic_unit (
    input  wire         clk,
    input  wire         rst,
    input  wire [2:0]   c_rreq_valid,
    output wire [2:0]   c_rreq_ready,
    input  wire [95:0]  c_rreq_addr,
    input  wire [11:0]  c_rreq_op,
    input  wire [191:0] c_rreq_operand,
    input  wire [191:0] c_rreq_compare,
    output wire [2:0]   c_rresp_valid,
    input  wire [2:0]   c_rresp_ready,
    output wire [191:0] c_rresp_data,
    output wire         cmd_valid,
    input  wire         cmd_ready,
    output wire         cmd_we,
    output wire [9:0]   cmd_addr,
    output wire         wdata_valid,
    input  wire         wdata_ready,
    output wire [NDM1:0]  wdata_data,
    output wire [NBM1:0]   wdata_we,
    input  wire         rdata_valid,
    input  wire [NDM1:0]  rdata_data,
    output wire         dbg_issue,
    output wire [1:0]   dbg_pick
);
    wire cmd_last;
    wire rdata_ready;
    oclhls_atomic_unit #(.N(3), .NARROW(3'b011), .D(64), .ND(ND_VALUE), .NAW(10)) u (
        .clk(clk), .rst(rst),
        .c_rreq_valid(c_rreq_valid), .c_rreq_ready(c_rreq_ready), .c_rreq_addr(c_rreq_addr),
        .c_rreq_op(c_rreq_op), .c_rreq_operand(c_rreq_operand),
        .c_rreq_compare(c_rreq_compare),
        .c_rresp_valid(c_rresp_valid), .c_rresp_ready(c_rresp_ready),
        .c_rresp_data(c_rresp_data),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_we(cmd_we), .cmd_addr(cmd_addr),
        .cmd_last(cmd_last),
        .wdata_valid(wdata_valid), .wdata_ready(wdata_ready), .wdata_data(wdata_data),
        .wdata_we(wdata_we),
        .rdata_valid(rdata_valid), .rdata_ready(rdata_ready), .rdata_data(rdata_data)
    );
    assign dbg_issue = u.issue;
    assign dbg_pick = u.pick;
    wire unused = &{1'b0, cmd_last, rdata_ready, 1'b0};
endmodule
`default_nettype wire
";

/// Writes the generator's FIFO (the unit's queues) into `dir`.
fn write_fifo(dir: &Path) -> std::path::PathBuf {
    let fifo = dir.join("oclhls_fifo.v");
    let support = rtl_templates::support_files();
    let text = &support
        .iter()
        .find(|(n, _)| n == "oclhls_fifo.v")
        .expect("the FIFO is a support file")
        .1;
    std::fs::write(&fifo, text).unwrap();
    fifo
}

/// The unit with an `nd`-bit native port, built once per width.
fn model(nd: u32) -> &'static BuiltModel {
    static M: [OnceLock<BuiltModel>; NATIVE_BITS.len()] = [const { OnceLock::new() }; 3];
    let slot = NATIVE_BITS
        .iter()
        .position(|&b| b == nd)
        .expect("a tested width");
    M[slot].get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = tempfile::tempdir().unwrap();
        let tb = dir.path().join("tb_atomic_unit.v");
        std::fs::write(&tb, testbench(nd)).unwrap();
        let fifo = write_fifo(dir.path());
        let ports = [
            ("clk", true, 1),
            ("rst", true, 1),
            ("c_rreq_valid", true, 3),
            ("c_rreq_ready", false, 3),
            ("c_rreq_addr", true, 96),
            ("c_rreq_op", true, 12),
            ("c_rreq_operand", true, 192),
            ("c_rreq_compare", true, 192),
            ("c_rresp_valid", false, 3),
            ("c_rresp_ready", true, 3),
            ("c_rresp_data", false, 192),
            ("cmd_valid", false, 1),
            ("cmd_ready", true, 1),
            ("cmd_we", false, 1),
            ("cmd_addr", false, 10),
            ("wdata_valid", false, 1),
            ("wdata_ready", true, 1),
            ("wdata_data", false, nd),
            ("wdata_we", false, nd / 8),
            ("rdata_valid", true, 1),
            ("rdata_data", true, nd),
            ("dbg_issue", false, 1),
            ("dbg_pick", false, 2),
        ]
        .iter()
        .map(|&(n, input, w)| {
            if input {
                PortSpec::input(n, w)
            } else {
                PortSpec::output(n, w)
            }
        })
        .collect();
        let src = ModelSource {
            top: "tb_atomic_unit".into(),
            files: vec![
                tb,
                fifo,
                root.join("board-support/rtl/oclhls_atomic_unit.v"),
            ],
            ports,
        };
        build_model(toolchain(), &src, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// `percent` % of the time.
fn chance(rng: &mut Rng, percent: u64) -> bool {
    rng.below(100) < percent
}

/// One client request.
#[derive(Clone, Copy, Debug)]
struct Req {
    addr: u32,
    op: u8,
    operand: u64,
    compare: u64,
}

/// The byte-addressed memory of the reference (and of the native port's model).
#[derive(Clone, Default, PartialEq, Debug)]
struct Mem(BTreeMap<u32, u8>);
impl Mem {
    fn load(&self, addr: u32, bytes: u32) -> u64 {
        (0..bytes).fold(0, |v, i| v | u64::from(self.0[&(addr + i)]) << (8 * i))
    }
    fn store(&mut self, addr: u32, bytes: u32, v: u64) {
        for i in 0..bytes {
            self.0.insert(addr + i, (v >> (8 * i)) as u8);
        }
    }
}

struct Ports {
    v: BTreeMap<&'static str, PortId>,
}
impl Ports {
    fn id(&self, n: &str) -> PortId {
        self.v[n]
    }
}

fn ports(m: &Model) -> Ports {
    let names = [
        "rst",
        "c_rreq_valid",
        "c_rreq_ready",
        "c_rreq_addr",
        "c_rreq_op",
        "c_rreq_operand",
        "c_rreq_compare",
        "c_rresp_valid",
        "c_rresp_ready",
        "c_rresp_data",
        "cmd_valid",
        "cmd_ready",
        "cmd_we",
        "cmd_addr",
        "wdata_valid",
        "wdata_ready",
        "wdata_data",
        "wdata_we",
        "rdata_valid",
        "rdata_data",
        "dbg_issue",
        "dbg_pick",
    ];
    Ports {
        v: names
            .iter()
            .map(|&n| (n, m.port(n).unwrap_or_else(|| panic!("no port {n}"))))
            .collect(),
    }
}

/// `words` little-endian 32-bit words of `values` (64 bits each).
fn words64(values: &[u64]) -> Vec<u32> {
    values
        .iter()
        .flat_map(|&v| [v as u32, (v >> 32) as u32])
        .collect()
}

/// Runs `requests` per client through the unit with an `nd`-bit native port and timing from
/// `seed`; panics at the first difference from the reference.
fn run(nd: u32, seed: u64, requests: usize) {
    let native_bytes = nd / 8;
    let mut rng = Rng(seed | 1);
    let mut m = model(nd).instantiate().unwrap();
    let p = ports(&m);
    // Initial memory: random bytes in both the native model and the reference.
    let mut native = Mem::default();
    for a in 0..(WORDS * 8) as u32 {
        native.0.insert(a, rng.next_u64() as u8);
    }
    let mut reference = native.clone();
    // Each client's requests.
    let gen: Vec<Vec<Req>> = (0..N)
        .map(|c| {
            (0..requests)
                .map(|_| {
                    let bytes = BITS[c] / 8;
                    let slots = (WORDS * 8) as u32 / bytes;
                    let addr = rng.below(u64::from(slots)) as u32 * bytes;
                    let small = [0u64, 1, 2, 0xffff_ffff, 0x8000_0000, u64::MAX];
                    let mut pick = || match rng.below(3) {
                        0 => small[rng.below(small.len() as u64) as usize],
                        _ => rng.next_u64(),
                    };
                    let (operand, compare) = (pick(), pick());
                    let mask = if BITS[c] == 64 { u64::MAX } else { 0xffff_ffff };
                    Req {
                        addr,
                        op: rng.below(12) as u8,
                        operand: operand & mask,
                        compare: compare & mask,
                    }
                })
                .collect()
        })
        .collect();
    let mut next_req = [0usize; N]; // next request to offer
    let mut accepted: Vec<VecDeque<Req>> = vec![VecDeque::new(); N]; // accepted, not issued
    let mut expected: Vec<VecDeque<u64>> = vec![VecDeque::new(); N]; // issued, not answered
    let mut answered = [0usize; N];
    // The native port's model: commands in order, each executable from a cycle on.
    let mut cmds: VecDeque<(bool, u32, u64)> = VecDeque::new();
    let mut rdata: VecDeque<(u64, u64)> = VecDeque::new(); // (due cycle, data)
    let mut last_ready = 0u64;

    m.set(p.id("rst"), 1);
    m.ticks(2).unwrap();
    m.set(p.id("rst"), 0);
    let mut offered = [false; N];
    let limit = 200 * requests as u64 + 1000;
    let mut cycle = 0u64;
    while answered.iter().any(|&a| a < requests) {
        cycle += 1;
        assert!(
            cycle < limit,
            "ND={nd} seed {seed}: no progress (answered {answered:?} of {requests})"
        );
        // Client requests: offered at random, held until accepted.
        let (mut addr, mut op, mut operand, mut compare) = ([0u64; N], [0u64; N], [0; N], [0; N]);
        let mut valid = 0u64;
        for c in 0..N {
            if !offered[c] && next_req[c] < requests && chance(&mut rng, 60) {
                offered[c] = true;
            }
            if offered[c] {
                let r = gen[c][next_req[c]];
                valid |= 1 << c;
                addr[c] = u64::from(r.addr);
                op[c] = u64::from(r.op);
                operand[c] = r.operand;
                compare[c] = r.compare;
            }
        }
        m.set(p.id("c_rreq_valid"), valid);
        let addr_words: Vec<u32> = addr.iter().map(|&a| a as u32).collect();
        m.set_wide(p.id("c_rreq_addr"), &addr_words);
        m.set(
            p.id("c_rreq_op"),
            op.iter().enumerate().fold(0, |v, (i, &o)| v | o << (4 * i)),
        );
        m.set_wide(p.id("c_rreq_operand"), &words64(&operand));
        m.set_wide(p.id("c_rreq_compare"), &words64(&compare));
        let rresp_ready: u64 = (0..N).fold(0, |v, c| v | u64::from(chance(&mut rng, 70)) << c);
        m.set(p.id("c_rresp_ready"), rresp_ready);
        // Native port: random command acceptance; the head command executes when due.
        let cmd_ready = chance(&mut rng, 75);
        m.set(p.id("cmd_ready"), u64::from(cmd_ready));
        let mut wdata_ready = false;
        let mut read_now = None;
        if let Some(&(we, waddr, at)) = cmds.front() {
            if at <= cycle {
                if we {
                    wdata_ready = m.get(p.id("wdata_valid")) == 1;
                } else {
                    read_now = Some(waddr);
                }
            }
        }
        m.set(p.id("wdata_ready"), u64::from(wdata_ready));
        let due = rdata.front().is_some_and(|&(d, _)| d <= cycle);
        m.set(p.id("rdata_valid"), u64::from(due));
        if let Some(&(_, data)) = rdata.front().filter(|_| due) {
            m.set(p.id("rdata_data"), data);
        }
        m.eval().unwrap();

        // Handshakes of this cycle.
        let ready = m.get(p.id("c_rreq_ready"));
        for c in 0..N {
            if valid >> c & 1 == 1 && ready >> c & 1 == 1 {
                accepted[c].push_back(gen[c][next_req[c]]);
                next_req[c] += 1;
                offered[c] = false;
            }
        }
        if m.get(p.id("dbg_issue")) == 1 {
            let c = m.get(p.id("dbg_pick")) as usize;
            let r = accepted[c].pop_front().unwrap_or_else(|| {
                panic!("ND={nd} seed {seed}: client {c} issued with nothing accepted")
            });
            // The reference executes the request now.
            let bytes = BITS[c] / 8;
            let old = reference.load(r.addr, bytes);
            if let Some(o) = AtomicOp::from_opcode(r.op) {
                reference.store(r.addr, bytes, o.apply(old, r.operand, r.compare, BITS[c]));
            }
            expected[c].push_back(old);
        }
        let rvalid = m.get(p.id("c_rresp_valid"));
        let data = m.get_wide(p.id("c_rresp_data"));
        for c in 0..N {
            if rvalid >> c & 1 == 1 && rresp_ready >> c & 1 == 1 {
                let got = u64::from(data[2 * c]) | u64::from(data[2 * c + 1]) << 32;
                let got = if BITS[c] == 32 {
                    got & 0xffff_ffff
                } else {
                    got
                };
                let want = expected[c].pop_front().unwrap_or_else(|| {
                    panic!("ND={nd} seed {seed}: client {c} answered with nothing issued")
                });
                assert_eq!(
                    got, want,
                    "ND={nd} seed {seed}: client {c}, response {} (cycle {cycle})",
                    answered[c]
                );
                answered[c] += 1;
            }
        }
        if m.get(p.id("cmd_valid")) == 1 && cmd_ready {
            let we = m.get(p.id("cmd_we")) == 1;
            let a = m.get(p.id("cmd_addr")) as u32 * native_bytes;
            last_ready = last_ready.max(cycle) + rng.below(4);
            cmds.push_back((we, a, last_ready));
        }
        if wdata_ready {
            let (_, a, _) = cmds.pop_front().unwrap();
            let d = m.get(p.id("wdata_data"));
            let we = m.get(p.id("wdata_we"));
            for b in 0..native_bytes {
                if we >> b & 1 == 1 {
                    native.0.insert(a + b, (d >> (8 * b)) as u8);
                }
            }
        }
        if let Some(a) = read_now {
            cmds.pop_front();
            let last_due = rdata.back().map_or(0, |&(d, _)| d);
            rdata.push_back((
                last_due.max(cycle + 2 + rng.below(10)),
                native.load(a, native_bytes),
            ));
        }
        if due {
            rdata.pop_front();
        }
        m.tick().unwrap();
    }
    // Every write has reached memory by the time its atomic was answered.
    assert_eq!(native, reference, "ND={nd} seed {seed}: memory at the end");
}

#[test]
fn the_atomic_unit_matches_a_sequential_reference_under_random_timing() {
    if let Err(e) = toolchain().locate(Tool::Verilator) {
        eprintln!("skipping the atomic unit test: no Verilator: {e}");
        return;
    }
    for nd in NATIVE_BITS {
        for seed in 1..=8 {
            run(nd, seed * 0x9e37_79b9, 400);
        }
    }
}

/// `verilator --lint-only -Wall` on the unit with one, two and three clients of both widths,
/// and native ports narrower than and as wide as an element word.
#[test]
fn the_atomic_unit_lints_clean() {
    let tc = toolchain();
    let Ok(v) = tc.locate(Tool::Verilator) else {
        eprintln!("skipping the atomic unit lint: no Verilator");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let fifo = write_fifo(dir.path());
    for (n, d, nd) in [
        (1, 32, 16),
        (2, 64, 16),
        (3, 64, 16),
        (1, 32, 32),
        (2, 64, 64),
    ] {
        let out = tc
            .command(&v)
            .args(["--lint-only", "-Wall", "--top-module", "oclhls_atomic_unit"])
            .arg(format!("-GN={n}"))
            .arg(format!("-GD={d}"))
            .arg(format!("-GND={nd}"))
            .arg(root.join("board-support/rtl/oclhls_atomic_unit.v"))
            .arg(&fifo)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "N={n} D={d} ND={nd}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
