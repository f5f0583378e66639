#!/usr/bin/env python3
"""The polynomials of `cbrt` in hardware (hls-ir/src/lower/builtins/float_math/cbrt.rs) and an
exhaustive check of the algorithm.

1. Fits, by Remez exchange on [1, 2) with relative error, the degree-4 polynomial of cbrt(m)
   and the degree-3 polynomial of m^(-2/3) / 3, and prints their float32 coefficients and
   errors (the constants of cbrt.rs).
2. Runs the algorithm of cbrt.rs in numpy float32 (IEEE round to nearest even, as the float
   units) and 64-bit integers on every float of [1, 8) (three binades: the result depends only
   on the significand and the exponent modulo 3, the rest is an exact power of two), and
   prints the largest error in ulps against the correctly rounded double cube root.

Usage: python3 scripts/cbrt_fit.py   (needs numpy; about a minute)
"""
import numpy as np
from numpy.polynomial import polynomial as P

GRID = np.linspace(1, 2, 400001)


def remez(f, d, iters=30):
    """Relative minimax polynomial of degree d of f on [1, 2], lowest degree first."""
    xn = 1.5 + 0.5 * np.cos(np.pi * np.arange(d + 2) / (d + 1))
    c = None
    for _ in range(iters):
        a = np.array([[xi**j for j in range(d + 1)] + [(-1) ** i * f(xi)]
                      for i, xi in enumerate(xn)])
        c = np.linalg.solve(a, f(xn))[:-1]
        e = P.polyval(GRID, c) / f(GRID) - 1
        cuts = [0] + list(np.where(np.diff(np.sign(e)) != 0)[0] + 1) + [len(GRID)]
        ext = [b0 + np.argmax(np.abs(e[b0:b1])) for b0, b1 in zip(cuts[:-1], cuts[1:])]
        if len(ext) != d + 2:
            break
        xn = GRID[ext]
    return np.array([float(np.float32(v)) for v in c])


def horner(x, c):
    v = np.float32(c[-1])
    for k in c[-2::-1]:
        v = (v * x).astype(np.float32) + np.float32(k)
    return v.astype(np.float32)


def main():
    cb = remez(np.cbrt, 4)
    q = remez(lambda m: m ** (-2 / 3) / 3, 3)
    for name, f, c in [("cbrt(m)", np.cbrt, cb), ("m^(-2/3)/3", lambda m: m ** (-2 / 3) / 3, q)]:
        err = np.max(np.abs(P.polyval(GRID, c) / f(GRID) - 1))
        print(f"{name}: 2^{np.log2(err):.2f}, coefficients {[float(v) for v in c]}")
    worst = 0.0
    for r in range(3):
        sig = np.arange(1 << 23, 1 << 24, dtype=np.int64)
        m = (sig.astype(np.float64) / 2.0**23).astype(np.float32)
        k1 = np.float32(2.0 ** (r / 3))
        y = (horner(m, cb) * k1).astype(np.float32)
        y = np.minimum(np.maximum(y, np.float32(1.0)), np.float32(np.nextafter(np.float32(2), 0)))
        ys = (y.view(np.int32).astype(np.int64) & 0x7FFFFF) | 0x800000
        with np.errstate(over="ignore"):
            y3 = (ys.astype(np.uint64) * ys.astype(np.uint64)) * ys.astype(np.uint64)
            ms = sig.astype(np.uint64) << np.uint64(r + 46)
            res = (ms - y3).view(np.int64)
        rf = (res >> 26).astype(np.int32).astype(np.float32)
        k2 = np.float32(2.0**-43 * 2.0 ** (-2 * r / 3))
        c = (horner(m, q) * k2).astype(np.float32)
        v = (y + (rf * c).astype(np.float32)).astype(np.float32).astype(np.float64)
        exact = np.cbrt(sig.astype(np.float64) * 2.0 ** (r - 23))
        ulp = np.spacing(exact.astype(np.float32)).astype(np.float64)
        e = np.max(np.abs(v - exact) / ulp)
        print(f"r = {r}: max error {e:.4f} ulp over 2^23 significands")
        worst = max(worst, e)
    print(f"cbrt: max error {worst:.4f} ulp over every float (bound 2)")


if __name__ == "__main__":
    main()
