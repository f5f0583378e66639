//! Iterative modulo scheduling (Rau, MICRO 1994): the fast first attempt at every II, the
//! warm start of the ILP, and the fallback when the ILP runs out of time. With
//! `ii = None` it is a list scheduler with a flat (non-modulo) reservation table,
//! used for non-pipelined regions.

use std::cell::Cell;
use std::collections::BTreeMap;

use crate::graph::Graph;
use crate::problem::Problem;

/// Reservation table: per resource, per slot, the operations occupying it (an operation
/// appears once per cycle it covers the slot).
struct Mrt {
    ii: Option<i64>,
    limit: Vec<u32>,
    table: Vec<BTreeMap<i64, Vec<usize>>>,
    /// Slots visited so far (see [`WORK_LIMIT`]).
    work: Cell<u64>,
}

/// Slot visits after which the heuristic gives up. Realistic loops need well under a
/// million; this only stops pathological inputs (blocking times and IIs in the millions)
/// from hanging the scheduler: the caller then treats the II as not found.
const WORK_LIMIT: u64 = 20_000_000;

impl Mrt {
    fn new(p: &Problem, ii: Option<i64>) -> Self {
        Mrt {
            ii,
            limit: p.resources.iter().map(|r| r.limit.unwrap_or(0)).collect(),
            table: vec![BTreeMap::new(); p.resources.len()],
            work: Cell::new(0),
        }
    }

    fn exhausted(&self) -> bool {
        self.work.get() > WORK_LIMIT
    }

    /// Slots covered by an operation starting at `t` blocking for `bt` cycles, with
    /// multiplicity.
    fn cover(&self, t: i64, bt: u32) -> Vec<(i64, u32)> {
        let len = self.ii.map_or(i64::from(bt), |ii| i64::from(bt).min(ii));
        self.work.set(self.work.get().saturating_add(len as u64));
        if self.exhausted() {
            return Vec::new();
        }
        match self.ii {
            Some(ii) => {
                let bt = i64::from(bt);
                (0..bt.min(ii))
                    .map(|b| ((t + b).rem_euclid(ii), ((bt - 1 - b) / ii + 1) as u32))
                    .collect()
            }
            None => (0..i64::from(bt)).map(|b| (t + b, 1)).collect(),
        }
    }

    fn used(&self, r: usize, slot: i64) -> u32 {
        self.table[r].get(&slot).map_or(0, |v| v.len() as u32)
    }

    fn fits(&self, r: usize, t: i64, bt: u32) -> bool {
        if self.exhausted() {
            return false;
        }
        self.cover(t, bt)
            .into_iter()
            .all(|(slot, m)| self.used(r, slot) + m <= self.limit[r])
    }

    fn add(&mut self, r: usize, op: usize, t: i64, bt: u32) {
        for (slot, m) in self.cover(t, bt) {
            let list = self.table[r].entry(slot).or_default();
            list.extend(std::iter::repeat_n(op, m as usize));
        }
    }

    fn remove(&mut self, r: usize, op: usize, t: i64, bt: u32) {
        for (slot, _) in self.cover(t, bt) {
            if let Some(list) = self.table[r].get_mut(&slot) {
                list.retain(|&o| o != op);
                if list.is_empty() {
                    self.table[r].remove(&slot);
                }
            }
        }
    }

    /// Operations that must leave so that `op` fits at `t`.
    fn conflicts(&self, r: usize, t: i64, bt: u32) -> Vec<usize> {
        let mut victims = Vec::new();
        for (slot, m) in self.cover(t, bt) {
            if let Some(list) = self.table[r].get(&slot) {
                let mut distinct: Vec<usize> = list.clone();
                distinct.dedup();
                let mut used = list.len() as u32;
                for o in distinct {
                    if used + m <= self.limit[r] {
                        break;
                    }
                    if !victims.contains(&o) {
                        victims.push(o);
                    }
                    used -= list.iter().filter(|&&x| x == o).count() as u32;
                }
            }
        }
        victims
    }
}

/// Budget of scheduling steps per operation before giving up at an II.
const BUDGET_PER_OP: usize = 12;

/// Why no schedule came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The step budget ran out (the usual way to fail at an II that is too tight).
    Budget,
    /// The slot-visit limit ran out: the reservation table is too large for this
    /// heuristic (pathological blocking times or II).
    Work,
}

/// Start times (normalised to start at 0) satisfying every constraint of `g` at `ii`
/// (`None`: loop-carried constraints ignored, flat reservation table).
pub(crate) fn schedule(g: &Graph, p: &Problem, ii: Option<u32>) -> Result<Vec<i64>, Failure> {
    let n = g.n;
    if n == 0 {
        return Ok(Vec::new());
    }
    let ii = ii.map(i64::from);
    let height = g.heights(ii).ok_or(Failure::Budget)?;
    let rank = g.topo_rank();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(height[v]), rank[v], v));

    let occ: Vec<Option<(usize, u32, u32)>> = (0..n).map(|v| p.occupancy(v)).collect();
    let active = |k: usize| -> Option<i64> {
        let d = &g.deps[k];
        if d.src == d.dst {
            return None;
        }
        match ii {
            Some(ii) => Some(d.weight(ii)),
            None if d.omega == 0 => Some(d.d),
            None => None,
        }
    };

    let mut mrt = Mrt::new(p, ii);
    let mut time: Vec<Option<i64>> = vec![None; n];
    let mut last: Vec<Option<i64>> = vec![None; n];
    let mut unscheduled = n;
    let mut budget = BUDGET_PER_OP * n + 16;
    let unschedule = |v: usize, time: &mut Vec<Option<i64>>, mrt: &mut Mrt| {
        if let Some(t) = time[v].take() {
            if let Some((r, _, bt)) = occ[v] {
                mrt.remove(r, v, t, bt);
            }
            true
        } else {
            false
        }
    };

    while unscheduled > 0 {
        if mrt.exhausted() {
            return Err(Failure::Work);
        }
        if budget == 0 {
            return Err(Failure::Budget);
        }
        budget -= 1;
        let Some(&v) = order.iter().find(|&&v| time[v].is_none()) else {
            break;
        };

        let mut estart = 0i64;
        for &k in &g.inc[v] {
            if let (Some(w), Some(ts)) = (active(k), time[g.deps[k].src]) {
                estart = estart.max(ts + w);
            }
        }
        let mut lstart = i64::MAX;
        for &k in &g.out[v] {
            if let (Some(w), Some(td)) = (active(k), time[g.deps[k].dst]) {
                lstart = lstart.min(td - w);
            }
        }

        let t = match occ[v] {
            None => estart,
            Some((r, _, bt)) => {
                // Flat table: everything after the last busy slot is free, so try a few
                // cycles from estart, then that point.
                let after_all = mrt.table[r]
                    .keys()
                    .next_back()
                    .map_or(estart, |&x| (x + 1).max(estart));
                let window = match ii {
                    Some(ii) => ii,
                    None => (after_all - estart + 1).min(64),
                };
                let free = |lo: i64, hi: i64| {
                    (lo..=hi)
                        .take_while(|_| !mrt.exhausted())
                        .find(|&t| mrt.fits(r, t, bt))
                };
                let hi = estart + window - 1;
                let preferred = if lstart >= estart {
                    free(estart, hi.min(lstart))
                } else {
                    None
                };
                let found = preferred.or_else(|| free(estart, hi));
                let found = match (found, ii) {
                    (None, None) => Some(after_all),
                    (f, _) => f,
                };
                match found {
                    Some(t) => t,
                    None => {
                        let t = match last[v] {
                            Some(prev) if prev >= estart => prev + 1,
                            _ => estart,
                        };
                        for victim in mrt.conflicts(r, t, bt) {
                            if unschedule(victim, &mut time, &mut mrt) {
                                unscheduled += 1;
                            }
                        }
                        t
                    }
                }
            }
        };
        time[v] = Some(t);
        last[v] = Some(t);
        unscheduled -= 1;
        if let Some((r, _, bt)) = occ[v] {
            mrt.add(r, v, t, bt);
        }
        // Evict neighbours whose constraints with v now fail.
        for &k in &g.out[v] {
            let d = &g.deps[k];
            if let (Some(w), Some(td)) = (active(k), time[d.dst]) {
                if td < t + w && unschedule(d.dst, &mut time, &mut mrt) {
                    unscheduled += 1;
                }
            }
        }
        for &k in &g.inc[v] {
            let d = &g.deps[k];
            if let (Some(w), Some(ts)) = (active(k), time[d.src]) {
                if t < ts + w && unschedule(d.src, &mut time, &mut mrt) {
                    unscheduled += 1;
                }
            }
        }
    }
    let times: Vec<i64> = time.into_iter().map(|t| t.unwrap_or(0)).collect();
    let min = times.iter().copied().min().unwrap_or(0);
    Ok(times.into_iter().map(|t| t - min).collect())
}
