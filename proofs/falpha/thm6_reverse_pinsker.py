"""Theorem 6 (reverse Pinsker inequality for f_alpha, Binette's inequality), its proof steps (28)-(34),
and Remark 7 (the alpha -> infinity limit and the Gamma_min = 0 special case)."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import minimize

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import covers
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import exact, to_mpf, working_precision
from rldp_verify.topics.fdiv import (
    R_alpha,
    f_alpha_divergence,
    gamma_extremes,
    hockey_stick,
    hockey_stick_breakpoints,
    likelihood_ratio_extremes,
    reverse_pinsker_bound,
    total_variation,
)

from ._common import INT_ALPHAS, PAPER, REAL_ALPHAS, fstr, rand_dist, to_fraction_list


def _slack(p, q, a, dists=None, dps=50):
    """(lhs, rhs) of eq. (22) with the Gammas of the set ``dists``; dists=None uses the pair's own
    extremes Gamma_min(X,P,Q) = min P/Q, Gamma_max(X,P,Q) = max P/Q (eqs. (28)-(29), the proof's bound)."""
    if dists is None:
        m, M = likelihood_ratio_extremes(p, q)
        gmin, gmax = min(m, Fraction(1)), max(M, Fraction(1))
    else:
        gmin, gmax = gamma_extremes(dists)
    lhs = f_alpha_divergence(p, q, a, dps=dps)
    rhs = reverse_pinsker_bound(p, q, a, gamma_min=gmin, gamma_max=gmax, dps=dps)
    return lhs, rhs


def _softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def _search_min_relative_slack(a: float, n: int, rng_np, starts: int = 6):
    """Minimise (rhs - lhs)/rhs of eq. (22) over pairs of full-support distributions on n points."""
    def obj(z):
        p, q = _softmax(z[:n]), _softmax(z[n:])
        lhs = float(np.sum(p**a * q ** (1 - a)) - 1)
        r = p / q
        M, m = max(r.max(), 1.0), min(r.min(), 1.0)  # the pair's own Gammas (the tightest reading)
        R = (M**a - 1) / (M - 1) if M > 1 + 1e-12 else a
        R -= (1 - m**a) / (1 - m) if m < 1 - 1e-12 else a
        rhs = 0.5 * np.abs(p - q).sum() * R
        return (rhs - lhs) / rhs if rhs > 1e-12 else 1.0

    best = None
    for _ in range(starts):
        z0 = rng_np.normal(size=2 * n) * 2
        res = minimize(obj, z0, method="Nelder-Mead", options={"maxiter": 3000, "xatol": 1e-10, "fatol": 1e-14})
        if best is None or res.fun < best.fun:
            best = res
    return best.fun, _softmax(best.x[:n]), _softmax(best.x[n:])


@claim(
    id="falpha.thm6.reverse-pinsker",
    paper=PAPER,
    source="Sec. IV, Theorem 6, eqs. (20)-(23)",
    statement="For alpha > 1 and P_X, Q_X in a set P: D_{f_alpha}(P_X||Q_X) <= TV(P_X||Q_X) R_alpha(Gamma_max(X), Gamma_min(X)), "
              "R_alpha(u, v) = (u^alpha - 1)/(u - 1) - (1 - v^alpha)/(1 - v).",
    hypotheses=("alpha > 1", "finite alphabet", "P a finite set of distributions containing P_X, Q_X",
                "R_alpha(1, .) and R_alpha(., 1) take their limits (alpha)",
                 "also checked with the pair's own Gammas min/max P/Q (what the proof bounds, the strongest form)"),
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_thm6(ctx):
    rng = ctx.rng("thm6")
    n_exact = n_hp = 0
    tight = 0
    certified = []   # issue 23: (alpha, P, Q, set or None, binary equality) of the first draws per alpha
    for a in INT_ALPHAS:
        for k in range(40):
            n = 2 + k % 5
            p, q = rand_dist(rng, n, zeros=(k % 3 == 0)), rand_dist(rng, n)
            extra = [rand_dist(rng, n) for _ in range(k % 3)]
            for dists in (None, [p, q], [p, q] + extra):
                lhs, rhs = _slack(p, q, a, dists)
                if lhs > rhs:
                    return Outcome.refuted("eq. (22) fails", counterexample={"alpha": a, "P": p, "Q": q, "set": dists},
                                           lhs=lhs, rhs=rhs, kind="false")
                n_exact += 1
                if k < CERT_DRAWS and _thm6_terms(a, p, q, dists) is not None:   # an infinite Gamma_max: vacuous
                    certified.append((a, p, q, dists, False))
            # binary pairs (two likelihood-ratio values): equality, i.e. the bound is attained
            if n == 2:
                lhs, rhs = _slack(p, q, a)
                tight += lhs == rhs
                if lhs == rhs and k < CERT_DRAWS and _thm6_terms(a, p, q, None) is not None:
                    certified.append((a, p, q, None, True))
    worst_rel = mpmath.inf
    with working_precision(ctx.dps):
        for s in REAL_ALPHAS:
            a = exact(s)
            for k in range(15):
                n = 2 + k % 5
                p, q = rand_dist(rng, n, zeros=(k % 3 == 0)), rand_dist(rng, n)
                lhs, rhs = _slack(p, q, a, dps=ctx.dps)
                if rhs == mpmath.inf or rhs == float("inf"):
                    continue
                if lhs - rhs > mpmath.mpf(10) ** (-(ctx.dps - 10)) * max(1, abs(rhs)):
                    return Outcome.refuted("eq. (22) fails", counterexample={"alpha": s, "P": p, "Q": q},
                                           lhs=fstr(lhs), rhs=fstr(rhs), kind="false")
                if rhs > 0:
                    worst_rel = min(worst_rel, (to_mpf(rhs) - to_mpf(lhs)) / to_mpf(rhs))
                n_hp += 1
    # adversarial search: minimise the relative slack (rhs - lhs)/rhs; re-check the minimiser exactly
    rng_np = ctx.np_rng("thm6.search")
    searches = []
    for a in (2, 3, 5):
        for n in (3, 4):
            f, p, q = _search_min_relative_slack(float(a), n, rng_np)
            pf, qf = to_fraction_list(p), to_fraction_list(q)
            lhs, rhs = _slack(pf, qf, a)
            if lhs > rhs:
                return Outcome.refuted("eq. (22) fails at a searched point",
                                       counterexample={"alpha": a, "P": pf, "Q": qf}, lhs=lhs, rhs=rhs, kind="false")
            # the float minimiser only searches for a violation; its point depends on the machine's floating
            # point, so only the fact that it found none is reported (issue 9 item 4)
            searches.append({"alpha": a, "n": n, "violation_found": False})
    return Outcome.verified(
        f"{n_exact} exact cases (integer alpha, sets of 2-4 distributions), {n_hp} high-precision cases; "
        f"equality attained on {tight} binary pairs; the minimiser of the relative slack finds no violation "
        "(it approaches 0, the binary equality case)",
        exact_cases=n_exact, hp_cases=n_hp, binary_equalities=tight,
        min_relative_slack_random_hp=fstr(worst_rel, 6), searches=searches,
        certificate_covers=covers(sum(1 for c in certified if not c[4]), n_exact, "exact inequalities (22) (the "
                                  f"first {CERT_DRAWS} draws per integer alpha, with the pair's own Gammas and with "
                                  "each set; cases with an infinite Gamma_max are vacuous and left out) and the "
                                  f"{sum(1 for c in certified if c[4])} binary equalities among them, D_f_alpha, TV, "
                                  "the Gammas and R_alpha written from the distributions; the high-precision cases "
                                  "(non-integer alpha) and the float search carry none", chosen=True),
        **built(_thm6_certificates, certified))


CERT_DRAWS = 10


def _thm6_terms(a: int, p, q, dists):
    """rhs - lhs of (22) as an exact expression, or None when Gamma_max is infinite (the bound is vacuous):
    lhs = sum_x P^a / Q^(a-1) - 1, TV = sum |P - Q| / 2, Gamma_max / Gamma_min the max / min of 1 and the ratios
    A(x)/B(x) (B(x) > 0) over the ordered pairs (A, B) of the set ({P, Q} with the pair's own Gammas), and
    R_a(u, v) = sum_{j < a} (u^j - v^j) (= (u^a - 1)/(u - 1) - (1 - v^a)/(1 - v), the limits a included)."""
    from rldp_verify.certificates.value import abs_expr

    # the pair's own Gammas (dists None): min / max of P/Q only (eqs. (28)-(29)); a set: every ordered pair
    pairs = [(p, q)] if dists is None else [(x, y) for i, x in enumerate(dists) for j, y in enumerate(dists) if i != j]
    if any(u > 0 == w for x, y in pairs for u, w in zip(x, y, strict=True)):
        return None
    ratios = [["/", u, w] for x, y in pairs for u, w in zip(x, y, strict=True) if w > 0]
    lhs = ["-", ["+", *[["/", ["pow", u, a], ["pow", w, a - 1]] for u, w in zip(p, q, strict=True) if u > 0]], 1]
    tv = ["/", ["+", *[abs_expr(["-", u, w]) for u, w in zip(p, q, strict=True)]], 2]
    R = ["+", *[["-", ["pow", "$u", j], ["pow", "$v", j]] for j in range(a)]]
    return ["let", [["u", ["max", 1, *ratios]], ["v", ["min", 1, *ratios]]], ["-", ["*", tv, R], lhs]]


def _thm6_certificates(cases) -> list[dict]:
    """Exact: every rhs - lhs of (22) >= 0 (one certificate), and = 0 at the binary equalities (another)."""
    from rldp_verify.certificates.instances_other import all_nonneg, all_zero

    ineq = [_thm6_terms(a, p, q, dists) for a, p, q, dists, eq in cases if not eq]
    docs = [all_nonneg(f"(22) at {len(ineq)} sampled (alpha, P, Q, set)", ineq)]
    eqs = [_thm6_terms(a, p, q, None) for a, p, q, _, eq in cases if eq]
    if eqs:
        docs.append(all_zero(f"(22) with equality at {len(eqs)} binary pairs", eqs))
    return docs


def _chord(g, d, m, M):
    """g(gamma) of eq. (33) for one pair: Delta, Gamma_min(X,P,Q) = m, Gamma_max(X,P,Q) = M."""
    if not (m < g < M):
        return Fraction(0)
    if g <= 1:
        return d * (g - m) / (1 - m)
    return d * (M - g) / (M - 1)


@claim(
    id="falpha.thm6.proof-egamma-support-and-chord",
    paper=PAPER,
    source="Sec. IV, proof of Theorem 6, eqs. (28)-(33)",
    statement="E_gamma(P||Q) = 0 unless Gamma_min(X,P,Q) < gamma < Gamma_max(X,P,Q), and there "
              "E_gamma(P||Q) <= g(gamma), the piecewise-linear chord function of eq. (33) through (Gamma_min, 0), (1, TV), (Gamma_max, 0).",
    hypotheses=("finite alphabet", "P << Q, Q << P (finite ratios)"),
    method=Method.EXACT,
)
def check_chord(ctx):
    rng = ctx.rng("thm6.chord")
    n, cases = 0, []
    for k in range(200):
        size = 2 + k % 6
        p, q = rand_dist(rng, size), rand_dist(rng, size)
        m, M = likelihood_ratio_extremes(p, q)
        d = total_variation(p, q)
        pts = hockey_stick_breakpoints(p, q)
        grid = set(pts)
        for lo, hi in zip([Fraction(0)] + pts, pts + [pts[-1] * 2], strict=True):
            for w in (Fraction(1, 7), Fraction(1, 2), Fraction(6, 7)):
                grid.add(lo + (hi - lo) * w)
        for g in sorted(grid):
            e = hockey_stick(p, q, g)
            if (g <= m or g >= M) and e != 0:
                return Outcome.refuted("E_gamma != 0 outside (Gamma_min, Gamma_max)",
                                       counterexample={"P": p, "Q": q, "gamma": g}, E=e, kind="false")
            if e > _chord(g, d, m, M):
                return Outcome.refuted("E_gamma exceeds the chord bound (33)",
                                       counterexample={"P": p, "Q": q, "gamma": g}, E=e, chord=_chord(g, d, m, M), kind="false")
            n += 1
        cases.append((p, q, [Fraction(0), *pts]))
    return Outcome.verified(f"{n} exact evaluations on 200 random pairs (all breakpoints and points between)",
                            evaluations=n, certificate_covers="every pair, exactly, at gamma = 0, 1 and every ratio "
                            "P(x)/Q(x): E_gamma <= g(gamma), and E_gamma = 0 at those outside (Gamma_min, Gamma_max); "
                            "E_gamma and g are linear between consecutive ones of these points (their kinks) and 0 "
                            "beyond the largest, so this gives both at every gamma >= 0, the claim's sampled points "
                            "between the breakpoints included (that step is not checked by the checker)",
                            **built(lambda: [d for i, c in enumerate(cases) for d in chord_certificates(i, *c)]))


def chord_certificates(i: int, p, q, gammas) -> list[dict]:
    """Issue 23, pair ``i`` of falpha.thm6.proof-egamma-support-and-chord (P, Q > 0), at ``gammas`` (the claim
    passes 0 and the breakpoints, where E_gamma and g have their kinks): one exact ``rigorous-value`` certificate,
    with m = Gamma_min = min_x P(x)/Q(x), M = Gamma_max = max_x P(x)/Q(x) (eqs. (28)-(29)), Delta = E_1 = TV and
    E_gamma by eq. (5), that the minimum of these is >= 0: at the gammas with (gamma - m)(gamma - M) >= 0 (outside
    (m, M)), min((gamma - m)(gamma - M), -|E_gamma|), so E_gamma = 0 there; at every gamma (unless P = Q, m = M =
    1: no chord), g(gamma) - E_gamma, with the chord of eq. (33) g(gamma) = max(0, min(Delta (gamma - m)/(1 - m),
    Delta (M - gamma)/(M - 1))) (m < 1 < M: the two lines cross at (1, Delta); below m or above M one is < 0)."""
    from fractions import Fraction as Fr

    from rldp_verify.certificates.value import abs_expr, value_certificate

    from .def2_egamma import _bind, eq5_expr

    n = len(p)
    rs = [Fr(x) / Fr(y) for x, y in zip(p, q, strict=True)]
    m, M = min(rs), max(rs)
    binds = _bind(p, q) + [["m", ["min", *[["/", f"$p{x}", f"$q{x}"] for x in range(n)]]],
                           ["M", ["max", *[["/", f"$p{x}", f"$q{x}"] for x in range(n)]]], ["D", eq5_expr(n, 1)]]
    binds += [[f"g{j}", g] for j, g in enumerate(gammas)] + [[f"E{j}", eq5_expr(n, f"$g{j}")] for j in range(len(gammas))]
    out = [j for j, g in enumerate(gammas) if g <= m or g >= M]
    chord = [["max", 0, ["min", ["/", ["*", "$D", ["-", f"$g{j}", "$m"]], ["-", 1, "$m"]],
                         ["/", ["*", "$D", ["-", "$M", f"$g{j}"]], ["-", "$M", 1]]]] for j in range(len(gammas))]
    below = [["-", c, f"$E{j}"] for j, c in enumerate(chord)] if m < 1 < M else []   # P = Q: m = M = 1, no chord
    zero = [["min", ["*", ["-", f"$g{j}", "$m"], ["-", f"$g{j}", "$M"]], ["-", abs_expr(f"$E{j}")]] for j in out]
    return [value_certificate(f"pair {i} (|X| = {n}): E_gamma <= g(gamma) (eq. (33)) at {len(gammas)} gammas, and "
                              f"E_gamma = 0 at the {len(out)} of them outside (Gamma_min, Gamma_max)",
                              ["let", binds, ["min", *below, *zero]], lower=0, exact=True)]


@claim(
    id="falpha.thm6.integral-closed-form",
    paper=PAPER,
    source="Sec. IV, proof of Theorem 6, eq. (34) -> eq. (23)",
    statement="alpha(alpha-1) int_{Gamma_min}^{Gamma_max} g(gamma) gamma^(alpha-2) d gamma = TV * R_alpha(Gamma_max, Gamma_min).",
    hypotheses=("alpha > 1", "0 <= Gamma_min < 1 < Gamma_max"),
    method=Method.SYMBOLIC,
)
def check_closed_form(ctx):
    a, d = sp.symbols("alpha Delta", positive=True)
    g, m, M = sp.symbols("gamma m M", positive=True)
    left = sp.integrate(d * (g - m) / (1 - m) * g ** (a - 2), (g, m, 1), conds="none")
    right = sp.integrate(d * (M - g) / (M - 1) * g ** (a - 2), (g, 1, M), conds="none")
    total = a * (a - 1) * (left + right)
    R = (M**a - 1) / (M - 1) - (1 - m**a) / (1 - m)
    diff = sp.simplify(sp.powsimp(sp.expand(sp.simplify(total - d * R)), force=True))
    ok = diff == 0
    if not ok:  # fall back to numeric confirmation at random points before calling it
        vals = [abs(complex(diff.subs({a: sp.Rational(17, 7), d: sp.Rational(1, 3), m: sp.Rational(1, 5),
                                      M: sp.Rational(9, 4)}).evalf(40)))]
        ok = max(vals) < 1e-30
        if not ok:
            return Outcome.refuted("closed form differs", counterexample={"alpha": "17/7", "m": "1/5", "M": "9/4"},
                                   difference=str(vals), kind="false")
    from rldp_verify.certificates.identity import identity_evidence

    return Outcome.verified("sympy: the integral of the chord function equals Delta * R_alpha(M, m)",
                            simplified_difference=str(diff), **identity_evidence(
                                "falpha.thm6.integral-closed-form", {"sympy's integral = Delta R_alpha": (total, d * R)},
                                uncovered="the integration itself (sympy.integrate)"))


@claim(
    id="falpha.rem7.dinf-limit",
    paper=PAPER,
    source="Sec. IV, Remark 7, eqs. (35)-(37)",
    statement="D_alpha(Q_X||P_X) <= 1/(alpha-1) log(TV R_alpha(Gamma_max, Gamma_min) + 1) and, as alpha -> inf, the right side "
              "tends to log Gamma_max(X) = D_inf for the pair; with Gamma_min = 0 the (weaker) bound of [6, Thm 35] results.",
    hypotheses=("alpha > 1", "Gammas over a set containing both P_X and Q_X (so the order of the arguments is immaterial)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="Eq. (35) swaps the arguments relative to Theorem 6; with the Gammas taken over the set {P_X, Q_X} "
            "(both orders) the bound holds for both orders, which is what we check.",
)
def check_rem7(ctx):
    rng = ctx.rng("rem7")
    conv, pairs = [], []
    with working_precision(ctx.dps):
        for k in range(12):
            n = 2 + k % 4
            p, q = rand_dist(rng, n), rand_dist(rng, n)
            pairs.append((p, q))
            gmin, gmax = gamma_extremes([p, q])
            tv = to_mpf(total_variation(p, q))
            for a in (2, 5, 20):
                for x, y in ((p, q), (q, p)):
                    from rldp_verify.core.divergence import renyi_divergence
                    lhs = renyi_divergence(x, y, a, dps=ctx.dps)
                    rhs = mpmath.log(tv * to_mpf(R_alpha(gmax, gmin, a)) + 1) / (a - 1)
                    if lhs > rhs * (1 + mpmath.mpf(10) ** -40):
                        return Outcome.refuted("eq. (35) fails", counterexample={"alpha": a, "P": x, "Q": y},
                                               lhs=fstr(lhs), rhs=fstr(rhs), kind="false")
            target = mpmath.log(to_mpf(gmax))
            gaps = []
            for a in (10, 100, 1000, 10000, 100000):
                val = mpmath.log(tv * R_alpha(to_mpf(gmax), to_mpf(gmin), a, dps=ctx.dps) + 1) / (a - 1)
                gaps.append(val - target)
            if not (abs(gaps[-1]) < abs(gaps[0]) and abs(gaps[-1]) < mpmath.mpf("1e-3")):
                return Outcome.inconclusive("no convergence to log Gamma_max", gaps=[fstr(g, 5) for g in gaps])
            conv.append([fstr(g, 4) for g in gaps])
        # R_alpha(u, v) is non-increasing in v, so Gamma_min = 0 gives a valid, weaker bound
        mono = True
        for s in ("1.01", "1.5", "2", "3.7", "12"):
            a = exact(s)
            vs = [Fraction(i, 50) for i in range(51)]
            vals = [R_alpha(Fraction(3), v, a, dps=ctx.dps) for v in vs]
            mono &= all(to_mpf(x) >= to_mpf(y) for x, y in pairwise(vals))
    if not mono:
        return Outcome.refuted("R_alpha not monotone in v", counterexample={"u": 3}, kind="false")
    return Outcome.verified("eq. (35) holds in both orders on random pairs; the gap to log Gamma_max shrinks to "
                            "< 1e-3 by alpha = 1e5 (order 1/alpha); R_alpha is non-increasing in v",
                            gaps_alpha_10_to_1e5=conv[:4],
                            certificate_covers=covers(len(pairs), len(pairs), "eq. (35) in both orders at alpha = 2, 5, "
                                                      "20 (strict), |rhs - log Gamma_max| < 1e-3 at alpha = 1e5 and "
                                                      "smaller than at alpha = 10, and R_alpha(3, v) decreasing on "
                                                      "the grid v = 0, 1/50, ..., 1 at alpha = 1.01, 1.5, 2, 3.7, 12 "
                                                      "(not the limit alpha -> infinity itself)"),
                            **built(rem7_certificate, pairs))


def rem7_certificate(pairs) -> dict:
    """At each sampled pair (P, Q): rhs - D_alpha > 0 for eq. (35) in both orders at alpha = 2, 5, 20, with rhs =
    log(TV R_alpha(Gamma_max, Gamma_min) + 1)/(alpha - 1), TV, the Gammas (over {P, Q}) and R_alpha (eq. (23))
    written from P and Q; 1e-3 - |rhs_1e5 - log Gamma_max| > 0 and |rhs_10 - log Gamma_max| - |rhs_1e5 - log
    Gamma_max| > 0; and R_alpha(3, v) - R_alpha(3, v') > 0 for consecutive v < v' of the grid (at v = 1 the
    removable singularity's limit alpha, eq. (23); at v = 0, (1 - 0^alpha)/(1 - 0) = 1). One ``rigorous-value``, min of all >= 0 strictly, in arb."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.instances_other import all_nonneg
    from rldp_verify.certificates.value import abs_expr

    from ._certs import gamma_exprs, r_alpha_expr

    terms = []
    for p, q in pairs:
        gmin, gmax = gamma_exprs([p, q])
        tv = ["/", ["+", *[abs_expr(["-", x, y]) for x, y in zip(p, q, strict=True)]], 2]

        def rhs(a, gmin=gmin, gmax=gmax, tv=tv):
            return ["/", ["log", ["+", ["*", tv, r_alpha_expr(gmax, gmin, a)], 1]], a - 1]
        for a in (2, 5, 20):
            terms += [["-", rhs(a), renyi_expr(x, y, a)] for x, y in ((p, q), (q, p))]
        g10, g5 = abs_expr(["-", rhs(10), ["log", gmax]]), abs_expr(["-", rhs(100000), ["log", gmax]])
        terms += [["-", Fraction(1, 1000), g5], ["-", g10, g5]]
    for s in ("1.01", "1.5", "2", "3.7", "12"):
        a = exact(s)
        vals = [["-", ["/", ["-", ["pow", 3, a], 1], 2], a if v == 1 else 1 if v == 0 else  # 0^alpha = 0
                 ["/", ["-", 1, ["pow", v, a]], ["-", 1, v]]] for v in (Fraction(i, 50) for i in range(51))]
        terms += [["-", x, y] for x, y in pairwise(vals)]
    return all_nonneg(f"Remark 7: eq. (35) in both orders at {len(pairs)} sampled pairs, its right side within 1e-3 "
                      "of log Gamma_max at alpha = 1e5 (closer than at 10), R_alpha(3, v) decreasing in v", terms,
                      strict=True, exact=False)
