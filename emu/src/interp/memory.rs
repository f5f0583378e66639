//! Memory access of a work-item: bounds- and alignment-checked reads and writes of private
//! memory (its own), local memory (its work-group's) and global memory (the run's regions),
//! typed loads and stores, and allocation of private memory.

use super::{Item, R};
use crate::mem::{Hit, LOCAL_BASE, PRIVATE_BASE, PRIVATE_LIMIT};
use crate::race::{Access, Conflict};
use crate::value::{self, to_bytes, Val};
use crate::EmuError;
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
        if data.is_some() && self.track_races && !self.in_atomic {
            self.race_record(addr, len, false, span)?;
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

    /// Records an atomic access or a plain store of `len` bytes at `addr` (global or local
    /// memory) for the race check of `crate::race`; a race is an error naming both
    /// work-items and both lines.
    pub fn race_record(&mut self, addr: u32, len: u32, atomic: bool, span: Span) -> R<()> {
        if !self.track_races || addr >= PRIVATE_BASE {
            return Ok(());
        }
        let me = Access {
            item: self.global_linear(),
            group: self.id.group_linear,
            gen: self.bar_gen as u32,
            span,
        };
        let key = (self.id.launch, self.id.group_linear);
        let mut sh = self.lock();
        let log = if addr >= LOCAL_BASE {
            &mut sh.groups.entry(key).or_default().races
        } else {
            sh.races.entry(self.id.launch).or_default()
        };
        let conflict = log.record(addr, len, atomic, me);
        drop(sh);
        match conflict {
            None => Ok(()),
            Some(c) => Err(self.race_error(c, atomic, span)),
        }
    }

    fn race_error(&self, c: Conflict, atomic: bool, span: Span) -> EmuError {
        let kind = |a: bool| {
            if a {
                "an atomic operation"
            } else {
                "a plain store"
            }
        };
        let gid = self.global_id_of(c.other.item);
        let other = self.describe_item(gid);
        let memory = if c.addr >= LOCAL_BASE {
            "local"
        } else {
            "global"
        };
        EmuError::at(
            span,
            format!(
                "data race on {memory} address {:#010x}: {} by {} and {} by {}, not ordered by \
                 a barrier",
                c.addr,
                kind(atomic),
                self.who(),
                kind(c.other_atomic),
                other
            ),
        )
        .with_label(span, format!("{} here", kind(atomic)))
        .with_label(
            c.other.span,
            format!(
                "{} by work-item ({})",
                kind(c.other_atomic),
                gid_text(gid, self.geom.dims)
            ),
        )
        .with_note(
            "OpenCL C leaves a race between atomic and non-atomic accesses to one location \
             undefined (6.13.11); make both accesses atomic (`atomic_store`, `atomic_load`), or \
             separate them with a barrier",
        )
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

    /// Zeroes the private object of type `t` at `addr` (from [`Item::alloc_private`]), which
    /// may hold bytes of an earlier object.
    pub fn zero_private(&mut self, addr: u32, t: &Type) {
        let start = (addr - PRIVATE_BASE) as usize;
        let end = start + self.size_of(t) as usize;
        self.private[start..end].fill(0);
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

/// `3` or `3,1`: a global id in the launch's dimensions.
fn gid_text(g: [u32; 3], dims: u32) -> String {
    g[..dims.clamp(1, 3) as usize]
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}
