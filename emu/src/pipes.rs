//! Pipes: finite FIFOs of packets with reservations (OpenCL C 2.0 6.13.16).
//!
//! Capacity is `max_packets`, the depth of the pipe's hardware FIFO (`hwcontract::pipe`: a test's
//! `pipe:` count, or `effective_depth` of a program-scope pipe's `xcl_reqd_pipe_depth`, so
//! `xcl_reqd_pipe_depth(1)` holds 2 packets here as in hardware): a packet occupies a slot from the moment a write reserves it (or
//! a plain write stores it) until a read takes it and, for a read reservation, until the
//! reservation is committed. Write reservations become visible to readers in reservation order:
//! a reservation's packets enter the FIFO once it and every earlier write reservation of the
//! pipe have been committed. Read reservations take the next packets in reservation order.
//!
//! A committed write reservation is published once every slot of it has been written: the
//! pipes tutorial has every work-item of a group commit the group's shared reservation right
//! after writing its own slot, so the first commit must not publish slots that other
//! work-items have yet to fill. When the work-group that made a reservation finishes, its
//! committed reservations are published whatever was written.

use std::collections::VecDeque;

#[derive(Debug)]
pub struct Pipe {
    pub name: String,
    pub packet_size: u32,
    pub capacity: u32,
    pub fifo: VecDeque<Vec<u8>>,
    /// Slots held by uncommitted write reservations and by read reservations not yet
    /// committed.
    pub held: u32,
    /// Write reservations of this pipe waiting to enter the FIFO, in order (ids).
    pub pending_writes: VecDeque<u32>,
}

#[derive(Debug)]
pub struct Reservation {
    pub pipe: usize,
    pub write: bool,
    pub slots: Vec<Vec<u8>>,
    /// Which slots have been written (write reservations).
    pub written: Vec<bool>,
    pub committed: bool,
    /// Published into the FIFO (write reservations).
    pub published: bool,
    /// The (launch, work-group) that made it.
    pub owner: (usize, u32),
}

#[derive(Debug, Default)]
pub struct Pipes {
    pub pipes: Vec<Pipe>,
    /// Reservation id `i + 1` is `reservations[i]`; 0 is the invalid id.
    pub reservations: Vec<Reservation>,
}

impl Pipe {
    pub fn occupied(&self) -> u32 {
        self.fifo.len() as u32 + self.held
    }

    pub fn free(&self) -> u32 {
        self.capacity.saturating_sub(self.occupied())
    }

    /// `fill/capacity` for messages.
    pub fn fill(&self) -> String {
        format!(
            "{} of {} packets readable, {} slots reserved",
            self.fifo.len(),
            self.capacity,
            self.held
        )
    }
}

impl Pipes {
    pub fn write(&mut self, p: usize, packet: Vec<u8>) -> bool {
        let pipe = &mut self.pipes[p];
        if pipe.free() == 0 {
            return false;
        }
        pipe.fifo.push_back(packet);
        true
    }

    pub fn read(&mut self, p: usize) -> Option<Vec<u8>> {
        self.pipes[p].fifo.pop_front()
    }

    /// Reserves `n` packets; the id, or 0 when the pipe cannot hold / does not have them.
    pub fn reserve(&mut self, p: usize, n: u32, write: bool, owner: (usize, u32)) -> u32 {
        let pipe = &mut self.pipes[p];
        if n == 0 {
            return 0;
        }
        let slots = if write {
            if pipe.free() < n {
                return 0;
            }
            vec![vec![0u8; pipe.packet_size as usize]; n as usize]
        } else {
            if (pipe.fifo.len() as u32) < n {
                return 0;
            }
            pipe.fifo.drain(..n as usize).collect()
        };
        pipe.held += n;
        self.reservations.push(Reservation {
            pipe: p,
            write,
            written: vec![false; slots.len()],
            slots,
            committed: false,
            published: false,
            owner,
        });
        let id = self.reservations.len() as u32;
        if write {
            self.pipes[p].pending_writes.push_back(id);
        }
        id
    }

    pub fn reservation(&mut self, id: u32) -> Option<&mut Reservation> {
        id.checked_sub(1)
            .and_then(|i| self.reservations.get_mut(i as usize))
    }

    /// Commits a reservation (a second commit of the same reservation does nothing).
    pub fn commit(&mut self, id: u32) {
        let Some(r) = self.reservation(id) else {
            return;
        };
        if r.committed {
            return;
        }
        r.committed = true;
        let (p, write, n) = (r.pipe, r.write, r.slots.len() as u32);
        if !write {
            self.pipes[p].held -= n;
            return;
        }
        self.publish(p);
    }

    /// Publishes complete committed write reservations of pipe `p`, in reservation order.
    pub fn publish(&mut self, p: usize) {
        while let Some(&front) = self.pipes[p].pending_writes.front() {
            let r = &mut self.reservations[front as usize - 1];
            if !r.committed || !r.written.iter().all(|w| *w) {
                break;
            }
            r.published = true;
            let slots = r.slots.clone();
            let pipe = &mut self.pipes[p];
            pipe.pending_writes.pop_front();
            pipe.held -= slots.len() as u32;
            pipe.fifo.extend(slots);
        }
    }

    /// A work-group finished: its committed write reservations count as complete.
    pub fn group_done(&mut self, owner: (usize, u32)) {
        let mut touched = Vec::new();
        for r in &mut self.reservations {
            if r.owner == owner && r.write && r.committed && !r.published {
                r.written.fill(true);
                touched.push(r.pipe);
            }
        }
        touched.dedup();
        for p in touched {
            self.publish(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipes(cap: u32) -> Pipes {
        Pipes {
            pipes: vec![Pipe {
                name: "p".into(),
                packet_size: 1,
                capacity: cap,
                fifo: VecDeque::new(),
                held: 0,
                pending_writes: VecDeque::new(),
            }],
            reservations: Vec::new(),
        }
    }

    #[test]
    fn reservations_publish_in_order() {
        let mut p = pipes(4);
        let a = p.reserve(0, 2, true, (0, 0));
        let b = p.reserve(0, 2, true, (0, 0));
        assert_eq!(p.reserve(0, 1, true, (0, 0)), 0, "full");
        assert!(!p.write(0, vec![9]));
        p.reservation(b).unwrap().slots[0] = vec![3];
        p.reservation(b).unwrap().written.fill(true);
        p.commit(b);
        assert_eq!(p.read(0), None, "b waits for a");
        p.reservation(a).unwrap().slots[1] = vec![2];
        p.reservation(a).unwrap().written[1] = true;
        p.commit(a);
        assert_eq!(p.read(0), None, "a is not complete");
        p.group_done((0, 0));
        assert_eq!(p.read(0), Some(vec![0]));
        assert_eq!(p.read(0), Some(vec![2]));
        assert_eq!(p.read(0), Some(vec![3]));
        let r = p.reserve(0, 1, false, (0, 0));
        assert_ne!(r, 0);
        assert_eq!(p.pipes[0].occupied(), 1);
        p.commit(r);
        assert_eq!(p.pipes[0].occupied(), 0);
        assert_eq!(p.reserve(0, 1, false, (0, 0)), 0, "empty");
    }
}
