#!/usr/bin/env python3
"""Measures ROMs on ECP5 (docs/benchmarks.md, "ROMs"): for each WORDSxBITS:STYLE argument,
writes a ROM with a registered address and a registered read (a `reg` array with an `initial`
block and `rom_style = STYLE`), synthesises it with Yosys `synth_ecp5`, places and routes it
with nextpnr-ecp5 out of context (--25k, seed 1) and prints the cells and Fmax.
Tools: YOSYS and NEXTPNR environment variables, or `yosys`/`nextpnr-ecp5` on PATH
(`oclhls doctor` shows where oclhls found them).

    scripts/rom_char.py 16x32:logic 64x32:logic 256x32:block
"""
import json, os, random, subprocess, sys, tempfile

def rom(n, w, style):
    aw = max(1, (n - 1).bit_length())
    random.seed(n * 7 + w)
    lines = [f"module rom(input wire clk, input wire re, input wire [{aw-1}:0] a_in, output reg [{w-1}:0] q);",
             f"  reg [{aw-1}:0] a; always @(posedge clk) a <= a_in;",
             f"  (* rom_style = \"{style}\" *) reg [{w-1}:0] mem [0:{n-1}];",
             "  initial begin"]
    lines += [f"    mem[{i}] = {w}'h{random.getrandbits(w):x};" for i in range(n)]
    lines += ["  end", "  always @(posedge clk) if (re) q <= mem[a];", "endmodule"]
    return "\n".join(lines) + "\n"

yosys = os.environ.get("YOSYS", "yosys")
nextpnr = os.environ.get("NEXTPNR", "nextpnr-ecp5")
for arg in sys.argv[1:]:
    size, style = arg.split(":")
    n, w = map(int, size.split("x"))
    with tempfile.TemporaryDirectory() as d:
        # Relative names: the YoWASP builds see the working directory only.
        open(os.path.join(d, "rom.v"), "w").write(rom(n, w, style))
        subprocess.run([yosys, "-q", "-p", "read_verilog rom.v; synth_ecp5 -top rom -json rom.json"],
                       check=True, cwd=d)
        subprocess.run([nextpnr, "--25k", "--package", "CABGA381", "--json", "rom.json", "--freq",
                        "100", "--out-of-context", "--seed", "1", "--report", "report.json"],
                       check=True, capture_output=True, cwd=d)
        rep = json.load(open(os.path.join(d, "report.json")))
        used = {k: v["used"] for k, v in rep["utilization"].items() if v["used"] > 0}
        fmax = {k: round(v["achieved"], 1) for k, v in rep["fmax"].items()}
        print(f"{arg}: {used} Fmax {fmax}")
