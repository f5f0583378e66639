//! Characterise ECP5 operators for the scheduler's operator library
//! (`scheduler/src/oplib.rs`): generate one micro-design per operator and width, each with
//! registered inputs and a registered output, run it through Yosys `synth_ecp5` and
//! nextpnr-ecp5 out of context, and print Fmax, the critical path, the derived combinational
//! delay and the area as a Markdown table (the one in `docs/benchmarks.md`, section
//! "ECP5 operator library: measurements").
//!
//! ```text
//! cargo run --release -p board-support --example op_char -- [--quick] [--part LFE5U-85F]
//!     [--seed 1] [--work DIR] [NAME-FILTER...]
//! ```
//!
//! A benchmark, not a test. Results are cached per design in the work directory (default
//! `target/op-char/`) under a hash of the design text, part and seed, so a re-run only runs
//! the designs that changed. The designs run one after another.

use std::collections::hash_map::DefaultHasher;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::process::ExitCode;

use board_support::flow::{place_route, synth, PnrOptions, SynthOptions, Target};
use board_support::Device;
use serde::{Deserialize, Serialize};
use toolchain::Toolchain;

/// One micro-design: a module `top` whose inputs go through registers `ra`/`rb` (and `rc`), and
/// whose output `y` is a register.
struct Design {
    name: String,
    /// What the row measures.
    what: String,
    /// Pipeline stages between the input registers and `y` (1 = one register level).
    stages: u32,
    verilog: String,
}

#[derive(Serialize, Deserialize, Clone)]
struct Measured {
    hash: u64,
    fmax_mhz: f64,
    path_ns: f64,
    logic_ns: f64,
    routing_ns: f64,
    /// Start and end cells of the critical path.
    from: String,
    to: String,
    luts: u64,
    ffs: u64,
    dsps: u64,
    ebrs: u64,
}

/// A module with registered inputs `a`, `b` (width `w`), optional 1-bit `c`, and output `y`.
/// `body` is placed in the clocked block after the input registers and may declare nothing;
/// `decls` holds extra declarations.
fn wrap(top: &str, w: u32, yw: u32, with_c: bool, decls: &str, body: &str) -> String {
    let c_port = if with_c { "  input c,\n" } else { "" };
    let c_reg = if with_c { "  reg rc;\n" } else { "" };
    let c_in = if with_c { " rc <= c;" } else { "" };
    format!(
        "module {top} (\n  input clk,\n  input [{w1}:0] a,\n  input [{w1}:0] b,\n{c_port}  \
         output reg [{y1}:0] y\n);\n  reg [{w1}:0] ra, rb;\n{c_reg}{decls}  always @(posedge clk) \
         begin\n    ra <= a; rb <= b;{c_in}\n{body}  end\nendmodule\n",
        w1 = w - 1,
        y1 = yw - 1
    )
}

/// Per-bit port connections of an ECP5 primitive: `.A17(x[17]), ..., .A0(x[0])` for `n` bits
/// of `expr` (bits beyond `used` tie to 0).
fn bit_ports(port: &str, n: u32, expr: &str, used: u32) -> String {
    (0..n)
        .rev()
        .map(|i| {
            if i < used {
                format!(".{port}{i}({expr}[{i}])")
            } else {
                format!(".{port}{i}(1'b0)")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `MULT18X18D` computing the unsigned product of the 16-bit `a` and `b` into 32-bit wire
/// `p`, with its input registers and (if `out_reg`) its output register on CLK0.
fn mult18(inst: &str, a: &str, b: &str, p: &str, out_reg: bool) -> String {
    let reg_out = if out_reg { "CLK0" } else { "NONE" };
    let outs = (0..36)
        .rev()
        .map(|i| {
            if i < 32 {
                format!(".P{i}({p}[{i}])")
            } else {
                format!(".P{i}()")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "  wire [31:0] {p};\n  MULT18X18D #(.REG_INPUTA_CLK(\"CLK0\"), .REG_INPUTB_CLK(\"CLK0\"), \
         .REG_OUTPUT_CLK(\"{reg_out}\"), .GSR(\"DISABLED\")) {inst} (\n    {}, \n    {},\n    \
         .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(1'b0), .SOURCEB(1'b0),\n    .CLK0(clk), \
         .CLK1(1'b0), .CLK2(1'b0), .CLK3(1'b0), .CE0(1'b1), .CE1(1'b0), .CE2(1'b0), .CE3(1'b0),\n    \
         .RST0(1'b0), .RST1(1'b0), .RST2(1'b0), .RST3(1'b0),\n    {outs});\n",
        bit_ports("A", 18, a, 16),
        bit_ports("B", 18, b, 16),
    )
}

fn designs() -> Vec<Design> {
    let mut v = Vec::new();
    let mut add = |name: String, what: &str, stages: u32, verilog: String| {
        v.push(Design {
            name,
            what: what.to_string(),
            stages,
            verilog,
        })
    };
    logic_designs(&mut add);
    multiplier_designs(&mut add);
    memory_designs(&mut add);
    fp_designs(&mut v);
    div_designs(&mut v);
    v
}

/// The integer dividers of `rtl-templates` (`oclhls_int_div*.v`), signed, at 8/16/32/64 bits,
/// with the quotient bits a stage (pipelined) or a cycle (iterative) the operator library gives
/// them at 100 MHz (`scheduler::divide::steps`, pinned by its unit test). Inputs (and the
/// iterative unit's `start`) registered; the outputs are the units' own registers.
fn div_designs(v: &mut Vec<Design>) {
    use hwcontract::div::{iterative_busy, iterative_latency, pipelined_latency};
    let text = |t: &str| t.replace("{{ version }}", "op_char");
    let pipe = text(include_str!(
        "../../rtl-templates/templates/oclhls_int_div.v"
    ));
    let iter = text(include_str!(
        "../../rtl-templates/templates/oclhls_int_div_iter.v"
    ));
    for (w, pipe_steps, iter_steps) in [(8u32, 3u32, 2u32), (16, 2, 2), (32, 2, 2), (64, 1, 1)] {
        let stages = w.div_ceil(pipe_steps);
        for iterative in [false, true] {
            let steps = if iterative { iter_steps } else { pipe_steps };
            let bits = if steps == 1 { "1 bit" } else { "2 bits" };
            let bits = if steps > 2 { "3 bits" } else { bits };
            let (name, what, module, param, stages, modules) = if iterative {
                (
                    format!("idiv_iter_{w}"),
                    format!(
                        "int{w} a / b and a % b, iterative (oclhls_int_div_iter, {bits} a cycle, \
                         one operation per {} cycles)",
                        iterative_busy(w, steps)
                    ),
                    "oclhls_int_div_iter",
                    format!(".STEP({steps})"),
                    iterative_latency(w, true, steps),
                    &iter,
                )
            } else {
                (
                    format!("idiv_pipe_{w}"),
                    format!("int{w} a / b and a % b, pipelined (oclhls_int_div, {bits} a stage)"),
                    "oclhls_int_div",
                    format!(".STAGES({stages})"),
                    pipelined_latency(true, stages),
                    &pipe,
                )
            };
            let start = if iterative { ".start(rs), " } else { "" };
            v.push(Design {
                name: name.clone(),
                what,
                stages,
                verilog: format!(
                    "{modules}module {name} (\n  input clk,\n  input ce,\n  input s,\n  \
                     input [{w1}:0] a,\n  input [{w1}:0] b,\n  output [{w1}:0] q,\n  \
                     output [{w1}:0] r\n);\n  reg [{w1}:0] ra, rb;\n  reg rce, rs;\n  \
                     always @(posedge clk) begin\n    rce <= ce; rs <= s; ra <= a; rb <= b;\n  \
                     end\n  {module} #(.WIDTH({w}), .SIGNED(1), {param}) u (.clk(clk), \
                     .ce(rce), {start}.a(ra), .b(rb), .q(q), .r(r));\n  \
                     wire unused_s = rs;\nendmodule\n",
                    w1 = w - 1
                ),
            });
        }
    }
}

/// Registers, adders, compares, shifts and logic at each width.
fn logic_designs(add: &mut impl FnMut(String, &str, u32, String)) {
    add(
        "reg_32".into(),
        "register to register, no logic (the register overhead)",
        1,
        wrap("reg_32", 32, 32, false, "", "    y <= ra ^ rb;\n").replace("ra ^ rb", "ra"),
    );
    for w in [8u32, 16, 32, 64] {
        let sb = w.trailing_zeros();
        let ops: [(&str, &str, u32, bool, String); 6] = [
            ("add", "a + b", w, false, "    y <= ra + rb;\n".into()),
            (
                "cmp",
                "signed a < b",
                1,
                false,
                "    y <= $signed(ra) < $signed(rb);\n".into(),
            ),
            ("eq", "a == b", 1, false, "    y <= ra == rb;\n".into()),
            (
                "shl",
                "a << b (variable amount)",
                w,
                false,
                format!("    y <= ra << rb[{}:0];\n", sb - 1),
            ),
            (
                "xor",
                "a ^ b (and/or alike)",
                w,
                false,
                "    y <= ra ^ rb;\n".into(),
            ),
            (
                "sel",
                "c ? a : b",
                w,
                true,
                "    y <= rc ? ra : rb;\n".into(),
            ),
        ];
        for (op, what, yw, c, body) in ops {
            let name = format!("{op}_{w}");
            add(name.clone(), what, 1, wrap(&name, w, yw, c, "", &body));
        }
        let name = format!("mul_{w}_inferred");
        add(
            name.clone(),
            "a * b inferred, one stage (low w bits)",
            1,
            wrap(&name, w, w, false, "", "    y <= ra * rb;\n"),
        );
    }
}

/// Multipliers as the emitter builds them: DSP stages and split partial products.
fn multiplier_designs(add: &mut impl FnMut(String, &str, u32, String)) {
    // 16x16 in one MULT18X18D with its input and output registers.
    let name = "mul_16_dsp_regs";
    add(
        name.into(),
        "a * b in MULT18X18D, input + output registers",
        2,
        wrap(
            name,
            16,
            32,
            false,
            &mult18("m0", "ra", "rb", "p", true),
            "    y <= p;\n",
        ),
    );
    // 32x32 (low 32 bits) as the emitter builds it: 16x16 partial products registered, summed.
    let name = "mul_32_split";
    add(
        name.into(),
        "16x16 partial products registered, then summed (emitter before and now)",
        2,
        wrap(
            name,
            32,
            32,
            false,
            "  reg [31:0] ll;\n  reg [15:0] lh, hl;\n",
            "    ll <= ra[15:0] * rb[15:0];\n    lh <= ra[15:0] * rb[31:16];\n    \
             hl <= ra[31:16] * rb[15:0];\n    y <= ll + {lh + hl, 16'd0};\n",
        ),
    );
    // The same with MULT18X18D instances using their input and output registers.
    let name = "mul_32_dsp_regs";
    let decls = format!(
        "{}{}{}",
        mult18("m_ll", "ra[15:0]", "rb[15:0]", "ll", true),
        mult18("m_lh", "ra[15:0]", "rb[31:16]", "lh", true),
        mult18("m_hl", "ra[31:16]", "rb[15:0]", "hl", true)
    );
    add(
        name.into(),
        "3 MULT18X18D (input + output registers), then summed",
        3,
        wrap(
            name,
            32,
            32,
            false,
            &decls,
            "    y <= ll + {lh[15:0] + hl[15:0], 16'd0};\n",
        ),
    );
    // 64x64 (low 64 bits) from 16-bit digits as the emitter now builds it.
    let name = "mul_64_split";
    add(
        name.into(),
        "10 16x16 partial products registered, then 3 adder stages (emitter now)",
        4,
        wrap(name, 64, 64, false, &mul64_decls(), &mul64_body()),
    );
}

/// Memory reads: the response FIFO of a global port, EBR inferred and instantiated.
fn memory_designs(add: &mut impl FnMut(String, &str, u32, String)) {
    // A global load's data: the response FIFO of a read port (the emitter's `oclhls_fifo`,
    // 4 x 32 bits in distributed RAM) read at its read pointer into a register.
    let fifo = include_str!("../../rtl-templates/templates/oclhls_fifo.v")
        .replace("{{ version }}", "op_char");
    // The response FIFO of a port's loads in one pipeline holds (latency + 1) entries per
    // load: 4 at the default latency 3, 32 and more at the board's 16.
    for depth in [4u32, 16, 32, 64] {
        let name = if depth == 4 {
            "load_fifo_32".to_string()
        } else {
            format!("load_fifo_32_d{depth}")
        };
        add(
            name.clone(),
            &format!(
                "global load data: response FIFO (oclhls_fifo, {depth} x 32) read into a register"
            ),
            1,
            format!(
                "{fifo}module {name} (\n  input clk,\n  input rst,\n  input push,\n  \
                 input [31:0] a,\n  input pop,\n  output reg [31:0] y\n);\n  reg rpush, rpop;\n  \
                 reg [31:0] ra;\n  wire full, empty;\n  wire [31:0] q;\n  oclhls_fifo #(.W(32), \
                 .DEPTH({depth}), .AW({})) f (.clk(clk), .rst(rst), .push(rpush), .push_data(ra), \
                 .full(full), .pop(rpop), .pop_data(q), .empty(empty));\n  always @(posedge clk) \
                 begin\n    rpush <= push; rpop <= pop; ra <= a;\n    y <= q;\n  end\nendmodule\n",
                depth.trailing_zeros()
            ),
        );
    }
    // EBR: 1024 x 16 inferred (synchronous read, no output register) and DP16KD instantiated
    // with its output register.
    let name = "ebr_inferred";
    add(
        name.into(),
        "DP16KD inferred, read data to a fabric register (no output register)",
        2,
        "module ebr_inferred (\n  input clk,\n  input we,\n  input [9:0] wa,\n  input [9:0] ra,\n  \
         input [15:0] wd,\n  output reg [15:0] y\n);\n  reg [15:0] mem [0:1023];\n  \
         reg [9:0] rra;\n  reg [15:0] q;\n  always @(posedge clk) begin\n    \
         if (we) mem[wa] <= wd;\n    rra <= ra;\n    q <= mem[rra];\n    y <= q;\n  end\nendmodule\n"
            .into(),
    );
    let name = "ebr_outreg";
    let mut ebr = String::from(
        "module ebr_outreg (\n  input clk,\n  input we,\n  input [9:0] wa,\n  input [9:0] ra,\n  \
         input [15:0] wd,\n  output reg [15:0] y\n);\n  reg [9:0] rra;\n  wire [17:0] q;\n  \
         wire [13:0] ada = {wa, 4'b0011};\n  wire [13:0] adb = {rra, 4'b0000};\n",
    );
    let _ = write!(
        ebr,
        "  DP16KD #(.DATA_WIDTH_A(18), .DATA_WIDTH_B(18), .REGMODE_A(\"NOREG\"), \
         .REGMODE_B(\"OUTREG\"), .GSR(\"DISABLED\"), .WRITEMODE_A(\"NORMAL\")) ram (\n    \
         {}, {}, {},\n    .CEA(1'b1), .OCEA(1'b1), .CLKA(clk), .WEA(we), .RSTA(1'b0), \
         .CSA2(1'b0), .CSA1(1'b0), .CSA0(1'b0),\n    {}, {},\n    .CEB(1'b1), .OCEB(1'b1), \
         .CLKB(clk), .WEB(1'b0), .RSTB(1'b0), .CSB2(1'b0), .CSB1(1'b0), .CSB0(1'b0),\n    {});\n",
        bit_ports("DIA", 18, "wd", 16),
        bit_ports("ADA", 14, "ada", 14),
        (0..18)
            .rev()
            .map(|i| format!(".DOA{i}()"))
            .collect::<Vec<_>>()
            .join(", "),
        bit_ports("DIB", 18, "18'd0", 0),
        bit_ports("ADB", 14, "adb", 14),
        (0..18)
            .rev()
            .map(|i| format!(".DOB{i}(q[{i}])"))
            .collect::<Vec<_>>()
            .join(", "),
    );
    ebr.push_str(
        "  always @(posedge clk) begin\n    rra <= ra;\n    y <= q[15:0];\n  end\nendmodule\n",
    );
    add(
        name.into(),
        "DP16KD instantiated with REGMODE OUTREG, to a fabric register",
        3,
        ebr,
    );
}

// The float units' latencies: the hardware contract's, which `rtl_templates::fp` builds.
use hwcontract::fp::{
    FP_ADD_LATENCY, FP_DIV_LATENCY, FP_FROM_INT_LATENCY, FP_MUL_LATENCY, FP_SQRT_LATENCY,
    FP_TO_INT_LATENCY,
};

/// A float unit's template with its placeholders filled.
fn fp_template(text: &str, latency: u32) -> String {
    text.replace("{{ version }}", "op_char")
        .replace("{{ latency }}", &latency.to_string())
}

/// The float units of `rtl-templates` (`oclhls_fp_*.v`, with the helper modules they use), each
/// with registered inputs (and `ce`); their output `y` is their own last register, the
/// combinational compare's outputs go into one.
fn fp_designs(v: &mut Vec<Design>) {
    let lzc = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_lzc.v"),
        0,
    );
    let mul18 = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_mul18.v"),
        0,
    );
    let pack = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_pack.v"),
        0,
    );
    let class = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_class.v"),
        0,
    );
    // (name, what, unit module text + helpers, instance, input width, output width, stages)
    let binary = |module: &str| format!("{module} u (.clk(clk), .ce(rce), .a(ra), .b(rb), .y(y));");
    let conv = |module: &str, w: u32| {
        format!("{module} #(.WIDTH({w}), .SIGNED(1)) u (.clk(clk), .ce(rce), .a(ra), .y(y));")
    };
    let add = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_add.v"),
        FP_ADD_LATENCY,
    );
    let mul = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_mul.v"),
        FP_MUL_LATENCY,
    );
    let from_int = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_from_int.v"),
        FP_FROM_INT_LATENCY,
    );
    let to_int = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_to_int.v"),
        FP_TO_INT_LATENCY,
    );
    let div = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_div.v"),
        FP_DIV_LATENCY,
    );
    let sqrt = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_sqrt.v"),
        FP_SQRT_LATENCY,
    );
    let units: [(&str, &str, String, String, u32, u32, u32); 8] = [
        (
            "fp_add",
            "float a + b (oclhls_fp_add)",
            format!("{add}{lzc}{pack}{class}"),
            binary("oclhls_fp_add"),
            32,
            32,
            FP_ADD_LATENCY,
        ),
        (
            "fp_mul",
            "float a * b (oclhls_fp_mul, 3 MULT18X18D with their registers, the 6x6 top product in fabric)",
            format!("{mul}{mul18}{pack}{class}"),
            binary("oclhls_fp_mul"),
            32,
            32,
            FP_MUL_LATENCY,
        ),
        (
            "fp_div",
            "float a / b (oclhls_fp_div, 1 quotient bit a stage)",
            format!("{div}{pack}{class}"),
            binary("oclhls_fp_div"),
            32,
            32,
            FP_DIV_LATENCY,
        ),
        (
            "fp_sqrt",
            "float sqrt(a) (oclhls_fp_sqrt, 1 root bit a stage)",
            format!("{sqrt}{pack}{class}"),
            "oclhls_fp_sqrt u (.clk(clk), .ce(rce), .a(ra), .y(y));".into(),
            32,
            32,
            FP_SQRT_LATENCY,
        ),
        (
            "fp_from_int_32",
            "int -> float (oclhls_fp_from_int, WIDTH 32, signed)",
            format!("{from_int}{lzc}"),
            conv("oclhls_fp_from_int", 32),
            32,
            32,
            FP_FROM_INT_LATENCY,
        ),
        (
            "fp_from_int_64",
            "long -> float (oclhls_fp_from_int, WIDTH 64, signed)",
            format!("{from_int}{lzc}"),
            conv("oclhls_fp_from_int", 64),
            64,
            32,
            FP_FROM_INT_LATENCY,
        ),
        (
            "fp_to_int_32",
            "float -> int (oclhls_fp_to_int, WIDTH 32, signed)",
            to_int.clone(),
            conv("oclhls_fp_to_int", 32),
            32,
            32,
            FP_TO_INT_LATENCY,
        ),
        (
            "fp_to_int_64",
            "float -> long (oclhls_fp_to_int, WIDTH 64, signed)",
            to_int,
            conv("oclhls_fp_to_int", 64),
            32,
            64,
            FP_TO_INT_LATENCY,
        ),
    ];
    for (name, what, modules, inst, iw, yw, stages) in units {
        let b_port = if inst.contains(".b(rb)") {
            format!("  input [{}:0] b,\n", iw - 1)
        } else {
            String::new()
        };
        let b_reg = if b_port.is_empty() { "" } else { " rb <= b;" };
        let b_decl = if b_port.is_empty() {
            String::new()
        } else {
            ", rb".to_string()
        };
        v.push(Design {
            name: name.into(),
            what: what.into(),
            stages,
            verilog: format!(
                "{modules}module {name} (\n  input clk,\n  input ce,\n  input [{i1}:0] a,\n\
                 {b_port}  output [{y1}:0] y\n);\n  reg [{i1}:0] ra{b_decl};\n  reg rce;\n  \
                 always @(posedge clk) begin\n    rce <= ce; ra <= a;{b_reg}\n  end\n  {inst}\n\
                 endmodule\n",
                i1 = iw - 1,
                y1 = yw - 1
            ),
        });
    }
    let cmp = fp_template(
        include_str!("../../rtl-templates/templates/oclhls_fp_cmp.v"),
        0,
    );
    v.push(Design {
        name: "fp_cmp".into(),
        what: "float compare (oclhls_fp_cmp, combinational): {lt, eq, unordered}".into(),
        stages: 1,
        verilog: format!(
            "{cmp}{class}module fp_cmp (\n  input clk,\n  input [31:0] a,\n  input [31:0] b,\n  \
             output reg [2:0] y\n);\n  reg [31:0] ra, rb;\n  wire lt, eq, un;\n  \
             oclhls_fp_cmp u (.a(ra), .b(rb), .lt(lt), .eq(eq), .unordered(un));\n  \
             always @(posedge clk) begin\n    ra <= a; rb <= b;\n    y <= {{lt, eq, un}};\n  \
             end\nendmodule\n"
        ),
    });
}

/// 64-bit low product from 16-bit digits: stage 1 registers the ten products a_i*b_j with
/// i + j <= 3; stage 2 sums the products of equal weight; stage 3 forms the low and high
/// halves; stage 4 adds them. No stage holds more than one level of wide additions.
fn mul64_decls() -> String {
    let mut d = String::new();
    for i in 0..4 {
        for j in 0..4 - i {
            let hi = if i + j == 3 { 15 } else { 31 };
            let _ = writeln!(d, "  reg [{hi}:0] p{i}{j};");
        }
    }
    d.push_str(
        "  reg [31:0] q0;\n  reg [32:0] s16;\n  reg [31:0] s32;\n  reg [15:0] s48;\n  \
         reg [63:0] lo;\n  reg [31:0] hi;\n",
    );
    d
}

fn mul64_body() -> String {
    let mut b = String::new();
    let digit = |x: &str, i: u32| format!("{x}[{}:{}]", 16 * i + 15, 16 * i);
    for i in 0..4 {
        for j in 0..4 - i {
            let _ = writeln!(b, "    p{i}{j} <= {} * {};", digit("ra", i), digit("rb", j));
        }
    }
    b.push_str(
        "    q0 <= p00;\n    s16 <= {1'b0, p01} + {1'b0, p10};\n    s32 <= p02 + p11 + p20;\n    \
         s48 <= p03 + p12 + p21 + p30;\n    lo <= {32'd0, q0} + {15'd0, s16, 16'd0};\n    \
         hi <= s32 + {s48, 16'd0};\n    y <= lo + {hi, 32'd0};\n",
    );
    b
}

struct Args {
    part: String,
    seed: u64,
    work: PathBuf,
    quick: bool,
    filters: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        part: "LFE5U-85F".into(),
        seed: 1,
        work: PathBuf::from("target/op-char"),
        quick: false,
        filters: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--part" => a.part = value("--part")?,
            "--seed" => {
                a.seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?
            }
            "--work" => a.work = value("--work")?.into(),
            "--quick" => a.quick = true,
            f if !f.starts_with("--") => a.filters.push(f.into()),
            other => {
                return Err(format!(
                    "unknown option {other}\nusage: op_char [--quick] [--part P] [--seed N] \
                     [--work DIR] [NAME-FILTER...]"
                ))
            }
        }
    }
    Ok(a)
}

fn measure(
    tc: &Toolchain,
    device: Device,
    a: &Args,
    d: &Design,
) -> Result<Measured, Box<dyn std::error::Error>> {
    let mut h = DefaultHasher::new();
    (&d.verilog, &a.part, a.seed).hash(&mut h);
    let hash = h.finish();
    let dir = a.work.join(&d.name);
    let cache = dir.join("result.json");
    if let Ok(text) = std::fs::read_to_string(&cache) {
        if let Ok(m) = serde_json::from_str::<Measured>(&text) {
            if m.hash == hash {
                return Ok(m);
            }
        }
    }
    std::fs::create_dir_all(&dir)?;
    let file = dir.join(format!("{}.v", d.name));
    std::fs::write(&file, &d.verilog)?;
    let mut sopts = SynthOptions::new(dir.join("synth"));
    sopts.require_clean_check = false;
    let s = synth(tc, &[&file], &d.name, &sopts)?;
    // Target 400 MHz so nextpnr optimises every design for speed; the achieved Fmax is reported.
    let opts = PnrOptions::out_of_context(dir.join("pnr"), 400.0).seed(a.seed);
    let p = place_route(tc, &s.netlist, Target::Device(device), &opts)?;
    let cp = p
        .critical_paths
        .first()
        .ok_or("nextpnr reported no critical path")?;
    let m = Measured {
        hash,
        fmax_mhz: p.fmax_mhz().ok_or("nextpnr reported no clock")?,
        path_ns: cp.delay_ns,
        logic_ns: cp.logic_ns,
        routing_ns: cp.routing_ns,
        from: cp.start.clone(),
        to: cp.end.clone(),
        luts: p.luts().used,
        ffs: p.ffs().used,
        dsps: p.dsp().used,
        ebrs: p.ebr().used,
    };
    std::fs::write(&cache, serde_json::to_string_pretty(&m)?)?;
    Ok(m)
}

fn short(cell: &str) -> String {
    cell.chars().take(28).collect()
}

fn run(a: Args) -> Result<(), Box<dyn std::error::Error>> {
    let device = Device::ecp5(&a.part, "CABGA381", 6)?;
    let tc = Toolchain::new(false);
    let quick = ["reg_32", "add_32", "add_64", "mul_32_split", "mul_64_split"];
    let all = designs();
    let chosen: Vec<&Design> = all
        .iter()
        .filter(|d| !a.quick || quick.contains(&d.name.as_str()))
        .filter(|d| a.filters.is_empty() || a.filters.iter().any(|f| d.name.contains(f.as_str())))
        .collect();
    let mut rows = Vec::new();
    for d in chosen {
        eprintln!("{} ...", d.name);
        match measure(&tc, device, &a, d) {
            Ok(m) => rows.push((d, Ok(m))),
            Err(e) => rows.push((d, Err(e.to_string()))),
        }
    }
    // The register overhead: clock-to-out, routing and setup of a path without logic.
    let overhead = rows.iter().find_map(|(d, m)| match m {
        Ok(m) if d.name == "reg_32" => Some(m.path_ns),
        _ => None,
    });
    println!(
        "{} CABGA381, out of context, seed {}, nextpnr target 400 MHz; register overhead \
         (reg_32 path) = {}",
        a.part,
        a.seed,
        overhead.map_or("not measured".into(), |o| format!("{o:.2} ns"))
    );
    println!();
    println!(
        "| design | measures | stages | Fmax (MHz) | path (ns) | logic / routing (ns) | \
         comb. delay (ns) | LUT | FF | DSP | EBR | critical path |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (d, m) in rows {
        match m {
            Ok(m) => println!(
                "| {} | {} | {} | {:.1} | {:.2} | {:.2} / {:.2} | {} | {} | {} | {} | {} | {} → {} |",
                d.name,
                d.what,
                d.stages,
                m.fmax_mhz,
                m.path_ns,
                m.logic_ns,
                m.routing_ns,
                overhead.map_or("—".into(), |o| format!("{:.2}", (m.path_ns - o).max(0.0))),
                m.luts,
                m.ffs,
                m.dsps,
                m.ebrs,
                short(&m.from),
                short(&m.to)
            ),
            Err(e) => println!(
                "| {} | {} | {} | failed: {} | | | | | | | | |",
                d.name,
                d.what,
                d.stages,
                e.lines().next().unwrap_or("")
            ),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse_args() {
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
        Ok(a) => match run(a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
