"""Lemma A5 (App. A.2) of 000_aca93ed29ea857ee.txt: extreme coordinates of a Rényi ball.

    min_{P in F} P_x = P^_x xi-(P^_x),   max_{P in F} P_x = P^_x xi+(P^_x)
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from proofs.rldp._sec34 import PAPER, nstr, rand_dist, slsqp_max
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.rldp.uncertainty import SimplexBall


def _check(ctx, count, salt):
    rng, nprng = ctx.rng(salt), ctx.np_rng(salt)
    rows, worst, wit_fail = [], 0.0, None
    n_boundary = 0
    for k in range(count):
        m = rng.choice((2, 3, 4))
        alpha = rng.choice((Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4)))
        center = rand_dist(rng, m, zeros=(k % 5 == 4))
        B = Fraction(rng.randint(1, 800), 1000)
        ball = SimplexBall(tuple(center), alpha, B)
        x = rng.randrange(m)
        tm, tp = ball.coordinate_interval(x, dps=30)
        lo, _ = slsqp_max(center, alpha, B, lambda P: -P[x], nprng, starts=5)
        hi, _ = slsqp_max(center, alpha, B, lambda P: P[x], nprng, starts=5)
        err = max(abs(-lo - float(tm)), abs(hi - float(tp)))
        worst = max(worst, err)
        rows.append({"alpha": str(alpha), "P^": [str(v) for v in center], "B": str(B), "x": x,
                     "min_formula": nstr(tm, 10), "min_direct": f"{-lo:.10g}",
                     "max_formula": nstr(tp, 10), "max_direct": f"{hi:.10g}"})
        # the extremal points (t, psi P^_rest) are in the ball, at high precision (witnesses for attainment)
        with working_precision(ctx.dps):
            for t in ball.coordinate_interval(x, dps=ctx.dps):
                rho = to_mpf(center[x])
                if rho in (0, 1):
                    continue
                psi = (1 - t) / (1 - rho)
                P = [t if i == x else psi * to_mpf(v) for i, v in enumerate(center)]
                if renyi_divergence(center, P, alpha, dps=ctx.dps) > to_mpf(B) + mpmath.mpf(10) ** (-(ctx.dps - 10)):
                    wit_fail = rows[-1]
                n_boundary += 1
    if wit_fail is not None:
        return Outcome.refuted("an extremal point of Lemma A5 lies outside the ball", counterexample=wit_fail)
    if worst > 1e-5:
        return Outcome.inconclusive(f"SLSQP differs from P^_x xi-+ by {worst:.2e} on some instance", instances=rows)
    return Outcome.verified(f"{len(rows)} random balls (orders 1/2..4, zero cells included): SLSQP min/max of P_x agree "
                            f"with P^_x xi-+(P^_x) within {worst:.1e}; the {n_boundary} extremal points "
                            "(t, psi P^_rest) lie in the ball at high precision", max_difference=f"{worst:.3e}",
                            instances=rows[:30])


@claim(
    id="rldp.lemma-a5.extreme-coordinates",
    paper=PAPER,
    source="App. A.2, Lemma A5, eqs. (A28)-(A41)",
    statement="min_{P in F} P_x = P^_x xi-(P^_x) and max_{P in F} P_x = P^_x xi+(P^_x).",
    hypotheses=("F = {P : D_alpha(P^||P) <= B}", "alpha in (0, inf)"),
    method=(Method.PROPERTY, Method.HIGH_PRECISION),
    reading="xi+ is taken over [1, 1/rho] (see rldp.sec42.xi-plus-domain); 'max_{P in F} = ' is read as max P_x.",
)
def check_a5(ctx):
    return _check(ctx, 8, "lemma-a5")


@claim(
    id="rldp.lemma-a5.extreme-coordinates-sweep",
    paper=PAPER,
    source="App. A.2, Lemma A5",
    statement="min/max_{P in F} P_x = P^_x xi-+(P^_x) (larger random sweep).",
    hypotheses=("alpha in (0, inf)",),
    method=(Method.PROPERTY, Method.HIGH_PRECISION),
    reading="xi+ is taken over [1, 1/rho].",
    slow=True,
)
def check_a5_sweep(ctx):
    return _check(ctx, 80, "lemma-a5.sweep")
