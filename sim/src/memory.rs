//! Global memory as the kernel sees it: a flat, little-endian, 32-bit byte-addressed space.
//!
//! Buffers are allocated upwards from 0x1000 with a guard gap between them; page 0 is never
//! allocated, so a null (or small) pointer faults. Only bytes inside an allocation are
//! accessible, to the kernel and to the host helpers alike: an access that strays into a gap
//! is an error rather than silently touching a neighbouring buffer.
//!
//! The k-th buffer starts in SDRAM bank `k mod BANKS` (at a bank stripe), as the board's host
//! runtime places them (`host_runtime::Device::alloc`): a kernel streaming through several
//! buffers at the same index then finds each stream in a bank of its own, in the SDRAM
//! timing model (`run::sdram`) and on the board, where the same addresses are used.

use crate::{FaultKind, SimError};

/// First allocatable address.
const BASE: u64 = 0x1000;
/// Unallocated bytes after every buffer, so overruns fault.
const GUARD: u64 = 64;
const LIMIT: u64 = 1 << 32;
/// Bytes of one bank's run of consecutive addresses, and banks: the ULX3S SDRAM's
/// (MT48LC16M16A2, 512 columns of 16 bits, 4 banks) through LiteDRAM's `ROW_BANK_COL`
/// mapping, and `run::sdram::SdramConfig`'s default.
const BANK_STRIPE: u64 = 1024;
const BANKS: u64 = 4;

#[derive(Clone, Copy, Debug)]
struct Alloc {
    start: u64,
    len: u64,
}

/// The device's global memory as the testbench models it: byte memory with allocations, shared
/// by the host helpers and the memory servers. Addresses are `u32` like the kernel's.
#[derive(Clone, Debug)]
pub struct GlobalMemory {
    /// Indexed by address; the first `BASE` bytes are never used.
    bytes: Vec<u8>,
    /// Sorted by `start` (allocation is a bump pointer).
    allocs: Vec<Alloc>,
    next: u64,
}

impl Default for GlobalMemory {
    fn default() -> Self {
        GlobalMemory::new()
    }
}

impl GlobalMemory {
    pub fn new() -> GlobalMemory {
        GlobalMemory {
            bytes: Vec::new(),
            allocs: Vec::new(),
            next: BASE,
        }
    }

    /// Allocates `len` zeroed bytes aligned to `align` (a power of two) and returns the
    /// address. Never returns an address below 0x1000.
    pub fn alloc(&mut self, len: usize, align: u32) -> Result<u32, SimError> {
        assert!(
            align.is_power_of_two(),
            "alignment {align} is not a power of two"
        );
        let round = BANK_STRIPE * BANKS;
        let bank = self.allocs.len() as u64 % BANKS;
        let mut start = self.next - self.next % round + bank * BANK_STRIPE;
        if start < self.next {
            start += round;
        }
        let start = start.next_multiple_of(u64::from(align));
        let end = start + len as u64;
        if end > LIMIT {
            return Err(SimError::HostAccess {
                addr: start,
                len,
                detail: "the 4 GiB address space is exhausted".into(),
            });
        }
        self.allocs.push(Alloc {
            start,
            len: len as u64,
        });
        self.next = end + GUARD;
        if self.bytes.len() < end as usize {
            self.bytes.resize(end as usize, 0);
        }
        Ok(start as u32)
    }

    /// Allocates a buffer holding `values`, aligned to the element size.
    pub fn alloc_init<T: Element>(&mut self, values: &[T]) -> Result<u32, SimError> {
        let addr = self.alloc(values.len() * T::SIZE, T::SIZE as u32)?;
        self.write(addr, values)?;
        Ok(addr)
    }

    /// Checks that `[addr, addr + len)` lies inside one allocation.
    pub fn check(&self, addr: u32, len: u32) -> Result<(), (FaultKind, String)> {
        let (addr, len) = (u64::from(addr), u64::from(len));
        let i = self.allocs.partition_point(|a| a.start <= addr);
        if i > 0 {
            let a = self.allocs[i - 1];
            if addr + len <= a.start + a.len {
                return Ok(());
            }
            if addr < a.start + a.len {
                return Err((
                    FaultKind::OutOfBounds,
                    format!(" (buffer {:#010x}, {} bytes)", a.start, a.len),
                ));
            }
            let past = addr - (a.start + a.len);
            return Err((
                FaultKind::Unallocated,
                format!(
                    " ({past} bytes past the end of buffer {:#010x}, {} bytes)",
                    a.start, a.len
                ),
            ));
        }
        let detail = match self.allocs.first() {
            _ if addr < BASE => " (page 0 is never allocated: a null pointer?)".to_string(),
            Some(a) => format!(" (below the first buffer {:#010x})", a.start),
            None => " (nothing is allocated)".to_string(),
        };
        Err((FaultKind::Unallocated, detail))
    }

    fn host_check(&self, addr: u32, len: usize) -> Result<std::ops::Range<usize>, SimError> {
        let err = |detail: String| SimError::HostAccess {
            addr: u64::from(addr),
            len,
            detail,
        };
        let len32 = u32::try_from(len).map_err(|_| err("longer than 4 GiB".into()))?;
        self.check(addr, len32).map_err(|(kind, detail)| {
            err(format!("{}{detail}", crate::describe_fault(kind, len32)))
        })?;
        Ok(addr as usize..addr as usize + len)
    }

    pub fn read_bytes(&self, addr: u32, len: usize) -> Result<&[u8], SimError> {
        let r = self.host_check(addr, len)?;
        Ok(&self.bytes[r])
    }

    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), SimError> {
        let r = self.host_check(addr, data.len())?;
        self.bytes[r].copy_from_slice(data);
        Ok(())
    }

    /// Reads `n` little-endian elements.
    pub fn read<T: Element>(&self, addr: u32, n: usize) -> Result<Vec<T>, SimError> {
        let bytes = self.read_bytes(addr, n * T::SIZE)?;
        Ok(bytes.chunks_exact(T::SIZE).map(T::from_le).collect())
    }

    /// Writes little-endian elements.
    pub fn write<T: Element>(&mut self, addr: u32, values: &[T]) -> Result<(), SimError> {
        let r = self.host_check(addr, values.len() * T::SIZE)?;
        for (chunk, v) in self.bytes[r].chunks_exact_mut(T::SIZE).zip(values) {
            v.to_le(chunk);
        }
        Ok(())
    }

    /// Unchecked view for the memory servers, after [`GlobalMemory::check`].
    pub(crate) fn slice(&self, addr: u32, len: u32) -> &[u8] {
        &self.bytes[addr as usize..(addr + len) as usize]
    }

    pub(crate) fn slice_mut(&mut self, addr: u32, len: u32) -> &mut [u8] {
        &mut self.bytes[addr as usize..(addr + len) as usize]
    }
}

/// A plain value stored little-endian in memory.
pub trait Element: Copy {
    const SIZE: usize;
    fn to_le(self, out: &mut [u8]);
    fn from_le(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn to_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("element size"))
            }
        }
    )*};
}
element!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_guarded_and_checked() {
        let mut m = GlobalMemory::new();
        let a = m.alloc_init(&[1u32, 2, 3, 4]).unwrap();
        let b = m.alloc(10, 256).unwrap();
        assert!(a >= 0x1000 && a.is_multiple_of(4));
        assert_eq!(b % 256, 0);
        assert!(u64::from(b) >= u64::from(a) + 16 + GUARD);
        assert_eq!(m.read::<u32>(a, 4).unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(m.read::<u8>(b, 10).unwrap(), vec![0; 10]);
        m.write(a + 4, &[-7i32]).unwrap();
        assert_eq!(m.read::<i32>(a + 4, 1).unwrap(), vec![-7]);
        m.write(b, &[1.5f32]).unwrap();
        assert_eq!(m.read::<f32>(b, 1).unwrap(), vec![1.5]);

        assert!(m.check(a + 12, 4).is_ok());
        let (k, d) = m.check(a + 14, 4).unwrap_err();
        assert_eq!(k, FaultKind::OutOfBounds, "{d}");
        let (k, d) = m.check(a + 16, 4).unwrap_err();
        assert_eq!(k, FaultKind::Unallocated);
        assert!(d.contains("0 bytes past the end"), "{d}");
        let (k, d) = m.check(0, 4).unwrap_err();
        assert_eq!(k, FaultKind::Unallocated);
        assert!(d.contains("null"), "{d}");
        assert!(m.read::<u32>(a, 5).is_err());
        let e = m.write(b + 8, &[0u32]).unwrap_err().to_string();
        assert!(e.contains("runs past the end"), "{e}");
    }

    #[test]
    fn buffers_start_in_successive_banks() {
        let mut m = GlobalMemory::new();
        let starts: Vec<u32> = [4096, 4096, 100, 10, 8]
            .iter()
            .map(|&n| m.alloc(n, 4).unwrap())
            .collect();
        assert_eq!(starts, [0x1000, 0x2400, 0x3800, 0x3c00, 0x4000]);
        let banks: Vec<u64> = starts
            .iter()
            .map(|&s| u64::from(s) / BANK_STRIPE % BANKS)
            .collect();
        assert_eq!(banks, [0, 1, 2, 3, 0]);
    }

    #[test]
    fn address_space_is_bounded() {
        let mut m = GlobalMemory::new();
        // Allocation is lazy in the address space only up to what is used: keep this small.
        assert!(m.alloc(usize::MAX / 2, 1).is_err());
    }
}
