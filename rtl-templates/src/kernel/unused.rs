//! The unused-bits sink of a kernel module: bits the module deliberately leaves unread
//! (truncated bits, address bits outside an on-chip index, statuses nobody reads, and the bits
//! of a signal no bit select reads: padding, fields a kernel ignores), gathered while the
//! module is written and AND-ed into one `unused_bits` wire at its end (Verilator's idiom, so
//! `-Wall` stays clean without waivers).

use crate::writer::{bit_range, parse_literal, VWriter};
use std::collections::BTreeMap;

#[derive(Default)]
pub(super) struct UnusedBits {
    /// Signals (or bit ranges of them) nothing reads, in the order they were found.
    bits: Vec<String>,
    /// Bits read by bit selects, per signal (its width, the `[lo, hi)` ranges): the others
    /// go to the sink.
    selected: BTreeMap<String, (u32, Vec<(u32, u32)>)>,
}

impl UnusedBits {
    /// `sig` (a signal or a bit range of one) is deliberately unread; a literal (the value of
    /// a constant operand) is no signal and needs no sink.
    pub fn push(&mut self, sig: String) {
        if parse_literal(&sig).is_none() {
            self.bits.push(sig);
        }
    }

    /// A bit select reads bits `[lo, hi)` of `sig`, a signal of `width` bits (a literal: no
    /// signal, nothing to record).
    pub fn select(&mut self, sig: &str, width: u32, lo: u32, hi: u32) {
        if parse_literal(sig).is_some() {
            return;
        }
        self.selected
            .entry(sig.to_string())
            .or_insert((width, Vec::new()))
            .1
            .push((lo, hi));
    }

    /// Writes the sink: every unread bit found, then the bits of selected signals that no bit
    /// select reads.
    pub fn emit(mut self, w: &mut VWriter) {
        for (sig, (width, mut ranges)) in std::mem::take(&mut self.selected) {
            ranges.sort();
            let mut at = 0;
            for (lo, hi) in ranges {
                if lo > at {
                    self.bits.push(bit_range(&sig, lo - 1, at));
                }
                at = at.max(hi);
            }
            if at < width {
                self.bits.push(bit_range(&sig, width - 1, at));
            }
        }
        if !self.bits.is_empty() {
            w.comment(
                "Deliberately unused bits (truncated, or read by no bit select): Verilator's idiom.",
            );
            w.wire(
                "unused_bits",
                1,
                &format!("&{{1'b0, {}, 1'b0}}", self.bits.join(", ")),
            );
        }
    }
}
