#!/usr/bin/env bash
# Bursts on the SDRAM model: cycles, bursts and bandwidth against the SDRAM's peak for
# streaming kernels, with bursts off, on (default read latency) and on with
# `--memory-latency 32`. Prints the table of docs/benchmarks.md ("Bursts on the SDRAM model").
# Usage: scripts/burst_bench.sh [OCLHLS]   (default: target/release/oclhls)
set -euo pipefail
bin=${1:-target/release/oclhls}
files=(examples/vadd.cl bench/kernels/saxpy.cl bench/kernels/stencil_stream.cl bench/kernels/stream_copy.cl
       bench/kernels/double_buffer.cl)
configs=("--no-bursts" "" "--memory-latency 32")
names=("no bursts" "bursts" "bursts, --memory-latency 32")
echo "| kernel, test | build | cycles | bursts | bytes | % of SDRAM peak |"
echo "|---|---|---|---|---|---|"
for f in "${files[@]}"; do
  for i in "${!configs[@]}"; do
    # shellcheck disable=SC2086 # the options are words
    "$bin" sim "$f" --memory sdram ${configs[$i]} 2>/dev/null | grep -E '^(PASS|FAIL)' |
      grep -v 'wraps around\|non-uniform' |
      sed -E 's/^(PASS|FAIL) ([^(]*) \(([0-9]+) cycles.*SDRAM: ([0-9]+) bytes read, ([0-9]+) written in ([0-9]+) bursts; ([0-9.]+) % of peak.*/\1|\2|\3|\6|\4 + \5|\7/' |
      while IFS='|' read -r verdict name cycles bursts bytes pct; do
        echo "| \`$(basename "$f")\`, ${name% } | ${names[$i]} | $cycles | $bursts | $bytes | $pct${verdict/PASS/} |"
      done
  done
done
