//! LiteX's UARTBone protocol (`litex/soc/cores/uart.py`, `Stream2Wishbone`, as in LiteX
//! 2024.12; its host side is `litex/tools/remote/comm_uart.py`).
//!
//! A frame from the host is `cmd, length, address (4 bytes, big-endian), data`: `cmd` 0x01
//! writes `length` 32-bit words at consecutive word addresses (each word big-endian after the
//! header), 0x02 reads them (the board answers `4 * length` bytes, each word big-endian); 0x03
//! and 0x04 are the same at a fixed address. The address is in 32-bit words (byte address / 4);
//! writes are not acknowledged. A length of 0 means 256 words in the RTL, so frames here carry
//! 1 to [`MAX_BURST_WORDS`] words. The board's state machine returns to waiting for a command
//! 100 ms after a frame stalls, so a truncated frame is recovered by waiting that long.

use std::time::Duration;

use crate::{Result, Transport};

const CMD_WRITE: u8 = 0x01;
const CMD_READ: u8 = 0x02;

/// The most words one frame carries.
pub const MAX_BURST_WORDS: usize = 255;

/// Bytes moved and frames sent, for transfer-rate figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BridgeStats {
    pub frames: u64,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    /// Data words written and read (the payload, without headers).
    pub words_written: u64,
    pub words_read: u64,
}

/// Wishbone accesses over a [`Transport`].
pub struct Bridge<T: Transport> {
    link: T,
    /// How long a read waits for its answer.
    pub timeout: Duration,
    pub stats: BridgeStats,
}

impl<T: Transport> Bridge<T> {
    pub fn new(link: T) -> Bridge<T> {
        Bridge {
            link,
            timeout: Duration::from_secs(2),
            stats: BridgeStats::default(),
        }
    }

    pub fn link(&mut self) -> &mut T {
        &mut self.link
    }

    pub fn into_link(self) -> T {
        self.link
    }

    fn header(cmd: u8, len: usize, addr: u32) -> [u8; 6] {
        let w = (addr / 4).to_be_bytes();
        [cmd, len as u8, w[0], w[1], w[2], w[3]]
    }

    /// Writes `words` at byte address `addr` (a multiple of 4) and up.
    pub fn write(&mut self, addr: u32, words: &[u32]) -> Result<()> {
        debug_assert!(addr.is_multiple_of(4), "unaligned bridge address {addr:#x}");
        let mut frame = Vec::with_capacity(6 + 4 * words.len().min(MAX_BURST_WORDS));
        for (i, chunk) in words.chunks(MAX_BURST_WORDS).enumerate() {
            frame.clear();
            let a = addr.wrapping_add((4 * MAX_BURST_WORDS * i) as u32);
            frame.extend_from_slice(&Self::header(CMD_WRITE, chunk.len(), a));
            for w in chunk {
                frame.extend_from_slice(&w.to_be_bytes());
            }
            self.link.send(&frame)?;
            self.stats.frames += 1;
            self.stats.bytes_sent += frame.len() as u64;
            self.stats.words_written += chunk.len() as u64;
        }
        Ok(())
    }

    /// Reads `n` words from byte address `addr` (a multiple of 4) and up.
    pub fn read(&mut self, addr: u32, n: usize) -> Result<Vec<u32>> {
        debug_assert!(addr.is_multiple_of(4), "unaligned bridge address {addr:#x}");
        let mut out = Vec::with_capacity(n);
        let mut buf = Vec::new();
        let mut done = 0;
        while done < n {
            let len = (n - done).min(MAX_BURST_WORDS);
            let a = addr.wrapping_add(4 * done as u32);
            self.link.send(&Self::header(CMD_READ, len, a))?;
            self.stats.frames += 1;
            self.stats.bytes_sent += 6;
            buf.resize(4 * len, 0);
            let what = format!("reading {len} words at {a:#010x}");
            if let Err(e) = self.link.recv(&mut buf, self.timeout, &what) {
                // Let the board's state machine time out (100 ms), then drop a late answer.
                let _ = self.link.pause(Duration::from_millis(150));
                let _ = self.link.discard_input();
                return Err(e);
            }
            self.stats.bytes_received += buf.len() as u64;
            self.stats.words_read += len as u64;
            out.extend(
                buf.chunks_exact(4)
                    .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]])),
            );
            done += len;
        }
        Ok(out)
    }

    pub fn write_word(&mut self, addr: u32, value: u32) -> Result<()> {
        self.write(addr, &[value])
    }

    pub fn read_word(&mut self, addr: u32) -> Result<u32> {
        Ok(self.read(addr, 1)?[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake::FakeBoard;

    #[test]
    fn frames_are_litex_uartbone_frames() {
        let mut b = Bridge::new(FakeBoard::default());
        b.write(0x4000_0010, &[0x1122_3344]).unwrap();
        // cmd 1, 1 word, word address 0x10000004 big-endian, data big-endian.
        assert_eq!(
            b.link().sent,
            vec![0x01, 1, 0x10, 0x00, 0x00, 0x04, 0x11, 0x22, 0x33, 0x44]
        );
        b.link().sent.clear();
        assert_eq!(b.read_word(0x4000_0010).unwrap(), 0x1122_3344);
        assert_eq!(b.link().sent, vec![0x02, 1, 0x10, 0x00, 0x00, 0x04]);
    }

    #[test]
    fn long_transfers_split_into_frames_of_255_words() {
        let mut b = Bridge::new(FakeBoard::default());
        let words: Vec<u32> = (0..600u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        b.write(0x4000_0000, &words).unwrap();
        assert_eq!(b.stats.frames, 3);
        assert_eq!(b.stats.bytes_sent, 3 * 6 + 4 * 600);
        assert_eq!(b.read(0x4000_0000, 600).unwrap(), words);
        assert_eq!(b.stats.frames, 6);
        assert_eq!(b.stats.words_read, 600);
    }

    #[test]
    fn a_missing_answer_is_a_timeout_naming_the_read() {
        let mut board = FakeBoard::default();
        board.mute = true;
        let mut b = Bridge::new(board);
        let e = b.read(0x1000, 2).unwrap_err().to_string();
        assert!(e.contains("reading 2 words at 0x00001000"), "{e}");
        assert!(e.contains("got 0 of 8 bytes"), "{e}");
    }
}
