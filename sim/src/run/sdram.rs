//! A timing model of an SDR SDRAM shared by every memory port of a run (`MemConfig::sdram`):
//! banks with one open row each, ACTIVE/PRECHARGE/READ/WRITE commands one per cycle on one
//! command bus, CAS latency, tRCD, tRP, tRAS, tRC, tWR, auto refresh every tREFI taking tRFC,
//! and ONE data beat of `bus_bits` per cycle on one data bus. The default is the ULX3S's
//! MT48LC16M16A2 (-6A): 4 banks × 8192 rows × 512 columns of 16 bits.
//!
//! What it decides is *when*: data moves in the testbench's [`crate::GlobalMemory`] when a
//! request is accepted (as in the random mode); this model only says in which cycle each
//! response beat becomes valid. Assumptions, all in `docs/hardware-interface.md` ("Timing of a
//! run"):
//! - the SDRAM is clocked with the kernel (one SDRAM cycle per kernel cycle), so the
//!   nanosecond timings are turned into cycles at [`SdramConfig::clock_mhz`] (rounded up;
//!   tREFI rounded down, since refresh must come at least that often);
//! - the controller serves one burst (one request of one port channel) at a time, picked
//!   round-robin among the channels that have one queued, and issues one column command per
//!   bus word (burst length 1 programmed, so any burst length and alignment works); commands
//!   of the next burst follow the last column command of the previous one without a gap, so
//!   read data of consecutive bursts streams back to back;
//! - the byte address maps to column (low bits), then bank, then row, so a sequential stream
//!   walks a whole row, then the same row in the next bank; address bits above the device's
//!   size wrap;
//! - a write burst is handed to the SDRAM once all its data beats have arrived, and starts as
//!   early as a controller writing each word as its data comes would have started it (in the
//!   past, when the command bus has been free since: [`Access::not_before`]); its response
//!   is valid in the cycle after its last data word is on the bus;
//! - a read beat is valid in the cycle after the data bus carried its last byte (the
//!   controller registers the data);
//! - an atomic is a read of its element followed by a write of it (the old value returns
//!   with the read);
//! - the data bus needs one idle cycle between read data and write data (turnaround).

use std::collections::VecDeque;

/// Parameters of the SDRAM (geometry, clock, datasheet timings in nanoseconds).
#[derive(Clone, Debug, PartialEq)]
pub struct SdramConfig {
    /// Width of the data bus (16 for one MT48LC16M16A2, 32 for two side by side).
    pub bus_bits: u32,
    /// Clock of the SDRAM and of the kernel (one SDRAM cycle per kernel cycle).
    pub clock_mhz: f64,
    pub banks: u32,
    pub rows: u32,
    /// Columns per row; one column is one bus word.
    pub columns: u32,
    /// CAS latency in cycles (2 or 3).
    pub cas_latency: u32,
    pub t_rcd_ns: f64,
    pub t_rp_ns: f64,
    pub t_ras_ns: f64,
    pub t_rc_ns: f64,
    pub t_wr_ns: f64,
    pub t_rfc_ns: f64,
    pub t_refi_ns: f64,
}

/// The timings of an [`SdramConfig`] in cycles of its clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SdramTimings {
    pub rcd: u64,
    pub rp: u64,
    pub ras: u64,
    pub rc: u64,
    pub wr: u64,
    pub rfc: u64,
    pub refi: u64,
    pub cl: u64,
}

impl SdramConfig {
    /// The MT48LC16M16A2-6A (Micron 256 Mb SDR SDRAM, 4 Meg × 16 × 4 banks), the ULX3S's
    /// memory, clocked at `clock_mhz`: tRCD = tRP = 18 ns, tRAS = 42 ns, tRC = 60 ns,
    /// tRFC = 60 ns, tWR = 12 ns, 8192 rows refreshed every 64 ms (tREFI = 7.8125 µs);
    /// CL 2 up to 100 MHz (every speed grade supports it there), CL 3 above.
    pub fn mt48lc16m16a2(clock_mhz: f64) -> SdramConfig {
        SdramConfig {
            bus_bits: 16,
            clock_mhz,
            banks: 4,
            rows: 8192,
            columns: 512,
            cas_latency: if clock_mhz <= 100.0 { 2 } else { 3 },
            t_rcd_ns: 18.0,
            t_rp_ns: 18.0,
            t_ras_ns: 42.0,
            t_rc_ns: 60.0,
            t_wr_ns: 12.0,
            t_rfc_ns: 60.0,
            t_refi_ns: 64e6 / 8192.0,
        }
    }

    /// The same device with a data bus of `bits` (several chips side by side).
    pub fn with_bus_bits(self, bits: u32) -> SdramConfig {
        SdramConfig {
            bus_bits: bits,
            ..self
        }
    }

    /// Bytes per cycle at the peak: one bus word per cycle.
    pub fn peak_bytes_per_cycle(&self) -> u32 {
        self.bus_bits / 8
    }

    /// The timings in cycles (at least 1 each).
    pub fn timings(&self) -> SdramTimings {
        let period = 1000.0 / self.clock_mhz;
        let up = |ns: f64| ((ns / period - 1e-9).ceil() as u64).max(1);
        SdramTimings {
            rcd: up(self.t_rcd_ns),
            rp: up(self.t_rp_ns),
            ras: up(self.t_ras_ns),
            rc: up(self.t_rc_ns),
            wr: up(self.t_wr_ns),
            rfc: up(self.t_rfc_ns),
            refi: ((self.t_refi_ns / period).floor() as u64).max(1),
            cl: u64::from(self.cas_latency),
        }
    }

    /// Why the parameters cannot describe an SDRAM, if they cannot.
    pub fn validate(&self) -> Result<(), String> {
        let pow2 = |x: u32| x.is_power_of_two();
        if !(self.bus_bits >= 8 && pow2(self.bus_bits)) {
            return Err(format!(
                "SDRAM bus width {} bits: must be 8, 16, 32, ... bits",
                self.bus_bits
            ));
        }
        if !(pow2(self.banks) && pow2(self.rows) && pow2(self.columns)) {
            return Err("SDRAM banks, rows and columns must be powers of two".into());
        }
        if !(self.clock_mhz.is_finite() && self.clock_mhz > 0.0) || self.cas_latency == 0 {
            return Err("SDRAM clock must be positive and the CAS latency at least 1".into());
        }
        let t = self.timings();
        if t.refi <= t.rfc + t.rp + t.ras {
            return Err("SDRAM refresh interval shorter than a refresh".into());
        }
        Ok(())
    }
}

impl Default for SdramConfig {
    /// [`SdramConfig::mt48lc16m16a2`] at 50 MHz.
    fn default() -> Self {
        SdramConfig::mt48lc16m16a2(50.0)
    }
}

/// What the SDRAM did during a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SdramStats {
    /// Bytes the ports asked for (not the bus words that carried them).
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Cycles in which the data bus carried a word.
    pub busy_cycles: u64,
    /// Column accesses to the open row, to a closed bank, and to a bank with another row open
    /// (precharge first), counted per row segment of a burst.
    pub row_hits: u64,
    pub row_misses: u64,
    pub row_conflicts: u64,
    pub refreshes: u64,
    /// Bursts served.
    pub bursts: u64,
    /// Cycles of the run (the denominator of the fractions).
    pub cycles: u64,
    /// Bytes per cycle at the peak (bus width / 8).
    pub peak_bytes_per_cycle: u32,
}

impl SdramStats {
    /// Bytes moved for the ports.
    pub fn bytes(&self) -> u64 {
        self.bytes_read + self.bytes_written
    }

    /// Bytes moved per cycle of the run against the bus's peak (bus_bits / 8 per cycle).
    pub fn fraction_of_peak(&self) -> f64 {
        let peak = self.cycles as f64 * f64::from(self.peak_bytes_per_cycle);
        if peak == 0.0 {
            0.0
        } else {
            self.bytes() as f64 / peak
        }
    }

    /// Fraction of the run's cycles in which the data bus was busy.
    pub fn bus_utilisation(&self) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            self.busy_cycles as f64 / self.cycles as f64
        }
    }
}

impl std::fmt::Display for SdramStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "SDRAM: {} bytes read, {} written in {} bursts; {:.1} % of peak ({} B/cycle), \
             data bus busy {:.1} %; rows: {} hits, {} misses, {} conflicts; {} refreshes",
            self.bytes_read,
            self.bytes_written,
            self.bursts,
            100.0 * self.fraction_of_peak(),
            self.peak_bytes_per_cycle,
            100.0 * self.bus_utilisation(),
            self.row_hits,
            self.row_misses,
            self.row_conflicts,
            self.refreshes
        )
    }
}

/// What a burst does to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    /// A read, then a write of the same bytes.
    Atomic,
}

/// One burst handed to the SDRAM: `beats` beats of `beat_bytes` at consecutive addresses
/// from `addr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub addr: u32,
    pub beats: u32,
    pub beat_bytes: u32,
    pub kind: AccessKind,
    /// A write: the first cycle its first bus word may be written, so that every later word,
    /// one per cycle, is written after its data beat arrived (0 for reads). A controller
    /// writes a burst's words as its data comes in (LiteDRAM's native port, the board
    /// adapter); the testbench hands the burst over once its last beat has arrived, and the
    /// model starts it back then if the command bus was free.
    pub not_before: u64,
}

/// One requester of the SDRAM (a channel of a port), in round-robin order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequesterId(usize);

#[derive(Default)]
struct Requester {
    queued: VecDeque<Access>,
    /// Scheduled bursts, oldest first: per beat (reads) or for the response (writes), the
    /// cycle from which it is valid.
    done: VecDeque<Vec<u64>>,
}

#[derive(Clone, Copy, Default)]
struct Bank {
    open: Option<u64>,
    /// Earliest ACTIVE (tRC after the last, tRP after a precharge, tRFC after refresh).
    act_ok: u64,
    /// Earliest column command (tRCD after ACTIVE).
    rw_ok: u64,
    /// Earliest PRECHARGE (tRAS after ACTIVE, tWR after write data, after the last read).
    pre_ok: u64,
}

/// How a row segment found its bank.
enum Open {
    Hit,
    Miss { act: u64 },
    Conflict { act: u64 },
}

/// The SDRAM timing model; see the module documentation. Drive it with [`Sdram::submit`] and,
/// once per cycle, [`Sdram::advance`]; collect the schedules with [`Sdram::take_done`].
pub struct Sdram {
    cfg: SdramConfig,
    t: SdramTimings,
    banks: Vec<Bank>,
    requesters: Vec<Requester>,
    /// The requester after the one served last.
    rr: usize,
    /// First free command slot after the bursts scheduled so far.
    cmd_next: u64,
    /// First cycle the data bus is free, and whether it last carried read data.
    dq_free: u64,
    dq_read: bool,
    refresh_due: u64,
    stats: SdramStats,
}

impl Sdram {
    pub fn new(cfg: SdramConfig) -> Result<Sdram, String> {
        cfg.validate()?;
        let t = cfg.timings();
        Ok(Sdram {
            banks: vec![Bank::default(); cfg.banks as usize],
            requesters: Vec::new(),
            rr: 0,
            cmd_next: 0,
            dq_free: 0,
            dq_read: false,
            refresh_due: t.refi,
            stats: SdramStats {
                peak_bytes_per_cycle: cfg.peak_bytes_per_cycle(),
                ..SdramStats::default()
            },
            t,
            cfg,
        })
    }

    pub fn config(&self) -> &SdramConfig {
        &self.cfg
    }

    pub fn timings(&self) -> SdramTimings {
        self.t
    }

    /// A new requester, served after the existing ones in the round-robin order.
    pub fn requester(&mut self) -> RequesterId {
        self.requesters.push(Requester::default());
        RequesterId(self.requesters.len() - 1)
    }

    /// Queues a burst of requester `r`; it may start in the cycle of the next
    /// [`Sdram::advance`].
    pub fn submit(&mut self, r: RequesterId, access: Access) {
        assert!(access.beats >= 1 && access.beat_bytes >= 1, "empty access");
        self.requesters[r.0].queued.push_back(access);
    }

    /// Bursts of `r` submitted but not yet handed back by [`Sdram::take_done`].
    pub fn pending(&self, r: RequesterId) -> usize {
        let q = &self.requesters[r.0];
        q.queued.len() + q.done.len()
    }

    /// The schedule of the oldest burst of `r` not yet taken, once it is scheduled: for a
    /// read (or atomic) the cycle from which each beat is valid, for a write one entry, the
    /// cycle from which its response is valid. Schedules come in submission order.
    pub fn take_done(&mut self, r: RequesterId) -> Option<Vec<u64>> {
        self.requesters[r.0].done.pop_front()
    }

    /// Makes the decisions of cycle `cycle` (call once per cycle, cycles increasing): a
    /// refresh that is due, and the next bursts (round-robin) once the command bus is free.
    pub fn advance(&mut self, cycle: u64) {
        while self.cmd_next <= cycle {
            if self.refresh_due <= cycle {
                self.refresh(self.refresh_due.max(self.cmd_next));
                continue;
            }
            let n = self.requesters.len();
            let Some(k) = (0..n)
                .map(|i| (self.rr + i) % n)
                .find(|&k| !self.requesters[k].queued.is_empty())
            else {
                break;
            };
            self.rr = (k + 1) % n;
            let a = self.requesters[k].queued.pop_front().expect("non-empty");
            let from = match a.kind {
                // Nothing else was scheduled since `cmd_next`: a controller that had
                // started the write as its data came would have been free to.
                AccessKind::Write => a.not_before.max(self.cmd_next),
                _ => cycle.max(self.cmd_next),
            };
            let times = self.schedule(a, from);
            self.requesters[k].done.push_back(times);
        }
    }

    /// The statistics of a run of `cycles` cycles.
    pub fn stats(&self, cycles: u64) -> SdramStats {
        SdramStats {
            cycles,
            ..self.stats.clone()
        }
    }

    /// Schedules burst `a` from cycle `t` on; its beat (or response) times.
    fn schedule(&mut self, a: Access, t: u64) -> Vec<u64> {
        let bus = u64::from(self.cfg.bus_bits / 8);
        let total = u64::from(a.beats) * u64::from(a.beat_bytes);
        let (first, last) = (
            u64::from(a.addr) / bus,
            (u64::from(a.addr) + total - 1) / bus,
        );
        self.stats.bursts += 1;
        let mut words = Vec::with_capacity((last - first + 1) as usize);
        match a.kind {
            AccessKind::Read => {
                self.stats.bytes_read += total;
                self.words(first, last, false, t, &mut words);
            }
            AccessKind::Write => {
                self.stats.bytes_written += total;
                self.words(first, last, true, t, &mut words);
                return vec![words.last().expect("one word at least") + 1];
            }
            AccessKind::Atomic => {
                self.stats.bytes_read += total;
                self.stats.bytes_written += total;
                self.words(first, last, false, t, &mut words);
                let mut w = Vec::new();
                self.words(first, last, true, t, &mut w);
            }
        }
        // Beat k is valid in the cycle after the word holding its last byte was on the bus.
        (0..u64::from(a.beats))
            .map(|k| {
                let end = u64::from(a.addr) + (k + 1) * u64::from(a.beat_bytes) - 1;
                words[(end / bus - first) as usize] + 1
            })
            .collect()
    }

    /// Column accesses to bus words `first..=last` from cycle `t` on, pushing the cycle each
    /// word is on the data bus.
    fn words(&mut self, first: u64, last: u64, write: bool, mut t: u64, out: &mut Vec<u64>) {
        let cols = u64::from(self.cfg.columns);
        let banks = u64::from(self.cfg.banks);
        let rows = u64::from(self.cfg.rows);
        let mut w = first;
        while w <= last {
            t = t.max(self.cmd_next);
            if t >= self.refresh_due {
                self.refresh(t);
                continue;
            }
            let bank = ((w / cols) % banks) as usize;
            let row = (w / cols / banks) % rows;
            let (open, mut c0) = self.plan_open(bank, row, t);
            // The data bus: read data CL after its command, write data with its command.
            c0 = if write {
                c0.max(self.dq_free + u64::from(self.dq_read))
            } else {
                c0.max(self.dq_free.saturating_sub(self.t.cl))
            };
            if c0 >= self.refresh_due {
                // Refresh first rather than open a row only to close it again.
                self.refresh(t);
                continue;
            }
            let b = &mut self.banks[bank];
            match open {
                Open::Hit => self.stats.row_hits += 1,
                Open::Miss { act } | Open::Conflict { act } => {
                    if matches!(open, Open::Miss { .. }) {
                        self.stats.row_misses += 1;
                    } else {
                        self.stats.row_conflicts += 1;
                    }
                    b.open = Some(row);
                    b.act_ok = act + self.t.rc;
                    b.rw_ok = act + self.t.rcd;
                    b.pre_ok = act + self.t.ras;
                }
            }
            let in_row = cols - w % cols;
            let n = (last - w + 1).min(in_row).min(self.refresh_due - c0);
            let lat = if write { 0 } else { self.t.cl };
            out.extend((0..n).map(|i| c0 + i + lat));
            let last_dq = c0 + n - 1 + lat;
            b.pre_ok = b
                .pre_ok
                .max(if write { last_dq + self.t.wr } else { c0 + n });
            self.cmd_next = c0 + n;
            self.dq_free = last_dq + 1;
            self.dq_read = !write;
            self.stats.busy_cycles += n;
            w += n;
            t = self.cmd_next;
        }
    }

    /// How to open `row` in `bank` with commands from cycle `t` on, and the first cycle a
    /// column command may follow.
    fn plan_open(&self, bank: usize, row: u64, t: u64) -> (Open, u64) {
        let b = &self.banks[bank];
        match b.open {
            Some(r) if r == row => (Open::Hit, t.max(b.rw_ok)),
            Some(_) => {
                let pre = t.max(b.pre_ok);
                let act = (pre + self.t.rp).max(b.act_ok);
                (Open::Conflict { act }, act + self.t.rcd)
            }
            None => {
                let act = t.max(b.act_ok);
                (Open::Miss { act }, act + self.t.rcd)
            }
        }
    }

    /// PRECHARGE ALL (when a row is open) and AUTO REFRESH from cycle `t` on; every bank is
    /// closed and may be activated tRFC after the refresh command.
    fn refresh(&mut self, t: u64) {
        let open = self.banks.iter().filter(|b| b.open.is_some());
        let pre = open.clone().map(|b| b.pre_ok).fold(t, u64::max);
        let any_open = open.count() > 0;
        let refresh = self
            .banks
            .iter()
            .map(|b| b.act_ok)
            .fold(if any_open { pre + self.t.rp } else { pre }, u64::max);
        for b in &mut self.banks {
            *b = Bank {
                act_ok: refresh + self.t.rfc,
                ..Bank::default()
            };
        }
        self.cmd_next = refresh + 1;
        self.refresh_due += self.t.refi;
        self.stats.refreshes += 1;
    }
}

#[cfg(test)]
#[path = "sdram_tests.rs"]
mod tests;
