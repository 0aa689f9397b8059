"""Shared PolyOpt test instances and an independent reference optimum of LP (46) (used by
test_polyopt_speed.py and test_polyopt_mutants.py)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import mpmath

from rldp_verify.core.lp import solve_exact


def random_instance(a1, a2, seed, scale=600):
    """(P-hat flat, L): random integer weights 1..30 for P-hat, and L_{u|s} = floor(scale P(u|s)) / 1000."""
    rng = random.Random(seed)
    w = [rng.randint(1, 30) for _ in range(a1 * a2)]
    P = [F(x, sum(w)) for x in w]
    L = []
    for s in range(a1):
        ps = sum(P[s * a2:(s + 1) * a2])
        L.append([F(int(scale * P[s * a2 + u] / ps), 1000) for u in range(a2)])
    return P, L


def mp(x):
    """An exact rational as an mpmath number (at the current precision)."""
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def mu_reference(v, p):
    """mu(v) of eq. (45) in mpmath at 40 digits, written independently of the engine's mu."""
    with mpmath.workdps(40):
        t = sum(mp(x * q) for x, q in zip(v, p, strict=True))
        return sum(mp(x * q) * mpmath.log(mp(x) / t) for x, q in zip(v, p, strict=True) if x * q > 0)


def reference_optimum(V, P):
    """Exact LP (46) optimum with mu rounded to 30 digits (cdd GMP): within |V| 10^-30 of the true one."""
    with mpmath.workdps(40):
        c = [F(int(mpmath.nint(mu_reference(v, P) * mpmath.mpf(10) ** 30)), 10 ** 30) for v in V]
    n, a = len(V), len(P)
    A = [[F(-1) if j == i else F(0) for j in range(n)] for i in range(n)]
    r = solve_exact(c, A, [F(0)] * n, [[v[x] for v in V] for x in range(a)], [F(1)] * a)
    assert r.status == "optimal"
    return r.value
