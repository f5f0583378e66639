//! The ECP5 operator library: latency, combinational delay and resource class of each IR
//! operation at a given width, for a target clock period.
//!
//! The numbers are our own measurements (the tables below; how they were made and the full
//! table: `docs/benchmarks.md`, section "ECP5 operator library: measurements", produced by
//! `cargo run --release -p board-support --example op_char`): every operator between
//! registers on an LFE5U-85F-6 with Yosys `synth_ecp5` + nextpnr-ecp5. The delay of an
//! operator is its register-to-register path minus the path of a register pair without logic.
//! A constant shift, a width change, a bitcast, a bit select (`extract`) and a concatenation
//! are wiring, at any width (floating-point values and aggregate images are moved as bits).
//! Single-precision float operations take the float units' latencies (`hwcontract::fp`).
//! Integer division and remainder take the dividers of [`crate::divide`]. Operations the
//! hardware path cannot build yet (transcendental functions, `fma`, conversions between float
//! precisions) are reported, not guessed.

use hls_ir::{BinOp, CmpOp, ConvOp, Kernel, LoopId, OpId, OpKind, Ty, UnOp};
// The float units' pipeline stages (operands to registered result) and the compare's delay:
// the hardware contract, which `rtl_templates::fp` builds.
use hwcontract::fp::{
    FP_ADD_LATENCY, FP_CMP_DELAY_NS, FP_DIV_LATENCY, FP_FROM_INT_LATENCY, FP_MUL_LATENCY,
    FP_SQRT_LATENCY, FP_TO_INT_LATENCY,
};

/// What the library says about one operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpTiming {
    /// Cycles from issue until the result is available (0 = combinational, chains).
    pub latency: u32,
    /// Combinational delay in ns before the result (or its first register).
    pub delay_ns: f64,
    /// For a multi-cycle operation whose result is not registered at its output: how far
    /// into its first cycle the result arrives (scheduler `Op::out_delay_ns`).
    pub out_delay_ns: f64,
    /// For a predicated multi-cycle operation: the input logic after its other operands, when
    /// it is shorter than after the predicate (`delay_ns`); see [`REQUEST_DATA_NS`].
    pub data_in_delay_ns: Option<f64>,
}

impl OpTiming {
    pub fn new(latency: u32, delay_ns: f64) -> Self {
        OpTiming {
            latency,
            delay_ns,
            out_delay_ns: 0.0,
            data_in_delay_ns: None,
        }
    }

    fn with_data_in_delay(mut self, data_in_delay_ns: f64) -> Self {
        self.data_in_delay_ns = Some(data_in_delay_ns);
        self
    }

    fn with_out_delay(mut self, out_delay_ns: f64) -> Self {
        self.out_delay_ns = out_delay_ns;
        self
    }
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

/// Cycles a copy loop (an async copy's DMA engine) leaves between a global read and its use:
/// enough to gather bursts of 16 beats and wait for memory (`rtl_templates`' read bursts).
pub const COPY_LOAD_LATENCY: u32 = 32;

/// The widths the operators were measured at; an operator of another width takes the numbers
/// of the next wider measurement (a 1-bit compare those of 8 bits).
const MEASURED_WIDTHS: [u32; 4] = [8, 16, 32, 64];

/// Combinational delay in ns at 8/16/32/64 bits (docs/benchmarks.md, "ECP5 operator library:
/// measurements": Fmax path of `add_N`, `cmp_N`, ... minus that of `reg_32`).
pub(crate) const ADD_SUB_NS: [f64; 4] = [1.72, 1.98, 2.56, 3.68];
/// Ordered compares, measured as signed less-than (carry chain plus sign handling).
const CMP_NS: [f64; 4] = [2.49, 3.07, 3.73, 5.02];
/// Equality and inequality (xor, then an and-reduction tree: no carry chain).
const EQ_NS: [f64; 4] = [1.79, 2.44, 2.71, 3.81];
/// Shift by a variable amount (a barrel shifter of log2(N) mux levels).
const SHIFT_VAR_NS: [f64; 4] = [2.20, 3.42, 4.81, 6.01];
/// And, or, xor: one LUT level.
const LOGIC_NS: [f64; 4] = [0.52, 0.55, 0.52, 0.59];
/// A 2-input select with a 1-bit condition.
pub(crate) const SELECT_NS: [f64; 4] = [0.75, 0.75, 0.89, 1.11];
/// A multiply up to its first register: the DSP's combinational 18x18 multiplier
/// (`mul_8_inferred`, `mul_16_inferred`); for 32 and 64 bits the first stage of the 16x16
/// partial products (`mul_32_split`, `mul_64_split`: the DSP's multiplier into fabric registers).
const MUL_STAGE_NS: [f64; 4] = [5.68, 5.87, 6.13, 6.65];
/// Routing into a DSP column and out of it, beyond what `MUL_STAGE_NS` measured (operands in
/// registers next to the multiplier): in kernels the operands come from logic elsewhere. Two
/// critical paths on the ECP5-85F, both 10.6 ns: `int4_ops` (a response FIFO's read into a
/// 32-bit multiply, modelled at 8.5 ns) and `cbrt`'s first version (an add into a 16-bit
/// multiply by a constant, modelled at 9.1 ns: 2.3 ns of routing to the DSP and 1.0 ns from
/// it). Charged only to multiplies outside recurrences ([`KernelFacts::mul_on_recurrence`])
/// of the widths not built in the DSPs' registers ([`dsp_mul_latency`]: those have the route
/// in a cycle of its own): on a recurrence a cycle more raised the II of 4 of the corpus's 631
/// loops (`collatz`, `horner`: 3 → 4), a third of their throughput for a few MHz.
pub const DSP_ROUTING_NS: f64 = 1.5;
/// The route into a DSP's input register and its setup, for multiplies built in the DSP's
/// registers ([`dsp_mul_latency`]): 0.84 ns measured with the operand register next to the DSP
/// (`mul_16_dsp_regs`, register to `A3`), plus [`DSP_ROUTING_NS`] for operands from logic
/// elsewhere.
pub const DSP_INPUT_NS: f64 = 0.84 + DSP_ROUTING_NS;
/// An EBR (DP16KD) read: the data output into a fabric register, without the EBR's output
/// register (`ebr_inferred`): the on-chip load result arrives this late in its cycle.
pub const EBR_READ_NS: f64 = 6.20;
/// A global load's data read from the port's response FIFO (`load_fifo_32`: 4 entries, the
/// default latency 3).
pub const LOAD_FIFO_READ_NS: f64 = 2.36;
/// The same read from deeper response FIFOs (a port's loads in one pipeline get `latency + 1`
/// entries each, so 32 and more at the board's latency 16): (entries, ns), the paths of
/// `load_fifo_32_d16`, `_d32` and `_d64` less the register overhead (upper bounds: their
/// critical path is the write enable). Above 32 entries the FIFO is an EBR with its data
/// registered.
const LOAD_FIFO_READ_DEEP_NS: [(u32, f64); 3] = [(16, 3.48), (32, 3.82), (64, 2.52)];
/// A LUT RAM read of up to [`LUTRAM_MAX_ELEMS`] elements into a register: the 4-deep FIFO's
/// read (`load_fifo_32`) plus a 2-input select level for the DPR16X4 banks (not measured
/// separately).
pub const LUTRAM_READ_NS: f64 = LOAD_FIFO_READ_NS + 0.89;
/// Logic of a float unit's first stage, before its first register: at most the slowest stage
/// of any unit (4.24–4.73 ns measured, `fp_*` in docs/benchmarks.md).
pub const FP_INPUT_NS: f64 = 4.75;
/// A global read or atomic request's handshake before its first register: the predicate
/// makes the request and, through the port's arbiter and `ready`, the pipeline's `stall`,
/// which reaches the enable of every register of the pipeline
/// (`rtl_templates::kernel::control`). Measured in the board system of `tests/emu/atomics.cl`
/// at 50 MHz (13k LUTs): 13.4 ns from an atomic's predicate to the enables, on a failing
/// 21.9 ns path that began with a 32-entry response FIFO's read (4.8 ns) and a compare. The
/// chain model clamps it to the period, so at 100 MHz and above a request's operands come
/// from registers. Until the stall is registered (issue 17) a request costs a cycle of
/// latency after the logic that computes its operands.
pub const REQUEST_NS: f64 = 13.4;
/// A global read's or atomic's address and data operands: they only reach the port, not the
/// stall. The read burst unit (`oclhls_rburst`) compares the address with the open burst's
/// next one (a 32-bit equality, 2.71 ns in the operator table) and selects its registers
/// (a select, 0.89 ns); the atomic unit latches its operands.
pub const REQUEST_DATA_NS: f64 = 3.6;
/// A global store's handshake: the predicate makes the write-combining unit's `valid`
/// (its address compare and buffer write), not the stall (a store stage waits for `ready`
/// whatever its predicate). Estimated: two LUT levels and their routing.
pub const STORE_REQUEST_NS: f64 = 2.5;
/// The select bits beyond which a condition's net costs more than the operator table says:
/// `SELECT_NS` measured one select alone, its condition next to its LUTs.
pub const WIDE_CONDITION_BITS: u32 = 32;
/// The routing a condition takes to more select bits than that (several selects: the swap of
/// a compare-and-swap, `a > b ? a : b` beside `a > b ? b : a`, or one of 64 bits). Not
/// measured alone: in `sort4` (`tests/kernels/array_regs.cl`, session 17) a compare into two
/// 32-bit selects into the next compare took 12.1 ns of logic and routing on the ECP5-85F
/// where the table sums to 8.35 ns; this term alone is enough to end the chain after the
/// selects there. A uniform term on every chained operation (0.8 ns) changed the II of 183
/// of the corpus's 538 loops and was not kept (docs/benchmarks.md).
pub const WIDE_CONDITION_NS: f64 = 0.8;
/// Register-to-register path without logic (`reg_32`): clock-to-out, routing, setup.
pub const REG_TO_REG_NS: f64 = 1.05;
/// Routing margin added to the register overhead for chaining. Not measured: the operators
/// were placed alone, while in a kernel operands come from further away and the stall
/// fans out to every pipeline register.
pub const ROUTING_MARGIN_NS: f64 = 0.45;

pub(crate) fn measured(table: &[f64; 4], bits: u32) -> f64 {
    let i = MEASURED_WIDTHS
        .iter()
        .position(|&w| bits <= w)
        .unwrap_or(MEASURED_WIDTHS.len() - 1);
    table[i]
}

/// Pipeline stages of a multiply of `bits` bits: one DSP stage up to 18 bits (`mul_16_inferred`
/// reaches 145 MHz); 32 bits as 16x16 partial products registered, then summed (2 stages,
/// `mul_32_split`); 64 bits as ten 16x16 partial products and three adder stages (4 stages,
/// `mul_64_split`; in one stage it reaches only about 70 MHz). `rtl-templates` builds exactly
/// these structures (`emit_mul`).
/// Cycles of an integer multiply built in the DSPs' own input and output registers
/// (`oclhls_fp_mul18`, a `MULT18X18D` with both), for the widths built that way: up to 18
/// bits one DSP (2 stages); 32 bits three 16x16 products (2 stages) then their sum; 64 bits
/// ten 16x16 products then three adder stages. Routing into and out of a DSP column then
/// lies between registers with nothing else on the path. Other widths: `None`.
pub fn dsp_mul_latency(bits: u32) -> Option<u32> {
    match bits {
        0..=18 => Some(2),
        32 => Some(3),
        64 => Some(5),
        _ => None,
    }
}

/// Cycles of an integer multiply between fabric registers (the DSP's combinational
/// multiplier): what a multiply on a recurrence uses, where each cycle can raise the II.
pub fn mul_latency(bits: u32) -> u32 {
    match bits {
        0..=18 => 1,
        19..=36 => 2,
        _ => 4,
    }
}

impl Default for OpLibrary {
    fn default() -> Self {
        OpLibrary {
            clock_mhz: 100.0,
            register_overhead_ns: REG_TO_REG_NS + ROUTING_MARGIN_NS,
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

    /// Timing of a single-precision float operation (`None`: not a float operation). The
    /// units are `rtl-templates`' `oclhls_fp_*` modules; their latencies are the constants
    /// below (the RTL tests check the modules against them).
    fn float_timing(&self, k: &Kernel, op: OpId) -> Result<Option<OpTiming>, String> {
        let o = k.op(op);
        let unit = |latency: u32, delay_ns: f64| Ok(Some(OpTiming::new(latency, delay_ns)));
        let single = |t: Ty| {
            if t == Ty::Float(32) {
                Ok(())
            } else {
                Err(format!(
                    "`{t}` arithmetic is not built in hardware (only `f32`)"
                ))
            }
        };
        match &o.kind {
            OpKind::Binary(b) => match b {
                BinOp::FAdd | BinOp::FSub => {
                    single(o.ty)?;
                    unit(FP_ADD_LATENCY, FP_INPUT_NS)
                }
                BinOp::FMul => {
                    single(o.ty)?;
                    unit(FP_MUL_LATENCY, FP_INPUT_NS)
                }
                // Compare, then a NaN/flush select.
                BinOp::FMin | BinOp::FMax => {
                    single(o.ty)?;
                    unit(0, FP_CMP_DELAY_NS + 2.0 * measured(&SELECT_NS, 32))
                }
                BinOp::FDiv => {
                    single(o.ty)?;
                    unit(FP_DIV_LATENCY, FP_INPUT_NS)
                }
                _ => Ok(None),
            },
            OpKind::Unary(u) => match u {
                // The sign bit: wiring.
                UnOp::FNeg | UnOp::FAbs => unit(0, 0.0),
                UnOp::FSqrt => {
                    single(o.ty)?;
                    unit(FP_SQRT_LATENCY, FP_INPUT_NS)
                }
                _ => Ok(None),
            },
            OpKind::Cmp(
                CmpOp::FEq | CmpOp::FNe | CmpOp::FLt | CmpOp::FLe | CmpOp::FGt | CmpOp::FGe,
            ) => {
                single(k.op(k.operands(op)[0]).ty)?;
                unit(0, FP_CMP_DELAY_NS + measured(&LOGIC_NS, 8))
            }
            OpKind::Convert(c) => {
                let from = k.op(k.operands(op)[0]).ty;
                match c {
                    ConvOp::SIToF | ConvOp::UIToF => {
                        single(o.ty)?;
                        // The first stage takes the magnitude (a negation).
                        unit(FP_FROM_INT_LATENCY, measured(&ADD_SUB_NS, from.bits()))
                    }
                    ConvOp::FToSI { .. } | ConvOp::FToUI { .. } => {
                        single(from)?;
                        if ![8, 16, 32, 64].contains(&o.ty.bits()) {
                            return Err(format!(
                                "a conversion from `f32` to `{}` is not built in hardware",
                                o.ty
                            ));
                        }
                        unit(FP_TO_INT_LATENCY, FP_INPUT_NS)
                    }
                    ConvOp::FExt | ConvOp::FTrunc => {
                        Err("conversions between float precisions are not built in hardware".into())
                    }
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// The period available to a chain of combinational operations.
    pub fn chain_budget_ns(&self) -> f64 {
        (1000.0 / self.clock_mhz - self.register_overhead_ns).max(0.5)
    }

    /// Timing of `op`, or a reason why the hardware path cannot build it yet. One pass over
    /// the kernel for its global reads; [`Self::timing_in`] for every op of a kernel.
    pub fn timing(&self, k: &Kernel, op: OpId) -> Result<OpTiming, String> {
        self.timing_in(k, op, &KernelFacts::of(k))
    }

    /// [`Self::timing`] with the kernel's facts counted once (`facts`). A value that is the
    /// condition of wider selects than the operator table measured takes
    /// [`WIDE_CONDITION_NS`] more, a multiply off the loop's recurrences [`DSP_ROUTING_NS`].
    pub fn timing_in(&self, k: &Kernel, op: OpId, facts: &KernelFacts) -> Result<OpTiming, String> {
        let mut t = self.op_timing(k, op, facts)?;
        if t.latency == 0 && facts.select_bits(op) > WIDE_CONDITION_BITS {
            t.delay_ns += WIDE_CONDITION_NS;
        }
        if is_multiply(&k.op(op).kind)
            && !facts.mul_on_recurrence(op)
            && facts.dsp_form(k, op).is_none()
        {
            t.delay_ns += DSP_ROUTING_NS;
        }
        Ok(t)
    }

    /// The operator table's timing of `op` alone.
    fn op_timing(&self, k: &Kernel, op: OpId, facts: &KernelFacts) -> Result<OpTiming, String> {
        let o = k.op(op);
        let bits = o.ty.bits();
        let comb = |delay_ns: f64| Ok(OpTiming::new(0, delay_ns));
        if let Some(t) = self.float_timing(k, op)? {
            return Ok(t);
        }
        match &o.kind {
            OpKind::Const(_) | OpKind::Arg(_) | OpKind::WorkItem(..) => comb(0.0),
            OpKind::Binary(b) => match b {
                BinOp::Add | BinOp::Sub => comb(measured(&ADD_SUB_NS, bits)),
                BinOp::MinS | BinOp::MinU | BinOp::MaxS | BinOp::MaxU => {
                    comb(measured(&CMP_NS, bits) + measured(&SELECT_NS, bits))
                }
                BinOp::And | BinOp::Or | BinOp::Xor => comb(measured(&LOGIC_NS, bits)),
                BinOp::Shl | BinOp::ShrU | BinOp::ShrS => {
                    let amount = k.operands(op)[1];
                    if matches!(k.op(amount).kind, OpKind::Const(_)) {
                        comb(0.0)
                    } else {
                        comb(measured(&SHIFT_VAR_NS, bits))
                    }
                }
                // Off recurrences, in the DSP's registers: only the route to the DSP's input
                // register is in the issuing cycle. Otherwise the first stage holds the DSP
                // multiply, so little may chain in front of it.
                BinOp::Mul | BinOp::MulHiS | BinOp::MulHiU => match facts.dsp_form(k, op) {
                    Some(lat) => Ok(OpTiming::new(lat, DSP_INPUT_NS)),
                    None => Ok(OpTiming::new(
                        mul_latency(bits),
                        measured(&MUL_STAGE_NS, bits),
                    )),
                },
                // The pipelined divider; the scheduler may choose the iterative one instead
                // (`crate::divide`).
                BinOp::DivS | BinOp::DivU | BinOp::RemS | BinOp::RemU => {
                    Ok(crate::divide::pipelined_timing(self, k, op))
                }
                _ => Err(format!("`{}` is not yet built in hardware", o.kind)),
            },
            OpKind::Unary(u) => match u {
                UnOp::Not => comb(measured(&LOGIC_NS, bits)),
                UnOp::Neg => comb(measured(&ADD_SUB_NS, bits)),
                UnOp::AbsS => comb(measured(&ADD_SUB_NS, bits) + measured(&SELECT_NS, bits)),
                _ => Err(format!("`{}` is not yet built in hardware", o.kind)),
            },
            OpKind::Cmp(c) => {
                let w = k.op(k.operands(op)[0]).ty.bits();
                match c {
                    CmpOp::Eq | CmpOp::Ne => comb(measured(&EQ_NS, w)),
                    _ => comb(measured(&CMP_NS, w)),
                }
            }
            // A mux per bit: as fast at any width as at 64 bits.
            OpKind::Select => comb(measured(&SELECT_NS, bits)),
            OpKind::Extract { .. } | OpKind::Concat => comb(0.0),
            OpKind::Convert(c) => match c {
                ConvOp::Trunc | ConvOp::ZExt | ConvOp::SExt | ConvOp::Bitcast => comb(0.0),
                _ => Err("floating-point conversions are not yet built in hardware".into()),
            },
            OpKind::Load { mem } => match k.mem(*mem).kind {
                // The data leaves the port's response FIFO (distributed RAM) combinationally
                // (`load_fifo_32`).
                hls_ir::MemKind::Global { .. } => {
                    // A copy loop (an async copy's DMA engine) streams: it allows time for
                    // its reads to gather into bursts and for memory to answer them.
                    let copy = matches!(k.loops[o.region].kind, hls_ir::LoopKind::Copy { .. });
                    let lat = if copy {
                        self.global_load_latency.max(COPY_LOAD_LATENCY)
                    } else {
                        self.global_load_latency.max(2)
                    };
                    Ok(OpTiming::new(lat, REQUEST_NS)
                        .with_data_in_delay(REQUEST_DATA_NS)
                        .with_out_delay(response_fifo_read_ns(facts.count(o.region, *mem), lat)))
                }
                // On-chip memory with a synchronous read: the address is registered at the
                // end of the issuing cycle, the data is there in the next. A small memory is
                // LUT RAM (`onchip_in_lutram`): the read itself happens in the issuing cycle
                // into a fabric register. A larger one is an EBR whose data arrives late in
                // the next cycle (no output register, `ebr_inferred`).
                // A memory with atomics adds the forwarding choice after the read register
                // (`rtl_templates::kernel::onchip_atomic`).
                hls_ir::MemKind::Local { len }
                | hls_ir::MemKind::Private { len }
                | hls_ir::MemKind::Program { len, .. } => {
                    let lat = onchip_read_latency(k, *mem);
                    let fwd = forwarding_ns(k, *mem, bits);
                    if lat == 2 {
                        Ok(OpTiming::new(2, 1.0).with_out_delay(fwd))
                    } else if onchip_in_lutram(len) && fwd == 0.0 {
                        Ok(OpTiming::new(1, LUTRAM_READ_NS))
                    } else if onchip_in_lutram(len) {
                        Ok(OpTiming::new(1, LUTRAM_READ_NS).with_out_delay(fwd))
                    } else {
                        Ok(OpTiming::new(1, 1.0).with_out_delay(EBR_READ_NS + fwd))
                    }
                }
            },
            OpKind::Store { mem, .. } => match k.mem(*mem).kind {
                hls_ir::MemKind::Global { .. } => Ok(OpTiming::new(1, STORE_REQUEST_NS)),
                _ => Ok(OpTiming::new(1, 0.5)),
            },
            // A global atomic is a read request with an opcode: timed like a load.
            OpKind::Atomic { mem, .. } => match k.mem(*mem).kind {
                hls_ir::MemKind::Global { .. } => {
                    let lat = self.global_load_latency.max(2);
                    Ok(OpTiming::new(lat, REQUEST_NS)
                        .with_data_in_delay(REQUEST_DATA_NS)
                        .with_out_delay(response_fifo_read_ns(facts.count(o.region, *mem), lat)))
                }
                // On-chip: read in the issue cycle like a load; when the read is there (the
                // memory's read latency) the old value leaves the read register through the
                // forwarding choice (`rtl_templates::kernel::onchip_atomic`) and the new value
                // is computed and registered; it is written one cycle later (the scheduler
                // reserves the write port's slot then).
                hls_ir::MemKind::Local { len }
                | hls_ir::MemKind::Private { len }
                | hls_ir::MemKind::Program { len, .. } => {
                    let lat = onchip_read_latency(k, *mem);
                    let read = if lat == 2 {
                        0.0
                    } else if onchip_in_lutram(len) {
                        LUTRAM_READ_NS
                    } else {
                        EBR_READ_NS
                    };
                    Ok(OpTiming::new(lat, 1.0).with_out_delay(read + forwarding_ns(k, *mem, bits)))
                }
            },
            // The first iteration's value or the previous iteration's: one 2-input mux.
            OpKind::Carried => comb(measured(&SELECT_NS, bits)),
            // Starting a nested loop: its results are ready (at the earliest) one cycle later;
            // the pipeline waits there until the loop has finished.
            OpKind::Loop(_) => Ok(OpTiming::new(1, 0.5)),
            OpKind::LoopResult | OpKind::LoopExit => comb(0.0),
            // Waiting for async copies: the work-item waits in its stage until they are idle;
            // what follows goes at least one cycle later.
            OpKind::WaitEvents => Ok(OpTiming::new(1, 0.5)),
            // Pipe FIFO operations (docs/hardware-interface.md, "Pipe FIFOs"): the strobe
            // leaves in the issuing cycle; read data and reservation ids come back registered
            // in the next cycle, write statuses in the same cycle (combinational from the
            // FIFO's registers and this side's inputs).
            OpKind::PipeRead { .. } | OpKind::PipeReserve { .. } => {
                Ok(OpTiming::new(1, measured(&EQ_NS, 32)))
            }
            OpKind::PipeWrite { .. } => comb(measured(&CMP_NS, 32)),
            OpKind::PipeCommit { .. } => Ok(OpTiming::new(1, 0.5)),
            OpKind::PipeQuery { .. } => comb(0.0),
            // An atomic counter update: in its issuing cycle the number of updates of the same
            // counter before it in that cycle (a prefix sum of request bits) is added to the
            // counter register, into a register: the old value is there in the next cycle. No
            // resource: the prefix sum serves every update of a cycle.
            OpKind::CounterUpdate { .. } => Ok(OpTiming::new(
                1,
                measured(&ADD_SUB_NS, 8) + measured(&ADD_SUB_NS, bits),
            )),
            other => Err(format!(
                "`{}` is not yet supported by the hardware path",
                other.mnemonic()
            )),
        }
    }
}

/// What the timing of an op needs to know about the rest of its kernel, counted in one pass:
/// the reads (loads and atomics) of each memory in each loop region (the size of the region's
/// response buffer on the memory's port), and the bits of the selects each value is the
/// condition of (its net's fan-out).
#[derive(Clone, Debug, Default)]
pub struct KernelFacts {
    reads: std::collections::BTreeMap<(LoopId, hls_ir::MemId), u32>,
    select_bits: std::collections::BTreeMap<OpId, u32>,
    /// The integer multiplies whose latency counts toward their loop's II: on a recurrence
    /// ([`on_recurrence`]), or in a loop that holds one iteration at a time
    /// (`hls_ir::analysis::serial`).
    recurrent_muls: std::collections::BTreeSet<OpId>,
}

/// An integer multiply (low or high half): a DSP block on ECP5.
fn is_multiply(kind: &OpKind) -> bool {
    matches!(
        kind,
        OpKind::Binary(BinOp::Mul | BinOp::MulHiS | BinOp::MulHiU)
    )
}

impl KernelFacts {
    /// Counts the reads and the select conditions of `k` in one pass.
    pub fn of(k: &Kernel) -> Self {
        let mut facts = KernelFacts::default();
        let serial = hls_ir::analysis::serial::serial_regions(k);
        for o in k.op_ids() {
            let op = k.op(o);
            match op.kind {
                OpKind::Load { mem } | OpKind::Atomic { mem, .. } => {
                    *facts.reads.entry((op.region, mem)).or_insert(0) += 1;
                }
                OpKind::Select => {
                    let cond = k.operands(o)[0];
                    *facts.select_bits.entry(cond).or_insert(0) += op.ty.bits();
                }
                ref kind
                    if is_multiply(kind)
                        && (serial[op.region].is_some() || on_recurrence(k, o)) =>
                {
                    facts.recurrent_muls.insert(o);
                }
                _ => {}
            }
        }
        facts
    }

    /// The reads of `mem` in `region`.
    pub fn count(&self, region: LoopId, mem: hls_ir::MemId) -> u32 {
        self.reads.get(&(region, mem)).copied().unwrap_or(0)
    }

    /// The bits of the selects `op` is the condition of.
    pub fn select_bits(&self, op: OpId) -> u32 {
        self.select_bits.get(&op).copied().unwrap_or(0)
    }

    /// Whether the latency of integer multiply `op` counts toward its loop's II: it lies on a
    /// recurrence or its loop holds one iteration at a time (counted in [`Self::of`]).
    pub fn mul_on_recurrence(&self, op: OpId) -> bool {
        self.recurrent_muls.contains(&op)
    }

    /// The latency of integer multiply `op` built in the DSPs' own registers, when it is: a
    /// width [`dsp_mul_latency`] knows, off recurrences. The one place the scheduler decides
    /// it (the emitter builds that form whenever the scheduled latency reaches it).
    pub fn dsp_form(&self, k: &Kernel, op: OpId) -> Option<u32> {
        dsp_mul_latency(k.op(op).ty.bits()).filter(|_| !self.mul_on_recurrence(op))
    }
}

/// Whether `op` lies on a cycle of dependences (of any kind and distance) within its region:
/// a recurrence, where a cycle more of latency can raise the II.
fn on_recurrence(k: &Kernel, op: OpId) -> bool {
    let region = k.op(op).region;
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<OpId> = vec![op];
    while let Some(o) = stack.pop() {
        for (p, _) in k.preds(o) {
            if p == op {
                return true;
            }
            if k.op(p).region == region && seen.insert(p) {
                stack.push(p);
            }
        }
    }
    false
}

/// How late the data of a global read leaves its response FIFO, when the read's region has
/// `reads` reads of its memory scheduled `lat` cycles before their uses: the FIFO's depth is
/// `hwcontract::read_port::response_buffer_depth` of them (reads whose results are dropped
/// are counted too, an upper bound).
fn response_fifo_read_ns(reads: u32, lat: u32) -> f64 {
    let depth = hwcontract::read_port::response_buffer_depth((0..reads.max(1)).map(|_| lat));
    if depth <= 4 {
        return LOAD_FIFO_READ_NS;
    }
    // Deeper than the table: an EBR like the last row.
    let ebr = LOAD_FIFO_READ_DEEP_NS[LOAD_FIFO_READ_DEEP_NS.len() - 1].1;
    LOAD_FIFO_READ_DEEP_NS
        .iter()
        .find(|&&(d, _)| depth <= d)
        .map_or(ebr, |&(_, ns)| ns)
}

/// On-chip memories of at most this many elements are built as LUT RAM (`rtl-templates`
/// marks them `ram_style = "distributed"`), larger ones as EBR (DP16KD). ROMs (program-scope
/// `constant` data) follow the same threshold: up to 64 elements a LUT ROM (`rom_style =
/// "logic"`: a 64-entry read is one LUT4 + PFUMX + L6MUX level, 128 LUT4 + 96 muxes for
/// 32-bit words), above it an EBR with initial contents. Measured with Yosys `synth_ecp5` on a
/// registered-read ROM of 32-bit words (`docs/benchmarks.md`, "ROMs"): Yosys' own choice
/// switches to a DP16KD between 64 and 128 elements, where the LUT ROM would take 256+ LUT4
/// and a second mux level (623 LUT4 at 256 elements).
pub const LUTRAM_MAX_ELEMS: u32 = 64;

/// Whether an on-chip memory of `len` elements is LUT RAM (else EBR).
pub fn onchip_in_lutram(len: u32) -> bool {
    len <= LUTRAM_MAX_ELEMS
}

/// Registered read ports of an on-chip memory (`local` or private array); see
/// `hls_ir::kernel::ONCHIP_READ_PORTS`, which array banking plans with.
pub const ONCHIP_READ_PORTS: u32 = hls_ir::kernel::ONCHIP_READ_PORTS;

/// True for values that never need pipeline registers: constants, arguments and launch-wide
/// work-item values are held in registers for the whole run.
pub fn is_invariant(k: &Kernel, op: OpId) -> bool {
    k.op(op).kind.is_launch_invariant()
}

/// The type used for an IR value in hardware (for reports).
pub fn width_of(ty: Ty) -> u32 {
    ty.bits()
}

/// Whether some atomic of kernel `k` works on memory `mem`.
fn has_atomics(k: &Kernel, mem: hls_ir::MemId) -> bool {
    k.op_ids()
        .into_iter()
        .any(|o| matches!(k.op(o).kind, OpKind::Atomic { mem: m, .. } if m == mem))
}

/// The read latency of on-chip memory `mem` of kernel `k`. An EBR with atomics registers the
/// EBR's data once more (2 cycles), so the EBR's slow output is off the atomics' path; every
/// other on-chip memory reads in 1 (`rtl_templates::kernel::onchip_atomic`).
pub fn onchip_read_latency(k: &Kernel, mem: hls_ir::MemId) -> u32 {
    match k.mem(mem).kind {
        hls_ir::MemKind::Local { len }
        | hls_ir::MemKind::Private { len }
        | hls_ir::MemKind::Program { len, .. }
            if !onchip_in_lutram(len) && has_atomics(k, mem) =>
        {
            2
        }
        _ => 1,
    }
}

/// The forwarding choice after an on-chip read of a memory with atomics: one select level per
/// write the read may have missed (2 at read latency 1, 3 at 2); nothing without atomics.
fn forwarding_ns(k: &Kernel, mem: hls_ir::MemId, bits: u32) -> f64 {
    if !has_atomics(k, mem) {
        return 0.0;
    }
    f64::from(onchip_read_latency(k, mem) + 1) * measured(&SELECT_NS, bits)
}
