//! The memory server against a hand-driven fake port (no Verilator): bursts on the read and
//! write channels, write data before its address, several bursts outstanding under random
//! stalls and under the SDRAM timing, and each protocol rule failing a run.

use super::*;
use crate::run::port_io::FakePorts;
use crate::run::protocol_check::Rule;
use crate::run::sdram::SdramConfig;
use crate::PortSpec;

/// A pointer `p` of 32-bit elements with bursting read and write channels (and, with
/// `atomics`, the atomic request fields).
fn burst_ports(atomics: bool) -> Vec<PortSpec> {
    let (o, i) = (PortSpec::output, PortSpec::input);
    let mut v = vec![
        o("p_rreq_valid", 1),
        i("p_rreq_ready", 1),
        o("p_rreq_addr", 32),
        o("p_rreq_len", 8),
        i("p_rresp_valid", 1),
        o("p_rresp_ready", 1),
        i("p_rresp_data", 32),
        i("p_rresp_last", 1),
        o("p_wreq_valid", 1),
        i("p_wreq_ready", 1),
        o("p_wreq_addr", 32),
        o("p_wreq_len", 8),
        o("p_wdata_valid", 1),
        i("p_wdata_ready", 1),
        o("p_wdata_data", 32),
        o("p_wdata_strb", 4),
        o("p_wdata_last", 1),
        i("p_wresp_valid", 1),
        o("p_wresp_ready", 1),
    ];
    if atomics {
        v.push(o("p_rreq_op", 4));
        v.push(o("p_rreq_operand", 32));
    }
    v
}

struct Bench {
    io: FakePorts,
    mem: GlobalMemory,
    env: MemEnv,
    srv: MemoryServer,
    cycle: u64,
    scratch: Vec<u32>,
    /// A buffer of 2048 words (8 KB) holding i * 3 + 1, at a 4 KB boundary.
    base: u32,
}

impl Bench {
    fn new(specs: Vec<PortSpec>, cfg: MemConfig, seed: u64) -> Bench {
        let io = FakePorts::new(specs);
        let config = RunConfig {
            memory: cfg.clone(),
            seed,
            ..RunConfig::default()
        };
        let srv = MemoryServer::new(&io, "p".into(), "p", true, true, cfg);
        let mut mem = GlobalMemory::new();
        let base = mem.alloc(8192, 4096).unwrap();
        let vals: Vec<u32> = (0..2048).map(|i| i * 3 + 1).collect();
        mem.write(base, &vals).unwrap();
        Bench {
            io,
            mem,
            env: MemEnv::new(&config).unwrap(),
            srv,
            cycle: 0,
            scratch: Vec::new(),
            base,
        }
    }

    /// One cycle: memory drives, `kernel` sets the kernel's outputs, the edge's transfers.
    fn step(&mut self, kernel: impl FnOnce(&mut FakePorts)) -> Result<(), SimError> {
        self.srv.drive(&mut self.io, &mut self.env, self.cycle);
        kernel(&mut self.io);
        let r = self.srv.transfer(
            &self.io,
            &mut self.mem,
            &mut self.env,
            self.cycle,
            &mut self.scratch,
        );
        self.cycle += 1;
        r.map(|_| ())
    }

    fn fired(&self, valid: &str, ready: &str) -> bool {
        self.io.read(valid) == 1 && self.io.read(ready) == 1
    }
}

/// A read master: issues `bursts` (address, len) in order, each held until accepted, and
/// takes every response beat; returns the beats' (data, last) and the cycle the first beat
/// was valid.
fn read_bursts(b: &mut Bench, bursts: &[(u32, u32)]) -> (Vec<(u32, bool)>, u64) {
    let want: u32 = bursts.iter().map(|&(_, l)| l + 1).sum();
    let mut next = 0;
    let mut got = Vec::new();
    let mut first = None;
    while got.len() < want as usize {
        assert!(b.cycle < 100_000, "no progress");
        let offer = bursts.get(next).copied();
        b.step(|io| {
            io.drive("p_rreq_valid", u64::from(offer.is_some()));
            let (addr, len) = offer.unwrap_or((0, 0));
            io.drive("p_rreq_addr", u64::from(addr));
            io.drive("p_rreq_len", u64::from(len));
            io.drive("p_rresp_ready", 1);
        })
        .unwrap();
        if b.fired("p_rresp_valid", "p_rresp_ready") {
            first.get_or_insert(b.cycle - 1);
            got.push((
                b.io.read("p_rresp_data") as u32,
                b.io.read("p_rresp_last") == 1,
            ));
        }
        if b.fired("p_rreq_valid", "p_rreq_ready") {
            next += 1;
        }
    }
    (got, first.unwrap())
}

/// What `read_bursts` must return for `bursts` of the bench's buffer.
fn expected(b: &Bench, bursts: &[(u32, u32)]) -> Vec<(u32, bool)> {
    let mut v = Vec::new();
    for &(addr, len) in bursts {
        for k in 0..=len {
            let i = (addr - b.base) / 4 + k;
            v.push((i * 3 + 1, k == len));
        }
    }
    v
}

#[test]
fn read_bursts_in_order_under_every_timing() {
    let sdram = MemConfig::sdram(SdramConfig::default());
    for (cfg, seeds) in [
        (MemConfig::ideal(), 0..1),
        (MemConfig::random_stalls(), 0..4),
        (sdram, 0..1),
    ] {
        for seed in seeds {
            let mut b = Bench::new(burst_ports(false), cfg.clone(), seed);
            let base = b.base;
            let bursts = [
                (base, 3),
                (base + 16, 0),
                (base + 64, 255),
                (base + 4096, 7),
            ];
            let (got, _) = read_bursts(&mut b, &bursts);
            assert_eq!(got, expected(&b, &bursts), "{cfg:?} seed {seed}");
            assert_eq!(
                (b.srv.stats.reads, b.srv.stats.read_beats),
                (4, 4 + 1 + 256 + 8)
            );
            assert_eq!(b.srv.owed(), (0, 0));
        }
    }
}

#[test]
fn sdram_timing_of_a_single_read() {
    // Accepted at the edge of cycle 0; the SDRAM decides in cycle 1: ACTIVE 1, READs 2 and 3
    // (a 32-bit beat is two 16-bit words), data on the bus 4 and 5 (CL 2), so the beat is
    // valid from cycle 6.
    let mut b = Bench::new(
        burst_ports(false),
        MemConfig::sdram(SdramConfig::default()),
        0,
    );
    let base = b.base;
    let (got, first) = read_bursts(&mut b, &[(base, 0)]);
    assert_eq!(got, vec![(1, true)]);
    assert_eq!(first, 6);
    // The beat is taken in 6; the next request is offered in 7 and accepted at its edge: a
    // row hit, READs 8 and 9, data 10 and 11, valid 12.
    let (_, first) = read_bursts(&mut b, &[(base + 4, 0)]);
    assert_eq!(first, 12);
}

/// A write master: AWs of `bursts` (address, len), and their data beats (value = address
/// / 4 + 1000): with `ahead` all of a burst's beats before its AW is offered, otherwise each
/// only after its AW was accepted. Returns the number of write responses taken.
fn write_bursts(b: &mut Bench, bursts: &[(u32, u32)], ahead: bool) -> usize {
    let mut beats: Vec<(u32, u32, bool)> = Vec::new();
    for &(addr, len) in bursts {
        for k in 0..=len {
            let a = addr + 4 * k;
            beats.push((a, a / 4 + 1000, k == len));
        }
    }
    let (mut aw, mut w, mut acks) = (0, 0, 0);
    // Beats allowed before their AW is accepted: all (`ahead`) or none.
    let mut allowed = 0;
    while acks < bursts.len() {
        assert!(b.cycle < 100_000, "no progress");
        // Ahead: an address only once all its data beats were accepted.
        let sent_by = |k: usize| bursts[..=k].iter().map(|&(_, l)| l as usize + 1).sum();
        let offer_aw = bursts
            .get(aw)
            .copied()
            .filter(|_| !ahead || w >= sent_by(aw));
        let offer_w = beats.get(w).copied().filter(|_| ahead || w < allowed);
        b.step(|io| {
            io.drive("p_wreq_valid", u64::from(offer_aw.is_some()));
            let (addr, len) = offer_aw.unwrap_or((0, 0));
            io.drive("p_wreq_addr", u64::from(addr));
            io.drive("p_wreq_len", u64::from(len));
            io.drive("p_wdata_valid", u64::from(offer_w.is_some()));
            let (_, data, last) = offer_w.unwrap_or((0, 0, false));
            io.drive("p_wdata_data", u64::from(data));
            io.drive("p_wdata_strb", 0xf);
            io.drive("p_wdata_last", u64::from(last));
            io.drive("p_wresp_ready", 1);
        })
        .unwrap();
        if b.fired("p_wreq_valid", "p_wreq_ready") {
            allowed += bursts[aw].1 as usize + 1;
            aw += 1;
        }
        if b.fired("p_wdata_valid", "p_wdata_ready") {
            w += 1;
        }
        if b.fired("p_wresp_valid", "p_wresp_ready") {
            acks += 1;
        }
    }
    acks
}

#[test]
fn write_bursts_with_data_after_or_before_the_address() {
    let sdram = MemConfig::sdram(SdramConfig::default());
    for (cfg, seeds) in [
        (MemConfig::ideal(), 0..1),
        (MemConfig::random_stalls(), 0..3),
        (sdram, 0..1),
    ] {
        for ahead in [false, true] {
            for seed in seeds.clone() {
                let mut b = Bench::new(burst_ports(false), cfg.clone(), seed);
                let base = b.base;
                let bursts = [(base, 3), (base + 32, 0), (base + 1024, 255)];
                assert_eq!(write_bursts(&mut b, &bursts, ahead), 3);
                for &(addr, len) in &bursts {
                    let got = b.mem.read::<u32>(addr, len as usize + 1).unwrap();
                    let want: Vec<u32> = (0..=len).map(|k| (addr + 4 * k) / 4 + 1000).collect();
                    assert_eq!(got, want, "{cfg:?} ahead {ahead} seed {seed}");
                }
                // Untouched between the bursts.
                assert_eq!(b.mem.read::<u32>(base + 16, 1).unwrap(), vec![4 * 3 + 1]);
                assert_eq!(b.srv.stats.write_beats, 4 + 1 + 256);
                assert_eq!(b.srv.owed(), (0, 0));
            }
        }
    }
}

fn revision_1_ports() -> Vec<PortSpec> {
    let (o, i) = (PortSpec::output, PortSpec::input);
    vec![
        o("p_rreq_valid", 1),
        i("p_rreq_ready", 1),
        o("p_rreq_addr", 32),
        i("p_rresp_valid", 1),
        o("p_rresp_ready", 1),
        i("p_rresp_data", 32),
        o("p_wreq_valid", 1),
        i("p_wreq_ready", 1),
        o("p_wreq_addr", 32),
        o("p_wreq_data", 32),
        i("p_wresp_valid", 1),
        o("p_wresp_ready", 1),
    ]
}

#[test]
fn revision_1_port_keeps_its_behaviour_under_sdram_timing() {
    let mut b = Bench::new(
        revision_1_ports(),
        MemConfig::sdram(SdramConfig::default()),
        0,
    );
    let base = b.base;
    // A write of one element: accepted at the edge of 0; ACTIVE 1, WRITE 2 and 3 (two
    // words), response valid 4.
    let mut ack = None;
    for _ in 0..10 {
        let first = b.cycle == 0;
        b.step(|io| {
            io.drive("p_wreq_valid", u64::from(first));
            io.drive("p_wreq_addr", u64::from(base + 8));
            io.drive("p_wreq_data", 77);
            io.drive("p_wresp_ready", 1);
        })
        .unwrap();
        if b.fired("p_wresp_valid", "p_wresp_ready") {
            ack.get_or_insert(b.cycle - 1);
        }
    }
    assert_eq!(ack, Some(4));
    assert_eq!(b.mem.read::<u32>(base + 8, 1).unwrap(), vec![77]);
}

/// Runs `kernel` (given the cycle) until it returns false or an error comes.
fn run_until_error(b: &mut Bench, kernel: impl Fn(u64, &mut FakePorts)) -> SimError {
    for _ in 0..1000 {
        let c = b.cycle;
        if let Err(e) = b.step(|io| kernel(c, io)) {
            return e;
        }
    }
    panic!("no violation found");
}

fn rule_of(e: &SimError, rule: Rule) {
    let s = e.to_string();
    assert!(s.contains(&rule.to_string()), "{s}");
    assert!(s.contains("port `p`") && s.contains("cycle"), "{s}");
}

#[test]
fn each_rule_fails_the_run() {
    let slow = MemConfig {
        read_latency: 20..=20,
        max_outstanding: 1,
        ..MemConfig::ideal()
    };
    // A second read request while the first is outstanding waits (max 1 outstanding); the
    // kernel drops it.
    let mut b = Bench::new(burst_ports(false), slow.clone(), 0);
    let base = b.base;
    let e = run_until_error(&mut b, |c, io| {
        io.drive("p_rreq_valid", u64::from(c < 3));
        io.drive("p_rreq_addr", u64::from(base));
    });
    rule_of(&e, Rule::ValidHeldUntilReady);
    assert!(e.to_string().contains("cycle 3"), "{e}");
    // ... or changes its address while waiting.
    let mut b = Bench::new(burst_ports(false), slow, 0);
    let e = run_until_error(&mut b, |c, io| {
        io.drive("p_rreq_valid", 1);
        io.drive("p_rreq_addr", u64::from(base + 4 * (c / 3) as u32));
    });
    rule_of(&e, Rule::PayloadStable);
    // A burst across a 4 KB boundary.
    let mut b = Bench::new(burst_ports(false), MemConfig::ideal(), 0);
    let e = run_until_error(&mut b, |_, io| {
        io.drive("p_rreq_valid", 1);
        io.drive("p_rreq_addr", u64::from(base + 4096 - 8));
        io.drive("p_rreq_len", 2);
    });
    rule_of(&e, Rule::Crosses4K);
    // An atomic burst.
    let mut b = Bench::new(burst_ports(true), MemConfig::ideal(), 0);
    let e = run_until_error(&mut b, |_, io| {
        io.drive("p_rreq_valid", 1);
        io.drive("p_rreq_addr", u64::from(base));
        io.drive("p_rreq_len", 1);
        io.drive("p_rreq_op", 1);
    });
    rule_of(&e, Rule::AtomicBurst);
    // WLAST on the second of four beats, and missing on the last.
    for (bad_beat, last) in [(1, true), (3, false)] {
        let mut b = Bench::new(burst_ports(false), MemConfig::ideal(), 0);
        let e = run_until_error(&mut b, |c, io| {
            io.drive("p_wreq_valid", u64::from(c == 0));
            io.drive("p_wreq_addr", u64::from(base));
            io.drive("p_wreq_len", 3);
            io.drive("p_wdata_valid", u64::from(c < 4));
            io.drive("p_wdata_strb", 0xf);
            let on_last = c == 3;
            io.drive(
                "p_wdata_last",
                u64::from(if c == bad_beat { last } else { on_last }),
            );
        });
        rule_of(&e, Rule::WriteLast);
    }
    // Misaligned and out-of-buffer bursts are memory faults.
    let mut b = Bench::new(burst_ports(false), MemConfig::ideal(), 0);
    let e = run_until_error(&mut b, |_, io| {
        io.drive("p_rreq_valid", 1);
        io.drive("p_rreq_addr", u64::from(base + 2));
    });
    assert!(
        matches!(
            e,
            SimError::MemoryFault {
                kind: FaultKind::Misaligned,
                ..
            }
        ),
        "{e}"
    );
    let mut b = Bench::new(burst_ports(false), MemConfig::ideal(), 0);
    let small = b.mem.alloc(100, 4096).unwrap();
    let e = run_until_error(&mut b, |_, io| {
        io.drive("p_rreq_valid", 1);
        io.drive("p_rreq_addr", u64::from(small));
        io.drive("p_rreq_len", 31);
    });
    assert!(
        matches!(
            e,
            SimError::MemoryFault {
                kind: FaultKind::OutOfBounds,
                ..
            }
        ),
        "{e}"
    );
}

/// Handshake violations of channels without bursts are counted, and fail the run only with
/// `RunConfig::strict_handshakes`.
#[test]
fn revision_1_handshake_violations_are_counted_unless_strict() {
    let slow = MemConfig {
        read_latency: 20..=20,
        max_outstanding: 1,
        ..MemConfig::ideal()
    };
    let kernel = |base: u32| {
        move |c: u64, io: &mut FakePorts| {
            io.drive("p_rreq_valid", u64::from(c < 3 || c == 5));
            io.drive("p_rreq_addr", u64::from(base));
        }
    };
    let mut b = Bench::new(revision_1_ports(), slow.clone(), 0);
    let base = b.base;
    for _ in 0..8 {
        let c = b.cycle;
        b.step(|io| kernel(base)(c, io)).unwrap();
    }
    // Accepted in 0; waiting in 1 and 2 (one outstanding, for 20 cycles), dropped in 3;
    // offered again in 5, dropped in 6.
    assert_eq!(b.srv.stats.handshake_violations, 2);
    let first = b.srv.stats.first_handshake_violation.clone().unwrap();
    assert!(
        first.contains("cycle 3") && first.contains("valid held until ready"),
        "{first}"
    );
    let mut b = Bench::new(revision_1_ports(), slow, 0);
    b.srv.strict = true;
    let e = run_until_error(&mut b, kernel(base));
    rule_of(&e, Rule::ValidHeldUntilReady);
}

#[test]
fn write_words_wait_for_their_beats() {
    // 4-byte beats on a 2-byte bus: beat k completes words 2k and 2k + 1; the first word may
    // go 2k cycles before word 2k, so beat k arriving in cycle c allows c + 1 - 2k.
    assert_eq!(words_ready_at(0, 4, 4, 0, 2, 10), 11);
    assert_eq!(words_ready_at(0, 4, 4, 3, 2, 13), 8);
    // 1-byte beats: an even beat completes no word, an odd one word k / 2.
    assert_eq!(words_ready_at(0, 4, 1, 0, 2, 10), 0);
    assert_eq!(words_ready_at(0, 4, 1, 1, 2, 11), 12);
    assert_eq!(words_ready_at(0, 4, 1, 3, 2, 13), 13);
    // The last beat completes a partial word: 3 bytes from address 1 (words 0 and 1).
    assert_eq!(words_ready_at(1, 3, 1, 0, 2, 5), 6);
    assert_eq!(words_ready_at(1, 3, 1, 1, 2, 6), 0);
    assert_eq!(words_ready_at(1, 3, 1, 2, 2, 7), 7);
}
