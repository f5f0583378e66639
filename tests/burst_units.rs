//! The write- and read-combining units (`oclhls_wburst`, `oclhls_rburst`) alone, under random
//! traffic, in a Verilog testbench run by Verilator (`--binary`): every write comes out on W
//! in order with its data, bursts hold consecutive elements, never more than MAXB beats and
//! never across a 4 KB page, one acknowledgement per burst counts its beats, reads come out as
//! bursts that cover exactly the reads asked (planned bursts of read runs before their reads,
//! as long as the run up to PLANB beats; gathered ones up to MAXB),
//! and `ready` never depends on `valid` (a request that goes away is not lost). The testbench checks and counts; the test reads its verdict.

use std::path::Path;
use toolchain::{Tool, Toolchain};

const TB: &str = r#"
`timescale 1ns/1ps
module tb;
  reg clk = 0, rst = 1;
  always #5 clk = ~clk;
  // Writes: a stream of runs of consecutive words with random jumps, gaps and flushes.
  reg in_valid = 0; wire in_ready, in_ready_next; reg [31:0] in_addr = 32'h0ff0; reg [31:0] in_data = 0;
  reg flush = 0, aw_ready = 0, w_ready = 0, b_valid = 0;
  wire aw_valid, w_valid, w_last; wire [31:0] aw_addr, w_data; wire [7:0] aw_len; wire [3:0] w_strb;
  wire [8:0] ack;
  oclhls_wburst #(.W(32), .SB(4), .EB(4), .MAXB(8), .DEPTH(16), .DAW(4), .IDLE(3)) wunit (
    .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready), .in_ready_next(in_ready_next), .in_addr(in_addr),
    .in_data(in_data), .in_strb(4'hf), .aw_valid(aw_valid), .aw_ready(aw_ready),
    .aw_addr(aw_addr), .aw_len(aw_len), .w_valid(w_valid), .w_ready(w_ready), .w_data(w_data),
    .w_strb(w_strb), .w_last(w_last), .b_valid(b_valid), .flush(flush), .ack_beats(ack));
  // Reads.
  // A read run (r_run > 1) promises that the next r_run - 1 reads taken follow it.
  reg r_valid = 0; wire r_ready, r_ready_next; reg [31:0] r_addr = 32'h1fe0; reg ar_ready = 0;
  reg [8:0] r_run = 1; wire planned;
  wire ar_valid; wire [31:0] ar_addr; wire [7:0] ar_len;
  oclhls_rburst #(.EB(4), .MAXB(4), .PLANB(8), .IDLE(2)) runit (
    .clk(clk), .rst(rst), .in_valid(r_valid), .in_ready(r_ready), .in_ready_next(r_ready_next), .in_addr(r_addr),
    .in_run(r_run), .planned(planned),
    .ar_valid(ar_valid), .ar_ready(ar_ready), .ar_addr(ar_addr), .ar_len(ar_len));
  // The elements AR bursts cover, in order (a planned burst goes out before its reads).
  // cov_len: a burst's beats at its first element, 0 at the others.
  reg [31:0] cov [0:8191]; integer cov_len [0:8191]; integer cov_n = 0, planned_cycles = 0, long_planned = 0;
  // Scoreboards: the writes accepted (address, data) and the reads accepted, in order.
  reg [31:0] wq_addr [0:4095]; reg [31:0] wq_data [0:4095]; integer wq_in = 0, wq_out = 0;
  reg [31:0] rq_addr [0:4095]; integer rq_run [0:4095]; integer rq_in = 0, rq_out = 0;
  integer errors = 0, beats_left = 0, acked = 0, pending_b = 0, cyc = 0, bursts = 0, rbursts = 0;
  reg [31:0] burst_next = 0; integer wb = 0;
  reg [31:0] aw_a [0:4095]; reg [7:0] aw_l [0:4095]; reg [31:0] w_a [0:4095]; integer w_l [0:4095];
  // Both units' ready is a flip-flop whose next value they announce (`in_ready_next`, read
  // by a kernel's registered stall): it must be what ready becomes at the edge.
  reg want_w = 1, want_r = 1;
  always @(posedge clk) begin
    want_w <= in_ready_next; want_r <= r_ready_next;
    if (!rst && (in_ready !== want_w || r_ready !== want_r)) begin
      errors = errors + 1; $display("%0d: ready %b %b, announced %b %b", cyc, in_ready, r_ready, want_w, want_r);
    end
  end
  always @(posedge clk) begin
    cyc <= cyc + 1;
    if (!rst) begin
      // Writes accepted.
      if (in_valid && in_ready) begin
        wq_addr[wq_in] = in_addr; wq_data[wq_in] = in_data; wq_in = wq_in + 1;
      end
      // AW: at most 8 beats, never across a page; kept to compare with the W bursts (W may
      // run ahead of AW).
      if (aw_valid && aw_ready) begin
        if (aw_len > 7) begin errors = errors + 1; $display("len %0d", aw_len); end
        if ((aw_addr & 32'hfff) + (aw_len + 1) * 4 > 4096) begin
          errors = errors + 1; $display("crosses 4 KB at %h", aw_addr);
        end
        aw_a[bursts] = aw_addr; aw_l[bursts] = aw_len; bursts = bursts + 1;
      end
      // W: beats in order, each the next accepted write; a burst's beats are consecutive.
      if (w_valid && w_ready) begin
        if (wq_out >= wq_in || w_data != wq_data[wq_out]) begin
          errors = errors + 1; $display("beat %0d data %h", wq_out, w_data);
        end
        if (beats_left == 0) begin burst_next = wq_addr[wq_out]; w_a[wb] = burst_next; end
        if (wq_addr[wq_out] != burst_next) begin
          errors = errors + 1; $display("beat %0d not consecutive", wq_out);
        end
        burst_next = burst_next + 4;
        beats_left = beats_left + 1;
        if (w_last) begin
          w_l[wb] = beats_left - 1; wb = wb + 1; beats_left = 0; pending_b = pending_b + 1;
        end
        wq_out = wq_out + 1;
      end
      if (b_valid) begin acked = acked + ack; pending_b = pending_b - 1; end
      b_valid <= pending_b > 0 && ($random & 1);
      // Reads accepted, and AR bursts covering them in order.
      if (r_valid && r_ready) begin
        rq_addr[rq_in] = r_addr; rq_run[rq_in] = {23'd0, r_run}; rq_in = rq_in + 1;
      end
      if (planned) planned_cycles = planned_cycles + 1;
      // The registered `planned` is high whenever a planned burst expects reads or a read
      // with a run waits in the unit's input stage (the port's arbiter locks on it).
      if ((runit.plan_left != 0 || (runit.s_valid && runit.s_run > 1)) && !planned) begin
        errors = errors + 1; $display("%0d: planned low", cyc);
      end
      if (ar_valid && ar_ready) begin
        rbursts = rbursts + 1;
        if (ar_len > 7 || (ar_addr & 32'hfff) + (ar_len + 1) * 4 > 4096) begin
          errors = errors + 1; $display("read burst %h len %0d", ar_addr, ar_len);
        end
        for (integer i = 0; i <= 255; i = i + 1)
          if (i <= ar_len) begin
            cov[cov_n] = ar_addr + i * 4; cov_len[cov_n] = i == 0 ? ar_len + 1 : 0;
            cov_n = cov_n + 1;
          end
      end
      // Every read is the next element an AR burst covers (whichever came first).
      while (rq_out < rq_in && rq_out < cov_n) begin
        if (rq_addr[rq_out] != cov[rq_out]) begin
          errors = errors + 1; $display("read %0d at %h, burst has %h", rq_out, rq_addr[rq_out], cov[rq_out]);
        end
        // A burst is gathered (MAXB = 4 beats at most) or planned by its first read's run
        // (min(run, PLANB = 8) beats exactly).
        if (cov_len[rq_out] > 4
            && cov_len[rq_out] != (rq_run[rq_out] > 8 ? 8 : rq_run[rq_out])) begin
          errors = errors + 1;
          $display("read %0d: burst of %0d beats, run %0d", rq_out, cov_len[rq_out], rq_run[rq_out]);
        end
        if (cov_len[rq_out] > 4) long_planned = long_planned + 1;
        rq_out = rq_out + 1;
      end
      // Random traffic: a request may go away before it is accepted (ready must not wait for
      // valid); addresses mostly step by one word, sometimes jump.
      aw_ready <= ($random & 3) != 0;
      w_ready <= ($random & 3) != 0;
      ar_ready <= ($random & 1);
      flush <= ($random & 31) == 0;
      if (!(in_valid && in_ready) && in_valid && ($random & 7) == 0) in_valid <= 0;
      else if (wq_in < 3000) begin
        in_valid <= ($random & 3) != 0;
        if (in_valid && in_ready) begin
          in_addr <= ($random & 15) == 0 ? {$random} & 32'h3ffc : in_addr + 4;
          in_data <= $random;
        end
      end else in_valid <= 0;
      if (!(r_valid && r_ready) && r_valid && ($random & 7) == 0) r_valid <= 0;
      else if (rq_in < 3000 || r_run > 1) begin
        r_valid <= ($random & 1);
        if (r_valid && r_ready) begin
          if (r_run > 1) begin
            // Keep the promise: the next element, one less to go.
            r_addr <= r_addr + 4; r_run <= r_run - 1;
          end else begin
            r_addr <= ($random & 15) == 0 ? {$random} & 32'h3ffc : r_addr + 4;
            r_run <= ($random & 3) == 0 && rq_in < 2900 ? 9'd2 + ({$random} % 40) : 9'd1;
          end
        end
      end else r_valid <= 0;
    end
  end
  initial begin
    #25 rst = 0;
    #400000;
    if (wq_out != wq_in || rq_out != rq_in) begin
      errors = errors + 1;
      $display("left: %0d writes, %0d reads", wq_in - wq_out, rq_in - rq_out);
    end
    if (acked != wq_in) begin errors = errors + 1; $display("acked %0d of %0d", acked, wq_in); end
    if (wb != bursts) begin errors = errors + 1; $display("%0d W bursts, %0d AW", wb, bursts); end
    for (integer i = 0; i < 4096; i = i + 1)
      if (i < wb && (aw_a[i] != w_a[i] || {24'd0, aw_l[i]} != w_l[i])) begin
        errors = errors + 1; $display("burst %0d: AW %h+%0d, W %h+%0d", i, aw_a[i], aw_l[i], w_a[i], w_l[i]);
      end
    if (rq_out != cov_n) begin errors = errors + 1; $display("bursts cover %0d, %0d reads", cov_n, rq_in); end
    $display("RESULT writes %0d bursts %0d reads %0d rbursts %0d planned %0d long %0d errors %0d",
             wq_in, bursts, rq_in, rbursts, planned_cycles, long_planned, errors);
    $finish;
  end
endmodule
"#;

/// Builds testbench `tb` (module `tb`) with the support files `units` in Verilator and runs
/// it: its `RESULT` line, or `None` when Verilator cannot be provisioned (reported).
fn run_testbench(tb: &str, units: &[&str]) -> Option<String> {
    let tc = Toolchain::new(false);
    let verilator = match tc.locate(Tool::Verilator) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("skipping: Verilator cannot be provisioned: {e}");
            return None;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut files = vec![d.join("tb.v")];
    std::fs::write(d.join("tb.v"), tb).unwrap();
    for (name, text) in rtl_templates::support_files() {
        if units.contains(&name.as_str()) {
            std::fs::write(d.join(&name), text).unwrap();
            files.push(d.join(name));
        }
    }
    let out = tc
        .command(&verilator)
        .args([
            "--binary",
            "--top-module",
            "tb",
            "-Wno-fatal",
            "-o",
            "tbsim",
        ])
        // g++ 12 needs the flag for the coroutines of `--timing` (the testbench's delays).
        .args(["-CFLAGS", "-fcoroutines"])
        .args(&files)
        .current_dir(d)
        .output()
        .expect("verilator runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = std::process::Command::new(Path::new(d).join("obj_dir/tbsim"))
        .output()
        .expect("the testbench runs");
    let text = String::from_utf8_lossy(&run.stdout);
    let result = text
        .lines()
        .find(|l| l.starts_with("RESULT"))
        .unwrap_or_else(|| panic!("no result: {text}"));
    assert!(result.ends_with("errors 0"), "{text}");
    Some(result.to_string())
}

/// The numbers of a `RESULT` line, in order.
fn numbers(result: &str) -> Vec<u64> {
    result
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn combining_units_keep_every_access_under_random_traffic() {
    let units = [
        "oclhls_fifo.v",
        "oclhls_skid.v",
        "oclhls_wburst.v",
        "oclhls_rburst.v",
    ];
    let Some(result) = run_testbench(TB, &units) else {
        return;
    };
    // Enough traffic to mean something, and bursts longer than one beat.
    let n = numbers(&result);
    let (writes, bursts, reads, rbursts, planned, long) = (n[0], n[1], n[2], n[3], n[4], n[5]);
    assert!(writes == 3000 && reads == 3000, "{result}");
    assert!(bursts < writes / 2 && rbursts < reads / 2, "{result}");
    // Read runs started planned bursts (which then waited for their reads).
    assert!(planned > 100, "{result}");
    // Planned bursts are capped by PLANB (8), not by the gathered bursts' MAXB (4).
    assert!(long > 20, "{result}");
}

/// `oclhls_fifo` at depths 2, 4 and 16 under random pushes and pops (also while full or
/// empty): data come out in order, and its registered `full`/`empty` flags agree in every
/// cycle with a model's count of the entries it holds.
const FIFO_TB: &str = r#"
`timescale 1ns/1ps
module fifo_check #(parameter integer DEPTH = 4, parameter integer AW = 2, parameter integer SEED = 1) (
    input wire clk, input wire rst, output reg [31:0] errors, output reg [31:0] pops,
    output reg [31:0] fulls);
  reg push = 0, pop = 0; reg [15:0] push_data = 0;
  wire full, empty; wire [15:0] pop_data;
  oclhls_fifo #(.W(16), .DEPTH(DEPTH), .AW(AW)) dut (
    .clk(clk), .rst(rst), .push(push), .push_data(push_data), .full(full), .pop(pop),
    .pop_data(pop_data), .empty(empty));
  integer count = 0, seed = SEED; reg [15:0] next_in = 0, next_out = 0;
  initial begin errors = 0; pops = 0; fulls = 0; end
  always @(posedge clk) begin
    if (!rst) begin
      if (full != (count == DEPTH) || empty != (count == 0)) begin
        errors <= errors + 1;
        $display("depth %0d: count %0d full %b empty %b", DEPTH, count, full, empty);
      end
      if (full) fulls <= fulls + 1;
      if (pop && !empty) begin
        if (pop_data != next_out) begin
          errors <= errors + 1; $display("depth %0d: popped %h, not %h", DEPTH, pop_data, next_out);
        end
        next_out <= next_out + 1; pops <= pops + 1;
      end
      if (push && !full) next_in = next_in + 1;
      count <= count + (push && !full) - (pop && !empty);
    end
    // Phases that fill and drain: pushes more likely for a while, then pops.
    push <= ($random(seed) & 3) < (pops[7] ? 1 : 3);
    pop <= ($random(seed) & 3) < (pops[7] ? 3 : 1);
    push_data <= next_in;
  end
endmodule

module tb;
  reg clk = 0, rst = 1;
  always #5 clk = ~clk;
  wire [31:0] e2, e4, e16, p2, p4, p16, f2, f4, f16;
  fifo_check #(.DEPTH(2), .AW(1), .SEED(7)) c2 (.clk(clk), .rst(rst), .errors(e2), .pops(p2), .fulls(f2));
  fifo_check #(.DEPTH(4), .AW(2), .SEED(11)) c4 (.clk(clk), .rst(rst), .errors(e4), .pops(p4), .fulls(f4));
  fifo_check #(.DEPTH(16), .AW(4), .SEED(13)) c16 (.clk(clk), .rst(rst), .errors(e16), .pops(p16), .fulls(f16));
  initial begin
    #23 rst = 0;
    #200000;
    $display("RESULT pops %0d %0d %0d fulls %0d %0d %0d errors %0d", p2, p4, p16, f2, f4, f16,
             e2 + e4 + e16);
    $finish;
  end
endmodule
"#;

#[test]
fn fifo_flags_follow_its_contents() {
    let Some(result) = run_testbench(FIFO_TB, &["oclhls_fifo.v"]) else {
        return;
    };
    // Every FIFO moved data and was full for a while (its flags were exercised both ways).
    let n = numbers(&result);
    assert!(n[..3].iter().all(|&p| p > 2000), "{result}");
    assert!(n[3..6].iter().all(|&f| f > 100), "{result}");
}
