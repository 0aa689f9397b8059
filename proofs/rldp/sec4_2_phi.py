"""Sec. 4.2, eqs. (26)-(28) of 000_aca93ed29ea857ee.txt: the function phi_{B_s}(rho, xi) and the roots xi-+.

    phi_{B_s}(rho, xi) = 1/(alpha-1) log(rho xi^{1-alpha} + (1-rho) ((1 - rho xi)/(1 - rho))^{1-alpha}) - B_s
                       = D_alpha(Bern(rho) || Bern(rho xi)) - B_s.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.rldp.uncertainty import RenyiBall
from rldp_verify.rldp.xi_interval import binary_renyi, phi, t_interval

from ._sec34 import PAPER, nstr


def _phi_printed(rho, xi, alpha, Bs):
    """eq. (26) as printed (alpha != 1, rho != 1)."""
    a = to_mpf(alpha)
    return mpmath.log(rho * xi ** (1 - a) + (1 - rho) * ((1 - rho * xi) / (1 - rho)) ** (1 - a)) / (a - 1) - Bs


def _binary_rational(x) -> Fraction:
    """An mpf as the binary rational it is (exact)."""
    m, e = x.man_exp
    return Fraction(int(m)) * Fraction(2) ** int(e)


def _printed_expr(rho: Fraction, xi: Fraction, alpha: Fraction) -> list:
    """eq. (26) as printed (B_s = 0): 1/(alpha-1) log(rho xi^(1-alpha) + (1-rho) ((1 - rho xi)/(1 - rho))^(1-alpha));
    alpha = 1: rho log(1/xi) + (1-rho) log((1-rho)/(1 - rho xi)); rho = 1: log(1/xi)."""
    if rho == 1:
        return ["log", ["/", 1, xi]]
    if alpha == 1:
        return ["+", ["*", rho, ["log", ["/", 1, xi]]], ["*", 1 - rho, ["log", ["/", 1 - rho, 1 - rho * xi]]]]
    return ["*", 1 / (alpha - 1), ["log", ["+", ["*", rho, ["pow", xi, 1 - alpha]],
                                         ["*", 1 - rho, ["pow", ["/", 1 - rho * xi, 1 - rho], 1 - alpha]]]]]


def _binary_certificates(points, tol: Fraction) -> list[dict]:
    """Issue 23: per sampled (alpha, rho, xi), the ``rigorous-value`` certificate |eq. (26) - D_alpha(Bern(rho)||
    Bern(rho xi))| <= tol, the divergence written out from its definition."""
    from rldp_verify.certificates.divergence import binary_renyi_expr
    from rldp_verify.certificates.value import value_certificate

    docs = []
    for alpha, rho, xi in points:
        diff = ["-", _printed_expr(rho, xi, alpha), binary_renyi_expr(rho, rho * xi, alpha)]
        docs.append(value_certificate(f"|eq. (26) - D_{alpha}(Bern(rho)||Bern(rho xi))| <= {tol} at rho = {rho}, "
                                      f"xi = {xi}", ["max", diff, ["-", diff]], upper=tol))
    return docs


@claim(
    id="rldp.sec42.phi-is-binary-divergence",
    paper=PAPER,
    source="Sec. 4.2, eq. (26)",
    statement="phi_{B_s}(rho, xi) of eq. (26) equals D_alpha(Bern(rho) || Bern(rho xi)) - B_s (all three cases).",
    hypotheses=("0 < rho <= 1", "0 < rho xi < 1"),
    method=Method.HIGH_PRECISION,
)
def check_phi_binary(ctx):
    rng = ctx.rng("sec42.binary")
    worst = mpmath.mpf(0)
    points = []   # (alpha, rho, xi) exactly (xi's mpf as the binary rational it is)
    with working_precision(ctx.dps):
        for _k in range(80):
            alpha = rng.choice((Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5, 2), Fraction(7)))
            rho = to_mpf(Fraction(rng.randint(1, 999), 1000))
            xi = mpmath.mpf(rng.random()) / rho * mpmath.mpf("0.999") + mpmath.mpf(10) ** -6
            if alpha == 1:
                printed = rho * mpmath.log(1 / xi) + (1 - rho) * mpmath.log((1 - rho) / (1 - rho * xi))
            else:
                printed = _phi_printed(rho, xi, alpha, 0)
            worst = max(worst, abs(printed - phi(rho, xi, alpha, 0)))
            points.append((alpha, _binary_rational(rho), _binary_rational(xi)))
        # rho = 1: phi = log(1/xi) - B_s for every alpha
        for alpha in (Fraction(1, 2), Fraction(1), Fraction(3)):
            worst = max(worst, abs(phi(1, mpmath.mpf("0.3"), alpha, 0) - mpmath.log(1 / mpmath.mpf("0.3"))))
            points.append((alpha, Fraction(1), Fraction(3, 10)))
    if worst < mpmath.mpf(10) ** (-(ctx.dps - 10)):
        from rldp_verify.certificates.claims import built

        return Outcome.verified(f"eq. (26) = binary Rényi divergence - B_s on 83 points (max diff {nstr(worst, 3)})",
                                max_difference=nstr(worst, 3),
                                **built(_binary_certificates, points, Fraction(1, 10 ** (ctx.dps - 10))))
    return Outcome.refuted("eq. (26) differs from the binary divergence", counterexample={"max_difference": nstr(worst, 5)}, kind="false")


CONVEX_ALPHAS = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10), Fraction(1), Fraction(11, 10),
                 Fraction(3, 2), Fraction(2), Fraction(3), Fraction(6), Fraction(20))
CONVEX_RHOS = (Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1, 2), Fraction(7, 10), Fraction(9, 10),
               Fraction(99, 100))


@claim(
    id="rldp.sec42.phi-convex",
    paper=PAPER,
    source="Sec. 4.2, text after eq. (28)",
    statement="For rho < 1, phi_{B_s}(rho, xi) is convex in xi (so phi = 0 has at most two solutions).",
    hypotheses=("0 < rho < 1", "alpha in (0, inf)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_convex(ctx):
    worst = mpmath.mpf(1)
    where = None
    n = 0
    with working_precision(30):
        for alpha in CONVEX_ALPHAS:
            for rho in CONVEX_RHOS:
                r = to_mpf(rho)
                for k in range(1, 30):
                    xi = mpmath.mpf(k) / 30 / r          # rho xi in (0, 1)
                    d2 = mpmath.diff(lambda x: phi(r, x, alpha, 0), xi, 2)
                    # scale-free: phi'' relative to |phi'|^2 + 1
                    rel = d2 / (1 + mpmath.diff(lambda x: phi(r, x, alpha, 0), xi) ** 2)
                    n += 1
                    if rel < worst:
                        worst, where = rel, (str(alpha), str(rho), nstr(xi, 8), nstr(d2, 8))
    if worst < -mpmath.mpf(10) ** -15:
        return Outcome.refuted(f"phi''(xi) < 0 at alpha, rho, xi = {where[:3]}", counterexample=where, kind="false")
    pts = [(alpha, rho, Fraction(k, 30) / rho) for alpha in CONVEX_ALPHAS for rho in CONVEX_RHOS for k in (1, 15, 29)]
    return Outcome.verified(f"phi'' >= 0 at all {n} grid points (11 orders, 7 values of rho, rho xi on a grid of (0,1)); "
                            "numeric second derivative at 30 digits", min_scaled_second_derivative=nstr(worst, 5),
                            grid_points=n,
                            certificate_covers=f"all {n} grid points and every xi between them: for each of the "
                                               f"{len(CONVEX_ALPHAS) * len(CONVEX_RHOS)} (alpha, rho), phi''(xi) > 0 "
                                               "for every xi with rho xi in [1/1000, 999/1000] (phi'' in closed "
                                               "form, evaluated by the checker in arb on boxes covering the "
                                               "interval; the algebra to the closed form a symbolic-identity; the "
                                               "quotient rule's derivative itself is the closed form's docstring, "
                                               "not re-derived by the checker); and, from eq. (26) as printed, the "
                                               f"second difference phi(xi - h) + phi(xi + h) - 2 phi(xi) > 0 at "
                                               f"{len(pts)} of the grid points (rho h = 1/3000); not rho xi in "
                                               "(0, 1/1000) or (999/1000, 1)",
                            **built(_convexity_documents, pts))


def _convexity_documents(pts) -> list[dict]:
    """Issue 23: phi''(xi) > 0 for every xi with rho xi in [1/1000, 999/1000], per (alpha, rho) of the grid
    (:func:`rldp_verify.certificates.partial.phi_convexity_certificates`: a closed form of phi'' on boxes), and the
    second differences of :func:`_convexity_certificate` at ``pts``."""
    from rldp_verify.certificates.partial import phi_convexity_certificates

    cases = [(alpha, rho) for alpha in CONVEX_ALPHAS for rho in CONVEX_RHOS]
    return [*phi_convexity_certificates("rldp.sec42.phi-convex", cases, Fraction(1, 1000), Fraction(999, 1000)),
            _convexity_certificate(pts)]


def _convexity_certificate(pts) -> dict:
    """Issue 23: phi(xi - h) + phi(xi + h) - 2 phi(xi) > 0 at each (alpha, rho, xi), rho h = 1/3000 (eq. (26) as
    printed, B_s = 0: B_s cancels in a second difference)."""
    from rldp_verify.certificates import instances_rldp as inst

    es = []
    for alpha, rho, xi in pts:
        h = Fraction(1, 3000) / rho
        es.append(["-", ["+", _printed_expr(rho, xi - h, alpha), _printed_expr(rho, xi + h, alpha)],
                   ["*", 2, _printed_expr(rho, xi, alpha)]])
    return inst.all_positive_certificate("rldp.sec42.phi-convex: second difference of eq. (26) in xi", es,
                                        exact=False, cap=len(es))


def _limit_certificates(rho, alpha, Bs) -> list[dict]:
    """Issue 23: the ``rigorous-value`` certificates that both limits of phi_{B_s}(rho, .) are negative: by
    continuity of D_alpha(Bern(rho)||Bern(t)) in t for alpha < 1, the limits at xi -> 0 and xi -> 1/rho are
    D_alpha(Bern(rho)||Bern(0)) - B_s and D_alpha(Bern(rho)||Bern(1)) - B_s, written out from the definition."""
    from rldp_verify.certificates.divergence import binary_renyi_expr
    from rldp_verify.certificates.value import value_certificate

    return [value_certificate(f"phi_B_s(rho, xi) -> D_{alpha}(Bern({rho})||Bern({end})) - {Bs} < 0 as rho xi -> {end}",
                              ["-", binary_renyi_expr(rho, end, alpha), Bs], upper=0, strict=True)
            for end in (0, 1)]


def _domain_certificates(rho, B, R0) -> list[dict]:
    """Issue 23: the counterexample as ``rigorous-value`` certificates, R0 rounded to a rational R: D_2(Bern(rho)||
    Bern(R)) <= B (R in the ball) and R - rho/(1 - rho) > 0 (R_u beyond the printed domain's cap)."""
    from rldp_verify.certificates.divergence import binary_renyi_expr
    from rldp_verify.certificates.value import value_certificate

    from ._certified import rational

    R = R0 if isinstance(R0, Fraction) else rational(R0, 30)
    return [value_certificate(f"D_2(Bern({rho})||Bern(R)) <= {B} for R = {R}", binary_renyi_expr(rho, R, 2), upper=B),
            value_certificate(f"R = {R} > rho/(1 - rho), the largest R_u of the printed domain",
                              ["-", R, ["/", rho, ["-", 1, rho]]], lower=0, strict=True)]


@claim(
    id="rldp.sec42.phi-endpoints",
    paper=PAPER,
    source="Sec. 4.2, text after eq. (28)",
    statement="phi_{B_s}(rho, 1) = -B_s and phi_{B_s}(rho, xi) -> inf as xi approaches 0 or the upper end of its "
              "domain, so for rho < 1, xi-(rho) and xi+(rho) are the two solutions of phi = 0.",
    hypotheses=("0 < rho < 1", "alpha in (0, inf)"),
    method=Method.HIGH_PRECISION,
    reading="phi(rho, 1) is printed as '= B_s' (minus sign lost); D(Bern rho||Bern rho) = 0 gives -B_s. "
            "The upper end is read as 1/rho (see rldp.sec42.xi-plus-domain).",
)
def check_endpoints(ctx):
    with working_precision(ctx.dps):
        alpha, rho, Bs = Fraction(1, 2), Fraction(1, 2), Fraction(1)
        at0 = binary_renyi(rho, 0, alpha)          # limit xi -> 0: finite for alpha < 1
        at_top = binary_renyi(rho, 1, alpha)       # limit xi -> 1/rho
        tm, tp = t_interval(rho, alpha, Bs, dps=ctx.dps)
        at1 = phi(rho, 1, alpha, Bs)
    # here D_{1/2}(Bern(1/2)||Bern(0)) = log 2 < B_s = 1: phi stays negative near 0, no root in (0, 1]
    if at0 < to_mpf(Bs):
        from rldp_verify.certificates.claims import built

        return Outcome.refuted(
            f"for alpha < 1 phi stays finite: alpha = 1/2, rho = 1/2, B_s = 1 gives phi -> {nstr(at0 - Bs, 10)} as "
            f"xi -> 0 and {nstr(at_top - Bs, 10)} as xi -> 1/rho; phi = 0 has no solution and (27)-(28) give "
            f"xi- = {nstr(tm / to_mpf(rho), 5)}, xi+ = {nstr(tp / to_mpf(rho), 5)} (the ends of the domain)",
            counterexample={"alpha": "1/2", "rho": "1/2", "B_s": "1", "phi_limit_xi_to_0": nstr(at0 - Bs, 20),
                            "phi_limit_xi_to_1_over_rho": nstr(at_top - Bs, 20)},
            phi_at_1=nstr(at1, 10), note="for alpha >= 1 both limits are +inf (the statement holds)",
            kind="missing-hypothesis", **built(_limit_certificates, rho, alpha, Bs))
    return Outcome.inconclusive("no counterexample at the chosen point", phi_limit_0=nstr(at0, 10))


@claim(
    id="rldp.sec42.xi-plus-domain",
    paper=PAPER,
    source="Sec. 4.2, eqs. (26) and (28); App. A.2, eq. (A29)",
    statement="xi+(rho) = sup{xi in [1, (1-rho)^{-1}) : phi_{B_s}(rho, xi) <= 0} (domain as printed), and with it "
              "max_{R in F_{U|s}} R_u = P^_{u|s} xi+(P^_{u|s}) (Lemma A5).",
    hypotheses=("0 < rho < 1",),
    method=Method.HIGH_PRECISION,
    reading="Lemma A5's proof (psi = (1 - rho xi)/(1 - rho) >= 0 iff xi <= 1/rho) gives the domain [1, 1/rho]; "
            "the two coincide only at rho = 1/2.",
)
def check_domain(ctx):
    with working_precision(ctx.dps):
        phat = [[Fraction(1, 10), Fraction(9, 10)]]          # |S| = 1 so F_{U|s} = F, B_s = B
        rho, B = Fraction(1, 10), Fraction(1)
        ball = RenyiBall.from_radius(phat, 2, B)
        tm, tp = t_interval(rho, 2, B, dps=ctx.dps)
        cap = to_mpf(rho) / (1 - to_mpf(rho))   # rho * (1-rho)^{-1}: the largest R_u the printed domain allows
        # witness R in the ball with R_u above the cap: R = (t+, 1 - t+) slightly inside
        R0 = (tp + cap) / 2
        D = binary_renyi(rho, R0, 2)
    if cap < R0 and to_mpf(B) >= D:
        from rldp_verify.certificates.claims import built

        return Outcome.refuted(
            f"with the printed domain, P^_u xi+ <= rho/(1-rho) = {nstr(cap, 6)}, but R = ({nstr(R0, 6)}, "
            f"{nstr(1 - R0, 6)}) has D_2(P^||R) = {nstr(D, 6)} <= B = 1; the true max R_u is {nstr(tp, 10)} "
            "(domain [1, 1/rho])",
            counterexample={"phat": ["1/10", "9/10"], "alpha": "2", "B": "1", "R_u": nstr(R0, 20),
                            "D2": nstr(D, 20)}, printed_domain_cap=nstr(cap, 20), true_max=nstr(tp, 20),
            S_marginal=str(ball.marginal(0)), kind="misprint", **built(_domain_certificates, rho, B, R0))
    return Outcome.inconclusive("no counterexample at the chosen point", true_max=nstr(tp, 10), cap=nstr(cap, 10))
