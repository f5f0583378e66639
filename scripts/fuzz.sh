#!/usr/bin/env bash
# Fuzzes the front end for a time budget (seconds, default 60); see docs/fuzzing.md.
# Needs crates.io (cargo-fuzz is installed on first use, about 30 s) and builds the target with
# RUSTC_BOOTSTRAP=1 for the sanitizer flags (about 1 minute). Exits non-zero on a crash; the
# input is then in fuzz/artifacts/frontend/.
set -euo pipefail
cd "$(dirname "$0")/.."
budget="${1:-60}"
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
# New inputs go to a scratch directory so that a CI run leaves the committed corpus unchanged.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
RUSTC_BOOTSTRAP=1 cargo fuzz run frontend "$scratch" fuzz/corpus/frontend fuzz/regressions -- \
    -max_len=4096 -timeout=5 -rss_limit_mb=4096 -dict=fuzz/frontend.dict \
    -max_total_time="$budget" -print_final_stats=1
