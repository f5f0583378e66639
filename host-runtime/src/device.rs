//! The device API: a board system behind a [`Bridge`].

use std::time::Duration;

use crate::{BoardInfo, Bridge, Error, Result, Transport, MAGIC};

/// A kernel of the board (register bank `k_<name>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    bank: String,
}

/// What a finished launch reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunInfo {
    /// Clock cycles the kernel was busy (its `cycles_lo/hi` registers).
    pub cycles: u64,
}

/// An open board system (see the crate docs).
pub struct Device<T: Transport> {
    bridge: Bridge<T>,
    info: BoardInfo,
    /// Next free SDRAM offset of [`Device::alloc`].
    heap: u64,
    /// Buffers allocated since the last [`Device::free_all`].
    buffers: u32,
}

const CTRL_BUSY: u32 = 1;
const CTRL_DONE: u32 = 2;

impl<T: Transport> Device<T> {
    /// Opens the board behind `link`: checks that it runs an oclhls system (`oclhls_magic`)
    /// and, when `info.build_id` is set, this very build (`oclhls_build_id`).
    pub fn open(link: T, info: BoardInfo) -> Result<Device<T>> {
        let mut d = Device {
            bridge: Bridge::new(link),
            info,
            heap: 0,
            buffers: 0,
        };
        let magic = d.read_reg("oclhls_magic")?;
        if magic != MAGIC {
            return Err(Error::NotOclhls { got: magic });
        }
        if let Some(want) = d.info.build_id {
            let got = d.read_reg("oclhls_build_id")?;
            if got != want {
                return Err(Error::WrongBitstream { got, want });
            }
        }
        Ok(d)
    }

    pub fn info(&self) -> &BoardInfo {
        &self.info
    }

    pub fn bridge(&mut self) -> &mut Bridge<T> {
        &mut self.bridge
    }

    pub fn read_reg(&mut self, name: &str) -> Result<u32> {
        let a = self.info.register(name)?;
        self.bridge.read_word(a)
    }

    pub fn write_reg(&mut self, name: &str, value: u32) -> Result<()> {
        let a = self.info.register(name)?;
        self.bridge.write_word(a, value)
    }

    /// Initialises the SDRAM: replays LiteDRAM's init sequence through the `sdram_dfii_*`
    /// registers (as LiteX's `sdram_init()` does on a CPU), hands the DFI back to the
    /// controller, and checks a few words of memory.
    pub fn init_memory(&mut self) -> Result<()> {
        let init = self.info.sdram_init.clone();
        let hz = self.info.clock_hz.max(1) as f64;
        self.write_reg("sdram_dfii_control", init.software_control)?;
        for s in &init.steps {
            self.write_reg("sdram_dfii_pi0_address", s.address)?;
            self.write_reg("sdram_dfii_pi0_baddress", s.bank)?;
            if s.control {
                self.write_reg("sdram_dfii_control", s.value)?;
            } else {
                self.write_reg("sdram_dfii_pi0_command", s.value)?;
                self.write_reg("sdram_dfii_pi0_command_issue", 1)?;
            }
            if s.delay > 0 {
                let d = Duration::from_secs_f64(s.delay as f64 / hz);
                self.bridge.link().pause(d)?;
            }
        }
        self.write_reg("sdram_dfii_control", init.hardware_control)?;
        self.check_memory()
    }

    /// Writes and reads back a pattern at the start, middle and end of the SDRAM (different
    /// banks and rows): a board whose SDRAM did not come up fails here, not in a kernel.
    fn check_memory(&mut self) -> Result<()> {
        let (base, size) = self.info.main_ram;
        let spots = [0, size / 2 + 0x400, size - 16];
        for (i, off) in spots.iter().enumerate() {
            let pattern: Vec<u32> = (0..4u32)
                .map(|j| 0x5a5a_0000 ^ (i as u32) << 8 ^ j.wrapping_mul(0x0101_0101))
                .collect();
            self.bridge.write(base + off, &pattern)?;
            let back = self.bridge.read(base + off, 4)?;
            if let Some(j) = (0..4).find(|&j| back[j] != pattern[j]) {
                return Err(Error::MemoryCheck {
                    addr: base + off + 4 * j as u32,
                    wrote: pattern[j],
                    read: back[j],
                });
            }
        }
        Ok(())
    }

    /// Reserves `len` bytes of SDRAM aligned to `align` (a power of two, at least 4) and
    /// returns their offset: the value of a pointer argument. Offset 0 is never returned.
    ///
    /// When the build says how addresses map to banks, the k-th buffer starts in bank
    /// `k mod banks`, at the start of a bank stripe: a kernel streaming through several
    /// buffers at the same index (`c[i] = a[i] + b[i]`) then finds each stream in a bank of
    /// its own, whose open row it keeps, instead of closing another stream's row at every
    /// access (docs/benchmarks.md, "Board simulation"). At most `banks` stripes (4 KB on the
    /// ULX3S) are left between buffers.
    pub fn alloc(&mut self, len: usize, align: u32) -> Result<u32> {
        let align = u64::from(align.max(4));
        let mut start = self.heap.max(64).next_multiple_of(align);
        if let Some(g) = self.info.sdram_init.geometry {
            let stripe = u64::from(g.bank_stripe_bytes.max(1));
            let round = stripe * u64::from(g.banks.max(1));
            let bank = u64::from(self.buffers % g.banks.max(1));
            // The first start of a stripe of that bank at or after `start`.
            let mut at = start - start % round + bank * stripe;
            if at < start {
                at += round;
            }
            start = at.next_multiple_of(align);
        }
        let size = u64::from(self.info.main_ram.1);
        if start + len as u64 > size {
            return Err(Error::OutOfMemory {
                len,
                free: size.saturating_sub(start) as u32,
            });
        }
        self.heap = start + len as u64;
        self.buffers += 1;
        Ok(start as u32)
    }

    /// Forgets every allocation.
    pub fn free_all(&mut self) {
        self.heap = 0;
        self.buffers = 0;
    }

    fn check_range(&self, offset: u32, len: usize) -> Result<()> {
        let size = self.info.main_ram.1;
        if u64::from(offset) + len as u64 > u64::from(size) {
            return Err(Error::OutOfRange {
                offset: u64::from(offset),
                len,
                size,
            });
        }
        Ok(())
    }

    /// Writes `data` at SDRAM byte offset `offset` (any alignment: partial words at the ends
    /// are read, merged and written back).
    pub fn write(&mut self, offset: u32, data: &[u8]) -> Result<()> {
        self.check_range(offset, data.len())?;
        if data.is_empty() {
            return Ok(());
        }
        let base = self.info.main_ram.0;
        let first = offset & !3;
        let end = offset as usize + data.len();
        let last = end.next_multiple_of(4);
        let mut bytes = vec![0u8; last - first as usize];
        let head = (offset - first) as usize;
        if head != 0 {
            let w = self.bridge.read_word(base + first)?;
            bytes[..4].copy_from_slice(&w.to_le_bytes());
        }
        if last != end && (last - 4 >= first as usize + 4 || head == 0) {
            let w = self.bridge.read_word(base + (last - 4) as u32)?;
            let n = bytes.len();
            bytes[n - 4..].copy_from_slice(&w.to_le_bytes());
        }
        bytes[head..head + data.len()].copy_from_slice(data);
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        self.bridge.write(base + first, &words)
    }

    /// Reads `len` bytes at SDRAM byte offset `offset`.
    pub fn read(&mut self, offset: u32, len: usize) -> Result<Vec<u8>> {
        self.check_range(offset, len)?;
        if len == 0 {
            return Ok(Vec::new());
        }
        let first = offset & !3;
        let end = offset as usize + len;
        let n = (end.next_multiple_of(4) - first as usize) / 4;
        let words = self.bridge.read(self.info.main_ram.0 + first, n)?;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let head = (offset - first) as usize;
        Ok(bytes[head..head + len].to_vec())
    }

    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Result<Kernel> {
        let bank = format!("k_{name}");
        if !self.info.registers.contains_key(&format!("{bank}_ctrl")) {
            return Err(Error::NoKernel(name.to_string()));
        }
        Ok(Kernel {
            name: name.to_string(),
            bank,
        })
    }

    /// The register bank `k_<name>` of inputs that is not a kernel (no control word): the
    /// system's shared counters (`counters`: the address of each counter's buffer,
    /// docs/hardware-interface.md, "Shared atomic counters"), for [`Device::set_input`].
    pub fn bank(&self, name: &str) -> Result<Kernel> {
        let bank = format!("k_{name}");
        let prefix = format!("{bank}_");
        if !self.info.registers.keys().any(|r| r.starts_with(&prefix)) {
            return Err(Error::NoKernel(name.to_string()));
        }
        Ok(Kernel {
            name: name.to_string(),
            bank,
        })
    }

    /// Sets input `port` of kernel `k` (`arg_x`, `global_size_0`, ...) from little-endian
    /// 32-bit words: register `<port>` for an input of up to 32 bits, else `<port>_w0`,
    /// `<port>_w1`, ... (docs/hardware-interface.md, "Registers"). Missing high words are 0.
    pub fn set_input(&mut self, k: &Kernel, port: &str, words: &[u32]) -> Result<()> {
        let single = format!("{}_{port}", k.bank);
        if self.info.registers.contains_key(&single) {
            return self.write_reg(&single, words.first().copied().unwrap_or(0));
        }
        let mut i = 0;
        while let Some(&a) = self.info.registers.get(&format!("{single}_w{i}")) {
            self.bridge
                .write_word(a, words.get(i).copied().unwrap_or(0))?;
            i += 1;
        }
        if i == 0 {
            return Err(Error::NoRegister(single));
        }
        Ok(())
    }

    /// Whether kernel `k` has input `port` (an argument the kernel never uses has none).
    pub fn has_input(&self, k: &Kernel, port: &str) -> bool {
        let single = format!("{}_{port}", k.bank);
        self.info.registers.contains_key(&single)
            || self.info.registers.contains_key(&format!("{single}_w0"))
    }

    /// The control word of `k`: bit 0 busy, bit 1 done (since the last start), bit 2 idle.
    pub fn status(&mut self, k: &Kernel) -> Result<u32> {
        self.read_reg(&format!("{}_ctrl", k.bank))
    }

    /// Starts `k` (its inputs hold their values from earlier `set_input`s).
    pub fn start(&mut self, k: &Kernel) -> Result<()> {
        if self.status(k)? & CTRL_BUSY != 0 {
            return Err(Error::Busy(k.name.clone()));
        }
        self.write_reg(&format!("{}_ctrl", k.bank), 1)
    }

    /// Waits until `k` is done (polling its control word every 200 µs, or every twentieth
    /// of a shorter timeout), at most `timeout` of board time.
    pub fn wait(&mut self, k: &Kernel, timeout: Duration) -> Result<RunInfo> {
        let poll = (timeout / 20).clamp(Duration::from_micros(1), Duration::from_micros(200));
        let mut waited = Duration::ZERO;
        loop {
            let ctrl = self.status(k)?;
            if ctrl & CTRL_DONE != 0 && ctrl & CTRL_BUSY == 0 {
                return Ok(RunInfo {
                    cycles: self.cycles(k)?,
                });
            }
            if waited >= timeout {
                return Err(Error::KernelTimeout {
                    kernel: k.name.clone(),
                    timeout,
                    ctrl,
                    cycles: self.cycles(k)?,
                });
            }
            self.bridge.link().pause(poll)?;
            waited += poll;
        }
    }

    /// Cycles `k` was busy in its last (or current) run.
    pub fn cycles(&mut self, k: &Kernel) -> Result<u64> {
        let lo = self.read_reg(&format!("{}_cycles_lo", k.bank))?;
        let hi = self.read_reg(&format!("{}_cycles_hi", k.bank))?;
        Ok(u64::from(hi) << 32 | u64::from(lo))
    }

    /// Gives the transport back (the simulated board's statistics, for instance).
    pub fn into_link(self) -> T {
        self.bridge.into_link()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board_info::tests::{CSV, INIT};
    use crate::fake::FakeBoard;

    fn board() -> FakeBoard {
        let mut b = FakeBoard::default();
        b.mem.insert(0x1800, MAGIC);
        b.mem.insert(0x1804, 0x1234_5678);
        b
    }

    fn info(id: Option<u32>) -> BoardInfo {
        BoardInfo::parse(CSV, INIT, id).unwrap()
    }

    #[test]
    fn open_checks_magic_and_build_id() {
        assert!(Device::open(board(), info(Some(0x1234_5678))).is_ok());
        let e = Device::open(board(), info(Some(1)))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("build id is 0x12345678, this build's is 0x00000001"),
            "{e}"
        );
        let e = Device::open(FakeBoard::default(), info(None))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("does not run an oclhls system"), "{e}");
    }

    #[test]
    fn init_replays_litedram_sequence_then_checks_memory() {
        let mut d = Device::open(board(), info(None)).unwrap();
        d.init_memory().unwrap();
        let link = d.into_link();
        let regs: Vec<(u32, u32)> = link
            .writes
            .iter()
            .copied()
            .filter(|(a, _)| *a < 0x4000_0000)
            .collect();
        // software control, then per step address, bank and control or command + issue.
        let want = vec![
            (0x2000, 14),
            (0x200c, 0),
            (0x2010, 0),
            (0x2000, 14),
            (0x200c, 1024),
            (0x2010, 0),
            (0x2004, 11),
            (0x2008, 1),
            (0x200c, 32),
            (0x2010, 0),
            (0x2004, 15),
            (0x2008, 1),
            (0x2000, 1),
        ];
        assert_eq!(regs, want);
        // 20200 cycles at 50 MHz.
        assert_eq!(link.paused, Duration::from_nanos(404_000));
        assert!(link.writes.iter().any(|(a, _)| *a >= 0x4000_0000));
    }

    #[test]
    fn unaligned_writes_merge_partial_words() {
        let mut b = board();
        b.mem.insert(0x4000_0100, 0xaabb_ccdd);
        b.mem.insert(0x4000_0104, 0x1122_3344);
        let mut d = Device::open(b, info(None)).unwrap();
        d.write(0x101, &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(d.read(0x100, 8).unwrap(), [0xdd, 1, 2, 3, 4, 5, 0x22, 0x11]);
        assert_eq!(d.read(0x102, 1).unwrap(), [2]);
        d.write(0x105, &[9]).unwrap();
        assert_eq!(d.read(0x104, 4).unwrap(), [4, 9, 0x22, 0x11]);
        let e = d.write(32 << 20, &[1]).unwrap_err().to_string();
        assert!(e.contains("do not fit"), "{e}");
    }

    #[test]
    fn alloc_is_aligned_and_bounded() {
        let mut d = Device::open(board(), info(None)).unwrap();
        let a = d.alloc(10, 4).unwrap();
        let b = d.alloc(4, 64).unwrap();
        assert!(a >= 64 && a.is_multiple_of(4) && b >= a + 10 && b.is_multiple_of(64));
        assert!(d.alloc(64 << 20, 4).is_err());
    }

    #[test]
    fn buffers_start_in_successive_banks() {
        // 4 banks of 1 KB stripes (INIT's geometry): buffer k starts in bank k mod 4.
        let mut d = Device::open(board(), info(None)).unwrap();
        let starts: Vec<u32> = [4096, 4096, 100, 10, 5000]
            .iter()
            .map(|&n| d.alloc(n, 4).unwrap())
            .collect();
        assert_eq!(starts, [4096, 9216, 14336, 15360, 16384]);
        let banks: Vec<u32> = starts.iter().map(|s| s / 1024 % 4).collect();
        assert_eq!(banks, [0, 1, 2, 3, 0]);
        d.free_all();
        assert_eq!(d.alloc(8, 4).unwrap(), 4096);
        // Without a geometry (builds before it was recorded) buffers are packed.
        let mut plain = info(None);
        plain.sdram_init.geometry = None;
        let mut d = Device::open(board(), plain).unwrap();
        assert_eq!(d.alloc(10, 4).unwrap(), 64);
        assert_eq!(d.alloc(10, 4).unwrap(), 76);
    }

    #[test]
    fn launch_sets_inputs_starts_and_waits() {
        let mut b = board();
        // The kernel finishes as soon as it is started, after 1234 cycles.
        b.hook = Some(Box::new(|a, v, mem| {
            if a == 0x1000 && v & 1 == 1 {
                mem.insert(0x1000, CTRL_DONE | 4);
                mem.insert(0x1004, 1234);
            }
        }));
        b.mem.insert(0x1000, 4);
        let mut d = Device::open(b, info(None)).unwrap();
        let k = d.kernel("vadd").unwrap();
        assert!(d.kernel("nope").is_err());
        d.set_input(&k, "arg_a", &[0x40]).unwrap();
        d.set_input(&k, "arg_wide", &[1, 2, 3]).unwrap();
        assert!(d.set_input(&k, "arg_z", &[1]).is_err());
        assert!(d.has_input(&k, "arg_wide") && !d.has_input(&k, "arg_z"));
        d.start(&k).unwrap();
        let r = d.wait(&k, Duration::from_millis(1)).unwrap();
        assert_eq!(r.cycles, 1234);
        let link = d.into_link();
        assert!(link.writes.contains(&(0x101c, 0x40)));
        assert!(link.writes.contains(&(0x1020, 1)) && link.writes.contains(&(0x1024, 2)));
    }

    #[test]
    fn a_kernel_that_never_finishes_times_out_with_its_status() {
        let mut b = board();
        b.mem.insert(0x1000, 4);
        b.hook = Some(Box::new(|a, _, mem| {
            if a == 0x1000 {
                mem.insert(0x1000, CTRL_BUSY);
            }
        }));
        let mut d = Device::open(b, info(None)).unwrap();
        let k = d.kernel("vadd").unwrap();
        d.start(&k).unwrap();
        let e = d
            .wait(&k, Duration::from_millis(1))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("did not finish") && e.contains("busy 1, done 0"),
            "{e}"
        );
        assert!(matches!(d.start(&k), Err(Error::Busy(_))));
    }
}
