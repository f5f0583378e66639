//! A small writer for generated Verilog: indentation and the few statement shapes datapaths need,
//! and the expression shapes they share (literals, ranges, select chains).

use std::fmt::Write;

#[derive(Default)]
pub struct VWriter {
    out: String,
    indent: usize,
}

/// `[W-1:0] ` for widths above one bit, nothing for one bit.
pub fn range(bits: u32) -> String {
    if bits <= 1 {
        String::new()
    } else {
        format!("[{}:0] ", bits - 1)
    }
}

/// A sized constant literal.
pub fn literal(v: u64, bits: u32) -> String {
    if bits == 1 {
        format!("1'b{}", v & 1)
    } else {
        format!("{bits}'h{v:x}")
    }
}

/// `s0 ? v0 : s1 ? v1 : ... : vN`: the value of the first case whose selector holds; the last
/// case is the default (callers guarantee at most one selector holds).
pub fn select_chain(cases: &[(String, String)]) -> String {
    let mut out = String::new();
    for (i, (sel, v)) in cases.iter().enumerate() {
        if i + 1 == cases.len() {
            out.push_str(v);
        } else {
            out.push_str(&format!("{sel} ? {v} : "));
        }
    }
    out
}

/// `x[hi:lo]`, or `x[lo]` for one bit.
pub fn bit_range(x: &str, hi: u32, lo: u32) -> String {
    if hi == lo {
        format!("{x}[{lo}]")
    } else {
        format!("{x}[{hi}:{lo}]")
    }
}

impl VWriter {
    pub fn line(&mut self, s: impl AsRef<str>) {
        let s = s.as_ref();
        if s.is_empty() {
            self.out.push('\n');
            return;
        }
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    pub fn comment(&mut self, s: impl AsRef<str>) {
        self.line(format!("// {}", s.as_ref()));
    }

    pub fn wire(&mut self, name: &str, bits: u32, expr: &str) {
        self.line(format!("wire {}{name} = {expr};", range(bits)));
    }

    pub fn reg(&mut self, name: &str, bits: u32) {
        self.line(format!("reg {}{name};", range(bits)));
    }

    pub fn assign(&mut self, lhs: &str, expr: &str) {
        self.line(format!("assign {lhs} = {expr};"));
    }

    /// `always @(posedge clk) begin <body> end`, the body written by `f`.
    pub fn always_ff(&mut self, f: impl FnOnce(&mut VWriter)) {
        self.line("always @(posedge clk) begin");
        self.indent += 1;
        f(self);
        self.indent -= 1;
        self.line("end");
    }

    pub fn block(&mut self, head: &str, f: impl FnOnce(&mut VWriter)) {
        self.line(format!("{head} begin"));
        self.indent += 1;
        f(self);
        self.indent -= 1;
        self.line("end");
    }

    pub fn indented(&mut self, n: usize) -> &mut Self {
        self.indent = n;
        self
    }

    pub fn finish(self) -> String {
        self.out
    }

    pub fn raw(&mut self, s: &str) {
        let _ = write!(self.out, "{s}");
    }
}
