//! Bursts on the global ports (docs/hardware-interface.md, "Bursts"): which accesses burst
//! and why not ([`burst_decisions`], also in `report.json`), how long a port's read bursts may
//! be, and the write- and read-combining units (`oclhls_wburst`, `oclhls_rburst`) between the
//! kernel's single requests and the port's AXI4-style channels.

use super::memory::Mem;
use super::plan::Plan;
use super::Emitter;
use crate::writer::{range, VWriter};
use hls_ir::analysis::stream::{self, NoBurst};
use hls_ir::{OpId, OpKind};

/// Beats of a write burst at most, and cycles without a write after which an open burst
/// closes (`oclhls_wburst`). Write bursts gather their data before they go out (a burst on
/// AW never waits for data: "Bursts" in docs/hardware-interface.md), so a longer cap delays
/// the first write of a stream: 64-beat `uint` bursts lost 3 points on 256 B copies.
const WRITE_BURST_BEATS: u32 = 32;
const WRITE_BURST_IDLE: u32 = 15;

/// Bytes of a planned read burst at most (an async copy's, which needs no gathering time):
/// one row of the board's SDRAM (MT48LC16M16A2: 512 columns of 2 bytes). The cap is in
/// bytes, not beats, so that narrow elements get bursts as long on the bus as wide ones: at
/// 16 beats a `uchar` copy had 8-cycle bursts, and read/write turnarounds and row switches
/// cost it a fifth of the bus (`docs/benchmarks.md`, "DMA copy bandwidth").
const PLANNED_BURST_BYTES: u32 = 1024;

/// Beats of a planned read burst at most for `bytes`-byte elements on a port whose gathered
/// bursts have up to `beats`: at most 256 (AXI4's INCR limit).
pub(super) fn planned_burst_beats(beats: u32, bytes: u32) -> u32 {
    (PLANNED_BURST_BYTES / bytes.max(1)).clamp(beats, 256)
}

/// Read bursts: the longest, and the shortest worth a combining unit.
const MAX_READ_BURST_BEATS: u32 = 32;
const MIN_READ_BURST_BEATS: u32 = 4;
const READ_BURST_IDLE: u32 = 2;

/// The burst decision of one global access (`EmittedKernel::bursts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurstDecision {
    pub op: OpId,
    /// A store (else a load or an atomic).
    pub write: bool,
    /// `Ok(n)`: in bursts of up to `n` beats; `Err`: why not, in terms a user can act on.
    pub outcome: Result<u32, String>,
    /// The address steps by a run-time value: bursts form when it is one element (the port
    /// checks every address).
    pub unit_stride: bool,
}

/// Whether global access `o` is a burst candidate: `Ok(false)` when it steps through
/// consecutive elements, `Ok(true)` when it does so if its run-time stride is one element,
/// else why not.
pub(super) fn stream_of(k: &hls_ir::Kernel, o: OpId) -> Result<bool, NoBurst> {
    match stream::consecutive(k, o) {
        Ok(()) => Ok(false),
        Err(NoBurst::StrideUnknown) if stream::consecutive_at_unit_stride(k, o) => Ok(true),
        Err(e) => Err(e),
    }
}

/// What the ports of `p` do with each global access (after `opts`).
pub(super) fn burst_decisions(p: &Plan, opts: &super::EmitOptions) -> Vec<BurstDecision> {
    let k = p.k;
    let mut v = Vec::new();
    for m in p.mems.mems.values().filter(|m| m.onchip.is_none()) {
        for &o in m.loads.iter().chain(&m.stores) {
            let write = matches!(k.op(o).kind, OpKind::Store { .. });
            let stream = stream_of(k, o);
            let outcome = if !opts.bursts {
                Err("bursts are off for this build (`--no-bursts`)".to_string())
            } else if matches!(k.op(o).kind, OpKind::Atomic { .. }) {
                Err("an atomic is one transfer".to_string())
            } else if let Err(why) = stream {
                Err(why.to_string())
            } else if write && m.stores.iter().any(|&s| read_waits_for(k, s)) {
                Err(
                    "a later read may access the same memory and waits for this write's \
                     acknowledgement (declaring the pointers `restrict` removes the wait)"
                        .to_string(),
                )
            } else if write {
                Ok(WRITE_BURST_BEATS)
            } else if !m.atomics.is_empty() {
                Err("its port also carries atomics, which are single transfers".to_string())
            } else if m.burst_read == 0 {
                Err(format!(
                    "the schedule's read latency ({} cycles) leaves no time to gather a burst; \
                     build with `--memory-latency 32` (or your memory's latency) for bursts",
                    p.load_latency(o)
                ))
            } else if k.read_runs.contains_key(&o) {
                Ok(planned_burst_beats(m.burst_read, m.bits / 8))
            } else {
                Ok(m.burst_read)
            };
            v.push(BurstDecision {
                op: o,
                write,
                outcome,
                unit_stride: stream == Ok(true),
            });
        }
    }
    v.sort_by_key(|d| d.op);
    v
}

/// A read (or atomic) is ordered after store `s` (it may alias it): it waits for the store's
/// acknowledgement, so the store's port gains nothing from holding writes to combine them.
pub(super) fn read_waits_for(k: &hls_ir::Kernel, s: OpId) -> bool {
    k.succs(s).iter().any(|&(t, d)| {
        matches!(d, hls_ir::Dep::Order { .. })
            && matches!(k.op(t).kind, OpKind::Load { .. } | OpKind::Atomic { .. })
    })
}

/// The read burst length of global port `m` (0: no read bursts): half the schedule's read
/// latency rounded down to a power of two, at most 32, at least 4 (a read waits for its burst
/// to close, so gathering must fit in the latency the schedule allows).
pub(super) fn read_burst_beats(p: &Plan, m: &Mem) -> u32 {
    let k = p.k;
    let streams = m.loads.iter().any(|&l| stream_of(k, l).is_ok());
    if m.onchip.is_some() || !m.atomics.is_empty() || !streams {
        return 0;
    }
    let lat = m
        .loads
        .iter()
        .map(|&l| p.load_latency(l))
        .min()
        .unwrap_or(0);
    let beats = (lat / 2).min(MAX_READ_BURST_BEATS);
    if beats < MIN_READ_BURST_BEATS {
        0
    } else {
        1 << (31 - beats.leading_zeros())
    }
}

impl Emitter<'_> {
    /// The write-combining unit of bursting port `p` (`oclhls_wburst`) between the kernel's
    /// single writes (`p_wc_*`) and the port's AW/W/B channels, and the write counter, which
    /// counts a burst's response as all its beats done. Without partial stores the port has
    /// no strobe (every byte written).
    pub(super) fn emit_write_combining(
        &mut self,
        w: &mut VWriter,
        p: &str,
        bits: u32,
        partial: bool,
        predicted: bool,
    ) {
        let sb = bits / 8;
        w.line(format!("wire {p}_wc_ready_next;"));
        if !predicted {
            self.unused.push(format!("{p}_wc_ready_next"));
        }
        let strb = if partial {
            format!("{p}_wdata_strb")
        } else {
            w.line(format!("wire {}{p}_wdata_strb_all;", range(sb)));
            format!("{p}_wdata_strb_all")
        };
        w.line(format!("wire [8:0] {p}_wb_acked;"));
        let flush = match self.wflush.get(p) {
            Some(t) => {
                w.wire(&format!("{p}_wb_flush"), 1, &t.join(" || "));
                format!("{p}_wb_flush")
            }
            None => "1'b0".to_string(),
        };
        w.line(format!(
            "oclhls_wburst #(.W({bits}), .SB({sb}), .EB({sb}), .MAXB({WRITE_BURST_BEATS}), .DEPTH({}), .DAW({}), .IDLE({WRITE_BURST_IDLE})) {p}_wburst (.clk(clk), .rst(rst), .in_valid({p}_wc_valid), .in_ready({p}_wc_ready), .in_ready_next({p}_wc_ready_next), .in_addr({p}_wc_addr), .in_data({p}_wc_data), .in_strb({p}_wc_strb), .aw_valid({p}_wreq_valid), .aw_ready({p}_wreq_ready), .aw_addr({p}_wreq_addr), .aw_len({p}_wreq_len), .w_valid({p}_wdata_valid), .w_ready({p}_wdata_ready), .w_data({p}_wdata_data), .w_strb({strb}), .w_last({p}_wdata_last), .b_valid({p}_wresp_valid), .flush({flush}), .ack_beats({p}_wb_acked));",
            2 * WRITE_BURST_BEATS,
            (2 * WRITE_BURST_BEATS).trailing_zeros()
        ));
        if !partial {
            // Every store writes whole elements: the strobe the unit carries is all ones.
            self.unused.push(format!("{p}_wdata_strb_all"));
        }
        super::memory::write_counter(
            w,
            p,
            &format!(
                "{p}_wcnt + {{15'd0, {p}_wc_valid && {p}_wc_ready}} - ({p}_wresp_valid ? {{7'd0, {p}_wb_acked}} : 16'd0)"
            ),
        );
    }

    /// The read-combining unit of bursting port `p` (`oclhls_rburst`, `beats` per burst at
    /// most, `bytes` per element) between the kernel's single reads (`p_rc_*`) and the port's
    /// AR channel.
    /// The run of the read that asks is `{p}_rc_run` (9 bits, `Kernel::read_runs`; 1 for a
    /// read without one), and `{p}_planned` says a planned burst expects more reads.
    /// `predicted`: a registered stall reads the unit's `in_ready_next` (`stall.rs`).
    pub(super) fn emit_read_combining(
        &mut self,
        w: &mut VWriter,
        p: &str,
        (beats, bytes): (u32, u32),
        predicted: bool,
    ) {
        let rq = format!("{p}_rc");
        w.line(format!("wire {rq}_valid;"));
        w.line(format!("wire {rq}_ready;"));
        w.line(format!("wire {rq}_ready_next;"));
        if !predicted {
            self.unused.push(format!("{rq}_ready_next"));
        }
        w.line(format!("wire [31:0] {rq}_addr;"));
        w.line(format!("wire [8:0] {rq}_run;"));
        w.line(format!("wire {p}_planned;"));
        let planb = planned_burst_beats(beats, bytes);
        w.line(format!(
            "oclhls_rburst #(.EB({bytes}), .MAXB({beats}), .PLANB({planb}), .IDLE({READ_BURST_IDLE})) {p}_rburst (.clk(clk), .rst(rst), .in_valid({rq}_valid), .in_ready({rq}_ready), .in_ready_next({rq}_ready_next), .in_addr({rq}_addr), .in_run({rq}_run), .planned({p}_planned), .ar_valid({p}_rreq_valid), .ar_ready({p}_rreq_ready), .ar_addr({p}_rreq_addr), .ar_len({p}_rreq_len));"
        ));
        // Beats answer reads one for one and in order: the last flag carries nothing more.
        self.unused.push(format!("{p}_rresp_last"));
    }
}
