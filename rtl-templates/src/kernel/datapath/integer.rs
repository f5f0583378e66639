//! Integer ops of the datapath: arithmetic and logic (shifts take the count modulo the width),
//! compares, and the wiring ops (bit selects, concatenations, truncations and extensions),
//! each a combinational expression at any width. Bits nothing reads go to the unused-bits
//! sink, so `-Wall` stays clean.

use super::{Emitter, OpCtx};
use crate::writer::{bit_range, literal};
use hls_ir::{BinOp, CmpOp, ConvOp, OpKind, UnOp};

fn signed(s: String) -> String {
    format!("$signed({s})")
}

impl Emitter<'_> {
    /// An integer binary op (not a multiply).
    pub(super) fn int_binary(&mut self, cx: &OpCtx, b: BinOp) -> String {
        let (cx0, cy0) = (self.const_arg(cx, 0), self.const_arg(cx, 1));
        if let Some(i) = hls_ir::integer::decided_min_max(b, cx.bits, cx0, cy0) {
            // `max(u, 0)`, ...: a comparison with a constant result is a lint warning.
            let other = self.arg(cx, 1 - i);
            self.unused.push(other);
            return self.arg(cx, i);
        }
        let (x, y) = (self.arg(cx, 0), self.arg(cx, 1));
        match b {
            BinOp::Add => format!("{x} + {y}"),
            BinOp::Sub => format!("{x} - {y}"),
            BinOp::And => format!("{x} & {y}"),
            BinOp::Or => format!("{x} | {y}"),
            BinOp::Xor => format!("{x} ^ {y}"),
            BinOp::Shl | BinOp::ShrU | BinOp::ShrS => {
                let amt = self.shift_amount(cx, &y);
                match b {
                    BinOp::Shl => format!("{x} << {amt}"),
                    BinOp::ShrU => format!("{x} >> {amt}"),
                    _ => format!("{} >>> {amt}", signed(x)),
                }
            }
            BinOp::MinS => format!(
                "({} < {}) ? {x} : {y}",
                signed(x.clone()),
                signed(y.clone())
            ),
            BinOp::MaxS => format!(
                "({} > {}) ? {x} : {y}",
                signed(x.clone()),
                signed(y.clone())
            ),
            BinOp::MinU => format!("({x} < {y}) ? {x} : {y}"),
            BinOp::MaxU => format!("({x} > {y}) ? {x} : {y}"),
            other => unreachable!("the operator library rejects {other:?} before emission"),
        }
    }

    /// Every operand of an op whose value does not depend on them goes to the unused sink
    /// (constants need none).
    fn unused_operands(&mut self, cx: &OpCtx) {
        for i in 0..cx.args.len() {
            let v = self.arg(cx, i);
            self.unused.push(v);
        }
    }

    /// Operand `i` of the op when it is an integer constant.
    pub(super) fn const_arg(&self, cx: &OpCtx, i: usize) -> Option<u64> {
        let a = self.k.op(cx.args[i]);
        match a.kind {
            OpKind::Const(v) if !a.ty.is_float() => Some(v),
            _ => None,
        }
    }

    /// The shift count `y` (operand 1) of a shift: OpenCL takes it modulo the width.
    fn shift_amount(&mut self, cx: &OpCtx, y: &str) -> String {
        let bits = cx.bits;
        let sb = 32 - (bits.max(2) - 1).leading_zeros();
        let amt_bits = self.plan.bits(cx.args[1]);
        if let OpKind::Const(v) = self.k.op(cx.args[1]).kind {
            format!("{}", v % bits as u64)
        } else if !bits.is_power_of_two() && amt_bits >= sb {
            // The low bits are the count modulo a power of two only; other widths (which the
            // IR allows, though `narrow` keeps variable shifts whole) take the remainder.
            format!("({y} % {amt_bits}'d{bits})")
        } else if amt_bits > sb {
            self.unused.push(bit_range(y, amt_bits - 1, sb));
            bit_range(y, sb - 1, 0)
        } else {
            y.to_string()
        }
    }

    /// An integer unary op (bitwise not, negate, signed absolute value).
    pub(super) fn int_unary(&mut self, cx: &OpCtx, u: UnOp) -> String {
        let x = self.arg(cx, 0);
        match u {
            UnOp::Not => format!("~{x}"),
            UnOp::Neg => format!("-{x}"),
            UnOp::AbsS => format!("{} ? -{x} : {x}", bit_range(&x, cx.bits - 1, cx.bits - 1)),
            other => unreachable!("float unary op {other:?} is a float op"),
        }
    }

    /// An integer compare.
    pub(super) fn int_compare(&mut self, cx: &OpCtx, cmp: CmpOp) -> String {
        let bits = self.k.op(cx.args[0]).ty.bits();
        let (c0, c1) = (self.const_arg(cx, 0), self.const_arg(cx, 1));
        if let Some(v) = hls_ir::integer::decided_compare(cmp, bits, c0, c1) {
            // `u < 0`, `u >= 0`, ...: Verilator's UNSIGNED/CMPCONST warnings; the value instead.
            self.unused_operands(cx);
            return literal(v as u64, 1);
        }
        let (x, y) = (self.arg(cx, 0), self.arg(cx, 1));
        let (op_s, sg) = match cmp {
            CmpOp::Eq => ("==", false),
            CmpOp::Ne => ("!=", false),
            CmpOp::LtS => ("<", true),
            CmpOp::LeS => ("<=", true),
            CmpOp::GtS => (">", true),
            CmpOp::GeS => (">=", true),
            CmpOp::LtU => ("<", false),
            CmpOp::LeU => ("<=", false),
            CmpOp::GtU => (">", false),
            CmpOp::GeU => (">=", false),
            other => unreachable!("the operator library rejects {other:?} before emission"),
        };
        if sg {
            format!("{} {op_s} {}", signed(x), signed(y))
        } else {
            format!("{x} {op_s} {y}")
        }
    }

    /// A bit select from bit `lo` (of a constant: folded); the bits it reads are noted, so the
    /// others go to the unused-bits sink.
    pub(super) fn extract(&mut self, cx: &OpCtx, lo: u32) -> String {
        let src = cx.args[0];
        let bits = cx.bits;
        let from = self.plan.bits(src);
        if let OpKind::Const(v) = self.k.op(src).kind {
            let v = if lo >= 64 { 0 } else { v >> lo };
            literal(v & self.k.op(cx.o).ty.mask(), bits)
        } else {
            let x = self.arg(cx, 0);
            self.unused.select(&x, from, lo, lo + bits);
            bit_range(&x, lo + bits - 1, lo)
        }
    }

    /// A concatenation (operand 0 lowest); one rebuilt in later stages (see `Plan::remat`)
    /// is written here only if it is read here.
    pub(super) fn concat(&self, cx: &OpCtx) -> Option<String> {
        let here = |u: &std::collections::BTreeSet<u32>| u.contains(&cx.c);
        if self.plan.remat.contains(&cx.o) && !self.plan.use_cycles.get(&cx.o).is_some_and(here) {
            return None;
        }
        let parts: Vec<String> = (0..cx.args.len()).rev().map(|i| self.arg(cx, i)).collect();
        Some(format!("{{{}}}", parts.join(", ")))
    }

    /// An integer conversion: truncation, zero or sign extension, or a bitcast.
    pub(super) fn int_convert(&mut self, cx: &OpCtx, cv: ConvOp) -> String {
        let x = self.arg(cx, 0);
        let bits = cx.bits;
        let from = self.plan.bits(cx.args[0]);
        match cv {
            ConvOp::Trunc => {
                self.unused.push(bit_range(&x, from - 1, bits));
                bit_range(&x, bits - 1, 0)
            }
            ConvOp::ZExt => format!("{{{{{}{{1'b0}}}}, {x}}}", bits - from),
            ConvOp::SExt => {
                let msb = if from == 1 {
                    x.clone()
                } else {
                    bit_range(&x, from - 1, from - 1)
                };
                format!("{{{{{}{{{msb}}}}}, {x}}}", bits - from)
            }
            ConvOp::Bitcast => x,
            other => unreachable!("the operator library rejects {other:?} before emission"),
        }
    }
}
