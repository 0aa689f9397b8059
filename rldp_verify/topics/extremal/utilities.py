"""Sublinear utilities, the binary / randomized-response / quaternary mechanisms, and their values.

Source: [kairouz-2016] (Kairouz, Oh & Viswanath), Sec. 2.1 eq. (8) (U(Q) = sum_y mu(Q_y)),
Sec. 3 eq. (12) (f-divergences, mu(Q_y) = (P1^T Q_y) f(P0^T Q_y / P1^T Q_y)), Sec. 4 eq. (5)
(mutual information, mu(Q_y) = sum_x P(x) Q(y|x) log(Q(y|x) / P^T Q_y)), eq. (18)/(55) (binary
mechanism for hypothesis testing), eq. (29)-(30) (binary mechanism for mutual information),
eq. (21) (randomized response), eq. (38) (quaternary mechanism).

Conventions: a mechanism Q is a list of k rows (inputs x) of exact Fractions (columns = outputs y);
``t = e^eps`` is rational. Column functionals ``mu`` take a column (tuple of Fractions) and return
an exact Fraction (TV, hockey-stick E_gamma, chi^2) or a python-flint ``arb`` ball (KL, symmetrised
KL, mutual information) that is guaranteed to contain the true value. Natural logarithms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations

import flint

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import mu_arb
from rldp_verify.core.numbers import check_exp_eps, exact
from rldp_verify.core.rigorous import as_arb
from rldp_verify.core.validate import is_stochastic as rows_stochastic
from rldp_verify.core.validate import require_sum_one


def distribution(P, name: str = "P", *, positive: bool = True) -> tuple:
    """Validate a probability vector given as exact numbers ("0.2", "1/5", Fraction, int).

    Entries must be >= 0 (> 0 when ``positive``) and sum to exactly 1.
    """
    try:
        vals = tuple(exact(p) for p in P)
    except TypeError as exc:
        raise InputError(f"{name}: {exc}") from None
    if len(vals) < 2:
        raise InputError(f"{name} must have at least 2 entries, got {len(vals)}")
    for i, p in enumerate(vals):
        if p < 0 or (positive and p == 0):
            need = "positive" if positive else "non-negative"
            raise InputError(f"{name}[{i}] = {p} is not {need}")
    require_sum_one(sum(vals), name)
    return vals


def dot(P, col) -> Fraction:
    """sum_x P(x) col(x), exact."""
    return sum((Fraction(p) * c for p, c in zip(P, col, strict=True)), Fraction(0))


# ------------------------------------------------------------------ column functionals mu

def mu_kl(P0, P1) -> Callable:
    """KL: mu(c) = (P0.c) log((P0.c)/(P1.c)) (f(x) = x log x), as an arb ball."""
    def mu(col):
        a, b = dot(P0, col), dot(P1, col)
        if a == 0:
            return flint.arb(0)
        return as_arb(a) * (as_arb(a) / as_arb(b)).log()
    return mu


def mu_symkl(P0, P1) -> Callable:
    """Symmetrised KL D(M0||M1)+D(M1||M0): f(x) = (x - 1) log x; mu(c) = (a - b) log(a/b)."""
    def mu(col):
        a, b = dot(P0, col), dot(P1, col)
        return as_arb(a - b) * (as_arb(a) / as_arb(b)).log()
    return mu


def mu_tv(P0, P1) -> Callable:
    """Total variation, f(x) = |x - 1|/2: mu(c) = |P0.c - P1.c|/2 (exact)."""
    return lambda col: abs(dot(P0, col) - dot(P1, col)) / 2


def mu_hockey(P0, P1, gamma) -> Callable:
    """Hockey-stick E_gamma, f(x) = (x - gamma)_+: mu(c) = (P0.c - gamma P1.c)_+ (exact)."""
    g = exact(gamma)
    return lambda col: max(dot(P0, col) - g * dot(P1, col), Fraction(0))


def mu_chi2(P0, P1) -> Callable:
    """chi^2, f(x) = (x - 1)^2: mu(c) = (P0.c - P1.c)^2 / (P1.c) (exact)."""
    return lambda col: (dot(P0, col) - dot(P1, col)) ** 2 / dot(P1, col)


def mu_mi(P) -> Callable:
    """Mutual information: mu(c) = sum_i P_i c_i log(c_i / P.c) (eq. (5), (96)), as an arb ball."""
    return lambda col: mu_arb(col, P)   # the engine's one arb route of eq. (45), core.information


def utility(Q: Sequence[Sequence[Fraction]], mu: Callable):
    """U(Q) = sum_y mu(Q_y) (eq. (8)) for a mechanism given by rows; zero columns contribute 0."""
    k = len(Q)
    cols = [tuple(Fraction(Q[i][y]) for i in range(k)) for y in range(len(Q[0]))]
    vals = [mu(c) for c in cols if any(v != 0 for v in c)]
    tot = vals[0]
    for v in vals[1:]:
        tot = tot + v
    return tot


# ------------------------------------------------------------------ mechanisms

def binary_set_hypothesis(P0, P1) -> frozenset:
    """T = {x : P0(x) >= P1(x)} (Sec. 3.2, proof of Theorem 5)."""
    return frozenset(i for i, (a, b) in enumerate(zip(P0, P1, strict=True)) if a >= b)


def binary_mechanism_for_set(T, k: int, t) -> list[list[Fraction]]:
    """Two outputs: Q(0|x) = t/(1+t) on T, 1/(1+t) off T; Q(1|x) = 1 - Q(0|x) (eq. (18))."""
    t = check_exp_eps(t)
    hi, lo = t / (1 + t), 1 / (1 + t)
    return [[hi, lo] if i in T else [lo, hi] for i in range(k)]


def binary_mechanism(P0, P1, t) -> list[list[Fraction]]:
    """The binary mechanism of eq. (18) for hypothesis testing (ties P0(x) = P1(x) go to T)."""
    return binary_mechanism_for_set(binary_set_hypothesis(P0, P1), len(P0), t)


def binary_set_mi(P) -> frozenset:
    """A set T in argmin_A |P(A) - 1/2| (eq. (30)); the lexicographically first minimiser."""
    k = len(P)
    best: Fraction | None = None
    bestT: frozenset[int] = frozenset()
    for r in range(k + 1):
        for A in combinations(range(k), r):
            d = abs(sum((P[i] for i in A), Fraction(0)) - Fraction(1, 2))
            if best is None or d < best:
                best, bestT = d, frozenset(A)
    return bestT


def mi_maximising_sets(P) -> list[frozenset]:
    """All A with P(A)P(A^c) maximal (equivalently |P(A) - 1/2| minimal, eq. (105))."""
    k = len(P)
    vals = {}
    for r in range(k + 1):
        for A in combinations(range(k), r):
            pa = sum((P[i] for i in A), Fraction(0))
            vals[frozenset(A)] = pa * (1 - pa)
    m = max(vals.values())
    return [A for A, v in vals.items() if v == m]


def randomized_response(k: int, t) -> list[list[Fraction]]:
    """Q(y|x) = t/(k-1+t) if y = x, 1/(k-1+t) otherwise (eq. (21))."""
    t = check_exp_eps(t)
    d = k - 1 + t
    return [[t / d if y == x else 1 / d for y in range(k)] for x in range(k)]


def quaternary_mechanism(t, delta) -> list[list[Fraction]]:
    """Q_QT for binary inputs, outputs {0,1,2,3} (eq. (38)); rows x = 0, 1."""
    t = check_exp_eps(t)
    delta = exact(delta)
    if not 0 <= delta <= 1:
        raise InputError(f"delta must lie in [0, 1], got {delta}")
    a, b = (1 - delta) / (1 + t), (1 - delta) * t / (1 + t)
    return [[delta, Fraction(0), a, b], [Fraction(0), delta, b, a]]


def marginal(P, Q) -> list[Fraction]:
    """M(y) = sum_x P(x) Q(y|x) (eq. (2))."""
    return [sum((Fraction(P[i]) * Q[i][y] for i in range(len(P))), Fraction(0)) for y in range(len(Q[0]))]


def is_ldp(Q, t) -> bool:
    """Exact check of eps-LDP via Claim 2: Q(y|x) <= t Q(y|x') for all x, x', y."""
    t = exact(t)
    k = len(Q)
    return all(Q[i][y] <= t * Q[j][y] for y in range(len(Q[0])) for i in range(k) for j in range(k))


def is_stochastic(Q) -> bool:
    """True when every row of Q (given by rows) is non-negative and sums to exactly 1 (exact comparison)."""
    return rows_stochastic(Q, columns=False)
