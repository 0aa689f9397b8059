"""The two certificates of column-generated LP (46): an upper bound proven leaf by leaf, and exact rows.

Paper: [lopuhaa-2024], Sec. 5 (Theorem 2: rows in Gamma_eps give (eps, F)-RLDP; LP (46)).
:func:`certify_upper` errs upwards (its bound is >= the optimum of LP (46), proven by
:meth:`pricing.Pricer.rigorous_bound` on every leaf); :func:`exact_primal` returns rows checked exactly in
Gamma_eps and their certified (arb) utility, a lower bound of the optimum.  Used by :mod:`polyopt_cg`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.errors import CertificationError
from rldp_verify.rldp.mechanisms.cg_cone import Cone
from rldp_verify.rldp.mechanisms.pricing import Pricer

CERT_ATTEMPTS = 7   # attempts of certify_upper (node budget x4 each time, then the margin grows)


def certify_upper(pricer: Pricer, centre, M, lp, n_min, *, max_nodes: int = 60, attempts: int = CERT_ATTEMPTS,
                   report: bool = False):
    """sum_x y'_x with G(y') <= 0 proven, y' = centre + M' 1.  M' starts at M plus a tiny margin.  The
    node budget grows fourfold per attempt (up to 256 x ``max_nodes``); the first two failed attempts
    only add a rounding-sized margin (a larger search usually certifies at the same M'), later ones
    raise M' by (the worst leaf's rigorous bound) / n_min, since G(y + M' 1) <= G(y + M 1) - (M' - M)
    n_min (and likewise every leaf's bound at a fixed kappa).  ``report``: the attempt number goes to
    :func:`rldp_verify.core.progress.update`."""
    y = np.array(centre, dtype=float)
    scale = 1.0 + float(np.max(np.abs(y[lp])))
    margin = 1e-13 * scale
    for attempt in range(attempts):
        if report:
            progress.update(attempt)
        yp = y + (M + margin)
        pricer.set_dual(yp, errors=True)
        best, _, ub, leaves = pricer.solve(gap_tol=1e-14, max_nodes=max_nodes * 4 ** min(attempt, 4), prune_at=0.0)
        bounds = [pricer.rigorous_bound(node, rel.kappa) for node, rel in leaves]
        if best <= 0 and all(b <= 0 for b in bounds):
            return sum(Fraction(float(yp[x])) for x in lp), yp, len(leaves)
        worst = max([float(b) for b in bounds] + [best])
        margin += 1e-13 * scale * 4 ** attempt
        if attempt >= 2:
            margin += max(worst, 0.0) / n_min * 1.5
    raise CertificationError("could not certify an upper bound for LP (46)")


def exact_primal(master, cols_exact, cone: Cone, p, lp, x, dps, *, exact_basis_max: int = 40):
    """Exact rows with sum_y Q_y = 1 on X and every row in Gamma_eps; and their certified utility.

    Small LPs (at most ``exact_basis_max`` rows): the HiGHS basis re-solved exactly (flint), rows
    theta_j w_j (:func:`_basis_rows`).  Otherwise (exact columns have huge denominators there) dyadic rows
    (:func:`_dyadic_rows`): each (1 - delta) theta_j v_j is mixed with eta of the uniform row (an interior
    point: h constant), rounded down to multiples of 2^-64 and checked to lie in Gamma_eps; the residual
    1 - sum of the rows is close to delta 1 and is checked to lie in Gamma_eps too (delta, eta grow
    until it does).  Either way every row is verified exactly (:func:`_check_rows`)."""
    from rldp_verify.core.information import mutual_information_bounds

    basic, slack_rows = master.basis()
    rows = None
    if len(lp) <= exact_basis_max:
        rows = _basis_rows(basic, slack_rows, cols_exact, cone, lp)
    if rows is None:
        rows = _dyadic_rows(cols_exact, cone, lp, x)
    if cone.free:
        k = len(rows)
        for r in rows:
            for xx in cone.free:
                r[xx] = Fraction(1, k)
    _check_rows(rows, cone)
    lower = mutual_information_bounds(rows, p, dps=dps)[0]
    return rows, lower


def _basis_rows(basic, slack_rows, cols_exact, cone: Cone, lp) -> list[list[Fraction]] | None:
    """The restricted LP's final basis re-solved exactly (flint): rows theta_j w_j when theta_B = B^-1 1 >= 0
    and the slack rows are met with equality; None when the basis is not square, singular or infeasible."""
    from rldp_verify.core.lp import solve_square

    rows_used = [i for i in range(len(lp)) if i not in set(slack_rows)]
    if not (len(basic) == len(rows_used) and basic):
        return None
    th = solve_square([[cols_exact[j][i] for j in basic] for i in rows_used], [Fraction(1)] * len(basic))
    if th is None or not (all(t >= 0 for t in th)
            and all(sum(t * cols_exact[j][i] for t, j in zip(th, basic, strict=True)) == 1 for i in slack_rows)):
        return None
    rows = []
    for t, j in zip(th, basic, strict=True):
        if t > 0:
            r = [Fraction(0)] * cone.a
            for i, xx in enumerate(lp):
                r[xx] = t * cols_exact[j][i]
            rows.append(r)
    return rows


def _dyadic_rows(cols_exact, cone: Cone, lp, x) -> list[list[Fraction]]:
    """Dyadic rows near the restricted LP's primal ``x``, mixed with delta, eta of the uniform row (both 1e-9,
    tenfold per attempt, 10 attempts); CertificationError when no attempt gives rows and a residual in the
    cone."""
    used = [j for j in range(len(x)) if x[j] > 0]
    V = np.array([[float(t) for t in cols_exact[j]] for j in used])
    V = V / V.sum(axis=1, keepdims=True)
    th = np.array([x[j] for j in used])
    m = len(lp)
    delta, eta = 1e-9, 1e-9
    for _ in range(10):
        R = ((1 - delta) * th)[:, None] * ((1 - eta) * V + eta / m)
        rows = _dyadic_attempt(R, cone, lp)
        if rows is not None:
            return rows
        delta, eta = delta * 10, eta * 10
    raise CertificationError("could not build an exactly feasible solution of LP (46)")


def _dyadic_attempt(R: np.ndarray, cone: Cone, lp) -> list[list[Fraction]] | None:
    """The float rows ``R`` rounded down, each on its own dyadic grid (2^-64 of its largest entry: a row with
    a tiny theta_j keeps its relative accuracy; a common 2^-64 grid pushed such rows out of Gamma_eps), plus
    the residual 1 - sum of the rows; None unless every row and the residual lie in the cone exactly."""
    rows = []
    for rf in R:
        top = float(np.max(rf))
        sc = 2 ** min(64 - math.frexp(top)[1], 1000) if top > 0 else 2 ** 64
        r = np.floor(rf * sc)
        full = [Fraction(0)] * cone.a
        for i, xx in enumerate(lp):
            full[xx] = Fraction(int(r[i]), sc)
        if any(full) and not cone.member(full):
            return None
        if any(full):
            rows.append(full)
    res = [Fraction(0)] * cone.a
    for xx in lp:
        res[xx] = 1 - sum(row[xx] for row in rows)
    if not (all(res[xx] >= 0 for xx in lp) and cone.member(res)):
        return None
    if any(res):
        rows.append(res)
    return rows


def _check_rows(rows, cone: Cone) -> None:
    """Every row exactly in Gamma_eps and every column of the mechanism summing to 1 (CertificationError)."""
    for r in rows:
        if not cone.member(r):
            raise CertificationError("a row of the LP (46) solution is not in Gamma_eps")
    for xx in range(cone.a):
        if sum(r[xx] for r in rows) != 1:
            raise CertificationError(f"column {xx} of the LP (46) mechanism does not sum to 1")
