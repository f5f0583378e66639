//! Data races between atomic operations and plain stores.
//!
//! OpenCL C 2.0 leaves a race between an atomic and a non-atomic access to the same location
//! undefined; the emulator reports one when an atomic operation and a plain store (any write
//! that is not an atomic built-in: assignments, `vstore`, async copies, `atomic_init`, the
//! `expected` write-back of a failed compare-exchange) touch the same 4-byte word in one
//! launch, by different work-items, without a barrier between them.
//!
//! Two accesses are ordered (no race) when they come from the same work-item, or from the same
//! work-group with a barrier (or work-group function) between them: every work-item of a group
//! passes barrier `n` before any passes barrier `n + 1`, so an access made after passing `n`
//! barriers happens after every access the group made before its `n`-th. Accesses of different
//! work-groups of one launch are never ordered by the emulator (a release/acquire chain through
//! other atomics is not followed, and OpenCL gives spin-waits between work-groups no
//! forward-progress promise anyway).
//!
//! Cost: only kernels whose call graph has an atomic operation on memory are tracked
//! (`sched::setup`); each plain store to `global` or `local` memory then costs one lookup in
//! a hash map per word. Each word keeps the last accesses of up to two different work-items per
//! kind (plain, atomic), so a race is found whatever order the two accesses run in; when more
//! than two work-items hit one word between barriers a race can be missed, never invented.

use frontend::Span;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// One access: who made it and where (24 bytes: a log holds one per word written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Linear global id of the work-item (unique within a launch; `u32::MAX`: no access).
    pub item: u32,
    /// Linear index of its work-group.
    pub group: u32,
    /// Barriers (and work-group functions) the work-item had passed.
    pub gen: u32,
    pub span: Span,
}

const NONE: Access = Access {
    item: u32::MAX,
    group: 0,
    gen: 0,
    span: Span {
        file: frontend::FileId(0),
        start: 0,
        end: 0,
    },
};

impl Access {
    /// Whether `self` and a later access `n` of the other kind race.
    fn races_with(&self, n: &Access) -> bool {
        self.item != NONE.item
            && self.item != n.item
            && (self.group != n.group || self.gen == n.gen)
    }

    /// `self` happens before `n` and every later access of `n`'s work-group.
    fn stale_for(&self, n: &Access) -> bool {
        self.group == n.group && self.gen < n.gen
    }
}

/// A race found by [`RaceLog::record`]: the earlier access it conflicts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Address of the word.
    pub addr: u32,
    pub other: Access,
    /// Whether the earlier access was the atomic one.
    pub other_atomic: bool,
}

/// The latest accesses of one kind to one word, by up to two different work-items.
#[derive(Clone, Copy)]
struct Pair([Access; 2]);

impl Default for Pair {
    fn default() -> Pair {
        Pair([NONE; 2])
    }
}

impl Pair {
    fn insert(&mut self, n: Access) {
        let s = &mut self.0;
        let i = s
            .iter()
            .position(|a| a.item == n.item)
            .or_else(|| s.iter().position(|a| a.item == NONE.item))
            .or_else(|| s.iter().position(|a| a.stale_for(&n)))
            .unwrap_or(1);
        s[i] = n;
    }

    fn conflict(&self, n: &Access) -> Option<Access> {
        self.0.iter().find(|a| a.races_with(n)).copied()
    }
}

/// A multiplicative hash of a word index (the keys are dense small integers).
#[derive(Default)]
pub struct WordHash(u64);

impl Hasher for WordHash {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Words = HashMap<u32, Pair, BuildHasherDefault<WordHash>>;

/// The accesses of one memory (a launch's global memory, or a work-group's local memory), by
/// word index (`addr / 4`). The atomic words are usually few (counters, bins), so a plain store
/// costs a lookup there and an entry among the plain words.
#[derive(Default)]
pub struct RaceLog {
    atomic: Words,
    plain: Words,
}

impl RaceLog {
    /// Records an access of `len` bytes at `addr`; returns the first earlier access of the
    /// other kind it races with.
    pub fn record(&mut self, addr: u32, len: u32, atomic: bool, n: Access) -> Option<Conflict> {
        let first = addr / 4;
        let last = ((addr as u64 + len.max(1) as u64 - 1) / 4) as u32;
        let (mine, other) = if atomic {
            (&mut self.atomic, &self.plain)
        } else {
            (&mut self.plain, &self.atomic)
        };
        let mut found = None;
        for w in first..=last {
            if found.is_none() {
                found = other
                    .get(&w)
                    .and_then(|p| p.conflict(&n))
                    .map(|o| Conflict {
                        addr: w.wrapping_mul(4),
                        other: o,
                        other_atomic: !atomic,
                    });
            }
            mine.entry(w).or_default().insert(n);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(x: u32, group: u32, gen: u32, line: u32) -> Access {
        Access {
            item: x,
            group,
            gen,
            span: Span::new(frontend::FileId(0), line, line + 1),
        }
    }

    #[test]
    fn atomic_then_plain_store_by_another_item_races() {
        let mut log = RaceLog::default();
        assert_eq!(log.record(0x100, 4, true, acc(0, 0, 0, 1)), None);
        let c = log
            .record(0x100, 4, false, acc(1, 0, 0, 2))
            .expect("a race");
        assert_eq!(c.addr, 0x100);
        assert_eq!(c.other, acc(0, 0, 0, 1));
        assert!(c.other_atomic);
    }

    #[test]
    fn plain_store_then_atomic_races_in_either_order() {
        let mut log = RaceLog::default();
        // an 8-byte store covers two words; the atomic hits the second
        assert_eq!(log.record(0x200, 8, false, acc(3, 1, 0, 1)), None);
        let c = log.record(0x204, 4, true, acc(5, 2, 0, 2)).expect("a race");
        assert_eq!((c.addr, c.other.item, c.other_atomic), (0x204, 3, false));
    }

    #[test]
    fn same_item_barriers_and_other_words_do_not_race() {
        let mut log = RaceLog::default();
        // the same work-item: program order
        assert_eq!(log.record(0, 4, false, acc(0, 0, 0, 1)), None);
        assert_eq!(log.record(0, 4, true, acc(0, 0, 0, 2)), None);
        // another item of the group after a barrier
        assert_eq!(log.record(0, 4, true, acc(1, 0, 1, 3)), None);
        assert_eq!(log.record(0, 4, false, acc(2, 0, 2, 4)), None);
        // plain stores alone and atomics alone never race here
        assert_eq!(log.record(8, 4, false, acc(4, 0, 2, 5)), None);
        assert_eq!(log.record(8, 4, false, acc(5, 0, 2, 5)), None);
        assert_eq!(log.record(12, 4, true, acc(4, 0, 2, 6)), None);
        assert_eq!(log.record(12, 4, true, acc(6, 1, 0, 6)), None);
        // a neighbouring word
        assert_eq!(log.record(16, 4, false, acc(7, 0, 2, 7)), None);
    }

    #[test]
    fn many_atomic_items_then_a_store_by_one_of_them() {
        // a counter every work-item increments, then plain-stored by one of them
        let mut log = RaceLog::default();
        for x in 0..64 {
            assert_eq!(log.record(0x40, 4, true, acc(x, 0, 0, 1)), None);
        }
        for x in [63, 0, 17] {
            let c = log.record(0x40, 4, false, acc(x, 0, 0, 2)).expect("a race");
            assert_ne!(c.other.item, x);
        }
    }

    #[test]
    fn different_groups_race_whatever_their_barriers() {
        let mut log = RaceLog::default();
        assert_eq!(log.record(0x80, 4, false, acc(0, 0, 3, 1)), None);
        assert!(log.record(0x80, 4, true, acc(9, 1, 0, 2)).is_some());
    }
}
