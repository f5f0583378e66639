//! The integer dividers' timing: how many cycles the pipelined divider (`oclhls_int_div`) and
//! the iterative divider (`oclhls_int_div_iter`, both in `rtl-templates/templates/`) take for
//! their parameters, and the inverse the RTL generator uses to rebuild a unit from the latency
//! the scheduler gave it.
//!
//! Both units compute the quotient and the remainder of one operation (radix 2, restoring:
//! one quotient bit per step) on `WIDTH`-bit operands, signed (`SIGNED` = 1: on magnitudes,
//! the signs applied at the end) or unsigned; their values are the IR's
//! (`hls_ir::integer::binary`): `x / 0 = 0`, `x % 0 = x`, `MIN / -1 = MIN`, `MIN % -1 = 0`.
//! Every register is enabled by `ce` (the kernel pipeline's `!stall`).
//!
//! - **Pipelined** (`oclhls_int_div #(WIDTH, SIGNED, STAGES)`): a new operation every cycle.
//!   The `WIDTH` steps are spread evenly over `STAGES` register stages (1 ≤ `STAGES` ≤
//!   `WIDTH`); a signed unit takes the operands' magnitudes before its first register and
//!   applies the signs in one more stage. Latency: `STAGES` (+ 2 when signed).
//! - **Iterative** (`oclhls_int_div_iter #(WIDTH, SIGNED, STEP)`): one operation at a time,
//!   `STEP` steps per cycle. `start` loads the operands (their magnitudes); `ceil(WIDTH /
//!   STEP)` cycles of steps follow; a signed unit applies the signs in one more register. The
//!   unit takes the next `start` once its steps are done ([`iterative_busy`] cycles after the
//!   previous one) and holds each result until the next one is there.

/// The narrowest unit built: a 1-bit division is extended to 2 bits (both units read the
/// operands' top bits and the bits below them).
pub const MIN_WIDTH: u32 = 2;

/// The `WIDTH` of the unit that divides `bits`-bit values.
pub fn unit_width(bits: u32) -> u32 {
    bits.max(MIN_WIDTH)
}

/// Cycles from the operands of a pipelined divider to its registered quotient and remainder.
pub fn pipelined_latency(signed: bool, stages: u32) -> u32 {
    stages + 2 * u32::from(signed)
}

/// The `STAGES` of a pipelined divider whose latency is `latency` (the inverse of
/// [`pipelined_latency`]); at least 1.
pub fn pipelined_stages(signed: bool, latency: u32) -> u32 {
    latency.saturating_sub(2 * u32::from(signed)).max(1)
}

/// Cycles of steps of an iterative divider doing `step` quotient bits a cycle.
pub fn iterative_cycles(width: u32, step: u32) -> u32 {
    width.div_ceil(step.clamp(1, width.max(1)))
}

/// Cycles from `start` of an iterative divider to its quotient and remainder: the load, the
/// steps, and for a signed unit the register applying the signs.
pub fn iterative_latency(width: u32, signed: bool, step: u32) -> u32 {
    1 + iterative_cycles(width, step) + u32::from(signed)
}

/// Cycles an iterative divider is busy per operation: the next `start` may come this many
/// cycles after the previous one (the scheduler's blocking time).
pub fn iterative_busy(width: u32, step: u32) -> u32 {
    1 + iterative_cycles(width, step)
}

/// The `STEP` of an iterative divider of `width` bits whose latency is `latency` (the inverse
/// of [`iterative_latency`]).
pub fn iterative_step(width: u32, signed: bool, latency: u32) -> u32 {
    let cycles = latency
        .saturating_sub(1 + u32::from(signed))
        .clamp(1, width.max(1));
    width.div_ceil(cycles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverses_rebuild_the_unit() {
        for width in 2..=64 {
            for signed in [false, true] {
                for stages in 1..=width {
                    let l = pipelined_latency(signed, stages);
                    assert_eq!(pipelined_stages(signed, l), stages);
                }
                for step in 1..=width {
                    let l = iterative_latency(width, signed, step);
                    let s = iterative_step(width, signed, l);
                    // Another step may give the same number of cycles; the latency is what
                    // counts.
                    assert_eq!(iterative_latency(width, signed, s), l, "{width} {step}");
                    assert!(s <= step);
                }
            }
        }
        assert_eq!(iterative_busy(32, 2), 17);
        assert_eq!(iterative_latency(32, true, 2), 18);
        assert_eq!(unit_width(1), 2);
    }
}
