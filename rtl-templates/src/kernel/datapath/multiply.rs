//! Multiplies of the datapath, registered as the operator library assumes: up to 18 bits one
//! DSP stage; 32 bits as 16×16 partial products registered, then summed (2 stages); 64 bits as
//! ten 16×16 partial products registered, then three adder stages (4 stages). No stage holds a
//! multiplier wider than 18×18 (docs/benchmarks.md, "ECP5 operator library: measurements").
//! Further stages (a longer latency from the schedule) only delay.

use super::{Emitter, OpCtx};
use crate::writer::VWriter;

impl Emitter<'_> {
    /// A multiply op: a multiplier of the op's scheduled latency (at least one stage).
    pub(super) fn emit_mul_op(&self, w: &mut VWriter, cx: &OpCtx) {
        let (x, y) = (self.arg(cx, 0), self.arg(cx, 1));
        let lat = self.plan.load_latency(cx.o).max(1);
        self.emit_mul(w, &cx.name, cx.bits, &x, &y, lat);
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
            for i in 2..=lat {
                w.reg(&format!("{name}_m{i}"), bits);
            }
            let (hr, lr) = ("[31:16]", "[15:0]");
            w.always_ff(|w| {
                w.block(&format!("if (!{})", self.stall()), |w| {
                    w.line(format!(
                        "{name}_ll <= {{16'd0, {name}_a[15:0]}} * {{16'd0, {name}_b[15:0]}};"
                    ));
                    w.line(format!("{name}_lh <= {name}_a{lr} * {name}_b{hr};"));
                    w.line(format!("{name}_hl <= {name}_a{hr} * {name}_b{lr};"));
                    w.line(format!(
                        "{name}_m2 <= {name}_ll + {{{name}_lh + {name}_hl, 16'd0}};"
                    ));
                    for i in 3..=lat {
                        w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                    }
                });
            });
        } else if bits == 64 && lat >= 4 {
            self.emit_mul64(w, name, x, y, lat);
        } else {
            for i in 1..=lat {
                w.reg(&format!("{name}_m{i}"), bits);
            }
            w.always_ff(|w| {
                w.block(&format!("if (!{})", self.stall()), |w| {
                    w.line(format!("{name}_m1 <= {x} * {y};"));
                    for i in 2..=lat {
                        w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                    }
                });
            });
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
        w.reg(&format!("{name}_q0"), 32);
        w.reg(&format!("{name}_s16"), 33);
        w.reg(&format!("{name}_s32"), 32);
        w.reg(&format!("{name}_s48"), 16);
        w.reg(&format!("{name}_lo"), 64);
        w.reg(&format!("{name}_hi"), 32);
        for i in 4..=lat {
            w.reg(&format!("{name}_m{i}"), 64);
        }
        w.always_ff(|w| {
            w.block(&format!("if (!{})", self.stall()), |w| {
                for i in 0..4 {
                    for j in 0..4 - i {
                        w.line(format!(
                            "{name}_p{i}{j} <= {} * {};",
                            digit("a", i),
                            digit("b", j)
                        ));
                    }
                }
                w.line(format!("{name}_q0 <= {name}_p00;"));
                w.line(format!(
                    "{name}_s16 <= {{1'b0, {name}_p01}} + {{1'b0, {name}_p10}};"
                ));
                w.line(format!(
                    "{name}_s32 <= {name}_p02 + {name}_p11 + {name}_p20;"
                ));
                w.line(format!(
                    "{name}_s48 <= {name}_p03 + {name}_p12 + {name}_p21 + {name}_p30;"
                ));
                w.line(format!(
                    "{name}_lo <= {{32'd0, {name}_q0}} + {{15'd0, {name}_s16, 16'd0}};"
                ));
                w.line(format!("{name}_hi <= {name}_s32 + {{{name}_s48, 16'd0}};"));
                w.line(format!("{name}_m4 <= {name}_lo + {{{name}_hi, 32'd0}};"));
                for i in 5..=lat {
                    w.line(format!("{name}_m{i} <= {name}_m{};", i - 1));
                }
            });
        });
    }
}
