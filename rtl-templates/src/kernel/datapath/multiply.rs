//! Multiplies of the datapath, registered as the operator library assumes. Off recurrences
//! (latency [`dsp_mul_latency`] or more) they are built in the DSPs' own input and output
//! registers (`oclhls_fp_mul18`: a `MULT18X18D` with both in synthesis, the same registers in
//! simulation), so that the routes into and out of the DSP column run between registers: up
//! to 18 bits one DSP (2 stages); 32 bits three 16x16 products (2 stages) then their sum;
//! 64 bits ten 16x16 products then three adder stages. On recurrences, where a cycle can raise
//! the II, the DSP's multiplier sits between fabric registers: up to 18 bits one stage; 32
//! bits as 16x16 partial products registered, then summed (2 stages); 64 bits as ten 16x16
//! partial products registered, then three adder stages (4 stages). No stage holds a
//! multiplier wider than 18x18 (docs/benchmarks.md, "ECP5 operator library: measurements").
//! Further stages (a longer latency from the schedule) only delay.

use super::{Emitter, OpCtx};
use crate::fp::MUL18;
use crate::writer::VWriter;
use hls_ir::{ConvOp, OpId, OpKind};
use scheduler::oplib::dsp_mul_latency;

/// The stages of [`Emitter::emit_mul`]'s fabric form at `lat` (at least one): 32 bits split
/// from 2, 64 bits from 4, else one.
fn fabric_latency(bits: u32, lat: u32) -> u32 {
    match bits {
        32 if lat >= 2 => 2,
        64 if lat >= 4 => 4,
        _ => 1,
    }
}

impl Emitter<'_> {
    /// A multiply op: a multiplier of the op's scheduled latency (at least one stage).
    pub(super) fn emit_mul_op(&mut self, w: &mut VWriter, cx: &OpCtx) {
        let (x, y) = (self.arg(cx, 0), self.arg(cx, 1));
        let lat = self.plan.load_latency(cx.o).max(1);
        let constant = cx
            .args
            .iter()
            .any(|&a| matches!(self.k.op(a).kind, OpKind::Const(_)));
        match dsp_mul_latency(cx.bits).filter(|&d| lat >= d && !constant) {
            Some(_) => {
                let sig = [
                    self.significant_bits(cx.args[0]),
                    self.significant_bits(cx.args[1]),
                ];
                self.emit_dsp_mul(w, &cx.name, cx.bits, (&x, &y), sig, lat);
            }
            None if lat > fabric_latency(cx.bits, lat) => {
                // A cycle to spare (a constant factor, which Yosys may fold into shifts and
                // adds): the variable operand is registered first, next to the multiplier.
                let reg = |w: &mut VWriter, v: &str, o: OpId, tag: &str| -> String {
                    if matches!(self.k.op(o).kind, OpKind::Const(_)) {
                        return v.to_string();
                    }
                    let r = format!("{}_{tag}r", cx.name);
                    w.reg(&r, cx.bits);
                    r
                };
                let xr = reg(w, &x, cx.args[0], "a");
                let yr = reg(w, &y, cx.args[1], "b");
                let st = self.stall();
                w.always_ff(|w| {
                    w.block(&format!("if (!{st})"), |w| {
                        for (r, v) in [(&xr, &x), (&yr, &y)] {
                            if r != v {
                                w.line(format!("{r} <= {v};"));
                            }
                        }
                    });
                });
                self.emit_mul(w, &cx.name, cx.bits, &xr, &yr, lat - 1);
            }
            None => self.emit_mul(w, &cx.name, cx.bits, &x, &y, lat),
        }
    }

    /// The low bits of `x` that may be non-zero: a zero extension's source width, else all
    /// of them (constant factors never reach the DSP form). The DSP form leaves out the
    /// products of digits known to be zero (a `uint` x `uint` product to `ulong` needs 4 of
    /// the 10).
    fn significant_bits(&self, x: OpId) -> u32 {
        let op = self.k.op(x);
        match op.kind {
            OpKind::Convert(ConvOp::ZExt) => self.k.op(self.k.operands(x)[0]).ty.bits(),
            _ => op.ty.bits(),
        }
    }

    /// One `oclhls_fp_mul18` instance: `name` = `a * b` (unsigned, `aw` x `bw` bits) two
    /// enabled cycles later, all `aw + bw` bits.
    fn emit_mul18(&mut self, w: &mut VWriter, name: &str, a: &str, b: &str, aw: u32, bw: u32) {
        self.dsp_muls = true;
        w.line(format!("wire [{}:0] {name};", aw + bw - 1));
        w.line(format!(
            "{MUL18} #(.AW({aw}), .BW({bw})) {name}_u (.clk(clk), .ce(!{}), .a({a}), .b({b}), \
             .p({name}));",
            self.stall()
        ));
    }

    /// A multiply in the DSPs' registers ([`dsp_mul_latency`] stages, then `lat` minus those
    /// as delays). Digit products of digits known to be zero (`sig`: the operands' significant
    /// bits) are left out; the products' bits above the result go to the unused sink.
    fn emit_dsp_mul(
        &mut self,
        w: &mut VWriter,
        name: &str,
        bits: u32,
        (x, y): (&str, &str),
        sig: [u32; 2],
        lat: u32,
    ) {
        let first = dsp_mul_latency(bits).expect("a width built in the DSPs");
        w.wire(&format!("{name}_a"), bits, x);
        w.wire(&format!("{name}_b"), bits, y);
        let (a, b) = (format!("{name}_a"), format!("{name}_b"));
        // Digit i of the a (0) or b (1) operand may be non-zero.
        let live = |side: usize, i: u32| 16 * i < sig[side];
        if bits > 18 {
            // The digits known to be zero are never read.
            for (side, v) in [(0, &a), (1, &b)] {
                let from = sig[side].div_ceil(16) * 16;
                if from < bits {
                    self.unused.push(format!("{v}[{}:{from}]", bits - 1));
                }
            }
        }
        let mut lines: Vec<String> = Vec::new();
        let product = match bits {
            32 => {
                let (lo, hi) = (
                    |v: &str| format!("{v}[15:0]"),
                    |v: &str| format!("{v}[31:16]"),
                );
                let mut terms = Vec::new();
                for (p, av, bv, on) in [
                    ("lh", lo(&a), hi(&b), live(1, 1)),
                    ("hl", hi(&a), lo(&b), live(0, 1)),
                ] {
                    if on {
                        let n = format!("{name}_{p}");
                        self.emit_mul18(w, &n, &av, &bv, 16, 16);
                        self.unused.push(format!("{n}[31:16]"));
                        terms.push(format!("{n}[15:0]"));
                    }
                }
                self.emit_mul18(w, &format!("{name}_ll"), &lo(&a), &lo(&b), 16, 16);
                w.reg(&format!("{name}_m3"), 32);
                let cross = match terms.len() {
                    0 => String::new(),
                    _ => format!(" + {{{}, 16'd0}}", terms.join(" + ")),
                };
                lines.push(format!("{name}_m3 <= {name}_ll{cross};"));
                format!("{name}_m3")
            }
            64 => {
                let digit = |v: &str, i: u32| format!("{v}[{}:{}]", 16 * i + 15, 16 * i);
                for i in 0..4 {
                    for j in 0..4 - i {
                        let p = format!("{name}_p{i}{j}");
                        if live(0, i) && live(1, j) {
                            self.emit_mul18(w, &p, &digit(&a, i), &digit(&b, j), 16, 16);
                        } else {
                            // A digit known to be zero: no DSP, the sums read a zero.
                            w.wire(&p, 32, "32'd0");
                        }
                        if i + j == 3 {
                            // Weight 48: only the low 16 bits count (`mul64_sums`).
                            self.unused.push(format!("{p}[31:16]"));
                        }
                    }
                }
                self.mul64_sums(w, &mut lines, name, 3);
                format!("{name}_m5")
            }
            _ => {
                self.emit_mul18(w, &format!("{name}_p"), &a, &b, bits, bits);
                self.unused
                    .push(format!("{name}_p[{}:{bits}]", 2 * bits - 1));
                format!("{name}_p[{}:0]", bits - 1)
            }
        };
        delay_tail(w, &mut lines, name, bits, (first, lat), Some(&product));
        if !lines.is_empty() {
            self.enabled_lines(w, &lines);
        }
        let out = if lat == first {
            product
        } else {
            format!("{name}_m{lat}")
        };
        w.wire(name, bits, &out);
    }

    /// A registered multiplier of `lat` stages. 32-bit products are split into
    /// 16x16 partial products (one DSP each) registered in the first stage and summed in the
    /// second, so no stage holds a full 32x32 multiplier (about 93 MHz on ECP5 in one stage).
    fn emit_mul(&self, w: &mut VWriter, name: &str, bits: u32, x: &str, y: &str, lat: u32) {
        if bits == 32 && lat >= 2 {
            let hi = 16;
            w.wire(&format!("{name}_a"), bits, x);
            w.wire(&format!("{name}_b"), bits, y);
            w.reg(&format!("{name}_ll"), 32);
            w.reg(&format!("{name}_lh"), hi);
            w.reg(&format!("{name}_hl"), hi);
            w.reg(&format!("{name}_m2"), bits);
            let (hr, lr) = ("[31:16]", "[15:0]");
            let mut lines = vec![
                format!("{name}_ll <= {{16'd0, {name}_a[15:0]}} * {{16'd0, {name}_b[15:0]}};"),
                format!("{name}_lh <= {name}_a{lr} * {name}_b{hr};"),
                format!("{name}_hl <= {name}_a{hr} * {name}_b{lr};"),
                format!("{name}_m2 <= {name}_ll + {{{name}_lh + {name}_hl, 16'd0}};"),
            ];
            delay_tail(w, &mut lines, name, bits, (2, lat), None);
            self.enabled_lines(w, &lines);
        } else if bits == 64 && lat >= 4 {
            self.emit_mul64(w, name, x, y, lat);
        } else {
            w.reg(&format!("{name}_m1"), bits);
            let mut lines = vec![format!("{name}_m1 <= {x} * {y};")];
            delay_tail(w, &mut lines, name, bits, (1, lat), None);
            self.enabled_lines(w, &lines);
        }
        w.wire(name, bits, &format!("{name}_m{lat}"));
    }

    /// The low 64 bits of a 64x64 product from 16-bit digits, so that no stage holds more than
    /// one level of wide additions (measured in docs/benchmarks.md, "ECP5 operator library:
    /// measurements", row `mul_64_split`): stage 1 registers the ten digit products
    /// `a_i * b_j` with `i + j <= 3` (those of weight 48 only to 16 bits), stage 2 sums the
    /// products of equal weight, stage 3 forms the low part (weights 0 and 16) and the high
    /// half (weights 32 and 48), stage 4 adds them; further stages only delay.
    fn emit_mul64(&self, w: &mut VWriter, name: &str, x: &str, y: &str, lat: u32) {
        w.wire(&format!("{name}_a"), 64, x);
        w.wire(&format!("{name}_b"), 64, y);
        let digit = |v: &str, i: u32| format!("{name}_{v}[{}:{}]", 16 * i + 15, 16 * i);
        for i in 0..4 {
            for j in 0..4 - i {
                w.reg(&format!("{name}_p{i}{j}"), if i + j == 3 { 16 } else { 32 });
            }
        }
        let mut lines = Vec::new();
        for i in 0..4 {
            for j in 0..4 - i {
                lines.push(format!(
                    "{name}_p{i}{j} <= {} * {};",
                    digit("a", i),
                    digit("b", j)
                ));
            }
        }
        self.mul64_sums(w, &mut lines, name, 2);
        delay_tail(w, &mut lines, name, 64, (4, lat), None);
        self.enabled_lines(w, &lines);
    }

    /// Register assignments `lines`, made when the pipeline moves.
    fn enabled_lines(&self, w: &mut VWriter, lines: &[String]) {
        w.always_ff(|w| {
            w.block(&format!("if (!{})", self.stall()), |w| {
                for l in lines {
                    w.line(l);
                }
            });
        });
    }

    /// The adder stages of a 64-bit product from its ten digit products `<name>_pIJ`: stage
    /// `s` sums the products of equal weight, `s + 1` forms the low part (weights 0 and 16)
    /// and the high half (weights 32 and 48), `s + 2` adds them into `<name>_m<s + 2>`.
    /// Declares the registers; their assignments go to `lines`.
    fn mul64_sums(&self, w: &mut VWriter, lines: &mut Vec<String>, name: &str, s: u32) {
        // The weight-48 products count only to 16 bits (they are wider from the DSPs).
        let p = |i: u32, j: u32| {
            if i + j == 3 {
                format!("{name}_p{i}{j}[15:0]")
            } else {
                format!("{name}_p{i}{j}")
            }
        };
        for (r, bits) in [
            ("q0", 32),
            ("s16", 33),
            ("s32", 32),
            ("s48", 16),
            ("lo", 64),
            ("hi", 32),
        ] {
            w.reg(&format!("{name}_{r}"), bits);
        }
        w.reg(&format!("{name}_m{}", s + 2), 64);
        lines.push(format!("{name}_q0 <= {};", p(0, 0)));
        lines.push(format!(
            "{name}_s16 <= {{1'b0, {}}} + {{1'b0, {}}};",
            p(0, 1),
            p(1, 0)
        ));
        lines.push(format!(
            "{name}_s32 <= {} + {} + {};",
            p(0, 2),
            p(1, 1),
            p(2, 0)
        ));
        lines.push(format!(
            "{name}_s48 <= {} + {} + {} + {};",
            p(0, 3),
            p(1, 2),
            p(2, 1),
            p(3, 0)
        ));
        lines.push(format!(
            "{name}_lo <= {{32'd0, {name}_q0}} + {{15'd0, {name}_s16, 16'd0}};"
        ));
        lines.push(format!("{name}_hi <= {name}_s32 + {{{name}_s48, 16'd0}};"));
        lines.push(format!(
            "{name}_m{} <= {name}_lo + {{{name}_hi, 32'd0}};",
            s + 2
        ));
    }
}

/// The registers that delay a product to its op's latency: declares `<name>_m<i>` (`bits`
/// wide) for `i` in `from + 1 ..= to` and pushes their assignments to `lines`, each taking the
/// one before it and the first `src` (default `<name>_m<from>`).
fn delay_tail(
    w: &mut VWriter,
    lines: &mut Vec<String>,
    name: &str,
    bits: u32,
    (from, to): (u32, u32),
    src: Option<&str>,
) {
    for i in from + 1..=to {
        w.reg(&format!("{name}_m{i}"), bits);
        let prev = match src {
            Some(s) if i == from + 1 => s.to_string(),
            _ => format!("{name}_m{}", i - 1),
        };
        lines.push(format!("{name}_m{i} <= {prev};"));
    }
}
