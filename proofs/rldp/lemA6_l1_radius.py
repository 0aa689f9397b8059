"""Lemma A6 (App. A.2) of 000_aca93ed29ea857ee.txt: the l1 radius of a Rényi ball.

    sup_{P in F} ||P - P^||_1 = 2 max_{X1 subset X} P^_{X1} (xi+(P^_{X1}) - 1)
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.rldp.uncertainty import SimplexBall
from rldp_verify.rldp.xi_interval import t_interval

from ._sec34 import PAPER, nstr, rand_dist


def _check(ctx, count, salt):
    """Certified (proofs.rldp._certified with one row): sup ||P - P^||_1 over the ball equals the engine's
    2 max_X1 P^_X1 (xi+(P^_X1) - 1) within 1e-20 (||P - P^||_1 = 2 max_X1 (P_X1 - P^_X1); a rational witness
    per side, exclusions by merging to (X1, rest) for every X1)."""
    from ._certified import ETA, RowProblem, decide

    rng = ctx.rng(salt)
    rows, undecided, agreed = [], [], []
    for k in range(count):
        m = rng.choice((2, 3, 4))
        alpha = rng.choice((Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4)))
        center = rand_dist(rng, m, zeros=(k % 5 == 4))
        B = Fraction(rng.randint(1, 600), 1000)
        formula = SimplexBall(tuple(center), alpha, B).l1_radius(dps=30, exhaustive=True)
        prob = RowProblem([center], 0, alpha, B, dps=ctx.dps)
        status, detail = decide(formula, ETA, prob.l1_feasible, prob.l1_infeasible, sense="sup")
        inst = {"alpha": str(alpha), "P^": [str(v) for v in center], "B": str(B)}
        rows.append({**inst, "formula": nstr(formula, 15), "status": status})
        if status == "larger":
            return Outcome.refuted(f"eq. (A6) gives {nstr(formula, 15)}, but a rational P certified in the ball has "
                                   f"||P - P^||_1 >= {detail['witness_level_decimal']}",
                                   counterexample={**inst, **detail}, kind="false")
        if status == "smaller":
            return Outcome.refuted(f"eq. (A6) gives {nstr(formula, 15)}, but certified: no P in the ball has "
                                   f"||P - P^||_1 >= {detail['excluded_level_decimal']}",
                                   counterexample={**inst, **detail}, kind="false")
        if status == "undecided":
            undecided.append(rows[-1])
        if status == "agrees":
            agreed.append((prob, "l1", detail, None))
    if undecided:
        return Outcome.inconclusive(f"{len(undecided)} of {len(rows)} balls not decided in arb", undecided=undecided)
    return Outcome.verified(f"{len(rows)} random balls (orders 1/2..4, zero cells included): sup ||P - P^||_1 "
                            "certified to equal 2 max_X1 P^_X1 (xi+(P^_X1) - 1) within 1e-20 (a rational witness "
                            "certified in the ball; every X1 excluded beyond by data processing)",
                            instances=rows[:30], tolerance="1e-20", **_certificates(agreed))


def _certificates(agreed) -> dict:
    """Issue 23: the rigorous-value certificates of every decision (proofs.rldp._certified.agreement_certificates)."""
    from rldp_verify.certificates.claims import built

    from ._certified import agreement_certificates

    return built(lambda: [d for prob, q, detail, u in agreed for d in agreement_certificates(prob, q, detail, u=u)])


@claim(
    id="rldp.lemma-a6.l1-radius",
    paper=PAPER,
    source="App. A.2, Lemma A6, eqs. (A42)-(A50)",
    statement="sup_{P in F} ||P - P^||_1 = 2 max_{X1 subset X} P^_{X1} (xi+(P^_{X1}) - 1).",
    hypotheses=("F = {P : D_alpha(P^||P) <= B}", "alpha in (0, inf)"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="xi+ over [1, 1/rho] (rldp.sec42.xi-plus-domain).",
)
def check_a6(ctx):
    return _check(ctx, 10, "lemma-a6")


@claim(
    id="rldp.lemma-a6.l1-radius-sweep",
    paper=PAPER,
    source="App. A.2, Lemma A6",
    statement="sup_{P in F} ||P - P^||_1 = 2 max_{X1} P^_{X1}(xi+(P^_{X1}) - 1) (larger random sweep).",
    hypotheses=("alpha in (0, inf)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    slow=True,
)
def check_a6_sweep(ctx):
    return _check(ctx, 80, "lemma-a6.sweep")


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
        from rldp_verify.certificates.identity import identity_evidence

        return Outcome.verified("sympy: rho(xi-1) + (1-rho)(1-psi) - 2 rho(xi-1) simplifies to 0",
                                **identity_evidence("rldp.lemma-a6.a47-a50", {
                                    "(A47)-(A50)": (rho * (xi - 1) + (1 - rho) * (1 - psi), 2 * rho * (xi - 1))}))
    return Outcome.refuted("identity fails", counterexample="sympy", kind="false")


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
    combos = []   # (alpha, B, t+ on the grid) for the certificates (issue 23)
    with working_precision(25):
        for alpha in (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5)):
            for B in (Fraction(1, 100), Fraction(1, 5), Fraction(1), Fraction(4)):
                h = Fraction(1, 40)
                tplus = [t_interval(k * h, alpha, B, dps=25)[1] for k in range(41)]
                combos.append((alpha, B, tplus))
                g = [tp - to_mpf(k * h) for k, tp in enumerate(tplus)]
                for k in range(1, 40):
                    d2 = g[k - 1] - 2 * g[k] + g[k + 1]
                    n += 1
                    if d2 > -worst and d2 > 0 and (where is None or d2 > where[-1]):
                        where = (str(alpha), str(B), str(k * h), d2)
                    worst = min(worst, -d2)
    if where is not None and where[-1] > mpmath.mpf(10) ** -20:
        return Outcome.refuted(f"second difference {nstr(where[-1], 3)} > 0 at alpha, B, rho = {where[:3]}",
                               counterexample={"alpha": where[0], "B": where[1], "rho": where[2],
                                               "second_difference": nstr(where[-1], 10)}, kind="false")
    from rldp_verify.certificates.instances_rldp import guarded

    return Outcome.verified(f"all {n} second differences of t+(rho) - rho on a grid of step 1/40 are <= 0 "
                            "(6 orders, 4 radii)", grid_points=n, **guarded(_concavity_evidence, combos))


def _tplus_enclosure(t, rho: Fraction, alpha: Fraction, B: Fraction) -> tuple[Fraction, Fraction]:
    """(lo, hi) with lo <= t+(rho) <= hi for the engine's t+ = ``t`` (25 digits): within 1e-20 of it, or, where
    1 - t < 1e-15 (t+ within 25 digits of 1 while D_alpha(Bern(rho)||Bern(1)) is infinite, alpha >= 1), from t+
    recomputed at 120 digits with a margin of a millionth of 1 - t+; hi is capped at 1 (t+ <= 1 by its definition,
    nothing to certify) and lo at rho."""
    from rldp_verify.certificates.series import exact_number

    if t == 1 and (alpha < 1 or rho == 1):
        return Fraction(1), Fraction(1)
    te = exact_number(t)
    delta = Fraction(1, 10**20)
    if 1 - te < Fraction(1, 10**15):
        with mpmath.workdps(130):
            te = exact_number(t_interval(rho, alpha, B, dps=120)[1])
        delta = min(delta, (1 - te) / 10**6)
    return max(te - delta, rho), min(te + delta, Fraction(1))


def _concavity_evidence(combos) -> dict:
    """Issue 23: per (alpha, B) and grid point rho_k = k/40, an enclosure lo_k <= t+(rho_k) <= hi_k
    (:func:`_tplus_enclosure`): D_alpha(Bern(rho)||Bern(lo)) <= B < D_alpha(Bern(rho)||Bern(hi)) in arb (D increasing
    in t on [rho, 1]; hi = 1 needs no check), or t+ = 1 where D_alpha(Bern(rho)||Bern(1)) <= B (then lo = hi = 1);
    and, exactly, every second difference's upper end hi_(k-1) - 2 lo_k + hi_(k+1) - (rho_(k-1) - 2 rho_k +
    rho_(k+1)) <= 0."""
    from rldp_verify.certificates import instances_rldp as inst
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.divergence import binary_renyi_expr

    inside, outside, d2 = [], [], []
    for alpha, B, tplus in combos:
        lo, hi = [], []
        for k, t in enumerate(tplus):
            rho = Fraction(k, 40)
            a, b = _tplus_enclosure(t, rho, alpha, B)
            lo.append(a)
            hi.append(b)
            inside.append(["-", B, binary_renyi_expr(rho, a, alpha)])
            if b < 1:
                outside.append(["-", binary_renyi_expr(rho, b, alpha), B])
        rho = [Fraction(k, 40) for k in range(41)]
        d2 += [["-", ["-", ["+", rho[k - 1], rho[k + 1]], ["*", 2, rho[k]]],
                ["-", ["+", hi[k - 1], hi[k + 1]], ["*", 2, lo[k]]]] for k in range(1, 40)]

    def build():
        name = "rldp.lemma-a6.objective-concave"
        return [inst.all_nonneg_certificate(f"{name}: B - D_alpha(Bern(rho)||Bern(lo)) (lo = 1: t+ = 1)", inside,
                                            exact=False, cap=len(inside)),
                inst.all_positive_certificate(f"{name}: D_alpha(Bern(rho)||Bern(hi)) - B", outside, exact=False,
                                              cap=len(outside)),
                inst.all_nonneg_certificate(f"{name}: minus the second differences' upper ends", d2, cap=len(d2))]
    return {"certificate_covers": f"all {len(combos)} (alpha, B): the {len(d2)} second "
                                  "differences of t+(rho) - rho on the grid of step 1/40 are <= 0, from rational "
                                  "enclosures of t+ at each grid point certified in arb (D_alpha(Bern(rho)||Bern(t)) "
                                  "increasing in t on [rho, 1] is taken as known, not re-derived; where t+ is within "
                                  "1e-15 of 1 the enclosure is recomputed at 120 digits) and the second "
                                  "differences' upper ends computed exactly; not concavity between the grid points",
            **built(build)}
