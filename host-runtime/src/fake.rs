//! A board in Rust for the unit tests: it decodes UARTBone frames like `Stream2Wishbone` and
//! serves them from a word memory, with a hook for registers that act.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use crate::{Error, Result, Transport};

type Hook = Box<dyn FnMut(u32, u32, &mut BTreeMap<u32, u32>)>;

#[derive(Default)]
pub struct FakeBoard {
    /// Byte address -> word.
    pub mem: BTreeMap<u32, u32>,
    /// Every byte the host sent.
    pub sent: Vec<u8>,
    /// Every write, in order: (byte address, value).
    pub writes: Vec<(u32, u32)>,
    /// Time the host let pass.
    pub paused: Duration,
    /// Answer nothing.
    pub mute: bool,
    /// Called after each write with (byte address, value, memory).
    pub hook: Option<Hook>,
    rx: Vec<u8>,
    tx: VecDeque<u8>,
}

impl FakeBoard {
    fn decode(&mut self) {
        loop {
            if self.rx.len() < 6 {
                return;
            }
            let (cmd, len) = (self.rx[0], self.rx[1] as usize);
            let addr = 4 * u32::from_be_bytes([self.rx[2], self.rx[3], self.rx[4], self.rx[5]]);
            match cmd {
                0x01 => {
                    if self.rx.len() < 6 + 4 * len {
                        return;
                    }
                    for i in 0..len {
                        let b = &self.rx[6 + 4 * i..10 + 4 * i];
                        let v = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                        let a = addr + 4 * i as u32;
                        self.mem.insert(a, v);
                        self.writes.push((a, v));
                        if let Some(h) = &mut self.hook {
                            h(a, v, &mut self.mem);
                        }
                    }
                    self.rx.drain(..6 + 4 * len);
                }
                0x02 => {
                    for i in 0..len {
                        let v = self.mem.get(&(addr + 4 * i as u32)).copied().unwrap_or(0);
                        if !self.mute {
                            self.tx.extend(v.to_be_bytes());
                        }
                    }
                    self.rx.drain(..6);
                }
                other => panic!("fake board: command {other:#x}"),
            }
        }
    }
}

impl Transport for FakeBoard {
    fn send(&mut self, bytes: &[u8]) -> Result<()> {
        self.sent.extend_from_slice(bytes);
        self.rx.extend_from_slice(bytes);
        self.decode();
        Ok(())
    }

    fn recv(&mut self, buf: &mut [u8], timeout: Duration, what: &str) -> Result<()> {
        if self.tx.len() < buf.len() {
            return Err(Error::Timeout {
                link: self.describe(),
                what: what.to_string(),
                timeout,
                got: self.tx.len(),
                want: buf.len(),
            });
        }
        for b in buf.iter_mut() {
            *b = self.tx.pop_front().unwrap_or(0);
        }
        Ok(())
    }

    fn pause(&mut self, d: Duration) -> Result<()> {
        self.paused += d;
        Ok(())
    }

    fn discard_input(&mut self) -> Result<()> {
        self.tx.clear();
        Ok(())
    }

    fn describe(&self) -> String {
        "the fake board".to_string()
    }
}
