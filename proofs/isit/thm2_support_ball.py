"""Theorem 2 (eq. 21): the support function of the chi-square ball F, checked against direct
optimisation over F (003, Sec. IV-A and Appendix C)."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import CAP, all_nonneg, covers, dot
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics.chisquare.ball import ball_objective, chi2_divergence, support_ball

from ._common import PAPER, fmt, mp_fraction, random_joint, rational_table

RADII = [Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1)]


def _feasible_witness(P_star, P_hat, B):
    """Round the closed-form maximiser to rationals and pull it towards P_hat until it lies in F
    exactly (Fractions); returns the rational witness."""
    P = [mp_fraction(x) for x in P_star]
    t = sum(P)
    P = [x / t for x in P]
    g = sum((q * q / p) for p, q in zip(P, P_hat, strict=True) if q != 0) if all(p > 0 for p, q in zip(P, P_hat, strict=True) if q) else None
    if g is None:
        raise AssertionError("witness misses a cell of P_hat")
    if g > B + 1:
        theta = (g - B - 1) / (g - 1)  # g(mix) <= (1-theta) g + theta * 1 = B + 1
        theta = Fraction(int(theta * 10**60) + 1, 10**60)
        P = [(1 - theta) * p + theta * q for p, q in zip(P, P_hat, strict=True)]
    return P


def _cvx_primal(v, P_hat, B):
    import cvxpy as cp

    v = np.array([float(x) for x in v])
    p = np.array([float(x) for x in P_hat])
    P = cp.Variable(len(p), nonneg=True)
    m = p > 0
    cons = [cp.sum(P) == 1, cp.sum(cp.multiply(p[m] ** 2, cp.inv_pos(P[m]))) <= float(B) + 1]
    prob = cp.Problem(cp.Maximize(v @ P), cons)
    with warnings.catch_warnings():  # an inaccurate solve is harmless: the point is repaired and re-checked
        warnings.simplefilter("ignore")
        prob.solve(solver="CLARABEL")
    Pv = np.clip(np.asarray(P.value, dtype=float), 0, None)
    return prob.value, prob.status, Pv


def _repair(P, P_hat, B):
    """Re-check a solver's point: rationalise, renormalise, pull towards P_hat into F (exactly)."""
    P = [Fraction(float(x)) for x in P]
    P = [Fraction(0) if q == 0 and p < Fraction(1, 10**12) else p for p, q in zip(P, P_hat, strict=True)]
    t = sum(P)
    P = [p / t for p in P]
    if any(p == 0 < q for p, q in zip(P, P_hat, strict=True)):
        P = [(p + q) / 2 for p, q in zip(P, P_hat, strict=True)]
    g = sum(q * q / p for p, q in zip(P, P_hat, strict=True) if q != 0)
    if g > B + 1:
        theta = (g - B - 1) / (g - 1)
        P = [(1 - theta) * p + theta * q for p, q in zip(P, P_hat, strict=True)]
    assert chi2_divergence(P, P_hat) <= B
    return P


def _cvx_dual(v, P_hat, B):
    """Minimise eq. (21) over the full vector w >= v and c >= 0 (no reduction)."""
    import cvxpy as cp

    v = np.array([float(x) for x in v])
    p = np.array([float(x) for x in P_hat])
    w, c, r = cp.Variable(len(p)), cp.Variable(nonneg=True), cp.Variable(len(p), nonneg=True)
    t = w - v
    cons = [cp.SOC(c + t, cp.vstack([2 * r, c - t]), axis=0)]  # r^2 <= c (w - v), w >= v
    prob = cp.Problem(cp.Minimize(-2 * p @ r + cp.max(w) + c * (float(B) + 1)), cons)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prob.solve(solver="CLARABEL")
    return prob.value, prob.status


def run(ctx, n_instances: int, salt: str):
    rng = ctx.np_rng(salt)
    worst_gap, worst_cvx, worst_dual, rows = Fraction(0), -float("inf"), 0.0, []
    certified = []
    with working_precision(ctx.dps):
        for k in range(n_instances):
            n = int(rng.integers(2, 9))
            zeros = k % 3 == 2
            P_hat = [x for r in rational_table(random_joint(rng, 1, n, zeros=zeros)) for x in r]
            v = [Fraction(float(x)).limit_denominator(10**6) for x in rng.normal(size=n)]
            B = RADII[k % len(RADII)]
            res = support_ball(v, P_hat, B)
            W = _feasible_witness(res.P_star, P_hat, B)
            chi = chi2_divergence(W, P_hat)
            assert chi <= B, "witness outside F"
            lower = sum(a * b for a, b in zip(v, W, strict=True))  # exact: a value of v.P attained in F
            upper = ball_objective(v, [res.M] * n, res.c, P_hat, B)  # eq. (21) at a feasible point
            gap = mp_fraction(upper) - lower   # >= 0 when eq. (21) holds (weak duality); signed, never abs()
            if gap < -Fraction(1, 10**30):
                # v.W is attained in F, so delta*(v|F) >= v.W > (21) at a feasible (w, c) >= its minimum: (21) is
                # not the support function (the 1e-30 margin is far above the 50-digit evaluation error)
                return Outcome.refuted(
                    "an exactly feasible P in F attains v.P above eq. (21) at a feasible point (w = M 1, c), so the "
                    "minimum of (21) is below delta*(v|F)",
                    counterexample={"v": [str(x) for x in v], "P_hat": [str(x) for x in P_hat], "B": str(B),
                                    "P": [str(x) for x in W], "v.P": fmt(lower, 25), "eq21_at_w_c": fmt(upper, 25),
                                    "M": fmt(res.M, 25), "c": fmt(res.c, 25)}, instances=rows, kind="false")
            if len(certified) < CAP:
                certified.append((v, P_hat, B, W, mp_fraction(res.M), mp_fraction(res.c)))
            cvx_raw, st1, Pcvx = _cvx_primal(v, P_hat, B)
            Prep = _repair(Pcvx, P_hat, B)  # the solver's answer, made exactly feasible
            cvx_exact = sum(a * b for a, b in zip(v, Prep, strict=True))
            dual, st2 = _cvx_dual(v, P_hat, B)
            e_cvx = float(cvx_exact - mp_fraction(res.value))
            e_dual = dual - float(res.value)
            worst_gap = max(worst_gap, gap)
            worst_cvx = max(worst_cvx, e_cvx)
            worst_dual = max(worst_dual, abs(e_dual))
            # float solvers only search for a violation (re-checked exactly above) or add agreement flags; their
            # numbers differ between machines and are not reported (issue 9 item 4)
            rows.append({"n_cells": n, "B": str(B), "zeros_in_P_hat": zeros, "closed_form": fmt(res.value, 20),
                         "exact_witness_value": fmt(lower, 20),
                         "cvxpy_repaired_point_not_above_eq21": bool(e_cvx <= 1e-20),
                         "cvxpy_full_w_within_1e-5": bool(abs(e_dual) < 1e-5), "status": [st1, st2]})
            _ = cvx_raw
            if e_cvx > 1e-20:  # an exactly feasible P beating eq. (21): a genuine counterexample
                return Outcome.refuted(
                    "an exactly feasible P in F attains more than the value of eq. (21)",
                    counterexample={"v": [str(x) for x in v], "P_hat": [str(x) for x in P_hat], "B": str(B),
                                    "P": [str(x) for x in Prep], "v.P": fmt(cvx_exact, 25),
                                    "eq21": fmt(res.value, 25)}, instances=rows, kind="false")
    ev = dict(instances=len(rows), max_gap_witness_vs_eq21=fmt(worst_gap, 5),
              cvxpy_full_w_within_1e_5=bool(worst_dual < 1e-5), dps=ctx.dps,
              sample=rows[:6],
              note=("eq. (59) prints the stationary point x = P_hat^2/sqrt(-z); it is x = P_hat/sqrt(-z) "
                    "(claim isit.thm2.eq59-stationary-point); the conjugate (60) is right."))
    if worst_gap < Fraction(1, 10**30):
        return Outcome.verified(
            f"{len(rows)} random instances: eq. (21) at its minimiser (an upper bound: weak duality) equals a value "
            f"v.P attained by an exactly feasible P in F (gap <= {fmt(worst_gap, 3)}); the solver's maximiser over "
            "F, made exactly feasible, never exceeds it; minimising (21) over the full w agrees within 1e-5: "
            f"{bool(worst_dual < 1e-5)}", **ev,
            certificate_covers=covers(len(certified), len(rows), "brackets: the witness W is exactly in F (W >= 0, "
                                      "sum W = 1, chi^2(W || P_hat) <= B) and eq. (21) at the engine's (w = M 1, c), "
                                      "as exact rationals, is within 1e-30 of v.W (arb); that (21) bounds "
                                      "delta*(v|F) from above at every feasible (w, c) is the paper's weak duality, "
                                      "not re-checked; the cvxpy comparisons carry none"),
            **built(_certificates, certified))
    return Outcome.inconclusive("eq. (21) is not attained within 1e-30 by the exact witness", **ev)


TOL = Fraction(1, 10**30)


def _certificates(instances) -> list[dict]:
    """Per instance (v, P_hat, B, W, M, c): one exact certificate that W is in F, one arb certificate that
    eq. (21) at (w = M 1, c) lies within 1e-30 of v.W."""
    docs = []
    for i, (v, P_hat, B, W, M, c) in enumerate(instances):
        binds, w = [[f"w{j}", x] for j, x in enumerate(W)], [f"$w{j}" for j in range(len(W))]
        chi = ["-", ["+", *[["/", q * q, x] for x, q in zip(w, P_hat, strict=True) if q != 0]], 1]
        docs.append(all_nonneg(f"instance {i}: W in F (B = {B})", [*w, ["-", B, chi], ["-", ["+", *w], 1],
                                                                   ["-", 1, ["+", *w]]], binds=binds))
        # the engine's M is a 50-digit float: where the minimiser is w = max v it may sit a rounding below max v
        # (its own check compares in floats); w = max v is then the feasible point meant
        M = max(M, max(v))
        if c < 0:
            raise ValueError(f"instance {i}: c = {c} < 0 is not feasible for (21)")
        eq21 = ["+", ["*", -2, ["sqrt", c], ["+", 0, *[["*", p, ["sqrt", M - x]] for p, x in zip(P_hat, v, strict=True)
                                                        if p != 0]]], M, ["*", c, B + 1]]
        docs.append(value_certificate(f"instance {i}: eq. (21) at (w = M 1, c) - v.W in [-1e-30, 1e-30]",
                                      ["-", eq21, dot(v, W)], lower=-TOL, upper=TOL))
    return docs


_COMMON = dict(
    paper=PAPER,
    source="Sec. IV-A, Theorem 2, eq. (21); proof in App. C, eqs. (51)-(60)",
    statement=("delta*(v|F) = min_{w >= v, c >= 0} { -2 sqrt(c) sum_{s,u} P_hat_{s,u} sqrt(w_{s,u} - v_{s,u}) "
               "+ max w + c (B + 1) } for the chi-square ball F of eq. (2)"),
    hypotheses=("B > 0", "P_hat a probability vector (zero cells allowed)"),
    method=(Method.HIGH_PRECISION, Method.EXACT, Method.PROPERTY),
)


@claim(id="isit.thm2.support-ball", **_COMMON)
def check(ctx):
    return run(ctx, 12, "isit.thm2")


@claim(id="isit.thm2.support-ball-exhaustive", slow=True, **_COMMON)
def check_slow(ctx):
    return run(ctx, 150, "isit.thm2.slow")


@claim(
    id="isit.thm2.eq59-stationary-point",
    paper=PAPER,
    source="App. C, proof of Theorem 2, eqs. (58)-(60)",
    statement=("the maximiser of x z - P_hat^2 / x (z < 0) is x = P_hat^2 / sqrt(-z), giving "
               "g*(z) = -2 sqrt(-z) P_hat"),
    hypotheses=("z < 0", "P_hat > 0"),
    method=Method.SYMBOLIC,
)
def check_eq59(ctx):
    import sympy as sp

    x, p, y = sp.symbols("x p y", positive=True)  # z = -y
    z = -y
    obj = x * z - p**2 / x
    printed = p**2 / sp.sqrt(y)
    stat = sp.solve(sp.diff(obj, x), x)
    ours = [s for s in stat if s.is_positive is not False]
    value = sp.simplify(obj.subs(x, ours[0]))
    residual = sp.simplify(sp.diff(obj, x).subs(x, printed))
    value_ok = sp.simplify(value - (-2 * sp.sqrt(y) * p)) == 0
    inst = {p: sp.Rational(1, 2), y: 1}
    if residual != 0:
        from rldp_verify.certificates.claims import built
        from rldp_verify.certificates.identity import refutation_certificate

        certs = built(refutation_certificate, "isit.thm2.eq59-stationary-point: (59) at the printed x, P_hat = 1/2, "
                      "z = -1", sp.diff(obj, x).subs(x, printed), 0, inst)
        certs["certificate_covers"] = ("the printed stationary point's non-zero derivative; not the corrected point "
                                       "and value (sympy evaluates them to 0 as it builds them)")
        return Outcome.refuted(
            "the printed stationary point does not solve (59); the correct one is x = P_hat/sqrt(-z), "
            f"and with it the conjugate (60) g*(z) = -2 sqrt(-z) P_hat is right ({value_ok})",
            counterexample={"P_hat": "1/2", "z": "-1", "printed_x": str(printed.subs(inst)),
                            "derivative_at_printed_x": str(residual.subs(inst)),
                            "correct_x": str(ours[0].subs(inst))},
            correct_stationary_point=str(ours[0]), conjugate=str(value), conjugate_60_correct=value_ok, kind="misprint",
            **certs)
    return Outcome.verified("printed stationary point solves (59)", conjugate=str(value))
