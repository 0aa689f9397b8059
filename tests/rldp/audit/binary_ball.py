"""Independent values for Rényi-ball audits with |U| = 2, from the paper's formulas only.

Theorem 1 / Sec. 4.1 of 000_aca93ed29ea857ee.txt: the conditionals (P_{U|s1}, P_{U|s2}) of the P in F are
exactly the pairs with P^_{s1} phi(D1) + P^_{s2} phi(D2) <= phi(B) (phi(d) = (e^{beta d} - 1)/beta,
beta = 1 - 1/alpha), D_i = D_alpha(P^_{U|s_i} || R_i). Here alpha = 2 (beta = 1/2) and |U| = 2: a conditional
is one number R in [0, 1], the extreme R at level d solves a quadratic (chi-square), and the worst ratio of one (y, s1, s2) is a 1-D maximisation over the budget split t in [0, phi(B)]
(golden section, to about 1e-12 in t: the ratio is flat at its maximum, so it is then
exact to far more digits than the tests compare). Nothing here uses the engine (no maximiser curves, no duals, no arb).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import mpmath

DPS = 30


def mp(x):
    """A Fraction as an mpf of DPS + 10 digits (comparisons of mpfs are exact whatever the precision)."""
    x = Fraction(x)
    with mpmath.workdps(DPS + 10):
        return mpmath.mpf(x.numerator) / x.denominator


def extreme_half(w0, d, up: bool):
    """alpha = 1/2: D = -2 log(sqrt(w0 R) + sqrt(w1 (1-R))), so the unit vectors (sqrt w0, sqrt w1) and
    (sqrt R, sqrt(1-R)) make the angle arccos(e^{-d/2}) on the boundary; R = cos^2 of the rotated angle,
    clamped to [0, pi/2] (the ball contains a face of the simplex when the rotation passes it)."""
    th = mpmath.acos(mpmath.sqrt(w0))
    ph = mpmath.acos(mpmath.exp(-d / 2)) if d < mpmath.inf else mpmath.pi / 2
    a = th - ph if up else th + ph
    a = min(max(a, mpmath.mpf(0)), mpmath.pi / 2)
    return mpmath.cos(a) ** 2


def extreme(w0, d, up: bool):
    """The largest (up) or smallest R with D_2((w0, 1-w0) || (R, 1-R)) <= d: chi-square, so the boundary
    w0^2/R + (1-w0)^2/(1-R) = e^d is the quadratic e^d R^2 - (e^d + w0^2 - w1^2) R + w0^2 = 0."""
    E = mpmath.exp(d)
    b = E + w0**2 - (1 - w0) ** 2
    disc = mpmath.sqrt(b * b - 4 * E * w0**2)
    return (b + disc) / (2 * E) if up else (b - disc) / (2 * E)


def phi(d, beta):
    return d if beta == 0 else mpmath.expm1(beta * d) / beta


def phi_inv(y, beta):
    if beta == 0:
        return y
    arg = 1 + beta * y
    return mpmath.inf if arg <= 0 else mpmath.log(arg) / beta


def linear_extreme(q, w0, d, up: bool, half: bool = False):
    """max (up) or min over the alpha = 2 (or 1/2) ball of level d around (w0, 1-w0) of q0 R + q1 (1-R)."""
    q0, q1 = q
    if d == mpmath.inf:   # P^_s = 0: the conditional is unconstrained (Theorem 1), R anywhere in [0, 1]
        return max(q) if up else min(q)
    ext = extreme_half if half else extreme
    cands = [ext(w0, d, True), ext(w0, d, False)]
    vals = [q0 * r + q1 * (1 - r) for r in cands]
    return max(vals) if up else min(vals)


def pair_ratio(Q, phat, B, y, s1, s2):
    """alpha = 2: sup over F of P(Y=y|S=s1) / P(Y=y|S=s2) for a 2-column-per-secret matrix Q (rows y, columns (s, u))."""
    return _pair_ratio(tuple(map(tuple, Q)), tuple(map(tuple, phat)), Fraction(B), y, s1, s2)


def grid_ratio_half(Q, phat, B, y, s1, s2, n=400):
    """alpha = 1/2 (beta = -1, phi(d) = 1 - e^{-d}): max of the ratio over n + 1 budget splits t. Every split is
    a point of the joint projection, so this is a LOWER bound of the sup (no unimodality is assumed)."""
    with mpmath.workdps(DPS):
        m = [mp(sum(row)) / mp(sum(sum(r) for r in phat)) for row in phat]
        w0 = [mp(row[0]) / mp(sum(row)) for row in phat]
        q1 = (mp(Q[y][2 * s1]), mp(Q[y][2 * s1 + 1]))
        q2 = (mp(Q[y][2 * s2]), mp(Q[y][2 * s2 + 1]))
        PB = -mpmath.expm1(-mp(B))

        def level(budget, mass):   # phi^{-1}(y) = -log(1 - y), inf for y >= 1
            y_ = budget / mass
            return mpmath.inf if y_ >= 1 else -mpmath.log1p(-y_)

        best = mpmath.mpf(0)
        for i in range(n + 1):
            t = PB * i / n
            num = linear_extreme(q1, w0[s1], level(t, m[s1]), True, half=True)
            den = linear_extreme(q2, w0[s2], level(PB - t, m[s2]), False, half=True)
            best = max(best, num / den)
        return best


@functools.cache
def _pair_ratio(Q, phat, B, y, s1, s2):
    with mpmath.workdps(DPS):
        beta = mpmath.mpf(1) / 2
        m = [mp(sum(row)) / mp(sum(sum(r) for r in phat)) for row in phat]
        w0 = [mp(row[0]) / mp(sum(row)) if sum(row) else None for row in phat]
        q1 = (mp(Q[y][2 * s1]), mp(Q[y][2 * s1 + 1]))
        q2 = (mp(Q[y][2 * s2]), mp(Q[y][2 * s2 + 1]))
        PB = phi(mp(B), beta)

        def level(budget, mass):
            return mpmath.inf if mass == 0 else phi_inv(budget / mass, beta)

        def f(t):
            num = linear_extreme(q1, w0[s1], level(t, m[s1]), True)
            den = linear_extreme(q2, w0[s2], level(PB - t, m[s2]), False)
            return num / den

        lo, hi = mpmath.mpf(0), PB
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(60):
            c, d = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(c) >= f(d):
                hi = d
            else:
                lo = c
        return max(f(lo), f(mpmath.mpf(0)), f(PB))


def worst(Q, phat, B):
    """(rho, (y, s1, s2)): the worst ratio over every pair and its argmax."""
    best = None
    for y in range(len(Q)):
        for s1 in range(len(phat)):
            for s2 in range(len(phat)):
                if s1 != s2:
                    r = pair_ratio(Q, phat, B, y, s1, s2)
                    if best is None or r > best[0]:
                        best = (r, (y, s1, s2))
    return best
