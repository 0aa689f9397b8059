"""Theorem 1 (Sec. 4.1, eqs. (23)-(24)) and its proof (Appendix A.1, Lemmas A1-A4) of 000_aca93ed29ea857ee.txt.

    B_s = alpha/(alpha-1) log((e^{(alpha-1)B/alpha} - (1 - P^_s)) / P^_s)   (alpha != 1),  B / P^_s  (alpha = 1)
    F_{U|s} = {R in P_U : D_alpha(P^_{U|s} || R) <= B_s}.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import sympy as sp

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import abs_expr
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import kl_divergence, renyi_divergence
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.rldp.uncertainty import RenyiBall

from ._sec34 import ALPHAS, PAPER, boundary_point, conditional, flat, lift, nstr, rand_dist, rand_table

READING_C = ("(A8), (A13)-(A16): the conversion dropped minus signs; the stationary point is "
             "P_s = 1 - C^{-1/alpha}(1 - P^_s) and the lift uses P_{u,s'} = C^{-1/alpha} P^_{u,s'} "
             "(with the printed C^{+1/alpha} the lift does not sum to 1 and P_s is not stationary).")


@claim(
    id="rldp.thm1.factorisation",
    paper=PAPER,
    source="Sec. 4.1, the identity after Theorem 1 (eq. (25))",
    statement="P^_x^alpha P_x^(1-alpha) = P^_{u|s}^alpha P_{u|s}^(1-alpha) * P^_s^alpha P_s^(1-alpha) for x = (s, u).",
    hypotheses=("P^_s, P_s > 0",),
    method=Method.SYMBOLIC,
)
def check_factorisation(ctx):
    a = sp.symbols("alpha", positive=True)
    ph_s, p_s, ph_u, p_u = sp.symbols("Phat_s P_s Phat_u|s P_u|s", positive=True)
    lhs = (ph_u * ph_s) ** a * (p_u * p_s) ** (1 - a)
    rhs = ph_u**a * p_u ** (1 - a) * ph_s**a * p_s ** (1 - a)
    diff = sp.simplify(sp.powsimp(sp.expand_power_base(lhs - rhs, force=True), force=True))
    if diff == 0:
        return Outcome.verified("sympy: the difference simplifies to 0 (P_x = P_s P_{u|s})", difference=str(diff),
                                **built(eq25_certificate),
                                certificate_covers="(25) for positive P^_{u|s}, P_{u|s}, P^_s, P_s and every real "
                                                   "alpha (x^c read as exp(c log x)); not a zero entry")
    return Outcome.inconclusive("sympy could not simplify the difference to 0", difference=str(diff))


def eq25_certificate(variant: str | None = None) -> dict:
    """The ``symbolic-identity`` certificate of (25), P^_x^alpha P_x^(1-alpha) = P^_{u|s}^alpha P_{u|s}^(1-alpha) *
    P^_s^alpha P_s^(1-alpha) with P^_x = P^_{u|s} P^_s, P_x = P_{u|s} P_s, both sides as printed, each power
    x^c = exp(c log x) over the basis atoms log x and x^alpha of the four positive factors.  ``variant`` (a wrong
    one, for the tests): "sign" (the rhs's 1 - alpha read alpha - 1) or "factor2" (the rhs doubled)."""
    from rldp_verify.certificates.identity import Tree
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

    a = Tree.var("alpha")
    A = Atoms()
    for n in ("Phat_us", "P_us", "Phat_s", "P_s"):
        A.exp(f"{n}^alpha", a * A.log(f"log {n}", Tree.var(n)))

    def pw(factors: tuple, c, sign: int = 1):
        """(prod of the factors)^c for c = alpha or sign (1 - alpha): c log(prod) = sum_f (alpha log f) or
        sign (log f - alpha log f)."""
        base = Tree.var(factors[0]) * Tree.var(factors[1]) if len(factors) == 2 else Tree.var(factors[0])
        logs = {f"log {n}": 1 for n in factors}
        exps = {f"{n}^alpha": 1 for n in factors} if c is a else {k: sign * v for n in factors for k, v in (
            (f"log {n}", 1), (f"{n}^alpha", -1))}
        return A.power(base, c, logs, exps)

    lhs = pw(("Phat_us", "Phat_s"), a) * pw(("P_us", "P_s"), 1 - a)
    p_us = pw(("P_us",), a - 1, -1) if variant == "sign" else pw(("P_us",), 1 - a)
    rhs = pw(("Phat_us",), a) * p_us * pw(("Phat_s",), a) * pw(("P_s",), 1 - a)
    if variant == "factor2":
        rhs = 2 * rhs
    return log_identity_certificate(
        "rldp.thm1.factorisation: (25)", lhs, rhs, A,
        words="(25) as printed, x = (s, u): P^_x = P^_{u|s} P^_s, P_x = P_{u|s} P_s; x^c = exp(c log x) for x > 0, "
              "with the atoms log x and x^alpha = exp(alpha log x) of the four factors")


@claim(
    id="rldp.thm1.stationary-point",
    paper=PAPER,
    source="App. A.1, Lemma A1, eqs. (A6)-(A10)",
    statement="The bound on sum_u P^_{u|s}^alpha P_{u|s}^(1-alpha) in (A6) is extremal in P_s at "
              "P_s = 1 - C^{-1/alpha}(1 - P^_s), C = e^{(alpha-1)B}, with extremal value "
              "(C^{1/alpha} - (1 - P^_s))^alpha / P^_s^alpha, which gives B_s of eq. (23).",
    hypotheses=("alpha != 1", "0 < P^_s < 1"),
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
    reading=READING_C,
)
def check_stationary(ctx):
    x, b, C, ph = sp.symbols("P_s b C Phat_s", positive=True)   # b = 1 - P^_s
    results = {}
    ok = True
    for a in (sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(3, 2), sp.Integer(2), sp.Integer(3), sp.Rational(7, 2)):
        rhs = x ** (a - 1) * (C - b**a * (1 - x) ** (1 - a)) / ph**a     # RHS of (A6) as a function of P_s
        xs = 1 - b * C ** (-1 / a)
        d = sp.diff(rhs, x).subs(x, xs)
        d0 = sp.simplify(sp.powsimp(sp.expand_power_base(d, force=True), force=True))
        val = sp.simplify(sp.powsimp(rhs.subs(x, xs), force=True) - (C ** (1 / a) - b) ** a / ph**a)
        # the printed reading P_s = 1 - C^{+1/alpha} b is not stationary (numeric witness)
        printed = sp.diff(rhs, x).subs(x, 1 - b * C ** (1 / a))
        wit = {C: sp.Rational(11, 10) if a > 1 else sp.Rational(9, 10), b: sp.Rational(1, 3), ph: sp.Rational(2, 3)}
        pw = sp.N(printed.subs(wit), 30)
        results[str(a)] = {"derivative_at_stationary": str(d0), "value_minus_claim": str(val),
                           "derivative_at_printed_point": str(pw)}
        ok &= d0 == 0 and val == 0 and pw != 0
    # symbolic alpha: verify by substitution at random numeric points (high precision)
    rng = ctx.rng("thm1.stationary")
    worst = mpmath.mpf(0)
    with working_precision(ctx.dps):
        for _ in range(40):
            a = to_mpf(rng.choice(ALPHAS))
            if a == 1:
                continue
            Bv = mpmath.mpf(rng.random()) / 2
            phs = mpmath.mpf(rng.randint(1, 99)) / 100
            Cv = mpmath.exp((a - 1) * Bv)
            bv = 1 - phs
            xs = 1 - bv * Cv ** (-1 / a)
            if not 0 < xs < 1:
                continue
            f = lambda t: t ** (a - 1) * (Cv - bv**a * (1 - t) ** (1 - a)) / phs**a  # noqa: E731
            worst = max(worst, abs(mpmath.diff(f, xs)))
            Bs = a / (a - 1) * mpmath.log((mpmath.exp((a - 1) * Bv / a) - bv) / phs)
            worst = max(worst, abs(mpmath.log(f(xs)) / (a - 1) - Bs))
    ok &= worst < mpmath.mpf(10) ** (-(ctx.dps - 15))
    if ok:
        from rldp_verify.certificates.identity import identity_evidence

        identities = {}
        for a in (sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(3, 2), sp.Integer(2), sp.Integer(3), sp.Rational(7, 2)):
            rhs = x ** (a - 1) * (C - b**a * (1 - x) ** (1 - a)) / ph**a
            xs = 1 - b * C ** (-1 / a)
            identities[f"derivative at alpha = {a}"] = (sp.diff(rhs, x).subs(x, xs), 0)
            identities[f"value at alpha = {a}"] = (rhs.subs(x, xs), (C ** (1 / a) - b) ** a / ph**a)
        return Outcome.verified("sympy: derivative vanishes at P_s = 1 - C^{-1/alpha}(1-P^_s) and the value gives "
                                f"B_s, for 6 orders; random orders agree to {nstr(worst, 3)}; the printed "
                                "point 1 - C^{1/alpha}(1-P^_s) is not stationary", per_alpha=results,
                                max_residual=nstr(worst, 3), **identity_evidence(
                                    "rldp.thm1.stationary-point", identities,
                                    uncovered="the 40 random orders (high precision)"))
    return Outcome.inconclusive("stationary point not confirmed", per_alpha=results, max_residual=nstr(worst, 3))


def _instances(rng, count, alphas=ALPHAS):
    for k in range(count):
        a1, a2 = rng.choice((2, 2, 3)), rng.choice((2, 3, 4))
        phat = rand_table(rng, a1, a2, zeros=(k % 4 == 3))
        alpha = alphas[k % len(alphas)]
        B = Fraction(rng.randint(1, 400), 1000) if alpha >= 1 else Fraction(rng.randint(1, 60), 1000)
        yield phat, alpha, B


@claim(
    id="rldp.thm1.lift-in-F",
    paper=PAPER,
    source="App. A.1, Lemmas A2 and A4 (F-bar_{U|s} subset F_{U|s})",
    statement="For every R with D_alpha(P^_{U|s}||R) <= B_s the lift P of (A16) / Lemma A4 has P_{U|s} = R and "
              "D_alpha(P^||P) <= B; for R on the boundary of the B_s-ball, D_alpha(P^||P) = B.",
    hypotheses=("P^_s > 0", "alpha in (0, inf)", "for alpha < 1: e^{(alpha-1)B/alpha} > 1 - P^_s"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading=READING_C,
)
def check_lift(ctx):
    rng = ctx.rng("thm1.lift")
    tol = mpmath.mpf(10) ** (-(ctx.dps - 12))
    n = worst_excess = 0
    worst_excess = mpmath.mpf(-1)
    worst_gap = mpmath.mpf(0)
    interior, boundary = [], []   # (P^, alpha, B, P) for the certificates (issue 23)
    with working_precision(ctx.dps):
        for phat, alpha, B in _instances(rng, 18 if not ctx.include_slow else 60):
            ball = RenyiBall.from_radius(phat, alpha, B)
            for s in range(len(phat)):
                if sum(phat[s]) == 0:
                    continue
                Bs = ball.conditional_radius(s, dps=ctx.dps + 10)
                if Bs == mpmath.inf:
                    continue
                center = conditional(phat, s)
                for inside in (True, False):
                    Q = rand_dist(rng, len(center), zeros=True)
                    R, lam = boundary_point(center, Q, alpha, Bs, dps=ctx.dps)
                    if inside:
                        R = [c + (r - c) * mpmath.mpf("0.9") for c, r in zip(center, R, strict=True)]
                    P, gamma = lift(phat, s, R, alpha, B, dps=ctx.dps)
                    D = renyi_divergence(flat(phat), P, alpha, dps=ctx.dps + 10)
                    got_R = [P[s * len(center) + j] / gamma for j in range(len(center))]
                    if max(abs(x - y) for x, y in zip(got_R, R, strict=True)) > tol or abs(sum(P) - 1) > tol:
                        return Outcome.refuted("the lift does not have conditional R", counterexample={
                            "phat": [[str(v) for v in r] for r in phat], "alpha": str(alpha), "B": str(B), "s": s}, kind="false")
                    excess = D - to_mpf(B)
                    worst_excess = max(worst_excess, excess)
                    if not inside and lam < 1:
                        worst_gap = max(worst_gap, abs(excess))
                        boundary.append((phat, alpha, B, P))
                    elif inside:
                        interior.append((phat, alpha, B, P))
                    if excess > tol:
                        return Outcome.refuted(
                            f"lift leaves F: D_alpha(P^||P) = {nstr(D)} > B = {B}",
                            counterexample={"phat": [[str(v) for v in r] for r in phat], "alpha": str(alpha),
                                            "B": str(B), "s": s, "R": [nstr(x, 20) for x in R]},
                            D=nstr(D, 20), B_s=nstr(Bs, 20), kind="false")
                    n += 1
    if worst_gap > mpmath.mpf(10) ** (-(ctx.dps // 2)):
        return Outcome.inconclusive("lifts stay in F but boundary points are not tight",
                                    max_boundary_gap=nstr(worst_gap, 3))
    return Outcome.verified(f"{n} lifts (boundary and interior R, orders {', '.join(map(str, ALPHAS))}) lie in F; "
                            f"boundary R lift to D = B within {nstr(worst_gap, 3)}",
                            lifts=n, max_excess_over_B=nstr(worst_excess, 3), max_boundary_gap=nstr(worst_gap, 3),
                            dps=ctx.dps, **_lift_certificates(interior, boundary))


def _lift_certificates(interior, boundary) -> dict:
    """Issue 23: B - D_alpha(P^||P) > 0 for the lifts of interior R, |D_alpha(P^||P) - B| <= 1e-30 for those of
    boundary R (the lift is rounded to the working precision: D = B is an equality of irrational values), each in
    arb from P^, alpha, B and the lift's entries as exact binary rationals."""
    n_in, n_bd = min(len(interior), inst.CAP), min(len(boundary), inst.CAP)
    covers = (f"the first {n_in} of the {len(interior)} interior lifts: B - D_alpha(P^||P) > 0, and the first {n_bd} "
              f"of the {len(boundary)} boundary lifts: |D_alpha(P^||P) - B| <= 1e-30 (within 1e-30, not the "
              "equality D = B), each re-derived by the checker in arb from P^, alpha, B and the lift's entries as the "
              "exact binary rationals they are; not that the lift's conditional is R, nor the statement for every "
              "instance")

    def build():
        docs = [inst.all_positive_certificate("rldp.thm1.lift-in-F: interior R, B - D_alpha(P^||P)",
                                              inst.ball_slack_expressions(interior), exact=False)]
        if boundary:
            docs.append(inst.within_certificate("rldp.thm1.lift-in-F: boundary R, D_alpha(P^||P) - B",
                                                [["-", 0, e] for e in inst.ball_slack_expressions(boundary)],
                                                Fraction(1, 10**30)))
        return docs
    return {"certificate_covers": covers, **built(build)}


@claim(
    id="rldp.thm1.projection-in-ball",
    paper=PAPER,
    source="App. A.1, Lemmas A1 and A3 (F_{U|s} subset F-bar_{U|s})",
    statement="Every P in F with P_s > 0 has D_alpha(P^_{U|s} || P_{U|s}) <= B_s.",
    hypotheses=("P^_s > 0", "alpha in (0, inf)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_projection(ctx):
    rng = ctx.rng("thm1.projection")
    tol = mpmath.mpf(10) ** (-(ctx.dps - 12))
    n = 0
    worst = mpmath.mpf(-10)
    cases = []   # (P^, alpha, B, P, s) with a finite B_s, for the certificates (issue 23)
    with working_precision(ctx.dps):
        for phat, alpha, B in _instances(rng, 18 if not ctx.include_slow else 60):
            ball = RenyiBall.from_radius(phat, alpha, B)
            fl = flat(phat)
            for k in range(3):
                # P on the boundary of F along a random direction, or a lift-like adversarial point
                Q = rand_dist(rng, len(fl), zeros=True)
                P, _ = boundary_point(fl, Q, alpha, B, dps=ctx.dps)
                if k % 3 == 2:
                    P = [x * (1 + mpmath.mpf(rng.random()) / 1000) for x in P]
                    P = [x / sum(P) for x in P]
                    if renyi_divergence(fl, P, alpha, dps=ctx.dps) > to_mpf(B):
                        continue
                a2 = len(phat[0])
                for s in range(len(phat)):
                    if sum(phat[s]) == 0:
                        continue
                    Bs = ball.conditional_radius(s, dps=ctx.dps + 10)
                    row = P[s * a2:(s + 1) * a2]
                    if sum(row) == 0:
                        continue
                    Rs = [x / sum(row) for x in row]
                    D = renyi_divergence(conditional(phat, s), Rs, alpha, dps=ctx.dps)
                    if Bs != mpmath.inf:
                        worst = max(worst, D - Bs)
                        cases.append((phat, alpha, B, P, s))
                    if Bs + tol < D:
                        return Outcome.refuted(
                            f"P in F projects outside the B_s-ball: D = {nstr(D)} > B_s = {nstr(Bs)}",
                            counterexample={"phat": [[str(v) for v in r] for r in phat], "alpha": str(alpha),
                                            "B": str(B), "s": s, "P": [nstr(x, 25) for x in P]}, kind="false")
                    n += 1
    n_cert = min(len(cases), inst.CAP)
    return Outcome.verified(f"{n} projections of points of F (boundary and interior) lie in the B_s-ball",
                            projections=n, max_D_minus_Bs=nstr(worst, 3),
                            certificate_covers=inst.cover_note(
                                len(cases), n_cert, "conclusion B_s - D_alpha(P^_(U|s)||P_(U|s)) > 0 (those with a "
                                "finite B_s; B_s from eq. (23), the conditionals from P^ and P's entries as the exact "
                                "binary rationals they are, in arb)",
                                "; not the hypothesis that P lies in F (boundary points lie on F's boundary only up to "
                                "rounding)"),
                            **built(lambda: inst.all_positive_certificate(
                                "rldp.thm1.projection-in-ball: B_s - D_alpha(P^_(U|s)||P_(U|s))",
                                inst.projection_slack_expressions(cases), exact=False)))


def _check_direct(ctx, count, salt):
    """Certified: the maximum of D_alpha(P^_{U|s}||P_{U|s}) over F equals the engine's B_s within 1e-20
    (capped, for alpha < 1, by the simplex maximum), see proofs.rldp._certified (H2)."""
    from ._certified import ETA, RowProblem, decide

    rng = ctx.rng(salt)
    rows, undecided, agreed = [], [], []
    for phat, alpha, B in _instances(rng, count, alphas=(Fraction(1, 4), Fraction(1, 2), Fraction(9, 10), Fraction(1),
                                                           Fraction(3, 2), Fraction(2), Fraction(3), Fraction(7, 2))):
        ball = RenyiBall.from_radius(phat, alpha, B)
        for s in range(len(phat)):
            if sum(phat[s]) == 0:
                continue
            Bs = ball.conditional_radius(s, dps=ctx.dps)
            if Bs == mpmath.inf:
                continue
            prob = RowProblem(phat, s, alpha, B, dps=ctx.dps)
            cap = prob.cap()
            target = min(Bs, cap) if cap != mpmath.inf else Bs
            status, detail = decide(target, ETA, prob.radius_feasible, prob.radius_infeasible, sense="sup")
            row = {"alpha": str(alpha), "B": str(B), "P^_s": str(sum(phat[s])), "B_s": nstr(Bs, 15),
                   "capped_at_simplex_max": bool(cap < Bs), "status": status}
            rows.append(row)
            inst = {"phat": [[str(v) for v in r] for r in phat], "alpha": str(alpha), "B": str(B), "s": s,
                    "B_s": nstr(Bs, 20)}
            if status == "larger":
                return Outcome.refuted(
                    f"a point of F projects beyond B_s: P certified in F (arb) with D_alpha(P^_(U|s)||P_(U|s)) >= "
                    f"{detail['witness_level_decimal']} "
                    f"> B_s = {nstr(Bs, 15)}",
                    counterexample={**inst, **detail}, kind="false")
            if status == "smaller":
                return Outcome.refuted(
                    f"B_s = {nstr(Bs, 15)} is not attained: certified (Hölder bound, arb) that no P in F has "
                    f"D_alpha(P^_(U|s)||P_(U|s)) >= {detail['excluded_level_decimal']}",
                    counterexample={**inst, **detail}, kind="false")
            if status == "undecided":
                undecided.append(inst)
            if status == "agrees":
                agreed.append((prob, "radius", detail))
    if undecided:
        return Outcome.inconclusive(f"{len(undecided)} of {len(rows)} instances not decided in arb at {ctx.dps} digits",
                                    undecided=undecided[:10])
    return Outcome.verified(f"on {len(rows)} instances (orders 1/4..7/2) the maximum of D_alpha(P^_(U|s)||P_(U|s)) "
                            "over F is certified to equal B_s (min with the simplex maximum for alpha < 1) within "
                            "1e-20: a rational P certified in F (arb) reaches B_s - 1e-20, and the Hölder bound "
                            "D_alpha(P^||P) >= Phi(D_alpha(P^_(U|s)||P_(U|s))) excludes B_s + 1e-20",
                            instances=rows[:40], tolerance="1e-20", dps=ctx.dps, **_certificates(agreed))


def _certificates(agreed) -> dict:
    """Issue 23: the rigorous-value certificates of every decision (proofs.rldp._certified.agreement_certificates)."""
    from rldp_verify.certificates.claims import built

    from ._certified import agreement_certificates

    return built(lambda: [d for prob, q, detail in agreed for d in agreement_certificates(prob, q, detail)])


@claim(
    id="rldp.thm1.radius-direct-optimisation",
    paper=PAPER,
    source="Sec. 4.1, Theorem 1, eqs. (23)-(24)",
    statement="B_s is the exact projection radius: max_{P in F} D_alpha(P^_{U|s} || P_{U|s}) = B_s "
              "(or, for alpha < 1, the largest value D_alpha(P^_{U|s}||.) takes on P_U when that is smaller).",
    hypotheses=("P^_s > 0", "alpha in {1/4, 1/2, 9/10, 1, 3/2, 2, 3, 7/2}", "e^{(alpha-1)B/alpha} > 1 - P^_s"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check_direct(ctx):
    return _check_direct(ctx, 16, "thm1.direct")


@claim(
    id="rldp.thm1.radius-direct-optimisation-sweep",
    paper=PAPER,
    source="Sec. 4.1, Theorem 1, eqs. (23)-(24)",
    statement="B_s is the exact projection radius (larger random sweep, certified witnesses and Hölder bounds).",
    hypotheses=("P^_s > 0", "alpha in {1/4, 1/2, 9/10, 1, 3/2, 2, 3, 7/2}", "e^{(alpha-1)B/alpha} > 1 - P^_s"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    slow=True,
)
def check_direct_sweep(ctx):
    return _check_direct(ctx, 120, "thm1.direct.sweep")


def _chain_certificates(cases, tol: Fraction) -> list[dict]:
    """Issue 23: per sampled (P^, P, s), the ``rigorous-value`` certificate |D_1(P^||P) - (A21)-(A23)'s right-hand
    side| <= tol, every divergence written out from its definition on the exact conditionals and marginals."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.value import value_certificate

    docs = []
    for i, (phat, P, s) in enumerate(cases):
        phs, ps = sum(phat[s]), sum(P[s])
        rest_h = [v / (1 - phs) for j, r in enumerate(phat) if j != s for v in r]
        rest = [v / (1 - ps) for j, r in enumerate(P) if j != s for v in r]
        rhs = ["+", ["*", phs, renyi_expr([v / phs for v in phat[s]], [v / ps for v in P[s]], 1)],
               ["*", 1 - phs, renyi_expr(rest_h, rest, 1)], renyi_expr([phs, 1 - phs], [ps, 1 - ps], 1)]
        diff = ["-", renyi_expr(flat(phat), flat(P), 1), rhs]
        docs.append(value_certificate(f"case {i}: |D_1(P^||P) - chain rule (A21)-(A23)| <= {tol}",
                                      ["max", diff, ["-", diff]], upper=tol))
    return docs


@claim(
    id="rldp.thm1.kl-chain-rule",
    paper=PAPER,
    source="App. A.1, Lemma A3, eqs. (A21)-(A23)",
    statement="D_1(P^||P) = P^_s D_1(P^_{U|s}||P_{U|s}) + (1-P^_s) D_1(P^_{|not s}||P_{|not s}) + D_1(Bern(P^_s)||Bern(P_s)).",
    hypotheses=("0 < P^_s < 1", "P > 0"),
    method=Method.HIGH_PRECISION,
)
def check_chain(ctx):
    rng = ctx.rng("thm1.chain")
    worst = mpmath.mpf(0)
    cases = []
    with working_precision(ctx.dps):
        for _k in range(40):
            a1, a2 = rng.choice((2, 3)), rng.choice((2, 3, 4))
            phat, P = rand_table(rng, a1, a2, zeros=True), rand_table(rng, a1, a2)
            s = rng.randrange(a1)
            phs, ps = sum(phat[s]), sum(P[s])
            if phs in (0, 1):
                continue
            rest_h = [v / (1 - phs) for i, r in enumerate(phat) if i != s for v in r]
            rest = [v / (1 - ps) for i, r in enumerate(P) if i != s for v in r]
            rhs = (to_mpf(phs) * kl_divergence([v / phs for v in phat[s]], [v / ps for v in P[s]])
                   + (1 - to_mpf(phs)) * kl_divergence(rest_h, rest)
                   + kl_divergence([phs, 1 - phs], [ps, 1 - ps]))
            worst = max(worst, abs(kl_divergence(flat(phat), flat(P)) - rhs))
            cases.append((phat, P, s))
    if worst < mpmath.mpf(10) ** (-(ctx.dps - 8)):
        from rldp_verify.certificates.claims import built

        return Outcome.verified(f"identity holds on 40 random pairs (max |difference| {nstr(worst, 3)})",
                                max_difference=nstr(worst, 3),
                                **built(_chain_certificates, cases, Fraction(1, 10 ** (ctx.dps - 8))))
    return Outcome.refuted("chain rule fails", counterexample="see max_difference", max_difference=nstr(worst, 5), kind="false")


@claim(
    id="rldp.thm1.alpha-lt-1-defined",
    paper=PAPER,
    source="Sec. 4.1, Theorem 1, eq. (23)",
    statement="For every alpha in (0, inf), B >= 0 and P^_s > 0 eq. (23) defines a real B_s "
              "(the argument e^{(alpha-1)B/alpha} - (1 - P^_s) of the log is positive).",
    hypotheses=("alpha in (0, inf)", "B in R_{>=0}", "P^_s > 0"),
    method=Method.EXACT,
)
def check_defined(ctx):
    # alpha = 1/2, B = 2, P^_s = 1/2: e^{-2} - 1/2 < 0 (certified in arb)
    alpha, B, ps = Fraction(1, 2), Fraction(2), Fraction(1, 2)
    with arb_precision(ctx.dps):
        a = arb_exact(alpha)
        arg = ((a - 1) * arb_exact(B) / a).exp() - (1 - arb_exact(ps))
        negative = bool(arg < 0)
    if negative:
        from rldp_verify.certificates.claims import built
        from rldp_verify.certificates.value import value_certificate

        return Outcome.refuted(
            "for alpha < 1 the log's argument can be negative: alpha = 1/2, B = 2, P^_s = 1/2 gives "
            f"e^(-2) - 1/2 = {arg.str(10)} < 0; the projection is then the whole simplex "
            "(claim rldp.thm1.alpha-lt-1-whole-simplex), i.e. B_s must be read as +inf",
            counterexample={"alpha": "1/2", "B": "2", "P^_s": "1/2", "log_argument": arg.str(20)}, kind="missing-hypothesis",
            **built(value_certificate, "e^((alpha-1)B/alpha) - (1 - P^_s) < 0 at alpha = 1/2, B = 2, P^_s = 1/2",
                    ["-", ["exp", ["/", ["*", alpha - 1, B], alpha]], 1 - ps], upper=0, strict=True))
    return Outcome.inconclusive("sign of the argument not decided", log_argument=arg.str(20))


def _whole_simplex_certificates(cases) -> list[dict]:
    """Per instance (alpha, B, P^, s, R, P): the hypothesis 1 - P^_s - e^{(alpha-1)B/alpha} > 0 and P in F
    (sum over the common support of P^^alpha P^(1-alpha) - e^{(alpha-1)B} >= 0, i.e. D_alpha(P^||P) <= B for alpha
    < 1), in arb; and, exactly, P a distribution whose conditional on s is R (P >= 0, sum P = 1, P(s, u)/P(s) = R_u)."""
    hyp, inside, exact = [], [], []
    for alpha, B, phat, s, R, P in cases:
        hyp.append(["-", 1 - sum(phat[s]), ["exp", ["/", ["*", alpha - 1, B], alpha]]])
        inside.append(["-", ["+", 0, *(["*", ["pow", x, alpha], ["pow", y, 1 - alpha]]
                                       for x, y in zip(flat(phat), P, strict=True) if x > 0 and y > 0)],
                       ["exp", ["*", alpha - 1, B]]])
        a2 = len(R)
        row = P[s * a2:(s + 1) * a2]
        exact.append(["min", *P, ["-", ["max", ["-", ["+", *P], 1], ["-", 1, ["+", *P]],
                                        *(abs_expr(["-", ["/", v, ["+", *row]], r]) for v, r in zip(row, R, strict=True))]]])
    name = "rldp.thm1.alpha-lt-1-whole-simplex"
    return [inst.all_positive_certificate(f"{name}: hypothesis 1 - P^_s - e^((alpha-1)B/alpha)", hyp, exact=False),
            inst.all_nonneg_certificate(f"{name}: P in F, sum P^^alpha P^(1-alpha) - e^((alpha-1)B)", inside,
                                        exact=False),
            inst.all_nonneg_certificate(f"{name}: min(min P, -|sum P - 1|, -|P(u|s) - R_u|)", exact)]


@claim(
    id="rldp.thm1.alpha-lt-1-whole-simplex",
    paper=PAPER,
    source="Sec. 4.1, Theorem 1 (our extension where eq. (23) is undefined)",
    statement="If alpha < 1 and e^{(alpha-1)B/alpha} < 1 - P^_s, then F_{U|s} is the whole simplex P_U "
              "(B_s = +inf), including R whose support misses that of P^_{U|s}.",
    hypotheses=("0 < alpha < 1", "e^{(alpha-1)B/alpha} < 1 - P^_s"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="When the log's argument is <= 0 we read eq. (23) as B_s = +inf. At equality (argument = 0) "
            "R with support disjoint from P^_{U|s} are not attained (the projection is not closed).",
)
def check_whole_simplex(ctx):
    rng = ctx.rng("thm1.whole")
    n, cases = 0, []
    for _k in range(60):
        alpha = rng.choice((Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)))
        a1, a2 = rng.choice((2, 3)), rng.choice((2, 3, 4))
        phat = rand_table(rng, a1, a2)
        s = rng.randrange(a1)
        ps = sum(phat[s])
        with arb_precision(ctx.dps):
            a = arb_exact(alpha)
            b = arb_exact(1 - ps)
            # smallest B with e^{(alpha-1)B/alpha} < 1 - P^_s, plus a margin
            Bmin = a / (a - 1) * b.log()
            B = Fraction(int(float(Bmin.mid()) * 1000) + 1 + rng.randint(0, 500), 1000)
            C = ((a - 1) * arb_exact(B)).exp()
            if not bool((C / a).exp() < b) and not bool(((a - 1) * arb_exact(B) / a).exp() < b):
                continue
            # a rational gamma with (1-P^_s)^alpha (1-gamma)^(1-alpha) >= C: the lift P = (gamma R, (1-gamma) P^_{not s})
            limit = 1 - (C / b**a) ** (1 / (1 - a))
            gamma = Fraction(int(float(limit.mid()) * 10**6) // 2, 10**6)
            if gamma <= 0:
                continue
            for trial in range(3):
                R = rand_dist(rng, a2, zeros=True)
                if trial == 0:  # support disjoint from P^_{U|s} when possible
                    R = [Fraction(0)] * a2
                    R[0] = Fraction(1)
                P = [gamma * R[j] if i == s else (1 - gamma) * phat[i][j] / (1 - ps)
                     for i in range(a1) for j in range(a2)]
                power = flint.arb(0)
                for x, y in zip(flat(phat), P, strict=True):
                    if x > 0 and y > 0:
                        power += arb_exact(x) ** a * arb_exact(y) ** (1 - a)
                inside = bool(power >= C)   # alpha < 1: D <= B  <=>  power sum >= e^{(alpha-1)B}
                if not inside:
                    return Outcome.refuted("a simplex point is not a conditional of F", counterexample={
                        "phat": [[str(v) for v in r] for r in phat], "alpha": str(alpha), "B": str(B), "s": s,
                        "R": [str(v) for v in R], "gamma": str(gamma)}, power_sum=power.str(15), C=C.str(15), kind="false")
                n += 1
                cases.append((alpha, B, phat, s, R, P))
    if n < 50:
        return Outcome.inconclusive(f"only {n} instances decided")
    return Outcome.verified(f"{n} points R of the simplex (some with support disjoint from P^_{{U|s}}) are "
                            "conditionals of explicit P in F, certified in arb", instances=n,
                            certificate_covers=inst.cover_note(n, min(n, inst.CAP), "hypothesis, P in F (arb) and "
                                                               "conditional P_U|s = R (exact)"),
                            **built(_whole_simplex_certificates, cases))
