//! Integer division and remainder of the datapath: an instance of a divider (`crate::divide`)
//! clocked with the pipeline's `!stall`, pipelined or iterative as the schedule chose
//! (`LoopSchedule::iterative`), its parameters rebuilt from the op's scheduled latency
//! (`hwcontract::div`). A quotient and a remainder of the same operands that the scheduler
//! started in the same cycle (`scheduler::divide`) share one unit, named after the quotient.
//! An iterative unit starts when its stage holds an iteration and the pipeline moves.

use super::{Emitter, OpCtx};
use crate::divide::DivUnit;
use crate::writer::VWriter;
use hls_ir::OpId;
use hwcontract::div;
use scheduler::divide::division;
use std::collections::BTreeSet;

/// The dividers a kernel module instantiates.
#[derive(Default)]
pub(in crate::kernel) struct Dividers {
    /// The modules used (their files go with the kernel).
    pub units: BTreeSet<DivUnit>,
    /// Quotients (or unpaired remainders) whose unit is written.
    written: BTreeSet<OpId>,
}

impl Emitter<'_> {
    /// The other op computed by the unit of division `o`: the remainder of a quotient or the
    /// quotient of a remainder, same operands, signedness and width, started in the same
    /// cycle with the same unit.
    fn division_partner(&self, o: OpId) -> Option<OpId> {
        let (signed, rem) = division(self.k, o)?;
        let ls = self.plan.ls_of(o);
        let args = self.k.operands(o);
        self.plan.ops(self.cur).into_iter().find(|&p| {
            p != o
                && division(self.k, p) == Some((signed, !rem))
                && self.k.operands(p) == args
                && self.plan.bits(p) == self.plan.bits(o)
                && ls.start.get(&p) == ls.start.get(&o)
                && ls.latency.get(&p) == ls.latency.get(&o)
                && ls.iterative.contains(&p) == ls.iterative.contains(&o)
        })
    }

    /// A division or remainder: its value is an output of a divider, written with the first
    /// op of a pair.
    pub(super) fn emit_division(&mut self, w: &mut VWriter, cx: &OpCtx) {
        let (signed, rem) = division(self.k, cx.o).expect("a division");
        let partner = self.division_partner(cx.o);
        let owner = match partner {
            Some(p) if rem => p,
            _ => cx.o,
        };
        let unit = format!("{}_div", self.plan.names[&owner]);
        let width = div::unit_width(cx.bits);
        if self.divs.written.insert(owner) {
            self.emit_divider(w, cx, &unit, width, signed);
            // An output no op reads goes to the sink.
            if partner.is_none() {
                let other = if rem { "q" } else { "r" };
                self.unused.push(format!("{unit}_{other}"));
            }
        }
        let out = format!("{unit}_{}", if rem { "r" } else { "q" });
        if width > cx.bits {
            self.unused
                .push(format!("{out}[{}:{}]", width - 1, cx.bits));
            let sel = if cx.bits == 1 {
                format!("{out}[0]")
            } else {
                format!("{out}[{}:0]", cx.bits - 1)
            };
            w.wire(&cx.name, cx.bits, &sel);
        } else {
            w.wire(&cx.name, cx.bits, &out);
        }
    }

    /// The divider instance `unit` of `width` bits with outputs `<unit>_q` and `<unit>_r`.
    fn emit_divider(&mut self, w: &mut VWriter, cx: &OpCtx, unit: &str, width: u32, signed: bool) {
        let ls = self.plan.ls_of(cx.o);
        let latency = ls.latency[&cx.o];
        let iterative = ls.iterative.contains(&cx.o);
        // Operands narrower than the unit (1 bit) are extended to it.
        let extend = |x: String| {
            if width == cx.bits {
                x
            } else if signed {
                format!("{{{{{}{{{x}}}}}, {x}}}", width - cx.bits)
            } else {
                format!("{{{}'d0, {x}}}", width - cx.bits)
            }
        };
        let (a, b) = (extend(self.arg(cx, 0)), extend(self.arg(cx, 1)));
        let (kind, param, value) = if iterative {
            let step = div::iterative_step(width, signed, latency);
            (DivUnit::Iterative, "STEP", step)
        } else {
            (
                DivUnit::Pipelined,
                "STAGES",
                div::pipelined_stages(signed, latency).min(width),
            )
        };
        self.divs.units.insert(kind);
        for out in ["q", "r"] {
            w.line(format!("wire [{}:0] {unit}_{out};", width - 1));
        }
        let start = if iterative {
            format!(".start({} && !{}), ", self.valid(cx.c), self.stall())
        } else {
            String::new()
        };
        w.line(format!(
            "{} #(.WIDTH({width}), .SIGNED({}), .{param}({value})) {unit}_u (.clk(clk), .ce(!{}), \
             {start}.a({a}), .b({b}), .q({unit}_q), .r({unit}_r));",
            kind.module(),
            u8::from(signed),
            self.stall(),
        ));
    }
}
