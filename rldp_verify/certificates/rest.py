"""Certificates of the last limits (issue 23, helper ``rest``): a limit whose value is an exact equality of logarithms,
proved by a ``series`` constant term that arb computes as an exact 0.

- :func:`appb_limit_certificates` -- f-alpha App. B (74)-(79): lim_{gamma -> 0} D_alpha(P_Y^gamma || Q_Y^gamma) /
  D_alpha(P_X^gamma || Q_X^gamma) = 1 at an integer order alpha >= 2.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.identity import Tree, tree_identity_certificate
from rldp_verify.certificates.taylor import X, coefficient_sign_certificate, log, series_certificate


def appb_power_sums(g, W, i: int, j: int, N: int, a: int, *, cancelled: bool = True) -> tuple:
    """(S_in, S_out) of f-alpha App. B at gamma = ``g`` (a series ``Formula``, a :class:`Tree` or a number), integer
    order ``a`` >= 2: S_in = sum_x P^gamma(x)^a Q^gamma(x)^(1 - a) with P^gamma (74) = (1 - gamma) at x = i,
    gamma/(N - 1) elsewhere, Q^gamma (75) = (1 - gamma)/2 at i and j, gamma/(N - 2) elsewhere; S_out the same sum over
    the outputs y of P_Y = P^gamma W, Q_Y = Q^gamma W.  D_alpha = log(S)/(alpha - 1).  With ``cancelled`` an input
    x outside {i, j} contributes Q(x) (P(x)/Q(x))^a = gamma/(N - 2) ((N - 2)/(N - 1))^a (gamma cancelled: the form
    written as printed has 0^a / 0^(a - 1) at gamma = 0; :func:`appb_limit_certificates` proves the two equal)."""
    if isinstance(a, bool) or not isinstance(a, int) or a < 2:
        raise ValueError(f"the order must be an integer >= 2, not {a!r}")
    W = [[Fraction(w) for w in row] for row in W]
    P = [(1 - g) if x == i else g / (N - 1) for x in range(N)]
    Q = [(1 - g) / 2 if x in (i, j) else g / (N - 2) for x in range(N)]
    s_in = sum((Q[x] * Fraction(N - 2, N - 1) ** a if cancelled and x not in (i, j) else P[x] ** a * Q[x] ** (1 - a))
               for x in range(N))
    PY = [sum(P[x] * W[x][y] for x in range(N)) for y in range(len(W[0]))]
    QY = [sum(Q[x] * W[x][y] for x in range(N)) for y in range(len(W[0]))]
    s_out = sum(PY[y] ** a * QY[y] ** (1 - a) for y in range(len(W[0])))
    return s_in, s_out


def appb_limit_certificates(W, i: int, j: int, N: int, a: int) -> list[dict]:
    """f-alpha App. B: lim_{gamma -> 0} D_alpha(P_Y^gamma||Q_Y^gamma) / D_alpha(P_X^gamma||Q_X^gamma) = 1 at the
    integer order ``a`` (:func:`appb_power_sums`).  The ratio is log S_out / log S_in = 1 + h / log S_in with
    h = log(S_out / S_in).  Certificates: a ``symbolic-identity`` S_in as printed = S_in with gamma cancelled (rational
    in gamma); the ``series`` of h in gamma at 0 with c_0 = 0 (S_out and S_in are analytic at 0 with constant terms
    S_out(0) = S_in(0) = ((1 - 0)/2)^(1 - a) > 0; arb computes h(0) = log 1 as an exact 0 when these are dyadic, else
    the checker rejects) and of log S_in with c_0 > 0.  Then h -> 0 and log S_in -> c > 0, so the ratio -> 1.
    ValueError when a part does not hold (the checker refuses it)."""
    from rldp_verify.certificates import recheck

    name = f"f-alpha App. B, W = {[[str(w) for w in r] for r in W]}, i = {i}, j = {j}, N = {N}, alpha = {a}"
    g = Tree.var("gamma")
    printed, cancelled = appb_power_sums(g, W, i, j, N, a, cancelled=False)[0], appb_power_sums(g, W, i, j, N, a)[0]
    s_in, s_out = appb_power_sums(X, W, i, j, N, a)
    docs = [tree_identity_certificate(f"{name}: S_in as printed (74)-(75) = S_in with gamma cancelled", printed,
                                      cancelled, words="gamma > 0"),
            series_certificate(f"{name}, in gamma: log(S_out / S_in) has c_0 = 0", log(s_out / s_in), [(0, 0, 0)]),
            coefficient_sign_certificate(f"{name}, in gamma: log S_in (alpha - 1 times D_alpha of the inputs)",
                                         log(s_in), 0)]
    for d in docs[:2]:
        got = recheck(d)
        if not got.ok:
            raise ValueError(f"{d['name']}: {got.message}")
    return docs

