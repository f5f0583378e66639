//! Single-precision float units: adder, multiplier, compare, int ↔ float conversions, divider,
//! square root.
//!
//! One askama template per module, `templates/oclhls_fp_<unit>.v`, one module per file named like
//! the file (Verilator's `-Wall` wants that, see the crate invariants); four helper modules,
//! `oclhls_fp_lzc` (leading-zero count; adder, int → float), `oclhls_fp_mul18` (a `MULT18X18D`
//! with its registers; multiplier), `oclhls_fp_pack` (rounding and special values; adder,
//! multiplier, divider, square root) and `oclhls_fp_class` (NaN, infinity, zero operands). [`FpUnit::files`] lists what one unit needs, [`fp_files`]
//! everything. Their semantics are `fpsem`'s, bit for bit: denormal inputs are zeros, results are the IEEE round-to-nearest-even
//! result with a denormal result flushed to a zero of the same sign, every NaN result is
//! `0x7fc00000`. The units are fully pipelined (a new operation every cycle) with a fixed latency
//! ([`FpUnit::latency`]) and no reset; every register is enabled by the input `ce` (the kernel
//! pipeline's `!stall`): with `ce = 0` nothing moves. The compare is combinational.
//!
//! Ports (all `wire`s, `y` driven by a register):
//! - `oclhls_fp_add (clk, ce, a[31:0], b[31:0], y[31:0])`: `a + b` (a − b: flip `b[31]`).
//! - `oclhls_fp_mul (clk, ce, a[31:0], b[31:0], y[31:0])`: `a × b`.
//! - `oclhls_fp_cmp (a[31:0], b[31:0], lt, eq, unordered)`: combinational.
//! - `oclhls_fp_from_int #(WIDTH, SIGNED) (clk, ce, a[WIDTH-1:0], y[31:0])`.
//! - `oclhls_fp_to_int #(WIDTH, SIGNED) (clk, ce, a[31:0], y[WIDTH-1:0])`.
//! - `oclhls_fp_div (clk, ce, a[31:0], b[31:0], y[31:0])`: `a / b`, correctly rounded.
//! - `oclhls_fp_sqrt (clk, ce, a[31:0], y[31:0])`: `sqrt(a)`, correctly rounded.
//!
//! `WIDTH` is 8, 16, 32 or 64 and `SIGNED` 0 or 1; the latency does not depend on them.

use askama::Template;

// The latencies and the compare's delay are the hardware contract's, shared with the
// scheduler's operator library.
pub use hwcontract::fp::{
    FP_ADD_LATENCY, FP_CMP_DELAY_NS, FP_DIV_LATENCY, FP_FROM_INT_LATENCY, FP_MUL_LATENCY,
    FP_SQRT_LATENCY, FP_TO_INT_LATENCY,
};

/// One float unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FpUnit {
    Add,
    Mul,
    Cmp,
    FromInt,
    ToInt,
    Div,
    Sqrt,
}

impl FpUnit {
    pub const ALL: [FpUnit; 7] = [
        FpUnit::Add,
        FpUnit::Mul,
        FpUnit::Cmp,
        FpUnit::FromInt,
        FpUnit::ToInt,
        FpUnit::Div,
        FpUnit::Sqrt,
    ];

    /// The Verilog module (and file stem).
    pub fn module(self) -> &'static str {
        match self {
            FpUnit::Add => "oclhls_fp_add",
            FpUnit::Mul => "oclhls_fp_mul",
            FpUnit::Cmp => "oclhls_fp_cmp",
            FpUnit::FromInt => "oclhls_fp_from_int",
            FpUnit::ToInt => "oclhls_fp_to_int",
            FpUnit::Div => "oclhls_fp_div",
            FpUnit::Sqrt => "oclhls_fp_sqrt",
        }
    }

    /// Cycles from the inputs to the registered output; 0 for the combinational compare.
    pub fn latency(self) -> u32 {
        match self {
            FpUnit::Add => FP_ADD_LATENCY,
            FpUnit::Mul => FP_MUL_LATENCY,
            FpUnit::Cmp => 0,
            FpUnit::FromInt => FP_FROM_INT_LATENCY,
            FpUnit::ToInt => FP_TO_INT_LATENCY,
            FpUnit::Div => FP_DIV_LATENCY,
            FpUnit::Sqrt => FP_SQRT_LATENCY,
        }
    }

    /// The Verilog files the unit needs, as `(file name, text)`: its own, then the helper
    /// modules it instantiates.
    pub fn files(self) -> Vec<(String, String)> {
        let version = env!("CARGO_PKG_VERSION");
        let latency = self.latency();
        let own = match self {
            FpUnit::Add => AddTemplate { version, latency }.render(),
            FpUnit::Mul => MulTemplate { version, latency }.render(),
            FpUnit::Cmp => CmpTemplate { version }.render(),
            FpUnit::FromInt => FromIntTemplate { version, latency }.render(),
            FpUnit::ToInt => ToIntTemplate { version, latency }.render(),
            FpUnit::Div => DivTemplate { version, latency }.render(),
            FpUnit::Sqrt => SqrtTemplate { version, latency }.render(),
        };
        let lzc = || (LZC, LzcTemplate { version }.render());
        let pack = || (PACK, PackTemplate { version }.render());
        let class = || (CLASS, ClassTemplate { version }.render());
        let helpers = match self {
            FpUnit::Add => vec![lzc(), pack(), class()],
            FpUnit::Mul => vec![(MUL18, Mul18Template { version }.render()), pack(), class()],
            FpUnit::Div | FpUnit::Sqrt => vec![pack(), class()],
            FpUnit::Cmp => vec![class()],
            FpUnit::FromInt => vec![lzc()],
            FpUnit::ToInt => vec![],
        };
        std::iter::once((self.module(), own))
            .chain(helpers)
            // askama drops the template's final newline; POSIX (and Verilator's EOFNEWLINE)
            // want it.
            .map(|(module, text)| {
                let text = text.expect("the float unit templates render");
                (format!("{module}.v"), text + "\n")
            })
            .collect()
    }
}

/// Module name of the leading-zero counter used by the adder and int → float.
pub const LZC: &str = "oclhls_fp_lzc";
/// Module name of the registered DSP multiplier used by the multiplier.
pub const MUL18: &str = "oclhls_fp_mul18";
/// Module name of the last stage (rounding, packing, special values) of the adder, the
/// multiplier, the divider and the square root.
pub const PACK: &str = "oclhls_fp_pack";
/// Module name of the operand classifier (NaN, infinity, zero) of the adder, the multiplier, the
/// divider, the square root and the compare.
pub const CLASS: &str = "oclhls_fp_class";

/// The Verilog files of every float unit and helper module, as `(file name, text)`, each once.
pub fn fp_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for file in FpUnit::ALL.iter().flat_map(|u| u.files()) {
        if !files.iter().any(|(name, _)| *name == file.0) {
            files.push(file);
        }
    }
    files
}

#[derive(Template)]
#[template(path = "oclhls_fp_add.v", escape = "none")]
struct AddTemplate<'a> {
    version: &'a str,
    latency: u32,
}

#[derive(Template)]
#[template(path = "oclhls_fp_mul.v", escape = "none")]
struct MulTemplate<'a> {
    version: &'a str,
    latency: u32,
}

#[derive(Template)]
#[template(path = "oclhls_fp_mul18.v", escape = "none")]
struct Mul18Template<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_fp_pack.v", escape = "none")]
struct PackTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_fp_class.v", escape = "none")]
struct ClassTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_fp_lzc.v", escape = "none")]
struct LzcTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_fp_cmp.v", escape = "none")]
struct CmpTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_fp_from_int.v", escape = "none")]
struct FromIntTemplate<'a> {
    version: &'a str,
    latency: u32,
}

#[derive(Template)]
#[template(path = "oclhls_fp_to_int.v", escape = "none")]
struct ToIntTemplate<'a> {
    version: &'a str,
    latency: u32,
}

#[derive(Template)]
#[template(path = "oclhls_fp_div.v", escape = "none")]
struct DivTemplate<'a> {
    version: &'a str,
    latency: u32,
}

#[derive(Template)]
#[template(path = "oclhls_fp_sqrt.v", escape = "none")]
struct SqrtTemplate<'a> {
    version: &'a str,
    latency: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_named_like_their_one_module() {
        let files = fp_files();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "oclhls_fp_add.v",
                "oclhls_fp_lzc.v",
                "oclhls_fp_pack.v",
                "oclhls_fp_class.v",
                "oclhls_fp_mul.v",
                "oclhls_fp_mul18.v",
                "oclhls_fp_cmp.v",
                "oclhls_fp_from_int.v",
                "oclhls_fp_to_int.v",
                "oclhls_fp_div.v",
                "oclhls_fp_sqrt.v",
            ]
        );
        for (name, text) in &files {
            let module = name.strip_suffix(".v").unwrap();
            assert_eq!(text.matches("\nmodule ").count(), 1, "{name}");
            assert!(text.contains(&format!("\nmodule {module} ")), "{name}");
            assert!(
                text.ends_with("endmodule\n`default_nettype wire\n"),
                "{name}"
            );
            assert!(!text.contains("{{") && !text.contains("{%"), "{name}");
        }
        for unit in FpUnit::ALL {
            let own = &unit.files()[0];
            assert_eq!(own.0, format!("{}.v", unit.module()));
            if unit.latency() > 0 {
                assert!(
                    own.1
                        .contains(&format!("Latency {} cycles", unit.latency())),
                    "{unit:?}"
                );
            }
        }
    }
}
