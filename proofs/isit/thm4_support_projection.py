"""Theorem 4 (eq. 29): the support function of the joint projection F_{U|s1,s2}, checked against
direct optimisation over the full ball F (003, Sec. IV-B and Appendix C)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.topics.chisquare.ball import (
    chi2_divergence,
    joint_objective,
    joint_projection_bound,
    lift_to_ball,
    support_joint_projection,
)

from ._common import PAPER, fmt, random_joint, rational_table


def _cvx_over_28(v1, v2, a1, a2, C):
    """max v1.R1 + v2.R2 over the set (28), written with 3-d power cones (cvxpy/Clarabel)."""
    import cvxpy as cp

    nU = len(v1)
    a1, a2 = np.asarray(a1, float), np.asarray(a2, float)
    R = [cp.Variable(nU, nonneg=True) for _ in range(2)]
    y = [cp.Variable(nU, nonneg=True) for _ in range(2)]
    t = cp.Variable(2, nonneg=True)
    cons = [cp.sum(R[0]) == 1, cp.sum(R[1]) == 1, cp.sum(t) <= C]
    for i, a in enumerate((a1, a2)):
        cons.append(cp.sum(y[i]) <= t[i])
        for u in range(nU):  # a_u^2 / R_u <= y_u t_i  <=>  (y_u R_u t_i)^(1/3) >= a_u^(2/3)
            if a[u] > 0:
                cons.append(cp.geo_mean(cp.hstack([y[i][u], R[i][u], t[i]])) >= a[u] ** (2 / 3))
    prob = cp.Problem(cp.Maximize(np.asarray(v1, float) @ R[0] + np.asarray(v2, float) @ R[1]), cons)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prob.solve(solver="CLARABEL")
    return prob.value


def _slsqp_full_ball(v1, v2, P_hat, B, s1, s2, rng, starts):
    """Direct (non-convex) maximisation of v1.P_{U|s1} + v2.P_{U|s2} over P in F by SLSQP from
    random feasible starts. Every returned point is re-checked: pulled towards P_hat until its
    chi-square divergence is <= B at 50 digits; the value of the re-checked point is returned."""
    from scipy.optimize import minimize

    P_hat = np.asarray(P_hat, float)
    shape = P_hat.shape
    hat = P_hat.ravel()
    m = hat > 0
    v1, v2 = np.asarray(v1, float), np.asarray(v2, float)

    def f(x):
        P = x.reshape(shape)
        return -(v1 @ P[s1] / P[s1].sum() + v2 @ P[s2] / P[s2].sum())

    def grad(x):
        P = x.reshape(shape)
        g = np.zeros(shape)
        for s, v in ((s1, v1), (s2, v2)):
            tot = P[s].sum()
            g[s] = -(v - v @ P[s] / tot) / tot
        return g.ravel()

    def con(x):
        return float(B) + 1 - np.sum(hat[m] ** 2 / np.maximum(x[m], 1e-300))

    def con_jac(x):
        j = np.zeros(hat.size)
        j[m] = hat[m] ** 2 / np.maximum(x[m], 1e-300) ** 2
        return j

    cons = [{"type": "eq", "fun": lambda x: x.sum() - 1, "jac": lambda x: np.ones(hat.size)},
            {"type": "ineq", "fun": con, "jac": con_jac}]
    best = -math.inf
    for _ in range(starts):
        x0 = 0.7 * hat + 0.3 * rng.dirichlet(np.ones(hat.size))
        while np.sum(hat[m] ** 2 / x0[m]) > float(B) + 1:
            x0 = 0.5 * x0 + 0.5 * hat
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = minimize(f, x0, jac=grad, method="SLSQP", constraints=cons, bounds=[(1e-12, 1)] * hat.size,
                         options={"maxiter": 300, "ftol": 1e-12})
        x = np.clip(r.x, 1e-15, None)
        x = x / x.sum()
        with mpmath.workdps(50):
            hq = [to_mpf(Fraction(float(h))) for h in hat]
            for theta in [0] + [2.0 ** -k for k in range(40, 0, -1)]:
                P = [(1 - theta) * mpmath.mpf(xi) + theta * h for xi, h in zip(x, hq, strict=True)]
                tot = mpmath.fsum(P)
                P = [p / tot for p in P]
                if chi2_divergence(P, hq) <= B:
                    break
            else:
                continue
            P = np.array([[P[s * shape[1] + u] for u in range(shape[1])] for s in range(shape[0])])
            val = (mpmath.fsum(a * b for a, b in zip(v1, P[s1], strict=True)) / mpmath.fsum(P[s1])
                   + mpmath.fsum(a * b for a, b in zip(v2, P[s2], strict=True)) / mpmath.fsum(P[s2]))
        best = max(best, val)
    return best


def run(ctx, n_instances, salt, starts):
    rng = ctx.np_rng(salt)
    rows, worst_gap, worst_excess, worst_cvx = [], mpmath.mpf(0), -mpmath.inf, 0.0
    brackets: list = []
    with working_precision(ctx.dps):
        for k in range(n_instances):
            nS, nU = int(rng.integers(2, 5)), int(rng.integers(2, 6))
            Pq = rational_table(random_joint(rng, nS, nU, zeros=(k % 4 == 3)))
            P_hat = np.array([[float(x) for x in r] for r in Pq])
            Bq = [Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1)][k % 4]
            B = to_mpf(Bq)
            s1, s2 = 0, 1
            if k % 2 == 0:  # the privacy constraint of Lemma 2: v1 = P_{y|s1,.}, v2 = -e^eps P_{y|s2,.}
                eps = [0, 0.5, 1][k % 3]
                v1 = [Fraction(x).limit_denominator(10**6) for x in rng.uniform(0, 1, nU)]
                v2 = [-Fraction(math.exp(eps) * x).limit_denominator(10**6) for x in rng.uniform(0, 1, nU)]
            else:
                v1 = [Fraction(x).limit_denominator(10**6) for x in rng.normal(size=nU)]
                v2 = [Fraction(x).limit_denominator(10**6) for x in rng.normal(size=nU)]
            a1, a2 = Pq[s1], Pq[s2]
            res = support_joint_projection(v1, v2, a1, a2, Bq)
            value = joint_objective(v1, v2, [res.M1] * nU, [res.M2] * nU, res.c, a1, a2, Bq)
            # attained value: lift of the closed form's maximiser, nudged inside, checked in F
            hat1 = [x / sum(a1) for x in a1]
            hat2 = [x / sum(a2) for x in a2]
            theta = mpmath.mpf(10) ** (-(ctx.dps // 2))
            R1 = [(1 - theta) * r + theta * to_mpf(h) for r, h in zip(res.R1, hat1, strict=True)]
            R2 = [(1 - theta) * r + theta * to_mpf(h) for r, h in zip(res.R2, hat2, strict=True)]
            P = lift_to_ball(R1, R2, Pq, s1, s2)
            chi = chi2_divergence([x for r in P for x in r], [x for r in Pq for x in r])
            attained = (mpmath.fsum(to_mpf(a) * b for a, b in zip(v1, R1, strict=True))
                        + mpmath.fsum(to_mpf(a) * b for a, b in zip(v2, R2, strict=True)))
            in_F = chi <= B
            gap = value - attained if in_F else mpmath.inf
            if in_F:
                brackets.append((Pq, Bq, v1, v2, res.M1, res.M2, res.c, P, all(x > 0 for x in a1 + a2)))
            direct = _slsqp_full_ball([float(x) for x in v1], [float(x) for x in v2], P_hat, B, s1, s2,
                                      rng, starts)
            excess = direct - value
            cvx = _cvx_over_28([float(x) for x in v1], [float(x) for x in v2], P_hat[s1], P_hat[s2],
                               float(joint_projection_bound(a1, a2, Bq)))
            positive = all(x > 0 for x in a1 + a2)
            if positive:
                worst_gap = max(worst_gap, gap)
            worst_excess = max(worst_excess, excess)
            worst_cvx = max(worst_cvx, abs(cvx - float(value)))
            # float solvers (SLSQP over F, CLARABEL over (28)) only search for a violation or add evidence;
            # their values depend on the machine and are reported as agreement flags (issue 9 item 4)
            rows.append({"nS": nS, "nU": nU, "B": str(Bq), "P_hat_positive": positive,
                         "eq29": fmt(value, 20), "attained_in_F": fmt(attained, 20),
                         "slsqp_not_above_eq29": bool(excess <= 1e-5),
                         "cvxpy_over_28_within_1e-5": bool(abs(cvx - float(value)) < 1e-5)})
            if in_F and attained - value > mpmath.mpf(10) ** -20:
                # a point of F attains more than (29) at a feasible (w, c), which bounds the support function from
                # above if Theorem 4 holds: a certain counterexample (signed gap, never abs())
                return Outcome.refuted(
                    "the lift of a point of the projection, checked in F at 50 digits, attains more than eq. (29) at a "
                    "feasible (w, c)",
                    counterexample={"P_hat": [[str(x) for x in r] for r in Pq], "B": str(Bq),
                                    "v1": [str(x) for x in v1], "v2": [str(x) for x in v2],
                                    "eq29": fmt(value, 20), "attained_in_F": fmt(attained, 20)},
                    instances=rows, kind="false")
            if excess > mpmath.mpf(10) ** -20:
                return Outcome.refuted(
                    "a point of F (re-checked at 50 digits) beats the value of eq. (29)",
                    counterexample={"P_hat": [[str(x) for x in r] for r in Pq], "B": str(Bq),
                                    "v1": [str(x) for x in v1], "v2": [str(x) for x in v2],
                                    "eq29": fmt(value, 20), "direct": fmt(direct, 20)}, instances=rows, kind="false")
    ev = dict(max_gap_eq29_vs_attained=fmt(worst_gap, 5),
              slsqp_never_above_eq29_by_1e_5=bool(worst_excess < 1e-5), cvxpy_28_within_1e_5=bool(worst_cvx < 1e-5),
              slsqp_starts=starts, sample=rows[:8], dps=ctx.dps,
              note=("eq. (71) as printed omits the factor c in front of h_i*(t_i/c) (claim "
                    "isit.thm4.eq71-as-printed); eq. (29) is the correctly scaled form. Upper side: the objective "
                    "of (29) at any feasible (w, c) bounds the support function from above (weak duality), so the "
                    "value at the solver's point is an upper bound; lower side: a point of F attains it."))
    ev.update(_thm4_evidence(brackets[:THM4_CAP], n_instances))
    if worst_gap < mpmath.mpf(10) ** -20:
        return Outcome.verified(
            f"{n_instances} random instances: the value of eq. (29) at its minimiser (an upper bound of the support "
            "function by weak duality) is attained by a re-checked point of F (the lift (33) of its maximiser; "
            f"gap <= {fmt(worst_gap, 3)} where P_hat > 0); {starts}-start SLSQP over the full ball F finds no point "
            "above it (each re-checked at 50 digits); the convex program over (28) agrees within 1e-5: "
            f"{bool(worst_cvx < 1e-5)}", **ev)
    return Outcome.inconclusive("eq. (29) is not attained within 1e-20 by the lift of its maximiser", **ev)


THM4_CAP = 10


def thm4_certificates(brackets) -> list[dict]:
    """At each instance (P^, B, v1, v2 exact; the engine's M1, M2, c and the lift P of its nudged maximisers: mpf,
    taken as the binary rationals they are): exactly, W = P / sum P is a distribution in F (W >= 0, chi2 = sum (P^ -
    W)^2/W <= B, 0/0 = 0); in arb, 0 <= (29) at (w_i = M_i 1, c) - (v1.R1 + v2.R2), R_i = W_(.|s_i) the exact
    conditionals of W, and <= 1e-20 where P^_(s1), P^_(s2) > 0, with (29)'s objective -(2^(-2/3) + 2^(1/3))
    c^(2/3) sum_i lambda_i^(2/3) + M1 + M2 + c C, lambda_i = sum_u P^_(s_i,u) sqrt(M_i - v_i(u)), C = sqrt(B + 1) - 1 +
    P^_(s1) + P^_(s2) (eq. (66)). With weak duality ((29) at a feasible (w, c) bounds the support function from above;
    M_i is raised to max v_i where the engine's rounded value lies below it, so w_i >= v_i holds exactly) this brackets delta*(v1, v2 | F_(U|s1,s2)) within 1e-20 of (29)."""
    from rldp_verify.certificates.instances_other import all_nonneg
    from rldp_verify.certificates.series import exact_number

    exact_terms, bracket = [], []
    for Pq, Bq, v1, v2, M1, M2, c, P, positive in brackets:
        # any feasible (w, c) bounds the support from above: the engine's M_i rounded below max v_i (by 10^-50)
        # is raised to max v_i, a negative c to 0
        M = [max(exact_number(M1), max(v1)), max(exact_number(M2), max(v2))]
        cq = max(exact_number(c), Fraction(0))
        W = [[exact_number(x) for x in r] for r in P]
        tot = sum(sum(r) for r in W)
        W = [[x / tot for x in r] for r in W]
        chi = ["+", 0, *[["/", ["pow", ["-", h, w], 2], w] for rh, rw in zip(Pq, W, strict=True)
                         for h, w in zip(rh, rw, strict=True) if w != 0 or h != 0]]
        exact_terms += [*[x for r in W for x in r], ["-", Bq, chi]]
        R = [[x / sum(W[s]) for x in W[s]] for s in (0, 1)]
        vR = ["+", *[["*", a, b] for v, r in zip((v1, v2), R, strict=True) for a, b in zip(v, r, strict=True)]]
        lam = [["+", 0, *[["*", a, ["sqrt", M[i] - x]] for a, x in zip(Pq[i], (v1, v2)[i], strict=True) if a]]
               for i in (0, 1)]
        C = ["+", ["sqrt", Bq + 1], -1, sum(Pq[0]), sum(Pq[1])]
        K = ["+", ["pow", 2, Fraction(-2, 3)], ["pow", 2, Fraction(1, 3)]]
        main = 0 if cq == 0 else ["*", K, ["pow", cq, Fraction(2, 3)], ["+", *[["pow", x, Fraction(2, 3)] for x in lam]]]
        obj = ["+", ["-", 0, main], M[0], M[1], ["*", cq, C]]
        bracket.append(["-", obj, vR])
        if positive:
            bracket.append(["-", Fraction(1, 10**20), ["-", obj, vR]])
    return [all_nonneg(f"Theorem 4: the lifts W of {len(brackets)} instances are in F (W >= 0, chi2(P^, W) <= B), "
                       "exactly", exact_terms),
            all_nonneg(f"Theorem 4: 0 <= (29) at the engine's (w, c) - (v1.R1 + v2.R2) (<= 1e-20 where P^_(s_i) > 0) "
                       f"at {len(brackets)} instances", bracket, exact=False)]


def _thm4_evidence(brackets, total: int) -> dict:
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import covers

    return {"certificate_covers": covers(len(brackets), total, "brackets of the support function: the lift of the "
                                         "engine's nudged maximisers in F exactly (its conditionals R_i), and (29) at "
                                         "the engine's (w, c) above v1.R1 + v2.R2 by at most 1e-20 where P^_(s1), "
                                         "P^_(s2) > 0 (with weak duality: (29) within 1e-20 of delta*); not the float "
                                         "SLSQP and cvxpy searches", chosen=len(brackets) < total),
            **built(thm4_certificates, brackets)}


_COMMON = dict(
    paper=PAPER,
    source="Sec. IV-B, Theorem 4, eq. (29); proof in App. C, eqs. (61)-(71)",
    statement=("delta*(v1, v2 | F_{U|s1,s2}) = min_{c >= 0, w_i >= v_i} { -(2^{-2/3} + 2^{1/3}) c^{2/3} "
               "sum_i (sum_u P_hat_{s_i,u} sqrt(w_i(u) - v_i(u)))^{2/3} + sum_i max_u w_i(u) "
               "+ c (sqrt(B+1) - 1 + sum_i P_hat_{s_i}) }"),
    hypotheses=("B > 0", "P_hat_{s1}, P_hat_{s2} > 0"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)


@claim(id="isit.thm4.support-projection", **_COMMON)
def check(ctx):
    return run(ctx, 3, "isit.thm4", starts=3)


@claim(id="isit.thm4.support-projection-exhaustive", slow=True, **_COMMON)
def check_slow(ctx):
    return run(ctx, 30, "isit.thm4.slow", starts=6)


@claim(
    id="isit.thm4.eq71-as-printed",
    paper=PAPER,
    source="App. C, proof of Theorem 4, eq. (71)",
    statement="delta*(t1, t2 | A) = min_{c >= 0} { h1*(t1/c) + h2*(t2/c) + c C }",
    hypotheses=("h_i as in (64)-(65)", "h_i* as in Lemma 8"),
    method=Method.SYMBOLIC,
    reading="(71) as printed (no factor c in front of h_i*); Lemma 5 (49) has c * sum_j h_j*(v_j/c)",
)
def check_eq71(ctx):
    import sympy as sp

    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.taylor import eq71_certificates

    c, lam, C = sp.symbols("c lambda C", positive=True)
    K = 2 ** sp.Rational(-2, 3) + 2 ** sp.Rational(1, 3)
    # h*(t/c) with lambda(t/c) = lambda(t)/sqrt(c)  (Lemma 8); lambda = sum_i lambda_i^{2/3} folded in
    hstar = -K * (lam / sp.sqrt(c)) ** sp.Rational(2, 3)
    printed = hstar + c * C
    corrected = c * hstar + c * C
    lim_printed = sp.limit(printed, c, 0, "+")
    cstar = sp.solve(sp.diff(corrected, c), c)
    corr_min = sp.simplify(corrected.subs(c, cstar[0]))
    inst = {lam: 1, C: 1}
    return Outcome.refuted(
        "as printed, (71) is unbounded below (-> -inf as c -> 0+) whenever lambda > 0, so it cannot be the "
        "support function; with the factor c of Lemma 5 the minimum is finite and gives eq. (29)",
        counterexample={"lambda_(=sum_u P_hat_u sqrt(w_u - v_u))": 1, "C": 1,
                        "printed_(71)_as_c->0+": str(lim_printed),
                        "corrected_minimum_-lambda^2/C^2": str(corr_min.subs(inst))},
        corrected_minimiser=str(cstar[0]), corrected_minimum=str(corr_min), kind="misprint",
        **built(eq71_certificates, 1, 1),
        certificate_covers="at lambda = C = 1: with c = u^3, u (71)(u^3) = -K lambda^(2/3) + C u^4 is analytic at u = 0 "
                           "with c_0 < 0 (series kind, arb), so (71) -> -inf as c -> 0+; not the rewriting (lambda / "
                           "sqrt(u^3))^(2/3) u = lambda^(2/3) for u > 0 (a power rule), nor Lemma 8's h*")
