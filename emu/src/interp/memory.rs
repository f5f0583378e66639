//! Memory access of a work-item: bounds- and alignment-checked reads and writes of private
//! memory (its own), local memory (its work-group's) and global memory (the run's regions),
//! typed loads and stores, and allocation of private memory.

use super::{Item, R};
use crate::mem::{Hit, LOCAL_BASE, PRIVATE_BASE, PRIVATE_LIMIT};
use crate::value::{self, to_bytes, Val};
use frontend::ast::Type;
use frontend::Span;

impl Item<'_> {
    /// Reads (`data = None`) or writes bytes with bounds and alignment checks.
    pub fn access(
        &mut self,
        addr: u32,
        len: u32,
        align: u32,
        span: Span,
        data: Option<&[u8]>,
    ) -> R<Vec<u8>> {
        let what = if data.is_some() { "write" } else { "read" };
        if align > 1 && !addr.is_multiple_of(align) {
            return Err(self.err(
                span,
                format!(
                    "misaligned {what} of {len} bytes at address {addr:#010x} (needs {align}-byte \
                     alignment)"
                ),
            ));
        }
        let oob = |me: &Self, note: String| {
            me.err(
                span,
                format!("out-of-bounds {what} of {len} bytes at address {addr:#010x}"),
            )
            .with_note(note)
        };
        if addr >= PRIVATE_BASE {
            let off = (addr - PRIVATE_BASE) as usize;
            if off + len as usize > self.private.len() {
                return Err(oob(
                    self,
                    format!(
                        "private memory of this work-item is {:#010x}..{:#010x}",
                        PRIVATE_BASE,
                        PRIVATE_BASE as usize + self.private.len()
                    ),
                ));
            }
            let m = &mut self.private[off..off + len as usize];
            return Ok(match data {
                Some(d) => {
                    m.copy_from_slice(d);
                    Vec::new()
                }
                None => m.to_vec(),
            });
        }
        let key = (self.id.launch, self.id.group_linear);
        let mut sh = self.lock();
        if addr >= LOCAL_BASE {
            let off = (addr - LOCAL_BASE) as usize;
            let local = &mut sh.groups.entry(key).or_default().local;
            let size = local.len();
            if off + len as usize > size {
                drop(sh);
                return Err(oob(
                    self,
                    format!(
                        "local memory of this work-group is {:#010x}..{:#010x} ({size} bytes)",
                        LOCAL_BASE,
                        LOCAL_BASE as usize + size
                    ),
                ));
            }
            let m = &mut local[off..off + len as usize];
            return Ok(match data {
                Some(d) => {
                    m.copy_from_slice(d);
                    Vec::new()
                }
                None => m.to_vec(),
            });
        }
        match sh.global.find(addr, len) {
            Hit::Ok { region, offset } => {
                let m = &mut sh.global.regions[region].bytes[offset..offset + len as usize];
                Ok(match data {
                    Some(d) => {
                        m.copy_from_slice(d);
                        Vec::new()
                    }
                    None => m.to_vec(),
                })
            }
            Hit::Miss(note) => {
                drop(sh);
                let note = if addr < 0x1000 {
                    "a null (or nearly null) pointer".to_string()
                } else {
                    note
                };
                Err(oob(self, note))
            }
        }
    }

    pub fn load(&mut self, addr: u32, t: &Type, span: Span) -> R<Val> {
        let size = self.size_of(t);
        let bytes = self.access(addr, size, self.align_of(t), span, None)?;
        Ok(value::from_bytes(&bytes, t))
    }

    pub fn store(&mut self, addr: u32, t: &Type, v: &Val, span: Span) -> R<()> {
        let bytes = to_bytes(v, t, &self.prog.structs);
        self.access(
            addr,
            bytes.len() as u32,
            self.align_of(t),
            span,
            Some(&bytes),
        )?;
        Ok(())
    }

    /// Allocates private memory for an object of type `t`.
    pub fn alloc_private(&mut self, t: &Type, span: Span) -> R<u32> {
        let align = self.align_of(t).max(1);
        let size = self.size_of(t);
        let start = self.sp.div_ceil(align) * align;
        let end = start as u64 + size as u64;
        if end > PRIVATE_LIMIT as u64 {
            return Err(self.err(
                span,
                format!(
                    "private memory exhausted ({} bytes per work-item)",
                    PRIVATE_LIMIT
                ),
            ));
        }
        self.sp = end as u32;
        if self.private.len() < end as usize {
            self.private.resize(end as usize, 0);
        }
        Ok(PRIVATE_BASE + start)
    }
}
