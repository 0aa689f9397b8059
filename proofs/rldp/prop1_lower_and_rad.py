"""Proposition 1 (Sec. 4.2, eqs. (29)-(30)) of 000_aca93ed29ea857ee.txt, checked against F itself.

    L_{u|s}(F) = P^_{u|s} xi-(P^_{u|s}),   rad_s(F) = 2 max_{U1} P^_{U1|s} (xi+(P^_{U1|s}) - 1)
with xi-+ computed for radius B_s (Theorem 1).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from proofs.rldp._sec34 import PAPER, flat, nstr, rand_table, slsqp_max
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.uncertainty import RenyiBall


def _check(ctx, count, salt):
    rng, nprng = ctx.rng(salt), ctx.np_rng(salt)
    rows, worst = [], 0.0
    for k in range(count):
        a1, a2 = rng.choice((2, 3)), rng.choice((2, 3))
        alpha = rng.choice((Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)))
        phat = rand_table(rng, a1, a2)
        B = Fraction(rng.randint(1, 300), 1000) if alpha >= 1 else Fraction(rng.randint(1, 40), 1000)
        ball = RenyiBall.from_radius(phat, alpha, B)
        s = rng.randrange(a1)
        if ball.conditional_radius(s, dps=30) == float("inf"):
            continue
        center = flat(phat)
        cond = [float(v) for v in ball.conditional(s)]

        def cnd(P, u):
            row = P[s * a2:(s + 1) * a2]
            return row[u] / row.sum()

        u = rng.randrange(a2)
        L = ball.lower_value(u, s, dps=30)
        lo, _ = slsqp_max(center, alpha, B, lambda P: -cnd(P, u), nprng, starts=4)
        rad = ball.rad_value(s, dps=30)
        rd = 0.0
        for r in range(1, a2):
            for U1 in combinations(range(a2), r):
                v, _ = slsqp_max(center, alpha, B, lambda P, U1=U1: 2 * sum(cnd(P, i) - cond[i] for i in U1),
                                 nprng, starts=3)
                rd = max(rd, v)
        err = max(abs(-lo - float(L)), abs(rd - float(rad)))
        worst = max(worst, err)
        rows.append({"alpha": str(alpha), "B": str(B), "phat": [[str(v) for v in r] for r in phat], "s": s, "u": u,
                     "L_formula": nstr(L, 10), "L_direct": f"{-lo:.10g}", "rad_formula": nstr(rad, 10),
                     "rad_direct": f"{rd:.10g}"})
    if worst > 1e-5:
        return Outcome.inconclusive(f"direct optimisation over F differs by {worst:.2e} on some instance", instances=rows)
    return Outcome.verified(f"{len(rows)} random (P^, alpha, B): min_(P in F) P_(u|s) and max_(P in F) "
                            "||P_(U|s) - P^_(U|s)||_1 by SLSQP over F itself agree with eqs. (29)-(30) "
                            f"within {worst:.1e}", max_difference=f"{worst:.3e}", instances=rows[:30])


@claim(
    id="rldp.prop1.lower-and-rad",
    paper=PAPER,
    source="Sec. 4.2, Proposition 1, eqs. (29)-(30)",
    statement="L_{u|s}(F) = P^_{u|s} xi-(P^_{u|s}) and rad_s(F) = 2 max_{U1 subset U} P^_{U1|s}(xi+(P^_{U1|s}) - 1), "
              "with xi-+ for radius B_s.",
    hypotheses=("P^_s > 0", "alpha in {1/2, 1, 2, 3}"),
    method=(Method.PROPERTY, Method.HIGH_PRECISION),
    reading="xi+ over [1, 1/rho] (rldp.sec42.xi-plus-domain).",
)
def check_prop1(ctx):
    return _check(ctx, 3, "prop1")


@claim(
    id="rldp.prop1.lower-and-rad-sweep",
    paper=PAPER,
    source="Sec. 4.2, Proposition 1",
    statement="Eqs. (29)-(30) agree with direct optimisation over F (larger random sweep).",
    hypotheses=("P^_s > 0",),
    method=(Method.PROPERTY, Method.HIGH_PRECISION),
    slow=True,
)
def check_prop1_sweep(ctx):
    return _check(ctx, 14, "prop1.sweep")
