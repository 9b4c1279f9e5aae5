#!/usr/bin/env python3
"""Offset-planning instances with a known optimum, of three families.

A T x W rectangle (time steps x bytes) is tiled by n pieces; each piece is
a buffer (its time span is its lifetime, its height its size). The pieces
cover every step fully, so the bytes live at any step are W: the lower
bound, which the tiling itself reaches, so W is the optimum.

Families:
  cut       random straight cuts (guillotine), either way with even odds,
            of the largest piece: what bench-perfect.sh makes, other seeds
  skewed    guillotine too, but long thin pieces: a cut goes across the
            piece's longer side (time counted in units of W/T), at a point
            drawn near an end, and the piece cut is drawn by area, so
            sizes and lifetimes spread over orders of magnitude
  pinwheel  no straight cut separates the whole: the rectangle, and then
            any piece with a chance of one half, is split into a pinwheel
            of five (four arms around a centre) before guillotine cuts
            refine it

  gen-packing.py FAMILY SEED N [T] [W] [UNIT] > trace.csv

Output: the shared bench's trace form, "id,lower,upper,size" with the
lifetime [lower, upper).
"""
import random
import sys


def splittable(r, unit):
    t0, t1, m0, m1 = r
    return t1 - t0 >= 2, (m1 - m0) // unit >= 2


def guillotine(rng, r, unit, skew):
    t0, t1, m0, m1 = r
    can_t, can_m = splittable(r, unit)
    if skew:
        # across the longer side, in comparable units
        horiz = can_t and (not can_m or (t1 - t0) * 4 >= (m1 - m0) // unit)
    else:
        horiz = can_t and (not can_m or rng.random() < 0.5)
    if horiz:
        span = t1 - t0 - 1
        k = 1 + int(span * rng.random() ** 3) if skew else rng.randint(1, span)
        k = min(max(k, 1), span)
        if skew and rng.random() < 0.5:
            k = t1 - t0 - k
        c = t0 + k
        return [(t0, c, m0, m1), (c, t1, m0, m1)]
    units = (m1 - m0) // unit
    k = 1 + int((units - 1) * rng.random() ** 3) if skew \
        else rng.randint(1, units - 1)
    k = min(max(k, 1), units - 1)
    if skew and rng.random() < 0.5:
        k = units - k
    c = m0 + unit * k
    return [(t0, t1, m0, c), (t0, t1, c, m1)]


def pinwheel(rng, r, unit):
    """Five pieces: four arms turning around a centre, or None."""
    t0, t1, m0, m1 = r
    if t1 - t0 < 3 or (m1 - m0) // unit < 3:
        return None
    a = rng.randint(t0 + 1, t1 - 2)
    b = rng.randint(a + 1, t1 - 1)
    units = (m1 - m0) // unit
    p = rng.randint(1, units - 2)
    q = rng.randint(p + 1, units - 1)
    c, d = m0 + unit * p, m0 + unit * q
    return [
        (t0, b, m0, c),     # bottom-left arm, reaching right to b
        (b, t1, m0, d),     # right arm, reaching up to d
        (a, t1, d, m1),     # top-right arm, reaching left to a
        (t0, a, c, m1),     # left arm, reaching down to c
        (a, b, c, d),       # the centre
    ]


def generate(family, seed, n, T=400, W=1 << 20, unit=512):
    rng = random.Random("%s-%d-%d" % (family, seed, n))
    rects = [(0, T, 0, W)]
    if family == "pinwheel":
        rects = pinwheel(rng, rects[0], unit)
    while len(rects) < n:
        if family == "skewed":
            weights = [(r[1] - r[0]) * (r[3] - r[2]) for r in rects]
            order = rng.choices(range(len(rects)), weights=weights, k=8)
            order += sorted(range(len(rects)), key=lambda i: -weights[i])
        else:
            order = sorted(range(len(rects)),
                           key=lambda i: -(rects[i][1] - rects[i][0]) *
                           (rects[i][3] - rects[i][2]))
        for i in order:
            if any(splittable(rects[i], unit)):
                break
        else:
            break
        r = rects.pop(i)
        parts = None
        if family == "pinwheel" and len(rects) + 5 <= n and \
                rng.random() < 0.5:
            parts = pinwheel(rng, r, unit)
        if parts is None:
            parts = guillotine(rng, r, unit, family == "skewed")
        rects += parts
    rng.shuffle(rects)
    return rects


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("cut", "skewed",
                                                 "pinwheel"):
        sys.exit(__doc__)
    family, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    args = [int(a) for a in sys.argv[4:]]
    rects = generate(family, seed, n, *args)
    # the tiling is exact: every step carries W bytes
    T = args[0] if args else 400
    W = args[1] if len(args) > 1 else 1 << 20
    live = [0] * T
    for t0, t1, m0, m1 in rects:
        for t in range(t0, t1):
            live[t] += m1 - m0
    if any(x != W for x in live) or len(rects) != n:
        sys.exit("gen-packing: internal error: not a tiling of %d" % n)
    print("id,lower,upper,size")
    for i, (t0, t1, m0, m1) in enumerate(rects):
        print("%d,%d,%d,%d" % (i, t0, t1, m1 - m0))


if __name__ == "__main__":
    main()
