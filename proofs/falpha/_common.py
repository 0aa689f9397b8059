"""Shared helpers for the claims of 001_29f852b736fc5e16.txt (f_alpha-divergence contraction)."""

from __future__ import annotations

from fractions import Fraction

from ..papers import paper

PAPER = paper("falpha").seed

# integer orders (exact arithmetic) and non-integer orders (high precision), spanning (1, 100]
INT_ALPHAS = (2, 3, 4, 5, 8, 16)
REAL_ALPHAS = ("1.001", "1.01", "1.1", "1.5", "1.9", "2.5", "3.7", "10.3", "50.5")
SUB_ALPHAS = ("0.01", "0.1", "0.5", "0.9", "0.999")


def rand_dist(rng, n: int, *, zeros: bool = False, scale: int = 1000) -> list[Fraction]:
    """A random rational distribution on n points; with ``zeros`` some entries may be 0.
    Weights span orders of magnitude (1 .. scale^2)."""
    while True:
        w = []
        for _ in range(n):
            if zeros and rng.random() < 0.3:
                w.append(0)
            else:
                w.append(rng.randint(1, scale) ** rng.choice((1, 1, 2)))
        s = sum(w)
        if s > 0:
            return [Fraction(x, s) for x in w]


def rand_channel(rng, nx: int, ny: int, *, zeros: bool = True) -> list[list[Fraction]]:
    return [rand_dist(rng, ny, zeros=zeros, scale=20) for _ in range(nx)]


def to_fraction_list(xs) -> list[Fraction]:
    """The exact rationals of the floats ``xs``, renormalised exactly to sum to 1."""
    fr = [Fraction(float(x)) for x in xs]
    s = sum(fr)
    return [x / s for x in fr]


def fstr(x, digits: int = 15) -> str:
    import mpmath

    if isinstance(x, Fraction):
        if x.denominator < 10**12:
            return str(x)
        with mpmath.workdps(digits + 5):
            return mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, digits)
    return mpmath.nstr(x, digits)
