"""Theorem 1's product entries of an audit certificate's pair (``"mode": "product"``, checked by
:func:`rldp_verify_check.audit.pair_bound` as the budget part with cuts [0]): the audit's own entry
(:func:`rldp_verify.rldp.audit.bounds.product_entry`, the one ``product_upper`` prints for radius > 100) and the
builder's, each block's mu optimised at dps + 15 digits.

Paper: [lopuhaa-2024], Theorem 1 (F_{U|s} lies in the ball of radius B_s around P-hat_{U|s}).  Which way results
may err: none is trusted; the caller keeps the first entry the independent checker accepts.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.rldp.audit.bounds import product_entry
from rldp_verify.rldp.audit.pair import PairProblem


def product_entries(prob: PairProblem, R: Fraction, dps: int):
    """The product entries to try for the pair ``prob`` at the upper end R: the audit's own (when its r <= R),
    then :func:`_product_entry`; one that cannot be computed (an overflow, a division by zero) is skipped."""
    for make in (_engine_product_entry, _product_entry):
        try:
            entry = make(prob, R, dps)
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        if entry is not None:
            yield entry


def _engine_product_entry(prob: PairProblem, R: Fraction, dps: int) -> dict | None:
    """The audit's own Theorem-1 product entry when its r <= R; None otherwise."""
    r, entry = product_entry(prob, dps)
    return entry if entry is not None and r <= R else None


def _product_entry(prob: PairProblem, R: Fraction, dps: int) -> dict | None:
    """The pair entry of Theorem 1's product bound (``"mode": "product"``): mu_i minimising mu - z_min M(mu - v)
    for each block (convex in mu), found at dps + 15 digits; r = R."""
    a, B = prob.alpha, Fraction(prob.B)
    beta = 1 - 1 / a
    out = {}
    with mpmath.workdps(dps + 15):
        K = mpmath.mpf(B.numerator) / B.denominator if beta == 0 else \
            mpmath.expm1(mpmath.mpf(beta.numerator) / beta.denominator * mpmath.mpf(B.numerator) / B.denominator) \
            + _mp(prob.m1 + prob.m2)
        for key, v, w, p, other in (("mu1", prob.q1, prob.w1, prob.m1, prob.m2),
                                    ("mu2", [-R * x for x in prob.q2], prob.w2, prob.m2, prob.m1)):
            vmax = max(v)
            if p == 0 or min(v) == vmax:                 # constant block: mu - z M(mu - v) = mu (1 - z) + z v
                out[key] = vmax                         # is least at x = 0 (golden section stops e^-60 above)
                continue
            c = K / _mp(p) if beta == 0 else (K - _mp(other)) / _mp(p)
            z = mpmath.exp(-c) if beta == 0 else c ** (-1 / _mp(beta)) if c > 0 else mpmath.mpf(0)
            out[key] = _block_mu(v, w, z, beta, dps)
    return {"mode": "product", "r": R, "mu1": out["mu1"], "mu2": out["mu2"]}


def _block_mu(v, w, z, beta: Fraction, dps: int) -> Fraction:
    """mu >= max v minimising mu - z M_beta(mu - v; w) (convex in mu): a golden-section search in log t for
    mu = max v + spread * t, at the caller's working precision, or mu = max v when that is no worse (the search
    stops at t = e^-60); the result as a rational >= max v."""
    vmax = max(v)
    vs = [_mp(x) for x in v]
    ws = [_mp(x) for x in w]
    b = _mp(beta)
    spread = max(vs) - min(vs) or mpmath.mpf(1)

    def f(logt):
        mu = _mp(vmax) + (spread * mpmath.exp(logt) if logt is not None else 0)
        xs = [(mu - vi, wi) for vi, wi in zip(vs, ws, strict=True) if wi > 0]
        if b <= 0 and any(xi == 0 for xi, _ in xs):
            M = mpmath.mpf(0)
        elif b == 0:
            M = mpmath.exp(mpmath.fsum(wi * mpmath.log(xi) for xi, wi in xs))
        else:
            M = mpmath.fsum(wi * xi ** b for xi, wi in xs if xi > 0) ** (1 / b)
        return mu - z * M
    lo, hi = mpmath.mpf(-60), mpmath.mpf(30)
    for _ in range(250):                        # golden-section search in log t
        m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if f(m1) <= f(m2):
            hi = m2
        else:
            lo = m1
    if f(None) <= f((lo + hi) / 2):             # mu = max v (t = 0): best when z is tiny (e.g. radius 2000)
        return vmax
    mu = _mp(vmax) + spread * mpmath.exp((lo + hi) / 2)
    return max(dyadic(mu, dps + 10), vmax)


def dyadic(x, digits: int) -> Fraction:
    """The rational k / 2^bits nearest to the mpmath number x, bits ~ 3.33 digits + 8."""
    bits = int(digits * 3.33) + 8
    return Fraction(int(mpmath.nint(mpmath.mpf(x) * 2**bits)), 2**bits)


def _mp(x: Fraction):
    """The mpmath number of a rational at the working precision."""
    return mpmath.mpf(x.numerator) / x.denominator
