"""Lemma A6 (App. A.2) of 000_aca93ed29ea857ee.txt: the l1 radius of a Rényi ball.

    sup_{P in F} ||P - P^||_1 = 2 max_{X1 subset X} P^_{X1} (xi+(P^_{X1}) - 1)
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import mpmath
import sympy as sp

from proofs.rldp._sec34 import PAPER, nstr, rand_dist, slsqp_max
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.rldp.uncertainty import SimplexBall, t_interval


def _check(ctx, count, salt):
    rng, nprng = ctx.rng(salt), ctx.np_rng(salt)
    rows, worst = [], 0.0
    for k in range(count):
        m = rng.choice((2, 3, 4))
        alpha = rng.choice((Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4)))
        center = rand_dist(rng, m, zeros=(k % 5 == 4))
        B = Fraction(rng.randint(1, 600), 1000)
        formula = SimplexBall(tuple(center), alpha, B).l1_radius(dps=30, exhaustive=True)
        direct = 0.0
        for r in range(1, m):
            for X1 in combinations(range(m), r):
                v, _ = slsqp_max(center, alpha, B, lambda P, X1=X1: 2 * sum(P[i] - float(center[i]) for i in X1),
                                 nprng, starts=3)
                direct = max(direct, v)
        worst = max(worst, abs(direct - float(formula)))
        rows.append({"alpha": str(alpha), "P^": [str(v) for v in center], "B": str(B),
                     "formula": nstr(formula, 10), "direct": f"{direct:.10g}"})
    if worst > 1e-5:
        return Outcome.inconclusive(f"SLSQP differs from eq. (A6) by {worst:.2e} on some instance", instances=rows)
    return Outcome.verified(f"{len(rows)} random balls: SLSQP maximum of ||P - P^||_1 (one linear programme per sign "
                            f"pattern) equals 2 max_X1 P^_X1 (xi+ - 1) within {worst:.1e}",
                            max_difference=f"{worst:.3e}", instances=rows[:30])


@claim(
    id="rldp.lemma-a6.l1-radius",
    paper=PAPER,
    source="App. A.2, Lemma A6, eqs. (A42)-(A50)",
    statement="sup_{P in F} ||P - P^||_1 = 2 max_{X1 subset X} P^_{X1} (xi+(P^_{X1}) - 1).",
    hypotheses=("F = {P : D_alpha(P^||P) <= B}", "alpha in (0, inf)"),
    method=(Method.PROPERTY, Method.HIGH_PRECISION),
    reading="xi+ over [1, 1/rho] (rldp.sec42.xi-plus-domain).",
)
def check_a6(ctx):
    return _check(ctx, 4, "lemma-a6")


@claim(
    id="rldp.lemma-a6.l1-radius-sweep",
    paper=PAPER,
    source="App. A.2, Lemma A6",
    statement="sup_{P in F} ||P - P^||_1 = 2 max_{X1} P^_{X1}(xi+(P^_{X1}) - 1) (larger random sweep).",
    hypotheses=("alpha in (0, inf)",),
    method=(Method.PROPERTY, Method.HIGH_PRECISION),
    slow=True,
)
def check_a6_sweep(ctx):
    return _check(ctx, 18, "lemma-a6.sweep")


@claim(
    id="rldp.lemma-a6.a47-a50",
    paper=PAPER,
    source="App. A.2, eqs. (A47)-(A50)",
    statement="With P_x = xi P^_x on X1 and psi P^_x on X2, psi = (1 - rho xi)/(1 - rho): "
              "||P - P^||_1 = rho(xi - 1) + (1 - rho)(1 - psi) = 2 rho (xi - 1).",
    hypotheses=("rho = P^_{X1} < 1",),
    method=Method.SYMBOLIC,
)
def check_a47(ctx):
    rho, xi = sp.symbols("rho xi", positive=True)
    psi = (1 - rho * xi) / (1 - rho)
    ok = sp.simplify(rho * (xi - 1) + (1 - rho) * (1 - psi) - 2 * rho * (xi - 1)) == 0
    if ok:
        return Outcome.verified("sympy: rho(xi-1) + (1-rho)(1-psi) - 2 rho(xi-1) simplifies to 0")
    return Outcome.refuted("identity fails", counterexample="sympy")


@claim(
    id="rldp.lemma-a6.objective-concave",
    paper=PAPER,
    source="App. A.3, proof of Lemma A7 ('(A53) is concave in rho'), generalised to every alpha",
    statement="rho -> rho (xi+(rho) - 1) = t+(rho) - rho is concave on [0, 1].",
    hypotheses=("alpha in (0, inf)", "B > 0"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="The paper states concavity for alpha = 2 only; the engine's fast rad_s search relies on it for every "
            "alpha (joint quasi-convexity of D_alpha), so we check it on a grid for several orders.",
    slow=True,
)
def check_concave(ctx):
    worst, where, n = mpmath.mpf(1), None, 0
    with working_precision(25):
        for alpha in (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5)):
            for B in (Fraction(1, 100), Fraction(1, 5), Fraction(1), Fraction(4)):
                h = Fraction(1, 40)
                g = [t_interval(k * h, alpha, B, dps=25)[1] - to_mpf(k * h) for k in range(41)]
                for k in range(1, 40):
                    d2 = g[k - 1] - 2 * g[k] + g[k + 1]
                    n += 1
                    if d2 > -worst and d2 > 0 and (where is None or d2 > where[-1]):
                        where = (str(alpha), str(B), str(k * h), d2)
                    worst = min(worst, -d2)
    if where is not None and where[-1] > mpmath.mpf(10) ** -20:
        return Outcome.refuted(f"second difference {nstr(where[-1], 3)} > 0 at alpha, B, rho = {where[:3]}",
                               counterexample={"alpha": where[0], "B": where[1], "rho": where[2],
                                               "second_difference": nstr(where[-1], 10)})
    return Outcome.verified(f"all {n} second differences of t+(rho) - rho on a grid of step 1/40 are <= 0 "
                            "(6 orders, 4 radii)", grid_points=n)
