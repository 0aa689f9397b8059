"""Lemma A5 (App. A.2) of 000_aca93ed29ea857ee.txt: extreme coordinates of a Rényi ball.

    min_{P in F} P_x = P^_x xi-(P^_x),   max_{P in F} P_x = P^_x xi+(P^_x)
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.uncertainty import SimplexBall

from ._certified import ETA, RowProblem, decide
from ._sec34 import PAPER, nstr, rand_dist


def _check(ctx, count, salt):
    """Certified (proofs.rldp._certified with one row): min and max of P_x over the ball equal the engine's
    P^_x xi-+(P^_x) within 1e-20 -- rational witnesses (t, psi P^_rest) certified in the ball (arb) and
    exclusions by data processing (merge to (x, rest)) and monotonicity of the binary divergence."""
    rng = ctx.rng(salt)
    rows, undecided, agreed = [], [], []
    for k in range(count):
        m = rng.choice((2, 3, 4))
        alpha = rng.choice((Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4)))
        center = rand_dist(rng, m, zeros=(k % 5 == 4))
        B = Fraction(rng.randint(1, 800), 1000)
        ball = SimplexBall(tuple(center), alpha, B)
        prob = RowProblem([center], 0, alpha, B, dps=ctx.dps)
        for x in range(m):
            tm, tp = ball.coordinate_interval(x, dps=30)
            inst = {"alpha": str(alpha), "P^": [str(v) for v in center], "B": str(B), "x": x}
            for name, value, side, sense in (("min P_x", tm, "min", "inf"), ("max P_x", tp, "max", "sup")):
                status, detail = decide(value, ETA, lambda t, side=side: prob.coordinate_feasible(x, t, side),
                                        lambda t, side=side: prob.coordinate_infeasible(x, t, side), sense=sense)
                rows.append({**inst, "quantity": name, "formula": nstr(value, 15), "status": status})
                if status == "larger":
                    return Outcome.refuted(
                        f"{name} = P^_x xi-+(P^_x) = {nstr(value, 15)}, but a rational P certified in the ball has "
                        f"P_x {'<=' if side == 'min' else '>='} {detail['witness_level_decimal']}",
                        counterexample={**inst, "quantity": name, **detail}, kind="false")
                if status == "smaller":
                    return Outcome.refuted(
                        f"{name} = P^_x xi-+(P^_x) = {nstr(value, 15)} is not attained: certified that no P in the "
                        f"ball has P_x {'<=' if side == 'min' else '>='} {detail['excluded_level_decimal']}",
                        counterexample={**inst, "quantity": name, **detail}, kind="false")
                if status == "undecided":
                    undecided.append(rows[-1])
                if status == "agrees":
                    agreed.append((prob, side, detail, x))
    if undecided:
        return Outcome.inconclusive(f"{len(undecided)} of {len(rows)} values not decided in arb", undecided=undecided[:10])
    return Outcome.verified(f"{len(rows)} extreme coordinates of {count} random balls (orders 1/2..4, zero cells "
                            "included) certified to equal P^_x xi-+(P^_x) within 1e-20 (rational witnesses "
                            "(t, psi P^_rest) certified in the ball; exclusions by data processing)",
                            values=len(rows), instances=rows[:30], tolerance="1e-20", **_certificates(agreed))


def _certificates(agreed) -> dict:
    """Issue 23: the rigorous-value certificates of every decision (proofs.rldp._certified.agreement_certificates)."""
    from rldp_verify.certificates.claims import built

    from ._certified import agreement_certificates

    return built(lambda: [d for prob, q, detail, u in agreed for d in agreement_certificates(prob, q, detail, u=u)])


@claim(
    id="rldp.lemma-a5.extreme-coordinates",
    paper=PAPER,
    source="App. A.2, Lemma A5, eqs. (A28)-(A41)",
    statement="min_{P in F} P_x = P^_x xi-(P^_x) and max_{P in F} P_x = P^_x xi+(P^_x).",
    hypotheses=("F = {P : D_alpha(P^||P) <= B}", "alpha in (0, inf)"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="xi+ is taken over [1, 1/rho] (see rldp.sec42.xi-plus-domain); 'max_{P in F} = ' is read as max P_x.",
)
def check_a5(ctx):
    return _check(ctx, 10, "lemma-a5")


@claim(
    id="rldp.lemma-a5.extreme-coordinates-sweep",
    paper=PAPER,
    source="App. A.2, Lemma A5",
    statement="min/max_{P in F} P_x = P^_x xi-+(P^_x) (larger random sweep).",
    hypotheses=("alpha in (0, inf)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="xi+ is taken over [1, 1/rho].",
    slow=True,
)
def check_a5_sweep(ctx):
    return _check(ctx, 80, "lemma-a5.sweep")
