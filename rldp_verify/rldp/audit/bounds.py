"""Upper ends of one (y, s1, s2) pair that do not come from its primal point, each with the pair entry of
:mod:`rldp_verify_check.audit` that proves it: the bisection on r with float-optimised dual parameters, and
Theorem 1's product of projections.

Paper: [lopuhaa-2024], Proposition 3 (the bisection's start, max q1 / min q2) and Theorem 1 (the product bound).
A pair entry is a dict of Fractions: ``{"r", "t", "mu1", "mu2"}`` (weak duality) or ``{"mode": "product", "r",
"mu1", "mu2"}``; :func:`dual_entry` maps the engine's parameters (lambda, mu1, nu2) of
:meth:`~rldp_verify.rldp.audit.pair.PairProblem.dual_arb` to the checker's (t = lambda / beta, mu2 = r nu2).

Which way results may err: every bound returned is certified in arb (upwards); the entries are what the
engine certified, and the certificate builder re-checks them with the independent checker before using them.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.audit.dual import power_mean_arb, to_float

INF = math.inf


def dual_entry(problem: Any, r: Any, params) -> dict:
    """The checker's pair entry of the engine's arb dual at r with params = (lambda, mu1, nu2)."""
    lam, mu1, nu2 = params
    return {"r": r, "t": lam if problem.beta == 0 else lam / problem.beta, "mu1": mu1, "mu2": r * nu2}


def support_upper(v, w, e_minus_d: Fraction | None, beta: Fraction, dps: int) -> tuple[Fraction, Fraction]:
    """(U, mu): a rational U >= sup {<v,R> : D_alpha(w||R) <= d} given a rational lower bound of e^{-d}
    (None: d = inf, the whole simplex), and the mu >= max v of the weak-duality bound U >= mu - e^{-d}
    M_beta(mu - v; w); mu float-optimised, the bound evaluated in arb."""
    import numpy as np

    from rldp_verify.rldp.audit.dual import power_mean_np

    vmax = max(v)
    if e_minus_d is None or e_minus_d == 0:
        return vmax, vmax
    vf = np.array([to_float(x) for x in v])
    wf = np.array([to_float(x) for x in w])
    ts = np.concatenate([[0.0], np.logspace(-15, 6, 400)])
    mu = to_float(vmax) + ts
    M = power_mean_np(mu[:, None] - vf[None, :], np.broadcast_to(wf, (len(ts), len(wf))), to_float(beta))
    vals = mu - to_float(e_minus_d) * M
    j = int(np.nanargmin(np.where(np.isfinite(vals), vals, np.inf)))
    mu_q = max(Fraction(to_float(mu[j])), vmax) if np.isfinite(mu[j]) else vmax
    with arb_precision(dps):
        Mq = power_mean_arb([arb_exact(mu_q - x) for x in v], w, beta)
        return arb_upper(arb_exact(mu_q) - arb_exact(e_minus_d) * Mq), mu_q


def product_entry(problem: Any, dps: int) -> tuple[Fraction | float, dict | None]:
    """Theorem-1 bound max_{F_{U|s1}} <q1,R1> / min_{F_{U|s2}} <q2,R2> (certified; inf if the min can be 0) and
    its pair entry (``"mode": "product"``; None when the bound is inf)."""
    out = []
    for s, v, w, m in ((problem.s1, problem.q1, problem.w1, problem.m1),
                       (problem.s2, [-x for x in problem.q2], problem.w2, problem.m2)):
        if m == 0 or problem.B == INF:
            out.append((max(v), max(v)))
            continue
        with arb_precision(dps):
            Bs = problem.ball.conditional_radius_arb(s, dps=dps)
            e = None if Bs is None else arb_lower((-Bs).exp())
        out.append(support_upper(v, w, e if e is None or e > 0 else None, problem.beta, dps))
    (num, mu1), (negden, nu2) = out
    if -negden <= 0:
        return INF, None
    r = num / -negden
    return r, {"mode": "product", "r": r, "mu1": mu1, "mu2": r * nu2}


def product_bound(problem: Any, dps: int):
    """Theorem-1 bound max_{F_{U|s1}} <q1,R1> / min_{F_{U|s2}} <q2,R2> (certified; inf if the min can be 0)."""
    return product_entry(problem, dps)[0]


def _first_certified(problem: Any, low: Fraction, dps: int):
    """(r, params): the first of r = 2 max(low, 1) 4^k (k = 0 .. 39) that the dual certifies, with its dual
    parameters ((None, None): none, or the deadline expired first)."""
    r = max(low, Fraction(1)) * 2
    for _ in range(40):
        if problem.deadline.expired():
            return None, None
        params = problem.optimise_dual(r)
        if problem.certify(r, params, dps + 10):
            return r, params
        r *= 4
    return None, None


def bisect_certificate(problem: Any, lo, dps: int):
    """(hi, params): bisection on r between lo and the Proposition-3 bound, certifying G(r) <= 0 in arb with
    float-optimised dual parameters (sound; as tight as the float parameters allow); params (lambda, mu1, nu2)
    certify hi (None when hi is inf)."""
    mx, mn = max(problem.q1), min(problem.q2)
    top = mx / mn if mn > 0 else INF
    # the Proposition-3 parameters (lambda = 0, mu_i = max v_i) certify r = top exactly
    low = lo if isinstance(lo, Fraction) else Fraction(0)
    if top == INF:
        hi, params = _first_certified(problem, low, dps)
        if hi is None:
            return INF, None
    else:
        hi, params = Fraction(top), (Fraction(0), mx, -mn)
    for _ in range(60):
        if hi - low <= hi * Fraction(1, 10**12) or problem.deadline.expired():
            break  # hi is certified at every step
        mid = (low + hi) / 2
        mid_f = to_float(mid)
        mid = Fraction(mid_f) if 0 < mid_f < INF else mid
        if not (low < mid < hi):
            mid = (low + hi) / 2
        p = problem.optimise_dual(mid)
        if problem.certify(mid, p, dps + 10):
            hi, params = mid, p
        else:
            low = mid
    return hi, params
