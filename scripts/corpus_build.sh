#!/usr/bin/env bash
# Compiles every OpenCL file of the repository's corpora and of the peer suite with the given
# oclhls binary into OUT_DIR (one folder per file: the Verilog, report.json, and `log` with the
# command's exit status, stdout and stderr; then the IR after every pass). Used by
# scripts/verilog_identity.sh to show that a change leaves the emitted Verilog byte-identical.
# Usage: scripts/corpus_build.sh OCLHLS_BINARY OUT_DIR
set -euo pipefail
bin=$(realpath "$1")
export RUST_BACKTRACE=0
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
files=(examples/*.cl tests/kernels/*.cl tests/pipes/*.cl tests/emu/*.cl bench/kernels/*.cl
  frontend/tests/kernels/*.cl)
peer=../shared/peer-suites/piglit-cl-execute
if [ -d "$peer" ]; then
  while IFS= read -r f; do files+=("$f"); done < <(cd . && find "$peer" -name '*.cl' | sort)
fi
n=0
for f in "${files[@]}"; do
  rel=${f#../shared/}
  dir="$out/${rel%.cl}"
  mkdir -p "$dir"
  # Outputs hold no absolute paths of this checkout: run from the repository root with
  # relative paths, so two checkouts give comparable files.
  set +e
  "$bin" "$f" -o "$dir/v" >"$dir/log.out" 2>"$dir/log.err"
  echo "exit $?" >"$dir/log.status"
  "$bin" "$f" -o "$dir/ir" --print-ir-after all >"$dir/ir.out" 2>/dev/null
  set -e
  rm -rf "$dir/ir"
  # What legitimately differs between two runs: the output folder's name, solver times.
  # (A panic's thread id and source location also vary; the panic itself must not.)
  sed -i -e "s|$out|OUT|g" -e 's/thread .main. ([0-9]*) panicked at [^ ]*/thread main panicked/' \
    "$dir/log.out" "$dir/log.err" "$dir/ir.out"
  if [ -f "$dir/v/report.json" ]; then sed -i '/"solve_ms"/d' "$dir/v/report.json"; fi
  n=$((n + 1))
done
echo "corpus_build: $n files into $out" >&2
