//! Float ops of the datapath: instances of the float units (`crate::fp`) clocked with the
//! pipeline's `!stall`; a − b is a + b with b's sign flipped, `fmin`/`fmax` are the compare and
//! a select, negate and `fabs` are wiring. The units a kernel instantiates are collected in
//! `Emitter::fp_units` (their files go with the kernel).

use super::{Emitter, OpCtx};
use crate::fp::FpUnit;
use crate::writer::{bit_range, literal, parse_literal, range, VWriter};
use hls_ir::{BinOp, CmpOp, ConvOp, UnOp};

/// Whether `c` compares floats.
pub(super) fn is_float_cmp(c: CmpOp) -> bool {
    matches!(
        c,
        CmpOp::FEq | CmpOp::FNe | CmpOp::FLt | CmpOp::FLe | CmpOp::FGt | CmpOp::FGe
    )
}

/// `v` (an `f32` bit pattern) with its sign flipped: folded for a constant.
fn flip_sign(v: &str) -> String {
    match parse_literal(v) {
        Some((_, k)) => literal((k ^ 0x8000_0000) & 0xffff_ffff, 32),
        None => format!("{{~{}, {}}}", bit_range(v, 31, 31), bit_range(v, 30, 0)),
    }
}

/// The integer width (8, 16, 32 or 64) a float conversion unit takes for a `bits`-bit integer.
fn fp_int_width(bits: u32) -> u32 {
    [8, 16, 32, 64]
        .into_iter()
        .find(|&w| bits <= w)
        .unwrap_or(64)
}

impl Emitter<'_> {
    /// A float binary op: a unit (add, subtract, multiply, divide), or `fmin`/`fmax` as a
    /// compare and a select (returned as the value's expression).
    pub(super) fn float_binary(&mut self, w: &mut VWriter, cx: &OpCtx, b: BinOp) -> Option<String> {
        let (x, y) = (self.arg(cx, 0), self.arg(cx, 1));
        let name = &cx.name;
        if let BinOp::FMin | BinOp::FMax = b {
            // OpenCL fmin: b if b < a, else a; fmax: b if a < b, else a; a NaN operand gives
            // the other one, two NaNs the canonical NaN; the result is the flushed operand
            // (fpsem::min/max).
            let lt = self.emit_fp_cmp(w, name, &x, &y, b == BinOp::FMin);
            let nan = |v: &str| format!("(&{} && |{})", bit_range(v, 30, 23), bit_range(v, 22, 0));
            let flush = |v: &str| {
                let (e, s) = (bit_range(v, 30, 23), bit_range(v, 31, 31));
                format!("(|{e} ? {v} : {{{s}, 31'd0}})")
            };
            let (an, bn) = (format!("{name}_an"), format!("{name}_bn"));
            w.wire(&an, 1, &nan(&x));
            w.wire(&bn, 1, &nan(&y));
            return Some(format!(
                "({an} && {bn}) ? 32'h7fc00000 : ({an} || (!{bn} && {lt})) ? {} : {}",
                flush(&y),
                flush(&x)
            ));
        }
        let (unit, y) = match b {
            BinOp::FAdd => (FpUnit::Add, y),
            // a - b = a + (-b): the sign of b flipped.
            BinOp::FSub => (FpUnit::Add, flip_sign(&y)),
            BinOp::FMul => (FpUnit::Mul, y),
            _ => (FpUnit::Div, y),
        };
        self.emit_fp_unit(w, name, unit, "", &[("a", x), ("b", y)], 32);
        None
    }

    /// A float unary op: negate and `fabs` change the sign bit only; square root is a unit.
    pub(super) fn float_unary(&mut self, w: &mut VWriter, cx: &OpCtx, u: UnOp) -> Option<String> {
        let x = self.arg(cx, 0);
        match u {
            // IEEE negate and abs: the sign bit only.
            UnOp::FNeg => Some(flip_sign(&x)),
            UnOp::FAbs => {
                self.unused.push(bit_range(&x, 31, 31));
                Some(format!("{{1'b0, {}}}", bit_range(&x, 30, 0)))
            }
            UnOp::FSqrt => {
                self.emit_fp_unit(w, &cx.name, FpUnit::Sqrt, "", &[("a", x)], 32);
                None
            }
            other => unreachable!("integer unary op {other:?} is not a float op"),
        }
    }

    /// A float compare: the compare unit's outputs combined (the unused ones to the sink).
    pub(super) fn float_compare(&mut self, w: &mut VWriter, cx: &OpCtx, cmp: CmpOp) -> String {
        let (x, y) = (self.arg(cx, 0), self.arg(cx, 1));
        let (lt, eq, un) = self.fp_compare(w, &cx.name, &x, &y);
        match cmp {
            CmpOp::FEq | CmpOp::FNe => {
                self.unused.push(lt.clone());
                self.unused.push(un.clone());
            }
            CmpOp::FLt => {
                self.unused.push(eq.clone());
                self.unused.push(un.clone());
            }
            CmpOp::FLe => self.unused.push(un.clone()),
            CmpOp::FGe => self.unused.push(eq.clone()),
            _ => {}
        }
        match cmp {
            CmpOp::FEq => eq,
            CmpOp::FNe => format!("!{eq}"),
            CmpOp::FLt => lt,
            CmpOp::FLe => format!("{lt} || {eq}"),
            CmpOp::FGt => format!("!({lt} || {eq} || {un})"),
            _ => format!("!({lt} || {un})"),
        }
    }

    /// A conversion between integers and floats: a unit.
    pub(super) fn float_convert(&mut self, w: &mut VWriter, cx: &OpCtx, cv: ConvOp) {
        let x = self.arg(cx, 0);
        let (name, bits) = (&cx.name, cx.bits);
        let from = self.plan.bits(cx.args[0]);
        match cv {
            ConvOp::SIToF | ConvOp::UIToF => {
                // The unit takes 8, 16, 32 or 64 bits: extend the integer to that.
                let signed = cv == ConvOp::SIToF && from > 1;
                let width = fp_int_width(from);
                let a = if width == from {
                    x
                } else if signed {
                    let msb = bit_range(&x, from - 1, from - 1);
                    format!("{{{{{}{{{msb}}}}}, {x}}}", width - from)
                } else {
                    format!("{{{}'d0, {x}}}", width - from)
                };
                let params = format!("#(.WIDTH({width}), .SIGNED({})) ", signed as u8);
                self.emit_fp_unit(w, name, FpUnit::FromInt, &params, &[("a", a)], 32);
            }
            ConvOp::FToSI { .. } | ConvOp::FToUI { .. } => {
                let signed = matches!(cv, ConvOp::FToSI { .. });
                let params = format!("#(.WIDTH({bits}), .SIGNED({})) ", signed as u8);
                self.emit_fp_unit(w, name, FpUnit::ToInt, &params, &[("a", x)], bits);
            }
            other => unreachable!("the operator library rejects {other:?} before emission"),
        }
    }

    /// An instance of float unit `unit` (`params`: its parameter list with a trailing space, or
    /// empty) whose registered output `y` of `out_bits` bits is the value `name`. Its
    /// registers move with this pipeline (`ce` = not stalled), like a multiplier's stages.
    fn emit_fp_unit(
        &mut self,
        w: &mut VWriter,
        name: &str,
        unit: FpUnit,
        params: &str,
        ins: &[(&str, String)],
        out_bits: u32,
    ) {
        self.fp_units.insert(unit);
        let q = format!("{name}_y");
        w.line(format!("wire {}{q};", range(out_bits)));
        let conns: Vec<String> = ins.iter().map(|(p, v)| format!(".{p}({v})")).collect();
        w.line(format!(
            "{} {params}{name}_u (.clk(clk), .ce(!{}), {}, .y({q}));",
            unit.module(),
            self.stall(),
            conns.join(", ")
        ));
        w.wire(name, out_bits, &q);
    }

    /// An instance of the combinational float compare of `a` and `b`; returns its outputs'
    /// wires `(a < b, a == b, unordered)`.
    fn fp_compare(
        &mut self,
        w: &mut VWriter,
        name: &str,
        a: &str,
        b: &str,
    ) -> (String, String, String) {
        let (lt, eq, un) = (
            format!("{name}_lt"),
            format!("{name}_eq"),
            format!("{name}_un"),
        );
        for n in [&lt, &eq, &un] {
            w.line(format!("wire {n};"));
        }
        self.fp_units.insert(FpUnit::Cmp);
        w.line(format!(
            "oclhls_fp_cmp {name}_cmp (.a({a}), .b({b}), .lt({lt}), .eq({eq}), .unordered({un}));"
        ));
        (lt, eq, un)
    }

    /// A float compare for `fmin` (`min`: is `y < x`) or `fmax` (is `x < y`); returns the
    /// wire that says so.
    fn emit_fp_cmp(&mut self, w: &mut VWriter, name: &str, x: &str, y: &str, min: bool) -> String {
        let (a, b) = if min { (y, x) } else { (x, y) };
        let (lt, eq, un) = self.fp_compare(w, name, a, b);
        self.unused.push(eq);
        self.unused.push(un);
        lt
    }
}
