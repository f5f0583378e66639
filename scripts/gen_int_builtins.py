#!/usr/bin/env python3
"""Writes the test vectors of the integer built-in corpus kernels (tests/kernels/int_*.cl).

The expected values come from the definitions of OpenCL C 6.13.3, written here in Python's
unbounded integers (not from oclhls or its emulator): saturation is a clamp of the exact
result, `hadd`/`rhadd` shift the exact sum, `mul_hi` is the floor of the exact product over
2^bits, `rotate` takes the amount modulo the width. Inputs are corner cases (MIN, MAX, 0, -1,
1, neighbours) plus seeded random values.

Usage: python3 scripts/gen_int_builtins.py   (rewrites the files in place)
"""

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "tests" / "kernels"

TYPES = [
    ("char", 8, True), ("uchar", 8, False), ("short", 16, True), ("ushort", 16, False),
    ("int", 32, True), ("uint", 32, False), ("long", 64, True), ("ulong", 64, False),
]
UNSIGNED = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong"}
WIDER = {"char": "short", "uchar": "ushort", "short": "int", "ushort": "uint", "int": "long",
         "uint": "ulong"}


def rng_of(bits, signed):
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


def wrap(x, bits, signed):
    x &= (1 << bits) - 1
    if signed and x >> (bits - 1):
        x -= 1 << bits
    return x


def clamp(x, bits, signed):
    lo, hi = rng_of(bits, signed)
    return max(lo, min(hi, x))


def raw(x, bits):
    return x & ((1 << bits) - 1)


def clz(x, bits):
    x = raw(x, bits)
    return bits - x.bit_length()


def ctz(x, bits):
    x = raw(x, bits)
    if x == 0:
        return bits
    n = 0
    while not (x >> n) & 1:
        n += 1
    return n


def popcount(x, bits):
    return bin(raw(x, bits)).count("1")


def rotate(x, s, bits):
    x, s = raw(x, bits), raw(s, bits) % bits
    return ((x << s) | (x >> (bits - s))) & ((1 << bits) - 1)


def mul_hi(a, b, bits):
    return (a * b) >> bits  # floor, as an arithmetic shift of the exact product


# The functions of the scalar `arith_T` kernels: name, OpenCL expression, reference.
ARITH = [
    ("add_sat", "add_sat(x, y)", lambda a, b, c, n, s: clamp(a + b, n, s)),
    ("sub_sat", "sub_sat(x, y)", lambda a, b, c, n, s: clamp(a - b, n, s)),
    ("hadd", "hadd(x, y)", lambda a, b, c, n, s: (a + b) >> 1),
    ("rhadd", "rhadd(x, y)", lambda a, b, c, n, s: (a + b + 1) >> 1),
    ("abs_diff", "(T)abs_diff(x, y)", lambda a, b, c, n, s: wrap(abs(a - b), n, s)),
    ("mul_hi", "mul_hi(x, y)", lambda a, b, c, n, s: wrap(mul_hi(a, b, n), n, s)),
    ("mad_hi", "mad_hi(x, y, z)", lambda a, b, c, n, s: wrap(mul_hi(a, b, n) + c, n, s)),
    ("mad_sat", "mad_sat(x, y, z)", lambda a, b, c, n, s: clamp(a * b + c, n, s)),
    ("abs", "(T)abs(x)", lambda a, b, c, n, s: wrap(abs(a), n, s)),
]

BITS = [
    ("clz", "clz(x)", lambda a, r, n: clz(a, n)),
    ("ctz", "ctz(x)", lambda a, r, n: ctz(a, n)),
    ("popcount", "popcount(x)", lambda a, r, n: popcount(a, n)),
    ("rotate", "rotate(x, r)", lambda a, r, n: rotate(a, r, n)),
]


def corners(bits, signed):
    lo, hi = rng_of(bits, signed)
    vals = [lo, hi, 0, 1, lo + 1, hi - 1]
    if signed:
        vals += [-1, -2]
    else:
        vals += [hi >> 1, (hi >> 1) + 1]
    return vals


def arith_inputs(bits, signed, rnd):
    lo, hi = rng_of(bits, signed)
    cs = corners(bits, signed)
    pairs = [(hi, 1), (lo, cs[6] if signed else 1), (hi, hi), (lo, lo), (lo, hi), (hi, lo),
             (0, cs[6]), (cs[6], cs[6]), (lo, 0), (0, lo), (cs[7], hi), (1, lo + 1)]
    for _ in range(12):
        pairs.append((rnd.randint(lo, hi), rnd.randint(lo, hi)))
    # Small operands (the products stay in range; mad_sat below its limits).
    for _ in range(4):
        m = 1 << (bits // 2 - 1)
        pairs.append((rnd.randint(-m if signed else 0, m), rnd.randint(-m if signed else 0, m)))
    zs = [rnd.choice(cs) if i % 2 else rnd.randint(lo, hi) for i in range(len(pairs))]
    return [a for a, _ in pairs], [b for _, b in pairs], zs


def bits_inputs(bits, signed, rnd):
    lo, hi = rng_of(bits, signed)
    xs = corners(bits, signed) + [1 << k for k in range(0, bits, max(1, bits // 8))]
    xs = [wrap(x, bits, signed) for x in xs]
    xs += [rnd.randint(lo, hi) for _ in range(8)]
    # Rotation amounts: inside the width, the width itself, beyond it, and negative (signed).
    rs = [0, 1, bits - 1, bits, bits + 3, 2 * bits + 5, 3, 5]
    rs += [-1, -bits - 2] if signed else [hi, hi - 1]
    while len(rs) < len(xs):
        rs.append(rnd.randint(lo, hi))
    rs = [wrap(r, bits, signed) for r in rs[: len(xs)]]
    return xs, rs


def fmt(vals, per_line=8):
    chunks = [" ".join(str(v) for v in vals[i:i + per_line]) for i in range(0, len(vals), per_line)]
    return " \\\n    ".join(chunks)


def scalar_file(rnd):
    tests, kernels = [], []
    for (t, n, s) in TYPES:
        xs, ys, zs = arith_inputs(n, s, rnd)
        cnt = len(xs)
        out = []
        for (_, _, f) in ARITH:
            out += [wrap(f(a, b, c, n, s), n, s) for a, b, c in zip(xs, ys, zs)]
        tests.append(f"""[test]
name: arith {t}
kernel_name: arith_{t}
global_size: {cnt} 1 1
local_size: {cnt} 1 1
arg_in:  0 buffer {t}[{cnt}] {fmt(xs)}
arg_in:  1 buffer {t}[{cnt}] {fmt(ys)}
arg_in:  2 buffer {t}[{cnt}] {fmt(zs)}
arg_out: 3 buffer {t}[{cnt * len(ARITH)}] {fmt(out)}
""")
        xs, rs = bits_inputs(n, s, rnd)
        cnt = len(xs)
        out = []
        for (_, _, f) in BITS:
            out += [wrap(f(a, r, n), n, s) for a, r in zip(xs, rs)]
        tests.append(f"""[test]
name: bits {t}
kernel_name: bits_{t}
global_size: {cnt} 1 1
local_size: {cnt} 1 1
arg_in:  0 buffer {t}[{cnt}] {fmt(xs)}
arg_in:  1 buffer {t}[{cnt}] {fmt(rs)}
arg_out: 2 buffer {t}[{cnt * len(BITS)}] {fmt(out)}
""")
        kernels.append(f"ARITH({t})\nBITS({t})")
    body_a = " \\\n".join(
        f"    out[{i} * n + i] = {e.replace('(T)', '(T)')};" for i, (_, e, _) in enumerate(ARITH))
    body_b = " \\\n".join(f"    out[{i} * n + i] = {e};" for i, (_, e, _) in enumerate(BITS))
    head = "/*!\n[config]\ndimensions: 1\n\n" + "\n".join(tests) + "!*/\n"
    return head + f"""
// Every integer built-in of OpenCL C 6.13.3 (and `abs`) on the scalar integer types, with
// corner cases (MIN, MAX, 0, -1, 1), random values and rotations by amounts beyond the width.
// Output k of work-item i is out[k * n + i]. Expected values: scripts/gen_int_builtins.py,
// from the spec's definitions in Python's unbounded integers.
#define ARITH(T) \\
kernel void arith_##T(global const T *a, global const T *b, global const T *c, global T *out) {{ \\
    int i = get_global_id(0), n = get_global_size(0); \\
    T x = a[i], y = b[i], z = c[i]; \\
{body_a} \\
}}

#define BITS(T) \\
kernel void bits_##T(global const T *a, global const T *s, global T *out) {{ \\
    int i = get_global_id(0), n = get_global_size(0); \\
    T x = a[i], r = s[i]; \\
{body_b} \\
}}

{chr(10).join(kernels)}

// corpus-sim: --seed 23
// corpus-sim hostile_memory: --stall-prob 0.6 --max-latency 30 --seed 11
"""


def lanes_ref(op, xs, ys, zs, n, s):
    return [wrap(op(a, b, c, n, s), n, s) for a, b, c in zip(xs, ys, zs)]


def vector_file(rnd):
    """Vectors: every lane computed like a scalar; 3-vectors through vload3/vstore3."""
    specs = [
        # (kernel, element, lanes, functions)
        ("vec_int4", "int", 4, ["add_sat", "sub_sat", "hadd", "rhadd", "abs_diff", "mul_hi",
                                "mad_hi", "mad_sat", "clz", "ctz", "popcount", "rotate"]),
        ("vec_uchar16", "uchar", 16, ["add_sat", "sub_sat", "rhadd", "abs_diff", "mul_hi",
                                      "mad_sat", "clz", "ctz", "popcount", "rotate"]),
        ("vec_long2", "long", 2, ["add_sat", "sub_sat", "hadd", "mul_hi", "mad_hi", "mad_sat",
                                  "clz", "ctz", "popcount", "rotate"]),
        ("vec_ushort3", "ushort", 3, ["add_sat", "sub_sat", "hadd", "rhadd", "abs_diff",
                                      "mul_hi", "mad_sat", "clz", "popcount", "rotate"]),
    ]
    by_name = {k: (e, f) for k, e, f in ARITH}
    by_name.update({k: (e.replace("(x)", "(x)"), None) for k, e, _ in BITS})
    bit_ref = {k: f for k, _, f in BITS}
    tests, kernels = [], []
    for (kname, t, lanes, fns) in specs:
        n, s = next((b, sg) for (tt, b, sg) in TYPES if tt == t)
        lo, hi = rng_of(n, s)
        cs = corners(n, s)
        cnt = 4  # work-items
        tot = cnt * lanes
        xs = [cs[i % len(cs)] if i % 3 else rnd.randint(lo, hi) for i in range(tot)]
        ys = [cs[(i * 5 + 1) % len(cs)] if i % 2 else rnd.randint(lo, hi) for i in range(tot)]
        zs = [rnd.randint(lo, hi) if i % 2 else cs[(i * 3) % len(cs)] for i in range(tot)]
        # Rotations beyond the width in some lanes.
        ys = [wrap(n + 3, n, s) if i % 7 == 3 else y for i, y in enumerate(ys)]
        out = []
        for f in fns:
            if f in bit_ref:
                out += [wrap(bit_ref[f](a, b, n), n, s) for a, b in zip(xs, ys)]
            else:
                out += lanes_ref(by_name[f][1], xs, ys, zs, n, s)
        vt = f"{t}{lanes}"
        if lanes == 3:
            load = lambda p: f"vload3(i, {p})"
            params = f"global const {t} *a, global const {t} *b, global const {t} *c, global {t} *out"
            stores = [f"    vstore3({expr(f)}, {k} * n + i, out);" for k, f in enumerate(fns)]
            buf = t
        else:
            load = lambda p: f"{p}[i]"
            params = f"global const {vt} *a, global const {vt} *b, global const {vt} *c, global {vt} *out"
            stores = [f"    out[{k} * n + i] = {expr(f)};" for k, f in enumerate(fns)]
            buf = vt
        kernels.append(f"""kernel void {kname}({params}) {{
    int i = get_global_id(0), n = get_global_size(0);
    {vt} x = {load('a')}, y = {load('b')}, z = {load('c')};
{chr(10).join(stores).replace('(T)abs_diff(x, y)', f'as_{vt}(abs_diff(x, y))')}
}}""")
        tests.append(f"""[test]
name: {kname}
kernel_name: {kname}
global_size: {cnt} 1 1
local_size: {cnt} 1 1
arg_in:  0 buffer {buf}[{tot if lanes == 3 else cnt}] {fmt(xs)}
arg_in:  1 buffer {buf}[{tot if lanes == 3 else cnt}] {fmt(ys)}
arg_in:  2 buffer {buf}[{tot if lanes == 3 else cnt}] {fmt(zs)}
arg_out: 3 buffer {buf}[{tot * len(fns) if lanes == 3 else cnt * len(fns)}] {fmt(out)}
""")
    # upsample on vectors and scalars, and mul24/mad24 on int and uint (24-bit operands).
    ups = [("char", 4), ("uchar", 2), ("short", 8), ("ushort", 1), ("int", 2), ("uint", 3)]
    ukern, uargs, uouts = [], [], []
    for idx, (t, lanes) in enumerate(ups):
        n, s = next((b, sg) for (tt, b, sg) in TYPES if tt == t)
        lo, hi = rng_of(n, s)
        cnt = 2
        tot = cnt * lanes
        cs = corners(n, s)
        his = [cs[i % len(cs)] if i % 2 else rnd.randint(lo, hi) for i in range(tot)]
        ul = (1 << n) - 1
        los = [[0, ul, 1, ul - 1][i % 4] if i % 3 else rnd.randint(0, ul) for i in range(tot)]
        wt = WIDER[t]
        wn, ws = next((b, sg) for (tt, b, sg) in TYPES if tt == wt)
        res = [wrap((h << n) | l, wn, ws) for h, l in zip(his, los)]
        ut = UNSIGNED.get(t, t)
        sfx = "" if lanes == 1 else str(lanes)
        if lanes == 3:
            body = f"vstore3(upsample(vload3(i, h{idx}), vload3(i, l{idx})), i, u{idx});"
            ukern.append((f"global const {t} *h{idx}, global const {ut} *l{idx}, global {wt} *u{idx}", body))
        else:
            body = f"u{idx}[i] = upsample(h{idx}[i], l{idx}[i]);"
            ukern.append((f"global const {t}{sfx} *h{idx}, global const {ut}{sfx} *l{idx}, global {wt}{sfx} *u{idx}", body))
        bt = (lambda x: x) if lanes == 3 else (lambda x: x + sfx)
        count = tot if lanes == 3 else cnt
        uargs.append((3 * idx, f"{bt(t)}[{count}]", his))
        uargs.append((3 * idx + 1, f"{bt(ut)}[{count}]", los))
        uouts.append((3 * idx + 2, f"{bt(wt)}[{count}]", res))
    lines = [f"arg_in:  {i} buffer {ty} {fmt(v)}" for i, ty, v in uargs]
    lines += [f"arg_out: {i} buffer {ty} {fmt(v)}" for i, ty, v in uouts]
    tests.append("[test]\nname: upsample\nkernel_name: upsample_all\nglobal_size: 2 1 1\n"
                 "local_size: 2 1 1\n" + "\n".join(sorted(lines, key=lambda l: int(l.split()[1]))) + "\n")
    params = ",\n                         ".join(p for p, _ in ukern)
    body = "\n".join("    " + b for _, b in ukern)
    kernels.append(f"""kernel void upsample_all({params}) {{
    int i = get_global_id(0);
{body}
}}""")
    # mul24/mad24: operands in 24 bits (signed for int), as the spec requires.
    m24 = []
    for t, s in [("int", True), ("uint", False)]:
        lo, hi = (-(1 << 23), (1 << 23) - 1) if s else (0, (1 << 24) - 1)
        xs = [lo, hi, 0, -1 if s else 1, hi, lo] + [rnd.randint(lo, hi) for _ in range(4)]
        ys = [hi, hi, 5, lo if s else hi, lo if s else 0, lo] + [rnd.randint(lo, hi) for _ in range(4)]
        zs = [rnd.randint(-(1 << 31) if s else 0, (1 << 31) - 1) for _ in xs]
        m24.append((t, s, xs, ys, zs))
    for (t, s, xs, ys, zs) in m24:
        out = [wrap(a * b, 32, s) for a, b in zip(xs, ys)] + [wrap(a * b + c, 32, s) for a, b, c in zip(xs, ys, zs)]
        cnt = len(xs) // 2
        tests.append(f"""[test]
name: mul24 {t}2
kernel_name: mul24_{t}2
global_size: {cnt} 1 1
local_size: {cnt} 1 1
arg_in:  0 buffer {t}2[{cnt}] {fmt(xs)}
arg_in:  1 buffer {t}2[{cnt}] {fmt(ys)}
arg_in:  2 buffer {t}2[{cnt}] {fmt(zs)}
arg_out: 3 buffer {t}2[{2 * cnt}] {fmt(out)}
""")
        kernels.append(f"""kernel void mul24_{t}2(global const {t}2 *a, global const {t}2 *b, global const {t}2 *c, global {t}2 *out) {{
    int i = get_global_id(0), n = get_global_size(0);
    out[i] = mul24(a[i], b[i]);
    out[n + i] = mad24(a[i], b[i], c[i]);
}}""")
    head = "/*!\n[config]\ndimensions: 1\n\n" + "\n".join(tests) + "!*/\n"
    return head + """
// The integer built-ins on vectors (every lane its own scalar operation; 3-vectors through
// vload3/vstore3), `upsample` on scalars and vectors of every width it takes, and
// `mul24`/`mad24` on 24-bit operands. Expected values: scripts/gen_int_builtins.py, from the
// spec's definitions in Python's unbounded integers.

""" + "\n\n".join(kernels) + """

// corpus-sim: --seed 29
"""


def expr(f):
    table = {k: e for k, e, _ in ARITH}
    table.update({k: e.replace("r)", "y)") for k, e, _ in BITS})
    return table[f]


def main():
    rnd = random.Random(20240514)
    (KERNELS / "int_builtins_scalar.cl").write_text(scalar_file(rnd))
    (KERNELS / "int_builtins_vector.cl").write_text(vector_file(rnd))


if __name__ == "__main__":
    main()
