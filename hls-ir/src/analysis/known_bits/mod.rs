//! `known-bits`: what is known about every integer value of up to 64 bits, in every execution:
//! bits known to be 0 or 1, an unsigned range and a signed range (LLVM's `KnownBits` and
//! `ConstantRange`, kept side by side and refining each other).
//!
//! Forward over the dataflow graph in a topological order of its distance-0 edges. Sources of
//! facts: constants, extensions (`zext` clears the high bits, `sext` copies the sign),
//! truncations and bit selects, `and`/`or`/`xor` with constants, shifts and `udiv`/`urem` by
//! constants, additions and multiplications whose interval does not wrap, min/max, selects
//! (each arm refined by its condition: in `c ? x : K`, `x` satisfies `!c` where `c` compares `x`),
//! and comparisons whose outcome the ranges decide.
//!
//! Loop-carried values are the one cycle: a `Carried` value is its `init` (refined by the
//! loop's `enter` condition) or a previous iteration's `next` (refined by the facts that hold
//! whenever the loop continues, i.e. whenever its exit condition is false). They start from
//! `init` alone and grow until nothing changes; a value still growing after a few rounds is
//! widened to "anything the continue condition allows", so `for (i = 0; i < 16; i++)` gives
//! `i` in `[0, 15]` and `i + 1` in `[1, 16]` without unrolling anything. If the rounds do not
//! settle within a hard limit, every carried value is taken as unknown (always sound).
//!
//! Work-item ids, arguments, loads and everything else the analysis does not model (including
//! operations added to the IR later) are unknown: any value of their width. Floating-point and
//! wider-than-64-bit values have no facts.
//!
//! Guarantees: for every op with facts, every value it takes in any execution of the kernel
//! lies in its ranges and agrees with its known bits (the facts describe the IR as analysed;
//! a pass that changes the IR must run the analysis again).
//!
//! Modules: `facts` (the lattice: [`Facts`], meet, join, normalisation), `compare` (what a
//! comparison decides and implies), `conditions` (the comparisons a condition implies, and
//! those of loops), `transfer` (transfer functions by op family), `refine` (facts refined by
//! the conditions under which a value is used) and `fixpoint` (the rounds to a fixed point over
//! the whole kernel, with widening of loop-carried values).

mod compare;
mod conditions;
mod facts;
mod fixpoint;
mod refine;
#[cfg(test)]
mod tests;
mod transfer;

pub use compare::{decide_cmp, negate_cmp, swap_cmp};
pub use conditions::{facts_when, Fact};
pub use facts::Facts;
pub use fixpoint::{analyse, has_facts, topo_order, KnownBits};
