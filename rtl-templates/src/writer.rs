//! A small writer for generated Verilog: indentation and the few statement shapes datapaths need,
//! and the expression shapes they share (literals, ranges, select chains).
//!
//! Invariant: no written line selects bits of a literal (`32'h3f800000[31]` is not Verilog).
//! [`bit_range`] folds a select of a literal into a literal, and every line is checked
//! ([`literal_select_at`]); a line that breaks the rule is an internal error (a panic naming
//! the line), never a module that fails to parse.

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

/// The OR of 1-bit terms: up to four as `a || b || c || d`, more as one reduction
/// `|{a, b, ...}` (written one term per line after `sep`'s line break, if it has one). A chain
/// of `||` parses into a chain of cells as deep as the list is long, and Yosys' ABC9 flow
/// walks cones recursively (XAIGER): the `finish` of a 196-stage pipeline written as a chain
/// exhausted YoWASP Yosys' 512 KiB WebAssembly stack. `$reduce_or` maps to a balanced tree.
pub fn any_of(terms: &[String], sep: &str) -> String {
    match terms.len() {
        0 => "1'b0".to_string(),
        1..=4 => terms.join(&format!("{sep}|| ")),
        _ => format!("|{{{}}}", terms.join(&format!(",{sep}"))),
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

/// The width and value of a sized literal as [`literal`] writes it (`8'h3f`, `1'b1`; also
/// `32'd7`, `4'b1010`, `2'o3`), or `None` for any other expression.
pub fn parse_literal(s: &str) -> Option<(u32, u64)> {
    let (width, rest) = s.trim().split_once('\'')?;
    let width: u32 = width.parse().ok()?;
    let mut chars = rest.chars();
    let radix = match chars.next()?.to_ascii_lowercase() {
        'b' => 2,
        'o' => 8,
        'd' => 10,
        'h' => 16,
        _ => return None,
    };
    let digits: String = chars.as_str().chars().filter(|&c| c != '_').collect();
    let v = u64::from_str_radix(&digits, radix).ok()?;
    Some((width, v))
}

/// `x[hi:lo]`, or `x[lo]` for one bit; of a literal, the literal of those bits (Verilog has no
/// bit select of a literal).
pub fn bit_range(x: &str, hi: u32, lo: u32) -> String {
    if let Some((_, v)) = parse_literal(x) {
        let n = hi - lo + 1;
        let v = if lo >= 64 { 0 } else { v >> lo };
        let v = if n >= 64 { v } else { v & ((1u64 << n) - 1) };
        return literal(v, n);
    }
    if hi == lo {
        format!("{x}[{lo}]")
    } else {
        format!("{x}[{hi}:{lo}]")
    }
}

/// The byte offset of a bit or part select of a literal in a line of Verilog (`8'h3f[2]`,
/// `32'd0 [7:0]`), outside its `//` comment; `None` when the line has none.
pub fn literal_select_at(line: &str) -> Option<usize> {
    let code = line.split("//").next().unwrap_or("");
    let b = code.as_bytes();
    let mut i = 0;
    while let Some(q) = code[i..].find('\'').map(|q| q + i) {
        i = q + 1;
        let mut j = q + 1;
        if j < b.len() && matches!(b[j], b's' | b'S') {
            j += 1;
        }
        if j >= b.len() || !matches!(b[j].to_ascii_lowercase(), b'b' | b'o' | b'd' | b'h') {
            continue;
        }
        j += 1;
        let start = j;
        while j < b.len()
            && (b[j].is_ascii_hexdigit() || matches!(b[j], b'_' | b'x' | b'X' | b'z' | b'Z' | b'?'))
        {
            j += 1;
        }
        if j == start {
            continue;
        }
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        if j < b.len() && b[j] == b'[' {
            return Some(q);
        }
    }
    None
}

/// Panics (an internal error) when `s` selects bits of a literal: see the module invariant.
fn check_line(s: &str) {
    if let Some(at) = literal_select_at(s) {
        panic!("internal error: generated Verilog selects bits of a literal at byte {at}: `{s}`");
    }
}

impl VWriter {
    pub fn line(&mut self, s: impl AsRef<str>) {
        let s = s.as_ref();
        check_line(s);
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
        s.lines().for_each(check_line);
        let _ = write!(self.out, "{s}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_of_writes_short_lists_as_or_and_long_ones_as_a_reduction() {
        let t = |n: usize| (0..n).map(|i| format!("v{i}")).collect::<Vec<_>>();
        assert_eq!(any_of(&t(0), " "), "1'b0");
        assert_eq!(any_of(&t(1), " "), "v0");
        assert_eq!(any_of(&t(4), " "), "v0 || v1 || v2 || v3");
        assert_eq!(any_of(&t(5), " "), "|{v0, v1, v2, v3, v4}");
        assert_eq!(any_of(&t(2), "\n  "), "v0\n  || v1");
        assert_eq!(any_of(&t(5), "\n  "), "|{v0,\n  v1,\n  v2,\n  v3,\n  v4}");
    }

    #[test]
    fn literals_parse_in_every_radix() {
        assert_eq!(parse_literal("32'h3f800000"), Some((32, 0x3f80_0000)));
        assert_eq!(parse_literal("1'b1"), Some((1, 1)));
        assert_eq!(parse_literal("8'd200"), Some((8, 200)));
        assert_eq!(parse_literal("4'b10_10"), Some((4, 10)));
        assert_eq!(parse_literal("x_v3"), None);
        assert_eq!(parse_literal("{1'b0, x}"), None);
        assert_eq!(parse_literal("arg_n_r"), None);
    }

    #[test]
    fn selects_of_literals_fold() {
        assert_eq!(bit_range("32'h3f800000", 31, 31), "1'b0");
        assert_eq!(bit_range("32'hbf800000", 31, 31), "1'b1");
        assert_eq!(bit_range("32'h3f800000", 30, 0), "31'h3f800000");
        assert_eq!(bit_range("64'hffffffff00000000", 63, 32), "32'hffffffff");
        assert_eq!(bit_range("128'h5", 127, 64), "64'h0");
        assert_eq!(bit_range("x_v3", 7, 0), "x_v3[7:0]");
        assert_eq!(bit_range("x_v3", 7, 7), "x_v3[7]");
    }

    #[test]
    fn literal_selects_are_found_outside_comments() {
        assert_eq!(
            literal_select_at("wire [31:0] b = {~32'h3f800000[31], 32'h3f800000[30:0]};"),
            Some(20)
        );
        assert!(literal_select_at("wire a = 8'd3 [2];").is_some());
        assert!(literal_select_at("wire a = 4'sb1010[1];").is_some());
        assert_eq!(literal_select_at("wire [7:0] a = x[7:0] + 8'h3;"), None);
        assert_eq!(literal_select_at("wire a = {1'b0, x[3]};"), None);
        assert_eq!(literal_select_at("// don't read 8'h3[2] here"), None);
        assert_eq!(literal_select_at("reg [3:0] r; // it's 'b'"), None);
    }

    #[test]
    #[should_panic(expected = "selects bits of a literal")]
    fn the_writer_refuses_a_literal_select() {
        let mut w = VWriter::default();
        w.wire("b", 1, "32'h3f800000[31]");
    }
}
