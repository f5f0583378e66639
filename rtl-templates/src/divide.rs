//! Integer dividers: the pipelined `oclhls_int_div` and the iterative `oclhls_int_div_iter`,
//! one askama template each (`templates/oclhls_int_div*.v`), parameterised Verilog modules
//! that compute a quotient and a remainder (their timing as functions of the parameters:
//! `hwcontract::div`).
//!
//! Ports (all `wire`s):
//! - `oclhls_int_div #(WIDTH, SIGNED, STAGES) (clk, ce, a, b, q, r)`: a new operation every
//!   cycle, `q`/`r` registered;
//! - `oclhls_int_div_iter #(WIDTH, SIGNED, STEP) (clk, ce, start, a, b, q, r)`: `start` loads
//!   an operation; `q`/`r` hold its result from the latency on.
//!
//! Values are the IR's (`hls_ir::integer::binary`): `x / 0 = 0`, `x % 0 = x`,
//! `MIN / -1 = MIN`, `MIN % -1 = 0`. Every register is enabled by `ce` (the kernel pipeline's
//! `!stall`); there is no reset.

use askama::Template;

/// One divider module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DivUnit {
    /// A new operation every cycle.
    Pipelined,
    /// One operation at a time.
    Iterative,
}

impl DivUnit {
    pub const ALL: [DivUnit; 2] = [DivUnit::Pipelined, DivUnit::Iterative];

    /// The Verilog module (and file stem).
    pub fn module(self) -> &'static str {
        match self {
            DivUnit::Pipelined => "oclhls_int_div",
            DivUnit::Iterative => "oclhls_int_div_iter",
        }
    }

    /// The module's file as `(file name, text)`.
    pub fn file(self) -> (String, String) {
        let version = env!("CARGO_PKG_VERSION");
        let text = match self {
            DivUnit::Pipelined => PipelinedTemplate { version }.render(),
            DivUnit::Iterative => IterativeTemplate { version }.render(),
        }
        .expect("the divider templates render");
        // askama drops the template's final newline; POSIX (and Verilator's EOFNEWLINE) want it.
        (format!("{}.v", self.module()), text + "\n")
    }
}

/// The files of both dividers.
pub fn div_files() -> Vec<(String, String)> {
    DivUnit::ALL.iter().map(|u| u.file()).collect()
}

#[derive(Template)]
#[template(path = "oclhls_int_div.v", escape = "none")]
struct PipelinedTemplate<'a> {
    version: &'a str,
}

#[derive(Template)]
#[template(path = "oclhls_int_div_iter.v", escape = "none")]
struct IterativeTemplate<'a> {
    version: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_named_like_their_one_module() {
        for (name, text) in div_files() {
            let module = name.strip_suffix(".v").unwrap();
            assert_eq!(text.matches("\nmodule ").count(), 1, "{name}");
            assert!(text.contains(&format!("\nmodule {module} ")), "{name}");
            assert!(
                text.ends_with("endmodule\n`default_nettype wire\n"),
                "{name}"
            );
            assert!(!text.contains("{{") && !text.contains("{%"), "{name}");
        }
    }
}
