//! The protocol checker of the memory ports, run by the memory servers on every cycle of
//! every port (`docs/hardware-interface.md`, "Global memory" and its revision 2): the kernel's
//! `valid` stays high until `ready`, its payload stays the same while `valid && !ready`, a
//! burst has 1 to 256 beats and does not cross a 4 KB boundary, an atomic is one beat, and
//! `wdata_last` is high exactly on a burst's last beat. A violation fails the run with the
//! cycle, the port and the [`Rule`]. (Alignment and buffer bounds are checked by the server
//! itself, as [`crate::SimError::MemoryFault`]s.)
//!
//! Not checkable from the outside, so not checked: that a `valid` does not depend on its
//! `ready` in the same cycle (the testbench decides `ready` before evaluating the model), and
//! anything about `rresp_ready`/`wresp_ready` (AXI lets a master hold them low for any time).

use std::fmt;

use crate::SimError;

/// A rule of the port protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `valid` fell while `ready` was low.
    ValidHeldUntilReady,
    /// Address, length, opcode, operands, data, strobe or last changed while
    /// `valid && !ready`.
    PayloadStable,
    /// `len` above 255 (more than 256 beats).
    BurstLength,
    /// The burst's bytes cross a 4 KB boundary.
    Crosses4K,
    /// An atomic request (`rreq_op` != 0) with `len` != 0.
    AtomicBurst,
    /// `wdata_last` high before a burst's last beat, or low on it.
    WriteLast,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::ValidHeldUntilReady => "valid held until ready",
            Rule::PayloadStable => "payload stable while valid and not ready",
            Rule::BurstLength => "burst length 1 to 256 beats",
            Rule::Crosses4K => "no burst crosses a 4 KB boundary",
            Rule::AtomicBurst => "an atomic is one beat (len 0)",
            Rule::WriteLast => "wdata_last exactly on a burst's last beat",
        })
    }
}

/// A broken rule: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub rule: Rule,
    pub detail: String,
}

impl Violation {
    pub(crate) fn new(rule: Rule, detail: impl Into<String>) -> Violation {
        Violation {
            rule,
            detail: detail.into(),
        }
    }

    /// The run's error: cycle, port and rule.
    pub(crate) fn into_error(self, port: &str, cycle: u64) -> SimError {
        SimError::Protocol {
            cycle,
            message: format!(
                "port `{port}` breaks the rule \"{}\": {}",
                self.rule, self.detail
            ),
        }
    }
}

/// The kernel's side of one valid/ready handshake (a request channel), watched over cycles.
#[derive(Default)]
pub(crate) struct Handshake {
    /// Last cycle ended with `valid && !ready`: the same request must be offered again.
    waiting: bool,
    /// Its payload.
    held: Vec<u32>,
    scratch: Vec<u32>,
}

impl Handshake {
    /// This cycle's `valid` and `ready`; `payload` fills in the request's payload words (only
    /// called when needed). `port` and `channel` name the channel in messages (`a`, `rreq`).
    #[inline(always)]
    pub(crate) fn observe(
        &mut self,
        names: (&str, &str),
        valid: bool,
        ready: bool,
        payload: impl Fn(&mut Vec<u32>),
    ) -> Result<(), Violation> {
        // The common case: nothing waiting, nothing left waiting.
        if !(self.waiting || valid && !ready) {
            return Ok(());
        }
        self.observe_waiting(names, valid, ready, payload)
    }

    #[cold]
    #[inline(never)]
    fn observe_waiting(
        &mut self,
        (port, channel): (&str, &str),
        valid: bool,
        ready: bool,
        payload: impl Fn(&mut Vec<u32>),
    ) -> Result<(), Violation> {
        let mut broken = None;
        if self.waiting {
            if !valid {
                broken = Some(Violation::new(
                    Rule::ValidHeldUntilReady,
                    format!("`{port}_{channel}_valid` fell before the request was accepted"),
                ));
            } else {
                self.scratch.clear();
                payload(&mut self.scratch);
                if self.scratch != self.held {
                    broken = Some(Violation::new(
                        Rule::PayloadStable,
                        format!(
                            "`{port}_{channel}` request changed while waiting for ready: \
                             {:x?} -> {:x?}",
                            self.held, self.scratch
                        ),
                    ));
                    // Watch the new request from here on.
                    std::mem::swap(&mut self.held, &mut self.scratch);
                }
            }
        } else if valid && !ready {
            self.held.clear();
            payload(&mut self.held);
        }
        self.waiting = valid && !ready;
        broken.map_or(Ok(()), Err)
    }
}

/// The rules of one burst request at `addr` with `len` (beats − 1) of `bytes`-byte beats;
/// `atomic` when it carries a non-zero opcode.
pub(crate) fn check_burst(addr: u32, len: u64, bytes: u32, atomic: bool) -> Result<(), Violation> {
    if len > 255 {
        return Err(Violation::new(
            Rule::BurstLength,
            format!("len {len} at address {addr:#010x}"),
        ));
    }
    if atomic && len != 0 {
        return Err(Violation::new(
            Rule::AtomicBurst,
            format!("atomic with len {len} at address {addr:#010x}"),
        ));
    }
    let end = u64::from(addr) + (len + 1) * u64::from(bytes);
    if len > 0 && (end - 1) / 4096 != u64::from(addr) / 4096 {
        return Err(Violation::new(
            Rule::Crosses4K,
            format!(
                "{} beats of {bytes} bytes from {addr:#010x} end at {:#010x}",
                len + 1,
                end - 1
            ),
        ));
    }
    Ok(())
}

/// `wdata_last` of beat `beat` (from 0) of a burst of `beats`.
pub(crate) fn check_last(beat: u32, beats: u32, last: bool) -> Result<(), Violation> {
    if last == (beat + 1 == beats) {
        return Ok(());
    }
    Err(Violation::new(
        Rule::WriteLast,
        format!(
            "`wdata_last` is {} on beat {} of a {beats}-beat burst",
            u8::from(last),
            beat + 1
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[u32]) -> impl Fn(&mut Vec<u32>) + '_ {
        move |out: &mut Vec<u32>| out.extend_from_slice(v)
    }

    #[test]
    fn valid_must_be_held_until_ready() {
        let mut h = Handshake::default();
        h.observe(("a", "rreq"), true, false, words(&[1])).unwrap();
        let e = h
            .observe(("a", "rreq"), false, true, words(&[1]))
            .unwrap_err();
        assert_eq!(e.rule, Rule::ValidHeldUntilReady);
        // Accepted, then dropped: fine.
        let mut h = Handshake::default();
        h.observe(("a", "rreq"), true, false, words(&[1])).unwrap();
        h.observe(("a", "rreq"), true, true, words(&[1])).unwrap();
        h.observe(("a", "rreq"), false, false, words(&[9])).unwrap();
        h.observe(("a", "rreq"), true, true, words(&[2])).unwrap();
        h.observe(("a", "rreq"), true, true, words(&[3])).unwrap();
    }

    #[test]
    fn payload_must_be_stable_while_waiting() {
        let mut h = Handshake::default();
        h.observe(("b", "wdata"), true, false, words(&[1, 2]))
            .unwrap();
        h.observe(("b", "wdata"), true, false, words(&[1, 2]))
            .unwrap();
        let e = h
            .observe(("b", "wdata"), true, true, words(&[1, 3]))
            .unwrap_err();
        assert_eq!(e.rule, Rule::PayloadStable);
        let err = e.into_error("b", 17).to_string();
        assert!(err.contains("cycle 17") && err.contains("`b`"), "{err}");
        assert!(err.contains("payload stable"), "{err}");
    }

    #[test]
    fn burst_rules() {
        assert!(check_burst(0x1000, 255, 4, false).is_ok()); // 1 KB from a 4 KB boundary
        assert!(check_burst(0x1c00, 255, 4, false).is_ok()); // ends exactly at 0x2000
        let e = |r: Result<(), Violation>| r.unwrap_err().rule;
        assert_eq!(e(check_burst(0x1c04, 255, 4, false)), Rule::Crosses4K);
        assert_eq!(e(check_burst(0x1ffc, 1, 4, false)), Rule::Crosses4K);
        assert_eq!(e(check_burst(0x1000, 256, 4, false)), Rule::BurstLength);
        assert_eq!(e(check_burst(0x1000, 1, 4, true)), Rule::AtomicBurst);
        assert!(check_burst(0x1ffc, 0, 4, true).is_ok());
        assert!(check_last(3, 4, true).is_ok() && check_last(0, 4, false).is_ok());
        assert_eq!(e(check_last(2, 4, true)), Rule::WriteLast);
        assert_eq!(e(check_last(3, 4, false)), Rule::WriteLast);
    }
}
