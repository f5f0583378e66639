#!/usr/bin/env bash
# The main job: build oclhls, compile examples/vadd.cl to Verilog and to a bitstream for the
# ULX3S (build/vadd/, build/vadd/ulx3s/), run its test vectors in Verilator with a memory model
# that inserts random stalls, then on the whole board system in Verilator through the host
# runtime (the software that drives a real board).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
./target/release/oclhls examples/vadd.cl --board ulx3s
./target/release/oclhls sim examples/vadd.cl
./target/release/oclhls sim examples/vadd.cl --board ulx3s
