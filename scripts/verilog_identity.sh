#!/usr/bin/env bash
# Shows that the emitted Verilog (and IR, reports and messages) of every corpus file is
# byte-identical between two commits: builds oclhls at OLD (default: HEAD~1) and at NEW
# (default: the working tree), compiles the whole corpus with each (scripts/corpus_build.sh)
# and diffs the outputs. Exit 0 when identical, 1 with the differences listed otherwise.
# Usage: scripts/verilog_identity.sh [OLD_REV] [NEW_REV]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
old=${1:-HEAD~1}
new=${2:-}
work="$root/target/verilog-identity"
mkdir -p "$work"

build_at() { # REV DEST_BIN_DIR: checkout REV into a worktree and build the driver there
  local rev=$1 tree="$work/tree-$2"
  git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"
  git worktree prune
  git worktree add --detach "$tree" "$rev" >/dev/null
  # The peer suite sits beside the repository; the worktree sees it at the same relative path.
  # A target directory per side: with the repository's own, cargo may find its fingerprints of
  # the working tree fresh and keep the binary the worktree build just put there, so both
  # sides would run one compiler (found in session 25). Kept between runs, so later runs build
  # incrementally.
  (cd "$tree" && cargo build -q --bin oclhls --target-dir "$work/target-$2")
  cp "$work/target-$2/debug/oclhls" "$work/oclhls-$2"
}

build_at "$old" old
if [ -n "$new" ]; then
  build_at "$new" new
else
  cargo build -q --bin oclhls
  cp target/debug/oclhls "$work/oclhls-new"
fi
bash scripts/corpus_build.sh "$work/oclhls-old" "$work/out-old"
bash scripts/corpus_build.sh "$work/oclhls-new" "$work/out-new"
for t in old new; do git worktree remove --force "$work/tree-$t" >/dev/null 2>&1 || true; done
if diff -r "$work/out-old" "$work/out-new" >"$work/diff.txt"; then
  files=$(find "$work/out-new" -name '*.v' | wc -l)
  echo "verilog_identity: identical ($files Verilog files, $(find "$work/out-new" -name log.status | wc -l) sources) between $old and ${new:-the working tree}"
else
  echo "verilog_identity: outputs differ between $old and ${new:-the working tree}:" >&2
  head -100 "$work/diff.txt" >&2
  exit 1
fi
