"""Definition 2 (E_gamma, eq. (5)), E_1 = TV, and the integral representation eq. (6) for f_alpha."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import abs_expr, value_certificate
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
    n, cases = 0, []
    for k in range(300):
        p, q = rand_dist(rng, 2 + k % 6, zeros=True), rand_dist(rng, 2 + k % 6, zeros=True)
        gammas = [Fraction(0), Fraction(1), Fraction(10) ** rng.randint(-4, 4) * rng.randint(1, 9)]
        gammas += hockey_stick_breakpoints(p, q)
        cases.append((p, q, gammas))
        for g in gammas:
            e5, e = _eq5(p, q, g), hockey_stick(p, q, g)
            if e5 != e or e < 0:
                return Outcome.refuted("eq. (5) differs from the positive-part form or is negative",
                                       counterexample={"P": p, "Q": q, "gamma": g}, eq5=e5, positive_part=e, kind="false")
            n += 1
        if hockey_stick(p, q, Fraction(1)) != total_variation(p, q):
            return Outcome.refuted("E_1 != TV", counterexample={"P": p, "Q": q}, kind="false")
    return Outcome.verified(f"{n} exact evaluations agree (random rational pairs, gammas over 10^-4..10^5 and "
                            "every breakpoint)", evaluations=n, certificate_covers="every sampled (P, Q, gamma): "
                            "eq. (5) >= 0 and = the positive-part form, and E_1 = TV = max over events A of "
                            "P(A) - Q(A), all in exact rationals",
                            **built(lambda: [d for i, c in enumerate(cases) for d in egamma_certificates(i, *c)]))


def _bind(p, q) -> list:
    """The let-bindings $p<x> = P(x), $q<x> = Q(x)."""
    return [[f"{v}{x}", c] for v, r in (("p", p), ("q", q)) for x, c in enumerate(r)]


def eq5_expr(n: int, g) -> list:
    """E_gamma by eq. (5): 1/2 sum_x |P(x) - gamma Q(x)| - 1/2 |1 - gamma| ($p<x>, $q<x> bound, gamma exact or
    an expression)."""
    return ["-", ["/", ["+", *[abs_expr(["-", f"$p{x}", ["*", g, f"$q{x}"]]) for x in range(n)]], 2],
            ["/", abs_expr(["-", 1, g]), 2]]


def positive_part_expr(n: int, g) -> list:
    """E_gamma as sum_x (P(x) - gamma Q(x))^+ - (1 - gamma)^+ ($p<x>, $q<x> bound)."""
    return ["-", ["+", *[["max", ["-", f"$p{x}", ["*", g, f"$q{x}"]], 0] for x in range(n)]], ["max", ["-", 1, g], 0]]


def egamma_certificates(i: int, p, q, gammas) -> list[dict]:
    """Issue 23, pair ``i`` of falpha.def2.egamma-and-tv, two exact ``rigorous-value`` certificates: min over
    ``gammas`` of min(eq. (5), -|eq. (5) - positive-part form|) >= 0 (eq. (5) >= 0 and equal to the positive-part
    form at each gamma); E_1 (eq. (5)) - TV = 0, TV(P||Q) = max over the events A (subsets of X, the empty one
    included) of P(A) - Q(A)."""
    from itertools import combinations

    n = len(p)
    binds = _bind(p, q)
    for j, g in enumerate(gammas):    # r = P(x) - gamma Q(x), then eq. (5) and the positive-part form from it
        binds += [[f"g{j}", g], *[[f"r{j}_{x}", ["-", f"$p{x}", ["*", f"$g{j}", f"$q{x}"]]] for x in range(n)]]
        r = [f"$r{j}_{x}" for x in range(n)]
        binds += [[f"e{j}", ["-", ["/", ["+", *map(abs_expr, r)], 2], ["/", abs_expr(["-", 1, f"$g{j}"]), 2]]],
                  [f"f{j}", ["-", ["+", *[["max", v, 0] for v in r]], ["max", ["-", 1, f"$g{j}"], 0]]]]
    both = [["min", f"$e{j}", ["-", abs_expr(["-", f"$e{j}", f"$f{j}"])]] for j in range(len(gammas))]
    d = [[f"d{x}", ["-", f"$p{x}", f"$q{x}"]] for x in range(n)]
    events = [["+", 0, *[f"$d{x}" for x in A]] for k in range(1, n + 1) for A in combinations(range(n), k)]
    tag = f"pair {i} (|X| = {n})"
    return [value_certificate(f"{tag}: eq. (5) >= 0 and = sum (P - gamma Q)^+ - (1 - gamma)^+ at {len(gammas)} gammas",
                              ["let", binds, ["min", *both]], lower=0, exact=True),
            value_certificate(f"{tag}: E_1 = TV = max_A P(A) - Q(A)",
                              ["let", _bind(p, q) + d, ["-", eq5_expr(n, 1), ["max", 0, *events]]], lower=0, upper=0,
                              exact=True)]


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
    n_exact, cases = 0, []
    for a in INT_ALPHAS:
        for k in range(15):
            p, q = rand_dist(rng, 2 + k % 5, zeros=True), rand_dist(rng, 2 + k % 5)
            lhs, rhs = f_alpha_divergence(p, q, a), f_alpha_via_hockey_stick(p, q, a)
            if lhs != rhs:
                return Outcome.refuted("eq. (6) fails exactly", counterexample={"alpha": a, "P": p, "Q": q},
                                       D_f=lhs, integral=rhs, kind="false")
            n_exact += 1
            cases.append((a, p, q))
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
                            certificate_covers=f"the {n_exact} integer-alpha cases, exactly: D_f = the integral "
                            "written piece by piece between the sorted breakpoints (the ratios P/Q, 0 and 1, where "
                            "E_gamma is linear, interpolated from eq. (5) at the ends; E_gamma = 0 beyond the "
                            "largest ratio) with the antiderivatives f' and gamma f' - f of f = t^alpha - 1; not the "
                            "mpmath quadratures of the other orders",
                            **built(lambda: [d for i, c in enumerate(cases) for d in integral_certificates(i, *c)]))


def integral_certificates(i: int, alpha: int, p, q) -> list[dict]:
    """Issue 23, case ``i`` of falpha.eq6.integral-representation (integer alpha >= 2, Q > 0), two exact
    ``rigorous-value`` certificates: the breakpoints b_0 = 0, then 1 and every P(x)/Q(x) in increasing order
    (min_j (b_{j+1} - b_j) >= 0), so E_gamma is linear on each [b_j, b_{j+1}] (each (P(x) - gamma Q(x))^+ and
    (1 - gamma)^+ changes form only at a breakpoint) and 0 beyond the last (gamma >= every ratio and >= 1); and
    D_f(P||Q) = sum_x Q(x) ((P(x)/Q(x))^alpha - 1) (eq. (3)) equal to int_0^inf E_gamma f''(gamma) d gamma =
    sum over the pieces with b_j < b_{j+1} of c0 [f']_{b_j}^{b_{j+1}} + c1 [gamma f' - f]_{b_j}^{b_{j+1}},
    f' = alpha gamma^(alpha-1), gamma f' - f = (alpha - 1) gamma^alpha + 1, E_gamma = c0 + c1 gamma through
    eq. (5)'s values at the piece's ends."""
    n, a = len(p), int(alpha)
    ratios = sorted([(Fraction(1), 1)] + [(Fraction(x) / Fraction(y), ["/", x, y]) for x, y in zip(p, q, strict=True)],
                    key=lambda t: t[0])
    b = [(Fraction(0), 0), *ratios]
    binds = _bind(p, q) + [[f"b{j}", e] for j, (_, e) in enumerate(b)]
    binds += [[f"E{j}", eq5_expr(n, f"$b{j}")] for j in range(len(b))]
    pieces = []
    for j in range(len(b) - 1):
        if b[j][0] == b[j + 1][0]:
            continue    # an empty piece
        lo, hi = f"$b{j}", f"$b{j + 1}"
        c1 = ["/", ["-", f"$E{j + 1}", f"$E{j}"], ["-", hi, lo]]
        c0 = ["-", f"$E{j}", ["*", c1, lo]]
        pieces.append(["+", ["*", c0, ["*", a, ["-", ["pow", hi, a - 1], ["pow", lo, a - 1]]]],
                       ["*", c1, ["*", a - 1, ["-", ["pow", hi, a], ["pow", lo, a]]]]])
    d_f = ["+", *[["*", y, ["-", ["pow", ["/", x, y], a], 1]] for x, y in zip(p, q, strict=True)]]
    tag = f"case {i} (alpha = {a}, |X| = {n})"
    return [value_certificate(f"{tag}: the breakpoints 0, 1, P(x)/Q(x) in increasing order",
                              ["let", binds[:2 * n + len(b)], ["min", *[["-", f"$b{j + 1}", f"$b{j}"]
                                                                        for j in range(len(b) - 1)]]],
                              lower=0, exact=True),
            value_certificate(f"{tag}: D_f(P||Q) = int_0^inf E_gamma f_alpha''(gamma) d gamma (piecewise linear E)",
                              ["let", binds, ["-", d_f, ["+", *pieces]]], lower=0, upper=0, exact=True)]
