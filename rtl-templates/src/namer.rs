//! Deterministic, legal, readable Verilog names: the OpenCL name plus the op id (`acc_v42`),
//! never a Verilog/SystemVerilog keyword, only `[A-Za-z0-9_]`.

const KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "automatic",
    "begin",
    "buf",
    "bufif0",
    "bufif1",
    "case",
    "casex",
    "casez",
    "cell",
    "cmos",
    "config",
    "deassign",
    "default",
    "defparam",
    "design",
    "disable",
    "edge",
    "else",
    "end",
    "endcase",
    "endconfig",
    "endfunction",
    "endgenerate",
    "endmodule",
    "endprimitive",
    "endspecify",
    "endtable",
    "endtask",
    "event",
    "for",
    "force",
    "forever",
    "fork",
    "function",
    "generate",
    "genvar",
    "highz0",
    "highz1",
    "if",
    "ifnone",
    "incdir",
    "include",
    "initial",
    "inout",
    "input",
    "instance",
    "integer",
    "join",
    "large",
    "liblist",
    "library",
    "localparam",
    "macromodule",
    "medium",
    "module",
    "nand",
    "negedge",
    "nmos",
    "nor",
    "noshowcancelled",
    "not",
    "notif0",
    "notif1",
    "or",
    "output",
    "parameter",
    "pmos",
    "posedge",
    "primitive",
    "pull0",
    "pull1",
    "pulldown",
    "pullup",
    "pulsestyle_ondetect",
    "pulsestyle_onevent",
    "rcmos",
    "real",
    "realtime",
    "reg",
    "release",
    "repeat",
    "rnmos",
    "rpmos",
    "rtran",
    "rtranif0",
    "rtranif1",
    "scalared",
    "showcancelled",
    "signed",
    "small",
    "specify",
    "specparam",
    "strong0",
    "strong1",
    "supply0",
    "supply1",
    "table",
    "task",
    "time",
    "tran",
    "tranif0",
    "tranif1",
    "tri",
    "tri0",
    "tri1",
    "triand",
    "trior",
    "trireg",
    "unsigned",
    "use",
    "uwire",
    "vectored",
    "wait",
    "wand",
    "weak0",
    "weak1",
    "while",
    "wire",
    "wor",
    "xnor",
    "xor",
    "bit",
    "byte",
    "int",
    "logic",
    "longint",
    "shortint",
    "class",
    "interface",
    "package",
    "program",
    "property",
    "sequence",
    "string",
    "struct",
    "union",
    "enum",
    "typedef",
    "void",
    "return",
    "break",
    "continue",
    "do",
    "foreach",
    "const",
    "static",
    "var",
    "type",
    "alias",
    "bind",
    "chandle",
    "clocking",
    "constraint",
    "cover",
    "dist",
    "expect",
    "extends",
    "final",
    "first_match",
    "ignore_bins",
    "illegal_bins",
    "import",
    "inside",
    "intersect",
    "local",
    "modport",
    "new",
    "null",
    "packed",
    "priority",
    "protected",
    "pure",
    "rand",
    "randc",
    "ref",
    "solve",
    "super",
    "this",
    "throughout",
    "unique",
    "virtual",
    "with",
    "within",
    "assert",
    "assume",
    "before",
    "checker",
    "global",
    "let",
    "restrict",
    "strong",
    "weak",
    "until",
    "implies",
    "nexttime",
    "accept_on",
    "reject_on",
    "sync_accept_on",
    "eventually",
    "s_always",
    "s_eventually",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "until_with",
    "untyped",
    "soft",
    "unique0",
    "context",
    "cross",
    "bins",
    "binsof",
    "coverpoint",
    "covergroup",
    "endclass",
    "endclocking",
    "endgroup",
    "endinterface",
    "endpackage",
    "endprogram",
    "endproperty",
    "endsequence",
    "endchecker",
    "extern",
    "forkjoin",
    "join_any",
    "join_none",
    "matches",
    "randcase",
    "randsequence",
    "tagged",
    "wait_order",
    "wildcard",
];

/// Make `name` a legal identifier that is not a keyword.
pub fn legal(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // No `__` anywhere and no trailing `_`: names get suffixes (`<name>_rreq_valid`), and the
    // simulation shim's C++ reserves identifiers with double underscores.
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    while out.len() > 1 && out.ends_with('_') {
        out.pop();
    }
    let mut s = out;
    if s.is_empty() || s == "_" || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'n');
    }
    if KEYWORDS.contains(&s.as_str()) {
        s.push_str("_k");
    }
    s
}

/// A readable name for a value: `<source name or mnemonic>_v<id>`.
pub fn value_name(base: &str, id: u32) -> String {
    legal(&format!("{}_v{}", base, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_names() {
        assert_eq!(legal("reg"), "reg_k");
        assert_eq!(legal("buf"), "buf_k");
        assert_eq!(legal("a__b"), "a_b");
        assert_eq!(legal("x_"), "x");
        assert_eq!(legal("_"), "n_");
        assert_eq!(legal("9x"), "n9x");
        assert_eq!(legal("a.b"), "a_b");
        assert_eq!(value_name("acc", 42), "acc_v42");
    }
}
