"""Shared helpers for the claims of Sections 3-4 and Appendix A.1-A.3 of 000_aca93ed29ea857ee.txt.

Only the public engine API is used (rldp_verify.core.divergence / .uncertainty / .stats).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import to_mpf
from rldp_verify.core.polytope import vertices

from ..papers import paper

PAPER = paper("rldp").seed

# Example 1 (Sec. 3): P* and the estimate P^ from n = 100 samples; rows s1, s2, columns u1, u2
EX1_PSTAR = ((Fraction(1, 10), Fraction(1, 10)), (Fraction(2, 10), Fraction(6, 10)))
EX1_PHAT = ((Fraction(7, 100), Fraction(10, 100)), (Fraction(26, 100), Fraction(57, 100)))
EX1_N = 100
EX1_CONF = Fraction(95, 100)

# orders spanning (0, inf): below 1, the KL case, integers (exact power sums) and non-integers
ALPHAS = (Fraction(1, 4), Fraction(1, 2), Fraction(9, 10), Fraction(1), Fraction(3, 2), Fraction(2),
          Fraction(3), Fraction(7, 2), Fraction(10))


def rand_table(rng, a1: int, a2: int, *, zeros: bool = False, scale: int = 60) -> tuple:
    """A random |S| x |U| rational table (every row with positive mass; some zero cells if ``zeros``)."""
    while True:
        w = [[0 if (zeros and rng.random() < 0.2) else rng.randint(1, scale) for _ in range(a2)] for _ in range(a1)]
        if all(sum(r) > 0 for r in w):
            t = sum(map(sum, w))
            return tuple(tuple(Fraction(x, t) for x in r) for r in w)


def rand_dist(rng, n: int, *, zeros: bool = False, scale: int = 60) -> list:
    return list(rand_table(rng, 1, n, zeros=zeros, scale=scale)[0])


def flat(t) -> list:
    return [v for r in t for v in r]


def conditional(table, s: int) -> list:
    m = sum(table[s])
    return [to_mpf(v) / to_mpf(m) for v in table[s]]


def boundary_point(center, direction, alpha, radius, *, dps: int, inside: bool = True):
    """The point center + lam*(direction - center), lam in [0, 1], where D_alpha(center||.) = radius
    (bisection in lam; lam = 1 when the whole segment lies in the ball). mpf vectors."""
    c = [to_mpf(x) for x in center]
    d = [to_mpf(x) for x in direction]

    def at(lam):
        return [ci + lam * (di - ci) for ci, di in zip(c, d, strict=True)]

    def div(lam):
        return renyi_divergence(c, at(lam), alpha, dps=dps + 10)

    R = to_mpf(radius)
    if div(mpmath.mpf(1)) <= R:
        return at(mpmath.mpf(1)), mpmath.mpf(1)
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(int(3.4 * dps) + 20):
        mid = (lo + hi) / 2
        if div(mid) <= R:
            lo = mid
        else:
            hi = mid
    lam = lo if inside else hi
    return at(lam), lam


def lift(phat, s: int, R, alpha, B, *, dps: int):
    """The P in P_X with P_{U|s} = R built in the proofs of Lemma A2 (alpha != 1) / Lemma A4 (alpha = 1):

        P_{s,u} = gamma R_u,  P_{s',u} = c^{-1} P^_{s',u} (s' != s),  gamma = 1 - c^{-1}(1 - P^_s),
        c = C^{1/alpha} = e^{(alpha-1)B/alpha}    (alpha != 1; reading: the printed C^{1/alpha} is C^{-1/alpha})
        P_{s,u} = P^_s R_u,  P_{s',u} = P^_{s',u}                                  (alpha = 1)

    Returns (P as a flat mpf list, gamma). For alpha < 1 with gamma <= 0 (Theorem 1's log undefined),
    returns None."""
    a = to_mpf(alpha)
    Bm = to_mpf(B)
    ps = to_mpf(sum(phat[s]))
    if a == 1:
        gamma, scale = ps, mpmath.mpf(1)
    else:
        c = mpmath.exp((a - 1) * Bm / a)
        gamma, scale = 1 - (1 - ps) / c, 1 / c
    if gamma <= 0:
        return None
    P = []
    for i, row in enumerate(phat):
        for j, v in enumerate(row):
            P.append(gamma * to_mpf(R[j]) if i == s else scale * to_mpf(v))
    return P, gamma


def nstr(x, d: int = 12) -> str:
    if isinstance(x, Fraction):
        x = to_mpf(x)
    if x == mpmath.inf:
        return "inf"
    return mpmath.nstr(x, d)


def fprime_vertices(bounds):
    """Vertices of F' = {P in P_X : l_s <= P_{u1|s} <= h_s} for a 2x2 table, exactly (pycddlib GMP)."""
    A, b = [], []
    for s, (l, h) in enumerate(bounds):
        i, j = 2 * s, 2 * s + 1
        row = [Fraction(0)] * 4
        row[i], row[j] = l - 1, l            # l (P_i + P_j) - P_i <= 0
        A.append(row)
        b.append(Fraction(0))
        row = [Fraction(0)] * 4
        row[i], row[j] = 1 - h, -h           # P_i - h (P_i + P_j) <= 0
        A.append(row)
        b.append(Fraction(0))
    for k in range(4):
        row = [Fraction(0)] * 4
        row[k] = Fraction(-1)
        A.append(row)
        b.append(Fraction(0))
    return vertices(A, b, [[Fraction(1)] * 4], [Fraction(1)])
