"""Proof steps of Appendix A.2 (proof of Proposition 1: Lemmas A5 and A6, eqs. (A28)-(A50)) of
000_aca93ed29ea857ee.txt. The paper proves them for alpha > 1 ("the other cases are handled analogously").

    F(rho, xi) = rho xi^(1-alpha) + (1-rho) ((1-rho xi)/(1-rho))^(1-alpha) - C,   C = e^{(alpha-1)B}   (A31)

Each ``printed_*`` function is a step as the paper writes it (our reading of the converted text); wrong
variants are the mutants ``steps.a2.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.divergence import renyi_expr
from rldp_verify.certificates.instances_rldp import guarded as _guarded
from rldp_verify.certificates.value import abs_expr as inst_abs
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, claim
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import working_precision

from ._sec34 import rand_dist
from ._steps import PAPER, Tally, mp, nstr, rand_fraction

ORDERS = (Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5), Fraction(10))
LEMMA_A5 = ("rldp.lemma-a5.extreme-coordinates",)


def F(a, C, rho, xi):
    """(A31), the function whose zeros are xi-+ (a definition, not a step)."""
    psi = (1 - rho * xi) / (1 - rho)
    return rho * xi ** (1 - a) + (1 - rho) * psi ** (1 - a) - C


# ---------------------------------------------------------------------------------------------
# the printed steps
# ---------------------------------------------------------------------------------------------


def printed_A34(a, lam, mu, phat_x, p_x):
    """(A34): d/dP_x of the Lagrangian (A33) = 1 + (1-alpha) lambda P^_x^alpha P_x^-alpha + mu."""
    return 1 + (1 - a) * lam * phat_x**a * p_x ** (-a) + mu


def printed_A35(a, lam, mu, phat_x, p_x):
    """(A35): d/dP_x' (x' != x) = (1-alpha) lambda P^_x'^alpha P_x'^-alpha + mu."""
    return (1 - a) * lam * phat_x**a * p_x ** (-a) + mu


def printed_xi_psi(a, lam, mu):
    """'It follows that P_x = ((alpha-1) lambda/(mu+1))^(1/alpha) P^_x =: xi P^_x and P_x' = ((alpha-1) lambda/mu)^(1/alpha)
    P^_x' =: psi P^_x''. Returns (xi, psi)."""
    return ((a - 1) * lam / (mu + 1)) ** (1 / a), ((a - 1) * lam / mu) ** (1 / a)


def printed_psi(rho, xi):
    """'(A40) implies psi = (1 - rho xi)/(1 - rho)'."""
    return (1 - rho * xi) / (1 - rho)


def printed_A38(a, rho, xi, psi):
    """(A38): the power sum at P = (xi P^_x, psi P^_x') is rho xi^(1-alpha) + (1-rho) psi^(1-alpha)."""
    return rho * xi ** (1 - a) + (1 - rho) * psi ** (1 - a)


def printed_psi_nonnegative_bound(rho):
    """'the condition psi >= 0 is equivalent to xi <= rho^-1': the bound rho^-1."""
    return 1 / rho


def printed_root_domain(rho):
    """'we find xi by solving F(rho, xi) = 0 for xi in (0, (1-rho)^-1)' (and in [1, (1-rho)^-1) in Lemma A6's
    proof): the right end of the domain the proof searches."""
    return 1 / (1 - rho)


def printed_F_at_1(C):
    """'F(rho, 1) = 1 - C < 0'."""
    return 1 - C


# ---------------------------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------------------------


@claim(
    id="rldp.steps.a2.a34-a35-lagrangian",
    paper=PAPER,
    source="App. A.2, proof of Lemma A5, eqs. (A33)-(A35) and 'It follows that P_x = ((alpha-1)lambda/(mu+1))^(1/alpha) "
           "P^_x'",
    statement="The partial derivatives of the Lagrangian (A33) are (A34) (with respect to P_x) and (A35) (P_x', x' != x); "
              "their zeros are P_x = ((alpha-1) lambda/(mu+1))^(1/alpha) P^_x and P_x' = ((alpha-1) lambda/mu)^(1/alpha) P^_x'.",
    hypotheses=("alpha > 1", "lambda, mu > 0"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="The conversion prints '((alpha 1) lambda mu 1)^(1/alpha)': the signs are lost; we read (alpha-1) lambda/(mu+1), "
            "which is what (A34) gives.",
)
def check_lagrangian(ctx):
    rng = ctx.rng("steps.a2.lagrangian")
    zeros = []   # exact (alpha, lambda, mu, P^_x, P^_x') for the certificates (issue 23)
    t = Tally(ctx.dps, tol=mpmath.mpf(10) ** (-(ctx.dps // 2)))   # numerical differentiation: half the digits
    with working_precision(ctx.dps):
        for k in range(30):
            a = mp(ORDERS[k % len(ORDERS)])
            n = rng.choice((3, 4, 5))
            phat_q = rand_dist(rng, n)
            phat = [mp(v) for v in phat_q]
            P = [mp(v) for v in rand_dist(rng, n)]
            lam_q, mu_q, C_q = (rand_fraction(rng, 0, 3) for _ in range(3))
            lam, mu, C = mp(lam_q), mp(mu_q), mp(C_q)
            x = rng.randrange(n)
            zeros.append((ORDERS[k % len(ORDERS)], lam_q, mu_q, phat_q[x], phat_q[(x + 1) % n]))

            def lagrangian(*p):
                return p[x] + lam * (mpmath.fsum(h**a * q ** (1 - a) for h, q in zip(phat, p, strict=True)) - C) + mu * (mpmath.fsum(p) - 1)

            pt = {"alpha": a, "lambda": lam, "mu": mu, "x": x}
            for j in range(n):
                order = tuple(1 if i == j else 0 for i in range(n))
                num = mpmath.diff(lagrangian, P, order)
                printed = (printed_A34 if j == x else printed_A35)(a, lam, mu, phat[j], P[j])
                t.equal("(A34)" if j == x else "(A35)", printed, num, {**pt, "coordinate": j})
            xi, psi = printed_xi_psi(a, lam, mu)
            real = all(isinstance(v, mpmath.mpf) and v > 0 for v in (xi, psi))
            if not t.truth("xi, psi real and positive", real, pt, xi=str(xi), psi=str(psi)):
                t.points += 1
                continue
            t.equal("xi zero of (A34)", printed_A34(a, lam, mu, phat[x], xi * phat[x]), 0, pt)
            t.equal("psi zero of (A35)", printed_A35(a, lam, mu, phat[(x + 1) % n], psi * phat[(x + 1) % n]), 0, pt)
            t.points += 1
    if t.failure is not None:
        return t.outcome("(A34)-(A35) and their zeros", statement_claims=LEMMA_A5)
    return t.outcome("(A34)-(A35) and their zeros", statement_claims=LEMMA_A5,
                     **_guarded(lambda: _steps_evidence("rldp.steps.a2.a34-a35-lagrangian", len(zeros), _zero_ties(zeros),
                                                         [], "none", "not (A34)-(A35) as derivatives of (A33) "
                                                         "(numerical differentiation)")))


def _zero_ties(zeros) -> list:
    """printed_A34 at P_x = xi P^_x and printed_A35 at P_x' = psi P^_x' (xi, psi of printed_xi_psi), each = 0."""
    from rldp_verify.certificates.series import Formula

    out = []
    for alpha, lam, mu, hx, hy in zeros:
        xi, psi = printed_xi_psi(alpha, Formula.number(lam), Formula.number(mu))
        hx_, hy_ = Formula.number(hx), Formula.number(hy)
        out += [printed_A34(alpha, lam, mu, hx_, xi * hx_).node, printed_A35(alpha, lam, mu, hy_, psi * hy_).node]
    return out


def _steps_evidence(name: str, n_points: int, ties: list, strict: list, what: str, gap: str) -> dict:
    """certificate_covers and the certificates of a step claim (instances_rldp.steps_certificates)."""
    from rldp_verify.certificates import instances_rldp as inst

    covers = (f"of the {n_points} sampled points: the first {min(len(ties), inst.CAP)} of {len(ties)} equalities "
              f"within 1e-30 (not the equalities)" + (f" and the first {min(len(strict), inst.CAP)} of {len(strict)} "
                                                        f"strict inequalities ({what})" if strict else "")
              + ", the printed steps called on the exact data, each re-derived by the checker in arb; " + gap
              + "; not the steps for every instance")
    return {"certificate_covers": covers, **built(inst.steps_certificates, name, ties, strict)}


@claim(
    id="rldp.steps.a2.a36-a40-psi",
    paper=PAPER,
    source="App. A.2, proofs of Lemmas A5 and A6, eqs. (A36)-(A40), (A45)-(A46), 'Then, (A40) implies psi = ...'",
    statement="(A40) gives psi = (1 - rho xi)/(1 - rho); psi >= 0 iff xi <= rho^-1; at P = (xi P^_x on X1, psi P^_x "
              "elsewhere) the power sum is (A38) = rho xi^(1-alpha) + (1-rho) psi^(1-alpha) (= F(rho, xi) + C), for "
              "X1 = {x} (Lemma A5) and any X1 with rho = P^_{X1} ((A45)-(A46), Lemma A6).",
    hypotheses=("alpha > 1", "0 < rho < 1", "0 < xi"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_psi(ctx):
    rng = ctx.rng("steps.a2.psi")
    cases = []   # exact (alpha, P^, X1, r, r_over), xi = r / rho, for the certificates (issue 23)
    t = Tally(ctx.dps)
    with working_precision(ctx.dps):
        for k in range(60):
            a = mp(ORDERS[k % len(ORDERS)])
            n = rng.choice((2, 3, 5))
            phat_q = rand_dist(rng, n)
            phat = [mp(v) for v in phat_q]
            X1 = [0] if k % 2 else sorted(rng.sample(range(n), rng.randint(1, n - 1)))
            rho = mpmath.fsum(phat[i] for i in X1)
            lim = printed_psi_nonnegative_bound(rho)
            r = rand_fraction(rng, 0, 1) if k % 5 else 1
            xi = lim * mp(r) if k % 5 else lim
            psi = printed_psi(rho, xi)
            P = [xi * h if i in X1 else psi * h for i, h in enumerate(phat)]
            pt = {"alpha": a, "rho": rho, "xi": xi, "X1": X1}
            t.equal("(A40)/(A46)", mpmath.fsum(P), 1, pt)
            t.truth("psi >= 0 iff xi <= 1/rho", (psi >= -t.tol) == (xi <= 1 / rho * (1 + t.tol)), pt, psi=psi)
            r_over = rand_fraction(rng, 0, 1)
            cases.append((ORDERS[k % len(ORDERS)], phat_q, X1, r, r_over))
            over = lim * (1 + mp(r_over))
            t.truth("psi >= 0 iff xi <= 1/rho", (printed_psi(rho, over) >= 0) == (over <= 1 / rho), {**pt, "xi": over})
            if psi > 0:
                power = mpmath.fsum(h**a * p ** (1 - a) for h, p in zip(phat, P, strict=True))
                t.equal("(A36)-(A38)/(A45)", printed_A38(a, rho, xi, psi), power, pt)
                t.equal("(A38) = F + C", printed_A38(a, rho, xi, psi), F(a, 0, rho, xi), pt)
            t.points += 1
    if t.failure is not None:
        return t.outcome("(A36)-(A40), (A45)-(A46)", statement_claims=LEMMA_A5 + ("rldp.lemma-a6.l1-radius",))
    return t.outcome("(A36)-(A40), (A45)-(A46)", statement_claims=LEMMA_A5 + ("rldp.lemma-a6.l1-radius",),
                     **_guarded(_psi_evidence, cases))


def _psi_evidence(cases) -> dict:
    """Exactly: P = (xi P^ on X1, psi P^ elsewhere) sums to 1; psi >= 0 at xi = r/rho <= 1/rho and psi < 0 at
    xi = (1 + r')/rho (printed_psi, printed_psi_nonnegative_bound on the exact data). In arb, where psi > 0: (A38) =
    the power sum at P and (A38) = F(rho, xi) + C, within 1e-30."""
    from rldp_verify.certificates import instances_rldp as inst
    from rldp_verify.certificates.series import Formula

    sums, nonneg, negative, ties = [], [], [], []
    for alpha, phat, X1, r, r_over in cases:
        rho = Formula(["+", *(phat[i] for i in X1)])           # the checker adds P^ over X1 itself
        xi = printed_psi_nonnegative_bound(rho) * r
        psi = printed_psi(rho, xi)
        P = [xi * h if i in X1 else psi * h for i, h in enumerate(phat)]
        sums.append(["-", ["+", *(q.node for q in P)], 1])
        nonneg.append(psi.node)
        negative.append((-printed_psi(rho, printed_psi_nonnegative_bound(rho) * (1 + r_over))).node)
        rho_q = sum(phat[i] for i in X1)
        if printed_psi(rho_q, r / rho_q) > 0:   # (A38) only where psi > 0, as the check
            a38 = printed_A38(alpha, rho, xi, psi)
            power = ["+", *(["*", ["pow", h, alpha], ["pow", q.node, 1 - alpha]] for h, q in zip(phat, P, strict=True))]
            ties += [["-", a38.node, power], ["-", a38.node, F(alpha, 0, rho, xi).node]]
    name = "rldp.steps.a2.a36-a40-psi"

    def build():
        return [inst.all_zero_certificate(f"{name}: (A40)/(A46) sum P = 1", sums),
                inst.all_nonneg_certificate(f"{name}: psi >= 0 at xi <= 1/rho", nonneg),
                inst.all_positive_certificate(f"{name}: psi < 0 at xi > 1/rho, -psi", negative),
                *inst.steps_certificates(name, ties, [])]
    n = min(len(cases), inst.CAP)
    covers = (f"the first {n} of the {len(cases)} sampled points exactly (the lift sums to 1; psi has the stated sign "
              f"on both sides of 1/rho) and the first {min(len(ties), inst.CAP)} of {len(ties)} equalities (A38) = "
              "power sum = F + C within 1e-30 (not the equalities), in arb, the printed steps called on the exact "
              "data; not the steps for every instance")
    from rldp_verify.certificates.partial import exact_ties_evidence

    return exact_ties_evidence(covers, build)


@claim(
    id="rldp.steps.a2.f-sign-and-convexity",
    paper=PAPER,
    source="App. A.2, proof of Lemma A5: 'so F(rho, xi) <= 0 iff E_B(rho, xi) <= 0', 'Since F(rho, 1) = 1 - C < 0 and F "
           "is strictly convex in xi, there exists, at most, one solution in (0, 1] and, at most, one in [1, ...)'",
    statement="E_B(rho, xi) = 1/(alpha-1) log(F(rho, xi) + e^{(alpha-1)B}) - B has the sign of F; F(rho, 1) = 1 - C < 0 "
              "(B > 0); F is strictly convex in xi on (0, 1/rho); F(1, xi) = xi^(1-alpha) - C is its limit as rho -> 1.",
    hypotheses=("alpha > 1", "B > 0", "0 < rho < 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="E_B is phi_{B_s} of eq. (26) with B in place of B_s.",
)
def check_f(ctx):
    rng = ctx.rng("steps.a2.f")
    cases = []   # exact (alpha, B, rho, the three xi) for the certificates (issue 23)
    t = Tally(ctx.dps, tol=mpmath.mpf(10) ** (-(ctx.dps // 2)))
    with working_precision(ctx.dps):
        for k in range(40):
            a = mp(ORDERS[k % len(ORDERS)])
            B_q = rand_fraction(rng, 0, 2)
            B = mp(B_q)
            C = mpmath.exp((a - 1) * B)
            rho_q = rand_fraction(rng, 0, 1) if k % 7 else Fraction(1, 10**4)
            rho = mp(rho_q)
            pt = {"alpha": a, "B": B, "rho": rho}
            t.equal("F(rho, 1)", printed_F_at_1(C), F(a, C, rho, 1), pt)
            t.truth("F(rho, 1) < 0", printed_F_at_1(C) < 0, pt, value=printed_F_at_1(C))
            r_xi = rand_fraction(rng, 0, 1)
            cases.append((ORDERS[k % len(ORDERS)], B_q, rho_q, (r_xi / rho_q, (1 - Fraction(1, 10**6)) / rho_q,
                                                                Fraction(1, 10**6))))
            for xi in (mp(r_xi) / rho, 1 / rho * (1 - mpmath.mpf(10) ** -6), mpmath.mpf(10) ** -6):
                f = F(a, C, rho, xi)
                eb = mpmath.log(f + C) / (a - 1) - B
                t.truth("sign of E_B = sign of F", (eb <= 0) == (f <= 0), {**pt, "xi": xi}, F=f, E_B=eb)
                second = mpmath.diff(lambda z: F(a, C, rho, z), xi, 2)
                t.truth("strictly convex", second > 0, {**pt, "xi": xi}, second_derivative=second)
            xi = mp(rand_fraction(rng, 0, 1))
            near = F(a, C, 1 - mpmath.mpf(10) ** (-(ctx.dps - 5)), xi)
            t.equal("F(1, xi) limit", near, xi ** (1 - a) - C, {**pt, "xi": xi})
            t.points += 1
    if t.failure is not None:
        return t.outcome("F's sign and convexity", statement_claims=LEMMA_A5)
    return t.outcome("F's sign and convexity", statement_claims=LEMMA_A5, **_guarded(_f_evidence, cases))


def _f_evidence(cases) -> dict:
    """printed_F_at_1(C) = F(rho, 1) within 1e-30 and < 0; at each xi, F E_B > 0 (the same sign, strictly) and the
    second difference of F(rho, .) with h = min(xi, 1/rho - xi)/1000 > 0; C = e^{(alpha-1)B} bound by ``let``."""
    from rldp_verify.certificates.series import Formula

    ties, strict = [], []
    for alpha, B, rho, xis in cases:
        bind = [["C", ["exp", ["*", alpha - 1, B]]]]
        C, r = Formula("$C"), Formula.number(rho)
        ties.append(["let", bind, (printed_F_at_1(C) - F(alpha, C, r, Formula.number(1))).node])
        strict.append(["let", bind, (-printed_F_at_1(C)).node])
        for xi in xis:
            f = F(alpha, C, r, Formula.number(xi))
            eb = ["-", ["/", ["log", (f + C).node], alpha - 1], B]
            h = min(xi, 1 / rho - xi) / 1000
            d2 = F(alpha, C, r, Formula.number(xi - h)) + F(alpha, C, r, Formula.number(xi + h)) - 2 * f
            strict += [["let", bind, ["*", f.node, eb]], ["let", bind, d2.node]]
    return _steps_evidence("rldp.steps.a2.f-sign-and-convexity", len(cases), ties, strict,
                           "F(rho, 1) < 0, F E_B > 0, F's second differences", "convexity as second differences at the "
                           "three points (exact rationals for the check's mpf points), not F'' nor the limit rho -> 1")


def _root_above_one(a, C, rho, dps):
    """The zero of F(rho, .) in (1, 1/rho) (F(rho, 1) < 0 and F -> +inf at 1/rho for alpha > 1), by bisection."""
    lo, hi = mpmath.mpf(1), 1 / rho
    for _ in range(int(3.4 * dps) + 20):
        mid = (lo + hi) / 2
        if F(a, C, rho, mid) < 0:
            lo = mid
        else:
            hi = mid
    return lo


def xi_domain_certificates(alpha, B, rho) -> list[dict]:
    """At the counterexample (exact alpha > 1, B > 0, 0 < rho < 1/2), the point P_end = (xi_end rho, psi(xi_end)
    (1 - rho)) at the end xi_end = (1 - rho)^-1 of the searched domain, with psi = (1 - rho xi)/(1 - rho): a
    distribution (exact) with D_alpha(P^ || P_end) < B (arb), so P_end lies inside F and max_{P in F} P_x >=
    P^_x xi_end: the zero xi+ that gives that maximum (Lemma A5) is not in [1, (1 - rho)^-1)."""
    xi_end = 1 / (1 - rho)
    P_end = [xi_end * rho, printed_psi(rho, xi_end) * (1 - rho)]
    tag = f"alpha = {alpha}, B = {B}, rho = {rho}, xi_end = (1 - rho)^-1 = {xi_end}"
    return [value_certificate(f"P_end = {[str(x) for x in P_end]} sums to 1 with entries >= 0 (exact), {tag}",
                              ["min", *P_end, ["-", ["+", *P_end], 1], ["-", 1, ["+", *P_end]]], lower=0, exact=True),
            value_certificate(f"P_end positive: min entry > 0, {tag}", ["min", *P_end], lower=0, strict=True,
                              exact=True),
            value_certificate(f"D_alpha(P^ || P_end) < B: P_end in F with P_x = P^_x xi_end, {tag}",
                              renyi_expr([rho, 1 - rho], P_end, alpha), upper=B, strict=True)]


@claim(
    id="rldp.steps.a2.xi-domain",
    paper=PAPER,
    source="App. A.2, proofs of Lemmas A5 and A6: 'Substituting this into (A38) shows that we find xi by solving "
           "F(rho, xi) = 0 for xi in (0, (1-rho)^-1)' and 'we have to solve F(rho, xi) = 0 for xi in [1, (1-rho)^-1)'",
    statement="The zero xi+ of F(rho, .) above 1, which gives max_{P in F} P_x = P^_x xi+ (Lemma A5), lies in the "
              "domain [1, (1-rho)^-1) that the proof searches.",
    hypotheses=("alpha > 1", "B > 0", "0 < rho < 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="The sentence before says psi >= 0 iff xi <= rho^-1; the search domain (1-rho)^-1 is smaller than rho^-1 "
            "when rho < 1/2. The zero is recomputed by bisection on [1, 1/rho] and certified by its witness: "
            "P = (xi P^_x, psi P^_x') is a distribution with D_alpha(P^||P) = B.",
)
def check_xi_domain(ctx):
    rng = ctx.rng("steps.a2.xi-domain")
    t = Tally(ctx.dps)
    worst, cex = None, None
    with working_precision(ctx.dps):
        for k in range(40):
            alpha = ORDERS[k % len(ORDERS)]
            a = mp(alpha)
            B_exact = rand_fraction(rng, 0, 3)
            B = mp(B_exact)
            C = mpmath.exp((a - 1) * B)
            rho_exact = rand_fraction(rng, 0, 1)
            rho = mp(rho_exact)
            xi = _root_above_one(a, C, rho, ctx.dps)
            psi = printed_psi(rho, xi)
            phat = [rho, 1 - rho]
            P = [xi * rho, psi * (1 - rho)]
            D = renyi_divergence(phat, P, alpha, dps=ctx.dps)
            pt = {"alpha": alpha, "B": B, "rho": rho}
            t.equal("witness on the boundary of F", D, B, pt)
            t.truth("witness is a distribution", min(P) >= 0, pt)
            inside = xi < printed_root_domain(rho)
            if not inside and (worst is None or xi * (1 - rho) > worst[0]):
                worst = (xi * (1 - rho), {"alpha": str(alpha), "B": nstr(B, 15), "rho": nstr(rho, 15),
                                          "xi_plus": nstr(xi, 15), "domain_end": nstr(printed_root_domain(rho), 15),
                                          "P_x_max": nstr(P[0], 15)})
            t.truth("xi+ in the searched domain", inside, pt, xi_plus=xi, domain_end=printed_root_domain(rho),
                    witness_P=P, witness_divergence=D)
            if not inside and cex is None and 2 * rho_exact < 1:
                cex = (alpha, B_exact, rho_exact)
            t.points += 1
    return t.outcome("the domain of xi in Lemmas A5-A6's proofs", statement_claims=LEMMA_A5,
                     **(built(xi_domain_certificates, *cex) if cex else {}),
                     repair="search xi in (0, rho^-1] (psi >= 0, the condition the proof derives just before); "
                            "the maxima are then P^_x xi+ as Lemma A5 states with the domain of (28) read as [1, 1/rho] "
                            "(the misprint of eq. (28) found by the statement claims)",
                     largest_violation=worst[1] if worst else None)


def printed_A44_ratio(a, lam, mu, side):
    """'Taking derivatives, we find, analogously to (A34)-(A35), that there exist xi, psi such that P_x = xi P^_x on X1 and
    P_x = psi P^_x on X2': the zero of d/dP_x (A44) is P_x = ((alpha-1) lambda/(mu + side))^(1/alpha) P^_x with side = +1
    on X1 (the objective's coefficient) and -1 on X2."""
    return ((a - 1) * lam / (mu + side)) ** (1 / a)


@claim(
    id="rldp.steps.a2.a44-lagrangian",
    paper=PAPER,
    source="App. A.2, proof of Lemma A6, the Lagrangian (A44) and 'Taking derivatives, we find, analogously to "
           "(A34)-(A35), that there exist xi, psi such that P_x = xi P^_x for all x in X1 and P_x = psi P^_x for all x in X2'",
    statement="The stationary points of (A44) in P have P_x / P^_x constant on X1 and constant on X2: d/dP_x (A44) = "
              "+-1 + (1-alpha) lambda P^_x^alpha P_x^-alpha + mu vanishes at P_x = ((alpha-1) lambda/(mu +- 1))^(1/alpha) P^_x.",
    hypotheses=("alpha > 1", "lambda > 0, mu > 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_a44(ctx):
    rng = ctx.rng("steps.a2.a44")
    cases = []   # exact (alpha, P^, sides, lambda, mu) for the certificates (issue 23)
    t = Tally(ctx.dps, tol=mpmath.mpf(10) ** (-(ctx.dps // 2)))
    with working_precision(ctx.dps):
        for k in range(30):
            a = mp(ORDERS[k % len(ORDERS)])
            n = rng.choice((3, 4, 5))
            phat_q = rand_dist(rng, n)
            phat = [mp(v) for v in phat_q]
            X1 = sorted(rng.sample(range(n), rng.randint(1, n - 1)))
            lam_q, C_q = rand_fraction(rng, 0, 3), rand_fraction(rng, 0, 3)
            lam, C = mp(lam_q), mp(C_q)
            mu_q = 1 + rand_fraction(rng, 0, 3)
            mu = mp(mu_q)
            sides = [1 if x in X1 else -1 for x in range(n)]
            cases.append((ORDERS[k % len(ORDERS)], phat_q, sides, lam_q, mu_q))
            P = [printed_A44_ratio(a, lam, mu, sd) * h for sd, h in zip(sides, phat, strict=True)]

            def lagrangian(*p):
                return (mpmath.fsum(sd * (q - h) for sd, q, h in zip(sides, p, phat, strict=True))
                        + lam * (mpmath.fsum(h**a * q ** (1 - a) for h, q in zip(phat, p, strict=True)) - C) + mu * (mpmath.fsum(p) - 1))

            pt = {"alpha": a, "lambda": lam, "mu": mu, "X1": X1}
            ok = all(isinstance(v, mpmath.mpf) and v > 0 for v in P)
            if not t.truth("ratios real and positive", ok, pt, P=[str(v) for v in P]):
                t.points += 1
                continue
            for j in range(n):
                order = tuple(1 if i == j else 0 for i in range(n))
                t.equal("stationary", mpmath.diff(lagrangian, P, order), 0, {**pt, "coordinate": j})
            t.points += 1
    if t.failure is not None:
        return t.outcome("(A44)'s stationary points", statement_claims=("rldp.lemma-a6.l1-radius",))
    return t.outcome("(A44)'s stationary points", statement_claims=("rldp.lemma-a6.l1-radius",),
                     **_guarded(_a44_evidence, cases))


def _a44_evidence(cases) -> dict:
    """The statement's partial derivative +-1 + (1-alpha) lambda P^_x^alpha P_x^-alpha + mu at P_x =
    printed_A44_ratio(...) P^_x, = 0 within 1e-30 per coordinate."""
    from rldp_verify.certificates.series import Formula

    ties = []
    for alpha, phat, sides, lam, mu in cases:
        for sd, h in zip(sides, phat, strict=True):
            Px = printed_A44_ratio(alpha, Formula.number(lam), mu, sd) * h
            ties.append((sd + (1 - alpha) * lam * Formula.number(h) ** alpha * Px ** (-alpha) + mu).node)
    return _steps_evidence("rldp.steps.a2.a44-lagrangian", len(cases), ties, [], "none",
                           "the derivative written as the statement states it, not derived from (A44) (the check "
                           "differentiates numerically)")


def printed_X1(P, phat):
    """'For a given P, define X1 = {x in X : P_x >= P^_x} and X2 = {x in X : P_x < P^_x}': the indices of X1."""
    return [i for i in range(len(P)) if P[i] >= phat[i]]


@claim(
    id="rldp.steps.a2.boundary-and-partition",
    paper=PAPER,
    source="App. A.2, proofs of Lemmas A5-A6: 'The P that yield the extremal P_x lie on the boundary of F; hence, they either "
           "satisfy P_x in {0, 1}, or the equality (A32)', 'If the solution in (0, 1] does not exist, then the minimal value "
           "of P_x is ... 0', 'Note that X1 = {} is impossible, and for X1 = X, we have P = P^'",
    statement="(i) a P in F with D_alpha(P^||P) < B and 0 < P_x < 1 is not extremal for P_x (P moved slightly towards e_x, or "
              "away from it, stays in F); (ii) for alpha < 1 (the 'analogous' case), when F(rho, .) has no zero in (0, 1], "
              "a P in F has P_x = 0, and when it has one, no P with P_x = 0 is in F; (iii) X1 = {x : P_x >= P^_x} is never "
              "empty, and X1 = X forces P = P^.",
    hypotheses=("P^ of full support",),
    method=(Method.HIGH_PRECISION, Method.EXACT, Method.PROPERTY),
    reading="(ii): for alpha > 1 F(rho, xi) -> +inf as xi -> 0, so a zero in (0, 1] always exists and the sentence is "
            "vacuous; it matters for alpha < 1, checked here with F(rho, 0+) = (1-rho)^alpha - C.",
)
def check_boundary(ctx):
    from fractions import Fraction as Fr

    rng = ctx.rng("steps.a2.boundary")
    t = Tally(ctx.dps)
    cases = {"alpha < 1, F without zero in (0, 1]": 0, "alpha < 1, F with a zero": 0}
    moves, partitions = [], []
    with working_precision(ctx.dps):
        for k in range(30):
            alpha = (Fr(1, 2), Fr(3, 2), Fr(2), Fr(4, 5), Fr(3))[k % 5]
            a = mp(alpha)
            n = rng.choice((2, 3, 4))
            phat = [mp(v) for v in rand_dist(rng, n)]
            P = [mp(v) for v in rand_dist(rng, n)]
            x = rng.randrange(n)
            D = renyi_divergence(phat, P, alpha, dps=ctx.dps)
            B = D * (1 + mp(rand_fraction(rng, 0, 1)))          # P strictly inside F
            pt = {"alpha": alpha, "B": B, "x": x}
            # (i) a small move of P_x up and down stays in F
            for sign in (1, -1):
                ok = False
                for e in range(1, 40):
                    d = mpmath.mpf(2) ** -e
                    Q = [(1 - d) * p + (d if (i == x) == (sign == 1) else 0) * (1 if sign == 1 else 1 / mp(n - 1))
                         for i, p in enumerate(P)]
                    if renyi_divergence(phat, Q, alpha, dps=ctx.dps) <= B and (Q[x] - P[x]) * sign > 0:
                        ok = True
                        moves.append((phat, P, Q, alpha, B, x, sign))
                        break
                t.truth("interior point is not extremal", ok, {**pt, "direction": sign})
            # (ii) alpha < 1: no zero of F(rho, .) in (0, 1] iff the point with P_x = 0 is in F
            if alpha < 1:
                rho = phat[x]
                C = mpmath.exp((a - 1) * B)
                # F(rho, .) on a grid of (0, 1] reaching down to 10^-40 (F(rho, 1) = 1 - C > 0 for alpha < 1)
                grid = [mpmath.mpf(10) ** -40, mpmath.mpf(10) ** -12] + [mpmath.mpf(j) / 64 for j in range(1, 65)]
                no_zero = all(F(a, C, rho, z) >= 0 for z in grid)
                cases["alpha < 1, F without zero in (0, 1]" if no_zero else "alpha < 1, F with a zero"] += 1
                Z = [0 if i == x else h / (1 - rho) for i, h in enumerate(phat)]
                inside = renyi_divergence(phat, Z, alpha, dps=ctx.dps) <= B * (1 + t.tol)
                t.truth("min P_x = 0 exactly when F has no zero in (0, 1]", no_zero == inside, pt,
                        F_near_0=F(a, C, rho, grid[0]), witness_in_F=inside)
            # (iii) exact: X1 is never empty; X1 = X only at P = P^
            ph = rand_dist(rng, n)
            for Q in (rand_dist(rng, n), list(ph)):
                X1 = printed_X1(Q, ph)
                t.truth("X1 not empty", bool(X1), pt)
                t.truth("X1 = X iff P = P^", (len(X1) == n) == (ph == Q), pt)
                partitions.append((Q, ph))
            t.points += 1
    claims_ = ("rldp.lemma-a5.extreme-coordinates", "rldp.lemma-a6.l1-radius")
    what = "boundary, zero-free case and the partition X1, X2"
    if t.failure is not None:
        return t.outcome(what, statement_claims=claims_, cases=cases)
    return t.outcome(what, statement_claims=claims_, cases=cases,
                     certificate_covers=f"(i) the {len(moves)} moved points: each in F (B - D_alpha(P^||Q) >= 0, arb, "
                                        "P^, Q and B as the binary rationals they are) and moved in the stated "
                                        f"direction (exactly); (iii) the {len(partitions)} pairs: X1 not empty (max_x "
                                        "P_x - P^_x >= 0) and X1 = X only at P = P^, exactly; not (ii) (a grid "
                                        "search for a zero, no numeric fact)",
                     **built(_boundary_certificates, moves, partitions))


def _boundary_certificates(moves, partitions) -> list[dict]:
    from rldp_verify.certificates import instances_rldp as inst
    from rldp_verify.certificates.series import exact_number

    def q(v):
        return [exact_number(x) for x in v]

    name = "rldp.steps.a2.boundary-and-partition"
    in_f = [["-", exact_number(B), renyi_expr(q(phat), q(Q), alpha)] for phat, P, Q, alpha, B, x, sign in moves]
    moved = [["*", sign, ["-", exact_number(Q[x]), exact_number(P[x])]] for phat, P, Q, alpha, B, x, sign in moves]
    nonempty = [["max", *(["-", a, b] for a, b in zip(Q, ph, strict=True))] for Q, ph in partitions]
    equal = [["-", ["max", *(inst_abs(["-", a, b]) for a, b in zip(Q, ph, strict=True))]]
             for Q, ph in partitions if ph == Q]
    proper = [["-", ["min", *(["-", a, b] for a, b in zip(Q, ph, strict=True))]] for Q, ph in partitions if ph != Q]
    docs = [inst.all_nonneg_certificate(f"{name}: (i) the moved point in F", in_f, exact=False, cap=len(in_f)),
            inst.all_positive_certificate(f"{name}: (i) moved in the stated direction", moved, cap=len(moved)),
            inst.all_nonneg_certificate(f"{name}: (iii) X1 not empty, max_x P_x - P^_x", nonempty + equal,
                                        cap=len(partitions))]
    if proper:
        docs.append(inst.all_positive_certificate(f"{name}: (iii) P != P^ has X2 not empty, -min_x (P_x - P^_x)",
                                                  proper, cap=len(proper)))
    return docs
