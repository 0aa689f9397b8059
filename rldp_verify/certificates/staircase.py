"""Certificates of randomized response's status in Kairouz, Oh & Viswanath's staircase LP (11) for I(X;Y)
(:func:`rldp_verify.topics.extremal.thresholds.rr_status`), as ``rigorous-value`` documents.

LP (11): maximise sum_j mu(S_j) theta_j over theta >= 0 with sum_j S_j theta_j = 1, the columns S_j the 2^k
staircase patterns in {1, t}^k (t = e^eps) and mu(c) = sum_i P_i c_i log(c_i / P.c) (the mutual information's
sublinear function). Randomized response is the basis of the k singleton patterns B = J + (t - 1) I, theta_i =
1/(t + k - 1) > 0, whose dual is, in closed form (B^-1 = (I - J/(t + k - 1))/(t - 1)),

    alpha_i = (mu_i - (sum_l mu_l)/(t + k - 1)) / (t - 1),     mu_i = mu(S_{i}),

so S_i^T alpha = mu_i on the basis (an identity). RR is optimal iff every reduced cost g_j = S_j^T alpha - mu(S_j)
is >= 0 (weak duality: sum mu_j theta_j <= sum theta_j S_j^T alpha = 1^T alpha = RR's value), and not optimal when
some g_j < 0 (the basis is non-degenerate, so entering S_j strictly improves). The certificate's expression is the
reduced costs written out with this alpha; the checker evaluates them in arb.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from rldp_verify.certificates.value import value_certificate
from rldp_verify.core.numbers import exact

__all__ = ["mu_expr", "rr_reduced_costs", "rr_status_certificate"]


def mu_expr(col, P) -> list:
    """mu(col) = sum_i P_i col_i log(col_i / P.col) (exact col > 0 and P)."""
    Pc = ["+", *[["*", p, c] for p, c in zip(P, col, strict=True)]]
    return ["+", 0, *[["*", p * c, ["log", ["/", c, Pc]]] for p, c in zip(P, col, strict=True) if p * c != 0]]


def rr_reduced_costs(P, t, *, basic: bool = False) -> list[tuple[tuple, list]]:
    """(pattern S_j, the expression of g_j) for every non-singleton pattern (``basic``: for the k singleton patterns,
    where g_j is 0 by the closed form), alpha in closed form (module docstring)."""
    P, t = [exact(p) for p in P], exact(t)
    k = len(P)
    single = [tuple(t if i == j else Fraction(1) for i in range(k)) for j in range(k)]
    mus = [mu_expr(c, P) for c in single]
    total = ["+", *mus]
    alpha = [["/", ["-", m, ["/", total, t + k - 1]], t - 1] for m in mus]
    out = []
    for col in (single if basic else product((Fraction(1), t), repeat=k)):
        if col in single and not basic:
            continue
        out.append((col, ["-", ["+", *[["*", c, a] for c, a in zip(col, alpha, strict=True)]], mu_expr(col, P)]))
    return out


def _residual_certificate(name: str, P, t, k: int) -> dict:
    """max over the basis of |g_i| <= DELTA: alpha solves RR's basic equations (exactly, by the closed form; the
    checker bounds the residuals), so with the reduced costs RR lies within 2 k DELTA of LP (11)'s optimum (and
    is exactly optimal by the identity) -- and a wrong alpha is rejected."""
    res = [g for _, g in rr_reduced_costs(P, t, basic=True)]
    return value_certificate(f"{name}: alpha solves RR's basic equations, max_i |S_i^T alpha - mu(S_i)| <= {DELTA} "
                             f"(so the reduced costs' verdict is within {2 * k * DELTA} of exact)",
                             ["max", *res, *[["-", g] for g in res]], upper=DELTA, prec=256)


DELTA = Fraction(1, 10 ** 30)


def rr_status_certificate(name: str, P, t, optimal: bool, pattern=None) -> list[dict]:
    """RR optimal at t (``optimal``: min_j g_j >= 0 over all non-singleton patterns) or not optimal (g_j < 0 at
    ``pattern``, a set of indices where the pattern is t, or the first pattern with g_j certainly < 0 when None);
    with the basic residuals' certificate (:func:`_residual_certificate`)."""
    return [_status_certificate(name, P, t, optimal, pattern), _residual_certificate(name, P, t, len(P))]


def _status_certificate(name: str, P, t, optimal: bool, pattern=None) -> dict:
    costs = rr_reduced_costs(P, t)
    if optimal:
        return value_certificate(f"{name}: every reduced cost of RR's basis in LP (11) is >= 0 (RR optimal)",
                                 ["min", *[g for _, g in costs]], lower=0)
    t = exact(t)
    if pattern is not None:
        want = tuple(t if i in set(pattern) else Fraction(1) for i in range(len(P)))
        costs = [(c, g) for c, g in costs if c == want]
    for col, g in costs:
        doc = value_certificate(f"{name}: the reduced cost of pattern {[str(c) for c in col]} is < 0 (RR not optimal)",
                                g, upper=0, strict=True)
        from rldp_verify.certificates import recheck

        if pattern is not None or recheck(doc).ok:
            return doc
    raise ValueError("no pattern with a certainly negative reduced cost")
