"""Definition 2 (E_gamma, eq. (5)), E_1 = TV, and the integral representation eq. (6) for f_alpha."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import mpmath

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import exact, to_mpf, working_precision
from rldp_verify.topics.fdiv import (
    f_alpha_divergence,
    f_alpha_via_hockey_stick,
    hockey_stick,
    hockey_stick_breakpoints,
    total_variation,
)

from ._common import INT_ALPHAS, PAPER, REAL_ALPHAS, SUB_ALPHAS, fstr, rand_dist


def _eq5(p, q, g):
    """Eq. (5) literally: 1/2 sum |P - gamma Q| - 1/2 |1 - gamma|."""
    return sum(abs(x - g * y) for x, y in zip(p, q, strict=True)) / 2 - abs(1 - g) / 2


@claim(
    id="falpha.def2.egamma-and-tv",
    paper=PAPER,
    source="Sec. II-A, Definition 2, eq. (5) and the sentence after eq. (6)",
    statement="E_gamma(P||Q) = 1/2 sum|P - gamma Q| - 1/2|1 - gamma| equals sum (P - gamma Q)^+ - (1 - gamma)^+, "
              "is >= 0, and E_1(P||Q) = TV(P||Q).",
    hypotheses=("finite alphabet",),
    method=Method.EXACT,
)
def check_egamma(ctx):
    rng = ctx.rng("def2")
    n = 0
    for k in range(300):
        p, q = rand_dist(rng, 2 + k % 6, zeros=True), rand_dist(rng, 2 + k % 6, zeros=True)
        gammas = [Fraction(0), Fraction(1), Fraction(10) ** rng.randint(-4, 4) * rng.randint(1, 9)]
        gammas += hockey_stick_breakpoints(p, q)
        for g in gammas:
            e5, e = _eq5(p, q, g), hockey_stick(p, q, g)
            if e5 != e or e < 0:
                return Outcome.refuted("eq. (5) differs from the positive-part form or is negative",
                                       counterexample={"P": p, "Q": q, "gamma": g}, eq5=e5, positive_part=e, kind="false")
            n += 1
        if hockey_stick(p, q, Fraction(1)) != total_variation(p, q):
            return Outcome.refuted("E_1 != TV", counterexample={"P": p, "Q": q}, kind="false")
    return Outcome.verified(f"{n} exact evaluations agree (random rational pairs, gammas over 10^-4..10^5 and "
                            "every breakpoint)", evaluations=n,
        **no_certificate(  # issue 23
            "exact rational equalities (eq. (5) = the positive-part form, E_1 = TV) at sampled (P, "
            "Q, gamma): the checker has no kind for an exact rational equality (arb proves "
            "enclosures, not that two rationals are equal)"))


def _integral_hp(p, q, a, dps):
    """int_0^inf E_gamma f''(gamma) d gamma by mpmath quadrature on the pieces between breakpoints."""
    with working_precision(dps):
        am = to_mpf(a)
        if a == 1:
            def f2(g):
                return 1 / g
        elif a > 1:
            def f2(g):
                return am * (am - 1) * g ** (am - 2)
        else:
            def f2(g):
                return am * (1 - am) * g ** (am - 2)
        pm, qm = [to_mpf(x) for x in p], [to_mpf(x) for x in q]

        def E(g):
            # for gamma <= 1 use the cancellation-free form sum (gamma Q - P)^+ (same value, since
            # sum (P - gamma Q) = 1 - gamma); the integrand is singular at 0 when alpha < 2
            if g <= 1:
                return sum(max(g * y - x, 0) for x, y in zip(pm, qm, strict=True))
            return sum(max(x - g * y, 0) for x, y in zip(pm, qm, strict=True))

        pts = [mpmath.mpf(0)] + [to_mpf(b) for b in hockey_stick_breakpoints(p, q) if b > 0]
        total = mpmath.mpf(0)
        for lo, hi in pairwise(pts):
            if lo == 0 and a < 2:
                # f'' ~ gamma^(alpha-2) is singular at 0: substitute gamma = s^m, m = 1/min(alpha, 1)
                m = 1 / min(am, 1)
                total += mpmath.quad(lambda s: E(s**m) * f2(s**m) * m * s ** (m - 1), [0, hi ** (1 / m)])
            else:
                total += mpmath.quad(lambda g: E(g) * f2(g), [lo, hi])
        return total


@claim(
    id="falpha.eq6.integral-representation",
    paper=PAPER,
    source="Sec. II-A, eq. (6) (from [20]) applied to f_alpha of eq. (3)",
    statement="D_{f_alpha}(P||Q) = int_0^inf E_gamma(P||Q) f_alpha''(gamma) d gamma.",
    hypotheses=("finite alphabet", "P << Q"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check_eq6(ctx):
    rng = ctx.rng("eq6")
    n_exact = 0
    for a in INT_ALPHAS:
        for k in range(15):
            p, q = rand_dist(rng, 2 + k % 5, zeros=True), rand_dist(rng, 2 + k % 5)
            lhs, rhs = f_alpha_divergence(p, q, a), f_alpha_via_hockey_stick(p, q, a)
            if lhs != rhs:
                return Outcome.refuted("eq. (6) fails exactly", counterexample={"alpha": a, "P": p, "Q": q},
                                       D_f=lhs, integral=rhs, kind="false")
            n_exact += 1
    worst, n_hp = mpmath.mpf(0), 0
    with working_precision(ctx.dps):
        for s in REAL_ALPHAS[::2] + SUB_ALPHAS[1:4] + ("1",):
            a = exact(s)
            for k in range(3):
                p, q = rand_dist(rng, 2 + k, zeros=(a < 1)), rand_dist(rng, 2 + k)
                lhs = to_mpf(f_alpha_divergence(p, q, a, dps=ctx.dps))
                rhs = _integral_hp(p, q, a, ctx.dps)
                worst = max(worst, abs(lhs - rhs) / max(1, abs(lhs)))
                n_hp += 1
        tol = mpmath.mpf(10) ** (-(ctx.dps // 2))
    if worst > tol:
        return Outcome.inconclusive(f"quadrature disagrees by {fstr(worst, 3)}", max_rel_diff=fstr(worst, 3))
    return Outcome.verified(f"{n_exact} exact identities (integer alpha) and {n_hp} quadratures "
                            f"(alpha in (0,1), 1, non-integer > 1) agree to {fstr(worst, 3)}",
                            exact_cases=n_exact, hp_cases=n_hp, max_rel_diff=fstr(worst, 3),
        **no_certificate(  # issue 23
            "exact rational equalities D_f = the integral for integer alpha (the checker has no "
            "kind for an exact rational equality (arb proves enclosures, not that two rationals "
            "are equal)), and mpmath quadrature (not rigorous) for the other orders"))
