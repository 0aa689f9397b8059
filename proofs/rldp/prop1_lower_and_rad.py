"""Proposition 1 (Sec. 4.2, eqs. (29)-(30)) of 000_aca93ed29ea857ee.txt, checked against F itself.

    L_{u|s}(F) = P^_{u|s} xi-(P^_{u|s}),   rad_s(F) = 2 max_{U1} P^_{U1|s} (xi+(P^_{U1|s}) - 1)
with xi-+ computed for radius B_s (Theorem 1).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.uncertainty import RenyiBall

from ._certified import ETA, RowProblem, decide
from ._sec34 import PAPER, nstr, rand_table


def _check(ctx, count, salt):
    """Certified (proofs.rldp._certified): for every row s and cell u, min_(P in F) P_(u|s) = L_(u|s) and
    sup_(P in F) ||P_(U|s) - P^_(U|s)||_1 = rad_s within 1e-20 -- a rational witness P certified in F (arb)
    and a certified exclusion (data processing + the Hölder bound of Theorem 1's proof) on each side."""
    rng = ctx.rng(salt)
    rows, undecided, checks, agreed = [], [], 0, []
    for k in range(count):
        a1, a2 = rng.choice((2, 3)), rng.choice((2, 3, 4))
        alpha = rng.choice((Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)))
        phat = rand_table(rng, a1, a2, zeros=(k % 5 == 4))
        B = Fraction(rng.randint(1, 300), 1000) if alpha >= 1 else Fraction(rng.randint(1, 40), 1000)
        ball = RenyiBall.from_radius(phat, alpha, B)
        for s in range(a1):
            if sum(phat[s]) == 0 or ball.conditional_radius(s, dps=30) == mpmath.inf:
                continue
            prob = RowProblem(phat, s, alpha, B, dps=ctx.dps)
            inst = {"alpha": str(alpha), "B": str(B), "phat": [[str(v) for v in r] for r in phat], "s": s}
            tests = [(f"L_(u{u + 1}|s)", ball.lower_value(u, s, dps=26),
                      (lambda t, u=u: prob.coordinate_feasible(u, t, "min")),
                      (lambda t, u=u: prob.coordinate_infeasible(u, t, "min")), "inf", u) for u in range(a2)]
            tests.append(("rad_s", ball.rad_value(s, dps=26), prob.l1_feasible, prob.l1_infeasible, "sup", None))
            for name, value, feas, infeas, sense, u in tests:
                status, detail = decide(value, ETA, feas, infeas, sense=sense)
                checks += 1
                rows.append({**inst, "quantity": name, "formula": nstr(value, 15), "status": status})
                if status in ("larger", "smaller"):
                    if status == "larger":
                        what = (f"a rational P certified in F has {'P_(u|s)' if sense == 'inf' else '||P_(U|s) - P^_(U|s)||_1'}"
                                f" {'<=' if sense == 'inf' else '>='} {detail['witness_level_decimal']}")
                    else:
                        what = f"certified: no P in F reaches {detail['excluded_level_decimal']}"
                    return Outcome.refuted(f"{name} by eqs. (29)-(30) is {nstr(value, 15)}, but {what}",
                                           counterexample={**inst, "quantity": name, "formula": nstr(value, 20),
                                                           **detail}, kind="false")
                if status == "undecided":
                    undecided.append(rows[-1])
                if status == "agrees":
                    agreed.append((prob, "min" if u is not None else "l1", detail, u))
    if undecided:
        return Outcome.inconclusive(f"{len(undecided)} of {checks} values not decided in arb at {ctx.dps} digits",
                                    undecided=undecided[:10])
    return Outcome.verified(f"{checks} values (every L_(u|s) and rad_s of {count} random (P^, alpha, B), orders 1/2..3, "
                            "zero cells included) certified to equal min_(P in F) P_(u|s) and "
                            "sup_(P in F) ||P_(U|s) - P^_(U|s)||_1 within 1e-20 (rational witnesses certified in F, "
                            "exclusions by data processing and the Hölder bound)", checks=checks, instances=rows[:30],
                            tolerance="1e-20", **_certificates(agreed))


def _certificates(agreed) -> dict:
    """Issue 23: the rigorous-value certificates of every decision (proofs.rldp._certified.agreement_certificates)."""
    from rldp_verify.certificates.claims import built

    from ._certified import agreement_certificates

    return built(lambda: [d for prob, q, detail, u in agreed for d in agreement_certificates(prob, q, detail, u=u)])


@claim(
    id="rldp.prop1.lower-and-rad",
    paper=PAPER,
    source="Sec. 4.2, Proposition 1, eqs. (29)-(30)",
    statement="L_{u|s}(F) = P^_{u|s} xi-(P^_{u|s}) and rad_s(F) = 2 max_{U1 subset U} P^_{U1|s}(xi+(P^_{U1|s}) - 1), "
              "with xi-+ for radius B_s.",
    hypotheses=("P^_s > 0", "alpha in {1/2, 1, 3/2, 2, 3}"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="xi+ over [1, 1/rho] (rldp.sec42.xi-plus-domain).",
)
def check_prop1(ctx):
    return _check(ctx, 5, "prop1")


@claim(
    id="rldp.prop1.lower-and-rad-sweep",
    paper=PAPER,
    source="Sec. 4.2, Proposition 1",
    statement="Eqs. (29)-(30) agree with the certified extrema over F (larger random sweep).",
    hypotheses=("P^_s > 0",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    slow=True,
)
def check_prop1_sweep(ctx):
    return _check(ctx, 80, "prop1.sweep")
