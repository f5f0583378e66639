#!/usr/bin/env python3
"""Copy bandwidth of the DMA engines (async copies) for the table of docs/benchmarks.md
("DMA copy bandwidth").

For each element type (1 to 64 bytes) it writes a kernel file into a work directory and runs
it with `oclhls sim`, on the SDRAM timing model (MT48LC16M16A2, 16-bit bus, 2 bytes per cycle
peak) and on ideal memory:

- `dma_copy`: contiguous copies of 64 B to 1 MB, global -> local -> global through two local
  tiles of 4 KB each: the read of tile k+1 (one engine) runs while tile k is written back (the
  other), so both directions share the bus. Bandwidth is the bytes read plus written over the
  kernel's cycles, against the SDRAM's peak.
- `dma_gather`: 4 KB gathered with `async_work_group_strided_copy` (strides 1 to 64 elements)
  into a local tile, then written back contiguously.

Expected outputs are computed here (dst = src for copies, dst[j] = src[j * stride] for
gathers), independently of the emulator; `oclhls sim` also checks the emulator and the IR
interpreters, so every row is a passing test.

Usage: scripts/dma_bench.py [OCLHLS] [WORKDIR]   (default target/release/oclhls, target/dma-bench)
"""
import os
import re
import subprocess
import sys

# (type, bytes, lanes, scalar bits)
TYPES = [
    ("uchar", 1, 1, 8),
    ("ushort", 2, 1, 16),
    ("uint", 4, 1, 32),
    ("ulong", 8, 1, 64),
    ("uint4", 16, 4, 32),
    ("ulong4", 32, 4, 64),
    ("ulong8", 64, 8, 64),
]
SIZES = [64, 256, 1024, 4096, 16384, 65536, 262144, 1048576]
STRIDES = [1, 2, 4, 8, 16, 32, 64]
GATHER_BYTES = 4096
TILE_BYTES = 4096
PERIOD = 251  # the pattern's period in lanes (prime: misplaced data shows)


def pattern(bits):
    """PERIOD lane values spread over the scalar's range."""
    mask = (1 << bits) - 1
    return [(i * 0x9E3779B97F4A7C15 >> (64 - bits)) & mask if bits < 64 else
            (i * 0x9E3779B97F4A7C15) & mask for i in range(PERIOD)]


def kernels(ty, size):
    maxt = TILE_BYTES // size
    return f"""
#define MAXT {maxt}
// Contiguous copy through two local tiles: tile k is written back while tile k+1 is read.
kernel void dma_copy(global const {ty} *restrict src, global {ty} *restrict dst, uint t,
                     uint tiles) {{
  local {ty} a[MAXT];
  local {ty} b[MAXT];
  event_t r = async_work_group_copy(a, src, t, 0);
  for (uint k = 0; k < tiles; k += 2) {{
    wait_group_events(1, &r);
    event_t w = async_work_group_copy(dst + k * t, a, t, 0);
    r = async_work_group_copy(b, src + (k + 1) * t, (k + 1 < tiles) ? t : 0, 0);
    wait_group_events(1, &w);
    wait_group_events(1, &r);
    w = async_work_group_copy(dst + (k + 1) * t, b, (k + 1 < tiles) ? t : 0, 0);
    r = async_work_group_copy(a, src + (k + 2) * t, (k + 2 < tiles) ? t : 0, 0);
    wait_group_events(1, &w);
  }}
  wait_group_events(1, &r);
}}

// Gather with a stride into a local tile, then write it back contiguously.
kernel void dma_gather(global const {ty} *restrict src, global {ty} *restrict dst, uint n,
                       uint stride) {{
  local {ty} a[MAXT];
  event_t r = async_work_group_strided_copy(a, src, n, stride, 0);
  wait_group_events(1, &r);
  event_t w = async_work_group_copy(dst, a, n, 0);
  wait_group_events(1, &w);
}}
"""


def header(ty, size, lanes, bits):
    pat = pattern(bits)
    rep = "repeat " + " ".join(str(v) for v in pat)
    out = ["/*!", "[config]", "name: dma bench " + ty, "dimensions: 1"]
    for total in SIZES:
        n = total // size
        tile = min(TILE_BYTES // size, max(1, n // 2))
        tiles = n // tile
        out += ["", "[test]", f"name: copy {total} B", "kernel_name: dma_copy",
                "global_size: 64 1 1", "local_size: 64 1 1",
                f"arg_in: 0 buffer {ty}[{n}] {rep}", f"arg_out: 1 buffer {ty}[{n}] {rep}",
                f"arg_in: 2 uint {tile}", f"arg_in: 3 uint {tiles}"]
    for s in STRIDES:
        n = GATHER_BYTES // size
        span = n * s
        gathered = [pat[(j * s * lanes + l) % PERIOD] for j in range(n) for l in range(lanes)]
        out += ["", "[test]", f"name: gather stride {s}", "kernel_name: dma_gather",
                "global_size: 64 1 1", "local_size: 64 1 1",
                f"arg_in: 0 buffer {ty}[{span}] {rep}",
                f"arg_out: 1 buffer {ty}[{n}] " + " ".join(map(str, gathered)),
                f"arg_in: 2 uint {n}", f"arg_in: 3 uint {s}"]
    out.append("!*/")
    return "\n".join(out)


LINE = re.compile(r"^(PASS|FAIL) (copy (\d+) B|gather stride (\d+)) \((\d+) cycles(.*)")
PCT = re.compile(r"([0-9.]+) % of peak")


def run(binary, path, extra):
    """{test name: (verdict, cycles, % of SDRAM peak or None)}"""
    p = subprocess.run([binary, "sim", path, "-o", os.path.dirname(path) + "/build"] + extra,
                       capture_output=True, text=True)
    res = {}
    for line in p.stdout.splitlines():
        m = LINE.match(line)
        if m:
            pct = PCT.search(m.group(6))
            res[m.group(2)] = (m.group(1), int(m.group(5)), float(pct.group(1)) if pct else None)
    if not res:
        sys.exit(f"{path}: no results\n{p.stdout}\n{p.stderr}")
    return res


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/oclhls"
    work = sys.argv[2] if len(sys.argv) > 2 else "target/dma-bench"
    os.makedirs(work, exist_ok=True)
    results = {}
    for ty, size, lanes, bits in TYPES:
        d = os.path.join(work, ty)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"dma_{ty}.cl")
        with open(path, "w") as f:
            f.write(header(ty, size, lanes, bits) + "\n" + kernels(ty, size))
        sdram = run(binary, path, ["--memory", "sdram"])
        ideal = run(binary, path, ["--ideal-memory"])
        results[ty] = (size, sdram, ideal)
        print(f"{ty}: done", file=sys.stderr)

    def cell(size, total, sdram, ideal, name):
        v, cycles, pct = sdram[name]
        iv, icycles, _ = ideal[name]
        elems = total // size
        flag = "" if v == iv == "PASS" else " (FAIL)"
        return f"{pct:.1f} % / {elems / icycles:.2f}{flag}"

    print("Contiguous copies (global -> local -> global): % of the SDRAM's peak on the SDRAM "
          "model / elements per cycle per direction on ideal memory\n")
    print("| element | " + " | ".join(human(s) for s in SIZES) + " |")
    print("|---|" + "---|" * len(SIZES))
    for ty, (size, sdram, ideal) in results.items():
        cells = [cell(size, s, sdram, ideal, f"copy {s} B") for s in SIZES]
        print(f"| `{ty}` ({size} B) | " + " | ".join(cells) + " |")
    print(f"\nStrided gathers of {human(GATHER_BYTES)} (then written back contiguously): same "
          "measures\n")
    print("| element | " + " | ".join(f"stride {s}" for s in STRIDES) + " |")
    print("|---|" + "---|" * len(STRIDES))
    for ty, (size, sdram, ideal) in results.items():
        cells = [cell(size, GATHER_BYTES, sdram, ideal, f"gather stride {s}") for s in STRIDES]
        print(f"| `{ty}` ({size} B) | " + " | ".join(cells) + " |")


def human(b):
    return f"{b // 1048576} MB" if b >= 1048576 else (f"{b // 1024} KB" if b >= 1024 else f"{b} B")


if __name__ == "__main__":
    main()
