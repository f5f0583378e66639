//! Vector loads and stores: `vloadN`/`vstoreN` and their `half` forms, which read and write
//! `N` elements at `p + offset * N` with the alignment of one element.

use crate::interp::{Item, R};
use crate::value::{self, lane_shape, Val};
use frontend::ast::{Builtin, Expr, ScalarKind, Type};
use frontend::Span;

impl Item<'_> {
    /// `vloadN` and `vload_halfN`.
    pub(super) fn vload(&mut self, b: Builtin, n: u8, args: &[Expr], e: &Expr) -> R<Val> {
        let span = e.span;
        let (addr, ek, len) = self.vector_address(n, &args[0], &args[1], span)?;
        let es = ek.size_bytes();
        let bytes = self.access(addr, len, es, span, None)?;
        let (rk, _) = lane_shape(&e.ty).unwrap_or((ek, 1));
        let lanes = bytes
            .chunks(es as usize)
            .map(|c| {
                let mut buf = [0u8; 8];
                buf[..c.len()].copy_from_slice(c);
                let bits = u64::from_le_bytes(buf);
                if matches!(b, Builtin::VLoadHalf(_)) {
                    value::from_f64(rk, value::f16_to_f64(bits as u16))
                } else {
                    bits
                }
            })
            .collect();
        Ok(Val::Lanes(rk, lanes))
    }

    /// `vstoreN` and `vstore_halfN`.
    pub(super) fn vstore(&mut self, b: Builtin, n: u8, args: &[Expr], span: Span) -> R<Val> {
        let data = self.eval(&args[0])?;
        let (addr, ek, len) = self.vector_address(n, &args[1], &args[2], span)?;
        let es = ek.size_bytes() as usize;
        let dk = args[0].ty.elem_kind().unwrap_or(ek);
        let mut bytes = Vec::new();
        for &l in data.lanes() {
            let bits = if matches!(b, Builtin::VStoreHalf(_)) {
                value::f64_to_f16(value::to_f64(dk, l)) as u64
            } else {
                l
            };
            bytes.extend_from_slice(&bits.to_le_bytes()[..es]);
        }
        self.access(addr, len, es as u32, span, Some(&bytes))?;
        Ok(Val::Void)
    }

    /// `vloadN`/`vstoreN` addressing: `p + offset * N` elements of the pointee; the address,
    /// the element kind and the byte length of the access.
    fn vector_address(
        &mut self,
        n: u8,
        offset: &Expr,
        ptr: &Expr,
        span: Span,
    ) -> R<(u32, ScalarKind, u32)> {
        let off = self.eval(offset)?.first() as u32;
        let p = self.eval(ptr)?.first() as u32;
        let Type::Pointer { pointee, .. } = &ptr.ty else {
            return Err(self.unsupported(span, "vload/vstore through a non-pointer"));
        };
        let ek = pointee.elem_kind().unwrap_or(ScalarKind::Float);
        let len = (n as u32).max(1) * ek.size_bytes();
        Ok((p.wrapping_add(off.wrapping_mul(len)), ek, len))
    }
}
