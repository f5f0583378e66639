//! The ECP5 operator library: latency, combinational delay and resource class of each IR
//! operation at a given width, for a target clock period.
//!
//! Numbers are first estimates built from facts measured on an ECP5-85F with Yosys +
//! nextpnr-ecp5 with registered inputs/outputs (32-bit add ~274 MHz, 64-bit accumulator
//! ~208 MHz, one-stage 32x32 multiply ~93 MHz, EBR read without output register ~136 MHz). The
//! delay of a carry-chain operation grows linearly with its width; a constant shift or a width
//! change is wiring. Operations the hardware path cannot build yet are reported, not guessed.

use hls_ir::{BinOp, ConvOp, Kernel, OpId, OpKind, Ty, UnOp};

/// What the library says about one operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpTiming {
    /// Cycles from issue until the result is available (0 = combinational, chains).
    pub latency: u32,
    /// Combinational delay in ns before the result (or its first register).
    pub delay_ns: f64,
}

#[derive(Clone, Debug)]
pub struct OpLibrary {
    /// Target clock frequency.
    pub clock_mhz: f64,
    /// Clock-to-out + setup + a routing margin, subtracted from the period for chaining.
    pub register_overhead_ns: f64,
    /// Cycles from issuing a global read to using its data when memory answers at once. The
    /// response buffer of each port hides memory latency up to this; beyond it the pipeline
    /// stalls.
    pub global_load_latency: u32,
}

impl Default for OpLibrary {
    fn default() -> Self {
        OpLibrary {
            clock_mhz: 100.0,
            register_overhead_ns: 1.5,
            global_load_latency: 3,
        }
    }
}

impl OpLibrary {
    pub fn with_clock(clock_mhz: f64) -> Self {
        OpLibrary {
            clock_mhz,
            ..Default::default()
        }
    }

    /// The period available to a chain of combinational operations.
    pub fn chain_budget_ns(&self) -> f64 {
        (1000.0 / self.clock_mhz - self.register_overhead_ns).max(0.5)
    }

    /// Timing of `op`, or a reason why the hardware path cannot build it yet.
    pub fn timing(&self, k: &Kernel, op: OpId) -> Result<OpTiming, String> {
        let o = k.op(op);
        let bits = o.ty.bits() as f64;
        let carry = |bits: f64| 0.5 + 0.05 * bits;
        let comb = |delay_ns: f64| {
            Ok(OpTiming {
                latency: 0,
                delay_ns,
            })
        };
        if o.ty.is_float() || k.operands(op).iter().any(|&a| k.op(a).ty.is_float()) {
            return Err("floating-point arithmetic is not yet built in hardware".into());
        }
        match &o.kind {
            OpKind::Const(_) | OpKind::Arg(_) | OpKind::WorkItem(..) => comb(0.0),
            OpKind::Binary(b) => match b {
                BinOp::Add | BinOp::Sub => comb(carry(bits)),
                BinOp::MinS | BinOp::MinU | BinOp::MaxS | BinOp::MaxU => comb(carry(bits) + 0.6),
                BinOp::And | BinOp::Or | BinOp::Xor => comb(0.5),
                BinOp::Shl | BinOp::ShrU | BinOp::ShrS => {
                    let amount = k.operands(op)[1];
                    if matches!(k.op(amount).kind, OpKind::Const(_)) {
                        comb(0.0)
                    } else {
                        comb(0.5 + 0.6 * bits.log2())
                    }
                }
                // One DSP stage for up to 18x18 bits, registered; wider products take one more
                // cycle per partial-product level.
                // The first stage holds a DSP multiply (16x16 partial products for 32 bits):
                // about 4 ns of the period, so little may chain in front of it.
                BinOp::Mul | BinOp::MulHiS | BinOp::MulHiU => Ok(OpTiming {
                    latency: if bits <= 18.0 { 1 } else if bits <= 36.0 { 2 } else { 3 },
                    delay_ns: 4.0,
                }),
                BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU => {
                    Err("integer division and remainder are not yet built in hardware (only unsigned division by a power of two, which becomes a shift)".into())
                }
                _ => Err(format!("`{}` is not yet built in hardware", o.kind)),
            },
            OpKind::Unary(u) => match u {
                UnOp::Not => comb(0.5),
                UnOp::Neg => comb(carry(bits)),
                UnOp::AbsS => comb(carry(bits) + 0.6),
                _ => Err(format!("`{}` is not yet built in hardware", o.kind)),
            },
            OpKind::Cmp(_) => {
                let w = k.op(k.operands(op)[0]).ty.bits() as f64;
                comb(carry(w))
            }
            OpKind::Select => comb(0.6),
            OpKind::Convert(c) => match c {
                ConvOp::Trunc | ConvOp::ZExt | ConvOp::SExt | ConvOp::Bitcast => comb(0.0),
                _ => Err("floating-point conversions are not yet built in hardware".into()),
            },
            OpKind::Load { mem } => match k.mem(*mem).kind {
                hls_ir::MemKind::Global { .. } => Ok(OpTiming {
                    latency: self.global_load_latency.max(2),
                    delay_ns: 0.5,
                }),
                // On-chip memory (EBR or registers) with a synchronous read: the address is
                // registered at the end of the issuing cycle, the data is there in the next.
                _ => Ok(OpTiming {
                    latency: 1,
                    delay_ns: 1.0,
                }),
            },
            OpKind::Store { .. } => Ok(OpTiming { latency: 1, delay_ns: 0.5 }),
            // The first iteration's value or the previous iteration's: one 2-input mux.
            OpKind::Carried => comb(0.6),
            // Starting a nested loop: its results are ready (at the earliest) one cycle later;
            // the pipeline waits there until the loop has finished.
            OpKind::Loop(_) => Ok(OpTiming { latency: 1, delay_ns: 0.5 }),
            OpKind::LoopResult | OpKind::LoopExit => comb(0.0),
            other => Err(format!(
                "`{}` is not yet supported by the hardware path",
                other.mnemonic()
            )),
        }
    }
}

/// True for values that never need pipeline registers: constants, arguments and launch-wide
/// work-item values are held in registers for the whole run.
pub fn is_invariant(k: &Kernel, op: OpId) -> bool {
    k.op(op).kind.is_launch_invariant()
}

/// The type used for an IR value in hardware (for reports).
pub fn width_of(ty: Ty) -> u32 {
    ty.bits()
}
