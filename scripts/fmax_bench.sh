#!/usr/bin/env bash
# The kernel benchmark's Fmax column at one placement target above what any design reaches
# (so that no result is capped by the target), three placement seeds, with the 32-bit counter
# and Amaranth's FIFO (the peer of the pipe FIFO) placed and routed in the same run
# (docs/benchmarks.md, "Fmax of every corpus kernel"; issue 17). Synthesis runs once per
# design, place and route once per seed; results are cached in WORK_DIR by content.
#   bash scripts/fmax_bench.sh [TARGET_MHZ] [SEEDS] [WORK_DIR] [PATH...]
# (defaults 250 MHz, 3 seeds, target/fmax-bench, the kernel benchmark's files: every file of
# tests/kernels, bench/kernels and examples/vadd.cl; hours on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
freq="${1:-250}"
seeds="${2:-3}"
work="${3:-target/fmax-bench}"
shift $(( $# < 3 ? $# : 3 ))
peer=$(bash scripts/amaranth_fifo.sh)
cargo build --release --quiet --bin oclhls --example kernel_bench
./target/release/examples/kernel_bench --freq "$freq" --seeds "$seeds" --work "$work" \
    --peer "$peer:amaranth_fifo:Amaranth SyncFIFOBuffered 32 x 16" "$@"
