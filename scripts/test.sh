#!/usr/bin/env bash
# The test suite: every crate with the default solver (HiGHS), the scheduler again with the
# pure-Rust solver (microlp), and the example kernel in Verilator.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --workspace
cargo test -p scheduler --no-default-features --features microlp
