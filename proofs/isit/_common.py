"""Shared helpers of the ISIT claims (003): the paper id, random instances, conversions."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

PAPER = "003_726cfd382c041001.txt"


def mp_fraction(x) -> Fraction:
    """The exact rational value of an mpf (binary), or of a float."""
    if isinstance(x, float):
        return Fraction(x)
    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        raise ValueError(f"not finite: {x}")
    sign, man, exp, _ = x._mpf_
    man = -int(man) if sign else int(man)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))


def random_joint(rng: np.random.Generator, n_s: int, n_u: int, zeros: bool = False) -> np.ndarray:
    """A random |S| x |U| estimate P_hat (Dirichlet(1)); with ``zeros`` some cells are set to 0,
    every row keeping positive mass."""
    P = rng.dirichlet(np.ones(n_s * n_u)).reshape(n_s, n_u)
    if zeros:
        mask = rng.random((n_s, n_u)) < 0.3
        for s in range(n_s):
            if mask[s].all():
                mask[s, rng.integers(n_u)] = False
        P = np.where(mask, 0.0, P)
        P /= P.sum()
    return P


def rational_table(P) -> list[list[Fraction]]:
    """A float table as exact Fractions renormalised to sum exactly to 1."""
    rows = [[Fraction(float(x)) for x in r] for r in P]
    t = sum(map(sum, rows))
    return [[x / t for x in r] for r in rows]


def fmt(x, digits: int = 12) -> str:
    return mpmath.nstr(mpmath.mpf(x) if not isinstance(x, Fraction) else mpmath.mpf(x.numerator) / x.denominator,
                       digits)
