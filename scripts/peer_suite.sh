#!/usr/bin/env bash
# Measures the hardware path on a peer test suite: runs `oclhls sim` (emulator, IR interpreter
# and Verilator) on every `.cl` file under DIR (default: piglit's OpenCL execute tests beside
# the repository) and prints one line per file, then a summary. A file is
#   PASS  every test ran in Verilator and passed,
#   PART  some tests were skipped (the hardware path cannot build a kernel they launch),
#   SKIP  every test was skipped,
#   FAIL  a test failed (or oclhls failed: the line says how).
# Usage: scripts/peer_suite.sh [DIR] [JOBS]   (JOBS parallel files, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-../shared/peer-suites/piglit-cl-execute}"
jobs="${2:-2}"
cargo build --release --quiet --bin oclhls
bin="$PWD/target/release/oclhls"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
one() {
    local f="$1" bin="$2" out="$3"
    local log="$out/$(echo "$f" | tr '/' '_').log"
    local status=0
    timeout 900 "$bin" sim "$f" >"$log" 2>&1 || status=$?
    local summary
    summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)"
    local verdict
    if [ -z "$summary" ]; then
        verdict="FAIL"
        summary="oclhls exited with $status: $(grep -v '^oclhls-sim' "$log" | head -1 | cut -c1-160)"
    else
        local passed failed skipped
        passed=$(echo "$summary" | sed -E 's/^([0-9]+) passed.*/\1/')
        failed=$(echo "$summary" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
        skipped=$(echo "$summary" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
        skipped="${skipped:-0}"
        if [ "$failed" != 0 ]; then verdict="FAIL"
        elif [ "$skipped" = 0 ]; then verdict="PASS"
        elif [ "$passed" = 0 ]; then verdict="SKIP"
        else verdict="PART"; fi
        if [ "$verdict" = FAIL ] || [ "$verdict" = SKIP ] || [ "$verdict" = PART ]; then
            local why
            why="$(grep -E '^(FAIL|SKIP) ' "$log" | head -1 | cut -c1-200 || true)"
            summary="$summary; first: $why"
        fi
    fi
    echo "$verdict ${f#$4/}: $summary"
}
export -f one
find "$dir" -name '*.cl' | sort | xargs -P "$jobs" -I{} bash -c 'one "$@"' _ {} "$bin" "$out" "$dir" \
    | sort -k2 | tee "$out/all.txt"
total=$(wc -l <"$out/all.txt")
for v in PASS PART SKIP FAIL; do
    printf '%s %s  ' "$(grep -c "^$v " "$out/all.txt" || true)" "$v"
done
echo "of $total files"
