#!/usr/bin/env bash
# Bandwidth of streaming kernels on the whole board system in Verilator (`oclhls sim --board
# ulx3s`: LiteX SoC, LiteDRAM with its SDR SDRAM model, the host runtime over UARTBone) and on
# the project's SDRAM timing model (`--memory sdram`), with and without bursts. Prints the
# table of docs/benchmarks.md ("Board simulation").
# Usage: scripts/board_bench.sh [OCLHLS]   (default: target/release/oclhls)
set -euo pipefail
bin=${1:-target/release/oclhls}
# file, test name filter, bytes moved
rows=("examples/vadd.cl|vadd 1024 items|12288" "examples/vadd.cl|vadd non-uniform|1200"
      "bench/kernels/stream_copy.cl|2048 words|16384"
      "bench/kernels/double_buffer.cl|double buffering|4608")
configs=("--no-bursts" "")
names=("no bursts" "bursts")
cycles_of() { sed -nE 's/^PASS [^(]*\(([0-9]+) cycles.*/\1/p' | head -1; }
echo "| kernel, test | build | board: kernel cycles | board: % of peak | \`--memory sdram\`: cycles | \`--memory sdram\`: % of peak |"
echo "|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  IFS='|' read -r f filter bytes <<<"$row"
  for i in "${!configs[@]}"; do
    # shellcheck disable=SC2086 # the options are words
    b=$("$bin" sim "$f" --board ulx3s ${configs[$i]} --filter "$filter" 2>/dev/null | cycles_of)
    # shellcheck disable=SC2086
    m=$("$bin" sim "$f" --memory sdram --memory-latency 16 ${configs[$i]} --filter "$filter" 2>/dev/null |
        cycles_of)
    pct() { awk -v b="$bytes" -v c="$1" 'BEGIN { printf "%.1f", 100 * b / (2 * c) }'; }
    echo "| \`$(basename "$f")\`, $filter | ${names[$i]} | $b | $(pct "$b") | $m | $(pct "$m") |"
  done
done
