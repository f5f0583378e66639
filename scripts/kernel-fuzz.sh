#!/usr/bin/env bash
# Random-kernel differential fuzzer (docs/fuzzing.md, "Random-kernel fuzzer"): generates COUNT
# kernels from SEED, runs each through `oclhls sim` (emulator, IR, IR after passes, Verilator
# with random stalls) and Verilator lint, reduces every failure into tests/fuzz-regressions/.
# Last line: `N kernels, M mismatches, K crashes`; exit 1 if M or K is not 0.
# More options (timeouts, directories) are passed on: scripts/kernel-fuzz.sh 50 7 --timeout 120
# KERNEL_FUZZ_PROFILE=debug uses the debug build (where CI has built it already) instead of
# release; Verilator dominates the time either way.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    echo "usage: scripts/kernel-fuzz.sh COUNT SEED [kernel-fuzz options]" >&2
    exit 2
fi
profile="${KERNEL_FUZZ_PROFILE:-release}"
if [ "$profile" = debug ]; then
    cargo build --quiet
else
    cargo build --release --quiet
fi
exec "target/$profile/kernel-fuzz" "$@" --oclhls "target/$profile/oclhls"
