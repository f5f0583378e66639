//! The pipe FIFO (`oclhls_pipe_fifo`, `oclhls_pipe_fifo_plain`) checked cycle by cycle against a
//! reference model under random operations.
//!
//! [`RefFifo`] is written from the contract in `docs/hardware-interface.md` ("Pipe FIFOs"), not
//! from the RTL: positions are unbounded `u64`s (no modular pointers), each side's active
//! reservations are a queue in reservation order with a commit flag and an access count, each
//! side keeps what the other side sees of its commit pointer, the stream's data is a map from
//! position to packet. [`run_random`] drives a built model with a biased random mix of every
//! operation (plain reads and writes, reservations of every size including failing ones, slot
//! accesses in any order, commits before the last accesses, commits out of order, repeated
//! commits of one shared reservation, commits of ids that are not active, slot accesses out of
//! range), changing the rates every few hundred cycles so that the FIFO goes full and empty
//! often, and compares every output in every cycle with the model. The first difference is an
//! error naming the cycle, the output and both values.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::{BuiltModel, Dir, Model, ModelSource, PortId, PortSpec, SimError};
use hwcontract::pipe::{self, FifoParams};

/// Parameters of one FIFO instance. `max_res == 0` is the FIFO without reservations
/// (`oclhls_pipe_fifo_plain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipeFifoParams {
    /// Packet width in bits, 1..=128.
    pub width: u32,
    /// Capacity in packets, at least `hwcontract::pipe::MIN_DEPTH`.
    pub depth: u32,
    /// Reservation table entries per side; 0 = no reservation logic.
    pub max_res: u32,
    /// Storage beyond `depth` for reservations in flight (`SLACK`; with reservations only).
    pub slack: u32,
}

impl PipeFifoParams {
    /// The same parameters in the hardware contract's terms.
    pub fn contract(&self) -> FifoParams {
        FifoParams {
            width: self.width,
            depth: self.depth,
            max_res: (self.max_res > 0).then_some(self.max_res),
            slack: if self.max_res > 0 { self.slack } else { 0 },
        }
    }

    pub fn top(&self) -> &'static str {
        self.contract().module()
    }

    /// The ports of the top module (`hwcontract::pipe`, as `docs/hardware-interface.md` lists
    /// them).
    pub fn ports(&self) -> Vec<PortSpec> {
        let fifo = self.contract();
        fifo.module_ports()
            .map(|p| PortSpec {
                name: p.name.to_string(),
                dir: match p.dir {
                    hwcontract::PortDir::In => Dir::In,
                    hwcontract::PortDir::Out => Dir::Out,
                },
                width: fifo.bits(p.width),
            })
            .collect()
    }

    /// Verilator `-G` arguments for these parameters.
    pub fn verilator_args(&self) -> Vec<String> {
        self.contract()
            .overrides()
            .into_iter()
            .map(|(name, value)| format!("-G{name}={value}"))
            .collect()
    }

    /// What to build, from the rendered Verilog files.
    pub fn model_source(&self, files: Vec<PathBuf>) -> ModelSource {
        ModelSource {
            top: self.top().to_string(),
            files,
            ports: self.ports(),
        }
    }
}

/// One side's inputs in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideIn {
    pub op_valid: bool,
    pub op_slot: bool,
    pub op_id: u32,
    pub op_idx: u32,
    pub res_req: bool,
    pub res_n: u32,
    pub commit: bool,
    pub commit_id: u32,
}

/// One side's status outputs in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideOut {
    pub op_ok: bool,
    pub res_ok: bool,
    /// The id a successful reservation gets (the output is checked in every cycle).
    pub res_id: u32,
}

#[derive(Clone, Debug)]
struct Entry {
    id: u32,
    base: u64,
    /// Positions reserved: slot indices run below it, and it is the access count that the
    /// entry needs before it can retire.
    n: u64,
    /// One past the last position of the entry: `base + n` plus the plain operations appended
    /// to it while it was the newest entry.
    end: u64,
    committed: bool,
    /// Successful slot accesses naming the entry (plain operations do not count).
    accesses: u64,
}

impl Entry {
    fn ready(&self) -> bool {
        self.committed && self.accesses >= self.n
    }
}

/// One side of the reference: `res` (claimed up to), `com` (committed up to), the active
/// reservations in reservation order, and `visible`: how far the other side sees this side's
/// commit pointer (the commit pointer before the last edge, plus a plain operation committed
/// at once at that edge).
#[derive(Clone, Debug)]
struct RefSide {
    max_res: u32,
    res: u64,
    com: u64,
    visible: u64,
    next_id: u32,
    entries: VecDeque<Entry>,
}

/// What one side did at an edge.
#[derive(Clone, Copy, Debug, Default)]
struct SideEffect {
    /// Position of the data operation that succeeded, if one did.
    pos: Option<u64>,
    /// Entries retired at this edge.
    retired: usize,
}

impl RefSide {
    fn new(max_res: u32) -> RefSide {
        RefSide {
            max_res,
            res: 0,
            com: 0,
            visible: 0,
            next_id: 0,
            entries: VecDeque::new(),
        }
    }

    fn entry(&self, id: u32) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    fn is_active(&self, id: u32) -> bool {
        self.entry(id).is_some()
    }

    /// Position of slot `idx` of active reservation `id`, if in range.
    fn slot(&self, id: u32, idx: u32) -> Option<u64> {
        let e = self.entry(id)?;
        (u64::from(idx) < e.n).then_some(e.base + u64::from(idx))
    }

    /// Statuses from the state before the edge; `avail` = positions this side may claim.
    fn outputs(&self, avail: u64, i: &SideIn) -> SideOut {
        let op_ok = if i.op_slot {
            self.slot(i.op_id, i.op_idx).is_some()
        } else {
            avail > 0
        };
        let plain = i.op_valid && !i.op_slot && op_ok;
        let left = avail - u64::from(plain);
        let res_ok =
            (self.entries.len() as u32) < self.max_res && i.res_n > 0 && u64::from(i.res_n) <= left;
        SideOut {
            op_ok,
            res_ok,
            res_id: self.next_id,
        }
    }

    /// The edge: retirement (of the entries ready before it), data operation, commit (of a
    /// reservation made at an earlier edge), reservation (the documented order).
    fn clock(&mut self, avail: u64, i: &SideIn) -> SideEffect {
        let out = self.outputs(avail, i);
        let com_before = self.com;
        let mut fx = SideEffect::default();
        // Statuses and slot positions are those of the table before the edge: a slot access
        // to an entry that retires at this edge still takes place.
        let slot_pos = (i.op_valid && i.op_slot && out.op_ok)
            .then(|| self.slot(i.op_id, i.op_idx))
            .flatten();
        let commit_hit = i.commit && self.is_active(i.commit_id);
        while self.entries.front().is_some_and(Entry::ready) {
            let e = self.entries.pop_front().expect("front exists");
            self.com = e.end;
            fx.retired += 1;
        }
        let mut step = false;
        if i.op_valid && out.op_ok {
            if i.op_slot {
                fx.pos = slot_pos;
                if let Some(e) = self.entries.iter_mut().find(|e| e.id == i.op_id) {
                    e.accesses += 1;
                }
            } else {
                fx.pos = Some(self.res);
                self.res += 1;
                match self.entries.back_mut() {
                    Some(e) => e.end += 1,
                    None => {
                        self.com += 1;
                        step = true;
                    }
                }
            }
        }
        if commit_hit {
            if let Some(e) = self.entries.iter_mut().find(|e| e.id == i.commit_id) {
                e.committed = true;
            }
        }
        if i.res_req && out.res_ok {
            let n = u64::from(i.res_n);
            self.entries.push_back(Entry {
                id: self.next_id,
                base: self.res,
                n,
                end: self.res + n,
                committed: false,
                accesses: 0,
            });
            self.res += n;
            self.next_id = (self.next_id + 1) % self.max_res;
        }
        self.visible = com_before + u64::from(step);
        fx
    }
}

/// Inputs of the whole FIFO in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FifoIn {
    pub wr: SideIn,
    pub wr_data: u128,
    pub rd: SideIn,
}

/// Outputs of the whole FIFO in one cycle (`rd_data == None`: undefined contents, not checked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FifoOut {
    pub wr: SideOut,
    pub rd: SideOut,
    pub rd_data: Option<u128>,
    pub num_packets: u64,
    pub max_packets: u64,
}

/// The reference model of the FIFO.
#[derive(Clone, Debug)]
pub struct RefFifo {
    /// `DEPTH`, what `max_packets` reports.
    depth: u64,
    /// `DEPTH + SLACK`: the positions the writer may claim.
    space: u64,
    wr: RefSide,
    rd: RefSide,
    /// Packets written, by position, from the read side's commit pointer on; absent = never
    /// written (undefined contents).
    data: HashMap<u64, u128>,
    rd_data: Option<u128>,
}

impl RefFifo {
    pub fn new(p: &PipeFifoParams) -> RefFifo {
        RefFifo {
            depth: u64::from(p.depth),
            space: u64::from(p.depth + p.contract().slack),
            wr: RefSide::new(p.max_res),
            rd: RefSide::new(p.max_res),
            data: HashMap::new(),
            rd_data: None,
        }
    }

    /// Positions each side may claim now: free positions for the writer (counting what the
    /// reader has committed as far as the writer sees it), visible packets for the reader.
    fn avail(&self) -> (u64, u64) {
        (
            self.space - (self.wr.res - self.rd.visible),
            self.wr.visible - self.rd.res,
        )
    }

    /// Whether reservation `id` of the write (`write`) or read side is active.
    pub fn is_active(&self, write: bool, id: u32) -> bool {
        if write {
            self.wr.is_active(id)
        } else {
            self.rd.is_active(id)
        }
    }

    pub fn outputs(&self, i: &FifoIn) -> FifoOut {
        let (wa, ra) = self.avail();
        FifoOut {
            wr: self.wr.outputs(wa, &i.wr),
            rd: self.rd.outputs(ra, &i.rd),
            rd_data: self.rd_data,
            num_packets: ra,
            max_packets: self.depth,
        }
    }

    /// Applies the rising edge; returns the entries retired on the write and read side.
    pub fn clock(&mut self, i: &FifoIn) -> (usize, usize) {
        let (wa, ra) = self.avail();
        let freed_from = self.rd.com;
        let w = self.wr.clock(wa, &i.wr);
        let r = self.rd.clock(ra, &i.rd);
        if let Some(pos) = w.pos {
            self.data.insert(pos, i.wr_data);
        }
        if let Some(pos) = r.pos {
            self.rd_data = self.data.get(&pos).copied();
        }
        // Freed positions lose their data; the map stays as small as the FIFO.
        for pos in freed_from..self.rd.com {
            self.data.remove(&pos);
        }
        (w.retired, r.retired)
    }
}

/// What a random run exercised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    pub cycles: u64,
    /// Operations offered (every asserted op strobe counts once).
    pub ops: u64,
    pub plain_writes: u64,
    pub plain_writes_ok: u64,
    pub plain_reads: u64,
    pub plain_reads_ok: u64,
    pub slot_writes_ok: u64,
    pub slot_reads_ok: u64,
    pub slot_ops_rejected: u64,
    pub reserves: u64,
    pub reserves_ok: u64,
    pub commits: u64,
    /// Commits of a reservation that was not the oldest one the driver held.
    pub commits_out_of_order: u64,
    /// Commits in two consecutive cycles on one side.
    pub commits_back_to_back: u64,
    /// Commits of ids that were not active (ignored by the FIFO).
    pub commits_inactive: u64,
    /// First commits of reservations that had fewer slot accesses than their size (they
    /// retire only once the accesses have been made).
    pub commits_partial: u64,
    /// Further commits of a reservation already committed (a work-group whose work-items all
    /// commit one shared reservation).
    pub commits_repeated: u64,
    /// Reservations whose last needed slot access came after their first commit.
    pub completed_after_commit: u64,
    /// Edges at which two or more reservations of one side retired together.
    pub multi_retire: u64,
    /// Cycles with the FIFO full (no free position) / with nothing visible to read.
    pub full_cycles: u64,
    pub empty_cycles: u64,
    /// Read data compared (defined contents).
    pub data_checked: u64,
}

impl RunCounts {
    pub fn add(&mut self, o: &RunCounts) {
        macro_rules! sum {
            ($($f:ident),*) => { $(self.$f += o.$f;)* };
        }
        sum!(
            cycles,
            ops,
            plain_writes,
            plain_writes_ok,
            plain_reads,
            plain_reads_ok,
            slot_writes_ok,
            slot_reads_ok,
            slot_ops_rejected,
            reserves,
            reserves_ok,
            commits,
            commits_out_of_order,
            commits_back_to_back,
            commits_inactive,
            commits_partial,
            commits_repeated,
            completed_after_commit,
            multi_retire,
            full_cycles,
            empty_cycles,
            data_checked
        );
    }
}

/// A reservation the driver holds, from its reservation until it retires (it stays active,
/// and its slots accessible, after its commits until it has as many slot accesses as its size).
struct Held {
    id: u32,
    n: u32,
    /// Slot accesses so far (successful ones).
    accesses: u32,
    /// Which slots were accessed (the driver prefers the others).
    accessed: Vec<bool>,
    /// Commits still to make: one, or several for a reservation shared by work-items that
    /// each commit it (the first one commits, the others are harmless repeats).
    commits_left: u32,
    committed: bool,
}

/// Rates of one phase of the run.
#[derive(Clone, Copy)]
struct Phase {
    data: f64,
    slot: f64,
    res: f64,
    commit: f64,
}

struct Driver {
    p: PipeFifoParams,
    rng: StdRng,
    wr_held: Vec<Held>,
    rd_held: Vec<Held>,
    wr_phase: Phase,
    rd_phase: Phase,
    phase_left: u32,
    last_wr_commit: bool,
    last_rd_commit: bool,
}

impl Driver {
    fn new_phase(&mut self) {
        let levels = [0.05, 0.3, 0.6, 0.95];
        let ph = |rng: &mut StdRng| Phase {
            data: levels[rng.random_range(0..4)],
            slot: [0.2, 0.6, 0.9][rng.random_range(0..3)],
            res: [0.05, 0.2, 0.5][rng.random_range(0..3)],
            commit: [0.1, 0.4, 0.8][rng.random_range(0..3)],
        };
        self.wr_phase = ph(&mut self.rng);
        self.rd_phase = ph(&mut self.rng);
        self.phase_left = self.rng.random_range(50..3000);
    }

    fn res_n(&mut self) -> u32 {
        let d = self.p.depth;
        match self.rng.random_range(0..100) {
            0..=59 => self.rng.random_range(1..=4.min(d)),
            60..=89 => self.rng.random_range(1..=d),
            90..=92 => 0,
            93..=97 => self.rng.random_range(d + 1..=d + 3),
            _ => self.rng.random(),
        }
    }

    /// Inputs for one side; `write` selects which bookkeeping it uses.
    fn side(&mut self, write: bool, counts: &mut RunCounts) -> SideIn {
        let ph = if write { self.wr_phase } else { self.rd_phase };
        let res = self.p.max_res > 0;
        let id_space = 1u32 << pipe::id_width(self.p.max_res);
        let mut s = SideIn::default();
        let held = if write { &self.wr_held } else { &self.rd_held };
        // Reservations retire only after as many slot accesses as their size, so while some
        // still need accesses the data operations go to them more often (the kernel's
        // work-items would be filling them).
        let (data_rate, slot_rate) = if held.iter().any(|h| h.accesses < h.n) {
            (ph.data.max(0.5), ph.slot.max(0.8))
        } else {
            (ph.data, ph.slot)
        };
        if self.rng.random_bool(data_rate) {
            s.op_valid = true;
            if res && self.rng.random_bool(0.03) {
                // A slot access that may hit nothing: an inactive id or an index out of range.
                s.op_slot = true;
                s.op_id = self.rng.random_range(0..id_space);
                s.op_idx = if self.rng.random_bool(0.5) {
                    self.rng.random_range(0..self.p.depth + 2)
                } else {
                    self.rng.random()
                };
            } else if res && !held.is_empty() && self.rng.random_bool(slot_rate) {
                s.op_slot = true;
                // Mostly reservations that still need accesses (committed ones first: they
                // hold up retirement), but any of them.
                let needy: Vec<usize> = (0..held.len())
                    .filter(|&k| held[k].accesses < held[k].n)
                    .collect();
                let waiting: Vec<usize> = needy
                    .iter()
                    .copied()
                    .filter(|&k| held[k].committed)
                    .collect();
                let k = if !waiting.is_empty() && self.rng.random_bool(0.5) {
                    waiting[self.rng.random_range(0..waiting.len())]
                } else if !needy.is_empty() && self.rng.random_bool(0.8) {
                    needy[self.rng.random_range(0..needy.len())]
                } else {
                    self.rng.random_range(0..held.len())
                };
                let h = &held[k];
                s.op_id = h.id;
                // Prefer slots not yet accessed (reads and writes alike: any order).
                let fresh: Vec<u32> = (0..h.n).filter(|&j| !h.accessed[j as usize]).collect();
                s.op_idx = if !fresh.is_empty() && self.rng.random_bool(0.8) {
                    fresh[self.rng.random_range(0..fresh.len())]
                } else {
                    self.rng.random_range(0..h.n)
                };
            }
        }
        if res && self.rng.random_bool(ph.res) {
            s.res_req = true;
            s.res_n = self.res_n();
        }
        let held = if write {
            &mut self.wr_held
        } else {
            &mut self.rd_held
        };
        if res && self.rng.random_bool(ph.commit) {
            let open: Vec<usize> = (0..held.len())
                .filter(|&k| held[k].commits_left > 0)
                .collect();
            if !open.is_empty() && !self.rng.random_bool(0.03) {
                // Mostly commit reservations whose slots were all accessed, but any of them, in
                // any order, and sometimes before the accesses.
                let complete: Vec<usize> = open
                    .iter()
                    .copied()
                    .filter(|&k| held[k].accesses >= held[k].n)
                    .collect();
                let k = if !complete.is_empty() && self.rng.random_bool(0.8) {
                    complete[self.rng.random_range(0..complete.len())]
                } else {
                    open[self.rng.random_range(0..open.len())]
                };
                s.commit = true;
                s.commit_id = held[k].id;
                let older_open = held[..k].iter().any(|h| !h.committed);
                let h = &mut held[k];
                if h.committed {
                    counts.commits_repeated += 1;
                } else {
                    if older_open {
                        counts.commits_out_of_order += 1;
                    }
                    if h.accesses < h.n {
                        counts.commits_partial += 1;
                    }
                }
                h.committed = true;
                h.commits_left -= 1;
            } else if self.rng.random_bool(0.1) {
                // An id that is not active: the FIFO must ignore it (rarely, so that commits
                // are mostly real ones).
                let active: Vec<u32> = held.iter().map(|h| h.id).collect();
                let idle: Vec<u32> = (0..id_space).filter(|x| !active.contains(x)).collect();
                if !idle.is_empty() {
                    s.commit = true;
                    s.commit_id = idle[self.rng.random_range(0..idle.len())];
                    counts.commits_inactive += 1;
                }
            }
        }
        let last = if write {
            &mut self.last_wr_commit
        } else {
            &mut self.last_rd_commit
        };
        if s.commit && *last {
            counts.commits_back_to_back += 1;
        }
        *last = s.commit;
        s
    }

    /// Updates the bookkeeping with what the FIFO answered (before the edge).
    fn observe(&mut self, i: &FifoIn, o: &FifoOut, counts: &mut RunCounts) {
        for (write, si, so) in [(true, &i.wr, &o.wr), (false, &i.rd, &o.rd)] {
            let held = if write {
                &mut self.wr_held
            } else {
                &mut self.rd_held
            };
            if si.op_valid {
                counts.ops += 1;
                match (si.op_slot, so.op_ok) {
                    (false, ok) => {
                        if write {
                            counts.plain_writes += 1;
                            counts.plain_writes_ok += u64::from(ok);
                        } else {
                            counts.plain_reads += 1;
                            counts.plain_reads_ok += u64::from(ok);
                        }
                    }
                    (true, true) => {
                        if write {
                            counts.slot_writes_ok += 1;
                        } else {
                            counts.slot_reads_ok += 1;
                        }
                        if let Some(h) = held.iter_mut().find(|h| h.id == si.op_id) {
                            h.accesses += 1;
                            if h.committed && h.accesses == h.n {
                                counts.completed_after_commit += 1;
                            }
                            if let Some(a) = h.accessed.get_mut(si.op_idx as usize) {
                                *a = true;
                            }
                        }
                    }
                    (true, false) => counts.slot_ops_rejected += 1,
                }
            }
            if si.res_req {
                counts.ops += 1;
                counts.reserves += 1;
                if so.res_ok {
                    counts.reserves_ok += 1;
                    // A work-group shares a quarter of the reservations: up to four commits.
                    let commits = if self.rng.random_bool(0.25) {
                        self.rng.random_range(2..=4)
                    } else {
                        1
                    };
                    // (A commit of the same id in this cycle was ignored: it was not active.)
                    held.push(Held {
                        id: so.res_id,
                        n: si.res_n,
                        accesses: 0,
                        accessed: vec![false; si.res_n as usize],
                        commits_left: commits,
                        committed: false,
                    });
                }
            }
            if si.commit {
                counts.ops += 1;
                counts.commits += 1;
            }
        }
    }

    /// Drops the reservations that retired at the edge.
    fn sync(&mut self, reference: &RefFifo) {
        self.wr_held.retain(|h| reference.is_active(true, h.id));
        self.rd_held.retain(|h| reference.is_active(false, h.id));
    }
}

/// Port handles of the model.
struct Ports {
    rst: PortId,
    wr: SidePorts,
    rd: SidePorts,
    wr_data: PortId,
    rd_data: PortId,
    num_packets: PortId,
    max_packets: PortId,
}

struct SidePorts {
    valid: PortId,
    ok: PortId,
    res: Option<ResPorts>,
}

struct ResPorts {
    slot: PortId,
    slot_id: PortId,
    slot_idx: PortId,
    res_req: PortId,
    res_n: PortId,
    res_ok: PortId,
    res_id: PortId,
    commit: PortId,
    commit_id: PortId,
}

fn port(m: &Model, name: &str) -> Result<PortId, SimError> {
    m.port(name)
        .ok_or_else(|| SimError::Interface(format!("the pipe FIFO has no port `{name}`")))
}

impl Ports {
    fn new(m: &Model, res: bool) -> Result<Ports, SimError> {
        let side = |s: &str| -> Result<SidePorts, SimError> {
            let res = if res {
                Some(ResPorts {
                    slot: port(m, &format!("{s}_slot"))?,
                    slot_id: port(m, &format!("{s}_slot_id"))?,
                    slot_idx: port(m, &format!("{s}_slot_idx"))?,
                    res_req: port(m, &format!("{s}_res_req"))?,
                    res_n: port(m, &format!("{s}_res_n"))?,
                    res_ok: port(m, &format!("{s}_res_ok"))?,
                    res_id: port(m, &format!("{s}_res_id"))?,
                    commit: port(m, &format!("{s}_commit"))?,
                    commit_id: port(m, &format!("{s}_commit_id"))?,
                })
            } else {
                None
            };
            Ok(SidePorts {
                valid: port(m, &format!("{s}_valid"))?,
                ok: port(m, &format!("{s}_ok"))?,
                res,
            })
        };
        Ok(Ports {
            rst: port(m, "rst")?,
            wr: side("wr")?,
            rd: side("rd")?,
            wr_data: port(m, "wr_data")?,
            rd_data: port(m, "rd_data")?,
            num_packets: port(m, "num_packets")?,
            max_packets: port(m, "max_packets")?,
        })
    }
}

fn drive_side(m: &mut Model, p: &SidePorts, s: &SideIn) {
    m.set(p.valid, u64::from(s.op_valid));
    if let Some(r) = &p.res {
        m.set(r.slot, u64::from(s.op_slot));
        m.set(r.slot_id, u64::from(s.op_id));
        m.set(r.slot_idx, u64::from(s.op_idx));
        m.set(r.res_req, u64::from(s.res_req));
        m.set(r.res_n, u64::from(s.res_n));
        m.set(r.commit, u64::from(s.commit));
        m.set(r.commit_id, u64::from(s.commit_id));
    }
}

fn sample_side(m: &Model, p: &SidePorts) -> SideOut {
    let mut o = SideOut {
        op_ok: m.get(p.ok) != 0,
        ..SideOut::default()
    };
    if let Some(r) = &p.res {
        o.res_ok = m.get(r.res_ok) != 0;
        o.res_id = m.get(r.res_id) as u32;
    }
    o
}

fn to_words(v: u128) -> [u32; 4] {
    [
        v as u32,
        (v >> 32) as u32,
        (v >> 64) as u32,
        (v >> 96) as u32,
    ]
}

fn from_words(w: &[u32]) -> u128 {
    w.iter()
        .enumerate()
        .fold(0u128, |acc, (k, &x)| acc | (u128::from(x) << (32 * k)))
}

/// A difference between the RTL and the reference model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    pub output: &'static str,
    pub rtl: String,
    pub model: String,
    pub inputs: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle {}: `{}` is {} in the RTL but {} in the reference model (inputs of the last cycles, oldest first:\n  {})",
            self.cycle, self.output, self.rtl, self.model, self.inputs
        )
    }
}

/// Why a random run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
}

/// Runs `cycles` random cycles on a fresh instance of `model` (built for `p`) with `seed`,
/// checking every output in every cycle against [`RefFifo`].
pub fn run_random(
    model: &BuiltModel,
    p: &PipeFifoParams,
    cycles: u64,
    seed: u64,
) -> Result<RunCounts, RunError> {
    assert!(
        (1..=128).contains(&p.width) && p.depth >= pipe::MIN_DEPTH,
        "{p:?}"
    );
    let mut m = model.instantiate()?;
    let ports = Ports::new(&m, p.max_res > 0)?;
    let mask = if p.width == 128 {
        u128::MAX
    } else {
        (1u128 << p.width) - 1
    };
    let mut reference = RefFifo::new(p);
    let mut d = Driver {
        p: *p,
        rng: StdRng::seed_from_u64(seed),
        wr_held: Vec::new(),
        rd_held: Vec::new(),
        wr_phase: Phase {
            data: 0.5,
            slot: 0.5,
            res: 0.2,
            commit: 0.4,
        },
        rd_phase: Phase {
            data: 0.5,
            slot: 0.5,
            res: 0.2,
            commit: 0.4,
        },
        phase_left: 0,
        last_wr_commit: false,
        last_rd_commit: false,
    };
    let mut counts = RunCounts::default();
    m.set(ports.rst, 1);
    m.ticks(2)?;
    m.set(ports.rst, 0);
    let mut words = [0u32; 4];
    let mut history: VecDeque<FifoIn> = VecDeque::new();
    let nwords = p.width.div_ceil(32) as usize;
    for cycle in 0..cycles {
        if d.phase_left == 0 {
            d.new_phase();
        }
        d.phase_left -= 1;
        let i = FifoIn {
            wr: d.side(true, &mut counts),
            wr_data: d.rng.random::<u128>() & mask,
            rd: d.side(false, &mut counts),
        };
        if history.len() == 8 {
            history.pop_front();
        }
        history.push_back(i);
        drive_side(&mut m, &ports.wr, &i.wr);
        drive_side(&mut m, &ports.rd, &i.rd);
        m.set_wide(ports.wr_data, &to_words(i.wr_data)[..nwords]);
        m.eval()?;
        let want = reference.outputs(&i);
        m.get_wide_into(ports.rd_data, &mut words[..nwords]);
        let got = FifoOut {
            wr: sample_side(&m, &ports.wr),
            rd: sample_side(&m, &ports.rd),
            rd_data: want.rd_data.map(|_| from_words(&words[..nwords])),
            num_packets: m.get(ports.num_packets),
            max_packets: m.get(ports.max_packets),
        };
        let res = p.max_res > 0;
        let checks: [(&'static str, bool, u128, u128); 9] = [
            ("wr_ok", true, got.wr.op_ok.into(), want.wr.op_ok.into()),
            ("rd_ok", true, got.rd.op_ok.into(), want.rd.op_ok.into()),
            (
                "wr_res_ok",
                res,
                got.wr.res_ok.into(),
                want.wr.res_ok.into(),
            ),
            (
                "rd_res_ok",
                res,
                got.rd.res_ok.into(),
                want.rd.res_ok.into(),
            ),
            (
                "wr_res_id",
                res,
                got.wr.res_id.into(),
                want.wr.res_id.into(),
            ),
            (
                "rd_res_id",
                res,
                got.rd.res_id.into(),
                want.rd.res_id.into(),
            ),
            (
                "num_packets",
                true,
                got.num_packets.into(),
                want.num_packets.into(),
            ),
            (
                "max_packets",
                true,
                got.max_packets.into(),
                want.max_packets.into(),
            ),
            (
                "rd_data",
                want.rd_data.is_some(),
                got.rd_data.unwrap_or(0),
                want.rd_data.unwrap_or(0),
            ),
        ];
        for (name, on, g, w) in checks {
            if on && g != w {
                return Err(RunError::Mismatch(Box::new(Mismatch {
                    cycle,
                    output: name,
                    rtl: format!("{g:#x}"),
                    model: format!("{w:#x}"),
                    inputs: history
                        .iter()
                        .map(|h| format!("{h:?}"))
                        .collect::<Vec<_>>()
                        .join("\n  "),
                })));
            }
        }
        counts.data_checked += u64::from(want.rd_data.is_some());
        counts.full_cycles += u64::from(reference.avail().0 == 0);
        counts.empty_cycles += u64::from(want.num_packets == 0);
        d.observe(&i, &want, &mut counts);
        let (wr_ret, rd_ret) = reference.clock(&i);
        d.sync(&reference);
        counts.multi_retire += u64::from(wr_ret >= 2) + u64::from(rd_ret >= 2);
        m.tick()?;
        counts.cycles += 1;
    }
    Ok(counts)
}
