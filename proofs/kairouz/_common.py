"""Shared helpers for the claims of 004_3b35ffa09c03afc4.txt (Kairouz, Oh & Viswanath)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from ..papers import paper

PAPER = paper("kairouz").seed


def rand_dist(rng, k: int, den: int = 40) -> tuple:
    """A random positive rational distribution with denominator ``den`` (exact)."""
    while True:
        cuts = sorted(rng.sample(range(1, den), k - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [den], strict=True)]
        if all(p > 0 for p in parts):
            return tuple(Fraction(p, den) for p in parts)


def no_ties(P0, P1) -> bool:
    """P0(x) != P1(x) for all x and all likelihood ratios P0(x)/P1(x) distinct."""
    if any(a == b for a, b in zip(P0, P1, strict=True)):
        return False
    ratios = [a / b for a, b in zip(P0, P1, strict=True)]
    return len(set(ratios)) == len(ratios)


def rand_pair(rng, k: int, den: int = 40, *, ties_ok: bool = False):
    while True:
        P0, P1 = rand_dist(rng, k, den), rand_dist(rng, k, den)
        if P0 != P1 and (ties_ok or no_ties(P0, P1)):
            return P0, P1


def fs(v) -> list:
    return [str(x) for x in v]


def ball_str(x, n: int = 15) -> str:
    return x.str(n) if hasattr(x, "str") else str(x)


def distinct_subset_sums(P) -> bool:
    from itertools import combinations

    k = len(P)
    sums = [sum(c, Fraction(0)) for r in range(k + 1) for c in combinations(P, r)]
    return len(set(sums)) == len(sums)


def generic_dist(rng, k: int, den: int = 997) -> tuple:
    """A random distribution whose 2^k subset sums are pairwise distinct (no LP ties for MI)."""
    while True:
        P = rand_dist(rng, k, den)
        if distinct_subset_sums(P):
            return P


# ----------------------------------------------------------- mutual information (Theorems 12-16)

TIE_P = (Fraction(1, 3), Fraction(1, 6), Fraction(1, 6), Fraction(1, 3))


def mass_of(P, A):
    """P(A) = sum_{i in A} P_i, exactly."""
    return sum((P[i] for i in A), Fraction(0))


def mu_z(z, e):
    """mu(z, eps) = z e^eps eps - (z (e^eps - 1) + 1) log(z (e^eps - 1) + 1) (eq. (113)), mpmath."""
    t = mpmath.e ** e
    return z * t * e - (z * (t - 1) + 1) * mpmath.log(z * (t - 1) + 1)


def z_star(e):
    """z*(eps), the maximiser of mu(z, eps) of eq. (113) (mpmath)."""
    t = mpmath.e ** e
    return (mpmath.e ** (t * e / (t - 1) - 1) - 1) / (t - 1)


def mi_rr(p, eps):
    """I(X;Y) of k-ary randomized response at eps for the prior p, computed directly (mpmath)."""
    k = len(p)
    t = mpmath.e ** eps
    return sum(pi * t * mpmath.log(t / (pi * (t - 1) + 1)) + (1 - pi) * mpmath.log(1 / (pi * (t - 1) + 1)) for pi in p) / (t + k - 1)


def entropy(p):
    """H(p) = -sum p_i log p_i in nats (mpmath)."""
    return -sum(x * mpmath.log(x) for x in p)
