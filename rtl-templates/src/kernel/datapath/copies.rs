//! The copies of values carried down a pipeline to the later stages that read them
//! (`<name>_cN`, the copy in stage N), all enabled by the region's `!stall`.
//!
//! A value read only after a gap of [`LINE_MIN_STAGES`] stages or more crosses the gap in a
//! *delay line*: a circular buffer of `N = gap - 1` entries written and read at one pointer
//! that moves with `!stall`, then the copy in the reading stage as its output register. It
//! behaves exactly as `gap` registers in a row: after an enabled cycle k the output holds what
//! was written at cycle k - N, that is the source of `gap - 1` enabled cycles earlier (the
//! last register of a chain of `gap` holds the same). A buffer read asynchronously and written
//! synchronously maps to distributed RAM (`TRELLIS_DPR16X4` on ECP5: 16 x 4 bits in the LUTs
//! of a slice pair; SRLs on Xilinx parts), or to a block RAM if Yosys judges it better, so a
//! long line costs a few LUTs per 4 bits instead of one flip-flop per bit per stage: the
//! float math units carry values across tens of stages (`cbrt`: 14 183 of its 16 954
//! flip-flops were such copies).
//!
//! A line of [`LINE_BLOCK_ENTRIES`] entries or more goes to a block RAM (`ram_style`), the
//! shorter ones to LUT RAM, so the choice does not move with Yosys' costs. A block RAM's read
//! is slow (a DP16KD's data comes 5.8 ns after the clock without its output register: `cbrt`'s
//! critical path after the registered stall, into a store's write data), so a block line has
//! one entry less and a register of its own after the RAM's (`<name>_line_c<to>_q`): the
//! stage's copy then starts from a flip-flop.
//!
//! The buffers hold no reset: like the registers they replace, their contents matter only
//! where a valid work-item reads them.

use super::super::plan::is_per_item;
use super::super::Emitter;
use crate::writer::{literal, VWriter};
use hls_ir::OpId;
use std::collections::BTreeMap;

/// Gaps of this many stages or more between a value's uses cross in a delay line: below it,
/// the pointer's logic and the output register cost about what the flip-flops saved.
pub(crate) const LINE_MIN_STAGES: u32 = 5;

/// Lines of this many entries or more are block RAMs with a register after the RAM's output;
/// shorter ones are LUT RAM (a 47 x 32 line: 3 x 8 `TRELLIS_DPR16X4`).
pub(crate) const LINE_BLOCK_ENTRIES: u32 = 48;

/// The buffer of a delay line from stage `from` to `to`: its entries, and whether it is a
/// block RAM (then followed by a register of its own, see the module documentation).
fn line_buffer(from: u32, to: u32) -> (u32, bool) {
    let n = to - from - 1;
    if n >= LINE_BLOCK_ENTRIES {
        (n - 1, true)
    } else {
        (n, false)
    }
}

/// How a value travels from the stage where it is available to its last use.
struct Carried {
    x: OpId,
    /// Stages that hold a register copy fed by the previous stage (`_cN <= _c(N-1)`).
    shifts: Vec<u32>,
    /// Delay lines `(from, to)`: the copy in stage `to` is the line's output, fed by the
    /// value as seen in stage `from`.
    lines: Vec<(u32, u32)>,
}

/// Splits the stages `a + 1 ..= u` of a value available in `a` into register copies and delay
/// lines: a line spans a gap of at least [`LINE_MIN_STAGES`] between consecutive readers.
fn plan_copies(a: u32, u: u32, readers: impl Iterator<Item = u32>) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut shifts = Vec::new();
    let mut lines = Vec::new();
    let mut prev = a;
    for t in readers
        .filter(|&t| t > a && t <= u)
        .chain(std::iter::once(u))
    {
        if t <= prev {
            continue;
        }
        if t - prev >= LINE_MIN_STAGES {
            lines.push((prev, t));
        } else {
            shifts.extend(prev + 1..=t);
        }
        prev = t;
    }
    (shifts, lines)
}

impl Emitter<'_> {
    /// Pipeline registers and delay lines carrying the values of the region being emitted to
    /// the later stages that read them; concatenations are rebuilt there from their parts'
    /// copies.
    pub(super) fn emit_value_registers(&mut self, w: &mut VWriter) {
        let r = self.cur;
        let p = &self.plan;
        let mut carried: Vec<(OpId, u32, u32)> = Vec::new();
        for (&x, &u) in &p.last_use {
            if p.region_of(x) != r || is_per_item(&self.k.op(x).kind) && r != 0 {
                continue;
            }
            let a = p.avail[&x];
            if u > a {
                carried.push((x, a, u));
            }
        }
        // Concatenations rebuilt in later stages: wires of the parts' copies there.
        for &(x, a, _) in carried.iter().filter(|(x, _, _)| p.remat.contains(x)) {
            let parts = self.k.operands(x);
            let cycles: Vec<u32> = p.use_cycles[&x].range(a + 1..).copied().collect();
            for c in cycles {
                let vals: Vec<String> = parts.iter().rev().map(|&q| self.val(q, c)).collect();
                let name = format!("{}_c{c}", p.names[&x]);
                w.wire(&name, p.bits(x), &format!("{{{}}}", vals.join(", ")));
                // Its reader in this stage may be a concatenation that is not built here
                // either (see `emit_op`).
                self.unused.push(name);
            }
        }
        carried.retain(|(x, _, _)| !p.remat.contains(x));
        if carried.is_empty() {
            return;
        }
        let carried: Vec<Carried> = carried
            .iter()
            .map(|&(x, a, u)| {
                let readers = p.use_cycles[&x].iter().copied();
                let (shifts, lines) = plan_copies(a, u, readers);
                Carried { x, shifts, lines }
            })
            .collect();
        self.declare_copies(w, &carried);
        let pointers = self.declare_line_pointers(w, &carried);
        let st = self.stall();
        let names = &self.plan.names;
        let seen = |x: OpId, c: u32| {
            if c == self.plan.avail[&x] {
                names[&x].clone()
            } else {
                format!("{}_c{c}", names[&x])
            }
        };
        if !pointers.is_empty() {
            w.always_ff(|w| {
                for (&n, ptr) in &pointers {
                    let bits = pointer_bits(n);
                    let (zero, one) = (literal(0, bits), literal(1, bits));
                    let next = if n.is_power_of_two() {
                        format!("{ptr} + {one}")
                    } else {
                        let last = literal(u64::from(n - 1), bits);
                        format!("{ptr} == {last} ? {zero} : {ptr} + {one}")
                    };
                    w.line(format!("if (rst) {ptr} <= {zero};"));
                    w.line(format!("else if (!{st}) {ptr} <= {next};"));
                }
            });
        }
        w.always_ff(|w| {
            w.block(&format!("if (!{st})"), |w| {
                for c in &carried {
                    let name = &names[&c.x];
                    for &s in &c.shifts {
                        w.line(format!("{name}_c{s} <= {};", seen(c.x, s - 1)));
                    }
                    for &(from, to) in &c.lines {
                        let (n, block) = line_buffer(from, to);
                        let ptr = &pointers[&n];
                        let mem = format!("{name}_line_c{to}");
                        if block {
                            w.line(format!("{name}_c{to} <= {mem}_q;"));
                            w.line(format!("{mem}_q <= {mem}[{ptr}];"));
                        } else {
                            w.line(format!("{name}_c{to} <= {mem}[{ptr}];"));
                        }
                        w.line(format!("{mem}[{ptr}] <= {};", seen(c.x, from)));
                    }
                }
            });
        });
    }

    fn declare_copies(&self, w: &mut VWriter, carried: &[Carried]) {
        let p = &self.plan;
        for c in carried {
            let name = &p.names[&c.x];
            let bits = p.bits(c.x);
            for &s in &c.shifts {
                w.reg(&format!("{name}_c{s}"), bits);
            }
            for &(from, to) in &c.lines {
                let (n, block) = line_buffer(from, to);
                let (style, kind) = if block {
                    ("block", "block RAM, then a register")
                } else {
                    ("distributed", "LUT RAM")
                };
                w.comment(format!(
                    "`{name}` from stage {from} to stage {to}: a delay line of {n} entries ({kind})"
                ));
                w.line(format!(
                    "(* ram_style = \"{style}\" *) reg {}{name}_line_c{to} [0:{}];",
                    crate::writer::range(bits),
                    n - 1
                ));
                if block {
                    w.reg(&format!("{name}_line_c{to}_q"), bits);
                }
                w.reg(&format!("{name}_c{to}"), bits);
            }
        }
    }

    /// One pointer per line length in the region (`<region>line<N>_ptr`, counting modulo N),
    /// shared by its lines: they all move with the same `!stall`.
    fn declare_line_pointers(&self, w: &mut VWriter, carried: &[Carried]) -> BTreeMap<u32, String> {
        let mut pointers = BTreeMap::new();
        for c in carried {
            for &(from, to) in &c.lines {
                let (n, _) = line_buffer(from, to);
                pointers
                    .entry(n)
                    .or_insert_with(|| self.sig(&format!("line{n}_ptr")));
            }
        }
        for (&n, ptr) in &pointers {
            w.reg(ptr, pointer_bits(n));
        }
        pointers
    }
}

/// Bits of a pointer counting modulo `n` (at least 1).
fn pointer_bits(n: u32) -> u32 {
    (32 - (n - 1).leading_zeros()).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_of_five_or_more_stages_become_lines() {
        // Available in 2, read in 3, 10 and 12, last in 20.
        let (shifts, lines) = plan_copies(2, 20, [3, 10, 12].into_iter());
        assert_eq!(shifts, vec![3, 11, 12]);
        assert_eq!(lines, vec![(3, 10), (12, 20)]);
        // A gap of 4 stays registers; 5 is a line.
        assert_eq!(
            plan_copies(0, 4, std::iter::empty()),
            (vec![1, 2, 3, 4], vec![])
        );
        assert_eq!(
            plan_copies(0, 5, std::iter::empty()),
            (vec![], vec![(0, 5)])
        );
    }

    #[test]
    fn long_lines_are_block_rams_with_a_register_after_them() {
        // 47 entries (gap 48): LUT RAM; 48 entries: block RAM of 47 and a register.
        assert_eq!(line_buffer(0, 48), (47, false));
        assert_eq!(line_buffer(0, 49), (47, true));
        assert_eq!(line_buffer(3, 91), (86, true));
    }

    #[test]
    fn pointer_widths() {
        assert_eq!(pointer_bits(4), 2);
        assert_eq!(pointer_bits(5), 3);
        assert_eq!(pointer_bits(16), 4);
        assert_eq!(pointer_bits(17), 5);
    }
}
