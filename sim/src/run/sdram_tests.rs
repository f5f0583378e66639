//! The SDRAM model against hand-computed timelines, and its bandwidth on sequential streams
//! (the table of `docs/benchmarks.md`, "SDRAM timing model").

use super::*;

/// At 50 MHz (20 ns): tRCD = tRP = 1, tRAS = 3, tRC = 3, tWR = 1, tRFC = 3, CL = 2,
/// tREFI = floor(7812.5 / 20) = 390.
#[test]
fn datasheet_timings_in_cycles() {
    let t = SdramConfig::default().timings();
    assert_eq!(
        t,
        SdramTimings {
            rcd: 1,
            rp: 1,
            ras: 3,
            rc: 3,
            wr: 1,
            rfc: 3,
            refi: 390,
            cl: 2
        }
    );
    // At 100 MHz (10 ns): 18 ns -> 2, 42 -> 5, 60 -> 6, 12 -> 2, 7812.5 -> 781.
    let t = SdramConfig::mt48lc16m16a2(100.0).timings();
    assert_eq!((t.rcd, t.rp, t.ras, t.rc, t.wr), (2, 2, 5, 6, 2));
    assert_eq!((t.rfc, t.refi, t.cl), (6, 781, 2));
    assert_eq!(SdramConfig::mt48lc16m16a2(133.0).timings().cl, 3);
    assert!(SdramConfig::default().with_bus_bits(24).validate().is_err());
}

fn read(addr: u32, beats: u32, beat_bytes: u32) -> Access {
    Access {
        addr,
        beats,
        beat_bytes,
        kind: AccessKind::Read,
        not_before: 0,
    }
}

/// Submits `a` at cycle `at` and advances until its schedule is known.
fn one(s: &mut Sdram, r: RequesterId, at: u64, a: Access) -> Vec<u64> {
    s.submit(r, a);
    let mut c = at;
    loop {
        s.advance(c);
        if let Some(t) = s.take_done(r) {
            return t;
        }
        c += 1;
    }
}

#[test]
fn closed_row_hit_and_conflict() {
    let mut s = Sdram::new(SdramConfig::default()).unwrap();
    let r = s.requester();
    // Closed row: ACTIVE in cycle 10, READ in 11 (tRCD), data on the bus in 13 (CL 2),
    // valid to the port in 14: tRCD + CL cycles from ACTIVE to data.
    assert_eq!(one(&mut s, r, 10, read(0x40, 1, 2)), vec![14]);
    // Same row (bank 0, row 0): READ in 20, data in 22, valid in 23. A 4-byte beat needs two
    // bus words (22, 23): valid in 24.
    assert_eq!(one(&mut s, r, 20, read(0x80, 1, 2)), vec![23]);
    assert_eq!(one(&mut s, r, 30, read(0x80, 1, 4)), vec![34]);
    // Bank 0, row 1 (bytes 4096..): PRECHARGE in 40, ACTIVE in 41 (tRP), READ in 42, data in
    // 44, valid in 45.
    assert_eq!(one(&mut s, r, 40, read(4096, 1, 2)), vec![45]);
    // Bank 1 (bytes 1024..2047) is closed: no precharge needed.
    assert_eq!(one(&mut s, r, 50, read(1024, 1, 2)), vec![54]);
    let st = s.stats(60);
    assert_eq!(
        (st.row_hits, st.row_misses, st.row_conflicts),
        (2, 2, 1),
        "{st}"
    );
    assert_eq!(st.busy_cycles, 6);
    assert_eq!(st.bytes_read, 2 + 2 + 4 + 2 + 2);
}

#[test]
fn precharge_waits_for_tras_and_activate_for_trc() {
    let mut s = Sdram::new(SdramConfig::mt48lc16m16a2(100.0)).unwrap();
    let r = s.requester();
    // 100 MHz: tRCD 2, tRP 2, tRAS 5, tRC 6, CL 2. ACTIVE 0, READ 2, data 4, valid 5.
    assert_eq!(one(&mut s, r, 0, read(0, 1, 2)), vec![5]);
    // Row 1 of bank 0 at cycle 3: PRECHARGE waits for tRAS (5), ACTIVE at 7 (tRP; tRC from
    // 0 is 6), READ 9, data 11, valid 12.
    assert_eq!(one(&mut s, r, 3, read(4096, 1, 2)), vec![12]);
}

#[test]
fn write_then_read_turnaround_and_write_recovery() {
    let mut s = Sdram::new(SdramConfig::default()).unwrap();
    let r = s.requester();
    let w = Access {
        kind: AccessKind::Write,
        ..read(0, 2, 2)
    };
    // ACTIVE 0, WRITE 1 and 2 (data with the command), response valid in 3.
    assert_eq!(one(&mut s, r, 0, w), vec![3]);
    // A read right behind it: READ 3, data 5, valid 6.
    assert_eq!(one(&mut s, r, 3, read(4, 1, 2)), vec![6]);
    // A write right behind the read: its data waits for the read data (5) plus one idle
    // cycle: WRITE 7, response valid 8.
    let w2 = Access {
        kind: AccessKind::Write,
        ..read(8, 1, 2)
    };
    assert_eq!(one(&mut s, r, 4, w2), vec![8]);
    // Row 1 of bank 0: PRECHARGE waits for tWR after the write data (7 + 1 = 8), ACTIVE 9,
    // READ 10, data 12, valid 13.
    assert_eq!(one(&mut s, r, 5, read(4096, 1, 2)), vec![13]);
}

#[test]
fn refresh_stalls_a_request() {
    let mut s = Sdram::new(SdramConfig::default()).unwrap();
    let r = s.requester();
    assert_eq!(one(&mut s, r, 0, read(0, 1, 2)), vec![4]);
    // The refresh is due at 390: PRECHARGE ALL 390, REFRESH 391 (tRP), ACTIVE 394 (tRFC),
    // READ 395, data 397, valid 398 (a row hit before the refresh, a miss after it).
    for c in 1..390 {
        s.advance(c);
    }
    assert_eq!(one(&mut s, r, 390, read(0, 1, 2)), vec![398]);
    assert_eq!(s.stats(400).refreshes, 1);
    // The next refresh comes 390 cycles later, also while idle.
    for c in 400..=800 {
        s.advance(c);
    }
    assert_eq!(s.stats(801).refreshes, 2);
}

#[test]
fn long_burst_is_split_by_refresh() {
    let mut s = Sdram::new(SdramConfig::default()).unwrap();
    let r = s.requester();
    // 256 beats of 4 bytes = 512 words of bank 0 row 0, from ACTIVE at 300: READs 301..,
    // the refresh at 390 interrupts after 89 words (301..=389), then PRECHARGE ALL 390,
    // REFRESH 391, ACTIVE 394, READs from 395 on.
    let t = one(&mut s, r, 300, read(0, 256, 4));
    assert_eq!(t.len(), 256);
    // Beat 0 = words 301, 302 + CL 2 -> data 304, valid 305.
    assert_eq!(t[0], 305);
    // Beat 43 = words 86, 87 (READ 387, 388): valid 391. Word 88 (READ 389) is the first
    // of beat 44, word 89 (READ 395, after the refresh) its second.
    assert_eq!(t[43], 388 + 2 + 1);
    assert_eq!(t[44], 395 + 2 + 1);
    // The next refresh is due at 780: READs 395..=779 carry words 89..=473 (385 words); then
    // PRECHARGE ALL 780, REFRESH 781, ACTIVE 784, READs 785..=822 for the last 38 words.
    assert_eq!(t[236], 779 + 2 + 1); // words 472, 473
    assert_eq!(t[237], 786 + 2 + 1); // words 474, 475
    assert_eq!(t[255], 822 + 2 + 1);
    let st = s.stats(900);
    assert_eq!((st.row_misses, st.refreshes, st.busy_cycles), (3, 2, 512));
}

#[test]
fn round_robin_between_requesters() {
    let mut s = Sdram::new(SdramConfig::default()).unwrap();
    let (a, b) = (s.requester(), s.requester());
    for _ in 0..2 {
        s.submit(a, read(0, 4, 2));
        s.submit(b, read(512, 4, 2));
    }
    for c in 0..40 {
        s.advance(c);
    }
    let firsts: Vec<u64> = [a, b, a, b]
        .iter()
        .map(|&r| s.take_done(r).unwrap()[0])
        .collect();
    // a: ACTIVE 0, READs 1-4; b (same row): READs 5-8; then a 9-12, b 13-16.
    assert_eq!(firsts, vec![1 + 3, 5 + 3, 9 + 3, 13 + 3]);
}

/// A read master streaming `total` bytes from address 0x10000 in bursts of `burst` beats of
/// 4 bytes, with up to `outstanding` bursts in flight: one request per cycle, one response
/// beat per cycle (as a kernel port). Returns (cycles, fraction of peak).
pub(crate) fn stream_read(
    cfg: SdramConfig,
    total: u32,
    burst: u32,
    outstanding: usize,
) -> (u64, f64) {
    let mut s = Sdram::new(cfg).unwrap();
    let r = s.requester();
    let beats_total = total / 4;
    let (mut issued, mut taken) = (0u32, 0u32);
    let mut inflight: VecDeque<(u32, Option<Vec<u64>>)> = VecDeque::new();
    let mut next_beat = 0usize;
    let mut cycle = 0u64;
    loop {
        s.advance(cycle);
        for f in inflight.iter_mut().filter(|f| f.1.is_none()) {
            match s.take_done(r) {
                Some(t) => f.1 = Some(t),
                None => break,
            }
        }
        let may_issue = inflight.len() < outstanding && issued < beats_total;
        // The response beat of this cycle.
        if let Some((n, Some(t))) = inflight.front() {
            if t[next_beat] <= cycle {
                taken += 1;
                next_beat += 1;
                if next_beat == *n as usize {
                    inflight.pop_front();
                    next_beat = 0;
                }
            }
        }
        if taken == beats_total {
            let cycles = cycle + 1;
            let frac = f64::from(total) / (cycles as f64 * f64::from(s.cfg.bus_bits / 8));
            return (cycles, frac);
        }
        if may_issue {
            let n = burst.min(beats_total - issued);
            s.submit(r, read(0x10000 + 4 * issued, n, 4));
            inflight.push_back((n, None));
            issued += n;
        }
        cycle += 1;
    }
}

#[test]
fn sequential_reads_reach_the_peak() {
    let (cycles, frac) = stream_read(SdramConfig::default(), 1 << 20, 256, 4);
    println!(
        "1 MiB in 256-beat bursts: {cycles} cycles, {:.1} % of peak",
        100.0 * frac
    );
    // Per 390-cycle refresh interval about 6 cycles of refresh and re-activation, and
    // two cycles per 512-word row for precharge and activation: ~98 %.
    assert!(frac > 0.97 && frac < 0.995, "{frac}");
    // Short bursts with one in flight pay the latency every time.
    let (_, slow) = stream_read(SdramConfig::default(), 4096, 1, 1);
    assert!(slow < 0.5, "{slow}");
}

/// The table of `docs/benchmarks.md` ("SDRAM timing model"):
/// `cargo test --workspace --lib sdram_bandwidth_table -- --nocapture`.
#[test]
fn sdram_bandwidth_table() {
    for outstanding in [1, 4] {
        println!("\nfraction of peak, {outstanding} burst(s) outstanding, 50 MHz, 16-bit bus");
        println!("| transfer | 1 beat | 8 beats | 64 beats | 256 beats |");
        println!("|---|---|---|---|---|");
        for (name, total) in [("64 B", 64), ("4 KB", 4096), ("1 MB", 1 << 20)] {
            let cells: Vec<String> = [1, 8, 64, 256]
                .iter()
                .map(|&b| {
                    let (_, f) = stream_read(SdramConfig::default(), total, b, outstanding);
                    format!("{:.1} %", 100.0 * f)
                })
                .collect();
            println!("| {name} | {} |", cells.join(" | "));
        }
    }
}

#[test]
fn a_write_starts_when_its_data_came_if_the_bus_was_free() {
    let mut s = Sdram::new(SdramConfig::default()).unwrap();
    let r = s.requester();
    // Eight 2-byte beats arrived in cycles 2..=9 and the burst is handed over in 9: a
    // controller writing each word as it came would have opened the row in 3 (ACTIVE),
    // written from 4 (tRCD) to 11, so the response is valid in 12, not 9 + 10.
    let w = Access {
        kind: AccessKind::Write,
        not_before: 3,
        ..read(0, 8, 2)
    };
    assert_eq!(one(&mut s, r, 9, w), vec![12]);
    // A read of closed bank 1 in 12: ACTIVE 12, READs 13..=16, data 15..=18, valid 16..=19.
    // A write ready since 3 but handed over in 14 comes after it (and the turnaround).
    let rd = read(1024, 4, 2);
    s.submit(r, rd);
    s.advance(12);
    assert_eq!(s.take_done(r), Some(vec![16, 17, 18, 19]));
    let w2 = Access {
        kind: AccessKind::Write,
        not_before: 3,
        ..read(64, 2, 2)
    };
    let t = one(&mut s, r, 14, w2);
    assert!(t[0] > 19, "{t:?}");
}
