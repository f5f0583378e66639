#!/usr/bin/env bash
# The main job: build oclhls, compile examples/vadd.cl to Verilog (build/vadd/) and run its
# test vectors in Verilator with a memory model that inserts random stalls.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
./target/release/oclhls examples/vadd.cl
./target/release/oclhls sim examples/vadd.cl
