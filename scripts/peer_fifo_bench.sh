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
out=$(bash scripts/amaranth_fifo.sh)
cargo run --release -q --example pipe_fifo_bench -- --freq "$freq" --seeds "$seeds" --depth 16 --width 32 \
    --work target/peer-bench/work \
    --peer "$out:amaranth_fifo:Amaranth SyncFIFOBuffered 32 x 16"
