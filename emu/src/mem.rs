//! The emulated 32-bit address space.
//!
//! One flat space so that generic pointers and pointer arithmetic need no tags:
//! - `0 .. GLOBAL_BASE`: never mapped (a null pointer dereference is out of bounds);
//! - `GLOBAL_BASE .. LOCAL_BASE`: global buffers and constant program-scope data, each on its
//!   own 4 KiB-aligned range followed by an unmapped guard gap, so running off the end of one
//!   buffer never lands in another;
//! - `LOCAL_BASE .. PRIVATE_BASE`: the local memory of the work-group (each work-group has
//!   its own storage behind the same addresses);
//! - `PRIVATE_BASE ..`: the private memory of the work-item (likewise per work-item).

pub const GLOBAL_BASE: u32 = 0x0001_0000;
pub const LOCAL_BASE: u32 = 0x8000_0000;
pub const PRIVATE_BASE: u32 = 0xC000_0000;
const GUARD: u32 = 0x1000;

/// Largest private memory of one work-item.
pub const PRIVATE_LIMIT: u32 = 1 << 20;

#[derive(Debug)]
pub struct Region {
    pub base: u32,
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Global and constant memory: the buffers of the run and the program's constant data.
#[derive(Debug, Default)]
pub struct GlobalMem {
    /// Sorted by base.
    pub regions: Vec<Region>,
    next: u64,
}

/// Where an access falls.
pub enum Hit {
    Ok {
        region: usize,
        offset: usize,
    },
    /// Not inside any region; the note describes the nearest one.
    Miss(String),
}

impl GlobalMem {
    /// Maps a new region; `None` when the address space is exhausted.
    pub fn alloc(&mut self, name: &str, bytes: Vec<u8>) -> Option<u32> {
        if self.next == 0 {
            self.next = GLOBAL_BASE as u64;
        }
        let base = self.next;
        let end = base + bytes.len() as u64;
        let next = end.div_ceil(GUARD as u64) * GUARD as u64 + GUARD as u64;
        if next > LOCAL_BASE as u64 {
            return None;
        }
        self.next = next;
        self.regions.push(Region {
            base: base as u32,
            name: name.to_string(),
            bytes,
        });
        Some(base as u32)
    }

    pub fn find(&self, addr: u32, len: u32) -> Hit {
        let i = self.regions.partition_point(|r| r.base <= addr);
        if i == 0 {
            return Hit::Miss(match self.regions.first() {
                Some(r) => describe(r, "the first buffer"),
                None => "no global memory is mapped".to_string(),
            });
        }
        let r = &self.regions[i - 1];
        let off = (addr - r.base) as u64;
        if off + len as u64 <= r.bytes.len() as u64 {
            Hit::Ok {
                region: i - 1,
                offset: off as usize,
            }
        } else {
            Hit::Miss(describe(r, "the nearest buffer below"))
        }
    }
}

fn describe(r: &Region, what: &str) -> String {
    format!(
        "{what} is {} at {:#010x}..{:#010x} ({} bytes)",
        r.name,
        r.base,
        r.base as u64 + r.bytes.len() as u64,
        r.bytes.len()
    )
}
